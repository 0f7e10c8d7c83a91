"""Keyword rules of the offline model: intents, days, times and service names in pt-BR text.

Plain functions over text, no state: `detect_intents` says what a customer message asks for,
`date_range`/`part_of_day`/`wanted_time` read when, `service_in` finds which of the business's
own service names the text mentions.
"""

from __future__ import annotations

import re
import unicodedata
from datetime import date, datetime, timedelta
from typing import Any


def fold(text: str) -> str:
    """Lower case without accents, for keyword matching."""
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()


# ---------------------------------------------------------------------------------------------
# Intents
# ---------------------------------------------------------------------------------------------

GREETING_WORDS = r"(oi+|ola|opa|e ai|eai|bom dia|boa tarde|boa noite|tudo bem|tudo bom)"

INTENT_PATTERNS: dict[str, tuple[str, ...]] = {
    "opt_out": (
        r"\bparar de receber\b",
        r"\bnao quero (mais )?receber\b",
        r"\bnao (me )?(mande|envie|mandem|enviem) mais\b",
        r"\bpar[ea]m? de (me )?(mandar|enviar)\b",
        r"\bdescadastr",
        r"\bsair da (sua )?lista\b",
        r"\bremov[ae]\w* (o )?meu (numero|contato)\b",
        r"^\s*(stop|sair|parar|cancelar mensagens)\s*[.!]?\s*$",
    ),
    "human": (
        r"\bfalar com (uma |um |o |a |algum |alguma )?(pessoa|atendente|humano|gente|alguem|responsavel|gerente|"
        r"recepcao|dono|dona)\b",
        r"\batendente humano\b",
        r"\b(quero|prefiro) (falar com )?(uma pessoa|um humano|um atendente|uma atendente)\b",
        r"\bvoce e (um )?robo\b",
    ),
    "cancel": (r"\bcancel(ar|a|o|e|amento)\b", r"\bdesmarc"),
    "reschedule": (
        r"\bremarc",
        r"\breagend",
        r"\b(mudar|trocar|alterar|passar) (o |a |meu |minha )?(horario|data|dia|consulta|agendamento|sessao)",
        r"\badiar\b",
    ),
    "book": (
        r"\bmarcar\b",
        r"\bagendar\b",
        r"\bagendamento\b",
        r"\breservar\b",
        r"\bquero (uma |um )?(consulta|avaliacao|sessao|horario|atendimento)\b",
    ),
    "availability": (
        r"\bhorarios? (livres?|disponive\w*|vagos?)\b",
        r"\b(tem|ha|teria|existe) (algum )?(horario|vaga)",
        r"\bdisponibilidade\b",
        r"\bquais (os )?horarios\b",
        r"\bque horarios\b",
    ),
    "price_objection": (
        r"\b(muito|bem|meio|mt|ta|esta|achei) caro\b",
        r"\bsalgado\b",
        r"\bnao (tenho como|consigo) pagar\b",
        r"\bfora do (meu )?orcamento\b",
    ),
    "price": (
        r"\bprecos?\b",
        r"\bquanto (custa|fica|e|sai|cobra|cobram|esta)\b",
        r"\bvalor(es)?\b",
        r"\borcamento\b",
    ),
    "hours": (
        r"\bhorario de (funcionamento|atendimento)\b",
        r"\bque horas (voces )?(abre|abrem|fecha|fecham|funciona|funcionam|atende|atendem)\b",
        r"\b(abre|abrem|funciona|funcionam|atende|atendem) (no|nos|aos|na|nas|de|em) "
        r"(sabado|domingo|feriado|fim de semana|final de semana)",
        r"\bate que horas\b",
        r"\b(abre|abrem|fecha|fecham|funciona|funcionam|atende|atendem) (que|a que|ate que) horas?\b",
        r"\bexpediente\b",
    ),
    "address": (r"\bonde (fica|ficam|e|voces ficam)\b", r"\benderecos?\b", r"\bcomo (eu )?chego\b"),
    "my_appointments": (
        r"\b(quais|qual) (sao |e )?(as |os |a |o )?(minhas?|meus?) (consultas?|agendamentos?|compromissos?|sessoes?|"
        r"horarios?)\b",
        r"\b(ver|saber|consultar|conferir|confirmar) (as |os |a |o )?(minhas?|meus?) (consultas?|agendamentos?|"
        r"compromissos?|sessoes?|horarios?)\b",
        r"\btenho (alguma |algum |uma |um )?(consulta|agendamento|compromisso|sessao|horario) (marcad|agendad)",
        r"\bquando (e|fica|sera) (a |o )?(minha |meu )?(consulta|sessao|agendamento|compromisso|horario)\b",
        r"\bque (dia|horas?) (e|fica|sera) (a |o )?(minha |meu )?(consulta|sessao|agendamento|compromisso)\b",
    ),
    "greeting": (rf"^\s*{GREETING_WORDS}\b",),
}

