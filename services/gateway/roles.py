"""The three roles on the owner's screen: what each does, whether it is on, what switching it means.

The Conversador and the Operador are switched here, each through its switch in crm's organisation
settings (`roles.conversador_enabled`, `roles.operador_enabled`) with `UpdateOrganizationSettings`.
The Conversador off: the turn runtime calls no model and sends no reply; every inbound message
becomes (or joins) a human case for the team (runtime `_to_team`). The Operador off: the basic
registration by code still runs; what goes is its model and its capacity to change the operation.
Segurança cannot be switched off as a whole (its gates are switched one by one).
"""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID

from google.protobuf import field_mask_pb2

from balcao.crm.v1 import crm_read_pb2 as cr
from balcao.crm.v1 import crm_resources_pb2 as r
from balcao.crm.v1 import crm_write_pb2 as cw
from balcao.gateway.v1 import gateway_pb2 as gw
from services.gateway.configuration import ConfigCache
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
CONVERSADOR_ON_PT = (
    "Conversador ligado: o assistente responde os clientes sozinho; quem pede uma pessoa é passado para a equipe."
)
CONVERSADOR_OFF_PT = (
    "Conversador desligado: o assistente não responde sozinho; cada mensagem vira um atendimento para a equipe. "
    "Pedidos para não receber mensagens continuam sendo registrados e confirmados."
)
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


_CONSEQUENCES = {
    "conversador": (CONVERSADOR_ON_PT, CONVERSADOR_OFF_PT),
    "operador": (OPERADOR_ON_PT, OPERADOR_OFF_PT),
}


def _switch(role: str, enabled: bool) -> gw.RoleState:
    on, off = _CONSEQUENCES[role]
    return _state(role, enabled, True, on if enabled else off)


class Roles:
    def __init__(self, peers: Peers, configs: ConfigCache | None = None) -> None:
        self._peers = peers
        self._configs = configs

    async def list(self, organization_id: str) -> list[gw.RoleState]:
        org = str(parse_uuid(organization_id, "organization_id"))
        settings = await self._settings(org)
        return [
            _switch("conversador", settings.roles.conversador_enabled),
            _switch("operador", settings.roles.operador_enabled),
            _state("seguranca", True, False, SEGURANCA_PT),
        ]

    async def set_enabled(self, organization_id: str, role: str, enabled: bool) -> RoleChange:
        org = str(parse_uuid(organization_id, "organization_id"))
        role = role.strip().lower()
        if role not in _LABELS:
            raise InvalidRequest("role must be one of conversador, operador, seguranca")
        if role == "seguranca":
            current = {s.role: s for s in await self.list(org)}[role]
            refusal = "A Segurança não pode ser desligada inteira; desligue as verificações uma a uma."
            return RoleChange(current, refusal if not enabled else "")
        path = f"roles.{role}_enabled"
        request = cw.UpdateOrganizationSettingsRequest(
            organization_id=org, update_mask=field_mask_pb2.FieldMask(paths=[path])
        )
        setattr(request.settings.roles, f"{role}_enabled", enabled)
        await call("crm", self._peers.crm_write.UpdateOrganizationSettings, request, timeout=self._peers.timeout)
        if self._configs is not None:
            # This replica's next turn reads the switch at once (others within their short cache).
            self._configs.forget(UUID(org))
        return RoleChange(_switch(role, enabled))

    async def _settings(self, org: str) -> r.OrganizationSettings:
        """The organisation's settings; an unknown organisation is crm's NOT_FOUND (PeerFailure)."""
        response = await call(
            "crm",
            self._peers.crm_read.GetOrganization,
            cr.GetOrganizationRequest(organization_id=org),
            timeout=self._peers.timeout,
        )
        return response.organization.settings
