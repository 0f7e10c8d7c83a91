"""Operador throughput: closed turns processed per second with the role off (deterministic), 1 and 2 workers.

Starts an embedded PostgreSQL and `balcao serve crm` on it (agenda is not needed with the role
off), seeds one organisation with the Operador role off, closes a backlog of turns with
CrmWrite.CloseTurn (each declaring `quer agendar`, so the basic registration moves the lead and
writes its timeline activity), then lets 1 and then 2 in-process Operador workers drain it exactly
as the service does (`Worker.drain`, the worker's default Claim batch): Claim a batch, read every
turn (organisation, contact, the turn's own checkpoint, its obligations) with BatchGetClosedTurns,
plan it, and register the batch (the stage change, the decision activity, the outcome record) with
one RegisterTurnBasics that also completes the events; the next batch is claimed and planned while
one registers. The clock runs from the first Claim to the last completion. Each round checks that
no event was processed twice and none was left behind. Target: at least 1,000 events/s.

Run: `.venv/bin/python bench/operador.py` (or `make bench`). The last line is JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import secrets
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import asyncpg
import grpc

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from google.protobuf import field_mask_pb2  # noqa: E402

from balcao.common.v1 import declaracao_pb2 as dc  # noqa: E402
from balcao.crm.v1 import crm_resources_pb2 as r  # noqa: E402
from balcao.crm.v1 import crm_write_pb2 as cw  # noqa: E402
from balcao.crm.v1 import crm_write_pb2_grpc  # noqa: E402
from balcao.kit.embedded_pg import EmbeddedPostgres  # noqa: E402
from balcao.kit.identity import mint_token, signing_interceptors  # noqa: E402
from balcao.models.scripted import ScriptedProvider  # noqa: E402
from bench._harness import free_port, start_service, wait_serving  # noqa: E402
from services.operador.config import Settings  # noqa: E402
from services.operador.peers import Peers  # noqa: E402
from services.operador.processing import Processor  # noqa: E402
from services.operador.worker import Worker  # noqa: E402

TARGET_EVENTS_PER_SECOND = 1000.0


async def _seed(writer: crm_write_pb2_grpc.CrmWriteServiceStub, md: tuple[tuple[str, str], ...],
                turns: int, contacts: int) -> str:
    org = (await writer.UpsertOrganization(cw.UpsertOrganizationRequest(name="Bench", time_zone="America/Sao_Paulo"),
                                           metadata=md)).organization
    settings = r.OrganizationSettings()
    settings.CopyFrom(org.settings)
    settings.roles.operador_enabled = False
    await writer.UpdateOrganizationSettings(cw.UpdateOrganizationSettingsRequest(
        organization_id=org.organization_id, settings=settings,
        update_mask=field_mask_pb2.FieldMask(paths=["roles"])), metadata=md)
    ids = []
    for _ in range(contacts):
        phone = f"+55119{uuid.uuid4().int % 10**8:08d}"
        reply = await writer.UpsertContact(cw.UpsertContactRequest(organization_id=org.organization_id, phone=phone),
                                           metadata=md)
        ids.append(reply.contact.contact_id)
    declaracao = dc.DeclaracaoDoTurno(intencoes=[dc.Intencao(
        o_que="quer agendar uma avaliação", evidencia="queria marcar", categoria=dc.CATEGORIA_QUER_AGENDAR)])
    gate = asyncio.Semaphore(50)

    async def close(i: int) -> None:
        async with gate:
            await writer.CloseTurn(cw.CloseTurnRequest(
                organization_id=org.organization_id, contact_id=ids[i % contacts], turn_id=str(uuid.uuid4()),
                unit_id="sdr", checkpoint=r.CheckpointContent(rolling_summary="quer agendar", declaracao=declaracao),
                execution=r.TurnExecution(trigger=r.TURN_TRIGGER_INBOUND, outcome=r.TURN_OUTCOME_REPLIED)),
                metadata=md)

    await asyncio.gather(*(close(i) for i in range(turns)))
    return org.organization_id


def _cpu_seconds(pid: int, *, reaped: bool = False) -> float:
    """User + system CPU time of another process (Linux /proc), in seconds; `reaped` adds its ended children's."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    ticks = int(fields[11]) + int(fields[12]) + ((int(fields[13]) + int(fields[14])) if reaped else 0)
    return ticks / os.sysconf("SC_CLK_TCK")


