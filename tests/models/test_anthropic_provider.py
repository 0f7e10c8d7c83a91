"""The Anthropic provider, through the real SDK, against a local server speaking the Messages API."""

from __future__ import annotations

import base64
import socket
from collections.abc import Iterator

import anthropic
import pytest

from balcao.models.anthropic import AnthropicProvider
from balcao.models.base import (
    ImagePart,
    Message,
    ModelRejected,
    ModelRequest,
    ModelUnavailable,
    TextPart,
    ToolCall,
    ToolDefinition,
    ToolResult,
)
from tests.support.messages_api import MessagesAPI, messages_api, reply_text, reply_tools

TOOLS = (
    ToolDefinition("list_my_appointments", "Consulta os compromissos.", {"type": "object", "properties": {}}),
    ToolDefinition(
        "check_availability",
        "Consulta horários livres.",
        {"type": "object", "properties": {"servico": {"type": "string"}}},
    ),
)


@pytest.fixture
def api() -> Iterator[MessagesAPI]:
    with messages_api() as server:
        yield server


def provider(api: MessagesAPI, **overrides: object) -> AnthropicProvider:
    options: dict[str, object] = {
        "api_key": "sk-test",
        "model": "claude-test",
        "cheap_model": "claude-cheap-test",
        "base_url": api.base_url,
        "max_retries": 2,
    }
    options.update(overrides)
    return AnthropicProvider(**options)  # type: ignore[arg-type]


async def test_a_text_answer_comes_back_with_its_usage(api: MessagesAPI) -> None:
    api.then(reply_text("Olá! Como posso ajudar?"))
    model = provider(api)
    response = await model.complete(ModelRequest("Você atende a clínica.", (Message.user("oi"),)))
    await model.aclose()

    assert response.text == "Olá! Como posso ajudar?"
    assert response.tool_calls == []
    assert (response.provider, response.model) == ("anthropic", "claude-test")
    assert response.usage.input_tokens > 0 and response.usage.output_tokens > 0
    body = api.accepted[0].body
    assert body["model"] == "claude-test"
    assert body["system"] == [
        {"type": "text", "text": "Você atende a clínica.", "cache_control": {"type": "ephemeral"}}
    ]
    assert "tools" not in body and "tool_choice" not in body


async def test_a_tool_use_loop_round_trips_calls_and_results(api: MessagesAPI) -> None:
    api.then(
        reply_tools(("list_my_appointments", {}), ("check_availability", {"servico": "Limpeza"}), preface="Vou ver."),
        reply_text("Você tem uma consulta na quinta."),
    )
    model = provider(api)
    first = await model.complete(ModelRequest("s", (Message.user("tenho consulta?"),), tools=TOOLS))
    assert first.stop_reason == "tool_use"
    assert [c.name for c in first.tool_calls] == ["list_my_appointments", "check_availability"]
    assert first.tool_calls[1].arguments == {"servico": "Limpeza"}
    assert first.text == "Vou ver."

    results = Message(
        "tool",
        (
            ToolResult(first.tool_calls[0].call_id, "list_my_appointments", '{"compromissos": []}'),
            ToolResult(first.tool_calls[1].call_id, "check_availability", "agenda fora do ar", is_error=True),
        ),
    )
    second = await model.complete(
        ModelRequest("s", (Message.user("tenho consulta?"), first.as_message(), results), tools=TOOLS)
    )
    await model.aclose()

    assert second.text == "Você tem uma consulta na quinta."
    sent = api.accepted[1].body
    assert [m["role"] for m in sent["messages"]] == ["user", "assistant", "user"]
    assert [b["type"] for b in sent["messages"][1]["content"]] == ["text", "tool_use", "tool_use"]
    tool_results = sent["messages"][2]["content"]
    assert [(b["tool_use_id"], b["is_error"]) for b in tool_results] == [
        (first.tool_calls[0].call_id, False),
        (first.tool_calls[1].call_id, True),
    ]
    # Prompt caching: the breakpoint sits on the last tool (covering all of them) and on the system.
    assert "cache_control" not in sent["tools"][0]
    assert sent["tools"][-1]["cache_control"] == {"type": "ephemeral"}
    assert sent["tool_choice"] == {"type": "auto"}


