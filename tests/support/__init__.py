"""Helpers the tests share: starting the real mesh, free ports, signed channels."""
