"""Bad input and concurrency through the real PTB Application (judge mode), issue #6.

"The same callback query delivered twice, a press on a panel from before an undo or a restart, two
judges pressing at once, a non-judge pressing judge buttons, commands with seats 0, 11, -1, "abc",
a 5000-character argument, commands in the wrong phase: each gets a clear answer and changes
nothing." Changes nothing = the store's log, the game state and the judge's panel are unchanged and
nothing is posted to the group; a clear answer = the catalog's refusal text for that case (taken
from ``bot.i18n``/``bot.render.error_text``, never copied by hand).

What ``test_telegram_rights.py`` already covers (a player's forged press, a stale press, the same
button pressed twice before the edit, a player's command, a take over) is not repeated here.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from pathlib import Path
from typing import AsyncIterator

import pytest
from telegram import Update

import rules
from bot.i18n import catalog
from bot.render import error_text
from bot.judge import panel as pn
from bot.judge.callbacks import decode, encode
from fakebot import FakeBotAPI
from rules import Phase
from support.telegram_table import Table, bot_running, make_world

CAT = catalog("ru")
LONG = "x" * 5000


pytestmark = pytest.mark.usefixtures("ptb_timedelta")  # PTB gives retry_after as a timedelta



async def day_one(t: Table) -> None:
    """A game with its group linked, in day 1's first speech (F24 §4.3.2: seat 1 opens)."""
    await t.say("/new")
    await t.say("/roles D2 M5 M7 S8")
    await t.say("/link", chat=t.group)
    await t.press("Начать игру ▶")
    await t.press("Далее ▶ (утро)")
    assert (await t.state()).speaker == 1


@pytest.fixture
async def t(fake: FakeBotAPI, tmp_path: Path) -> AsyncIterator[Table]:
    judge, group, people = make_world(fake)
    async with bot_running(fake, tmp_path / "referee.sqlite3") as (app, service):
        running = Table(fake=fake, app=app, service=service, judge=judge, group=group, players=people)
        await day_one(running)
        yield running


@dataclass(frozen=True)
class Snapshot:
    """What "changes nothing" compares: the game, its log, the group, the judge's panel."""

    state: str
    log: list[rules.Event]
    group: list[tuple[int, tuple[str | None, ...]]]
    panel: tuple[int, str | None, tuple[str, ...]]


async def snapshot(t: Table) -> Snapshot:
    panel = t.panel()
    return Snapshot(
        state=repr(await t.state()),
        log=await t.service.events(f"tg:{t.judge.id}"),
        group=[(m.message_id, tuple(m.texts)) for m in t.fake.sent(t.group)],
        panel=(panel.message_id, panel.text, tuple(b.get("callback_data", "") for b in panel.buttons)),
    )


def last_private(t: Table) -> str:
    return t.fake.sent(t.judge)[-1].text or ""


def answer(t: Table, query_id: str) -> tuple[str | None, bool]:
    record = t.fake.callback_answers[query_id]
    return record.text, bool(record.show_alert)


# --- typed commands with bad arguments --------------------------------------------------------

BAD_ARGUMENTS = [
    # (the command, the catalog key, its arguments): seats are 1–10 (R1.1)
    ("/foul 0", "command-bad_seat", {"command": "foul", "argument": "0"}),
    ("/foul 11", "command-bad_seat", {"command": "foul", "argument": "11"}),
    ("/foul -1", "command-bad_seat", {"command": "foul", "argument": "-1"}),
    ("/foul abc", "command-bad_seat", {"command": "foul", "argument": "abc"}),
    ("/nominate 0", "command-bad_seat", {"command": "nominate", "argument": "0"}),
    ("/nominate 11", "command-bad_seat", {"command": "nominate", "argument": "11"}),
    ("/nominate -1", "command-bad_seat", {"command": "nominate", "argument": "-1"}),
    ("/nominate abc", "command-bad_seat", {"command": "nominate", "argument": "abc"}),
    ("/dq 11 4.2.4", "command-bad_seat", {"command": "dq", "argument": "11"}),
    ("/unfoul abc", "command-bad_seat", {"command": "unfoul", "argument": "abc"}),
    ("/name 3 " + LONG, "command-too_long", {"length": len("/name 3 " + LONG), "limit": 500}),
    ("/foul " + LONG, "command-too_long", {"length": len("/foul " + LONG), "limit": 500}),
]


