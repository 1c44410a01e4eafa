"""The persistent outbox (ENGINEERING.md §1; storage migration 0004).

"The state transition commits before any message is sent. Outgoing messages go into a persistent
outbox in the same transaction, and a sender per chat drains it, honouring flood limits and
`RetryAfter`. A failed or delayed send never rolls back or repeats a transition. Delivery is at
least once: ... a one-off announcement can repeat only if the process died while sending it."

The store and the service first (one transaction; the render sees the new state), then the real
PTB Application of judge mode against the fake Bot API: a 429 on an announcement, a process that
dies between the commit and the send, a judge who blocked the bot.
"""

from __future__ import annotations

import asyncio
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any, AsyncIterator

import pytest

import rules
from bot.service import Outcome, Service
from bot.telegram.app import ALLOWED_UPDATES, build_application
from fakebot import FakeBotAPI, FakeChat, FakeUser, running
from storage import OutboxItem, StaleRevision, Store
from support.telegram_table import Table, make_world, settings_for


@pytest.fixture
def store(any_store: Store) -> Store:
    """This module's store-level tests run on both backends (SQLite, PostgreSQL: issue 18)."""
    return any_store


CONFIG = rules.config_to_dict(rules.PRESETS["seed"])
NIGHT = "Наступает ночь"  # the group's announcement of /start (night 0)
DAY = "День 1"  # the group's announcement of the morning (/next after night 0)


pytestmark = pytest.mark.usefixtures("ptb_timedelta")  # PTB gives retry_after as a timedelta



# --- the store ------------------------------------------------------------------------------------

async def test_the_outbox_is_written_in_the_events_transaction(store: Store) -> None:
    game = await store.create_game("tg:1", "tg:1", CONFIG, {})
    ids = await store.append_many(game, 1, [{"type": "StartGame"}], "tg:1",
                                  outbox=[OutboxItem("tg:1", {"text": "a"}),
                                          OutboxItem("tg:-5", {"text": "b"}, slot="timer")])
    assert len(ids) == 2 and ids[0] < ids[1]
    # a refused append (someone logged first) queues nothing either
    with pytest.raises(StaleRevision):
        await store.append_many(game, 1, [{"type": "Next"}], "tg:1",
                                outbox=[OutboxItem("tg:1", {"text": "lost"})])
    assert [r.payload["text"] for r in await store.pending()] == ["a", "b"]
    assert [r.payload["text"] for r in await store.pending("tg:-5")] == ["b"]
    assert await store.pending_chats() == ["tg:1", "tg:-5"]
    await store.mark_sent(ids[1], 77)  # a send with a slot stores its id for later edits
    assert await store.message(game, "tg:-5", "timer") == 77
    await store.mark_attempt(ids[0], "429 retry after 1 s")
    row = await store.outbox_row(ids[0])
    assert row is not None and row.state == "pending" and row.attempts == 1
    await store.mark_attempt(ids[0], "Forbidden: blocked", give_up=True)
    assert await store.pending() == []
    row = await store.outbox_row(ids[0])
    assert row is not None and row.state == "failed" and row.last_error == "Forbidden: blocked"


async def test_a_moved_chat_takes_its_pending_messages(store: Store) -> None:
    await store.enqueue([OutboxItem("tg:-5", {"text": "x"})])
    await store.move_chat("tg:-5", "tg:-1005")
    assert [r.chat for r in await store.pending()] == ["tg:-1005"]


async def test_open_timers_by_prefix(store: Store) -> None:
    """Each adapter re-arms only its own games' timers (``tg:`` / ``dc:``)."""
    service = Service(store)
    for chat in ("tg:1", "dc:2"):
        outcome = await service.new_game(chat, chat, rules.PRESETS["seed"])
        await service.set_timer(outcome.game_id, {"key": chat})
    assert [t["key"] for t in (await service.open_timers()).values()] == ["tg:1", "dc:2"]
    assert [t["key"] for t in (await service.open_timers(prefix="tg:")).values()] == ["tg:1"]
    assert [t["key"] for t in (await service.open_timers(prefix="dc:")).values()] == ["dc:2"]


