"""Benchmark: the whole deterministic gate chain over a 1 KB message, and the gRPC round trip beside it.

1. In-process: `Chain.review` with a frozen configuration (no crm read), the model reviewer off,
   over a realistic 1 KB reply that exercises the expensive paths (an authorised price, a booking
   claim checked against a confirmed booking, a public phone, dates and times). The sender's
   history slides by one new message per review, as it does in production (one cache miss each).
2. gRPC: ReviewOutbound on a seguranca server started in-process (port 0) with the same static
   configuration, over a local channel: the round trip without the crm read.
3. With `--mesh`: the same call through a real mesh (`balcao up`, embedded PostgreSQL), where
   seguranca reads the organisation from crm on every review.

Prints a readable table, then one JSON line (the last line) with the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
import time
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path

import grpc

from balcao.kit.identity import mint_token
from balcao.kit.server import create_server
from balcao.seguranca.v1 import seguranca_pb2 as pb
from balcao.seguranca.v1 import seguranca_pb2_grpc
from services.seguranca.chain import Chain
from services.seguranca.config import Settings
from services.seguranca.facts import (
    AuthorisedFacts,
    Channel,
    ConfirmedBooking,
    Contact,
    Evidence,
    History,
    OrganizationConfig,
    Outbound,
    PublicContacts,
    SentMessage,
)
from services.seguranca.organizations import StaticOrganizations
from services.seguranca.server import build
from services.seguranca.vocabulary import contract_index

TARGET_CHAIN_P50_US = 200.0
ORGANIZATION = "7b0f8c52-2f43-4f0e-9a4d-0d8f8e2a1c11"
SECRET = b"bench-gates-secret-0123456789abcdef"

MESSAGE = (
    "Olá, Maria! Tudo bem? Sua avaliação está confirmada para terça-feira, 10/03, às 10h, com a Dra. Ana "
    "Ribeiro, na unidade Centro (Rua das Flores, 123, sala 4). O valor da avaliação é R$ 280,00 e você pode "
    "pagar no dia, no Pix ou no cartão. Se precisar remarcar, é só responder por aqui ou ligar para a "
    "recepção no (11) 3456-7890, de segunda a sexta, das 8h às 18h. Para aproveitar bem a consulta, traga "
    "seus exames anteriores, a lista dos remédios que usa e um documento com foto; se fizer uso de aparelho "
    "ortodôntico, traga também a última documentação. Chegue uns quinze minutos antes para o cadastro na "
    "recepção. A avaliação dura cerca de quarenta minutos: a doutora examina, tira as dúvidas e explica as "
    "opções de tratamento com calma, sem compromisso de fechar nada no dia. Temos estacionamento conveniado "
    "ao lado do prédio e, se vier de metrô, a estação mais próxima fica a duas quadras. Se tiver alguma "
    "alergia ou estiver grávida, avise a doutora no início da consulta. Qualquer dúvida até lá, estou por "
    "aqui para ajudar. Até terça!"
)
CONFIG = OrganizationConfig(
    business_name="Clínica Sorriso",
    time_zone="America/Sao_Paulo",
    public_contacts=PublicContacts(phones=("+551134567890",), emails=("contato@clinicasorriso.com.br",)),
    authorised=AuthorisedFacts(price_cents=frozenset({28000}), max_instalments=3),
    vocabulary_additions=("Sistema Vega",),
)
NOW = datetime(2026, 3, 5, 18, 0, tzinfo=UTC)
BOOKING = ConfirmedBooking(datetime(2026, 3, 10, 13, 0, tzinfo=UTC), "America/Sao_Paulo", service="Avaliação")


def _history(i: int) -> History:
    sent = tuple(
        SentMessage(f"Mensagem {n}: confirmamos o recebimento do seu pedido e seguimos à disposição.")
        for n in range(i, i + 20)
    )
    return History(from_sender=sent, sent_today_from_sender=40)


def _outbound(i: int) -> Outbound:
    return Outbound(
        draft=MESSAGE,
        contact=Contact(phone="+5511912345678", name="Maria"),
        channel=Channel(name="whatsapp_evolution", max_text_chars=4096, sender="+551130000000"),
        history=_history(i),
        evidence=Evidence(bookings=(BOOKING,), agenda_readable=True, agenda_consulted=True),
    )


def _percentile(samples: list[float], fraction: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


async def bench_chain(iterations: int) -> dict[str, float]:
    chain = Chain(vocabulary=contract_index())
    inputs = [_outbound(i) for i in range(iterations + 200)]
    first = await chain.review(CONFIG, inputs[0], NOW)
    if not first.approved:
        raise SystemExit(f"the bench message should be approved, got {[v.code for v in first.vetoes]}")
    for outbound in inputs[:200]:  # warm-up
        await chain.review(CONFIG, outbound, NOW)
    samples = []
    cpu = []
    for outbound in inputs[200:]:
        started, started_cpu = time.perf_counter_ns(), time.thread_time_ns()
        await chain.review(CONFIG, outbound, NOW)
        cpu.append((time.thread_time_ns() - started_cpu) / 1000)
        samples.append((time.perf_counter_ns() - started) / 1000)
    return {
        "p50": statistics.median(samples),
        "p99": _percentile(samples, 0.99),
        "min": min(samples),
        "cpu_p50": statistics.median(cpu),
    }


def _request(i: int, organization: str) -> pb.ReviewOutboundRequest:
    request = pb.ReviewOutboundRequest(
        organization_id=organization,
        contact_id="5f2e1d0c-9b8a-4766-8544-332211009988",
        turn_id=str(uuid.uuid4()),
        kind=pb.OUTBOUND_KIND_REPLY,
        attempt=1,
        draft=MESSAGE,
        contact=pb.ContactFacts(phone="+5511912345678", name="Maria"),
        channel=pb.ChannelFacts(name="whatsapp_evolution", max_text_chars=4096, sender="+551130000000"),
        organization=pb.OrganizationFacts(
            time_zone="America/Sao_Paulo",
            public_contacts=[pb.PublicContact(kind=pb.PUBLIC_CONTACT_KIND_PHONE, value="+551134567890")],
            authorised_commercial_facts=[
                pb.CommercialFact(kind=pb.COMMERCIAL_FACT_KIND_PRICE, subject="Avaliação", amount_cents=28000)
            ],
        ),
        history=pb.SendingHistory(
            from_sender=[pb.SentMessage(text=m.text) for m in _history(i).from_sender], sent_today_from_sender=40
        ),
        evidence=pb.Evidence(agenda_readable=True, agenda_consulted=True),
    )
    booking = request.evidence.evidencias_agendamento.add(time_zone="America/Sao_Paulo", service="Avaliação")
    # A booking next Tuesday at 10:00 São Paulo time, whatever today is, so the claim stays true.
    today = datetime.now(UTC) - timedelta(hours=3)
    tuesday = today + timedelta(days=(1 - today.weekday()) % 7 or 7)
    starts = datetime(tuesday.year, tuesday.month, tuesday.day, 13, 0, tzinfo=UTC)
    booking.starts_at.FromDatetime(starts)
    request.draft = MESSAGE.replace("10/03", starts.strftime("%d/%m"))
    return request


async def _round_trips(address: str, token: str, organization: str, iterations: int) -> dict[str, float]:
    metadata = (("authorization", f"Bearer {token}"),)
    requests = [_request(i, organization) for i in range(iterations + 50)]
    async with grpc.aio.insecure_channel(address) as channel:
        stub = seguranca_pb2_grpc.SegurancaServiceStub(channel)
        first = await stub.ReviewOutbound(requests[0], metadata=metadata, timeout=10)
        if first.WhichOneof("decision") != "approved":
            raise SystemExit(f"the bench message should be approved over gRPC, got {first}")
        for request in requests[:50]:
            await stub.ReviewOutbound(request, metadata=metadata, timeout=10)
        samples = []
        for request in requests[50:]:
            started = time.perf_counter_ns()
            await stub.ReviewOutbound(request, metadata=metadata, timeout=10)
            samples.append((time.perf_counter_ns() - started) / 1_000_000)
    return {"p50": statistics.median(samples), "p99": _percentile(samples, 0.99)}


async def bench_grpc(iterations: int) -> dict[str, float]:
    definition = build(
        Settings(mesh_secret=SECRET.decode()),
        None,  # type: ignore[arg-type]  # seguranca owns no database
        organizations=StaticOrganizations({ORGANIZATION: CONFIG}),
    )
    running = await create_server(definition, secret=SECRET, host="127.0.0.1", port=0)
    await running.set_serving(True)
    try:
        return await _round_trips(f"127.0.0.1:{running.port}", mint_token(SECRET, "gateway"), ORGANIZATION, iterations)
    finally:
        await running.server.stop(0)


async def bench_mesh(iterations: int) -> dict[str, float]:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from balcao.crm.v1 import crm_resources_pb2 as crm
    from balcao.crm.v1 import crm_write_pb2, crm_write_pb2_grpc
    from tests.support.mesh import start_mesh, stop_mesh

    mesh = start_mesh(Path(tempfile.mkdtemp(prefix="bench-gates-")))
    try:
        token = mesh.token("gateway")
        async with grpc.aio.insecure_channel(mesh.addr("crm")) as channel:
            created = await crm_write_pb2_grpc.CrmWriteServiceStub(channel).UpsertOrganization(
                crm_write_pb2.UpsertOrganizationRequest(
                    name="Clínica Sorriso",
                    time_zone="America/Sao_Paulo",
                    initial_settings=crm.OrganizationSettings(
                        business=crm.BusinessProfile(display_name="Clínica Sorriso", public_phones=["+551134567890"]),
                        commercial=crm.CommercialFacts(
                            prices=[crm.PriceEntry(item="Avaliação", price=crm.Money(amount_minor=28000))]
                        ),
                    ),
                ),
                metadata=(("authorization", f"Bearer {token}"),),
                timeout=10,
            )
        return await _round_trips(mesh.addr("seguranca"), token, created.organization.organization_id, iterations)
    finally:
        stop_mesh(mesh)


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=3000)
    parser.add_argument("--grpc-iterations", type=int, default=500)
    parser.add_argument("--mesh", action="store_true", help="also measure through a real mesh (crm read included)")
    args = parser.parse_args()

    chain = await bench_chain(args.iterations)
    rpc = await bench_grpc(args.grpc_iterations)
    mesh = await bench_mesh(args.grpc_iterations) if args.mesh else None

    print(f"gate chain over a {len(MESSAGE)}-character message ({args.iterations} reviews)")
    print(f"{'measure':<44} {'p50':>10} {'p99':>10}")
    print(f"{'chain in-process (µs)':<44} {chain['p50']:>10.1f} {chain['p99']:>10.1f}")
    print(f"{'chain in-process, CPU time of the thread (µs)':<44} {chain['cpu_p50']:>10.1f} {'':>10}")
    print(f"{'gRPC round trip, static config (ms)':<44} {rpc['p50']:>10.2f} {rpc['p99']:>10.2f}")
    if mesh is not None:
        print(f"{'gRPC round trip through the mesh (ms)':<44} {mesh['p50']:>10.2f} {mesh['p99']:>10.2f}")
    load = os.getloadavg()[0]
    print(f"target: chain p50 ≤ {TARGET_CHAIN_P50_US:.0f} µs (fastest review: {chain['min']:.1f} µs)")
    print(f"machine: {os.cpu_count()} CPUs, load average {load:.2f} during the run")
    figures: dict[str, object] = {
        "bench": "gates",
        "message_chars": len(MESSAGE),
        "chain_p50_us": round(chain["p50"], 1),
        "chain_p99_us": round(chain["p99"], 1),
        "chain_cpu_p50_us": round(chain["cpu_p50"], 1),
        "grpc_p50_ms": round(rpc["p50"], 3),
        "grpc_p99_ms": round(rpc["p99"], 3),
    }
    if mesh is not None:
        figures["mesh_grpc_p50_ms"] = round(mesh["p50"], 3)
        figures["mesh_grpc_p99_ms"] = round(mesh["p99"], 3)
    figures["load_average"] = round(load, 2)
    figures["targets"] = {"chain_p50_us": TARGET_CHAIN_P50_US}
    figures["met"] = chain["p50"] <= TARGET_CHAIN_P50_US
    print(json.dumps(figures, ensure_ascii=False))


if __name__ == "__main__":
    asyncio.run(main())
