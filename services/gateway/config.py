"""Settings of the gateway service (environment prefix `BALCAO_GATEWAY_`).

Besides the peers' addresses, the turn runtime's knobs: the default debounce (an organisation's
own `runtime.debounce_ms` wins), the claim lease, the retries of a failed turn and of a send, the
worker's concurrency. The model variables (`ANTHROPIC_API_KEY`, …) come from `ModelSettings`;
the gateway calls a model only to choose the unit when an organisation has several. The HTTP
edge's variables (`BALCAO_GATEWAY_EDGE_*`) come from `EdgeSettings` (docs/services/gateway-edge.md).
"""

from __future__ import annotations

from pydantic import Field
from pydantic_settings import SettingsConfigDict

from balcao.kit.mesh import SERVICES
from balcao.kit.settings import DatabaseSettings, grpc_port_field, peer_field
from balcao.models.selection import ModelSettings
from services.gateway.edge.settings import EdgeSettings


class Settings(DatabaseSettings, ModelSettings, EdgeSettings):
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

    # Quiet time after a contact's last message before the turn starts, when the organisation
    # sets none (`runtime.debounce_ms` = 0).
    default_debounce_ms: int = Field(4000, ge=0)
    # The longest a burst is held from its first message, when the organisation sets none.
    default_debounce_cap_ms: int = Field(30000, ge=0)
    # How long a replica's claim on a contact lasts without being renewed.
    claim_lease_seconds: float = Field(30.0, gt=0)
    # Attempts of a turn before it is given up (a Central item is raised then).
    turn_max_attempts: int = Field(5, ge=1, le=20)
    # The first retry's delay; each next one doubles, up to `turn_retry_max_seconds`.
    turn_retry_base_seconds: float = Field(2.0, gt=0)
    turn_retry_max_seconds: float = Field(300.0, gt=0)
    # Attempts of one send before it is a permanent failure, and the pause between them.
    send_attempts: int = Field(3, ge=1, le=10)
    send_retry_seconds: float = Field(1.0, ge=0)
    # Turns (of different contacts) one replica runs at once.
    worker_concurrency: int = Field(32, ge=1)
    # The scan for due contacts runs at least this often (other replicas' messages, retries).
    worker_poll_seconds: float = Field(1.0, gt=0)
    # Organisation settings and the agent configuration are reused for this long.
    config_cache_seconds: float = Field(2.0, ge=0)
    # Seconds a call to a peer may take; the Conversador's calls run a model and get longer.
    peer_timeout_seconds: float = Field(15.0, gt=0)
    conversador_timeout_seconds: float = Field(180.0, gt=0)
    # Earlier messages given to the Conversador as the conversation so far.
    history_messages: int = Field(20, ge=0, le=200)
    # Times the runtime drafts again because the customer wrote while the draft was written.
    max_redrafts: int = Field(2, ge=0, le=5)
    # Whether this replica consumes proactive-turn events from crm's queue.
    proactive_consumer_enabled: bool = True
    # How long the agent stays quiet for a contact after a person answered from the business's
    # phone, when the organisation sets no `runtime.human_reply_pause_minutes`.
    default_human_pause_minutes: int = Field(30, ge=1, le=7 * 24 * 60)
    # The address Evolution reaches this gateway's HTTP side at (for the webhook URL the admin API
    # shows); empty: http://127.0.0.1:<http_port>.
    public_url: str = ""
    # Connect WhatsApp replies to Evolution (off: every WhatsApp send fails plainly, as before).
    whatsapp_enabled: bool = True

    def own_grpc_target(self) -> str:
        """Where this process's own gRPC server answers (the HTTP bridge calls it there)."""
        host = self.bind_host.strip("[]")
        if host in ("", "0.0.0.0", "::"):
            host = "127.0.0.1"
        return f"[{host}]:{self.grpc_port}" if ":" in host else f"{host}:{self.grpc_port}"

    def webhook_url(self) -> str:
        base = self.public_url.rstrip("/") or f"http://127.0.0.1:{self.http_port}"
        return f"{base}/webhooks/evolution"
