"""An operador process whose GetStatus takes two seconds, run through the kit's real `run`.

Used to show that SIGTERM lets an in-flight call finish. Start with the same environment a
real service gets; prints nothing special, the test watches health and the call.
"""

from __future__ import annotations

import asyncio
from typing import Any

from balcao.kit.identity import allow
from balcao.kit.server import Database, Registration, ServiceDefinition, run
from balcao.kit.settings import load_settings
from balcao.operador.v1 import operador_pb2, operador_pb2_grpc
from services.operador.config import Settings


class SlowOperador(operador_pb2_grpc.OperadorServiceServicer):
    async def GetStatus(self, request: Any, context: Any) -> operador_pb2.GetStatusResponse:
        await asyncio.sleep(2)
        return operador_pb2.GetStatusResponse()


def build(settings: Settings, database: Database) -> ServiceDefinition:
    service = operador_pb2.DESCRIPTOR.services_by_name["OperadorService"]
    return ServiceDefinition(
        [Registration(SlowOperador(), operador_pb2_grpc.add_OperadorServiceServicer_to_server,
                      allow(service, ["gateway"]))]
    )


if __name__ == "__main__":
    asyncio.run(run("operador", load_settings(Settings), build))
