"""The gateway servicer and who may call it: a person's tools (`balcao chat`, the admin token), and
the Operador for StartProactiveTurn.

Maps proto ↔ the runtime (`intake`) and errors to gRPC status, in one place: invalid input is
INVALID_ARGUMENT, an unknown organisation or id NOT_FOUND (nothing stored in either case), a peer
that does not answer UNAVAILABLE. The HTTP edge runs in this same process and calls the servicer
directly. The admin RPCs (organisations, units, channels, …) come with the admin issue and answer
UNIMPLEMENTED until then.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import grpc

from balcao.gateway.v1 import gateway_pb2, gateway_pb2_grpc
from balcao.kit.identity import allow
from balcao.kit.mesh import ADMIN
from services.gateway.app import GatewayApp
from services.gateway.configuration import UnknownOrganization
from services.gateway.inbound import InvalidInbound
from services.gateway.intake import InvalidRequest, NotFound
from services.gateway.peers import PeerFailure

log = logging.getLogger(__name__)
T = TypeVar("T")


class Gateway(gateway_pb2_grpc.GatewayServiceServicer):
    """Inbound messages, turns, test turns and the admin surface."""

    def __init__(self) -> None:
        self.app: GatewayApp | None = None

    async def _run(self, context: grpc.aio.ServicerContext, work: Callable[[GatewayApp], Awaitable[T]]) -> T:
        if self.app is None:
            await context.abort(grpc.StatusCode.UNAVAILABLE, "the gateway is starting")
        assert self.app is not None
        try:
            return await work(self.app)
        except (InvalidInbound, InvalidRequest) as exc:
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, str(exc))
        except UnknownOrganization as exc:
            await context.abort(grpc.StatusCode.NOT_FOUND, f"organization {exc} not found")
        except NotFound as exc:
            await context.abort(grpc.StatusCode.NOT_FOUND, str(exc))
        except PeerFailure as exc:
            if exc.code in (grpc.StatusCode.INVALID_ARGUMENT, grpc.StatusCode.NOT_FOUND):
                await context.abort(exc.code, str(exc))
            log.warning("a peer failed while serving a request", extra={"error": str(exc)})
            await context.abort(grpc.StatusCode.UNAVAILABLE, str(exc))
        raise AssertionError("unreachable")  # pragma: no cover

    async def SubmitInbound(
        self, request: gateway_pb2.SubmitInboundRequest, context: grpc.aio.ServicerContext
    ) -> gateway_pb2.SubmitInboundResponse:
        accepted = await self._run(context, lambda app: app.intake.accept(request))
        return gateway_pb2.SubmitInboundResponse(
            status=accepted.status,  # type: ignore[arg-type]
            inbound_id=str(accepted.inbound_id),
            contact_id=str(accepted.contact_id),
        )

    async def GetTurn(
        self, request: gateway_pb2.GetTurnRequest, context: grpc.aio.ServicerContext
    ) -> gateway_pb2.GetTurnResponse:
        result = await self._run(context, lambda app: app.intake.turn_result(request))
        return gateway_pb2.GetTurnResponse(turn=result)

    async def StartProactiveTurn(
        self, request: gateway_pb2.StartProactiveTurnRequest, context: grpc.aio.ServicerContext
    ) -> gateway_pb2.StartProactiveTurnResponse:
        async def start(app: GatewayApp) -> Any:
            return await app.intake.start_proactive(
                request.organization_id, request.contact_id, request.trigger, request.idempotency_key
            )

        turn, duplicate = await self._run(context, start)
        return gateway_pb2.StartProactiveTurnResponse(turn_id=str(turn.turn_id), duplicate=duplicate)


POLICY = allow(
    gateway_pb2.DESCRIPTOR.services_by_name["GatewayService"],
    [ADMIN],
    StartProactiveTurn=["operador", ADMIN],
)
