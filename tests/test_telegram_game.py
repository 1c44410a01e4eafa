"""A judge's whole game in Telegram: the real PTB Application over HTTP against the fake Bot API.

The judge records the game from his private chat, mostly by the panel's buttons, sometimes by
typed commands; the club's group, linked with /link, gets the announcements. The story is the
shipped demo's (bot/demo/club_game.txt): fouls up to a removal (seed 4.4, 4.5, 5.1), nominations,
a tie and a revote (F24 §4.4.12), a raise vote (§4.4.12.3), nights with shots, checks and a best
move (§4.5), the result (§1.4). The checks are what the rules say must be announced, and that
nothing role-revealing reached the group before the end (F24 §4.4.13, §4.5.4).
"""

from __future__ import annotations

from pathlib import Path
from typing import AsyncIterator

import pytest

import rules
from bot.i18n import catalog
from bot.render import notice_text
from fakebot import FakeBotAPI
from rules import Cause, Phase, Team
from test_telegram_support import RU_SECRETS, Table, table


pytestmark = pytest.mark.usefixtures("ptb_timedelta")  # PTB gives retry_after as a timedelta



@pytest.fixture
async def t(fake: FakeBotAPI, tmp_path: Path) -> AsyncIterator[Table]:
    async with table(fake, tmp_path / "referee.sqlite3") as running_table:
        yield running_table


async def nexts(t: Table, count: int) -> None:
    for _ in range(count):
        await t.press("Далее ▶")


async def foul(t: Table, seat: int, code: str) -> None:
    """Фол ▸ → the seat → the reason (seed 4.1)."""
    await t.press("Фол ▸")
    await t.press(str(seat))
    await t.press(code)


async def nominate(t: Table, target: int) -> None:
    await t.press("Выставить ▸")
    await t.press(str(target))


async def setup_club_game(t: Table) -> None:
    """/new, the names typed, the group linked, the roles by the picker: Don 2, mafia 5 and 7,
    Sheriff 8 (R1.1), then night 0 and the morning of day 1."""
    await t.say("/new")
    names = ("Анна", "Борис", "Вера", "Глеб", "Дина", "Егор", "Жанна", "Захар", "Ирина", "Кирилл")
    for seat, name in enumerate(names, 1):
        await t.say(f"/name {seat} {name}")
    await t.say("/link", chat=t.group)
    await t.press("Роли ▸")
    for seat in ("2", "5", "7", "8"):
        await t.press(seat)
    await t.press("Принято ✓")
    state = await t.state()
    assert [state.seat(n).role.value for n in (2, 5, 7, 8)] == ["don", "mafia", "mafia", "sheriff"]
    await t.press("Начать игру ▶")
    await t.press("Далее ▶ (утро)")
    assert (await t.state()).speaker == 1  # F24 §4.3.2: seat 1 opens day 1


