"""A lead's stage set on behalf of a turn never goes back to an older turn's.

Several Operador replicas (or one after a retry) can register two closed turns of one contact out
of order. crm compares each turn's checkpoint `seq` with the marker on `lead_state` and leaves the
stage alone, with a timeline line saying why, when a newer turn (or a person, after the turn
closed) already set it.

The turns' checkpoints are written directly (the owner's SQL) rather than through CloseTurn: a
closed turn publishes `turn_closed`, and the mesh's own Operador would register it meanwhile.
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

import sqlalchemy as sa
from sqlalchemy.ext.asyncio import AsyncEngine

from balcao.crm.v1 import crm_read_pb2 as rd
from balcao.crm.v1 import crm_resources_pb2 as r
from balcao.crm.v1 import crm_write_pb2 as wr
from services.crm.leads import KEPT_BY_PERSON, KEPT_BY_TURN
from tests.crm.conftest import Crm, row_counts
from tests.crm.test_turn_basics import RULES, _basics, _turn
from tests.crm.test_turn_basics import operador as operador  # the fixture

PERSON = r.Actor(kind=r.ACTOR_KIND_PERSON, name="Dona Ana")


async def _closed(crm: Crm, engine: AsyncEngine, org: str, contact: str) -> str:
    """A turn with its execution record and its checkpoint at the contact's next `seq`, as CloseTurn numbers it."""
    turn = await _turn(crm, org, contact)
    async with engine.begin() as conn:
        seq = (await conn.execute(sa.text(
            "INSERT INTO crm.lead_checkpoint_counters (organization_id, contact_id, last_seq) "
            "VALUES (:org, :contact, 1) ON CONFLICT (organization_id, contact_id) "
            "DO UPDATE SET last_seq = crm.lead_checkpoint_counters.last_seq + 1 RETURNING last_seq"),
            {"org": org, "contact": contact})).scalar_one()
        await conn.execute(sa.text(
            "INSERT INTO crm.lead_checkpoints (organization_id, contact_id, seq, turn_id, created_at) "
            "VALUES (:org, :contact, :seq, :turn, :now)"),
            {"org": org, "contact": contact, "seq": seq, "turn": turn, "now": datetime.now(UTC)})
    return turn


def _move(org: str, contact: str, stage: str, turn: str = "", *, actor: r.Actor = RULES,
          key: str | None = None) -> wr.UpdateLeadStateRequest:
    return wr.UpdateLeadStateRequest(organization_id=org, contact_id=contact, stage_key=stage, reason="intenção",
                                     source_turn_id=turn, actor=actor, idempotency_key=key or str(uuid.uuid4()))


async def _stage(crm: Crm, org: str, contact: str) -> str:
    return (await crm.read.GetLeadState(rd.GetLeadStateRequest(organization_id=org, contact_id=contact),
                                        metadata=crm.metadata)).lead_state.stage_key


async def _lines(crm: Crm, org: str, contact: str) -> list[r.LeadActivity]:
    """The timeline, oldest first."""
    page = await crm.read.ListActivities(rd.ListActivitiesRequest(organization_id=org, contact_id=contact,
                                                                  page_size=100), metadata=crm.metadata)
    return list(reversed(page.activities))


