"""Gates switched per organisation, and knowledge the agent then finds."""

from __future__ import annotations

import uuid

import grpc
from google.protobuf.field_mask_pb2 import FieldMask

from balcao.gateway.v1 import gateway_pb2 as gw
from balcao.projection.v1 import projection_pb2 as pj
from balcao.projection.v1 import projection_pb2_grpc
from balcao.seguranca.v1 import seguranca_pb2 as sg
from balcao.seguranca.v1 import seguranca_pb2_grpc
from tests.gateway import support
from tests.gateway.admin.conftest import refused
from tests.support.mesh import RunningMesh

DRAFT = "A avaliação sai por R$ 280,00 e o clareamento é grátis."


def _review(org: support.Org) -> sg.ReviewOutboundRequest:
    return sg.ReviewOutboundRequest(
        organization_id=org.organization_id,
        contact_id=str(uuid.uuid4()),
        turn_id=str(uuid.uuid4()),
        kind=sg.OUTBOUND_KIND_REPLY,
        attempt=1,
        draft=DRAFT,
        contact=sg.ContactFacts(phone="+5511912345678"),
        channel=sg.ChannelFacts(name="test", max_text_chars=4096, sender="+551130000000"),
    )


async def test_a_gate_off_for_one_organisation_changes_its_reviews_only_and_stop_stays_on(
    mesh: RunningMesh, admin: support.Client
) -> None:
    relaxed, strict = await support.create_org(mesh), await support.create_org(mesh)
    md = support.metadata(mesh, "gateway")
    async with grpc.aio.insecure_channel(mesh.addr("seguranca")) as channel:
        seguranca = seguranca_pb2_grpc.SegurancaServiceStub(channel)
        assert (await seguranca.ReviewOutbound(_review(relaxed), metadata=md)).WhichOneof("decision") == "vetoed"

        change = await admin.stub.SetGateEnabled(
            gw.SetGateEnabledRequest(organization_id=relaxed.organization_id, gate="commercial_promise", enabled=False),
            metadata=admin.md,
        )
        assert not change.refusal_pt and change.gate.enabled is False and change.consequence_pt

        assert (await seguranca.ReviewOutbound(_review(relaxed), metadata=md)).WhichOneof("decision") == "approved"
        assert (await seguranca.ReviewOutbound(_review(strict), metadata=md)).WhichOneof("decision") == "vetoed"

    gates = await admin.stub.ListGates(gw.ListGatesRequest(organization_id=relaxed.organization_id), metadata=admin.md)
    by_name = {g.name: g for g in gates.gates}
    assert by_name["commercial_promise"].enabled is False and by_name["stop"].switchable is False
    assert [g.position for g in gates.gates] == sorted(g.position for g in gates.gates)

    stop = await admin.stub.SetGateEnabled(
        gw.SetGateEnabledRequest(organization_id=relaxed.organization_id, gate="stop", enabled=False), metadata=admin.md
    )
    assert "não pode ser desligada" in stop.refusal_pt and stop.gate.enabled is True
    gates = await admin.stub.ListGates(gw.ListGatesRequest(organization_id=relaxed.organization_id), metadata=admin.md)
    assert {g.name: g.enabled for g in gates.gates}["stop"] is True

    unknown = await refused(
        admin.stub.SetGateEnabled(
            gw.SetGateEnabledRequest(organization_id=relaxed.organization_id, gate="vibes", enabled=False),
            metadata=admin.md,
        )
    )
    assert unknown.code() == grpc.StatusCode.INVALID_ARGUMENT and "vibes" in (unknown.details() or "")

    classifier = await admin.stub.SetInboundClassifierEnabled(
        gw.SetInboundClassifierEnabledRequest(organization_id=strict.organization_id, enabled=True), metadata=admin.md
    )
    assert classifier.enabled and "modelo" in classifier.consequence_pt
    gates = await admin.stub.ListGates(gw.ListGatesRequest(organization_id=strict.organization_id), metadata=admin.md)
    assert gates.inbound_classifier_enabled


async def _agent_search(mesh: RunningMesh, org: support.Org, query: str) -> list[str]:
    """What the Conversador's `search_knowledge` tool finds (projection, as the Conversador)."""
    async with grpc.aio.insecure_channel(mesh.addr("projection")) as channel:
        response = await projection_pb2_grpc.ProjectionServiceStub(channel).SearchKnowledge(
            pj.SearchKnowledgeRequest(
                organization_id=org.organization_id, contact_id=str(uuid.uuid4()), unit_id=org.unit_ids[0], query=query
            ),
            metadata=support.metadata(mesh, "conversador"),
        )
    return [hit.title for hit in response.hits]


