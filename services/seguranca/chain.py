"""The gate chain: thirteen gates in a fixed order, each leaving one trace line.

`Chain.review(config, outbound, now)` is pure domain code: a frozen configuration and the facts
of one send in, a `Verdict` out (the only outside call is the opt-in model reviewer). The order,
the names and `CHAIN_VERSION` are locked by a test; changing any of them is a new version.

What the chain does with what a gate says:
- a revisable veto is collected and the next gates still run, so one revision can fix them all;
- a final veto (`stop`, `lgpd`, a closed messaging window) skips every later gate
  (skipped:not_applicable, code `chain:after_final_veto`): nothing may be sent at all;
- a pacing wait is collected; the message waits unless something also vetoed it;
- a rewrite (`disclosure`) changes the body the later gates see; `format` splits the final body.
No gate is ever released by repetition: the attempt number is for the trace only.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, fields
from datetime import datetime
from functools import lru_cache

from services.seguranca.context import Context
from services.seguranca.facts import OrganizationConfig, Outbound
from services.seguranca.gates import (
    case_promise,
    commercial_promise,
    disclosure,
    internal_vocabulary,
    lgpd,
    messaging_window,
    pacing,
    repetition,
    semantic_promise,
    stop,
    third_party_data,
    unbacked_claim,
)
from services.seguranca.gates import format as format_gate
from services.seguranca.reviewers import SemanticPromiseReviewer
from services.seguranca.verdict import (
    PASSED,
    Decision,
    GateResult,
    Status,
    TraceLine,
    Verdict,
    Veto,
    Wait,
    not_applicable,
)
from services.seguranca.vocabulary import VocabularyIndex, contract_index

CHAIN_VERSION = 1


@dataclass(frozen=True, slots=True)
class GateSpec:
    name: str
    label_pt: str
    explanation_pt: str
    check: Callable[[Context], GateResult] | None
    switchable: bool = True
    enabled_by_default: bool = True
    uses_model: bool = False


GATES: tuple[GateSpec, ...] = (
    GateSpec(
        stop.NAME,
        "Pedido de parar",
        "Nada é enviado a quem a empresa bloqueou, a quem pediu para não receber mais mensagens ou "
        "quando uma pessoa da equipe assumiu a conversa. Não pode ser desligado.",
        stop.check,
        switchable=False,
    ),
    GateSpec(
        lgpd.NAME,
        "Proteção de dados (LGPD)",
        "Nada vai para quem teve os dados apagados, nem uma primeira mensagem de prospecção sem base "
        "legal registrada; nesses casos aparece um aviso na Central. Desligar permite esses envios.",
        lgpd.check,
    ),
    GateSpec(
        pacing.NAME,
        "Ritmo de envio",
        "Mensagens que o assistente inicia respeitam o horário de silêncio, o limite diário do número "
        "(e o aquecimento de um número novo) e o intervalo entre mensagens para a mesma pessoa: elas "
        "esperam, não são descartadas. Desligar envia na hora, com mais risco de bloqueio do número.",
        pacing.check,
    ),
    GateSpec(
        messaging_window.NAME,
        "Janela de 24 horas",
        "Nos canais com janela de atendimento de 24 horas, nenhuma mensagem livre sai depois que ela "
        "fecha. Desligar faz o canal recusar essas mensagens na hora do envio.",
        messaging_window.check,
    ),
    GateSpec(
        repetition.NAME,
        "Mensagem repetida",
        "Impede mandar uma mensagem quase igual a uma das últimas 20 enviadas pelo número, o que "
        "parece robô e arrisca o bloqueio. Desligar permite repetições.",
        repetition.check,
    ),
    GateSpec(
        commercial_promise.NAME,
        "Promessa comercial",
        "Impede citar preço, desconto, parcelamento, gratuidade ou garantia que a empresa não "
        "autorizou. Desligar deixa o assistente prometer condições que ninguém aprovou.",
        commercial_promise.check,
    ),
    GateSpec(
        semantic_promise.NAME,
        "Revisor de promessas (IA)",
        "Um modelo de IA confere cada mensagem com o que foi consultado no atendimento antes do "
        "envio. Vem desligado: ligar custa uma chamada de IA por mensagem enviada.",
        None,
        enabled_by_default=False,
        uses_model=True,
    ),
    GateSpec(
        case_promise.NAME,
        "Promessa de atendimento humano",
        "Impede prometer que uma pessoa vai falar com o cliente quando nenhum atendimento humano foi "
        "aberto. Desligar deixa clientes esperando um contato que ninguém vai fazer.",
        case_promise.check,
    ),
    GateSpec(
        unbacked_claim.NAME,
        "Ação sem comprovação",
        "Impede dizer que algo foi confirmado, marcado, cancelado ou registrado sem prova: um horário "
        "só é dado como confirmado quando a reserva confirmada existe, com a mesma data e hora. "
        "Desligar deixa o assistente afirmar o que não aconteceu.",
        unbacked_claim.check,
    ),
    GateSpec(
        internal_vocabulary.NAME,
        "Termos internos",
        "Impede que a mensagem mostre nomes internos do sistema, códigos de erro ou identificadores. "
        "Desligar pode expor ao cliente detalhes técnicos sem sentido para ele.",
        internal_vocabulary.check,
    ),
    GateSpec(
        third_party_data.NAME,
        "Dados de terceiros",
        "Impede enviar telefone, e-mail ou CPF de outras pessoas; os do próprio cliente e os contatos "
        "públicos da empresa passam. Desligar pode expor dados pessoais de terceiros.",
        third_party_data.check,
    ),
    GateSpec(
        disclosure.NAME,
        "Aviso de assistente virtual",
        "A primeira mensagem para cada pessoa diz que ela fala com uma assistente virtual (acrescentado "
        "automaticamente, ou exigido do assistente, conforme a preferência). Desligar omite o aviso.",
        disclosure.check,
    ),
    GateSpec(
        format_gate.NAME,
        "Formato da mensagem",
        "Impede mensagem vazia e divide uma mensagem maior que o limite do canal em partes, entre "
        "frases. Desligar deixa o canal cortar ou recusar mensagens longas.",
        format_gate.check,
    ),
)

GATE_NAMES: tuple[str, ...] = tuple(spec.name for spec in GATES)
# Every word a gate looks for among a message's words (`Context.notable_words`), the contract
# names aside (they come with the vocabulary index).
NOTABLE_WORDS = frozenset().union(
    case_promise.NOTABLE_WORDS,
    commercial_promise.NOTABLE_WORDS,
    unbacked_claim.NOTABLE_WORDS,
    internal_vocabulary.NOTABLE_WORDS,
)
_SPECS = {spec.name: spec for spec in GATES}


_AFTER_FINAL_VETO = not_applicable("chain:after_final_veto")
_DISABLED = GateResult(Status.DISABLED)
_PASSED_STATUS = PASSED.status
_NO_COUNTS = PASSED.counts
_new_line = tuple.__new__
# The frozen `Verdict` made without its generated `__init__` (which sets each of its eight fields
# through `object.__setattr__` and sorts out keyword defaults): the same object, field for field,
# written through the slots' own descriptors, about half the cost. One verdict per review.
_new_verdict = object.__new__
(
    _set_decision,
    _set_trace,
    _set_version,
    _set_body,
    _set_parts,
    _set_rewritten,
    _set_wait,
    _set_vetoes,
) = (getattr(Verdict, field.name).__set__ for field in fields(Verdict))


def _verdict(
    decision: Decision,
    trace: tuple[TraceLine, ...],
    body: str = "",
    parts: tuple[str, ...] = (),
    rewritten: bool = False,
    wait: Wait | None = None,
    vetoes: tuple[Veto, ...] = (),
) -> Verdict:
    verdict = _new_verdict(Verdict)
    _set_decision(verdict, decision)
    _set_trace(verdict, trace)
    _set_version(verdict, CHAIN_VERSION)
    _set_body(verdict, body)
    _set_parts(verdict, parts)
    _set_rewritten(verdict, rewritten)
    _set_wait(verdict, wait)
    _set_vetoes(verdict, vetoes)
    return verdict


if tuple(field.name for field in fields(Verdict)) != (
    "decision",
    "trace",
    "chain_version",
    "body",
    "parts",
    "body_rewritten",
    "wait",
    "vetoes",
):
    raise RuntimeError("Verdict's fields changed: update _verdict()")

# In a plan, where the model reviewer runs (it is awaited, the others are plain calls).
_SEMANTIC = object()

# One step of the review loop: the gate's name, its position and what to call (`None`: switched off).
Step = tuple[str, int, "Callable[[Context], GateResult] | object | None"]


def _steps(switches: dict[str, bool]) -> tuple[Step, ...]:
    steps = []
    for position, spec in enumerate(GATES, start=1):
        enabled = not spec.switchable or switches.get(spec.name, spec.enabled_by_default)
        check = (spec.check if spec.check is not None else _SEMANTIC) if enabled else None
        steps.append((spec.name, position, check))
    return tuple(steps)


@lru_cache(maxsize=1024)
def _plan(gates_enabled: tuple[tuple[str, bool], ...]) -> tuple[Step, ...]:
    """The steps for one organisation's switches, worked out once per distinct set of switches
    rather than gate by gate on every review (the configuration is re-read on every review; its
    switches rarely change)."""
    return _steps(dict(gates_enabled))


class UnknownGate(ValueError):
    """A gate name that is not in the chain."""


def is_enabled(config: OrganizationConfig, name: str) -> bool:
    """Whether `name` runs for the organisation: its switch, or the gate's default; `stop` always."""
    spec = _SPECS.get(name)
    if spec is None:
        raise UnknownGate(name)
    if not spec.switchable:
        return True
    return dict(config.gates_enabled).get(name, spec.enabled_by_default)


