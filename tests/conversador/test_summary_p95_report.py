"""`balcao report summary-p95`: seed 001's read-only measurement, on a real PostgreSQL.

It runs against a scratch database on the mesh's PostgreSQL holding only a table of the shape
the query reads (`crm.lead_checkpoints(organization_id, contact_id, seq, rolling_summary)`), so
the measurement is checked whatever else the crm schema holds.
"""

from __future__ import annotations

import json
import math
import os
import secrets
import subprocess
import sys
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import asyncpg
import pytest

from tests.support.mesh import RunningMesh


def percentile_cont(values: list[int], fraction: float) -> float:
    ordered = sorted(values)
    position = fraction * (len(ordered) - 1)
    low, high = math.floor(position), math.ceil(position)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


@pytest.fixture
async def scratch_database(mesh: RunningMesh) -> AsyncIterator[str]:
    name = f"report_{secrets.token_hex(4)}"
    admin = await asyncpg.connect(mesh.database_url)
    await admin.execute(f'CREATE DATABASE "{name}"')
    await admin.close()
    yield mesh.database_url.rsplit("/", 1)[0] + f"/{name}"
    admin = await asyncpg.connect(mesh.database_url)
    try:
        await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
    finally:
        await admin.close()


def report(url: str, data_dir: Path, *extra: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("BALCAO_")}
    env.update({"DATABASE_URL": url, "BALCAO_DATA_DIR": str(data_dir), "PYTHONWARNINGS": "ignore"})
    return subprocess.run(
        [sys.executable, "-m", "balcao.cli", "report", "summary-p95", *extra],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


async def test_the_p95_is_of_the_latest_checkpoint_per_contact_by_seq(scratch_database: str, tmp_path: Path) -> None:
    conn = await asyncpg.connect(scratch_database)
    await conn.execute(
        "CREATE SCHEMA crm; CREATE TABLE crm.lead_checkpoints (organization_id uuid, contact_id uuid, "
        "seq integer, rolling_summary text)"
    )
    latest: list[int] = []
    rows = []
    for org in (uuid.uuid4(), uuid.uuid4()):
        for index in range(15):
            contact = uuid.uuid4()
            final_length = 100 + 97 * index + (13 if org.int % 2 else 0)
            latest.append(final_length)
            # The latest by seq is inserted first and an older checkpoint is longer: order must come from seq.
            rows.append((org, contact, 3, "a" * final_length))
            rows.append((org, contact, 2, "b" * 4000))
            rows.append((org, contact, 1, "c" * 10))
    await conn.executemany("INSERT INTO crm.lead_checkpoints VALUES ($1, $2, $3, $4)", rows)
    await conn.close()

    result = report(scratch_database, tmp_path, "--json")
    assert result.returncode == 0, result.stderr
    measured = json.loads(result.stdout)
    assert measured["contacts"] == 30
    assert measured["p95_chars"] == pytest.approx(percentile_cont(latest, 0.95))
    assert measured["triggered"] is False and measured["trigger_chars"] == 2500

    table = report(scratch_database, tmp_path)
    assert "contacts measured  30" in table.stdout and "not reached" in table.stdout


async def test_past_the_trigger_it_says_so(scratch_database: str, tmp_path: Path) -> None:
    conn = await asyncpg.connect(scratch_database)
    await conn.execute(
        "CREATE SCHEMA crm; CREATE TABLE crm.lead_checkpoints (organization_id uuid, contact_id uuid, "
        "seq integer, rolling_summary text)"
    )
    org = uuid.uuid4()
    await conn.executemany(
        "INSERT INTO crm.lead_checkpoints VALUES ($1, $2, 1, $3)",
        [(org, uuid.uuid4(), "x" * 3000) for _ in range(5)],
    )
    await conn.close()
    measured = json.loads(report(scratch_database, tmp_path, "--json").stdout)
    assert measured["triggered"] is True and measured["p95_chars"] == 3000
    assert "PASSED" in report(scratch_database, tmp_path).stdout


async def test_without_the_table_it_fails_clearly_and_creates_nothing(scratch_database: str, tmp_path: Path) -> None:
    result = report(scratch_database, tmp_path)
    assert result.returncode == 1
    assert "crm.lead_checkpoints does not exist yet" in result.stderr
    conn = await asyncpg.connect(scratch_database)
    assert await conn.fetchval("select to_regnamespace('crm')") is None
    await conn.close()
