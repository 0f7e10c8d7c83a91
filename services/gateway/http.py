"""The gateway's HTTP side (FastAPI on uvicorn), sharing the gRPC process's event loop."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import uvicorn
from fastapi import FastAPI

from services.gateway.edge.http import Edge, create_edge_router


def create_app(edge: Edge | None = None) -> FastAPI:
    """The HTTP app: /healthz, and the edge's routes (Evolution webhook, web channel) when given."""
    app = FastAPI(title="Balcão gateway", version="0.1.0")

    @app.get("/healthz", include_in_schema=False)
    async def healthz() -> dict[str, str]:
        return {"status": "ok"}

    if edge is not None:
        app.include_router(create_edge_router(edge))
    return app


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