CATEGORIA = {
    "opt_out": "opt_out",
    "human": "pede_humano",
    "cancel": "quer_cancelar",
    "reschedule": "quer_remarcar",
    "book": "quer_agendar",
    "availability": "quer_agendar",
    "price": "pergunta_preco",
    "price_objection": "objecao_preco",
    "hours": "pede_informacao",
    "address": "pede_informacao",
    "my_appointments": "pede_informacao",
    "unknown": "pede_informacao",
}

O_QUE = {
    "opt_out": "não quer mais receber mensagens",
    "human": "quer falar com uma pessoa da equipe",
    "cancel": "quer cancelar um compromisso",
    "reschedule": "quer remarcar um compromisso",
    "book": "quer marcar um horário",
    "availability": "quer saber os horários livres",
    "price": "quer saber o valor",
    "price_objection": "achou o valor alto",
    "hours": "quer saber o horário de atendimento",
    "address": "quer saber o endereço",
    "my_appointments": "quer saber dos seus compromissos marcados",
    "unknown": "fez uma pergunta",
}

_SENTENCE_SPLIT = re.compile(r"(?<=[.!?])\s+|\n+")


def sentences(text: str) -> list[str]:
    return [s.strip() for s in _SENTENCE_SPLIT.split(text) if s.strip()]


def matches(intent: str, text: str) -> bool:
    folded = fold(text)
    return any(re.search(p, folded) for p in INTENT_PATTERNS[intent])


def evidence_for(intent: str, text: str) -> str:
    """The customer's own sentence that shows the intent: a verbatim quote of the conversation."""
    for sentence in sentences(text):
        if intent == "unknown" or matches(intent, sentence):
            return sentence[:280]
    return sentences(text)[0][:280] if sentences(text) else text[:280]


def detect_intents(text: str) -> list[str]:
    found = [intent for intent in INTENT_PATTERNS if matches(intent, text)]
    if "opt_out" in found:
        return ["opt_out"]  # someone leaving is answered about that and nothing else
    if "reschedule" in found or "cancel" in found:
        found = [i for i in found if i not in ("book", "availability")]
    if {"reschedule", "cancel", "book"} & set(found) and "my_appointments" in found:
        found.remove("my_appointments")  # "remarcar a minha consulta" is about moving it: its answer lists it
    if "book" in found and "availability" in found:
        found.remove("availability")
    if "price_objection" in found and "price" in found:
        found.remove("price")
    return found


# ---------------------------------------------------------------------------------------------
# When and what: dates, times, services
# ---------------------------------------------------------------------------------------------

WEEKDAYS = ("segunda", "terca", "quarta", "quinta", "sexta", "sabado", "domingo")


def today_of(context: dict[str, Any]) -> date | None:
    try:
        return datetime.fromisoformat(str(context.get("agora_iso", ""))).date()
    except ValueError:
        return None


