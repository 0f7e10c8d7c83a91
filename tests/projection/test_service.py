"""ProjectionService through the real mesh: data seeded with crm's and agenda's write RPCs.

The Conversador's calls go to the projection process of `balcao up`, which reads crm and agenda
over the mesh; every assertion is about what the Conversador (or the runtime) receives.
"""

from __future__ import annotations

import uuid
from datetime import UTC, date, datetime, timedelta

import grpc
import pytest
from google.protobuf import message_factory

from balcao.agenda.v1 import agenda_read_pb2
from balcao.agenda.v1 import agenda_resources_pb2 as A
from balcao.crm.v1 import crm_resources_pb2 as C
from balcao.crm.v1 import crm_write_pb2
from balcao.kit.channels import open_channel
from balcao.kit.mesh import CALLERS
from balcao.kit.server import Registration, ServiceDefinition, create_server
from balcao.projection.v1 import projection_pb2 as P
from balcao.projection.v1 import projection_pb2_grpc
from services.projection import appointments as appointment_texts
from services.projection import availability as availability_texts
from services.projection.config import Settings
from services.projection.consequences import CONSEQUENCES, GENERIC
from services.projection.handles import SlotRef, handle_key, resolve
from services.projection.reads import Reads
from services.projection.service import POLICY, Projection
from tests.projection.samples import strings
from tests.projection.seeding import Business, Mesh, local_time, phone
from tests.support.mesh import RunningMesh, free_port

UNSAFE_URL = "a integração está configurada com um endereço que não é seguro"
SERVICE = P.DESCRIPTOR.services_by_name["ProjectionService"]
RUNTIME_RPCS = {"GetTurnContext", "ListMyAppointments"}


def whole(response: object) -> str:
    return "\n".join(strings(response))  # type: ignore[arg-type]


def assert_no_ids(response: object, business: Business) -> None:
    text = whole(response).lower()
    leaked = [i for i in business.ids if i and (i.lower() in text or i.replace("-", "").lower() in text)]
    assert leaked == []


# --- who may call ----------------------------------------------------------------------------


@pytest.mark.parametrize("caller", sorted(CALLERS))
async def test_only_the_conversador_and_the_runtime_may_call(stubs: Mesh, caller: str) -> None:
    codes = {}
    for method in SERVICE.methods:
        request_class = message_factory.GetMessageClass(method.input_type)
        response_class = message_factory.GetMessageClass(method.output_type)
        call = stubs.channels["projection"].unary_unary(
            f"/{SERVICE.full_name}/{method.name}",
            request_serializer=request_class.SerializeToString,
            response_deserializer=response_class.FromString,
        )
        try:
            await call(request_class(), metadata=stubs.auth(caller), timeout=10)
            codes[method.name] = grpc.StatusCode.OK
        except grpc.aio.AioRpcError as exc:
            codes[method.name] = exc.code()
    allowed = {m.name for m in SERVICE.methods} if caller == "conversador" else set()
    if caller == "gateway":
        allowed = RUNTIME_RPCS
    # An allowed caller gets past the identity check to the request's validation (an empty request).
    expected = {
        m.name: grpc.StatusCode.INVALID_ARGUMENT if m.name in allowed else grpc.StatusCode.PERMISSION_DENIED
        for m in SERVICE.methods
    }
    assert codes == expected


async def test_a_malformed_or_unknown_organisation_is_refused(stubs: Mesh) -> None:
    with pytest.raises(grpc.aio.AioRpcError) as malformed:
        await stubs.projection.GetTurnContext(
            P.GetTurnContextRequest(organization_id="42", contact_id=str(uuid.uuid4())),
            metadata=stubs.auth("conversador"),
        )
    assert malformed.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    with pytest.raises(grpc.aio.AioRpcError) as unknown:
        await stubs.projection.GetTurnContext(
            P.GetTurnContextRequest(organization_id=str(uuid.uuid4()), contact_id=str(uuid.uuid4())),
            metadata=stubs.auth("conversador"),
        )
    assert unknown.value.code() == grpc.StatusCode.NOT_FOUND


