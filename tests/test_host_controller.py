"""Host mode's table flow (:class:`bot.host.controller.HostController`) against an in-memory
platform (:mod:`support.fakeport`): fast, no HTTP, time moved by the test (no wall clock).

The same flow runs on Telegram and Discord (tests/test_host_*.py, tests/test_discord_host.py
drive it through the real clients); here it is pinned down alone: the lobby and the deal, who is
told what (secrecy), a press acted on only once committed, an outdated press, a step closed by
its deadline, the mutes, the fall-back to fouls, and a restart over the same store."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any, AsyncIterator

import pytest

import rules
from bot.host.controller import FAILED_RETRY
from bot.host.port import Player, Rights
from bot.host.steps import PRESS_GRACE, WRITTEN_GRACE, Step, StepKind, press_grace
from rules import Phase, Role
from support.fake_host import GROUP, HOST, PLAYERS, RU, SECRETS, Table, table
from support.stores import disk_full


async def test_the_deal_reaches_each_player_privately_and_nothing_secret_reaches_the_group() -> None:
    """R1.1: ten players, a card each in private (a black also learns the other blacks, F24
    §4.2); the group reads the seats and night 0, never a role (F24 §4.4.13)."""
    async with table() as t:
        await t.fill()
        state = await t.state()
        assert state.phase is Phase.NIGHT_ZERO and state.roles_known
        for seat, user in t.table().seats.items():
            role = state.seat(seat).role
            assert role is not None
            cards = [m.text for m in t.chats.of(user) if m.private and "ваша роль" in m.text]
            assert len(cards) == 1 and RU.text(f"role-{role.value}") in cards[0]
            if role.team.value == "black":
                assert "Чёрные за столом" in cards[0]
        group = "\n".join(t.chats.texts(GROUP))
        assert not [s for s in SECRETS if s in group]
        assert "Договорка" in group


async def test_a_pass_is_answered_only_once_committed_and_the_next_speaker_has_the_floor() -> None:
    """F24 §4.3.5: «Пас» ends the minute; the press is answered after its event is stored, and
    the next seat at the table speaks (§4.3.2)."""
    async with table() as t:
        await t.to_first_speech()
        speaker = t.table().step.seat
        committed: list[int] = []

        async def answer(handle, text=None, *, alert=False, url=None):  # noqa: ANN001, ANN202
            committed.append(len(await t.service.events(GROUP)))
            handle.answers.append((text, alert))

        t.port.answer = answer  # type: ignore[method-assign]
        before = len(await t.service.events(GROUP))
        await t.press(t.player(speaker), t.step_message().data(RU.text("host-btn-pass")))
        assert committed == [before + 1]  # answered after the Next was logged
        assert (await t.state()).speaker == speaker % 10 + 1
        assert t.table().step.seat == speaker % 10 + 1


async def test_an_outdated_or_forged_press_and_a_strangers_press_change_nothing() -> None:
    """A press of a step that is over is answered "outdated"; a forged or malformed button too;
    a member who does not play is refused. Nothing is logged."""
    async with table() as t:
        await t.to_first_speech()
        first = t.step_message()
        old = first.data(RU.text("host-btn-pass"))
        speaker = t.player(t.table().step.seat)
        await t.press(speaker, old)
        events = len(await t.service.events(GROUP))
        again = await t.press(speaker, old)
        assert again.text == RU.text("host-outdated")
        table_id, no = t.table().id, t.table().step.no
        now = t.player(t.table().step.seat)
        for forged in (f"h:{table_id}:{no}:M:11", f"h:{table_id}:{no}:M:0", f"h:{table_id}:{no}:M:ab",
                       f"h:{table_id}:{no}:Z", f"h:{table_id}:99:P", "h:x:1:P", "garbage", None):
            answer = await t.press(now, forged)  # type: ignore[arg-type]
            assert answer.text == RU.text("host-outdated"), forged
        stranger = await t.press(Player("fk:999", "Зритель"), t.step_message().data(RU.text("host-btn-pass")))
        assert stranger.text == RU.text("host-not-player")
        assert len(await t.service.events(GROUP)) == events


async def test_a_step_closes_at_its_deadline_and_not_before() -> None:
    """The speech runs its full length (F24 §4.3.1: 60 s) and closes by itself at its end."""
    async with table() as t:
        await t.to_first_speech()
        step = t.table().step
        await t.clock.advance(step.seconds - 1)
        assert t.table().step.no == step.no
        await t.clock.advance(1)
        assert t.table().step.no == step.no + 1


async def test_everyone_but_the_speaker_is_muted_and_the_mutes_follow_the_floor() -> None:
    """Seed 4.1.1 kept by the platform: only the speaker may write."""
    async with table() as t:
        await t.to_first_speech()
        speaker = t.player(t.table().step.seat)
        assert t.port.muted == {p.user for p in PLAYERS} - {speaker.user}
        await t.press(speaker, t.step_message().data(RU.text("host-btn-pass")))
        following = t.player(t.table().step.seat)
        assert t.port.muted == {p.user for p in PLAYERS} - {following.user}


async def test_a_lost_right_to_mute_falls_back_to_fouls_and_says_so() -> None:
    """Without the right the table is kept by fouls (seed 4.1.1: a message out of one's minute
    is a foul, at night a disqualifying foul, seed 4.2.6); the group is told once."""
    async with table(Rights(mute=True, delete=True)) as t:
        await t.to_first_speech()
        t.port.right_lost = True
        speaker = t.player(t.table().step.seat)
        await t.press(speaker, t.step_message().data(RU.text("host-btn-pass")))  # he must be muted
        assert t.table().flags.mode == "foul"
        assert sum(RU.text("host-mute-failed") in x for x in t.chats.texts(GROUP)) == 1


async def test_a_message_out_of_turn_is_a_foul_and_is_deleted_after_the_foul_is_stored() -> None:
    """Seed 4.1.1 by day: a foul; the message is deleted where the bot may, after the foul is
    logged (it is its evidence)."""
    async with table(Rights(mute=False, delete=True)) as t:
        await t.to_first_speech()
        speaker = t.table().step.seat
        other = speaker % 10 + 1
        logged: list[int] = []

        async def delete(handle):  # noqa: ANN001, ANN202
            logged.append(len((await t.state()).seat(other).fouls))

        t.port.delete = delete  # type: ignore[method-assign]
        await t.host.message(GROUP, t.player(other).user, "я не согласен", "the message")
        assert (await t.state()).seat(other).fouls == ["4.1.1"]
        assert logged == [1]


async def test_night_talk_is_a_disqualifying_foul() -> None:
    """Seed 4.2.6: «ночные» разговоры — a disqualifying foul, at night 0 too."""
    async with table(Rights(mute=False, delete=False)) as t:
        await t.fill()
        await t.host.message(GROUP, t.player(3).user, "кто мафия?", None)
        state = await t.state()
        assert state.seat(3).departure is not None
        assert state.seat(3).departure.cause is rules.Cause.DISQUALIFICATION


async def test_a_restart_resumes_the_step_at_its_stored_deadline() -> None:
    """A new process over the same store takes the table up where it was: the step running
    keeps its deadline (it does not start again), and its message is edited, not posted again."""
    async with table() as t:
        await t.to_first_speech()
        step = t.table().step
        await t.clock.advance(20)
        messages = len(t.chats.of(GROUP))
        await t.restart()
        resumed = t.table().step
        assert resumed.no == step.no and resumed.deadline == step.deadline
        assert len(t.chats.of(GROUP)) == messages
        await t.clock.advance(step.seconds - 20)
        assert t.table().step.no == step.no + 1


async def test_the_night_prompts_go_to_the_blacks_only_and_a_unanimous_shot_kills() -> None:
    """F24 §4.5.3–4.5.4: every black at the table is asked in private; all on one seat → the
    kill, told in the morning; nothing of the shots reaches the group."""
    async with table() as t:
        await t.to_first_speech()
        for _ in range(10):  # day 1: nobody nominated, every speaker passes
            await t.press(t.player(t.table().step.seat), t.step_message().data(RU.text("host-btn-pass")))
        assert t.table().step.kind == "shooting"
        state = await t.state()
        blacks = [s.number for s in state.seats if s.role in (Role.DON, Role.MAFIA)]
        victim = next(s.number for s in state.seats if s.role is Role.CIVILIAN)
        prompted = set(t.table().step.prompted)
        assert prompted == {t.table().seats[b] for b in blacks}
        for black in blacks:
            user = t.table().seats[black]
            prompt = t.prompt(user)
            answer = await t.press(t.player(black), prompt.data(str(victim)))
            assert answer.text == RU.text("host-taken")
        group_before = "\n".join(t.chats.texts(GROUP))
        assert "Выстрел" not in group_before
        for _ in range(4):  # the shooting, the two checks and the best move run out
            await t.clock.advance(t.table().step.seconds)
            if (await t.state()).phase is Phase.SPEECH or t.table().step.kind == "last_word":
                break
        state = await t.state()
        assert state.seat(victim).departure is not None
        assert state.seat(victim).departure.cause is rules.Cause.KILL


@pytest.mark.parametrize("who, allowed", [(HOST, True), (PLAYERS[0], False)])
async def test_only_the_host_or_an_admin_stops_the_table(who: Player, allowed: bool) -> None:
    async with table() as t:
        await t.to_first_speech()
        replies = await t.command(who, "/stop")
        assert (t.table().status == "stopped") is allowed
        assert (replies == []) is allowed


# --- an internal error: answered, and the table goes on as stored ------------------------------------



async def test_a_press_that_cannot_be_stored_is_answered_and_changes_nothing() -> None:
    """A full disk under the speaker's «Пас»: the press is answered "not saved, try again" (it
    was only logged, and the press spun), the floor stays his, and once the disk has room the
    same press works (F24 §4.3.5)."""
    async with table() as t:
        await t.to_first_speech()
        speaker, step = t.table().step.seat, t.table().step.no
        events = await t.service.events(GROUP)
        room = disk_full(t.store)
        failed = await t.press(t.player(speaker), t.step_message().data(RU.text("host-btn-pass")))
        assert failed.answers == [(RU.text("error-not-saved"), True)]
        room()
        assert await t.service.events(GROUP) == events
        assert (await t.state()).speaker == speaker and t.table().step.no == step
        again = await t.press(t.player(speaker), t.step_message().data(RU.text("host-btn-pass")))
        assert again.answered and (await t.state()).speaker == speaker % 10 + 1


async def test_a_join_that_cannot_be_stored_is_answered_and_the_lobby_stays_as_stored() -> None:
    async with table() as t:
        assert await t.command(HOST, "/newgame") == []
        lobby = t.chats.last(GROUP, with_button=RU.text("host-btn-join"))
        room = disk_full(t.store)
        failed = await t.press(PLAYERS[0], lobby.data(RU.text("host-btn-join")))
        assert failed.answers[-1] == (RU.text("error-not-saved"), True)
        room()
        assert t.table().players == []
        joined = await t.press(PLAYERS[0], lobby.data(RU.text("host-btn-join")))
        assert joined.text == RU.text("host-join-done") and len(t.table().players) == 1


async def test_a_hosts_command_that_cannot_be_stored_is_answered() -> None:
    async with table() as t:
        await t.to_first_speech()
        room = disk_full(t.store)
        assert await t.command(HOST, "/foul 3") == [RU.text("error-not-saved")]
        room()
        assert (await t.state()).seat(3).fouls == []
        assert await t.command(HOST, "/foul 3") == []
        assert len((await t.state()).seat(3).fouls) == 1


async def test_a_speech_whose_end_cannot_be_stored_ends_once_the_disk_has_room() -> None:
    """Nothing waits for a player: every step ends when its time is up. A full disk as #1's
    minute runs out (past its 10-second warning): his speech cannot end then, but the table
    is not left waiting for a press — once the disk has room it ends at the next try
    (FAILED_RETRY), and #2 gets his full minute (F24 §4.3.1–4.3.2)."""
    async with table() as t:
        await t.to_first_speech()
        step = t.table().step
        await t.clock.advance(step.seconds - 5)
        room = disk_full(t.store)
        await t.clock.advance(5)  # the end fails: logged, the table as stored
        assert (await t.state()).speaker == step.seat
        room()
        await t.clock.advance(FAILED_RETRY)
        assert (await t.state()).speaker == step.seat % 10 + 1
        following = t.table().step
        assert following.no == step.no + 1 and following.started
        await t.clock.advance(following.seconds - 1)
        assert t.table().step.no == following.no  # his whole minute
        await t.clock.advance(1)
        assert t.table().step.no == following.no + 1


