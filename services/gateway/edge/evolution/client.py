"""The Evolution API client (reference §5, §2.6): send a text, fetch a message's media.

`send_text` posts `POST /message/sendText/{instance}` with the `apikey` header and
`{number, text, delay?, linkPreview?, quoted?}`. Any 2xx is a success (Evolution answers 201 with
the sent message; its `key.id` is the provider message id). Failures are `EvolutionError`:

- permanent (a person must act; the runtime raises a Central item with `reason_pt`): the number
  is not on WhatsApp (400 with `exists: false`), the instance is disconnected (400 "Connection
  Closed"), a wrong API key (401), an unknown instance (404), Evolution 2.4's licence wall (503
  `LICENSE_REQUIRED`), any other 4xx;
- retryable: 5xx, 408, 429, timeouts and connection failures are retried here with exponential
  backoff and jitter; when the attempts run out the error is raised with `permanent=False`.

A timeout after the request left may mean Evolution did send the text; retrying it can then
deliver it twice. Evolution offers no idempotency key before 2.4, so this follows the issue
(retry timeouts) and keeps the attempts few.
"""

from __future__ import annotations

import asyncio
import base64
import binascii
import logging
import random
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

import httpx2

from services.gateway.edge.content import MediaFile
from services.gateway.edge.directory import EvolutionInstance

log = logging.getLogger(__name__)

_RETRYABLE_STATUS = frozenset({408, 429})


@dataclass(frozen=True, slots=True)
class Sent:
    provider_message_id: str
    # The JID Evolution actually used (may differ from the number sent: Brazil's ninth digit).
    remote_jid: str
    status: int


class EvolutionError(Exception):
    """Evolution did not do what was asked. `reason_pt` is for the business owner (Central)."""

    def __init__(self, code: str, reason_pt: str, *, permanent: bool, status: int = 0, detail: str = "") -> None:
        super().__init__(f"{code}: {detail or reason_pt}")
        self.code = code
        self.reason_pt = reason_pt
        self.permanent = permanent
        self.status = status
        self.detail = detail


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    attempts: int = 3
    base_seconds: float = 0.5
    max_seconds: float = 8.0
    jitter: float = 0.2  # ± this share of each pause

    def pause(self, attempt: int) -> float:
        pause = min(self.max_seconds, self.base_seconds * (2 ** (attempt - 1)))
        return max(0.0, pause * (1 + random.uniform(-self.jitter, self.jitter)))


class EvolutionClient:
    def __init__(
        self,
        *,
        http: httpx2.AsyncClient | None = None,
        timeout_seconds: float = 15.0,
        connect_timeout_seconds: float = 5.0,
        retry: RetryPolicy = RetryPolicy(),
        media_max_bytes: int = 16 * 1024 * 1024,
        sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    ) -> None:
        self._http = http or httpx2.AsyncClient(
            timeout=httpx2.Timeout(timeout_seconds, connect=connect_timeout_seconds),
            follow_redirects=False,
        )
        self._owns_http = http is None
        self.retry = retry
        self.media_max_bytes = media_max_bytes
        self._sleep = sleep

    async def aclose(self) -> None:
        if self._owns_http:
            await self._http.aclose()

    async def __aenter__(self) -> EvolutionClient:
        return self

    async def __aexit__(self, *_: object) -> None:
        await self.aclose()

    # -----------------------------------------------------------------------------------------

    async def send_text(
        self,
        instance: EvolutionInstance,
        number: str,
        text: str,
        *,
        delay_ms: int | None = None,
        link_preview: bool | None = None,
        quoted_message_id: str = "",
    ) -> Sent:
        """Send `text` to `number` (digits or the exact JID received); `EvolutionError` otherwise."""
        if not number.strip():
            raise EvolutionError("invalid_request", "A mensagem não tem destinatário.", permanent=True)
        if not text.strip():
            raise EvolutionError("invalid_request", "A mensagem a enviar está vazia.", permanent=True)
        body: dict[str, Any] = {"number": number, "text": text}
        if delay_ms is not None:
            body["delay"] = int(delay_ms)
        if link_preview is not None:
            body["linkPreview"] = bool(link_preview)
        if quoted_message_id:
            body["quoted"] = {"key": {"id": quoted_message_id}}
        response = await self._post(instance, f"/message/sendText/{quote(instance.name, safe='')}", body, number)
        payload = _json(response)
        key = payload.get("key") if isinstance(payload, dict) else None
        key = key if isinstance(key, dict) else {}
        message_id = key.get("id") if isinstance(key.get("id"), str) else ""
        if not message_id:
            log.warning("Evolution accepted a text without a message id", extra={"status": response.status_code})
        remote = key.get("remoteJid") if isinstance(key.get("remoteJid"), str) else ""
        return Sent(provider_message_id=message_id, remote_jid=remote, status=response.status_code)

    async def get_base64_from_media_message(
        self, instance: EvolutionInstance, raw_message: dict[str, Any], *, convert_to_mp4: bool = False
    ) -> MediaFile:
        """The decrypted file of a message: pass the webhook's whole `data` (works without Evolution's DB)."""
        body = {"message": raw_message, "convertToMp4": convert_to_mp4}
        path = f"/chat/getBase64FromMediaMessage/{quote(instance.name, safe='')}"
        response = await self._post(instance, path, body, "")
        payload = _json(response)
        encoded = payload.get("base64") if isinstance(payload, dict) else None
        if not isinstance(encoded, str) or not encoded:
            raise EvolutionError(
                "invalid_response",
                "O Evolution não devolveu o arquivo da mensagem.",
                permanent=True,
                status=response.status_code,
            )
        if len(encoded) * 3 // 4 > self.media_max_bytes:
            raise EvolutionError("media_too_large", "O arquivo recebido é grande demais.", permanent=True)
        try:
            content = base64.b64decode(encoded, validate=True)
        except (binascii.Error, ValueError):
            raise EvolutionError(
                "invalid_response", "O Evolution devolveu um arquivo ilegível.", permanent=True
            ) from None
        mime = payload.get("mimetype") if isinstance(payload.get("mimetype"), str) else ""
        name = payload.get("fileName") if isinstance(payload.get("fileName"), str) else ""
        return MediaFile(content=content, mime_type=mime, file_name=name)

    def media_source(self, instance: EvolutionInstance) -> InstanceMedia:
        return InstanceMedia(self, instance)

    # -----------------------------------------------------------------------------------------

    async def _post(self, instance: EvolutionInstance, path: str, body: dict[str, Any], number: str) -> httpx2.Response:
        url = instance.base_url.rstrip("/") + path
        headers = {"apikey": instance.api_key, "content-type": "application/json", "accept": "application/json"}
        attempts = max(1, self.retry.attempts)
        last: EvolutionError | None = None
        for attempt in range(1, attempts + 1):
            try:
                response = await self._http.post(url, json=body, headers=headers)
            except httpx2.TimeoutException as exc:
                last = EvolutionError(
                    "timeout",
                    "O servidor do WhatsApp (Evolution) não respondeu a tempo; a mensagem será tentada de novo.",
                    permanent=False,
                    detail=type(exc).__name__,
                )
            except httpx2.TransportError as exc:
                last = EvolutionError(
                    "connection_failed",
                    "Não foi possível falar com o servidor do WhatsApp (Evolution); a mensagem será tentada de novo.",
                    permanent=False,
                    detail=type(exc).__name__,
                )
            else:
                if response.is_success:
                    return response
                last = _failure(instance, response, number)
                if last.permanent:
                    raise last
            log.warning(
                "Evolution request failed",
                extra={"path": path, "attempt": attempt, "code": last.code, "status": last.status},
            )
            if attempt < attempts:
                await self._sleep(self.retry.pause(attempt))
        assert last is not None
        raise last


