"""The judge's corrections on Telegram, over the fake Bot API: the audit trail (``/log all`` and
the panel's «Журнал» button: every action, who recorded it and when, what was undone and by whom)
and ``/fix`` (an earlier action replaced, the rest of the log replayed over it)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import AsyncIterator

import pytest

from fakebot import FakeBotAPI
from support.telegram_table import Table, table

pytestmark = pytest.mark.usefixtures("ptb_timedelta")  # PTB gives retry_after as a timedelta

CLOCK = r"\d\d:\d\d:\d\d"


@pytest.fixture
async def t(fake: FakeBotAPI, tmp_path: Path) -> AsyncIterator[Table]:
    async with table(fake, tmp_path / "referee.sqlite3") as running_table:
        await running_table.say("/new")
        await running_table.say("/roles D2 M5 M7 S8")
        await running_table.say("/link", chat=running_table.group)
        await running_table.press("Начать игру ▶")
        await running_table.press("Далее ▶ (утро)")
        yield running_table


async def test_log_all_shows_the_undone_actions_with_their_authors(t: Table) -> None:
    """The judge's foul is undone by him; an admin takes the game over, records a foul and undoes
    it: the trail names both judges, each action, each undo and what it took back."""
    judge, owner = f"tg:{t.judge.id}", f"tg:{t.players[0].id}"
    await t.say("/foul 3 4.1.2")  # 4
    await t.press("Отмена хода ↩")  # 5
    await t.say("/takeover", chat=t.group, user=t.players[0])
    await t.say("/foul 6", chat=t.players[0], user=t.players[0])  # 6
    await t.say("/undo", chat=t.players[0], user=t.players[0])  # 7
    await t.say("/log all", chat=t.players[0], user=t.players[0])
    trail = t.fake.sent(t.players[0])[-1].text or ""
    lines = trail.splitlines()[1:]
    assert [re.sub(CLOCK, "T", line) for line in lines] == [
        f"1. T · {judge} · /roles D2 M5 M7 S8", f"2. T · {judge} · /start", f"3. T · {judge} · /next",
        f"4. T · {judge} · /foul 3 4.1.2 — отменено действием 5 ({judge}, T)",
        f"5. T · {judge} · ↩ отмена действия 4",
        f"6. T · {owner} · /foul 6 foul — отменено действием 7 ({owner}, T)",
        f"7. T · {owner} · ↩ отмена действия 6",
    ]
    # the panel's button posts the same trail below the panel; the group never sees it
    await t.press("Журнал 📜", user=t.players[0], message=t.panel(t.players[0]))
    assert (t.fake.sent(t.players[0])[-1].text or "").splitlines()[1:] == lines
    assert not [x for x in t.public() if "/foul" in x or "отмена действия" in x]
