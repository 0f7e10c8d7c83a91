"""A local HTTP server speaking the Anthropic Messages API, for tests that run the real SDK.

`POST /v1/messages` with the API's request and response JSON: text, `tool_use` and
`tool_result` blocks, base64 `image` blocks in user messages, `stop_reason`, `usage` (with
prompt-cache reads and writes for the prefix marked with `cache_control`). It checks requests
the way the real API does where a mistake of ours would show: a request carrying `tool_use`/`tool_result` blocks without
`tools` is refused with 400; every `tool_use` must be answered by a `tool_result` in the next
message and every `tool_result` must answer one; text blocks must not be empty.

Answers come from a script (`reply_text`, `reply_tools`, or a function of the request body);
`fail_next(429)` makes the next request(s) fail first; `stall_next(s)` holds the next one.
Every request is recorded.
"""

from __future__ import annotations

import base64
import itertools
import json
import math
import re
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Answer = dict[str, Any] | Callable[[dict[str, Any]], dict[str, Any]]

_TOOL_NAME = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")


def reply_text(text: str) -> dict[str, Any]:
    return {"content": [{"type": "text", "text": text}], "stop_reason": "end_turn"}


def reply_tools(*calls: tuple[str, dict[str, Any]], preface: str = "") -> dict[str, Any]:
    content: list[dict[str, Any]] = [{"type": "text", "text": preface}] if preface else []
    content.extend({"type": "tool_use", "name": name, "input": arguments} for name, arguments in calls)
    return {"content": content, "stop_reason": "tool_use"}


class InvalidRequest(Exception):
    def __init__(self, message: str, status: int = 400, kind: str = "invalid_request_error") -> None:
        super().__init__(message)
        self.status, self.kind = status, kind


def _tokens(value: Any) -> int:
    text = value if isinstance(value, str) else json.dumps(value, ensure_ascii=False, sort_keys=True)
    return max(1, math.ceil(len(text) / 4))


def _blocks(message: dict[str, Any]) -> list[dict[str, Any]]:
    content = message.get("content")
    if isinstance(content, str):
        return [{"type": "text", "text": content}]
    if not isinstance(content, list):
        raise InvalidRequest("messages: content must be a string or a list of blocks")
    return content


def validate(body: dict[str, Any]) -> None:
    """Raise `InvalidRequest` for what the real API refuses (the parts our code could get wrong)."""
    for name in ("model", "max_tokens", "messages"):
        if name not in body:
            raise InvalidRequest(f"{name}: Field required")
    if not isinstance(body["max_tokens"], int) or body["max_tokens"] < 1:
        raise InvalidRequest("max_tokens: must be a positive integer")
    messages = body["messages"]
    if not isinstance(messages, list) or not messages:
        raise InvalidRequest("messages: at least one message is required")
    tools = body.get("tools") or []
    for tool in tools:
        if not _TOOL_NAME.match(str(tool.get("name", ""))):
            raise InvalidRequest(f"tools: invalid tool name {tool.get('name')!r}")
        if not isinstance(tool.get("input_schema"), dict) or tool["input_schema"].get("type") != "object":
            raise InvalidRequest("tools: input_schema must be a JSON schema of type object")
    choice = body.get("tool_choice")
    if choice is not None:
        if not tools:
            raise InvalidRequest("tool_choice may only be specified while providing tools")
        if choice.get("type") not in ("auto", "any", "tool", "none"):
            raise InvalidRequest("tool_choice: unknown type")
    system = body.get("system")
    if isinstance(system, list):
        for block in system:
            if block.get("type") != "text" or not str(block.get("text", "")).strip():
                raise InvalidRequest("system: text content blocks must be non-empty")

    if messages[0].get("role") != "user":
        raise InvalidRequest("messages: the first message must use the user role")
    has_tool_blocks = False
    previous_uses: set[str] = set()
    for index, message in enumerate(messages):
        role = message.get("role")
        if role not in ("user", "assistant"):
            raise InvalidRequest(f"messages.{index}.role: must be user or assistant")
        blocks = _blocks(message)
        if not blocks:
            raise InvalidRequest(f"messages.{index}: all messages must have non-empty content")
        uses: set[str] = set()
        answered: set[str] = set()
        for block in blocks:
            kind = block.get("type")
            if kind == "text":
                if not str(block.get("text", "")).strip():
                    raise InvalidRequest(f"messages.{index}: text content blocks must be non-empty")
            elif kind == "tool_use":
                has_tool_blocks = True
                if role != "assistant":
                    raise InvalidRequest(f"messages.{index}: tool_use blocks may only appear in assistant messages")
                uses.add(str(block.get("id")))
            elif kind == "tool_result":
                has_tool_blocks = True
                if role != "user":
                    raise InvalidRequest(f"messages.{index}: tool_result blocks may only appear in user messages")
                tool_use_id = str(block.get("tool_use_id"))
                if tool_use_id not in previous_uses:
                    raise InvalidRequest(
                        f"messages.{index}.content: unexpected `tool_use_id` found in `tool_result` blocks: "
                        f"{tool_use_id}. Each `tool_result` block must have a corresponding `tool_use` block in "
                        "the previous message."
                    )
                answered.add(tool_use_id)
            elif kind == "image":
                _check_image(index, role, block)
            else:
                raise InvalidRequest(f"messages.{index}: unsupported block type {kind!r}")
        if previous_uses - answered:
            raise InvalidRequest(
                f"messages.{index}: `tool_use` ids were found without `tool_result` blocks immediately after: "
                + ", ".join(sorted(previous_uses - answered))
            )
        previous_uses = uses
    if previous_uses:
        # A conversation may end with the assistant's tool_use only as a prefill, which we never send.
        raise InvalidRequest("the final assistant message has tool_use blocks without results")
    if has_tool_blocks and not tools:
        raise InvalidRequest("Requests which include `tool_use` or `tool_result` blocks must define tools.")


