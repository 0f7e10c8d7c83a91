"""What every admin façade shares: the caller recorded as the actor, ids checked, pages sized.

The admin RPCs are thin façades over the data owners (crm, Segurança, the Operador). Errors are
raised as the runtime raises them (`InvalidRequest`, `NotFound`, `PeerFailure`) and mapped to
gRPC status in one place, `Gateway._run`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from google.protobuf import field_mask_pb2

from balcao.crm.v1 import crm_read_pb2 as cr
from balcao.crm.v1 import crm_resources_pb2 as r
from services.gateway.inbound import parse_uuid
from services.gateway.intake import InvalidRequest
from services.gateway.peers import Peers, call

DEFAULT_PAGE_SIZE = 50
MAX_PAGE_SIZE = 200
ADMIN_ACTOR = r.Actor(kind=r.ACTOR_KIND_PERSON, name="admin")


def org_id(value: str) -> str:
    return str(parse_uuid(value, "organization_id"))


def optional_id(value: str, field: str) -> str:
    return str(parse_uuid(value, field)) if value.strip() else ""


def page_size(value: int) -> int:
    if value < 0:
        raise InvalidRequest("page_size must not be negative")
    return min(value or DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE)


def mask_paths(
    mask: field_mask_pb2.FieldMask, allowed: Iterable[str], what: str, field: str = "update_mask"
) -> list[str]:
    """The mask's paths, each one allowed; an empty mask or an unknown path is INVALID_ARGUMENT."""
    known = set(allowed)
    paths = [p.strip() for p in mask.paths]
    if not paths:
        raise InvalidRequest(f"{field} must name the fields to change ({', '.join(sorted(known))})")
    unknown = [p for p in paths if p not in known]
    if unknown:
        raise InvalidRequest(
            f"{field} path {unknown[0]!r} is not a field of {what} that can be changed "
            f"(known: {', '.join(sorted(known))})"
        )
    return paths


async def crm_organization(peers: Peers, organization_id: str) -> r.Organization:
    """The organisation as crm stores it; crm's NOT_FOUND for an unknown one."""
    response = await call(
        "crm",
        peers.crm_read.GetOrganization,
        cr.GetOrganizationRequest(organization_id=organization_id),
        timeout=peers.timeout,
    )
    return response.organization


def copy_stamp(target: Any, name: str, source: Any, source_name: str | None = None) -> None:
    """Copy a Timestamp field when the source has it set."""
    field = source_name or name
    if source.HasField(field):
        getattr(target, name).CopyFrom(getattr(source, field))
