"""The edge's HTTP routes: the Evolution webhook and the web channel, as one FastAPI router.

`POST /webhooks/evolution` (and `/webhooks/evolution/{event}`, for Evolution's `byEvents`
mode): read the body within its size limit, parse it, authenticate EVERY instance it names
(unknown instance, wrong or missing secret → 401 and nothing stored), then normalise each event
and hand each message to the `InboundSink` before answering. Ignored events are answered 2xx
with their reasons: Evolution must not retry them. A sink failure answers 503 so Evolution
retries; what was already stored comes back as duplicates.

`POST /v1/web/messages`: an organisation API key (`Authorization: Bearer <key>` or
`X-Api-Key`), the body of gateway.proto's `SubmitWebMessageRequest` in its JSON mapping; the
answer is `SubmitWebMessageResponse` (status, and the turn when the runtime offers `WebTurns`).

Every error is a JSON body `{"code", "message"}`. Malformed JSON, bodies over the limit, text that
is not UTF-8 or carries unpaired surrogates get a clear 4xx before anything is stored.
"""

from __future__ import annotations

import json
import logging
import math
import re
from dataclasses import dataclass, field
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from google.api import annotations_pb2
from google.protobuf import json_format

from balcao.gateway.v1 import gateway_pb2 as gw
from services.gateway.edge.content import ContentEnricher
from services.gateway.edge.directory import EdgeDirectory, EvolutionInstance
from services.gateway.edge.evolution.auth import WebhookUnauthorized, authenticate_webhook
from services.gateway.edge.evolution.client import EvolutionClient
from services.gateway.edge.evolution.normalize import events_of, normalize_event
from services.gateway.edge.inbound import (
    Ignored,
    IgnoreReason,
    InboundSink,
    MessageType,
    NormalizedInbound,
    Receipt,
    SinkOutcome,
    SinkRejected,
    WebTurns,
)
from services.gateway.edge.inbox import DeliveryInbox, RateLimited
from services.gateway.edge.ratelimit import RateLimiter, SharedRateLimiter
from services.gateway.edge.store import DeliveryRow
from services.gateway.edge.web import InvalidWebMessage, normalize_web_message, parse_web_request

log = logging.getLogger(__name__)

# The web channel's route is hand-written (an organisation key, not the admin token, and the edge's
# own normalisation), at the path its RPC's `google.api.http` option names: one source of truth.
# The bridge leaves this RPC to it; the OpenAPI document describes it from the same descriptor.
WEB_MESSAGE_RPC = "SubmitWebMessage"
WEB_MESSAGE_PATH: str = (
    gw.DESCRIPTOR.services_by_name["GatewayService"]
    .methods_by_name[WEB_MESSAGE_RPC]
    .GetOptions()
    .Extensions[annotations_pb2.http]
    .post
)
# What the route adds to SubmitWebMessageResponse's JSON (documented beside the message's fields).
WEB_MESSAGE_EXTRA_RESPONSE: dict[str, dict[str, Any]] = {
    "messageId": {"type": "string", "description": "The message id stored (the one sent, or the one generated)."},
    "autoReply": {"type": "string", "description": "A fixed reply already given (an audio without transcription)."},
}
_ESCAPED_SURROGATE = re.compile(rb"\\u[dD][89a-fA-F]")
_SUBMIT_STATUS = {
    SinkOutcome.ACCEPTED: gw.SUBMIT_STATUS_ACCEPTED,
    SinkOutcome.DUPLICATE: gw.SUBMIT_STATUS_DUPLICATE,
    SinkOutcome.RECORDED: gw.SUBMIT_STATUS_RECORDED,
}


@dataclass(frozen=True, slots=True)
class EdgeLimits:
    # Evolution with `base64: true` inlines whole media files; beyond this the body is refused (413).
    webhook_max_body_bytes: int = 24 * 1024 * 1024
    web_max_body_bytes: int = 16 * 1024 * 1024
    max_events_per_body: int = 100
    media_max_bytes: int = 16 * 1024 * 1024
    web_turn_wait_seconds: float = 20.0


class EdgeError(Exception):
    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status, self.code, self.message = status, code, message

    def response(self) -> JSONResponse:
        return error_response(self.status, self.code, self.message)


def error_response(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"code": code, "message": message}, status_code=status)


_ERROR_SCHEMA = {
    "type": "object",
    "required": ["code", "message"],
    "properties": {"code": {"type": "string"}, "message": {"type": "string"}},
}


