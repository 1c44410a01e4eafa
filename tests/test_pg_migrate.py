"""``mafia-referee migrate --to postgresql://…`` (issue 18): a SQLite database — games, logs,
outbox, timers, snapshots, host tables — copied into PostgreSQL row for row and checked; the
PostgreSQL store then serves the same games and continues their ids."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

import pytest

import rules
from bot.cli import main
from bot.demo import run_demo
from bot.i18n import catalog
from storage import OutboxItem, Snapshot, Store
from storage.copy import CopyError, copy_to_postgresql
from support.stores import rows as raw_rows

CONFIG = rules.config_to_dict(rules.PRESETS["fiim2024"])


async def _source(db: Path) -> dict[str, int]:
    """A SQLite database with a finished demo game and an open game with everything beside it."""
    await run_demo(db, lang="en", out=io.StringIO())
    async with await Store.open(db) as store:
        game = await store.create_game("tg:-5", "tg:42", CONFIG, {1: "Вера", 2: "Маша"},
                                       announce="tg:-6")
        await store.append_many(game, 1, [rules.to_dict(rules.StartGame())], "tg:42",
                                outbox=[OutboxItem("tg:-5", {"text": "Ночь"}, slot="panel"),
                                        OutboxItem("tg:-6", {"text": "Начало"})],
                                timer=lambda ids: {"deadline": 1.5, "outbox": ids[0]},
                                snapshot=Snapshot(1, 1, "v1", {"phase": "night_zero"}))
        pending = await store.pending()
        await store.mark_sent(pending[0].id, 777)
        await store.set_alias("tg:-6", "tg:-5")
        await store.set_lang("tg:-5", "ru")
        table = await store.create_host_table("tg:-7", "tg:9", {"preset": "seed"})
        await store.update_host_table(table, seats={1: "tg:1"}, status="running")
        await store.log_host_step(table, 1, "night0", "speech", 60, 10.25)
        await store.set_host_channel("tg:-7", "tg:-100", "Клуб")
        return {"game": game, "table": table}


async def _tables(store: object) -> dict[str, list[tuple[object, ...]]]:
    names = ("chats", "games", "events", "outbox", "snapshots", "host_tables", "host_steps",
             "host_channels")
    keys = {"chats": "chat", "events": "game_id, seq", "snapshots": "game_id",
            "host_steps": "table_id, no", "host_channels": "chat"}
    return {name: await raw_rows(store, f"SELECT * FROM {name} ORDER BY {keys.get(name, 'id')}")
            for name in names}


async def test_a_copy_holds_every_row_and_the_store_goes_on_from_it(db_path: Path, pg_url: str) -> None:
    made = await _source(db_path)
    copied = await copy_to_postgresql(db_path, pg_url)
    assert {t.table: t.rows for t in copied}["events"] > 10
    async with await Store.open(db_path) as lite, await Store.open(pg_url) as pg:
        before, after = await _tables(lite), await _tables(pg)
        assert after == before  # row for row, ids and floats included
        game = made["game"]
        assert await pg.events(game) == await lite.events(game)
        assert await pg.timer(game) == await lite.timer(game)
        assert await pg.message(game, "tg:-5", "panel") == 777
        assert [r.id for r in await pg.pending()] == [r.id for r in await lite.pending()]
        assert await pg.alias("tg:-6") == "tg:-5" and await pg.lang("tg:-5") == "ru"
        assert (await pg.host_steps(made["table"]))[0].opened_at == 10.25
        assert await pg.host_channel("tg:-7") == ("tg:-100", "Клуб")
        # the identities continue after the copied ids
        new_game = await pg.create_game("tg:-9", "tg:42", CONFIG, {})
        assert new_game == max(r[0] for r in before["games"]) + 1
        [row_id] = await pg.enqueue([OutboxItem("tg:-9", {"text": "x"})])
        assert row_id == max(r[0] for r in before["outbox"]) + 1
        assert await pg.create_host_table("tg:-9", "tg:1", {}) == made["table"] + 1


async def test_a_target_holding_rows_is_refused_and_left_alone(db_path: Path, pg_url: str) -> None:
    await _source(db_path)
    async with await Store.open(pg_url) as pg:
        await pg.set_lang("tg:1", "en")
    with pytest.raises(CopyError) as refused:
        await copy_to_postgresql(db_path, pg_url)
    assert refused.value.code == "not_empty"
    async with await Store.open(pg_url) as pg:
        assert await raw_rows(pg, "SELECT COUNT(*) FROM games") == [(0,)]


async def test_the_check_finds_a_row_that_differs(db_path: Path, pg_url: str,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The check compares what it reads back with the source, not with what was written: a row
    changed on the way (here one event's actor) is found, and named."""
    from storage import copy

    await _source(db_path)
    write = copy._records

    def changed(casts, batch):  # type: ignore[no-untyped-def]
        out = write(casts, batch)
        if len(out[0]) == 5 and isinstance(out[0][2], str) and out[0][2].startswith("{"):  # events
            out[-1] = (*out[-1][:3], "tg:666", out[-1][4])
        return out

    monkeypatch.setattr(copy, "_records", changed)
    with pytest.raises(CopyError) as differs:
        await copy_to_postgresql(db_path, pg_url)
    assert differs.value.code == "differs" and differs.value.table == "events"
    assert "tg:666" in str(differs.value)


def test_the_command_copies_and_says_so(db_path: Path, pg_url: str,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    asyncio.run(_source(db_path))
    assert main(["migrate", "--to", pg_url, "--db", str(db_path), "--lang", "en"]) == 0
    out = capsys.readouterr().out.splitlines()
    en = catalog("en")
    assert any(line.startswith("events: ") for line in out)
    assert out[-1].split(":")[0] == en.text("migrate-done", count=0).split(":")[0]
    # a second run finds the target full: refused, exit 2, one line
    assert main(["migrate", "--to", pg_url, "--db", str(db_path), "--lang", "en"]) == 2
    err = capsys.readouterr().err.strip()
    assert err == en.text("migrate-not-empty", table="chats", problem="")


def test_the_command_refuses_a_target_that_is_not_postgresql(db_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    asyncio.run(_source(db_path))
    assert main(["migrate", "--to", str(db_path) + ".copy", "--db", str(db_path), "--lang", "en"]) == 2
    assert capsys.readouterr().err.startswith("Not migrated:")
