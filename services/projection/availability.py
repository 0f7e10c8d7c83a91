"""`check_availability`: free slots as local labels with short opaque handles.

The Conversador asks in business words (a service and a professional by name, local days, a
part of the day); projection matches the names against agenda's services and resources,
asks agenda, and answers with slots that carry no id: the label agenda rendered in the
slot's zone, the same instant as ISO-8601, the duration as a person says it, the
professional, the place, and a handle valid only for this contact until
`handles_valid_until`. A refusal (outside business hours, a range too long, an unknown
service) is a consequence; its alternative slots, when agenda offers some, are slots too.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import date, datetime

import grpc
from google.protobuf.timestamp_pb2 import Timestamp

from balcao.agenda.v1 import agenda_read_pb2, agenda_resources_pb2
from balcao.crm.v1 import crm_read_pb2
from balcao.projection.v1 import projection_pb2 as out
from services.projection import consequences
from services.projection.allowlist import allowed
from services.projection.appointments import place_text
from services.projection.findings import Findings
from services.projection.handles import SlotRef, issue, valid_until_for
from services.projection.identifiers import scrub
from services.projection.knowledge import fold
from services.projection.labels import duration_label, instant

DEFAULT_SLOTS = 6
MAX_SLOTS = 12

NO_SLOTS = "não há horários livres nesse período"
MORE_SLOTS = "há mais horários livres nesse período além destes; é possível consultar um período menor"
ALTERNATIVES = "os horários listados são alternativas próximas que estão livres"

PART_OF_DAY: Mapping[int, tuple[str, str]] = {
    out.PART_OF_DAY_MORNING: ("00:00", "12:00"),
    out.PART_OF_DAY_AFTERNOON: ("12:00", "18:00"),
    out.PART_OF_DAY_EVENING: ("18:00", "23:59"),
}


class BadRange(ValueError):
    """The dates of the request are malformed or out of order."""


def slots_wanted(max_slots: int) -> int:
    return min(max_slots if max_slots > 0 else DEFAULT_SLOTS, MAX_SLOTS)


def parse_range(from_date: str, to_date: str) -> tuple[date, date]:
    try:
        first = date.fromisoformat(from_date)
        last = date.fromisoformat(to_date) if to_date else first
    except ValueError:
        raise BadRange("from_date and to_date must be YYYY-MM-DD") from None
    if last < first:
        raise BadRange("to_date must not be before from_date")
    return first, last


def match_service(
    services: agenda_read_pb2.ListServicesResponse, name: str
) -> agenda_resources_pb2.BookableService | None:
    """The active service the business names `name` (exact, else the only partial match)."""
    wanted = fold(name)
    active = [s for s in allowed(services).services if s.active and s.name.strip()]
    exact = [s for s in active if fold(s.name) == wanted]
    if exact:
        return exact[0]
    partial = [s for s in active if wanted and (wanted in fold(s.name) or fold(s.name) in wanted)]
    return partial[0] if len(partial) == 1 else None


def unit_resources(agent: crm_read_pb2.GetAgentConfigurationResponse, unit_id: str) -> list[str]:
    """The resources the unit offers (empty: every active resource), in the version read."""
    agent = allowed(agent)
    return [r for u in agent.version.configuration.units if u.unit_id == unit_id for r in u.resource_ids]


def match_resources(
    resources: agenda_read_pb2.ListResourcesResponse,
    professional: str,
    unit_resource_ids: Iterable[str],
    service_id: str,
) -> list[agenda_resources_pb2.Resource]:
    """The active resources to search: the unit's, performing the service, named like asked."""
    offered = set(unit_resource_ids)
    candidates = [
        r
        for r in allowed(resources).resources
        if r.active
        and (not offered or r.resource_id in offered)
        and (not service_id or not r.service_ids or service_id in r.service_ids)
    ]
    if not professional.strip():
        return candidates
    wanted = fold(professional)
    exact = [r for r in candidates if fold(r.name) == wanted]
    if exact:
        return exact
    return [r for r in candidates if wanted in fold(r.name)]


