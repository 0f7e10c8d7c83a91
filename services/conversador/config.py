"""Settings of the conversador service (environment prefix `BALCAO_CONVERSADOR_`).

Its only peer is projection: there is no crm or agenda address here, on purpose. The model
provider's variables (`ANTHROPIC_API_KEY`, `ANTHROPIC_BASE_URL`, `BALCAO_MODEL`, …) come from
`ModelSettings`.
"""

from __future__ import annotations

from typing import Any

from pydantic import AliasChoices, Field
from pydantic_settings import SettingsConfigDict

from balcao.kit.settings import ServiceSettings, grpc_port_field, peer_field
from balcao.models.selection import ModelSettings


def _knob(name: str) -> Any:
    # The seeds name these knobs without a prefix; the prefixed name wins when both are set.
    return AliasChoices(f"BALCAO_CONVERSADOR_{name}", name)


class Settings(ServiceSettings, ModelSettings):
    model_config = SettingsConfigDict(env_prefix="BALCAO_CONVERSADOR_", extra="ignore", populate_by_name=True)

    service_name: str = "conversador"
    grpc_port: int = grpc_port_field("conversador")
    projection_addr: str = peer_field("projection")

    # Rounds of read tools a draft (or a revision) may use before it must answer.
    max_tool_steps: int = Field(5, ge=1, le=20)
    # Seconds a read through projection may take.
    projection_timeout_seconds: float = Field(10.0, gt=0)
    # Output tokens a draft or closing call may produce.
    max_output_tokens: int = Field(1024, ge=64)
    # Each tool result reaches the closing model capped at this many tokens (≈ 3.5 chars each).
    prune_tool_results_min_result_tokens: int = Field(
        200, ge=1, validation_alias=_knob("PRUNE_TOOL_RESULTS_MIN_RESULT_TOKENS")
    )
    # Seed 001: condense `rolling_summary` above this many tokens. Unset or 0: off (the default).
    rolling_summary_max_tokens: int | None = Field(None, ge=0, validation_alias=_knob("ROLLING_SUMMARY_MAX_TOKENS"))
