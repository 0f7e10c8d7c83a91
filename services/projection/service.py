"""The projection servicer and who may call it.

The only window the Conversador has on the business: raw reads of crm and agenda come in,
business facts in pt-BR go out. The gateway's runtime may open a turn (GetTurnContext) and
re-read the agenda at closing (ListMyAppointments); everything else is the Conversador's.
"""

from __future__ import annotations

from balcao.kit.identity import allow
from balcao.projection.v1 import projection_pb2, projection_pb2_grpc


class Projection(projection_pb2_grpc.ProjectionServiceServicer):
    """Projected, read-only views for the Conversador."""


POLICY = allow(
    projection_pb2.DESCRIPTOR.services_by_name["ProjectionService"],
    ["conversador"],
    GetTurnContext=["conversador", "gateway"],
    ListMyAppointments=["conversador", "gateway"],
)
