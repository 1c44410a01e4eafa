"""Host mode obeyed only by who may judge, and secret in what it answers: the real PTB
Application against the fake Bot API (issue 13).

- A forged or malformed button (a seat that does not exist, letters, another step, garbage)
  gets the "outdated button" answer, logs no error and changes nothing.
- A command addressed to another bot (``/stop@OtherBot``) is not ours: ignored.
- A host who sits at the table plays and does not judge: the lobby says so, and the host's
  penalties and ``/stop`` are refused, while a chat admin who does not play may judge.
- ``/ppk`` naming a team is refused by nothing that would tell whose team the offender is on:
  the team is the engine's (seed 4.3), whatever the host typed.
- ``/status`` at night shows nothing of the night before the morning (F24 §4.5).
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

import rules
from bot.i18n import catalog
from fakebot import FakeBotAPI
from rules import Role, Team
from support import RU_SECRETS
from support.host_table import FAST, host_table, make_world

CAT = catalog("ru")
SLOW = f"{FAST} timers.speech=600"  # no speech ends by itself while a check runs

pytestmark = pytest.mark.usefixtures("ptb_timedelta")


async def test_a_forged_button_is_outdated_and_changes_nothing(fake: FakeBotAPI, tmp_path: Path,
                                                               caplog: pytest.LogCaptureFixture) -> None:
    async with host_table(fake, tmp_path / "db.sqlite3") as t:
        await t.open_and_fill(SLOW)
        step = await t.wait_floor(1, consume=False)
        table_id = t.table().id
        events = await t.service.events(f"tg:{t.group.id}")
        caplog.set_level(logging.ERROR)
        for data in (f"h:{table_id}:{step.no}:M:0", f"h:{table_id}:{step.no}:M:11",
                     f"h:{table_id}:{step.no}:M:ab", f"h:{table_id}:{step.no}:Z",
                     f"h:{table_id}:{step.no + 5}:P", f"h:{table_id + 1}:{step.no}:P",
                     "h:x:1:P", "h::::"):
            qid = await t.press_data(t.user(1), t.step_message(), data)
            assert t.fake.callback_answers[qid].text == CAT.text("host-outdated"), data
        qid = await t.press_data(t.user(1), t.step_message(), "garbage")  # not a table's button
        assert t.fake.callback_answers[qid].text == CAT.text("judge-press-unknown")
        assert await t.service.events(f"tg:{t.group.id}") == events
        assert t.step().no == step.no and t.step().seat == 1
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


async def test_a_command_addressed_to_another_bot_is_ignored(fake: FakeBotAPI, tmp_path: Path) -> None:
    async with host_table(fake, tmp_path / "db.sqlite3") as t:
        await t.say(t.owner, "/newgame@OtherBot")
        assert fake.sent(t.group) == []  # no lobby: the command was another bot's
        await t.open_and_fill(SLOW)
        await t.wait_floor(1, consume=False)
        events = await t.service.events(f"tg:{t.group.id}")
        sent = len(fake.sent(t.group))
        for line in ("/stop@OtherBot", "/foul@OtherBot 3", "/status@OtherBot", "/newgame@OtherBot"):
            await t.say(t.owner, line)
        assert len(fake.sent(t.group)) == sent
        assert await t.service.events(f"tg:{t.group.id}") == events
        assert t.table().status == "running"
        await t.say(t.owner, f"/foul@{fake.bot_user.username} 3")  # addressed to this bot: ours
        assert len((await t.state()).seat(3).fouls) == 1


async def test_a_host_who_plays_does_not_judge(fake: FakeBotAPI, tmp_path: Path) -> None:
    """The group's owner opens the table and joins it as its tenth player: the lobby says the
    host plays and that the chat's admins who do not play judge. The host's /foul and /stop are
    refused in his own minute (out of it they are his words out of turn, a foul: seed 4.1.1); an
    admin who does not play fouls and stops."""
    world = make_world(fake)
    referee = fake.add_user("Судья", "referee", started=True)
    fake.set_member(world.group, referee, status="administrator")
    world.players[-1] = world.owner
    async with host_table(fake, tmp_path / "db.sqlite3", world) as t:
        await t.open_and_fill(SLOW)
        assert any("играет за столом, поэтому не судит" in x for x in t.group_texts())
        await t.wait_floor(1, consume=False)
        host_seat = t.seat(t.owner)
        typed = await t.say(t.owner, "/foul 3")  # in #1's minute: a message like any (issue 36)
        assert typed.deleted and (await t.state()).seat(host_seat).fouls == ["4.1.1"]
        await t.speeches(list(range(1, host_seat)))
        await t.wait_floor(host_seat, consume=False)
        await t.say(t.owner, "/foul 3")  # his own minute: carried out, and refused
        assert t.group_texts()[-1] == CAT.text("host-not-host")
        await t.say(t.owner, "/stop")
        assert t.table().status == "running"
        assert (await t.state()).seat(3).fouls == []
        await t.say(referee, f"/foul {host_seat}")
        assert len((await t.state()).seat(host_seat).fouls) == 2
        await t.say(referee, "/stop")
        assert t.table().status == "stopped"


@pytest.mark.parametrize("named", ["black", "red"])
async def test_ppk_with_either_team_named_ends_the_offenders_teams_game(fake: FakeBotAPI, tmp_path: Path,
                                                                       named: str) -> None:
    """The host names a team after /ppk — the right one or the wrong one: the offender's team
    loses all the same (seed 4.3), and no refusal tells the group which team it is not."""
    async with host_table(fake, tmp_path / "db.sqlite3") as t:
        await t.open_and_fill(SLOW)
        await t.wait_floor(1, consume=False)
        (don,) = await t.seats_of(Role.DON)
        before = len(t.group_texts())
        await t.say(t.owner, f"/ppk {don} 4.3.1 {named}")
        await t.wait_over(timeout=30)
        state = await t.state()
        assert state.result is not None and state.result.winner is Team.RED
        said = t.group_texts()[before:]
        assert not any("Команда не та" in x for x in said), said  # error-team_mismatch


async def test_status_at_night_shows_nothing_of_the_night(fake: FakeBotAPI, tmp_path: Path) -> None:
    """Every black shoots a red; during the Don's check /status reads as it did in the shooting
    before any shot (but for the step), and names no role: the kill is told in the morning."""
    async with host_table(fake, tmp_path / "db.sqlite3") as t:
        await t.open_and_fill()
        blacks = await t.seats_of(Role.DON, Role.MAFIA)
        victim = next(s for s in await t.reds() if s not in (1, 2))
        await t.speeches(list(range(1, 11)))  # nobody nominated: night falls
        step = await t.wait_step("shooting", prompts=len(blacks))
        await t.say(t.owner, "/status")
        before = t.group_texts()[-1]
        for black in blacks:
            await t.press(t.user(black), t.prompt(t.user(black), step), str(victim))
        await t.wait_step("don_check", consume=False)
        await t.say(t.owner, "/status")
        after = t.group_texts()[-1]
        step_line, rest = after.split("\n", 1)
        assert "проверка Дона" in step_line
        assert rest == before.split("\n", 1)[1]  # the seats as they were before the shot
        assert not any(word in after for word in RU_SECRETS), after
        assert isinstance(rules.expected(await t.state()), rules.DonCheckStep)
        assert (await t.state()).seat(victim).departure is not None  # shot: the engine knows
