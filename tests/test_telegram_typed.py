"""Typed commands through the Telegram adapter end where the console ends.

The judge may type every action (`/foul 5 4.1.1`, `/nominate 3 7`, …) in his private chat; the
commands are the console's (bot/commands.py). Each script below is played twice — through the
real Application against the fake Bot API, and through the console's Session — and must end in the
same game state with the same log. Each script is also checked against the rule it is about."""

from __future__ import annotations

from pathlib import Path

import pytest

import rules
from bot import demo
from bot.console import CHAT, JUDGE, Session
from bot.i18n import catalog
from bot.service import Service
from fakebot import FakeBotAPI
from rules import Cause, Kind, Phase, Team
from storage import Store
from support.telegram_table import table


pytestmark = pytest.mark.usefixtures("ptb_timedelta")  # PTB gives retry_after as a timedelta



async def through_console(db: Path, lines: list[str]) -> tuple[rules.GameState, list[rules.Event], list[bool]]:
    store = await Store.open(db)
    try:
        service = Service(store)
        session = Session(service, catalog("ru"))
        accepted = [(await session.handle(line)).accepted for line in lines]
        current = await service.current(CHAT)
        assert current is not None and current.judge == JUDGE
        return current.state, await service.events(CHAT), accepted
    finally:
        await store.close()


async def through_telegram(fake: FakeBotAPI, db: Path,
                           lines: list[str]) -> tuple[rules.GameState, list[rules.Event]]:
    async with table(fake, db) as t:
        await t.say("/link", chat=t.group)  # refused (no game yet) and harmless
        for line in lines:
            await t.say(line)
        home = f"tg:{t.judge.id}"
        current = await t.service.current(home)
        assert current is not None
        return current.state, await t.service.events(home)


async def same_end(fake: FakeBotAPI, tmp_path: Path, lines: list[str]) -> rules.GameState:
    console_state, console_log, accepted = await through_console(tmp_path / "console.sqlite3", lines)
    tg_state, tg_log = await through_telegram(fake, tmp_path / "telegram.sqlite3", lines)
    assert tg_log == console_log
    assert tg_state == console_state
    return tg_state


def script(text: str) -> list[str]:
    return [line.strip() for line in text.strip().splitlines()
            if line.strip() and not line.strip().startswith("#")]


async def test_the_demo_game_typed_in_telegram(fake: FakeBotAPI, tmp_path: Path) -> None:
    lines = demo.commands()
    state = await same_end(fake, tmp_path, lines)
    assert state.phase is Phase.GAME_OVER and state.result.winner is Team.RED
    assert demo.WINNER == "red"


FIRST_DAY_SINGLE_NOMINEE = script("""
    /new seed
    /roles D8 M9 M10 S5
    /start
    /next
    # day 1: only #3 is nominated, by #1
    /nominate 3
    /next
    /next
    /next
    /next
    /next
    /next
    /next
    /next
    /next
    /next
    # F24 §4.4.10: a single nominee on day 1 is not voted; night 1
    /kill 1
    /don 5
    /sheriff 9
    /bestmove 8 9 10
""")


async def test_a_single_nominee_on_day_one_is_not_voted(fake: FakeBotAPI, tmp_path: Path) -> None:
    state = await same_end(fake, tmp_path, FIRST_DAY_SINGLE_NOMINEE)
    assert state.seat(3).at_table and state.seat(1).departure.cause is Cause.KILL
    assert state.nights[0].best_move == (8, 9, 10)  # F24 §4.5.9: night 1's victim
    assert state.phase is Phase.LAST_WORD and state.day == 2


REMOVAL_AFTER_THE_RESULT = script("""
    /new seed
    /roles D8 M9 M10 S5
    /start
    /next
    /nominate 2
    /next
    /nominate 3
    /next
    /next
    /next
    /next
    /next
    /next
    /next
    /next
    /next
    # the vote: 7 hands against #2, the other 3 go to #3: #2 leaves
    /vote 2 7
    # during #2's last word #4 insults a player: a disqualifying foul (seed 4.2.4) after the
    # vote's result, so the NEXT day's vote is not held (seed 5.2)
    /dq 4 4.2.4
    /next
    /miss
    /next
    /next
    # day 2: eight at the table, #3 opens (R3.1) and nominates #6, yet no vote
    /nominate 6
    /next
    /next
    /next
    /next
    /next
    /next
    /next
    /next
""")


async def test_a_removal_after_the_votes_result_cancels_the_next_vote(fake: FakeBotAPI,
                                                                     tmp_path: Path) -> None:
    state = await same_end(fake, tmp_path, REMOVAL_AFTER_THE_RESULT)
    assert state.seat(2).departure.cause is Cause.VOTE
    assert state.seat(4).departure.cause is Cause.DISQUALIFICATION
    assert state.vote_bans.get(2) == ("5.2", 4)  # seed 5.2
    assert state.seat(6).at_table and state.phase is Phase.NIGHT and state.day == 2


ROLES_UNKNOWN = script("""
    /new fiim2024
    /roles unknown
    /start
    /next
    /nominate 4
    /next
    /nominate 6
    /next
    /next
    /next
    /next
    /next
    /next
    /next
    /next
    /next
    /vote 4 6
    /next
    /kill 3
    /next
    /next
    /next
    # with the roles unknown the judge declares the end (he sees the cards)
    /result black
""")


