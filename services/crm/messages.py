"""Rows ↔ protobuf messages: the one place that knows both shapes.

Enums are stored as readable lower-case words (`HUMAN_CASE_STATUS_IN_PROGRESS` → `in_progress`);
nested messages (settings, declaração, execution records, actors) as protobuf JSON.
"""

from __future__ import annotations

import math
from datetime import UTC, datetime
from typing import Any

from google.protobuf import json_format, struct_pb2, timestamp_pb2
from google.protobuf.internal.enum_type_wrapper import EnumTypeWrapper
from google.protobuf.message import Message
from sqlalchemy.engine import RowMapping

from balcao.common.v1 import declaracao_pb2
from balcao.crm.v1 import crm_resources_pb2 as r
from balcao.crm.v1 import event_queue_pb2 as eq
from balcao.kit.structs import as_struct
from services.crm import organization_settings

Row = RowMapping


class EnumWords:
    """An enum's values as the words stored in the database."""

    def __init__(self, enum: EnumTypeWrapper, prefix: str) -> None:
        self._to_word = {number: name[len(prefix):].lower() for name, number in enum.items()}
        self._to_number = {word: number for number, word in self._to_word.items()}

    def word(self, number: int) -> str:
        return self._to_word.get(number, "unspecified")

    def number(self, word: str) -> int:
        return self._to_number.get(word, 0)

    def words(self, numbers: Any) -> list[str]:
        return [self.word(n) for n in numbers]


ACTOR_KIND = EnumWords(r.ActorKind, "ACTOR_KIND_")
CHANNEL = EnumWords(r.Channel, "CHANNEL_")
LEGAL_BASIS = EnumWords(r.LegalBasis, "LEGAL_BASIS_")
AGENDA_REREAD = EnumWords(r.AgendaRereadStatus, "AGENDA_REREAD_STATUS_")
ACTIVITY_KIND = EnumWords(r.ActivityKind, "ACTIVITY_KIND_")
CASE_STATUS = EnumWords(r.HumanCaseStatus, "HUMAN_CASE_STATUS_")
CASE_REASON = EnumWords(r.HumanCaseReason, "HUMAN_CASE_REASON_")
CASE_PRIORITY = EnumWords(r.CasePriority, "CASE_PRIORITY_")
FOLLOW_UP_STATUS = EnumWords(r.FollowUpStatus, "FOLLOW_UP_STATUS_")
OBLIGATION_STATUS = EnumWords(r.ObligationStatus, "OBLIGATION_STATUS_")
CENTRAL_KIND = EnumWords(r.CentralItemKind, "CENTRAL_ITEM_KIND_")
CENTRAL_SEVERITY = EnumWords(r.CentralItemSeverity, "CENTRAL_ITEM_SEVERITY_")
CENTRAL_STATUS = EnumWords(r.CentralItemStatus, "CENTRAL_ITEM_STATUS_")
KNOWLEDGE_KIND = EnumWords(r.KnowledgeKind, "KNOWLEDGE_KIND_")
TURN_TRIGGER = EnumWords(r.TurnTrigger, "TURN_TRIGGER_")
TURN_OUTCOME = EnumWords(r.TurnOutcome, "TURN_OUTCOME_")
OPERADOR_STATUS = EnumWords(r.OperadorOutcomeStatus, "OPERADOR_OUTCOME_STATUS_")
AGENT_VERSION_STATUS = EnumWords(r.AgentVersionStatus, "AGENT_VERSION_STATUS_")
EVENT_STATUS = EnumWords(r.EventStatus, "EVENT_STATUS_")


# --- scalars -------------------------------------------------------------------------------


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
_NAIVE_EPOCH = datetime(1970, 1, 1)


def ts(value: datetime | None) -> timestamp_pb2.Timestamp | None:
    """A datetime as a Timestamp (naive means UTC, as FromDatetime takes it), by integer arithmetic:
    FromDatetime goes through calendar.timegm and costs several times more on the hot paths."""
    if value is None:
        return None
    delta = value - (_NAIVE_EPOCH if value.tzinfo is None else _EPOCH)
    return timestamp_pb2.Timestamp(seconds=delta.days * 86400 + delta.seconds, nanos=delta.microseconds * 1000)


def when(message: Message, field: str) -> datetime | None:
    """A Timestamp field as an aware datetime, None when unset."""
    if not message.HasField(field):  # type: ignore[arg-type]
        return None
    return getattr(message, field).ToDatetime(tzinfo=UTC)


def text(value: Any) -> str:
    return "" if value is None else str(value)


def to_json(message: Message) -> dict[str, Any]:
    return json_format.MessageToDict(message)