async def _to_the_shooting(t: Table) -> tuple[Step, list[int], int]:
    """Day 1 without nominations (every speaker passes), to night 1's shooting: the step, the
    blacks' seats and a civilian's (a victim)."""
    await t.to_first_speech()
    for _ in range(10):
        await t.press(t.player(t.table().step.seat), t.step_message().data(RU.text("host-btn-pass")))
    step = t.table().step
    assert step.kind == "shooting"
    state = await t.state()
    blacks = [s.number for s in state.seats if s.role in (Role.DON, Role.MAFIA)]
    return step, blacks, next(s.number for s in state.seats if s.role is Role.CIVILIAN)


async def test_a_night_step_whose_end_cannot_be_stored_goes_on_and_the_shot_counts() -> None:
    """At night nobody can press the table on (F24 §4.5): the shooting's end fails on a full
    disk, is tried again every FAILED_RETRY while the disk stays full — not in a loop —, and
    once there is room the shots taken count (all on one seat: the kill, F24 §4.5.3–4.5.4)."""
    async with table() as t:
        step, blacks, victim = await _to_the_shooting(t)
        for black in blacks:
            await t.press(t.player(black), t.prompt(t.table().seats[black]).data(str(victim)))
        tries: list[float] = []
        close = t.host.close_step

        async def counted(table):  # noqa: ANN001, ANN202
            tries.append(t.clock.now)
            await close(table)

        t.host.close_step = counted  # type: ignore[method-assign]
        room = disk_full(t.store)
        await t.clock.advance(step.seconds + PRESS_GRACE + 3 * FAILED_RETRY)
        assert len(tries) == 4 and all(b - a == FAILED_RETRY for a, b in zip(tries, tries[1:]))
        assert t.table().step.no == step.no
        room()
        await t.clock.advance(FAILED_RETRY)
        assert t.table().step.kind == "don_check"
        for _ in range(3):
            await t.clock.advance(t.table().step.seconds + PRESS_GRACE)
        assert (await t.state()).seat(victim).departure.cause is rules.Cause.KILL