def _error_responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    return {s: {"description": "Error", "content": {"application/json": {"schema": _ERROR_SCHEMA}}} for s in statuses}


_WEBHOOK_REQUEST_SCHEMA = {
    "oneOf": [
        {"type": "object", "description": "One Evolution event envelope"},
        {"type": "array", "items": {"type": "object"}, "description": "Several event envelopes"},
    ]
}


# ---------------------------------------------------------------------------------------------
# Body reading
# ---------------------------------------------------------------------------------------------


async def read_body(request: Request, limit: int) -> bytes:
    declared = request.headers.get("content-length")
    if declared is not None:
        try:
            size = int(declared)
        except ValueError:
            raise EdgeError(400, "invalid_content_length", "Content-Length is not a number") from None
        if size > limit:
            raise EdgeError(413, "body_too_large", f"the body is larger than {limit} bytes")
        if "transfer-encoding" not in request.headers:
            return await request.body()  # the server stops at Content-Length: no more can arrive
    chunks: list[bytes] = []
    total = 0
    async for chunk in request.stream():
        total += len(chunk)
        if total > limit:
            raise EdgeError(413, "body_too_large", f"the body is larger than {limit} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


def parse_json(raw: bytes, content_type: str | None) -> Any:
    if content_type:
        media = content_type.split(";", 1)[0].strip().lower()
        if media != "application/json" and not media.endswith("+json"):
            raise EdgeError(415, "unsupported_media_type", "send the body as application/json")
    if not raw.strip():
        raise EdgeError(400, "empty_body", "the body is empty")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise EdgeError(400, "invalid_encoding", f"the body is not valid UTF-8 (byte {exc.start})") from None
    try:
        value = json.loads(text.removeprefix("\ufeff"))
    except RecursionError:
        raise EdgeError(400, "malformed_json", "the JSON is nested too deeply") from None
    except ValueError as exc:
        raise EdgeError(400, "malformed_json", f"the body is not valid JSON: {exc}") from None
    if _ESCAPED_SURROGATE.search(raw) and _has_lone_surrogate(value):
        raise EdgeError(400, "invalid_unicode", "the body contains an unpaired UTF-16 surrogate (\\uD800-\\uDFFF)")
    return value


def _has_lone_surrogate(value: Any) -> bool:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            try:
                item.encode("utf-8")
            except UnicodeEncodeError:
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


# ---------------------------------------------------------------------------------------------
# The router
# ---------------------------------------------------------------------------------------------


@dataclass
class Edge:
    directory: EdgeDirectory
    sink: InboundSink
    enricher: ContentEnricher = field(default_factory=ContentEnricher)
    # Fetches media that did not arrive inline (PDFs to read, audio to transcribe); None: never fetch.
    evolution: EvolutionClient | None = None
    turns: WebTurns | None = None
    limits: EdgeLimits = field(default_factory=EdgeLimits)
    # Per contact and per organisation; None: no limit. With an inbox, the webhook's limits are
    # the inbox's (counted in its transaction); this one serves the web channel.
    rate_limiter: RateLimiter | SharedRateLimiter | None = None
    # Where webhook deliveries are stored before the 2xx (group commit) and drained into the sink
    # later (`take_delivery`); None: the sink takes each message inside the request.
    inbox: DeliveryInbox | None = None

    # -- the two entry points ---------------------------------------------------------------------

    async def evolution_webhook(self, request: Request) -> Response:
        """POST /webhooks/evolution."""
        return await _guarded(self._evolution_webhook, request)

    async def web_message(self, request: Request) -> Response:
        """POST /v1/web/messages."""
        return await _guarded(self._web_message, request)

    # -- the webhook ------------------------------------------------------------------------------

    async def _evolution_webhook(self, request: Request) -> Response:
        try:
            raw = await read_body(request, self.limits.webhook_max_body_bytes)
            body = parse_json(raw, request.headers.get("content-type"))
            events = self._webhook_events(body)
            instances = await self._authenticate(request, events)
        except EdgeError as exc:
            if exc.status == 401:
                log.warning("webhook refused", extra={"reason": exc.message})
            return exc.response()

        summary: dict[str, Any] = {"received": len(events), "accepted": 0, "duplicates": 0, "recorded": 0}
        ignored: list[dict[str, str]] = []
        work: list[tuple[EvolutionInstance, dict[str, Any], NormalizedInbound]] = []
        for event in events:
            instance = instances[event["instance"]]
            options = instance.normalize_options(self.limits.media_max_bytes)
            for item in normalize_event(event, options):
                message = item.typed_by_business if isinstance(item, Ignored) else item
                if isinstance(item, Ignored) and (item.reason != IgnoreReason.FROM_ME or message is None):
                    ignored.append({"reason": item.reason.value, "detail": item.detail, "messageId": item.message_id})
                    # A number no phone can have is a customer's message nobody will see: say so louder.
                    level = logging.WARNING if item.reason == IgnoreReason.INVALID_PHONE else logging.DEBUG
                    log.log(
                        level,
                        "webhook event ignored",
                        extra={"reason": item.reason.value, "instance": item.instance, "message_id": item.message_id},
                    )
                    continue
                assert message is not None
                work.append((instance, event, message))
        if self.inbox is not None:
            return await self._store_deliveries(raw, work, summary, ignored)
        limited = await self._rate_limited([(i.organization_id, m.sender_key) for i, _, m in work])
        if limited is not None:
            return limited
        for instance, event, message in work:
            try:
                receipt = await self._accept(instance, message, event)
            except SinkRejected as exc:
                ignored.append({"reason": "rejected", "detail": str(exc), "messageId": message.message_id})
                continue
            except Exception:
                log.exception("the runtime could not take a webhook message; Evolution will retry")
                return error_response(503, "unavailable", "the message could not be stored; retry later")
            summary[_SUMMARY_KEY[receipt.outcome]] += 1
        summary["ignored"] = ignored
        return JSONResponse(summary)

    async def _store_deliveries(
        self,
        raw: bytes,
        work: list[tuple[EvolutionInstance, dict[str, Any], NormalizedInbound]],
        summary: dict[str, Any],
        ignored: list[dict[str, str]],
    ) -> Response:
        """The inbox path: every message of the body stored (or recognised) durably, then the 2xx."""
        assert self.inbox is not None
        rows = [
            DeliveryRow(i.organization_id, m.channel_instance, m.sender_key, m.message_id, m.from_business, raw)
            for i, _, m in work
        ]
        try:
            fresh = await self.inbox.store(rows)
        except RateLimited as exc:
            return _too_many(exc.retry_after)
        except Exception:
            log.exception("the webhook's deliveries could not be stored; Evolution will retry")
            return error_response(503, "unavailable", "the message could not be stored; retry later")
        for row, new in zip(rows, fresh, strict=True):
            summary["duplicates" if not new else "recorded" if row.from_business else "accepted"] += 1
        summary["ignored"] = ignored
        return JSONResponse(summary)

    async def take_delivery(
        self, organization_id: str, instance_name: str, sender_key: str, message_id: str, body: bytes
    ) -> Receipt:
        """Hand one stored delivery to the sink: normalise its body again, read its media, accept it.

        `SinkRejected` when the delivery can no longer be taken as stored (the instance was removed
        or moved, or its flags now ignore the message): the drain records it and moves on.
        """
        instance = await self.directory.evolution_instance(instance_name)
        if instance is None or instance.organization_id != organization_id:
            raise SinkRejected(f"instance {instance_name!r} is no longer configured for this organisation")
        found = _stored_message(instance, sender_key, message_id, body, self.limits.media_max_bytes)
        if found is None:
            raise SinkRejected(f"message {message_id} is not taken by this instance as it is configured now")
        message, event = found
        return await self._accept(instance, message, event)

    async def delivery_text(self, instance_name: str, sender_key: str, message_id: str, body: bytes) -> str:
        """What the customer wrote in a stored delivery (or what they sent, for media), for a
        person to read; '' when the body no longer says (the instance is gone, the body is not JSON)."""
        instance = await self.directory.evolution_instance(instance_name)
        if instance is None:
            return ""
        try:
            found = _stored_message(instance, sender_key, message_id, body, self.limits.media_max_bytes)
        except ValueError:
            return ""
        if found is None:
            return ""
        message = found[0]
        return message.text.strip() or _SENT_PT.get(message.type, "(uma mensagem sem texto)")

    async def _rate_limited(self, senders: list[tuple[str, str]]) -> Response | None:
        """429 (nothing stored) when a contact or an organisation is over its rate; None otherwise."""
        if self.rate_limiter is None or not senders:
            return None
        wait = 0.0
        for organization_id in dict.fromkeys(org for org, _ in senders):
            mine = [s for o, s in senders if o == organization_id]
            wait = max(wait, await self.rate_limiter.check(organization_id, mine))
            if wait > 0:
                break
        return _too_many(wait) if wait > 0 else None

    def _webhook_events(self, body: Any) -> list[dict[str, Any]]:
        try:
            events = events_of(body)
        except ValueError as exc:
            raise EdgeError(400, "invalid_body", str(exc)) from None
        if not events:
            raise EdgeError(400, "invalid_body", "the list of events is empty")
        if len(events) > self.limits.max_events_per_body:
            raise EdgeError(413, "too_many_events", f"at most {self.limits.max_events_per_body} events per request")
        for index, event in enumerate(events):
            if not isinstance(event, dict):
                raise EdgeError(400, "invalid_body", f"event {index} is not a JSON object")
            name = event.get("instance")
            if not isinstance(name, str) or not name.strip():
                raise EdgeError(400, "invalid_body", f"event {index} names no instance")
        return events

    async def _authenticate(self, request: Request, events: list[dict[str, Any]]) -> dict[str, EvolutionInstance]:
        """Every instance named must pass before anything is stored."""
        instances: dict[str, EvolutionInstance] = {}
        headers = request.headers  # Starlette's headers: case-insensitive lookups
        for name in dict.fromkeys(e["instance"] for e in events):
            instance = await self.directory.evolution_instance(name)
            if instance is None:
                raise EdgeError(401, "unauthenticated", f"instance {name!r} is not configured here")
            try:
                authenticate_webhook(instance, headers, [e for e in events if e["instance"] == name])
            except WebhookUnauthorized as exc:
                raise EdgeError(401, "unauthenticated", str(exc)) from None
            instances[name] = instance
        return instances

    async def _accept(self, instance: EvolutionInstance, message: NormalizedInbound, event: dict[str, Any]) -> Receipt:
        if not message.from_business:
            source, raw = None, None
            if self.evolution is not None and self.enricher.wants_media(message):
                source = self.evolution.media_source(instance)
                raw = _raw_message(event, message.message_id)
            message = await self.enricher.enrich(message, media_source=source, raw_message=raw)
        return await self.sink.accept(instance.organization_id, message)

    # -- the web channel --------------------------------------------------------------------------

    async def _web_message(self, request: Request) -> Response:
        try:
            key = await self._web_key(request)
            raw = await read_body(request, self.limits.web_max_body_bytes)
            body = parse_json(raw, request.headers.get("content-type"))
            try:
                message = normalize_web_message(parse_web_request(body), media_max_bytes=self.limits.media_max_bytes)
            except InvalidWebMessage as exc:
                raise EdgeError(400, "invalid_argument", str(exc)) from None
        except EdgeError as exc:
            return exc.response()
        limited = await self._rate_limited([(key.organization_id, message.sender_key)])
        if limited is not None:
            return limited
        message = await self.enricher.enrich(message)
        try:
            receipt = await self.sink.accept(key.organization_id, message)
        except SinkRejected as exc:
            return error_response(400, "invalid_argument", str(exc))
        except Exception:
            log.exception("the runtime could not take a web message")
            return error_response(503, "unavailable", "the message could not be stored; retry later")
        answer = gw.SubmitWebMessageResponse(status=_SUBMIT_STATUS[receipt.outcome])  # type: ignore[arg-type]
        if self.turns is not None:
            try:
                turn = await self.turns.turn_for(key.organization_id, receipt, self.limits.web_turn_wait_seconds)
            except Exception:  # the message is stored; the client can fetch the turn later
                log.exception("the turn of a web message could not be read")
                turn = None
            if turn is not None:
                answer.turn_id = turn.turn_id
                answer.turn.CopyFrom(turn)
        payload = json_format.MessageToDict(answer, always_print_fields_with_no_presence=True)
        payload["messageId"] = message.message_id
        if message.auto_reply_pt:
            payload["autoReply"] = message.auto_reply_pt
        return JSONResponse(payload)

    async def _web_key(self, request: Request) -> Any:
        secret = request.headers.get("x-api-key", "").strip()
        if not secret:
            scheme, _, token = request.headers.get("authorization", "").partition(" ")
            secret = token.strip() if scheme.lower() == "bearer" else ""
        if not secret:
            raise EdgeError(401, "unauthenticated", "an organisation API key is required (Authorization: Bearer …)")
        key = await self.directory.web_key(secret)
        if key is None:
            raise EdgeError(401, "unauthenticated", "the API key is not valid")
        return key


def _too_many(wait: float) -> JSONResponse:
    response = error_response(429, "rate_limited", "too many messages from this contact or organisation; retry later")
    response.headers["retry-after"] = str(max(1, math.ceil(wait)))
    return response


async def _guarded(handler: Any, request: Request) -> Response:
    """Whatever goes wrong unexpectedly (the directory's store down, a bug) is still a JSON error."""
    try:
        return await handler(request)
    except Exception:
        log.exception("the edge failed while serving a request", extra={"path": request.url.path})
        return error_response(500, "internal", "the request could not be served; retry later")


_SUMMARY_KEY = {SinkOutcome.ACCEPTED: "accepted", SinkOutcome.DUPLICATE: "duplicates", SinkOutcome.RECORDED: "recorded"}


def _raw_message(event: dict[str, Any], message_id: str) -> dict[str, Any] | None:
    """The raw `data` of one message of the event (what getBase64FromMediaMessage wants back)."""
    data = event.get("data")
    for item in data if isinstance(data, list) else [data]:
        key = item.get("key") if isinstance(item, dict) else None
        if isinstance(key, dict) and isinstance(key.get("id"), str) and key["id"].strip() == message_id:
            return item
    return None


WEBHOOK_PATH = "/webhooks/evolution"


def is_webhook_path(path: str, root_path: str = "") -> bool:
    """`/webhooks/evolution` or `/webhooks/evolution/{event}` (one segment), below `root_path`."""
    if root_path and path.startswith(root_path):
        path = path[len(root_path) :]
    if path == WEBHOOK_PATH:
        return True
    event = path[len(WEBHOOK_PATH) + 1 :] if path.startswith(WEBHOOK_PATH + "/") else ""
    return bool(event) and "/" not in event


def create_edge_router(edge: Edge) -> APIRouter:
    router = APIRouter(tags=["edge"])
    webhook_doc = {
        "summary": "Evolution API webhook",
        "description": (
            "Receives Evolution events (one envelope or a list). Authenticated per instance by a secret "
            "header or the HS256 JWT Evolution sends with `jwt_key`. Answers 2xx for every event it "
            "stored, recognised as a redelivery or ignored (with the reason)."
        ),
        "openapi_extra": {
            "requestBody": {"required": True, "content": {"application/json": {"schema": _WEBHOOK_REQUEST_SCHEMA}}}
        },
        "responses": _error_responses(400, 401, 413, 415, 429, 503),
    }
    # The webhook is Evolution's hot path (one POST per message, retried up to ten times), so it
    # is served by plain Starlette routes: no dependency solving, about 100 µs less per request
    # (bench/ingest.py). The APIRoute after them never serves (the first match wins); it only
    # documents the path in the OpenAPI schema.
    router.add_route("/webhooks/evolution", edge.evolution_webhook, methods=["POST"], include_in_schema=False)
    # Evolution's `byEvents` mode appends the event name to the URL (`…/messages-upsert`).
    router.add_route("/webhooks/evolution/{event}", edge.evolution_webhook, methods=["POST"], include_in_schema=False)
    router.add_api_route("/webhooks/evolution", edge.evolution_webhook, methods=["POST"], **webhook_doc)
    # Documented in the OpenAPI document from SubmitWebMessage's descriptor (services/gateway/http.py).
    router.add_route(WEB_MESSAGE_PATH, edge.web_message, methods=["POST"], include_in_schema=False)
    return router


# What a customer sent when it has no text, as the business owner reads it.
_SENT_PT = {
    MessageType.IMAGE: "(uma imagem)",
    MessageType.AUDIO: "(um áudio)",
    MessageType.VIDEO: "(um vídeo)",
    MessageType.DOCUMENT: "(um documento)",
    MessageType.LOCATION: "(uma localização)",
    MessageType.STICKER: "(uma figurinha)",
    MessageType.CONTACT: "(um contato)",
}


def _stored_message(
    instance: EvolutionInstance, sender_key: str, message_id: str, body: bytes, media_max_bytes: int
) -> tuple[NormalizedInbound, dict[str, Any]] | None:
    """The message `message_id` of `sender_key` in a stored webhook body, normalised as the instance
    is configured now, with its event; None when the body does not hold it (any more)."""
    options = instance.normalize_options(media_max_bytes)
    for event in events_of(json.loads(body)):
        if not isinstance(event, dict) or event.get("instance") != instance.name:
            continue
        for item in normalize_event(event, options):
            message = item.typed_by_business if isinstance(item, Ignored) else item
            if message is not None and message.message_id == message_id and message.sender_key == sender_key:
                return message, event
    return None
