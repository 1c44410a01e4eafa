"""Voice tables on Discord (issue 19): the floor given in a voice channel by server mutes.

The real discord.py client gets the gateway's VOICE_STATE_UPDATE payloads (members joining,
moving, leaving, muting themselves) from the fake Discord and makes its HTTP calls to it; the
fake keeps each member's server mute as Discord does — across channels, while he is away, until
it is lifted, and refuses to set or lift it on a member not connected to voice (40032), on the
server's owner or a member whose role is above the bot's, or without Mute Members (50013).

What must hold, whatever the table's size: in a speech, a last word or a tie speech only the
speaker is heard (F24 §4.3.1, §4.4.12–4.4.13); in a silenced minute (seed 4.4), a vote and the
night nobody is; a player the rules removed stays muted; the judge (judge mode) never is; and
every mute is lifted at the end, at /stop and after a restart — also for a member who was away.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, AsyncIterator

import discord
import pytest

import rules
from bot.i18n import catalog
from rules import Phase, Role
from support.discord_table import LOUNGE_ID, TABLE_ID, VOICE_ID, DiscordTable, FakeMessage, table

RU = catalog("ru")
VOICE_RIGHTS = discord.Permissions(view_channel=True, send_messages=True, attach_files=True,
                                   moderate_members=True, manage_messages=True, mute_members=True)


@pytest.fixture
async def t(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[DiscordTable]:
    async with table(tmp_path / "referee.sqlite3", monkeypatch, timer_scale=1000.0) as running:
        yield running


def uid(member: dict[str, Any]) -> int:
    return int(member["id"])


def host_table(t: DiscordTable) -> Any:
    host = t.referee.host
    assert host is not None
    return host.controller.tables_in(t.home)[-1]


def message_with(t: DiscordTable, label: str, channel: int = TABLE_ID) -> FakeMessage:
    found = [m for m in t.fake.in_channel(channel, deleted=False) if m.button(label)]
    assert found, label
    return found[-1]


def seat_members(t: DiscordTable) -> dict[int, int]:
    """Host mode: seat -> member id."""
    return {seat: int(user.removeprefix("dc:")) for seat, user in host_table(t).seats.items()}


def player_at(t: DiscordTable, seat: int) -> dict[str, Any]:
    member = seat_members(t)[seat]
    return next(p for p in t.players if uid(p) == member)


def floor(state: rules.GameState) -> set[int]:
    """Who may speak, by the rules alone: the speaker of a speech (not a silenced one, seed
    4.4), a last word or a tie speech; nobody otherwise."""
    step = rules.expected(state)
    if isinstance(step, rules.Speech) and not step.silenced:
        return {step.seat}
    if isinstance(step, (rules.LastWord, rules.TieSpeech)):
        return {step.seat}
    return set()


def in_voice(t: DiscordTable, channel: int = VOICE_ID) -> set[int]:
    return {m for m, state in t.fake.voice.items() if int(state["channel_id"]) == channel}


async def check_floor(t: DiscordTable, seats: dict[int, int], *, never: set[int] = frozenset()) -> None:
    """Everyone seated and connected is server-muted but who has the floor (``never``: who the
    bot may not, or must not, mute); nobody else connected is. (A member away keeps whatever
    mute he left with: Discord lifts none while he is away.)"""
    state = await t.state()
    speaking = {seats[s] for s in floor(state) if s in seats}
    here = in_voice(t)
    expected = {m for m in seats.values() if m in here} - speaking - set(never)
    if state.phase is Phase.GAME_OVER:
        expected = set()  # the end lets everyone go
    assert t.fake.muted_now() & here == expected, (rules.expected(state), sorted(seats))


async def expire(t: DiscordTable) -> None:
    host = t.referee.host
    assert host is not None
    tb = host_table(t)
    async with host.controller.held(tb.chat):
        await host.controller.close_step(tb)
    await t.settle()


async def everyone_joins(t: DiscordTable, *, judge: bool = True) -> None:
    for member in [*t.players, *([t.judge] if judge else [])]:
        await t.voice(member, VOICE_ID)


async def open_voice_table(t: DiscordTable, perms: discord.Permissions = VOICE_RIGHTS) -> str:
    """Everyone in the voice channel; the judge opens a voice table, the ten join: the deal and
    night 0. The lobby's text."""
    await everyone_joins(t)
    t.app_permissions = perms
    answer = await t.slash("newgame", options="seed", voice=VOICE_ID)
    assert RU.text("dc-host-opened") in answer
    lobby = message_with(t, RU.text("host-btn-join")).text
    for player in t.players:
        await t.press(RU.text("host-btn-join"), actor=player, message=message_with(t, RU.text("host-btn-join")))
    assert host_table(t).status == "running"
    return lobby


