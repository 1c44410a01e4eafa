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
        # the panel's button posts the same trail in his direct messages
        before = len(t.dm())
        await t.press("Журнал 📜")
        assert [re.sub(WHEN, "T", x) for x in t.dm()[before].splitlines()[1:]] == trail
        assert not [x for x in t.public() if "/foul" in x]  # the channel never sees it


async def test_a_correction_three_actions_back_and_one_refused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """/fix action:5 command:/foul 5 4.1.2 moves a foul recorded three actions back: it is #5's
    third (seed 4.4). The judge reads what changed on his panel in his direct messages, the channel a short
    correction; a correction that would break a later action is refused, naming it."""
    async with table(tmp_path / "db.sqlite3", monkeypatch) as t:
        await t.slash("new")
        await t.slash("roles", roles="D2 M5 M7 S8")
        await t.slash("start")
        await t.slash("next")  # 3
        await t.slash("foul", seat=5)  # 4
        await t.slash("foul", seat=5)  # 5
        await t.slash("foul", seat=3, reason="4.1.2")  # 6
        await t.slash("nominate", target=4)  # 7
        await t.slash("next")  # 8
        await t.slash("next")  # 9
        channel = len(t.public())
        await t.slash("fix", action=6, command="/foul 5 4.1.2")
        state = await t.state()
        assert (len(state.seat(5).fouls), len(state.seat(3).fouls), state.speaker) == (3, 0, 3)
        assert any("✎ Исправлено действие 6: было «/foul 3 4.1.2», стало «/foul 5 4.1.2»." in x
                   for x in t.read())
        [correction] = [x for x in t.public()[channel:] if "Поправка судьи" in x]
        assert "+ Игрок №5 получает третий фол" in correction and "/foul" not in correction
        refusal = await t.slash("fix", action=4, command="/dq 5")
        assert refusal.startswith("Исправление не принято: с ним было бы невозможно действие 5")
        assert len(await t.service.events(t.home)) == 10
