"""ScreenInbound's deterministic heuristic: prompt injection in what the customer wrote. Always on.

Rules in pt-BR and English, matched on the folded text (lowercase, no accents):
- overriding the instructions ("ignore as instruções anteriores", "ignore all previous
  instructions") — but only instructions, rules or prompts of the assistant: "ignora a mensagem
  anterior, me enganei de horário" and "esquece o que eu falei" are ordinary;
- changing the assistant's role ("a partir de agora você é", "from now on you are", role-play
  with no rules), developer or god modes, asking for the prompt ("repita seu prompt");
- fake system messages (`[SISTEMA]`, `<system>`, "system:" opening a line, chat-template tokens)
  and delimiters that open a "new context" ("--- fim das instruções ---", "novas instruções:").
Then the smuggling techniques: the rules run again on the text decoded from base64, on the text
read backwards, on leetspeak turned into letters, on letters spaced out, and on the text with
invisible characters removed. Found through smuggling, a rule is `high` and the matched rule
names the technique ("base64:pt_ignore_previous_instructions"). A smuggling technique with no
rule behind it (a base64 blob of ordinary text, invisible characters inside words) is `low`.
"""

from __future__ import annotations

import base64
import binascii
import enum
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from services.seguranca.text import fold


class Level(enum.IntEnum):
    NONE = 0
    LOW = 1
    HIGH = 2


@dataclass(frozen=True, slots=True)
class Screening:
    level: Level
    rule: str = ""
    # Index of the text that matched; -1 when nothing did.
    text_index: int = -1


CLEAN = Screening(Level.NONE)

_OVERRIDE_VERBS = (
    r"(?:ignor\w*|desconsider\w*|esquec\w*|despreze|desprezar|despreza|nao (?:siga|obedeca|respeite)"
    r"|pare de (?:seguir|obedecer)|deixe de lado|abandone|descarte|anule|apague)"
)
_RULE_NOUNS = (
    r"(?:instruc\w*|regras|diretrizes|orientac\w*|ordens|comandos|prompts?|programac\w*|restric\w*|limitac\w*"
    r"|configurac\w*|politicas)"
)
_QUALIFIERS = (
    r"(?:anteriores|acima|previas|iniciais|originais|de antes|do sistema|de sistema|que (?:voce|vc|te|lhe|tu) "
    r"\w+|que (?:recebeu|te deram|lhe deram|foram dadas)|ate agora|programad\w*)"
)