_IMAGE_TYPES = ("image/jpeg", "image/png", "image/gif", "image/webp")


def _check_image(index: int, role: Any, block: dict[str, Any]) -> None:
    """An image block as the API takes it inline: user role, base64 source, a supported media type."""
    if role != "user":
        raise InvalidRequest(f"messages.{index}: image blocks may only appear in user messages")
    source = block.get("source")
    if not isinstance(source, dict) or source.get("type") != "base64":
        raise InvalidRequest(f"messages.{index}: image.source must be a base64 source")
    if source.get("media_type") not in _IMAGE_TYPES:
        raise InvalidRequest(f"messages.{index}: image.source.media_type must be one of {', '.join(_IMAGE_TYPES)}")
    try:
        data = base64.b64decode(str(source.get("data", "")), validate=True)
    except ValueError:
        raise InvalidRequest(f"messages.{index}: image.source.data is not valid base64") from None
    if not data:
        raise InvalidRequest(f"messages.{index}: image.source.data is empty")


@dataclass
class Recorded:
    headers: dict[str, str]
    body: dict[str, Any]
    status: int = 200


@dataclass
class MessagesAPI:
    """The server's state: the script, the failures to inject, what was received."""

    script: list[Answer] = field(default_factory=list)
    requests: list[Recorded] = field(default_factory=list)
    failures: list[tuple[int, str]] = field(default_factory=list)
    # Seconds to hold the next requests before answering (to exercise the client's timeout).
    stalls: list[float] = field(default_factory=list)
    port: int = 0
    _cached_prefixes: set[str] = field(default_factory=set)
    _ids: Iterator[int] = field(default_factory=lambda: itertools.count(1))
    _lock: threading.Lock = field(default_factory=threading.Lock)

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def then(self, *answers: Answer) -> MessagesAPI:
        self.script.extend(answers)
        return self

    def fail_next(self, status: int = 429, times: int = 1, kind: str = "rate_limit_error") -> None:
        self.failures.extend([(status, kind)] * times)

    def stall_next(self, seconds: float, times: int = 1) -> None:
        self.stalls.extend([seconds] * times)

    def take_stall(self) -> float:
        with self._lock:
            return self.stalls.pop(0) if self.stalls else 0.0

    @property
    def accepted(self) -> list[Recorded]:
        return [r for r in self.requests if r.status == 200]

    def handle(self, headers: dict[str, str], body: dict[str, Any]) -> tuple[int, dict[str, Any], dict[str, str]]:
        with self._lock:
            record = Recorded(headers, body)
            self.requests.append(record)
            # The API takes the key as `x-api-key` or as `authorization: Bearer` (what this SDK sends).
            if not headers.get("x-api-key") and not headers.get("authorization", "").startswith("Bearer "):
                record.status = 401
                return 401, _error("authentication_error", "an API key is required"), {}
            if self.failures:
                status, kind = self.failures.pop(0)
                record.status = status
                # retry-after-ms keeps the SDK's backoff short in tests; the retry itself is real.
                return status, _error(kind, f"injected {status}"), {"retry-after-ms": "20"}
            try:
                validate(body)
            except InvalidRequest as exc:
                record.status = exc.status
                return exc.status, _error(exc.kind, str(exc)), {}
            if not self.script:
                record.status = 500
                return 500, _error("api_error", "the test server's script has no answer for this request"), {}
            answer = self.script.pop(0)
            try:
                spec = answer(body) if callable(answer) else answer
                return 200, self._message(body, spec), {}
            except Exception as exc:  # noqa: BLE001 - a broken script must show up as an answer, not a dropped socket
                record.status = 500
                return 500, _error("api_error", f"test script failed: {exc!r}"), {"x-should-retry": "false"}

    def _message(self, body: dict[str, Any], spec: dict[str, Any]) -> dict[str, Any]:
        content = []
        for block in spec["content"]:
            block = dict(block)
            if block["type"] == "tool_use":
                if not body.get("tools"):
                    raise AssertionError("script answers tool_use to a request without tools")
                block.setdefault("id", f"toolu_{next(self._ids):04d}")
            content.append(block)
        prefix = [body.get("tools") or [], body.get("system") or ""]
        marked = any("cache_control" in t for t in prefix[0]) or (
            isinstance(prefix[1], list) and any("cache_control" in b for b in prefix[1])
        )
        prefix_tokens = _tokens(prefix) if marked else 0
        key = json.dumps([body["model"], prefix], sort_keys=True)
        cache_read = prefix_tokens if marked and key in self._cached_prefixes else 0
        cache_write = prefix_tokens if marked and not cache_read else 0
        if marked:
            self._cached_prefixes.add(key)
        return {
            "id": f"msg_{next(self._ids):06d}",
            "type": "message",
            "role": "assistant",
            "model": body["model"],
            "content": content,
            "stop_reason": spec.get("stop_reason", "end_turn"),
            "stop_sequence": None,
            "usage": {
                "input_tokens": _tokens(body["messages"]) + (0 if marked else _tokens(prefix)),
                "output_tokens": _tokens(content),
                "cache_creation_input_tokens": cache_write,
                "cache_read_input_tokens": cache_read,
            },
        }


