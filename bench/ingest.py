"""Webhook ingest: Evolution webhooks accepted and deduplicated per second, through uvicorn on loopback.

Starts the edge router (`services.gateway.edge.http`) in its own process under uvicorn (one
worker, 127.0.0.1), then sends `messages.upsert` bodies shaped like the reference's fixtures
(text and image captions; ids and timestamps varied; 4,000 customers, so each phone sends
several messages, as conversations do) over keep-alive HTTP/1.1
connections, each authenticated with the HS256 JWT Evolution sends through `jwt_key`. A share
of the requests are redeliveries of messages already sent (as Evolution's retries are). Each
request is timed from the first byte sent to the last byte of the 2xx read: the acknowledgement
latency; the server process's CPU time per webhook is reported too, as the load generator and
whatever else runs on the machine share its two cores. At the end, every unique message must
have been accepted exactly once and every redelivery answered as a duplicate. uvicorn serves
with httptools/uvloop when they are installed (`--plain` forces h11/asyncio).

THE STORE: the runtime's inbound store (issue 7) is not wired to the edge yet, so the sink here
is `BenchDedupSink`, an in-memory deduplication by (instance, phone, message id) that also builds
the SubmitInbound proto the runtime will take. The figures measure the edge (HTTP, JSON, JWT,
normalisation, dedup key), not PostgreSQL; the table says so. Target: ≥ 2,000 webhooks/s on
2 cores (server and load generator share them).

Run: `.venv/bin/python bench/ingest.py` (or `make bench`). The last line is JSON.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

TARGET_PER_SECOND = 2000.0
ORG = "6f1d3c1e-8a55-4c55-9a59-3a0c2d0e5b11"
INSTANCE = "atendimento"
INSTANCE_TOKEN = "B5F4E3A2-1C0D-4E9F-8A7B-6C5D4E3F2A1B"
JWT_KEY = "bench-jwt-key-0123456789abcdef0123456789"


# ---------------------------------------------------------------------------------------------
# The server process
# ---------------------------------------------------------------------------------------------


def serve(port: int, plain: bool) -> None:
    import uvicorn
    from fastapi import FastAPI

    from services.gateway.edge.directory import EvolutionInstance, StaticDirectory
    from services.gateway.edge.http import Edge, create_edge_router
    from services.gateway.edge.inbound import NormalizedInbound, Receipt, SinkOutcome

    class BenchDedupSink:
        """In-memory dedup by key, NOT the runtime's store (see the module docstring)."""

        def __init__(self) -> None:
            self.keys: set[tuple[str, str, str, str]] = set()
            self.accepted = 0
            self.duplicates = 0

        async def accept(self, organization_id: str, message: NormalizedInbound) -> Receipt:
            message.to_proto()  # what the runtime's SubmitInbound will be given
            key = (organization_id, *message.dedup_key)
            if key in self.keys:
                self.duplicates += 1
                return Receipt(SinkOutcome.DUPLICATE)
            self.keys.add(key)
            self.accepted += 1
            return Receipt(SinkOutcome.RECORDED if message.from_business else SinkOutcome.ACCEPTED)

    sink = BenchDedupSink()
    directory = StaticDirectory(
        [EvolutionInstance(INSTANCE, ORG, "http://127.0.0.1:9", INSTANCE_TOKEN, jwt_key=JWT_KEY)]
    )
    app = FastAPI()
    app.include_router(create_edge_router(Edge(directory, sink)))

    @app.get("/bench/stats")
    async def stats() -> dict[str, int]:
        return {"accepted": sink.accepted, "duplicates": sink.duplicates}

    uvicorn.run(
        app,
        host="127.0.0.1",
        port=port,
        log_level="warning",
        access_log=False,
        lifespan="off",
        http=_stack(plain)[0],
        loop=_stack(plain)[1],
    )


def _stack(plain: bool) -> tuple[str, str]:
    """uvicorn's HTTP parser and event loop: httptools/uvloop when installed, unless `plain`."""
    if plain:
        return "h11", "asyncio"
    return ("httptools" if _has("httptools") else "h11"), ("uvloop" if _has("uvloop") else "asyncio")


