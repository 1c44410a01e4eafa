"""A judge's whole game in Discord: the real discord.py client fed Discord's interaction payloads,
over the fake REST API (support.discord_table).

The judge records the game from his phone: the panel in his direct messages, mostly by its
buttons, sometimes by slash commands in the game's channel; the channel gets the announcements,
a linked club channel the result and the protocol. The story is the shipped demo's
(bot/demo/club_game.txt), as in the Telegram test: fouls up to a removal (seed 4.4, 4.5, 5.1),
nominations, a tie and a revote (F24 §4.4.12), a raise vote (§4.4.12.3), nights with shots,
checks and a best move (§4.5), the result (§1.4). The checks are what the rules say must be
announced, and that nothing role-revealing reached a channel before the end (F24 §4.4.13, §4.5.4).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import AsyncIterator

import pytest

import rules
from bot.i18n import catalog
from bot.protocol import from_json
from bot.render import notice_text
from rules import Cause, Phase, Team
from support.discord_table import CLUB_ID, TABLE_ID, DiscordTable, table, wait_for

# Role words and check answers that must never reach a channel before the end (F24 §4.4.13,
# §4.5.4); the same list as the Telegram tests'.
RU_SECRETS = ("Роли:", "Дон — №", "мафия — №", "Шериф — №", "мирный", ": Шериф.", "не Шериф",
              "чёрный.", "красный.", "Стрельба", "Выстрелы", "угадано", "Причина удаления",
              "Результат определён")
NAMES = ("Анна", "Борис", "Вера", "Глеб", "Дина", "Егор", "Жанна", "Захар", "Ирина", "Кирилл")


@pytest.fixture
async def t(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[DiscordTable]:
    async with table(tmp_path / "referee.sqlite3", monkeypatch) as running_table:
        yield running_table


async def nexts(t: DiscordTable, count: int) -> None:
    for _ in range(count):
        await t.press("Далее ▶")


async def foul(t: DiscordTable, seat: int, code: str) -> None:
    """Фол ▸ → the seat → the reason (seed 4.1)."""
    await t.press("Фол ▸")
    await t.press(str(seat))
    await t.press(code)


async def nominate(t: DiscordTable, target: int) -> None:
    await t.press("Выставить ▸")
    await t.press(str(target))


async def setup_club_game(t: DiscordTable) -> None:
    """/new in the channel, the names by /name, the club channel linked, the roles by the
    picker in the DMs: Don 2, mafia 5 and 7, Sheriff 8 (R1.1); night 0 and day 1's morning."""
    answer = await t.slash("new")
    assert "Игра №1 создана" in answer
    for seat, name in enumerate(NAMES, 1):
        await t.slash("name", seat=seat, name=name)
    assert "Итоги этой игры пойдут ещё и в" in await t.slash("link", channel=CLUB_ID)
    await t.press("Роли ▸")
    for seat in ("2", "5", "7", "8"):
        await t.press(seat)
    await t.press("Принято ✓")
    state = await t.state()
    assert [state.seat(n).role.value for n in (2, 5, 7, 8)] == ["don", "mafia", "mafia", "sheriff"]
    await t.press("Начать игру ▶")
    await t.press("Далее ▶ (утро)")
    assert (await t.state()).speaker == 1  # F24 §4.3.2: seat 1 opens day 1