# --- the service ----------------------------------------------------------------------------------

async def test_render_sees_the_new_state_and_its_messages_commit_with_the_event(store: Store) -> None:
    service = Service(store)
    await service.new_game("tg:1", "tg:1", rules.PRESETS["seed"])
    seen: list[Outcome] = []

    def render(outcome: Outcome) -> list[OutboxItem]:
        seen.append(outcome)
        return [OutboxItem("tg:1", {"text": outcome.state.phase.value})]

    outcome = await service.act("tg:1", "tg:1", rules.StartGame(), render=render)
    assert seen[0].state.phase is rules.Phase.NIGHT_ZERO and seen[0].revision == 1
    assert [r.id for r in await store.pending("tg:1")] == list(outcome.outbox)
    assert (await store.pending("tg:1"))[0].payload == {"text": "night_zero"}

    async def broken(outcome: Outcome) -> list[OutboxItem]:
        raise RuntimeError("render failed")

    with pytest.raises(RuntimeError):  # nothing is logged without its messages
        await service.act("tg:1", "tg:1", rules.Next(), render=broken)
    assert len(await service.events("tg:1")) == 1
    undone = await service.undo("tg:1", "tg:1", render=lambda o: [OutboxItem("tg:1", {"text": "u"})])
    assert undone.undone == (rules.StartGame(),) and len(undone.outbox) == 1


# --- the Telegram sender --------------------------------------------------------------------------

@asynccontextmanager
async def bot(fake: FakeBotAPI, db: Path) -> AsyncIterator[tuple[Any, Service]]:
    """Judge mode over the store at ``db``, with the rate limiter's own retries off
    (``telegram_max_retries=0``): a 429 reaches the outbox's sender, which must honour it."""
    store = await Store.open(db)
    try:
        service = Service(store)
        settings = settings_for(fake, db).model_copy(update={"telegram_max_retries": 0})
        app = build_application(settings, service)
        async with running(app, fake, allowed_updates=list(ALLOWED_UPDATES)):
            await app.post_init(app)
            yield app, service
    finally:
        await store.close()


def count(fake: FakeBotAPI, chat: FakeChat | FakeUser, text: str) -> int:
    """How many messages the bot posted to ``chat`` with ``text`` in their first version."""
    return sum(1 for m in fake.sent(chat) if text in (m.texts[0] if m.texts else ""))


async def drained(service: Service) -> None:
    """Wait until the outbox holds nothing pending (the fake records a message a moment
    before the sender marks its row sent)."""
    for _ in range(100):
        if not await service.store.pending():
            return
        await asyncio.sleep(0.05)
    raise AssertionError(f"still pending: {await service.store.pending()}")


def to(chat: FakeChat | FakeUser) -> Any:
    return lambda params: str(params.get("chat_id")) == str(chat.id)


async def test_a_429_on_an_announcement_delays_it_in_order_and_the_game_moves_on(
        fake: FakeBotAPI, any_target: str) -> None:
    judge, group, people = make_world(fake)
    async with bot(fake, Path(any_target)) as (app, service):  # Path: as Settings gives it
        t = Table(fake, app, service, judge, group, people)
        await t.say("/new")
        await t.say("/link", chat=group)
        fake.fail_next("sendMessage", 429, retry_after=2, match=to(group))
        await t.say("/start")
        await t.say("/next")
        # both transitions are committed although the group has heard of neither yet
        state = await t.state()
        assert state.phase is rules.Phase.SPEECH and state.day == 1 and await t.log_length() == 2
        assert count(fake, group, NIGHT) == 0 and count(fake, group, DAY) == 0
        await fake.wait_for(lambda: count(fake, group, DAY) == 1, timeout=6)
        texts = [m.texts[0] for m in fake.sent(group)]
        night = [i for i, x in enumerate(texts) if NIGHT in x]
        day = [i for i, x in enumerate(texts) if DAY in x]
        assert len(night) == 1 and len(day) == 1 and night[0] < day[0]  # in order, once each
        refused = [c for c in fake.calls_to("sendMessage") if to(group)(c.params)]
        assert len(refused) >= 3  # the 429, then the same announcement, then the next
        await drained(service)
        # the delayed announcement carries the speech's timer line: the timer finds its id
        timer = await service.timer((await t.now()).game_id)
        assert timer is not None
        row = await service.store.outbox_row(timer["group_outbox"])
        assert row is not None and row.chat == f"tg:{group.id}" and DAY in row.payload["text"]
        assert row.message_id == fake.sent(group)[day[0]].message_id


