"""The three roles on the owner's screen: what each does, whether it is on, what switching it means.

Only the Operador is switched here: its switch is `roles.operador_enabled` in crm's organisation
settings, which the Operador reads before each closed turn (off: the basic registration by code
still runs; what goes is its model and its capacity to change the operation). Segurança cannot be
switched off as a whole (its gates are switched one by one). The Conversador's switch is refused
for now: the turn runtime does not yet turn every inbound into a human case when it is off, and a
switch that changes nothing would lie to the owner.
"""

from __future__ import annotations

from dataclasses import dataclass

from google.protobuf import field_mask_pb2

from balcao.crm.v1 import crm_read_pb2 as cr
from balcao.crm.v1 import crm_resources_pb2 as r
from balcao.crm.v1 import crm_write_pb2 as cw
from balcao.gateway.v1 import gateway_pb2 as gw
from services.gateway.inbound import parse_uuid
from services.gateway.intake import InvalidRequest
from services.gateway.peers import Peers, call

OPERADOR_OFF_PT = (
    "Operador desligado: ele continua registrando o básico sozinho; o que você desliga é a capacidade de mexer "
    "na operação."
)
OPERADOR_ON_PT = (
    "Operador ligado: depois de cada conversa ele pode mexer na operação (marcar, abrir casos, registrar), com "
    "uma chamada de modelo a mais por conversa."
)
CONVERSADOR_PT = "O Conversador responde os clientes; ele fica sempre ligado enquanto o assistente estiver ativo."
SEGURANCA_PT = (
    "A Segurança confere cada mensagem antes de sair e não pode ser desligada inteira; você pode ligar ou "
    "desligar as verificações uma a uma."
)
_LABELS = {
    "conversador": ("Conversador", "o que o cliente vê: as respostas do assistente"),
    "operador": ("Operador", "o que acontece no sistema depois de cada conversa"),
    "seguranca": ("Segurança", "o que é conferido antes de cada mensagem sair"),
}


@dataclass(frozen=True)
class RoleChange:
    role: gw.RoleState
    refusal_pt: str = ""


def _state(role: str, enabled: bool, switchable: bool, consequence_pt: str) -> gw.RoleState:
    label, explanation = _LABELS[role]
    return gw.RoleState(
        role=role,
        label_pt=label,
        explanation_pt=explanation,
        enabled=enabled,
        switchable=switchable,
        consequence_pt=consequence_pt,
    )


class Roles:
    def __init__(self, peers: Peers) -> None:
        self._peers = peers

    async def list(self, organization_id: str) -> list[gw.RoleState]:
        org = str(parse_uuid(organization_id, "organization_id"))
        settings = await self._settings(org)
        operador = settings.roles.operador_enabled
        return [
            _state("conversador", True, False, CONVERSADOR_PT),
            _state("operador", operador, True, OPERADOR_ON_PT if operador else OPERADOR_OFF_PT),
            _state("seguranca", True, False, SEGURANCA_PT),
        ]

    async def set_enabled(self, organization_id: str, role: str, enabled: bool) -> RoleChange:
        org = str(parse_uuid(organization_id, "organization_id"))
        role = role.strip().lower()
        if role not in _LABELS:
            raise InvalidRequest("role must be one of conversador, operador, seguranca")
        if role != "operador":
            current = {s.role: s for s in await self.list(org)}[role]
            refusal = (
                "A Segurança não pode ser desligada inteira; desligue as verificações uma a uma."
                if role == "seguranca"
                else "Ainda não é possível desligar o Conversador por aqui; para atender só com a equipe, assuma as "
                "conversas pela Central."
            )
            return RoleChange(current, refusal if not enabled else "")
        request = cw.UpdateOrganizationSettingsRequest(
            organization_id=org, update_mask=field_mask_pb2.FieldMask(paths=["roles.operador_enabled"])
        )
        request.settings.roles.operador_enabled = enabled
        await call("crm", self._peers.crm_write.UpdateOrganizationSettings, request, timeout=self._peers.timeout)
        return RoleChange(_state("operador", enabled, True, OPERADOR_ON_PT if enabled else OPERADOR_OFF_PT))

    async def _settings(self, org: str) -> r.OrganizationSettings:
        """The organisation's settings; an unknown organisation is crm's NOT_FOUND (PeerFailure)."""
        response = await call(
            "crm",
            self._peers.crm_read.GetOrganization,
            cr.GetOrganizationRequest(organization_id=org),
            timeout=self._peers.timeout,
        )
        return response.organization.settings