async def test_with_roles_unknown_the_judge_declares_the_result(fake: FakeBotAPI, tmp_path: Path) -> None:
    state = await same_end(fake, tmp_path, ROLES_UNKNOWN)
    assert state.phase is Phase.GAME_OVER and state.result.winner is Team.BLACK
    assert state.result.why == "declared"


PENALTIES = script("""
    /new fsm2024
    /roles D2 M5 M7 S8
    /start
    /next
    /warn 3
    /foul 3 4.1.2
    /unfoul 3
    # FSM 2024: voting for several nominees (4.1.8) is a disqualifying foul, not a foul
    /foul 6 4.1.8
    /dq 6 4.1.8
    /next
    # seed 4.3.1: an oath — the offender's (black) team loses at once
    /ppk 7 4.3.1
""")


async def test_penalties_through_both_adapters(fake: FakeBotAPI, tmp_path: Path) -> None:
    state = await same_end(fake, tmp_path, PENALTIES)
    assert state.seat(3).warnings == ["warning"] and state.seat(3).fouls == []
    assert state.seat(6).departure.cause is Cause.DISQUALIFICATION  # S24 §6.7.9
    assert state.phase is Phase.GAME_OVER and state.result.winner is Team.RED
    assert state.result.why == "team_loss"


async def test_a_refused_typed_command_is_answered_and_changes_nothing(fake: FakeBotAPI,
                                                                      tmp_path: Path) -> None:
    async with table(fake, tmp_path / "db.sqlite3") as t:
        await t.say("/new")
        await t.say("/start")
        await t.say("/next")
        before = (await t.state(), await t.log_length())
        await t.say("/nominate 2 5")  # F24 §4.4.2: #1 speaks, not #2
        assert "сейчас говорит игрок №1" in (t.fake.sent(t.judge)[-1].text or "")
        await t.say("/vote 3 4")  # not now
        await t.say("/foul 11")  # no such seat
        assert "не номер места" in (t.fake.sent(t.judge)[-1].text or "")
        assert (await t.state(), await t.log_length()) == before
        # plain text without "/" works in the private chat too
        await t.say("next")
        assert (await t.state()).speaker == 2
        notices = [m.text for m in t.fake.sent(t.judge)]
        assert any(n and n.startswith("Слово игроку №2") for n in notices)


async def test_every_notice_of_the_demo_reaches_the_judge(fake: FakeBotAPI, tmp_path: Path) -> None:
    """The judge's private chat is told everything, private notices included (F24 §4.5.6–4.5.7:
    the check answers are the judge's to show)."""
    async with table(fake, tmp_path / "db.sqlite3") as t:
        for line in demo.commands():
            await t.say(line)
        private = "\n".join(t.private())
        state = await t.state()
        _, notices = rules.fold(state.config, await t.service.events(f"tg:{t.judge.id}"),
                                {s.number: s.name for s in state.seats if s.name})
        from bot.render import notice_text
        cat = catalog("ru")
        for notice in notices:
            text = notice_text(notice, cat)
            if text and notice.kind is not Kind.NAME_SET:
                assert text in private, text


async def test_new_over_a_live_game_asks_for_a_second_new(fake: FakeBotAPI, tmp_path: Path) -> None:
    """A typed /new over an unfinished game only asks for confirmation (nothing is shelved by a
    slip of the thumb); the next command, if it is not /new, goes to the same game."""
    state = await same_end(fake, tmp_path / "a", script("""
        /roles D2 M5 M7 S8
        /start
        /new fiim2024
        /name 4 Глеб
    """))
    assert state.config.preset == "seed" and state.phase is Phase.NIGHT_ZERO
    assert state.seat(4).name == "Глеб" and state.roles_known
    state = await same_end(fake, tmp_path / "b", script("""
        /roles D2 M5 M7 S8
        /start
        /new fiim2024
        /new fiim2024
    """))
    assert state.config.preset == "fiim2024" and state.phase is Phase.SETUP


AFTER_THE_END_UNDER_FSM = script("""
    /new fsm2024
    /start
    /result red
    # after the result a penalty is still recorded (FSM 2024 §6.8.6), by the game's own
    # items: 4.1.8 is a disqualifying foul under fsm2024 (a foul of the seed's)
    /dq 3 4.1.8
    /foul 4 4.1.8
""")


async def test_a_penalty_after_the_end_is_read_by_the_games_own_rules(fake: FakeBotAPI, tmp_path: Path) -> None:
    state = await same_end(fake, tmp_path, AFTER_THE_END_UNDER_FSM)
    assert state.phase is Phase.GAME_OVER and state.config.preset == "fsm2024"
    _, log, accepted = await through_console(tmp_path / "again.sqlite3", AFTER_THE_END_UNDER_FSM)
    assert accepted == [True, True, True, True, False]  # /foul: 4.1.8 is not a foul here
    assert log[-1] == rules.Penalty(seat=3, reason="4.1.8")


NAMED_AFTER_THE_END = script("""
    /new
    /start
    /result red
    # the club's history counts a finished game's names, which may come after the end
    /name 3 Вася
""")


async def test_a_name_after_the_end_is_the_finished_games(fake: FakeBotAPI, tmp_path: Path) -> None:
    """The judge names a seat of the game just over, as the club's history tells him he may
    (``club-no-games``: «/name 3 Вася» after the end): the finished game's name, as at the
    console, never a new game of its own."""
    state = await same_end(fake, tmp_path, NAMED_AFTER_THE_END)
    assert state.phase is Phase.GAME_OVER and state.seat(3).name == "Вася"
    assert "/name 3" in catalog("ru").text("club-no-games")
