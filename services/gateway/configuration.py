"""An organisation's configuration as the runtime uses it, read from crm and kept briefly.

Settings (catalog, menu, hashtags, phrases, debounce, plan) come from `CrmRead.GetOrganization`,
the units from the published agent configuration. Both are reused for `config_cache_seconds`
(2 s by default): SubmitInbound and every turn need them, and a settings change is seen by the
next turn after that short while.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from uuid import UUID

import grpc

from balcao.crm.v1 import crm_read_pb2 as cr
from balcao.crm.v1 import crm_resources_pb2 as r
from services.gateway import catalog, controller
from services.gateway.peers import PeerFailure, Peers, call

_ACTION_KINDS = {
    r.CONTROLLER_ACTION_KIND_ROUTE_TO_UNIT: controller.ROUTE,
    r.CONTROLLER_ACTION_KIND_FIXED_REPLY: controller.FIXED_REPLY,
    r.CONTROLLER_ACTION_KIND_HANDOFF: controller.HANDOFF,
    r.CONTROLLER_ACTION_KIND_SHOW_MENU: controller.SHOW_MENU,
    r.CONTROLLER_ACTION_KIND_OPT_OUT: controller.OPT_OUT,
    r.CONTROLLER_ACTION_KIND_CANCEL_PLAN: controller.CANCEL_PLAN,
}


class UnknownOrganization(LookupError):
    """crm does not know the organisation."""


@dataclass(frozen=True)
class OrgConfig:
    organization: r.Organization
    units: tuple[controller.UnitInfo, ...] = ()
    default_unit_id: str = ""
    agent_version_id: str = ""
    rules: controller.Rules = field(default_factory=controller.Rules)
    menu_text: str = ""

    @property
    def organization_id(self) -> str:
        return self.organization.organization_id

    @property
    def settings(self) -> r.OrganizationSettings:
        return self.organization.settings

    @property
    def catalog(self) -> dict[str, str]:
        return dict(self.settings.reply_catalog)

    @property
    def time_zone(self) -> str:
        return self.organization.time_zone or "America/Sao_Paulo"

    def plan_expired(self, now: datetime | None = None) -> bool:
        if not self.organization.plan.HasField("expires_at"):
            return False
        expires = self.organization.plan.expires_at.ToDatetime(tzinfo=UTC)
        return expires <= (now or datetime.now(UTC))

    def debounce_seconds(self, default_ms: int, default_cap_ms: int) -> tuple[float, float]:
        runtime = self.settings.runtime
        debounce = runtime.debounce_ms or default_ms
        cap = runtime.debounce_cap_ms or default_cap_ms
        return debounce / 1000.0, max(cap, 0) / 1000.0

    def reply(self, key: str) -> str:
        return catalog.reply(self.catalog, key, menu=self.menu_text)


def _action(action: r.ControllerAction) -> controller.Action | None:
    kind = _ACTION_KINDS.get(action.kind)
    if kind is None:
        return None
    return controller.Action(kind, action.unit_id, action.reply_key)


def build(organization: r.Organization, version: r.AgentVersion | None) -> OrgConfig:
    settings = organization.settings
    units: tuple[controller.UnitInfo, ...] = ()
    default_unit = ""
    version_id = ""
    if version is not None:
        units = tuple(controller.UnitInfo(u.unit_id, u.name, u.description) for u in version.configuration.units)
        default_unit = version.configuration.default_unit_id or (units[0].unit_id if units else "")
        version_id = version.version_id
    hashtags = {}
    for rule in settings.hashtags:
        action = _action(rule.action)
        if action is not None:
            hashtags[controller.fold(rule.tag)] = action
    menu = {}
    for option in settings.menu.options:
        action = _action(option.action)
        if action is not None:
            menu[controller.fold(option.number)] = action
    menu_text = (
        catalog.render_menu(settings.menu.header, [catalog.MenuEntry(o.number, o.label) for o in settings.menu.options])
        if settings.menu.options
        else ""
    )
    rules = controller.Rules(
        handoff_phrases=tuple(settings.controller.handoff_phrases),
        opt_out_phrases=tuple(settings.controller.opt_out_phrases),
        opt_in_phrases=tuple(settings.controller.opt_in_phrases),
        hashtags=hashtags,
        menu=menu,
        catalog_keys=frozenset(k for k, v in settings.reply_catalog.items() if v.strip()),
        units=units,
        default_unit_id=default_unit,
    )
    return OrgConfig(organization, units, default_unit, version_id, rules, menu_text)


class ConfigCache:
    def __init__(self, peers: Peers, ttl_seconds: float) -> None:
        self._peers = peers
        self._ttl = ttl_seconds
        self._entries: dict[UUID, tuple[float, OrgConfig]] = {}
        self._locks: dict[UUID, asyncio.Lock] = {}

    def forget(self, organization_id: UUID) -> None:
        self._entries.pop(organization_id, None)

    async def get(self, organization_id: UUID, *, draft: bool = False) -> OrgConfig:
        """The configuration production runs; with `draft`, the owner's draft units ("Testar"),
        or the published ones when there is no draft. A draft is read afresh every time."""
        if draft:
            return await self._load(organization_id, draft=True)
        entry = self._entries.get(organization_id)
        if entry and time.monotonic() - entry[0] < self._ttl:
            return entry[1]
        lock = self._locks.setdefault(organization_id, asyncio.Lock())
        async with lock:
            entry = self._entries.get(organization_id)
            if entry and time.monotonic() - entry[0] < self._ttl:
                return entry[1]
            config = await self._load(organization_id)
            self._entries[organization_id] = (time.monotonic(), config)
            return config

    async def _load(self, organization_id: UUID, *, draft: bool = False) -> OrgConfig:
        try:
            organization = await call(
                "crm",
                self._peers.crm_read.GetOrganization,
                cr.GetOrganizationRequest(organization_id=str(organization_id)),
                timeout=self._peers.timeout,
            )
        except PeerFailure as exc:
            if exc.code in (grpc.StatusCode.NOT_FOUND, grpc.StatusCode.INVALID_ARGUMENT):
                raise UnknownOrganization(str(organization_id)) from exc
            raise
        agent = cr.GetAgentConfigurationResponse()
        for which in (r.AGENT_VERSION_STATUS_DRAFT,) * draft + (r.AGENT_VERSION_STATUS_PUBLISHED,):
            agent = await call(
                "crm",
                self._peers.crm_read.GetAgentConfiguration,
                cr.GetAgentConfigurationRequest(organization_id=str(organization_id), which=which),
                timeout=self._peers.timeout,
            )
            if agent.found:
                break
        return build(organization.organization, agent.version if agent.found else None)
