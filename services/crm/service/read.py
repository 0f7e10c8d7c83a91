"""CrmReadService: every read of crm's facts, filtered on the organisation (in SQL, and by RLS)."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any
from uuid import UUID

from sqlalchemy.ext.asyncio import AsyncConnection

from balcao.crm.v1 import crm_read_pb2 as rd
from balcao.crm.v1 import crm_read_pb2_grpc
from balcao.crm.v1 import crm_resources_pb2 as r
from balcao.kit.identity import current_caller
from balcao.kit.mesh import ADMIN
from services.crm import (
    cases,
    contacts,
    followups,
    ids,
    organizations,
    paging,
    turn_basics,
    turns,
)
from services.crm import messages as m
from services.crm.clock import Clock
from services.crm.errors import InvalidArgument, NotFound, PermissionDenied
from services.crm.phones import normalize_phone
from services.crm.repository import agent_versions as agent_versions_repo
from services.crm.repository import cases as cases_repo
from services.crm.repository import central as central_repo
from services.crm.repository import contacts as contacts_repo
from services.crm.repository import followups as followups_repo
from services.crm.repository import knowledge as knowledge_repo
from services.crm.repository import leads as leads_repo
from services.crm.repository import obligations as obligations_repo
from services.crm.repository import operador_stats as operador_stats_repo
from services.crm.repository import organizations as organizations_repo
from services.crm.repository import snapshot as snapshot_repo
from services.crm.repository import turns as turns_repo
from services.crm.repository._sql import Row
from services.crm.service.status import Servicer, org_of, unary

ROLLING_SUMMARY_TRIGGER_CHARS = 2500  # seed 001
INSTALLATION_WIDE_CALLERS = frozenset({"gateway", ADMIN})
# The single list RPCs' defaults, which GetLeadSnapshot's parts share.
ACTIVITIES_PAGE = CASES_PAGE = FOLLOW_UPS_PAGE = KNOWLEDGE_PAGE = 50
NOT_CLOSED_CASES = ["open", "in_progress", "waiting_customer"]
PENDING_FOLLOW_UPS = ["pending"]


class CrmRead(Servicer, crm_read_pb2_grpc.CrmReadServiceServicer):
    """Reads of crm's facts, always filtered on the organisation (in SQL, and by RLS)."""

    @unary
    async def GetOrganization(self, request: rd.GetOrganizationRequest, context: Any) -> Any:
        org = org_of(request)
        async with self._store.tenant(org) as conn:
            row = await organizations.require(conn, org)
        return rd.GetOrganizationResponse(organization=m.organization(row))

    @unary
    async def ListOrganizations(self, request: rd.ListOrganizationsRequest, context: Any) -> Any:
        page = paging.page(request.page_size, request.page_token, default=50)
        async with self._store.all_tenants() as conn:
            rows = await organizations_repo.list_all(conn, limit=page.fetch, offset=page.offset)
        return rd.ListOrganizationsResponse(
            organizations=[m.organization(row) for row in rows[: page.limit]],
            next_page_token=page.next_token(len(rows)),
        )

    @unary
    async def GetContact(self, request: rd.GetContactRequest, context: Any) -> Any:
        org, contact = org_of(request), ids.required_uuid(request.contact_id, "contact_id")
        async with self._store.tenant(org) as conn:
            return await _contact(conn, org, contact, self._clock)

    @unary
    async def FindContactByPhone(self, request: rd.FindContactByPhoneRequest, context: Any) -> Any:
        org = org_of(request)
        phone = normalize_phone(request.phone, request.default_region)
        async with self._store.tenant(org) as conn:
            row = await contacts_repo.by_phone(conn, org, phone)
        if row is None:
            return rd.FindContactByPhoneResponse(found=False, phone_e164=phone)
        return rd.FindContactByPhoneResponse(found=True, contact=m.contact(row, self._clock()), phone_e164=phone)

    @unary
    async def ListContacts(self, request: rd.ListContactsRequest, context: Any) -> Any:
        org = org_of(request)
        page = paging.page(request.page_size, request.page_token, default=50)
        query = request.query.strip()
        digits = "".join(ch for ch in query if ch.isdigit())
        async with self._store.tenant(org) as conn:
            rows = await contacts_repo.list_page(
                conn, org, query=query, digits=digits if len(digits) >= 4 else "", limit=page.fetch,
                offset=page.offset,
            )
        now = self._clock()
        return rd.ListContactsResponse(
            contacts=[m.contact(row, now) for row in rows[: page.limit]], next_page_token=page.next_token(len(rows))
        )

    @unary
    async def GetLeadState(self, request: rd.GetLeadStateRequest, context: Any) -> Any:
        org, contact = org_of(request), ids.required_uuid(request.contact_id, "contact_id")
        async with self._store.tenant(org) as conn:
            await contacts.require(conn, org, contact)
            return await _lead_state(conn, org, contact)

    @unary
    async def LatestCheckpoint(self, request: rd.LatestCheckpointRequest, context: Any) -> Any:
        org, contact = org_of(request), ids.required_uuid(request.contact_id, "contact_id")
        async with self._store.tenant(org) as conn:
            await contacts.require(conn, org, contact)
            return await _latest_checkpoint(conn, org, contact)

    @unary
    async def GetCheckpoint(self, request: rd.GetCheckpointRequest, context: Any) -> Any:
        org, contact = org_of(request), ids.required_uuid(request.contact_id, "contact_id")
        selector = request.WhichOneof("selector")
        if selector is None:
            raise InvalidArgument("give turn_id or seq")
        async with self._store.tenant(org) as conn:
            if selector == "turn_id":
                row = await leads_repo.checkpoint_by_turn(conn, org, request.turn_id)
                row = row if row is not None and row["contact_id"] == contact else None
            else:
                row = await leads_repo.checkpoint_by_seq(conn, org, contact, request.seq)
        if row is None:
            which = f"turn {request.turn_id!r}" if selector == "turn_id" else f"seq {request.seq}"
            raise NotFound(f"contact {contact} has no checkpoint for {which}")
        return rd.GetCheckpointResponse(checkpoint=m.checkpoint(row))

    @unary
    async def ListCheckpoints(self, request: rd.ListCheckpointsRequest, context: Any) -> Any:
        org, contact = org_of(request), ids.required_uuid(request.contact_id, "contact_id")
        page = paging.page(request.page_size, request.page_token, default=20)
        async with self._store.tenant(org) as conn:
            rows = await leads_repo.list_checkpoints(conn, org, contact, limit=page.fetch, offset=page.offset)
        return rd.ListCheckpointsResponse(
            checkpoints=[m.checkpoint(row) for row in rows[: page.limit]], next_page_token=page.next_token(len(rows))
        )

    @unary
    async def GetRollingSummaryStats(self, request: rd.GetRollingSummaryStatsRequest, context: Any) -> Any:
        if request.threshold_chars < 0:
            raise InvalidArgument("threshold_chars must not be negative")
        threshold = request.threshold_chars or ROLLING_SUMMARY_TRIGGER_CHARS
        if request.organization_id:
            org = org_of(request)
            async with self._store.tenant(org) as conn:
                row = await leads_repo.rolling_summary_stats(conn, org)
        else:
            if current_caller.get() not in INSTALLATION_WIDE_CALLERS:
                raise PermissionDenied("measuring the whole installation is for the admin side; give organization_id")
            async with self._store.all_tenants() as conn:
                row = await leads_repo.rolling_summary_stats(conn, None)
        p95 = float(row["p95_chars"])
        return rd.GetRollingSummaryStatsResponse(
            contacts=row["contacts"], p95_chars=p95, max_chars=row["max_chars"], threshold_chars=threshold,
            triggered=p95 > threshold,
        )

    @unary
    async def ListLeadNotes(self, request: rd.ListLeadNotesRequest, context: Any) -> Any:
        org, contact = org_of(request), ids.required_uuid(request.contact_id, "contact_id")
        page = paging.page(request.page_size, request.page_token, default=50)
        async with self._store.tenant(org) as conn:
            rows = await leads_repo.list_notes(conn, org, contact, limit=page.fetch, offset=page.offset)
        return rd.ListLeadNotesResponse(
            notes=[m.lead_note(row) for row in rows[: page.limit]], next_page_token=page.next_token(len(rows))
        )

    @unary
    async def GetLeadNote(self, request: rd.GetLeadNoteRequest, context: Any) -> Any:
        org, contact = org_of(request), ids.required_uuid(request.contact_id, "contact_id")
        selector = request.WhichOneof("selector")
        if selector is None:
            raise InvalidArgument("give note_id or key")
        async with self._store.tenant(org) as conn:
            if selector == "note_id":
                row = await leads_repo.note_by_id(conn, org, contact, ids.required_uuid(request.note_id, "note_id"))
            else:
                row = await leads_repo.note_by_key(conn, org, contact, request.key)
        if row is None:
            return rd.GetLeadNoteResponse(found=False)
        return rd.GetLeadNoteResponse(found=True, note=m.lead_note(row))

    @unary
    async def ListActivities(self, request: rd.ListActivitiesRequest, context: Any) -> Any:
        org, contact = org_of(request), ids.required_uuid(request.contact_id, "contact_id")
        page = paging.page(request.page_size, request.page_token, default=ACTIVITIES_PAGE)
        kinds, since = m.ACTIVITY_KIND.words(request.kinds), m.when(request, "since")
        async with self._store.tenant(org) as conn:
            return await _activities(conn, org, contact, kinds=kinds, turn_id=request.turn_id, since=since, page=page)

    @unary
    async def ListHumanCases(self, request: rd.ListHumanCasesRequest, context: Any) -> Any:
        org = org_of(request)
        contact = ids.optional_uuid(request.contact_id, "contact_id")
        statuses = m.CASE_STATUS.words(request.statuses) or NOT_CLOSED_CASES
        page = paging.page(request.page_size, request.page_token, default=CASES_PAGE)
        async with self._store.tenant(org) as conn:
            return await _human_cases(conn, org, contact=contact, statuses=statuses, page=page)

    @unary
    async def GetHumanCase(self, request: rd.GetHumanCaseRequest, context: Any) -> Any:
        org, case_id = org_of(request), ids.required_uuid(request.case_id, "case_id")
        async with self._store.tenant(org) as conn:
            row = await cases.require(conn, org, case_id)
            updates = await cases_repo.updates_of(conn, org, [case_id])
        return rd.GetHumanCaseResponse(human_case=m.human_case(row, updates[case_id]))

    @unary
    async def ListFollowUps(self, request: rd.ListFollowUpsRequest, context: Any) -> Any:
        org = org_of(request)
        contact = ids.optional_uuid(request.contact_id, "contact_id")
        page = paging.page(request.page_size, request.page_token, default=FOLLOW_UPS_PAGE)
        statuses = m.FOLLOW_UP_STATUS.words(request.statuses) or PENDING_FOLLOW_UPS
        due_before = m.when(request, "due_before")
        async with self._store.tenant(org) as conn:
            return await _follow_ups(conn, org, contact=contact, statuses=statuses, due_before=due_before,
                                     callbacks_only=request.callbacks_only, page=page)

    @unary
    async def GetFollowUp(self, request: rd.GetFollowUpRequest, context: Any) -> Any:
        org, follow_up = org_of(request), ids.required_uuid(request.follow_up_id, "follow_up_id")
        async with self._store.tenant(org) as conn:
            row = await followups.require(conn, org, follow_up)
        return rd.GetFollowUpResponse(follow_up=m.follow_up(row))

    @unary
    async def ListObligations(self, request: rd.ListObligationsRequest, context: Any) -> Any:
        org = org_of(request)
        contact = ids.optional_uuid(request.contact_id, "contact_id")
        page = paging.page(request.page_size, request.page_token, default=50)
        async with self._store.tenant(org) as conn:
            rows = await obligations_repo.list_page(
                conn, org, contact=contact, turn_id=request.turn_id,
                statuses=m.OBLIGATION_STATUS.words(request.statuses), due_before=m.when(request, "due_before"),
                limit=page.fetch, offset=page.offset,
            )
        return rd.ListObligationsResponse(
            obligations=[m.obligation(row) for row in rows[: page.limit]], next_page_token=page.next_token(len(rows))
        )

    @unary
    async def GetObligationStats(self, request: rd.GetObligationStatsRequest, context: Any) -> Any:
        org = org_of(request)
        async with self._store.tenant(org) as conn:
            row = await obligations_repo.stats(conn, org, since=m.when(request, "since"), now=self._clock())
        return rd.GetObligationStatsResponse(stats=r.ObligationStats(**dict(row)))

    @unary
    async def ListCentralItems(self, request: rd.ListCentralItemsRequest, context: Any) -> Any:
        org = org_of(request)
        contact = ids.optional_uuid(request.contact_id, "contact_id")
        page = paging.page(request.page_size, request.page_token, default=50)
        async with self._store.tenant(org) as conn:
            rows = await central_repo.list_page(
                conn, org, statuses=m.CENTRAL_STATUS.words(request.statuses) or ["open", "acknowledged"],
                severities=m.CENTRAL_SEVERITY.words(request.severities), kinds=m.CENTRAL_KIND.words(request.kinds),
                contact=contact, limit=page.fetch, offset=page.offset,
            )
        return rd.ListCentralItemsResponse(
            items=[m.central_item(row) for row in rows[: page.limit]], next_page_token=page.next_token(len(rows))
        )

    @unary
    async def GetCentralItem(self, request: rd.GetCentralItemRequest, context: Any) -> Any:
        org, item = org_of(request), ids.required_uuid(request.central_item_id, "central_item_id")
        async with self._store.tenant(org) as conn:
            row = await central_repo.get(conn, org, item)
        if row is None:
            raise NotFound(f"central item {item} not found in organization {org}")
        return rd.GetCentralItemResponse(item=m.central_item(row))

    @unary
    async def SearchKnowledge(self, request: rd.SearchKnowledgeRequest, context: Any) -> Any:
        org = org_of(request)
        if not request.query.strip():
            raise InvalidArgument("query is required")
        if request.limit < 0:
            raise InvalidArgument("limit must not be negative")
        async with self._store.tenant(org) as conn:
            rows = await knowledge_repo.search(conn, org, query=request.query.strip()[:1000],
                                               unit_id=request.unit_id, limit=min(request.limit or 5, 50))
        return rd.SearchKnowledgeResponse(
            hits=[r.KnowledgeHit(article=m.knowledge_article(row), rank=row["rank"], snippet=row["snippet"])
                  for row in rows]
        )

    @unary
    async def ListKnowledgeArticles(self, request: rd.ListKnowledgeArticlesRequest, context: Any) -> Any:
        org = org_of(request)
        page = paging.page(request.page_size, request.page_token, default=KNOWLEDGE_PAGE)
        kinds = m.KNOWLEDGE_KIND.words(request.kinds)
        async with self._store.tenant(org) as conn:
            return await _knowledge_articles(conn, org, include_unpublished=request.include_unpublished, kinds=kinds,
                                             unit_id=request.unit_id, page=page)

    @unary
    async def GetKnowledgeArticle(self, request: rd.GetKnowledgeArticleRequest, context: Any) -> Any:
        org, article = org_of(request), ids.required_uuid(request.article_id, "article_id")
        async with self._store.tenant(org) as conn:
            row = await knowledge_repo.get(conn, org, article)
        if row is None:
            raise NotFound(f"knowledge article {article} not found in organization {org}")
        return rd.GetKnowledgeArticleResponse(article=m.knowledge_article(row))

    @unary
    async def GetSkillReference(self, request: rd.GetSkillReferenceRequest, context: Any) -> Any:
        org = org_of(request)
        title = ids.required_text(request.title, "title", max_length=300)
        async with self._store.tenant(org) as conn:
            row = await knowledge_repo.skill_reference(conn, org, unit_id=request.unit_id, title=title)
        if row is None:
            return rd.GetSkillReferenceResponse(found=False)
        return rd.GetSkillReferenceResponse(found=True, reference=m.knowledge_article(row))

    @unary
    async def GetTurnExecution(self, request: rd.GetTurnExecutionRequest, context: Any) -> Any:
        org, turn_id = org_of(request), turns.validate_turn_id(request.turn_id)
        async with self._store.tenant(org) as conn:
            row = await turns_repo.get(conn, org, turn_id)
        if row is None:
            raise NotFound(f"turn {turn_id} has no execution record in organization {org}")
        return rd.GetTurnExecutionResponse(execution=m.turn_execution(row))

    @unary
    async def ListTurnExecutions(self, request: rd.ListTurnExecutionsRequest, context: Any) -> Any:
        org = org_of(request)
        contact = ids.optional_uuid(request.contact_id, "contact_id")
        page = paging.page(request.page_size, request.page_token, default=50)
        async with self._store.tenant(org) as conn:
            rows = await turns_repo.list_page(
                conn, org, contact=contact, outcomes=m.TURN_OUTCOME.words(request.outcomes),
                include_tests=request.include_tests, since=m.when(request, "since"),
                until=m.when(request, "until"), limit=page.fetch, offset=page.offset,
            )
        return rd.ListTurnExecutionsResponse(
            executions=[m.turn_summary(row) for row in rows[: page.limit]], next_page_token=page.next_token(len(rows))
        )

    @unary
    async def GetTurnStats(self, request: rd.GetTurnStatsRequest, context: Any) -> Any:
        org = org_of(request)
        since = m.when(request, "since") or self._clock() - timedelta(hours=24)
        async with self._store.tenant(org) as conn:
            totals, by_outcome, vetoes = await turns_repo.stats(conn, org, since)
        return rd.GetTurnStatsResponse(stats=turns.stats(totals, by_outcome, vetoes))

    @unary
    async def GetAgentConfiguration(self, request: rd.GetAgentConfigurationRequest, context: Any) -> Any:
        org = org_of(request)
        version = ids.optional_uuid(request.version_id, "version_id")
        which = request.which or r.AGENT_VERSION_STATUS_PUBLISHED
        if version is None and which not in (r.AGENT_VERSION_STATUS_PUBLISHED, r.AGENT_VERSION_STATUS_DRAFT):
            raise InvalidArgument("which must be PUBLISHED or DRAFT (or give version_id)")
        async with self._store.tenant(org) as conn:
            if version is not None:
                row = await agent_versions_repo.get(conn, org, version)
            else:
                row = await agent_versions_repo.by_status(conn, org, m.AGENT_VERSION_STATUS.word(which))
        if row is None:
            return rd.GetAgentConfigurationResponse(found=False)
        return rd.GetAgentConfigurationResponse(found=True, version=m.agent_version(row))

    @unary
    async def ListAgentVersions(self, request: rd.ListAgentVersionsRequest, context: Any) -> Any:
        org = org_of(request)
        page = paging.page(request.page_size, request.page_token, default=20)
        async with self._store.tenant(org) as conn:
            rows = await agent_versions_repo.list_page(conn, org, limit=page.fetch, offset=page.offset)
        return rd.ListAgentVersionsResponse(
            versions=[m.agent_version(row) for row in rows[: page.limit]], next_page_token=page.next_token(len(rows))
        )

    @unary
    async def BatchGetClosedTurns(self, request: rd.BatchGetClosedTurnsRequest, context: Any) -> Any:
        return await turn_basics.read_closed_turns(self._store, self._clock(), request)

    @unary
    async def GetOperadorStats(self, request: rd.GetOperadorStatsRequest, context: Any) -> Any:
        org = org_of(request)
        since = m.when(request, "since")
        if since is None:
            raise InvalidArgument("since is required: the window's start")
        async with self._store.tenant(org) as conn:
            await organizations.require(conn, org)
            outcomes = await operador_stats_repo.outcomes(conn, org, since)
            promises = await obligations_repo.stats(conn, org, since=since, now=self._clock())
            dead = await operador_stats_repo.dead_events(conn, org, since)
        return rd.GetOperadorStatsResponse(stats=rd.OperadorStats(
            **dict(outcomes), obligations=r.ObligationStats(**dict(promises)), events_dead=dead))

    @unary
    async def GetLeadSnapshot(self, request: rd.GetLeadSnapshotRequest, context: Any) -> Any:
        org, contact = org_of(request), ids.required_uuid(request.contact_id, "contact_id")
        activities_page = paging.page(request.activities_page_size, "", default=ACTIVITIES_PAGE)
        knowledge = request.knowledge_articles if request.HasField("knowledge_articles") else None
        knowledge_kinds = m.KNOWLEDGE_KIND.words(knowledge.kinds) if knowledge is not None else []
        cases_page = paging.page(0, "", default=CASES_PAGE)
        follow_ups_page = paging.page(0, "", default=FOLLOW_UPS_PAGE)
        async with self._store.snapshot(org) as conn:
            # The contact and five parts in one statement, each part the single read's own statement.
            parts = await snapshot_repo.read(
                conn, org, contact, case_statuses=NOT_CLOSED_CASES, cases_limit=cases_page.fetch,
                follow_up_statuses=PENDING_FOLLOW_UPS, follow_ups_limit=follow_ups_page.fetch,
                activities_limit=activities_page.fetch,
            )
            # An unknown contact → NOT_FOUND, as GetContact (nothing else is answered).
            snapshot = rd.GetLeadSnapshotResponse(
                contact=_contact_of(contacts.found(parts["contact"], org, contact), self._clock))
            snapshot.lead_state.CopyFrom(_lead_state_of(parts["lead_state"]))
            snapshot.latest_checkpoint.CopyFrom(_latest_checkpoint_of(parts["latest_checkpoint"]))
            snapshot.human_cases.CopyFrom(await _human_cases_of(conn, org, parts["human_cases"], cases_page))
            snapshot.pending_follow_ups.CopyFrom(_follow_ups_of(parts["follow_ups"], follow_ups_page))
            snapshot.activities.CopyFrom(_activities_of(parts["activities"], activities_page))
            if knowledge is not None:
                snapshot.knowledge_articles.CopyFrom(await _knowledge_articles(
                    conn, org, include_unpublished=False, kinds=knowledge_kinds, unit_id=knowledge.unit_id,
                    page=paging.page(0, "", default=KNOWLEDGE_PAGE)))
        return snapshot


