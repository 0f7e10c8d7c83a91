"""The draft's model loop: read tools only, bounded in rounds, one repair of the declaração.

Each round the model either asks for read tools (run through the `ToolExecutor`, results
given back) or answers. After `max_tool_steps` rounds it is told to answer and offered no
more tool use. An answer that does not validate (`declaracao.parse_draft`) gets one repair
call carrying the validation errors; a second invalid answer is a failure, returned as data
with the tape and the usage so the runtime can decide what happens next.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass, field

from balcao.conversador.v1 import conversador_pb2 as cv
from balcao.models.base import Message, ModelProvider, ModelRequest, ModelResponse, ToolResult
from balcao.models.conversador_format import TASK_DRAFT
from services.conversador import prompts, tape
from services.conversador.declaracao import DraftOutput, InvalidOutput, parse_draft
from services.conversador.model_calls import call_model
from services.conversador.tools import READ_TOOLS, ToolExecutor

log = logging.getLogger(__name__)

REPAIR_FAILED = "declaração inválida após uma tentativa de reparo"


@dataclass(frozen=True, slots=True)
class Limits:
    max_tool_steps: int = 5
    max_output_tokens: int = 1024


@dataclass
class LoopResult:
    output: DraftOutput | None = None
    failure_reason: str = ""
    validation_error: str = ""
    steps: list[cv.TapeStep] = field(default_factory=list)
    usage: list[cv.ModelUsage] = field(default_factory=list)
    repaired: bool = False


async def _run_tools(executor: ToolExecutor, response: ModelResponse) -> Message:
    calls = response.tool_calls
    outcomes = await asyncio.gather(*(executor.execute(c.name, dict(c.arguments)) for c in calls))
    return Message(
        "tool",
        tuple(ToolResult(c.call_id, c.name, o.content, o.is_error) for c, o in zip(calls, outcomes, strict=True)),
    )


async def run_loop(
    model: ModelProvider,
    executor: ToolExecutor,
    *,
    system: str,
    opening: list[Message],
    added: list[Message],
    conversation: str,
    attempt: int,
    purpose: int,
    limits: Limits,
) -> LoopResult:
    """Run one attempt (the draft, or a revision).

    `opening` is what the model reads first (the turn prompt, and for a revision the earlier
    tape); `added` are the loop inputs this attempt starts with (a revision's request), which
    go into the tape.
    """
    result = LoopResult()
    messages = [*opening, *added]
    pending = list(added)
    rounds = 0
    told_to_answer = False
    call_purpose = purpose

    while True:
        if rounds >= limits.max_tool_steps and not told_to_answer and not result.repaired:
            final = Message.user(prompts.FINAL_STEP_MESSAGE)
            messages.append(final)
            pending.append(final)
            told_to_answer = True
        no_more_tools = rounds >= limits.max_tool_steps or result.repaired
        request = ModelRequest(
            system=system,
            messages=tuple(messages),
            tools=READ_TOOLS,
            tool_choice="none" if no_more_tools else "auto",
            max_tokens=limits.max_output_tokens,
            task=TASK_DRAFT,
        )
        response, usage = await call_model(model, request, call_purpose)
        result.usage.append(usage)
        produced = [*pending, response.as_message()]
        messages.append(response.as_message())
        pending = []

        if response.tool_calls:
            if no_more_tools:
                result.steps.append(tape.step(attempt, len(result.steps), produced))
                result.failure_reason = (
                    "o modelo pediu consultas no reparo da declaração"
                    if result.repaired
                    else f"o modelo continuou pedindo consultas depois do limite de {limits.max_tool_steps} rodadas"
                )
                return result
            results = await _run_tools(executor, response)
            produced.append(results)
            messages.append(results)
            result.steps.append(tape.step(attempt, len(result.steps), produced))
            rounds += 1
            continue

        result.steps.append(tape.step(attempt, len(result.steps), produced))
        try:
            result.output = parse_draft(response.text, conversation)
            return result
        except InvalidOutput as exc:
            result.validation_error = exc.errors
            if result.repaired:
                result.failure_reason = REPAIR_FAILED
                return result
            log.info("declaração invalid, asking for one repair", extra={"errors": exc.errors})
            result.repaired = True
            call_purpose = cv.MODEL_CALL_PURPOSE_DECLARACAO_REPAIR
            repair = Message.user(prompts.repair_message(exc.errors))
            messages.append(repair)
            pending = [repair]
