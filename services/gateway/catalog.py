"""The fixed replies the runtime sends without a model, and the built-in texts behind them.

An organisation's reply catalog (crm settings `reply_catalog`) wins; the texts here are what a
new organisation gets when a key is missing, so a fixed reply never comes out empty. All pt-BR:
the customer reads them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

EXPIRED_PLAN = "expired_plan"
HANDOFF = "handoff"
HOLDING_REPLY = "holding_reply"
OPT_OUT_CONFIRMATION = "opt_out_confirmation"
SAFE_REPLY = "jailbreak_safe_reply"
CANCEL_PLAN = "cancel_plan"
MENU = "menu"
UNSUPPORTED_AUDIO = "audio_not_supported"

BUILT_IN: dict[str, str] = {
    EXPIRED_PLAN: (
        "No momento não conseguimos atender por aqui. Por favor, fale com a nossa equipe pelos canais de sempre."
    ),
    HANDOFF: "Certo! Vou pedir para alguém da equipe continuar com você por aqui.",
    HOLDING_REPLY: "Obrigado pela paciência! Vou pedir para alguém da equipe continuar com você.",
    OPT_OUT_CONFIRMATION: (
        "Pronto, você não vai mais receber mensagens nossas por aqui. Se mudar de ideia, é só escrever para a gente."
    ),
    SAFE_REPLY: "Posso te ajudar com informações sobre nossos serviços, horários e agendamentos. Como posso ajudar?",
    CANCEL_PLAN: "Para cancelar o seu plano, responda por aqui pedindo para falar com a equipe.",
    MENU: "Posso ajudar com agendamentos, valores e informações. Me conta o que você precisa!",
    UNSUPPORTED_AUDIO: "Ainda não consigo ouvir áudios. Pode me escrever, por favor?",
}


@dataclass(frozen=True, slots=True)
class MenuEntry:
    number: str
    label: str


def render_menu(header: str, options: Sequence[MenuEntry]) -> str:
    lines = [header.strip() or "Escolha uma opção:"]
    lines.extend(f"{o.number} - {o.label}" for o in options)
    return "\n".join(lines)


def reply(catalog: Mapping[str, str], key: str, *, menu: str = "") -> str:
    """The organisation's text for `key`, else the built-in one (the menu renders its options)."""
    text = (catalog.get(key) or "").strip()
    if text:
        return text
    if key == MENU and menu:
        return menu
    return BUILT_IN.get(key, "")


def holding_reply(catalog: Mapping[str, str]) -> list[str]:
    """The holding replies to try in order: the organisation's, then the built-in one."""
    candidates = [(catalog.get(HOLDING_REPLY) or "").strip(), BUILT_IN[HOLDING_REPLY]]
    return [c for i, c in enumerate(candidates) if c and c not in candidates[:i]]