@pytest.mark.parametrize(("line", "key", "params"), BAD_ARGUMENTS,
                         ids=lambda v: v[:24] if isinstance(v, str) else None)
async def test_a_bad_argument_gets_its_refusal_and_changes_nothing(
        t: Table, line: str, key: str, params: dict[str, object]) -> None:
    before = await snapshot(t)
    await t.say(line)
    assert last_private(t) == CAT.text(key, **params)
    assert await snapshot(t) == before


async def test_a_missing_seat_is_asked_for(t: Table) -> None:
    before = await snapshot(t)
    await t.say("/foul")
    assert last_private(t) == CAT.text("command-missing_argument", command="foul",
                                       argument=CAT.text("what-seat"))
    assert await snapshot(t) == before


WRONG_PHASE = [
    # day 1, #1's speech: none of these is what the rules take now (RULES.md §4, F24 §4.5)
    "/kill 3",
    "/miss",
    "/don 4",
    "/sheriff 4",
    "/bestmove 1 2 3",
    "/vote 3 4",
    # ("/start" is Telegram's own: the welcome and the panel, not StartGame)
    "/roles D1 M3 M4 S6",  # the deal is fixed once the game has started
    "/nominate 2 5",  # F24 §4.4.2: only the speaker (#1) nominates
    "/unfoul 4",  # no foul to withdraw
]


@pytest.mark.parametrize("line", WRONG_PHASE)
async def test_a_command_in_the_wrong_phase_gets_the_rules_refusal(t: Table, line: str) -> None:
    from bot import commands as cmds

    state = await t.state()
    command = cmds.parse(line, state)
    assert isinstance(command, cmds.Act)
    refusal = rules.check(state, command.event)
    assert refusal is not None, f"{line} is legal now: the case is wrong"
    before = await snapshot(t)
    await t.say(line)
    assert last_private(t) == error_text(refusal, CAT)
    assert await snapshot(t) == before


# --- forged and bad presses ---------------------------------------------------------------------

@pytest.mark.parametrize("target", ["0", "11", "abc", "-1"])
async def test_a_forged_nomination_of_a_bad_seat_changes_nothing(t: Table, target: str) -> None:
    """A hand-made callback with the CURRENT revision and a bad seat: the engine's refusal
    (no such seat, R1.1) or, for what is not a number at all, "outdated"; nothing changes."""
    now = await t.now()
    data = encode(now.game_id, now.revision, pn.NOMINATE, target)
    before = await snapshot(t)
    qid = await t.press(data=data, strict=False)
    text, alert = answer(t, qid)
    if target.isdigit():
        refusal = rules.check(now.state, rules.Nominate(by=1, target=int(target)))
        assert refusal is not None
        assert (text, alert) == (error_text(refusal, CAT), True)
    else:  # no panel makes such a button: nothing is refreshed, nothing changes
        assert (text, alert) == (CAT.text("judge-press-unknown"), False)
    assert await snapshot(t) == before


async def test_a_press_of_foreign_data_is_answered_and_changes_nothing(t: Table) -> None:
    before = await snapshot(t)
    for data in ("garbage", "1:2", "x" * 64):  # not a panel's button at all
        qid = await t.press(data=data, strict=False)
        assert t.fake.callback_answers[qid].text == CAT.text("judge-press-unknown")
    assert await snapshot(t) == before
    # a panel button of a game that is not this one: the judge's current panel is shown
    qid = await t.press(data="99:1:n", strict=False)
    assert t.fake.callback_answers[qid].text == CAT.text("judge-press-outdated")
    now = await t.now()
    assert decode(t.panel().callback_data("Далее ▶")).revision == now.revision  # type: ignore[union-attr]
    assert (await snapshot(t)).log == before.log