def _postgres_cpu_seconds(postmaster: int) -> float:
    """CPU time of the whole PostgreSQL server: the postmaster, its ended children and every live one."""
    total = _cpu_seconds(postmaster, reaped=True)
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                if int(stat[1]) == postmaster:
                    total += (int(stat[11]) + int(stat[12])) / os.sysconf("SC_CLK_TCK")
            except (OSError, IndexError, ValueError):
                continue  # ended meanwhile
    return total


class _LockSampler:
    """Samples PostgreSQL every few milliseconds during a drain: the share of samples in which at least one
    backend was waiting for a lock held by another transaction (row locks of contacts, event rows...).
    Two workers that contend show up here; two workers that merely share the CPU do not."""

    def __init__(self, url: str, every: float = 0.005) -> None:
        self.url, self.every = url, every
        self.samples = self.waiting = 0
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self._connection = await asyncpg.connect(self.url)
        self._task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        while True:
            n = await self._connection.fetchval(
                "SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND pid <> pg_backend_pid()")
            self.samples += 1
            self.waiting += int(n > 0)
            await asyncio.sleep(self.every)

    async def stop(self) -> float:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        await self._connection.close()
        return self.waiting / self.samples if self.samples else 0.0


async def _round(address: str, secret: str, workers: int, turns: int, batch: int,
                 crm_pid: int, pg_pid: int, batched: bool = True, spy: str = "",
                 contacts: int = 100, database_url: str = "") -> dict[str, float | int]:
    md = (("authorization", f"Bearer {mint_token(secret.encode(), 'gateway', ttl=3600)}"),)
    async with grpc.aio.insecure_channel(address) as channel:
        org = await _seed(crm_write_pb2_grpc.CrmWriteServiceStub(channel), md, turns, contacts=contacts)
    if database_url:
        # Fresh statistics before the clock starts: thousands of rows just written would otherwise be
        # planned for as empty tables until autovacuum's ANALYZE came round, and whichever round ran
        # first paid for it (measured: the same code at 362/s first, 1,311/s second).
        connection = await asyncpg.connect(database_url)
        try:
            await connection.execute("ANALYZE")
        finally:
            await connection.close()
    signed = signing_interceptors(secret.encode(), "operador")
    # Role off never calls agenda: its channel points nowhere and is never used.
    peers = [Peers.over(grpc.aio.insecure_channel(address, interceptors=signed),
                        grpc.aio.insecure_channel("127.0.0.1:9"), timeout=30)
             for _ in range(workers)]
    pool = [Worker(Processor(p, ScriptedProvider()), batch_size=batch, concurrency=64, batched=batched)
            for p in peers]

    async def drain(worker: Worker) -> None:
        # A worker tries again until the whole backlog is done (an empty Claim while another worker still holds
        # events is not the end: a batch handed back to the queue comes round again), waiting 5 ms, doubling up
        # to 100 ms, between empty Claims (the service waits for a notification or its poll tick).
        deadline, pause = time.monotonic() + 300, 0.005
        while sum(len(w.processed) for w in pool) < turns and time.monotonic() < deadline:
            if await worker.drain(organization_id=org):
                pause = 0.005
            else:
                await asyncio.sleep(pause)
                pause = min(pause * 2, 0.1)

    profiler = None
    if spy:  # py-spy on crm during the drain only (collapsed stacks, for a look at where crm's time goes)
        profiler = subprocess.Popen([str(Path(sys.executable).parent / "py-spy"), "record", "--pid", str(crm_pid),
                                     "--format", "raw", "--nonblocking", "--rate", "400",
                                     "-o", f"{spy}.{workers}w.txt"],
                                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        await asyncio.sleep(1.0)
    started, cpu_here, cpu_crm = time.perf_counter(), time.process_time(), _cpu_seconds(crm_pid)
    cpu_pg = _postgres_cpu_seconds(pg_pid)
    sampler = _LockSampler(database_url) if database_url else None
    if sampler is not None:
        await sampler.start()
    await asyncio.gather(*(drain(w) for w in pool))
    elapsed = time.perf_counter() - started
    lock_share = await sampler.stop() if sampler is not None else 0.0
    cpu_here, cpu_crm = time.process_time() - cpu_here, _cpu_seconds(crm_pid) - cpu_crm
    cpu_pg = _postgres_cpu_seconds(pg_pid) - cpu_pg
    if profiler is not None:
        profiler.send_signal(signal.SIGINT)
        profiler.wait(30)
    for p in peers:
        await p.close()
    seen = [e for w in pool for e in w.processed]
    return {"workers": workers, "events": len(seen), "duplicates": len(seen) - len(set(seen)),
            "left_behind": turns - len(set(seen)), "seconds": round(elapsed, 3),
            "events_per_second": round(len(seen) / elapsed, 1),
            "operador_cpu_us_per_event": round(cpu_here / max(len(seen), 1) * 1e6, 1),
            "crm_cpu_us_per_event": round(cpu_crm / max(len(seen), 1) * 1e6, 1),
            "postgres_cpu_us_per_event": round(cpu_pg / max(len(seen), 1) * 1e6, 1),
            "lock_wait_share": round(lock_share, 3)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=2000, help="closed turns per round")
    parser.add_argument("--batch", type=int, default=Settings.model_fields["batch_size"].default,
                        help="events per Claim (default: the worker's, BALCAO_OPERADOR_BATCH_SIZE)")
    parser.add_argument("--workers", default="1,2", help="worker counts, comma-separated")
    parser.add_argument("--contacts", type=int, default=100,
                        help="contacts the turns are spread over (100: 20 turns each, so every batch names them all)")
    parser.add_argument("--single", action="store_true",
                        help="every event the single way (one crm call per write), for comparison")
    parser.add_argument("--py-spy", default="", metavar="PREFIX",
                        help="record crm with py-spy during each measured drain into PREFIX.<n>w.txt")
    args = parser.parse_args()
    counts = [int(n) for n in args.workers.split(",")]
    with tempfile.TemporaryDirectory(prefix="balcao-bench-operador-") as tmp:
        folder = Path(tmp)
        database = EmbeddedPostgres(folder / "pg")
        database.start()
        secret = secrets.token_urlsafe(32)
        port = free_port()
        process = start_service("crm", folder, database.url, secret, port, pool_size=16)
        try:
            address = f"127.0.0.1:{port}"
            asyncio.run(wait_serving(address, process, "crm"))
            batched = not args.single
            pg_pid = int((database.pgdata / "postmaster.pid").read_text().splitlines()[0])
            asyncio.run(_round(address, secret, 1, 200, args.batch, process.pid, pg_pid, batched))  # warm-up
            rounds = [asyncio.run(_round(address, secret, n, args.turns, args.batch, process.pid, pg_pid, batched,
                                         args.py_spy, args.contacts, database.url))
                      for n in counts]
        finally:
            process.terminate()
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                process.kill()
            database.stop()

    way = ("the single way (one crm call per write, then CompleteBatch)" if args.single
           else "BatchGetClosedTurns + RegisterTurnBasics (which completes the events)")
    print(f"operador throughput, role off (basic registration by code), {way}, Claim batch {args.batch}; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    print(f"{'workers':>7} {'events':>7} {'seconds':>8} {'events/s':>9} {'dupes':>6} {'lost':>5} "
          f"{'operador CPU µs/event':>22} {'crm CPU µs/event':>17} {'PostgreSQL CPU µs/event':>24} {'lock waits':>10}")
    for row in rounds:
        print(f"{row['workers']:>7} {row['events']:>7} {row['seconds']:>8} {row['events_per_second']:>9} "
              f"{row['duplicates']:>6} {row['left_behind']:>5} {row['operador_cpu_us_per_event']:>22} "
              f"{row['crm_cpu_us_per_event']:>17} {row['postgres_cpu_us_per_event']:>24} {row['lock_wait_share']:>10}")
    correct = all(row["duplicates"] == 0 and row["left_behind"] == 0 for row in rounds)
    met = correct and all(float(row["events_per_second"]) >= TARGET_EVENTS_PER_SECOND for row in rounds)
    print(json.dumps({
        "bench": "operador" if not args.single else "operador_single_way",
        **{f"events_per_second_{row['workers']}_workers": row["events_per_second"] for row in rounds},
        **{f"operador_cpu_us_per_event_{row['workers']}_workers": row["operador_cpu_us_per_event"] for row in rounds},
        **{f"crm_cpu_us_per_event_{row['workers']}_workers": row["crm_cpu_us_per_event"] for row in rounds},
        **{f"postgres_cpu_us_per_event_{row['workers']}_workers": row["postgres_cpu_us_per_event"]
           for row in rounds},
        **{f"lock_wait_share_{row['workers']}_workers": row["lock_wait_share"] for row in rounds},
        "turns_per_round": args.turns, "contacts": args.contacts, "batch": args.batch,
        "no_duplicates_no_losses": correct,
        "load_average_1m": round(os.getloadavg()[0], 2),
        "targets": {"events_per_second": TARGET_EVENTS_PER_SECOND}, "met": met,
    }))
    return 0 if met else 1


if __name__ == "__main__":
    raise SystemExit(main())
