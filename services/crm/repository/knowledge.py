"""SQL of `knowledge_articles`, searched with Portuguese full-text search that ignores accents.

The `search` column is generated from `crm.unaccent_immutable(title/body)` and GIN-indexed;
the query goes through the same function, so "avaliacao" finds "avaliação". Snippets are cut
from the original text with the `crm.portuguese_unaccent` configuration, keeping the accents.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from uuid import UUID

from sqlalchemy.ext.asyncio import AsyncConnection

from services.crm.repository._sql import Row, js, many, one, q

_INSERT = q(
    """
    INSERT INTO crm.knowledge_articles
        (organization_id, article_id, title, body, kind, unit_id, when_useful, published, updated_by, created_at,
         updated_at)
    VALUES (:org, :article, :title, :body, :kind, :unit_id, :when_useful, :published, CAST(:updated_by AS jsonb),
            :now, :now)
    RETURNING *
    """
)
_REPLACE = q(
    """
    UPDATE crm.knowledge_articles SET title = :title, body = :body, kind = :kind, unit_id = :unit_id,
        when_useful = :when_useful, published = :published, updated_by = CAST(:updated_by AS jsonb), updated_at = :now
    WHERE organization_id = :org AND article_id = :article RETURNING *
    """
)
_GET = q("SELECT * FROM crm.knowledge_articles WHERE organization_id = :org AND article_id = :article")
_DELETE = q("DELETE FROM crm.knowledge_articles WHERE organization_id = :org AND article_id = :article RETURNING *")
_SEARCH = q(
    """
    WITH query AS (SELECT websearch_to_tsquery('portuguese', crm.unaccent_immutable(:query)) AS q)
    SELECT a.*, ts_rank(a.search, query.q) AS rank,
           ts_headline('crm.portuguese_unaccent', a.body, query.q,
                       'StartSel="", StopSel="", MaxWords=40, MinWords=15, MaxFragments=2, FragmentDelimiter=" … "')
               AS snippet
    FROM crm.knowledge_articles a, query
    WHERE a.organization_id = :org AND a.published AND a.kind = 'article'
      AND (a.unit_id = '' OR a.unit_id = :unit_id)
      AND a.search @@ query.q
    ORDER BY rank DESC, a.updated_at DESC
    LIMIT :limit
    """
)
_LIST = q(
    """
    SELECT * FROM crm.knowledge_articles
    WHERE organization_id = :org
      AND (:include_unpublished OR published)
      AND (cardinality(CAST(:kinds AS text[])) = 0 OR kind = ANY(CAST(:kinds AS text[])))
      AND (:unit_id = '' OR unit_id = '' OR unit_id = :unit_id)
    ORDER BY title, article_id
    LIMIT :limit OFFSET :offset
    """
)
_SKILL_REFERENCE = q(
    """
    SELECT * FROM crm.knowledge_articles
    WHERE organization_id = :org AND published AND kind = 'skill_reference'
      AND (unit_id = '' OR unit_id = :unit_id)
      AND lower(crm.unaccent_immutable(title)) = lower(crm.unaccent_immutable(:title))
    ORDER BY (unit_id = :unit_id) DESC, updated_at DESC
    LIMIT 1
    """
)


async def insert(conn: AsyncConnection, org: UUID, article: UUID, *, updated_by: dict[str, Any], now: datetime,
                 **fields: Any) -> Row:
    row = await one(conn, _INSERT, org=org, article=article, updated_by=js(updated_by), now=now, **fields)
    assert row is not None
    return row


async def replace(conn: AsyncConnection, org: UUID, article: UUID, *, updated_by: dict[str, Any], now: datetime,
                  **fields: Any) -> Row | None:
    return await one(conn, _REPLACE, org=org, article=article, updated_by=js(updated_by), now=now, **fields)


async def get(conn: AsyncConnection, org: UUID, article: UUID) -> Row | None:
    return await one(conn, _GET, org=org, article=article)


async def delete(conn: AsyncConnection, org: UUID, article: UUID) -> Row | None:
    return await one(conn, _DELETE, org=org, article=article)


async def search(conn: AsyncConnection, org: UUID, *, query: str, unit_id: str, limit: int) -> list[Row]:
    return await many(conn, _SEARCH, org=org, query=query, unit_id=unit_id, limit=limit)


async def list_page(conn: AsyncConnection, org: UUID, *, include_unpublished: bool, kinds: list[str], unit_id: str,
                    limit: int, offset: int) -> list[Row]:
    return await many(conn, _LIST, org=org, include_unpublished=include_unpublished, kinds=kinds, unit_id=unit_id,
                      limit=limit, offset=offset)


async def skill_reference(conn: AsyncConnection, org: UUID, *, unit_id: str, title: str) -> Row | None:
    return await one(conn, _SKILL_REFERENCE, org=org, unit_id=unit_id, title=title)