async def test_an_announcement_committed_before_a_crash_is_sent_once_after_the_restart(
        fake: FakeBotAPI, any_target: str) -> None:
    db = Path(any_target)
    judge, group, people = make_world(fake)
    async with bot(fake, db) as (app, service):
        t = Table(fake, app, service, judge, group, people)
        await t.say("/new")
        await t.say("/link", chat=group)

        async def died(*chats: str, **_: Any) -> None:  # the process dies after the commit, before sending
            return None

        t.referee.outbox.flush = died
        await t.say("/start")
        assert (await t.state()).phase is rules.Phase.NIGHT_ZERO
        assert count(fake, group, NIGHT) == 0
        # the group's announcement (the judge reads the action on his panel, edited after it)
        assert {r.chat for r in await service.store.pending()} == {f"tg:{group.id}"}
    async with bot(fake, db) as (app, service):  # a new process over the same database
        t = Table(fake, app, service, judge, group, people)
        await fake.wait_for(lambda: count(fake, group, NIGHT) == 1, timeout=5)
        await drained(service)
        await t.say("/next")
        await fake.wait_for(lambda: count(fake, group, DAY) == 1, timeout=5)
        assert count(fake, group, NIGHT) == 1  # sent once, not again by the next action
        assert (await t.state()).day == 1


async def test_a_judge_who_blocked_the_bot_does_not_hold_up_the_group(
        fake: FakeBotAPI, any_target: str) -> None:
    judge, group, people = make_world(fake)
    async with bot(fake, Path(any_target)) as (app, service):  # Path: as Settings gives it
        t = Table(fake, app, service, judge, group, people)
        await t.say("/new")
        await t.say("/link", chat=group)
        await t.say("/start")
        await t.say("/next")
        for _ in range(3):
            await t.say("/foul 3 4.1.1")
        fake.fail_next("sendMessage", 403, match=to(judge))
        await t.say("/foul 3 4.1.1")  # the 4th: removed (seed 4.5), the one line the judge is sent
        rows = (await outbox_rows(service.store))[-2:]  # what the 4th foul queued
        assert [(r.chat, r.state) for r in rows if r is not None] == [
            (f"tg:{judge.id}", "failed"), (f"tg:{group.id}", "sent")]
        assert rows[0] is not None and "Forbidden" in (rows[0].last_error or "")
        before = len(t.public())
        await t.say("/next")  # the given-up row holds nothing up, in either chat
        assert len(t.public()) == before + 1 and "№" in t.public()[-1]
        await drained(service)


async def outbox_rows(store: Store) -> list[Any]:
    """Every row of the outbox, oldest first."""
    rows: list[Any] = []
    while (row := await store.outbox_row(len(rows) + 1)) is not None:
        rows.append(row)
    return rows


# --- the sender alone, over a stub bot --------------------------------------------------------------

class StubBot:
    """Answers ``sendMessage`` (the transport's plain-data call, ``Bot._post``) from a script of
    faults (``None``: success), keeping what left."""

    def __init__(self, faults: list[Exception | None]) -> None:
        self.faults = faults
        self.sent: list[tuple[int, str]] = []
        self.tries = 0

    async def _post(self, endpoint: str, data: dict[str, Any]) -> Any:
        assert endpoint == "sendMessage"
        self.tries += 1
        fault = self.faults.pop(0) if self.faults else None
        if fault is not None:
            raise fault
        self.sent.append((data["chat_id"], data["text"]))
        return {"message_id": 100 + len(self.sent)}


