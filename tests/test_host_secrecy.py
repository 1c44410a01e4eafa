"""Nothing the group sees tells a role: whole hosted games with different role assignments of
the same seating, played the same way in public, leave the group the same transcript.

The bot is the only judge of a hosted table, so the group must not learn a role from it — by
wording, by the count or order of its messages and edits, by their buttons or by their timing
(F24 §4.4.13, §4.5.4: roles are revealed only at the end). Each game below is played over the
in-memory platform with the controllable clock (:mod:`support.fake_host`), so the transcript's
times are exact, and by the same public script, whose words come through the front door as a
platform hands them in: on day 1 #8 edits a message in #3's minute (a foul, seed 4.1.1) and
someone writes in the group's name in #4's (deleted, the host told in private); #1 and #2
nominate #5 and #6, #6 is voted out; at night 1 #9 types a command with free text and is
disqualified for night talk (seed 4.2.6), every black still at the table shoots #4, whoever is asked to check checks #1 (the Don) or #2 (the Sheriff; each the other
seat if it is his own), the night's
victim names #1, #2, #3 as his best move. Who holds which role differs from game to
game — the Don disqualified, the Sheriff voted out or shot, a black shot by his own team, a
lone black left — and the group's transcript up to day 2's first speech must not.
"""

from __future__ import annotations

import itertools
import random

import pytest

import rules
from bot.host.port import Rights
from bot.host.steps import PRESS_GRACE, WRITTEN_GRACE
from rules import Phase
from support.fake_host import GROUP, HOST, RU, Table, table
from support.fakeport import Seen

SEATS = range(1, 11)
DISQUALIFIED, VOTED_OUT, SHOT = 9, 6, 4


def assignment(don: int, mafia: tuple[int, int], sheriff: int) -> tuple[str, ...]:
    """The cards by seat, as :class:`rules.SetRoles` takes them."""
    roles = {don: "don", mafia[0]: "mafia", mafia[1]: "mafia", sheriff: "sheriff"}
    return tuple(roles.get(seat, "civilian") for seat in SEATS)


def every_assignment() -> list[tuple[str, ...]]:
    out = []
    for don in SEATS:
        for mafia in itertools.combinations([s for s in SEATS if s != don], 2):
            for sheriff in (s for s in SEATS if s != don and s not in mafia):
                out.append(assignment(don, mafia, sheriff))
    return out


# The cases the rules make different in private; the rest sampled from all 2 520 assignments.
CHOSEN = [
    assignment(1, (2, 3), 10),  # the checks fall on blacks
    assignment(DISQUALIFIED, (7, 8), 1),  # the Don leaves at night: his check runs for nobody
    assignment(3, (7, 8), SHOT),  # the Sheriff is shot: his check runs for nobody
    assignment(3, (7, 8), VOTED_OUT),  # the Sheriff is voted out before the night
    assignment(SHOT, (7, 8), 2),  # the blacks shoot their own Don
    assignment(DISQUALIFIED, (VOTED_OUT, 7), 2),  # one black left: he shoots alone
    assignment(5, (7, 10), 3),
]
SAMPLED = random.Random(2024).sample(every_assignment(), 9)


async def play(t: Table, monkeypatch: pytest.MonkeyPatch, cards: tuple[str, ...]) -> list[Seen]:
    """The public script (the module's docstring) with ``cards`` dealt; the group's transcript
    (its changes with their times, and the mute calls the group feels) up to day 2's first
    speech. ``None`` if these cards end the game before that (the result is public)."""
    monkeypatch.setattr(rules, "deal", lambda rng: cards)
    await t.fill()
    await t.clock.advance(t.table().step.seconds)  # the договорка runs out
    for seat in SEATS:  # day 1
        step = t.table().step
        assert step.kind == "speech" and step.seat == seat
        if seat in (1, 2):
            await t.press(t.player(seat), t.step_message().data(RU.text("host-btn-nominate")))
            await t.press(t.player(seat), t.step_message().data(str({1: 5, 2: VOTED_OUT}[seat])))
        await t.clock.advance(7)  # everyone speaks a little, then passes
        if seat == 3:  # an edit is a message written when edited: #8 out of turn
            await t.enter(t.player(8), "я передумал", edit=True)
        if seat == 4:  # in the group's name, by nobody the platform can name: deleted
            await t.enter(t.player(7), "анонимно", anonymous=True)
        await t.press(t.player(seat), t.step_message().data(RU.text("host-btn-pass")))
    assert t.table().step.kind == "vote" and t.table().step.seat == 5
    for seat in (1, 2, 3, 4):  # four hands against #5; the rest go to #6 (F24 §4.4.8)
        await t.press(t.player(seat), t.step_message().data(
            RU.text("host-btn-hand", seat="№5")))
    await t.clock.advance(t.table().step.seconds + PRESS_GRACE)  # the window and its grace
    assert t.table().step.kind == "last_word" and t.table().step.seat == VOTED_OUT
    await t.clock.advance(3)
    await t.press(t.player(VOTED_OUT), t.step_message().data(RU.text("host-btn-pass")))
    # well into the night, past the grace that gives a message at the boundary the day's foul
    await t.clock.advance(WRITTEN_GRACE + 3)
    await t.enter(t.player(DISQUALIFIED), "/rule кто_тут_мафия?")  # night talk: seed 4.2.6
    for _ in range(4):  # night 1: the shooting, the Don's check, the Sheriff's, the best move
        step = t.table().step
        assert step.at_night, step.kind
        for user in step.prompted:
            seat = t.table().seat_of(user)
            prompt = t.prompt(user)
            picks = {"shooting": [SHOT], "don_check": [s for s in (1, 2) if s != seat][:1],
                     "sheriff_check": [s for s in (2, 1) if s != seat][:1],
                     "best_move": [1, 2, 3]}[step.kind]
            for pick in picks:
                await t.clock.advance(1)
                await t.press(t.player(seat), prompt.data(str(pick)))
                prompt = t.prompt(user)
        await t.clock.advance(step.seconds + PRESS_GRACE)
        if (await t.state()).phase is Phase.GAME_OVER:
            return []
    assert t.table().step.kind in ("last_word", "speech")
    return t.chats.transcript(GROUP) + [Seen(0, "mutes", str(t.port.log), 0, "", ())]


