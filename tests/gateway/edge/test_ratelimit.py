"""Rate limits of the HTTP edge: per contact and per organisation, 429 with Retry-After, nothing stored."""

from __future__ import annotations

import json
import uuid
from typing import Any

import httpx2
from fastapi import FastAPI

from services.gateway.edge.directory import EvolutionInstance, StaticDirectory, WebChannelKey
from services.gateway.edge.http import Edge, create_edge_router
from services.gateway.edge.ratelimit import RateLimiter
from tests.gateway.edge.evolution_fixtures import load_fixture
from tests.gateway.edge.runtime_double import RuntimeSinkDouble

ORG = "6f1d3c1e-8a55-4c55-9a59-3a0c2d0e5b11"
TOKEN = "B5F4E3A2-1C0D-4E9F-8A7B-6C5D4E3F2A1B"
SECRET = "segredo-do-webhook-0123456789"


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_contact_over_its_rate_waits_and_others_do_not() -> None:
    clock = Clock()
    limiter = RateLimiter(contact_per_minute=3, organization_per_minute=100, clock=clock)
    ana = RateLimiter.keys("org", ["+5511911111111"])
    bia = RateLimiter.keys("org", ["+5511922222222"])
    assert [limiter.acquire(ana) for _ in range(3)] == [0.0, 0.0, 0.0]
    assert limiter.acquire(ana) == 20.0  # one token comes back every 60/3 seconds
    assert limiter.acquire(bia) == 0.0
    clock.now += 20
    assert limiter.acquire(ana) == 0.0 and limiter.acquire(ana) > 0


def test_the_organisation_rate_caps_all_its_contacts_and_a_refusal_takes_nothing() -> None:
    clock = Clock()
    limiter = RateLimiter(contact_per_minute=10, organization_per_minute=2, clock=clock)
    assert limiter.acquire(RateLimiter.keys("org", ["a"])) == 0.0
    assert limiter.acquire(RateLimiter.keys("org", ["b"])) == 0.0
    assert limiter.acquire(RateLimiter.keys("org", ["c"])) > 0
    assert limiter.acquire(RateLimiter.keys("other", ["c"])) == 0.0
    # Two messages at once when one token is left: refused whole, the token stays.
    clock.now += 30
    assert limiter.acquire(RateLimiter.keys("org", ["d", "e"])) > 0
    assert limiter.acquire(RateLimiter.keys("org", ["d"])) == 0.0


def test_zero_means_no_limit() -> None:
    limiter = RateLimiter(contact_per_minute=0, organization_per_minute=0)
    assert all(limiter.acquire(RateLimiter.keys("org", ["a"])) == 0.0 for _ in range(1000))


def _app(sink: RuntimeSinkDouble, limiter: RateLimiter) -> httpx2.AsyncClient:
    directory = StaticDirectory(
        [EvolutionInstance("atendimento", ORG, "http://127.0.0.1:9", TOKEN, webhook_secret=SECRET)],
        [("bk_key", WebChannelKey(ORG, "k1"))],
    )
    app = FastAPI()
    app.include_router(create_edge_router(Edge(directory, sink, rate_limiter=limiter)))
    return httpx2.AsyncClient(transport=httpx2.ASGITransport(app=app), base_url="http://edge")


def _message(text: str) -> dict[str, Any]:
    body = load_fixture("01")
    body["data"]["key"]["id"] = uuid.uuid4().hex[:20].upper()
    body["data"]["message"]["conversation"] = text
    return body


async def test_the_webhook_answers_429_over_the_contacts_rate_and_stores_nothing() -> None:
    sink = RuntimeSinkDouble()
    limiter = RateLimiter(contact_per_minute=2, organization_per_minute=100, clock=Clock())
    async with _app(sink, limiter) as http:
        headers = {"x-balcao-webhook-secret": SECRET, "content-type": "application/json"}
        answers = [
            await http.post("/webhooks/evolution", content=json.dumps(_message(f"msg {i}")), headers=headers)
            for i in range(3)
        ]
        web = [
            await http.post(
                "/v1/web/messages", json={"message": "oi", "phone": "+5511933333333"}, headers={"x-api-key": "bk_key"}
            )
            for _ in range(3)
        ]
    assert [a.status_code for a in answers] == [200, 200, 429]
    assert answers[2].json()["code"] == "rate_limited" and int(answers[2].headers["retry-after"]) >= 1
    assert [w.status_code for w in web] == [200, 200, 429]
    assert [m.text for m in sink.messages()] == ["msg 0", "msg 1", "oi", "oi"]
