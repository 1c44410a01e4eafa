"""A stored game whose log no longer folds (an engine change refuses an event an older version
accepted) is set aside — quarantined, nothing deleted — and said clearly; every other chat goes
on, a restart still starts, and /new in that chat starts a new game. Both backends."""

from __future__ import annotations

import asyncio
import io
import json
import logging
from pathlib import Path

import pytest

import rules
from bot import console
from bot.cli import main
from bot.console import run_console
from bot.i18n import catalog
from bot.render import error_text
from bot.service import Service, ServiceError
from storage import Store
from support.stores import rows

CHAT, OTHER = "tg:-100123", "tg:-100456"
JUDGE = "tg:42"
SEED = rules.PRESETS["seed"]
TIMER = {"key": "speech", "deadline": 1.0}


@pytest.fixture
def store(any_store: Store) -> Store:
    return any_store


async def broken_game(service: Service, store: Store, chat: str = CHAT) -> int:
    """A game whose 3rd logged action (written to the log directly, as an older version might
    have stored it) is one the rules refuse: seat 2 nominates while seat 1 speaks (F24 §4.4.2).
    Its timer is stored, as a running step's is."""
    await service.new_game(chat, JUDGE, SEED)
    await service.act(chat, JUDGE, rules.StartGame())
    outcome = await service.act(chat, JUDGE, rules.Next())
    await service.set_timer(outcome.game_id, TIMER)
    await logged(store, outcome.game_id, 3, rules.to_dict(rules.Nominate(by=2, target=5)))
    return outcome.game_id


async def logged(store: Store, game_id: int, seq: int, event: dict[str, object]) -> None:
    """Write log row ``seq`` of the game directly (the log is append-only)."""
    await rows(store, "INSERT INTO events(game_id, seq, event, actor, at) VALUES (?, ?, ?, ?, ?)",
               game_id, seq, json.dumps(event), JUDGE, 1.0)


async def a_game(service: Service, chat: str = OTHER) -> int:
    await service.new_game(chat, JUDGE, SEED)
    outcome = await service.act(chat, JUDGE, rules.StartGame())
    await service.set_timer(outcome.game_id, TIMER)
    return outcome.game_id


async def test_a_touch_sets_the_game_aside_says_why_and_logs_one_warning(
        store: Store, caplog: pytest.LogCaptureFixture) -> None:
    broken = await broken_game(Service(store), store)
    other = await a_game(Service(store))
    service = Service(store)  # a restart: nothing cached
    with caplog.at_level(logging.WARNING, logger="bot.service"):
        # as in a chat without a game (a new game, a restart's timers go on), and said why
        assert await service.current(CHAT) is None
        for touch in (service.act(CHAT, JUDGE, rules.Next()), service.undo(CHAT, JUDGE),
                      service.events(CHAT), service.abandon(CHAT, JUDGE),
                      service.take_over(CHAT, "tg:43")):
            with pytest.raises(ServiceError) as refused:
                await touch
            error = refused.value
            assert error.code == "quarantined" and error.params["game_id"] == broken
            assert error.params["seq"] == 3
            assert isinstance(error.params["cause"], rules.RuleError)
            assert error.params["cause"].code is rules.Code.NOT_SPEAKER
        missing = await service.missing(CHAT)
        assert missing.code == "quarantined" and str(missing) == str(error)
        assert (await service.missing("tg:-100999")).code == "no_game"
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1, warnings  # once, when it is found; never again
    assert str(broken) in warnings[0].getMessage() and "3" in warnings[0].getMessage()
    # nothing lost: the log is as stored, the game's row is there, not finished
    assert len(await store.events(broken)) == 3
    row = await store.game(broken)
    assert row is not None and row.quarantine is not None and row.quarantine["seq"] == 3
    assert not row.finished
    # the other chat goes on
    again = await service.act(OTHER, JUDGE, rules.Next())
    assert again.game_id == other and again.revision == 2
    # the message: which game, which action, why, and what to do — in both languages
    for lang, words in (("en", ("№" + str(broken), "3", "/new", "--raw")),
                        ("ru", ("№" + str(broken), "№3", "/new", "--raw"))):
        cat = catalog(lang)
        text = error_text(error, cat)
        assert all(w in text for w in words), text
        assert "/newgame" not in text  # the judge's chat starts a game with /new
        assert error_text(error.params["cause"], cat) in text
        hosted = error_text(type(error)(error.code, **error.params, hosted=True), cat)
        assert "/newgame" in hosted  # a hosted table's group opens its next one with /newgame