# --- the parts a single RPC and GetLeadSnapshot share: one builder each, so both answer alike -----


async def _contact(conn: AsyncConnection, org: UUID, contact: UUID, clock: Clock) -> rd.GetContactResponse:
    return _contact_of(await contacts.require(conn, org, contact), clock)


def _contact_of(row: Row, clock: Clock) -> rd.GetContactResponse:
    return rd.GetContactResponse(contact=m.contact(row, clock()))


async def _lead_state(conn: AsyncConnection, org: UUID, contact: UUID) -> rd.GetLeadStateResponse:
    return _lead_state_of(await leads_repo.get_state(conn, org, contact))


def _lead_state_of(row: Row | None) -> rd.GetLeadStateResponse:
    if row is None:
        return rd.GetLeadStateResponse(found=False)
    return rd.GetLeadStateResponse(found=True, lead_state=m.lead_state(row))


async def _latest_checkpoint(conn: AsyncConnection, org: UUID, contact: UUID) -> rd.LatestCheckpointResponse:
    return _latest_checkpoint_of(await leads_repo.latest_checkpoint(conn, org, contact))


def _latest_checkpoint_of(row: Row | None) -> rd.LatestCheckpointResponse:
    if row is None:
        return rd.LatestCheckpointResponse(found=False)
    return rd.LatestCheckpointResponse(found=True, checkpoint=m.checkpoint(row))


