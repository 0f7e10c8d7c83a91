"""The Evolution API (WhatsApp): webhook normalisation and authentication, the HTTP client, the channel."""
