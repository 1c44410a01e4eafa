"""The judge's panel in Telegram: the real PTB Application over HTTP against the fake Bot API.

The whole game runs on both platforms in test_judge_game.py; here is what is Telegram's own: the
panel is one message edited in place while it is recent, and reposted at the bottom otherwise.
"""

from __future__ import annotations

from pathlib import Path
from typing import AsyncIterator

import pytest

from fakebot import FakeBotAPI
from support.judging import TelegramJudging, setup_club_game
from support.telegram_table import Table, table

pytestmark = pytest.mark.usefixtures("ptb_timedelta")  # PTB gives retry_after as a timedelta


@pytest.fixture
async def t(fake: FakeBotAPI, tmp_path: Path) -> AsyncIterator[Table]:
    async with table(fake, tmp_path / "referee.sqlite3") as running_table:
        yield running_table


async def test_the_panel_is_edited_in_place_while_recent(t: Table) -> None:
    await setup_club_game(TelegramJudging(t))
    panel = t.panel()
    await t.press("Фол ▸")
    await t.press("6")
    assert t.panel().message_id == panel.message_id  # views are edits of the same message
    assert "Игрок №6 Егор" in (t.panel().text or "")
    await t.press("← Назад")
    await t.press("← Назад")
    assert t.panel().message_id == panel.message_id
    await t.say("/status")  # a fresh panel at the bottom; the old one loses its keyboard
    fresh = t.panel()
    assert fresh.message_id > panel.message_id
    assert t.fake.message(t.judge, panel.message_id).buttons == []
