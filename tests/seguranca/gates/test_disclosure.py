"""`disclosure`: the first message says it comes from a virtual assistant, injected or asked for."""

from __future__ import annotations

from services.seguranca.facts import DisclosureMode, OrganizationConfig, OutboundKind
from services.seguranca.gates import disclosure
from services.seguranca.verdict import Status
from tests.seguranca.helpers import gate, review, with_contact

FIRST = with_contact(first_contact=True)
CLINIC = OrganizationConfig(business_name="Clínica Sorriso")


def test_the_first_message_gets_the_disclosure_after_its_greeting() -> None:
    result = gate(disclosure.check, "Olá, Maria! Temos horários na terça.", config=CLINIC, contact=FIRST)
    assert result.status is Status.PASSED
    assert result.body == "Olá, Maria! Sou a assistente virtual da Clínica Sorriso. Temos horários na terça."


def test_without_a_greeting_it_opens_the_message() -> None:
    result = gate(disclosure.check, "Temos horários na terça.", config=CLINIC, contact=FIRST)
    assert result.body == "Sou a assistente virtual da Clínica Sorriso.\n\nTemos horários na terça."


def test_the_organisations_own_sentence_is_used() -> None:
    config = OrganizationConfig(disclosure_text="Aqui é a Sol, assistente digital da clínica.")
    result = gate(disclosure.check, "Temos horários na terça.", config=config, contact=FIRST)
    assert result.body is not None and result.body.startswith("Aqui é a Sol, assistente digital da clínica.")


def test_a_message_that_already_says_so_is_untouched() -> None:
    for draft in ("Oi! Eu sou a assistente virtual da clínica.", "Olá! Sou uma inteligência artificial."):
        result = gate(disclosure.check, draft, config=CLINIC, contact=FIRST)
        assert result.status is Status.PASSED and result.body is None


def test_in_veto_mode_the_conversador_is_asked_to_write_it() -> None:
    config = OrganizationConfig(disclosure_mode=DisclosureMode.VETO)
    result = gate(disclosure.check, "Temos horários na terça.", config=config, contact=FIRST)
    assert result.status is Status.VETOED and result.veto is not None and result.veto.revisable


def test_later_messages_are_not_judged() -> None:
    assert gate(disclosure.check, "Temos horários.", config=CLINIC).status is Status.NOT_APPLICABLE


async def test_the_approved_body_carries_the_injection_and_says_it_was_rewritten() -> None:
    verdict = await review("Olá! Temos horários na terça.", config=CLINIC, contact=FIRST)
    assert verdict.approved and verdict.body_rewritten
    assert "assistente virtual" in verdict.body
    assert verdict.line("disclosure").rewrote_body


async def test_an_opt_out_confirmation_to_a_first_contact_carries_no_introduction() -> None:
    confirmation = "Pronto, você não vai mais receber mensagens nossas."
    verdict = await review(confirmation, config=CLINIC, contact=FIRST, kind=OutboundKind.OPT_OUT_CONFIRMATION)
    assert verdict.approved and verdict.body == confirmation and not verdict.body_rewritten
    assert "assistente virtual" not in verdict.body
    assert verdict.line("disclosure").status is Status.NOT_APPLICABLE
    # Any other first message still gets it, catalog texts included.
    fixed = await review("Estamos na Rua das Flores, 123.", config=CLINIC, contact=FIRST, kind=OutboundKind.FIXED_REPLY)
    assert "assistente virtual da Clínica Sorriso" in fixed.body
