"""Knowledge articles and skill references (not versioned; the agent sees changes at once)."""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from datetime import datetime
from uuid import UUID

from sqlalchemy.ext.asyncio import AsyncConnection

from balcao.crm.v1 import crm_resources_pb2 as r
from services.crm import organizations
from services.crm.errors import InvalidArgument, NotFound
from services.crm.messages import KNOWLEDGE_KIND, actor_doc
from services.crm.repository import knowledge as repo
from services.crm.repository._sql import Row

MAX_BODY = 100_000


@dataclass(frozen=True)
class Article:
    title: str
    body: str
    kind: int
    unit_id: str
    when_useful: str
    published: bool
    updated_by: r.Actor

    def validate(self) -> None:
        if not self.title.strip():
            raise InvalidArgument("title is required")
        if len(self.title) > 300:
            raise InvalidArgument("title is longer than 300 characters")
        if len(self.body) > MAX_BODY:
            raise InvalidArgument(f"body is longer than {MAX_BODY} characters")


async def upsert(conn: AsyncConnection, org: UUID, article_id: UUID | None, article: Article,
                 now: datetime) -> tuple[Row, bool]:
    await organizations.require(conn, org)
    fields = {
        "title": article.title.strip(),
        "body": article.body.strip(),
        "kind": KNOWLEDGE_KIND.word(article.kind or r.KNOWLEDGE_KIND_ARTICLE),
        "unit_id": article.unit_id.strip(),
        "when_useful": article.when_useful.strip(),
        "published": article.published,
    }
    if article_id is None:
        row = await repo.insert(conn, org, uuid.uuid4(), updated_by=actor_doc(article.updated_by), now=now, **fields)
        return row, True
    replaced = await repo.replace(conn, org, article_id, updated_by=actor_doc(article.updated_by), now=now, **fields)
    if replaced is None:
        raise NotFound(f"knowledge article {article_id} not found in organization {org}")
    return replaced, False
