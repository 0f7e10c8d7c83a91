"""Small helpers shared by the repository modules."""

from __future__ import annotations

import json
from typing import Any

import asyncpg
import sqlalchemy as sa
from sqlalchemy.engine import RowMapping
from sqlalchemy.ext.asyncio import AsyncConnection

from balcao.kit import db

Row = RowMapping


def q(sql: str) -> sa.TextClause:
    return sa.text(sql)


async def one(conn: AsyncConnection, statement: sa.TextClause, **params: Any) -> Row | None:
    return (await conn.execute(statement, params)).mappings().first()


async def many(conn: AsyncConnection, statement: sa.TextClause, **params: Any) -> list[Row]:
    return list((await conn.execute(statement, params)).mappings().all())


async def scalar(conn: AsyncConnection, statement: sa.TextClause, **params: Any) -> Any:
    return (await conn.execute(statement, params)).scalar()


async def run(conn: AsyncConnection, statement: sa.TextClause, **params: Any) -> int:
    result = await conn.execute(statement, params)
    return int(result.rowcount or 0)


_ENCODER = json.JSONEncoder(ensure_ascii=False)  # json.dumps with an option builds a new encoder per call


def js(value: Any) -> str:
    """A Python value as a JSON parameter (cast to jsonb in the SQL)."""
    return _ENCODER.encode(value)


async def driver(conn: AsyncConnection) -> asyncpg.Connection:
    """The asyncpg connection under `conn`, inside its transaction (same session, same row-level security
    setting), for the hot paths where SQLAlchemy's own work per statement costs more than the statement."""
    return await db.driver_in_transaction(conn)