async def shoot(t: DiscordTable, victim: int) -> None:
    state = await t.state()
    for seat in [s.number for s in state.seats if s.role in (Role.DON, Role.MAFIA) and s.at_table]:
        shooter = player_at(t, seat)
        await t.press(str(victim), actor=shooter,
                      message=message_with(t, str(victim), t.fake.dms[uid(shooter)]))


async def play_to_the_end(t: DiscordTable, **check: Any) -> set[int]:
    """A whole hosted game: on day 2 two nominations (a vote, a last word), every night a red
    shot; after each step the floor is checked. The table sizes seen at the speeches."""
    seats = seat_members(t)
    sizes: set[int] = set()
    nominated: set[int] = set()
    for _ in range(400):
        state = await t.state()
        await check_floor(t, seats, **check)
        if state.phase is Phase.GAME_OVER:
            return sizes
        step = rules.expected(state)
        if isinstance(step, rules.Speech):
            sizes.add(len([s for s in state.seats if s.at_table]))
            if state.day == 2 and len(nominated) < 2:
                target = max(s.number for s in state.seats if s.at_table and s.number not in nominated
                             and s.number != step.seat)
                await t.slash("nominate", actor=player_at(t, step.seat), target=target)
                nominated.add(target)
                await check_floor(t, seats, **check)
        elif isinstance(step, rules.Shooting):
            reds = [s.number for s in state.seats if s.at_table and s.role is Role.CIVILIAN]
            await shoot(t, reds[0])
        await expire(t)
    raise AssertionError("the game never ended")


async def test_a_whole_voice_game_gives_the_floor_to_each_speaker_only(t: DiscordTable) -> None:
    """Host mode: night 0 mutes everyone; each speech unmutes exactly its speaker (tables of 10
    down to the blacks' parity), a vote and the night mute everyone, a last word unmutes the
    leaver; the end lifts every mute. The lobby says how the table is kept quiet."""
    lobby = await open_voice_table(t)
    assert RU.text("dc-voice-lobby", right="yes") in lobby
    tb = host_table(t)
    assert tb.flags.mode == "voice"
    seats = seat_members(t)
    assert t.fake.muted_now() == set(seats.values())  # night 0 (F24 §4.2): nobody speaks
    assert uid(t.judge) not in t.fake.muted_now()  # the host who does not play is never muted
    sizes = await play_to_the_end(t)
    assert 10 in sizes and min(sizes) <= 7 and len(sizes) >= 3  # the table shrinks
    assert host_table(t).status == "over"
    assert t.fake.muted_now() == set()  # every mute lifted at the end
    patches = [c for c in t.fake.calls if c.method == "PATCH" and "mute" in (c.payload or {})]
    assert patches and all(c.status == 200 for c in patches)


