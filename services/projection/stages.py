"""The lead's stage as the tenant labels it (DESIGN.md §3 rule 4).

The tenant's label is vocabulary the customer may hear and passes whole ("Aguardando
pagamento"); the internal key (`qualifying`) never passes, not even as a fallback. A stage
the tenant left without a label is described generically. A label that is exactly the key
(a writer that copied the key into the label) counts as no label.
"""

from __future__ import annotations

from collections.abc import Iterable

from balcao.crm.v1 import crm_resources_pb2 as crm
from balcao.projection.v1 import projection_pb2 as out
from services.projection.identifiers import carries_identifier

GENERIC_OPEN = "em atendimento (etapa sem nome definido pela empresa)"
GENERIC_TERMINAL = "atendimento concluído (etapa sem nome definido pela empresa)"
NOT_PLACED = "ainda sem etapa definida pela empresa"


def project_stage(
    found: bool, state: crm.LeadState, stages: Iterable[crm.StageDefinition]
) -> out.LeadStage:
    """`state` and `stages` must already have passed the allowlist."""
    if not found:
        return out.LeadStage(label=NOT_PLACED, generic=True)
    definition = next((s for s in stages if s.key and s.key == state.stage_key), None)
    for candidate in (state.stage_label, definition.label if definition else ""):
        label = candidate.strip()
        if label and label != state.stage_key and not carries_identifier(label):
            return out.LeadStage(label=label, generic=False)
    terminal = definition.terminal if definition else False
    return out.LeadStage(label=GENERIC_TERMINAL if terminal else GENERIC_OPEN, generic=True)
