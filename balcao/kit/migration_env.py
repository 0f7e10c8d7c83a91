"""What every service's Alembic `env.py` does, written once.

Migrations run online only, on the connection `balcao.kit.db.migrate` hands over, with the
version table kept inside the service's own schema.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import context


def run(target_metadata: sa.MetaData | None = None) -> None:
    config = context.config
    connection = config.attributes.get("connection")
    if connection is None:
        raise RuntimeError("run migrations through `balcao migrate`, not the alembic command")
    schema = config.attributes["schema"]
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        version_table_schema=schema,
        include_schemas=True,
        transaction_per_migration=True,
    )
    with context.begin_transaction():
        context.run_migrations()
