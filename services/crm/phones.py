"""Phone numbers as the crm stores them: the kit's one rule (`balcao.kit.phones`), errors as crm's.

Every service that takes a customer's number applies that rule, so a number the edge or the
gateway accepted is one the crm accepts and stores under the same E.164 value.
"""

from __future__ import annotations

from balcao.kit.phones import InvalidPhone, is_phone_jid, jid_user
from balcao.kit.phones import normalize_phone as _normalize
from services.crm.errors import InvalidArgument


def normalize_phone(raw: str, default_region: str = "", field: str = "phone") -> str:
    """`raw` in any common format (a phone JID too) → E.164, or InvalidArgument naming `field`."""
    if not raw.strip():
        raise InvalidArgument(f"{field} is required")
    try:
        return _normalize(raw, default_region)
    except InvalidPhone as exc:
        raise InvalidArgument(exc.naming(field)) from None


def phone_from_jid(jid: str) -> str | None:
    """The phone a phone JID (`…@s.whatsapp.net`) carries; None for LIDs and groups."""
    return jid_user(jid) if is_phone_jid(jid) else None
