"""`balcao`: the one entry point.

    balcao up                 the whole mesh on this machine (embedded PostgreSQL by default)
    balcao serve <service>    one service process
    balcao migrate            upgrade every schema owner (crm, agenda, gateway)
    balcao token <caller>     a signed caller identity for grpcurl
    balcao db start|stop|url  the embedded PostgreSQL of the data folder
    balcao report summary-p95 read-only: p95 length of the latest rolling_summary per contact (seed 001)
    balcao seed-demo          create the demo clinic (through the write RPCs)
    balcao chat --org demo --phone +5511…   talk to the agent from the terminal
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
    from balcao.kit.server import run, run_loop
    from balcao.kit.settings import load_settings

    config = importlib.import_module(f"services.{args.service}.config")
    server = importlib.import_module(f"services.{args.service}.server")
    try:
        settings = load_settings(config.Settings)
    except SettingsError as exc:
        print(f"balcao {args.service}: {exc.message}", file=sys.stderr)
        return 2
    run_loop(run(args.service, settings, server.build))
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


# Seed 001: when this p95 passes 2,500 characters, turn ROLLING_SUMMARY_MAX_TOKENS on. By `seq`, not
# `created_at` (which can tie): `seq` is the order the agent reads the latest checkpoint in.
SUMMARY_P95_TRIGGER = 2500
SUMMARY_P95_QUERY = """
with u as (
  select distinct on (organization_id, contact_id) length(rolling_summary) l
  from crm.lead_checkpoints
  order by organization_id, contact_id, seq desc
)
select percentile_cont(0.95) within group (order by l), count(*) from u
"""


def cmd_report(args: argparse.Namespace) -> int:
    import json

    import sqlalchemy as sa

    from balcao.kit import db

    url, started = db.resolve_database_url(os.environ.get("DATABASE_URL"), _data_dir())

    async def measure() -> tuple[float | None, int] | None:
        engine = db.create_engine(url, pool_size=1, app_role=False)
        try:
            async with engine.connect() as conn:
                await conn.execute(sa.text("SET TRANSACTION READ ONLY"))
                # Under FORCE ROW LEVEL SECURITY even the owner sees one tenant at a time; the
                # measurement is installation-wide, which crm's narrow read-only scope allows.
                await conn.execute(sa.text("SELECT set_config('balcao.scope', 'all', true)"))
                if await conn.scalar(sa.text("select to_regclass('crm.lead_checkpoints')")) is None:
                    return None
                p95, contacts = (await conn.execute(sa.text(SUMMARY_P95_QUERY))).one()
                return (float(p95) if p95 is not None else None), int(contacts)
        finally:
            await engine.dispose()

    try:
        measured = asyncio.run(measure())
    finally:
        if started is not None:
            started.stop()
    if measured is None:
        print("balcao report: crm.lead_checkpoints does not exist yet (run `balcao migrate`)", file=sys.stderr)
        return 1
    p95, contacts = measured
    triggered = p95 is not None and p95 > SUMMARY_P95_TRIGGER
    if args.json:
        print(json.dumps({"contacts": contacts, "p95_chars": p95, "trigger_chars": SUMMARY_P95_TRIGGER,
                          "triggered": triggered}))
        return 0
    print("rolling_summary of the latest checkpoint per contact (by seq)")
    print(f"  contacts measured  {contacts}")
    print(f"  p95 length         {'-' if p95 is None else f'{p95:.0f} characters'}")
    verdict = "PASSED: turn ROLLING_SUMMARY_MAX_TOKENS on" if triggered else "not reached: keep the cap off"
    print(f"  trigger            {SUMMARY_P95_TRIGGER} characters, {verdict}")
    return 0


def cmd_up(args: argparse.Namespace) -> int:
    from balcao.launcher import up

    return up(_data_dir())


def _peer_address(service: str) -> str:
    explicit = os.environ.get(f"BALCAO_{service.upper()}_ADDR")
    if explicit:
        return explicit
    port = os.environ.get(f"BALCAO_{service.upper()}_GRPC_PORT") or str(SERVICES[service].grpc_port)
    return f"localhost:{port}"


def _token(caller: str, program: str) -> str | None:
    from balcao.kit.identity import mint_token
    from balcao.launcher import read_mesh_secret

    secret = os.environ.get("BALCAO_MESH_SECRET") or read_mesh_secret(_data_dir())
    if not secret:
        print(f"{program}: missing setting BALCAO_MESH_SECRET (and no secret in {_data_dir()})", file=sys.stderr)
        return None
    return mint_token(secret.encode(), caller, ttl=3600)


def cmd_seed_demo(args: argparse.Namespace) -> int:
    import grpc

    from balcao.demo import seed

    wiring = (args.evolution_url, args.evolution_instance, args.evolution_api_key)
    if any(wiring) and not all(wiring):
        print(
            "balcao seed-demo: --evolution-url, --evolution-instance and --evolution-api-key go together",
            file=sys.stderr,
        )
        return 2
    if args.webhook_secret and not args.evolution_url:
        print("balcao seed-demo: --webhook-secret needs --evolution-url", file=sys.stderr)
        return 2
    token = _token("gateway", "balcao seed-demo")
    if token is None:
        return 2
    try:
        seeded = seed(_peer_address("crm"), _peer_address("agenda"), token)
    except grpc.RpcError as exc:
        print(f"balcao seed-demo: {exc.code().name}: {exc.details()}", file=sys.stderr)  # type: ignore[attr-defined]
        return 1
    state = "criada" if seeded.created else "já existia"
    print(f"Clínica de demonstração {state}: {seeded.organization_id}")
    if args.evolution_url:
        return _wire_demo_evolution(args, seeded.organization_id)
    print("Converse com ela: balcao chat --org demo --phone +5511987654321")
    return 0


def _wire_demo_evolution(args: argparse.Namespace, organization_id: str) -> int:
    """Connect the demo clinic to an Evolution instance through the gateway's SetChannelInstance."""
    import json
    import secrets

    import grpc

    from balcao.gateway.v1 import gateway_pb2, gateway_pb2_grpc

    token = _token("admin", "balcao seed-demo")
    if token is None:
        return 2
    secret = args.webhook_secret or secrets.token_urlsafe(32)
    request = gateway_pb2.SetChannelInstanceRequest(
        organization_id=organization_id,
        instance_name=args.evolution_instance,
        instance=gateway_pb2.ChannelInstance(
            channel=gateway_pb2.CHANNEL_WHATSAPP,
            base_url=args.evolution_url,
            api_key=args.evolution_api_key,
            webhook_secret=secret,
        ),
    )
    with grpc.insecure_channel(_peer_address("gateway")) as channel:
        try:
            answer = gateway_pb2_grpc.GatewayServiceStub(channel).SetChannelInstance(
                request, metadata=(("authorization", f"Bearer {token}"),), timeout=30
            )
        except grpc.RpcError as exc:
            print(f"balcao seed-demo: {exc.code().name}: {exc.details()}", file=sys.stderr)  # type: ignore[attr-defined]
            return 1
    if answer.refusal_pt:
        print(f"balcao seed-demo: a instância não foi configurada: {answer.refusal_pt}", file=sys.stderr)
        return 1
    webhook = {
        "webhook": {
            "enabled": True,
            "url": answer.instance.webhook_url,
            "byEvents": False,
            "base64": False,
            "headers": {"jwt_key": secret},
            "events": ["MESSAGES_UPSERT"],
        }
    }
    print(f"Instância {args.evolution_instance!r} ligada à clínica ({args.evolution_url}).")
    print("Configure o webhook no Evolution (2.3+; em versões antigas use o cabeçalho x-balcao-webhook-secret):")
    endpoint = f"{args.evolution_url.rstrip('/')}/webhook/set/{args.evolution_instance}"
    print(f"  POST {endpoint}  (apikey: a chave da instância)")
    print("  " + json.dumps(webhook, ensure_ascii=False))
    return 0


