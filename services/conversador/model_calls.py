"""One model call as the Conversador makes it: a span, a log line, a usage entry.

Every call of a turn (draft steps, the repair, revisions, the closing, its correction, the
summary condensation) goes through `call_model`, so each is a span of the turn's trace and
each leaves one `ModelUsage` for the execution record.
"""

from __future__ import annotations

import logging

from opentelemetry import trace

from balcao.conversador.v1 import conversador_pb2 as cv
from balcao.models.base import ModelProvider, ModelRequest, ModelResponse

log = logging.getLogger(__name__)
_tracer = trace.get_tracer(__name__)


def usage_entry(purpose: int, response: ModelResponse) -> cv.ModelUsage:
    u = response.usage
    return cv.ModelUsage(
        purpose=purpose,  # type: ignore[arg-type]
        provider=response.provider,
        model=response.model,
        input_tokens=u.input_tokens,
        output_tokens=u.output_tokens,
        cache_read_tokens=u.cache_read_tokens,
        cache_write_tokens=u.cache_write_tokens,
    )


async def call_model(model: ModelProvider, request: ModelRequest, purpose: int) -> tuple[ModelResponse, cv.ModelUsage]:
    name = cv.ModelCallPurpose.Name(purpose).removeprefix("MODEL_CALL_PURPOSE_").lower()
    with _tracer.start_as_current_span(f"model {name}") as span:
        span.set_attribute("balcao.model.purpose", name)
        span.set_attribute("balcao.model.provider", model.name)
        span.set_attribute("balcao.model.tools", len(request.tools))
        response = await model.complete(request)
        usage = usage_entry(purpose, response)
        span.set_attribute("balcao.model.name", response.model)
        span.set_attribute("balcao.model.input_tokens", usage.input_tokens)
        span.set_attribute("balcao.model.output_tokens", usage.output_tokens)
        span.set_attribute("balcao.model.cache_read_tokens", usage.cache_read_tokens)
    log.info(
        "model call",
        extra={
            "purpose": name,
            "provider": response.provider,
            "model": response.model,
            "input_tokens": usage.input_tokens,
            "output_tokens": usage.output_tokens,
            "cache_read_tokens": usage.cache_read_tokens,
            "cache_write_tokens": usage.cache_write_tokens,
            "tool_calls": len(response.tool_calls),
        },
    )
    return response, usage