async def test_a_non_judge_pressing_the_judges_button_with_the_current_revision(t: Table) -> None:
    """Every kind of judge button, forged by a player with the right game and revision: the
    alert "only the judge", and nothing changes."""
    now = await t.now()
    before = await snapshot(t)
    for action, args in ((pn.NEXT, ()), (pn.UNDO, ()), (pn.NOMINATE, (4,)),
                         (pn.PENALTY, (3, "4.1.2")), (pn.V_FOUL, ())):
        qid = await t.press(data=encode(now.game_id, now.revision, action, *args),
                            user=t.players[2], strict=False)
        assert answer(t, qid) == (CAT.text("judge-press-not-judge"), True)
    assert await snapshot(t) == before


# --- stale panels: before an undo, before a restart ---------------------------------------------

async def test_a_press_on_a_panel_from_before_an_undo_is_stale(t: Table) -> None:
    old = t.panel()
    old_next = old.callback_data("Далее ▶")
    await t.press("Далее ▶")  # #1's speech ends
    await t.press("Отмена хода ↩")  # and is taken back: #1 speaks again, as on the old panel
    assert (await t.state()).speaker == 1
    before = await snapshot(t)
    qid = await t.press(data=old_next, message=old, strict=False)
    assert answer(t, qid) == (CAT.text("judge-press-outdated"), False)
    after = await snapshot(t)
    assert (after.state, after.log, after.group) == (before.state, before.log, before.group)
    # the panel is refreshed (the press showed the judge an old view), and its buttons work
    assert decode(t.panel().callback_data("Далее ▶")).revision == len(after.log)  # type: ignore[union-attr]


async def test_a_panel_from_before_a_restart(fake: FakeBotAPI, tmp_path: Path) -> None:
    """The bot restarts (same store): a press on the panel it showed before works if nothing
    changed since (its revision is current) — once; an older panel's press is stale."""
    db = tmp_path / "referee.sqlite3"
    judge, group, people = make_world(fake)
    async with bot_running(fake, db) as (app, service):
        t = Table(fake=fake, app=app, service=service, judge=judge, group=group, players=people)
        await day_one(t)
        older = t.panel()
        older_next = older.callback_data("Далее ▶")
        await t.press("Далее ▶")
        current = t.panel()
        current_next = current.callback_data("Далее ▶")
        log = await service.events(f"tg:{judge.id}")
    async with bot_running(fake, db) as (app, service):
        t = Table(fake=fake, app=app, service=service, judge=judge, group=group, players=people)
        assert await service.events(f"tg:{judge.id}") == log
        qid = await t.press(data=older_next, message=older, strict=False)
        assert answer(t, qid) == (CAT.text("judge-press-outdated"), False)
        assert await service.events(f"tg:{judge.id}") == log
        group_count = len(fake.sent(group))
        qid = await t.press(data=current_next, message=current, strict=False)
        assert answer(t, qid)[0] is None  # accepted
        assert len(await service.events(f"tg:{judge.id}")) == len(log) + 1
        assert (await t.state()).speaker == 3  # F24 §4.3.2: the turn passes to #3
        assert any("Слово игроку №3" in (m.text or "") for m in fake.sent(group)[group_count:])
        qid = await t.press(data=current_next, message=current, strict=False)  # again: stale
        assert answer(t, qid) == (CAT.text("judge-press-outdated"), False)
        assert len(await service.events(f"tg:{judge.id}")) == len(log) + 1


# --- concurrency ---------------------------------------------------------------------------------

