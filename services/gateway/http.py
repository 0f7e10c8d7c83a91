"""The gateway's HTTP side (FastAPI on uvicorn), sharing the gRPC process's event loop.

Routes: `/healthz`; the edge's hand-written routes (the Evolution webhook, the web channel); the
bridge's routes, generated from the `google.api.http` options of GatewayService; `/openapi.json`
(one OpenAPI 3.1 document: FastAPI's part for the webhook, the descriptors' part for everything
else) and `/docs` (Swagger UI, served from local files). Every error, including an unknown path,
a wrong method or an unexpected failure, is a JSON body `{"code", "message"}`.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping
from http import HTTPStatus
from typing import Any

import uvicorn
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.utils import get_openapi
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import Receive, Scope, Send

from balcao.gateway.v1 import gateway_pb2
from services.gateway.edge import openapi
from services.gateway.edge.bridge import Bridge, primary_binding
from services.gateway.edge.docs import docs_routes
from services.gateway.edge.http import (
    WEB_MESSAGE_EXTRA_RESPONSE,
    WEB_MESSAGE_RPC,
    Edge,
    create_edge_router,
    error_response,
    is_webhook_path,
)

log = logging.getLogger(__name__)
SERVICE = gateway_pb2.DESCRIPTOR.services_by_name["GatewayService"]
TITLE = "Balcão gateway"
DESCRIPTION = (
    "The gateway's HTTP API. The admin operations are GatewayService's RPCs served as JSON "
    "(proto3 JSON mapping, lowerCamelCase names) and need an admin token; the web channel needs an "
    "organisation API key; the Evolution webhook authenticates each instance. Every error is "
    '`{"code": "...", "message": "..."}`.'
)


class GatewayApp(FastAPI):
    """FastAPI, with the Evolution webhook served ahead of its middleware stack.

    The webhook is Evolution's hot path (one POST per message). FastAPI's and Starlette's layers
    (error and exception middleware, exit stacks, body limits, telemetry hooks, route matching)
    cost about as much CPU as the edge's own parsing (bench/ingest.py), and the webhook needs none
    of them: it reads its body within its own limit and answers every failure itself as JSON
    (`Edge.evolution_webhook`). Its routes stay on the router, for /openapi.json and for any
    other method on the path (405 in the usual JSON shape).
    """

    webhook: Callable[[Request], Awaitable[Any]] | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            self.webhook is not None
            and scope["type"] == "http"
            and scope["method"] == "POST"
            and is_webhook_path(scope["path"], scope.get("root_path", ""))
        ):
            scope["app"] = self
            response = await self.webhook(Request(scope, receive, send))
            await response(scope, receive, send)
            return
        await super().__call__(scope, receive, send)


def create_app(
    edge: Edge | None = None,
    bridge: Bridge | None = None,
    *,
    comments: Mapping[str, str] | None = None,
) -> FastAPI:
    """The HTTP app: /healthz, the edge's routes (when given), the bridge's routes (when given), the docs."""
    app = GatewayApp(title=TITLE, version="0.1.0", docs_url=None, redoc_url=None, openapi_url="/openapi.json")
    _json_errors(app)

    @app.get("/healthz", include_in_schema=False)
    async def healthz() -> dict[str, str]:
        return {"status": "ok"}

    if edge is not None:
        app.include_router(create_edge_router(edge))
        app.webhook = edge.evolution_webhook
    if bridge is not None:
        app.router.routes.extend(bridge.routes())
    app.router.routes.extend(docs_routes(f"{TITLE} — API"))

    def build_openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            app.openapi_schema = openapi_document(app, edge, bridge, comments)
        return app.openapi_schema

    app.openapi = build_openapi  # type: ignore[method-assign]
    return app


def openapi_document(
    app: FastAPI, edge: Edge | None, bridge: Bridge | None, comments: Mapping[str, str] | None
) -> dict[str, Any]:
    base = get_openapi(title=TITLE, version=app.version, description=DESCRIPTION, routes=app.routes)
    documented = []
    if edge is not None:
        documented.append(
            openapi.Documented(
                binding=primary_binding(SERVICE, WEB_MESSAGE_RPC),
                security=openapi.ORG_KEY_SCHEME,
                hidden_fields=frozenset({"organization_id"}),
                extra_response=WEB_MESSAGE_EXTRA_RESPONSE,
            )
        )
    if comments is None:
        comments = openapi.proto_comments(SERVICE.file)
    part = openapi.document(bridge.bindings if bridge else [], documented=documented, comments=comments)
    return openapi.merge(base, part)


def _json_errors(app: FastAPI) -> None:
    """FastAPI's and Starlette's own errors in the edge's shape."""

    async def http_error(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, StarletteHTTPException)
        try:
            code = HTTPStatus(exc.status_code).phrase.lower().replace(" ", "_").replace("-", "_")
        except ValueError:
            code = "error"
        message = exc.detail if isinstance(exc.detail, str) else code.replace("_", " ")
        if exc.status_code == 404 and message == "Not Found":
            message = f"nothing is served at {request.url.path}"
        response = error_response(exc.status_code, code, message)
        for name, value in (exc.headers or {}).items():
            response.headers[name] = value
        return response

    async def validation_error(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        first = exc.errors()[0] if exc.errors() else {}
        where = ".".join(str(p) for p in first.get("loc", ()))
        return error_response(400, "invalid_argument", f"{where}: {first.get('msg', 'invalid request')}")

    async def unexpected(request: Request, exc: Exception) -> JSONResponse:
        log.error("unexpected failure serving a request", exc_info=exc, extra={"path": request.url.path})
        return error_response(500, "internal", "the request could not be served; retry later")

    app.add_exception_handler(StarletteHTTPException, http_error)
    app.add_exception_handler(RequestValidationError, validation_error)
    app.add_exception_handler(Exception, unexpected)


async def start_http(app: FastAPI, host: str, port: int) -> Callable[[], Awaitable[None]]:
    """Serve `app` until the returned function is awaited."""
    server = uvicorn.Server(
        uvicorn.Config(app, host=host, port=port, log_config=None, access_log=False, lifespan="off")
    )
    task = asyncio.create_task(server.serve())
    while not server.started:
        if task.done():
            task.result()  # re-raises the start-up failure (port taken, …)
            raise OSError(f"the HTTP server on {host}:{port} stopped during start-up")
        await asyncio.sleep(0.05)

    async def stop() -> None:
        server.should_exit = True
        await task

    return stop
