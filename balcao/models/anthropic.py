"""The Anthropic provider: the real `anthropic` SDK over the Messages API.

Prompt caching: the system prompt and the tool definitions carry `cache_control`, so every
step of a turn's loop (and every turn of the same unit) reads them from the cache. Retries on
429/5xx and connection errors are the SDK's own (`max_retries`, exponential backoff that
honours `retry-after`); what is still failing after them becomes `ModelUnavailable`.
"""

from __future__ import annotations

from typing import Any

import anthropic

from balcao.models.base import (
    ImagePart,
    Message,
    ModelProvider,
    ModelRejected,
    ModelRequest,
    ModelResponse,
    ModelUnavailable,
    TextPart,
    ToolCall,
    ToolResult,
    Usage,
)

_CACHE = {"type": "ephemeral"}


class AnthropicProvider(ModelProvider):
    name = "anthropic"
    sees_images = True

    def __init__(
        self,
        *,
        api_key: str,
        model: str,
        cheap_model: str,
        base_url: str | None = None,
        timeout_seconds: float = 60.0,
        max_retries: int = 3,
    ) -> None:
        self.model = model
        self.cheap_model = cheap_model
        self._client = anthropic.AsyncAnthropic(
            api_key=api_key,
            base_url=base_url or None,
            timeout=timeout_seconds,
            max_retries=max_retries,
        )

    async def complete(self, request: ModelRequest) -> ModelResponse:
        model = self.cheap_model if request.tier == "cheap" else self.model
        kwargs: dict[str, Any] = {
            "model": model,
            "max_tokens": request.max_tokens,
            "messages": to_wire_messages(request.messages),
        }
        if request.system:
            kwargs["system"] = [{"type": "text", "text": request.system, "cache_control": _CACHE}]
        if request.tools:
            tools: list[dict[str, Any]] = [
                {"name": t.name, "description": t.description, "input_schema": dict(t.input_schema)}
                for t in request.tools
            ]
            # The cache breakpoint on the last tool covers every tool definition before it.
            tools[-1]["cache_control"] = _CACHE
            kwargs["tools"] = tools
            kwargs["tool_choice"] = {"type": request.tool_choice}
        try:
            message = await self._client.messages.create(**kwargs)
        except (anthropic.APIConnectionError, anthropic.RateLimitError, anthropic.InternalServerError) as exc:
            raise ModelUnavailable(f"anthropic: {exc}") from exc
        except anthropic.APIStatusError as exc:
            if exc.status_code >= 500 or exc.status_code in (408, 409, 429, 529):
                raise ModelUnavailable(f"anthropic {exc.status_code}: {exc.message}") from exc
            raise ModelRejected(f"anthropic {exc.status_code}: {exc.message}") from exc
        return _from_wire(message)

    async def aclose(self) -> None:
        await self._client.close()


def to_wire_messages(messages: tuple[Message, ...] | list[Message]) -> list[dict[str, Any]]:
    """Our messages as Messages API params: tool results go in a user message, roles alternate."""
    wire: list[dict[str, Any]] = []
    for message in messages:
        role = "assistant" if message.role == "assistant" else "user"
        blocks = [_block(part) for part in message.parts]
        blocks = [b for b in blocks if b is not None]
        if not blocks:
            continue
        if wire and wire[-1]["role"] == role:
            wire[-1]["content"].extend(blocks)
        else:
            wire.append({"role": role, "content": blocks})
    return wire


def _block(part: TextPart | ToolCall | ToolResult | ImagePart) -> dict[str, Any] | None:
    if isinstance(part, ImagePart):
        return {"type": "image", "source": {"type": "base64", "media_type": part.media_type, "data": part.base64()}}
    if isinstance(part, TextPart):
        # The API refuses empty text blocks.
        return {"type": "text", "text": part.text} if part.text.strip() else None
    if isinstance(part, ToolCall):
        return {"type": "tool_use", "id": part.call_id, "name": part.name, "input": dict(part.arguments)}
    return {
        "type": "tool_result",
        "tool_use_id": part.call_id,
        "content": part.content,
        "is_error": part.is_error,
    }


def _from_wire(message: Any) -> ModelResponse:
    parts: list[TextPart | ToolCall] = []
    for block in message.content:
        if block.type == "text":
            parts.append(TextPart(block.text))
        elif block.type == "tool_use":
            arguments = block.input if isinstance(block.input, dict) else {}
            parts.append(ToolCall(block.id, block.name, arguments))
    usage = message.usage
    return ModelResponse(
        parts=tuple(parts),
        usage=Usage(
            input_tokens=usage.input_tokens or 0,
            output_tokens=usage.output_tokens or 0,
            cache_read_tokens=usage.cache_read_input_tokens or 0,
            cache_write_tokens=usage.cache_creation_input_tokens or 0,
        ),
        provider=AnthropicProvider.name,
        model=message.model,
        stop_reason=message.stop_reason or "",
    )
