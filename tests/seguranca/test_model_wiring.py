"""The model layers reach the shared model interface, and the offline default never approves."""

from __future__ import annotations

import pytest

from balcao.models import ModelRejected
from balcao.models.offline import OfflineProvider
from balcao.models.scripted import ScriptedProvider, text
from services.seguranca.server import text_model


async def test_a_reviewer_prompt_goes_to_the_cheap_model_and_its_text_comes_back() -> None:
    provider = ScriptedProvider([text('{"verdict": "ok"}')])
    ask = text_model(provider, "seguranca.semantic_promise")
    assert await ask("revise esta mensagem") == '{"verdict": "ok"}'
    [request] = provider.requests
    assert request.task == "seguranca.semantic_promise"
    assert request.tier == "cheap" and not request.tools
    assert request.messages[0].text == "revise esta mensagem"


async def test_the_offline_default_refuses_to_review_instead_of_approving() -> None:
    ask = text_model(OfflineProvider(), "seguranca.semantic_promise")
    with pytest.raises(ModelRejected):
        await ask("revise esta mensagem")
