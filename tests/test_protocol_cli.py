"""The protocol from the command line (issue 14): ``mafia-referee protocol`` renders a stored game
of the console's database as the bots send it (the score sheet, our JSON with the points, the
MafiaRatings export), and ``mafia-referee replay FILE --png/--protocol`` a real record's."""

from __future__ import annotations

import io
import json
from decimal import Decimal
from pathlib import Path

import pytest

import rules
from bot.cli import main
from bot.i18n import catalog
from bot.protocol import from_json

ROOT = Path(__file__).resolve().parents[1]
DEMO = ROOT / "bot" / "demo" / "club_game.txt"
SHARED = ROOT.parent / "shared" / "games"
PNG = b"\x89PNG"


def console(monkeypatch: pytest.MonkeyPatch, db: Path, script: str) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(script))
    assert main(["console", "--db", str(db), "--strict", "--lang", "en"]) == 0


def test_a_console_game_is_rendered_into_the_files_asked(monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str],
                                                          tmp_path: Path) -> None:
    db = tmp_path / "referee.sqlite3"
    console(monkeypatch, db, DEMO.read_text("utf-8") + "\n/protocol\n")
    assert "mafia-referee protocol --game 1" in capsys.readouterr().out  # the console says how
    monkeypatch.setenv("MAFIA_REFEREE_CLUB_TZ", "Asia/Almaty")
    png, ours, mr = tmp_path / "sheet.png", tmp_path / "game.json", tmp_path / "mr.json"
    assert main(["protocol", "--db", str(db), "--png", str(png), "--json", str(ours),
                 "--lang", "en"]) == 0
    out = capsys.readouterr().out
    for path in (png, ours):
        assert catalog("en").text("protocol-cli-written", file=str(path)) in out
    assert "MafiaRatings" not in out  # not asked for: its absence is not reported
    assert png.read_bytes().startswith(PNG)
    data = json.loads(ours.read_text("utf-8"))
    config, names, events = from_json(data)
    state, _ = rules.fold(config, events, names)
    assert data["outcome"]["winner"] == "red" and state.result.winner is rules.Team.RED
    # the points are the engine's (F24 §8.2; the seed preset scores as FIIM 2024)
    points = rules.game_points(state)
    assert points is not None and data["points"]["rules"] == "fiim2024"
    assert {s: v["total"] for s, v in data["points"]["seats"].items()} == \
        {str(s): rules.points.show(p.total) for s, p in points.items()}
    # the demo's hands are counts: MafiaRatings records each voter, so that file cannot be made,
    # and the judge is told why (exit 1)
    assert main(["protocol", "--db", str(db), "--mafiaratings", str(mr), "--lang", "en"]) == 1
    assert not mr.exists()
    assert "/vote 3 1,2,3" in capsys.readouterr().out

    # one file only, by the game's number; the others are not written
    only = tmp_path / "only.png"
    assert main(["protocol", "--db", str(db), "--game", "1", "--png", str(only)]) == 0
    assert only.read_bytes().startswith(PNG) and not (tmp_path / "game-1.json").exists()
    out = capsys.readouterr().out
    assert "MafiaRatings" not in out and catalog("ru").text("protocol-cli-written", file=str(only)) in out


def test_without_a_file_named_all_are_written_here(monkeypatch: pytest.MonkeyPatch,
                                                    capsys: pytest.CaptureFixture[str],
                                                    tmp_path: Path) -> None:
    db = tmp_path / "referee.sqlite3"
    console(monkeypatch, db, DEMO.read_text("utf-8"))
    monkeypatch.chdir(tmp_path)
    assert main(["protocol", "--db", str(db)]) == 0
    assert (tmp_path / "game-1.png").read_bytes().startswith(PNG)
    assert json.loads((tmp_path / "game-1.json").read_text("utf-8"))["outcome"]["winner"] == "red"
    assert not (tmp_path / "game-1.mafiaratings.json").exists()  # counts only: said why
    assert "/vote 3 1,2,3" in capsys.readouterr().out


def test_what_cannot_be_rendered_is_said_and_nothing_is_made(monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str],
                                                             tmp_path: Path) -> None:
    db = tmp_path / "referee.sqlite3"
    missing = tmp_path / "none.sqlite3"
    assert main(["protocol", "--db", str(missing), "--lang", "en"]) == 2
    assert catalog("en").text("protocol-cli-no-db", db=str(missing)) in capsys.readouterr().err
    assert not missing.exists()  # asking never creates a database
    console(monkeypatch, db, "/new\n/roles D2 M5 M7 S8\n/start\n")  # a game not over
    capsys.readouterr()
    png = tmp_path / "sheet.png"
    assert main(["protocol", "--db", str(db), "--png", str(png), "--lang", "en"]) == 1
    assert not png.exists()
    assert main(["protocol", "--db", str(db), "--game", "7", "--lang", "en"]) == 2
    err = capsys.readouterr().err
    assert catalog("en").text("protocol-cli-no-game", game="7") in err


