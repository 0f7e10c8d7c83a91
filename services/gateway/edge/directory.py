"""Who is who at the edge: Evolution instances and web channel keys, behind one small protocol.

The admin API stores channel instances and web keys in the gateway's database (issue 9); the
runtime implements `EdgeDirectory` over that store. `StaticDirectory` serves a fixed list (a
deployment configured by environment, the benchmark, the demo) and keeps web keys only as
SHA-256 digests, so a key is never held in clear after start-up.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Protocol

from services.gateway.edge.evolution.normalize import NormalizeOptions

DEFAULT_SECRET_HEADER = "x-balcao-webhook-secret"


@dataclass(frozen=True, slots=True)
class EvolutionInstance:
    """One Evolution instance (one WhatsApp number) of an organisation."""

    name: str  # the instance name, as in Evolution's URLs and the webhook's `instance`
    organization_id: str
    base_url: str  # e.g. "https://evo.example.com"
    # The instance token (`hash` from /instance/create): sends replies, fetches media, and must
    # equal the webhook body's `apikey` whenever Evolution exposes it there.
    api_key: str = field(repr=False)
    # Static secret header configured on the instance's webhook (`headers: {name: secret}`).
    webhook_secret: str = field(default="", repr=False)
    webhook_secret_header: str = DEFAULT_SECRET_HEADER
    # The `jwt_key` configured on the webhook: Evolution then sends `Authorization: Bearer <HS256 JWT>`.
    jwt_key: str = field(default="", repr=False)
    allow_groups: bool = False
    allow_broadcasts: bool = False
    allow_newsletters: bool = False

    def normalize_options(self, media_max_bytes: int) -> NormalizeOptions:
        return _options(self.allow_groups, self.allow_broadcasts, self.allow_newsletters, media_max_bytes)


@lru_cache(maxsize=64)
def _options(groups: bool, broadcasts: bool, newsletters: bool, media_max_bytes: int) -> NormalizeOptions:
    return NormalizeOptions(
        allow_groups=groups,
        allow_broadcasts=broadcasts,
        allow_newsletters=newsletters,
        media_max_bytes=media_max_bytes,
    )


@dataclass(frozen=True, slots=True)
class WebChannelKey:
    organization_id: str
    key_id: str


class EdgeDirectory(Protocol):
    async def evolution_instance(self, name: str) -> EvolutionInstance | None: ...

    async def web_key(self, secret: str) -> WebChannelKey | None: ...


def key_digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


class StaticDirectory:
    def __init__(
        self,
        instances: Iterable[EvolutionInstance] = (),
        web_keys: Iterable[tuple[str, WebChannelKey]] = (),
    ) -> None:
        self._instances = {i.name: i for i in instances}
        # Looked up by digest: comparing digests leaks nothing useful about the key itself.
        self._web_keys = {key_digest(secret): key for secret, key in web_keys}

    async def evolution_instance(self, name: str) -> EvolutionInstance | None:
        return self._instances.get(name)

    async def web_key(self, secret: str) -> WebChannelKey | None:
        return self._web_keys.get(key_digest(secret)) if secret else None
