"""The offline model through the whole mesh, as the README's demo uses it: several customers of one
business asking the same things, a customer opting out on first contact, gibberish, slot lists.

The mesh's Conversador runs the offline model (no `ANTHROPIC_API_KEY`) and Segurança judges every
reply for real, so a reply that only repeats what the business's number just sent someone else is
vetoed (the `repetition` gate) and must be revised into a different wording, not handed to a person.
"""

from __future__ import annotations

import os

import pytest

from balcao.crm.v1 import crm_resources_pb2 as r
from balcao.gateway.v1 import gateway_pb2 as gw
from services.seguranca.gates.repetition import THRESHOLD, jaccard, tokens
from tests.gateway import support
from tests.support.mesh import RunningMesh

pytestmark = pytest.mark.skipif(
    bool(os.environ.get("ANTHROPIC_API_KEY")),
    reason="the mesh would talk to a real model; these expect the offline one",
)

HOURS = "segunda a sexta, das 8h às 18h; sábados, das 8h às 12h"
ADDRESS = "Rua das Flores, 123, Centro, Campinas"


async def _business(mesh: RunningMesh, prefix: str) -> support.Org:
    settings = r.OrganizationSettings(
        business=r.BusinessProfile(display_name=prefix, address=ADDRESS, opening_hours_text=HOURS),
        commercial=r.CommercialFacts(
            prices=[r.PriceEntry(item="Consulta de avaliação", price=r.Money(amount_minor=15000, currency="BRL"))]
        ),
    )
    return await support.create_org(mesh, name=support.org_name(prefix), settings=settings)


def _text(turn: gw.TurnResult) -> str:
    return "\n".join(p.text for p in turn.reply_parts)


async def _three_customers_ask(
    mesh: RunningMesh, client: support.Client, org: support.Org, question: str
) -> list[gw.TurnResult]:
    turns = []
    for _ in range(3):
        phone = support.new_phone()
        hello = await client.say(org, phone, "oi")  # the first message carries the introduction
        assert hello.outcome == gw.TURN_OUTCOME_REPLIED
        turn = await client.say(org, phone, question)
        assert turn.status == gw.TURN_STATUS_DONE
        turns.append(turn)
    return turns


async def test_customers_asking_the_same_question_each_get_the_facts_in_other_words(
    mesh: RunningMesh, client: support.Client
) -> None:
    org = await _business(mesh, "Clínica Repete")
    turns = await _three_customers_ask(mesh, client, org, "Qual o horário de atendimento de vocês?")

    texts = [_text(t) for t in turns]
    for turn, text in zip(turns, texts, strict=True):
        assert turn.outcome == gw.TURN_OUTCOME_REPLIED, text
        assert HOURS in text  # the owner's own words, each time
        assert "equipe" not in text  # no holding reply, nobody handed over
        assert await support.human_cases(mesh, org, turn.contact_id) == []
    for i, text in enumerate(texts):
        for earlier in texts[:i]:
            assert jaccard(tokens(text), tokens(earlier)) < THRESHOLD


async def test_customers_asking_for_free_times_each_get_the_list_and_it_is_uncluttered(
    mesh: RunningMesh, client: support.Client
) -> None:
    org = await _business(mesh, "Clínica Agenda Cheia")
    _ana, service_id = await support.agenda_for(mesh, org)
    await support.add_professional(mesh, org, "Dr. Bruno Lima", service_id)
    turns = await _three_customers_ask(mesh, client, org, "Tem horário livre amanhã para consulta de avaliação?")

    texts = [_text(t) for t in turns]
    for turn, text in zip(turns, texts, strict=True):
        assert turn.outcome == gw.TURN_OUTCOME_REPLIED, text
        assert await support.human_cases(mesh, org, turn.contact_id) == []
        slots = [line for line in text.splitlines() if line.startswith("- ")]
        assert slots, text
        # Both professionals free at each time, on one line; each time once; the zone said once.
        for line in slots:
            assert set(line.split(" — ")[1].split(" ou ")) == {"Dra. Ana Souza", "Dr. Bruno Lima"}, text
        assert len({line.split(" — ")[0] for line in slots}) == len(slots)
        assert text.count("horário de Brasília") == 1, text
    # Each customer reads the same free times.
    assert len({tuple(line for line in text.splitlines() if line.startswith("- ")) for text in texts}) == 1


async def test_pare_on_a_first_contact_is_confirmed_without_the_assistants_introduction(
    mesh: RunningMesh, client: support.Client
) -> None:
    org = await _business(mesh, "Clínica Pare")

    stop = await client.say(org, support.new_phone(), "PARE")

    assert stop.outcome == gw.TURN_OUTCOME_OPT_OUT_CONFIRMED
    text = _text(stop)
    assert "não vai mais receber mensagens" in text
    assert "assistente virtual" not in text


async def test_gibberish_is_asked_again_in_other_words(mesh: RunningMesh, client: support.Client) -> None:
    org = await _business(mesh, "Clínica Ruído")
    phone = support.new_phone()
    await client.say(org, phone, "oi")

    turn = await client.say(org, phone, "asdkjh qwe zzzz")

    assert turn.outcome == gw.TURN_OUTCOME_REPLIED
    text = _text(turn)
    assert "de outro jeito" in text and "Não tenho essa informação" not in text
