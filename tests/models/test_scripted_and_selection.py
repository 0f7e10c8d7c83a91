"""The scripted double and the choice of provider."""

from __future__ import annotations

import pytest

from balcao.models import ModelSettings, select_provider
from balcao.models.anthropic import AnthropicProvider
from balcao.models.base import ImagePart, Message, ModelRequest, ModelUnavailable
from balcao.models.offline import OfflineProvider
from balcao.models.scripted import ScriptedProvider, ScriptExhausted, text, tool_calls


async def test_the_scripted_double_replays_in_order_and_records_every_request() -> None:
    model = ScriptedProvider([tool_calls(("list_my_appointments", {})), text("pronto")])
    first = ModelRequest("s", (Message.user("um"),))
    second = ModelRequest("s", (Message.user("dois"),), task="x")
    assert (await model.complete(first)).tool_calls[0].name == "list_my_appointments"
    assert (await model.complete(second)).text == "pronto"
    assert model.requests == [first, second]
    assert model.remaining == 0


async def test_the_scripted_double_raises_scripted_errors_and_answers_functions_of_the_request() -> None:
    model = ScriptedProvider([ModelUnavailable("fora do ar"), lambda request: text(request.messages[0].text.upper())])
    with pytest.raises(ModelUnavailable):
        await model.complete(ModelRequest("s", (Message.user("a"),)))
    assert (await model.complete(ModelRequest("s", (Message.user("eco"),)))).text == "ECO"


async def test_a_call_beyond_the_script_fails_loudly() -> None:
    model = ScriptedProvider([])
    with pytest.raises(ScriptExhausted, match=r"conversador\.draft"):
        await model.complete(ModelRequest("s", (Message.user("a"),), task="conversador.draft"))


def _settings(monkeypatch: pytest.MonkeyPatch, **env: str) -> ModelSettings:
    for name in ("ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "BALCAO_MODEL", "BALCAO_CHEAP_MODEL"):
        monkeypatch.delenv(name, raising=False)
    for name, value in env.items():
        monkeypatch.setenv(name, value)
    return ModelSettings()


def test_without_a_key_the_offline_model_is_selected(monkeypatch: pytest.MonkeyPatch) -> None:
    assert isinstance(select_provider(_settings(monkeypatch)), OfflineProvider)
    assert isinstance(select_provider(_settings(monkeypatch, ANTHROPIC_API_KEY="  ")), OfflineProvider)


async def test_with_a_key_anthropic_is_selected_with_the_configured_model_and_base_url(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    settings = _settings(
        monkeypatch,
        ANTHROPIC_API_KEY="sk-test",
        ANTHROPIC_BASE_URL="http://127.0.0.1:9/",
        BALCAO_MODEL="claude-x",
        BALCAO_CHEAP_MODEL="claude-y",
    )
    model = select_provider(settings)
    assert isinstance(model, AnthropicProvider)
    assert (model.model, model.cheap_model) == ("claude-x", "claude-y")
    assert str(model._client.base_url).startswith("http://127.0.0.1:9")
    await model.aclose()


async def test_the_scripted_double_sees_images_and_records_the_request() -> None:
    model = ScriptedProvider([text("Uma foto de um sorriso com aparelho ortodôntico.")])
    assert await model.describe_image(b"\xff\xd8\xff\xe0jpeg", "image/jpeg") == (
        "Uma foto de um sorriso com aparelho ortodôntico."
    )
    (request,) = model.requests
    image = request.messages[0].parts[0]
    assert isinstance(image, ImagePart) and image.data == b"\xff\xd8\xff\xe0jpeg" and request.tier == "cheap"
    blind = ScriptedProvider(sees_images=False)
    assert await blind.describe_image(b"\xff\xd8\xff\xe0jpeg", "image/jpeg") is None and blind.requests == []


async def test_the_offline_model_does_not_see_images() -> None:
    assert await OfflineProvider().describe_image(b"\xff\xd8\xff\xe0jpeg", "image/jpeg") is None
