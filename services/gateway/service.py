"""The gateway servicer and who may call it: a person's tools (`balcao chat`, the admin token), and
the Operador for StartProactiveTurn.

Maps proto ↔ the runtime (`intake`) and errors to gRPC status, in one place: invalid input is
INVALID_ARGUMENT, an unknown organisation or id NOT_FOUND (nothing stored in either case), a peer
that does not answer UNAVAILABLE. The HTTP edge runs in this same process and calls the servicer
directly. Channel instances and web channel keys are served here (`channel_directory`); the other
admin RPCs (organisations, units, roles, …) answer UNIMPLEMENTED until they land.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import grpc

from balcao.gateway.v1 import gateway_pb2, gateway_pb2_grpc
from balcao.kit.identity import allow
from balcao.kit.mesh import ADMIN
from services.gateway import execution as ex
from services.gateway.app import GatewayApp
from services.gateway.channel_directory import InstanceChange, Refused
from services.gateway.configuration import UnknownOrganization
from services.gateway.inbound import InvalidInbound
from services.gateway.intake import InvalidRequest, NotFound
from services.gateway.peers import PeerFailure
from services.gateway.roles import Roles
from services.gateway.testar import Testar

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

    # -----------------------------------------------------------------------------------------
    # Channels (admin)
    # -----------------------------------------------------------------------------------------

    async def SetChannelInstance(
        self, request: gateway_pb2.SetChannelInstanceRequest, context: grpc.aio.ServicerContext
    ) -> gateway_pb2.SetChannelInstanceResponse:
        given = request.instance
        if given.channel not in (gateway_pb2.CHANNEL_UNSPECIFIED, gateway_pb2.CHANNEL_WHATSAPP):
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, "instance.channel must be CHANNEL_WHATSAPP")
        name = request.instance_name or given.instance_name
        change = InstanceChange(
            base_url=given.base_url,
            api_key=given.api_key,
            webhook_secret=given.webhook_secret,
            sender_number=given.sender_number,
            webhook_secret_header=given.webhook_secret_header,
            jwt_key=given.jwt_key,
            allow_groups=given.allow_groups,
            allow_broadcasts=given.allow_broadcasts,
            allow_newsletters=given.allow_newsletters,
        )
        stored = await self._run(
            context, lambda app: app.channel_admin.set_instance(request.organization_id, name, change)
        )
        if isinstance(stored, Refused):
            return gateway_pb2.SetChannelInstanceResponse(refusal_pt=stored.reason_pt)
        assert self.app is not None
        return gateway_pb2.SetChannelInstanceResponse(instance=_instance(stored, self.app.channel_admin.webhook_url))

    async def ListChannelInstances(
        self, request: gateway_pb2.ListChannelInstancesRequest, context: grpc.aio.ServicerContext
    ) -> gateway_pb2.ListChannelInstancesResponse:
        rows = await self._run(context, lambda app: app.channel_admin.list_instances(request.organization_id))
        assert self.app is not None
        url = self.app.channel_admin.webhook_url
        return gateway_pb2.ListChannelInstancesResponse(instances=[_instance(row, url) for row in rows])

    async def IssueWebChannelKey(
        self, request: gateway_pb2.IssueWebChannelKeyRequest, context: grpc.aio.ServicerContext
    ) -> gateway_pb2.IssueWebChannelKeyResponse:
        row, secret = await self._run(
            context, lambda app: app.channel_admin.issue_key(request.organization_id, request.label)
        )
        return gateway_pb2.IssueWebChannelKeyResponse(key=_web_key(row), secret=secret)

    async def ListWebChannelKeys(
        self, request: gateway_pb2.ListWebChannelKeysRequest, context: grpc.aio.ServicerContext
    ) -> gateway_pb2.ListWebChannelKeysResponse:
        rows = await self._run(context, lambda app: app.channel_admin.list_keys(request.organization_id))
        return gateway_pb2.ListWebChannelKeysResponse(keys=[_web_key(row) for row in rows])

    async def RevokeWebChannelKey(
        self, request: gateway_pb2.RevokeWebChannelKeyRequest, context: grpc.aio.ServicerContext
    ) -> gateway_pb2.RevokeWebChannelKeyResponse:
        row = await self._run(
            context, lambda app: app.channel_admin.revoke_key(request.organization_id, request.key_id)
        )
        return gateway_pb2.RevokeWebChannelKeyResponse(key=_web_key(row))

    async def RunTestTurn(
        self, request: gateway_pb2.RunTestTurnRequest, context: grpc.aio.ServicerContext
    ) -> gateway_pb2.RunTestTurnResponse:
        return await self._run(context, lambda app: Testar(app.intake, app.peers).run(request))

    # -----------------------------------------------------------------------------------------
    # Roles (admin)
    # -----------------------------------------------------------------------------------------

    async def ListRoles(
        self, request: gateway_pb2.ListRolesRequest, context: grpc.aio.ServicerContext
    ) -> gateway_pb2.ListRolesResponse:
        roles = await self._run(context, lambda app: Roles(app.peers).list(request.organization_id))
        return gateway_pb2.ListRolesResponse(roles=roles)

    async def SetRoleEnabled(
        self, request: gateway_pb2.SetRoleEnabledRequest, context: grpc.aio.ServicerContext
    ) -> gateway_pb2.SetRoleEnabledResponse:
        change = await self._run(
            context, lambda app: Roles(app.peers).set_enabled(request.organization_id, request.role, request.enabled)
        )
        return gateway_pb2.SetRoleEnabledResponse(role=change.role, refusal_pt=change.refusal_pt)


def _instance(row: dict[str, Any], webhook_url: str) -> gateway_pb2.ChannelInstance:
    """An instance as the admin sees it: never a secret, only whether one is stored."""
    return gateway_pb2.ChannelInstance(
        instance_name=row["instance_name"],
        channel=gateway_pb2.CHANNEL_WHATSAPP,
        base_url=row["base_url"],
        api_key_set=bool(row["api_key"]),
        webhook_secret_set=bool(row["webhook_secret"]),
        sender_number=row["sender_number"],
        webhook_url=webhook_url,
        allow_groups=row["allow_groups"],
        allow_broadcasts=row["allow_broadcasts"],
        allow_newsletters=row["allow_newsletters"],
        webhook_secret_header=row["webhook_secret_header"],
        jwt_key_set=bool(row["jwt_key"]),
    )


def _web_key(row: dict[str, Any]) -> gateway_pb2.WebChannelKey:
    key = gateway_pb2.WebChannelKey(key_id=str(row["key_id"]), label=row["label"], prefix=row["prefix"])
    for name in ("created_at", "last_used_at", "revoked_at"):
        stamp = ex.ts(row[name])
        if stamp is not None:
            getattr(key, name).CopyFrom(stamp)
    return key


POLICY = allow(
    gateway_pb2.DESCRIPTOR.services_by_name["GatewayService"],
    [ADMIN],
    StartProactiveTurn=["operador", ADMIN],
)