async def test_stop_lifts_every_mute_and_a_member_away_gets_it_lifted_on_return(t: DiscordTable) -> None:
    """/stop lifts every mute — a member who left the channel muted keeps Discord's server mute
    (it cannot be lifted while he is away), so it is lifted when he connects again, anywhere."""
    await open_voice_table(t)
    await expire(t)  # the first speech
    seats = seat_members(t)
    await check_floor(t, seats)
    away = player_at(t, 10 if host_table(t).step.seat != 10 else 9)
    assert uid(away) in t.fake.muted_now()
    await t.voice(away, None)  # he leaves voice, still server-muted
    assert uid(away) in t.fake.muted_now()
    await t.slash("stop")
    assert host_table(t).status == "stopped"
    assert t.fake.muted_now() == {uid(away)}
    await t.voice(away, LOUNGE_ID)  # back, in another channel: lifted at once
    assert t.fake.muted_now() == set()


async def test_a_member_joining_mid_game_gets_the_mute_of_the_moment(t: DiscordTable) -> None:
    """A seated player who joins the voice channel late is muted unless it is his minute; one
    who comes back carrying his mute into his own speech is unmuted; one who moves to another
    channel is let go there and muted again when he returns; a self-mute or self-deafen changes
    nothing."""
    late = t.players[4]  # seat 5 by join order
    await open_voice_table(t)
    await t.voice(late, None)
    await expire(t)  # speech of seat 1
    seats = seat_members(t)
    assert uid(late) not in t.fake.voice
    await t.voice(late, VOICE_ID)
    await check_floor(t, seats)
    assert uid(late) in t.fake.muted_now()
    calls = len(t.fake.calls)
    await t.voice(late, VOICE_ID, self_mute=True, self_deaf=True)
    assert len(t.fake.calls) == calls  # nothing to do
    await t.voice(late, LOUNGE_ID)  # elsewhere: not the table's to keep muted
    assert uid(late) not in t.fake.muted_now()
    await t.voice(late, VOICE_ID)
    assert uid(late) in t.fake.muted_now()
    await t.voice(late, None)  # leaves muted, comes back in his own speech
    while host_table(t).step.seat != seat_of_member(t, late):
        await t.press(RU.text("host-btn-pass"), actor=player_at(t, host_table(t).step.seat),
                      message=message_with(t, RU.text("host-btn-pass")))
        await check_floor(t, seats)
    assert uid(late) in t.fake.muted_now()  # away: Discord keeps it
    await t.voice(late, VOICE_ID)
    await check_floor(t, seats)
    assert uid(late) not in t.fake.muted_now()


def seat_of_member(t: DiscordTable, member: dict[str, Any]) -> int:
    return next(s for s, m in seat_members(t).items() if m == uid(member))


async def test_a_member_the_bot_cannot_mute_is_told_and_never_muted(t: DiscordTable) -> None:
    """The server's owner and a member whose role is above the bot's cannot be muted: the lobby
    says such a member gets 4.1.1 fouls instead; the others are muted as usual, and the game
    goes on in voice."""
    t.fake.owner_id = uid(t.players[1])
    t.fake.above_bot.add(uid(t.players[2]))
    lobby = await open_voice_table(t)
    assert RU.text("dc-voice-lobby", right="yes") in lobby
    never = {uid(t.players[1]), uid(t.players[2])}
    tb = host_table(t)
    assert tb.flags.mode == "voice"
    assert {f"dc:{m}" for m in never} == set(tb.flags.unmutable)
    seats = seat_members(t)
    told = RU.text("host-voice-unmutable", seats="2, 3")
    assert [x for x in t.public() if told in x]  # stated once, with the seats, to the table
    await expire(t)
    assert len([x for x in t.public() if told in x]) == 1
    await check_floor(t, seats, never=never)
    await expire(t)
    await check_floor(t, seats, never=never)
    await t.slash("stop")
    assert t.fake.muted_now() == set()


async def test_without_mute_members_the_table_is_kept_by_fouls(t: DiscordTable) -> None:
    """No Mute Members: the lobby says so, nobody is muted (no request is even tried), speaking
    out of one's minute is the host's 4.1.1 foul."""
    t.fake.can_mute = False
    perms = discord.Permissions(VOICE_RIGHTS.value)
    perms.mute_members = False
    lobby = await open_voice_table(t, perms)
    assert RU.text("dc-voice-lobby", right="no") in lobby
    assert host_table(t).flags.mode == "foul"
    await expire(t)
    assert t.fake.muted_now() == set()
    assert not [c for c in t.fake.calls if c.method == "PATCH" and "mute" in (c.payload or {})]


