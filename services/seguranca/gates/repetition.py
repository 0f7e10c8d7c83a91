"""`repetition`: near-identical (token Jaccard ≥ 0.8) to one of the last 20 messages this number sent.

Anti-ban (a number repeating itself looks like a bulk sender) and anti-loop (an agent answering
the same thing twice). Texts the owner wrote once for the reply catalog, the hand-off message
and the holding reply are meant to repeat and are not judged.
"""

from __future__ import annotations

from functools import lru_cache
from operator import attrgetter

from services.seguranca.context import Context
from services.seguranca.facts import OutboundKind
from services.seguranca.text import fold, words
from services.seguranca.verdict import PASSED, GateResult, not_applicable, vetoed

NAME = "repetition"
THRESHOLD = 0.8
WINDOW = 20

GUIDANCE = (
    "Esta mensagem é praticamente igual a uma que acabou de ser enviada: para o cliente, parece "
    "uma resposta automática repetida. Escreva de outro jeito, respondendo ao que ele disse agora."
)


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    if not a and not b:
        return 1.0
    return len(a & b) / len(a | b)


# The sender's recent messages recur from one review to the next (a sliding window of 20).
@lru_cache(maxsize=4096)
def tokens(text: str) -> frozenset[str]:
    return frozenset(words(fold(text)))


_text_of = attrgetter("text")


def check(ctx: Context) -> GateResult:
    kind = ctx.outbound.kind
    if ctx.catalog_text or kind is OutboundKind.HANDOFF or kind is OutboundKind.HOLDING_REPLY:
        return not_applicable(f"{NAME}:catalog_text")
    draft = ctx.text.token_set
    if not draft:
        return PASSED
    size = len(draft)
    shortest_alike = THRESHOLD * size
    recent = ctx.outbound.history.from_sender[:WINDOW]
    # The usual case, decided in C: even the longest recent message is too short to be alike.
    if not recent or (max(map(len, map(_text_of, recent))) + 1) // 2 < shortest_alike:
        return PASSED
    for sent in recent:
        # A text of n characters has at most (n + 1) // 2 words: a message too short to hold
        # `shortest_alike` words is ruled out before it is even split into words.
        if (len(sent.text) + 1) // 2 < shortest_alike:
            continue
        other = tokens(sent.text)
        # |A∩B|/|A∪B| ≤ min/max of the sizes: most messages are ruled out without a set operation.
        other_size = len(other)
        if (other_size < THRESHOLD * size) if other_size < size else (size < THRESHOLD * other_size):
            continue
        if jaccard(draft, other) >= THRESHOLD:
            return vetoed(NAME, "near_duplicate", GUIDANCE)
    return PASSED