async def test_a_restart_leaves_a_set_aside_game_out_and_rearms_the_others(store: Store) -> None:
    broken = await broken_game(Service(store), store)
    other = await a_game(Service(store))
    assert set(await store.open_timers()) == {broken, other}
    assert await Service(store).current(CHAT) is None  # found at the first touch
    restarted = Service(store)
    assert set(await restarted.open_timers()) == {other}
    assert [g.id for g in await store.open_games()] == [other]
    assert await restarted.timer(broken) is None
    now = await restarted.current(OTHER)
    assert now is not None and now.game_id == other


async def test_new_in_that_chat_starts_a_new_game_and_keeps_the_old_log(store: Store) -> None:
    broken = await broken_game(Service(store), store)
    service = Service(store)
    assert await service.current(CHAT) is None
    created = await service.new_game(CHAT, JUDGE, SEED)  # no game_exists: nothing to replace
    assert created.game_id != broken and created.revision == 0
    started = await service.act(CHAT, JUDGE, rules.StartGame())
    assert started.state.phase is rules.Phase.NIGHT_ZERO
    row = await store.game(broken)
    assert row is not None and row.quarantine is not None and row.result is None
    assert len(await store.events(broken)) == 3
    again = await Service(store).current(CHAT)  # and after a restart too
    assert again is not None and again.game_id == created.game_id


async def test_new_without_a_touch_first(store: Store) -> None:
    """The first thing after the restart is /new itself."""
    broken = await broken_game(Service(store), store)
    created = await Service(store).new_game(CHAT, JUDGE, SEED)
    assert created.game_id != broken
    row = await store.game(broken)
    assert row is not None and row.quarantine is not None and row.quarantine["seq"] == 3


async def test_an_event_this_version_cannot_read(store: Store) -> None:
    """Not only a refusal: a logged event of a kind this version does not know."""
    service = Service(store)
    created = await service.new_game(CHAT, JUDGE, SEED)
    await logged(store, created.game_id, 1, {"type": "a_kind_from_the_future"})
    refused = await Service(store).missing(CHAT)
    assert refused.params["seq"] == 1 and refused.params["cause"] is None
    assert "a_kind_from_the_future" in error_text(refused, catalog("en"))


# --- the console, and the raw log's export (SQLite file: processes one after another) -----------
def broken_console_game(db: Path) -> int:
    async def make() -> int:
        async with await Store.open(db) as store:
            return await broken_game(Service(store), store, console.CHAT)

    return asyncio.run(make())


def play(db: Path, script: str) -> list[str]:
    out = io.StringIO()
    assert asyncio.run(run_console(db, stdin=io.StringIO(script), out=out, lang="en")) == 0
    return out.getvalue().splitlines()


def test_the_console_says_why_and_starts_a_new_game_with_new(db_path: Path) -> None:
    broken = broken_console_game(db_path)
    said = "\n".join(play(db_path, "/status\n/new\n/roles D2 M5 M7 S8\n/start\n/status\n"))
    EN = catalog("en")

    async def why() -> str:
        async with await Store.open(db_path) as store:
            return error_text(await Service(store).missing("tg:nowhere"), EN)

    assert said.count(f"№{broken} cannot be loaded") == 2, said  # at the start, and at /status
    assert asyncio.run(why()) not in said  # not a plain "no game"
    assert EN.text("console-new-confirm", game=broken) not in said  # nothing to confirm

    async def check() -> None:
        async with await Store.open(db_path) as store:
            row = await store.current_game(console.CHAT)
            assert row is not None and row.id != broken
            assert [e.event["type"] for e in await store.events(row.id)][-1] == "start_game"
            assert len(await store.events(broken)) == 3  # kept

    asyncio.run(check())


