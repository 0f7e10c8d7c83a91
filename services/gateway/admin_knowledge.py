"""Knowledge articles on the admin surface, over crm's knowledge store.

crm owns the articles and their Portuguese full-text search (`SearchKnowledge`, the same search the
Conversador's `search_knowledge` tool reaches through projection). Listing without words pages
through `ListKnowledgeArticles`; listing with words is the search, best first, in one page.
Articles created here are published at once: knowledge is not versioned with the units.
"""

from __future__ import annotations

from balcao.crm.v1 import crm_read_pb2 as cr
from balcao.crm.v1 import crm_resources_pb2 as r
from balcao.crm.v1 import crm_write_pb2 as cw
from balcao.gateway.v1 import gateway_pb2 as gw
from services.gateway.admin_common import (
    ADMIN_ACTOR,
    copy_stamp,
    crm_organization,
    mask_paths,
    optional_id,
    org_id,
    page_size,
)
from services.gateway.inbound import parse_uuid
from services.gateway.intake import InvalidRequest
from services.gateway.peers import PeerFailure, Peers, call

ARTICLE_PATHS = frozenset({"title", "body", "when_useful", "unit_id", "kind"})
MAX_TITLE_CHARS = 300
MAX_BODY_CHARS = 50_000
MAX_SEARCH_HITS = 10
_KINDS = {
    gw.KNOWLEDGE_KIND_UNSPECIFIED: r.KNOWLEDGE_KIND_ARTICLE,
    gw.KNOWLEDGE_KIND_ARTICLE: r.KNOWLEDGE_KIND_ARTICLE,
    gw.KNOWLEDGE_KIND_SKILL_REFERENCE: r.KNOWLEDGE_KIND_SKILL_REFERENCE,
}
_KINDS_BACK = {
    r.KNOWLEDGE_KIND_ARTICLE: gw.KNOWLEDGE_KIND_ARTICLE,
    r.KNOWLEDGE_KIND_SKILL_REFERENCE: gw.KNOWLEDGE_KIND_SKILL_REFERENCE,
}


def to_article(article: r.KnowledgeArticle) -> gw.KnowledgeArticle:
    out = gw.KnowledgeArticle(
        article_id=article.article_id,
        title=article.title,
        body=article.body,
        kind=_KINDS_BACK.get(article.kind, gw.KNOWLEDGE_KIND_ARTICLE),  # type: ignore[arg-type]
        unit_id=article.unit_id,
        when_useful=article.when_useful,
    )
    copy_stamp(out, "created_at", article)
    copy_stamp(out, "updated_at", article)
    return out


def _check(article: gw.KnowledgeArticle, paths: set[str]) -> None:
    if "title" in paths:
        if not article.title.strip():
            raise InvalidRequest("article.title must not be empty")
        if len(article.title) > MAX_TITLE_CHARS:
            raise InvalidRequest(f"article.title is longer than {MAX_TITLE_CHARS} characters")
    if "body" in paths:
        if not article.body.strip():
            raise InvalidRequest("article.body must not be empty")
        if len(article.body) > MAX_BODY_CHARS:
            raise InvalidRequest(f"article.body is longer than {MAX_BODY_CHARS} characters")
    if "unit_id" in paths:
        optional_id(article.unit_id, "article.unit_id")
    if "kind" in paths and article.kind not in _KINDS:
        raise InvalidRequest("article.kind is not a known kind")


class Knowledge:
    def __init__(self, peers: Peers) -> None:
        self._peers = peers

    async def list(self, request: gw.ListKnowledgeArticlesRequest) -> gw.ListKnowledgeArticlesResponse:
        org = org_id(request.organization_id)
        unit = optional_id(request.unit_id, "unit_id")
        size = page_size(request.page_size)
        await crm_organization(self._peers, org)
        if request.query.strip():
            hits = await call(
                "crm",
                self._peers.crm_read.SearchKnowledge,
                cr.SearchKnowledgeRequest(
                    organization_id=org, query=request.query.strip(), unit_id=unit, limit=min(size, MAX_SEARCH_HITS)
                ),
                timeout=self._peers.timeout,
            )
            return gw.ListKnowledgeArticlesResponse(articles=[to_article(h.article) for h in hits.hits])
        page = await call(
            "crm",
            self._peers.crm_read.ListKnowledgeArticles,
            cr.ListKnowledgeArticlesRequest(
                organization_id=org,
                include_unpublished=True,
                unit_id=unit,
                page_size=size,
                page_token=request.page_token,
            ),
            timeout=self._peers.timeout,
        )
        return gw.ListKnowledgeArticlesResponse(
            articles=[to_article(a) for a in page.articles], next_page_token=page.next_page_token
        )

    async def create(self, organization_id: str, article: gw.KnowledgeArticle) -> gw.KnowledgeArticle:
        org = org_id(organization_id)
        _check(article, {"title", "body", "unit_id", "kind"})
        return await self._upsert(org, "", article)

    async def update(self, request: gw.UpdateKnowledgeArticleRequest) -> gw.KnowledgeArticle:
        org = org_id(request.organization_id)
        article_id = str(parse_uuid(request.article_id, "article_id"))
        paths = set(mask_paths(request.update_mask, ARTICLE_PATHS, "KnowledgeArticle"))
        _check(request.article, paths)
        current = to_article(
            (
                await call(
                    "crm",
                    self._peers.crm_read.GetKnowledgeArticle,
                    cr.GetKnowledgeArticleRequest(organization_id=org, article_id=article_id),
                    timeout=self._peers.timeout,
                )
            ).article
        )
        for path in paths:
            setattr(current, path, getattr(request.article, path))
        return await self._upsert(org, article_id, current)

    async def _upsert(self, org: str, article_id: str, article: gw.KnowledgeArticle) -> gw.KnowledgeArticle:
        stored = await call(
            "crm",
            self._peers.crm_write.UpsertKnowledgeArticle,
            cw.UpsertKnowledgeArticleRequest(
                organization_id=org,
                article_id=article_id,
                title=article.title.strip(),
                body=article.body.strip(),
                kind=_KINDS[article.kind],
                unit_id=article.unit_id.strip(),
                when_useful=article.when_useful.strip(),
                published=True,
                updated_by=ADMIN_ACTOR,
            ),
            timeout=self._peers.timeout,
        )
        return to_article(stored.article)

    async def delete(self, organization_id: str, article_id: str) -> bool:
        org = org_id(organization_id)
        article = str(parse_uuid(article_id, "article_id"))
        await crm_organization(self._peers, org)  # an unknown organisation stays NOT_FOUND
        try:
            await call(
                "crm",
                self._peers.crm_write.DeleteKnowledgeArticle,
                cw.DeleteKnowledgeArticleRequest(organization_id=org, article_id=article),
                timeout=self._peers.timeout,
            )
        except PeerFailure as exc:
            if exc.code is not None and exc.code.name == "NOT_FOUND":
                return False  # already gone
            raise
        return True