def _has(module: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(module) is not None


# ---------------------------------------------------------------------------------------------
# The load
# ---------------------------------------------------------------------------------------------


def _body(index: int, phone: str) -> bytes:
    key = {"remoteJid": f"{phone}@s.whatsapp.net", "fromMe": False, "id": f"3A{index:018X}", "addressingMode": "pn"}
    if index % 5 == 4:
        message: dict[str, Any] = {
            "imageMessage": {"mimetype": "image/jpeg", "caption": f"Comprovante {index}", "height": 1600, "width": 1200}
        }
        kind = "imageMessage"
    else:
        message = {
            "conversation": f"Oi! Queria saber se tem horário amanhã às {8 + index % 10}h, mensagem {index}.",
            "messageContextInfo": {"deviceListMetadataVersion": 2},
        }
        kind = "conversation"
    event = {
        "event": "messages.upsert",
        "instance": INSTANCE,
        "data": {
            "key": key,
            "pushName": "Cliente Bench",
            "status": "DELIVERY_ACK",
            "message": message,
            "messageType": kind,
            "messageTimestamp": 1761057639 + index // 3,  # several messages share each second
            "instanceId": "b1c2d3e4-5f60-4a7b-8c9d-0e1f2a3b4c5d",
            "source": "ios",
        },
        "destination": "https://bot.example.com/webhooks/evolution",
        "date_time": "2025-10-21T11:40:39.123Z",
        "sender": "5511912345678@s.whatsapp.net",
        "server_url": "https://evo.example.com",
        "apikey": INSTANCE_TOKEN,
    }
    return json.dumps(event, ensure_ascii=False).encode()


def plan(unique: int, redelivery_share: float, customers: int, seed: int = 7) -> tuple[list[bytes], int]:
    """Request bodies in send order: every unique message once, plus redeliveries of earlier ones.

    The messages come from `customers` different phones (a conversation is several messages).
    """
    rng = random.Random(seed)
    phones = [
        f"55{rng.choice([11, 21, 31, 41, 51, 61, 71, 81])}9{rng.randrange(10**7, 10**8)}" for _ in range(customers)
    ]
    bodies = [_body(i, rng.choice(phones)) for i in range(unique)]
    order: list[bytes] = []
    redeliveries = 0
    sent = 0
    total = int(unique / (1 - redelivery_share))
    while sent < unique or redeliveries < total - unique:
        if sent and (sent >= unique or rng.random() < redelivery_share) and redeliveries < total - unique:
            order.append(bodies[rng.randrange(sent)])
            redeliveries += 1
        else:
            order.append(bodies[sent])
            sent += 1
    return order, redeliveries


def _request(body: bytes, token: str) -> bytes:
    head = (
        "POST /webhooks/evolution HTTP/1.1\r\n"
        "Host: 127.0.0.1\r\n"
        "Content-Type: application/json\r\n"
        "User-Agent: axios/1.7.9\r\n"
        f"Authorization: Bearer {token}\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    )
    return head.encode() + body


async def _read_response(reader: asyncio.StreamReader) -> tuple[int, bytes]:
    head = await reader.readuntil(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split(" ", 2)[1])
    length = 0
    for line in lines[1:]:
        name, _, value = line.partition(":")
        if name.strip().lower() == "content-length":
            length = int(value.strip())
    return status, await reader.readexactly(length)


async def drive(port: int, requests: list[bytes], connections: int) -> dict[str, Any]:
    queue: asyncio.Queue[bytes] = asyncio.Queue()
    for request in requests:
        queue.put_nowait(request)
    latencies: list[float] = []
    totals = {"accepted": 0, "duplicates": 0, "errors": 0}

    async def worker() -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        try:
            while True:
                try:
                    request = queue.get_nowait()
                except asyncio.QueueEmpty:
                    return
                started = time.perf_counter()
                writer.write(request)
                status, payload = await _read_response(reader)
                latencies.append(time.perf_counter() - started)
                if status != 200:
                    totals["errors"] += 1
                    continue
                summary = json.loads(payload)
                totals["accepted"] += summary["accepted"]
                totals["duplicates"] += summary["duplicates"]
        finally:
            writer.close()
            await writer.wait_closed()

    started = time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(connections)))
    elapsed = time.perf_counter() - started
    latencies.sort()

    def pct(p: float) -> float:
        return latencies[min(len(latencies) - 1, int(p * len(latencies)))] * 1000

    return {
        "elapsed": elapsed,
        "per_second": len(requests) / elapsed,
        "p50_ms": pct(0.50),
        "p99_ms": pct(0.99),
        "max_ms": latencies[-1] * 1000,
        **totals,
    }


def _cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process (Linux /proc), to report the edge's own cost."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def _wait_listening(port: int, process: subprocess.Popen[bytes], timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError("the edge server exited during start-up")
        try:
            _, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            await asyncio.sleep(0.1)
            continue
        writer.close()
        await writer.wait_closed()
        return
    raise RuntimeError("the edge server did not start listening")


