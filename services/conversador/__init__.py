"""The conversador service. Start it with `balcao serve conversador`."""
