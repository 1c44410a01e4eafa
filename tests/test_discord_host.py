"""Host mode on Discord (issue 5): the bot runs the table in a server channel.

Driven through discord.py's own objects (:mod:`support.discord_table`): ``/newgame`` and the
players' presses arrive as INTERACTION_CREATE payloads, out-of-turn messages as MESSAGE_CREATE.
The steps' timers run at a scale that never fires in a test; :func:`expire` ends the running
step as its timer would (the step's own close, under the channel's lock).
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any, AsyncIterator

import discord
import pytest

import rules
from bot.host.steps import WRITTEN_GRACE
from bot.i18n import catalog
from rules import Phase, Role
from support.discord_table import CLUB_ID, TABLE_ID, DiscordTable, FakeMessage, table, wait_for

RU = catalog("ru")
HOST_RIGHTS = discord.Permissions(view_channel=True, send_messages=True, attach_files=True,
                                  moderate_members=True, manage_roles=True, manage_messages=True)
NO_OVERWRITE = discord.Permissions(view_channel=True, send_messages=True, attach_files=True,
                                   moderate_members=True)


@pytest.fixture
async def t(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[DiscordTable]:
    async with table(tmp_path / "referee.sqlite3", monkeypatch, timer_scale=1000.0) as running:
        yield running


def host_table(t: DiscordTable) -> Any:
    host = t.referee.host
    assert host is not None
    tables = host.controller.tables_in(t.home)
    assert tables
    return tables[-1]


def message_with(t: DiscordTable, label: str, channel: int = TABLE_ID) -> FakeMessage:
    found = [m for m in t.fake.in_channel(channel, deleted=False) if m.button(label)]
    assert found, (label, [m.text[:60] for m in t.fake.in_channel(channel)])
    return found[-1]


async def expire(t: DiscordTable) -> None:
    """The running step's time is up (what its timer does)."""
    host = t.referee.host
    assert host is not None
    tb = host_table(t)
    assert tb.step is not None
    async with host.controller.held(tb.chat):
        await host.controller.close_step(tb)
    await t.settle()


async def open_table(t: DiscordTable, perms: discord.Permissions = HOST_RIGHTS) -> None:
    """The judge opens a table; the ten players join (their DMs open): the deal and night 0."""
    t.app_permissions = perms
    answer = await t.slash("newgame", options="seed")
    assert RU.text("dc-host-opened") in answer
    for player in t.players:
        reply = await t.press(RU.text("host-btn-join"), actor=player,
                              message=message_with(t, RU.text("host-btn-join")))
        assert RU.text("host-join-done") in reply


def seat_of(t: DiscordTable, player: dict[str, Any]) -> int:
    seat = host_table(t).seat_of(f"dc:{player['id']}")
    assert seat is not None
    return seat


def player_at(t: DiscordTable, seat: int) -> dict[str, Any]:
    user = host_table(t).seats[seat]
    return next(p for p in t.players if f"dc:{p['id']}" == user)


def role_seats(state: rules.GameState, *roles: Role) -> list[int]:
    return [s.number for s in state.seats if s.role in roles]


async def to_night_one(t: DiscordTable) -> None:
    """Night 0 and ten speeches with no nomination: no vote (F24 §4.4.7), night 1."""
    for _ in range(40):
        state = await t.state()
        if state.phase is Phase.NIGHT:
            return
        await expire(t)
    raise AssertionError("night 1 never came")


def channel_texts(t: DiscordTable) -> str:
    return "\n".join(t.public(TABLE_ID))


