"""`semantic_promise`: the model reviewer of promises against the consulted evidence (opt-in).

Off unless the organisation switches it on (it costs one model call per send). It sees the
authorised facts, this turn's read results and the confirmed bookings. When it does not answer
after its one retry, the message is NOT approved by silence: the trace line says
`reviewer_failed` and the other gates go on judging it. Its explanation joins the guidance only
when it is pt-BR free of internal terms (it passes the leak detector); otherwise the fixed
guidance stands alone.
"""

from __future__ import annotations

from services.seguranca.context import Context
from services.seguranca.gates import internal_vocabulary
from services.seguranca.reviewers import ReviewerFailed, SemanticPromiseReviewer, describe_evidence
from services.seguranca.verdict import PASSED, GateResult, Status, not_applicable, vetoed

NAME = "semantic_promise"

GUIDANCE = (
    "A mensagem promete ou afirma algo que nada do que foi consultado neste atendimento confirma: "
    "o cliente contaria com isso. Diga só o que as informações consultadas sustentam e, para o "
    "resto, diga que vai confirmar."
)


async def check(ctx: Context, reviewer: SemanticPromiseReviewer | None) -> GateResult:
    if ctx.catalog_text:
        return not_applicable(f"{NAME}:catalog_text")
    if reviewer is None:
        return GateResult(Status.REVIEWER_FAILED, f"{NAME}:no_model_configured")
    declaracao = ctx.outbound.declaracao
    evidence = describe_evidence(ctx.authorised, ctx.outbound.evidence, declaracao.promessas if declaracao else ())
    try:
        review = await reviewer.review(ctx.outbound.draft, evidence)
    except ReviewerFailed:
        return GateResult(Status.REVIEWER_FAILED, f"{NAME}:reviewer_failed")
    if not review.promise_without_evidence:
        return PASSED
    guidance = GUIDANCE
    explanation = review.explanation_pt
    if explanation and not internal_vocabulary.scan(explanation, ctx.vocabulary):
        guidance = f"{GUIDANCE} {explanation}"
    return vetoed(NAME, "promise_without_evidence", guidance)
