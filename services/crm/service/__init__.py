"""The crm servicers and who may call each RPC.

crm owns the business facts (organisations, contacts, lead state, checkpoints, cases,
follow-ups, obligations, the Central inbox, knowledge, agent configuration) and the event
queue. Reads and writes are separate services; the Conversador is on no list here.

The servicers map protobuf requests to the domain modules and their results back to protobuf;
`status.py` maps the domain's exceptions to gRPC status codes, in one place. No SQL here:
transactions are opened through `Store`, statements live in `repository/`.
"""

from services.crm.service.event_queue import EventQueue
from services.crm.service.policies import QUEUE_POLICY, READ_POLICY, WRITE_POLICY
from services.crm.service.read import CrmRead
from services.crm.service.write import CrmWrite

__all__ = ["QUEUE_POLICY", "READ_POLICY", "WRITE_POLICY", "CrmRead", "CrmWrite", "EventQueue"]
