"""CrmWriteService: every write of crm's facts, one transaction each, idempotent by key."""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable
from typing import Any

from balcao.crm.v1 import crm_resources_pb2 as r
from balcao.crm.v1 import crm_write_pb2 as wr
from balcao.crm.v1 import crm_write_pb2_grpc
from services.crm import (
    agent_configuration,
    cases,
    central,
    contacts,
    followups,
    idempotency,
    ids,
    knowledge,
    leads,
    obligations,
    organizations,
    timeline,
    turn_basics,
    turns,
)
from services.crm import messages as m
from services.crm.errors import InvalidArgument, NotFound
from services.crm.repository import cases as cases_repo
from services.crm.repository import central as central_repo
from services.crm.repository import knowledge as knowledge_repo
from services.crm.service.status import R, Servicer, actor_of, org_of, unary


class CrmWrite(Servicer, crm_write_pb2_grpc.CrmWriteServiceServicer):
    """Writes of crm's facts. Each runs in one transaction; refusals roll back and write nothing."""

    async def _write(self, org: uuid.UUID, rpc: str, key: str, response_type: type[R],
                     work: Callable[[Any], Awaitable[R]]) -> R:
        return await idempotency.write(self._store, self._clock, org, rpc, key, response_type, work)  # type: ignore[type-var]

    @unary
    async def UpsertOrganization(self, request: wr.UpsertOrganizationRequest, context: Any) -> Any:
        existing = ids.optional_uuid(request.organization_id, "organization_id")
        has_plan = request.HasField("plan")
        profile = organizations.Profile(
            name=request.name,
            time_zone=request.time_zone.strip(),
            plan=request.plan if has_plan else None,
            plan_expires_at=m.when(request.plan, "expires_at") if has_plan else None,
            initial_settings=request.initial_settings if request.HasField("initial_settings") else None,
        )
        profile.validate()
        org = existing or uuid.uuid4()

        async def work(conn: Any) -> wr.UpsertOrganizationResponse:
            row, created = await organizations.upsert(conn, org, existing is None, profile, self._clock())
            return wr.UpsertOrganizationResponse(organization=m.organization(row), created=created)

        return await self._write(org, "UpsertOrganization", "", wr.UpsertOrganizationResponse, work)

    @unary
    async def UpdateOrganizationSettings(self, request: wr.UpdateOrganizationSettingsRequest, context: Any) -> Any:
        org = org_of(request)

        async def work(conn: Any) -> wr.UpdateOrganizationSettingsResponse:
            row, consequences = await organizations.update_settings(
                conn, org, request.settings, request.update_mask, request.expected_settings_version, self._clock()
            )
            return wr.UpdateOrganizationSettingsResponse(organization=m.organization(row), consequences_pt=consequences)

        return await self._write(org, "UpdateOrganizationSettings", "", wr.UpdateOrganizationSettingsResponse, work)

    @unary
    async def UpsertContact(self, request: wr.UpsertContactRequest, context: Any) -> Any:
        org = org_of(request)
        identity = contacts.Identity.parse(
            request.phone, request.default_region, request.whatsapp_jid, request.web_profile_id
        )
        details = contacts.Details.parse(
            request.name, request.email, request.cpf, m.CHANNEL.word(request.channel),
            m.LEGAL_BASIS.word(request.legal_basis),
            fill_empty_only=request.fill_empty_only,
        )

        async def work(conn: Any) -> wr.UpsertContactResponse:
            now = self._clock()
            row, created = await contacts.upsert(conn, org, identity, details, now)
            return wr.UpsertContactResponse(contact=m.contact(row, now), created=created)

        return await self._write(org, "UpsertContact", request.idempotency_key, wr.UpsertContactResponse, work)

    @unary
    async def SetContactOptOut(self, request: wr.SetContactOptOutRequest, context: Any) -> Any:
        org, contact = org_of(request), ids.required_uuid(request.contact_id, "contact_id")

        async def work(conn: Any) -> wr.SetContactOptOutResponse:
            now = self._clock()
            row = await contacts.set_opt_out(conn, org, contact, request.opted_out, reason=request.reason,
                                             source_turn_id=request.source_turn_id, now=now)
            return wr.SetContactOptOutResponse(contact=m.contact(row, now))

        return await self._write(org, "SetContactOptOut", request.idempotency_key, wr.SetContactOptOutResponse, work)

    @unary
    async def SetContactBlocked(self, request: wr.SetContactBlockedRequest, context: Any) -> Any:
        org, contact = org_of(request), ids.required_uuid(request.contact_id, "contact_id")

        async def work(conn: Any) -> wr.SetContactBlockedResponse:
            now = self._clock()
            row = await contacts.set_blocked(conn, org, contact, request.blocked, reason=request.reason, now=now)
            return wr.SetContactBlockedResponse(contact=m.contact(row, now))

        return await self._write(org, "SetContactBlocked", request.idempotency_key, wr.SetContactBlockedResponse,
                                 work)

    @unary
    async def SetHumanControl(self, request: wr.SetHumanControlRequest, context: Any) -> Any:
        org, contact = org_of(request), ids.required_uuid(request.contact_id, "contact_id")

        async def work(conn: Any) -> wr.SetHumanControlResponse:
            now = self._clock()
            row = await contacts.set_human_control(
                conn, org, contact, request.human_in_control, until=m.when(request, "until"), reason=request.reason,
                actor=actor_of(request, "actor"), now=now,
            )
            return wr.SetHumanControlResponse(contact=m.contact(row, now))

        return await self._write(org, "SetHumanControl", request.idempotency_key, wr.SetHumanControlResponse, work)

    @unary
    async def AnonymizeContact(self, request: wr.AnonymizeContactRequest, context: Any) -> Any:
        org, contact = org_of(request), ids.required_uuid(request.contact_id, "contact_id")

        async def work(conn: Any) -> wr.AnonymizeContactResponse:
            now = self._clock()
            row = await contacts.anonymize(conn, org, contact, reason=request.reason, now=now)
            return wr.AnonymizeContactResponse(contact=m.contact(row, now))

        return await self._write(org, "AnonymizeContact", request.idempotency_key, wr.AnonymizeContactResponse, work)

    @unary
    async def AssignAttendant(self, request: wr.AssignAttendantRequest, context: Any) -> Any:
        org, contact = org_of(request), ids.required_uuid(request.contact_id, "contact_id")

        async def work(conn: Any) -> wr.AssignAttendantResponse:
            now = self._clock()
            result = await contacts.assign_attendant(conn, org, contact, request.attendant_id.strip(),
                                                     reason=request.reason, source_turn_id=request.source_turn_id,
                                                     now=now)
            if result.refusal is not None:
                return wr.AssignAttendantResponse(refusal=result.refusal)
            assert result.contact is not None
            return wr.AssignAttendantResponse(contact=m.contact(result.contact, now), attendant=result.attendant)

        return await self._write(org, "AssignAttendant", request.idempotency_key, wr.AssignAttendantResponse, work)

    @unary
    async def UpdateLeadState(self, request: wr.UpdateLeadStateRequest, context: Any) -> Any:
        org, contact = org_of(request), ids.required_uuid(request.contact_id, "contact_id")

        async def work(conn: Any) -> wr.UpdateLeadStateResponse:
            result = await leads.update_lead_state(
                conn, org, contact, stage_key=request.stage_key.strip(), reason=request.reason,
                source_turn_id=request.source_turn_id, actor=actor_of(request, "actor"), now=self._clock(),
            )
            if result.refusal is not None:
                return wr.UpdateLeadStateResponse(refusal=result.refusal)
            assert result.state is not None
            return wr.UpdateLeadStateResponse(lead_state=m.lead_state(result.state))

        return await self._write(org, "UpdateLeadState", request.idempotency_key, wr.UpdateLeadStateResponse, work)

    @unary
    async def SaveLeadNote(self, request: wr.SaveLeadNoteRequest, context: Any) -> Any:
        org, contact = org_of(request), ids.required_uuid(request.contact_id, "contact_id")

        async def work(conn: Any) -> wr.SaveLeadNoteResponse:
            row = await leads.save_note(conn, org, contact, key=request.key, title=request.title, body=request.body,
                                        source_turn_id=request.source_turn_id, author=actor_of(request, "author"),
                                        now=self._clock())
            return wr.SaveLeadNoteResponse(note=m.lead_note(row))

        return await self._write(org, "SaveLeadNote", request.idempotency_key, wr.SaveLeadNoteResponse, work)

    @unary
    async def RecordActivity(self, request: wr.RecordActivityRequest, context: Any) -> Any:
        org, contact = org_of(request), ids.required_uuid(request.contact_id, "contact_id")
        summary = ids.required_text(request.summary_pt, "summary_pt", max_length=2000)

        async def work(conn: Any) -> wr.RecordActivityResponse:
            now = self._clock()
            await contacts.require(conn, org, contact)
            row = await timeline.record(
                conn, org, contact, request.kind or r.ACTIVITY_KIND_OTHER, summary, now,
                actor=actor_of(request, "actor"), turn_id=request.turn_id, event_id=request.event_id,
                details=m.struct_to_dict(request.details), occurred_at=m.when(request, "occurred_at"),
            )
            return wr.RecordActivityResponse(activity=m.activity(row))

        return await self._write(org, "RecordActivity", request.idempotency_key, wr.RecordActivityResponse, work)

    @unary
    async def OpenHumanCase(self, request: wr.OpenHumanCaseRequest, context: Any) -> Any:
        org, contact = org_of(request), ids.required_uuid(request.contact_id, "contact_id")
        if request.HasField("declaracao"):
            turns.validate_declaracao(request.declaracao, "declaracao")
        opening = cases.Opening(
            contact=contact, reason=request.reason, reason_text=request.reason_text, summary=request.summary,
            declaracao=request.declaracao if request.HasField("declaracao") else None, priority=request.priority,
            take_conversation=request.take_conversation, source_turn_id=request.source_turn_id,
            opened_by=actor_of(request, "opened_by"),
        )

        async def work(conn: Any) -> wr.OpenHumanCaseResponse:
            result = await cases.open_case(conn, org, opening, self._clock())
            updates = await cases_repo.updates_of(conn, org, [result.case["case_id"]])
            return wr.OpenHumanCaseResponse(
                human_case=m.human_case(result.case, updates[result.case["case_id"]]),
                already_open=result.already_open, central_item_id=result.central_item_id,
            )

        return await self._write(org, "OpenHumanCase", request.idempotency_key, wr.OpenHumanCaseResponse, work)

    @unary
    async def ProvideCaseUpdate(self, request: wr.ProvideCaseUpdateRequest, context: Any) -> Any:
        org, case_id = org_of(request), ids.required_uuid(request.case_id, "case_id")

        async def work(conn: Any) -> wr.ProvideCaseUpdateResponse:
            result = await cases.provide_update(
                conn, org, case_id, text=request.text, customer_facing=request.customer_facing,
                new_status=request.new_status, author=actor_of(request, "author"), now=self._clock(),
            )
            if result.refusal is not None:
                return wr.ProvideCaseUpdateResponse(refusal=result.refusal)
            assert result.case is not None and result.update is not None
            updates = await cases_repo.updates_of(conn, org, [case_id])
            return wr.ProvideCaseUpdateResponse(human_case=m.human_case(result.case, updates[case_id]),
                                                update=m.case_update(result.update))

        return await self._write(org, "ProvideCaseUpdate", request.idempotency_key, wr.ProvideCaseUpdateResponse,
                                 work)

    @unary
    async def CloseHumanCase(self, request: wr.CloseHumanCaseRequest, context: Any) -> Any:
        org, case_id = org_of(request), ids.required_uuid(request.case_id, "case_id")

        async def work(conn: Any) -> wr.CloseHumanCaseResponse:
            result = await cases.close_case(conn, org, case_id, resolution=request.resolution,
                                            return_conversation=request.return_conversation,
                                            closed_by=actor_of(request, "closed_by"), now=self._clock())
            if result.refusal is not None:
                return wr.CloseHumanCaseResponse(refusal=result.refusal)
            assert result.case is not None
            updates = await cases_repo.updates_of(conn, org, [case_id])
            return wr.CloseHumanCaseResponse(human_case=m.human_case(result.case, updates[case_id]))

        return await self._write(org, "CloseHumanCase", request.idempotency_key, wr.CloseHumanCaseResponse, work)

    @unary
    async def ScheduleFollowUp(self, request: wr.ScheduleFollowUpRequest, context: Any) -> Any:
        org, contact = org_of(request), ids.required_uuid(request.contact_id, "contact_id")
        item = followups.Scheduling(
            contact=contact, due_at=m.when(request, "due_at"), reason=request.reason, callback=request.callback,
            fixed_text=request.fixed_text, obligation=ids.optional_uuid(request.obligation_id, "obligation_id"),
            source_turn_id=request.source_turn_id, scheduled_by=actor_of(request, "scheduled_by"),
        )

        async def work(conn: Any) -> wr.ScheduleFollowUpResponse:
            result = await followups.schedule(conn, org, item, self._policy, self._clock())
            if result.refusal is not None:
                return wr.ScheduleFollowUpResponse(refusal=result.refusal)
            assert result.follow_up is not None
            return wr.ScheduleFollowUpResponse(follow_up=m.follow_up(result.follow_up), event_id=result.event_id)

        return await self._write(org, "ScheduleFollowUp", request.idempotency_key, wr.ScheduleFollowUpResponse, work)

    @unary
    async def CancelFollowUp(self, request: wr.CancelFollowUpRequest, context: Any) -> Any:
        org, follow_up = org_of(request), ids.required_uuid(request.follow_up_id, "follow_up_id")

        async def work(conn: Any) -> wr.CancelFollowUpResponse:
            result = await followups.cancel(conn, org, follow_up, reason=request.reason,
                                            actor=actor_of(request, "actor"), now=self._clock())
            if result.refusal is not None:
                return wr.CancelFollowUpResponse(refusal=result.refusal)
            assert result.follow_up is not None
            return wr.CancelFollowUpResponse(follow_up=m.follow_up(result.follow_up))

        return await self._write(org, "CancelFollowUp", request.idempotency_key, wr.CancelFollowUpResponse, work)

    @unary
    async def RecordFollowUpOutcome(self, request: wr.RecordFollowUpOutcomeRequest, context: Any) -> Any:
        org, follow_up = org_of(request), ids.required_uuid(request.follow_up_id, "follow_up_id")

        async def work(conn: Any) -> wr.RecordFollowUpOutcomeResponse:
            result = await followups.record_outcome(conn, org, follow_up, status=request.status,
                                                    detail=request.detail, turn_id=request.turn_id,
                                                    now=self._clock())
            if result.refusal is not None:
                return wr.RecordFollowUpOutcomeResponse(refusal=result.refusal)
            assert result.follow_up is not None
            return wr.RecordFollowUpOutcomeResponse(follow_up=m.follow_up(result.follow_up))

        return await self._write(org, "RecordFollowUpOutcome", request.idempotency_key,
                                 wr.RecordFollowUpOutcomeResponse, work)

    @unary
    async def ResolveObligation(self, request: wr.ResolveObligationRequest, context: Any) -> Any:
        org, obligation = org_of(request), ids.required_uuid(request.obligation_id, "obligation_id")
        item = obligations.Resolution(
            outcome=request.outcome, resolution=request.resolution, evidence=list(request.evidence),
            request_proactive_turn=request.request_proactive_turn, resolved_by=actor_of(request, "resolved_by"),
        )

        async def work(conn: Any) -> wr.ResolveObligationResponse:
            result = await obligations.resolve(conn, org, obligation, item, self._policy, self._clock())
            if result.refusal is not None:
                return wr.ResolveObligationResponse(refusal=result.refusal)
            assert result.obligation is not None
            return wr.ResolveObligationResponse(obligation=m.obligation(result.obligation),
                                                proactive_event_id=result.proactive_event_id)

        return await self._write(org, "ResolveObligation", request.idempotency_key, wr.ResolveObligationResponse,
                                 work)

    @unary
    async def RaiseCentralItem(self, request: wr.RaiseCentralItemRequest, context: Any) -> Any:
        org = org_of(request)
        contact = ids.optional_uuid(request.contact_id, "contact_id")
        title = ids.required_text(request.title_pt, "title_pt", max_length=300)
        if not request.kind:
            raise InvalidArgument("kind is required")

        async def work(conn: Any) -> wr.RaiseCentralItemResponse:
            await organizations.require(conn, org)
            if contact is not None:
                await contacts.require(conn, org, contact)
            row, new = await central.raise_item(
                conn, org, kind=request.kind, severity=request.severity, title_pt=title, body_pt=request.body_pt,
                code=request.code, contact=contact, turn_id=request.turn_id, event_id=request.event_id,
                details=m.struct_to_dict(request.details), raised_by=actor_of(request, "raised_by"),
                dedup_key=request.dedup_key, now=self._clock(),
            )
            return wr.RaiseCentralItemResponse(item=m.central_item(row), deduplicated=not new)

        return await self._write(org, "RaiseCentralItem", request.idempotency_key, wr.RaiseCentralItemResponse, work)

    @unary
    async def ResolveCentralItem(self, request: wr.ResolveCentralItemRequest, context: Any) -> Any:
        org, item = org_of(request), ids.required_uuid(request.central_item_id, "central_item_id")
        if request.status not in (r.CENTRAL_ITEM_STATUS_ACKNOWLEDGED, r.CENTRAL_ITEM_STATUS_RESOLVED,
                                  r.CENTRAL_ITEM_STATUS_DISMISSED):
            raise InvalidArgument("status must be ACKNOWLEDGED, RESOLVED or DISMISSED")

        async def work(conn: Any) -> wr.ResolveCentralItemResponse:
            row = await central_repo.set_status(
                conn, org, item, status=m.CENTRAL_STATUS.word(request.status), resolution=request.resolution.strip(),
                resolved_by=m.actor_doc(actor_of(request, "resolved_by")), now=self._clock(),
            )
            if row is None:
                raise NotFound(f"central item {item} not found in organization {org}")
            return wr.ResolveCentralItemResponse(item=m.central_item(row))

        return await self._write(org, "ResolveCentralItem", "", wr.ResolveCentralItemResponse, work)

    @unary
    async def UpsertKnowledgeArticle(self, request: wr.UpsertKnowledgeArticleRequest, context: Any) -> Any:
        org = org_of(request)
        article_id = ids.optional_uuid(request.article_id, "article_id")
        article = knowledge.Article(
            title=request.title, body=request.body, kind=request.kind, unit_id=request.unit_id,
            when_useful=request.when_useful, published=request.published, updated_by=actor_of(request, "updated_by"),
        )
        article.validate()

        async def work(conn: Any) -> wr.UpsertKnowledgeArticleResponse:
            row, created = await knowledge.upsert(conn, org, article_id, article, self._clock())
            return wr.UpsertKnowledgeArticleResponse(article=m.knowledge_article(row), created=created)

        return await self._write(org, "UpsertKnowledgeArticle", "", wr.UpsertKnowledgeArticleResponse, work)

    @unary
    async def DeleteKnowledgeArticle(self, request: wr.DeleteKnowledgeArticleRequest, context: Any) -> Any:
        org, article = org_of(request), ids.required_uuid(request.article_id, "article_id")

        async def work(conn: Any) -> wr.DeleteKnowledgeArticleResponse:
            row = await knowledge_repo.delete(conn, org, article)
            if row is None:
                raise NotFound(f"knowledge article {article} not found in organization {org}")
            return wr.DeleteKnowledgeArticleResponse(article=m.knowledge_article(row))

        return await self._write(org, "DeleteKnowledgeArticle", "", wr.DeleteKnowledgeArticleResponse, work)

    @unary
    async def SaveAgentDraft(self, request: wr.SaveAgentDraftRequest, context: Any) -> Any:
        org = org_of(request)
        configuration = agent_configuration.prepare(request.configuration)
        base = ids.optional_uuid(request.base_version_id, "base_version_id")

        async def work(conn: Any) -> wr.SaveAgentDraftResponse:
            row = await agent_configuration.save_draft(conn, org, configuration, note=request.note,
                                                       base_version=base, saved_by=actor_of(request, "saved_by"),
                                                       now=self._clock())
            return wr.SaveAgentDraftResponse(version=m.agent_version(row))

        return await self._write(org, "SaveAgentDraft", "", wr.SaveAgentDraftResponse, work)

    @unary
    async def PublishAgentVersion(self, request: wr.PublishAgentVersionRequest, context: Any) -> Any:
        org, version = org_of(request), ids.required_uuid(request.version_id, "version_id")

        async def work(conn: Any) -> wr.PublishAgentVersionResponse:
            row, superseded = await agent_configuration.publish(conn, org, version, self._clock())
            return wr.PublishAgentVersionResponse(version=m.agent_version(row), superseded_version_id=superseded)

        return await self._write(org, "PublishAgentVersion", request.idempotency_key, wr.PublishAgentVersionResponse,
                                 work)

    @unary
    async def CloseTurn(self, request: wr.CloseTurnRequest, context: Any) -> Any:
        org, contact = org_of(request), ids.required_uuid(request.contact_id, "contact_id")
        turn_id = turns.validate_turn_id(request.turn_id)
        if not request.HasField("checkpoint"):
            raise InvalidArgument("checkpoint is required (the closing's output)")
        if not request.checkpoint.HasField("declaracao"):
            raise InvalidArgument("checkpoint.declaracao is required: a turn closes with its declaração")
        turns.validate_declaracao(request.checkpoint.declaracao)
        closing = turns.Closing(contact=contact, turn_id=turn_id, unit_id=request.unit_id,
                                content=request.checkpoint, execution=request.execution,
                                traceparent=request.traceparent)

        async def work(conn: Any) -> wr.CloseTurnResponse:
            closed = await turns.close_turn(conn, org, closing, self._policy, self._clock())
            return wr.CloseTurnResponse(seq=closed.seq, obligation_ids=closed.obligation_ids,
                                        event_id=closed.event_id, replayed=closed.replayed)

        # The turn id is the natural key: a retried close of the same turn is a replay.
        key = request.idempotency_key or f"turn:{turn_id}"
        return await self._write(org, "CloseTurn", key, wr.CloseTurnResponse, work)

    @unary
    async def RecordTurnExecution(self, request: wr.RecordTurnExecutionRequest, context: Any) -> Any:
        org = org_of(request)
        record = request.execution
        turns.validate_turn_id(record.turn_id)
        ids.required_uuid(record.contact_id, "execution.contact_id")

        async def work(conn: Any) -> wr.RecordTurnExecutionResponse:
            await turns.record_execution(conn, org, record, self._clock())
            return wr.RecordTurnExecutionResponse(turn_id=record.turn_id)

        return await self._write(org, "RecordTurnExecution", "", wr.RecordTurnExecutionResponse, work)

    @unary
    async def RecordOperadorOutcome(self, request: wr.RecordOperadorOutcomeRequest, context: Any) -> Any:
        org, turn_id = org_of(request), turns.validate_turn_id(request.turn_id)
        if not request.HasField("outcome"):
            raise InvalidArgument("outcome is required")

        async def work(conn: Any) -> wr.RecordOperadorOutcomeResponse:
            await turns.record_operador_outcome(conn, org, turn_id, request.outcome, self._clock())
            return wr.RecordOperadorOutcomeResponse()

        return await self._write(org, "RecordOperadorOutcome", request.idempotency_key,
                                 wr.RecordOperadorOutcomeResponse, work)

    @unary
    async def RegisterTurnBasics(self, request: wr.RegisterTurnBasicsRequest, context: Any) -> Any:
        return await turn_basics.register(self._store, self._clock, self._policy, request)