def cmd_chat(args: argparse.Namespace) -> int:
    import grpc

    from balcao.chat import ChatError, run

    token = _token("admin", "balcao chat")
    if token is None:
        return 2
    try:
        return run(
            gateway_address=_peer_address("gateway"),
            crm_address=_peer_address("crm"),
            token=token,
            organization=args.org,
            phone=args.phone,
            say=args.say,
            as_json=args.json,
            explain=args.explain,
        )
    except ChatError as exc:
        print(f"balcao chat: {exc}", file=sys.stderr)
        return 1
    except grpc.RpcError as exc:
        print(f"balcao chat: {exc.code().name}: {exc.details()}", file=sys.stderr)  # type: ignore[attr-defined]
        return 1


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

    report = sub.add_parser("report", help="read-only measurements of the installation")
    report.add_argument("name", choices=["summary-p95"])
    report.add_argument("--json", action="store_true", help="one JSON object instead of the table")
    report.set_defaults(func=cmd_report)

    seed_demo = sub.add_parser("seed-demo", help="create the demo clinic")
    seed_demo.add_argument("--evolution-url", help="wire the clinic's WhatsApp to this Evolution API base URL")
    seed_demo.add_argument("--evolution-instance", help="the Evolution instance name (with --evolution-url)")
    seed_demo.add_argument("--evolution-api-key", help="the instance's token, not the global key")
    seed_demo.add_argument("--webhook-secret", help="the webhook secret / jwt_key (default: a new random one)")
    seed_demo.set_defaults(func=cmd_seed_demo)

    chat = sub.add_parser("chat", help="talk to the agent from the terminal")
    chat.add_argument("--org", required=True, help="organisation id, or a word of its name (demo)")
    chat.add_argument("--phone", required=True, help="the customer's phone (+5511…)")
    chat.add_argument("--explain", action="store_true", help="show the declaração, the vetoes and the trace id")
    chat.add_argument("--say", help="send one message, print the reply and exit")
    chat.add_argument("--json", action="store_true", help="with --say: print one JSON object")
    chat.set_defaults(func=cmd_chat)

    args = parser.parse_args(argv)
    return int(args.func(args))


if __name__ == "__main__":
    raise SystemExit(main())