async def test_a_silenced_minute_and_a_removed_player_stay_muted(t: DiscordTable) -> None:
    """Seed 4.4: a speaker with his 3rd foul is silenced — muted through his minute (he may
    only nominate, by button); seed 4.5: the 4th foul removes a player, who stays muted until
    the end, and is let go then."""
    await open_voice_table(t)
    await expire(t)  # speech of seat 1
    seats = seat_members(t)
    for _ in range(3):
        await t.slash("foul", seat=2)
    await expire(t)  # seat 2's minute: silenced
    state = await t.state()
    step = rules.expected(state)
    assert isinstance(step, rules.Speech) and step.seat == 2 and step.silenced
    await check_floor(t, seats)
    assert seats[2] in t.fake.muted_now()
    for _ in range(4):
        await t.slash("foul", seat=7)
    assert not (await t.state()).seat(7).at_table
    await expire(t)
    await check_floor(t, seats)
    assert seats[7] in t.fake.muted_now()
    await t.slash("stop")
    assert t.fake.muted_now() == set()


async def test_a_restart_keeps_the_mutes_and_lifts_them_after_the_end(t: DiscordTable) -> None:
    """The process restarts mid-game: the mutes stand; a member who joined while it was down is
    given his mute once the server's voice states are known. The game then ends with a member
    away: his mute is lifted at his next connection, after yet another restart."""
    from bot.discord.host import DiscordHost

    await open_voice_table(t)
    await expire(t)
    seats = seat_members(t)
    await check_floor(t, seats)
    late = player_at(t, 6)
    await t.voice(late, None)
    await t.voice(late, LOUNGE_ID)  # let go there
    assert uid(late) not in t.fake.muted_now()
    # the restart: a new host and voice ledger, then the gateway's GUILD_CREATE
    t.referee.tasks.cancel_all()
    t.fake.voice_update(uid(late), VOICE_ID)  # he came back while the bot was down
    t.referee.host = DiscordHost(t.referee)
    await t.referee.voice.load()
    await t.referee.host.resume()
    await t.server.forget()  # the session is gone: the client identifies again
    await t.server.wait_for(lambda: t.server.identified >= 2, what="a new session")
    await wait_settled(t)
    await check_floor(t, seats)
    assert uid(late) in t.fake.muted_now()
    away = player_at(t, 8)
    await t.voice(away, None)
    state = await t.state()
    for seat in [s.number for s in state.seats if s.role in (Role.DON, Role.MAFIA)]:
        await t.slash("dq", seat=seat)  # seed 4.2: the reds win
    assert (await t.state()).phase is Phase.GAME_OVER
    assert t.fake.muted_now() == {uid(away)}
    t.referee.host = DiscordHost(t.referee)  # another restart, the game over
    await t.referee.voice.load()
    await t.referee.host.resume()
    await t.voice(away, VOICE_ID)
    assert t.fake.muted_now() == set()


async def wait_settled(t: DiscordTable) -> None:
    """Until the sweep that follows GUILD_CREATE has run."""
    await t.settle()
    for _ in range(3):
        await t.settle()


# --- judge mode ---------------------------------------------------------------------------------

async def judge_voice_game(t: DiscordTable) -> dict[int, int]:
    await everyone_joins(t)
    t.app_permissions = VOICE_RIGHTS
    answer = await t.slash("new", voice=VOICE_ID)
    assert RU.text("dc-voice-bound", channel=f"<#{VOICE_ID}>", right="yes") in answer
    seats = {}
    for seat, player in enumerate(t.players, 1):
        await t.slash("seat", seat=seat, member=player)
        seats[seat] = uid(player)
    assert t.fake.muted_now() == set()  # nobody is muted before the start
    await t.slash("roles", roles="D2 M5 M7 S8")
    await t.slash("start")
    return seats


