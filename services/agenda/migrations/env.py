"""Alembic environment of the agenda schema; the shared runner keeps the version table in it."""

from balcao.kit.migration_env import run

run()
