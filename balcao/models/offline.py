"""The offline default: a deterministic, rule-based stand-in for a language model.

Selected when no `ANTHROPIC_API_KEY` is set, so the whole mesh works with no key and no
network. It is NOT a language model: it recognises the common intents of a service business
in pt-BR by keywords (greeting, times, booking, rescheduling, cancelling, price, opening hours,
address, a person, opting out), asks for the read tools it needs, and writes a short courteous
reply and a declaração only from what the context and the tools gave it. When it does not
know, it says so and offers a person; it never makes a fact up.

It cannot see images (`sees_images` is false): `describe_image` answers None and a customer's
image reaches the agent with its caption only. It picks its behaviour by `ModelRequest.task`;
a task it does not know is refused with `ModelRejected` rather than answered with something
plausible. Usage is reported as zero:
nothing is billed.
"""

from __future__ import annotations

from collections.abc import Callable

from balcao.models import offline_closing, offline_conversador
from balcao.models.base import ModelProvider, ModelRejected, ModelRequest, ModelResponse, TextPart, ToolCall, Usage
from balcao.models.conversador_format import TASK_CLOSING, TASK_CONDENSE, TASK_DRAFT

OFFLINE_MODEL = "balcao-offline-1"

Behaviour = Callable[[ModelRequest], "list[TextPart | ToolCall]"]


class OfflineProvider(ModelProvider):
    name = "offline"

    def __init__(self) -> None:
        self.model = OFFLINE_MODEL
        self._behaviours: dict[str, Behaviour] = {
            TASK_DRAFT: offline_conversador.draft,
            TASK_CLOSING: offline_closing.closing,
            TASK_CONDENSE: offline_closing.condense,
        }

    def register(self, task: str, behaviour: Behaviour) -> None:
        """Teach the offline model another task (another role's reviewer, classifier, …)."""
        self._behaviours[task] = behaviour

    async def complete(self, request: ModelRequest) -> ModelResponse:
        behaviour = self._behaviours.get(request.task)
        if behaviour is None:
            raise ModelRejected(
                f"the offline model has no behaviour for task {request.task or '(none)'}; "
                "set ANTHROPIC_API_KEY to use a real model"
            )
        parts = tuple(behaviour(request))
        stop = "tool_use" if any(isinstance(p, ToolCall) for p in parts) else "end_turn"
        return ModelResponse(parts, Usage(), self.name, self.model, stop)
