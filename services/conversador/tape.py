"""The tape: every step of a turn's model loop, as the contract records it (seed 000).

Converts model messages to `TapeStep`s and back (a revision continues from the draft's tape),
and writes the tape as text for the closing model, which is called without tools: tool calls
and results reach it as plain text, each result capped.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence

from balcao.conversador.v1 import conversador_pb2 as cv
from balcao.models.base import Message, Part, TextPart, ToolCall, ToolResult
from services.conversador.tools import AGENDA_TOOLS

_ROLES = {"user": cv.TAPE_ROLE_USER, "assistant": cv.TAPE_ROLE_ASSISTANT, "tool": cv.TAPE_ROLE_TOOL}
_BACK = {v: k for k, v in _ROLES.items()}
CHARS_PER_TOKEN = 3.5


class BadTape(ValueError):
    """A tape in a request cannot be replayed to a model (a call without its result, bad JSON)."""


def _part(part: Part) -> cv.TapePart:
    if isinstance(part, TextPart):
        return cv.TapePart(text=part.text)
    if isinstance(part, ToolCall):
        return cv.TapePart(
            tool_call=cv.ToolCall(call_id=part.call_id, tool_name=part.name, arguments_json=part.arguments_json())
        )
    return cv.TapePart(
        tool_result=cv.ToolResult(
            call_id=part.call_id, tool_name=part.name, content=part.content, is_error=part.is_error
        )
    )


def step(attempt: int, index: int, messages: Iterable[Message]) -> cv.TapeStep:
    return cv.TapeStep(
        attempt=attempt,
        index=index,
        messages=[cv.TapeMessage(role=_ROLES[m.role], parts=[_part(p) for p in m.parts]) for m in messages],
    )


def messages_from_tape(tape: cv.Tape) -> list[Message]:
    """The tape's messages in order, ready to be sent again; checks that every call has its result."""
    messages: list[Message] = []
    open_calls: set[str] = set()
    for tape_step in tape.steps:
        for tape_message in tape_step.messages:
            role = _BACK.get(tape_message.role)
            if role is None:
                raise BadTape("a tape message has no role")
            if role != "tool" and open_calls:
                raise BadTape("a tool call in the tape has no result")
            parts: list[Part] = []
            for p in tape_message.parts:
                kind = p.WhichOneof("content")
                if kind == "text":
                    parts.append(TextPart(p.text))
                elif kind == "tool_call":
                    try:
                        arguments = json.loads(p.tool_call.arguments_json or "{}")
                    except json.JSONDecodeError as exc:
                        raise BadTape(f"tool call arguments are not JSON: {exc.msg}") from None
                    if not isinstance(arguments, dict):
                        raise BadTape("tool call arguments must be a JSON object")
                    parts.append(ToolCall(p.tool_call.call_id, p.tool_call.tool_name, arguments))
                    open_calls.add(p.tool_call.call_id)
                elif kind == "tool_result":
                    r = p.tool_result
                    if r.call_id not in open_calls:
                        raise BadTape("a tool result in the tape answers no call")
                    open_calls.discard(r.call_id)
                    parts.append(ToolResult(r.call_id, r.tool_name, r.content, r.is_error))
            try:
                messages.append(Message(role, tuple(parts)))  # type: ignore[arg-type]
            except ValueError as exc:
                raise BadTape(str(exc)) from None
    if open_calls:
        raise BadTape("a tool call in the tape has no result")
    return messages


def used_agenda_tool(steps: Sequence[cv.TapeStep]) -> bool:
    return any(
        p.tool_call.tool_name in AGENDA_TOOLS
        for s in steps
        for m in s.messages
        for p in m.parts
        if p.WhichOneof("content") == "tool_call"
    )


def cap(content: str, tokens: int) -> str:
    limit = int(tokens * CHARS_PER_TOKEN)
    if len(content) <= limit:
        return content
    return f"{content[:limit]}… [cortado: mais {len(content) - limit} caracteres]"


def _indent(text: str) -> str:
    return "\n    ".join(text.splitlines())


def as_text(tape: cv.Tape, result_cap_tokens: int) -> str:
    """Every step of every attempt, tool parts included, as text (seed 000: toolPartsAsText)."""
    lines: list[str] = []
    for tape_step in tape.steps:
        which = "escrita da resposta" if tape_step.attempt <= 1 else f"revisão {tape_step.attempt - 1}"
        lines.append(f"Passo {tape_step.index + 1} da {which}:")
        for message in tape_step.messages:
            for p in message.parts:
                kind = p.WhichOneof("content")
                if kind == "text":
                    if not p.text.strip():
                        continue
                    who = "Pedido ao atendente" if message.role == cv.TAPE_ROLE_USER else "Atendente escreveu"
                    lines.append(f"  {who}: {_indent(p.text)}")
                elif kind == "tool_call":
                    lines.append(f"  Consulta {p.tool_call.tool_name}: {p.tool_call.arguments_json or '{}'}")
                elif kind == "tool_result":
                    r = p.tool_result
                    failed = " (não respondeu)" if r.is_error else ""
                    lines.append(f"  Resultado de {r.tool_name}{failed}: {_indent(cap(r.content, result_cap_tokens))}")
    return "\n".join(lines) if lines else "(nenhum passo registrado)"
