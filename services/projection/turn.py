"""The turn context: everything the Conversador sees when a turn opens, from raw reads.

Pure: `project_turn_context(RawTurn, now, findings)` takes crm's and agenda's raw answers and
returns the projected `GetTurnContextResponse`, scanned for identifiers as a whole.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from balcao.agenda.v1 import agenda_read_pb2
from balcao.crm.v1 import crm_read_pb2
from balcao.projection.v1 import projection_pb2 as out
from services.projection.allowlist import allowed
from services.projection.appointments import project_appointments
from services.projection.business import business_facts, project_unit
from services.projection.findings import Findings
from services.projection.identifiers import scrub
from services.projection.labels import full_label, iso
from services.projection.lead import RawLead, lead_context


@dataclass
class RawTurn:
    """The raw reads of one opening. `appointments` is None when the agenda read failed."""

    lead: RawLead
    unit_id: str
    agent: crm_read_pb2.GetAgentConfigurationResponse
    references: crm_read_pb2.ListKnowledgeArticlesResponse
    appointments: agenda_read_pb2.ListContactAppointmentsResponse | None


def project_turn_context(raw: RawTurn, now: datetime, findings: Findings) -> out.GetTurnContextResponse:
    organization = allowed(raw.lead.organization)
    zone = organization.time_zone
    context = out.TurnContext(
        lead=lead_context(raw.lead, findings, organization),
        unit=project_unit(raw.agent, raw.unit_id, raw.references),
        business=business_facts(organization),
        now_label=full_label(now, zone),
        now_iso=iso(now, zone),
    )
    # Appointments are projected (and scanned) on their own: the same function serves
    # ListMyAppointments, so the opening and the closing re-read can never disagree.
    appointments = project_appointments(raw.appointments, now, findings)
    scrub(context, findings)
    context.appointments.CopyFrom(appointments)
    return out.GetTurnContextResponse(context=context)
