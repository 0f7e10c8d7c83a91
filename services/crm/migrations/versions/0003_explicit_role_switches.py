"""Every organisation's settings carry both role switches explicitly.

Before this revision the settings were stored in the protobuf JSON mapping, which leaves a
`false` out: "the Conversador is off" and "nobody said" were the same bytes. Organisations
created with initial settings that did not mention `roles` read `conversador_enabled = false`
although their agent answered (no runtime read the flag, and the admin API refused to switch the
Conversador off), and `operador_enabled = false`, which the Operador did honour.

The rule, per switch, for a document where the switch is absent (under either its JSON name or
its proto name; a switch that is present is kept as it is):
- `conversadorEnabled` absent → true. Absent and a deliberate "off" cannot be told apart in the
  bytes, but neither ever took effect: every such organisation's agent answered its customers,
  so "on" is what the owner saw and keeps. Migrating it to "off" would silence assistants
  nobody asked to silence.
- `operadorEnabled` absent → false: the Operador read its flag before each closed turn, so "off"
  is what the organisation ran with. A migration never switches a model on behind the owner.
From here on crm always writes both switches (services/crm/organization_settings.to_document),
so a stored `false` is always a deliberate one. The settings version moves for every rewritten
document whose Conversador switch changed meaning (it read false, it reads true), so an edit
prepared against the old settings is refused (ABORTED) rather than applied over them.

The rows are rewritten one organisation at a time with the tenant setting of each: the tables
FORCE row-level security, which binds the migration's owner too when it is not a superuser.

Revision ID: crm_0003
Revises: crm_0002
Create Date: 2026-12-07
"""

import json
from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "crm_0003"
down_revision: str | None = "crm_0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

# (JSON name, proto name, the value an absent switch gets)
SWITCHES = (("conversadorEnabled", "conversador_enabled", True), ("operadorEnabled", "operador_enabled", False))


def explicit_roles(settings: dict[str, Any]) -> tuple[dict[str, Any], bool]:
    """The document with both switches written, and whether the Conversador's changed meaning."""
    roles = settings.get("roles")
    roles = dict(roles) if isinstance(roles, dict) else {}
    conversador_changed = False
    for json_name, proto_name, absent in SWITCHES:
        if json_name in roles or proto_name in roles:
            continue
        roles[json_name] = absent
        conversador_changed = conversador_changed or (json_name == "conversadorEnabled" and absent)
    return {**settings, "roles": roles}, conversador_changed


def upgrade() -> None:
    bind = op.get_bind()
    bind.execute(sa.text("SELECT set_config('balcao.scope', 'all', true)"))
    rows = bind.execute(sa.text("SELECT organization_id, settings FROM crm.organizations")).all()
    bind.execute(sa.text("SELECT set_config('balcao.scope', '', true)"))
    for organization_id, settings in rows:
        document = settings if isinstance(settings, dict) else json.loads(settings or "{}")
        rewritten, changed = explicit_roles(document)
        if rewritten == document:
            continue
        bind.execute(
            sa.text("SELECT set_config('balcao.organization_id', :org, true)"), {"org": str(organization_id)}
        )
        bind.execute(
            sa.text(
                "UPDATE crm.organizations SET settings = CAST(:settings AS jsonb), "
                "settings_version = settings_version + CASE WHEN :changed THEN 1 ELSE 0 END "
                "WHERE organization_id = :org"
            ),
            {"settings": json.dumps(rewritten), "changed": changed, "org": organization_id},
        )
    bind.execute(sa.text("SELECT set_config('balcao.organization_id', '', true)"))


def downgrade() -> None:
    # Nothing to undo: the explicit switches read the same under the previous code, except the
    # Conversador's `true`, which is what every such organisation's agent did anyway.
    pass
