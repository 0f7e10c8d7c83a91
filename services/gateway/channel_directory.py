"""Channel instances and web channel keys: the edge's `EdgeDirectory` over the gateway schema, and
what the admin RPCs do with them.

`DatabaseDirectory` answers the edge's two questions (which organisation and secrets an Evolution
instance has; which organisation a web API key belongs to). Instance lookups are cached for a
short time (the webhook is Evolution's hot path); web keys are read on every request, so a
revoked key is refused from the next request on.

`ChannelAdmin` creates or replaces instances and issues, lists and revokes web keys. A web key's
secret is shown once (`IssueWebChannelKey`) and stored as a SHA-256 digest only. Instance
secrets are stored in clear because they must be used: the API key sends replies, and the
webhook secret is compared with the header or is the HMAC key of Evolution's JWT.
"""

from __future__ import annotations

import asyncio
import ipaddress
import re
import secrets
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from sqlalchemy.ext.asyncio import AsyncEngine

from services.gateway import repository
from services.gateway.configuration import ConfigCache
from services.gateway.edge.directory import DEFAULT_SECRET_HEADER, EvolutionInstance, WebChannelKey, key_digest
from services.gateway.inbound import parse_uuid
from services.gateway.intake import InvalidRequest, NotFound

MAX_NAME_CHARS = 100
MIN_SECRET_CHARS = 16
WEB_KEY_PREFIX = "bk_"
# A header name as RFC 9110 spells a token, lower case; at most 64 characters.
_HEADER_NAME = re.compile(r"^[a-z0-9!#$%&'*+.^_`|~-]{1,64}$")
# Headers that carry something else (Evolution's JWT, the body, the connection): never the secret.
_RESERVED_HEADERS = frozenset(
    "authorization apikey content-type content-length content-encoding transfer-encoding host connection cookie "
    "user-agent x-instance-name x-forwarded-for te trailer upgrade".split()
)


class DatabaseDirectory:
    def __init__(self, engine: AsyncEngine, *, cache_seconds: float = 2.0) -> None:
        self._engine = engine
        self._ttl = cache_seconds
        self._instances: dict[str, tuple[float, EvolutionInstance | None]] = {}
        self._reading: dict[str, asyncio.Future[EvolutionInstance | None]] = {}

    def forget(self, name: str) -> None:
        self._instances.pop(name, None)
        self._reading.pop(name, None)

    async def evolution_instance(self, name: str) -> EvolutionInstance | None:
        cached = self._instances.get(name)
        if cached is not None and time.monotonic() - cached[0] < self._ttl:
            return cached[1]
        # One read per name at a time: when the cache expires under load, the requests waiting
        # for the same instance share one query instead of each taking a connection.
        pending = self._reading.get(name)
        if pending is not None:
            return await asyncio.shield(pending)
        pending = asyncio.get_running_loop().create_future()
        self._reading[name] = pending
        try:
            async with repository.all_tenants(self._engine) as conn:
                row = await repository.channel_instance(conn, name)
            instance = _instance(row) if row is not None else None
            if self._ttl > 0:
                self._instances[name] = (time.monotonic(), instance)
            pending.set_result(instance)
            return instance
        except Exception as exc:
            pending.set_exception(exc)
            pending.exception()  # retrieved: no "never retrieved" warning when nobody else waited
            raise
        except BaseException:
            pending.cancel()
            raise
        finally:
            self._reading.pop(name, None)

    async def web_key(self, secret: str) -> WebChannelKey | None:
        if not secret:
            return None
        async with repository.all_tenants(self._engine) as conn:
            found = await repository.use_web_key(conn, key_digest(secret))
        return WebChannelKey(str(found[0]), str(found[1])) if found is not None else None


def _instance(row: dict[str, Any]) -> EvolutionInstance:
    return EvolutionInstance(
        name=row["instance_name"],
        organization_id=str(row["organization_id"]),
        base_url=row["base_url"],
        api_key=row["api_key"],
        webhook_secret=row["webhook_secret"],
        webhook_secret_header=row["webhook_secret_header"],
        jwt_key=row["jwt_key"],
        allow_groups=row["allow_groups"],
        allow_broadcasts=row["allow_broadcasts"],
        allow_newsletters=row["allow_newsletters"],
    )


@dataclass(frozen=True)
class InstanceChange:
    """What an owner asks to store for one instance; empty secrets keep the stored ones."""

    base_url: str
    api_key: str
    webhook_secret: str
    sender_number: str
    # Empty: the default header (`x-balcao-webhook-secret`).
    webhook_secret_header: str = ""
    # The HS256 key of Evolution's webhook JWT when it is not the webhook secret; empty keeps it.
    jwt_key: str = ""
    allow_groups: bool = False
    allow_broadcasts: bool = False
    allow_newsletters: bool = False


@dataclass(frozen=True)
class Refused:
    """A configuration the gateway will not store, and why, in pt-BR. Nothing was written."""

    reason_pt: str


