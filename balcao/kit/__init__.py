"""The runtime kit: what every Balcão service process needs, written once."""