# --- the seed's case, end to end -------------------------------------------------------------


async def test_unsafe_url_reaches_the_conversador_only_as_its_consequence(stubs: Mesh) -> None:
    """The Operador met `unsafe_url:https_required` calling the business's integration and
    recorded it on the timeline (details.code, and the raw line of the measured leak); the next
    turn's Conversador reads the timeline through projection and sees only the consequence."""
    business = await stubs.business(phone())
    await stubs.activity(
        business, "deram erro na ação de webhook: unsafe_url:https_required", "unsafe_url:https_required"
    )
    ids = P.GetLeadContextRequest(organization_id=business.organization_id, contact_id=business.contact_id)
    lead = await stubs.projection.GetLeadContext(ids, metadata=stubs.auth("conversador"))
    opening = await stubs.projection.GetTurnContext(
        P.GetTurnContextRequest(organization_id=business.organization_id, contact_id=business.contact_id),
        metadata=stubs.auth("conversador"),
    )
    for response, timeline in ((lead, lead.lead.recent_activities), (opening, opening.context.lead.recent_activities)):
        assert [e.text for e in timeline] == [
            f"Uma providência para este cliente não pôde ser concluída: {UNSAFE_URL}."
        ]
        text = whole(response)
        for internal in ("unsafe_url", "https_required", "webhook", "https"):
            assert internal not in text
        assert_no_ids(response, business)
    # A known code raises nothing.
    assert list((await stubs.central_items(business)).items) == []


async def test_an_unknown_code_is_generic_and_raises_one_central_item(stubs: Mesh) -> None:
    business = await stubs.business(phone())
    await stubs.activity(business, "falhou ao cobrar", "payments:acquirer_timeout")
    request = P.GetLeadContextRequest(organization_id=business.organization_id, contact_id=business.contact_id)
    response = await stubs.projection.GetLeadContext(request, metadata=stubs.auth("conversador"))
    assert GENERIC in response.lead.recent_activities[0].text
    assert "acquirer" not in whole(response)
    items = (await stubs.central_items(business)).items
    assert [(i.code, i.contact_id, i.kind) for i in items] == [
        ("payments:acquirer_timeout", business.contact_id, C.CENTRAL_ITEM_KIND_UNMAPPED_ERROR)
    ]
    # Seen again: the same open item is counted, not repeated.
    await stubs.projection.GetLeadContext(request, metadata=stubs.auth("conversador"))
    items = (await stubs.central_items(business)).items
    assert len(items) == 1 and items[0].occurrences == 2


# --- the opening -----------------------------------------------------------------------------


async def test_the_opening_in_business_language_for_the_conversador_and_the_runtime(stubs: Mesh) -> None:
    business = await stubs.business(phone())
    await stubs.lead_memory(business)
    resource = await stubs.resource(business)
    await stubs.service(business)
    await stubs.unit(business, [resource])
    first_day = datetime.now(UTC).date() + timedelta(days=3)
    for offset in range(6):
        await stubs.book(business, local_time(first_day + timedelta(days=offset), "10:00:00"))
    raw = await stubs.raw_appointments(business)

    request = P.GetTurnContextRequest(organization_id=business.organization_id, contact_id=business.contact_id)
    for caller in ("conversador", "gateway"):
        context = (await stubs.projection.GetTurnContext(request, metadata=stubs.auth(caller))).context
        lead = context.lead
        assert lead.contact.name == "Ana Paula" and lead.contact.channel_label == "WhatsApp"
        assert lead.memory.rolling_summary == "Ana quer clarear os dentes antes do casamento em dezembro."
        assert list(lead.memory.commitments) == ["enviar os horários de quinta"]
        assert (lead.stage.label, lead.stage.generic) == ("Aguardando pagamento", False)
        assert [c.subject for c in lead.open_cases] == ["dúvida sobre reembolso"]
        assert [f.reason for f in lead.pending_followups] == ["retornar com o orçamento do clareamento"]
        view = context.appointments
        assert view.appointments_known == P.AGENDA_KNOWLEDGE_KNOWN
        assert len(view.appointments) == 5 and view.more_exist and view.notice == appointment_texts.MORE_EXIST
        assert [a.local_label for a in view.appointments] == [a.labels.start_label for a in raw.appointments[:5]]
        assert [a.starts_at_iso for a in view.appointments] == [a.labels.start_iso for a in raw.appointments[:5]]
        assert view.appointments[0].place == "Clínica Sorriso, sala 2 — Rua Barão de Jaguara, 1200"
        assert context.unit.name == "Recepção da clínica"
        assert [r.title for r in context.unit.skill_references] == ["Tabela de clareamento"]
        assert context.business.organization_name == "Clínica Sorriso"
        assert "Consulta de avaliação: R$ 280,00" in context.business.authorised_commercial_facts
        assert context.now_iso.endswith("-03:00")
        text = whole(context)
        assert "qualifying" not in text and "+5511" not in text
        assert_no_ids(context, business)