def availability_request(
    *,
    organization_id: str,
    resource_ids: Iterable[str],
    service_id: str,
    first: date,
    last: date,
    zone: str,
    part_of_day: int,
    max_slots: int,
    now: datetime,
) -> agenda_read_pb2.CheckAvailabilityRequest:
    request = agenda_read_pb2.CheckAvailabilityRequest(
        organization_id=organization_id,
        resource_ids=list(resource_ids),
        service_id=service_id,
        local_dates=agenda_resources_pb2.LocalDateRange(
            first_date=first.isoformat(), last_date=last.isoformat(), time_zone=zone
        ),
        max_slots=slots_wanted(max_slots),
    )
    request.as_of.FromDatetime(now)
    window = PART_OF_DAY.get(part_of_day)
    if window is not None:
        request.time_of_day.opens, request.time_of_day.closes = window
    return request


def project_availability(
    raw: agenda_read_pb2.CheckAvailabilityResponse,
    *,
    places: Mapping[str, agenda_resources_pb2.Place],
    handle_key: bytes,
    organization_id: str,
    contact_id: str,
    now: datetime,
    max_slots: int,
    findings: Findings,
) -> out.CheckAvailabilityResponse:
    """Project agenda's answer; `places` gives each resource's place (the service's when set)."""
    raw = allowed(raw)
    response = out.CheckAvailabilityResponse()
    slots = list(raw.slots)
    if raw.HasField("refusal"):
        code = consequences.agenda_code(raw.refusal.code)
        response.consequence.text = consequences.consequence(code, findings)
        slots = list(raw.refusal.alternatives)
    valid_until = valid_until_for(now)
    slots.sort(key=lambda s: (s.start_time.seconds, s.start_time.nanos))
    wanted = slots_wanted(max_slots)
    used: set[str] = set()
    for slot in slots:
        view = _slot(slot, places, handle_key, organization_id, contact_id, valid_until)
        if view is None or view.handle in used:
            continue
        used.add(view.handle)
        response.slots.append(view)
        if len(response.slots) == wanted:
            break
    scrub(response, findings)
    kept = [s for s in response.slots if s.local_label and s.handle]
    del response.slots[:]
    response.slots.extend(kept)
    if response.slots:
        response.handles_valid_until.CopyFrom(_timestamp(valid_until))
    more = raw.truncated or len(slots) > len(response.slots)
    if response.HasField("consequence"):
        response.notice = ALTERNATIVES if response.slots else ""
    elif not response.slots:
        response.notice = NO_SLOTS
    elif more:
        response.notice = MORE_SLOTS
    return response


def _slot(
    slot: agenda_resources_pb2.Slot,
    places: Mapping[str, agenda_resources_pb2.Place],
    key: bytes,
    organization_id: str,
    contact_id: str,
    valid_until: datetime,
) -> out.Slot | None:
    start, end = instant(slot.start_time), instant(slot.end_time)
    if start is None:
        return None
    ref = SlotRef(resource_id=slot.resource_id, service_id=slot.service_id, start=start)
    try:
        handle = issue(key, organization_id=organization_id, contact_id=contact_id, slot=ref, valid_until=valid_until)
    except ValueError:
        return None
    minutes = int((end - start).total_seconds() // 60) if end is not None else 0
    place = places.get(slot.resource_id)
    return out.Slot(
        local_label=slot.labels.start_label,
        starts_at_iso=slot.labels.start_iso,
        duration_label=duration_label(minutes),
        professional=slot.resource_name,
        place=place_text(place) if place is not None else "",
        handle=handle,
    )


def places_of(
    resources: Iterable[agenda_resources_pb2.Resource], service: agenda_resources_pb2.BookableService | None
) -> dict[str, agenda_resources_pb2.Place]:
    """Each resource's place, the service's own place overriding it when the service sets one."""
    override = service.place if service is not None and service.HasField("place") else None
    return {r.resource_id: override if override is not None else r.place for r in resources}


def refused(code: str, findings: Findings) -> out.CheckAvailabilityResponse:
    """The answer when projection itself can tell the request cannot be met (unknown names)."""
    return out.CheckAvailabilityResponse(consequence=out.Consequence(text=consequences.consequence(code, findings)))


def failed(status: grpc.StatusCode, findings: Findings) -> out.CheckAvailabilityResponse:
    return refused(consequences.status_code(status), findings)


def _timestamp(moment: datetime) -> Timestamp:
    ts = Timestamp()
    ts.FromDatetime(moment)
    return ts
