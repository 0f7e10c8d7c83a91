"""Settings of the operador service (environment prefix `BALCAO_OPERADOR_`)."""

from __future__ import annotations

from pydantic_settings import SettingsConfigDict

from balcao.kit.settings import ServiceSettings, grpc_port_field, peer_field


class Settings(ServiceSettings):
    model_config = SettingsConfigDict(env_prefix="BALCAO_OPERADOR_", extra="ignore", populate_by_name=True)

    service_name: str = "operador"
    grpc_port: int = grpc_port_field("operador")
    crm_addr: str = peer_field("crm")
    agenda_addr: str = peer_field("agenda")
