"""Benchmark: crm's share of one turn, in one process — the crm calls a turn makes, CPU per call.

crm (built by its own `server.build`, started with the kit's `create_server`) runs in this
process against a fresh embedded PostgreSQL; the client channel is opened the way the gateway
opens its own (`balcao.kit.channels.open_channel`: signed and traced). Per turn, sequentially, a
new contact and what `bench/turn.py` shows crm serving for it: UpsertContact (`fill_empty_only`,
an inbound key), GetContact ×2, GetOrganization, GetLeadSnapshot (with knowledge articles),
ListHumanCases, CloseTurn (with an execution record), BatchGetClosedTurns. The Operador's
RegisterTurnBasics and Claim are left out (their own figures are in `bench/operador.py` and
`bench/queue.py`).

Figures: CPU ms per call and per turn of this process (client and server together:
`time.process_time`) and of PostgreSQL (its processes' /proc counters). The machine is shared,
so CPU time varies with the load (printed beside it); for a load-independent A/B, count
instructions: run under `valgrind --tool=callgrind --collect-atstart=no` with `--callgrind`,
which switches collection on for the measured turns only (the count is callgrind's summary).
To compare two revisions, run the script from each one's tree (e.g. a `git worktree`).

Run: `.venv/bin/python bench/crm_turn.py [--turns 100]`. Prints a table, then one JSON line
(the last line). Target: crm's budget within a turn (issue 7's turn target is the whole mesh's;
this share is ours, not the issue's): its calls at most 20 ms of CPU, client and server. When
this script was written: 38.6 ms on b46d36e and 22.1 ms after the crm7 branch (load ~2–3); under
callgrind 30.0 M and 17.9 M instructions per turn.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import sys
import tempfile
import time
import uuid
from collections import defaultdict
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
# Not bench/ itself: its queue.py would shadow the standard library's.
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != ROOT / "bench"]
sys.path.insert(0, str(ROOT))

from bench._harness import Callgrind, crm_in_process, postgres_cpu_ms  # noqa: E402

TARGET_CPU_MS_PER_TURN = 20.0



async def measure(turns: int, warmup: int, callgrind: bool) -> dict[str, Any]:
    from balcao.common.v1 import declaracao_pb2 as dc
    from balcao.crm.v1 import crm_read_pb2 as rd
    from balcao.crm.v1 import crm_read_pb2_grpc, crm_write_pb2_grpc
    from balcao.crm.v1 import crm_resources_pb2 as r
    from balcao.crm.v1 import crm_write_pb2 as cw
    from balcao.kit.channels import open_channel
    from balcao.kit.telemetry import configure_telemetry
    from services.gateway.config import Settings as GatewaySettings

    logging.getLogger().setLevel(logging.WARNING)
    flush = configure_telemetry("crm")
    cpu: dict[str, float] = defaultdict(float)
    pg: dict[str, float] = defaultdict(float)
    with tempfile.TemporaryDirectory(prefix="bench-crm-turn-") as tmp:
        folder = Path(tmp)
        counter = Callgrind(folder) if callgrind else None
        async with crm_in_process(folder) as crm:
            secret = crm.secret
            channel = open_channel(
                GatewaySettings(mesh_secret=secret, crm_addr=crm.address, data_dir=folder), "crm"
            )
            try:
                read = crm_read_pb2_grpc.CrmReadServiceStub(channel)
                write = crm_write_pb2_grpc.CrmWriteServiceStub(channel)
                org = (
                    await write.UpsertOrganization(
                        cw.UpsertOrganizationRequest(
                            name="Clínica Bench", time_zone="America/Sao_Paulo", plan=r.Plan(name="Bench")
                        )
                    )
                ).organization.organization_id

                async def turn(timed: bool) -> None:
                    async def call(name: str, make: Callable[[], Awaitable[Any]]) -> Any:
                        if not timed or callgrind:
                            return await make()
                        pg_before, cpu_before = postgres_cpu_ms(folder), time.process_time()
                        answer = await make()
                        cpu[name] += (time.process_time() - cpu_before) * 1000
                        pg[name] += postgres_cpu_ms(folder) - pg_before
                        return answer

                    phone = f"+55119{uuid.uuid4().int % 10**8:08d}"
                    contact = (
                        await call("UpsertContact", lambda: write.UpsertContact(cw.UpsertContactRequest(
                            organization_id=org, phone=phone, channel=r.CHANNEL_WHATSAPP, name="Maria",
                            legal_basis=r.LEGAL_BASIS_CONTACT_INITIATED, fill_empty_only=True,
                            idempotency_key=f"inbound:bench:{phone}:{uuid.uuid4().hex}")))
                    ).contact.contact_id
                    ids = {"organization_id": org, "contact_id": contact}
                    for _ in range(2):
                        await call("GetContact", lambda: read.GetContact(rd.GetContactRequest(**ids)))
                    await call("GetOrganization",
                               lambda: read.GetOrganization(rd.GetOrganizationRequest(organization_id=org)))
                    await call("GetLeadSnapshot", lambda: read.GetLeadSnapshot(rd.GetLeadSnapshotRequest(
                        **ids, activities_page_size=20, knowledge_articles=rd.LeadSnapshotKnowledge())))
                    await call("ListHumanCases",
                               lambda: read.ListHumanCases(rd.ListHumanCasesRequest(**ids, page_size=1)))
                    turn_id = uuid.uuid4().hex
                    execution = r.TurnExecution(inbound=[r.InboundRef(text="Oi! Vocês atendem no sábado?")],
                                                sent=[r.SentPart(text="Atendemos, sim: das 8h às 12h.")])
                    execution.started_at.GetCurrentTime()
                    execution.finished_at.GetCurrentTime()
                    await call("CloseTurn", lambda: write.CloseTurn(cw.CloseTurnRequest(
                        **ids, turn_id=turn_id, unit_id="recepcao",
                        checkpoint=r.CheckpointContent(rolling_summary="Perguntou do sábado.",
                                                       declaracao=dc.DeclaracaoDoTurno(nada_a_declarar=True)),
                        execution=execution)))
                    await call("BatchGetClosedTurns", lambda: read.BatchGetClosedTurns(rd.BatchGetClosedTurnsRequest(
                        turns=[rd.ClosedTurnRef(**ids, turn_id=turn_id)])))

                for _ in range(warmup):
                    await turn(False)
                if counter is not None:
                    counter.start()
                for _ in range(turns):
                    await turn(True)
                if counter is not None:
                    counter.stop("crm_turns")
            finally:
                await channel.close()
    flush()
    return {
        "cpu_ms": {name: round(value / turns, 3) for name, value in cpu.items()},
        "postgres_cpu_ms": {name: round(value / turns, 3) for name, value in pg.items()},
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=100)
    parser.add_argument("--warmup", type=int, default=20)
    parser.add_argument("--callgrind", action="store_true",
                        help="under callgrind: collect the measured turns only (CPU figures are then not taken)")
    args = parser.parse_args()
    figures = asyncio.run(measure(args.turns, args.warmup, args.callgrind))
    total = round(sum(figures["cpu_ms"].values()), 2)
    pg_total = round(sum(figures["postgres_cpu_ms"].values()), 2)
    print(f"crm calls of one turn, {args.turns} turns, CPU ms per turn (client and server in this process)")
    print(f"  {'call':<22}{'CPU ms':>9}{'PG CPU ms':>11}")
    for name, value in figures["cpu_ms"].items():
        print(f"  {name:<22}{value:>9.3f}{figures['postgres_cpu_ms'][name]:>11.3f}")
    print(f"  {'total':<22}{total:>9.3f}{pg_total:>11.3f}")
    load = os.getloadavg()[0]
    print(f"load average: {load:.2f}")
    print(json.dumps({
        "bench": "crm_turn", "turns": args.turns, "cpu_ms_per_turn": total, "postgres_cpu_ms_per_turn": pg_total,
        "cpu_ms_by_call": figures["cpu_ms"], "load_average_1m": round(load, 2),
        "targets": {"cpu_ms_per_turn": TARGET_CPU_MS_PER_TURN},
        "met": bool(figures["cpu_ms"]) and total <= TARGET_CPU_MS_PER_TURN,
    }))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
