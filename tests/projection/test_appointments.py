"""Seed 000: the contact's appointments in the turn context."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from balcao.agenda.v1 import agenda_read_pb2
from balcao.agenda.v1 import agenda_resources_pb2 as A
from balcao.projection.v1 import projection_pb2 as out
from services.projection.appointments import MORE_EXIST, NONE_ACTIVE, UNKNOWN, project_appointments
from services.projection.findings import Findings
from services.projection.turn import project_turn_context
from tests.projection import samples


def _view(
    items: list[A.Appointment], *, as_of: datetime = samples.NOW, truncated: bool = False, total: int = 0
) -> out.AppointmentsView:
    raw = agenda_read_pb2.ListContactAppointmentsResponse(
        appointments=items, truncated=truncated, total_count=total or len(items), as_of=samples.ts(as_of)
    )
    return project_appointments(raw, as_of, Findings())


def test_dst_labels_pass_whole_as_agenda_rendered_them() -> None:
    # São Paulo, 4 Nov 2018: clocks jumped from 00:00 to 01:00 (-03:00 → -02:00).
    sao_paulo = samples.appointment(
        datetime(2018, 11, 4, 3, 30, tzinfo=UTC),
        start_label="domingo, 4 de novembro de 2018, 01:30 (horário de verão de Brasília)",
        start_iso="2018-11-04T01:30:00-02:00",
        end_iso="2018-11-04T02:20:00-02:00",
    )
    # New York, 3 Nov 2024: 01:30 happened twice, first on -04:00 then on -05:00.
    first = samples.appointment(
        datetime(2024, 11, 3, 5, 30, tzinfo=UTC),
        zone="America/New_York",
        start_label="domingo, 3 de novembro de 2024, 01:30 (horário de verão do Leste)",
        start_iso="2024-11-03T01:30:00-04:00",
        end_iso="2024-11-03T01:20:00-05:00",
    )
    second = samples.appointment(
        datetime(2024, 11, 3, 6, 30, tzinfo=UTC),
        zone="America/New_York",
        start_label="domingo, 3 de novembro de 2024, 01:30 (horário padrão do Leste)",
        start_iso="2024-11-03T01:30:00-05:00",
        end_iso="2024-11-03T02:20:00-05:00",
    )
    view = _view([second, sao_paulo, first], as_of=datetime(2018, 11, 1, tzinfo=UTC))
    assert [(a.local_label, a.starts_at_iso, a.ends_at_iso) for a in view.appointments] == [
        (
            "domingo, 4 de novembro de 2018, 01:30 (horário de verão de Brasília)",
            "2018-11-04T01:30:00-02:00",
            "2018-11-04T02:20:00-02:00",
        ),
        (
            "domingo, 3 de novembro de 2024, 01:30 (horário de verão do Leste)",
            "2024-11-03T01:30:00-04:00",
            "2024-11-03T01:20:00-05:00",
        ),
        (
            "domingo, 3 de novembro de 2024, 01:30 (horário padrão do Leste)",
            "2024-11-03T01:30:00-05:00",
            "2024-11-03T02:20:00-05:00",
        ),
    ]
    assert view.appointments_known == out.AGENDA_KNOWLEDGE_KNOWN
    assert view.notice == ""


def test_at_most_five_with_a_sentence_when_more_exist() -> None:
    items = [samples.appointment(samples.NOW + timedelta(days=d)) for d in range(1, 8)]
    view = _view(items)
    assert len(view.appointments) == 5
    assert view.more_exist
    assert view.notice == MORE_EXIST
    assert "cinco" in view.notice
    # Earliest first.
    assert [a.starts_at_iso for a in view.appointments] == [i.labels.start_iso for i in items[:5]]


def test_agenda_saying_it_truncated_is_believed() -> None:
    items = [samples.appointment(samples.NOW + timedelta(days=d)) for d in range(1, 6)]
    view = _view(items, truncated=True, total=9)
    assert len(view.appointments) == 5 and view.more_exist and view.notice == MORE_EXIST


def test_exactly_five_is_a_complete_list() -> None:
    view = _view([samples.appointment(samples.NOW + timedelta(days=d)) for d in range(1, 6)])
    assert len(view.appointments) == 5 and not view.more_exist and view.notice == ""


def test_an_empty_known_list_never_reads_as_a_free_agenda() -> None:
    view = _view([])
    assert view.appointments_known == out.AGENDA_KNOWLEDGE_KNOWN
    assert list(view.appointments) == []
    assert view.notice == NONE_ACTIVE
    assert "nenhum compromisso ativo e futuro" in view.notice
    assert "livre" not in view.notice and "vaga" not in view.notice


def test_a_failed_read_is_unknown_not_empty() -> None:
    view = project_appointments(None, samples.NOW, Findings())
    assert view.appointments_known == out.AGENDA_KNOWLEDGE_UNKNOWN
    assert list(view.appointments) == []
    assert view.notice == UNKNOWN
    assert "nenhum compromisso" not in view.notice
    assert "não foi possível consultar a agenda" in view.notice


def test_the_turn_context_carries_unknown_when_the_agenda_failed() -> None:
    raw = samples.raw_turn()
    raw.appointments = None
    context = project_turn_context(raw, samples.NOW, Findings()).context
    assert context.appointments.appointments_known == out.AGENDA_KNOWLEDGE_UNKNOWN
    assert context.lead.memory.rolling_summary  # the rest of the opening still stands


def test_cancelled_and_ended_appointments_are_left_out() -> None:
    cancelled = samples.appointment(samples.NOW + timedelta(days=1), status=A.APPOINTMENT_STATUS_CANCELLED)
    ended = samples.appointment(samples.NOW - timedelta(hours=2))
    ongoing = samples.appointment(samples.NOW - timedelta(minutes=10), minutes=50)
    view = _view([cancelled, ended, ongoing])
    assert [a.starts_at_iso for a in view.appointments] == [ongoing.labels.start_iso]


def test_place_status_and_meet_situation_are_said_in_words() -> None:
    online = samples.appointment(
        samples.NOW + timedelta(days=1),
        status=A.APPOINTMENT_STATUS_PENDING,
        video=A.VIDEO_CALL_STATUS_READY,
        place=A.Place(kind=A.PLACE_KIND_ONLINE),
    )
    in_person = samples.appointment(samples.NOW + timedelta(days=2))
    failed_meet = samples.appointment(
        samples.NOW + timedelta(days=3), video=A.VIDEO_CALL_STATUS_FAILED, place=A.Place(kind=A.PLACE_KIND_ONLINE)
    )
    first, second, third = _view([online, in_person, failed_meet]).appointments
    assert (first.status, first.meet_status, first.place) == (
        "aguardando confirmação",
        "link do Google Meet pronto",
        "online, por videochamada",
    )
    assert (second.status, second.meet_status) == ("confirmado", "presencial, sem vídeo")
    assert second.place == "Clínica Sorriso, sala 2 — Rua Barão de Jaguara, 1200"
    assert second.service == "Consulta de avaliação" and second.professional == "Dra. Beatriz Lima"
    assert "não foi possível gerar o link" in third.meet_status
    # The Meet link itself and every id stay out.
    assert "meet.google.com" not in str(first)
