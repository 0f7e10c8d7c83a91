"""The rolling_summary cap (seed 001): off by default and byte-identical; on, condense only if safe."""

from __future__ import annotations

import json

import pytest

from balcao.conversador.v1 import conversador_pb2 as cv
from balcao.kit.settings import load_settings
from balcao.models.base import ModelUnavailable
from balcao.models.offline import OfflineProvider
from balcao.models.scripted import ScriptedProvider, text
from services.conversador import closing, summary_cap
from services.conversador.config import Settings
from services.conversador.service import Conversador, Options
from tests.conversador.fakes import RecordingExecutor
from tests.conversador.test_closing import close_request

LONG_SUMMARY = (
    "Maria Souza procurou a clínica em 28/10 pedindo avaliação. Ela disse várias vezes que prefere horários pela "
    "manhã, que trabalha à tarde e que não gosta de esperar. Conversamos sobre valores: a avaliação custa "
    "R$ 280,00 e a limpeza R$ 150,00. Ela pediu que o retorno seja pelo telefone (19) 99876-5432. "
    "Ela comentou de novo que prefere manhãs e que a Dra. Ana Lima já a atendeu antes, e que gostou muito. "
    "O pedido 4471 do convênio está em análise desde 30/10."
)
CONDENSED = (
    "Maria Souza (avaliação pedida em 28/10) prefere manhãs e a Dra. Ana Lima. Avaliação R$ 280,00; limpeza "
    "R$ 150,00. Retorno pelo (19) 99876-5432. Pedido 4471 do convênio em análise desde 30/10."
)
LOSES_A_DIGIT = CONDENSED.replace("99876-5432", "9987-5432")


def closing_answer(summary: str = LONG_SUMMARY) -> str:
    return json.dumps(
        {
            "rolling_summary": summary,
            "commitments": ["retornar pelo telefone"],
            "objections": ["achou a limpeza cara"],
            "next_action": "oferecer horários pela manhã",
        },
        ensure_ascii=False,
    )


def service(model: ScriptedProvider | OfflineProvider, cap: int | None) -> Conversador:
    return Conversador(model, lambda scope: RecordingExecutor(), Options(summary_max_tokens=cap))


def test_the_knob_is_off_by_default_and_zero_means_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BALCAO_MESH_SECRET", "s" * 32)
    monkeypatch.delenv("ROLLING_SUMMARY_MAX_TOKENS", raising=False)
    assert load_settings(Settings).rolling_summary_max_tokens is None
    monkeypatch.setenv("ROLLING_SUMMARY_MAX_TOKENS", "300")
    assert load_settings(Settings).rolling_summary_max_tokens == 300
    from services.conversador.server import options

    monkeypatch.setenv("ROLLING_SUMMARY_MAX_TOKENS", "0")
    assert options(load_settings(Settings)).summary_max_tokens is None


async def test_off_the_closing_is_byte_for_byte_the_closing_without_the_feature() -> None:
    request = close_request()
    assert summary_cap.estimated_tokens(LONG_SUMMARY) > 50  # would be condensed by any small cap

    with_knob_off = ScriptedProvider([text(closing_answer())])
    response = await service(with_knob_off, None)._close(request)

    without_feature = ScriptedProvider([text(closing_answer())])
    data = closing.ClosingInput(
        new_messages=request.new_messages,
        tape=request.tape,
        sent=request.sent,
        declaracao=request.declaracao,
        previous=request.previous_checkpoint,
        agenda=None,
    )
    bare = await closing.close_turn(without_feature, data, result_cap_tokens=200)  # no summary_max_tokens at all
    expected = cv.CloseResponse(checkpoint=bare.checkpoint, usage=bare.usage)

    assert response.SerializeToString(deterministic=True) == expected.SerializeToString(deterministic=True)
    assert with_knob_off.requests == without_feature.requests  # the same single call, nothing extra
    assert response.summary_condensed is False and len(response.usage) == 1


async def test_over_the_cap_the_summary_comes_out_shorter_with_digits_intact() -> None:
    model = ScriptedProvider([text(closing_answer()), text(json.dumps({"rolling_summary": CONDENSED}))])
    response = await service(model, 60)._close(close_request())

    assert response.summary_condensed is True
    checkpoint = response.checkpoint
    assert checkpoint.rolling_summary == CONDENSED
    assert len(CONDENSED) < len(LONG_SUMMARY)
    assert summary_cap.digit_tokens(LONG_SUMMARY) <= summary_cap.digit_tokens(CONDENSED)
    # Only the summary changes.
    assert list(checkpoint.commitments) == ["retornar pelo telefone"]
    assert list(checkpoint.objections) == ["achou a limpeza cara"]
    assert checkpoint.next_action == "oferecer horários pela manhã"
    assert checkpoint.declaracao == close_request().declaracao
    condensation = model.requests[1]
    assert condensation.tier == "cheap" and condensation.tools == ()
    assert LONG_SUMMARY in condensation.messages[0].text
    assert "retornar pelo telefone" not in condensation.messages[0].text
    assert [u.purpose for u in response.usage][-1] == cv.MODEL_CALL_PURPOSE_SUMMARY_CONDENSATION


@pytest.mark.parametrize(
    "answer",
    [
        json.dumps({"rolling_summary": LOSES_A_DIGIT}),  # a phone digit lost
        json.dumps({"rolling_summary": LONG_SUMMARY + " E mais."}),  # not shorter
        "Resumo: Maria prefere manhãs.",  # does not parse
        json.dumps({"summary": CONDENSED}),  # parses, but not the field
    ],
)
async def test_a_condensation_that_fails_a_check_is_refused_and_the_original_kept(answer: str) -> None:
    model = ScriptedProvider([text(closing_answer()), text(answer)])
    response = await service(model, 60)._close(close_request())
    assert response.summary_condensed is False
    assert response.checkpoint.rolling_summary == LONG_SUMMARY
    assert len(response.usage) == 2  # the attempt is still recorded


async def test_a_condensation_call_that_fails_keeps_the_original() -> None:
    model = ScriptedProvider([text(closing_answer()), ModelUnavailable("fora do ar")])
    response = await service(model, 60)._close(close_request())
    assert response.WhichOneof("result") == "checkpoint"
    assert response.checkpoint.rolling_summary == LONG_SUMMARY and response.summary_condensed is False


async def test_under_the_cap_nothing_extra_happens() -> None:
    model = ScriptedProvider([text(closing_answer())])
    response = await service(model, 10_000)._close(close_request())
    assert len(model.requests) == 1 and response.summary_condensed is False


async def test_the_offline_model_condenses_keeping_every_digit() -> None:
    result = await summary_cap.condense(OfflineProvider(), LONG_SUMMARY, 60)
    assert result.condensed is True
    assert len(result.summary) < len(LONG_SUMMARY)
    assert summary_cap.digit_tokens(LONG_SUMMARY) <= summary_cap.digit_tokens(result.summary)


def test_digit_tokens_ignore_the_punctuation_around_them() -> None:
    assert summary_cap.digit_tokens("Em 05/11, às 14:30. Valor: R$ 280,00; pedido #4471.") == {
        "05/11",
        "14:30",
        "280,00",
        "#4471",
    }
    assert summary_cap.acceptable("Ligar 19 99876-5432 amanhã cedo", "Ligar 19 99876-5432.")
    assert not summary_cap.acceptable("Ligar 19 99876-5432 amanhã cedo", "Ligar 99876-5432.")
