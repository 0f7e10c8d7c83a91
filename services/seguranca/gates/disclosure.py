"""`disclosure`: the first message to a contact says it comes from a virtual assistant.

By default the sentence is injected into the body (after an opening greeting when there is one);
an organisation that prefers to have the Conversador write it switches the mode to veto. A body
that already says so passes untouched. Only the first message to a contact is judged, and an
empty body is left for `format` to refuse. The opt-out confirmation is not judged: someone who
asked to stop gets that confirmation alone, not an introduction to an assistant they just left.
"""

from __future__ import annotations

import re

from balcao.kit.ptbr import de
from services.seguranca.context import Context
from services.seguranca.facts import DisclosureMode, OutboundKind
from services.seguranca.text import fold
from services.seguranca.verdict import PASSED, GateResult, Status, not_applicable, vetoed

NAME = "disclosure"

_SAYS_SO = re.compile(
    r"\b(?:assistente|atendente|secretaria|recepcionista)\s+(?:\w+\s+)?(?:virtual|digital|automatic[oa]|de ia|robo)"
    r"|\b(?:sou|e)\s+(?:um|uma)\s+(?:robo|bot|chatbot|inteligencia artificial|ia)\b"
    r"|\binteligencia artificial\b|\bassistente de ia\b|\bchatbot\b"
)
_GREETING = re.compile(
    r"^\s*(?:ola|oi|oie|bom dia|boa tarde|boa noite|tudo bem|seja bem[- ]vind[oa])\b[^.!?\n]{0,40}[.!?]+\s*"
)

GUIDANCE = (
    "É a primeira mensagem para esta pessoa e ela não sabe que está falando com uma assistente "
    "virtual. Diga isso logo no início, com naturalidade, antes de seguir com a resposta."
)

_NOT_FIRST_MESSAGE = not_applicable(f"{NAME}:not_first_message")
_OPT_OUT_CONFIRMATION = not_applicable(f"{NAME}:opt_out_confirmation")


def disclosure_sentence(ctx: Context) -> str:
    configured = ctx.config.disclosure_text.strip()
    if configured:
        return configured
    name = ctx.config.business_name.strip()
    return f"Sou a assistente virtual {de(name)}." if name else "Sou uma assistente virtual."


def says_it(folded: str) -> bool:
    return bool(_SAYS_SO.search(folded))


def inject(body: str, sentence: str) -> str:
    """The body with the disclosure after its opening greeting, or before everything."""
    greeting = _GREETING.match(fold(body))
    if greeting:
        head, tail = body[: greeting.end()].rstrip(), body[greeting.end() :].lstrip()
        return f"{head} {sentence} {tail}".rstrip()
    return f"{sentence}\n\n{body.lstrip()}"


def check(ctx: Context) -> GateResult:
    if not ctx.outbound.contact.first_contact:
        return _NOT_FIRST_MESSAGE
    if ctx.outbound.kind is OutboundKind.OPT_OUT_CONFIRMATION:
        return _OPT_OUT_CONFIRMATION
    if not ctx.body.strip():
        return not_applicable(f"{NAME}:empty_body")
    if says_it(ctx.text.folded):
        return PASSED
    if ctx.config.disclosure_mode is DisclosureMode.VETO:
        return vetoed(NAME, "missing", GUIDANCE)
    return GateResult(Status.PASSED, body=inject(ctx.body, disclosure_sentence(ctx)))