async def test_a_whole_game_from_the_phone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    async with table(tmp_path / "referee.sqlite3", monkeypatch, protocol=True) as t:
        await setup_club_game(t)

        # --- Day 1 -----------------------------------------------------------------------------
        await foul(t, 4, "4.1.1")
        await t.press("Далее ▶")  # #2 speaks
        await nominate(t, 3)
        assert "Готово" in await t.slash("foul", seat=4, reason="4.1.3")  # typed, as the judge may
        await t.press("Далее ▶")  # #3
        await nominate(t, 5)
        await foul(t, 4, "4.1.1")  # the 3rd foul: silence at his nearest speech (seed 4.4)
        assert any("№4 получает третий фол" in x and "может выставить кандидатуру" in x
                   for x in t.public())
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

        # --- Night 1: the shots by a slash command, the checks and the best move by buttons ------
        await t.slash("shots", shots="2:1 7:1")
        await t.press("8")  # the Don checks #8: the Sheriff
        await t.press("2")  # the Sheriff checks #2: black
        for seat in ("2", "7", "10"):  # #1's best move (F24 §4.5.9)
            await t.press(seat)
        await t.press("Принято ✓")
        private = "\n".join(t.dm())
        assert "Дон проверяет игрока №8: Шериф." in private
        assert "Шериф проверяет игрока №2: чёрный." in private
        assert "угадано чёрных — 2" in private

        # --- Day 2: a tie, the same tie again, the raise vote ------------------------------------
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
        assert any("По итогам голосования за подъём игру покидают игроки №9, №2" in x
                   for x in t.public())
        await nexts(t, 2)  # the last words

        # --- Night 2: a miss; the Don is gone, the judge skips his check ---------------------------
        await t.press("Промах")
        await t.press("Пропустить ▶")
        await t.press("7")

        # --- Day 3: the 4th foul during the vote cancels it (seed 4.5, 5.1) -------------------------
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

        # --- Night 3 and day 4 ---------------------------------------------------------------------
        await t.press("8")  # #7 kills the Sheriff
        await t.press("Пропустить ▶")
        await t.press("Пропустить ▶")
        await t.press("Далее ▶")  # #8's last word
        await nominate(t, 7)
        await t.press("Далее ▶")
        await nominate(t, 10)
        await nexts(t, 3)
        await t.slash("vote", nominee=7, hands="3,6,10")  # the voters named (F24 §4.4.5)
        await t.press("Далее ▶")  # #7's last word; the result was fixed by the vote (F24 §7.9)

        # --- the result ----------------------------------------------------------------------------
        state = await t.state()
        assert state.phase is Phase.GAME_OVER and state.result.winner is Team.RED
        public = t.public()
        over = next(i for i, x in enumerate(public) if x.startswith("Игра окончена"))
        assert "Победа красных" in public[over] and "Роли:" in public[over]
        panel = t.panel()
        assert "Итоги игры" in panel.text and panel.button("Новая игра")

        # the protocol: the score sheet and our JSON, in the game's channel, the club's and the
        # judge's direct messages (drawn after the press is answered: waited for)
        judge_dm = t.fake.dms[int(t.judge["id"])]
        for channel in (TABLE_ID, CLUB_ID, judge_dm):
            await wait_for(lambda c=channel: any(m.files for m in t.fake.in_channel(c)),
                           timeout=60, what=f"the protocol in {channel}")
            last = [m for m in t.fake.in_channel(channel) if m.files][-1]
            assert sorted(last.files) == ["game-1.json", "game-1.png"], channel
            assert last.files["game-1.png"].startswith(b"\x89PNG")
            config, names, events = from_json(json.loads(last.files["game-1.json"]))
            assert names[1] == "Анна" and rules.fold(config, events, names)[0].result.winner is Team.RED
        club = t.public(CLUB_ID)
        assert "Победа красных" in club[-1] and "Роли:" in club[-1]

        # nothing role-revealing reached a channel before the end: no role word, no check answer,
        # no private notice's text (every version of every message, timer edits included)
        cat = catalog("ru")
        _, notices = rules.fold(state.config, await t.service.events(t.home),
                                {s.number: s.name for s in state.seats if s.name})
        secrets = [notice_text(n, cat) for n in notices if n.private]
        assert secrets and all(secrets)
        for text in public[:over] + club[:-1]:
            for word in RU_SECRETS:
                assert word not in text, (word, text)
            for secret in secrets:
                assert secret not in text, (secret, text)
        # and the judge's DMs got every private notice
        private = "\n".join(t.dm())
        for secret in secrets:
            assert secret in private


async def test_one_message_per_action_in_each_place(t: DiscordTable) -> None:
    """Rate limits: an action posts ONE combined message to the judge and one to the channel,
    however many notices it has (RULES.md §4 step 0: nobody nominated, no vote; night falls)."""
    await setup_club_game(t)
    dm = t.fake.dms[int(t.judge["id"])]

    def posts(channel: int) -> int:  # messages without buttons: not a panel
        return sum(1 for m in t.fake.in_channel(channel) if not m.versions[0].embeds)

    channel_before, dm_before = posts(TABLE_ID), posts(dm)
    await nexts(t, 10)  # ten speeches end; the last Next also ends the day
    assert posts(TABLE_ID) - channel_before == 10
    assert posts(dm) - dm_before == 10
    last = t.fake.in_channel(TABLE_ID)[-1].now.content
    assert "Голосование не проводится: никто не выставлен." in last and "Наступает ночь." in last
    assert posts(CLUB_ID) == 1  # the club channel got only the link's note: results come at the end


async def test_views_edit_the_panel_in_place_and_actions_move_it_down(t: DiscordTable) -> None:
    await setup_club_game(t)
    panel = t.panel()
    await t.press("Фол ▸")
    await t.press("6")
    assert t.panel().id == panel.id  # views are the press's own update of the same message
    assert "Игрок №6 Егор" in t.panel().text
    assert t.fake.replies[-1].kind == "update"
    await t.press("← Назад")
    await t.press("← Назад")
    assert t.panel().id == panel.id
    await t.press("Далее ▶")  # a notice is posted below: the panel follows it to the bottom
    fresh = t.panel()
    assert fresh.id > panel.id and t.fake.messages[panel.id].deleted
    assert t.fake.in_channel(fresh.channel_id)[-1].id == fresh.id
    assert await t.slash("panel") == "Пульт судьи — в ваших личных сообщениях."
    assert t.panel().id > fresh.id and t.fake.messages[fresh.id].deleted


async def test_every_panel_fits_discord(t: DiscordTable) -> None:
    """Each panel message the bot sent holds at most 5 rows of at most 5 buttons, unique
    custom_ids of at most 100 characters shaped game:revision:action (Discord's limits)."""
    await setup_club_game(t)
    await foul(t, 4, "4.1.1")
    await t.press("Фол ▸")
    await t.press("4")
    await t.press("Дисквалификация ▸")
    await t.press("← Назад")
    await t.press("← Назад")
    await t.press("← Назад")
    await nexts(t, 10)  # night 1: the shooting's seats
    for message in t.fake.messages.values():
        for version in message.versions:
            rows = version.components
            assert len(rows) <= 5
            ids = [b["custom_id"] for row in rows for b in row["components"]]
            assert all(len(row["components"]) <= 5 for row in rows)
            assert len(ids) == len(set(ids))
            assert all(len(i) <= 100 and i.startswith("1:") for i in ids)
