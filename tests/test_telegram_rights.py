"""Who may change a game in Telegram, and what a refused, stale or repeated press does: nothing.

Only the game's judge changes it; a chat admin may take it over explicitly (the old judge is told);
every other press or command gets a short refusal. The revision travels in the callback data, so a
stale press, or the second of two identical presses, changes nothing (ENGINEERING.md §1)."""

from __future__ import annotations

from pathlib import Path
from typing import AsyncIterator

import pytest

import rules
from bot.judge.callbacks import decode
from fakebot import FakeBotAPI
from rules import Phase
from support.telegram_table import Table, linked_day_one


pytestmark = pytest.mark.usefixtures("ptb_timedelta")  # PTB gives retry_after as a timedelta


@pytest.fixture
async def t(fake: FakeBotAPI, tmp_path: Path) -> AsyncIterator[Table]:
    async with linked_day_one(fake, tmp_path / "referee.sqlite3") as running_table:
        yield running_table


async def snapshot(t: Table) -> tuple[rules.GameState, int]:
    return await t.state(), await t.log_length()


async def test_a_players_press_is_refused_and_changes_nothing(t: Table) -> None:
    before = await snapshot(t)
    panel = t.panel()
    player = t.players[1]
    data = panel.callback_data("Далее ▶")
    # a forged query (a player cannot see the judge's private panel): the alert, nothing else
    qid = await t.press(data=data, user=player, strict=False)
    answer = t.fake.callback_answers[qid]
    assert answer.show_alert and "только судья" in (answer.text or "")
    assert await snapshot(t) == before
    assert t.fake.message(t.judge, panel.message_id).text == panel.text  # no edit either


async def test_a_stale_press_changes_nothing_and_refreshes_the_panel(t: Table) -> None:
    panel = t.panel()
    stale = panel.callback_data("Далее ▶")
    await t.press("Далее ▶")  # #1's speech ends: the revision moves on
    before = await snapshot(t)
    assert before[0].speaker == 2
    qid = await t.press(data=stale, strict=False)  # an old client still shows the old button
    assert "устарела" in (t.fake.callback_answers[qid].text or "")
    assert not t.fake.callback_answers[qid].show_alert
    assert await snapshot(t) == before
    assert decode(t.panel().callback_data("Далее ▶")).revision == before[1]  # type: ignore[union-attr]


async def test_a_repeated_press_is_stale_by_construction(t: Table) -> None:
    """Two presses of the same button before the panel is edited: one Next, not two."""
    panel = t.panel()
    data = panel.callback_data("Далее ▶")
    before = t.processor.done
    first = t.fake.user_presses(t.judge, panel, data)
    second = t.fake.user_presses(t.judge, panel, data)  # the same button again, at once
    await t.fake.wait_for(lambda: t.processor.done >= before + 2)
    state = await t.state()
    assert state.speaker == 2 and await t.log_length() == 4  # roles, start, next, next
    answers = [t.fake.callback_answers[q].text for q in (first, second)]
    assert answers[0] is None and "устарела" in (answers[1] or "")


async def test_a_players_command_is_refused(t: Table) -> None:
    before = await snapshot(t)
    player = t.players[1]
    await t.say("/next", chat=t.group, user=player)
    await t.say("/foul 3", chat=t.group, user=player)
    assert t.fake.sent(t.group)[-1].text == "Это может делать только судья игры."
    # in his own private chat a player has no game: /next there starts nothing of the judge's
    await t.say("/undo", user=player)
    assert await snapshot(t) == before


async def test_the_judges_game_commands_in_the_group_are_sent_to_private(t: Table) -> None:
    before = await snapshot(t)
    await t.say("/next", chat=t.group)
    assert "личном чате" in (t.fake.sent(t.group)[-1].text or "")
    assert await snapshot(t) == before


async def test_another_bots_command_in_the_group_is_ignored(t: Table) -> None:
    count = len(t.fake.sent(t.group))
    await t.say("/weather", chat=t.group, user=t.players[1])
    assert len(t.fake.sent(t.group)) == count


