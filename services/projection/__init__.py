"""The projection service. Start it with `balcao serve projection`."""
