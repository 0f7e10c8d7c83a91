"""The seguranca service. Start it with `balcao serve seguranca`."""
