"""Units, their capabilities and publishing: the owner edits a draft, production runs the published.

crm keeps the versioned agent configuration: at most one draft and one published version per
organisation (SaveAgentDraft replaces the draft, PublishAgentVersion makes it production's). An
edit here starts the draft from the published configuration when there is none, and saves it
against the draft it read (crm answers ABORTED when someone saved meanwhile). Production reads
only the published version, so nothing edited here is seen by customers until
PublishConfiguration; "Testar" runs the draft.

Capabilities: the Operador owns the catalog (ListCapabilities answers every capability with its
package and risk); the selection is the unit's `operador` block in the draft. The cap of 25 and
the "critical only one by one" rule are checked here against that catalog, and a refusal is data.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from uuid import UUID

from balcao.crm.v1 import crm_read_pb2 as cr
from balcao.crm.v1 import crm_resources_pb2 as r
from balcao.crm.v1 import crm_write_pb2 as cw
from balcao.gateway.v1 import gateway_pb2 as gw
from balcao.operador.v1 import operador_pb2 as op
from services.gateway.admin_common import ADMIN_ACTOR, crm_organization, mask_paths, org_id
from services.gateway.configuration import ConfigCache
from services.gateway.inbound import parse_uuid
from services.gateway.intake import InvalidRequest, NotFound
from services.gateway.peers import Peers, call

UNIT_PATHS = frozenset({"name", "subjects", "voice", "instructions", "default_unit"})
MAX_UNIT_NAME = 120
PACKAGES = {
    "agenda": op.CAPABILITY_PACKAGE_AGENDA,
    "vender": op.CAPABILITY_PACKAGE_VENDER,
    "reter": op.CAPABILITY_PACKAGE_RETER,
    "escalar": op.CAPABILITY_PACKAGE_ESCALAR,
    "organizar": op.CAPABILITY_PACKAGE_ORGANIZAR,
}
_PACKAGE_KEYS = {v: k for k, v in PACKAGES.items()}
_RISK = {
    op.RISK_LEVEL_SAFE: gw.CAPABILITY_RISK_SAFE,
    op.RISK_LEVEL_ATTENTION: gw.CAPABILITY_RISK_ATTENTION,
    op.RISK_LEVEL_CRITICAL: gw.CAPABILITY_RISK_CRITICAL,
}


@dataclass(frozen=True)
class Edited:
    configuration: r.AgentConfiguration
    base_version_id: str  # the draft read, or "" when the draft starts from the published one


def to_unit(unit: r.UnitConfig, default_unit_id: str, version: int) -> gw.Unit:
    return gw.Unit(
        unit_id=unit.unit_id,
        name=unit.name,
        subjects=unit.description,
        voice=unit.conversador.voice,
        instructions=unit.conversador.instructions,
        default_unit=unit.unit_id == default_unit_id,
        version=version,  # type: ignore[arg-type]
    )


class Units:
    def __init__(self, peers: Peers, configs: ConfigCache) -> None:
        self._peers = peers
        self._configs = configs

    # -- reading ------------------------------------------------------------------------------

    async def _version(self, org: str, which: int) -> r.AgentVersion | None:
        response = await call(
            "crm",
            self._peers.crm_read.GetAgentConfiguration,
            cr.GetAgentConfigurationRequest(organization_id=org, which=which),  # type: ignore[arg-type]
            timeout=self._peers.timeout,
        )
        return response.version if response.found else None

    async def _editing(self, org: str) -> Edited:
        """The draft, or a new draft copied from the published configuration."""
        await crm_organization(self._peers, org)  # NOT_FOUND for an unknown organisation
        draft = await self._version(org, r.AGENT_VERSION_STATUS_DRAFT)
        if draft is not None:
            return Edited(draft.configuration, draft.version_id)
        published = await self._version(org, r.AGENT_VERSION_STATUS_PUBLISHED)
        return Edited(published.configuration if published is not None else r.AgentConfiguration(), "")

    async def list(self, request: gw.ListUnitsRequest) -> list[gw.Unit]:
        org = org_id(request.organization_id)
        await crm_organization(self._peers, org)
        if request.version == gw.CONFIG_VERSION_DRAFT:
            configuration = (await self._editing(org)).configuration
            version = gw.CONFIG_VERSION_DRAFT
        else:
            published = await self._version(org, r.AGENT_VERSION_STATUS_PUBLISHED)
            configuration = published.configuration if published is not None else r.AgentConfiguration()
            version = gw.CONFIG_VERSION_PUBLISHED
        return [to_unit(u, configuration.default_unit_id, version) for u in configuration.units]

    # -- editing the draft --------------------------------------------------------------------

    async def _save(self, org: str, edited: Edited, note: str) -> r.AgentConfiguration:
        saved = await call(
            "crm",
            self._peers.crm_write.SaveAgentDraft,
            cw.SaveAgentDraftRequest(
                organization_id=org,
                configuration=edited.configuration,
                note=note,
                base_version_id=edited.base_version_id,
                saved_by=ADMIN_ACTOR,
            ),
            timeout=self._peers.timeout,
        )
        return saved.version.configuration

    async def create(self, request: gw.CreateUnitRequest) -> gw.Unit:
        org = org_id(request.organization_id)
        given = request.unit
        _check_unit(given, UNIT_PATHS)
        edited = await self._editing(org)
        configuration = r.AgentConfiguration()
        configuration.CopyFrom(edited.configuration)
        unit = configuration.units.add(
            name=given.name.strip(),
            description=given.subjects.strip(),
            conversador=r.ConversadorConfig(voice=given.voice.strip(), instructions=given.instructions.strip()),
        )
        # crm assigns the id; a new id is given here so the created unit can be found in the answer.
        unit.unit_id = _new_id(configuration)
        if given.default_unit or not configuration.default_unit_id:
            configuration.default_unit_id = unit.unit_id
        saved = await self._save(org, Edited(configuration, edited.base_version_id), f"unidade criada: {unit.name}")
        stored = next(u for u in saved.units if u.unit_id == unit.unit_id)
        return to_unit(stored, saved.default_unit_id, gw.CONFIG_VERSION_DRAFT)

    async def update(self, request: gw.UpdateUnitRequest) -> gw.Unit:
        org = org_id(request.organization_id)
        unit_id = str(parse_uuid(request.unit_id, "unit_id"))
        paths = mask_paths(request.update_mask, UNIT_PATHS, "Unit")
        given = request.unit
        _check_unit(given, paths)
        edited = await self._editing(org)
        configuration = r.AgentConfiguration()
        configuration.CopyFrom(edited.configuration)
        unit = _find(configuration, unit_id)
        for path in paths:
            if path == "name":
                unit.name = given.name.strip()
            elif path == "subjects":
                unit.description = given.subjects.strip()
            elif path == "voice":
                unit.conversador.voice = given.voice.strip()
            elif path == "instructions":
                unit.conversador.instructions = given.instructions.strip()
            elif path == "default_unit":
                if given.default_unit:
                    configuration.default_unit_id = unit_id
                elif configuration.default_unit_id == unit_id:
                    raise InvalidRequest("default_unit: choose another unit as the default instead of unsetting it")
        saved = await self._save(org, Edited(configuration, edited.base_version_id), f"unidade alterada: {unit.name}")
        return to_unit(_find(saved, unit_id), saved.default_unit_id, gw.CONFIG_VERSION_DRAFT)

    async def publish(self, organization_id: str) -> gw.PublishConfigurationResponse:
        org = org_id(organization_id)
        await crm_organization(self._peers, org)
        draft = await self._version(org, r.AGENT_VERSION_STATUS_DRAFT)
        if draft is None:
            published = await self._version(org, r.AGENT_VERSION_STATUS_PUBLISHED)
            if published is None:
                raise InvalidRequest("there is no draft to publish: create a unit first")
            return _published(published)  # nothing new: the live version stays
        response = await call(
            "crm",
            self._peers.crm_write.PublishAgentVersion,
            cr_publish(org, draft.version_id),
            timeout=self._peers.timeout,
        )
        self._configs.forget(UUID(org))
        return _published(response.version)

    # -- capabilities -------------------------------------------------------------------------

    async def _catalog(self, org: str) -> op.ListCapabilitiesResponse:
        assert self._peers.operador is not None, "the gateway has no channel to the Operador"
        return await call(
            "operador",
            self._peers.operador.ListCapabilities,
            op.ListCapabilitiesRequest(organization_id=org),
            timeout=self._peers.timeout,
        )

    async def capabilities(self, organization_id: str, unit_id: str) -> gw.UnitCapabilities:
        org = org_id(organization_id)
        unit = str(parse_uuid(unit_id, "unit_id"))
        edited = await self._editing(org)
        catalog = await self._catalog(org)
        return _screen(catalog, _find(edited.configuration, unit).operador)

    async def set_capabilities(self, request: gw.SetUnitCapabilitiesRequest) -> tuple[gw.UnitCapabilities, str]:
        org = org_id(request.organization_id)
        unit_id = str(parse_uuid(request.unit_id, "unit_id"))
        packages = [p.strip().lower() for p in request.packages if p.strip()]
        critical = [c.strip() for c in request.critical_capabilities if c.strip()]
        edited = await self._editing(org)
        configuration = r.AgentConfiguration()
        configuration.CopyFrom(edited.configuration)
        unit = _find(configuration, unit_id)
        catalog = await self._catalog(org)
        by_name = {c.name: c for c in catalog.capabilities}
        refusal = ""
        unknown_packages = [p for p in packages if p not in PACKAGES]
        unknown = [c for c in critical if c not in by_name]
        not_critical = [c for c in critical if c in by_name and by_name[c].risk != op.RISK_LEVEL_CRITICAL]
        if unknown_packages:
            refusal = f"Pacote desconhecido: {', '.join(unknown_packages)}. Os pacotes são: {', '.join(PACKAGES)}."
        elif unknown:
            refusal = f"Capacidade desconhecida: {', '.join(unknown)}."
        elif not_critical:
            refusal = f"{', '.join(not_critical)} não é uma capacidade crítica: ela é ligada escolhendo o pacote dela."
        proposed = r.OperadorConfig()
        proposed.CopyFrom(unit.operador)
        del proposed.capability_packages[:]
        proposed.capability_packages.extend(dict.fromkeys(packages))
        del proposed.extra_capabilities[:]
        proposed.extra_capabilities.extend(dict.fromkeys(critical))
        if not refusal:
            screen = _screen(catalog, proposed)
            if screen.enabled_count > screen.max_enabled:
                refusal = (
                    f"Essa seleção ligaria {screen.enabled_count} capacidades; o limite é {screen.max_enabled} por "
                    "assistente. Tire um pacote ou desligue algumas capacidades."
                )
        if refusal:
            return _screen(catalog, unit.operador), refusal
        unit.operador.CopyFrom(proposed)
        saved = await self._save(org, Edited(configuration, edited.base_version_id), f"capacidades: {unit.name}")
        return _screen(catalog, _find(saved, unit_id).operador), ""


def cr_publish(org: str, version_id: str) -> cw.PublishAgentVersionRequest:
    return cw.PublishAgentVersionRequest(
        organization_id=org, version_id=version_id, published_by=ADMIN_ACTOR, idempotency_key=f"publish:{version_id}"
    )


def _published(version: r.AgentVersion) -> gw.PublishConfigurationResponse:
    response = gw.PublishConfigurationResponse(published_version=version.number)
    if version.HasField("published_at"):
        response.published_at.CopyFrom(version.published_at)
    return response


def _check_unit(unit: gw.Unit, paths: Iterable[str]) -> None:
    paths = set(paths)
    if "name" in paths:
        if not unit.name.strip():
            raise InvalidRequest("unit.name must not be empty")
        if len(unit.name.strip()) > MAX_UNIT_NAME:
            raise InvalidRequest(f"unit.name is longer than {MAX_UNIT_NAME} characters")


def _find(configuration: r.AgentConfiguration, unit_id: str) -> r.UnitConfig:
    for unit in configuration.units:
        if unit.unit_id == unit_id:
            return unit
    raise NotFound(f"unit {unit_id} not found")


def _new_id(configuration: r.AgentConfiguration) -> str:
    taken = {u.unit_id for u in configuration.units}
    while True:
        candidate = str(uuid.uuid4())
        if candidate not in taken:
            return candidate


def _screen(catalog: op.ListCapabilitiesResponse, config: r.OperadorConfig) -> gw.UnitCapabilities:
    """The capability screen for a selection, counted as the Operador counts it."""
    packages = {PACKAGES[p] for p in config.capability_packages if p in PACKAGES}
    disabled = set(config.disabled_capabilities)
    enabled = {
        c.name
        for c in catalog.capabilities
        if c.package in packages and c.risk != op.RISK_LEVEL_CRITICAL and c.name not in disabled
    }
    enabled |= {n for n in config.extra_capabilities if n not in disabled}
    screen = gw.UnitCapabilities(
        selected_packages=[_PACKAGE_KEYS[p] for p in sorted(packages)],
        max_enabled=catalog.max_enabled_per_agent,
        enabled_count=len(enabled),
    )
    for c in catalog.capabilities:
        screen.capabilities.append(
            gw.UnitCapability(
                name=c.name,
                label_pt=c.label_pt,
                explanation_pt=c.explanation_pt,
                risk=_RISK.get(c.risk, gw.CAPABILITY_RISK_UNSPECIFIED),  # type: ignore[arg-type]
                package=_PACKAGE_KEYS.get(c.package, ""),
                enabled=c.name in enabled and not c.hidden_reason_pt,
                hidden_reason_pt=c.hidden_reason_pt,
            )
        )
    return screen
