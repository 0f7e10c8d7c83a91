"""`case_promise`: promising a person while no human case is open or being opened.

"Vou passar para um atendente", "a equipe vai te ligar": the customer would wait for someone who
was never called. Backed when a human case is open for the contact, when this turn's declaração
carries the customer's request for a person (the case opens from it) or declares that very
promise (it becomes an obligation someone fulfils), and for the hand-off and holding messages,
which the runtime sends while it opens the case.
"""

from __future__ import annotations

from itertools import pairwise

from services.seguranca.context import Context
from services.seguranca.facts import OutboundKind
from services.seguranca.text import Folded, Sentence, fold, words
from services.seguranca.verdict import PASSED, GateResult, not_applicable, vetoed

NAME = "case_promise"

# "vou te passar para um atendente": a first-person future before the person, with a transfer verb.
_FIRST_PERSON = frozenset({"vou", "vamos", "irei", "iremos", "estou", "estamos"})
_TRANSFER = frozenset(
    {
        "passar",
        "transferir",
        "encaminhar",
        "repassar",
        "direcionar",
        "chamar",
        "acionar",
        "passando",
        "transferindo",
        "encaminhando",
        "repassando",
        "direcionando",
        "chamando",
        "acionando",
    }
)
# "vou pedir para alguém da equipe te ligar": a request, then the person, then a contact verb.
_REQUEST = frozenset({"pedir", "solicitar", "avisar", "pedindo", "solicitando", "avisando"})
# "a equipe vai te ligar": the person, a future, a contact verb.
# ("pode" is left out: "a equipe pode te ajudar com isso na consulta" promises no contact.)
_FUTURE = frozenset({"vai", "vao", "ira", "irao", "deve", "devem", "sera", "serao"})
_CONTACT = frozenset(
    {
        "ligar",
        "telefonar",
        "chamar",
        "contatar",
        "responder",
        "retornar",
        "falar",
        "entrar",
        "atender",
        "assumir",
        "dar",
        "mandar",
        "enviar",
        "continuar",
        "seguir",
        "ligando",
        "chamando",
        "retornando",
        "entrando",
        "atendendo",
        "assumindo",
        "responde",
        "retorna",
        "liga",
        "chama",
    }
)
# "você será atendido por um especialista".
_PASSIVE = frozenset(
    {
        "atendido",
        "atendida",
        "contatado",
        "contatada",
        "chamado",
        "chamada",
        "transferido",
        "transferida",
        "encaminhado",
        "encaminhada",
        "direcionado",
        "direcionada",
    }
)
_NEGATION = frozenset({"nao", "nunca", "jamais", "nem"})
# What every shape of promise below needs in its sentence.
_PROMISE_VERBS = _FIRST_PERSON | _FUTURE


def _promises(folded_sentence: str) -> bool:
    """Whether one (folded) sentence promises that a person will take over or get in touch."""
    sequence = words(folded_sentence)
    # `isdisjoint` takes the word lists as they are: no set is built for the usual "no".
    for i in [i for i, word in enumerate(sequence) if word in PERSON_WORDS]:
        before = sequence[max(0, i - 7) : i]
        after = sequence[i + 1 : i + 7]
        if not _NEGATION.isdisjoint(before[-4:]) or not _NEGATION.isdisjoint(after[:2]):
            continue
        first_person = not _FIRST_PERSON.isdisjoint(before)
        if first_person and not _TRANSFER.isdisjoint(before):
            return True
        if first_person and not _REQUEST.isdisjoint(before) and not _CONTACT.isdisjoint(after[:4]):
            return True
        if not _PASSIVE.isdisjoint(before) and not _FUTURE.isdisjoint(before):
            return True
        for j, follower in enumerate(after):
            if follower in _FUTURE and not _CONTACT.isdisjoint(after[j + 1 : j + 4]):
                return True
    return False


# A promise of a person names one; a message with none of these words is not read further. The
# professional of a booking is not here: "a Dra. Ana vai te atender na terça" is the booking.
PERSON_WORDS = frozenset(
    {
        "atendente",
        "atendentes",
        "humano",
        "humanos",
        "pessoa",
        "pessoas",
        "equipe",
        "time",
        "consultor",
        "consultora",
        "consultores",
        "consultoras",
        "especialista",
        "especialistas",
        "vendedor",
        "vendedora",
        "vendedores",
        "vendedoras",
        "colaborador",
        "colaboradora",
        "colaboradores",
        "colaboradoras",
        "responsavel",
        "responsaveis",
        "gerente",
        "recepcao",
        "recepcionista",
        "secretaria",
        "alguem",
    }
)

# Every word this gate looks for among a message's words (`Context.notable_words`).
NOTABLE_WORDS = PERSON_WORDS | _PROMISE_VERBS

GUIDANCE = (
    "A mensagem promete que uma pessoa da equipe vai falar com o cliente, mas nenhum atendimento "
    "humano foi aberto: ele ficaria esperando um contato que não vem. Não prometa isso; se o "
    "cliente pediu para falar com alguém, declare esse pedido no turno em vez de prometer o contato."
)


def _sentences_with_both(text: Folded, hits: frozenset[str], verbs: frozenset[str]) -> list[Sentence]:
    """The sentences holding one of `hits` and one of `verbs` (both as substrings), in order.

    Both are letters only, and two letters are in one sentence when no sentence ends between
    them. Taken in text order, the occurrences of a sentence holding both sides include a person
    word next to a verb: only such neighbours are checked (half a sentence look-up each), and only
    the sentences that hold both are looked up.
    """
    marks = sorted([(at, True) for at in text.occurrences(hits)] + [(at, False) for at in text.occurrences(verbs)])
    found: dict[int, Sentence] = {}
    for (first, first_is_person), (second, second_is_person) in pairwise(marks):
        if first_is_person is not second_is_person and text.same_sentence(first, second):
            sentence = text.sentence_around(first)
            found[sentence.start] = sentence
    return [found[start] for start in sorted(found)]


def promises_a_person(text: str) -> bool:
    return _promises(fold(text))


def check(ctx: Context) -> GateResult:
    kind = ctx.outbound.kind
    if ctx.catalog_text:
        return not_applicable(f"{NAME}:catalog_text")
    if kind in (OutboundKind.HANDOFF, OutboundKind.HOLDING_REPLY):
        return not_applicable(f"{NAME}:case_being_opened")
    text = ctx.text
    words = ctx.notable_words
    hits = words & PERSON_WORDS
    # Every promise has a first-person or a future verb in its sentence: a sentence without one
    # is not split into words (a substring test can only err towards reading it).
    verbs = words & _PROMISE_VERBS
    if not hits or not verbs:
        return PASSED
    if not any(_promises(s.text) for s in _sentences_with_both(text, hits, verbs)):
        return PASSED
    declaracao = ctx.outbound.declaracao
    if ctx.outbound.contact.human_case_open:
        return PASSED
    if declaracao is not None and (declaracao.pede_humano or any(promises_a_person(p) for p in declaracao.promessas)):
        return PASSED
    return vetoed(NAME, "no_human_case", GUIDANCE)