def _without_greetings(folded: str) -> str:
    return re.sub(r"\b(bom dia|boa tarde|boa noite)\b", " ", folded)


def date_range(text: str, today: date | None) -> tuple[str, str]:
    """The days the customer asked about, as YYYY-MM-DD; the next seven days when unsaid."""
    if today is None:
        return "", ""
    folded = _without_greetings(fold(text))
    day: date | None = None
    if re.search(r"\bdepois de amanha\b", folded):
        day = today + timedelta(days=2)
    elif re.search(r"\bamanha\b", folded):
        day = today + timedelta(days=1)
    elif re.search(r"\bhoje\b", folded):
        day = today
    elif match := re.search(r"\b(\d{1,2})/(\d{1,2})(?:/(\d{2,4}))?\b", folded):
        d, m, y = int(match.group(1)), int(match.group(2)), match.group(3)
        year = (int(y) + 2000 if len(y) == 2 else int(y)) if y else today.year
        try:
            day = date(year, m, d)
            if not y and day < today:
                day = date(year + 1, m, d)
        except ValueError:
            day = None
    elif match := re.search(r"\bdia (\d{1,2})\b", folded):
        wanted = int(match.group(1))
        candidate = today.replace(day=1)
        for _ in range(2):
            try:
                day = candidate.replace(day=wanted)
            except ValueError:
                day = None
            if day is not None and day >= today:
                break
            candidate = (candidate + timedelta(days=32)).replace(day=1)
    else:
        for index, name in enumerate(WEEKDAYS):
            if re.search(rf"\b{name}\b", folded):
                day = today + timedelta(days=(index - today.weekday()) % 7)
                break
    if day is not None:
        return day.isoformat(), day.isoformat()
    if re.search(r"\b(semana que vem|proxima semana)\b", folded):
        monday = today + timedelta(days=7 - today.weekday())
        return monday.isoformat(), (monday + timedelta(days=6)).isoformat()
    return today.isoformat(), (today + timedelta(days=6)).isoformat()


def names_a_day(text: str, today: date | None) -> bool:
    """Whether the customer said which day(s), rather than leaving the default week."""
    return today is not None and date_range(text, today) != (today.isoformat(), (today + timedelta(days=6)).isoformat())


MONTHS = (
    "janeiro", "fevereiro", "marco", "abril", "maio", "junho",
    "julho", "agosto", "setembro", "outubro", "novembro", "dezembro",
)  # fmt: skip


def offered_days(text: str, today: date | None) -> tuple[str, str]:
    """The first and last day of the slot labels in an agent's message ("2 de dezembro [de 2026]")."""
    if today is None:
        return "", ""
    days: list[date] = []
    pattern = rf"\b(\d{{1,2}}) de ({'|'.join(MONTHS)})(?: de (\d{{4}}))?\b"
    for match in re.finditer(pattern, fold(text)):
        month = MONTHS.index(match.group(2)) + 1
        year = int(match.group(3)) if match.group(3) else today.year
        try:
            day = date(year, month, int(match.group(1)))
            if not match.group(3) and day < today:
                day = date(year + 1, month, int(match.group(1)))
        except ValueError:
            continue
        days.append(day)
    if not days:
        return "", ""
    return min(days).isoformat(), max(days).isoformat()


def part_of_day(text: str) -> str:
    folded = _without_greetings(fold(text))
    for period in ("manha", "tarde", "noite"):
        if re.search(rf"\b{period}\b", folded):
            return period
    return ""


def wanted_time(text: str) -> str | None:
    """The time of day the customer named ("10h", "10:30", "às 9"), as HH:MM."""
    folded = fold(text)
    match = re.search(r"\b(\d{1,2})(?:h(\d{2})?|:(\d{2}))(?!\d)", folded) or re.search(
        r"\bas (\d{1,2})(?:\s*horas?)?\b(?!/)", folded
    )
    if not match:
        return None
    hour = int(match.group(1))
    minute = next((int(g) for g in match.groups()[1:] if g), 0)
    if hour > 23 or minute > 59:
        return None
    if hour < 12 and re.search(r"\b(da tarde|de tarde|da noite|de noite)\b", folded) and hour < 8:
        hour += 12
    return f"{hour:02d}:{minute:02d}"