async def test_the_lobby_deals_roles_in_dms_and_reports_closed_dms(t: DiscordTable) -> None:
    """R1.1: ten players, each gets his role in DMs (blacks learn the blacks, F24 §4.2); a member
    whose DMs are closed is reported and the game waits for him."""
    t.fake.closed_dms.add(int(t.players[9]["id"]))
    t.app_permissions = HOST_RIGHTS
    await t.slash("newgame")
    for player in t.players:
        await t.press(RU.text("host-btn-join"), actor=player, message=message_with(t, RU.text("host-btn-join")))
    assert host_table(t).status == "lobby"
    lobby = message_with(t, RU.text("host-btn-join"))
    assert RU.text("dc-host-dm-closed") in lobby.text
    t.fake.closed_dms.clear()  # he opens his DMs and presses Join again
    await t.press(RU.text("host-btn-join"), actor=t.players[9], message=lobby)
    assert host_table(t).status == "running"
    state = await t.state()
    assert state.phase is Phase.NIGHT_ZERO
    for player in t.players:
        seat = seat_of(t, player)
        role = state.seat(seat).role
        assert role is not None
        assert any(RU.text(f"role-{role.value}") in m for m in t.dm(player))
    # nothing in the channel names a role before the end (F24 §4.4.13)
    for role in ("Шериф", "Дон"):
        assert role not in channel_texts(t)


async def test_night_zero_relays_between_blacks_only(t: DiscordTable) -> None:
    """F24 §4.2: in night 0 a black's DM to the bot goes to the other blacks, to nobody else."""
    await open_table(t)
    state = await t.state()
    blacks = role_seats(state, Role.DON, Role.MAFIA)
    red = next(s for s in rules.SEATS if s not in blacks)
    await t.write(player_at(t, blacks[0]), "стреляем в 4", channel=0)
    for seat in blacks[1:]:
        assert any("стреляем в 4" in m for m in t.dm(player_at(t, seat)))
    assert not any("стреляем в 4" in m for m in t.dm(player_at(t, red)))
    assert "стреляем в 4" not in channel_texts(t)


async def test_a_hosted_night_in_dms(t: DiscordTable) -> None:
    """Night 1: the blacks shoot in DMs (all on one seat: a kill, F24 §4.5.3), the Don and the
    Sheriff check in DMs and get their answers there only (§4.5.6–4.5.7), the victim of night 1
    names his best move (§4.5.9); the channel never names a role or an answer."""
    await open_table(t)
    await to_night_one(t)
    state = await t.state()
    blacks = role_seats(state, Role.DON, Role.MAFIA)
    don, = role_seats(state, Role.DON)
    sheriff, = role_seats(state, Role.SHERIFF)
    victim = next(s for s in rules.SEATS if s not in blacks and s != sheriff)
    assert host_table(t).step.kind == "shooting"
    for seat in blacks:
        shooter = player_at(t, seat)
        dm = t.fake.dms[int(shooter["id"])]
        reply = await t.press(str(victim), actor=shooter, message=message_with(t, str(victim), dm))
        assert RU.text("host-taken") in reply
    # a red player cannot shoot with a black's prompt (not prompted: outdated, nothing changes)
    red = player_at(t, sheriff)
    prompt = message_with(t, f"✓{victim}", t.fake.dms[int(player_at(t, blacks[0])["id"])])
    await t.press(str(sheriff), actor=red, message=prompt)
    assert host_table(t).step.shots == {str(b): victim for b in blacks}
    await expire(t)
    assert host_table(t).step.kind == "don_check"
    don_player = player_at(t, don)
    await t.press(str(sheriff), actor=don_player,
                  message=message_with(t, str(sheriff), t.fake.dms[int(don_player["id"])]))
    await expire(t)
    assert host_table(t).step.kind == "sheriff_check"
    sheriff_player = player_at(t, sheriff)
    await t.press(str(don), actor=sheriff_player,
                  message=message_with(t, str(don), t.fake.dms[int(sheriff_player["id"])]))
    await expire(t)
    after = await t.state()
    assert after.seat(victim).at_table is False  # killed (F24 §4.5.3)
    # the checks' answers (F24 §4.5.6–4.5.7): in the checker's DMs only
    don_answers = [m for m in t.dm(don_player) if m.startswith("Дон проверяет")]
    sheriff_answers = [m for m in t.dm(sheriff_player) if m.startswith("Шериф проверяет")]
    assert len(don_answers) == 1 and len(sheriff_answers) == 1
    everyone_else = [m for p in t.players if p not in (don_player,) for m in t.dm(p)]
    assert don_answers[0] not in everyone_else
    assert sheriff_answers[0] not in [m for p in t.players if p is not sheriff_player for m in t.dm(p)]
    public = channel_texts(t)
    assert "проверяет" not in public
    for role in ("role-don", "role-mafia", "role-sheriff", "role-civilian"):  # no one's card
        assert f"ваша роль — {RU.text(role)}" not in public
    # the best move in the victim's DMs
    if host_table(t).step.kind == "best_move":
        victim_player = player_at(t, victim)
        dm = t.fake.dms[int(victim_player["id"])]
        picks = [s for s in blacks][:3]
        for seat in picks:
            await t.press(str(seat), actor=victim_player, message=message_with(t, str(seat), dm))
        await expire(t)
        assert host_table(t).step.kind == "last_word"


