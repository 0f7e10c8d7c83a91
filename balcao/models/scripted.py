"""The scripted double: replays a list of responses and records every request it received.

Each script entry is a `ModelResponse`, a `ModelError` to raise, or a function of the request
returning either (for answers that depend on what was asked). Running past the end of the
script is an error that names the request, so a test never passes on a silent default.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from balcao.models.base import (
    ModelError,
    ModelProvider,
    ModelRequest,
    ModelResponse,
    TextPart,
    ToolCall,
    Usage,
)

Entry = ModelResponse | ModelError | Callable[[ModelRequest], "ModelResponse | ModelError"]

_ids = itertools.count(1)


class ScriptExhausted(AssertionError):
    """The code under test made more model calls than the script foresaw."""


class ScriptedProvider(ModelProvider):
    name = "scripted"

    def __init__(self, script: Iterable[Entry] = (), *, model: str = "scripted-1", sees_images: bool = True) -> None:
        self.sees_images = sees_images
        self.script: list[Entry] = list(script)
        self.requests: list[ModelRequest] = []
        self.model = model
        self.closed = False

    def then(self, *entries: Entry) -> ScriptedProvider:
        self.script.extend(entries)
        return self

    @property
    def remaining(self) -> int:
        return len(self.script)

    async def complete(self, request: ModelRequest) -> ModelResponse:
        self.requests.append(request)
        if not self.script:
            raise ScriptExhausted(f"call {len(self.requests)} ({request.task or 'no task'}) has no scripted response")
        entry = self.script.pop(0)
        if callable(entry) and not isinstance(entry, ModelResponse | ModelError):
            entry = entry(request)
        if isinstance(entry, ModelError):
            raise entry
        return entry

    async def aclose(self) -> None:
        self.closed = True


def text(content: str, *, usage: Usage | None = None, model: str = "scripted-1") -> ModelResponse:
    """A response made of text only."""
    return ModelResponse((TextPart(content),), usage or Usage(10, 5), ScriptedProvider.name, model)


def tool_calls(
    *calls: tuple[str, Mapping[str, Any]],
    preface: str = "",
    usage: Usage | None = None,
    model: str = "scripted-1",
) -> ModelResponse:
    """A response asking for tools: `tool_calls(("check_availability", {...}), ...)`."""
    parts: list[TextPart | ToolCall] = [TextPart(preface)] if preface else []
    parts.extend(ToolCall(f"call_{next(_ids)}", name, dict(arguments)) for name, arguments in calls)
    return ModelResponse(tuple(parts), usage or Usage(10, 5), ScriptedProvider.name, model, "tool_use")
