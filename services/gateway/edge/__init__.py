"""The gateway's edge: where customers' messages enter (Evolution webhook, web channel) and replies leave.

- `inbound`: the normalised message (mirrors gateway.proto's `InboundMessage`) and the
  `InboundSink` the runtime implements.
- `evolution.normalize` / `evolution.auth` / `evolution.client` / `evolution.channel`: the
  Evolution API's webhook bodies, their authentication, sendText and media, and the outbound
  channel adapter.
- `web`: the web channel's request.
- `content`: PDF text, image descriptions by the model, offline reverse geocoding, the
  transcription interface.
- `inbox` / `store`: webhook deliveries stored by group commit before the 2xx with the shared
  rate counters, and the drain that hands them to the runtime.
- `ratelimit`: rate limits shared through PostgreSQL (the web channel), or in process.
- `directory`: instance and web-key configuration behind a protocol.
- `http`: the FastAPI router serving both routes.
"""
