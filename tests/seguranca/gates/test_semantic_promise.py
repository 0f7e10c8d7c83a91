"""`semantic_promise`: the opt-in model reviewer, with the scripted double."""

from __future__ import annotations

from datetime import UTC, datetime

from services.seguranca.chain import Chain
from services.seguranca.facts import AuthorisedFacts, ConfirmedBooking, OrganizationConfig, OutboundKind, ToolResult
from services.seguranca.reviewers import SemanticPromiseReviewer
from services.seguranca.verdict import Decision, Status
from services.seguranca.vocabulary import contract_index
from tests.seguranca.helpers import review, with_evidence
from tests.seguranca.scripted import ScriptedModel

ON = OrganizationConfig(
    gates_enabled=(("semantic_promise", True),),
    authorised=AuthorisedFacts(price_cents=frozenset({28000})),
)
OFF = OrganizationConfig(authorised=AuthorisedFacts(price_cents=frozenset({28000})))
OK = '{"promessa_sem_evidencia": false, "explicacao": ""}'
VETO = '{"promessa_sem_evidencia": true, "explicacao": "O cliente acharia que o resultado aparece em uma sessão."}'
DRAFT = "A consulta custa R$ 280 e você já vê o resultado na primeira sessão."


def _chain(model: ScriptedModel) -> Chain:
    return Chain(vocabulary=contract_index(), semantic_reviewer=SemanticPromiseReviewer(model, timeout=1.0))


async def test_switched_off_the_model_is_never_called() -> None:
    model = ScriptedModel()
    verdict = await review(DRAFT, config=OFF, chain=_chain(model))
    assert model.calls == 0
    assert verdict.line("semantic_promise").status is Status.DISABLED
    assert verdict.approved


async def test_switched_on_it_is_called_once_with_the_consulted_evidence() -> None:
    model = ScriptedModel(OK)
    booking = ConfirmedBooking(
        datetime(2026, 3, 10, 13, 0, tzinfo=UTC), "America/Sao_Paulo", local_label="ter 10/03 10:00"
    )
    evidence = with_evidence(
        bookings=(booking,), tool_results=(ToolResult("search_knowledge", "Clareamento: 3 sessões"),)
    )
    verdict = await review(DRAFT, config=ON, chain=_chain(model), evidence=evidence)
    assert model.calls == 1
    prompt = model.prompts[0]
    assert (
        DRAFT in prompt and "R$ 280,00" in prompt and "ter 10/03 10:00" in prompt and "Clareamento: 3 sessões" in prompt
    )
    assert verdict.line("semantic_promise").status is Status.PASSED
    assert verdict.approved


async def test_its_veto_carries_guidance_with_its_explanation() -> None:
    verdict = await review(DRAFT, config=ON, chain=_chain(ScriptedModel(VETO)))
    assert verdict.vetoed_by() == ["semantic_promise"]
    assert "resultado aparece em uma sessão" in verdict.vetoes[0].guidance_pt


async def test_an_explanation_carrying_internal_terms_is_left_out_of_the_guidance() -> None:
    leaky = '{"promessa_sem_evidencia": true, "explicacao": "o campo price_table não tem esse valor"}'
    verdict = await review(DRAFT, config=ON, chain=_chain(ScriptedModel(leaky)))
    assert verdict.vetoed_by() == ["semantic_promise"]
    assert "price_table" not in verdict.vetoes[0].guidance_pt


async def test_a_failed_answer_is_retried_once() -> None:
    model = ScriptedModel(TimeoutError("slow"), OK)
    verdict = await review(DRAFT, config=ON, chain=_chain(model))
    assert model.calls == 2
    assert verdict.line("semantic_promise").status is Status.PASSED


async def test_a_reviewer_that_fails_twice_does_not_silently_approve() -> None:
    model = ScriptedModel(ConnectionError("down"), "isto não é JSON")
    verdict = await review(DRAFT, config=ON, chain=_chain(model))
    assert model.calls == 2
    line = verdict.line("semantic_promise")
    assert line.status is Status.REVIEWER_FAILED and line.code == "semantic_promise:reviewer_failed"
    # The other gates still judged the message after the failure.
    assert [line.status for line in verdict.trace[7:]].count(Status.PASSED) >= 3
    still_vetoed = await review(
        "A avaliação é grátis!", config=ON, chain=_chain(ScriptedModel(TimeoutError(), TimeoutError()))
    )
    assert still_vetoed.decision is Decision.VETOED and still_vetoed.vetoed_by() == ["commercial_promise"]


async def test_a_reviewer_that_hangs_counts_as_failed() -> None:
    model = ScriptedModel(OK, OK, delay=5.0)
    chain = Chain(vocabulary=contract_index(), semantic_reviewer=SemanticPromiseReviewer(model, timeout=0.05))
    verdict = await review(DRAFT, config=ON, chain=chain)
    assert verdict.line("semantic_promise").status is Status.REVIEWER_FAILED


async def test_switched_on_without_a_model_is_traced_as_failed() -> None:
    verdict = await review(DRAFT, config=ON, chain=Chain(vocabulary=contract_index()))
    assert verdict.line("semantic_promise").status is Status.REVIEWER_FAILED
    assert verdict.line("semantic_promise").code == "semantic_promise:no_model_configured"


async def test_it_is_not_called_after_a_final_veto_nor_for_catalog_texts() -> None:
    from tests.seguranca.helpers import with_contact

    model = ScriptedModel()
    await review(DRAFT, config=ON, chain=_chain(model), contact=with_contact(blocked=True))
    await review("Menu: 1) Agendar 2) Preços", config=ON, chain=_chain(model), kind=OutboundKind.FIXED_REPLY)
    assert model.calls == 0
