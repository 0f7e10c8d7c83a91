"""`balcao`: the one entry point.

    balcao up                 the whole mesh on this machine (embedded PostgreSQL by default)
    balcao serve <service>    one service process
    balcao migrate            upgrade every schema owner (crm, agenda, gateway)
    balcao token <caller>     a signed caller identity for grpcurl
    balcao db start|stop|url  the embedded PostgreSQL of the data folder
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import os
import sys
from pathlib import Path

from balcao.kit.mesh import CALLERS, SERVICES
from balcao.kit.settings import SettingsError


def _data_dir() -> Path:
    return Path(os.environ.get("BALCAO_DATA_DIR") or ".balcao")


def cmd_serve(args: argparse.Namespace) -> int:
    from balcao.kit.server import run
    from balcao.kit.settings import load_settings

    config = importlib.import_module(f"services.{args.service}.config")
    server = importlib.import_module(f"services.{args.service}.server")
    try:
        settings = load_settings(config.Settings)
    except SettingsError as exc:
        print(f"balcao {args.service}: {exc.message}", file=sys.stderr)
        return 2
    asyncio.run(run(args.service, settings, server.build))
    return 0


def cmd_token(args: argparse.Namespace) -> int:
    from balcao.kit.identity import mint_token
    from balcao.launcher import read_mesh_secret

    secret = os.environ.get("BALCAO_MESH_SECRET") or read_mesh_secret(_data_dir())
    if not secret:
        print(
            "balcao token: missing setting BALCAO_MESH_SECRET (and no secret in the data folder "
            f"{_data_dir()})",
            file=sys.stderr,
        )
        return 2
    print(mint_token(secret.encode(), args.caller, ttl=args.ttl))
    return 0


def cmd_migrate(args: argparse.Namespace) -> int:
    from balcao.kit import db

    configured = os.environ.get("DATABASE_URL")
    url, _started = db.resolve_database_url(configured, _data_dir())
    owners = [args.service] if args.service else [s.name for s in SERVICES.values() if s.schema]

    async def migrate_all() -> None:
        for name in owners:
            schema = SERVICES[name].schema
            if schema is None:
                raise SystemExit(f"balcao migrate: {name} owns no schema")
            await db.migrate(url, name, schema)
            print(f"{name}: schema {schema} is up to date")

    asyncio.run(migrate_all())
    return 0


def cmd_db(args: argparse.Namespace) -> int:
    from balcao.kit.embedded_pg import EmbeddedPostgres

    server = EmbeddedPostgres(_data_dir().resolve())
    if args.action == "start":
        server.start()
        print(server.url)
    elif args.action == "stop":
        server.stop()
    elif server.is_running():
        print(server.url)
    else:
        print(f"balcao db: no embedded PostgreSQL runs in {server.folder}", file=sys.stderr)
        return 1
    return 0


def cmd_up(args: argparse.Namespace) -> int:
    from balcao.launcher import up

    return up(_data_dir())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="balcao", description="Balcão: the agent mesh.")
    sub = parser.add_subparsers(dest="command", required=True)

    sub.add_parser("up", help="start the whole mesh on this machine").set_defaults(func=cmd_up)

    serve = sub.add_parser("serve", help="run one service")
    serve.add_argument("service", choices=sorted(SERVICES))
    serve.set_defaults(func=cmd_serve)

    token = sub.add_parser("token", help="print a signed caller identity for grpcurl")
    token.add_argument("caller", choices=sorted(CALLERS))
    token.add_argument("--ttl", type=int, default=3600, help="seconds the token is valid")
    token.set_defaults(func=cmd_token)

    migrate = sub.add_parser("migrate", help="upgrade the database schemas")
    migrate.add_argument("--service", choices=sorted(n for n, s in SERVICES.items() if s.schema))
    migrate.set_defaults(func=cmd_migrate)

    database = sub.add_parser("db", help="the embedded PostgreSQL of the data folder")
    database.add_argument("action", choices=["start", "stop", "url"])
    database.set_defaults(func=cmd_db)

    args = parser.parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    raise SystemExit(main())
