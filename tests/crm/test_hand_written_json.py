"""The hand-written conversions on crm's hot paths give exactly what the generic protobuf ones give."""

from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta, timezone

import pytest
from google.protobuf import json_format, struct_pb2, timestamp_pb2

from balcao.common.v1 import declaracao_pb2 as dc
from balcao.crm.v1 import crm_resources_pb2 as r
from balcao.crm.v1 import crm_write_pb2 as wr
from services.crm import messages as m
from services.crm.turn_basics import activity_response, outcome_doc, rfc3339

AT = datetime(2026, 11, 29, 23, 1, 2, 345678, tzinfo=UTC)


@pytest.mark.parametrize("moment", [
    AT, datetime(2026, 1, 1, tzinfo=timezone(timedelta(hours=-3))), datetime(2020, 2, 29, 1, 2, 3),
    datetime(1969, 12, 31, 23, 59, 59, 1, tzinfo=UTC),
])
def test_a_timestamp_is_the_one_from_datetime_gives(moment: datetime) -> None:
    expected = timestamp_pb2.Timestamp()
    expected.FromDatetime(moment)
    assert m.ts(moment) == expected


@pytest.mark.parametrize("moment", [
    AT, AT.replace(microsecond=0), AT.replace(microsecond=120000), AT.replace(microsecond=5000),
    AT.replace(microsecond=7), datetime(2026, 1, 1, tzinfo=timezone(timedelta(hours=-3))),
    datetime(2020, 2, 29, 1, 2, 3, 450000), datetime(1969, 12, 31, 23, 59, 59, 1, tzinfo=UTC),
    datetime(1, 1, 1, tzinfo=UTC),
])
def test_an_instant_in_rfc_3339_is_what_the_timestamp_prints(moment: datetime) -> None:
    expected = timestamp_pb2.Timestamp()
    expected.FromDatetime(moment)
    assert rfc3339(moment) == expected.ToJsonString()


def test_a_struct_becomes_the_dict_message_to_dict_gives() -> None:
    value = struct_pb2.Struct()
    value.update({"a": 1, "b": 1.5, "c": "olá", "d": None, "e": True, "f": [1, "x", {"y": []}, None],
                  "g": {"h": {"i": 2}}, "j": {}, "k": []})
    expected = json_format.MessageToDict(value)
    assert json.dumps(m.struct_to_dict(value)) == json.dumps(expected)


def test_a_struct_with_nan_is_refused_as_before() -> None:
    value = struct_pb2.Struct()
    value.update({"a": float("nan")})
    with pytest.raises(ValueError):
        m.struct_to_dict(value)


@pytest.mark.parametrize("outcome", [
    r.OperadorOutcome(),
    r.OperadorOutcome(status=r.OPERADOR_OUTCOME_STATUS_ACTED, used_model=True, actions=["a", "b"],
                      summary_pt="Etapa alterada", event_id="e1"),
    r.OperadorOutcome(status=99),
    r.OperadorOutcome(status=r.OPERADOR_OUTCOME_STATUS_NOTHING_TO_DO,
                      finished_at=m.ts(datetime(2026, 1, 1, tzinfo=UTC))),
    r.OperadorOutcome(status=r.OPERADOR_OUTCOME_STATUS_ACTED, usage=[r.ModelUsage(model="m")]),
])
def test_an_outcome_is_stored_as_message_to_dict_writes_it(outcome: r.OperadorOutcome) -> None:
    complete = r.OperadorOutcome()
    complete.CopyFrom(outcome)
    if not complete.HasField("finished_at"):
        complete.finished_at.FromDatetime(AT)
    expected = json_format.MessageToDict(complete)
    assert json.dumps(outcome_doc(outcome, AT)) == json.dumps(expected)


def test_a_dict_becomes_the_struct_update_builds() -> None:
    document = {"a": 1, "b": 1.5, "c": "olá", "d": None, "e": True, "f": [1, "x", {"y": []}, None, False],
                "g": {"h": {"i": 2}}, "j": {}, "k": [], "t": (1, 2)}
    expected = struct_pb2.Struct()
    expected.update(document)
    assert m.struct(document) == expected
    assert m.struct({}) == struct_pb2.Struct() and m.struct(None) == struct_pb2.Struct()


def test_a_dict_with_a_value_struct_cannot_hold_is_refused_as_before() -> None:
    with pytest.raises(ValueError):
        m.struct({"a": object()})


@pytest.mark.parametrize("declaracao", [
    dc.DeclaracaoDoTurno(),
    dc.DeclaracaoDoTurno(nada_a_declarar=True),
    dc.DeclaracaoDoTurno(intencoes=[
        dc.Intencao(o_que="quer agendar", evidencia="queria marcar", categoria=dc.CATEGORIA_QUER_AGENDAR),
        dc.Intencao(o_que="pergunta"),
    ], promessas=[
        dc.Promessa(o_que="retorno amanhã", prazo=m.ts(AT)), dc.Promessa(o_que="sem prazo"),
    ]),
])
def test_a_stored_declaracao_reads_back_as_parse_dict_reads_it(declaracao: dc.DeclaracaoDoTurno) -> None:
    stored = json.loads(json.dumps(json_format.MessageToDict(declaracao)))
    assert m.declaracao(stored) == declaracao == json_format.ParseDict(stored, dc.DeclaracaoDoTurno())


def test_a_declaracao_in_another_shape_still_goes_through_parse_dict() -> None:
    document = {"intencoes": [{"o_que": "quer agendar", "categoria": 1}], "nada_a_declarar": False, "extra": 1}
    expected = json_format.ParseDict(document, dc.DeclaracaoDoTurno(), ignore_unknown_fields=True)
    assert m.declaracao(document) == expected and expected.intencoes[0].o_que == "quer agendar"



@pytest.mark.parametrize("details", [{}, {"modo": "registro_basico", "acoes": ["update_lead_state"], "n": 0},
                                     {"texto": "é" * 300, "lista": list(range(40))}])
@pytest.mark.parametrize("actor", [r.Actor(kind=r.ACTOR_KIND_OPERADOR_RULES, name="operador"),
                                   r.Actor(kind=r.ACTOR_KIND_SYSTEM)])
def test_a_batch_activity_response_reads_back_as_the_message_would(details: dict[str, object],
                                                                    actor: r.Actor) -> None:
    struct = struct_pb2.Struct()
    struct.update(details)
    activity = r.LeadActivity(activity_id="a1", contact_id="c1", kind=r.ACTIVITY_KIND_OTHER, summary_pt="feito",
                              turn_id="t1", event_id="e1", occurred_at=m.ts(AT))
    expected = r.LeadActivity()
    expected.CopyFrom(activity)
    expected.actor.CopyFrom(actor)
    expected.details.CopyFrom(struct)
    stored = activity_response(activity, actor, struct.SerializeToString())
    assert wr.RecordActivityResponse.FromString(stored) == wr.RecordActivityResponse(activity=expected)
