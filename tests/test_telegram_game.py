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


def judge_calls(t: Table, since: int) -> list[str]:
    """The Bot API calls made since call ``since`` to the judge's chat (and every press's answer)."""
    return [c.method for c in t.fake.calls[since:]
            if c.params.get("chat_id") == t.judge.id or c.method == "answerCallbackQuery"]


async def test_an_action_is_one_call_to_the_judge_its_notices_on_the_panel(t: Table) -> None:
    """Issue 16: the judge's panel carries the action's notices at its top, so an action costs
    one Bot API call in his chat — the panel's edit (a press: plus the press's answer) — while
    the group still gets its announcement."""
    await setup_club_game(TelegramJudging(t))
    await t.say("/status")  # the panel afresh at the bottom
    panel = t.panel()
    since, group = len(t.fake.calls), len(t.public())
    await t.press("Далее ▶")  # #1's speech ends, #2 speaks
    assert judge_calls(t, since) == ["answerCallbackQuery", "editMessageText"]
    said = t.public()[-1].split("\n\n")[0]  # the group's announcement, its timer line aside
    assert len(t.public()) == group + 1 and "№2" in said
    assert (t.panel().text or "").split("\n\n")[0] == said
    since = len(t.fake.calls)
    await t.say("/foul 3 4.1.1")  # typed: the panel, three messages up at most, edited
    assert judge_calls(t, since) == ["editMessageText"]
    assert t.panel().message_id == panel.message_id
    assert (t.panel().text or "").split("\n\n")[0].startswith("Игроку №3 — фол")
    since = len(t.fake.calls)
    await t.say("/undo")  # an undo's correction is the panel's first lines too
    assert judge_calls(t, since) == ["editMessageText"]
    assert (t.panel().text or "").startswith("↩")


async def test_a_stale_press_does_not_write_the_panel_again(t: Table) -> None:
    """Issue 16: a press from before the last action (an old client's button) is answered
    "outdated" and re-shows the panel; when the panel already reads exactly that, no edit is
    made — the answer is the one call. A press that changes the panel still edits it."""
    await setup_club_game(TelegramJudging(t))
    await t.say("/status")
    stale = t.panel().callback_data("Далее ▶")
    await t.press("Далее ▶")  # the revision moves on: the panel is edited
    shown = t.panel().text
    since = len(t.fake.calls)
    await t.press(data=stale, strict=False)
    assert judge_calls(t, since) == ["answerCallbackQuery"]
    assert t.panel().text == shown
    since = len(t.fake.calls)
    await t.press("Фол ▸")  # another view of the panel: written
    assert judge_calls(t, since) == ["editMessageText", "answerCallbackQuery"]
    since = len(t.fake.calls)
    await t.press(data=stale, strict=False)  # back to the main view: written again
    assert judge_calls(t, since) == ["answerCallbackQuery", "editMessageText"]
    assert t.panel().text == shown


async def test_a_judge_action_reads_the_game_once(t: Table, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 16: each read of the current game copied its state; a typed action or a press
    reads it once (the command's parse, the revision check and the action share it), and
    without a copy (the service's own state, read only: an action makes a new one)."""
    await setup_club_game(TelegramJudging(t))
    service = t.referee.service
    reads: list[bool] = []
    read = service.current

    async def counted(chat: str, *, copy: bool = True) -> object:
        reads.append(copy)
        return await read(chat, copy=copy)

    monkeypatch.setattr(service, "current", counted)
    await t.say("/foul 3 4.1.1")
    assert reads == [False]
    reads.clear()
    await t.press("Далее ▶")
    assert reads == [False]
    assert (await t.state()).speaker == 2


async def test_a_removal_is_also_a_message_to_the_judge(t: Table) -> None:
    """A player removed by a penalty (the 4th foul, seed 4.5) must be taken from the table by the
    judge: that line alone also comes as a message of its own (a notification; an edit makes
    none), the rest of the action stays on the panel."""
    await setup_club_game(TelegramJudging(t))
    for _ in range(3):
        await t.say("/foul 3 4.1.1")
    pings = [c for c in t.fake.calls_to("sendMessage")
             if c.params.get("chat_id") == t.judge.id and "reply_markup" not in c.params]
    await t.say("/foul 3 4.1.1")  # the 4th: removed
    new = [c for c in t.fake.calls_to("sendMessage")
           if c.params.get("chat_id") == t.judge.id and "reply_markup" not in c.params][len(pings):]
    assert len(new) == 1
    line = new[0].params["text"]
    assert "№3" in line and "\n" not in line
    assert line in (t.panel().text or "")
    assert (await t.state()).seat(3).departure is not None
