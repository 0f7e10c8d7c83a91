"""The controller's last step: a model chooses the unit when an organisation has several.

The model reads the units (name and subjects) and the customer's messages and answers with a
number. An answer that names no unit falls back to the default unit, and so does a model that
fails: choosing a unit never fails a turn. The offline model learns this task here, choosing by
the subjects the messages mention, so the mesh works with no key.
"""

from __future__ import annotations

import json
import logging
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass

from balcao.models.base import Message, ModelError, ModelProvider, ModelRequest, TextPart, ToolCall, Usage
from services.gateway.controller import UnitInfo, choose_by_subjects

log = logging.getLogger(__name__)

TASK = "gateway.classify_unit"

SYSTEM = (
    "Você faz a triagem das mensagens de clientes de uma empresa. Escolha qual unidade de atendimento "
    "deve responder, pelo assunto das mensagens. Responda apenas com o número da unidade."
)
_FENCE = re.compile(r"```json\n(.*?)\n```", re.S)


@dataclass(frozen=True, slots=True)
class Classification:
    unit_id: str
    provider: str = ""
    model: str = ""
    usage: Usage | None = None
    duration_ms: int = 0
    failed: bool = False


def prompt(texts: Sequence[str], units: Sequence[UnitInfo]) -> str:
    listing = [{"numero": i + 1, "unidade": u.name, "assuntos": u.description} for i, u in enumerate(units)]
    payload = json.dumps({"unidades": listing, "mensagens": list(texts)}, ensure_ascii=False)
    return f"Unidades e mensagens:\n```json\n{payload}\n```\nQual o número da unidade que deve responder?"


def offline_behaviour(request: ModelRequest) -> list[TextPart | ToolCall]:
    """The offline model's answer: the unit whose subjects the messages mention most."""
    match = _FENCE.search(request.messages[-1].text)
    data = json.loads(match.group(1)) if match else {}
    units = [UnitInfo(str(u["numero"]), u["unidade"], u["assuntos"]) for u in data.get("unidades", [])]
    chosen = choose_by_subjects(data.get("mensagens", []), units, units[0].unit_id if units else "1")
    return [TextPart(chosen)]


def teach_offline(model: ModelProvider) -> None:
    register = getattr(model, "register", None)
    if model.name == "offline" and register is not None:
        register(TASK, offline_behaviour)


async def classify(
    model: ModelProvider, texts: Sequence[str], units: Sequence[UnitInfo], default_unit_id: str
) -> Classification:
    fallback = default_unit_id or (units[0].unit_id if units else "")
    request = ModelRequest(SYSTEM, (Message.user(prompt(texts, units)),), max_tokens=16, tier="cheap", task=TASK)
    started = time.monotonic()
    try:
        response = await model.complete(request)
    except ModelError as exc:
        log.warning("unit classification failed; the default unit answers", extra={"error": str(exc)})
        return Classification(fallback, failed=True)
    elapsed = int((time.monotonic() - started) * 1000)
    found = re.search(r"\d+", response.text)
    index = int(found.group(0)) - 1 if found else -1
    unit = units[index].unit_id if 0 <= index < len(units) else fallback
    return Classification(unit, response.provider, response.model, response.usage, elapsed)
