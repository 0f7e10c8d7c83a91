"""Segurança's gates on the owner's screen, and their per-organisation switches.

Segurança describes its chain (`GetGateChain`: order, labels, what each gate checks, whether it
is on for the organisation); the switches live in crm's organisation settings
(`seguranca.gates_enabled`, `seguranca.inbound_classifier_enabled`), which Segurança reads on
every review, so a switch applies to the next message. `stop` cannot be switched off: asking is
refused as data and changes nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from uuid import UUID

from google.protobuf import field_mask_pb2

from balcao.crm.v1 import crm_resources_pb2 as r
from balcao.crm.v1 import crm_write_pb2 as cw
from balcao.gateway.v1 import gateway_pb2 as gw
from balcao.seguranca.v1 import seguranca_pb2 as sg
from services.gateway.admin_common import crm_organization, org_id
from services.gateway.configuration import ConfigCache
from services.gateway.intake import InvalidRequest
from services.gateway.peers import Peers, call

CLASSIFIER_ON_PT = (
    "As mensagens recebidas também passam por um classificador de modelo, além da verificação por regras: "
    "uma chamada de modelo a mais por conversa."
)
CLASSIFIER_OFF_PT = "As mensagens recebidas passam só pela verificação por regras, sem chamada de modelo."


@dataclass(frozen=True)
class GateChange:
    gate: gw.GateState
    consequence_pt: str = ""
    refusal_pt: str = ""


def _state(info: sg.GateInfo) -> gw.GateState:
    return gw.GateState(
        position=info.position,
        name=info.name,
        label_pt=info.label_pt,
        explanation_pt=info.explanation_pt,
        switchable=info.switchable,
        enabled=info.enabled,
        uses_model=info.uses_model,
    )


class Gates:
    def __init__(self, peers: Peers, configs: ConfigCache) -> None:
        self._peers = peers
        # This replica's copy of the organisation is dropped after a switch: its next review names
        # the new revision, so Segurança reads the switch instead of reusing its older copy.
        self._configs = configs

    async def _chain(self, org: str) -> sg.GetGateChainResponse:
        return await call(
            "seguranca",
            self._peers.seguranca.GetGateChain,
            sg.GetGateChainRequest(organization_id=org),
            timeout=self._peers.timeout,
        )

    async def list(self, organization_id: str) -> gw.ListGatesResponse:
        org = org_id(organization_id)
        await crm_organization(self._peers, org)
        chain = await self._chain(org)
        return gw.ListGatesResponse(
            chain_version=chain.chain_version,
            gates=[_state(g) for g in chain.gates],
            inbound_classifier_enabled=chain.inbound.classifier_enabled,
        )

    async def set_enabled(self, organization_id: str, gate: str, enabled: bool) -> GateChange:
        org = org_id(organization_id)
        name = gate.strip().lower()
        current = await crm_organization(self._peers, org)
        chain = await self._chain(org)
        by_name = {g.name: g for g in chain.gates}
        if name not in by_name:
            raise InvalidRequest(f"gate {gate!r} is not one of Segurança's gates ({', '.join(by_name)})")
        info = by_name[name]
        if not info.switchable and not enabled:
            return GateChange(
                _state(info),
                refusal_pt=f"A verificação “{info.label_pt or name}” não pode ser desligada: ela impede que o "
                "assistente escreva para quem pediu para não receber mensagens, está bloqueado ou está com uma "
                "pessoa da equipe.",
            )
        switches = dict(current.settings.seguranca.gates_enabled)
        switches[name] = enabled
        settings = r.OrganizationSettings(seguranca=r.SegurancaSettings(gates_enabled=switches))
        updated = await call(
            "crm",
            self._peers.crm_write.UpdateOrganizationSettings,
            cw.UpdateOrganizationSettingsRequest(
                organization_id=org,
                settings=settings,
                update_mask=field_mask_pb2.FieldMask(paths=["seguranca.gates_enabled"]),
                expected_settings_version=current.settings_version,
            ),
            timeout=self._peers.timeout,
        )
        self._configs.forget(UUID(org))
        after = {g.name: g for g in (await self._chain(org)).gates}[name]
        consequence = " ".join(updated.consequences_pt) or (
            f"A verificação “{info.label_pt or name}” continua {'ligada' if enabled else 'desligada'}."
        )
        return GateChange(_state(after), consequence_pt=consequence)

    async def set_classifier(self, organization_id: str, enabled: bool) -> gw.SetInboundClassifierEnabledResponse:
        org = org_id(organization_id)
        await call(
            "crm",
            self._peers.crm_write.UpdateOrganizationSettings,
            cw.UpdateOrganizationSettingsRequest(
                organization_id=org,
                settings=r.OrganizationSettings(seguranca=r.SegurancaSettings(inbound_classifier_enabled=enabled)),
                update_mask=field_mask_pb2.FieldMask(paths=["seguranca.inbound_classifier_enabled"]),
            ),
            timeout=self._peers.timeout,
        )
        self._configs.forget(UUID(org))
        chain = await self._chain(org)
        on = chain.inbound.classifier_enabled
        return gw.SetInboundClassifierEnabledResponse(
            enabled=on, consequence_pt=CLASSIFIER_ON_PT if on else CLASSIFIER_OFF_PT
        )
