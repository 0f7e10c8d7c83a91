"""`python -m services.gateway`: the same as `balcao serve gateway`."""

from balcao.cli import main

raise SystemExit(main(["serve", "gateway"]))
