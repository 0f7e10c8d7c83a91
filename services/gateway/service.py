"""The gateway servicer and who may call it: a person's tools (`balcao chat`, the admin token), and
the Operador for StartProactiveTurn.

Maps proto ↔ the runtime (`intake`) and errors to gRPC status, in one place: invalid input is
INVALID_ARGUMENT, an unknown organisation or id NOT_FOUND (nothing stored in either case), a peer
that does not answer UNAVAILABLE. The HTTP edge runs in this same process: the webhook and the web
channel hand messages to the runtime directly, and the HTTP/JSON bridge calls this servicer through
the gateway's own gRPC port, so its callers meet the same identity checks.

The admin RPCs are thin façades over the data owners, one module per domain:
organisations (`admin_organizations`), units, capabilities and publishing (`admin_units`), gates
(`admin_gates`), knowledge (`admin_knowledge`), the Central inbox and conversation owners
(`admin_central`), executions and metrics (`admin_executions`), channels (`channel_directory`) and
roles (`roles`). A business refusal is data (`refusal_pt`), never an error.
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
from services.gateway.admin_central import Central
from services.gateway.admin_executions import Executions
from services.gateway.admin_gates import Gates
from services.gateway.admin_knowledge import Knowledge
from services.gateway.admin_organizations import Organizations
from services.gateway.admin_units import Units
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
            if exc.code in (
                grpc.StatusCode.INVALID_ARGUMENT,
                grpc.StatusCode.NOT_FOUND,
                grpc.StatusCode.ABORTED,  # an admin edit raced another one: reload and apply again
            ):
                # The caller's answer names what was wrong, not which service of the mesh said so.
                log.info("a peer refused a request", extra={"error": str(exc)})
                await context.abort(exc.code, exc.details or str(exc))
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
        roles = await self._run(context, lambda app: Roles(app.peers, app.runner.configs).list(request.organization_id))
        return gateway_pb2.ListRolesResponse(roles=roles)

    async def SetRoleEnabled(
        self, request: gateway_pb2.SetRoleEnabledRequest, context: grpc.aio.ServicerContext
    ) -> gateway_pb2.SetRoleEnabledResponse:
        change = await self._run(
            context,
            lambda app: Roles(app.peers, app.runner.configs).set_enabled(
                request.organization_id, request.role, request.enabled
            ),
        )
        return gateway_pb2.SetRoleEnabledResponse(role=change.role, refusal_pt=change.refusal_pt)

    # -----------------------------------------------------------------------------------------
    # Organisations (admin)
    # -----------------------------------------------------------------------------------------

    async def ListOrganizations(
        self, request: gateway_pb2.ListOrganizationsRequest, context: grpc.aio.ServicerContext
    ) -> gateway_pb2.ListOrganizationsResponse:
        return await self._run(context, lambda app: Organizations(app.peers, app.runner.configs).list(request))

    async def CreateOrganization(
        self, request: gateway_pb2.CreateOrganizationRequest, context: grpc.aio.ServicerContext
    ) -> gateway_pb2.CreateOrganizationResponse:
        created = await self._run(
            context, lambda app: Organizations(app.peers, app.runner.configs).create(
                request.organization, request.given_mask if request.HasField("given_mask") else None
            )
        )
        return gateway_pb2.CreateOrganizationResponse(organization=created)

    async def GetOrganization(
        self, request: gateway_pb2.GetOrganizationRequest, context: grpc.aio.ServicerContext
    ) -> gateway_pb2.GetOrganizationResponse:
        found = await self._run(
            context, lambda app: Organizations(app.peers, app.runner.configs).get(request.organization_id)
        )
        return gateway_pb2.GetOrganizationResponse(organization=found)

    async def UpdateOrganization(
        self, request: gateway_pb2.UpdateOrganizationRequest, context: grpc.aio.ServicerContext
    ) -> gateway_pb2.UpdateOrganizationResponse:
        updated = await self._run(context, lambda app: Organizations(app.peers, app.runner.configs).update(request))
        return gateway_pb2.UpdateOrganizationResponse(organization=updated.organization, refusal_pt=updated.refusal_pt)

    # -----------------------------------------------------------------------------------------
    # Units, capabilities, publishing (admin)
    # -----------------------------------------------------------------------------------------

    async def ListUnits(
        self, request: gateway_pb2.ListUnitsRequest, context: grpc.aio.ServicerContext
    ) -> gateway_pb2.ListUnitsResponse:
        units = await self._run(context, lambda app: Units(app.peers, app.runner.configs).list(request))
        return gateway_pb2.ListUnitsResponse(units=units)

    async def CreateUnit(
        self, request: gateway_pb2.CreateUnitRequest, context: grpc.aio.ServicerContext
    ) -> gateway_pb2.CreateUnitResponse:
        unit = await self._run(context, lambda app: Units(app.peers, app.runner.configs).create(request))
        return gateway_pb2.CreateUnitResponse(unit=unit)

    async def UpdateUnit(
        self, request: gateway_pb2.UpdateUnitRequest, context: grpc.aio.ServicerContext
    ) -> gateway_pb2.UpdateUnitResponse:
        unit = await self._run(context, lambda app: Units(app.peers, app.runner.configs).update(request))
        return gateway_pb2.UpdateUnitResponse(unit=unit)

    async def ListUnitCapabilities(
        self, request: gateway_pb2.ListUnitCapabilitiesRequest, context: grpc.aio.ServicerContext
    ) -> gateway_pb2.ListUnitCapabilitiesResponse:
        screen = await self._run(
            context,
            lambda app: Units(app.peers, app.runner.configs).capabilities(request.organization_id, request.unit_id),
        )
        return gateway_pb2.ListUnitCapabilitiesResponse(capabilities=screen)

    async def SetUnitCapabilities(
        self, request: gateway_pb2.SetUnitCapabilitiesRequest, context: grpc.aio.ServicerContext
    ) -> gateway_pb2.SetUnitCapabilitiesResponse:
        screen, refusal = await self._run(
            context, lambda app: Units(app.peers, app.runner.configs).set_capabilities(request)
        )
        return gateway_pb2.SetUnitCapabilitiesResponse(capabilities=screen, refusal_pt=refusal)

    async def PublishConfiguration(
        self, request: gateway_pb2.PublishConfigurationRequest, context: grpc.aio.ServicerContext
    ) -> gateway_pb2.PublishConfigurationResponse:
        return await self._run(
            context, lambda app: Units(app.peers, app.runner.configs).publish(request.organization_id)
        )

    # -----------------------------------------------------------------------------------------
    # Gates (admin)
    # -----------------------------------------------------------------------------------------

    async def ListGates(
        self, request: gateway_pb2.ListGatesRequest, context: grpc.aio.ServicerContext
    ) -> gateway_pb2.ListGatesResponse:
        return await self._run(context, lambda app: Gates(app.peers, app.runner.configs).list(request.organization_id))

    async def SetGateEnabled(
        self, request: gateway_pb2.SetGateEnabledRequest, context: grpc.aio.ServicerContext
    ) -> gateway_pb2.SetGateEnabledResponse:
        change = await self._run(
            context,
            lambda app: Gates(app.peers, app.runner.configs).set_enabled(
                request.organization_id, request.gate, request.enabled
            ),
        )
        return gateway_pb2.SetGateEnabledResponse(
            gate=change.gate, consequence_pt=change.consequence_pt, refusal_pt=change.refusal_pt
        )

    async def SetInboundClassifierEnabled(
        self, request: gateway_pb2.SetInboundClassifierEnabledRequest, context: grpc.aio.ServicerContext
    ) -> gateway_pb2.SetInboundClassifierEnabledResponse:
        return await self._run(
            context,
            lambda app: Gates(app.peers, app.runner.configs).set_classifier(request.organization_id, request.enabled),
        )

    # -----------------------------------------------------------------------------------------
    # Knowledge (admin)
    # -----------------------------------------------------------------------------------------

    async def ListKnowledgeArticles(
        self, request: gateway_pb2.ListKnowledgeArticlesRequest, context: grpc.aio.ServicerContext
    ) -> gateway_pb2.ListKnowledgeArticlesResponse:
        return await self._run(context, lambda app: Knowledge(app.peers).list(request))

    async def CreateKnowledgeArticle(
        self, request: gateway_pb2.CreateKnowledgeArticleRequest, context: grpc.aio.ServicerContext
    ) -> gateway_pb2.CreateKnowledgeArticleResponse:
        article = await self._run(
            context, lambda app: Knowledge(app.peers).create(request.organization_id, request.article)
        )
        return gateway_pb2.CreateKnowledgeArticleResponse(article=article)

    async def UpdateKnowledgeArticle(
        self, request: gateway_pb2.UpdateKnowledgeArticleRequest, context: grpc.aio.ServicerContext
    ) -> gateway_pb2.UpdateKnowledgeArticleResponse:
        article = await self._run(context, lambda app: Knowledge(app.peers).update(request))
        return gateway_pb2.UpdateKnowledgeArticleResponse(article=article)

    async def DeleteKnowledgeArticle(
        self, request: gateway_pb2.DeleteKnowledgeArticleRequest, context: grpc.aio.ServicerContext
    ) -> gateway_pb2.DeleteKnowledgeArticleResponse:
        deleted = await self._run(
            context, lambda app: Knowledge(app.peers).delete(request.organization_id, request.article_id)
        )
        return gateway_pb2.DeleteKnowledgeArticleResponse(deleted=deleted)

    # -----------------------------------------------------------------------------------------
    # Central inbox and conversation owners (admin)
    # -----------------------------------------------------------------------------------------

    async def ListCentralItems(
        self, request: gateway_pb2.ListCentralItemsRequest, context: grpc.aio.ServicerContext
    ) -> gateway_pb2.ListCentralItemsResponse:
        return await self._run(context, lambda app: Central(app.peers).list(request))

    async def ResolveCentralItem(
        self, request: gateway_pb2.ResolveCentralItemRequest, context: grpc.aio.ServicerContext
    ) -> gateway_pb2.ResolveCentralItemResponse:
        item = await self._run(context, lambda app: Central(app.peers).resolve(request))
        return gateway_pb2.ResolveCentralItemResponse(item=item)

    async def SetConversationOwner(
        self, request: gateway_pb2.SetConversationOwnerRequest, context: grpc.aio.ServicerContext
    ) -> gateway_pb2.SetConversationOwnerResponse:
        return await self._run(context, lambda app: Central(app.peers).set_owner(request))

    # -----------------------------------------------------------------------------------------
    # Executions and metrics (admin)
    # -----------------------------------------------------------------------------------------

    async def ListExecutions(
        self, request: gateway_pb2.ListExecutionsRequest, context: grpc.aio.ServicerContext
    ) -> gateway_pb2.ListExecutionsResponse:
        return await self._run(context, lambda app: Executions(app.peers, app.intake).list(request))

    async def GetExecution(
        self, request: gateway_pb2.GetExecutionRequest, context: grpc.aio.ServicerContext
    ) -> gateway_pb2.GetExecutionResponse:
        record = await self._run(
            context, lambda app: Executions(app.peers, app.intake).get(request.organization_id, request.turn_id)
        )
        return gateway_pb2.GetExecutionResponse(execution=record)

    async def GetMetrics(
        self, request: gateway_pb2.GetMetricsRequest, context: grpc.aio.ServicerContext
    ) -> gateway_pb2.GetMetricsResponse:
        return await self._run(context, lambda app: Executions(app.peers, app.intake).metrics(request))


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