@pytest.mark.parametrize("record", ["polemica/334187.json", "mafiaratings/4875.json"])
def test_replay_renders_a_real_records_sheet_and_protocol(tmp_path: Path, record: str) -> None:
    """A real record's score sheet and our JSON protocol, with its points (F24/S24 §8)."""
    path = SHARED / record
    if not path.is_file():
        pytest.skip(f"the shared game records are not beside the project ({path.parent})")
    png, ours = tmp_path / "sheet.png", tmp_path / "protocol.json"
    out = io.StringIO()
    from bot.replay_cli import run_replay_cli

    assert run_replay_cli(path, True, out, "en", png=png, protocol=ours) == 0
    data = json.loads(out.getvalue())
    assert data["agrees"] and data["written"] == [str(png), str(ours)] and data["not_made"] == []
    assert png.read_bytes().startswith(PNG)
    protocol = json.loads(ours.read_text("utf-8"))
    assert protocol["outcome"]["winner"] == data["winner"]
    assert len(protocol["points"]["seats"]) == 10


def test_replay_of_a_record_that_does_not_reach_the_end_makes_no_sheet(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Our own protocol cut before the end: the replay says why there is no sheet (exit 1)."""
    from bot.replay_cli import run_replay_cli

    db = tmp_path / "referee.sqlite3"
    console(monkeypatch, db, DEMO.read_text("utf-8"))
    whole = tmp_path / "whole.json"
    assert main(["protocol", "--db", str(db), "--json", str(whole)]) == 0
    data = json.loads(whole.read_text("utf-8"))
    data["events"] = data["events"][:20]
    cut = tmp_path / "cut.json"
    cut.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    png = tmp_path / "sheet.png"
    out = io.StringIO()
    assert run_replay_cli(cut, False, out, "en", png=png) == 1
    assert not png.exists()
    assert catalog("en").text("protocol-error-not_finished") in out.getvalue()


def test_a_mafiaratings_records_judge_bonus_is_in_its_points() -> None:
    """MafiaRatings's numeric ``bonus`` is the judge's extra points (F24 §8.4), given after the
    result; its ``legacy`` is the best move (F24 §4.5.9); the site's titles are noted, not fed."""
    path = SHARED / "mafiaratings" / "4875.json"
    if not path.is_file():
        pytest.skip(f"the shared game records are not beside the project ({path.parent})")
    from rules import records

    record = json.loads(path.read_text("utf-8"))
    record["players"][1]["bonus"] = 0.4  # #2, a red winner: F24 §8.4.3 allows 0.4
    record["players"][5]["bonus"] = [0.2, 0.1]  # #6 too, in two parts
    record["players"][0]["bonus"] = "bestPlayer"  # the don: the site's own title
    imported = records.import_record(record)
    assert records.replay(record).agrees
    state, _ = rules.fold(imported.config, imported.events, imported.names)
    points = rules.game_points(state)
    assert points is not None
    plain = rules.game_points(rules.fold(*_without_extras(imported))[0])
    assert plain is not None
    assert points[2].extra == Decimal("0.4")
    assert points[6].extra == Decimal("0.3")
    for seat in (2, 6):  # the larger of best move and extra counts (F24 §8.4.6)
        assert points[seat].total >= plain[seat].total
    assert points[1].extra == 0 and any("bestPlayer" in note for note in imported.notes)


def _without_extras(imported):  # type: ignore[no-untyped-def]
    return (imported.config, [e for e in imported.events if not isinstance(e, rules.Extra)],
            imported.names)


@pytest.mark.parametrize("record", sorted(str(p.relative_to(SHARED))
                                          for p in SHARED.glob("*/*.json")) or ["none"])
def test_every_shared_records_sheet_shows_its_points(record: str) -> None:
    """F24/S24 §8: each seat's total, as the engine counts it, is on the record's score sheet."""
    path = SHARED / record
    if not path.is_file():
        pytest.skip(f"the shared game records are not beside the project ({SHARED})")
    from bot.protocol import read_game
    from bot.protocol.sheet import compose
    from rules import records

    imported = records.import_record(json.loads(path.read_text("utf-8")))
    state, _ = rules.fold(imported.config, imported.events, imported.names)
    if state.phase is not rules.Phase.GAME_OVER:
        pytest.skip(f"{record} stops before the end of the game: no sheet")
    points = rules.game_points(state)
    assert points is not None
    canvas, _ = compose(read_game(imported.config, imported.names, imported.events), catalog("ru"))
    texts = canvas.texts()
    assert "Баллы" in texts
    for seat, p in points.items():
        assert rules.points.show(p.total) in texts, (seat, p)