def test_the_raw_log_of_a_set_aside_game_is_exported(db_path: Path, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    broken = broken_console_game(db_path)
    target = tmp_path / "raw.json"
    assert main(["protocol", "--db", str(db_path), "--game", str(broken), "--raw", str(target),
                 "--lang", "en"]) == 0
    assert str(target) in capsys.readouterr().out
    record = json.loads(target.read_text("utf-8"))
    assert record["game"] == broken and record["chat"] == console.CHAT
    assert [e["seq"] for e in record["events"]] == [1, 2, 3]
    assert record["events"][2]["event"] == rules.to_dict(rules.Nominate(by=2, target=5))
    assert record["config"]["first_day_leader_speech"] in (True, False)


async def test_a_later_engine_tries_a_set_aside_game_again(store: Store) -> None:
    """A game set aside by an engine stays aside under that engine (not folded again at every
    touch); set aside by another one (an older version, before a fix was deployed), it is
    folded again at its first load and, as it folds, put back in play."""
    from rules import snapshot

    game = await a_game(Service(store), CHAT)  # a log that folds
    why = {"seq": 2, "detail": "refused by a bug since fixed"}
    await store.quarantine(game, {**why, "engine": snapshot.version()})
    service = Service(store)
    assert await service.current(CHAT) is None  # this engine set it aside: left aside
    assert (await service.missing(CHAT)).code == "quarantined"
    await store.quarantine(game, {**why, "engine": "an older engine"})
    service = Service(store)
    back = await service.current(CHAT)
    assert back is not None and back.game_id == game and back.revision == 1
    row = await store.game(game)
    assert row is not None and row.quarantine is None
    assert game in [g.id for g in await store.open_games()]  # a restart resumes it
    await service.act(CHAT, JUDGE, rules.Next())  # and it plays on


async def test_a_later_engine_that_still_refuses_the_log_keeps_it_aside(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    broken = await broken_game(Service(store), store)
    assert await Service(store).current(CHAT) is None
    from rules import snapshot

    monkeypatch.setattr(snapshot, "version", lambda: "another engine")
    service = Service(store)
    assert await service.current(CHAT) is None
    missing = await service.missing(CHAT)
    assert missing.code == "quarantined" and missing.params["seq"] == 3
    row = await store.game(broken)
    assert row is not None and row.quarantine is not None
    assert row.quarantine["engine"] == "another engine"  # not tried again by this one


# --- a log edited by hand under its snapshot (issue 32) -----------------------------------------

async def edited(store: Store, game_id: int, seq: int, event: dict[str, object]) -> None:
    """Change log row ``seq`` by hand, as someone with the database's file or a SQL prompt may
    (the log is append-only: its triggers are taken off for it, then put back)."""
    from storage import PgStore

    if isinstance(store, PgStore):
        await rows(store, "ALTER TABLE events DISABLE TRIGGER events_no_update")
        await rows(store, "UPDATE events SET event = ? WHERE game_id = ? AND seq = ?",
                   json.dumps(event), game_id, seq)
        await rows(store, "ALTER TABLE events ENABLE TRIGGER events_no_update")
        return
    (sql,), = await rows(store, "SELECT sql FROM sqlite_master WHERE name = 'events_no_update'")
    await rows(store, "DROP TRIGGER events_no_update")
    await rows(store, "UPDATE events SET event = ? WHERE game_id = ? AND seq = ?",
               json.dumps(event), game_id, seq)
    await rows(store, sql)


async def snapshotted_game(store: Store) -> tuple[int, list[rules.Event]]:
    """A game of six seats named and night 0 over (a snapshot stored at its 4th event, kept at
    the 8th: four events per snapshot here); its log."""
    service = Service(store, snapshot_every=4)
    await service.new_game(CHAT, JUDGE, SEED)
    for seat, name in enumerate(("Аня", "Боря", "Вера", "Гоша", "Даша", "Егор"), 1):
        await service.act(CHAT, JUDGE, rules.SetName(seat=seat, name=name))
    await service.act(CHAT, JUDGE, rules.StartGame())
    outcome = await service.act(CHAT, JUDGE, rules.Next())
    (count,), = await rows(store, "SELECT COUNT(*) FROM snapshots WHERE game_id = ?", outcome.game_id)
    assert count == 1
    return outcome.game_id, await service.events(CHAT)


@pytest.mark.parametrize("seq", [2, 8])
async def test_a_log_edited_under_its_snapshot_is_set_aside_at_its_load(
        store: Store, seq: int, caplog: pytest.LogCaptureFixture) -> None:
    """A row under the snapshot changed by hand — a seat renamed (row 2), or the last folded
    action (row 8) — into something the rules accept: a cold load from the snapshot, which reads
    no row under it, would go on with a state the log no longer gives (seen only when the
    protocol is drawn from the log at the end). It is noticed at the load (the snapshot's digest
    of the rows it folds): the game is set aside as one whose log no longer folds, the chat
    told which game, what happened and what to do; nothing is deleted."""
    game_id, log = await snapshotted_game(store)
    assert seq <= 8
    replacement = rules.to_dict(rules.SetName(seat=2, name="Подмена")) if seq == 2 \
        else rules.to_dict(log[seq - 1])
    if seq == 8:  # the same action, its text written again by hand (a key added)
        replacement = {**replacement, "note": "edited"}
    await edited(store, game_id, seq, replacement)
    service = Service(store)  # a restart: nothing cached
    with caplog.at_level(logging.WARNING, logger="bot.service"):
        assert await service.current(CHAT) is None
    missing = await service.missing(CHAT)
    assert missing.code == "quarantined" and missing.params["game_id"] == game_id
    assert missing.params["edited"] and missing.params["seq"] == 8  # the rows the snapshot folds
    text = error_text(missing, catalog("ru"))
    assert f"игру №{game_id}" in text and "журнал изменён не ботом" in text and "до №8" in text
    assert "/new" in text
    assert len([r for r in caplog.records if "set aside" in r.getMessage()]) == 1
    assert len(await store.events(game_id)) == len(log)  # nothing deleted
    with pytest.raises(ServiceError):
        await service.act(CHAT, JUDGE, rules.Next())
    fresh = await service.new_game(CHAT, JUDGE, SEED)  # /new: a new game in that chat
    assert fresh.game_id != game_id


async def test_an_untouched_log_loads_from_its_snapshot_and_keeps_its_digest(store: Store) -> None:
    """The check reads the rows under the snapshot, never changes what a load gives: a cold
    load of an untouched log is the fold of the log; the next snapshots written after it carry
    the digest on (a second cold load still passes), as do an undo and a correction."""
    game_id, log = await snapshotted_game(store)
    service = Service(store, snapshot_every=4)
    current = await service.current(CHAT)
    assert current is not None and current.state == rules.fold(SEED, log)[0]
    for _ in range(4):
        await service.act(CHAT, JUDGE, rules.Next())  # a new snapshot at the 12th event
    await service.undo(CHAT, JUDGE, steps=2)
    await service.fix(CHAT, JUDGE, 2, rules.SetName(seat=2, name="Борис"))  # a snapshot at it
    again = Service(store)
    reloaded = await again.current(CHAT)
    assert reloaded is not None
    assert reloaded.state == rules.fold(SEED, await again.events(CHAT))[0]
    assert reloaded.state.seat(2).name == "Борис"
