"""Settings of the operador service (environment prefix `BALCAO_OPERADOR_`, model variables shared)."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field
from pydantic_settings import SettingsConfigDict

from balcao.kit.settings import ServiceSettings, grpc_port_field, peer_field
from balcao.models.selection import ModelSettings


class Settings(ServiceSettings, ModelSettings):
    model_config = SettingsConfigDict(env_prefix="BALCAO_OPERADOR_", extra="ignore", populate_by_name=True)

    service_name: str = "operador"
    grpc_port: int = grpc_port_field("operador")
    crm_addr: str = peer_field("crm")
    agenda_addr: str = peer_field("agenda")
    # The event worker: how many events one Claim takes, how long their lease lasts, how many are
    # processed at once, and how often the Subscribe stream must at least wake it.
    worker_enabled: bool = True
    batch_size: int = Field(250, ge=1, le=500)
    lease_seconds: float = Field(60.0, gt=0)
    concurrency: int = Field(16, ge=1, le=256)
    poll_seconds: float = Field(5.0, gt=0)
    call_timeout_seconds: float = Field(10.0, gt=0)
    # Tests only: a folder of `<organization_id>.json` scripted model responses; unset in production.
    script_dir: Path | None = None