def sender(store: Store, stub: StubBot, moved: list[tuple[str, str]] | None = None) -> Any:
    from bot.outbox import Outbox
    from bot.telegram.outbox import TelegramTransport

    async def on_migrate(old: str, new: str) -> None:
        (moved if moved is not None else []).append((old, new))
        await store.move_chat(old, new)

    service = Service(store)
    return Outbox.of(lambda: service, TelegramTransport(lambda: service, lambda: stub),
                     on_migrate=on_migrate, retry_delay=0.05)


async def test_the_sender_retries_the_same_row_after_retry_after(store: Store) -> None:
    from telegram.error import RetryAfter
    stub = StubBot([RetryAfter(0.1)])  # type: ignore[arg-type]
    await store.enqueue([OutboxItem("tg:-5", {"text": t}) for t in ("one", "two", "three")])
    outbox = sender(store, stub)
    await outbox.flush("tg:-5")
    assert stub.sent == [] and outbox.waiting("tg:-5")
    await outbox.flush("tg:-5")  # a flush while the chat waits sends nothing ahead of its turn
    assert stub.sent == []
    for _ in range(50):
        if len(stub.sent) == 3:
            break
        await asyncio.sleep(0.02)
    assert stub.sent == [(-5, "one"), (-5, "two"), (-5, "three")] and stub.tries == 4
    assert await store.pending() == []
    await outbox.close()


async def test_the_sender_gives_up_on_a_refusal_and_retries_a_network_error(store: Store) -> None:
    from telegram.error import Forbidden, NetworkError
    stub = StubBot([Forbidden("bot was blocked by the user"), None, NetworkError("reset"), None])
    ids = await store.enqueue([OutboxItem("tg:7", {"text": t}) for t in ("a", "b", "c")])
    outbox = sender(store, stub)
    await outbox.flush("tg:7")  # a: refused (given up), b: sent, c: network error (later)
    assert stub.sent == [(7, "b")]
    for _ in range(500):  # the background retry (a generous bound: the machine may be loaded)
        if len(stub.sent) == 2:
            break
        await asyncio.sleep(0.02)
    await outbox.settle()  # the retry's flush has stored what it sent
    assert stub.sent == [(7, "b"), (7, "c")]
    states = [(await store.outbox_row(i)).state for i in ids]  # type: ignore[union-attr]
    assert states == ["failed", "sent", "sent"]
    await outbox.close()


async def test_the_sender_follows_a_chat_that_moved(store: Store) -> None:
    from telegram.error import ChatMigrated
    stub = StubBot([ChatMigrated(-1009)])
    await store.enqueue([OutboxItem("tg:-9", {"text": t}) for t in ("x", "y")])
    moved: list[tuple[str, str]] = []
    outbox = sender(store, stub, moved)
    await outbox.flush("tg:-9")
    for _ in range(50):
        if len(stub.sent) == 2:
            break
        await asyncio.sleep(0.02)
    assert moved == [("tg:-9", "tg:-1009")]
    assert stub.sent == [(-1009, "x"), (-1009, "y")]
    await outbox.close()


def counting_outbox(store: Store) -> tuple[Any, list[str], list[str]]:
    """An outbox over ``store`` whose transport records the texts it sends, and the chats whose
    pending rows it reads from the store (``""``: every chat's)."""
    from bot import outbox as ob

    sent: list[str] = []
    reads: list[str] = []

    class Transport:
        prefix = "tg:"

        async def deliver(self, row: Any, made: Any) -> int:
            sent.append(row.payload["text"])
            return len(sent)

    pending = store.pending

    async def counted(chat: str | None = None) -> Any:
        reads.append(chat or "")
        return await pending(chat)

    store.pending = counted  # type: ignore[method-assign]
    return ob.Outbox(lambda: store, Transport()), sent, reads  # type: ignore[arg-type]