async def test_two_devices_press_two_buttons_of_one_panel_at_once(t: Table) -> None:
    """The judge's phone and laptop show the same panel; "Далее ▶" and "Отмена хода ↩" are
    pressed at the same moment: exactly one acts, the other is outdated."""
    panel = t.panel()
    log = await t.service.events(f"tg:{t.judge.id}")
    group_count = len(t.fake.sent(t.group))
    done = t.processor.done
    first = t.fake.user_presses(t.judge, panel, button="Далее ▶")
    second = t.fake.user_presses(t.judge, panel, button="Отмена хода ↩")
    await t.fake.wait_for(lambda: t.processor.done >= done + 2, what="both presses")
    after = await t.service.events(f"tg:{t.judge.id}")
    answers = [answer(t, first), answer(t, second)]
    assert sorted(a[0] or "" for a in answers) == sorted(["", CAT.text("judge-press-outdated")])
    if answers[0][0] is None:  # the Next won
        assert after == [*log, rules.Next()]
        assert (await t.state()).speaker == 2
    else:  # the undo won: the morning's Next is taken back (night 0 again)
        assert after == [*log, rules.Undo()]
        assert (await t.state()).phase is Phase.NIGHT_ZERO
    assert len(t.fake.sent(t.group)) == group_count + 1  # one announcement (or one correction)


async def test_an_admin_takes_over_while_the_old_judge_presses(t: Table) -> None:
    """/takeover in the group and the old judge's press at the same moment: whichever comes
    first, the game changes at most by that press, and never after the take over."""
    owner = t.players[0]  # the group's creator
    panel = t.panel()
    log = await t.service.events(f"tg:{t.judge.id}")
    done = t.processor.done
    t.fake.user_sends(owner, t.group, "/takeover")
    qid = t.fake.user_presses(t.judge, panel, button="Далее ▶")
    await t.fake.wait_for(lambda: t.processor.done >= done + 2, what="the take over and the press")
    now = await t.service.current(f"tg:{owner.id}")
    assert now is not None and now.judge == f"tg:{owner.id}"
    after = await t.service.events(f"tg:{owner.id}")
    text, alert = answer(t, qid)
    if text is None:  # the press came first and acted
        assert after == [*log, rules.Next()]
    else:  # the take over came first: the old judge's press is refused
        assert (text, alert) == (CAT.text("judge-press-not-judge"), True)
        assert after == log


async def test_the_same_callback_query_delivered_twice_acts_once(t: Table) -> None:
    """Telegram delivers one callback query again (same query id, same data): one Next."""
    panel = t.panel()
    data = panel.callback_data("Далее ▶")
    log = await t.service.events(f"tg:{t.judge.id}")
    qid = await t.press("Далее ▶")
    raw = {"update_id": 10**6, "callback_query": {
        "id": qid, "from": t.judge.to_api(), "message": panel.to_api(),
        "chat_instance": str(t.judge.id * 7 + 13), "data": data}}
    done = t.processor.done
    await t.app.update_queue.put(Update.de_json(raw, t.app.bot))
    await t.fake.wait_for(lambda: t.processor.done > done, what="the repeated query")
    assert await t.service.events(f"tg:{t.judge.id}") == [*log, rules.Next()]
    assert (await t.state()).speaker == 2


async def test_the_same_typed_update_delivered_twice_acts_once(t: Table) -> None:
    log = await t.service.events(f"tg:{t.judge.id}")
    message = await t.say("/next")
    assert await t.service.events(f"tg:{t.judge.id}") == [*log, rules.Next()]
    raw = {"update_id": message.update_id, "message": message.to_api()}
    done = t.processor.done
    await t.app.update_queue.put(Update.de_json(raw, t.app.bot))
    await t.fake.wait_for(lambda: t.processor.done > done, what="the repeated update")
    assert await t.service.events(f"tg:{t.judge.id}") == [*log, rules.Next()]
    assert (await t.state()).speaker == 2


# --- Telegram's errors on the group's announcements ----------------------------------------------

def to_group(t: Table):  # type: ignore[no-untyped-def]
    return lambda params: params.get("chat_id") == t.group.id