def _error(kind: str, message: str) -> dict[str, Any]:
    return {"type": "error", "error": {"type": kind, "message": message}}


def _handler(api: MessagesAPI) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            if self.path.split("?")[0] != "/v1/messages":
                self._send(404, _error("not_found_error", f"no route {self.path}"), {})
                return
            length = int(self.headers.get("content-length") or 0)
            try:
                body = json.loads(self.rfile.read(length) or b"{}")
            except json.JSONDecodeError:
                self._send(400, _error("invalid_request_error", "body is not JSON"), {})
                return
            headers = {k.lower(): v for k, v in self.headers.items()}
            stall = api.take_stall()
            if stall:
                time.sleep(stall)
            status, payload, extra = api.handle(headers, body)
            self._send(status, payload, extra)

        def _send(self, status: int, payload: dict[str, Any], extra: dict[str, str]) -> None:
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(data)))
            self.send_header("request-id", f"req_{status}")
            for key, value in extra.items():
                self.send_header(key, value)
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, format: str, *args: Any) -> None:  # quiet in tests
            return

    return Handler


@contextmanager
def messages_api() -> Iterator[MessagesAPI]:
    """Run the server on a free port for the duration of the block."""
    api = MessagesAPI()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(api))
    server.daemon_threads = True
    api.port = server.server_address[1]
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), name="messages-api", daemon=True)
    thread.start()
    try:
        yield api
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)