async def _activities(conn: AsyncConnection, org: UUID, contact: UUID, *, kinds: list[str], turn_id: str,
                      since: datetime | None, page: paging.Page) -> rd.ListActivitiesResponse:
    rows = await leads_repo.list_activities(conn, org, contact, kinds=kinds, turn_id=turn_id, since=since,
                                            limit=page.fetch, offset=page.offset)
    return _activities_of(rows, page)


def _activities_of(rows: list[Row], page: paging.Page) -> rd.ListActivitiesResponse:
    return rd.ListActivitiesResponse(
        activities=[m.activity(row) for row in rows[: page.limit]], next_page_token=page.next_token(len(rows))
    )


async def _human_cases(conn: AsyncConnection, org: UUID, *, contact: UUID | None, statuses: list[str],
                       page: paging.Page) -> rd.ListHumanCasesResponse:
    rows = await cases_repo.list_page(conn, org, contact=contact, statuses=statuses, limit=page.fetch,
                                      offset=page.offset)
    return await _human_cases_of(conn, org, rows, page)


async def _human_cases_of(conn: AsyncConnection, org: UUID, rows: list[Row],
                          page: paging.Page) -> rd.ListHumanCasesResponse:
    shown = rows[: page.limit]
    # No case, no updates to read: most contacts have no open case, and this saves the query.
    updates = await cases_repo.updates_of(conn, org, [row["case_id"] for row in shown]) if shown else {}
    return rd.ListHumanCasesResponse(
        cases=[m.human_case(row, updates[row["case_id"]]) for row in shown],
        next_page_token=page.next_token(len(rows)),
    )


