"""`python -m services.projection`: the same as `balcao serve projection`."""

from balcao.cli import main

raise SystemExit(main(["serve", "projection"]))
