"""The edge's settings, as a mixin for the gateway's `Settings` (environment prefix `BALCAO_GATEWAY_`).

`class Settings(DatabaseSettings, ModelSettings, EdgeSettings)` gives `BALCAO_GATEWAY_EDGE_*`
variables; `limits()`, `evolution_client()` and `enricher()` build the pieces the router takes.
Per-instance configuration (base URL, API key, webhook secret or JWT key, groups on/off) is not
here: it lives with the channel instances (admin API), behind `EdgeDirectory`.
"""

from __future__ import annotations

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict
from sqlalchemy.ext.asyncio import AsyncEngine

from services.gateway.edge.content import ContentEnricher, ImageDescriber, OfflineGeocoder, TranscriptionProvider
from services.gateway.edge.evolution.client import EvolutionClient, RetryPolicy
from services.gateway.edge.http import EdgeLimits
from services.gateway.edge.inbox import DeliveryDrain, DeliveryInbox, OnLost, TakeDelivery
from services.gateway.edge.ratelimit import RateLimiter, SharedRateLimiter

MIB = 1024 * 1024


class EdgeSettings(BaseSettings):
    model_config = SettingsConfigDict(extra="ignore", populate_by_name=True)

    # Request size limits. Evolution with `base64: true` inlines whole media files in webhooks.
    edge_webhook_max_body_bytes: int = Field(24 * MIB, ge=64 * 1024)
    edge_web_max_body_bytes: int = Field(16 * MIB, ge=64 * 1024)
    edge_webhook_max_events: int = Field(100, ge=1, le=1000)
    # The largest media file kept (inline, fetched from Evolution, or sent to the web channel).
    edge_media_max_bytes: int = Field(16 * MIB, ge=1024)
    # How long POST /v1/web/messages waits for the turn before answering with its id only.
    edge_web_turn_wait_seconds: float = Field(20.0, ge=0, le=30)
    # The Evolution API client: timeouts and retries of sendText and media fetches.
    edge_evolution_timeout_seconds: float = Field(15.0, gt=0)
    edge_evolution_connect_timeout_seconds: float = Field(5.0, gt=0)
    edge_evolution_attempts: int = Field(3, ge=1, le=10)
    edge_evolution_retry_base_seconds: float = Field(0.5, ge=0)
    edge_evolution_retry_max_seconds: float = Field(8.0, ge=0)
    # Content: media fetch time before giving up (the message is kept), PDF caps, geocoding.
    edge_media_fetch_timeout_seconds: float = Field(10.0, gt=0)
    edge_pdf_max_pages: int = Field(20, ge=1, le=500)
    edge_pdf_max_chars: int = Field(12_000, ge=100, le=18_000)
    # Describe customers' images with the model when the provider sees images (Anthropic); the
    # longest a description may take before the caption goes on alone.
    edge_describe_images: bool = True
    edge_describe_timeout_seconds: float = Field(30.0, gt=0, le=120)
    # Reverse geocode shared locations offline (~160 MB of city data per process, loaded once).
    edge_geocode_enabled: bool = True
    edge_geocode_max_km: float = Field(30.0, gt=0)
    # Messages accepted per one-minute window from one contact and into one organisation, counted
    # in PostgreSQL and shared by every replica; beyond them 429 and nothing stored. 0: no limit.
    edge_rate_contact_per_minute: int = Field(30, ge=0)
    edge_rate_organization_per_minute: int = Field(1200, ge=0)
    # The gRPC/HTTP bridge (admin API as JSON): the largest body accepted, and how long one bridged
    # call may take (RunTestTurn runs a whole turn, model included).
    edge_bridge_max_body_bytes: int = Field(4 * MIB, ge=64 * 1024)
    edge_bridge_timeout_seconds: float = Field(120.0, gt=0)
    # Webhook deliveries are stored (group commit) before the 2xx and drained into the runtime
    # after it. Off: each message goes through the runtime (crm, the inbound store) inside the request.
    edge_inbox_enabled: bool = True
    # How long the first request of a group waits for others to share its commit, and the most
    # messages one commit takes.
    edge_group_commit_ms: float = Field(2.0, ge=0, le=50)
    edge_group_commit_max_rows: int = Field(256, ge=1, le=5000)
    # The drain: deliveries handed to the runtime at once per replica, attempts before a delivery
    # is recorded as failed, and how long taken deliveries' keys stay to recognise redeliveries.
    edge_drain_concurrency: int = Field(8, ge=1, le=256)
    edge_drain_max_attempts: int = Field(10, ge=1, le=100)
    edge_delivery_retention_hours: float = Field(48.0, gt=0)

    def rate_limiter(self, engine: AsyncEngine | None = None) -> RateLimiter | SharedRateLimiter | None:
        """Shared through PostgreSQL when an engine is given; in this process otherwise."""
        if not self.edge_rate_contact_per_minute and not self.edge_rate_organization_per_minute:
            return None
        if engine is not None:
            return SharedRateLimiter(
                engine,
                contact_per_minute=self.edge_rate_contact_per_minute,
                organization_per_minute=self.edge_rate_organization_per_minute,
            )
        return RateLimiter(
            contact_per_minute=self.edge_rate_contact_per_minute,
            organization_per_minute=self.edge_rate_organization_per_minute,
        )

    def inbox(self, engine: AsyncEngine) -> DeliveryInbox | None:
        if not self.edge_inbox_enabled:
            return None
        return DeliveryInbox(
            engine,
            contact_per_minute=self.edge_rate_contact_per_minute,
            organization_per_minute=self.edge_rate_organization_per_minute,
            window_seconds=self.edge_group_commit_ms / 1000.0,
            max_batch=self.edge_group_commit_max_rows,
        )

    def drain(self, engine: AsyncEngine, take: TakeDelivery, on_lost: OnLost | None = None) -> DeliveryDrain:
        return DeliveryDrain(
            engine,
            take,
            on_lost=on_lost,
            concurrency=self.edge_drain_concurrency,
            max_attempts=self.edge_drain_max_attempts,
            retention_seconds=self.edge_delivery_retention_hours * 3600.0,
        )

    def limits(self) -> EdgeLimits:
        return EdgeLimits(
            webhook_max_body_bytes=self.edge_webhook_max_body_bytes,
            web_max_body_bytes=self.edge_web_max_body_bytes,
            max_events_per_body=self.edge_webhook_max_events,
            media_max_bytes=self.edge_media_max_bytes,
            web_turn_wait_seconds=self.edge_web_turn_wait_seconds,
        )

    def evolution_client(self) -> EvolutionClient:
        return EvolutionClient(
            timeout_seconds=self.edge_evolution_timeout_seconds,
            connect_timeout_seconds=self.edge_evolution_connect_timeout_seconds,
            retry=RetryPolicy(
                attempts=self.edge_evolution_attempts,
                base_seconds=self.edge_evolution_retry_base_seconds,
                max_seconds=self.edge_evolution_retry_max_seconds,
            ),
            media_max_bytes=self.edge_media_max_bytes,
        )

    def enricher(
        self, transcriber: TranscriptionProvider | None = None, describer: ImageDescriber | None = None
    ) -> ContentEnricher:
        return ContentEnricher(
            geocoder=OfflineGeocoder(max_km=self.edge_geocode_max_km) if self.edge_geocode_enabled else None,
            transcriber=transcriber,
            describer=describer if self.edge_describe_images else None,
            describe_timeout_seconds=self.edge_describe_timeout_seconds,
            pdf_max_pages=self.edge_pdf_max_pages,
            pdf_max_chars=self.edge_pdf_max_chars,
            media_max_bytes=self.edge_media_max_bytes,
            fetch_timeout_seconds=self.edge_media_fetch_timeout_seconds,
        )
