"""The controller decides by rules, in seed 003 §4's order, before any model."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from services.gateway import controller as c

NOW = datetime(2026, 11, 30, 14, 0, tzinfo=UTC)
AGENDA = c.UnitInfo("u-agenda", "Agendamentos", "marcar consulta, remarcar, horários, agenda")
PRICES = c.UnitInfo("u-precos", "Financeiro", "valores, preços, pagamento, parcelamento, boleto")
RULES = c.Rules(
    handoff_phrases=("quero a doutora",),
    opt_out_phrases=("chega de mensagem",),
    hashtags={"#humano": c.Action(c.HANDOFF), "#precos": c.Action(c.FIXED_REPLY, reply_key="precos")},
    menu={"1": c.Action(c.ROUTE, unit_id="u-agenda"), "2": c.Action(c.FIXED_REPLY, reply_key="endereco")},
    catalog_keys=frozenset({"cancel_plan", "precos", "endereco"}),
    units=(AGENDA, PRICES),
    default_unit_id="u-agenda",
)


def decide(*texts: str, state: c.State | None = None, rules: c.Rules = RULES) -> c.Decision:
    return c.decide(list(texts), rules, state or c.State(), NOW)


@pytest.mark.parametrize("text", ["PARE", "sair", "Não quero mais receber mensagens", "pare!", "chega de mensagem"])
def test_opt_out_phrases_opt_out(text: str) -> None:
    decision = decide(text)
    assert decision.action.kind == c.OPT_OUT
    assert decision.reason == "opt_out_phrase"


@pytest.mark.parametrize("text", ["Quero parar de fumar, vocês ajudam?", "vou sair mais cedo hoje"])
def test_sentences_that_only_contain_the_words_are_not_opt_outs(text: str) -> None:
    assert decide(text).action.kind != c.OPT_OUT


@pytest.mark.parametrize(
    "text",
    ["quero falar com um atendente", "me passa para um humano", "Posso falar com uma pessoa?", "quero a doutora"],
)
def test_a_request_for_a_person_hands_off(text: str) -> None:
    decision = decide(text)
    assert (decision.action.kind, decision.reason) == (c.HANDOFF, "handoff_phrase")


def test_opt_out_beats_hand_off_in_one_burst() -> None:
    assert decide("quero falar com um atendente", "PARE").action.kind == c.OPT_OUT


def test_hashtags_follow_the_organisation_configuration() -> None:
    assert decide("#humano").action.kind == c.HANDOFF
    decision = decide("quanto custa? #PRECOS")
    assert (decision.action.kind, decision.action.reply_key, decision.reason) == (c.FIXED_REPLY, "precos", "hashtag")
    assert decide("#desconhecida").reason == "classifier"


def test_plan_cancellation_only_when_the_catalog_has_its_reply() -> None:
    assert decide("quero cancelar o meu plano").action.kind == c.CANCEL_PLAN
    rules = c.Rules(units=(AGENDA,), default_unit_id="u-agenda")
    assert decide("quero cancelar o meu plano", rules=rules).action.kind == c.ROUTE


def test_menu_number_and_menu_request() -> None:
    chosen = decide("1")
    assert (chosen.action.kind, chosen.action.unit_id, chosen.reason) == (c.ROUTE, "u-agenda", "menu")
    assert chosen.state.route == "u-agenda" and chosen.state.pending == {"type": "unit_flow", "unit_id": "u-agenda"}
    shown = decide("menu")
    assert shown.action.kind == c.SHOW_MENU and shown.state.pending == {"type": "menu_choice"}
    assert decide("2").action == c.Action(c.FIXED_REPLY, reply_key="endereco")


def test_an_active_pending_flow_keeps_its_unit_without_classification() -> None:
    state = decide("1").state
    kept = decide("e na quinta à tarde, tem?", state=state)
    assert (kept.action.unit_id, kept.reason, kept.classify) == ("u-agenda", "pending_flow", False)


def test_the_flow_is_escaped_by_an_escape_word_or_another_units_subject() -> None:
    state = decide("1").state
    escaped = decide("cancelar", state=state)
    assert escaped.reason != "pending_flow" and escaped.state.route == ""
    elsewhere = decide("qual o valor do parcelamento no boleto?", state=state)
    assert elsewhere.reason == "classifier" and elsewhere.classify


def test_an_idle_route_expires() -> None:
    state = c.State(route="u-agenda", transient={"route_until": (NOW - timedelta(minutes=1)).isoformat()})
    assert decide("oi", state=state).reason == "classifier"


def test_explanatory_follow_up_goes_back_to_the_unit_that_answered() -> None:
    state = c.State(transient={"last_answer_unit": "u-precos"})
    decision = decide("como assim?", state=state)
    assert (decision.action.unit_id, decision.reason) == ("u-precos", "explanatory_followup")


def test_requirements_force_a_unit() -> None:
    decision = decide("oi", state=c.State(requirements={"unit_id": "u-precos"}))
    assert (decision.action.unit_id, decision.reason) == ("u-precos", "requirements")


def test_only_several_units_need_the_model() -> None:
    assert decide("oi").classify
    single = decide("oi", rules=c.Rules(units=(AGENDA,), default_unit_id="u-agenda"))
    assert (single.classify, single.action.unit_id, single.reason) == (False, "u-agenda", "single_unit")


def test_offline_choice_by_subjects() -> None:
    assert c.choose_by_subjects(["qual o preço e dá para parcelar?"], [AGENDA, PRICES], "u-agenda") == "u-precos"
    assert c.choose_by_subjects(["bom dia"], [AGENDA, PRICES], "u-agenda") == "u-agenda"
