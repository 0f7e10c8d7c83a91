"""The gates of the chain, one module per gate; `services.seguranca.chain` puts them in order.

Each module has a `NAME` (the stable trace name) and a `check(ctx) -> GateResult` function
(`semantic_promise`'s is async: it may call a model). A gate never reads another gate's result;
the chain decides what a veto, a wait or a rewrite does to the rest.
"""
