"""`python -m services.crm`: the same as `balcao serve crm`."""

from balcao.cli import main

raise SystemExit(main(["serve", "crm"]))