async def test_no_appointment_reads_as_none_active_never_as_a_free_agenda(stubs: Mesh) -> None:
    business = await stubs.business(phone())
    view = (
        await stubs.projection.ListMyAppointments(
            P.ListMyAppointmentsRequest(organization_id=business.organization_id, contact_id=business.contact_id),
            metadata=stubs.auth("gateway"),
        )
    ).appointments
    assert view.appointments_known == P.AGENDA_KNOWLEDGE_KNOWN
    assert list(view.appointments) == []
    assert view.notice == appointment_texts.NONE_ACTIVE


def next_fall_back() -> date:
    """The next first Sunday of November (New York's clocks go back: 01:30 happens twice)."""
    today = datetime.now(UTC).date()
    for year in (today.year, today.year + 1):
        first = date(year, 11, 1)
        sunday = first + timedelta(days=(6 - first.weekday()) % 7)
        if sunday > today + timedelta(days=1):
            return sunday
    raise AssertionError("unreachable")


async def test_dst_labels_from_agenda_pass_whole(stubs: Mesh) -> None:
    """01:30 on the fall-back Sunday happens twice in New York; both keep agenda's own labels."""
    business = await stubs.business(phone())
    resource = await stubs.resource(business, zone="America/New_York", name="Dr. John Smith")
    await stubs.service(business)
    day = next_fall_back()
    await stubs.book(business, local_time(day, "01:30:00", "America/New_York", A.LOCAL_TIME_FOLD_EARLIER), resource)
    await stubs.book(business, local_time(day, "01:30:00", "America/New_York", A.LOCAL_TIME_FOLD_LATER), resource)
    raw = await stubs.raw_appointments(business)
    view = (
        await stubs.projection.ListMyAppointments(
            P.ListMyAppointmentsRequest(organization_id=business.organization_id, contact_id=business.contact_id),
            metadata=stubs.auth("conversador"),
        )
    ).appointments
    assert [(a.local_label, a.starts_at_iso) for a in view.appointments] == [
        (a.labels.start_label, a.labels.start_iso) for a in raw.appointments
    ]
    first, second = view.appointments
    assert first.local_label != second.local_label
    assert first.starts_at_iso == f"{day.isoformat()}T01:30:00-04:00"
    assert second.starts_at_iso == f"{day.isoformat()}T01:30:00-05:00"


