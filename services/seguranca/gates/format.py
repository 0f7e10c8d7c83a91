"""`format`: an empty body is refused; a body over the channel's limit is split into parts.

Parts break at sentence boundaries (a paragraph break first, then the end of a sentence) and
never inside a word: a sentence longer than the limit breaks between words. A single "word"
longer than the limit (a runaway link or code) cannot be split honestly and is refused.
"""

from __future__ import annotations

import re

from services.seguranca.context import Context
from services.seguranca.verdict import PASSED, GateResult, Status, vetoed

NAME = "format"

EMPTY = "A resposta ficou vazia: o cliente não receberia nada. Escreva a mensagem para ele."
UNSPLITTABLE = (
    "A mensagem tem um trecho contínuo longo demais, sem espaços, que não cabe numa mensagem do "
    "canal: o cliente receberia o texto cortado. Encurte ou retire esse trecho."
)

_PARAGRAPHS = re.compile(r"\n\s*\n")
_SENTENCES = re.compile(r"(?<=[.!?…])\s+")


def _pieces(body: str) -> list[str]:
    """Sentences, keeping a paragraph break as a preferred split point (marked by a leading \\n\\n)."""
    pieces: list[str] = []
    for i, paragraph in enumerate(p for p in _PARAGRAPHS.split(body) if p.strip()):
        sentences = [s for s in _SENTENCES.split(paragraph.strip()) if s]
        for j, sentence in enumerate(sentences):
            pieces.append(("\n\n" if i and not j else " " if pieces else "") + sentence)
    return pieces


def _words(piece: str, limit: int) -> list[str] | None:
    """A sentence over the limit, broken between words; None when one word alone is too long."""
    out: list[str] = []
    current = ""
    for word in piece.split():
        if len(word) > limit:
            return None
        candidate = f"{current} {word}" if current else word
        if len(candidate) > limit:
            out.append(current)
            current = word
        else:
            current = candidate
    if current:
        out.append(current)
    return out


def split(body: str, limit: int) -> list[str] | None:
    if len(body) <= limit:
        return [body]
    parts: list[str] = []
    current = ""
    for piece in _pieces(body):
        if len(current) + len(piece) <= limit:
            current += piece
            continue
        if current.strip():
            parts.append(current.strip())
        stripped = piece.strip()
        if len(stripped) <= limit:
            current = stripped
            continue
        chunks = _words(stripped, limit)
        if chunks is None:
            return None
        parts.extend(chunks[:-1])
        current = chunks[-1]
    if current.strip():
        parts.append(current.strip())
    return parts


def check(ctx: Context) -> GateResult:
    if not ctx.outbound.draft.strip():
        return vetoed(NAME, "empty", EMPTY)
    limit = ctx.outbound.channel.max_text_chars
    if limit <= 0 or len(ctx.body) <= limit:
        return PASSED
    parts = split(ctx.body, limit)
    if parts is None:
        return vetoed(NAME, "unsplittable", UNSPLITTABLE)
    return GateResult(Status.PASSED, parts=tuple(parts))