def from_json(document: Any, message: Message) -> Message:
    if document:
        json_format.ParseDict(document, message, ignore_unknown_fields=True)
    return message


struct = as_struct  # the timeline's details and the events' payloads


def struct_to_dict(value: struct_pb2.Struct) -> dict[str, Any]:
    """A Struct as the dict MessageToDict gives (walked directly: the generic printer is slow)."""
    fields = value.fields
    return {key: _value(fields[key]) for key in fields}


def _value(value: struct_pb2.Value) -> Any:
    which = value.WhichOneof("kind")
    if which == "struct_value":
        return struct_to_dict(value.struct_value)
    if which == "list_value":
        return [_value(item) for item in value.list_value.values]
    if which is None or which == "null_value":
        return None
    if which == "number_value" and not math.isfinite(value.number_value):
        return json_format.MessageToDict(value)  # raises as MessageToDict does
    return getattr(value, which)


def actor(document: Any) -> r.Actor | None:
    if not document:
        return None
    return r.Actor(kind=ACTOR_KIND.number(document.get("kind", "")), name=document.get("name", ""))


def actor_doc(value: r.Actor) -> dict[str, str]:
    return {"kind": ACTOR_KIND.word(value.kind), "name": value.name}


def declaracao(document: Any) -> declaracao_pb2.DeclaracaoDoTurno | None:
    if document is None:
        return None
    built = _declaracao_as_stored(document)
    if built is not None:
        return built
    return from_json(document, declaracao_pb2.DeclaracaoDoTurno())  # type: ignore[return-value]


_CATEGORIAS = frozenset(declaracao_pb2.Categoria.keys())


def _declaracao_as_stored(document: Any) -> declaracao_pb2.DeclaracaoDoTurno | None:
    """The declaração read from the shape MessageToDict stored it in, without the generic parser (the largest
    cost of reading a batch of checkpoints); None for anything else, which ParseDict then reads as before."""
    if not isinstance(document, dict) or not document.keys() <= {"intencoes", "promessas", "nadaADeclarar"}:
        return None
    intencoes, promessas = document.get("intencoes", []), document.get("promessas", [])
    nada = document.get("nadaADeclarar", False)
    if not isinstance(intencoes, list) or not isinstance(promessas, list) or not isinstance(nada, bool):
        return None
    built = declaracao_pb2.DeclaracaoDoTurno(nada_a_declarar=nada)
    for item in intencoes:
        if not isinstance(item, dict) or not item.keys() <= {"oQue", "evidencia", "categoria"}:
            return None
        o_que, evidencia = item.get("oQue", ""), item.get("evidencia", "")
        categoria = item.get("categoria", "CATEGORIA_UNSPECIFIED")
        if not isinstance(o_que, str) or not isinstance(evidencia, str) or categoria not in _CATEGORIAS:
            return None
        built.intencoes.add(o_que=o_que, evidencia=evidencia, categoria=declaracao_pb2.Categoria.Value(categoria))
    for item in promessas:
        if not isinstance(item, dict) or not item.keys() <= {"oQue", "prazo"}:
            return None
        o_que, prazo = item.get("oQue", ""), item.get("prazo")
        if not isinstance(o_que, str) or not (prazo is None or isinstance(prazo, str)):
            return None
        promessa = built.promessas.add(o_que=o_que)
        if prazo is not None:
            try:
                promessa.prazo.FromJsonString(prazo)
            except ValueError:
                return None
    return built


# --- organisation and configuration ---------------------------------------------------------


def organization(row: Row) -> r.Organization:
    return r.Organization(
        organization_id=str(row["organization_id"]),
        name=row["name"],
        time_zone=row["time_zone"],
        plan=r.Plan(name=row["plan_name"], expires_at=ts(row["plan_expires_at"])),
        settings=organization_settings.PARSED.get(row["organization_id"], row["settings"]),  # copied in
        settings_version=row["settings_version"],
        created_at=ts(row["created_at"]),
        updated_at=ts(row["updated_at"]),
    )


def agent_version(row: Row) -> r.AgentVersion:
    return r.AgentVersion(
        version_id=str(row["version_id"]),
        organization_id=str(row["organization_id"]),
        number=row["number"],
        status=AGENT_VERSION_STATUS.number(row["status"]),
        configuration=from_json(row["configuration"], r.AgentConfiguration()),  # type: ignore[arg-type]
        saved_by=actor(row["saved_by"]),
        note=row["note"],
        created_at=ts(row["created_at"]),
        published_at=ts(row["published_at"]),
    )


# --- contacts and lead memory ---------------------------------------------------------------


