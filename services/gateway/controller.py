"""The controller: what answers a turn, decided by rules before any model (seed 003 §4).

Order of decision, first match wins:
 1. an opt-out phrase ("PARE", "SAIR", "não quero mais receber", the organisation's own);
 2. a request for a person ("quero falar com um atendente", "me passa para um humano", …);
 3. an organisation hashtag (`#humano`, `#menu`, …), per its configured action;
 4. plan cancellation, when the organisation has a `cancel_plan` reply;
 5. an explanatory follow-up of the last answer ("como assim?") goes back to the unit that gave it;
 6. an active route or `pending` flow is kept, unless the customer escapes it ("cancelar",
    "menu", or a message that plainly belongs to another unit's subject);
 7. the numbered menu ("menu" shows it; its numbers choose an option);
 8. the contact's `requirements` (a unit forced by a person);
 9. only then the unit: the only unit, or a model classification among several.
An opt-out beats a hand-off when both come in one burst: stopping messages is the customer's
right, and a hand-off would promise a person who may not write to them.

Pure: texts, rules and the contact's state in, a `Decision` and the new state out.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

ROUTE = "route"
FIXED_REPLY = "fixed_reply"
HANDOFF = "handoff"
SHOW_MENU = "show_menu"
OPT_OUT = "opt_out"
CANCEL_PLAN = "cancel_plan"

# How long an active route chosen by the customer (menu, hashtag) stays active without messages.
ROUTE_IDLE = timedelta(minutes=30)


def fold(text: str) -> str:
    """Lower case, no accents, punctuation as spaces, single spaces."""
    plain = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    return " ".join(re.sub(r"[^a-z0-9#_-]+", " ", plain).split())


BUILT_IN_OPT_OUT_WORDS = ("pare", "parar", "sair", "stop", "descadastrar", "cancelar mensagens")
BUILT_IN_OPT_OUT_PHRASES = (
    "nao quero mais receber",
    "nao quero receber mais",
    "parar de receber",
    "nao me mande mais",
    "nao mande mais mensagens",
    "me tira da lista",
    "sair da lista",
)
BUILT_IN_HANDOFF = re.compile(
    r"\b(?:falar|conversar) com (?:um |uma |o |a |algum |alguma )?(?:atendente|humano|pessoa|alguem da equipe)\b"
    r"|\b(?:me )?(?:passa|passe|transfere|transfira|encaminha)(?: para| pra)? (?:um |uma |o |a )?"
    r"(?:atendente|humano|pessoa)\b"
    r"|\batendimento humano\b|\bquero (?:um |uma )?(?:atendente|humano)\b"
)
BUILT_IN_OPT_IN = ("voltar a receber", "quero receber de novo", "quero voltar a receber", "pode mandar mensagens")
CANCEL_PLAN_PATTERN = re.compile(
    r"\bcancel(?:ar|o|a|e|amento)(?: d[oa])? (?:(?:o|a|meu|minha|do|da) ){0,2}(?:plano|assinatura)\b"
)
EXPLANATION_PATTERN = re.compile(
    r"^(?:como assim|nao entendi|explica melhor|pode explicar|explique|me explica|por que|porque|"
    r"o que (?:isso )?significa|como (?:e|eh) isso)\b"
)
ESCAPE_WORDS = ("cancelar", "cancela", "esquece", "deixa pra la", "outro assunto", "voltar", "sair desse assunto")
MENU_WORDS = ("menu", "opcoes", "ver opcoes", "ver menu", "menu principal")


@dataclass(frozen=True, slots=True)
class Action:
    """A deterministic decision, as the organisation configures it (menu options, hashtags)."""

    kind: str
    unit_id: str = ""
    reply_key: str = ""


@dataclass(frozen=True, slots=True)
class UnitInfo:
    unit_id: str
    name: str
    description: str


@dataclass(frozen=True, slots=True)
class Rules:
    """The organisation's controller configuration."""

    handoff_phrases: Sequence[str] = ()
    opt_out_phrases: Sequence[str] = ()
    opt_in_phrases: Sequence[str] = ()
    hashtags: Mapping[str, Action] = field(default_factory=dict)
    menu: Mapping[str, Action] = field(default_factory=dict)
    catalog_keys: frozenset[str] = frozenset()
    units: Sequence[UnitInfo] = ()
    default_unit_id: str = ""


@dataclass(frozen=True, slots=True)
class State:
    """The contact's conversation state the controller reads and changes."""

    route: str = ""
    pending: Mapping[str, Any] | None = None
    requirements: Mapping[str, Any] = field(default_factory=dict)
    transient: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Decision:
    action: Action
    reason: str
    # True when the unit must be chosen by the model classification.
    classify: bool = False
    state: State = field(default_factory=State)


def is_opt_out(text: str, extra: Sequence[str] = ()) -> bool:
    folded = fold(text)
    if folded in BUILT_IN_OPT_OUT_WORDS:
        return True
    phrases = [*BUILT_IN_OPT_OUT_PHRASES, *(fold(p) for p in extra if p.strip())]
    return any(p and (folded == p or f" {p} " in f" {folded} ") for p in phrases)


def is_handoff(text: str, extra: Sequence[str] = ()) -> bool:
    folded = fold(text)
    if BUILT_IN_HANDOFF.search(folded):
        return True
    return any(p and f" {p} " in f" {folded} " for p in (fold(x) for x in extra if x.strip()))