class InstanceMedia:
    """`MediaSource` for one instance (what `ContentEnricher` fetches through)."""

    def __init__(self, client: EvolutionClient, instance: EvolutionInstance) -> None:
        self._client = client
        self._instance = instance

    async def fetch_media(self, raw_message: dict[str, Any]) -> MediaFile:
        return await self._client.get_base64_from_media_message(self._instance, raw_message)


def _json(response: httpx2.Response) -> Any:
    try:
        return response.json()
    except ValueError:
        return None


def _messages(payload: Any) -> list[Any]:
    """Evolution's error body: `{"status", "error", "response": {"message": [...] or "..."}}`."""
    if not isinstance(payload, dict):
        return []
    inner = payload.get("response")
    message = inner.get("message") if isinstance(inner, dict) else payload.get("message")
    if isinstance(message, list):
        return message
    return [message] if message is not None else []


def _failure(instance: EvolutionInstance, response: httpx2.Response, number: str) -> EvolutionError:
    status = response.status_code
    payload = _json(response)
    messages = _messages(payload)
    detail = "; ".join(str(m) for m in messages)[:500] or response.text[:200]
    name = instance.name
    if status == 400:
        for item in messages:
            if isinstance(item, dict) and item.get("exists") is False:
                who = item.get("number") or number
                return EvolutionError(
                    "not_on_whatsapp",
                    f"O número {who} não tem WhatsApp; a mensagem não foi entregue. Procure o cliente por outro meio.",
                    permanent=True,
                    status=status,
                    detail=detail,
                )
        if "connection closed" in detail.lower():
            return EvolutionError(
                "instance_disconnected",
                f"O WhatsApp da instância {name} está desconectado; reconecte o aparelho no Evolution "
                "para voltar a enviar mensagens.",
                permanent=True,
                status=status,
                detail=detail,
            )
    if status == 401:
        return EvolutionError(
            "unauthorized",
            f"O Evolution recusou a chave de API configurada para a instância {name}; confira a configuração do canal.",
            permanent=True,
            status=status,
            detail=detail,
        )
    if status == 404:
        return EvolutionError(
            "unknown_instance",
            f"A instância {name} não existe no servidor Evolution configurado; confira a configuração do canal.",
            permanent=True,
            status=status,
            detail=detail,
        )
    if isinstance(payload, dict) and payload.get("code") == "LICENSE_REQUIRED":
        return EvolutionError(
            "license_required",
            "O servidor Evolution pede a ativação da licença para enviar mensagens; ative-a no Evolution.",
            permanent=True,
            status=status,
            detail=detail,
        )
    if status >= 500 or status in _RETRYABLE_STATUS:
        return EvolutionError(
            "server_error",
            f"O servidor do WhatsApp (Evolution) falhou (HTTP {status}); a mensagem será tentada de novo.",
            permanent=False,
            status=status,
            detail=detail,
        )
    return EvolutionError(
        "rejected",
        f"O Evolution recusou a mensagem (HTTP {status}): {detail or 'sem detalhes'}.",
        permanent=True,
        status=status,
        detail=detail,
    )
