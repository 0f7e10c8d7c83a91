"""The lead as the business sees it: who, memory, stage, open cases, follow-ups, timeline.

Input: crm's raw reads about one contact (`RawLead`). Output: `LeadContext`, in business
language, every instant labelled in the organisation's zone. A timeline entry that records an
error (an activity's `details.code`, or a code written into its line) becomes the code's
consequence; the code itself never passes.
"""

from __future__ import annotations

from dataclasses import dataclass

from balcao.crm.v1 import crm_read_pb2, crm_resources_pb2
from balcao.projection.v1 import projection_pb2 as out
from services.projection import consequences
from services.projection.allowlist import allowed
from services.projection.findings import Findings
from services.projection.identifiers import ERROR_CODE, scrub
from services.projection.labels import timestamp_label
from services.projection.stages import project_stage

_C = crm_resources_pb2

TIMELINE_LIMIT = 10

CHANNELS = {_C.CHANNEL_WHATSAPP: "WhatsApp", _C.CHANNEL_WEB: "site", _C.CHANNEL_TEST: "canal de teste"}
CASE_STATUS = {
    _C.HUMAN_CASE_STATUS_OPEN: "aberto, aguardando alguém da equipe",
    _C.HUMAN_CASE_STATUS_IN_PROGRESS: "com a equipe, em andamento",
    _C.HUMAN_CASE_STATUS_WAITING_CUSTOMER: "com a equipe, aguardando uma resposta do cliente",
}
CASE_REASON = {
    _C.HUMAN_CASE_REASON_CUSTOMER_ASKED: "o cliente pediu para falar com uma pessoa",
    _C.HUMAN_CASE_REASON_REVIEW_EXHAUSTED: "uma resposta precisa ser dada por uma pessoa da equipe",
    _C.HUMAN_CASE_REASON_OPERADOR_ESCALATION: "um assunto que precisa de uma pessoa da equipe",
    _C.HUMAN_CASE_REASON_COMPLAINT: "uma reclamação do cliente",
    _C.HUMAN_CASE_REASON_PROMISED_CONTACT: "a equipe ficou de entrar em contato",
    _C.HUMAN_CASE_REASON_OTHER: "um assunto com a equipe",
}
FOLLOWUP_KIND = {True: "retorno combinado com o cliente", False: "contato agendado pela empresa"}
FAILED_KINDS = {
    _C.ACTIVITY_KIND_COULD_NOT_ACT: "Uma providência para este cliente não pôde ser concluída",
    _C.ACTIVITY_KIND_OBLIGATION_FAILED: "Um combinado com o cliente não pôde ser cumprido",
}
FAILED_OTHER = "Uma ação não pôde ser concluída"
# Machinery, not history: the Operador's "nada a fazer" says nothing about the customer.
HIDDEN_KINDS = {_C.ACTIVITY_KIND_NOTHING_TO_DO}
CODE_KEYS = ("code", "error_code", "refusal_code")


@dataclass
class RawLead:
    """crm's raw reads about one contact, as returned by CrmReadService."""

    organization: crm_resources_pb2.Organization
    contact: crm_resources_pb2.Contact
    lead_state: crm_read_pb2.GetLeadStateResponse
    checkpoint: crm_read_pb2.LatestCheckpointResponse
    cases: crm_read_pb2.ListHumanCasesResponse
    follow_ups: crm_read_pb2.ListFollowUpsResponse
    activities: crm_read_pb2.ListActivitiesResponse


def project_lead_context(raw: RawLead, findings: Findings) -> out.GetLeadContextResponse:
    response = out.GetLeadContextResponse(lead=lead_context(raw, findings))
    scrub(response, findings)
    return response


def lead_context(
    raw: RawLead, findings: Findings, organization: crm_resources_pb2.Organization | None = None
) -> out.LeadContext:
    """The lead context, before the identifier scan (callers scan the whole response).

    `organization`, when given, is `raw.organization` already through the allowlist.
    """
    organization = organization if organization is not None else allowed(raw.organization)
    zone = organization.time_zone
    contact = allowed(raw.contact)
    state = allowed(raw.lead_state)
    checkpoint = allowed(raw.checkpoint)
    lead = out.LeadContext(
        contact=out.ContactView(
            name="" if contact.anonymized else contact.name.strip(),
            first_contact=not checkpoint.found,
            channel_label=CHANNELS.get(contact.channel, ""),
        ),
        stage=project_stage(state.found, state.lead_state, organization.settings.stages),
        open_cases=[_case(c, zone) for c in allowed(raw.cases).cases if c.status in CASE_STATUS],
        pending_followups=[
            _follow_up(f, zone)
            for f in allowed(raw.follow_ups).follow_ups
            if f.status == _C.FOLLOW_UP_STATUS_PENDING
        ],
        recent_activities=_timeline(allowed(raw.activities).activities, zone, findings),
    )
    if checkpoint.found:
        content = checkpoint.checkpoint.content
        lead.memory.CopyFrom(
            out.LeadMemory(
                rolling_summary=content.rolling_summary,
                commitments=[c for c in content.commitments if c.strip()],
                objections=[o for o in content.objections if o.strip()],
                next_action=content.next_action,
                written_label=timestamp_label(checkpoint.checkpoint.created_at, zone),
            )
        )
    return lead


def _case(case: crm_resources_pb2.HumanCase, zone: str) -> out.HumanCaseView:
    customer_updates = [u.text for u in case.updates if u.customer_facing and u.text.strip()]
    return out.HumanCaseView(
        subject=case.reason_text.strip() or CASE_REASON.get(case.reason, "um assunto com a equipe"),
        status=CASE_STATUS[case.status],
        opened_label=timestamp_label(case.opened_at, zone),
        last_update=customer_updates[-1] if customer_updates else "",
    )


def _follow_up(follow_up: crm_resources_pb2.FollowUp, zone: str) -> out.FollowupView:
    return out.FollowupView(
        reason=follow_up.reason,
        due_label=timestamp_label(follow_up.due_at, zone),
        kind=FOLLOWUP_KIND[follow_up.callback],
    )


def _timeline(
    activities: list[crm_resources_pb2.LeadActivity], zone: str, findings: Findings
) -> list[out.TimelineEntry]:
    entries = []
    for activity in activities:
        if activity.kind in HIDDEN_KINDS:
            continue
        text = _activity_text(activity, findings)
        if text:
            entries.append(out.TimelineEntry(when_label=timestamp_label(activity.occurred_at, zone), text=text))
        if len(entries) == TIMELINE_LIMIT:
            break
    return entries


def _activity_text(activity: crm_resources_pb2.LeadActivity, findings: Findings) -> str:
    fields = activity.details.fields
    codes = [fields[k].string_value for k in CODE_KEYS if k in fields and fields[k].string_value.strip()]
    if not codes:
        codes = ERROR_CODE.findall(activity.summary_pt)
    if not codes:
        return activity.summary_pt.strip()
    prefix = FAILED_KINDS.get(activity.kind, FAILED_OTHER)
    meanings = dict.fromkeys(consequences.consequence(code, findings) for code in codes)
    return f"{prefix}: {'; '.join(meanings)}."