def is_opt_in(text: str, extra: Sequence[str] = ()) -> bool:
    folded = fold(text)
    phrases = [*BUILT_IN_OPT_IN, *(fold(p) for p in extra if p.strip())]
    return any(p and f" {p} " in f" {folded} " for p in phrases)


def _words(text: str) -> set[str]:
    return {w for w in fold(text).split() if len(w) >= 4}


def subject_score(text: str, unit: UnitInfo) -> int:
    """How many of the message's words (4+ letters) the unit's name and subjects contain."""
    subjects = _words(f"{unit.name} {unit.description}")
    stems = {w[:5] for w in subjects}
    return sum(1 for w in _words(text) if w in subjects or w[:5] in stems)


def _route_active(state: State, now: datetime) -> bool:
    if not state.route:
        return False
    until = state.transient.get("route_until")
    if not until:
        return True
    try:
        return datetime.fromisoformat(str(until)) > now
    except ValueError:
        return False


def _with_route(state: State, unit_id: str, now: datetime, pending: Mapping[str, Any] | None) -> State:
    transient = dict(state.transient)
    transient["route_until"] = (now + ROUTE_IDLE).isoformat()
    return State(unit_id, pending, state.requirements, transient)


def _cleared(state: State) -> State:
    transient = {k: v for k, v in state.transient.items() if k != "route_until"}
    return State("", None, state.requirements, transient)


def _apply(action: Action, reason: str, state: State, now: datetime) -> Decision:
    if action.kind == ROUTE:
        pending = {"type": "unit_flow", "unit_id": action.unit_id}
        return Decision(action, reason, state=_with_route(state, action.unit_id, now, pending))
    if action.kind == SHOW_MENU:
        return Decision(action, reason, state=State("", {"type": "menu_choice"}, state.requirements, state.transient))
    return Decision(action, reason, state=_cleared(state) if action.kind in (HANDOFF, OPT_OUT) else state)


def decide(texts: Sequence[str], rules: Rules, state: State, now: datetime) -> Decision:
    """Decide the turn from the customer's new messages (in arrival order)."""
    texts = [t for t in texts if t.strip()]
    folded = [fold(t) for t in texts]
    last = folded[-1] if folded else ""

    if any(is_opt_out(t, rules.opt_out_phrases) for t in texts):
        return _apply(Action(OPT_OUT), "opt_out_phrase", state, now)
    if any(is_handoff(t, rules.handoff_phrases) for t in texts):
        return _apply(Action(HANDOFF), "handoff_phrase", state, now)

    tags = [w for f in folded for w in f.split() if w.startswith("#")]
    for tag in tags:
        action = rules.hashtags.get(tag)
        if action is not None:
            return _apply(action, "hashtag", state, now)

    if "cancel_plan" in rules.catalog_keys and any(CANCEL_PLAN_PATTERN.search(f) for f in folded):
        return _apply(Action(CANCEL_PLAN, reply_key="cancel_plan"), "cancel_plan", state, now)

    last_answer = state.transient.get("last_answer_unit")
    if last_answer is not None and last and EXPLANATION_PATTERN.search(last):
        return Decision(Action(ROUTE, unit_id=str(last_answer)), "explanatory_followup", state=state)

    pending = dict(state.pending or {})
    if _route_active(state, now) or pending.get("type") == "unit_flow":
        unit = state.route or str(pending.get("unit_id", ""))
        escaped = any(f in ESCAPE_WORDS or f in MENU_WORDS for f in folded)
        elsewhere = _belongs_elsewhere(texts, rules.units, unit)
        if unit and not escaped and not elsewhere:
            reason = "pending_flow" if pending.get("type") == "unit_flow" else "active_route"
            return Decision(Action(ROUTE, unit_id=unit), reason, state=_with_route(state, unit, now, pending or None))
        state = _cleared(state)

    if rules.menu:
        if last in rules.menu:
            return _apply(rules.menu[last], "menu", state, now)
        if any(f in MENU_WORDS for f in folded):
            return _apply(Action(SHOW_MENU), "menu_request", state, now)
    if state.pending and state.pending.get("type") == "menu_choice":
        state = State(state.route, None, state.requirements, state.transient)

    required = str(state.requirements.get("unit_id", "") or "")
    if required:
        return Decision(Action(ROUTE, unit_id=required), "requirements", state=state)

    if len(rules.units) > 1:
        return Decision(Action(ROUTE), "classifier", classify=True, state=state)
    only = rules.units[0].unit_id if rules.units else rules.default_unit_id
    return Decision(Action(ROUTE, unit_id=only), "single_unit", state=state)


def _belongs_elsewhere(texts: Sequence[str], units: Sequence[UnitInfo], current: str) -> bool:
    """True when the messages match another unit's subjects clearly better than the current one's."""
    if len(units) < 2:
        return False
    text = " ".join(texts)
    scores = {u.unit_id: subject_score(text, u) for u in units}
    best = max(scores, key=lambda k: scores[k])
    return best != current and scores[best] >= 2 and scores[best] > scores.get(current, 0) + 1


def choose_by_subjects(texts: Sequence[str], units: Sequence[UnitInfo], default_unit_id: str) -> str:
    """The unit whose subjects the messages mention most; the default unit on a tie or no match."""
    text = " ".join(texts)
    scores = [(subject_score(text, u), u.unit_id) for u in units]
    best = max((s for s, _ in scores), default=0)
    winners = [unit for score, unit in scores if score == best]
    if best == 0 or len(winners) > 1:
        return default_unit_id or (units[0].unit_id if units else "")
    return winners[0]