async def test_an_older_turn_registered_after_a_newer_one_leaves_the_newer_stage_and_says_why(
        crm: Crm, operador: Crm, owner_engine: AsyncEngine) -> None:
    org = await crm.org()
    contact = await crm.contact(org)
    older, newer = await _closed(crm, owner_engine, org, contact), await _closed(crm, owner_engine, org, contact)

    moved = await operador.write.UpdateLeadState(_move(org, contact, "scheduled", newer), metadata=operador.metadata)
    assert moved.lead_state.stage_key == "scheduled"
    late = _move(org, contact, "qualifying", older)
    kept = await operador.write.UpdateLeadState(late, metadata=operador.metadata)

    # The answer is the state as it stays (not a refusal: the Operador did nothing wrong).
    assert not kept.HasField("refusal")
    assert kept.lead_state.stage_key == "scheduled" and kept.lead_state.source_turn_id == newer
    assert await _stage(crm, org, contact) == "scheduled"
    lines = await _lines(crm, org, contact)
    assert [a.kind for a in lines] == [r.ACTIVITY_KIND_STAGE_CHANGED, r.ACTIVITY_KIND_OTHER]
    assert lines[1].summary_pt.startswith(KEPT_BY_TURN) and "Agendado" in lines[1].summary_pt
    assert "Em atendimento" in lines[1].summary_pt and lines[1].turn_id == older

    # The same call again (a retry) replays: no second line.
    again = await operador.write.UpdateLeadState(late, metadata=operador.metadata)
    assert again.replayed and again.lead_state.stage_key == "scheduled"
    assert len(await _lines(crm, org, contact)) == 2

    # A turn closed after both moves the stage again; the same turn may set it twice.
    latest = await _closed(crm, owner_engine, org, contact)
    await operador.write.UpdateLeadState(_move(org, contact, "lost", latest), metadata=operador.metadata)
    assert await _stage(crm, org, contact) == "lost"
    await operador.write.UpdateLeadState(_move(org, contact, "won", latest), metadata=operador.metadata)
    assert await _stage(crm, org, contact) == "won"


async def test_a_person_always_moves_the_stage_and_turns_closed_before_it_do_not_undo_it(
        crm: Crm, operador: Crm, owner_engine: AsyncEngine) -> None:
    org = await crm.org()
    contact = await crm.contact(org)
    older, newer = await _closed(crm, owner_engine, org, contact), await _closed(crm, owner_engine, org, contact)
    await operador.write.UpdateLeadState(_move(org, contact, "scheduled", newer), metadata=operador.metadata)

    # A person (the admin UI names no turn) moves it, over the newest turn's stage.
    person = await crm.write.UpdateLeadState(_move(org, contact, "won", actor=PERSON), metadata=crm.metadata)
    assert person.lead_state.stage_key == "won"
    # The older turn, registered late, is older than the person's decision too.
    await operador.write.UpdateLeadState(_move(org, contact, "qualifying", older), metadata=operador.metadata)
    assert await _stage(crm, org, contact) == "won"
    assert (await _lines(crm, org, contact))[-1].summary_pt.startswith(KEPT_BY_PERSON)
    # A person again: applies whatever the turns did.
    await crm.write.UpdateLeadState(_move(org, contact, "lost", actor=PERSON), metadata=crm.metadata)
    assert await _stage(crm, org, contact) == "lost"
    # A conversation after the person's change moves it.
    after = await _closed(crm, owner_engine, org, contact)
    await operador.write.UpdateLeadState(_move(org, contact, "qualifying", after), metadata=operador.metadata)
    assert await _stage(crm, org, contact) == "qualifying"


async def test_a_state_from_before_the_marker_may_be_set_by_any_turn(
        crm: Crm, operador: Crm, owner_engine: AsyncEngine) -> None:
    org = await crm.org()
    contact = await crm.contact(org)
    older, newer = await _closed(crm, owner_engine, org, contact), await _closed(crm, owner_engine, org, contact)
    await operador.write.UpdateLeadState(_move(org, contact, "scheduled", newer), metadata=operador.metadata)
    async with owner_engine.begin() as conn:  # as rows written before crm_0004 are
        await conn.execute(sa.text("UPDATE crm.lead_state SET source_seq = NULL WHERE organization_id = :org"),
                           {"org": org})
    await operador.write.UpdateLeadState(_move(org, contact, "qualifying", older), metadata=operador.metadata)
    assert await _stage(crm, org, contact) == "qualifying"


