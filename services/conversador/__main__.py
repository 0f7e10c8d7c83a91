"""`python -m services.conversador`: the same as `balcao serve conversador`."""

from balcao.cli import main

raise SystemExit(main(["serve", "conversador"]))
