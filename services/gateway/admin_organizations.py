"""Organisations on the admin surface: the owner's view of crm's organisation and its settings.

crm owns the organisation (`UpsertOrganization` for name, time zone and plan) and its settings
(`UpdateOrganizationSettings` with a field mask). The gateway's `Organization` message is the
owner's shape of the same data; this module maps one to the other, field by field:

    name, time_zone, plan_expires_at      → the profile (UpsertOrganization)
    business.opening_hours                → settings.business.opening_hours_text
    business.addresses                    → settings.business.address (one per line)
    business.public_contacts              → settings.business.public_phones/emails/websites/documents
    business.commercial_facts             → settings.commercial (prices, offers, free items, guarantees)
    business.facts                        → settings.business.description (one per line)
    conversation.*                        → reply_catalog, menu.options, hashtags, controller, runtime
    sending.*                             → settings.pacing, settings.seguranca.disclosure_mode
    stage_labels                          → the labels of settings.stages
    followup_callback_enabled             → settings.followup.callback_enabled
    internal_vocabulary_additions         → settings.internal_vocabulary_additions

An update changes only what its mask names: each gateway path turns into the crm settings paths
it maps to, so a section the owner did not touch is never rewritten. Input is checked here before
anything is stored, so a create never leaves an organisation half made.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from uuid import UUID
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from google.protobuf import field_mask_pb2

from balcao.crm.v1 import crm_read_pb2 as cr
from balcao.crm.v1 import crm_resources_pb2 as r
from balcao.crm.v1 import crm_write_pb2 as cw
from balcao.gateway.v1 import gateway_pb2 as gw
from services.gateway.admin_common import copy_stamp, crm_organization, mask_paths, org_id, page_size
from services.gateway.configuration import ConfigCache
from services.gateway.intake import InvalidRequest
from services.gateway.peers import Peers, call

# Gateway field path → the crm settings paths it maps to (profile fields map to none).
_SETTINGS_PATHS: dict[str, tuple[str, ...]] = {
    "name": (),
    "time_zone": (),
    "plan_expires_at": (),
    "business.opening_hours": ("business.opening_hours_text",),
    "business.addresses": ("business.address",),
    "business.public_contacts": (
        "business.public_phones",
        "business.public_emails",
        "business.websites",
        "business.public_documents",
    ),
    "business.commercial_facts": ("commercial",),
    "business.facts": ("business.description",),
    "conversation.reply_catalog": ("reply_catalog",),
    "conversation.menu": ("menu.options",),
    "conversation.hashtags": ("hashtags",),
    "conversation.handoff_phrases": ("controller.handoff_phrases",),
    "conversation.opt_out_phrases": ("controller.opt_out_phrases",),
    "conversation.debounce_seconds": ("runtime.debounce_ms",),
    "conversation.human_reply_pause_minutes": ("runtime.human_reply_pause_minutes",),
    "conversation.groups_enabled": ("runtime.accept_groups",),
    "sending.quiet_hours_start": ("pacing.quiet_hours_start",),
    "sending.quiet_hours_end": ("pacing.quiet_hours_end",),
    "sending.daily_cap_per_number": ("pacing.daily_cap_per_number",),
    "sending.min_seconds_between_messages": ("pacing.per_contact_min_interval_seconds",),
    "sending.disclosure": ("seguranca.disclosure_mode",),
    "stage_labels": ("stages",),
    "followup_callback_enabled": ("followup.callback_enabled",),
    "internal_vocabulary_additions": ("internal_vocabulary_additions",),
}
_PROFILE_PATHS = frozenset({"name", "time_zone", "plan_expires_at"})
# A whole section in the mask stands for every field of it.
_SECTIONS = ("business", "conversation", "sending")
UPDATABLE_PATHS = frozenset(_SETTINGS_PATHS) | frozenset(_SECTIONS)

_CONTACT_KINDS = {
    "phone": "public_phones",
    "email": "public_emails",
    "website": "websites",
    "document": "public_documents",
}
_COMMERCIAL_KINDS = ("price", "discount", "instalments", "free", "guarantee", "offer")
_HASHTAG_ACTIONS = {
    gw.HASHTAG_ACTION_ROUTE_TO_UNIT: r.CONTROLLER_ACTION_KIND_ROUTE_TO_UNIT,
    gw.HASHTAG_ACTION_FIXED_REPLY: r.CONTROLLER_ACTION_KIND_FIXED_REPLY,
    gw.HASHTAG_ACTION_HANDOFF: r.CONTROLLER_ACTION_KIND_HANDOFF,
    gw.HASHTAG_ACTION_MENU: r.CONTROLLER_ACTION_KIND_SHOW_MENU,
}
_HASHTAG_ACTIONS_BACK = {v: k for k, v in _HASHTAG_ACTIONS.items()}
_DISCLOSURE = {
    gw.DISCLOSURE_MODE_UNSPECIFIED: r.DISCLOSURE_MODE_UNSPECIFIED,
    gw.DISCLOSURE_MODE_INJECT: r.DISCLOSURE_MODE_INJECT,
    gw.DISCLOSURE_MODE_VETO: r.DISCLOSURE_MODE_VETO,
}
_DISCLOSURE_BACK = {v: k for k, v in _DISCLOSURE.items()}
_CLOCK_CHARS = 5
MAX_NAME_CHARS = 200


def expand(paths: Iterable[str]) -> list[str]:
    """Gateway mask paths with a whole section replaced by its fields."""
    out: list[str] = []
    for path in paths:
        if path in _SECTIONS:
            out += [p for p in _SETTINGS_PATHS if p.startswith(path + ".")]
        else:
            out.append(path)
    return list(dict.fromkeys(out))


# ---------------------------------------------------------------------------------------------
# crm → owner
# ---------------------------------------------------------------------------------------------


def to_gateway(org: r.Organization) -> gw.Organization:
    s = org.settings
    out = gw.Organization(
        organization_id=org.organization_id,
        name=org.name,
        time_zone=org.time_zone,
        followup_callback_enabled=s.followup.callback_enabled,
        internal_vocabulary_additions=list(s.internal_vocabulary_additions),
        stage_labels={stage.key: stage.label for stage in s.stages},
    )
    copy_stamp(out, "plan_expires_at", org.plan, "expires_at")
    copy_stamp(out, "created_at", org)
    b = out.business
    b.opening_hours = s.business.opening_hours_text
    b.addresses.extend(_lines(s.business.address))
    b.facts.extend(_lines(s.business.description))
    for kind, name in _CONTACT_KINDS.items():
        b.public_contacts.extend(gw.PublicContact(kind=kind, value=v) for v in getattr(s.business, name))
    b.commercial_facts.extend(_facts_to_gateway(s.commercial))
    c = out.conversation
    c.reply_catalog.update(dict(s.reply_catalog))
    for option in s.menu.options:
        c.menu.append(
            gw.MenuOption(
                number=int(option.number) if option.number.isdigit() else 0,
                label=option.label,
                unit_id=option.action.unit_id,
                reply_key=option.action.reply_key,
            )
        )
    for rule in s.hashtags:
        c.hashtags.append(
            gw.Hashtag(
                tag=rule.tag,
                action=_HASHTAG_ACTIONS_BACK.get(rule.action.kind, gw.HASHTAG_ACTION_UNSPECIFIED),  # type: ignore[arg-type]
                unit_id=rule.action.unit_id,
                reply_key=rule.action.reply_key,
            )
        )
    c.handoff_phrases.extend(s.controller.handoff_phrases)
    c.opt_out_phrases.extend(s.controller.opt_out_phrases)
    c.debounce_seconds = s.runtime.debounce_ms // 1000
    c.human_reply_pause_minutes = s.runtime.human_reply_pause_minutes
    c.groups_enabled = s.runtime.accept_groups
    p = out.sending
    p.quiet_hours_start = s.pacing.quiet_hours_start
    p.quiet_hours_end = s.pacing.quiet_hours_end
    p.daily_cap_per_number = s.pacing.daily_cap_per_number
    p.min_seconds_between_messages = s.pacing.per_contact_min_interval_seconds
    p.disclosure = _DISCLOSURE_BACK.get(s.seguranca.disclosure_mode, gw.DISCLOSURE_MODE_UNSPECIFIED)  # type: ignore[assignment]
    return out


def _lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()]


def _facts_to_gateway(commercial: r.CommercialFacts) -> list[gw.CommercialFact]:
    out = []
    for price in commercial.prices:
        instalments = price.max_instalments if price.max_instalments > 1 else 0
        out.append(
            gw.CommercialFact(
                kind="instalments" if instalments else "price",
                subject=price.item,
                text=price.conditions,
                amount_cents=price.price.amount_minor,
                instalments=instalments,
            )
        )
    for offer in commercial.offers:
        discount = offer.discount_percent or offer.discount_amount.amount_minor
        out.append(
            gw.CommercialFact(
                kind="discount" if discount else "offer",
                subject=offer.subject,
                text=offer.description,
                amount_cents=offer.discount_amount.amount_minor,
                percent=offer.discount_percent,
            )
        )
    out += [gw.CommercialFact(kind="free", subject=item, text=item) for item in commercial.free_items]
    out += [gw.CommercialFact(kind="guarantee", subject=item, text=item) for item in commercial.guarantees]
    return out


# ---------------------------------------------------------------------------------------------
# owner → crm
# ---------------------------------------------------------------------------------------------


def _check_profile(org: gw.Organization, paths: Iterable[str]) -> None:
    paths = set(paths)
    if "name" in paths:
        if not org.name.strip():
            raise InvalidRequest("organization.name must not be empty")
        if len(org.name) > MAX_NAME_CHARS:
            raise InvalidRequest(f"organization.name is longer than {MAX_NAME_CHARS} characters")
    if "time_zone" in paths and org.time_zone.strip():
        try:
            ZoneInfo(org.time_zone.strip())
        except (ZoneInfoNotFoundError, ValueError):
            raise InvalidRequest(
                f"organization.time_zone {org.time_zone!r} is not an IANA time zone (e.g. America/Sao_Paulo)"
            ) from None
    if "time_zone" in paths and not org.time_zone.strip():
        raise InvalidRequest("organization.time_zone must not be empty")


def _clock(value: str, field: str) -> str:
    value = value.strip()
    if value and (len(value) != _CLOCK_CHARS or value[2] != ":" or not (value[:2] + value[3:]).isdigit()):
        raise InvalidRequest(f"sending.{field} must be a time like '22:00', got {value!r}")
    if value and (int(value[:2]) > 23 or int(value[3:]) > 59):
        raise InvalidRequest(f"sending.{field} must be a time like '22:00', got {value!r}")
    return value


def apply_settings(
    org: gw.Organization, current: r.OrganizationSettings, paths: Iterable[str]
) -> tuple[r.OrganizationSettings, list[str]]:
    """crm settings holding the masked fields of `org`, and the crm mask naming them."""
    out = r.OrganizationSettings()
    crm_paths: list[str] = []
    s, b, c, p = out, org.business, org.conversation, org.sending
    for path in paths:
        crm_paths += _SETTINGS_PATHS[path]
        if path == "business.opening_hours":
            s.business.opening_hours_text = b.opening_hours.strip()
        elif path == "business.addresses":
            s.business.address = "\n".join(a.strip() for a in b.addresses if a.strip())
        elif path == "business.facts":
            s.business.description = "\n".join(f.strip() for f in b.facts if f.strip())
        elif path == "business.public_contacts":
            for contact in b.public_contacts:
                name = _CONTACT_KINDS.get(contact.kind.strip().lower())
                if name is None:
                    raise InvalidRequest(
                        f"business.public_contacts: kind {contact.kind!r} must be phone, email, website or document"
                    )
                if not contact.value.strip():
                    raise InvalidRequest("business.public_contacts: every contact needs a value")
                getattr(s.business, name).append(contact.value.strip())
        elif path == "business.commercial_facts":
            s.commercial.CopyFrom(_facts_to_crm(b.commercial_facts))
        elif path == "conversation.reply_catalog":
            s.reply_catalog.update({k.strip(): v for k, v in c.reply_catalog.items()})
            if any(not k for k in s.reply_catalog):
                raise InvalidRequest("conversation.reply_catalog: every reply needs a key")
        elif path == "conversation.menu":
            s.menu.header = current.menu.header
            s.menu.options.extend(_menu_to_crm(c.menu))
        elif path == "conversation.hashtags":
            s.hashtags.extend(_hashtags_to_crm(c.hashtags))
        elif path == "conversation.handoff_phrases":
            s.controller.handoff_phrases.extend(x.strip() for x in c.handoff_phrases if x.strip())
        elif path == "conversation.opt_out_phrases":
            s.controller.opt_out_phrases.extend(x.strip() for x in c.opt_out_phrases if x.strip())
        elif path == "conversation.debounce_seconds":
            if not 0 <= c.debounce_seconds <= 30:
                raise InvalidRequest("conversation.debounce_seconds must be between 0 and 30")
            s.runtime.debounce_ms = c.debounce_seconds * 1000
        elif path == "conversation.human_reply_pause_minutes":
            if c.human_reply_pause_minutes < 0:
                raise InvalidRequest("conversation.human_reply_pause_minutes must not be negative")
            s.runtime.human_reply_pause_minutes = c.human_reply_pause_minutes
        elif path == "conversation.groups_enabled":
            s.runtime.accept_groups = c.groups_enabled
        elif path == "sending.quiet_hours_start":
            s.pacing.quiet_hours_start = _clock(p.quiet_hours_start, "quiet_hours_start")
        elif path == "sending.quiet_hours_end":
            s.pacing.quiet_hours_end = _clock(p.quiet_hours_end, "quiet_hours_end")
        elif path == "sending.daily_cap_per_number":
            if p.daily_cap_per_number < 0:
                raise InvalidRequest("sending.daily_cap_per_number must not be negative")
            s.pacing.daily_cap_per_number = p.daily_cap_per_number
        elif path == "sending.min_seconds_between_messages":
            if p.min_seconds_between_messages < 0:
                raise InvalidRequest("sending.min_seconds_between_messages must not be negative")
            s.pacing.per_contact_min_interval_seconds = p.min_seconds_between_messages
        elif path == "sending.disclosure":
            if p.disclosure not in _DISCLOSURE:
                raise InvalidRequest("sending.disclosure is not a known disclosure mode")
            s.seguranca.disclosure_mode = _DISCLOSURE[p.disclosure]  # type: ignore[assignment]
        elif path == "stage_labels":
            keys = {stage.key for stage in current.stages}
            unknown = sorted(set(org.stage_labels) - keys)
            if unknown:
                known = ", ".join(sorted(keys))
                raise InvalidRequest(f"stage_labels: {unknown[0]!r} is not one of the stages ({known})")
            for stage in current.stages:
                copy = s.stages.add()
                copy.CopyFrom(stage)
                if stage.key in org.stage_labels:
                    copy.label = org.stage_labels[stage.key].strip()
        elif path == "followup_callback_enabled":
            s.followup.callback_enabled = org.followup_callback_enabled
        elif path == "internal_vocabulary_additions":
            s.internal_vocabulary_additions.extend(w.strip() for w in org.internal_vocabulary_additions if w.strip())
    start = out.pacing.quiet_hours_start if "sending.quiet_hours_start" in paths else current.pacing.quiet_hours_start
    end = out.pacing.quiet_hours_end if "sending.quiet_hours_end" in paths else current.pacing.quiet_hours_end
    if bool(start) != bool(end):
        raise InvalidRequest("sending.quiet_hours_start and sending.quiet_hours_end go together")
    return out, list(dict.fromkeys(crm_paths))


def _facts_to_crm(facts: Iterable[gw.CommercialFact]) -> r.CommercialFacts:
    out = r.CommercialFacts()
    for index, fact in enumerate(facts):
        kind = fact.kind.strip().lower()
        if kind not in _COMMERCIAL_KINDS:
            raise InvalidRequest(
                f"business.commercial_facts[{index}].kind {fact.kind!r} must be one of {', '.join(_COMMERCIAL_KINDS)}"
            )
        if not (fact.subject.strip() or fact.text.strip()):
            raise InvalidRequest(f"business.commercial_facts[{index}] needs a subject or a text")
        if fact.amount_cents < 0 or fact.percent < 0 or fact.instalments < 0:
            raise InvalidRequest(f"business.commercial_facts[{index}]: amounts must not be negative")
        if kind in ("price", "instalments"):
            out.prices.append(
                r.PriceEntry(
                    item=fact.subject.strip() or fact.text.strip(),
                    price=r.Money(amount_minor=fact.amount_cents),
                    conditions=fact.text.strip(),
                    max_instalments=fact.instalments,
                )
            )
        elif kind in ("discount", "offer"):
            offer = r.Offer(subject=fact.subject.strip(), description=fact.text.strip() or fact.subject.strip())
            offer.discount_percent = fact.percent
            if fact.amount_cents:
                offer.discount_amount.amount_minor = fact.amount_cents
            out.offers.append(offer)
        elif kind == "free":
            out.free_items.append(fact.text.strip() or fact.subject.strip())
        else:
            out.guarantees.append(fact.text.strip() or fact.subject.strip())
    return out


def _menu_to_crm(options: Iterable[gw.MenuOption]) -> list[r.MenuOption]:
    out: list[r.MenuOption] = []
    for index, option in enumerate(options):
        if option.number <= 0:
            raise InvalidRequest(f"conversation.menu[{index}].number must be positive")
        if any(o.number == str(option.number) for o in out):
            raise InvalidRequest(f"conversation.menu[{index}].number {option.number} is used by another option")
        if not option.label.strip():
            raise InvalidRequest(f"conversation.menu[{index}].label must not be empty")
        if bool(option.unit_id.strip()) == bool(option.reply_key.strip()):
            raise InvalidRequest(f"conversation.menu[{index}] needs exactly one of unit_id and reply_key")
        if option.unit_id.strip():
            action = r.ControllerAction(kind=r.CONTROLLER_ACTION_KIND_ROUTE_TO_UNIT, unit_id=option.unit_id.strip())
        else:
            action = r.ControllerAction(kind=r.CONTROLLER_ACTION_KIND_FIXED_REPLY, reply_key=option.reply_key.strip())
        out.append(r.MenuOption(number=str(option.number), label=option.label.strip(), action=action))
    return out


def _hashtags_to_crm(tags: Iterable[gw.Hashtag]) -> list[r.HashtagRule]:
    out = []
    for index, tag in enumerate(tags):
        kind = _HASHTAG_ACTIONS.get(tag.action)
        if not tag.tag.strip().startswith("#") or len(tag.tag.strip()) < 2:
            raise InvalidRequest(f"conversation.hashtags[{index}].tag {tag.tag!r} must start with '#'")
        if kind is None:
            raise InvalidRequest(f"conversation.hashtags[{index}].action is required")
        if kind == r.CONTROLLER_ACTION_KIND_ROUTE_TO_UNIT and not tag.unit_id.strip():
            raise InvalidRequest(f"conversation.hashtags[{index}] routes to a unit: unit_id is required")
        if kind == r.CONTROLLER_ACTION_KIND_FIXED_REPLY and not tag.reply_key.strip():
            raise InvalidRequest(f"conversation.hashtags[{index}] sends a reply: reply_key is required")
        out.append(
            r.HashtagRule(
                tag=tag.tag.strip(),
                action=r.ControllerAction(kind=kind, unit_id=tag.unit_id.strip(), reply_key=tag.reply_key.strip()),
            )
        )
    return out


def unit_references(settings: r.OrganizationSettings) -> set[str]:
    refs = {o.action.unit_id for o in settings.menu.options if o.action.unit_id}
    return refs | {h.action.unit_id for h in settings.hashtags if h.action.unit_id}


# ---------------------------------------------------------------------------------------------
# The façade
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Updated:
    organization: gw.Organization
    refusal_pt: str = ""


class Organizations:
    def __init__(self, peers: Peers, configs: ConfigCache) -> None:
        self._peers = peers
        self._configs = configs

    async def list(self, request: gw.ListOrganizationsRequest) -> gw.ListOrganizationsResponse:
        response = await call(
            "crm",
            self._peers.crm_read.ListOrganizations,
            cr.ListOrganizationsRequest(page_size=page_size(request.page_size), page_token=request.page_token),
            timeout=self._peers.timeout,
        )
        return gw.ListOrganizationsResponse(
            organizations=[to_gateway(o) for o in response.organizations], next_page_token=response.next_page_token
        )

    async def get(self, organization_id: str) -> gw.Organization:
        return to_gateway(await crm_organization(self._peers, org_id(organization_id)))

    async def create(
        self, given: gw.Organization, given_mask: field_mask_pb2.FieldMask | None = None
    ) -> gw.Organization:
        _check_profile(given, ("name", "time_zone") if given.time_zone.strip() else ("name",))
        # Every settings field the owner gave, checked before anything is stored: those the mask
        # names (a false or a 0 included), or without a mask those with a value.
        if given_mask is not None and given_mask.paths:
            named = expand(mask_paths(given_mask, UPDATABLE_PATHS, "Organization", field="given_mask"))
            present = [path for path in named if path not in _PROFILE_PATHS]
        else:
            present = [path for path in _SETTINGS_PATHS if path not in _PROFILE_PATHS and _is_set(given, path)]
        if "stage_labels" in present:
            # The stages are crm's defaults until the organisation exists; a label for a stage that
            # is not one of them would only fail after the organisation was stored.
            raise InvalidRequest("stage_labels are set with UpdateOrganization once the organisation exists")
        if unit_references(apply_settings(given, r.OrganizationSettings(), present)[0]):
            raise InvalidRequest("a new organisation has no units yet: add the menu and hashtags after its units")
        created = await call(
            "crm",
            self._peers.crm_write.UpsertOrganization,
            cw.UpsertOrganizationRequest(
                name=given.name.strip(), time_zone=given.time_zone.strip(), plan=self._plan(given, "")
            ),
            timeout=self._peers.timeout,
        )
        organization = created.organization
        if present:
            settings, crm_paths = apply_settings(given, organization.settings, present)
            updated = await self._update_settings(organization.organization_id, settings, crm_paths)
            organization = updated.organization
        return to_gateway(organization)

    async def update(self, request: gw.UpdateOrganizationRequest) -> Updated:
        org = org_id(request.organization_id)
        paths = expand(mask_paths(request.update_mask, UPDATABLE_PATHS, "Organization"))
        given = request.organization
        _check_profile(given, paths)
        current = await crm_organization(self._peers, org)
        settings_paths = [p for p in paths if p not in _PROFILE_PATHS]
        settings, crm_paths = apply_settings(given, current.settings, settings_paths)
        missing = unit_references(settings) - await self._unit_ids(org)
        if missing:
            return Updated(
                to_gateway(current),
                "Não foi possível salvar: o menu ou um atalho aponta para uma unidade que não existe "
                f"({', '.join(sorted(missing))}). Crie a unidade antes ou escolha outra.",
            )
        organization = current
        if crm_paths:
            changed = await self._update_settings(org, settings, crm_paths, current.settings_version)
            organization = changed.organization
        if set(paths) & _PROFILE_PATHS:
            profile = cw.UpsertOrganizationRequest(
                organization_id=org,
                name=given.name.strip() if "name" in paths else "",
                time_zone=given.time_zone.strip() if "time_zone" in paths else "",
            )
            if "plan_expires_at" in paths:
                profile.plan.CopyFrom(self._plan(given, current.plan.name))
            organization = (
                await call("crm", self._peers.crm_write.UpsertOrganization, profile, timeout=self._peers.timeout)
            ).organization
        self._configs.forget(UUID(org))
        return Updated(to_gateway(organization))

    @staticmethod
    def _plan(given: gw.Organization, name: str) -> r.Plan:
        plan = r.Plan(name=name)
        if given.HasField("plan_expires_at"):
            plan.expires_at.CopyFrom(given.plan_expires_at)
        return plan

    async def _update_settings(
        self, org: str, settings: r.OrganizationSettings, paths: list[str], expected: int = 0
    ) -> cw.UpdateOrganizationSettingsResponse:
        return await call(
            "crm",
            self._peers.crm_write.UpdateOrganizationSettings,
            cw.UpdateOrganizationSettingsRequest(
                organization_id=org,
                settings=settings,
                update_mask=field_mask_pb2.FieldMask(paths=paths),
                expected_settings_version=expected,
            ),
            timeout=self._peers.timeout,
        )

    async def _unit_ids(self, org: str) -> set[str]:
        """Units of the published configuration and of the draft: a menu may point to either."""
        ids: set[str] = set()
        for which in (r.AGENT_VERSION_STATUS_PUBLISHED, r.AGENT_VERSION_STATUS_DRAFT):
            response = await call(
                "crm",
                self._peers.crm_read.GetAgentConfiguration,
                cr.GetAgentConfigurationRequest(organization_id=org, which=which),
                timeout=self._peers.timeout,
            )
            if response.found:
                ids |= {u.unit_id for u in response.version.configuration.units}
        return ids


def _is_set(org: gw.Organization, path: str) -> bool:
    section, _, name = path.partition(".")
    if not name:
        value = getattr(org, section)
        return bool(len(value)) if not isinstance(value, bool) else value
    value = getattr(getattr(org, section), name)
    if isinstance(value, bool | int | str):
        return bool(value)
    return bool(len(value))