async def test_a_whole_game_from_the_phone(t: Table) -> None:
    await setup_club_game(t)
    judge = t.judge

    # --- Day 1 ---------------------------------------------------------------------------------
    await foul(t, 4, "4.1.1")
    await t.press("Далее ▶")  # #2 speaks
    await nominate(t, 3)
    await t.say("/foul 4 4.1.3")  # typed, as the judge may
    await t.press("Далее ▶")  # #3
    await nominate(t, 5)
    await foul(t, 4, "4.1.1")  # the 3rd foul: silence at his nearest speech (seed 4.4)
    assert any("№4 получает третий фол" in x and "может выставить кандидатуру" in x for x in t.public())
    await t.press("Далее ▶")  # #4's minute: silent, 0 s, but he may nominate
    state = await t.state()
    assert state.speaker == 4 and state.seconds == 0
    assert any("№4 лишается слова в эту минуту" in x for x in t.public())
    await nominate(t, 7)
    await nexts(t, 7)  # #4 … #10 end their speeches: the vote begins
    state = await t.state()
    assert state.phase is Phase.VOTING and state.ballot.candidates == [3, 5, 7]
    await t.press("4")  # 4 hands against #3
    await t.press("4")  # 4 against #5; the 2 left go to #7 (F24 §4.4.8)
    assert (await t.state()).phase is Phase.TIE_SPEECH  # #3 and #5 tied (F24 §4.4.12)
    await nexts(t, 2)
    await t.press("3")  # the revote: 3 against #3, the other 7 to #5
    assert (await t.state()).seat(5).departure.cause is Cause.VOTE
    await t.press("Далее ▶")  # #5's last word
    assert any(x.startswith("Наступает ночь") for x in t.public())

    # --- Night 1: the shots typed, the checks and the best move by buttons -----------------------
    await t.say("/shots 2:1 7:1")
    await t.press("8")  # the Don checks #8: the Sheriff
    await t.press("2")  # the Sheriff checks #2: black
    for seat in ("2", "7", "10"):  # #1's best move (F24 §4.5.9)
        await t.press(seat)
    await t.press("Принято ✓")
    private = "\n".join(t.private())
    assert "Дон проверяет игрока №8: Шериф." in private
    assert "Шериф проверяет игрока №2: чёрная карта." in private
    assert "угадано чёрных — 2" in private

    # --- Day 2: a tie, the same tie again, the raise vote -----------------------------------------
    await t.press("Далее ▶")  # #1's last word
    await nominate(t, 9)  # #2 nominates #9
    await nexts(t, 5)  # #2, #3, #4, #6, #7
    await nominate(t, 2)  # #8 nominates #2
    await nexts(t, 3)  # #8, #9, #10
    await t.press("4")  # 4 against #9, 4 to #2
    await nexts(t, 2)
    await t.press("4")
    state = await t.state()
    assert state.phase is Phase.RAISE_VOTE and state.raise_candidates == [9, 2]
    await t.press("5")  # 5 of 8: more than half, both leave (F24 §4.4.12.3)
    assert any("По итогам голосования за подъём игру покидают игроки №9, №2" in x for x in t.public())
    await nexts(t, 2)  # the last words

    # --- Night 2: a miss; the Don is gone, the judge skips his check ------------------------------
    await t.press("Промах")
    await t.press("Пропустить ▶")
    await t.press("7")

    # --- Day 3: the 4th foul during the vote cancels it (seed 4.5, 5.1) ---------------------------
    await nexts(t, 3)
    await nominate(t, 8)
    await t.press("Далее ▶")
    await nominate(t, 7)
    await nexts(t, 2)
    assert (await t.state()).phase is Phase.VOTING
    await foul(t, 4, "4.1.7")
    state = await t.state()
    assert state.seat(4).departure.cause is Cause.FOULS and state.phase is Phase.NIGHT
    public = t.public()
    assert any("№4 покидает игру без последнего слова: четвёртый фол (4.5)" in x for x in public)
    assert any("не проводится (5.1)" in x for x in public)

    # --- Night 3 and day 4 -----------------------------------------------------------------------
    await t.press("8")  # #7 kills the Sheriff
    await t.press("Пропустить ▶")
    await t.press("Пропустить ▶")
    await t.press("Далее ▶")  # #8's last word
    await nominate(t, 7)
    await t.press("Далее ▶")
    await nominate(t, 10)
    await nexts(t, 3)
    await t.say("/vote 7 3,6,10")  # the voters named (F24 §4.4.5); the 1 left goes to #10
    await t.press("Далее ▶")  # #7's last word; the result was fixed by the vote (F24 §7.9)

    # --- the result ----------------------------------------------------------------------------
    state = await t.state()
    assert state.phase is Phase.GAME_OVER and state.result.winner is Team.RED
    public = t.public()
    over = next(i for i, x in enumerate(public) if x.startswith("Игра окончена"))
    assert "Победа красных" in public[over] and "Роли:" in public[over]
    panel = t.panel()
    assert "Итоги игры" in (panel.text or "") and panel.button("Новая игра")

    # nothing role-revealing reached the group before the end: no role word, no check answer,
    # and no private notice's text (every version of every message, timer edits included)
    cat = catalog("ru")
    _, notices = rules.fold(state.config, await t.service.events(f"tg:{judge.id}"),
                            {s.number: s.name for s in state.seats if s.name})
    secrets = [notice_text(n, cat) for n in notices if n.private]
    assert secrets and all(s for s in secrets)
    for text in public[:over]:
        for word in RU_SECRETS:
            assert word not in text, (word, text)
        for secret in secrets:
            assert secret not in text, (secret, text)
    # and the private chat got every private notice
    private = "\n".join(t.private())
    for secret in secrets:
        assert secret in private


async def test_one_message_per_action_in_each_chat(t: Table) -> None:
    """Flood limits: an action posts ONE combined message to the judge and one to the group,
    however many notices it has (RULES.md §4 step 0: nobody nominated, no vote; night falls)."""
    await setup_club_game(t)

    def notice_sends(chat: int) -> int:  # sendMessage without a keyboard: not a panel
        return sum(1 for c in t.fake.calls_to("sendMessage")
                   if c.params.get("chat_id") == chat and "reply_markup" not in c.params)

    group_before, private_before = notice_sends(t.group.id), notice_sends(t.judge.id)
    await nexts(t, 10)  # ten speeches end; the last Next also ends the day
    assert notice_sends(t.group.id) - group_before == 10
    assert notice_sends(t.judge.id) - private_before == 10
    last = t.fake.sent(t.group)[-1].texts[0] or ""
    assert "Голосование не проводится: кандидатур нет." in last and "Наступает ночь." in last


async def test_the_panel_is_edited_in_place_while_recent(t: Table) -> None:
    await setup_club_game(t)
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