def contact(row: Row, now: datetime) -> r.Contact:
    until = row["human_control_until"]
    # A pause that ran out is over even before anyone writes to the row.
    in_control = bool(row["human_in_control"]) and (until is None or until > now)
    return r.Contact(
        contact_id=str(row["contact_id"]),
        organization_id=str(row["organization_id"]),
        phone_e164=text(row["phone_e164"]),
        whatsapp_jids=list(row["whatsapp_jids"]),
        web_profile_id=text(row["web_profile_id"]),
        name=row["name"],
        email=row["email"],
        cpf=row["cpf"],
        channel=CHANNEL.number(row["channel"]),
        opted_out=row["opted_out"],
        opted_out_at=ts(row["opted_out_at"]),
        blocked=row["blocked"],
        anonymized=row["anonymized"],
        human_in_control=in_control,
        human_control_until=ts(until) if in_control else None,
        assigned_attendant_id=row["assigned_attendant_id"],
        legal_basis=LEGAL_BASIS.number(row["legal_basis"]),
        created_at=ts(row["created_at"]),
        updated_at=ts(row["updated_at"]),
    )


def lead_state(row: Row) -> r.LeadState:
    return r.LeadState(
        contact_id=str(row["contact_id"]),
        stage_key=row["stage_key"],
        stage_label=row["stage_label"],
        reason=row["reason"],
        source_turn_id=row["source_turn_id"],
        updated_by=actor(row["updated_by"]),
        updated_at=ts(row["updated_at"]),
    )


def checkpoint_content(row: Row) -> r.CheckpointContent:
    return r.CheckpointContent(
        rolling_summary=row["rolling_summary"],
        commitments=list(row["commitments"]),
        objections=list(row["objections"]),
        next_action=row["next_action"],
        declaracao=declaracao(row["declaracao"]),
        agenda_reread=AGENDA_REREAD.number(row["agenda_reread"]),
    )


def checkpoint(row: Row) -> r.LeadCheckpoint:
    return r.LeadCheckpoint(
        contact_id=str(row["contact_id"]),
        seq=row["seq"],
        turn_id=row["turn_id"],
        unit_id=row["unit_id"],
        content=checkpoint_content(row),
        created_at=ts(row["created_at"]),
    )


def lead_note(row: Row) -> r.LeadNote:
    return r.LeadNote(
        note_id=str(row["note_id"]),
        contact_id=str(row["contact_id"]),
        key=text(row["key"]),
        title=row["title"],
        body=row["body"],
        author=actor(row["author"]),
        source_turn_id=row["source_turn_id"],
        created_at=ts(row["created_at"]),
        updated_at=ts(row["updated_at"]),
    )


def activity(row: Row) -> r.LeadActivity:
    return r.LeadActivity(
        activity_id=str(row["activity_id"]),
        contact_id=str(row["contact_id"]),
        kind=ACTIVITY_KIND.number(row["kind"]),
        actor=actor(row["actor"]),
        summary_pt=row["summary_pt"],
        turn_id=row["turn_id"],
        event_id=row["event_id"],
        details=struct(row["details"]),
        occurred_at=ts(row["occurred_at"]),
    )


# --- cases, follow-ups, obligations, the Central --------------------------------------------


def case_update(row: Row) -> r.CaseUpdate:
    return r.CaseUpdate(
        update_id=str(row["update_id"]),
        text=row["text"],
        author=actor(row["author"]),
        customer_facing=row["customer_facing"],
        created_at=ts(row["created_at"]),
    )


def human_case(row: Row, updates: list[Row] | None = None) -> r.HumanCase:
    return r.HumanCase(
        case_id=str(row["case_id"]),
        contact_id=str(row["contact_id"]),
        status=CASE_STATUS.number(row["status"]),
        reason=CASE_REASON.number(row["reason"]),
        reason_text=row["reason_text"],
        summary=row["summary"],
        declaracao=declaracao(row["declaracao"]),
        priority=CASE_PRIORITY.number(row["priority"]),
        assigned_attendant_id=row["assigned_attendant_id"],
        opened_by=actor(row["opened_by"]),
        source_turn_id=row["source_turn_id"],
        resolution=row["resolution"],
        updates=[case_update(u) for u in updates or []],
        opened_at=ts(row["opened_at"]),
        closed_at=ts(row["closed_at"]),
    )


def follow_up(row: Row) -> r.FollowUp:
    return r.FollowUp(
        follow_up_id=str(row["follow_up_id"]),
        contact_id=str(row["contact_id"]),
        due_at=ts(row["due_at"]),
        reason=row["reason"],
        status=FOLLOW_UP_STATUS.number(row["status"]),
        callback=row["callback"],
        fixed_text=row["fixed_text"],
        obligation_id=text(row["obligation_id"]),
        source_turn_id=row["source_turn_id"],
        executed_turn_id=row["executed_turn_id"],
        outcome_detail=row["outcome_detail"],
        scheduled_by=actor(row["scheduled_by"]),
        created_at=ts(row["created_at"]),
        finished_at=ts(row["finished_at"]),
    )