async def test_a_knowledge_article_is_found_by_the_agent_until_deleted(
    mesh: RunningMesh, admin: support.Client
) -> None:
    org = await support.create_org(mesh)
    created = (
        await admin.stub.CreateKnowledgeArticle(
            gw.CreateKnowledgeArticleRequest(
                organization_id=org.organization_id,
                article=gw.KnowledgeArticle(
                    title="Estacionamento",
                    body="Temos estacionamento conveniado ao lado da clínica, gratuito por 2 horas.",
                ),
            ),
            metadata=admin.md,
        )
    ).article
    assert created.article_id and created.kind == gw.KNOWLEDGE_KIND_ARTICLE

    assert await _agent_search(mesh, org, "tem estacionamento?") == ["Estacionamento"]
    found = await admin.stub.ListKnowledgeArticles(
        gw.ListKnowledgeArticlesRequest(organization_id=org.organization_id, query="estacionamento"), metadata=admin.md
    )
    assert [a.article_id for a in found.articles] == [created.article_id]

    updated = await admin.stub.UpdateKnowledgeArticle(
        gw.UpdateKnowledgeArticleRequest(
            organization_id=org.organization_id,
            article_id=created.article_id,
            article=gw.KnowledgeArticle(title="Onde estacionar", body="não muda"),
            update_mask=FieldMask(paths=["title"]),
        ),
        metadata=admin.md,
    )
    assert updated.article.title == "Onde estacionar" and updated.article.body == created.body

    deleted = await admin.stub.DeleteKnowledgeArticle(
        gw.DeleteKnowledgeArticleRequest(organization_id=org.organization_id, article_id=created.article_id),
        metadata=admin.md,
    )
    assert deleted.deleted
    assert await _agent_search(mesh, org, "tem estacionamento?") == []
    again = await admin.stub.DeleteKnowledgeArticle(
        gw.DeleteKnowledgeArticleRequest(organization_id=org.organization_id, article_id=created.article_id),
        metadata=admin.md,
    )
    assert not again.deleted


async def test_bad_knowledge_input_is_a_clear_error_and_stores_nothing(
    mesh: RunningMesh, admin: support.Client
) -> None:
    org = await support.create_org(mesh)
    for article in (gw.KnowledgeArticle(title="", body="texto"), gw.KnowledgeArticle(title="Título", body="  ")):
        error = await refused(
            admin.stub.CreateKnowledgeArticle(
                gw.CreateKnowledgeArticleRequest(organization_id=org.organization_id, article=article),
                metadata=admin.md,
            )
        )
        assert error.code() == grpc.StatusCode.INVALID_ARGUMENT and "article." in (error.details() or "")
    error = await refused(
        admin.stub.CreateKnowledgeArticle(
            gw.CreateKnowledgeArticleRequest(
                organization_id=str(uuid.uuid4()), article=gw.KnowledgeArticle(title="Título", body="texto")
            ),
            metadata=admin.md,
        )
    )
    assert error.code() == grpc.StatusCode.NOT_FOUND
    listed = await admin.stub.ListKnowledgeArticles(
        gw.ListKnowledgeArticlesRequest(organization_id=org.organization_id), metadata=admin.md
    )
    assert list(listed.articles) == []


async def test_knowledge_articles_are_listed_page_by_page(mesh: RunningMesh, admin: support.Client) -> None:
    org = await support.create_org(mesh)
    titles = {f"Artigo {n}" for n in range(3)}
    for title in titles:
        await admin.stub.CreateKnowledgeArticle(
            gw.CreateKnowledgeArticleRequest(
                organization_id=org.organization_id, article=gw.KnowledgeArticle(title=title, body=f"Texto do {title}.")
            ),
            metadata=admin.md,
        )
    first = await admin.stub.ListKnowledgeArticles(
        gw.ListKnowledgeArticlesRequest(organization_id=org.organization_id, page_size=2), metadata=admin.md
    )
    assert len(first.articles) == 2 and first.next_page_token
    second = await admin.stub.ListKnowledgeArticles(
        gw.ListKnowledgeArticlesRequest(
            organization_id=org.organization_id, page_size=2, page_token=first.next_page_token
        ),
        metadata=admin.md,
    )
    assert len(second.articles) == 1 and not second.next_page_token
    assert {a.title for a in [*first.articles, *second.articles]} == titles
