"""Which provider a process uses: Anthropic when `ANTHROPIC_API_KEY` is set, else the offline model.

`ModelSettings` is mixed into a service's settings (`class Settings(ServiceSettings,
ModelSettings)`), so the variables are read once at start-up with the service's others.
"""

from __future__ import annotations

from typing import Any

from pydantic import AliasChoices, Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

from balcao.models.base import ModelProvider

DEFAULT_MODEL = "claude-sonnet-4-5"
DEFAULT_CHEAP_MODEL = "claude-haiku-4-5"


def _env(name: str) -> Any:
    return AliasChoices(name)


class ModelSettings(BaseSettings):
    """The model provider's settings (fixed variable names, shared by every service)."""

    model_config = SettingsConfigDict(extra="ignore", populate_by_name=True)

    anthropic_api_key: SecretStr | None = Field(None, validation_alias=_env("ANTHROPIC_API_KEY"))
    anthropic_base_url: str | None = Field(None, validation_alias=_env("ANTHROPIC_BASE_URL"))
    model_name: str = Field(DEFAULT_MODEL, min_length=1, validation_alias=_env("BALCAO_MODEL"))
    cheap_model_name: str = Field(DEFAULT_CHEAP_MODEL, min_length=1, validation_alias=_env("BALCAO_CHEAP_MODEL"))
    model_timeout_seconds: float = Field(60.0, gt=0, validation_alias=_env("BALCAO_MODEL_TIMEOUT_SECONDS"))
    model_max_retries: int = Field(3, ge=0, le=10, validation_alias=_env("BALCAO_MODEL_MAX_RETRIES"))


def select_provider(settings: ModelSettings) -> ModelProvider:
    """The Anthropic provider when a key is configured; otherwise the offline default."""
    key = settings.anthropic_api_key.get_secret_value() if settings.anthropic_api_key else ""
    if key.strip():
        from balcao.models.anthropic import AnthropicProvider

        return AnthropicProvider(
            api_key=key.strip(),
            base_url=settings.anthropic_base_url or None,
            model=settings.model_name,
            cheap_model=settings.cheap_model_name,
            timeout_seconds=settings.model_timeout_seconds,
            max_retries=settings.model_max_retries,
        )
    from balcao.models.offline import OfflineProvider

    return OfflineProvider()
