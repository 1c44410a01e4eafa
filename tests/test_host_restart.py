"""Host mode across restarts and at night.

* Timers survive a restart (ENGINEERING.md §1): a step's deadline is stored with the table; a new
  Application over the same SQLite resumes the speech where it was — its buttons still work, its
  time still runs out, and a deadline that passed while the bot was down fires at once.
* Every night step lasts the same time whether or not its role is still at the table, and no
  group message differs, so that nothing in the group reveals a role by timing or wording
  (F24 §4.5; the issue's night rule)."""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import pytest

from fakebot import FakeBotAPI
from rules import Phase, Role
from support.host_table import FAST, SCALE, host_table, make_world


pytestmark = pytest.mark.usefixtures("ptb_timedelta")  # PTB gives retry_after as a timedelta



async def test_a_restart_in_the_middle_of_a_speech(fake: FakeBotAPI, tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    world = make_world(fake)
    async with host_table(fake, db, world) as t:
        await t.open_and_fill()
        step = await t.wait_floor(1)
        message_id, seen = step.message, t.seen
        table_id = t.table().id
    # The bot is down; #1's speech had 60 timer seconds (3 s here). A new process:
    async with host_table(fake, db, world) as t:
        t.seen = seen - 1
        resumed = await t.wait_floor(1)
        assert resumed.message == message_id and resumed.no == step.no  # the same step
        assert abs(resumed.deadline - step.deadline) < 1e-6  # from the stored deadline
        await t.press(t.user(1), fake.message(t.group, message_id), "Пас")  # its button works
        await t.wait_floor(2)
        # #2 does not pass: his time runs out (the job re-armed for the new step)
        await t.wait_floor(3, timeout=60 * SCALE + 5)
        assert any("Слово — №2 Борис: окончено." in x for x in t.group_texts())
        speech = t.step()
        assert speech is not None and speech.seat == 3
    # Down again past #3's deadline: on start-up the step closes at once, #4 has the floor.
    await asyncio.sleep(max(0.0, speech.deadline - time.time()) + 0.2)
    async with host_table(fake, db, world) as t:
        t.seen = speech.no
        await t.wait_floor(4, timeout=5)
        assert t.table().id == table_id
        state = await t.state()
        assert state.phase is Phase.SPEECH and state.speaker == 4


async def night_of(tmp_path: Path, name: str, *, sheriff_out: bool) -> tuple[list[str], list[tuple[str, int]], list[float], list[str]]:
    """Play day 1 (one player voted out: the Sheriff, or a civilian) and night 1 (the blacks
    miss, the Don checks #1, the Sheriff checks #1 if he can); return the group's texts from the
    night's message to the morning's, the night's steps (kind, seconds), the real time between
    them, and what the Sheriff was told privately."""
    async with FakeBotAPI() as fake:
        async with host_table(fake, tmp_path / f"{name}.sqlite3") as t:
            await t.open_and_fill()
            sheriff, = await t.seats_of(Role.SHERIFF)
            civilians = [s for s in await t.seats_of(Role.CIVILIAN) if s > 2]
            out = sheriff if sheriff_out else civilians[0]
            other = next(s for s in civilians if s != out)
            await t.speeches(list(range(1, 11)), {1: out, 2: other})
            await t.vote(out, [s for s in range(1, 11) if s not in (out, other)][:6])
            await t.wait_floor(out, consume=False)  # his last word (F24 §4.4.13)
            before = len(fake.sent(t.group))  # the night's messages come after it
            await t.pass_turn(out)
            blacks = await t.seats_of(Role.DON, Role.MAFIA)
            await t.night(1, shots={b: None for b in blacks}, don=1,
                          sheriff=None if sheriff_out else 1)
            messages = fake.sent(t.group)[before:]
            texts = [x for m in messages for x in m.texts if x]
            steps = [r for r in await t.service.store.host_steps(t.table().id) if r.key.startswith("night:1:")]
            following = [r for r in await t.service.store.host_steps(t.table().id)
                         if r.no == steps[-1].no + 1]
            times = [r.opened_at for r in [*steps, *following]]
            gaps = [b - a for a, b in zip(times, times[1:])]
            return texts, [(r.kind, r.seconds) for r in steps], gaps, t.private_texts(t.user(sheriff))


async def test_a_night_looks_the_same_with_the_sheriff_gone(tmp_path: Path) -> None:
    alive = await night_of(tmp_path, "alive", sheriff_out=False)
    gone = await night_of(tmp_path, "gone", sheriff_out=True)
    texts_alive, steps_alive, gaps_alive, sheriff_alive = alive
    texts_gone, steps_gone, gaps_gone, sheriff_gone = gone
    assert steps_alive == steps_gone == [("shooting", 20), ("don_check", 20), ("sheriff_check", 20)]
    assert texts_alive == texts_gone  # every version of every group message, word for word
    assert any("Шериф ищет чёрных" in x for x in texts_gone)
    for a, b in zip(gaps_alive, gaps_gone):  # each step lasted its full length either way
        assert abs(a - b) < 0.5 * 20 * SCALE, (gaps_alive, gaps_gone)
        assert a >= 20 * SCALE * 0.95 and b >= 20 * SCALE * 0.95
    assert any("Шериф, кого проверить?" in x for x in sheriff_alive)
    assert not any("Шериф, кого проверить?" in x for x in sheriff_gone)  # nobody to ask


def first_versions(fake: FakeBotAPI, chat: Any, text: str) -> int:
    """How many messages the bot posted to ``chat`` with ``text`` in their first version."""
    return sum(1 for m in fake.sent(chat) if text in (m.texts[0] if m.texts else ""))


async def test_an_event_committed_before_a_crash_is_announced_once_after_the_restart(
        fake: FakeBotAPI, tmp_path: Path) -> None:
    """The process dies right after committing two events (their announcements are in the
    outbox, written in the same transaction, not yet sent; the table never heard of the second):
    after the restart each is posted exactly once, in order (issue #4: "a one-off announcement
    can repeat only if the process died while sending it"), and the step the rules expect — #2's
    speech, F24 §4.3.2 — takes the queued message as its own: its button works."""
    db = tmp_path / "db.sqlite3"
    world = make_world(fake)
    async with host_table(fake, db, world) as t:
        await t.open_and_fill()
        first = await t.wait_floor(1)
        seen = t.seen


        t.host.referee.outbox.flush = does_nothing
        await t.say(t.user(1), "/nominate 5")  # the step goes on: its line is queued alone
        assert (await t.state()).nominees == [5]
        t.host.controller._advance = does_nothing  # type: ignore[method-assign]  # dies right after the next commit
        await t.press(t.user(1), t.step_message(), "Пас")
        assert (await t.state()).speaker == 2
        assert first_versions(fake, t.group, "выставляет игрока №5") == 0
        assert first_versions(fake, t.group, "Слово игроку №2") == 0
    async with host_table(fake, db, world) as t:
        t.seen = seen
        step = await t.wait_floor(2)
        nominated = [i for i, m in enumerate(fake.sent(t.group))
                     if "Игрок №1 выставляет игрока №5. Принято." in (m.texts[0] or "")]
        floor = [i for i, m in enumerate(fake.sent(t.group)) if m.message_id == step.message]
        assert len(nominated) == 1 and len(floor) == 1 and nominated[0] < floor[0]
        text = fake.message(t.group, step.message).text or ""
        assert "Слово игроку №2 — 60 секунд." in text and "Слово — №2 Борис — 60 секунд." in text
        assert first_versions(fake, t.group, "Слово игроку №2") == 1  # posted once, then edited
        assert (fake.message(t.group, first.message).text or "").endswith("окончено.")
        await t.press(t.user(2), t.step_message(), "Пас")  # the taken message has its buttons
        await t.wait_floor(3)
        assert (await t.state()).nominees == [5]
        assert first_versions(fake, t.group, "выставляет игрока №5") == 1


async def test_a_foul_committed_before_a_crash_is_announced_once_after_the_restart(
        fake: FakeBotAPI, tmp_path: Path) -> None:
    """The same inside a speech: the host's foul (seed 4.1) is committed, its line still in the
    outbox when the process dies; after the restart it is posted once and the speech goes on."""
    db = tmp_path / "db.sqlite3"
    world = make_world(fake)
    async with host_table(fake, db, world) as t:
        await t.open_and_fill()
        first = await t.wait_floor(1)
        seen = t.seen

        t.host.referee.outbox.flush = does_nothing
        await t.say(t.owner, "/foul 6")
        assert (await t.state()).seat(6).fouls == ["foul"]
        assert not any("Игроку №6 — фол" in x for x in t.group_texts())
    async with host_table(fake, db, world) as t:
        await fake.wait_for(lambda: any("Игроку №6 — фол" in x for x in t.group_texts()))
        t.seen = seen - 1
        assert (await t.wait_floor(1)).no == first.no  # the same speech goes on
        await asyncio.sleep(0.3)
        assert sum("Игроку №6 — фол" in x for x in t.group_texts()) == 1


async def test_a_429_on_an_announcement_delays_it_in_order_and_loses_nothing(
        fake: FakeBotAPI, tmp_path: Path) -> None:
    """A 429 (the rate limiter's own retries off) on a hosted game's announcement: the events
    are committed at once and the game moves on; the sender waits ``retry_after`` and then posts
    the held line and the next step's message, in order, once each (issue #4, ENGINEERING.md
    §1); the step takes its message when it leaves and its buttons work."""
    world = make_world(fake)
    async with host_table(fake, tmp_path / "db.sqlite3", world, retries=0) as t:
        await t.open_and_fill()
        await t.wait_floor(1)
        group = t.group
        fake.fail_next("sendMessage", 429, retry_after=1,
                       match=lambda p: str(p.get("chat_id")) == str(group.id))
        await t.say(t.user(1), "/nominate 5")
        await t.press(t.user(1), t.step_message(), "Пас")
        state = await t.state()  # both committed, although the group has heard of neither
        assert state.nominees == [5] and state.speaker == 2
        assert first_versions(fake, group, "выставляет игрока №5") == 0
        assert first_versions(fake, group, "Слово игроку №2") == 0
        step = await t.wait_floor(2, timeout=5)
        texts = [m.texts[0] or "" for m in fake.sent(group)]
        nominated = [i for i, x in enumerate(texts) if "Игрок №1 выставляет игрока №5. Принято." in x]
        floor = [i for i, x in enumerate(texts) if "Слово игроку №2 — 60 секунд." in x]
        assert len(nominated) == 1 and len(floor) == 1 and nominated[0] < floor[0]
        assert fake.sent(group)[floor[0]].message_id == step.message
        await t.press(t.user(2), t.step_message(), "Пас")
        await t.wait_floor(3)
        assert await t.service.store.pending() == []


class Died(Exception):
    """Stands for the process dying at this point (the handler stops; what was stored stays)."""


async def dies(*args: Any, **kwargs: Any) -> Any:
    """Patched over a step of the driver: the process dies there."""
    raise Died()


async def does_nothing(*args: Any, **kwargs: Any) -> None:
    """Patched over a step of the driver: the process dies just before it (nothing after runs)."""
    return None


async def test_a_join_cut_short_is_finished_by_pressing_again(
        fake: FakeBotAPI, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The 10th player's join is stored, and the process dies before the bot has written to
    him: after the restart he is at the table but not yet reachable; pressing «Записаться»
    again tries him again (not "already at the table"), and the table starts (R1.1)."""
    from bot.host.controller import HostController

    db = tmp_path / "db.sqlite3"
    world = make_world(fake)
    async with host_table(fake, db, world) as t:
        await t.say(t.owner, "/newgame")
        for player in t.players[:9]:
            await t.press(player, t.lobby(), "Записаться")
        hello = HostController._hello


        monkeypatch.setattr(HostController, "_hello", dies)
        await t.press(t.players[9], t.lobby(), "Записаться")
        monkeypatch.setattr(HostController, "_hello", hello)
        lobby = t.lobby()
    async with host_table(fake, db, world) as t:
        await fake.wait_for(lambda: t.host.tables_in(t.group.id), what="the tables loaded")
        table = t.table()
        assert len(table.players) == 10 and not table.players[9]["reachable"]
        assert table.status == "lobby"
        await t.press(t.players[9], lobby, "Записаться")
        await t.wait_step("night_zero")
        assert len(t.table().seats) == 10


async def test_a_join_pressed_again_is_stored_before_it_is_answered(
        fake: FakeBotAPI, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Found by the kill rig on Discord: the 10th player's join is stored not yet reachable (the
    process died before the bot wrote to him); he presses «Записаться» again, the bot writes to
    him and answers "you are at the table" — and dies before storing him reachable. He was told,
    so he does not press again, and the table never started. Now he is stored reachable before
    he is answered, and the restart deals (R1.1)."""
    from bot.host.controller import HostController
    from bot.telegram.host.port import TelegramHostPort

    db = tmp_path / "db.sqlite3"
    world = make_world(fake)
    async with host_table(fake, db, world) as t:
        await t.say(t.owner, "/newgame")
        for player in t.players[:9]:
            await t.press(player, t.lobby(), "Записаться")
        hello = HostController._hello
        monkeypatch.setattr(HostController, "_hello", dies)
        await t.press(t.players[9], t.lobby(), "Записаться")
        monkeypatch.setattr(HostController, "_hello", hello)
        lobby = t.lobby()
    answer = TelegramHostPort.answer

    async def answered_then_died(self: TelegramHostPort, handle: Any, text: str | None = None,
                                 **kwargs: Any) -> None:
        await answer(self, handle, text, **kwargs)
        raise Died()

    async with host_table(fake, db, world) as t:
        await fake.wait_for(lambda: t.host.tables_in(t.group.id), what="the tables loaded")
        monkeypatch.setattr(TelegramHostPort, "answer", answered_then_died)
        query = await t.press(t.players[9], lobby, "Записаться")
        told = fake.callback_queries[query].answer
        assert told is not None and "Вы за столом" in (told.text or "")
        monkeypatch.setattr(TelegramHostPort, "answer", answer)
        assert t.table().players[9]["reachable"]
    async with host_table(fake, db, world) as t:  # he was told: he does not press again
        await t.wait_step("night_zero")
        assert len(t.table().seats) == 10


async def test_a_deal_cut_short_is_finished_at_the_restart(
        fake: FakeBotAPI, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The game is created and dealt (the cards queued with the deal), and the process dies
    before the table is stored as running: on start-up the deal is taken up, not made again —
    the same roles, each card sent once — and night 0 begins."""
    from bot.telegram.host import TelegramHostPort

    db = tmp_path / "db.sqlite3"
    world = make_world(fake)
    async with host_table(fake, db, world) as t:
        rights = TelegramHostPort.rights


        await t.say(t.owner, "/newgame")
        monkeypatch.setattr(TelegramHostPort, "rights", dies)  # the step after the deal
        for player in t.players:
            await t.press(player, t.lobby(), "Записаться")
        monkeypatch.setattr(TelegramHostPort, "rights", rights)
        stored = await t.service.store.host_table(t.table().id)  # what the dead process left
        assert stored is not None and stored.status == "lobby" and len(stored.seats) == 10
        dealt = await t.state()
        assert dealt.phase is Phase.SETUP and dealt.roles_known
    async with host_table(fake, db, world) as t:
        await t.wait_step("night_zero")
        state = await t.state()
        assert [s.role for s in state.seats] == [s.role for s in dealt.seats]  # not dealt again
        for player in t.players:  # one card each, from the first process's outbox
            cards = [x for x in t.private_texts(player) if "ваша роль —" in x]
            assert len(cards) == 1, (player.first_name, t.private_texts(player))


async def test_a_start_cut_after_the_deal_is_finished_at_the_restart(
        fake: FakeBotAPI, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Dealt and stored as running, and the process dies before the game begins (no StartGame
    logged; found by the SIGKILL bench): on start-up the game begins and night 0 opens."""
    from bot.host.controller import HostController

    db = tmp_path / "db.sqlite3"
    world = make_world(fake)
    async with host_table(fake, db, world) as t:
        opened = HostController._open_game


        await t.say(t.owner, "/newgame")
        monkeypatch.setattr(HostController, "_open_game", dies)
        for player in t.players:
            await t.press(player, t.lobby(), "Записаться")
        monkeypatch.setattr(HostController, "_open_game", opened)
        stored = await t.service.store.host_table(t.table().id)
        assert stored is not None and stored.status == "running"
        assert (await t.state()).phase is Phase.SETUP
    async with host_table(fake, db, world) as t:
        await t.wait_step("night_zero")
        assert (await t.state()).phase is Phase.NIGHT_ZERO


async def test_a_press_before_the_resume_does_not_act_on_the_step_the_process_died_leaving(
        fake: FakeBotAPI, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """#1's «Пас» is committed and the process dies before #2's step is stored (found by the
    SIGKILL test: the pass, pressed again, came in before the start-up resume, was taken as the
    pass of the step now running and skipped a turn — there, the night's shooting). Since issue
    34 the step is stored with the event; a store an older version left so is what this makes
    (the step kept out of the event's transaction). After the restart, with the start-up resume
    not run yet, #1 presses «Пас» again on his old message: the group is resumed first, the
    press is out of date, and #2 has the floor (F24 §4.3.2)."""
    from bot.host.controller import HostController

    db = tmp_path / "db.sqlite3"
    world = make_world(fake)
    async with host_table(fake, db, world) as t:
        await t.open_and_fill()
        first = await t.wait_floor(1)
        seen = t.seen


        t.host.controller._advance = does_nothing  # type: ignore[method-assign]  # dies right after the commit
        t.host.controller._staged = does_nothing  # type: ignore[method-assign]  # an older version's
        await t.press(t.user(1), t.step_message(), "Пас")
        assert (await t.state()).speaker == 2
        stored = await t.service.store.host_table(t.table().id)
        assert stored is not None and stored.step is not None and stored.step["no"] == first.no
        old, speaker = fake.message(t.group, first.message), t.user(1)

    async def not_yet(self: HostController) -> None:  # the start-up job comes late
        return None

    monkeypatch.setattr(HostController, "resume_all", not_yet)
    async with host_table(fake, db, world) as t:
        t.seen = seen
        press = fake.user_presses(speaker, old, button="Пас", strict=False)
        await fake.wait_for(lambda: press in fake.callback_answers, what="the answer to the press")
        state = await t.state()
        assert state.phase is Phase.SPEECH and state.speaker == 2  # not passed for him
        assert fake.callback_answers[press].text == "Эта кнопка уже не действует."
        step = await t.wait_floor(2)
        assert step.no == first.no + 1


async def test_a_speech_held_by_a_429_starts_when_it_is_shown(fake: FakeBotAPI, tmp_path: Path) -> None:
    """#2's speech message is held by a 429 longer than his minute (4 s here; the minute is
    3 s): his minute does not run while nobody can see it (F24 §4.3.1). When the wait is over
    the message is posted, gets its buttons, says it came late, and his whole minute starts
    then: he still has the floor and passes it himself; #3's floor follows, in order."""
    world = make_world(fake)
    async with host_table(fake, tmp_path / "db.sqlite3", world, retries=0) as t:
        await t.open_and_fill()
        await t.wait_floor(1)
        group = t.group
        fake.fail_next("sendMessage", 429, retry_after=4,
                       match=lambda p: str(p.get("chat_id")) == str(group.id)
                       and "Слово игроку №2" in str(p.get("text")))
        await t.press(t.user(1), t.step_message(), "Пас")
        step = await t.wait_floor(2, timeout=60 * SCALE + 8)  # shown at last: its window opens
        held = t.step_message()
        assert "Слово игроку №2" in (held.texts[0] or "") and held.button("Пас")
        # the window opens, then its message is edited to say it came late
        await fake.wait_for(lambda: "дошло с опозданием на" in (held.text or ""), 10,
                            "the late notice")
        assert step.deadline - step.opened == 60 * SCALE  # the whole minute, from when shown
        await t.press(t.user(2), held, "Пас")  # his floor, his pass
        third = await t.wait_floor(3)
        assert held.message_id < third.message  # in order
        assert not held.buttons and (held.text or "").endswith("окончено.")
        assert await t.service.store.pending() == []


async def test_a_stopped_table_lets_the_group_open_a_new_one(fake: FakeBotAPI, tmp_path: Path) -> None:
    """/stop records the game as abandoned, its log kept as played; the group may then open a
    new table at once (a stopped game does not hold the group, though the rules never ended
    it)."""
    async with host_table(fake, tmp_path / "db.sqlite3") as t:
        await t.open_and_fill()
        await t.wait_floor(1)
        first = t.table().id
        await t.say(t.owner, "/stop")
        assert t.table().status == "stopped"
        await t.say(t.owner, "/newgame")
        assert t.table().id != first and t.table().status == "lobby"
        assert not any("уже идёт набор или игра" in x for x in t.group_texts())


async def test_a_stop_cut_short_after_the_abandon_is_finished_at_the_restart(
        fake: FakeBotAPI, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The process dies in /stop after the game is recorded as abandoned, before the table is
    stored as stopped: at the restart the stop is finished — the table stopped, the group told
    who stopped it — and the abandoned game is not played on (its log stays as it was)."""
    from bot.host.controller import HostController

    db = tmp_path / "db.sqlite3"
    world = make_world(fake)
    async with host_table(fake, db, world) as t:
        await t.open_and_fill()
        await t.wait_floor(1)
        table_id, game_id = t.table().id, t.table().game_id


        monkeypatch.setattr(HostController, "_unmute_all", dies)
        await t.say(t.owner, "/stop")
        monkeypatch.undo()
        stored = await t.service.store.host_table(table_id)
        assert stored is not None and stored.status == "running"
        game = await t.service.store.game(game_id)
        assert game is not None and game.result == "abandoned"
        events = len(await t.service.store.events(game_id))
    async with host_table(fake, db, world) as t:
        await fake.wait_for(lambda: any(x.startswith("⏹ Игра остановлена:") for x in t.group_texts()),
                            timeout=5, what="the stop finished")
        stored = await t.service.store.host_table(table_id)
        assert stored is not None and stored.status == "stopped"
        await asyncio.sleep(60 * SCALE + 0.5)  # the stopped speech's deadline passes: nothing
        game = await t.service.store.game(game_id)
        assert game is not None and game.result == "abandoned"
        assert len(await t.service.store.events(game_id)) == events


async def test_a_silent_players_removal_cut_short_is_applied_at_the_restart(
        fake: FakeBotAPI, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``absent=1``: #1's minute runs out with nothing written or pressed — he has left the
    table, seed 4.2.1 — and the process dies before the removal is logged: the silence is stored
    with the next step, and at the restart #1 is removed (a disqualifying foul, seed 4.5)."""
    from bot.host.controller import HostController

    db = tmp_path / "db.sqlite3"
    world = make_world(fake)
    async with host_table(fake, db, world) as t:
        await t.open_and_fill(f"{FAST} absent=1")
        await t.wait_floor(1)
        died: list[bool] = []

        async def dies(self: HostController, table: Any) -> None:
            died.append(True)
            raise Died()

        monkeypatch.setattr(HostController, "_absent", dies)
        await fake.wait_for(lambda: died, timeout=60 * SCALE + 5, what="#1's minute over")
        monkeypatch.undo()
        assert (await t.state()).seat(1).at_table
    async with host_table(fake, db, world) as t:
        await fake.wait_for(lambda: any(x.startswith("№1: 1 своя речь подряд") for x in t.group_texts()),
                            timeout=5, what="the removal")
        departure = (await t.state()).seat(1).departure
        assert departure is not None and departure.reason == "4.2.1"


async def test_a_step_stored_over_but_not_closed_is_closed_at_the_restart(
        fake: FakeBotAPI, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """#1 passes; the process dies after #2's step is stored, before #1's message is closed:
    at the restart #1's message shows his speech ended, without buttons (no live «Пас» left
    standing for a speech that is over), and #2 has the floor."""
    from bot.host.controller import HostController

    db = tmp_path / "db.sqlite3"
    world = make_world(fake)
    async with host_table(fake, db, world) as t:
        await t.open_and_fill()
        first = await t.wait_floor(1)
        seen = t.seen


        monkeypatch.setattr(HostController, "_retire_step", dies)
        await t.press(t.user(1), t.step_message(), "Пас")
        monkeypatch.undo()
        old = fake.message(t.group, first.message)
        assert old.buttons  # still standing when the process died
    async with host_table(fake, db, world) as t:
        t.seen = seen
        await t.wait_floor(2)
        await fake.wait_for(lambda: (old.text or "").endswith("окончено.") and not old.buttons,
                            timeout=5, what="#1's speech shown ended")
