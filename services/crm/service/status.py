"""The crm servicers' common ground: the ONE map from domain exceptions to gRPC status codes.

Every RPC method is wrapped by `unary` (or `streaming`), which turns a `CrmError` into its status
with the error's message, and anything unexpected into INTERNAL (logged with its traceback).
"""

from __future__ import annotations

import functools
import logging
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from datetime import timedelta
from typing import Any, TypeVar

import grpc

from balcao.crm.v1 import crm_resources_pb2 as r
from services.crm import ids, queue
from services.crm.clock import Clock
from services.crm.errors import (
    Aborted,
    AlreadyExists,
    CrmError,
    FailedPrecondition,
    InvalidArgument,
    NotFound,
    PermissionDenied,
)
from services.crm.repository import Store

log = logging.getLogger(__name__)

_STATUS: dict[type[CrmError], grpc.StatusCode] = {
    InvalidArgument: grpc.StatusCode.INVALID_ARGUMENT,
    NotFound: grpc.StatusCode.NOT_FOUND,
    Aborted: grpc.StatusCode.ABORTED,
    FailedPrecondition: grpc.StatusCode.FAILED_PRECONDITION,
    AlreadyExists: grpc.StatusCode.ALREADY_EXISTS,
    PermissionDenied: grpc.StatusCode.PERMISSION_DENIED,
}

F = TypeVar("F", bound=Callable[..., Awaitable[Any]])
R = TypeVar("R")


def _status_of(error: CrmError) -> grpc.StatusCode:
    for cls in type(error).__mro__:
        if cls in _STATUS:
            return _STATUS[cls]  # type: ignore[index]
    return grpc.StatusCode.INTERNAL


def unary(method: F) -> F:
    """Turn the domain's exceptions into gRPC status codes for one unary RPC."""

    @functools.wraps(method)
    async def wrapper(self: Any, request: Any, context: grpc.aio.ServicerContext) -> Any:
        try:
            return await method(self, request, context)
        except CrmError as error:
            await context.abort(_status_of(error), error.message)
        except Exception:
            log.exception("unexpected error", extra={"rpc": method.__name__})
            await context.abort(grpc.StatusCode.INTERNAL, f"crm failed on {method.__name__}; see the crm logs")

    return wrapper  # type: ignore[return-value]


def streaming(method: Callable[..., AsyncIterator[Any]]) -> Callable[..., AsyncIterator[Any]]:
    """The same mapping for a server-streaming RPC written as an async generator."""

    @functools.wraps(method)
    async def wrapper(self: Any, request: Any, context: grpc.aio.ServicerContext) -> AsyncIterator[Any]:
        try:
            async for item in method(self, request, context):
                yield item
        except CrmError as error:
            await context.abort(_status_of(error), error.message)

    return wrapper


class Servicer:
    def __init__(self, store: Store, clock: Clock, policy: queue.QueuePolicy) -> None:
        self._store = store
        self._clock = clock
        self._policy = policy


def org_of(request: Any) -> uuid.UUID:
    return ids.required_uuid(request.organization_id, "organization_id")


def actor_of(request: Any, field: str) -> r.Actor:
    return getattr(request, field) if request.HasField(field) else r.Actor()



def kinds_of(values: Any, *, required: bool) -> list[str]:
    kinds = [ids.event_kind(kind, "kinds") for kind in values]
    if required and not kinds:
        raise InvalidArgument("kinds is required: name the event kinds this consumer handles")
    return kinds


def duration_of(request: Any, field: str, default: timedelta | None) -> timedelta:
    if not request.HasField(field):
        assert default is not None
        return default
    value = getattr(request, field).ToTimedelta()
    if value <= timedelta(0):
        raise InvalidArgument(f"{field} must be positive")
    if value > timedelta(days=1):
        raise InvalidArgument(f"{field} must be at most one day")
    return value
