"""`balcao chat`: talk to the agent from a terminal, through the real runtime.

Each line is an inbound message on the test channel (`Gateway.SubmitInbound`, caller identity
"admin"); the reply is what the turn sent, read with `Gateway.GetTurn` (waiting for the turn).
`--explain` shows the declaração, Segurança's vetoes and the trace id; `--say "texto" --json`
sends one message and prints one JSON object so scripts can drive the agent.

In the conversation (not with `--say`), what the business sends on its own while the person is
typing — the confirmation after the Operador booked what was asked, a follow-up — is shown as it
arrives (`Gateway.ListExecutions` of the contact every two seconds, read with `GetTurn`), as it
would pop up on the customer's phone.
"""

from __future__ import annotations

import json
import sys
import threading
import time
import unicodedata
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TextIO

import grpc
from google.protobuf import duration_pb2, json_format, timestamp_pb2

from balcao.crm.v1 import crm_read_pb2 as cr
from balcao.crm.v1 import crm_read_pb2_grpc
from balcao.gateway.v1 import gateway_pb2 as gw
from balcao.gateway.v1 import gateway_pb2_grpc
from balcao.kit.phones import InvalidPhone, normalize_phone

CHANNEL_INSTANCE = "cli"
OUTCOMES = {v: k.removeprefix("TURN_OUTCOME_").lower() for k, v in gw.TurnOutcome.items()}
STATUSES = {v: k.removeprefix("TURN_STATUS_").lower() for k, v in gw.TurnStatus.items()}


class ChatError(Exception):
    """Something the person at the terminal must fix; the text says what."""


def _fold(text: str) -> str:
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()


def resolve_organization(crm: crm_read_pb2_grpc.CrmReadServiceStub, metadata: Any, wanted: str) -> str:
    """An organisation id from an id or a word of its name ("demo")."""
    try:
        return str(uuid.UUID(wanted))
    except ValueError:
        pass
    matches: list[tuple[str, str]] = []
    page = ""
    while True:
        response = crm.ListOrganizations(
            cr.ListOrganizationsRequest(page_size=100, page_token=page), metadata=metadata, timeout=10
        )
        for organization in response.organizations:
            if _fold(wanted) in _fold(organization.name).split() or _fold(wanted) == _fold(organization.name):
                matches.append((organization.organization_id, organization.name))
        page = response.next_page_token
        if not page:
            break
    if not matches:
        raise ChatError(f"nenhuma organização com {wanted!r} no nome; rode `balcao seed-demo` primeiro")
    if len(matches) > 1:
        names = ", ".join(f"{name} ({oid})" for oid, name in matches)
        raise ChatError(f"mais de uma organização com {wanted!r} no nome: {names}; use o id")
    return matches[0][0]


@dataclass
class Exchange:
    inbound_id: str
    contact_id: str
    status: str
    turn: gw.TurnResult

    def as_json(self) -> dict[str, Any]:
        turn = self.turn
        return {
            "reply": "\n\n".join(p.text for p in turn.reply_parts),
            "parts": [p.text for p in turn.reply_parts],
            "status": STATUSES.get(turn.status, "unspecified"),
            "outcome": OUTCOMES.get(turn.outcome, "unspecified"),
            "declaracao": json_format.MessageToDict(turn.declaracao) if turn.HasField("declaracao") else None,
            "vetoes": [
                {"attempt": v.attempt, "gate": v.gate, "code": v.code, "guidance": v.guidance_pt} for v in turn.vetoes
            ],
            "trace_id": turn.trace_id,
            "turn_id": turn.turn_id,
            "inbound_id": self.inbound_id,
            "contact_id": self.contact_id,
            "detail": turn.detail_pt,
        }


