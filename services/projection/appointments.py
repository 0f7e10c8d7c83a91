"""The contact's appointments as seed 000 requires them.

Not cancelled, ending after now, earliest first, at most five, with a sentence when more
exist. Each carries the local time in the booking's own zone exactly as agenda rendered it
(agenda owns DST-correct labels; projection passes them whole), the same instant as ISO-8601
with that zone's offset, the place and the Google Meet situation. An empty known list says
"nenhum compromisso ativo e futuro" and is careful never to read as a free agenda; a read
that failed is UNKNOWN with its own sentence, never an empty list.
"""

from __future__ import annotations

from datetime import datetime

from balcao.agenda.v1 import agenda_read_pb2, agenda_resources_pb2
from balcao.projection.v1 import projection_pb2 as out
from services.projection.allowlist import allowed
from services.projection.findings import Findings
from services.projection.identifiers import scrub
from services.projection.labels import instant

CAP = 5

NONE_ACTIVE = (
    "nenhum compromisso ativo e futuro deste cliente na agenda; "
    "isso não diz nada sobre horários disponíveis para marcar"
)
MORE_EXIST = "há outros compromissos além destes cinco; os mais próximos estão listados"
UNKNOWN = (
    "não foi possível consultar a agenda agora: os compromissos deste cliente são desconhecidos "
    "neste momento (não quer dizer que ele não tenha nenhum)"
)

_A = agenda_resources_pb2
STATUS = {
    _A.APPOINTMENT_STATUS_CONFIRMED: "confirmado",
    _A.APPOINTMENT_STATUS_PENDING: "aguardando confirmação",
}
MEET = {
    _A.VIDEO_CALL_STATUS_READY: "link do Google Meet pronto",
    _A.VIDEO_CALL_STATUS_PENDING: "link do Google Meet ainda não gerado",
    _A.VIDEO_CALL_STATUS_FAILED: "não foi possível gerar o link do Google Meet; a equipe foi avisada",
}
NO_VIDEO_IN_PERSON = "presencial, sem vídeo"
NO_VIDEO = "sem videochamada"


def place_text(place: agenda_resources_pb2.Place) -> str:
    """Where it happens, as the business wrote it."""
    kind = place.kind
    written = " — ".join(p for p in (place.name.strip(), place.address.strip()) if p)
    if kind == _A.PLACE_KIND_ONLINE:
        base = "online, por videochamada"
    elif kind == _A.PLACE_KIND_PHONE:
        base = "por telefone"
    elif kind == _A.PLACE_KIND_AT_CUSTOMER:
        base = "no endereço do cliente"
    else:
        base = ""
    text = ", ".join(p for p in (base, written) if p)
    if place.instructions.strip():
        text = f"{text} ({place.instructions.strip()})" if text else place.instructions.strip()
    return text


def _meet_status(appointment: agenda_resources_pb2.Appointment) -> str:
    text = MEET.get(appointment.video_call_status)
    if text is not None:
        return text
    if appointment.place.kind in (_A.PLACE_KIND_IN_PERSON, _A.PLACE_KIND_UNSPECIFIED):
        return NO_VIDEO_IN_PERSON
    return NO_VIDEO


def project_appointment(appointment: agenda_resources_pb2.Appointment) -> out.Appointment:
    labels = appointment.labels
    return out.Appointment(
        local_label=labels.start_label,
        starts_at_iso=labels.start_iso,
        ends_at_iso=labels.end_iso,
        service=appointment.service_name,
        professional=appointment.resource_name,
        place=place_text(appointment.place),
        status=STATUS.get(appointment.status, ""),
        meet_status=_meet_status(appointment),
    )


def project_appointments(
    raw: agenda_read_pb2.ListContactAppointmentsResponse | None,
    now: datetime,
    findings: Findings,
) -> out.AppointmentsView:
    """The view of a contact's appointments; `raw=None` means the agenda read failed."""
    if raw is None:
        return out.AppointmentsView(appointments_known=out.AGENDA_KNOWLEDGE_UNKNOWN, notice=UNKNOWN)
    raw = allowed(raw)
    as_of = instant(raw.as_of) or now
    active = []
    for item in raw.appointments:
        ends = instant(item.end_time)
        if item.status == _A.APPOINTMENT_STATUS_CANCELLED or (ends is not None and ends <= as_of):
            continue
        active.append(item)
    active.sort(key=lambda a: (a.start_time.seconds, a.start_time.nanos))
    shown = active[:CAP]
    more = raw.truncated or len(active) > CAP or raw.total_count > len(shown)
    view = out.AppointmentsView(
        appointments_known=out.AGENDA_KNOWLEDGE_KNOWN,
        appointments=[project_appointment(a) for a in shown],
        more_exist=more,
    )
    if more:
        view.notice = MORE_EXIST
    elif not shown:
        view.notice = NONE_ACTIVE
    scrub(view, findings)
    return view