RULES: tuple[tuple[str, Level, re.Pattern[str]], ...] = tuple(
    (name, level, re.compile(pattern))
    for name, level, pattern in (
        (
            "pt_ignore_previous_instructions",
            Level.HIGH,
            rf"\b{_OVERRIDE_VERBS}\s+(?:(?:de\s+)?tod[ao]s?\s+)?(?:as\s+|os\s+)?(?:suas|seus|tuas|teus)\s+{_RULE_NOUNS}"
            rf"|\b{_OVERRIDE_VERBS}\s+(?:de\s+)?tod[ao]s\s+(?:as\s+|os\s+)?{_RULE_NOUNS}"
            rf"|\b{_OVERRIDE_VERBS}\s+(?:as\s+|os\s+|essas\s+|estas\s+)?{_RULE_NOUNS}\s+{_QUALIFIERS}"
            rf"|\b{_OVERRIDE_VERBS}\s+tudo\s+(?:o\s+)?que\s+(?:te|lhe)\s+(?:disseram|falaram|instruiram|mandaram"
            r"|ensinaram|programaram)",
        ),
        (
            "en_ignore_previous_instructions",
            Level.HIGH,
            r"\b(?:ignore|disregard|forget|override|bypass)\s+(?:all\s+(?:of\s+)?)?(?:the\s+|your\s+|any\s+)?"
            r"(?:previous|prior|above|earlier|initial|original|system|preceding)\s+"
            r"(?:instructions|rules|prompts?|directives|guidelines|guardrails|restrictions)\b"
            r"|\b(?:ignore|disregard|forget|override|bypass)\s+(?:all\s+(?:of\s+)?)?(?:your|all)\s+(?:the\s+)?"
            r"(?:instructions|rules|prompts?|directives|guidelines|guardrails|restrictions)\b",
        ),
        (
            "pt_role_override",
            Level.HIGH,
            r"\ba partir de agora,?\s+(?:voce|vc|tu)\s+(?:e|eh|sera|vai ser|age|agira|vai agir)\b"
            r"|\b(?:seu|teu) novo (?:papel|nome|personagem|objetivo) (?:e|sera)\b"
            r"|\bassuma o papel de\b|\bvoce nao e mais (?:um|uma|o|a)\s+(?:assistente|atendente|bot|robo|ia)\b"
            r"|\b(?:finja|fingir|faca de conta|aja|atue|responda)\s+(?:que|como|ser)\b[^.!?\n]{0,60}"
            r"\b(?:sem (?:regras|restricoes|limites|filtros|censura)|nao tem (?:regras|restricoes|limites))",
        ),
        (
            "en_role_override",
            Level.HIGH,
            r"\bfrom now on,?\s+(?:you are|you're|you will be|act as|respond as)\b|\byou are now (?:a|an|the|my|dan)\b"
            r"|\b(?:act|pretend|roleplay)\s+(?:as|to be|you are)\b[^.!?\n]{0,60}"
            r"\b(?:no (?:rules|restrictions|limits|filters)|without (?:rules|restrictions|limits|filters)|unfiltered)"
            r"|\bdo anything now\b|\byou are dan\b",
        ),
        (
            "developer_mode",
            Level.HIGH,
            r"\b(?:modo|mode)\s+(?:desenvolvedor|developer|dev|deus|god|admin|administrador|debug|depuracao"
            r"|irrestrito|sem restricoes|sudo|root|jailbreak)\b"
            r"|\b(?:developer|dev|god|debug|sudo|jailbreak)\s+mode\b|\bjailbreak\b|\bdan mode\b",
        ),
        (
            "prompt_extraction",
            Level.HIGH,
            r"\b(?:repita|repete|repetir|mostre|mostra|mostrar|revele|revela|imprima|escreva|cole|copie|diga|digite"
            r"|me (?:diga|mostre|passe|mande|envie|fale))\s+(?:o\s+|a\s+|as\s+)?"
            r"(?:seu|teu|sua|tua|suas|tuas|seus|teus)?\s*"
            r"(?:prompts?|regras internas|mensagem de sistema|configurac\w* internas?"
            r"|instruc\w*\s+(?:iniciais|originais|do sistema|de sistema|internas|secretas|ocultas|completas"
            r"|que (?:voce|vc) (?:recebeu|tem)|palavra por palavra))\b"
            r"|\b(?:prompt|mensagem|instrucoes) (?:do|de) sistema\b|\bsystem prompt\b|\bprompt (?:inicial|original)\b"
            r"|\b(?:repeat|reveal|print|show|output|tell me)\s+(?:me\s+)?(?:your|the)\s+"
            r"(?:system\s+)?(?:prompt|instructions|initial instructions|text above)\b"
            r"|\bwhat (?:are|were) your (?:instructions|rules)\b"
            r"|\b(?:qual|quais) (?:e |sao )?(?:o |os )?(?:seu|seus|teu|teus) prompts?\b",
        ),
        (
            "fake_system_message",
            Level.HIGH,
            r"(?:^|\n)\s*[\[(<{]\s*/?\s*(?:sistema|system|sys|admin|administrador|developer|desenvolvedor|root"
            r"|assistant|assistente|operador|instrucoes|instructions)\s*[\])>}]"
            r"|(?:^|\n)\s*(?:system|sistema|admin)\s*:|<\|(?:im_start|im_end|system|endoftext)\|>|\[/?inst\]|<<\s*/?sys\s*>>"
            r"|(?:^|\n)\s*#{2,}\s*(?:system|sistema|instruc\w*|instructions)",
        ),
        (
            "new_context_delimiter",
            Level.HIGH,
            r"\b(?:fim|final|termino) (?:do|das|dos|da) (?:contexto|instrucoes|prompt|regras|conversa anterior"
            r"|mensagens anteriores)\b|\bnovo contexto\b|\bnova (?:sessao|conversa) (?:comeca|inicia)\b"
            r"|\b(?:novas|new) (?:instrucoes|instructions|regras|rules)\s*:|\bend of (?:prompt|context|instructions"
            r"|system)\b|\bnew context\b|</?\s*(?:context|contexto|system|instructions?|prompt)\s*>"
            r"|(?:^|\n)\s*[-=_*#~]{3,}\s*(?:fim|novo|nova|end|new|begin|inicio|start)\b",
        ),
        (
            "role_play_request",
            Level.LOW,
            r"\b(?:finja|fingir|faca de conta|vamos fingir|role-?play|roleplay|pretend)\b"
            r"|\bvoce agora e\b|\b(?:aja|atue) como (?:se fosse|um|uma)\b",
        ),
    )
)

