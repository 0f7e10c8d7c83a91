"""The crm service. Start it with `balcao serve crm`."""
