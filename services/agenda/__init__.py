"""The agenda service. Start it with `balcao serve agenda`."""