async def test_judge_mode_each_speech_unmutes_its_speaker_and_never_the_judge(t: DiscordTable) -> None:
    """Judge mode: the members mapped with /seat are muted but the speaker; the judge, in the
    same channel, never is; a vote and the night mute everyone; the end lifts every mute."""
    seats = await judge_voice_game(t)
    await check_floor(t, seats)  # night 0
    assert uid(t.judge) not in t.fake.muted_now()
    for _ in range(10):
        await t.slash("next")
        await check_floor(t, seats)
        assert uid(t.judge) not in t.fake.muted_now()
    await t.slash("ppk", seat=7)  # seed 4.3: the blacks' team loss ends the game
    assert (await t.state()).phase is Phase.GAME_OVER
    assert t.fake.muted_now() == set()


async def test_judge_mode_an_unmutable_seat_is_told_to_the_judge(t: DiscordTable) -> None:
    """A seat whose member the bot cannot mute: the judge is told once, in his DMs, that
    speaking out of that minute is his 4.1.1 foul; the others are muted as usual. A new game in
    the channel lets everyone go."""
    t.fake.owner_id = uid(t.players[2])
    seats = await judge_voice_game(t)
    await check_floor(t, seats, never={uid(t.players[2])})
    await t.slash("next")
    await check_floor(t, seats, never={uid(t.players[2])})
    told = [m for m in t.dm() if RU.text("dc-voice-unmutable", seat=3) in m]
    assert len(told) == 1
    await t.slash("new")
    await t.slash("new")  # a second /new confirms: the game is replaced
    assert t.fake.muted_now() == set()


# --- leaving the voice channel: seed 4.2.1 --------------------------------------------------------

async def test_a_player_out_of_the_voice_channel_past_his_grace_has_left_the_table(t: DiscordTable) -> None:
    """Seed 4.2.1: a seated player who leaves the voice table's channel and is not back within
    the grace stated in the lobby has left the table (a disqualifying foul: he leaves at once,
    seed 4.5); one back within it has not. The grace is stored with the table."""
    lobby = await open_voice_table(t)
    assert RU.text("host-lobby-voice-grace", seconds=60) in lobby
    await expire(t)  # the first speech
    host = t.referee.host
    assert host is not None
    tb = host_table(t)
    back, gone = player_at(t, 4), player_at(t, 6)
    await t.voice(back, None)
    await t.voice(gone, LOUNGE_ID)
    assert set(tb.flags.away) == {f"dc:{uid(back)}", f"dc:{uid(gone)}"}
    stored = await t.service.store.host_table(tb.id)
    assert stored is not None and f"dc:{uid(gone)}" in str(stored.data)
    await t.voice(back, VOICE_ID)  # back within his grace
    assert set(host_table(t).flags.away) == {f"dc:{uid(gone)}"}
    await host.controller.away_over(tb.id, f"dc:{uid(back)}")  # a timer that was cancelled
    await host.controller.away_over(tb.id, f"dc:{uid(gone)}")  # his grace is over
    await t.settle()
    state = await t.state()
    assert state.seat(4).at_table
    departure = state.seat(6).departure
    assert departure is not None and departure.cause is rules.Cause.DISQUALIFICATION
    assert departure.reason == "4.2.1"
    assert any(RU.text("host-voice-away", seat="№6", seconds=60).split(":")[1] in x
               for x in t.public())
    assert host_table(t).flags.away == {}
    await check_floor(t, seat_members(t))


