"""A scripted model behind the local Messages API server, for a conversador process of the tests.

The conversador runs unchanged with the real Anthropic SDK pointed at `tests/support/messages_api`;
this module answers its calls. Drafts and revisions are routed by the organisation's name (it is
in the system prompt), so each test scripts its own organisation; closings get a checkpoint that
repeats what the closing was told (the customer's messages, what was sent, the agenda re-read),
so a test can see in the stored checkpoint what the closing model saw. Every call is recorded,
which is how a test proves that no model was called.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from balcao.models import conversador_format as fmt
from balcao.models.base import ModelProvider, ModelRequest, ModelResponse, TextPart, Usage
from tests.support.messages_api import MessagesAPI, reply_text


@dataclass
class Call:
    kind: str  # "draft", "revision", "repair", "closing", "other"
    system: str
    text: str  # the whole user side, joined
    customer: list[str] = field(default_factory=list)  # the new customer messages of a draft
    guidance: list[str] = field(default_factory=list)  # a revision's guidance lines
    agenda: str = ""  # the closing's agenda section

    def mentions(self, marker: str) -> bool:
        return marker in self.system or marker in self.text


def _texts(body: dict[str, Any]) -> tuple[str, list[str]]:
    system = body.get("system") or ""
    if isinstance(system, list):
        system = "\n".join(b.get("text", "") for b in system)
    users = []
    for message in body.get("messages", []):
        if message.get("role") != "user":
            continue
        content = message.get("content")
        if isinstance(content, str):
            users.append(content)
        else:
            users.extend(b.get("text", "") for b in content if b.get("type") == "text")
    return system, users


def parse(body: dict[str, Any]) -> Call:
    system, users = _texts(body)
    text = "\n".join(users)
    last = users[-1] if users else ""
    if fmt.CLOSE_NOW in text:
        return Call("closing", system, text, agenda=fmt.sections(users[0]).get(fmt.AGENDA, ""))
    if last.startswith(fmt.REVISION):
        guidance = [line[2:] for line in last.splitlines() if line.startswith("- ")]
        return Call("revision", system, text, customer=_customer(users[0]), guidance=guidance)
    if last.startswith("A resposta não pôde ser aceita"):
        return Call("repair", system, text, customer=_customer(users[0]))
    if fmt.WRITE_NOW in text:
        return Call("draft", system, text, customer=_customer(users[0]))
    return Call("other", system, text)


def _customer(first: str) -> list[str]:
    section = fmt.sections(first).get(fmt.NEW_MESSAGES, "")
    return [m.text for m in fmt.read_messages(section) if m.author == "customer"]


def draft(
    mensagem: str, *, intencoes: list[dict[str, Any]] | None = None, promessas: list[dict[str, Any]] | None = None
) -> str:
    intencoes = intencoes or []
    promessas = promessas or []
    return json.dumps(
        {
            "mensagem": mensagem,
            "declaracao": {
                "intencoes": intencoes,
                "promessas": promessas,
                "nada_a_declarar": not intencoes and not promessas,
            },
        },
        ensure_ascii=False,
    )


def echo(call: Call) -> str:
    """The default answer: a reply that shows which customer messages it answers."""
    return draft("Recebi: " + " | ".join(call.customer) if call.customer else "Olá! Como posso ajudar?")


def closing(call: Call) -> str:
    sections = fmt.sections(call.text)
    customer = [m.text for m in fmt.read_messages(sections.get(fmt.TURN_MESSAGES, ""))]
    agenda = call.agenda
    data = fmt.read_json(agenda) if "```json" in agenda else None
    if agenda.startswith("DESCONHECIDA") or (isinstance(data, dict) and data.get("agenda_consultada") is False):
        agenda_note = "agenda desconhecida (a releitura falhou)"
    elif isinstance(data, dict):
        labels = [f"{c.get('quando', '')} ({c.get('inicio', '')})" for c in data.get("compromissos", [])]
        agenda_note = "agenda relida: " + ("; ".join(labels) if labels else "nenhum compromisso ativo e futuro")
    else:
        agenda_note = "agenda não relida"
    return json.dumps(
        {
            "rolling_summary": f"Cliente escreveu: {' | '.join(customer) or '(nada)'}. {agenda_note}.",
            "commitments": [],
            "objections": [],
            "next_action": "aguardar a resposta do cliente",
        },
        ensure_ascii=False,
    )


Behaviour = Callable[[Call], str]


class ScriptedModel:
    """Answers every call of the conversador; per-organisation draft behaviours, recorded calls."""

    def __init__(self, api: MessagesAPI) -> None:
        self.api = api
        self.calls: list[Call] = []
        self.behaviours: dict[str, Behaviour] = {}
        self._lock = threading.Lock()
        self._refill()

    def _refill(self) -> None:
        self.api.then(*([self] * 500))

    def script(self, organization_name: str, behaviour: Behaviour) -> None:
        self.behaviours[organization_name] = behaviour

    def calls_for(self, marker: str) -> list[Call]:
        with self._lock:
            return [c for c in self.calls if c.mentions(marker)]

    def count(self) -> int:
        with self._lock:
            return len(self.calls)

    def __call__(self, body: dict[str, Any]) -> dict[str, Any]:
        call = parse(body)
        with self._lock:
            self.calls.append(call)
            if len(self.api.script) < 50:
                self._refill()
        if call.kind == "closing":
            return reply_text(closing(call))
        behaviour = next((b for name, b in self.behaviours.items() if call.mentions(name)), echo)
        return reply_text(behaviour(call))


class Gate:
    """Holds a scripted answer until the test lets it go (the model is "writing the draft")."""

    def __init__(self) -> None:
        self.reached = threading.Event()
        self.released = threading.Event()

    def hold(self, timeout: float = 60.0) -> None:
        self.reached.set()
        self.released.wait(timeout)

    def release(self) -> None:
        self.released.set()


class UnitChooser(ModelProvider):
    """The gateway's model double: it answers the unit classification and records each call."""

    name = "scripted"

    def __init__(self, answer: str = "1") -> None:
        self.answer = answer
        self.requests: list[ModelRequest] = []

    async def complete(self, request: ModelRequest) -> ModelResponse:
        self.requests.append(request)
        return ModelResponse((TextPart(self.answer),), Usage(12, 1), self.name, "scripted-1")
