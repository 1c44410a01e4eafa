"""Host mode under faults and bad input (issue #6), through the real PTB Application against the
fake Bot API: Telegram's 429 and network errors on muting (``restrictChatMember``), a player who
renames himself (identity is the user id, not the name), the same vote press delivered twice,
the host's commands with bad seats or a 5000-character argument, a speaker leaving the group in
the middle of his own minute (seed 4.2.1).

What ``test_host_table.py`` and ``test_outbox_host.py`` already cover (the lobby, the rights, stop,
muting, fouls for speaking out of turn, a non-speaker leaving / blocking the bot, the supergroup
migration) is not repeated.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any, AsyncIterator

import pytest
from telegram import Update

import rules
from bot.i18n import catalog
from bot.render import error_text
from fakebot import FakeBotAPI, FakeWorldError
from rules import Cause
from support.host_table import FAST, HostTable, host_table, make_world

CAT = catalog("ru")
LONG = "x" * 5000
# A speech long enough (600 s × SCALE = 30 s) that no timer moves the game during a check.
SLOW = f"{FAST} timers.speech=600"


pytestmark = pytest.mark.usefixtures("ptb_timedelta")  # PTB gives retry_after as a timedelta



@pytest.fixture
async def t(fake: FakeBotAPI, tmp_path: Path) -> AsyncIterator[HostTable]:
    async with host_table(fake, tmp_path / "db.sqlite3") as running:
        yield running


async def log_of(t: HostTable) -> list[rules.Event]:
    return await t.service.events(f"tg:{t.group.id}")


async def logged_votes(t: HostTable) -> list[rules.Vote]:
    """The Vote events once the first window has closed and its vote is logged."""
    found: list[rules.Vote] = []

    async def poll() -> None:
        while True:
            found[:] = [e for e in rules.effective(await log_of(t)) if isinstance(e, rules.Vote)]
            if found:
                return
            await asyncio.sleep(0.05)

    await asyncio.wait_for(poll(), 10)
    return found


def restrict_calls(t: HostTable, user_id: int) -> list[Any]:
    return [c for c in t.fake.calls_to("restrictChatMember") if c.params.get("user_id") == user_id]


def is_mute(call: Any) -> bool:
    permissions = call.params.get("permissions") or {}
    return not permissions.get("can_send_messages", True)


# --- muting under Telegram's errors ------------------------------------------------------------------

async def test_a_429_on_a_mute_is_waited_out_and_the_mute_still_happens(t: HostTable) -> None:
    """ENGINEERING.md §2: RetryAfter is honoured. When #1's minute ends the bot mutes him and
    lets #2 speak (F24 §4.3.1); a 429 on #1's mute delays it, it is not dropped: #1 ends muted,
    #2 unmuted, the table stays in restrict mode, and no call follows the 429 before its wait."""
    await t.open_and_fill(SLOW)
    await t.wait_floor(1, consume=False)
    first, second = t.user(1), t.user(2)
    fault = t.fake.fail_next("restrictChatMember", 429, retry_after=1,
                             match=lambda p: p.get("user_id") == first.id)
    await t.pass_turn(1)
    await t.wait_floor(2, consume=False)
    await t.fake.wait_for(lambda: fault.remaining == 0 and any(
        c.ok for c in restrict_calls(t, first.id)[-1:]), what="the retried mute")
    await t.fake.wait_for(lambda: t.fake.restrictions(t.group, second) is None
                          or t.fake.restrictions(t.group, second).can_send_messages,  # type: ignore[union-attr]
                          what="#2 unmuted")
    mutes = restrict_calls(t, first.id)
    failed = [c for c in mutes if c.error_code == 429]
    assert len(failed) == 1 and is_mute(failed[0])
    retried = mutes[mutes.index(failed[0]) + 1]
    assert retried.ok and is_mute(retried)
    assert retried.at - failed[0].at >= 0.9  # retry_after honoured (1 s)
    restriction = t.fake.restrictions(t.group, first)
    assert restriction is not None and not restriction.can_send_messages
    with pytest.raises(FakeWorldError, match="muted"):
        t.fake.user_sends(first, t.group, "ещё слово")
    said = await t.say(second, "Моя минута")  # the speaker writes
    assert not said.deleted
    assert t.table().flags.mode == "restrict"
    assert not any(CAT.text("host-mute-failed") in x for x in t.group_texts())
    # in order: #2 was unmuted only after #1's mute went through (mute first, then the speaker)
    unmute_2 = [c for c in restrict_calls(t, second.id) if c.ok and not is_mute(c)]
    assert unmute_2 and unmute_2[-1].at >= retried.at