async def test_an_admin_takes_the_game_over(t: Table) -> None:
    owner = t.players[0]  # the group's creator
    await t.press("Далее ▶")
    old_panel = t.panel()
    old_data = old_panel.callback_data("Далее ▶")
    before = await snapshot(t)
    # a plain member may not
    await t.say("/takeover", chat=t.group, user=t.players[1])
    assert "администратор" in (t.fake.sent(t.group)[-1].text or "")
    await t.say("/takeover", chat=t.group, user=owner)
    now = await t.service.current(f"tg:{owner.id}")
    assert now is not None and now.judge == f"tg:{owner.id}"
    assert (now.state, now.revision) == before  # nothing in the game changed
    # the old judge is told, and his panel no longer works
    assert any("теперь судит Владелец" in (m.text or "") for m in t.fake.sent(t.judge))
    assert all(not m.buttons for m in t.fake.sent(t.judge))
    assert "ведёт судья Владелец" in (t.fake.message(t.judge, old_panel.message_id).text or "")
    qid = await t.press(data=old_data, message=old_panel, strict=False)
    assert t.fake.callback_answers[qid].show_alert
    # the new judge's panel is in his private chat, and it works; the group still gets the news
    await t.press("Далее ▶", user=owner, message=t.panel(owner))
    assert (await t.service.current(f"tg:{owner.id}")).state.speaker == 3  # type: ignore[union-attr]
    assert any("Слово игроку №3" in x for x in t.public())
    assert any("теперь ведёт судья Владелец" in x for x in t.public())
    # the old judge's chat is free for a game of his own
    await t.say("/new")
    assert (await t.service.current(f"tg:{t.judge.id}")).revision == 0  # type: ignore[union-attr]


async def test_undo_posts_a_correction_to_both(t: Table) -> None:
    await t.press("Фол ▸")
    await t.press("3")
    await t.press("4.1.2")
    await t.press("Далее ▶")
    assert (await t.state()).speaker == 2
    group_count = len(t.fake.sent(t.group))
    await t.press("Отмена хода ↩")
    state = await t.state()
    assert state.speaker == 1 and state.seat(3).fouls == ["4.1.2"]
    correction = t.fake.sent(t.group)[-1].text or ""
    assert len(t.fake.sent(t.group)) == group_count + 1
    assert correction.startswith("↩ Поправка") and "Слово игроку №2" in correction
    assert "Сейчас: речь игрока №1." in correction
    assert "↩ Отменено 1 действие." in "\n".join(t.private())
    await t.say("/undo 1")  # typed; the foul goes too
    assert (await t.state()).seat(3).fouls == []
    assert "Игроку №3 — фол" in (t.fake.sent(t.group)[-1].text or "")


async def test_a_night_disqualification_keeps_its_reason_private(t: Table) -> None:
    """Seed 4.5 / RULES.md: at night the removal is announced without its reason."""
    for _ in range(10):
        await t.press("Далее ▶")
    assert (await t.state()).phase is Phase.NIGHT
    await t.say("/dq 6 4.2.5")
    public = t.fake.sent(t.group)[-1].text or ""
    assert "Игрок №6 удаляется и покидает игру без последнего слова (4.5)." in public
    assert "подглядывание" not in public and "4.2.5" not in public
    private = t.fake.sent(t.judge)
    assert any("Причина удаления игрока №6" in (m.text or "") and "4.2.5" in (m.text or "")
               for m in private)


async def test_the_group_language_is_its_own(t: Table) -> None:
    await t.say("/lang en", chat=t.group)  # the judge may
    assert t.fake.sent(t.group)[-1].text == "Language: English."
    await t.press("Далее ▶")
    assert "Player #2 speaks — 60 seconds." in (t.fake.sent(t.group)[-1].text or "")
    assert "№2" in "\n".join(t.private()[-3:])  # the judge's chat stays Russian
    await t.say("/lang ru", chat=t.group, user=t.players[1])  # a plain member may not: who may
    answer = (t.fake.sent(t.group)[-1].text or "").lower()
    assert "judge" in answer and "admin" in answer


async def test_a_players_lang_in_the_group_is_told_who_may(t: Table) -> None:
    """/lang in the group is the judge's or a chat admin's (the group's owner changes it): a
    player is told both, and nothing changes; the owner's is carried out."""
    await t.say("/lang en", chat=t.group, user=t.players[1])
    answer = t.fake.sent(t.group)[-1].text or ""
    assert "судья" in answer and "администратор" in answer
    await t.say("/status", chat=t.group, user=t.players[1])
    assert "Говорит" in (t.fake.sent(t.group)[-1].text or "")  # still Russian
    await t.say("/lang en", chat=t.group, user=t.players[0])  # the group's creator
    await t.say("/status", chat=t.group, user=t.players[1])
    assert "speaks" in (t.fake.sent(t.group)[-1].text or "")
