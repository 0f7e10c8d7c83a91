"""`python -m services.seguranca`: the same as `balcao serve seguranca`."""

from balcao.cli import main

raise SystemExit(main(["serve", "seguranca"]))
