"""The bench (``python -m bench``) runs in its tiny ``--quick`` mode and prints its table with
every row. Measurements, not tests: no figure or target is asserted here, only that each row is
there (the bench is not part of the suite's pass/fail on timings)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench import SHARED_GAMES
from bench.__main__ import main

STORAGE_ROWS = (
    "restart: load + refold 30 open games",
    "restart: re-arm only, fold on first touch (30)",
    "what-if: restart from state snapshots (30)",
    "memory per open game (tracemalloc)",
    "memory per open game (RSS, all 30)",
    "SQLite file growth per game",
    "commit of one action, p50",
    "commit of one action, p99",
    "killed writer: acknowledged actions lost",
)
LONGLOG_ROWS = (  # bench/longlog.py
    "cold first touch, 1,000 events",
    "undo of one step, 1,000 events",
)
CLUB_ROWS = (  # bench/club.py: --quick writes 100 players and 2,000 games
    "/top season, 100 players × 2,000 games",
    "/top (all games), 100 players × 2,000 games",
    "/stats player (all games), 100 players × 2,000 games",
    "/games, 100 players × 2,000 games",
    "strength rating recompute, 100 players × 2,000 games",
)
HTTP_ROWS = (  # bench/http.py
    "CPU per sendMessage, aiohttp client (the default), pool 8",
    "CPU per sendMessage, httpx (PTB's HTTPXRequest), pool 8",
    "CPU per sendMessage, sniffio missing",
    "CPU per sendMessage, PTB's default pool (256)",
)
E2E_ROWS = (  # bench/e2e.py: --quick runs 50 games; the restart stores --games games
    "sustained rate, 50 open games",
    "CPU of the bot process per update, under load",
    "CPU per update at equal offered rates, referee ÷ echo",  # issue 34
    "floor of a judge's action: CPU per update under load",
    "CPU per update at equal offered rates, referee ÷ floor",
    "latency at 100/s, p50",
    "latency at 100/s, p99",
    "longest GC pause under load",
    "latency at 100/s, p99, 100 live games",  # --quick: 100 live games
    "longest GC pause, 100 live games",
    "a finished game in the database, pruned",
    "restart: load + re-arm 30 open games",
    "restart: first update to a game, p50",
    "restart: first update to a game, max",
)


def test_quick_bench_prints_every_row(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report = tmp_path / "bench.json"
    status = main(["--quick", "--games", "30", "--sample", "8", "--commits", "20",
                   "--db-dir", str(tmp_path), "--json", str(report)])
    out = capsys.readouterr().out
    assert status == 0
    header = out.splitlines()
    assert any(line.startswith("  cpu") for line in header)
    assert "synchronous=" in out  # the durability setting is stated
    for metric in STORAGE_ROWS + LONGLOG_ROWS + CLUB_ROWS + HTTP_ROWS + E2E_ROWS:
        assert metric in out, metric
    if SHARED_GAMES.is_dir():
        assert "engine: fold of the real games" in out
    else:
        assert "engine rows skipped" in out
    figures = json.loads(report.read_text(encoding="utf-8"))
    rows = [row["metric"] for section in figures["sections"] for row in section["rows"]]
    assert set(STORAGE_ROWS) <= set(rows)
    assert set(E2E_ROWS) | set(LONGLOG_ROWS) | set(HTTP_ROWS) <= set(rows)
    assert list(tmp_path.glob("mafia-bench-*")) == []  # the databases were removed


def test_the_scale_section_runs_on_postgresql(pg_server: str, monkeypatch: pytest.MonkeyPatch,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    """``--only scale`` (issue 18, opt-in): SQLite beside 1, 2 and 4 PostgreSQL workers."""
    monkeypatch.setenv("MAFIA_REFEREE_BENCH_POSTGRESQL", pg_server)
    assert main(["--quick", "--only", "scale", "--scale-seconds", "0.3"]) == 0
    out = capsys.readouterr().out
    for workers in (1, 2, 4):
        assert f"PostgreSQL, {workers} worker(s), 100 games" in out
    assert "SQLite, 1 process, 100 games" in out


WORKERS_ROWS = (  # bench/workers.py: --quick runs 20 games
    "sustained rate, SQLite, 1 process, 20 games",
    "latency at 20/s, p99, SQLite, 1 process, 20 games",
    "sustained rate, PostgreSQL, 2 worker(s), 20 games",
    "latency at 20/s, p99, PostgreSQL, 2 worker(s), 20 games",
    "workers' CPU per update, PostgreSQL, 2 worker(s), 20 games",
)


def test_quick_workers_bench_prints_its_rows(pg_server: str, capsys: pytest.CaptureFixture[str],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """Shared Telegram workers end to end (bench/workers.py), one SQLite process and two workers
    on PostgreSQL, a short run: every row there, no update lost (no figure asserted)."""
    pytest.importorskip("tornado", reason="webhook mode needs python-telegram-bot[webhooks] (tornado)")
    monkeypatch.setenv("MAFIA_REFEREE_BENCH_POSTGRESQL", pg_server)
    status = main(["--quick", "--only", "workers", "--workers-configs", "sqlite:1,postgresql:2"])
    out = capsys.readouterr().out
    assert status == 0
    for row in WORKERS_ROWS:
        assert row in out, row
    assert "errors logged 0; webhook POSTs refused 0" in out


WEB_ROWS = (  # bench/web.py: --quick runs 20 spectators of one table, 4 tables × 5
    "commit to every page, p50, 1 table(s) × 20 spectators",
    "commit to every page, p99, 1 table(s) × 20 spectators",
    "bot's CPU per commit, 1 table(s) × 20 spectators",
    "commit to every page, p99, 4 table(s) × 5 spectators",
    "bot's CPU per commit, 4 table(s) × 5 spectators",
)


def test_quick_web_bench_prints_its_rows(capsys: pytest.CaptureFixture[str]) -> None:
    """The live pages' streams (bench/web.py, opt-in): spectators in a child process over SSE on
    127.0.0.1, every row there (no figure asserted)."""
    assert main(["--quick", "--only", "web"]) == 0
    out = capsys.readouterr().out
    for row in WEB_ROWS:
        assert row in out, row
