"""Opaque page tokens for the list RPCs (an offset, base64-wrapped so callers do not build them)."""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass

from services.crm.errors import InvalidArgument


@dataclass(frozen=True)
class Page:
    limit: int
    offset: int

    @property
    def fetch(self) -> int:
        # One more than asked tells whether a next page exists.
        return self.limit + 1

    def next_token(self, fetched: int) -> str:
        return encode(self.offset + self.limit) if fetched > self.limit else ""


def page(size: int, token: str, default: int, maximum: int = 500) -> Page:
    if size < 0:
        raise InvalidArgument("page_size must not be negative")
    return Page(min(size or default, maximum), decode(token))


def encode(offset: int) -> str:
    return base64.urlsafe_b64encode(f"o:{offset}".encode()).decode().rstrip("=")


def decode(token: str) -> int:
    if not token:
        return 0
    try:
        text = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)).decode()
        prefix, value = text.split(":", 1)
        offset = int(value)
        if prefix != "o" or offset < 0:
            raise ValueError
        return offset
    except (ValueError, UnicodeDecodeError, binascii.Error):
        raise InvalidArgument(f"page_token {token!r} is not a token this service returned") from None
