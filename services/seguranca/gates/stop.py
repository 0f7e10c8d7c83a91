"""`stop`: the contact is blocked, opted out, or a person has the conversation — nothing goes.

Always on. The facts are re-read by the runtime at send time, never trusted from the turn's start.
The one exception is the single confirmation of an opt-out, let through while it was not sent.
"""

from __future__ import annotations

from services.seguranca.context import Context
from services.seguranca.facts import OutboundKind
from services.seguranca.verdict import PASSED, GateResult, vetoed

NAME = "stop"

BLOCKED = "A empresa bloqueou este contato: nenhuma mensagem pode ser enviada a ele, nem uma versão reescrita."
OPTED_OUT = (
    "A pessoa pediu para não receber mais mensagens: nada deve ser enviado até que ela mesma "
    "volte a escrever pedindo para retomar a conversa."
)
HUMAN_OWNED = (
    "Uma pessoa da equipe está cuidando desta conversa agora: o assistente não responde para não "
    "atravessar o atendimento dela."
)
CONFIRMATION_SENT = (
    "A confirmação de que a pessoa não receberá mais mensagens já foi enviada uma vez; mandar de "
    "novo seria insistir com quem pediu para parar."
)


def check(ctx: Context) -> GateResult:
    contact = ctx.outbound.contact
    kind = ctx.outbound.kind
    if contact.blocked:
        return vetoed(NAME, "blocked", BLOCKED, revisable=False)
    if contact.human_owned:
        return vetoed(NAME, "human_owned", HUMAN_OWNED, revisable=False)
    if kind is OutboundKind.OPT_OUT_CONFIRMATION:
        if contact.opt_out_confirmation_sent:
            return vetoed(NAME, "opt_out_confirmation_already_sent", CONFIRMATION_SENT, revisable=False)
        return PASSED
    if contact.opted_out:
        return vetoed(NAME, "opted_out", OPTED_OUT, revisable=False)
    return PASSED