async def _follow_ups(conn: AsyncConnection, org: UUID, *, contact: UUID | None, statuses: list[str],
                      due_before: datetime | None, callbacks_only: bool, page: paging.Page) -> rd.ListFollowUpsResponse:
    rows = await followups_repo.list_page(conn, org, contact=contact, statuses=statuses, due_before=due_before,
                                          callbacks_only=callbacks_only, limit=page.fetch, offset=page.offset)
    return _follow_ups_of(rows, page)


def _follow_ups_of(rows: list[Row], page: paging.Page) -> rd.ListFollowUpsResponse:
    return rd.ListFollowUpsResponse(
        follow_ups=[m.follow_up(row) for row in rows[: page.limit]], next_page_token=page.next_token(len(rows))
    )


async def _knowledge_articles(conn: AsyncConnection, org: UUID, *, include_unpublished: bool, kinds: list[str],
                              unit_id: str, page: paging.Page) -> rd.ListKnowledgeArticlesResponse:
    rows = await knowledge_repo.list_page(conn, org, include_unpublished=include_unpublished, kinds=kinds,
                                          unit_id=unit_id, limit=page.fetch, offset=page.offset)
    return rd.ListKnowledgeArticlesResponse(
        articles=[m.knowledge_article(row) for row in rows[: page.limit]], next_page_token=page.next_token(len(rows))
    )
