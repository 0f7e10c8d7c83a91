"""The Central inbox and who owns a conversation, over crm's central items and human control.

crm raises and keeps the Central items (failed sends, dead jobs, hand-offs, an Operador that
could not act, …) and the contact's `human_in_control` switch, which the turn runtime reads before
every turn: a conversation handed to a person makes the agent silent for that contact (its turns
end SILENT), and giving it back lets the agent answer again.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable

from balcao.crm.v1 import crm_read_pb2 as cr
from balcao.crm.v1 import crm_resources_pb2 as r
from balcao.crm.v1 import crm_write_pb2 as cw
from balcao.gateway.v1 import gateway_pb2 as gw
from services.gateway.admin_common import ADMIN_ACTOR, copy_stamp, crm_organization, org_id, page_size
from services.gateway.inbound import parse_uuid
from services.gateway.intake import InvalidRequest
from services.gateway.peers import PeerFailure, Peers, call

KINDS = {
    r.CENTRAL_ITEM_KIND_JOB_DEAD: "job_dead",
    r.CENTRAL_ITEM_KIND_SEND_FAILED: "send_failed",
    r.CENTRAL_ITEM_KIND_TURN_FAILED: "turn_failed",
    r.CENTRAL_ITEM_KIND_OPERADOR_BLOCKED: "operador_could_not_act",
    r.CENTRAL_ITEM_KIND_OBLIGATION_FAILED: "obligation_failed",
    r.CENTRAL_ITEM_KIND_UNMAPPED_ERROR: "unknown_error_code",
    r.CENTRAL_ITEM_KIND_LGPD_BLOCK: "lgpd",
    r.CENTRAL_ITEM_KIND_SUSPICIOUS_CONTACT: "injection_attempt",
    r.CENTRAL_ITEM_KIND_CONFIGURATION: "configuration",
    r.CENTRAL_ITEM_KIND_INTEGRATION_ERROR: "integration_error",
    r.CENTRAL_ITEM_KIND_HANDOFF: "handoff",
    r.CENTRAL_ITEM_KIND_OTHER: "other",
}
# The gateway's and crm's severity and status enums share their numbers.
_SEVERITIES = (r.CENTRAL_ITEM_SEVERITY_INFO, r.CENTRAL_ITEM_SEVERITY_WARNING, r.CENTRAL_ITEM_SEVERITY_CRITICAL)
_OPEN = (r.CENTRAL_ITEM_STATUS_OPEN, r.CENTRAL_ITEM_STATUS_ACKNOWLEDGED)
_CLOSED = (r.CENTRAL_ITEM_STATUS_RESOLVED, r.CENTRAL_ITEM_STATUS_DISMISSED)
TO_PERSON_PT = (
    "Uma pessoa da equipe assumiu esta conversa: o assistente não responde mais este cliente até a conversa "
    "voltar para ele."
)
TO_AGENT_PT = "O assistente volta a responder este cliente."
MAX_NOTE_CHARS = 2000


async def contact_names(peers: Peers, org: str, contact_ids: Iterable[str]) -> dict[str, str]:
    """Each contact's name, for a list; a contact crm cannot read is shown without one."""
    wanted = sorted({c for c in contact_ids if c})

    async def one(contact: str) -> tuple[str, str]:
        try:
            response = await call(
                "crm",
                peers.crm_read.GetContact,
                cr.GetContactRequest(organization_id=org, contact_id=contact),
                timeout=peers.timeout,
            )
        except PeerFailure:
            return contact, ""
        return contact, response.contact.name

    return dict(await asyncio.gather(*(one(c) for c in wanted)))


def to_item(item: r.CentralItem, names: dict[str, str]) -> gw.CentralItem:
    out = gw.CentralItem(
        central_item_id=item.central_item_id,
        kind=KINDS.get(item.kind, "other"),
        severity=item.severity,  # type: ignore[arg-type]
        status=item.status,  # type: ignore[arg-type]
        title_pt=item.title_pt,
        body_pt=item.body_pt,
        contact_id=item.contact_id,
        contact_name=names.get(item.contact_id, ""),
        turn_id=item.turn_id,
        resolution_note=item.resolution,
    )
    copy_stamp(out, "created_at", item)
    copy_stamp(out, "resolved_at", item)
    return out