# --- a message is judged by when it was written (seed 4.1.1, 4.2.6; F24 §4.3.1) ----------------------

async def write(t: Table, seat: int, text: str, written_at: float) -> None:
    await t.host.message(GROUP, t.player(seat).user, text, None, written_at=written_at)
    await t.port.outbox.settle()


async def test_a_pass_written_in_time_and_read_late_ends_nothing_and_is_no_foul() -> None:
    """#1 writes «Пас» 1 s before his minute ends; it is read only after #2 has the floor: it
    is no speech out of turn (seed 4.1.1: it was written in his own minute), and #2 keeps his
    floor. The same «Пас» sent twice — the second 3 s after his pass — is no foul either."""
    async with table(Rights(mute=False, delete=True)) as t:
        await t.to_first_speech()
        first = t.table().step
        await t.clock.advance(first.seconds)  # #1's minute runs out
        second = t.table().step
        assert second.seat == 2
        await write(t, 1, "Пас", written_at=first.deadline - 1)
        await write(t, 1, "пас!", written_at=second.opened + 3)
        state = await t.state()
        assert state.seat(1).fouls == [] and t.table().step.no == second.no
        await t.clock.advance(10)
        await write(t, 1, "Спасибо", written_at=t.clock.now)  # 10 s into #2's minute: no echo
        assert (await t.state()).seat(1).fouls == ["4.1.1"]


