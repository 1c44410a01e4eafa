"""A retry never doubles a post (issue 32): an outbox row of several calls — the protocol on
Telegram (the score sheet, then a document per JSON file), a text Discord takes in several
parts — records each call as it is delivered (:func:`bot.outbox.calls`, the row's ``parts``), so
that a failure on one call retries that call and those after it, never the ones delivered. A
fault is injected on each call of such a row in turn, over the fakes; every picture, file and
part then reaches the chat exactly once. (A call whose answer was lost can still repeat, as
:mod:`bot.outbox` states: here the failures are calls not carried out.)"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any, AsyncIterator, Callable

import pytest

from bot import outbox as ob
from bot.render import chunks
from fakebot import FakeBotAPI
from rules import Phase
from storage import OutboxRow, Store
from support.discord_table import TABLE_ID, DiscordTable
from support.discord_table import table as discord_table
from support.telegram_table import Table, table

pytestmark = pytest.mark.usefixtures("ptb_timedelta")

DOCUMENTS = ["game-1.json", "game-1.mafiaratings.json"]


def nth(n: int, then: Callable[[], None] = lambda: None) -> Callable[[Any], bool]:
    """A fault's match that takes the ``n``-th call it is asked about (1 for the first), and
    calls ``then`` as it does."""
    seen = [0]

    def match(_: Any) -> bool:
        seen[0] += 1
        if seen[0] == n:
            then()
            return True
        return False
    return match


# --- the sender, over a transport of its own -------------------------------------------------------

class Calls:
    """A transport whose rows are three calls each (``ob.calls``); the ``fail``-th call made
    (1 for the first) is refused once, as a network error."""

    prefix = "tg:"

    def __init__(self, fail: int) -> None:
        self.fail = fail
        self.made: list[tuple[int, int]] = []  # (row, call) in the order they were made
        self.tries = 0

    async def deliver(self, row: OutboxRow, made: ob.Made) -> int | None:
        def call(index: int) -> Callable[[], Any]:
            async def make() -> int:
                self.tries += 1
                if self.tries == self.fail:
                    raise ob.Unreachable("502 Bad Gateway")
                self.made.append((row.id, index))
                return 100 * row.id + index
            return make
        ids = await ob.calls(row, [call(i) for i in range(3)], made)
        return ids[0]


@pytest.mark.parametrize("fail", [1, 2, 3])
async def test_a_failure_on_any_call_of_a_row_repeats_none_delivered(fail: int) -> None:
    """The sender over a store (both stores keep ``parts``: ``tests/test_storage.py``): the
    failed call is made again after the retry's wait, the calls before it never; the row's
    message id is its first call's; a new sender over the same store (a restart) finds nothing
    left to make."""
    store = await Store.open(":memory:")
    try:
        transport = Calls(fail)
        outbox = ob.Outbox(lambda: store, transport, retry_delay=0.01)  # type: ignore[arg-type]
        (row_id,) = await store.enqueue([ob.post("tg:-1", "the protocol")])
        await outbox.flush("tg:-1")
        for _ in range(500):
            if not await store.pending("tg:-1"):
                break
            await asyncio.sleep(0.01)
        assert transport.made == [(row_id, 0), (row_id, 1), (row_id, 2)]
        row = await store.outbox_row(row_id)
        assert row is not None and row.state == "sent" and row.message_id == 100 * row_id
        again = ob.Outbox(lambda: store, transport)  # type: ignore[arg-type]
        await again.drain_all()
        assert len(transport.made) == 3
        await outbox.close()
    finally:
        await store.close()


# --- Telegram: the protocol --------------------------------------------------------------------------

@pytest.fixture
async def t(fake: FakeBotAPI, tmp_path: Path) -> AsyncIterator[Table]:
    async with table(fake, tmp_path / "referee.sqlite3") as running:
        running.referee.outbox.retry_delay = 0.05
        yield running


async def finished_game(t: Table) -> None:
    """A short game to its end (an oath: the blacks lose, seed 4.3.1); its protocol goes out."""
    await t.say("/new fiim2024")
    await t.say("/link", chat=t.group)
    await t.say("/roles D2 M5 M7 S8")
    await t.say("/start")
    await t.say("/next")
    await t.say("/ppk 7 4.3.1")
    assert (await t.state()).phase is Phase.GAME_OVER


def protocol_in(t: Table, chat: Any) -> tuple[int, list[str]]:
    """The score sheets and the documents (their names) the bot sent to ``chat``."""
    sent = t.fake.sent(chat)
    return (sum(1 for m in sent if m.photo),
            sorted(m.document["file_name"] for m in sent if m.document))


async def test_telegram_a_502_on_any_call_of_the_protocol_doubles_nothing(t: Table) -> None:
    """``/protocol`` in the group, three times, with a 502 on its score sheet, on its first JSON
    file, on its second: each time the group gets one sheet and each file once — the 502ed call
    made again, the ones before it not (a 502 on a JSON file once posted the sheet twice)."""
    await finished_game(t)
    group = f"tg:{t.group.id}"
    await t.fake.wait_for(lambda: protocol_in(t, t.group) == (1, DOCUMENTS), timeout=30,
                          what="the game's protocol in the group")
    to_group = lambda params: str(params.get("chat_id")) == str(t.group.id)  # noqa: E731
    faults = [("sendPhoto", 1), ("sendDocument", 1), ("sendDocument", 2)]
    for round_, (method, n) in enumerate(faults, 2):
        match = nth(n)
        fault = t.fake.fail_next(method, 502, match=lambda params, m=match: to_group(params) and m(params))
        await t.say("/protocol", chat=t.group)
        await t.fake.wait_for(lambda: len(fault.hits) == 1, timeout=30, what=f"the 502 on {method}")
        await t.fake.wait_for(lambda: protocol_in(t, t.group)[0] >= round_
                              and len(protocol_in(t, t.group)[1]) >= 2 * round_, timeout=30,
                              what="the protocol sent after the retry")
        await t.fake.wait_for(lambda: not t.referee.outbox.waiting(group), timeout=30)
        await t.referee.outbox.flush(group)
        assert protocol_in(t, t.group) == (round_, sorted(DOCUMENTS * round_)), (method, n)
    assert await t.service.store.pending(group) == []


# --- Discord: a text in several parts ----------------------------------------------------------------

@pytest.fixture
async def d(tmp_path: Path) -> AsyncIterator[DiscordTable]:
    async with discord_table(tmp_path / "referee.sqlite3", timer_scale=1000.0) as running:
        running.referee.outbox.retry_delay = 0.05
        yield running


def long_text(tag: str) -> str:
    """A text Discord takes in three parts (2000 characters each at most), split at line ends."""
    text = "\n".join(f"{tag} line {n:03d} " + "x" * 60 for n in range(70))
    assert len(chunks(text, 2000)) == 3
    return text


async def test_discord_a_failure_on_any_part_of_a_long_text_doubles_nothing(d: DiscordTable) -> None:
    """A text of three parts, three times, with the connection dropped on its first part, its
    second, its third (nothing carried out), and the retry only after Discord's nonce window
    (a few minutes: Discord unreachable that long, a restart): each part is in the channel once
    — the dropped one sent again, those before it not. (Within the window the nonce alone kept
    a repeat from posting twice; past it, only the parts recorded do.)"""
    channel = f"dc:{TABLE_ID}"
    skew = [0.0]
    d.fake.clock = lambda: time.time() + skew[0]

    def later() -> None:  # the retry comes after the nonce window
        skew[0] += 3600.0

    def posted() -> list[str]:
        return [m.now.content for m in d.fake.in_channel(TABLE_ID) if m.author["id"] == d.fake.bot["id"]]

    for n in (1, 2, 3):
        tag = f"text{n}"
        text = long_text(tag)
        d.server.drop_calls("POST", "/channels/{channel_id}/messages",
                            match=lambda call, m=nth(n, later): f"/channels/{TABLE_ID}/" in call.url and m(call))
        await d.service.store.enqueue([ob.post(channel, text)])
        await d.referee.outbox.flush(channel)
        for _ in range(1000):
            if not await d.service.store.pending(channel) and not d.referee.outbox.waiting(channel):
                break
            await asyncio.sleep(0.01)
        mine = [p for p in posted() if p.startswith(f"{tag} line")]
        assert mine == chunks(text, 2000), [p[:20] for p in mine]
    assert len(d.server.dropped) == 3