async def test_a_failed_agenda_read_is_unknown_never_empty(mesh: RunningMesh, stubs: Mesh) -> None:
    """A projection whose agenda does not answer (nothing listens at its address)."""
    business = await stubs.business(phone())
    await stubs.lead_memory(business)
    settings = Settings(
        mesh_secret=mesh.secret.decode(),
        crm_addr=mesh.addr("crm"),
        agenda_addr=f"127.0.0.1:{free_port()}",
        read_timeout_seconds=3,
    )
    crm, agenda = open_channel(settings, "crm"), open_channel(settings, "agenda")
    servicer = Projection(Reads(crm, agenda, timeout=3), handle_key(mesh.secret))
    definition = ServiceDefinition(
        [Registration(servicer, projection_pb2_grpc.add_ProjectionServiceServicer_to_server, POLICY)]
    )
    running = await create_server(definition, secret=mesh.secret, host="127.0.0.1", port=0)
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{running.port}") as channel:
            stub = projection_pb2_grpc.ProjectionServiceStub(channel)
            ids = {"organization_id": business.organization_id, "contact_id": business.contact_id}
            listed = await stub.ListMyAppointments(P.ListMyAppointmentsRequest(**ids), metadata=stubs.auth("gateway"))
            opening = await stub.GetTurnContext(P.GetTurnContextRequest(**ids), metadata=stubs.auth("conversador"))
    finally:
        await running.server.stop(None)
        await crm.close()
        await agenda.close()
    for view in (listed.appointments, opening.context.appointments):
        assert view.appointments_known == P.AGENDA_KNOWLEDGE_UNKNOWN
        assert list(view.appointments) == []
        assert view.notice == appointment_texts.UNKNOWN
    assert opening.context.lead.memory.rolling_summary  # the rest of the opening stands


# --- the read tools --------------------------------------------------------------------------


async def test_check_availability_gives_labelled_slots_with_handles_the_operador_can_resolve(
    mesh: RunningMesh, stubs: Mesh
) -> None:
    business = await stubs.business(phone())
    resource = await stubs.resource(business)
    await stubs.service(business)
    await stubs.unit(business, [resource])
    day = datetime.now(UTC).date() + timedelta(days=4)
    request = P.CheckAvailabilityRequest(
        organization_id=business.organization_id,
        contact_id=business.contact_id,
        unit_id=business.unit_id,
        service="consulta de avaliacao",
        professional="beatriz",
        from_date=day.isoformat(),
        part_of_day=P.PART_OF_DAY_MORNING,
        max_slots=4,
    )
    response = await stubs.projection.CheckAvailability(request, metadata=stubs.auth("conversador"))
    assert len(response.slots) == 4 and response.notice == availability_texts.MORE_SLOTS
    assert not response.HasField("consequence")
    assert all(s.handle and s.local_label and s.professional == "Dra. Beatriz Lima" for s in response.slots)
    assert response.slots[0].duration_label == "30 minutos"
    assert_no_ids(response, business)

    # The Operador, later: agenda's raw slots for that morning, and the pure resolve.
    raw = await stubs.agenda_read.CheckAvailability(
        agenda_read_pb2.CheckAvailabilityRequest(
            organization_id=business.organization_id,
            resource_ids=[resource],
            service_id=business.service_id,
            local_dates=A.LocalDateRange(first_date=day.isoformat(), last_date=day.isoformat()),
            max_slots=50,
        ),
        metadata=stubs.auth("operador"),
    )
    candidates = [SlotRef(s.resource_id, s.service_id, s.start_time.ToDatetime(tzinfo=UTC)) for s in raw.slots]
    chosen = response.slots[2]
    named = resolve(
        handle_key(mesh.secret),
        chosen.handle,
        organization_id=business.organization_id,
        contact_id=business.contact_id,
        now=datetime.now(UTC),
        candidates=candidates,
    )
    assert named is not None
    assert named.resource_id == resource
    assert named.start == datetime.fromisoformat(chosen.starts_at_iso)
    other_contact = resolve(
        handle_key(mesh.secret),
        chosen.handle,
        organization_id=business.organization_id,
        contact_id=str(uuid.uuid4()),
        now=datetime.now(UTC),
        candidates=candidates,
    )
    assert other_contact is None