async def test_a_message_written_in_anothers_minute_is_a_foul_though_read_later() -> None:
    """#3 writes during #1's speech; the message is read in #2's: still speech out of turn
    (seed 4.1.1) — a stamp never excuses a message written outside one's minute."""
    async with table(Rights(mute=False, delete=False)) as t:
        await t.to_first_speech()
        written = t.clock.now + 5
        await t.clock.advance(t.table().step.seconds)
        assert t.table().step.seat == 2
        await write(t, 3, "я мирный", written_at=written)
        assert (await t.state()).seat(3).fouls == ["4.1.1"]


async def test_a_day_message_read_at_night_is_a_day_foul_not_night_talk() -> None:
    """Day 1 ends (nobody nominated: night falls); a message #3 wrote during the last day
    minute reaches the bot only at night. It was written by day: a foul (seed 4.1.1), not the
    disqualifying night talk (seed 4.2.6) it would be if written at night."""
    async with table(Rights(mute=False, delete=False)) as t:
        await t.to_first_speech()
        written = 0.0
        for _ in range(10):  # day 1: nobody nominated, every speaker passes
            step = t.table().step
            if step.seat == 10:
                await t.clock.advance(20)
                written = t.clock.now - 10  # in #10's minute
            await t.press(t.player(step.seat), t.step_message().data(RU.text("host-btn-pass")))
        assert t.table().step.kind == "shooting"
        await t.clock.advance(5)
        await write(t, 3, "ну всё, ночь", written_at=written)
        state = await t.state()
        assert state.seat(3).fouls == ["4.1.1"] and state.seat(3).at_table
        await write(t, 3, "кто стрелял?", written_at=t.clock.now)  # written at night
        assert (await t.state()).seat(3).departure is not None  # seed 4.2.6, seed 4.5