async def test_overwrites_only_the_speaker_writes(t: DiscordTable) -> None:
    """Seed 4.1.1: only the speaker writes. With Manage Permissions every other seated member
    is denied Send Messages in the channel; the speaker's overwrite is lifted."""
    await open_table(t)
    await expire(t)  # night 0 → the first speech
    tb = host_table(t)
    assert tb.flags.mode == "overwrite"
    speaker = tb.step.seat
    denied = {m for (c, m), o in t.fake.overwrites.items() if c == TABLE_ID and o.get("deny") != "0"}
    expected = {int(u.removeprefix("dc:")) for s, u in tb.seats.items() if s != speaker}
    assert denied == expected
    await t.press(RU.text("host-btn-pass"), actor=player_at(t, speaker),
                  message=message_with(t, RU.text("host-btn-pass")))
    following = host_table(t).step.seat
    assert following != speaker
    denied = {m for (c, m), o in t.fake.overwrites.items() if c == TABLE_ID}
    assert int(host_table(t).seats[following].removeprefix("dc:")) not in denied
    assert int(host_table(t).seats[speaker].removeprefix("dc:")) in denied


async def test_a_stale_press_and_a_non_player_press_change_nothing(t: DiscordTable) -> None:
    """A press from an earlier step is outdated; a member who is not at the table cannot raise
    a hand; a non-host cannot stop the table — all answered ephemerally, nothing changes."""
    await open_table(t)
    await expire(t)
    first = host_table(t).step
    speaker = player_at(t, first.seat)
    old = message_with(t, RU.text("host-btn-pass"))
    old_pass = old.button(RU.text("host-btn-pass"))["custom_id"]
    await t.press(RU.text("host-btn-nominate"), actor=speaker, message=old)
    nominate = message_with(t, "5")
    await t.press("5", actor=speaker, message=nominate)
    await t.press(RU.text("host-btn-pass"), actor=speaker, message=message_with(t, RU.text("host-btn-pass")))
    revision = len(await t.service.events(t.home))
    reply = await t.press("", actor=speaker, message=old, custom_id=old_pass)  # repeated
    assert RU.text("host-outdated") in reply
    assert len(await t.service.events(t.home)) == revision
    # the second speaker nominates 6: two nominees, a vote on day 1
    second = player_at(t, host_table(t).step.seat)
    await t.press(RU.text("host-btn-nominate"), actor=second, message=message_with(t, RU.text("host-btn-nominate")))
    target = 6 if host_table(t).step.seat != 6 else 7
    await t.press(str(target), actor=second, message=message_with(t, str(target)))
    for _ in range(12):
        if host_table(t).step.kind == "vote":
            break
        await expire(t)
    step = host_table(t).step
    assert step.kind == "vote"
    hand = next(b["label"] for m in t.fake.in_channel(TABLE_ID, deleted=False)
                for b in m.buttons if b["label"].startswith("✋"))
    window = message_with(t, hand)
    reply = await t.press(hand, actor=t.admin, message=window)
    assert RU.text("host-not-player") in reply
    assert host_table(t).step.hands == []
    voter = player_at(t, 1)
    await t.press(hand, actor=voter, message=window)
    assert host_table(t).step.hands == [1]
    # a non-host member cannot stop the table
    answer = await t.slash("stop", actor=t.players[3])
    assert RU.text("host-not-host", platform="dc") in answer
    assert host_table(t).status == "running"
    # judge mode's commands do not touch the bot's game
    answer = await t.slash("next", actor=t.admin)
    assert "/next" in answer
    assert host_table(t).step.kind == "vote"