class Chat:
    def __init__(self, gateway: gateway_pb2_grpc.GatewayServiceStub, metadata: Any, organization_id: str, phone: str):
        self._gateway = gateway
        self._metadata = metadata
        self.organization_id = organization_id
        self.phone = phone
        self.contact_id = ""
        # Turns already shown (the person's own exchanges, and what came on its own); a turn of the
        # contact from before this chat started is not news.
        self._shown: set[str] = set()
        self._started = time.time()
        self._lock = threading.Lock()

    def say(self, text: str, *, wait_seconds: float = 120.0) -> Exchange:
        with self._lock:  # the news reader must not take this exchange's own turn for news
            exchange = self._say(text, wait_seconds=wait_seconds)
            self.contact_id = self.contact_id or exchange.contact_id
            if exchange.turn.turn_id:
                self._shown.add(exchange.turn.turn_id)
            return exchange

    def news(self) -> list[str]:
        """What the business sent this contact on its own since the last look (oldest first)."""
        with self._lock:
            if not self.contact_id:
                return []
            page = self._gateway.ListExecutions(
                gw.ListExecutionsRequest(organization_id=self.organization_id, contact_id=self.contact_id,
                                         page_size=20),
                metadata=self._metadata, timeout=10,
            )
            texts: list[str] = []
            for summary in reversed(page.executions):
                if summary.turn_id in self._shown or summary.status not in (gw.TURN_STATUS_DONE, gw.TURN_STATUS_FAILED):
                    continue
                self._shown.add(summary.turn_id)
                if summary.started_at.seconds + summary.started_at.nanos / 1e9 < self._started - 1:
                    continue
                turn = self._gateway.GetTurn(
                    gw.GetTurnRequest(organization_id=self.organization_id, turn_id=summary.turn_id),
                    metadata=self._metadata, timeout=10,
                ).turn
                texts.extend(p.text for p in turn.reply_parts)
            return texts

    def _say(self, text: str, *, wait_seconds: float) -> Exchange:
        sent_at = timestamp_pb2.Timestamp()
        sent_at.GetCurrentTime()
        try:
            accepted = self._gateway.SubmitInbound(
                gw.SubmitInboundRequest(
                    organization_id=self.organization_id,
                    message=gw.InboundMessage(
                        channel=gw.CHANNEL_TEST,
                        channel_instance=CHANNEL_INSTANCE,
                        phone=self.phone,
                        message_id=str(uuid.uuid4()),
                        type=gw.MESSAGE_TYPE_TEXT,
                        text=text,
                        sent_at=sent_at,
                    ),
                ),
                metadata=self._metadata,
                timeout=30,
            )
        except grpc.RpcError as exc:
            raise ChatError(f"o gateway recusou a mensagem: {exc.details()}") from exc  # type: ignore[attr-defined]
        deadline = time.monotonic() + wait_seconds
        while True:
            remaining = max(0.0, deadline - time.monotonic())
            response = self._gateway.GetTurn(
                gw.GetTurnRequest(
                    organization_id=self.organization_id,
                    inbound_id=accepted.inbound_id,
                    wait=duration_pb2.Duration(seconds=int(min(30, max(1, remaining)))),
                ),
                metadata=self._metadata,
                timeout=40,
            )
            finished = response.turn.status in (gw.TURN_STATUS_DONE, gw.TURN_STATUS_FAILED)
            if finished or time.monotonic() >= deadline:
                return Exchange(accepted.inbound_id, accepted.contact_id, str(accepted.status), response.turn)


def render(exchange: Exchange, *, explain: bool) -> str:
    turn = exchange.turn
    lines = [f"agente> {p.text}" for p in turn.reply_parts]
    if not lines:
        status = STATUSES.get(turn.status, "?")
        reason = turn.detail_pt or ("o atendimento ainda não terminou" if status not in ("done", "failed") else "")
        lines.append(f"(nenhuma mensagem enviada{': ' + reason if reason else ''})")
    if explain:
        data = exchange.as_json()
        lines.append(f"  · desfecho: {data['outcome']} ({data['status']})")
        declaracao = data["declaracao"]
        if declaracao is None:
            lines.append("  · declaração: (sem declaração: resposta fixa)")
        else:
            lines.append(f"  · declaração: {json.dumps(declaracao, ensure_ascii=False)}")
        for veto in data["vetoes"]:
            lines.append(f"  · veto na tentativa {veto['attempt']} ({veto['gate']}): {veto['guidance']}")
        lines.append(f"  · trace id: {data['trace_id'] or '(sem trace)'}")
    return "\n".join(lines)


def run(
    *,
    gateway_address: str,
    crm_address: str,
    token: str,
    organization: str,
    phone: str,
    say: str | None,
    as_json: bool,
    explain: bool,
    read_line: Callable[[str], str] = input,
    out: TextIO = sys.stdout,
) -> int:
    try:  # the gateway's own rule, checked here so the person hears about the number, not an RPC
        phone = normalize_phone(phone)
    except InvalidPhone:
        raise ChatError(
            f"--phone {phone!r} não é um número de telefone válido (ex.: +5511987654321 ou (11) 98765-4321)"
        ) from None
    metadata = (("authorization", f"Bearer {token}"),)
    with grpc.insecure_channel(gateway_address) as gateway_channel, grpc.insecure_channel(crm_address) as crm_channel:
        try:
            org = resolve_organization(crm_read_pb2_grpc.CrmReadServiceStub(crm_channel), metadata, organization)
        except grpc.RpcError as exc:
            raise ChatError(f"não consegui falar com o crm em {crm_address}: {exc.details()}") from exc  # type: ignore[attr-defined]
        chat = Chat(gateway_pb2_grpc.GatewayServiceStub(gateway_channel), metadata, org, phone)
        if say is not None:
            exchange = chat.say(say)
            out.write(
                json.dumps(exchange.as_json(), ensure_ascii=False) if as_json else render(exchange, explain=explain)
            )
            out.write("\n")
            return 0
        out.write("Conversa com o agente (Ctrl-D para sair).\n")
        stop = threading.Event()
        reader = threading.Thread(target=_show_news, args=(chat, out, stop), daemon=True)
        reader.start()
        try:
            while True:
                try:
                    text = read_line("você> ")
                except EOFError:
                    out.write("\n")
                    return 0
                if not text.strip():
                    continue
                out.write(render(chat.say(text), explain=explain) + "\n")
                out.flush()
        finally:
            stop.set()
            reader.join(timeout=5)


def _show_news(chat: Chat, out: TextIO, stop: threading.Event, every: float = 2.0) -> None:
    """Print what the business sends on its own, as it arrives, until told to stop."""
    while not stop.wait(every):
        try:
            texts = chat.news()
        except grpc.RpcError:
            continue  # the gateway restarting: the next look catches up
        for text in texts:
            out.write(f"\nagente> {text}\nvocê> ")
            out.flush()
