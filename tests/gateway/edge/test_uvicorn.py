"""The edge router served by uvicorn on loopback, as Evolution and a site reach it (real HTTP, real sockets)."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator

import httpx2
import pytest
import uvicorn
from fastapi import FastAPI

from services.gateway.edge.directory import EvolutionInstance, StaticDirectory, WebChannelKey
from services.gateway.edge.evolution.auth import mint_webhook_jwt
from services.gateway.edge.http import Edge, EdgeLimits, create_edge_router
from tests.gateway.edge.evolution_fixtures import load_fixture
from tests.gateway.edge.runtime_double import RuntimeSinkDouble

ORG = "6f1d3c1e-8a55-4c55-9a59-3a0c2d0e5b11"
TOKEN = "B5F4E3A2-1C0D-4E9F-8A7B-6C5D4E3F2A1B"
JWT_KEY = "chave-jwt-do-webhook-0123456789"


class Served:
    def __init__(self, sink: RuntimeSinkDouble, url: str) -> None:
        self.sink, self.url = sink, url


@pytest.fixture
async def served() -> AsyncIterator[Served]:
    sink = RuntimeSinkDouble()
    directory = StaticDirectory(
        [EvolutionInstance("atendimento", ORG, "http://127.0.0.1:9", TOKEN, jwt_key=JWT_KEY)],
        [("bk_test_key", WebChannelKey(ORG, "k1"))],
    )
    app = FastAPI()
    app.include_router(create_edge_router(Edge(directory, sink, limits=EdgeLimits(webhook_max_body_bytes=256 * 1024))))
    server = uvicorn.Server(
        uvicorn.Config(app, host="127.0.0.1", port=0, log_config=None, access_log=False, lifespan="off", ws="none")
    )
    task = asyncio.create_task(server.serve())
    while not server.started:
        assert not task.done(), "uvicorn stopped during start-up"
        await asyncio.sleep(0.02)
    port = server.servers[0].sockets[0].getsockname()[1]
    yield Served(sink, f"http://127.0.0.1:{port}")
    server.should_exit = True
    await task


def jwt() -> dict[str, str]:
    return {"authorization": f"Bearer {mint_webhook_jwt(JWT_KEY)}", "content-type": "application/json"}


async def test_webhook_redelivered_over_http_is_stored_once(served: Served) -> None:
    body = json.dumps(load_fixture("01"))
    async with httpx2.AsyncClient(base_url=served.url) as http:
        answers = [await http.post("/webhooks/evolution", content=body, headers=jwt()) for _ in range(3)]
    assert [a.status_code for a in answers] == [200, 200, 200]
    assert [a.json()["accepted"] for a in answers] == [1, 0, 0]
    assert len(served.sink.stored) == 1


async def test_bad_requests_over_http_are_json_4xx_and_store_nothing(served: Served) -> None:
    async with httpx2.AsyncClient(base_url=served.url) as http:
        huge = await http.post("/webhooks/evolution", content=b"[" + b" " * (300 * 1024) + b"]", headers=jwt())
        broken = await http.post("/webhooks/evolution", content=b'{"event":', headers=jwt())
        anonymous = await http.post("/webhooks/evolution", content=json.dumps(load_fixture("01")))
        web = await http.post("/v1/web/messages", json={"message": "oi"}, headers={"x-api-key": "bk_test_key"})
    assert (huge.status_code, huge.json()["code"]) == (413, "body_too_large")
    assert (broken.status_code, broken.json()["code"]) == (400, "malformed_json")
    assert (anonymous.status_code, anonymous.json()["code"]) == (401, "unauthenticated")
    assert (web.status_code, web.json()["code"]) == (400, "invalid_argument")
    assert served.sink.stored == []
