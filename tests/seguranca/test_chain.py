"""The chain as a whole: its locked order, the trace, switches per organisation, how vetoes combine."""

from __future__ import annotations

import pytest

from balcao.seguranca.v1 import seguranca_pb2 as pb
from services.seguranca.chain import CHAIN_VERSION, GATE_NAMES, GATES, UnknownGate, is_enabled
from services.seguranca.facts import AuthorisedFacts, OrganizationConfig, OutboundKind
from services.seguranca.gates import internal_vocabulary
from services.seguranca.verdict import Decision, Status
from services.seguranca.vocabulary import contract_index
from tests.seguranca.helpers import CLINIC, review, with_contact

# Changing any of these is a new chain version: change CHAIN_VERSION with them, deliberately.
LOCKED_ORDER = (
    "stop",
    "lgpd",
    "pacing",
    "messaging_window",
    "repetition",
    "commercial_promise",
    "semantic_promise",
    "case_promise",
    "unbacked_claim",
    "internal_vocabulary",
    "third_party_data",
    "disclosure",
    "format",
)


def test_the_order_names_and_version_are_locked() -> None:
    assert GATE_NAMES == LOCKED_ORDER
    assert CHAIN_VERSION == 1


def test_the_contract_numbers_the_gates_in_the_same_order() -> None:
    assert [pb.Gate.Value(f"GATE_{name.upper()}") for name in GATE_NAMES] == list(range(1, 14))


def test_every_gate_has_an_owner_facing_label_and_explanation() -> None:
    for spec in GATES:
        assert spec.label_pt.strip() and spec.explanation_pt.strip()
        assert not internal_vocabulary.scan(f"{spec.label_pt} {spec.explanation_pt}", contract_index())
    assert [s.name for s in GATES if s.uses_model] == ["semantic_promise"]
    assert [s.name for s in GATES if not s.switchable] == ["stop"]


async def test_an_ordinary_reply_gets_one_trace_line_per_gate_in_order() -> None:
    verdict = await review("Temos horários na terça à tarde. Qual período fica melhor para você?")
    assert verdict.decision is Decision.APPROVED
    assert [line.gate for line in verdict.trace] == list(LOCKED_ORDER)
    assert [line.position for line in verdict.trace] == list(range(1, 14))
    assert verdict.chain_version == CHAIN_VERSION
    statuses = {line.gate: line.status for line in verdict.trace}
    assert statuses["stop"] is Status.PASSED
    assert statuses["semantic_promise"] is Status.DISABLED  # the model reviewer is off by default
    assert statuses["pacing"] is Status.NOT_APPLICABLE  # a reply to someone who just wrote
    assert statuses["messaging_window"] is Status.NOT_APPLICABLE  # the Evolution API has no window
    assert verdict.parts == (verdict.body,)


async def test_a_gate_switched_off_is_traced_as_disabled_and_lets_the_message_through() -> None:
    draft = "A avaliação é grátis!"
    assert (await review(draft)).vetoed_by() == ["commercial_promise"]
    relaxed = OrganizationConfig.with_gates(commercial_promise=False)
    verdict = await review(draft, config=relaxed)
    assert verdict.approved
    assert verdict.line("commercial_promise").status is Status.DISABLED


async def test_switching_a_gate_off_for_one_organisation_leaves_the_others_unchanged() -> None:
    clinic = OrganizationConfig(business_name="Clínica A")
    relaxed = OrganizationConfig(business_name="Clínica B", gates_enabled=(("commercial_promise", False),))
    draft = "A consulta sai por R$ 150,00."
    assert (await review(draft, config=relaxed)).approved
    still = await review(draft, config=clinic)
    assert still.vetoed_by() == ["commercial_promise"]
    assert is_enabled(clinic, "commercial_promise") and not is_enabled(relaxed, "commercial_promise")


async def test_stop_cannot_be_switched_off() -> None:
    config = OrganizationConfig.with_gates(stop=False)
    assert is_enabled(config, "stop")
    verdict = await review("Oi! Tudo bem?", config=config, contact=with_contact(opted_out=True))
    assert verdict.vetoed_by() == ["stop"]
    assert verdict.line("stop").status is Status.VETOED


def test_an_unknown_gate_name_is_an_error() -> None:
    with pytest.raises(UnknownGate):
        is_enabled(CLINIC, "no_such_gate")


async def test_a_final_veto_skips_every_later_gate() -> None:
    verdict = await review(
        "A avaliação é grátis, erro unsafe_url:https_required",
        contact=with_contact(blocked=True),
    )
    assert verdict.vetoed_by() == ["stop"]
    assert not verdict.revisable
    for line in verdict.trace[1:]:
        assert line.status is Status.NOT_APPLICABLE
        assert line.code == "chain:after_final_veto"


async def test_revisable_vetoes_are_all_collected_so_one_revision_can_fix_them() -> None:
    verdict = await review("A avaliação é grátis! Seu cadastro_id já está salvo.")
    assert verdict.vetoed_by() == ["commercial_promise", "unbacked_claim", "internal_vocabulary"]
    assert verdict.revisable
    assert all(v.revisable for v in verdict.vetoes)


async def test_a_wait_is_not_a_veto_but_a_veto_wins_over_a_wait() -> None:
    from datetime import time

    from services.seguranca.facts import PacingRules

    night = OrganizationConfig(
        time_zone="America/Sao_Paulo",
        pacing=PacingRules(quiet_start=time(12, 0), quiet_end=time(18, 0)),
        authorised=AuthorisedFacts(price_cents=frozenset({28000})),
    )
    waiting = await review("Passando para lembrar da sua avaliação.", config=night, kind=OutboundKind.FOLLOWUP)
    assert waiting.decision is Decision.WAIT
    assert waiting.line("pacing").status is Status.WAITED
    both = await review("A avaliação é grátis!", config=night, kind=OutboundKind.FOLLOWUP)
    assert both.decision is Decision.VETOED
    assert both.vetoed_by() == ["commercial_promise"]


async def test_repetition_of_the_attempt_never_releases_a_gate() -> None:
    for attempt in (1, 2, 3, 4):
        verdict = await review("A avaliação é grátis!", attempt=attempt)
        assert verdict.vetoed_by() == ["commercial_promise"]
