"""Settings of the seguranca service (environment prefix `BALCAO_SEGURANCA_`)."""

from __future__ import annotations

from pydantic import Field
from pydantic_settings import SettingsConfigDict

from balcao.kit.settings import ServiceSettings, grpc_port_field, peer_field
from balcao.models import ModelSettings


class Settings(ServiceSettings, ModelSettings):
    model_config = SettingsConfigDict(env_prefix="BALCAO_SEGURANCA_", extra="ignore", populate_by_name=True)

    service_name: str = "seguranca"
    grpc_port: int = grpc_port_field("seguranca")
    agenda_addr: str = peer_field("agenda")
    crm_addr: str = peer_field("crm")
    # How long the model reviewer and classifier may take per attempt before counting as failed.
    reviewer_timeout_seconds: float = Field(20.0, gt=0)
    classifier_timeout_seconds: float = Field(15.0, gt=0)
