"""``python -m bot``: the same as the ``mafia-referee`` command."""

from .cli import main

raise SystemExit(main())
