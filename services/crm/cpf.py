"""CPF (the Brazilian taxpayer number): stored as its eleven digits, check digits verified."""

from __future__ import annotations

import re

from services.crm.errors import InvalidArgument


def normalize_cpf(raw: str) -> str:
    digits = re.sub(r"\D", "", raw)
    if len(digits) != 11 or digits == digits[0] * 11 or not _checks(digits):
        raise InvalidArgument(f"cpf {raw!r} is not a valid CPF (11 digits with valid check digits)")
    return digits


def _checks(digits: str) -> bool:
    for length in (9, 10):
        total = sum(int(d) * w for d, w in zip(digits[:length], range(length + 1, 1, -1), strict=True))
        check = (total * 10) % 11 % 10
        if check != int(digits[length]):
            return False
    return True