# --- the benefit of the doubt to the writer and the presser (issue 35, item 2) -------------------------

async def _first_minute_over(t: Table) -> tuple[Any, Any, float]:
    """#1's minute runs out by its time; #2 has the floor. Returns both steps and when #1's
    closed (what the table keeps of it)."""
    await t.to_first_speech()
    first = t.table().step
    await t.clock.advance(first.seconds)
    second = t.table().step
    assert second.seat == 2
    return first, second, t.table().flags.recent[-1]["closed"]


async def test_a_message_stamped_in_ones_own_minute_is_his_however_late_it_is_read() -> None:
    """Seed 4.1.1: speech out of one's minute is a foul — but a message #1 wrote 1 s before his
    minute ran out is his (F24 §4.3.1), though it is read in #2's minute: no foul, and #2 keeps
    the floor. Read 30 s later still (issue 35: «however late it is read»)."""
    async with table(Rights(mute=False, delete=True)) as t:
        first, second, _ = await _first_minute_over(t)
        await write(t, 1, "и последнее: я мирный", written_at=first.deadline - 1)
        await t.clock.advance(30)
        await write(t, 1, "ещё раз: я мирный", written_at=first.deadline - 2)
        assert (await t.state()).seat(1).fouls == [] and t.table().step.no == second.no


@pytest.mark.parametrize("after, foul", [(WRITTEN_GRACE, False), (WRITTEN_GRACE + 0.5, True)])
async def test_at_the_end_of_his_minute_the_grace_goes_to_the_writer(after: float, foul: bool) -> None:
    """A stamp up to WRITTEN_GRACE after #1's minute closed (Telegram stamps to the whole
    second; clocks differ) may still be his: the doubt goes to him, no foul. Beyond the grace it
    was written in #2's minute: speech out of turn (seed 4.1.1)."""
    async with table(Rights(mute=False, delete=True)) as t:
        _, second, closed = await _first_minute_over(t)
        await write(t, 1, "я мирный", written_at=closed + after)
        assert (await t.state()).seat(1).fouls == (["4.1.1"] if foul else [])
        assert t.table().step.no == second.no


@pytest.mark.parametrize("text", ["/nominate 7", "/выставить 7"])
async def test_a_nomination_typed_in_ones_minute_and_read_after_it_is_refused_saying_why(text: str) -> None:
    """F24 §4.4.2: a nomination is made in one's own speech. #1 types it 1 s before his minute
    runs out, and up to WRITTEN_GRACE after; it reaches the bot in #2's minute. It is no speech
    out of turn (seed 4.1.1: written in his own minute), but a speech ends at its time — no grace
    after it, as for its nomination button — so #7 is not nominated, and #1 is told just that,
    not "it is not your minute". Beyond the grace it was written in #2's minute: a foul, and the
    command is not carried out. #2's own nomination counts."""
    async with table(Rights(mute=False, delete=True)) as t:
        first, second, closed = await _first_minute_over(t)
        late = [RU.text("host-nomination-late", target="№7", rules=t.table().spec.config.preset)]
        assert await t.enter(t.player(1), text, stamp=first.deadline - 1) == late
        assert await t.enter(t.player(1), text, stamp=closed + WRITTEN_GRACE) == late
        state = await t.state()
        assert state.nominations == [] and state.seat(1).fouls == [] and t.table().step.no == second.no
        assert await t.enter(t.player(1), text, stamp=closed + WRITTEN_GRACE + 0.5) == []
        assert (await t.state()).seat(1).fouls == ["4.1.1"]
        assert await t.enter(t.player(2), text) == []
        assert (await t.state()).nominations == [(2, 7)]


