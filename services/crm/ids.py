"""Validation of the identifiers and small scalars every request carries."""

from __future__ import annotations

import re
import uuid

from services.crm.errors import InvalidArgument

_KIND = re.compile(r"^[a-z][a-z0-9_]{0,62}$")


def required_uuid(value: str, field: str) -> uuid.UUID:
    """A UUID the request must carry, e.g. `organization_id`."""
    if not value:
        raise InvalidArgument(f"{field} is required")
    return parse_uuid(value, field)


def optional_uuid(value: str, field: str) -> uuid.UUID | None:
    """A UUID the request may carry; empty means absent."""
    return parse_uuid(value, field) if value else None


def parse_uuid(value: str, field: str) -> uuid.UUID:
    try:
        return uuid.UUID(value)
    except ValueError:
        raise InvalidArgument(f"{field} must be a UUID, got {value!r}") from None


def required_text(value: str, field: str, max_length: int = 10_000) -> str:
    text = value.strip()
    if not text:
        raise InvalidArgument(f"{field} is required")
    if len(text) > max_length:
        raise InvalidArgument(f"{field} is longer than {max_length} characters")
    return text


def event_kind(value: str, field: str = "kind") -> str:
    if not value:
        raise InvalidArgument(f"{field} is required")
    if not _KIND.match(value):
        raise InvalidArgument(f"{field} must be lower snake_case (like 'turn_closed'), got {value!r}")
    return value

