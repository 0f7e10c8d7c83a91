"""The model interface shared by every role (Conversador, Segurança's reviewers, Operador).

`base` is the interface; `selection.select_provider(settings)` picks the provider: Anthropic
when `ANTHROPIC_API_KEY` is set, the offline default otherwise. `scripted` is the test double.
"""

from balcao.models.base import (
    Message,
    ModelError,
    ModelProvider,
    ModelRejected,
    ModelRequest,
    ModelResponse,
    ModelUnavailable,
    TextPart,
    ToolCall,
    ToolDefinition,
    ToolResult,
    Usage,
)
from balcao.models.selection import ModelSettings, select_provider

__all__ = [
    "Message",
    "ModelError",
    "ModelProvider",
    "ModelRejected",
    "ModelRequest",
    "ModelResponse",
    "ModelSettings",
    "ModelUnavailable",
    "TextPart",
    "ToolCall",
    "ToolDefinition",
    "ToolResult",
    "Usage",
    "select_provider",
]