async def test_usage_records_the_prompt_cache_writes_then_reads(api: MessagesAPI) -> None:
    api.then(reply_text("um"), reply_text("dois"))
    model = provider(api)
    request = ModelRequest("Um prompt de sistema estável.", (Message.user("oi"),), tools=TOOLS)
    first = await model.complete(request)
    second = await model.complete(request)
    await model.aclose()

    assert first.usage.cache_write_tokens > 0 and first.usage.cache_read_tokens == 0
    assert second.usage.cache_read_tokens == first.usage.cache_write_tokens
    assert second.usage.cache_write_tokens == 0


async def test_a_429_is_retried_by_the_sdk_and_the_call_succeeds(api: MessagesAPI) -> None:
    api.fail_next(429)
    api.then(reply_text("depois da espera"))
    model = provider(api)
    response = await model.complete(ModelRequest("s", (Message.user("oi"),)))
    await model.aclose()

    assert response.text == "depois da espera"
    assert [r.status for r in api.requests] == [429, 200]
    assert api.requests[1].headers["x-stainless-retry-count"] == "1"


async def test_overload_that_outlasts_the_retries_is_unavailable(api: MessagesAPI) -> None:
    api.fail_next(529, times=3, kind="overloaded_error")
    model = provider(api, max_retries=2)
    with pytest.raises(ModelUnavailable):
        await model.complete(ModelRequest("s", (Message.user("oi"),)))
    await model.aclose()
    assert [r.status for r in api.requests] == [529, 529, 529]


async def test_a_provider_slower_than_the_timeout_is_unavailable(api: MessagesAPI) -> None:
    api.stall_next(3.0)
    model = provider(api, timeout_seconds=0.3, max_retries=0)
    with pytest.raises(ModelUnavailable, match="timed out"):
        await model.complete(ModelRequest("s", (Message.user("oi"),)))
    await model.aclose()


async def test_a_refused_request_is_rejected_without_retrying(api: MessagesAPI) -> None:
    api.fail_next(400, kind="invalid_request_error")
    model = provider(api)
    with pytest.raises(ModelRejected, match="400"):
        await model.complete(ModelRequest("s", (Message.user("oi"),)))
    await model.aclose()
    assert len(api.requests) == 1


async def test_an_unreachable_provider_is_unavailable() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    model = AnthropicProvider(
        api_key="k", model="m", cheap_model="c", base_url=f"http://127.0.0.1:{port}", max_retries=0
    )
    with pytest.raises(ModelUnavailable):
        await model.complete(ModelRequest("s", (Message.user("oi"),)))
    await model.aclose()


async def test_the_cheap_tier_uses_the_cheap_model_and_tool_choice_none_is_sent(api: MessagesAPI) -> None:
    api.then(reply_text("curto"), reply_text("final"))
    model = provider(api)
    await model.complete(ModelRequest("s", (Message.user("resuma"),), tier="cheap"))
    await model.complete(ModelRequest("s", (Message.user("responda"),), tools=TOOLS, tool_choice="none"))
    await model.aclose()
    assert api.accepted[0].body["model"] == "claude-cheap-test"
    assert api.accepted[1].body["model"] == "claude-test"
    assert api.accepted[1].body["tool_choice"] == {"type": "none"}