class Central:
    def __init__(self, peers: Peers) -> None:
        self._peers = peers

    async def list(self, request: gw.ListCentralItemsRequest) -> gw.ListCentralItemsResponse:
        org = org_id(request.organization_id)
        size = page_size(request.page_size)
        if request.status not in gw.CentralItemStatus.values():
            raise InvalidRequest("status is not a known Central item status")
        if request.min_severity not in gw.CentralItemSeverity.values():
            raise InvalidRequest("min_severity is not a known severity")
        if request.status == gw.CENTRAL_ITEM_STATUS_UNSPECIFIED:
            statuses: tuple[int, ...] = _OPEN
        else:
            statuses = (request.status,)
        severities = [s for s in _SEVERITIES if s >= request.min_severity]
        await crm_organization(self._peers, org)
        page = await call(
            "crm",
            self._peers.crm_read.ListCentralItems,
            cr.ListCentralItemsRequest(
                organization_id=org,
                statuses=statuses,  # type: ignore[arg-type]
                severities=severities,  # type: ignore[arg-type]
                page_size=size,
                page_token=request.page_token,
            ),
            timeout=self._peers.timeout,
        )
        names = await contact_names(self._peers, org, (i.contact_id for i in page.items))
        return gw.ListCentralItemsResponse(
            items=[to_item(i, names) for i in page.items], next_page_token=page.next_page_token
        )

    async def resolve(self, request: gw.ResolveCentralItemRequest) -> gw.CentralItem:
        org = org_id(request.organization_id)
        item_id = str(parse_uuid(request.central_item_id, "central_item_id"))
        if len(request.note) > MAX_NOTE_CHARS:
            raise InvalidRequest(f"note is longer than {MAX_NOTE_CHARS} characters")
        current = (
            await call(
                "crm",
                self._peers.crm_read.GetCentralItem,
                cr.GetCentralItemRequest(organization_id=org, central_item_id=item_id),
                timeout=self._peers.timeout,
            )
        ).item
        if current.status not in _CLOSED:
            current = (
                await call(
                    "crm",
                    self._peers.crm_write.ResolveCentralItem,
                    cw.ResolveCentralItemRequest(
                        organization_id=org,
                        central_item_id=item_id,
                        status=r.CENTRAL_ITEM_STATUS_RESOLVED,
                        resolution=request.note.strip(),
                        resolved_by=ADMIN_ACTOR,
                    ),
                    timeout=self._peers.timeout,
                )
            ).item
        names = await contact_names(self._peers, org, [current.contact_id])
        return to_item(current, names)

    async def set_owner(self, request: gw.SetConversationOwnerRequest) -> gw.SetConversationOwnerResponse:
        org = org_id(request.organization_id)
        contact = str(parse_uuid(request.contact_id, "contact_id"))
        if request.owner not in (gw.CONVERSATION_OWNER_AGENT, gw.CONVERSATION_OWNER_PERSON):
            raise InvalidRequest("owner must be CONVERSATION_OWNER_AGENT or CONVERSATION_OWNER_PERSON")
        if len(request.note) > MAX_NOTE_CHARS:
            raise InvalidRequest(f"note is longer than {MAX_NOTE_CHARS} characters")
        person = request.owner == gw.CONVERSATION_OWNER_PERSON
        reason = request.note.strip() or ("assumida pela equipe" if person else "devolvida ao assistente")
        await call(
            "crm",
            self._peers.crm_write.SetHumanControl,
            cw.SetHumanControlRequest(
                organization_id=org, contact_id=contact, human_in_control=person, reason=reason, actor=ADMIN_ACTOR
            ),
            timeout=self._peers.timeout,
        )
        return gw.SetConversationOwnerResponse(
            owner=request.owner, consequence_pt=TO_PERSON_PT if person else TO_AGENT_PT
        )
