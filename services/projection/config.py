"""Settings of the projection service (environment prefix `BALCAO_PROJECTION_`)."""

from __future__ import annotations

from pydantic import Field
from pydantic_settings import SettingsConfigDict

from balcao.kit.settings import ServiceSettings, grpc_port_field, peer_field


class Settings(ServiceSettings):
    model_config = SettingsConfigDict(env_prefix="BALCAO_PROJECTION_", extra="ignore", populate_by_name=True)

    service_name: str = "projection"
    grpc_port: int = grpc_port_field("projection")
    crm_addr: str = peer_field("crm")
    agenda_addr: str = peer_field("agenda")
    # Deadline of each raw read of crm or agenda; a read past it fails (the agenda's as unknown).
    read_timeout_seconds: float = Field(5.0, gt=0)
    # The organisation and its published agent configuration are reused for this long (every
    # opening and many tools read them); 0 reads them from crm every time.
    config_cache_seconds: float = Field(2.0, ge=0)
