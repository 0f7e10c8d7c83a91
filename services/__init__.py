"""The seven Balcão services, one package each, all of the same shape:
`config` (settings), `server` (gRPC wiring: servicers, allowlists), `service` (proto ↔ domain),
`repository` (SQL only), and modules named for what they do."""
