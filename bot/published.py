"""What this bot last published to a platform, remembered beside the database so that a restart
publishes nothing that did not change.

Telegram's command menus (``setMyCommands``, a call per scope and language) and Discord's slash
commands (an overwrite per scope, against a daily limit) stay on the platform until they are
overwritten: publishing them at every start only slows the start (a dozen calls before the bot
answers anyone) and spends the platform's limits. A small JSON file beside the database holds a
digest per key (``<db>.<kind>.json``); delete it to force a publish. With a PostgreSQL database
(issue 18) there is no file to sit beside: the digests go to the system's temporary folder, under
a name made of the database's URL (a worker on a fresh machine publishes once)."""

from __future__ import annotations

import hashlib
import json
import logging
from pathlib import Path
from typing import Any

log = logging.getLogger(__name__)


def state_file(db: Path, kind: str) -> Path:
    """Where the digests of what was published (``kind``: ``commands``, ``menus``) are kept."""
    from storage import is_url
    from storage.pg import normal_url

    if is_url(db):
        import tempfile

        name = hashlib.sha256(normal_url(db).encode()).hexdigest()[:16]
        return Path(tempfile.gettempdir()) / f"mafia-referee-{name}.{kind}.json"
    return db.with_name(f"{db.name}.{kind}.json")


def digest(payload: Any) -> str:
    """A stable digest of a JSON-like ``payload`` (key order does not matter)."""
    text = json.dumps(payload, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def read(path: Path) -> dict[str, str]:
    """The digests remembered in ``path`` (none if it is missing or unreadable)."""
    try:
        data = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError):
        return {}
    return {str(k): str(v) for k, v in data.items()} if isinstance(data, dict) else {}


def write(path: Path, digests: dict[str, str]) -> None:
    """Remember ``digests``; a failure is a warning (the next start publishes again: harmless)."""
    try:
        path.write_text(json.dumps(digests, sort_keys=True, indent=1) + "\n", "utf-8")
    except OSError as error:
        log.warning("cannot remember what was published in %s: %s", path, error)
