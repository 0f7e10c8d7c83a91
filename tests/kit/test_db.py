"""Database URL handling."""

from __future__ import annotations

import pytest

from balcao.kit.db import to_async_url


def test_plain_postgres_urls_use_asyncpg() -> None:
    url = to_async_url("postgresql://app:pw@db.example:5432/balcao?sslmode=require")
    assert url.drivername == "postgresql+asyncpg"
    assert url.query == {"ssl": "require"}
    assert url.host == "db.example"


def test_other_databases_are_refused() -> None:
    with pytest.raises(ValueError, match="postgresql"):
        to_async_url("mysql://root@localhost/x")
