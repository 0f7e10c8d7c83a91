"""The gateway service. Start it with `balcao serve gateway`."""
