"""The batched way for role-off turns: one read and one write to crm for a whole claimed batch.

With the role off the registration is a deterministic translation of the declaração (seed 002
§2.1), so it can be planned without calling anything: the batch's contacts, checkpoints and
obligations come from one BatchGetClosedTurns, each turn's writes are planned by the same code
as the single way (`Processor.plan`), and crm makes them all with one RegisterTurnBasics, in
one transaction that also completes each registered turn's event under its lease. Whatever does
not fit (role on, a malformed event, an unknown contact, a write crm would refuse, crm
unreachable) is handed back and runs the single way, where it behaves exactly as it always did
(refusals, inbox items, retries, dead letters).

`prepare` (read and plan) and `register` (the write) are separate steps so that a worker can
prepare its next batch while the current one is being registered.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field

import grpc

from balcao.crm.v1 import crm_read_pb2 as cr
from balcao.crm.v1 import crm_resources_pb2 as r
from balcao.crm.v1 import crm_write_pb2 as cw
from balcao.crm.v1 import event_queue_pb2 as eq
from balcao.operador.v1 import operador_pb2 as pb
from services.operador.context import MalformedEvent, TurnContext, assemble, ids_of, organizations
from services.operador.processing import Processor

log = logging.getLogger(__name__)

COMPLETED = frozenset({eq.LEASE_OUTCOME_COMPLETED, eq.LEASE_OUTCOME_ALREADY_COMPLETED})


@dataclass
class BatchResult:
    done: list[r.Event] = field(default_factory=list)  # registered now or before: complete them
    completed: list[r.Event] = field(default_factory=list)  # registered and completed in the same transaction
    lost: list[r.Event] = field(default_factory=list)  # registered, but the lease had expired: another's now
    single: list[r.Event] = field(default_factory=list)  # run these the single way
    responses: dict[str, pb.RunEventResponse] = field(default_factory=dict)


@dataclass
class Prepared:
    """A batch read and planned, waiting for its RegisterTurnBasics."""

    result: BatchResult
    request: cw.RegisterTurnBasicsRequest = field(default_factory=cw.RegisterTurnBasicsRequest)
    planned: list[tuple[r.Event, pb.RunEventResponse, dict[str, int]]] = field(default_factory=list)


async def run(processor: Processor, events: list[r.Event]) -> BatchResult:
    return await register(processor, await prepare(processor, events))


async def prepare(processor: Processor, events: list[r.Event]) -> Prepared:
    prepared = Prepared(BatchResult())
    result = prepared.result
    peers = processor.peers
    candidates: list[tuple[r.Event, r.Organization, str, str]] = []
    for event in events:
        try:
            # The two ids straight from the Struct (MessageToDict of the whole payload cost more than the plan).
            turn_id, contact_id = ids_of({k: event.payload[k] for k in ('turn_id', 'contact_id') if k in event.payload})
            organization = await organizations.get(peers, event.organization_id)
        except (MalformedEvent, grpc.aio.AioRpcError):
            result.single.append(event)  # the single way reports it as it always did
            continue
        if organization.settings.roles.operador_enabled:
            result.single.append(event)
        else:
            candidates.append((event, organization, turn_id, contact_id))
    if not candidates:
        return prepared
    try:
        read = await peers.crm_read.BatchGetClosedTurns(cr.BatchGetClosedTurnsRequest(turns=[
            cr.ClosedTurnRef(organization_id=e.organization_id, contact_id=contact, turn_id=turn)
            for e, _, turn, contact in candidates]), timeout=peers.timeout)
    except grpc.aio.AioRpcError as error:
        log.warning("batched read failed; the single way", extra={"error": str(error)})
        result.single += [c[0] for c in candidates]
        return prepared

    for (event, organization, turn_id, _), turn in zip(candidates, read.turns, strict=True):
        if not turn.HasField("contact"):
            result.single.append(event)  # the single way turns an unknown contact into a dead letter
            continue
        context: TurnContext = assemble(event.event_id, organization, turn_id, turn.contact,
                                        turn.checkpoint if turn.HasField("checkpoint") else None,
                                        list(turn.obligations))
        item, response, counts = await processor.plan(context, into=prepared.request.turns.add())
        if event.HasField("lease"):
            item.lease_token = event.lease.token  # crm completes the event with the registration
        prepared.planned.append((event, response, counts))
    return prepared


async def register(processor: Processor, prepared: Prepared) -> BatchResult:
    result, planned, peers = prepared.result, prepared.planned, processor.peers
    if not planned:
        return result
    try:
        written = await peers.crm_write.RegisterTurnBasics(prepared.request, timeout=peers.timeout)
    except grpc.aio.AioRpcError as error:
        log.warning("batched registration failed; the single way", extra={"error": str(error)})
        result.single += [p[0] for p in planned]
        return result
    for (event, response, counts), outcome in zip(planned, written.results, strict=True):
        if outcome.status == cw.TURN_BASICS_STATUS_NOT_APPLIED:
            log.info("turn left to the single way", extra={"event_id": event.event_id, "why": outcome.detail})
            result.single.append(event)
            continue
        if outcome.status == cw.TURN_BASICS_STATUS_APPLIED:
            processor.metrics.add(event.organization_id, **counts)
        result.responses[event.event_id] = response
        if outcome.completion in COMPLETED:
            result.completed.append(event)
        elif outcome.completion == eq.LEASE_OUTCOME_LEASE_LOST:
            result.lost.append(event)  # registered; whoever holds the event now replays these writes
        else:
            result.done.append(event)
    return result