async def test_in_one_batch_the_newest_turn_wins_in_either_order_and_a_replay_changes_nothing(
        crm: Crm, operador: Crm, owner_engine: AsyncEngine) -> None:
    org = await crm.org()
    forward, backward = await crm.contact(org), await crm.contact(org)
    turns = {c: [await _closed(crm, owner_engine, org, c) for _ in range(2)] for c in (forward, backward)}
    request = wr.RegisterTurnBasicsRequest(turns=[
        _basics(org, forward, turns[forward][0], stage="qualifying"),
        _basics(org, forward, turns[forward][1], stage="scheduled"),
        _basics(org, backward, turns[backward][1], stage="scheduled"),
        _basics(org, backward, turns[backward][0], stage="qualifying"),
    ])
    reply = await operador.write.RegisterTurnBasics(request, metadata=operador.metadata)
    assert [x.status for x in reply.results] == [wr.TURN_BASICS_STATUS_APPLIED] * 4
    assert await _stage(crm, org, forward) == "scheduled"
    assert await _stage(crm, org, backward) == "scheduled"
    # In order: two real changes. Newest first: one change, then the older turn's line saying why not.
    changes = [a for a in await _lines(crm, org, forward) if a.kind == r.ACTIVITY_KIND_STAGE_CHANGED]
    assert len(changes) == 2
    lines = await _lines(crm, org, backward)
    assert [a.kind for a in lines if a.kind == r.ACTIVITY_KIND_STAGE_CHANGED] == [r.ACTIVITY_KIND_STAGE_CHANGED]
    kept = [a for a in lines if a.summary_pt.startswith(KEPT_BY_TURN)]
    assert len(kept) == 1 and kept[0].turn_id == turns[backward][0]
    # The older turn's stored response is the state as it stays: its single RPC replays it.
    single = await operador.write.UpdateLeadState(request.turns[3].writes[0].update_lead_state,
                                                  metadata=operador.metadata)
    assert single.replayed and single.lead_state.stage_key == "scheduled"
    assert single.lead_state.source_turn_id == turns[backward][1]

    before = await row_counts(owner_engine, org)
    again = await operador.write.RegisterTurnBasics(request, metadata=operador.metadata)
    assert [x.status for x in again.results] == [wr.TURN_BASICS_STATUS_REPLAYED] * 4
    assert await row_counts(owner_engine, org) == before


async def test_a_batch_leaves_a_newer_stored_stage_alone_and_says_why(
        crm: Crm, operador: Crm, owner_engine: AsyncEngine) -> None:
    org = await crm.org()
    contact = await crm.contact(org)
    older, newer = await _closed(crm, owner_engine, org, contact), await _closed(crm, owner_engine, org, contact)
    first = await operador.write.RegisterTurnBasics(wr.RegisterTurnBasicsRequest(
        turns=[_basics(org, contact, newer, stage="scheduled")]), metadata=operador.metadata)
    assert first.results[0].status == wr.TURN_BASICS_STATUS_APPLIED
    late = _basics(org, contact, older, stage="qualifying")
    reply = await operador.write.RegisterTurnBasics(wr.RegisterTurnBasicsRequest(turns=[late]),
                                                    metadata=operador.metadata)
    assert reply.results[0].status == wr.TURN_BASICS_STATUS_APPLIED  # its other writes stand
    assert await _stage(crm, org, contact) == "scheduled"
    lines = await _lines(crm, org, contact)
    kept = [a for a in lines if a.summary_pt.startswith(KEPT_BY_TURN)]
    assert len(kept) == 1 and kept[0].turn_id == older and "Agendado" in kept[0].summary_pt
    single = await operador.write.UpdateLeadState(late.writes[0].update_lead_state, metadata=operador.metadata)
    assert single.replayed and single.lead_state.stage_key == "scheduled"
    assert single.lead_state.source_turn_id == newer
    # A person's change in between, then a batch of a turn closed before it: the person's stage stays.
    await crm.write.UpdateLeadState(_move(org, contact, "won", actor=PERSON), metadata=crm.metadata)
    stale = await operador.write.RegisterTurnBasics(wr.RegisterTurnBasicsRequest(
        turns=[_basics(org, contact, newer, stage="lost")]), metadata=operador.metadata)
    assert stale.results[0].status == wr.TURN_BASICS_STATUS_APPLIED
    assert await _stage(crm, org, contact) == "won"
    assert (await _lines(crm, org, contact))[-2].summary_pt.startswith(KEPT_BY_PERSON)
