"""`format`: empty bodies are refused; long ones are split between sentences, never inside a word."""

from __future__ import annotations

from services.seguranca.facts import Channel
from services.seguranca.gates import format as format_gate
from services.seguranca.verdict import Status
from tests.seguranca.helpers import gate, review

WHATSAPP = Channel(name="whatsapp_evolution", max_text_chars=4096)


def test_empty_or_blank_is_vetoed() -> None:
    for draft in ("", "   ", "\n\t "):
        result = gate(format_gate.check, draft)
        assert result.status is Status.VETOED and result.code == "format:empty"


def test_a_body_within_the_limit_goes_whole() -> None:
    result = gate(format_gate.check, "Oi! " * 1000, channel=WHATSAPP)
    assert result.status is Status.PASSED and result.parts is None


async def test_a_long_body_is_split_at_sentence_boundaries_never_mid_word() -> None:
    sentences = [f"Esta é a frase número {i}, que explica um detalhe do tratamento com calma." for i in range(120)]
    body = " ".join(sentences)
    assert len(body) > 4096
    verdict = await review(body, channel=WHATSAPP)
    assert verdict.approved
    assert len(verdict.parts) >= 2
    assert all(len(part) <= 4096 for part in verdict.parts)
    assert all(part.endswith(".") for part in verdict.parts)
    assert " ".join(verdict.parts) == body
    assert verdict.line("format").rewrote_body


def test_a_sentence_longer_than_the_limit_breaks_between_words() -> None:
    body = " ".join(["palavra"] * 30)
    parts = format_gate.split(body, 50)
    assert parts is not None and all(len(p) <= 50 for p in parts)
    assert " ".join(parts) == body


def test_paragraphs_are_preferred_split_points() -> None:
    body = "Primeiro parágrafo, curto.\n\nSegundo parágrafo, também curto."
    assert format_gate.split(body, 40) == ["Primeiro parágrafo, curto.", "Segundo parágrafo, também curto."]


def test_a_single_word_longer_than_the_limit_is_refused() -> None:
    result = gate(format_gate.check, "Veja: " + "a" * 60, channel=Channel(max_text_chars=50))
    assert result.status is Status.VETOED and result.code == "format:unsplittable"


def test_no_limit_means_no_split() -> None:
    assert gate(format_gate.check, "a " * 10000, channel=Channel(max_text_chars=0)).parts is None
