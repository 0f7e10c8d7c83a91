"""The operador service. Start it with `balcao serve operador`."""