async def test_a_network_error_on_a_mute_is_not_a_lost_right(t: HostTable) -> None:
    """A dropped connection on restrictChatMember is not a lost right: the mute is tried again
    and the table keeps muting (no fallback to fouls, no notice)."""
    await t.open_and_fill(SLOW)
    await t.wait_floor(1, consume=False)
    first = t.user(1)
    t.fake.fail_next("restrictChatMember", None, disconnect=True,
                     match=lambda p: p.get("user_id") == first.id)
    await t.pass_turn(1)
    await t.wait_floor(2, consume=False)
    await asyncio.sleep(0.5)
    assert t.table().flags.mode == "restrict"
    assert not any(CAT.text("host-mute-failed") in x for x in t.group_texts())
    restriction = t.fake.restrictions(t.group, first)
    assert restriction is not None and not restriction.can_send_messages


async def test_a_lost_restrict_right_falls_back_to_fouls(t: HostTable) -> None:
    """The owner takes the bot's right to restrict away mid-game (400 from Telegram): the bot
    says so once and from then on a message out of turn is a foul (seed 4.1.1)."""
    await t.open_and_fill(SLOW)
    await t.wait_floor(1, consume=False)
    rights = {"can_restrict_members": False, "can_delete_messages": True}
    t.fake.set_bot_status(t.group, "administrator", rights=rights)
    await t.pass_turn(1)
    await t.wait_floor(2, consume=False)
    await t.fake.wait_for(lambda: any(CAT.text("host-mute-failed") in x for x in t.group_texts()),
                          what="the fallback notice")
    assert t.table().flags.mode == "foul"
    assert sum(CAT.text("host-mute-failed") in x for x in t.group_texts()) == 1
    noisy = t.user(5)
    if t.fake.restrictions(t.group, noisy) is None or t.fake.restrictions(t.group, noisy).can_send_messages:  # type: ignore[union-attr]
        message = await t.say(noisy, "я не в свою минуту")
        assert message.deleted
        assert (await t.state()).seat(5).fouls == ["4.1.1"]


# --- identity is the user id -----------------------------------------------------------------------

async def test_a_player_who_renames_himself_keeps_his_seat(t: HostTable) -> None:
    """A player changes his Telegram name mid-game: he is still his seat (the table knows him by
    his user id) — he speaks in his minute, nominates, passes, and his hand counts in the vote."""
    await t.open_and_fill(FAST)
    first, fifth = t.user(1), t.user(5)
    t.fake.rename_user(first, "Аннушка", "Новая")
    t.fake.rename_user(fifth, "Дина-2")
    await t.wait_floor(1, consume=False)
    said = await t.say(first, "Я по-прежнему первый")
    assert not said.deleted and (await t.state()).seat(1).fouls == []
    assert t.seat(first) == 1
    await t.nominate(1, 7)
    await t.press(first, t.step_message(), "Пас")
    await t.speeches([2, 3, 4, 5, 6, 7, 8, 9, 10], {2: 8})
    await t.vote(7, [1, 5, 6])
    votes = await logged_votes(t)
    state = await t.state()
    assert votes and votes[0].nominee == 7 and set(votes[0].voters) == {1, 5, 6}
    assert state.seat(1).at_table and state.seat(5).at_table


# --- the same press twice ------------------------------------------------------------------------------

async def test_the_same_vote_press_delivered_twice_counts_once(t: HostTable) -> None:
    await t.open_and_fill(FAST)
    await t.speeches(list(range(1, 11)), {1: 7, 2: 8})
    step = await t.wait_step("vote", 7)
    message = t.fake.message(t.group, step.message)
    voter = t.user(3)
    qid = await t.press(voter, message, "Против")
    assert t.seat(voter) in t.step().hands  # type: ignore[union-attr]
    raw = {"update_id": 10**6, "callback_query": {
        "id": qid, "from": voter.to_api(), "message": message.to_api(),
        "chat_instance": str(abs(t.group.id) * 7 + 13), "data": message.callback_data("Против")}}
    done = t.processor.done
    await t.app.update_queue.put(Update.de_json(raw, t.app.bot))
    await t.fake.wait_for(lambda: t.processor.done > done, what="the repeated query")
    votes = await logged_votes(t)  # the window against #7 closed
    assert votes and votes[0].nominee == 7 and 3 in votes[0].voters


async def test_the_same_pass_press_delivered_twice_passes_once(t: HostTable) -> None:
    """«Пас» of #1 delivered twice (same query id): #1's minute ends once, #2 keeps the floor."""
    await t.open_and_fill(SLOW)
    await t.wait_floor(1, consume=False)
    message = t.step_message()
    speaker = t.user(1)
    data = message.callback_data("Пас")
    log = await log_of(t)
    qid = await t.press(speaker, message, "Пас")
    await t.wait_floor(2, consume=False)
    raw = {"update_id": 10**6, "callback_query": {
        "id": qid, "from": speaker.to_api(), "message": message.to_api(),
        "chat_instance": str(abs(t.group.id) * 7 + 13), "data": data}}
    done = t.processor.done
    await t.app.update_queue.put(Update.de_json(raw, t.app.bot))
    await t.fake.wait_for(lambda: t.processor.done > done, what="the repeated query")
    assert await log_of(t) == [*log, rules.Next()]
    assert (await t.state()).speaker == 2


