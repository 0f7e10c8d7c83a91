"""A local HTTP server standing in for the Evolution API (reference §5, §2.6), for the client's tests.

It checks requests the way Evolution does where a mistake of ours would show: the route
(`/message/sendText/{instance}`, `/chat/getBase64FromMediaMessage/{instance}`), an unknown
instance (404), the `apikey` header (401), a JSON body whose `number` is a string and whose
`text` is present and not blank (400, with Evolution's error body). `script(...)` sets how the
next sendText requests are answered:

- "created": 201 with the sent message object (`key.id` is the provider message id);
- "not_on_whatsapp": 400 with `response.message = [{jid, exists: false, number}]`;
- "disconnected": 400 "Error: Connection Closed";
- "server_error": 500; "license": 503 LICENSE_REQUIRED (2.4.0);
- "hang": no answer until the client gives up (or the server closes).

Once the script runs out, requests are "created". Every request is recorded.
"""

from __future__ import annotations

import base64
import itertools
import json
import secrets
import threading
from collections import deque
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Recorded:
    path: str
    headers: dict[str, str]
    body: Any


@dataclass
class FakeEvolution:
    instances: dict[str, str]  # instance name → its token (the `apikey` it accepts)
    global_key: str = "global-key-not-for-instances"
    requests: list[Recorded] = field(default_factory=list)
    media: dict[str, tuple[bytes, str, str]] = field(default_factory=dict)  # message id → (file, mime, name)
    _script: deque[str] = field(default_factory=deque)
    _ids: Iterator[int] = field(default_factory=lambda: itertools.count(1))
    _lock: threading.Lock = field(default_factory=threading.Lock)
    closing: threading.Event = field(default_factory=threading.Event)
    url: str = ""

    def script(self, *outcomes: str) -> None:
        with self._lock:
            self._script.extend(outcomes)

    def next_outcome(self) -> str:
        with self._lock:
            return self._script.popleft() if self._script else "created"

    def sends(self) -> list[Recorded]:
        return [r for r in self.requests if r.path.startswith("/message/sendText/")]

    def add_media(self, message_id: str, content: bytes, mime: str, file_name: str = "") -> None:
        self.media[message_id] = (content, mime, file_name)

    def new_message_id(self) -> str:
        return f"3EB0{next(self._ids):018X}"


def _error(status: int, message: Any) -> tuple[int, dict[str, Any]]:
    names = {400: "Bad Request", 401: "Unauthorized", 404: "Not Found", 500: "Internal Server Error"}
    return status, {"status": status, "error": names.get(status, "Error"), "response": {"message": message}}


def _handler(fake: FakeEvolution) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: Any) -> None:  # keep test output clean
            pass

        def do_POST(self) -> None:
            length = int(self.headers.get("content-length") or 0)
            raw = self.rfile.read(length) if length else b""
            try:
                body = json.loads(raw) if raw else None
            except ValueError:
                body = None
            fake.requests.append(Recorded(self.path, {k.lower(): v for k, v in self.headers.items()}, body))
            status, payload = self._route(body)
            if status == 0:  # hang: never answer; drop the connection when the server closes
                fake.closing.wait(30)
                self.close_connection = True
                return
            data = json.dumps(payload).encode()
            self.send_response(status)
            self.send_header("content-type", "application/json; charset=utf-8")
            self.send_header("content-length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def _route(self, body: Any) -> tuple[int, Any]:
            parts = self.path.split("?", 1)[0].strip("/").split("/")
            if len(parts) != 3 or (parts[0], parts[1]) not in {
                ("message", "sendText"),
                ("chat", "getBase64FromMediaMessage"),
            }:
                return _error(404, f"Cannot POST {self.path}")
            instance = parts[2]
            if instance not in fake.instances:
                return _error(404, [f'The "{instance}" instance does not exist'])
            if self.headers.get("apikey") not in (fake.instances[instance], fake.global_key):
                return _error(401, "Unauthorized")
            if "application/json" not in (self.headers.get("content-type") or ""):
                return _error(400, ["the body must be JSON"])
            if not isinstance(body, dict):
                return _error(400, ["instance is not of a type(s) object"])
            if parts[1] == "sendText":
                return self._send_text(body)
            return self._media(body)

        def _send_text(self, body: dict[str, Any]) -> tuple[int, Any]:
            number = body.get("number")
            if "number" not in body:
                return _error(400, ['instance requires property "number"'])
            if not isinstance(number, str):
                return _error(400, ["Invalid format"])
            if "text" not in body:
                return _error(400, ['instance requires property "text"'])
            if not isinstance(body["text"], str) or not body["text"].strip():
                return _error(400, ["Text is required"])
            if "delay" in body and not isinstance(body["delay"], int):
                return _error(400, ["Enter a value in milliseconds"])
            outcome = fake.next_outcome()
            jid = number if "@" in number else f"{''.join(c for c in number if c.isdigit())}@s.whatsapp.net"
            if outcome == "hang":
                return 0, None
            if outcome == "not_on_whatsapp":
                return _error(400, [{"jid": jid, "exists": False, "number": number.split("@", 1)[0]}])
            if outcome == "disconnected":
                return _error(400, ["Error: Connection Closed"])
            if outcome == "server_error":
                return _error(500, "Connection Closed")
            if outcome == "license":
                return 503, {"error": "service not activated", "code": "LICENSE_REQUIRED", "register_url": "x"}
            return 201, {
                "key": {"remoteJid": jid, "fromMe": True, "id": fake.new_message_id()},
                "pushName": "Você",
                "status": "PENDING",
                "message": {"conversation": body["text"]},
                "contextInfo": {"mentionedJid": [], "groupMentions": []},
                "messageType": "conversation",
                "messageTimestamp": 1761057700,
                "instanceId": "b1c2d3e4-5f60-4a7b-8c9d-0e1f2a3b4c5d",
                "source": "web",
            }

        def _media(self, body: dict[str, Any]) -> tuple[int, Any]:
            message = body.get("message")
            key = message.get("key") if isinstance(message, dict) else None
            message_id = key.get("id") if isinstance(key, dict) else None
            if not isinstance(message_id, str) or message_id not in fake.media:
                return _error(400, ["Message not found"])
            content, mime, name = fake.media[message_id]
            return 201, {
                "mediaType": mime.split("/", 1)[0],
                "fileName": name,
                "caption": None,
                "size": {"fileLength": len(content), "height": None, "width": None},
                "mimetype": mime,
                "base64": base64.b64encode(content).decode(),
                "buffer": None,
            }

    return Handler


@contextmanager
def running_fake_evolution(instances: dict[str, str] | None = None) -> Iterator[FakeEvolution]:
    fake = FakeEvolution(instances=instances or {"atendimento": secrets.token_hex(16)})
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(fake))
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    fake.url = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        yield fake
    finally:
        fake.closing.set()
        server.shutdown()
        server.server_close()
