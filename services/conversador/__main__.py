"""`python -m services.conversador`: the same as `balcao serve conversador`.

It starts the service directly rather than through `balcao.cli`: the CLI reaches every part
of the mesh (demo data, crm and agenda stubs), and the Conversador's import graph must not.
"""

import sys

from balcao.kit.server import run, run_loop
from balcao.kit.settings import SettingsError, load_settings
from services.conversador.config import Settings
from services.conversador.server import build

try:
    settings = load_settings(Settings)
except SettingsError as exc:
    print(f"balcao conversador: {exc.message}", file=sys.stderr)
    raise SystemExit(2) from None
run_loop(run("conversador", settings, build))
