"""Knowledge, notes and skill references: the read tools that return texts the owner wrote.

`search_knowledge` → titles and excerpts (never the article's id, unit or rank);
`get_lead_note` → the notes about the lead, newest first, with who wrote them as a person says
it; `read_skill_reference` → one reference by title. "Nothing found" is a sentence, so the model
never reads an empty answer as "no"; a failed read is a consequence, never a code.
"""

from __future__ import annotations

import unicodedata

import grpc

from balcao.crm.v1 import crm_read_pb2, crm_resources_pb2
from balcao.projection.v1 import projection_pb2 as out
from services.projection import consequences
from services.projection.allowlist import allowed
from services.projection.findings import Findings
from services.projection.identifiers import scrub
from services.projection.labels import timestamp_label

_C = crm_resources_pb2

DEFAULT_HITS = 5
MAX_HITS = 10
EXCERPT_CHARS = 600
NOTES_LIMIT = 10

NO_KNOWLEDGE = (
    "não há nada cadastrado sobre isso; não é possível afirmar nada a respeito com base no conhecimento da empresa"
)
NO_NOTES = "não há anotações sobre este cliente"
NO_NOTES_ON_TOPIC = "não há anotações sobre esse assunto para este cliente"
NO_REFERENCE = "não há uma referência com esse título para este atendimento"
REFERENCE_WITHHELD = "essa referência existe, mas não pode ser lida agora; a equipe da empresa precisa revisá-la"

AUTHORS = {
    _C.ACTOR_KIND_PERSON: "a equipe",
    _C.ACTOR_KIND_OPERADOR_MODEL: "o assistente",
    _C.ACTOR_KIND_OPERADOR_RULES: "o assistente",
    _C.ACTOR_KIND_RUNTIME: "o assistente",
    _C.ACTOR_KIND_SEGURANCA: "o assistente",
    _C.ACTOR_KIND_SYSTEM: "o sistema",
    _C.ACTOR_KIND_CONTACT: "o próprio cliente",
}


def hits_wanted(max_results: int) -> int:
    return min(max_results if max_results > 0 else DEFAULT_HITS, MAX_HITS)


def fold(text: str) -> str:
    """Lower case without accents, for matching what a person typed."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return " ".join("".join(c for c in decomposed if not unicodedata.combining(c)).split())


def excerpt(text: str, limit: int = EXCERPT_CHARS) -> str:
    text = " ".join(text.split())
    if len(text) <= limit:
        return text
    cut = text[:limit].rsplit(" ", 1)[0]
    return f"{cut}…"


def consequence_of(status: grpc.StatusCode, findings: Findings) -> out.Consequence:
    return out.Consequence(text=consequences.consequence(consequences.status_code(status), findings))


def project_search(
    raw: crm_read_pb2.SearchKnowledgeResponse, max_results: int, findings: Findings
) -> out.SearchKnowledgeResponse:
    raw = allowed(raw)
    response = out.SearchKnowledgeResponse()
    for hit in raw.hits:
        article = hit.article
        if not article.published or article.kind == _C.KNOWLEDGE_KIND_SKILL_REFERENCE:
            continue
        response.hits.add(title=article.title.strip(), excerpt=excerpt(hit.snippet or article.body))
        if len(response.hits) == hits_wanted(max_results):
            break
    scrub(response, findings)
    # A hit whose every text was dropped is no hit.
    kept = [h for h in response.hits if h.title or h.excerpt]
    del response.hits[:]
    response.hits.extend(kept)
    if not response.hits:
        response.notice = NO_KNOWLEDGE
    return response


def search_failed(status: grpc.StatusCode, findings: Findings) -> out.SearchKnowledgeResponse:
    return out.SearchKnowledgeResponse(consequence=consequence_of(status, findings))


def _matches(note: crm_resources_pb2.LeadNote, words: list[str]) -> bool:
    haystack = fold(f"{note.key} {note.title} {note.body}")
    return all(word in haystack for word in words)


def project_notes(
    raw: crm_read_pb2.ListLeadNotesResponse, topic: str, zone: str, findings: Findings
) -> out.GetLeadNoteResponse:
    raw = allowed(raw)
    words = fold(topic).split()
    notes = [n for n in raw.notes if (n.title.strip() or n.body.strip()) and _matches(n, words)]
    notes.sort(key=lambda n: (n.updated_at.seconds or n.created_at.seconds), reverse=True)
    response = out.GetLeadNoteResponse(more_exist=len(notes) > NOTES_LIMIT or bool(raw.next_page_token))
    for note in notes[:NOTES_LIMIT]:
        title, body = note.title.strip(), note.body.strip()
        response.notes.add(
            written_label=timestamp_label(note.updated_at if note.updated_at.seconds else note.created_at, zone),
            author=AUTHORS.get(note.author.kind, "a equipe"),
            text=f"{title}: {body}" if title and body else title or body,
        )
    scrub(response, findings)
    kept = [n for n in response.notes if n.text]
    del response.notes[:]
    response.notes.extend(kept)
    if not response.notes:
        response.notice = NO_NOTES_ON_TOPIC if words else NO_NOTES
    return response


def notes_failed(status: grpc.StatusCode, findings: Findings) -> out.GetLeadNoteResponse:
    return out.GetLeadNoteResponse(consequence=consequence_of(status, findings))


def project_skill_reference(
    raw: crm_read_pb2.GetSkillReferenceResponse, findings: Findings
) -> out.ReadSkillReferenceResponse:
    raw = allowed(raw)
    response = out.ReadSkillReferenceResponse()
    article = raw.reference
    if not (raw.found and article.published and article.body.strip()):
        response.notice = NO_REFERENCE
        return response
    response.reference.title = article.title.strip()
    response.reference.content = article.body.strip()
    scrub(response, findings)
    if not response.reference.content:
        response.ClearField("reference")
        response.notice = REFERENCE_WITHHELD
    return response


def skill_reference_failed(status: grpc.StatusCode, findings: Findings) -> out.ReadSkillReferenceResponse:
    return out.ReadSkillReferenceResponse(consequence=consequence_of(status, findings))