async def test_judge_mode_a_seat_leaving_voice_is_told_to_the_judge(t: DiscordTable) -> None:
    """Judge mode: a seat's member who leaves the voice channel mid-game — the judge is told in
    his DMs (leaving the table, seed 4.2.1, is his call); one who moves elsewhere is let go
    there, and muted again when back; the judge leaving is nobody's news."""
    seats = await judge_voice_game(t)
    await t.slash("next")
    await t.voice(t.players[4], None)
    told = [m for m in t.dm() if RU.text("dc-voice-left", seat=5, channel=f"<#{VOICE_ID}>") in m]
    assert len(told) == 1
    await t.voice(t.players[4], VOICE_ID)
    await check_floor(t, seats)
    await t.voice(t.players[6], LOUNGE_ID)
    assert uid(t.players[6]) not in t.fake.muted_now()
    await t.voice(t.players[6], VOICE_ID)
    await check_floor(t, seats)
    assert uid(t.players[6]) in t.fake.muted_now()
    before = len(t.dm())
    await t.voice(t.judge, None)
    assert len(t.dm()) == before


@pytest.mark.parametrize("size", [7, 5, 4, 3])
async def test_a_third_foul_speech_by_the_table_size(t: DiscordTable, size: int) -> None:
    """The 3rd foul: at 5 or more players at the table the speaker is silenced — muted through
    his minute, which is the short window to nominate (seed 4.4); at 3 or 4 he speaks for 30 s
    instead (seed 5.7) — and is heard. The players the host disqualifies stay muted (seed 4.2)."""
    await open_voice_table(t)
    await expire(t)  # the speech of seat 1
    state = await t.state()
    blacks = [s.number for s in state.seats if s.role in (Role.DON, Role.MAFIA)]
    kept_black = 1 if 1 in blacks else blacks[0]
    reds = [s for s in rules.SEATS if s not in blacks]
    target = max(reds)
    kept_reds = [r for r in reds if r in (1, target)]
    kept_reds += [r for r in reds if r not in kept_reds][:size - 1 - len(kept_reds)]
    for seat in [b for b in blacks if b != kept_black] + [r for r in reds if r not in kept_reds]:
        await t.slash("dq", seat=seat)
    state = await t.state()
    assert len([s for s in state.seats if s.at_table]) == size and state.phase is not Phase.GAME_OVER
    for _ in range(3):
        await t.slash("foul", seat=target)
    for _ in range(12):
        step = rules.expected(await t.state())
        if isinstance(step, rules.Speech) and step.seat == target:
            break
        await expire(t)
    assert isinstance(step, rules.Speech) and step.seat == target
    seats = seat_members(t)
    await check_floor(t, seats)
    if size <= 4:  # seed 5.7
        assert step.seconds == 30 and seats[target] not in t.fake.muted_now()
    else:  # seed 4.4
        assert step.silenced and seats[target] in t.fake.muted_now()
    removed = [s.number for s in state.seats if not s.at_table]
    assert {seats[s] for s in removed} <= t.fake.muted_now()
    await t.slash("stop")
    assert t.fake.muted_now() == set()


async def test_judge_mode_a_mute_left_on_a_member_away_is_lifted_after_a_restart(t: DiscordTable) -> None:
    """Judge mode: the game ends while a muted member is out of voice (Discord keeps his mute and
    cannot lift it then); the process restarts; when he connects again — to any channel — the
    mute written down for the finished game is lifted."""
    from bot.discord.voice import VoiceTables

    seats = await judge_voice_game(t)
    await t.slash("next")  # the speech of seat 1
    await check_floor(t, seats)
    away = t.players[4]
    assert uid(away) in t.fake.muted_now()
    await t.voice(away, None)
    await t.slash("ppk", seat=7)  # seed 4.3: the game ends
    assert (await t.state()).phase is Phase.GAME_OVER
    assert t.fake.muted_now() == {uid(away)}  # the others are let go; he cannot be, yet
    t.referee.voice = VoiceTables(t.referee)  # the new process: what it knows is what was stored
    await t.referee.voice.load()
    await t.referee._load_voice_games()
    await t.voice(away, LOUNGE_ID)
    assert t.fake.muted_now() == set()