@pytest.mark.parametrize("text", ["/nominate 7", "/pass"])
async def test_one_who_does_not_play_is_told_so_not_that_it_is_not_his_minute(text: str) -> None:
    """Someone of the group who is not seated at the hosted table types a nomination (or /pass)
    in #1's minute: he has no minute at this table, so he is told that he does not play at it —
    not «it is not your minute», as a player out of turn is. Nothing changes."""
    async with table(Rights(mute=False, delete=True)) as t:
        await t.to_first_speech()
        step = t.table().step
        outsider = Player("tg:999", "Зритель")
        assert await t.enter(outsider, text) == [RU.text("host-not-player")]
        state = await t.state()
        assert state.nominations == [] and t.table().step.no == step.no


@pytest.mark.parametrize("before, foul", [(WRITTEN_GRACE, False), (WRITTEN_GRACE + 0.5, True)])
async def test_at_the_start_of_his_minute_the_grace_goes_to_the_writer(before: float, foul: bool) -> None:
    """#2's first words stamped up to WRITTEN_GRACE before his minute opened are his; earlier
    they were written in #1's minute: a foul (seed 4.1.1)."""
    async with table(Rights(mute=False, delete=True)) as t:
        _, second, _ = await _first_minute_over(t)
        await write(t, 2, "доброе утро, стол", written_at=second.opened - before)
        assert (await t.state()).seat(2).fouls == (["4.1.1"] if foul else [])
        assert t.table().step.no == second.no


@pytest.mark.parametrize("after, reason", [(1.0, "4.1.1"), (WRITTEN_GRACE + 0.5, "4.2.6")])
async def test_at_nightfall_the_doubt_gives_the_days_foul_not_the_nights_disqualification(
        after: float, reason: str) -> None:
    """A message stamped within the grace of the day's last minute is the day's foul (seed
    4.1.1), not night talk (seed 4.2.6, a disqualification): the doubt goes to the writer. Beyond
    the grace it was written at night."""
    async with table(Rights(mute=False, delete=False)) as t:
        await t.to_first_speech()
        for _ in range(10):  # day 1: nobody nominated, every speaker speaks 5 s and passes
            await t.clock.advance(5)
            await t.press(t.player(t.table().step.seat), t.step_message().data(RU.text("host-btn-pass")))
        night = t.table().step
        assert night.kind == "shooting"
        await write(t, 3, "ну всё, ночь", written_at=night.opened + after)
        state = await t.state()
        if reason == "4.1.1":
            assert state.seat(3).fouls == ["4.1.1"] and state.seat(3).at_table
        else:
            assert state.seat(3).departure is not None and state.seat(3).disqualified


async def _vote_window(t: Table) -> Any:
    """Day 1: #1 nominates #5 and #2 nominates #6; the window against #5 opens."""
    await t.to_first_speech()
    for seat in range(1, 11):
        step = t.table().step
        if seat in (1, 2):
            await t.press(t.player(seat), t.step_message().data(RU.text("host-btn-nominate")))
            await t.press(t.player(seat), t.step_message().data(str({1: 5, 2: 6}[seat])))
        await t.press(t.player(step.seat), t.step_message().data(RU.text("host-btn-pass")))
    window = t.table().step
    assert window.kind == "vote" and window.seat == 5
    return window


