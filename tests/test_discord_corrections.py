"""The judge's corrections on Discord, over the fake Discord: the audit trail (``/log scope:all``:
every action, who recorded it and when, what was undone and by whom; the judge's eyes only) and
``/fix`` (an earlier action replaced, the rest of the log replayed over it)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from support.discord_table import table

WHEN = r"<t:\d+:T>"  # Discord shows it in each reader's own time zone


async def test_log_all_shows_the_undone_actions_with_their_authors(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with table(tmp_path / "db.sqlite3", monkeypatch) as t:
        await t.slash("new")
        await t.slash("roles", roles="D2 M5 M7 S8")
        await t.slash("start")
        await t.slash("foul", seat=4, reason="4.1.3")
        await t.slash("undo")
        await t.slash("log", scope="all")
        judge = f"<@{t.judge['id']}>"
        trail = [re.sub(WHEN, "T", x) for x in t.dm()[-1].splitlines()[1:]]
        assert trail == [f"1. T · {judge} · /roles D2 M5 M7 S8", f"2. T · {judge} · /start",
                         f"3. T · {judge} · /foul 4 4.1.3 — отменено действием 4 ({judge}, T)",
                         f"4. T · {judge} · ↩ отмена действия 3"]
        assert not [x for x in t.public() if "/foul" in x]  # the channel never sees it
