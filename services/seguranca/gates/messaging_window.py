"""`messaging_window`: outside a channel's 24-hour customer-service window, no free-form message.

Channels without such a window (the Evolution API, web) record skipped:not_applicable. The veto
is final: no rewrite reopens the window (only an approved template could), so the runtime does
not ask for a revision and someone is told through the Central.
"""

from __future__ import annotations

from datetime import timedelta

from services.seguranca.context import Context
from services.seguranca.verdict import PASSED, GateResult, not_applicable, vetoed

NAME = "messaging_window"
WINDOW = timedelta(hours=24)

CLOSED = (
    "Já se passaram mais de 24 horas desde a última mensagem do cliente: este canal não permite "
    "mandar uma mensagem livre agora, e ela não chegaria a ele."
)
CLOSED_CENTRAL = (
    "Uma mensagem não foi enviada porque a janela de 24 horas do WhatsApp com este contato está "
    "fechada; só um modelo de mensagem aprovado pode retomar a conversa."
)

_WITHOUT_WINDOW = not_applicable(f"{NAME}:channel_without_window")


def check(ctx: Context) -> GateResult:
    if not ctx.outbound.channel.has_service_window:
        return _WITHOUT_WINDOW
    last = ctx.outbound.contact.last_inbound_at
    if last is not None and ctx.now - last <= WINDOW:
        return PASSED
    return vetoed(NAME, "window_closed", CLOSED, revisable=False, central_item_pt=CLOSED_CENTRAL)
