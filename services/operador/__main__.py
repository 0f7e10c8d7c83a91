"""`python -m services.operador`: the same as `balcao serve operador`."""

from balcao.cli import main

raise SystemExit(main(["serve", "operador"]))
