"""Settings of the conversador service (environment prefix `BALCAO_CONVERSADOR_`)."""

from __future__ import annotations

from pydantic_settings import SettingsConfigDict

from balcao.kit.settings import ServiceSettings, grpc_port_field, peer_field


class Settings(ServiceSettings):
    model_config = SettingsConfigDict(env_prefix="BALCAO_CONVERSADOR_", extra="ignore", populate_by_name=True)

    service_name: str = "conversador"
    grpc_port: int = grpc_port_field("conversador")
    projection_addr: str = peer_field("projection")
