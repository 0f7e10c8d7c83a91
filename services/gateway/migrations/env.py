"""Alembic environment of the gateway schema; the shared runner keeps the version table in it."""

from balcao.kit.migration_env import run

run()
