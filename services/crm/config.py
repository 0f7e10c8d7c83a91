"""Settings of the crm service (environment prefix `BALCAO_CRM_`)."""

from __future__ import annotations

from pydantic_settings import SettingsConfigDict

from balcao.kit.settings import DatabaseSettings, grpc_port_field


class Settings(DatabaseSettings):
    model_config = SettingsConfigDict(env_prefix="BALCAO_CRM_", extra="ignore", populate_by_name=True)

    service_name: str = "crm"
    grpc_port: int = grpc_port_field("crm")