async def test_consecutive_tool_results_and_text_become_one_user_message(api: MessagesAPI) -> None:
    api.then(reply_text("ok"))
    call = ToolCall("toolu_x", "list_my_appointments", {})
    messages = (
        Message.user("oi"),
        Message("assistant", (call,)),
        Message("tool", (ToolResult("toolu_x", "list_my_appointments", "{}"),)),
        Message.user("Corrija a resposta."),
    )
    model = provider(api)
    await model.complete(ModelRequest("s", messages, tools=TOOLS))
    await model.aclose()
    last = api.accepted[0].body["messages"][-1]
    assert last["role"] == "user"
    assert [b["type"] for b in last["content"]] == ["tool_result", "text"]


def test_our_requests_never_carry_tool_blocks_without_tools() -> None:
    with pytest.raises(ValueError, match="must define tools"):
        ModelRequest(
            "s",
            (Message.user("oi"), Message("assistant", (ToolCall("t1", "x", {}),))),
        )
    with pytest.raises(ValueError):
        Message("user", (ToolCall("t1", "x", {}),))
    with pytest.raises(ValueError):
        Message("tool", (TextPart("texto"),))


async def test_the_local_api_refuses_tool_blocks_without_tools_like_the_real_one(api: MessagesAPI) -> None:
    # The reason the closing call gets the tape as text: with the real SDK, tool blocks and no tools is a 400.
    client = anthropic.AsyncAnthropic(api_key="k", base_url=api.base_url, max_retries=0)
    with pytest.raises(anthropic.BadRequestError, match="must define tools"):
        await client.messages.create(
            model="m",
            max_tokens=100,
            messages=[
                {"role": "user", "content": "oi"},
                {"role": "assistant", "content": [{"type": "tool_use", "id": "t1", "name": "x", "input": {}}]},
                {"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t1", "content": "{}"}]},
            ],
        )
    await client.close()
    assert api.requests[0].status == 400


# --- images ------------------------------------------------------------------------------------

PNG = bytes.fromhex("89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489") + b"\x00" * 16


async def test_an_image_is_described_from_an_inline_base64_image_block(api: MessagesAPI) -> None:
    api.then(reply_text("Um comprovante de PIX de  R$ 150,00\n para Clínica Sorriso, em 21/10/2025."))
    model = provider(api)
    description = await model.describe_image(PNG, "image/png")
    await model.aclose()

    assert description == "Um comprovante de PIX de R$ 150,00 para Clínica Sorriso, em 21/10/2025."
    (request,) = api.accepted
    assert request.body["model"] == "claude-cheap-test"  # a small chore: the cheap model
    (message,) = request.body["messages"]
    image, prompt = message["content"]
    assert message["role"] == "user"
    assert image == {
        "type": "image",
        "source": {"type": "base64", "media_type": "image/png", "data": base64.b64encode(PNG).decode()},
    }
    assert prompt["type"] == "text" and "imagem" in prompt["text"]
    assert "português do Brasil" in request.body["system"][0]["text"]


@pytest.mark.parametrize(
    ("image", "media_type"),
    [(PNG, "image/heic"), (PNG, "application/pdf"), (b"", "image/png"), (b"x" * (5 * 1024 * 1024 + 1), "image/jpeg")],
    ids=["heic", "not-an-image", "empty", "over-5-MB"],
)
async def test_what_the_api_cannot_read_is_not_sent(api: MessagesAPI, image: bytes, media_type: str) -> None:
    model = provider(api)
    assert await model.describe_image(image, media_type) is None
    await model.aclose()
    assert api.requests == []


async def test_a_description_call_that_keeps_failing_raises_unavailable(api: MessagesAPI) -> None:
    api.fail_next(529, times=3, kind="overloaded_error")
    model = provider(api, max_retries=2)
    with pytest.raises(ModelUnavailable):
        await model.describe_image(PNG, "image/jpeg; charset=binary")
    await model.aclose()


def test_only_user_messages_carry_images() -> None:
    with pytest.raises(ValueError, match="user message"):
        Message("assistant", (ImagePart(PNG, "image/png"),))
    with pytest.raises(ValueError, match="image/jpeg"):
        ImagePart(PNG, "image/bmp")