# --- the host's commands with bad arguments ------------------------------------------------------------

BAD_HOST_COMMANDS = [
    ("/foul 0", "command-bad_seat", {"command": "foul", "argument": "0"}),
    ("/foul 11", "command-bad_seat", {"command": "foul", "argument": "11"}),
    ("/foul -1", "command-bad_seat", {"command": "foul", "argument": "-1"}),
    ("/ppk abc", "command-bad_seat", {"command": "ppk", "argument": "abc"}),
    ("/dq 11 4.2.4", "command-bad_seat", {"command": "dq", "argument": "11"}),
    ("/foul " + LONG, "command-too_long", {"length": len("/foul " + LONG), "limit": 500}),
]


async def test_the_hosts_bad_commands_are_answered_and_change_nothing(fake: FakeBotAPI,
                                                                     tmp_path: Path) -> None:
    """Each refusal is one message in the group, the catalog's text — what was typed never
    repeated there, «…» instead (issue 36) —, and the log is unchanged. (Player #3 is a chat
    admin: the bot cannot mute him, so he can type out of turn: his command is then a message
    out of turn, a foul, and not answered.)"""
    async with host_table(fake, tmp_path / "db.sqlite3", make_world(fake, admins=(3,))) as t:
        await bad_commands(t)


async def bad_commands(t: HostTable) -> None:
    spectator = t.fake.add_user("Зритель", "fan")
    t.fake.set_member(t.group, spectator)
    await t.open_and_fill(SLOW)
    await t.wait_floor(1, consume=False)
    log = await log_of(t)
    for line, key, params in BAD_HOST_COMMANDS:
        count = len(t.fake.sent(t.group))
        await t.say(t.owner, line)
        sent = t.fake.sent(t.group)[count:]
        typed = {"argument": CAT.text("said-unquoted")} if "argument" in params else {}
        assert [m.text for m in sent] == [CAT.text(key, **{**params, **typed})], line
    # a spectator is neither the host nor an admin: his /foul is refused whatever its seat
    await t.say(spectator, "/foul 4")
    assert t.group_texts()[-1] == CAT.text("host-not-host")
    # the speaker nominates a seat that does not exist (R1.1) or nominates for another
    speaker = t.user(1)
    await t.say(speaker, "/nominate 11")
    assert t.group_texts()[-1] == CAT.text("command-bad_seat", command="nominate", argument="…")
    await t.say(speaker, "/nominate 3 4")
    refusal = rules.RuleError(rules.Code.NOT_SPEAKER, seat=3, speaker=1)
    assert t.group_texts()[-1] == error_text(refusal, CAT)
    assert await log_of(t) == log
    # someone else's /nominate, out of his minute: a message out of turn (seed 4.1.1), unanswered
    answered = len(t.group_texts())
    typed = await t.say(t.user(3), "/nominate 4")
    assert typed.deleted and (await t.state()).seat(3).fouls == ["4.1.1"]
    assert not any(CAT.text("host-not-speaker") in x for x in t.group_texts()[answered:])
    assert (await t.state()).nominees == []


async def test_a_non_player_pressing_the_speakers_button(t: HostTable) -> None:
    """A spectator (a group member not at the table) presses «Пас»: refused, nothing changes."""
    spectator = t.fake.add_user("Зритель", "fan")
    t.fake.set_member(t.group, spectator)
    await t.open_and_fill(SLOW)
    await t.wait_floor(1, consume=False)
    log = await log_of(t)
    qid = await t.press(spectator, t.step_message(), "Пас")
    record = t.fake.callback_answers[qid]
    assert (record.text, bool(record.show_alert)) == (CAT.text("host-not-player"), True)
    qid = await t.press(t.user(4), t.step_message(), "Пас")  # a player, not the speaker
    record = t.fake.callback_answers[qid]
    assert (record.text, bool(record.show_alert)) == (CAT.text("host-not-speaker"), True)
    assert await log_of(t) == log and (await t.state()).speaker == 1


# --- leaving the group in one's own minute ---------------------------------------------------------------

async def test_the_speaker_leaving_the_group_leaves_the_table(t: HostTable) -> None:
    """Seed 4.2.1: leaving the table is a disqualifying foul — also for the speaker in his own
    minute; the floor passes to the next seat (F24 §4.3.2), and he never speaks again."""
    await t.open_and_fill(SLOW)
    await t.wait_floor(1, consume=False)
    await t.pass_turn(1)
    await t.wait_floor(2, consume=False)
    leaver = t.user(2)
    await t._handled(lambda: t.fake.user_leaves(leaver, t.group), "leaving")
    await t.fake.wait_for(lambda: any("№2 покидает игру" in x for x in t.group_texts()),
                          what="the announcement")
    state = await t.state()
    assert state.seat(2).departure.cause is Cause.DISQUALIFICATION
    assert state.seat(2).departure.reason == "4.2.1"
    step = await t.wait_floor(3)
    assert step.seat == 3 and (await t.state()).speaker == 3
