"""Who may call each crm RPC (checked by the kit's identity interceptor before any servicer runs).

The Conversador is on no list: it reaches business data only through projection.
"""

from __future__ import annotations

from balcao.crm.v1 import crm_read_pb2 as rd
from balcao.crm.v1 import crm_write_pb2 as wr
from balcao.crm.v1 import event_queue_pb2 as eq
from balcao.kit.identity import allow
from balcao.kit.mesh import ADMIN

READ_POLICY = allow(
    rd.DESCRIPTOR.services_by_name["CrmReadService"],
    ["projection", "seguranca", "operador", "gateway"],
    ListOrganizations=["gateway", "operador", ADMIN],
    GetRollingSummaryStats=["gateway", "operador", ADMIN],
    BatchGetClosedTurns=["operador", "gateway"],
    GetOperadorStats=["operador", "gateway", ADMIN],
)
WRITE_POLICY = allow(
    wr.DESCRIPTOR.services_by_name["CrmWriteService"],
    ["operador", "gateway"],
    UpsertOrganization=["gateway", ADMIN],
    UpdateOrganizationSettings=["gateway", ADMIN],
    RaiseCentralItem=["operador", "gateway", "projection"],
    RegisterTurnBasics=["operador"],
)
QUEUE_POLICY = allow(
    eq.DESCRIPTOR.services_by_name["EventQueueService"],
    ["operador", "gateway"],
    GetEvent=["operador", "gateway", ADMIN],
    ListEvents=["operador", "gateway", ADMIN],
    RequeueEvent=["gateway", ADMIN],
    GetQueueStats=["operador", "gateway", ADMIN],
)
