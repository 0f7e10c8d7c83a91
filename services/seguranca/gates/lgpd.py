"""`lgpd`: nothing goes to an anonymised contact, nor a first prospecting touch without a legal basis.

Both are final (no rewrite can fix them) and both raise a Central inbox item: someone must know
a message was stopped for a legal reason. A reply is never prospecting: the contact wrote first.
"""

from __future__ import annotations

from services.seguranca.context import Context
from services.seguranca.verdict import PASSED, GateResult, vetoed

NAME = "lgpd"

ANONYMISED = (
    "Os dados desta pessoa foram apagados a pedido dela: nenhuma mensagem pode ser enviada, nem uma versão reescrita."
)
ANONYMISED_CENTRAL = (
    "Uma mensagem para um contato cujos dados pessoais foram apagados (LGPD) foi impedida. "
    "Verifique por que ainda havia um envio programado para ele."
)
NO_LEGAL_BASIS = (
    "Esta seria a primeira mensagem a alguém que nunca falou com a empresa, e não há registro de "
    "que a pessoa autorizou o contato: ela receberia uma mensagem que não pediu."
)
NO_LEGAL_BASIS_CENTRAL = (
    "Uma primeira mensagem de prospecção foi impedida porque não há base legal registrada para "
    "falar com este contato. Registre o consentimento ou a base legal antes de tentar de novo."
)


def check(ctx: Context) -> GateResult:
    contact = ctx.outbound.contact
    if contact.anonymised:
        return vetoed(NAME, "anonymised", ANONYMISED, revisable=False, central_item_pt=ANONYMISED_CENTRAL)
    if ctx.initiated and contact.first_contact and not contact.legal_basis_recorded:
        return vetoed(NAME, "no_legal_basis", NO_LEGAL_BASIS, revisable=False, central_item_pt=NO_LEGAL_BASIS_CENTRAL)
    return PASSED