_STOPWORDS = frozenset(
    "a o as os de da do das dos e em no na nos nas um uma para pra por com que quero queria gostaria "
    "marcar agendar consulta preco valor quanto custa".split()
)


def words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z0-9]+", fold(text)) if len(w) > 2 and w not in _STOPWORDS}


def known_services(context: dict[str, Any]) -> list[str]:
    """Service names the business itself wrote: in authorised prices ("Limpeza: R$ 150") and bookings."""
    names: list[str] = []
    for fact in context.get("negocio", {}).get("valores_autorizados", []):
        if ":" in fact:
            names.append(fact.split(":", 1)[0].strip())
    for appointment in context.get("compromissos", {}).get("compromissos", []):
        if appointment.get("servico"):
            names.append(appointment["servico"])
    return list(dict.fromkeys(n for n in names if n))


def service_in(text: str, candidates: list[str]) -> str:
    said = words(text)
    best, score = "", 0
    for candidate in candidates:
        overlap = len(said & words(candidate))
        if overlap > score:
            best, score = candidate, overlap
    return best


# ---------------------------------------------------------------------------------------------
# Gibberish
# ---------------------------------------------------------------------------------------------

# Chat shorthand without vowels that is not gibberish ("vc", "blz", "kkkk" is laughter).
_SHORTHAND = frozenset(
    "vc vcs pq tb tbm blz msg msgs hj td tds obg vlw bjs rs rsrs qnd qdo cmg pfv pf pls dps hrs mt mts mto "
    "nd ngm cd msm sds sdds fds whts zap ctz crt flw tmj slk pv dm cpf cnpj cep rg".split()
)
_KEYBOARD_RUNS = ("qwe", "wer", "rty", "tyu", "yui", "iop", "asd", "sdf", "dfg", "fgh", "ghj", "hjk", "jkl", "zxc",
                  "xcv", "cvb", "vbn", "bnm")  # fmt: skip
_CONSONANTS = re.compile(r"[b-df-hj-np-tv-xz]{5,}")
# Laughter and hesitation ("kkkk", "hahaha", "rsrs", "hmm", "aff"): words of a kind, not typing at random.
_LAUGHTER = re.compile(r"k{2,}|(?:ha|he|hi|hu|rs|ah|eh)+h?|h*u*m+h*m*|af+s?|ps+iu|sh+")


def _garbled_word(word: str) -> bool:
    """Letters that make no pt-BR word: a keyboard row, a "q" without its "u", no vowel, a letter three
    times over, five consonants in a row. Shorthand ("vc", "blz"), laughter and short words are words."""
    if len(word) < 3 or word in _SHORTHAND or _LAUGHTER.fullmatch(word):
        return False
    return (
        any(run in word for run in _KEYBOARD_RUNS)
        or bool(re.search(r"q(?!u)", word))
        or not re.search(r"[aeiouy]", word)
        or bool(re.search(r"(.)\1\1", word))
        or bool(_CONSONANTS.search(word))
    )


def looks_garbled(text: str) -> bool:
    """Whether a message is letters typed at random ("asdkjh qwe zzzz"), not words of any kind.

    Every word must look garbled, so one real word ("implante", "oi", "valor") is enough to read the
    message as a question; numbers and links are left to the other rules.
    """
    folded = fold(text)
    if re.search(r"\d|https?:|www\.|@", folded):
        return False
    letters = re.findall(r"[a-z]+", folded)
    return bool(letters) and all(_garbled_word(w) for w in letters)


def without_greetings(text: str) -> str:
    return re.sub(rf"\b{GREETING_WORDS}\b", " ", fold(text))
