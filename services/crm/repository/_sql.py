"""Small helpers shared by the repository modules.

The statements are written as SQLAlchemy `text()` clauses (named parameters) and opened on
SQLAlchemy transactions (`Store`), but `one`, `many`, `scalar` and `run` execute them on the
asyncpg connection under that transaction (`driver`: same session, same transaction, same
row-level security setting). On this machine SQLAlchemy's own work per statement (compiling the
parameters, the greenlet hop, the cursor and result wrappers) cost ~0.25 ms of CPU, more than
the statement itself; every crm call runs several. Each clause is compiled once with the asyncpg
dialect (the SQL text SQLAlchemy itself would send: `$n` placeholders, a repeated name reusing
its number), and its parameters are passed by position. Rows are asyncpg `Record`s, which read
like SQLAlchemy's row mappings (`row["column"]`, `dict(row)`, `"column" in row`) and hold the
same Python values (the connection's codecs are SQLAlchemy's, e.g. for `jsonb`).
"""

from __future__ import annotations

import json
import re
from typing import Any

import asyncpg
import sqlalchemy as sa
from sqlalchemy.dialects.postgresql.asyncpg import dialect as asyncpg_dialect
from sqlalchemy.ext.asyncio import AsyncConnection

from balcao.kit import db

Row = asyncpg.Record

_DIALECT = asyncpg_dialect()
# id(clause) → (clause, SQL with $n placeholders, parameter names in placeholder order). Clauses
# are module constants; holding them keeps their ids from being reused.
_COMPILED: dict[int, tuple[sa.TextClause, str, tuple[str, ...]]] = {}


def q(sql: str) -> sa.TextClause:
    return sa.text(sql)


def _compiled(statement: sa.TextClause) -> tuple[str, tuple[str, ...]]:
    entry = _COMPILED.get(id(statement))
    if entry is None or entry[0] is not statement:
        compiled = statement.compile(dialect=_DIALECT)
        entry = (statement, compiled.string, tuple(compiled.positiontup or ()))
        _COMPILED[id(statement)] = entry
    return entry[1], entry[2]


def _args(names: tuple[str, ...], params: dict[str, Any]) -> list[Any]:
    return [params[name] for name in names]


async def one(conn: AsyncConnection, statement: sa.TextClause, **params: Any) -> Row | None:
    sql, names = _compiled(statement)
    return await (await driver(conn)).fetchrow(sql, *_args(names, params))


async def many(conn: AsyncConnection, statement: sa.TextClause, **params: Any) -> list[Row]:
    sql, names = _compiled(statement)
    return await (await driver(conn)).fetch(sql, *_args(names, params))


async def scalar(conn: AsyncConnection, statement: sa.TextClause, **params: Any) -> Any:
    sql, names = _compiled(statement)
    return await (await driver(conn)).fetchval(sql, *_args(names, params))


async def run(conn: AsyncConnection, statement: sa.TextClause, **params: Any) -> int:
    """Execute a statement that returns no rows; the number of rows it touched."""
    sql, names = _compiled(statement)
    status = await (await driver(conn)).execute(sql, *_args(names, params))
    # The command tag: "UPDATE 3", "DELETE 0", "INSERT 0 1", "SELECT 1".
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


_ENCODER = json.JSONEncoder(ensure_ascii=False)  # json.dumps with an option builds a new encoder per call


def js(value: Any) -> str:
    """A Python value as a JSON parameter (cast to jsonb in the SQL)."""
    return _ENCODER.encode(value)


async def driver(conn: AsyncConnection) -> asyncpg.Connection:
    """The asyncpg connection under `conn`, inside its transaction (same session, same row-level security
    setting), for the hot paths where SQLAlchemy's own work per statement costs more than the statement."""
    return await db.driver_in_transaction(conn)


_BIND = re.compile(r"(?<![:\w]):(\w+)")
_SELECT_ALL = re.compile(r"^\s*SELECT \* FROM (crm\.\w+)\s")


def fuse(parts: dict[str, tuple[sa.TextClause, bool]]) -> sa.TextClause:
    """One statement answering several `SELECT * FROM crm.<table> …` statements at once, unchanged.

    Each part becomes a column: the row (`(SELECT t FROM crm.<table> AS t …)`, a composite that
    asyncpg decodes to a Record with the table's column names and the same values) or, with
    `many`, an array of rows (`ARRAY(SELECT t …)`, in the statement's own order and limits). The
    parts' SQL is the single statements' own text, so the fused reads cannot drift from them;
    their parameters are renamed `<part>__<name>` (`fused_params` builds them).
    """
    columns = []
    for name, (statement, many_rows) in parts.items():
        sql = statement.text
        match = _SELECT_ALL.match(sql)
        if match is None:
            raise ValueError(f"part {name!r} is not a SELECT * FROM crm.<table> statement")
        sql = f"SELECT t FROM {match.group(1)} AS t " + sql[match.end():]
        sql = _BIND.sub(lambda bind, part=name: f":{part}__{bind.group(1)}", sql)
        columns.append(f"ARRAY({sql}) AS {name}" if many_rows else f"({sql}) AS {name}")
    return q("SELECT " + ",\n       ".join(columns))


def fused_params(params: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """The parameters of a `fuse`d statement, from each part's own."""
    return {f"{part}__{name}": value for part, values in params.items() for name, value in values.items()}
