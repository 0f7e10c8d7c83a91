"""Queue throughput: events claimed and completed per second through gRPC against a real crm.

Starts an embedded PostgreSQL in a temporary folder and `balcao serve crm` on it, publishes a
backlog of events (through Publish, spread over four organisations), then lets 1 and then 4
consumers drain it the way a worker does: Claim a batch across every organisation (`FOR UPDATE
SKIP LOCKED` under a lease), then acknowledge what it processed, in one of two ways:
  - `batch`: one CompleteBatch call per claimed batch (the target is judged on this mode);
  - `single`: one Complete call per event, the batch's calls in flight together (a quarter of
    the events: it is the slow way, reported for comparison, not judged).
The clock runs from the first Claim to the last completion. Every round also checks that no
event was claimed twice and none was left behind. Target: at least 1,000 events/s.

Run: `.venv/bin/python bench/queue.py` (or `make bench`). The last line is JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

import grpc

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from balcao.crm.v1 import crm_write_pb2 as write  # noqa: E402
from balcao.crm.v1 import crm_write_pb2_grpc, event_queue_pb2_grpc  # noqa: E402
from balcao.crm.v1 import event_queue_pb2 as queue  # noqa: E402
from balcao.kit.embedded_pg import EmbeddedPostgres  # noqa: E402
from balcao.kit.identity import mint_token  # noqa: E402
from bench._harness import free_port, start_service, wait_serving  # noqa: E402

TARGET_EVENTS_PER_SECOND = 1000.0
ORGANIZATIONS = 4








async def _publish(stub: event_queue_pb2_grpc.EventQueueServiceStub, metadata: tuple[tuple[str, str], ...],
                   orgs: list[str], kind: str, count: int) -> float:
    started = time.perf_counter()
    pending = list(range(count))
    while pending:
        chunk, pending = pending[:200], pending[200:]
        await asyncio.gather(*(
            stub.Publish(queue.PublishRequest(organization_id=orgs[i % len(orgs)], kind=kind, payload={"n": i}),
                         metadata=metadata)
            for i in chunk
        ))
    return time.perf_counter() - started


async def _consume(stub: event_queue_pb2_grpc.EventQueueServiceStub, metadata: tuple[tuple[str, str], ...],
                   kind: str, name: str, batch: int, mode: str, seen: list[str]) -> None:
    while True:
        claimed = await stub.Claim(queue.ClaimRequest(consumer=name, kinds=[kind], batch_size=batch),
                                   metadata=metadata)
        if not claimed.events:
            return
        completions = [
            queue.CompleteRequest(organization_id=e.organization_id, event_id=e.event_id, lease_token=e.lease.token)
            for e in claimed.events
        ]
        if mode == "batch":
            answer = await stub.CompleteBatch(queue.CompleteBatchRequest(completions=completions), metadata=metadata)
            outcomes = list(answer.outcomes)
        else:
            answers = await asyncio.gather(*(stub.Complete(c, metadata=metadata) for c in completions))
            outcomes = [a.outcome for a in answers]
        if any(o != queue.LEASE_OUTCOME_COMPLETED for o in outcomes):
            raise RuntimeError("a completion did not complete")
        seen.extend(e.event_id for e in claimed.events)


async def _round(address: str, secret: str, orgs: list[str], mode: str, consumers: int, events: int,
                 batch: int) -> dict[str, float | int | str]:
    kind = f"bench_{uuid.uuid4().hex[:10]}"
    # One channel per consumer, as separate worker replicas would have.
    channels = [grpc.aio.insecure_channel(address) for _ in range(consumers + 1)]
    metadata = (("authorization", f"Bearer {mint_token(secret.encode(), 'operador', ttl=3600)}"),)
    try:
        publish_seconds = await _publish(event_queue_pb2_grpc.EventQueueServiceStub(channels[0]), metadata, orgs,
                                         kind, events)
        seen: list[str] = []
        started = time.perf_counter()
        await asyncio.gather(*(
            _consume(event_queue_pb2_grpc.EventQueueServiceStub(channels[i + 1]), metadata, kind, f"bench-{i}",
                     batch, mode, seen)
            for i in range(consumers)
        ))
        elapsed = time.perf_counter() - started
    finally:
        for channel in channels:
            await channel.close()
    return {
        "mode": mode,
        "consumers": consumers,
        "events": len(seen),
        "duplicates": len(seen) - len(set(seen)),
        "left_behind": events - len(set(seen)),
        "seconds": round(elapsed, 3),
        "events_per_second": round(len(seen) / elapsed, 1),
        "published_per_second": round(events / publish_seconds, 1),
    }


async def _bench(address: str, secret: str, consumer_counts: list[int], events: int,
                 batch: int) -> list[dict[str, float | int | str]]:
    metadata = (("authorization", f"Bearer {mint_token(secret.encode(), 'gateway', ttl=3600)}"),)
    async with grpc.aio.insecure_channel(address) as channel:
        writer = crm_write_pb2_grpc.CrmWriteServiceStub(channel)
        orgs = [
            (await writer.UpsertOrganization(write.UpsertOrganizationRequest(name=f"Bench {i}"),
                                             metadata=metadata)).organization.organization_id
            for i in range(ORGANIZATIONS)
        ]
    # A short warm-up so connection pools and caches are filled before the clock runs.
    await _round(address, secret, orgs, "batch", 1, 200, batch)
    return [
        await _round(address, secret, orgs, mode, n, events if mode == "batch" else max(events // 4, batch), batch)
        for mode in ("batch", "single")
        for n in consumer_counts
    ]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--events", type=int, default=4000, help="events per round")
    parser.add_argument("--batch", type=int, default=50, help="events per Claim")
    parser.add_argument("--consumers", default="1,4", help="consumer counts, comma-separated")
    args = parser.parse_args()
    consumer_counts = [int(n) for n in args.consumers.split(",")]

    with tempfile.TemporaryDirectory(prefix="balcao-bench-queue-") as tmp:
        folder = Path(tmp)
        database = EmbeddedPostgres(folder / "pg")
        database.start()
        secret = secrets.token_urlsafe(32)
        port = free_port()
        process = start_service("crm", folder, database.url, secret, port, pool_size=16)
        try:
            address = f"127.0.0.1:{port}"
            asyncio.run(wait_serving(address, process, "crm"))
            rounds = asyncio.run(_bench(address, secret, consumer_counts, args.events, args.batch))
        finally:
            process.terminate()
            try:
                process.wait(30)
            except subprocess.TimeoutExpired:
                process.kill()
            database.stop()

    print(f"queue throughput through gRPC: Claim (batch {args.batch}) then CompleteBatch (batch) or one Complete "
          f"per event (single); load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
    print(f"{'mode':>6} {'consumers':>9} {'events':>7} {'seconds':>8} {'events/s':>9} {'dupes':>6} {'lost':>5} "
          f"{'publish/s':>10}")
    for row in rounds:
        print(f"{row['mode']:>6} {row['consumers']:>9} {row['events']:>7} {row['seconds']:>8} "
              f"{row['events_per_second']:>9} {row['duplicates']:>6} {row['left_behind']:>5} "
              f"{row['published_per_second']:>10}")
    figures = {}
    for row in rounds:
        prefix = "" if row["mode"] == "batch" else "single_complete_"
        figures[f"{prefix}events_per_second_{row['consumers']}_consumers"] = row["events_per_second"]
    correct = all(row["duplicates"] == 0 and row["left_behind"] == 0 for row in rounds)
    met = correct and all(
        float(row["events_per_second"]) >= TARGET_EVENTS_PER_SECOND for row in rounds if row["mode"] == "batch"
    )
    print(json.dumps({
        "bench": "queue",
        **figures,
        "events_per_round": args.events,
        "batch": args.batch,
        "no_duplicates_no_losses": correct,
        "load_average_1m": round(os.getloadavg()[0], 2),
        "targets": {"events_per_second": TARGET_EVENTS_PER_SECOND},
        "met": met,
    }))
    return 0 if met else 1


if __name__ == "__main__":
    raise SystemExit(main())
