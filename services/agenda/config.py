"""Settings of the agenda service (environment prefix `BALCAO_AGENDA_`)."""

from __future__ import annotations

from pydantic_settings import SettingsConfigDict

from balcao.kit.settings import DatabaseSettings, grpc_port_field


class Settings(DatabaseSettings):
    model_config = SettingsConfigDict(env_prefix="BALCAO_AGENDA_", extra="ignore", populate_by_name=True)

    service_name: str = "agenda"
    grpc_port: int = grpc_port_field("agenda")