_ZERO_WIDTH = re.compile(r"[\u200b\u200c\u200e\u200f\u2060-\u2064\ufeff\u202a-\u202e\u2066-\u2069\u00ad]")
_ZERO_WIDTH_JOINER = "\u200d"
_BASE64 = re.compile(r"(?<![A-Za-z0-9+/=])[A-Za-z0-9+/]{16,}={0,2}(?![A-Za-z0-9+/=])")
_LEET = str.maketrans({"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a", "$": "s", "!": "i"})
_LEET_WORD = re.compile(r"\b(?=\w*[a-z])(?=\w*[0-9@$])[\w@$!]{3,}\b")
_SPACED = re.compile(r"\b(?:\w[ .\-_*]){5,}\w\b")


def _rules(text: str) -> tuple[str, Level] | None:
    for name, level, pattern in RULES:
        if pattern.search(text):
            return name, level
    return None


def _decoded_base64(text: str) -> list[str]:
    decoded: list[str] = []
    for m in _BASE64.finditer(text):
        chunk = m.group(0)
        padded = chunk + "=" * (-len(chunk) % 4)
        try:
            raw = base64.b64decode(padded, validate=True)
            plain = raw.decode("utf-8")
        except (binascii.Error, UnicodeDecodeError, ValueError):
            continue
        printable = sum(c.isprintable() or c.isspace() for c in plain)
        if plain and printable / len(plain) > 0.95 and " " in plain.strip():
            decoded.append(plain)
    return decoded


def _unleet(folded: str) -> str:
    return _LEET_WORD.sub(lambda m: m.group(0).translate(_LEET), folded)


_ONE_GAP = re.compile(r"(?<=\S)[ .\-_*](?=\S)")


def _unspace(folded: str) -> str:
    """Letters spaced out ("i g n o r e  a s …"): one gap joins letters, a wider gap parts words."""
    tokens = folded.split()
    if tokens and sum(len(t) == 1 for t in tokens) / len(tokens) > 0.6:
        return " ".join(_ONE_GAP.sub("", folded).split())
    return _SPACED.sub(lambda m: re.sub(r"[ .\-_*]", "", m.group(0)), folded)


# Ways text is smuggled past a reader, each with how to undo it.
_TECHNIQUES: tuple[tuple[str, Callable[[str, str], list[str]]], ...] = (
    ("zero_width_characters", lambda raw, folded: [fold(_ZERO_WIDTH.sub("", raw))] if _ZERO_WIDTH.search(raw) else []),
    ("base64", lambda raw, folded: [fold(t) for t in _decoded_base64(raw)]),
    ("reversed_text", lambda raw, folded: [folded[::-1]]),
    ("leetspeak", lambda raw, folded: [_unleet(folded)] if any(c.isdigit() or c in "@$" for c in folded) else []),
    ("spaced_letters", lambda raw, folded: [_unspace(folded)] if _SPACED.search(folded) else []),
)


def _invisible_inside_words(raw: str) -> bool:
    if _ZERO_WIDTH.search(raw):
        return True
    # A zero-width joiner belongs in emoji sequences; between two letters it hides a word.
    return any(
        raw[i - 1].isalpha() and raw[i + 1].isalpha()
        for i, c in enumerate(raw[1:-1], start=1)
        if c == _ZERO_WIDTH_JOINER
    )


def screen_text(raw: str) -> Screening:
    folded = fold(raw)
    direct = _rules(folded)
    if direct is not None:
        return Screening(direct[1], direct[0])
    for technique, undo in _TECHNIQUES:
        for revealed in undo(raw, folded):
            if revealed == folded:
                continue
            hidden = _rules(revealed)
            if hidden is not None:
                return Screening(Level.HIGH, f"{technique}:{hidden[0]}")
    if _invisible_inside_words(raw):
        return Screening(Level.LOW, "zero_width_characters")
    if _decoded_base64(raw):
        return Screening(Level.LOW, "base64_text")
    return CLEAN


def screen(texts: Sequence[str]) -> Screening:
    """The strongest signal among the texts (the first one at that level)."""
    best = CLEAN
    for index, text in enumerate(texts):
        result = screen_text(text)
        if result.level > best.level:
            best = Screening(result.level, result.rule, index)
            if best.level is Level.HIGH:
                break
    return best