async def _stats(port: int) -> dict[str, int]:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(b"GET /bench/stats HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
    _, payload = await _read_response(reader)
    writer.close()
    await writer.wait_closed()
    return dict(json.loads(payload))


async def main(args: argparse.Namespace) -> None:
    from services.gateway.edge.evolution.auth import mint_webhook_jwt

    port = _free_port()
    env = {**os.environ, "PYTHONWARNINGS": "ignore"}
    server = subprocess.Popen(
        [sys.executable, __file__, "--serve", str(port), *(["--plain"] if args.plain else [])],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
    )
    try:
        await _wait_listening(port, server)
        token = mint_webhook_jwt(JWT_KEY)
        warmup, _ = plan(1000, 0.0, 250, seed=1)
        warm = [_request(b.replace(b'"id": "3A', b'"id": "WU'), token) for b in warmup]
        await drive(port, warm, args.connections)
        bodies, redeliveries = plan(args.unique, args.redeliveries, args.customers)
        requests = [_request(b, token) for b in bodies]
        cpu_before = _cpu_seconds(server.pid)
        result = await drive(port, requests, args.connections)
        server_cpu = _cpu_seconds(server.pid) - cpu_before
        stats = await _stats(port)
    finally:
        server.terminate()
        server.wait(timeout=30)

    total = len(bodies)
    correct = (
        result["errors"] == 0
        and result["accepted"] == args.unique
        and result["duplicates"] == redeliveries
        and stats["accepted"] == args.unique + len(warmup)
    )
    load = os.getloadavg()[0]
    stack = "/".join(_stack(args.plain))
    print("Evolution webhook ingest through uvicorn on 127.0.0.1 (1 server process, keep-alive clients)")
    print("store: IN-MEMORY dedup sink — the runtime's PostgreSQL store is not wired to the edge yet")
    print(f"{'measure':<46} {'value':>12}")
    print(f"{'requests (unique + redeliveries)':<46} {f'{args.unique}+{redeliveries}':>12}")
    print(f"{'customers (distinct phones)':<46} {args.customers:>12}")
    print(f"{'connections':<46} {args.connections:>12}")
    print(f"{'HTTP parser / event loop':<46} {stack:>12}")
    print(f"{'webhooks acknowledged per second':<46} {result['per_second']:>12.0f}")
    cpu_us = server_cpu / total * 1e6
    print(f"{'server CPU per webhook (µs)':<46} {cpu_us:>12.0f}")
    print(f"{'  → webhooks per second per server core':<46} {1e6 / cpu_us:>12.0f}")
    print(f"{'ack latency p50 (ms)':<46} {result['p50_ms']:>12.2f}")
    print(f"{'ack latency p99 (ms)':<46} {result['p99_ms']:>12.2f}")
    print(f"{'ack latency max (ms)':<46} {result['max_ms']:>12.2f}")
    print(f"{'accepted (must equal unique)':<46} {result['accepted']:>12}")
    print(f"{'duplicates (must equal redeliveries)':<46} {result['duplicates']:>12}")
    print(f"{'non-2xx answers':<46} {result['errors']:>12}")
    print(
        f"target: ≥ {TARGET_PER_SECOND:.0f}/s with every message accepted once; machine: {os.cpu_count()} CPUs, "
        f"load average {load:.2f}"
    )
    met = correct and result["per_second"] >= TARGET_PER_SECOND
    print(
        json.dumps(
            {
                "bench": "ingest",
                "store": "in_memory_sink",
                "requests": total,
                "unique": args.unique,
                "redeliveries": redeliveries,
                "connections": args.connections,
                "customers": args.customers,
                "http_stack": stack,
                "webhooks_per_second": round(result["per_second"], 1),
                "server_cpu_us_per_webhook": round(cpu_us, 1),
                "webhooks_per_server_core_second": round(1e6 / cpu_us, 1),
                "ack_p50_ms": round(result["p50_ms"], 3),
                "ack_p99_ms": round(result["p99_ms"], 3),
                "ack_max_ms": round(result["max_ms"], 3),
                "accepted": result["accepted"],
                "duplicates": result["duplicates"],
                "errors": result["errors"],
                "dedup_correct": correct,
                "load_average": round(load, 2),
                "targets": {"webhooks_per_second": TARGET_PER_SECOND, "dedup_correct": True},
                "met": met,
            }
        )
    )


def cli() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--unique", type=int, default=16000, help="distinct messages")
    parser.add_argument("--redeliveries", type=float, default=0.2, help="share of requests that are redeliveries")
    parser.add_argument("--connections", type=int, default=32)
    parser.add_argument("--customers", type=int, default=4000, help="distinct phones the messages come from")
    parser.add_argument("--plain", action="store_true", help="serve with h11/asyncio even if httptools/uvloop exist")
    parser.add_argument("--serve", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve, args.plain)  # the server process (uvicorn owns its event loop)
    elif _has("uvloop"):
        import uvloop

        uvloop.run(main(args))  # the load generator shares the 2 cores: keep its own cost low
    else:
        asyncio.run(main(args))


if __name__ == "__main__":
    cli()