@pytest.mark.parametrize("late, counted", [(PRESS_GRACE - 0.5, True), (PRESS_GRACE + 0.5, False)])
async def test_a_hand_pressed_at_the_windows_edge_counts_as_the_player_saw_it(
        late: float, counted: bool) -> None:
    """F24 §4.4.5: the hands raised in the window count. A hand pressed as the window's time ran
    out — its button still on the player's screen — arrives a moment late: within PRESS_GRACE it
    counts (what the player saw open); after, the window is closed and the press outdated."""
    async with table() as t:
        window = await _vote_window(t)
        data = t.step_message().data(RU.text("host-btn-hand", seat="№5"))
        for seat in (1, 2, 3, 4, 7, 9):
            await t.press(t.player(seat), data)
        await t.clock.advance(window.seconds + late)
        answer = await t.press(t.player(8), data)
        await t.clock.advance(PRESS_GRACE + 1)
        state = await t.state()
        assert (answer.text == RU.text("host-outdated")) is not counted
        assert state.seat(5).departure is not None  # 6 or 7 hands of 10: he leaves either way
        voted = next(n for n in reversed(await t.service.events(GROUP)) if isinstance(n, rules.Vote))
        assert (8 in voted.voters) is counted and len(voted.voters) == (7 if counted else 6)


@pytest.mark.parametrize("late, killed", [(PRESS_GRACE - 0.5, True), (PRESS_GRACE + 0.5, False)])
async def test_a_shot_pressed_at_the_shootings_edge_counts_as_the_black_saw_it(
        late: float, killed: bool) -> None:
    """F24 §4.5.3–4.5.5: all blacks on one seat kill. The last black's shot, pressed as the
    shooting ran out, arrives a moment late: within PRESS_GRACE it counts — the kill; after, the
    step is closed and he did not shoot — a miss."""
    async with table() as t:
        step, blacks, victim = await _to_the_shooting(t)
        shots = {b: t.prompt(t.table().seats[b]).data(str(victim)) for b in blacks}
        for black in blacks[:-1]:
            await t.press(t.player(black), shots[black])
        await t.clock.advance(step.seconds + late)
        await t.press(t.player(blacks[-1]), shots[blacks[-1]])
        await t.clock.advance(PRESS_GRACE + 1)
        assert (await t.state()).nights[0].killed == (victim if killed else None)


def test_the_grace_is_for_windows_of_presses_only() -> None:
    """A speech ends at its time (its words are judged by their stamps); a window whose inputs
    are presses waits PRESS_GRACE, every night step alike (the night's timing tells nothing)."""
    def step(kind: StepKind) -> Step:
        return Step(no=1, key="k", kind=kind, seconds=10, seat=None, night=None, opened=0.0,
                    deadline=10.0)
    assert press_grace(step(StepKind.SPEECH)) == press_grace(step(StepKind.LAST_WORD)) == 0
    assert {press_grace(step(k)) for k in (StepKind.VOTE, StepKind.RAISE, StepKind.SHOOTING,
                                           StepKind.DON_CHECK, StepKind.SHERIFF_CHECK,
                                           StepKind.BEST_MOVE, StepKind.SILENCED)} == {PRESS_GRACE}


async def test_a_voice_table_where_the_platform_has_no_voice_is_refused() -> None:
    """/newgame voice=… on a platform without voice channels (Telegram): a clear refusal, no
    table opened (issue 19: voice tables are Discord's)."""
    async with table() as t:
        answer = await t.command(HOST, "/newgame voice=123")
        assert RU.text("host-error-bad_option", option="voice", value="123") in "\n".join(answer)
        assert not t.host.tables_in(GROUP)


# --- a voice table: a player out of its channel (seed 4.2.1) ------------------------------------------

async def test_a_voice_players_leaving_that_cannot_be_stored_is_tried_again_until_it_is() -> None:
    """Seed 4.2.1: a seated player out of the voice table's channel past ``voice_grace`` has
    left the table (a disqualifying foul, seed 4.5). A full disk as #6's grace runs out: his
    leaving cannot be stored then — logged, the table goes on as stored, he is still marked
    away — and it is tried again every FAILED_RETRY while the disk stays full, not in a loop;
    once there is room he has left the table, and the mark is gone."""
    async with table(Rights(mute=True, delete=True, voice=True)) as t:
        t.port.voice_tables = True
        await t.to_first_speech("/newgame voice=123 grace=20")
        user = t.player(6).user
        await t.host.voice_left(GROUP, user)
        tries: list[float] = []
        over = t.host.away_over

        async def counted(table_id: int, who: str) -> None:
            tries.append(t.clock.now)
            await over(table_id, who)

        t.host.away_over = counted  # type: ignore[method-assign]
        room = disk_full(t.store)
        await t.clock.advance(20 + 3 * FAILED_RETRY)
        assert len(tries) == 4 and all(b - a == FAILED_RETRY for a, b in zip(tries, tries[1:]))
        assert (await t.state()).seat(6).at_table and user in t.table().flags.away
        room()
        await t.clock.advance(FAILED_RETRY)
        departure = (await t.state()).seat(6).departure
        assert departure is not None and departure.cause is rules.Cause.DISQUALIFICATION
        assert departure.reason == "4.2.1" and t.table().flags.away == {}
        assert any(RU.text("host-voice-away", seat="№6", seconds=20) in x for x in t.chats.texts(GROUP))