class Chain:
    """The chain with what it needs once per process: the contract index and the model reviewer."""

    def __init__(
        self,
        *,
        vocabulary: VocabularyIndex | None = None,
        semantic_reviewer: SemanticPromiseReviewer | None = None,
    ) -> None:
        self.vocabulary = vocabulary if vocabulary is not None else contract_index()
        self.semantic_reviewer = semantic_reviewer
        self._notable = NOTABLE_WORDS | self.vocabulary.camel_folded

    async def review(self, config: OrganizationConfig, outbound: Outbound, now: datetime) -> Verdict:
        ctx = Context(config, outbound, now, self.vocabulary, self._notable)
        switches = config.gates_enabled or ()
        try:
            plan = _plan(switches)
        except TypeError:  # switches that cannot be a cache key (not a tuple of pairs): worked out here
            plan = _steps(dict(switches))
        trace: list[TraceLine] = []
        add_line = trace.append
        vetoes: list[Veto] = []
        waits: list[Wait] = []
        parts: tuple[str, ...] | None = None
        rewritten = False
        final = False
        # One clock reading per gate: a gate's time runs from the previous gate's end to its own
        # (the previous trace line's bookkeeping included), which halves the readings.
        clock = time.perf_counter_ns
        started = clock()
        for name, position, check in plan:
            if final:
                result = _AFTER_FINAL_VETO
            elif check is None:
                result = _DISABLED
            elif check is _SEMANTIC:
                result = await semantic_promise.check(ctx, self.semantic_reviewer)
            else:
                result = check(ctx)  # type: ignore[operator]
            ended = clock()
            elapsed = ended - started
            started = ended
            if result is PASSED:  # the usual answer: nothing to collect
                add_line(_new_line(TraceLine, (name, position, _PASSED_STATUS, "", False, _NO_COUNTS, elapsed)))
                continue
            status, code, veto, wait, counts, body, split = result
            if body is not None:
                ctx.body = body
                rewritten = True
            if split is not None:
                parts = split
            if veto is not None:
                vetoes.append(veto)
                final = final or not veto.revisable
            if wait is not None:
                waits.append(wait)
            # `tuple.__new__` skips the named tuple's Python-level constructor (thirteen lines a review).
            line = (name, position, status, code, body is not None or split is not None, counts, elapsed)
            add_line(_new_line(TraceLine, line))
        if vetoes:
            return _verdict(Decision.VETOED, tuple(trace), vetoes=tuple(vetoes))
        if waits:
            return _verdict(Decision.WAIT, tuple(trace), wait=max(waits, key=lambda w: w.until))
        return _verdict(
            Decision.APPROVED, tuple(trace), ctx.body, parts if parts is not None else (ctx.body,), rewritten
        )