async def test_a_network_error_on_an_announcement_is_retried_and_sent_once(t: Table) -> None:
    """ENGINEERING.md §1: a failed send never rolls back or repeats a transition; the outbox
    sends the announcement again after a dropped connection — once."""
    fault = t.fake.fail_next("sendMessage", None, disconnect=True, match=to_group(t))
    log = await t.service.events(f"tg:{t.judge.id}")
    await t.press("Далее ▶")
    await t.fake.wait_for(lambda: any("Слово игроку №2" in x for x in t.public()),
                          what="the retried announcement")
    assert len(fault.hits) == 1
    assert sum("Слово игроку №2" in (m.text or "") for m in t.fake.sent(t.group)) == 1
    assert await t.service.events(f"tg:{t.judge.id}") == [*log, rules.Next()]
    await t.press("Далее ▶")  # the game goes on, in order
    await t.fake.wait_for(lambda: any("Слово игроку №3" in x for x in t.public()))
    texts = [m.text or "" for m in t.fake.sent(t.group)]
    assert max(i for i, x in enumerate(texts) if "№2" in x) < max(i for i, x in enumerate(texts) if "№3" in x)


async def test_a_refused_announcement_does_not_stop_the_game(t: Table) -> None:
    """A 400 on one announcement (Telegram refuses it for good): the transition stands, the
    refused message is not sent later out of order, and the next announcement arrives."""
    fault = t.fake.fail_next("sendMessage", 400, match=to_group(t),
                             description="Bad Request: not enough rights to send text messages to the chat")
    await t.press("Далее ▶")
    await t.fake.wait_for(lambda: len(fault.hits) == 1, what="the refused announcement")
    assert (await t.state()).speaker == 2
    await t.press("Далее ▶")
    await t.fake.wait_for(lambda: any("Слово игроку №3" in x for x in t.public()))
    await asyncio.sleep(0.2)
    texts = [m.text or "" for m in t.fake.sent(t.group)]
    assert not any("Слово игроку №2" in x for x in texts[texts.index(next(
        x for x in texts if "Слово игроку №3" in x)):])  # never after #3's


# --- the group: a player leaves, the group becomes a supergroup ------------------------------------

async def test_a_player_leaving_the_group_does_not_touch_the_judges_game(t: Table) -> None:
    """Judge mode: the players are seats the judge types, not Telegram accounts; a member who
    leaves the club's group changes nothing in the game (the judge records a 4.2.1 foul himself
    if the rules call for it)."""
    before = await snapshot(t)
    leaver = t.players[2]
    await t._handled(lambda: t.fake.user_leaves(leaver, t.group), "leaving")
    await asyncio.sleep(0.1)
    assert await snapshot(t) == before
    await t.press("Далее ▶")  # the game goes on
    assert (await t.state()).speaker == 2


async def test_a_group_upgraded_mid_game_keeps_the_game(t: Table) -> None:
    """The linked group becomes a supergroup during day 1: the game, its log and its judge stay,
    and the next announcement goes to the new chat."""
    basic = t.fake.add_group("Старая группа", members=[t.judge], creator=t.players[0], supergroup=False)
    await t.say("/link", chat=basic)
    await t.say("/lang en", chat=basic)
    before = await snapshot(t)
    old_count = len(t.fake.sent(basic))
    done = t.processor.done
    moved = t.fake.migrate_group(basic)
    await t.fake.wait_for(lambda: t.processor.done >= done + 2, what="both service messages")
    now = await snapshot(t)
    assert (now.state, now.log) == (before.state, before.log)
    assert await t.service.home(f"tg:{moved.id}") == f"tg:{t.judge.id}"
    await t.press("Далее ▶")
    assert "Player #2 speaks" in (t.fake.sent(moved)[-1].text or "")  # its language moved too
    assert len(t.fake.sent(basic)) == old_count  # nothing more to the old id