# --- night 0: the blacks' words relayed in private (F24 §4.2) -------------------------------------------

@contextlib.asynccontextmanager
async def private_sends_held(t: Table) -> AsyncIterator[tuple[asyncio.Event, asyncio.Event]]:
    """Every private send — through the outbox or posted at once — waits for its chat's turn
    (a paced private chat, about a send a second): ``(waiting, turn)``, ``waiting`` set when the
    first one waits, ``turn`` given by the test (and at the end). The clock settles nothing by
    itself meanwhile: what is held is awaited by the test."""
    turn, waiting = asyncio.Event(), asyncio.Event()
    transport, port = t.port.outbox.transport, t.port
    deliver, post = transport.deliver, port.post

    async def paced(row, made=None):  # noqa: ANN001, ANN202
        if row.payload.get("private"):
            waiting.set()
            await turn.wait()
        return await deliver(row, made)

    async def paced_post(chat, text, rows=None, *, private=False):  # noqa: ANN001, ANN202
        if private:
            waiting.set()
            await turn.wait()
        return await post(chat, text, rows, private=private)

    transport.deliver = paced  # type: ignore[method-assign]
    port.post = paced_post  # type: ignore[method-assign]
    t.clock.settle = None
    try:
        yield waiting, turn
    finally:
        turn.set()


async def test_a_blacks_words_relayed_at_night_zero_hold_up_nothing_the_group_sees() -> None:
    """F24 §4.2: at night 0 what a black writes to the bot goes to the other blacks. A private
    chat is paced (about a send a second): however long the relayed words wait for their turn,
    the black's message is taken at once and the договорка ends on its time — what the group
    sees, and when, never depends on who was written to privately (F24 §4.4.13, §4.5)."""
    async with table() as t:
        await t.fill()
        night = t.table().step
        state = await t.state()
        blacks = [t.table().seats[s.number] for s in state.seats if s.role in (Role.DON, Role.MAFIA)]
        async with private_sends_held(t) as (waiting, _):  # their turn: after the night's end
            relayed = asyncio.ensure_future(t.host.private_message(blacks[0], "стреляем 3-5-7"))
            await asyncio.wait_for(waiting.wait(), 30)  # generous: the first relayed one waits
            assert relayed.done() and relayed.result() == "relayed"
            await t.clock.advance(night.seconds)
            assert t.table().step.kind == "speech"  # the day begins on time
            assert not any("стреляем 3-5-7" in x for user in blacks[1:] for x in t.chats.texts(user))
        await t.port.outbox.settle()
        for user in blacks[1:]:
            assert any("стреляем 3-5-7" in x for x in t.chats.texts(user)), t.chats.texts(user)[-2:]
        assert not any("стреляем" in x for x in t.chats.texts(GROUP))


async def test_an_unnamed_message_is_handled_while_the_hosts_private_chat_waits() -> None:
    """A message in the name of the group (an anonymous admin) at a running table: deleted and
    the host told in private, once a step. The host's private chat is paced (about a send a
    second): the message is dealt with at once and the step ends on its time while the notice
    waits its turn — what the group sees never waits for a private chat."""
    async with table() as t:
        await t.to_first_speech()
        step = t.table().step
        async with private_sends_held(t) as (waiting, _):
            handled = asyncio.ensure_future(t.host.message(GROUP, "fk:999", "кто я?", object(),
                                                           anonymous=True))
            await asyncio.wait_for(waiting.wait(), 30)  # generous: the notice reaches its turn
            assert handled.done()
            await t.clock.advance(step.seconds)
            assert t.table().step.no == step.no + 1  # the next speech, on time
        await t.port.outbox.settle()
        assert any("от имени группы или канала" in x for x in t.chats.texts(HOST.user))
