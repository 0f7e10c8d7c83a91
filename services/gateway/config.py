"""Settings of the gateway service (environment prefix `BALCAO_GATEWAY_`)."""

from __future__ import annotations

from pydantic import Field
from pydantic_settings import SettingsConfigDict

from balcao.kit.mesh import SERVICES
from balcao.kit.settings import DatabaseSettings, grpc_port_field, peer_field


class Settings(DatabaseSettings):
    model_config = SettingsConfigDict(env_prefix="BALCAO_GATEWAY_", extra="ignore", populate_by_name=True)

    service_name: str = "gateway"
    grpc_port: int = grpc_port_field("gateway")
    conversador_addr: str = peer_field("conversador")
    projection_addr: str = peer_field("projection")
    seguranca_addr: str = peer_field("seguranca")
    operador_addr: str = peer_field("operador")
    crm_addr: str = peer_field("crm")
    agenda_addr: str = peer_field("agenda")
    http_port: int = Field(SERVICES["gateway"].http_port, ge=0, le=65535)