async def test_a_chat_found_empty_is_not_read_again_until_something_is_queued_for_it() -> None:
    """An action flushes its judge's chat though it rarely queues anything there now (his
    panel carries the action): once a flush found the chat with nothing pending, the next
    reads nothing — and what this process queued there since is sent without a read of the
    store either (issue 34: the store knows the rows it committed, ``queued_since``)."""
    from bot import outbox as ob

    store = await Store.open(":memory:")
    try:
        box, sent, reads = counting_outbox(store)
        game = await store.create_game("tg:1", "tg:1", rules.config_to_dict(rules.PRESETS["seed"]), {})
        await box.flush("tg:1")
        await box.flush("tg:1")
        assert reads == ["tg:1"]  # found empty once; nothing queued since: not read again
        await store.enqueue([ob.post("tg:1", "Игра №1")], game_id=game)
        await store.enqueue([ob.post("tg:1", "Игра №2")], game_id=game)
        await box.flush("tg:1")
        assert sent == ["Игра №1", "Игра №2"] and reads[1:] == []  # what was queued here: known
        assert await store.pending("tg:1") == []  # and marked sent
        reads.clear()
        await box.flush("tg:1", "tg:2")
        assert reads == ["tg:2"]  # tg:1 drained by that send, tg:2 never read before
    finally:
        await store.close()


async def test_a_chat_left_part_way_is_read_from_the_store_at_its_next_flush() -> None:
    """What the store knows it queued is taken once (issue 34): a flush stopped by a flood
    limit leaves the rest to the store's own record, read again at the retry — each row sent
    once, in order, none lost."""
    from bot import outbox as ob

    store = await Store.open(":memory:")
    try:
        box, sent, reads = counting_outbox(store)
        deliver = box.transport.deliver
        limited = [True]

        async def once_limited(row: Any, made: Any) -> int:
            if row.payload["text"] == "2" and limited:
                limited.clear()
                raise ob.RetryAfter(0)
            return await deliver(row, made)

        box.transport.deliver = once_limited  # type: ignore[method-assign]
        game = await store.create_game("tg:1", "tg:1", rules.config_to_dict(rules.PRESETS["seed"]), {})
        await box.flush("tg:1")
        await store.enqueue([ob.post("tg:1", text) for text in "123"], game_id=game)
        reads.clear()
        await box.flush("tg:1")
        assert sent == ["1"] and reads == []  # known, until the flood limit
        await box.settle()
        assert sent == ["1", "2", "3"] and reads == ["tg:1"]  # the rest read from the store
        assert await store.pending("tg:1") == []
    finally:
        await store.close()


async def test_after_the_start_s_drain_a_chat_with_nothing_pending_is_not_read() -> None:
    """At start-up :meth:`Outbox.drain_all` reads which chats hold pending rows (a previous
    process's) and sends them: every other chat holds none, so its first flush (a judge's
    first action after a restart) reads nothing — until something is queued for it here, or
    it is kicked to be read again (another process may have written)."""
    from bot import outbox as ob

    store = await Store.open(":memory:")
    try:
        game = await store.create_game("tg:1", "tg:1", rules.config_to_dict(rules.PRESETS["seed"]), {})
        await store.enqueue([ob.post("tg:1", "left by the last process")], game_id=game)
        box, sent, reads = counting_outbox(store)
        await box.flush("tg:2")
        assert reads == ["tg:2"]  # before the start's drain: read
        await box.drain_all()
        assert sent == ["left by the last process"] and reads[1:] == ["tg:1"]
        await box.flush("tg:1", "tg:3", "tg:4")
        assert reads[2:] == []  # tg:1 drained; tg:3 and tg:4 found clean by the start's read
        await store.enqueue([ob.post("tg:3", "Игра №1")], game_id=game)
        await box.flush("tg:3", "tg:4")
        assert sent[1:] == ["Игра №1"] and reads[2:] == []  # queued here since the start: known
        box.kick("tg:4", reread=True)  # another process may have queued there
        await box.settle()
        assert reads[2:] == ["tg:4"]
    finally:
        await store.close()