async def test_check_availability_offers_the_professionals_of_the_version_the_turn_uses(stubs: Mesh) -> None:
    """Under "Testar" with the draft, the draft's unit decides who is offered, not the published one."""
    business = await stubs.business(phone())
    published = await stubs.resource(business, name="Dra. Beatriz Lima")
    drafted = await stubs.resource(business, name="Dr. Carlos Mota")
    await stubs.service(business)
    await stubs.unit(business, [published])
    configuration = C.AgentConfiguration()
    unit = configuration.units.add(unit_id=business.unit_id, name="Recepção da clínica", description="agendamentos")
    unit.resource_ids.append(drafted)
    draft = await stubs.crm_write.SaveAgentDraft(
        crm_write_pb2.SaveAgentDraftRequest(organization_id=business.organization_id, configuration=configuration),
        metadata=stubs.auth("gateway"),
    )
    day = datetime.now(UTC).date() + timedelta(days=4)

    async def offered(version: str) -> set[str]:
        request = P.CheckAvailabilityRequest(
            organization_id=business.organization_id,
            contact_id=business.contact_id,
            unit_id=business.unit_id,
            service="consulta de avaliacao",
            from_date=day.isoformat(),
            max_slots=12,
            agent_version_id=version,
        )
        response = await stubs.projection.CheckAvailability(request, metadata=stubs.auth("conversador"))
        assert response.slots and not response.HasField("consequence")
        return {slot.professional for slot in response.slots}

    assert await offered("") == {"Dra. Beatriz Lima"}
    assert await offered(draft.version.version_id) == {"Dr. Carlos Mota"}
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await offered("rascunho")
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT and "agent_version_id" in refused.value.details()


async def test_check_availability_refusals_are_consequences(stubs: Mesh) -> None:
    business = await stubs.business(phone())
    await stubs.resource(business)
    await stubs.service(business)
    day = datetime.now(UTC).date() + timedelta(days=4)
    base = {"organization_id": business.organization_id, "contact_id": business.contact_id}
    unknown = await stubs.projection.CheckAvailability(
        P.CheckAvailabilityRequest(**base, service="depilação a laser", from_date=day.isoformat()),
        metadata=stubs.auth("conversador"),
    )
    assert unknown.consequence.text == CONSEQUENCES["agenda:unknown_service"] and list(unknown.slots) == []
    too_long = await stubs.projection.CheckAvailability(
        P.CheckAvailabilityRequest(**base, from_date=day.isoformat(), to_date=(day + timedelta(days=400)).isoformat()),
        metadata=stubs.auth("conversador"),
    )
    assert too_long.consequence.text == CONSEQUENCES["agenda:range_too_long"]
    assert "RANGE" not in whole(too_long)
    with pytest.raises(grpc.aio.AioRpcError) as bad:
        await stubs.projection.CheckAvailability(
            P.CheckAvailabilityRequest(**base, from_date="amanhã"), metadata=stubs.auth("conversador")
        )
    assert bad.value.code() == grpc.StatusCode.INVALID_ARGUMENT


async def test_knowledge_notes_and_references(stubs: Mesh) -> None:
    business = await stubs.business(phone())
    resource = await stubs.resource(business)
    await stubs.unit(business, [resource])
    await stubs.note(business, "Preferências", "prefere atendimento à tarde")
    base = {"organization_id": business.organization_id, "contact_id": business.contact_id}
    conversador = stubs.auth("conversador")

    found = await stubs.projection.SearchKnowledge(
        P.SearchKnowledgeRequest(**base, unit_id=business.unit_id, query="clareamento"), metadata=conversador
    )
    assert [h.title for h in found.hits] == ["Como funciona o clareamento"]
    nothing = await stubs.projection.SearchKnowledge(
        P.SearchKnowledgeRequest(**base, query="estacionamento conveniado"), metadata=conversador
    )
    assert list(nothing.hits) == [] and nothing.notice.startswith("não há nada cadastrado")

    notes = await stubs.projection.GetLeadNote(P.GetLeadNoteRequest(**base), metadata=conversador)
    assert [(n.author, n.text) for n in notes.notes] == [("a equipe", "Preferências: prefere atendimento à tarde")]
    assert "Marta" not in whole(notes) and "preferencias" not in whole(notes)

    reference = await stubs.projection.ReadSkillReference(
        P.ReadSkillReferenceRequest(**base, unit_id=business.unit_id, title="tabela de clareamento"),
        metadata=conversador,
    )
    assert reference.reference.content == "Sessão única: R$ 800,00."
    for response in (found, notes, reference):
        assert_no_ids(response, business)