@pytest.mark.parametrize("cards", CHOSEN + SAMPLED, ids=lambda c: "".join(r[0] for r in c))
async def test_the_groups_transcript_does_not_depend_on_the_roles(
        cards: tuple[str, ...], monkeypatch: pytest.MonkeyPatch) -> None:
    async with table(Rights(mute=True, delete=True)) as reference:
        with monkeypatch.context() as m:
            expected = await play(reference, m, CHOSEN[-1])
    assert expected, "the reference game must reach day 2"
    async with table(Rights(mute=True, delete=True)) as t:
        seen = await play(t, monkeypatch, cards)
        state = await t.state()
    if not seen:  # these cards end the game at night 1: the result is public
        assert state.phase is Phase.GAME_OVER
        return
    assert state.seat(SHOT).departure is not None  # the night's kill happened (F24 §4.5.4)
    assert state.seat(8).fouls == ["4.1.1"] and state.seat(DISQUALIFIED).departure.reason == "4.2.6"
    assert "msg:анонимно" in t.port.deleted
    assert any("от имени группы или канала" in x for x in t.chats.texts(HOST.user))
    for index, (got, want) in enumerate(zip(seen, expected)):
        assert got == want, f"change {index} differs:\n{got}\n{want}"
    assert len(seen) == len(expected)


WRITES = ("update_host_table", "append_many", "enqueue", "mark_sent", "mark_sent_many",
          "set_message", "set_timer")


async def store_work_before_the_group_sees(t: Table, monkeypatch: pytest.MonkeyPatch,
                                           cards: tuple[str, ...]) -> list[int]:
    """The public script with ``cards`` dealt; for each step closed by its deadline, how many
    store writes the bot made before the group saw the change (the next step)."""
    log: list[str] = []
    for name in WRITES:
        original = getattr(t.store, name)

        async def write(*args: object, _original=original, **kwargs: object) -> object:  # noqa: ANN001
            log.append("write")
            return await _original(*args, **kwargs)

        monkeypatch.setattr(t.store, name, write)
    saw = t.chats._saw

    def seen(kind: str, message: object) -> None:
        saw(kind, message)  # type: ignore[arg-type]
        if t.chats.seen[-1].chat == GROUP:
            log.append("group")

    monkeypatch.setattr(t.chats, "_saw", seen)
    advance, press = t.clock.advance, t.press

    async def ticked(seconds: float) -> None:
        log.append("tick")
        await advance(seconds)

    async def pressed(*args: object) -> object:
        log.append("press")
        return await press(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(t.clock, "advance", ticked)
    monkeypatch.setattr(t, "press", pressed)
    assert await play(t, monkeypatch, cards)
    counts: list[int] = []
    for segment in " ".join(log).replace("press", "|").replace("tick", "|tick").split("|"):
        words = segment.split()
        if words[:1] == ["tick"] and "group" in words:
            counts.append(words[:words.index("group")].count("write"))
    return counts


async def test_what_the_group_sees_waits_for_no_private_write(monkeypatch: pytest.MonkeyPatch) -> None:
    """A step closed at its deadline: the group sees the next step after the same store work
    whoever was asked something in private in it — the Don's prompt closed or no Don at the
    table (the checks and the best move are prompted to one player or to nobody). Private
    writes leave after what the group sees (ARCHITECTURE.md: the group's timing never depends
    on who is written to privately)."""
    work = []
    # the Don and the Sheriff at the table; the Don gone at night; the Sheriff shot (he still
    # checks); the Sheriff voted out before the night
    for cards in CHOSEN[:4]:
        async with table(Rights(mute=True, delete=True)) as t:
            with monkeypatch.context() as m:
                work.append(await store_work_before_the_group_sees(t, m, cards))
    assert all(counts == work[0] for counts in work), "\n".join(map(str, work))
