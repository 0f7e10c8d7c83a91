"""What the offline model does as the Operador: nothing beyond the basic registration, said so.

The offline default is not a language model; judging the catalog needs one. Taught this task, it
answers in one line without calling a tool, so a mesh without a key still processes every closed
turn (the basic registration by code does the state, the follow-ups and the timeline).
"""

from __future__ import annotations

from balcao.models.base import ModelRequest, TextPart, ToolCall
from balcao.models.offline import OfflineProvider
from services.operador.acting import TASK


def act(request: ModelRequest) -> list[TextPart | ToolCall]:
    return [TextPart("Sem modelo configurado: só o registro básico foi feito.")]


def teach(provider: OfflineProvider) -> None:
    provider.register(TASK, act)
