"""Knowledge: Portuguese full-text search that ignores accents, skill references by title."""

from __future__ import annotations

import grpc
import pytest

from balcao.crm.v1 import crm_read_pb2 as rd
from balcao.crm.v1 import crm_resources_pb2 as r
from balcao.crm.v1 import crm_write_pb2 as wr
from tests.crm.conftest import Crm


async def article(crm: Crm, org: str, title: str, body: str, **fields: object) -> str:
    response = await crm.write.UpsertKnowledgeArticle(
        wr.UpsertKnowledgeArticleRequest(organization_id=org, title=title, body=body,
                                         **{"published": True, **fields}),  # type: ignore[arg-type]
        metadata=crm.metadata,
    )
    return response.article.article_id


async def search(crm: Crm, org: str, query: str, unit_id: str = "") -> list[rd.SearchKnowledgeResponse]:
    response = await crm.read.SearchKnowledge(
        rd.SearchKnowledgeRequest(organization_id=org, query=query, unit_id=unit_id), metadata=crm.metadata
    )
    return list(response.hits)


async def test_avaliacao_without_accents_finds_avaliacao_with_them(crm: Crm) -> None:
    org = await crm.org()
    wanted = await article(crm, org, "Primeira consulta",
                           "A avaliação inicial é gratuita e dura cerca de quarenta minutos.")
    await article(crm, org, "Estacionamento", "Há estacionamento conveniado na rua de trás.")
    hits = await search(crm, org, "avaliacao")
    assert [hit.article.article_id for hit in hits] == [wanted]
    assert "avaliação" in hits[0].snippet  # the snippet keeps the original accents
    assert hits[0].rank > 0


async def test_stemming_finds_other_forms_of_a_word(crm: Crm) -> None:
    org = await crm.org()
    wanted = await article(crm, org, "Pagamento", "Aceitamos pagamentos parcelados no cartão.")
    hits = await search(crm, org, "parcelamento cartao")
    assert [hit.article.article_id for hit in hits] == [wanted]


async def test_unpublished_articles_skill_references_and_other_units_are_not_searched(crm: Crm) -> None:
    org = await crm.org()
    await article(crm, org, "Rascunho", "avaliação em revisão", published=False)
    await article(crm, org, "Roteiro de avaliação", "avaliação passo a passo", kind=r.KNOWLEDGE_KIND_SKILL_REFERENCE)
    other_unit = await article(crm, org, "Avaliação financeira", "avaliação de crédito", unit_id="financeiro")
    everyone = await article(crm, org, "Avaliação", "avaliação gratuita")
    assert [hit.article.article_id for hit in await search(crm, org, "avaliação")] == [everyone]
    in_unit = {hit.article.article_id for hit in await search(crm, org, "avaliação", unit_id="financeiro")}
    assert in_unit == {everyone, other_unit}


async def test_a_deleted_article_is_no_longer_found(crm: Crm) -> None:
    org = await crm.org()
    article_id = await article(crm, org, "Avaliação", "avaliação gratuita")
    await crm.write.DeleteKnowledgeArticle(wr.DeleteKnowledgeArticleRequest(organization_id=org,
                                                                            article_id=article_id),
                                           metadata=crm.metadata)
    assert await search(crm, org, "avaliacao") == []
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await crm.read.GetKnowledgeArticle(rd.GetKnowledgeArticleRequest(organization_id=org, article_id=article_id),
                                           metadata=crm.metadata)
    assert caught.value.code() == grpc.StatusCode.NOT_FOUND


async def test_an_edit_is_searchable_at_once(crm: Crm) -> None:
    org = await crm.org()
    article_id = await article(crm, org, "Horários", "Atendemos de segunda a sexta.")
    assert await search(crm, org, "sábado") == []
    await crm.write.UpsertKnowledgeArticle(
        wr.UpsertKnowledgeArticleRequest(organization_id=org, article_id=article_id, title="Horários",
                                         body="Atendemos de segunda a sábado.", published=True),
        metadata=crm.metadata,
    )
    assert [hit.article.article_id for hit in await search(crm, org, "sabado")] == [article_id]


async def test_a_skill_reference_is_read_by_title_ignoring_case_and_accents(crm: Crm) -> None:
    org = await crm.org()
    await article(crm, org, "Roteiro de Avaliação", "1. acolher 2. perguntar", kind=r.KNOWLEDGE_KIND_SKILL_REFERENCE,
                  unit_id="sdr", when_useful="antes de marcar a primeira consulta")
    found = await crm.read.GetSkillReference(
        rd.GetSkillReferenceRequest(organization_id=org, unit_id="sdr", title="roteiro de avaliacao"),
        metadata=crm.metadata,
    )
    assert found.found and found.reference.body == "1. acolher 2. perguntar"
    assert found.reference.when_useful == "antes de marcar a primeira consulta"
    other_unit = await crm.read.GetSkillReference(
        rd.GetSkillReferenceRequest(organization_id=org, unit_id="financeiro", title="Roteiro de Avaliação"),
        metadata=crm.metadata,
    )
    assert not other_unit.found


async def test_an_empty_query_is_an_invalid_argument(crm: Crm) -> None:
    org = await crm.org()
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await search(crm, org, "   ")
    assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
