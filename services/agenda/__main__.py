"""`python -m services.agenda`: the same as `balcao serve agenda`."""

from balcao.cli import main

raise SystemExit(main(["serve", "agenda"]))
