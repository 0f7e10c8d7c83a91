"""Settings of the crm service (environment prefix `BALCAO_CRM_`)."""

from __future__ import annotations

from pydantic import Field
from pydantic_settings import SettingsConfigDict

from balcao.kit.settings import DatabaseSettings, grpc_port_field


class Settings(DatabaseSettings):
    model_config = SettingsConfigDict(env_prefix="BALCAO_CRM_", extra="ignore", populate_by_name=True)

    service_name: str = "crm"
    grpc_port: int = grpc_port_field("crm")

    # The event queue (docs/services/crm.md, "Queue semantics").
    queue_lease_seconds: float = Field(60.0, gt=0, le=3600)
    queue_max_attempts: int = Field(5, ge=1, le=100)
    queue_backoff_base_seconds: float = Field(5.0, ge=0)
    queue_backoff_max_seconds: float = Field(900.0, ge=0)
    queue_poll_seconds: float = Field(5.0, gt=0, le=300)