async def test_removal_by_fouls_times_the_member_out(t: DiscordTable) -> None:
    """Seed 4.1.1: a message out of one's minute is a foul (no Manage Permissions: timeout mode,
    and a message that reaches the channel all the same is fouled);
    seed 4.5: the 4th foul removes the player — he is timed out until the end of the game, and
    released at its end."""
    await open_table(t, NO_OVERWRITE)
    await expire(t)
    tb = host_table(t)
    assert tb.flags.mode == "timeout"
    speaker = tb.step.seat
    offender_seat = 10 if speaker != 10 else 9
    offender = player_at(t, offender_seat)
    # in timeout mode he is timed out during the speech; a message that slips through is a foul
    for _ in range(4):
        await t.write(offender, "я мирный!")
    state = await t.state()
    assert not state.seat(offender_seat).at_table
    assert dict(state.departures())[offender_seat].cause is rules.Cause.FOULS
    assert t.fake.timeouts.get(int(offender["id"])) is not None
    assert f"dc:{offender['id']}" in host_table(t).flags.removed
    # the host stops the table: every timeout is lifted
    await t.slash("stop")
    assert host_table(t).status == "stopped"
    assert t.fake.timeouts.get(int(offender["id"])) is None


async def test_a_short_hosted_game_to_its_result(t: DiscordTable) -> None:
    """The host disqualifies the three blacks (seed 4.2): the reds win (F24 §1.4); the result
    with the roles goes to the channel and to the linked club channel; the members are released."""
    await t.slash("channel", perms=discord.Permissions(manage_channels=True), channel=CLUB_ID)
    await open_table(t)
    await expire(t)
    state = await t.state()
    blacks = role_seats(state, Role.DON, Role.MAFIA)
    for seat in blacks:
        await t.slash("dq", seat=seat)
    state = await t.state()
    assert state.phase is Phase.GAME_OVER
    assert host_table(t).status == "over"
    result = channel_texts(t)
    assert RU.text("role-sheriff") in result  # the roles revealed at the end
    club = "\n".join(t.public(CLUB_ID))
    assert RU.text("dc-host-club-linked", channel=f"<#{TABLE_ID}>") in club
    assert RU.text("host-channel-result", title=f"<#{TABLE_ID}>", length="", result="").split(
        "\n")[0].split("«")[0] in club and f"<#{TABLE_ID}>" in club
    assert not [o for (c, _), o in t.fake.overwrites.items() if c == TABLE_ID]
    assert all(v is None for v in t.fake.timeouts.values())


async def test_a_restart_between_a_pass_and_the_next_step_opens_it_at_once(t: DiscordTable) -> None:
    """The speaker's «Пас» is committed and the process dies before the next step is stored: at
    the restart the next speaker gets the floor at once (F24 §4.3.2), not when the old speech's
    time would have run out, and the old «Пас» pressed again is out of date (it does not pass
    for the next speaker)."""
    from bot.discord.host import DiscordHost

    await open_table(t)
    await expire(t)  # night 0 is over: the first speech
    host = t.referee.host
    assert host is not None
    first = host_table(t).step
    speaker = player_at(t, first.seat)
    old = message_with(t, RU.text("host-btn-pass"))
    old_pass = old.button(RU.text("host-btn-pass"))["custom_id"]

    async def died(*args: Any, **kwargs: Any) -> None:
        return None

    host.controller._advance = died  # type: ignore[method-assign]  # dies right after the commit
    await t.press(RU.text("host-btn-pass"), actor=speaker, message=old)
    assert (await t.state()).speaker == first.seat + 1
    t.referee.tasks.cancel_all()  # the process is gone: its timers with it
    t.referee.host = DiscordHost(t.referee)  # the new process's host, before the gateway
    await t.referee.host.resume()
    step = host_table(t).step
    assert step.no == first.no + 1 and step.seat == first.seat + 1
    events = len(await t.service.events(t.home))
    reply = await t.press("", actor=speaker, message=old, custom_id=old_pass)
    assert RU.text("host-outdated") in reply
    assert len(await t.service.events(t.home)) == events
    assert (await t.state()).speaker == first.seat + 1


