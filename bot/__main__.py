"""``python -m bot``: the same as the ``mafia-referee`` command."""

from .entry import run

raise SystemExit(run())