def _check_base_url(url: str) -> str | None:
    """None when acceptable, else the pt-BR refusal. HTTPS, or HTTP to this machine or a local name."""
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return "o endereço do Evolution precisa ser uma URL http(s) completa, como https://evolution.suaempresa.com.br"
    if parts.query or parts.fragment:
        return "o endereço do Evolution não pode ter parâmetros (?…) nem âncora (#…)"
    if parts.scheme == "https":
        return None
    host = parts.hostname
    try:
        local = ipaddress.ip_address(host).is_loopback or ipaddress.ip_address(host).is_private
    except ValueError:
        local = host == "localhost" or "." not in host  # a container's service name
    if not local:
        return "use https para um Evolution fora desta rede: a chave da instância viajaria sem proteção"
    return None


class ChannelAdmin:
    def __init__(
        self, engine: AsyncEngine, directory: DatabaseDirectory, configs: ConfigCache, *, webhook_url: str
    ) -> None:
        self._engine = engine
        self._configs = configs
        self._directory = directory
        self._webhook_url = webhook_url

    @property
    def webhook_url(self) -> str:
        return self._webhook_url

    async def set_instance(self, organization_id: str, name: str, change: InstanceChange) -> dict[str, Any] | Refused:
        org = parse_uuid(organization_id, "organization_id")
        name = name.strip()
        if not name:
            raise InvalidRequest("instance_name is required")
        if len(name) > MAX_NAME_CHARS or any(not c.isprintable() or c in "/?#" for c in name):
            raise InvalidRequest(f"instance_name must be up to {MAX_NAME_CHARS} printable characters without / ? #")
        base_url = change.base_url.strip().rstrip("/")
        refusal = _check_base_url(base_url)
        if refusal:
            return Refused(refusal)
        if change.webhook_secret and len(change.webhook_secret) < MIN_SECRET_CHARS:
            return Refused(f"a chave do webhook precisa ter pelo menos {MIN_SECRET_CHARS} caracteres")
        if change.jwt_key and len(change.jwt_key) < MIN_SECRET_CHARS:
            return Refused(f"a chave do JWT (jwt_key) precisa ter pelo menos {MIN_SECRET_CHARS} caracteres")
        header = change.webhook_secret_header.strip().lower() or DEFAULT_SECRET_HEADER
        if not _HEADER_NAME.match(header):
            return Refused(
                "o nome do cabeçalho da chave do webhook só pode ter letras, números e hífens "
                "(até 64 caracteres), como x-balcao-webhook-secret"
            )
        if header in _RESERVED_HEADERS:
            return Refused(f"o cabeçalho {header!r} já tem outro uso; escolha outro nome, como x-balcao-webhook-secret")
        await self._configs.get(org)  # UnknownOrganization: nothing stored
        async with repository.tenant(self._engine, org) as conn:
            existing = [i for i in await repository.channel_instances(conn, org) if i["instance_name"] == name]
            if not existing and not change.api_key:
                return Refused("informe a chave (token) da instância do Evolution")
            if not existing and not change.webhook_secret and not change.jwt_key:
                return Refused("informe a chave do webhook: sem ela, nenhuma mensagem desta instância é aceita")
        try:
            async with repository.all_tenants(self._engine) as conn:
                row = await repository.upsert_channel_instance(
                    conn,
                    org,
                    {
                        "name": name,
                        "base_url": base_url,
                        "api_key": change.api_key,
                        "secret": change.webhook_secret,
                        "sender_number": change.sender_number.strip(),
                        "secret_header": header,
                        "jwt_key": change.jwt_key,
                        "allow_groups": change.allow_groups,
                        "allow_broadcasts": change.allow_broadcasts,
                        "allow_newsletters": change.allow_newsletters,
                    },
                )
        except repository.InstanceNameTaken:
            return Refused(f"o nome de instância {name!r} já é usado por outra empresa neste Balcão")
        self._directory.forget(name)
        return row

    async def list_instances(self, organization_id: str) -> list[dict[str, Any]]:
        org = parse_uuid(organization_id, "organization_id")
        async with repository.tenant(self._engine, org) as conn:
            return await repository.channel_instances(conn, org)

    async def issue_key(self, organization_id: str, label: str) -> tuple[dict[str, Any], str]:
        org = parse_uuid(organization_id, "organization_id")
        label = label.strip()
        if len(label) > MAX_NAME_CHARS:
            raise InvalidRequest(f"label is longer than {MAX_NAME_CHARS} characters")
        await self._configs.get(org)  # UnknownOrganization: nothing stored
        secret = WEB_KEY_PREFIX + secrets.token_urlsafe(32)
        async with repository.tenant(self._engine, org) as conn:
            row = await repository.insert_web_key(
                conn, org, label=label, prefix=secret[:10], secret_sha256=key_digest(secret)
            )
        return row, secret

    async def list_keys(self, organization_id: str) -> list[dict[str, Any]]:
        org = parse_uuid(organization_id, "organization_id")
        async with repository.tenant(self._engine, org) as conn:
            return await repository.web_keys(conn, org)

    async def revoke_key(self, organization_id: str, key_id: str) -> dict[str, Any]:
        org = parse_uuid(organization_id, "organization_id")
        key = parse_uuid(key_id, "key_id")
        async with repository.tenant(self._engine, org) as conn:
            row = await repository.revoke_web_key(conn, org, key)
        if row is None:
            raise NotFound(f"web channel key {key} not found")
        return row