async def test_two_silent_speeches_in_a_row_are_leaving_the_table(t: DiscordTable) -> None:
    """The stated option ``absent`` (default 2) in Discord too: a player whose two own day
    speeches in a row ran out with nothing written or pressed has left the table — seed 4.2.1,
    a disqualifying foul, no last word (seed 4.5). A speaker who pressed «Пас» on day 1 and
    was silent on day 2 stays (one silent speech in a row)."""
    await open_table(t)
    assert any("Пропуск ходов" in x for x in t.public())  # the lobby states the option
    await expire(t)  # night 0
    for _ in range(10):  # day 1: #2 passes, everyone else lets the time run out
        step = host_table(t).step
        if step.seat == 2:
            await t.press(RU.text("host-btn-pass"), actor=player_at(t, 2),
                          message=message_with(t, RU.text("host-btn-pass")))
        else:
            await expire(t)
    assert all(s.at_table for s in (await t.state()).seats)  # one silent speech is not enough
    for _ in range(10):  # night 1, nobody shoots (a miss, F24 §4.5.5); day 2 from #2
        if (await t.state()).phase is Phase.SPEECH:
            break
        await expire(t)
    assert (await t.state()).speaker == 2
    await expire(t)  # #2: silent once in a row — he stays
    assert (await t.state()).seat(2).at_table and (await t.state()).speaker == 3
    await expire(t)  # #3: twice in a row — he has left the table
    state = await t.state()
    departure = state.seat(3).departure
    assert departure is not None and departure.reason == "4.2.1"
    assert any(x.startswith("№3: 2 свои речи подряд") and "(4.2.1)" in x for x in t.public())
    assert not any("Последнее слово, №3" in x for x in t.public())  # seed 4.5
    assert state.phase is Phase.SPEECH and state.speaker == 4


async def test_a_stopped_table_lets_the_channel_open_a_new_one(t: DiscordTable) -> None:
    """/stop records the game as abandoned; the channel may then open a new table at once."""
    await open_table(t)
    first = host_table(t).id
    await t.slash("stop")
    assert host_table(t).status == "stopped"
    answer = await t.slash("newgame", options="seed")
    assert RU.text("dc-host-opened") in answer
    assert host_table(t).id != first and host_table(t).status == "lobby"


