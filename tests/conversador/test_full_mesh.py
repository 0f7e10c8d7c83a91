"""Through the real mesh: crm holds the business, projection reads it, the conversador talks.

The mesh's conversador runs the offline model (no `ANTHROPIC_API_KEY`), so what it says can
only come from what projection returned from crm and agenda.
"""

from __future__ import annotations

import os
import uuid

import grpc
import pytest

from balcao.conversador.v1 import conversador_pb2 as cv
from balcao.conversador.v1 import conversador_pb2_grpc
from balcao.crm.v1 import crm_write_pb2 as wr
from balcao.crm.v1 import crm_write_pb2_grpc
from balcao.projection.v1 import projection_pb2 as pj
from balcao.projection.v1 import projection_pb2_grpc
from services.conversador.summary_cap import digit_tokens
from tests.support.mesh import RunningMesh

pytestmark = pytest.mark.skipif(
    bool(os.environ.get("ANTHROPIC_API_KEY")),
    reason="the mesh would talk to a real model; these expect the offline one",
)


def signed(mesh: RunningMesh, caller: str) -> tuple[tuple[str, str], ...]:
    return (("authorization", f"Bearer {mesh.token(caller)}"),)


async def a_customer(mesh: RunningMesh) -> tuple[str, str]:
    async with grpc.aio.insecure_channel(mesh.addr("crm")) as channel:
        crm = crm_write_pb2_grpc.CrmWriteServiceStub(channel)
        org = await crm.UpsertOrganization(
            wr.UpsertOrganizationRequest(name="Clínica Sorriso", time_zone="America/Sao_Paulo"),
            metadata=signed(mesh, "admin"),
        )
        organization_id = org.organization.organization_id
        contact = await crm.UpsertContact(
            wr.UpsertContactRequest(
                organization_id=organization_id,
                phone="+5519998877665",
                name="Maria Souza",
                idempotency_key=str(uuid.uuid4()),
            ),
            metadata=signed(mesh, "gateway"),
        )
    return organization_id, contact.contact.contact_id


async def test_a_turn_through_the_whole_mesh(mesh: RunningMesh) -> None:
    organization_id, contact_id = await a_customer(mesh)
    async with grpc.aio.insecure_channel(mesh.addr("projection")) as channel:
        projection = projection_pb2_grpc.ProjectionServiceStub(channel)
        opening = await projection.GetTurnContext(
            pj.GetTurnContextRequest(organization_id=organization_id, contact_id=contact_id),
            metadata=signed(mesh, "gateway"),
        )
        async with grpc.aio.insecure_channel(mesh.addr("conversador")) as conversador_channel:
            conversador = conversador_pb2_grpc.ConversadorServiceStub(conversador_channel)

            greeting = await conversador.Draft(
                cv.DraftRequest(
                    organization_id=organization_id,
                    contact_id=contact_id,
                    context=opening.context,
                    new_messages=[cv.ConversationMessage(author=cv.AUTHOR_CUSTOMER, text="Oi, boa tarde")],
                ),
                metadata=signed(mesh, "gateway"),
            )
            assert (
                greeting.reply.message
                == "Olá, Maria! Aqui é a assistente virtual da Clínica Sorriso. Como posso ajudar?"
            )

            said = "Preciso remarcar minha consulta"
            draft = await conversador.Draft(
                cv.DraftRequest(
                    organization_id=organization_id,
                    contact_id=contact_id,
                    context=opening.context,
                    new_messages=[cv.ConversationMessage(author=cv.AUTHOR_CUSTOMER, text=said)],
                ),
                metadata=signed(mesh, "gateway"),
            )
            assert draft.WhichOneof("result") == "reply", draft.failure
            results = [
                p.tool_result
                for step in draft.tape.steps
                for m in step.messages
                for p in m.parts
                if p.WhichOneof("content") == "tool_result"
            ]
            # The read went to the real agenda through projection: this contact has no bookings.
            assert [r.tool_name for r in results] == ["list_my_appointments"]
            assert '"agenda_consultada": true' in results[0].content
            assert "Não encontrei nenhum compromisso ativo e futuro" in draft.reply.message
            assert not digit_tokens(draft.reply.message)
            assert draft.reply.used_agenda_tool
            assert draft.reply.declaracao.intencoes[0].evidencia == said

            reread = await projection.ListMyAppointments(
                pj.ListMyAppointmentsRequest(organization_id=organization_id, contact_id=contact_id),
                metadata=signed(mesh, "gateway"),
            )
            closed = await conversador.Close(
                cv.CloseRequest(
                    organization_id=organization_id,
                    contact_id=contact_id,
                    new_messages=[cv.ConversationMessage(author=cv.AUTHOR_CUSTOMER, text=said)],
                    tape=draft.tape,
                    sent=cv.SentReply(text=draft.reply.message, delivered=True),
                    declaracao=draft.reply.declaracao,
                    agenda=reread.appointments,
                ),
                metadata=signed(mesh, "gateway"),
            )
    checkpoint = closed.checkpoint
    assert "Agenda atual: nenhum compromisso ativo e futuro." in checkpoint.rolling_summary
    assert "quer remarcar um compromisso" in checkpoint.rolling_summary
    assert checkpoint.declaracao == draft.reply.declaracao
    assert [u.provider for u in closed.usage] == ["offline"]
