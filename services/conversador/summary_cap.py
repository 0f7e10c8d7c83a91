"""The `rolling_summary` cap (seed 001), off by default.

With `ROLLING_SUMMARY_MAX_TOKENS` set and a closing's summary above it, one extra call to the
cheap model condenses the summary, and only the summary. The condensed text is accepted only
if it parses, is shorter, and keeps every token that contains a digit (dates, amounts, phones,
order numbers); otherwise the original stays. With the knob off nothing here runs.

When to turn it on is measured, read-only, by `balcao report summary-p95` (the trigger: the p95
of the latest checkpoint per contact, by `seq`, above 2,500 characters).
"""

from __future__ import annotations

import logging
import math
import re
from dataclasses import dataclass

from balcao.conversador.v1 import conversador_pb2 as cv
from balcao.models import conversador_format as fmt
from balcao.models.base import Message, ModelError, ModelProvider, ModelRequest
from services.conversador.model_calls import call_model
from services.conversador.tape import CHARS_PER_TOKEN

log = logging.getLogger(__name__)

_EDGE_PUNCTUATION = ".,;:!?()[]{}\"'«»“”‘’…"

CONDENSE_SYSTEM = (
    "Você condensa o resumo de atendimento de um cliente sem perder informação útil. "
    "Mantenha pedidos, preferências e combinados; tire repetições e detalhes que já não importam. "
    "Todo trecho com algarismos (datas, horários, valores, telefones, números de pedido) deve aparecer "
    "exatamente como está, sem reescrever. "
    'Responda só com um objeto JSON: {"rolling_summary": "o resumo condensado"}.'
)


def estimated_tokens(text: str) -> int:
    return math.ceil(len(text) / CHARS_PER_TOKEN)


def digit_tokens(text: str) -> set[str]:
    """Whitespace-separated tokens that contain a digit, without the punctuation around them."""
    tokens = (t.strip(_EDGE_PUNCTUATION) for t in text.split())
    return {t for t in tokens if re.search(r"\d", t)}


def acceptable(original: str, condensed: str) -> bool:
    if not condensed.strip() or len(condensed) >= len(original):
        return False
    kept = {t.strip(_EDGE_PUNCTUATION) for t in condensed.split()}
    return digit_tokens(original) <= kept


@dataclass
class Condensation:
    summary: str
    condensed: bool
    usage: cv.ModelUsage | None = None


def over_cap(summary: str, max_tokens: int | None) -> bool:
    return bool(max_tokens) and estimated_tokens(summary) > int(max_tokens or 0)


async def condense(model: ModelProvider, summary: str, max_tokens: int) -> Condensation:
    """One call to the cheap model; the original stays unless the result passes every check."""
    limit = int(max_tokens * CHARS_PER_TOKEN)
    request = ModelRequest(
        system=CONDENSE_SYSTEM,
        messages=(
            Message.user(f"Condense para no máximo {limit} caracteres.\n\n{fmt.SUMMARY_TO_CONDENSE}\n{summary}"),
        ),
        max_tokens=max(256, max_tokens * 2),
        tier="cheap",
        task=fmt.TASK_CONDENSE,
    )
    try:
        response, usage = await call_model(model, request, cv.MODEL_CALL_PURPOSE_SUMMARY_CONDENSATION)
    except ModelError as exc:
        log.warning("summary condensation failed; the original stays", extra={"error": str(exc)})
        return Condensation(summary, False)
    try:
        value = fmt.first_json_object(response.text)
    except ValueError:
        log.info("summary condensation did not parse; the original stays")
        return Condensation(summary, False, usage)
    candidate = value.get("rolling_summary")
    if not isinstance(candidate, str) or not acceptable(summary, candidate.strip()):
        # Only a count: the lost tokens may be a customer's phone or document.
        lost = len(digit_tokens(summary) - digit_tokens(candidate if isinstance(candidate, str) else ""))
        log.info("summary condensation refused; the original stays", extra={"lost_digit_tokens": lost})
        return Condensation(summary, False, usage)
    return Condensation(candidate.strip(), True, usage)