def obligation(row: Row) -> r.Obligation:
    return r.Obligation(
        obligation_id=str(row["obligation_id"]),
        contact_id=str(row["contact_id"]),
        turn_id=row["turn_id"],
        checkpoint_seq=row["checkpoint_seq"],
        promise_index=row["promise_index"],
        o_que=row["o_que"],
        prazo=ts(row["prazo"]),
        status=OBLIGATION_STATUS.number(row["status"]),
        resolution=row["resolution"],
        evidence=[r.EvidenceRef(kind=e.get("kind", ""), id=e.get("id", "")) for e in row["evidence"] or []],
        resolved_by=actor(row["resolved_by"]),
        created_at=ts(row["created_at"]),
        resolved_at=ts(row["resolved_at"]),
    )


def central_item(row: Row) -> r.CentralItem:
    return r.CentralItem(
        central_item_id=str(row["central_item_id"]),
        kind=CENTRAL_KIND.number(row["kind"]),
        severity=CENTRAL_SEVERITY.number(row["severity"]),
        status=CENTRAL_STATUS.number(row["status"]),
        title_pt=row["title_pt"],
        body_pt=row["body_pt"],
        code=row["code"],
        contact_id=text(row["contact_id"]),
        turn_id=row["turn_id"],
        event_id=row["event_id"],
        details=struct(row["details"]),
        raised_by=actor(row["raised_by"]),
        resolution=row["resolution"],
        resolved_by=actor(row["resolved_by"]),
        occurrences=row["occurrences"],
        created_at=ts(row["created_at"]),
        resolved_at=ts(row["resolved_at"]),
    )


# --- knowledge ------------------------------------------------------------------------------


def knowledge_article(row: Row) -> r.KnowledgeArticle:
    return r.KnowledgeArticle(
        article_id=str(row["article_id"]),
        title=row["title"],
        body=row["body"],
        kind=KNOWLEDGE_KIND.number(row["kind"]),
        unit_id=row["unit_id"],
        when_useful=row["when_useful"],
        published=row["published"],
        updated_by=actor(row["updated_by"]),
        created_at=ts(row["created_at"]),
        updated_at=ts(row["updated_at"]),
    )


# --- turns ----------------------------------------------------------------------------------


def turn_execution(row: Row) -> r.TurnExecution:
    record = from_json(row["record"], r.TurnExecution())
    assert isinstance(record, r.TurnExecution)
    if row["operador"]:
        record.operador.CopyFrom(from_json(row["operador"], r.OperadorOutcome()))
    record.checkpoint_seq = row["checkpoint_seq"]
    return record


def turn_summary(row: Row) -> r.TurnExecutionSummary:
    return r.TurnExecutionSummary(
        turn_id=row["turn_id"],
        contact_id=str(row["contact_id"]),
        unit_id=row["unit_id"],
        trigger=TURN_TRIGGER.number(row["trigger"]),
        outcome=TURN_OUTCOME.number(row["outcome"]),
        test=row["test"],
        trace_id=row["trace_id"],
        inbound_preview=row["inbound_preview"],
        sent_preview=row["sent_preview"],
        veto_count=row["veto_count"],
        operador_status=OPERADOR_STATUS.number(row["operador_status"]),
        started_at=ts(row["started_at"]),
        finished_at=ts(row["finished_at"]),
    )


# --- the event log --------------------------------------------------------------------------


def event(row: Row) -> r.Event:
    leased = row["status"] == "leased"
    return r.Event(
        event_id=str(row["event_id"]),
        organization_id=str(row["organization_id"]),
        kind=row["kind"],
        contact_id=text(row["contact_id"]),
        payload=struct(row["payload"]),
        dedup_key=text(row["dedup_key"]),
        status=EVENT_STATUS.number(row["status"]),
        attempts=row["attempts"],
        max_attempts=row["max_attempts"],
        available_at=ts(row["available_at"]),
        lease=(
            r.Lease(
                consumer=text(row["lease_consumer"]),
                token=text(row["lease_token"]),
                expires_at=ts(row["lease_expires_at"]),
            )
            if leased
            else None
        ),
        last_error=row["last_error"],
        traceparent=row["traceparent"],
        created_at=ts(row["created_at"]),
        finished_at=ts(row["finished_at"]),
    )


def queue_count(row: Row) -> eq.QueueCount:
    return eq.QueueCount(
        kind=row["kind"],
        status=EVENT_STATUS.number(row["status"]),
        count=row["count"],
        oldest_created_at=ts(row["oldest_created_at"]),
    )