async def test_a_host_press_that_fails_outside_the_controller_is_answered(
        t: DiscordTable, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 21: a host-mode press whose handling fails where the controller cannot answer it
    is answered ephemerally (an internal error) instead of Discord's "This interaction failed";
    the table goes on."""
    t.app_permissions = HOST_RIGHTS
    await t.slash("newgame", options="seed")
    host = t.referee.host
    assert host is not None
    press = host.controller.press

    async def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(host.controller, "press", broken)
    reply = await t.press(RU.text("host-btn-join"), actor=t.players[0],
                          message=message_with(t, RU.text("host-btn-join")))
    assert reply == RU.text("error-internal")
    assert host_table(t).players == []
    monkeypatch.setattr(host.controller, "press", press)
    reply = await t.press(RU.text("host-btn-join"), actor=t.players[0],
                          message=message_with(t, RU.text("host-btn-join")))
    assert RU.text("host-join-done") in reply


# --- fair under lag (the same controller as on Telegram: tests/test_host_lag.py) ---------------------

def to_table(words: str):  # noqa: ANN201 - a fault's match
    """A post in the table's channel whose text has ``words``."""
    return lambda call: (call.method == "POST" and call.url.endswith(f"/channels/{TABLE_ID}/messages")
                         and words in str((call.payload or {}).get("content")))


async def test_a_speech_held_by_a_429_starts_when_it_is_shown(t: DiscordTable) -> None:
    """#2's speech message is answered with a 429 twice (the outbox waits them out): his
    minute is counted from when the message with its buttons is in the channel, never from
    before (F24 §4.3.1)."""
    await open_table(t)
    await expire(t)  # night 0 ends: #1 speaks
    fault = t.server.rate_limit(to_table("Слово игроку №2"), times=2, retry_after=0.5)
    await expire(t)  # #1's minute runs out
    await wait_for(lambda: host_table(t).step.started, what="#2's speech shown")
    step = host_table(t).step
    assert fault.hits == 2 and step.seat == 2
    posted = [c for c in t.fake.calls if to_table("Слово игроку №2")(c) and c.status == 200]
    assert posted and step.opened >= posted[0].at
    assert step.deadline - step.opened == step.seconds * 1000.0
    assert t.fake.messages[step.message].button(RU.text("host-btn-pass"))


async def test_slow_direct_messages_hold_up_nothing_the_channel_sees(t: DiscordTable) -> None:
    """Every call to a player's DMs answers 5 s late from day 1 on. When the shooting ends the
    channel's night message moves on to the Don's step at once: the prompts' closing and the
    like leave in the background, still on their way (F24 §4.5: the night's timing must not
    tell who was written to)."""
    await open_table(t)
    dms = {str(channel) for channel in t.fake.dms.values()}
    t.server.slow(5.0, lambda call: any(f"/channels/{dm}/" in call.url for dm in dms))
    host = t.referee.host
    assert host is not None
    for _ in range(40):  # night 0 and day 1 with no nomination: night 1
        if (await t.state()).phase is Phase.NIGHT:
            break
        tb = host_table(t)
        async with host.controller.held(tb.chat):
            await host.controller.close_step(tb)
    assert host_table(t).step.kind == "shooting"
    tb = host_table(t)
    async with host.controller.held(tb.chat):
        await host.controller.close_step(tb)  # the shooting ends: the Don's step
    assert host_table(t).step.kind == "don_check" and host_table(t).step.started
    waiting = [c for c in t.fake.calls if any(f"/channels/{dm}/" in c.url for dm in dms) and not c.status]
    assert waiting, "the channel's step waited for the players' DMs"


async def test_a_forged_button_is_outdated_and_changes_nothing(t: DiscordTable) -> None:
    """Buttons of our shape that no step of this table shows — a seat that does not exist, a
    wrong step, another table — are answered "outdated"; nothing is logged."""
    await open_table(t)
    await expire(t)
    tb = host_table(t)
    speaker = player_at(t, tb.step.seat)
    message = message_with(t, RU.text("host-btn-pass"))
    events = len(await t.service.events(t.home))
    for forged in (f"h:{tb.id}:{tb.step.no}:M:0", f"h:{tb.id}:{tb.step.no}:M:11",
                   f"h:{tb.id}:{tb.step.no}:M:ab", f"h:{tb.id}:{tb.step.no}:Z",
                   f"h:{tb.id}:{tb.step.no + 5}:P", f"h:{tb.id + 1}:{tb.step.no}:P"):
        reply = await t.press("", actor=speaker, message=message, custom_id=forged)
        assert RU.text("host-outdated") in reply, forged
    assert len(await t.service.events(t.home)) == events
    assert host_table(t).step.no == tb.step.no


async def test_a_host_who_plays_does_not_judge(t: DiscordTable) -> None:
    """The member who opened the table joins it as its tenth player: the lobby says the host
    plays; the host's /foul is refused, a member with Manage Channels who does not play fouls."""
    t.app_permissions = HOST_RIGHTS
    await t.slash("newgame", options="seed")
    for player in [*t.players[:9], t.judge]:
        await t.press(RU.text("host-btn-join"), actor=player,
                      message=message_with(t, RU.text("host-btn-join")))
    assert "играет за столом, поэтому не судит" in channel_texts(t)
    host_seat = seat_of(t, t.judge)
    other = 3 if host_seat != 3 else 4
    answer = await t.slash("foul", seat=other, perms=discord.Permissions(manage_channels=True))
    assert RU.text("host-not-host", platform="dc") in answer
    assert (await t.state()).seat(other).fouls == []
    await t.slash("foul", seat=host_seat, actor=t.admin, perms=discord.Permissions(manage_channels=True))
    assert len((await t.state()).seat(host_seat).fouls) == 1


async def test_status_at_night_shows_nothing_of_the_night(t: DiscordTable) -> None:
    """The blacks shoot a red; in the Don's check /status lists the seats as before the shot."""
    await open_table(t)
    await to_night_one(t)
    before = await t.slash("status", actor=t.players[0])
    state = await t.state()
    blacks = [s for s in role_seats(state, Role.DON, Role.MAFIA)]
    victim = next(s for s in role_seats(state, Role.CIVILIAN))
    for black in blacks:
        user = player_at(t, black)
        dm = t.fake.dms[int(user["id"])]
        prompt = next(m for m in reversed(t.fake.in_channel(dm, deleted=False)) if m.button(str(victim)))
        await t.press(str(victim), actor=user, message=prompt)
    await expire(t)
    assert host_table(t).step.kind == "don_check"
    after = await t.slash("status", actor=t.players[0])
    assert after.split("\n", 1)[1] == before.split("\n", 1)[1], (before, after)
    assert (await t.state()).seat(victim).departure is not None  # shot: the engine knows


async def test_a_message_is_judged_by_when_it_was_written(t: DiscordTable) -> None:
    """Discord stamps a message with its id: one written in the writer's own minute but read in
    the next speaker's is no foul (seed 4.1.1; F24 §4.3.1), and his «Пас» at the boundary
    passes nothing; one written in another's minute is that minute's foul though read later."""
    await open_table(t, NO_OVERWRITE)
    port = t.referee.host.controller.port
    later = 0.0  # the table's clock runs ahead of real time by this (a minute passing)
    port.clock = lambda: time.time() + later  # type: ignore[method-assign]
    await expire(t)
    first = host_table(t).step
    speaker, other = player_at(t, first.seat), player_at(t, first.seat % 10 + 2)
    written = first.opened + 1.0  # in the first minute
    later = 60.0
    await expire(t)
    second = host_table(t).step
    await t.write(speaker, "и последнее: я мирный", written_at=written)
    await t.write(speaker, "Пас", written_at=written + 0.5)
    state = await t.state()
    assert state.seat(first.seat).fouls == [] and host_table(t).step.no == second.no
    await t.write(other, "это неправда", written_at=written)
    assert len((await t.state()).seat(first.seat % 10 + 2).fouls) == 1  # out of turn then
    await t.write(speaker, "ещё одно")  # written now, in the second minute: out of turn
    assert len((await t.state()).seat(first.seat).fouls) == 1


@pytest.mark.parametrize("after, foul", [(WRITTEN_GRACE - 0.5, False), (WRITTEN_GRACE + 1.0, True)])
async def test_a_stamp_within_the_grace_of_ones_minute_is_his(t: DiscordTable, after: float,
                                                              foul: bool) -> None:
    """Issue 35: the doubt goes to the writer. A message the speaker of the first minute wrote
    just after it closed — within WRITTEN_GRACE, which clocks that differ may put there — is his:
    no foul; beyond the grace it was written in the next speaker's minute (seed 4.1.1)."""
    await open_table(t, NO_OVERWRITE)
    port = t.referee.host.controller.port
    later = 0.0
    port.clock = lambda: time.time() + later  # type: ignore[method-assign]
    await expire(t)
    first = host_table(t).step
    speaker = player_at(t, first.seat)
    later = 60.0
    await expire(t)
    closed = host_table(t).flags.recent[-1]["closed"]
    await t.write(speaker, "и последнее: я мирный", written_at=closed + after)
    assert len((await t.state()).seat(first.seat).fouls) == (1 if foul else 0)


async def test_a_slash_nomination_sent_in_ones_minute_and_read_after_it_is_refused_saying_why(
        t: DiscordTable) -> None:
    """F24 §4.4.2: a nomination is made in one's own speech. #1's /nominate sent a second before
    his minute ended reaches the bot after it: Discord's stamp of the interaction says when it
    was sent, so he is told his minute was over before it arrived — not that it is not his
    minute — and nobody is nominated."""
    await open_table(t)
    await expire(t)  # night 0 → #1's speech
    first = host_table(t).step
    assert first is not None and first.kind == "speech"
    speaker = player_at(t, first.seat)
    await expire(t)  # his minute is over; #2 speaks
    record = next(r for r in reversed(host_table(t).flags.recent) if r["seat"] == first.seat)
    answer = await t.slash("nominate", actor=speaker, target=7, written_at=record["closed"] - 1)
    assert answer == RU.text("host-nomination-late", target="№7", rules="seed")
    assert (await t.state()).nominations == []
