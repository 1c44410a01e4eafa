"""The protocol of a finished game (bot/protocol): the MafiaRatings export replays through our
own importer to the game's own departures, winner and cancelled votes; our own JSON reads back
to the same game; the score sheet is a PNG of a sensible size that differs from game to game;
an unfinished game, unknown roles or hands entered as bare counts give a clear ExportError.

The games are played as the judge types them (bot.commands.parse → rules.apply), Undo included.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from PIL import Image  # Pillow: the sheet's drawing library

import rules
from bot import commands
from bot.i18n import LANGS, catalog
from bot.protocol.export import penalties as export_penalties
from bot.protocol import (
    ERROR_CODES, ExportError, error_text, from_json, read_game, render_sheet, rules_code, to_json,
    to_mafiaratings,
)
from rules import records

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"
DEMO = ROOT / "bot" / "demo" / "club_game.txt"

Game = tuple[rules.RulesConfig, dict[int, str], list[rules.Event]]


def play(script: str) -> Game:
    """Play a command script (one command a line, ``#`` comments) as the console does: each line
    parsed against the state so far, every event logged, ``/undo`` logged as Undo events."""
    config = rules.PRESETS[rules.DEFAULT_PRESET]
    state = rules.new_game(config)
    events: list[rules.Event] = []
    for number, raw in enumerate(script.splitlines(), 1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        command = commands.parse(line, state)
        if isinstance(command, commands.NewGame):
            config, events = command.config(), []
            state = rules.new_game(config)
        elif isinstance(command, commands.Act):
            try:
                state, _ = rules.apply(state, command.event)
            except rules.RuleError as error:
                raise AssertionError(f"script line {number} {line!r}: {error} "
                                     f"(expected: {rules.next_action(state)})") from None
            events.append(command.event)
        elif isinstance(command, commands.UndoCmd):
            events.extend(rules.Undo() for _ in range(command.steps))
            state, _ = rules.fold(config, events)
        else:  # pragma: no cover - the scripts hold game commands only
            raise AssertionError(line)
    return config, {}, events


def final(game: Game) -> rules.GameState:
    config, names, events = game
    return rules.fold(config, events, names)[0]


NAMES = "\n".join(f"/name {n} {name}" for n, name in enumerate(
    ("Анна", "Борис", "Вера", "Глеб", "Дина", "Егор", "Жанна", "Захар", "Ирина", "Кирилл"), 1))
SPEECHES = "\n".join(["/next"] * 10)

# --- the games --------------------------------------------------------------------------------------

# A red win (F24 §1.4): a tie and a revote with the same tie, a passed raise vote (F24 §4.4.12.3),
# a judge-entered kill, the best move, shots by the last black; the voters of every hand recorded.
RED_WIN = f"""
/new seed
{NAMES}
/roles D3 M6 M9 S1
/start
/next
# day 1: #1 nominates #6, #2 nominates #4
/nominate 6
/next
/nominate 4
/next
/next
/next
/next
/next
/next
/next
/next
/next
/vote 6 1,2,4,5,7,8
# #4 gets the 4 hands left (F24 §4.4.8): #6 leaves; his last word
/next
# night 1: the Sheriff is killed; checks; the best move (F24 §4.5.9)
/kill 1
/don 1
/sheriff 3
/bestmove 3 9
# day 2: #1's last word, then speeches from #2
/next
/nominate 3
/next
/nominate 2
/next
/next
/next
/next
/next
/next
/next
/vote 3 2,4,5,7
/next
/next
/vote 3 2,4,5,7
/raise 2,4,5,7,8
/next
/next
# night 2: the last black shoots #4; no Don, no Sheriff left: the judge moves on
/shots 9:4
/next
/next
# day 3: #4's last word, speeches from #5
/next
/nominate 9
/next
/next
/next
/nominate 5
/next
/next
/vote 9 5,7,8,10
/next
"""

# A black win by parity (F24 §1.4) under FIIM 2024: the Sheriff voted out on day 1, kills each night.
BLACK_WIN = f"""
/new fiim2024
{NAMES}
/roles D2 M5 M7 S8
/start
/next
/nominate 8
/next
/nominate 1
/next
/next
/next
/next
/next
/next
/next
/next
/next
/vote 8 1,2,3,4,5,7
/next
/shots 2:10 5:10 7:10
/don 8
/next
/bestmove 2 5 7
# day 2: #10's last word, speeches from #2
/next
/nominate 3
/next
/next
/next
/nominate 4
/next
/next
/next
/next
/next
/vote 3 1,2,5,7,9
/next
# night 2: 3 blacks against 3 reds after the kill
/kill 1
/next
/next
/next
"""

# A failed raise vote, an oral warning, a foul taken back, a third-foul silence (seed 4.4), a 4th
# foul during the vote after the first hands: the vote is cancelled (seed 4.5, 5.1); a miss with
# shots; undone events; the game ends by a team loss (seed 4.3).
CANCELLED = f"""
/new seed
{NAMES}
/roles D2 M5 M7 S8
/start
/next
/nominate 5
/foul 6
/next
/nominate 1
/next
/warn 3
/next
/foul 4
/unfoul 4
/next
/foul 6
/next
/foul 6
/next
/next
/next
/next
/next
/vote 5 1,3,4,6,8
/next
/next
/vote 5 1,3,4,6,8
/raise 1,2,3
# night 1: #7 does not shoot: a miss (F24 §4.5.5); a kill entered by mistake and undone first
/kill 9
/undo
/shots 2:8 5:8 7:-
/don 8
/sheriff 2
# day 2: speeches from #2; #6 is silent (his third foul) but nominates
/nominate 3
/next
/nominate 2
/next
/nominate 9
/next
/next
/next
/nominate 10
/undo
/next
/next
/next
/next
/next
/vote 3 1,4,5,6
# the vote on #2 begins: #6's 4th foul removes him and cancels the vote (seed 4.5, 5.1)
/foul 6 4.1.7
# night 2
/kill 4
/don 1
/sheriff 5
# day 3: #4's last word; #7 (mafia) in his speech: a team loss (seed 4.3)
/next
/next
/next
/ppk 7
"""

# A draw under FIIM 2024 (F24 §7.7): three shooting nights in a row with nobody leaving.
DRAW_FIIM = f"""
/new fiim2024
/roles D2 M5 M7 S8
/start
/next
{SPEECHES}
/miss
/next
/next
{SPEECHES}
/miss
/next
/next
{SPEECHES}
/shots 2:1 5:1 7:-
/next
/next
"""

# The seed's draw (seed 5.8): three quiet nights and three quiet days.
DRAW_SEED = DRAW_FIIM.replace("/new fiim2024", "/new seed") + f"""
{SPEECHES}
"""

# Seed 5.8 and F24 §7.7 part ways: after three quiet nights the seed game goes on (no draw yet)
# and ends on day 4 by a team loss; under FIIM 2024 it would have been a draw after night 3.
SEED_ONLY = DRAW_FIIM.replace("/new fiim2024", "/new seed") + """
/next
/ppk 2
"""

GAMES = {"red_win": RED_WIN, "black_win": BLACK_WIN, "cancelled": CANCELLED, "draw": DRAW_FIIM,
         "seed_draw": DRAW_SEED}


@pytest.fixture(scope="module")
def games() -> dict[str, Game]:
    return {name: play(script) for name, script in GAMES.items()}


def test_the_games_are_what_they_claim(games: dict[str, Game]) -> None:
    """The scripts play the situations the export must carry (asserted from the rules' own
    state and notices, not from the export)."""
    red = final(games["red_win"])
    assert red.result is not None and red.result.winner is rules.Team.RED
    assert red.result.why == "all_black_out"  # F24 §1.4
    causes = {seat: d.cause for seat, d in red.departures()}
    assert causes[2] is causes[3] is rules.Cause.RAISE  # F24 §4.4.12.3
    assert red.nights[0].best_move == (3, 9)

    black = final(games["black_win"])
    assert black.result is not None and black.result.winner is rules.Team.BLACK
    assert black.result.why == "parity"

    config, names, events = games["cancelled"]
    state, notices = rules.fold(config, events, names)
    kinds = [n.kind for n in notices]
    assert rules.Kind.VOTE_CANCELLED in kinds and state.vote_bans[2] == ("5.1", 6)  # seed 5.1
    assert state.seat(6).departure.cause is rules.Cause.FOULS  # seed 4.5
    assert any(n.kind is rules.Kind.RAISE_RESULT and not n["passed"] for n in notices)
    assert state.result is not None and state.result.why == "team_loss"  # seed 4.3
    assert any(isinstance(e, rules.Undo) for e in events)

    for name in ("draw", "seed_draw"):
        state = final(games[name])
        assert state.result is not None and state.result.winner is None and not state.departures()


# --- the MafiaRatings export -----------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(GAMES))
def test_the_export_replays_to_the_same_game(games: dict[str, Game], name: str) -> None:
    """Replaying an exported JSON through our importer gives the same departures and winner
    (and cancelled votes), with no fact of the record refused."""
    config, names, events = games[name]
    exported = json.loads(json.dumps(to_mafiaratings(config, names, events, verify=False)))
    report = records.replay(exported)
    assert report.differences == []
    assert report.agrees
    assert report.report == read_game(config, names, events).outcome()
    assert report.report == report.recorded


def test_the_export_follows_the_mafiaratings_layout(games: dict[str, Game]) -> None:
    """Round r = night r + day r+1; players[i] is seat i+1; deaths, votes with tie rounds and
    kill-all answers, fouls with their game times, shots, checks, legacy."""
    record = to_mafiaratings(*games["red_win"])
    players = record["players"]
    assert record["winner"] == "civ" and len(players) == 10
    assert record["rules"] == "0002000010000"  # seed: no withdrawal (7.5.3), 3 of 9 not raised (F24 §7.11)
    assert set("dutvn") <= set(record["features"]) and "k" in record["features"]
    assert [p["role"] for p in players].count("civ") == 6
    assert players[2]["role"] == "don" and players[0]["role"] == "sheriff"
    assert players[0]["name"] == "Анна"
    assert players[5]["death"] == {"round": 0, "type": "day"}  # voted out on day 1
    assert players[0]["death"] == {"round": 1, "type": "night"}  # killed in night 1
    assert players[1]["death"] == players[2]["death"] == {"round": 1, "type": "day"}  # day 2 raise
    assert players[0]["nominating"] == [6]
    assert players[2]["nominating"] == [None, 2]
    # day 2: #2 voted against #3 twice and for raising both (F24 §4.4.12.3)
    assert players[1]["voting"][1] == [3, 3, True]
    assert players[2]["voting"][1] == [2, 2, False]
    assert players[0]["don"] == 1 and players[2]["sheriff"] == 1
    assert players[0]["legacy"] == [3, 9]
    assert players[8]["shooting"] == [1, 4]  # the judge's kill, then his own shot
    assert "warnings" not in players[3]

    cancelled = to_mafiaratings(*games["cancelled"])["players"]
    assert cancelled[5]["death"]["type"] == "warnings"
    assert len(cancelled[5]["warnings"]) == 4
    assert cancelled[5]["warnings"][0] == {"round": 0, "time": "speaking", "speaker": 1}
    assert cancelled[5]["warnings"][3]["time"] == "voting start"  # the cancelled vote keeps no hands
    assert "warnings" not in cancelled[3]  # the foul taken back; #3's oral warning is no foul
    assert cancelled[6]["death"]["type"] == "teamKickOut"
    assert all(len(p.get("voting") or []) <= 1 for p in cancelled)  # day 2's vote did not count
    assert cancelled[6]["shooting"] == [None, 4]  # #7 did not shoot in night 1
    assert cancelled[1]["nominating"] == [1, 3]
    assert "nominating" not in cancelled[6]  # #7's nomination was undone


def test_the_rules_code_of_each_preset() -> None:
    """F24 has no nomination withdrawal: MafiaRatings 7.5.3 (digit 3 = 2)."""
    assert rules_code(rules.PRESETS["fiim2024"]) == ("0002000010000", [])
    # S24 raises 3 of 9; its committee's reading of a single candidate put up by the last
    # speaker (the result decided, issue 35: RULES.md R6.11) no MafiaRatings digit expresses
    assert rules_code(rules.PRESETS["fsm2024"]) == (
        "0002000000000", ["single_nominee_decided=True (MafiaRatings: False)"])
    code, unexpressed = rules_code(rules.PRESETS["seed"])
    assert code == "0002000010000"
    assert any(u.startswith("draw_declared=after_third_day") for u in unexpressed)  # seed 5.8
    variant = rules.PRESETS["fiim2024"].with_options(
        first_day_vote="raise_only", revote_order="reverse", raise_2_of_4=False, best_move=False,
        last_word_on_decisive_event=False, third_foul="none")
    assert rules_code(variant) == ("0002110111120", [])
    # MafiaRatings reads back exactly what we wrote
    from rules.records.mafiaratings import read_config
    assert read_config({"rules": "0002110111120"}) == variant


@pytest.mark.parametrize("code", ["1001201021011", "0000300000010", "1012011100121",
                                  "0001100020000", "0002000010000"])
def test_every_club_option_has_its_code_back(code: str) -> None:
    """Each MafiaRatings option value read into our options is written back as the same digit
    (the scoring digits 1 and 2 are always 0)."""
    from rules.records.mafiaratings import read_config
    assert rules_code(read_config({"rules": code})) == (code[0] + "00" + code[3:], [])


def test_options_mafiaratings_has_no_code_for() -> None:
    """Our first-day 'no vote' and 'normal', and raising 3 of 9 from day 2, have no digit."""
    for options in ({"first_day_vote": "no_vote"}, {"first_day_vote": "normal"},
                    {"raise_3_of_9": True, "raise_3_of_9_from_day": 2}):
        _, unexpressed = rules_code(rules.PRESETS["fiim2024"].with_options(**options))
        assert unexpressed and unexpressed[0].startswith(next(iter(options))), unexpressed


def test_an_option_without_a_code_that_mattered_is_refused() -> None:
    """Seed 5.8 (a draw after three quiet days) against F24 §7.7 (after three quiet nights): the
    seed game goes on after night 3; MafiaRatings' rules would have ended it in a draw."""
    game = play(SEED_ONLY)
    assert final(game).result.why == "team_loss"
    with pytest.raises(ExportError) as caught:
        to_mafiaratings(*game)
    assert caught.value.code == "options"
    assert "draw_declared" in caught.value.params["options"]


def test_an_option_without_a_code_is_refused_when_strict(games: dict[str, Game]) -> None:
    with pytest.raises(ExportError) as caught:
        to_mafiaratings(*games["red_win"], strict=True)
    assert caught.value.code == "options"
    to_mafiaratings(*games["black_win"], strict=True)  # FIIM 2024 has a code for everything


def test_hands_entered_as_counts_cannot_be_exported() -> None:
    """The shipped demo enters the hands as counts (/vote 3 4): MafiaRatings needs each vote."""
    config, names, events = play(DEMO.read_text("utf-8"))
    with pytest.raises(ExportError) as caught:
        to_mafiaratings(config, names, events)
    error = caught.value
    assert (error.code, error.params) == ("votes_by_count", {"day": 1, "round": 0, "seat": 3})
    assert "/vote 3 1,2,3" in error_text(error, catalog("ru"))
    assert "№3" in error_text(error, catalog("ru")) and "#3" in error_text(error, catalog("en"))
    to_json(config, names, events)  # our own protocol holds counts
    render_sheet(config, names, events, "ru")  # and so does the sheet


def test_an_unfinished_game_is_refused() -> None:
    game = play(RED_WIN.split("# night 1")[0])
    assert final(game).phase is not rules.Phase.GAME_OVER
    for make in (to_mafiaratings, to_json, lambda c, n, e: render_sheet(c, n, e, "en")):
        with pytest.raises(ExportError) as caught:
            make(*game)
        assert caught.value.code == "not_finished"


UNKNOWN_ROLES = """
/new seed
/roles unknown
/start
/next
/nominate 4
/next
/next
/next
/next
/next
/next
/next
/next
/next
/next
/kill 7
/next
/next
/result black
"""


def test_unknown_roles_are_refused_but_drawn() -> None:
    game = play(UNKNOWN_ROLES)
    assert final(game).result.why == "declared"
    with pytest.raises(ExportError) as caught:
        to_mafiaratings(*game)
    assert caught.value.code == "roles_unknown"
    png = render_sheet(*game, "en")
    assert Image.open(io.BytesIO(png)).size[0] == 1200
    assert to_json(*game)["roles"]["1"] is None


# Day 1: #8 (the Sheriff) is voted out; in his last word the judge penalises him; the Don's team
# then loses by a team loss at night (seed 4.3), which ends the game at once.
LAST_WORD = """
/new fiim2024
/roles D2 M5 M7 S8
/start
/next
/nominate 8
{fouls}
/next
/nominate 1
/next
/next
/next
/next
/next
/next
/next
/next
/next
/vote 8 1,2,3,4,5,7
{last_word}
/next
/ppk 2
"""


def test_a_4th_foul_in_the_last_word_is_exported() -> None:
    """Seed 4.5: a 4th foul in one's own last word ends it; he already left by the vote, so the
    record keeps one death (day) and four fouls, the last one in his last word."""
    # the 4th foul ends his last word at once (seed 4.5): the night's shooting is next, a miss
    game = play(LAST_WORD.format(fouls="/foul 8\n/foul 8\n/foul 8", last_word="/foul 8")
                .replace("\n/next\n/ppk", "\n/miss\n/ppk"))
    state = final(game)
    assert state.seat(8).departure.cause is rules.Cause.VOTE and len(state.seat(8).fouls) == 4
    sheriff = to_mafiaratings(*game)["players"][7]
    assert sheriff["death"] == {"round": 0, "type": "day"}
    assert sheriff["warnings"][3] == {"round": 0, "time": "day kill speaking", "speaker": 8}


def test_a_disqualification_after_leaving_is_refused() -> None:
    """MafiaRatings keeps one death a player: a voted-out player disqualified in his last word
    cannot be written."""
    game = play(LAST_WORD.format(fouls="", last_word="/dq 8 4.2.1").replace("\n/next\n/ppk", "\n/ppk"))
    assert final(game).seat(8).disqualified
    with pytest.raises(ExportError) as caught:
        to_mafiaratings(*game)
    assert caught.value.code == "two_deaths" and caught.value.params["seat"] == 8
    for lang in LANGS:
        text = error_text(caught.value, catalog(lang))
        assert catalog(lang).text("reason-4_2_1") in text and "{" not in text


TWICE_CHECKED = f"""
/new fiim2024
/roles D2 M5 M7 S8
/start
/next
{SPEECHES}
/miss
/next
/sheriff 2
{SPEECHES}
/miss
/next
/sheriff 2
/ppk 5
"""


def test_a_seat_checked_twice_is_refused() -> None:
    game = play(TWICE_CHECKED)
    assert final(game).result.why == "team_loss"
    with pytest.raises(ExportError) as caught:
        to_mafiaratings(*game)
    assert (caught.value.code, caught.value.params) == ("two_checks", {"who": "sheriff", "seat": 2})


def test_every_export_error_has_words() -> None:
    for lang in LANGS:
        cat = catalog(lang)
        for code in ERROR_CODES:
            assert cat.has(f"protocol-error-{code}"), (lang, code)
        error = ExportError("two_deaths", "x", seat=4, what="4.2.7")
        assert cat.text("reason-4_2_7") in error_text(error, cat)


# --- real games: import, export, replay ----------------------------------------------------------

def _real_records() -> list[Path]:
    folder = SHARED / "games"
    if not folder.is_dir():
        pytest.skip(f"the shared game records are not beside the project ({folder})")
    return sorted(folder.glob("*/*.json"))


def test_real_games_survive_an_export_round_trip() -> None:
    """Every complete real record (shared/games): imported, exported by us to the MafiaRatings
    layout and replayed, it gives the record's own departures and winner."""
    done = 0
    for path in _real_records():
        record = json.loads(path.read_text("utf-8"))
        original = records.replay(record)
        if not original.complete or record.get("stage", {}).get("type") not in (None, "gameOver"):
            continue
        imported = records.import_record(record)
        exported = to_mafiaratings(imported.config, imported.names, imported.events)
        again = records.replay(exported)
        assert again.agrees, (path.name, again.differences)
        assert again.report == original.report, path.name
        if records.detect(record) == "mafiaratings":
            assert exported["rules"] == record["rules"], path.name
        done += 1
    assert done >= 8


# --- our own JSON ------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", sorted(GAMES))
def test_our_json_reads_back_to_the_same_game(games: dict[str, Game], name: str) -> None:
    config, names, events = games[name]
    data = json.loads(json.dumps(to_json(config, names, events, game_id=7, ended_at=1_700_000_000)))
    assert data["format"] == "mafia-referee/protocol" and data["id"] == 7
    assert data["outcome"] == read_game(config, names, events).outcome()
    assert set(data["outcome"]) == {"winner", "departures", "cancelled_votes"}
    assert len(data["events"]) == len(events)  # the whole log, Undo events included
    config2, names2, events2 = from_json(data)
    assert config2 == config and events2 == events
    assert read_game(config2, names2, events2).outcome() == data["outcome"]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_replay_reads_what_we_export(games: dict[str, Game], name: str, tmp_path: Path) -> None:
    """``mafia-referee replay`` takes our own protocol and our MafiaRatings-layout export: each
    replays to the game's own outcome (exit 0). The seed games' MafiaRatings export is refused
    when the seed's draw rule (5.8) has no code there, so only our JSON is replayed for them."""
    from bot.replay_cli import run_replay_cli
    config, names, events = games[name]
    ours = read_game(config, names, events).outcome()
    exports = {"protocol.json": to_json(config, names, events, game_id=3)}
    try:
        exports["mafiaratings.json"] = to_mafiaratings(config, names, events)
    except ExportError as error:
        assert error.code == "options" and config.preset == "seed", error
    for file, data in exports.items():
        path = tmp_path / file
        path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
        out = io.StringIO()
        assert run_replay_cli(path, True, out) == 0, out.getvalue()
        report = json.loads(out.getvalue())
        assert {k: report[k] for k in ("winner", "departures", "cancelled_votes")} == ours
        assert report["agrees"] is True and report["record"] == ours


def test_a_protocol_the_engine_no_longer_replays_is_a_difference(games: dict[str, Game]) -> None:
    """A logged event today's rules refuse, or an outcome the log no longer reaches, is a
    difference of the replay (exit 1), never a crash; an unreadable field is named."""
    config, names, events = games["red_win"]
    data = json.loads(json.dumps(to_json(config, names, events)))
    data["outcome"]["winner"] = "black"
    assert not records.replay(data).agrees
    data = json.loads(json.dumps(to_json(config, names, events)))
    data["events"].insert(5, {"type": "vote", "nominee": 3, "count": 1, "voters": []})
    report = records.replay(data)
    assert not report.agrees and any("refuses the logged event vote" in d for d in report.differences)
    data["events"][5] = {"type": "teleport"}
    with pytest.raises(records.RecordError) as error:
        records.replay(data)
    assert error.value.field == "events[5]"
    data = json.loads(json.dumps(to_json(config, names, events)))
    data["config"]["rotation"] = "sideways"
    with pytest.raises(records.RecordError) as error:
        records.replay(data)
    assert error.value.field == "config"


# --- the score sheet ---------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def sheets(games: dict[str, Game]) -> dict[tuple[str, str], bytes]:
    out = {}
    for name in ("red_win", "black_win", "cancelled"):
        for lang in LANGS:
            out[(name, lang)] = render_sheet(*games[name], lang, game_id=12, played_at=1_741_780_000)
    return out


def test_the_sheet_is_a_png_of_sensible_size(sheets: dict[tuple[str, str], bytes]) -> None:
    for key, png in sheets.items():
        image = Image.open(io.BytesIO(png))
        assert image.format == "PNG", key
        width, height = image.size
        assert width == 1200, key  # readable on a phone
        assert 900 <= height <= 3000, (key, height)
        image.verify()


def test_the_sheet_differs_between_games_and_languages(sheets: dict[tuple[str, str], bytes]) -> None:
    assert len(set(sheets.values())) == len(sheets)
    for name in ("red_win", "black_win", "cancelled"):
        a, b = (Image.open(io.BytesIO(sheets[(name, lang)])).convert("L") for lang in LANGS)
        assert a.size[0] == b.size[0]


def test_the_sheet_is_the_same_for_the_same_game(games: dict[str, Game],
                                               sheets: dict[tuple[str, str], bytes]) -> None:
    again = render_sheet(*games["red_win"], "ru", game_id=12, played_at=1_741_780_000)
    assert again == sheets[("red_win", "ru")]
    with pytest.raises(ValueError):
        render_sheet(*games["draw"], "de")


def test_a_nominee_removed_during_the_vote_leaves_the_recorded_ballot() -> None:
    """Seed 5.2: #8, nominated, gets his 4th foul after the vote's result is known: he is off
    the ballot, the unraised hands go to #7, the last nominee still at the table (F24 §4.4.8).
    The protocol records the round as it was played — #6 and #7 with their hands, #8 not a
    candidate — and the export names every hand's voter. MafiaRatings' own check cannot take
    it: #8 was at the table when the vote began and cast no vote in it (``Game::check`` notes a
    player alive at a vote who did not vote), so the checked export is refused."""
    game = play("\n".join([
        "/new", "/roles D2 M5 M7 S8", "/start", "/next", SPEECHES,  # day 1: no nomination
        "/kill 1", "/don 3", "/sheriff 4", "/bestmove 2 5 7", "/next",  # night 1; #1's last word
        "/nominate 2 6", "/next", "/nominate 3 7", "/next", "/nominate 4 8", *(["/next"] * 7),
        "/vote 6 2 3 4 5 9",  # 5 of 9: the result is known (SC)
        "/foul 8", "/foul 8", "/foul 8", "/foul 8",
        "/ppk 2 4.3.1",  # the game ends (seed 4.3): a protocol is made of a finished game
    ]))
    state = final(game)
    assert state.seat(8).departure.cause is rules.Cause.FOULS  # type: ignore[union-attr]
    assert state.seat(6).departure.cause is rules.Cause.VOTE  # type: ignore[union-attr]
    record = read_game(*game)
    ballot = record.day(2).rounds[-1]  # type: ignore[union-attr]
    assert ballot.candidates == [6, 7] and ballot.counts == {6: 5, 7: 3}
    assert ballot.voters[6] == (2, 3, 4, 5, 9)
    assert ballot.voters[7] == (6, 7, 10)  # the hands not raised, #8's gone with him
    exported = to_mafiaratings(*game, verify=False)  # no "recorded as a count" refusal
    assert sorted(v for p in exported["players"] if len(p.get("voting", [])) > 1
                  for v in [p["voting"][1]]) == [6, 6, 6, 6, 6, 7, 7, 7]
    with pytest.raises(ExportError) as caught:
        to_mafiaratings(*game)
    assert caught.value.code == "site_check"
    assert "Player 8 did not vote in round 1" in caught.value.params["issues"]


# --- a penalty in the vote is written where the importer replays it --------------------------------

TABLE = ["/roles D2 M5 M7 S8", "/start", "/next"]  # #5 is mafia: his team loss is a red win
NOMINEES = ["/nominate 1", "/next", "/nominate 3", "/next", "/nominate 4", *(["/next"] * 8)]
TIED = ["/nominate 1", "/next", "/nominate 3", "/next", "/nominate 4", "/next", "/nominate 2",
        *(["/next"] * 7), "/vote 1 2,3,4", "/vote 3 5,6,7", "/vote 4 8,9,10",  # 1, 3, 4 tie
        "/next", "/next", "/next"]  # their tie speeches (F24 §4.4.12.1)


def _when(penalties: list[dict[str, object]]) -> list[tuple[object, ...]]:
    return sorted((p["seat"], p["severity"], sorted(p["when"].items()), p["after"])  # type: ignore[union-attr]
                  for p in penalties)


def _replayed(game: Game) -> list[tuple[object, ...]]:
    """Every penalty of the game's export, re-imported, with the moment the replay gave it."""
    imported = records.import_record(json.loads(json.dumps(to_mafiaratings(*game))))
    return _when(export_penalties(read_game(imported.config, imported.names, imported.events)))


@pytest.mark.parametrize(("options", "before", "vote", "penalty", "seat"), [
    # the case found: the decided nominee's 4th foul (seed 5.1: he is the one leaving by it)
    ("", ["/foul 1"] * 3, NOMINEES, "/foul 1", 1),
    ("", ["/foul 6"] * 3, NOMINEES, "/foul 6", 6),  # a voter's, after the result (seed 5.2)
    ("", [], NOMINEES, "/dq 9 4.2.4", 9),
    ("", [], NOMINEES, "/dq 9 4.2.1", 9),  # leaving the table
    (" technical_fouls=true", ["/tech 9"], NOMINEES, "/tech 9", 9),  # MafiaRatings 9.6.2
    ("", ["/foul 6"] * 3, TIED, "/foul 6", 6),  # in a revote
], ids=["decided_nominee", "voter", "disqualified", "left_the_table", "technical", "revote"])
def test_a_removal_the_vote_outlived_then_a_team_loss_in_that_round_is_refused(
        options: str, before: list[str], vote: list[str], penalty: str, seat: int) -> None:
    """Seed 5.1–5.2: removed once the vote's result is known, the seat leaves and the vote goes
    on; then a team loss (seed 4.3) ends the game before the round does. MafiaRatings keeps no
    ballots of a round left unfinished (its check wants the vote of everyone at the table when
    the round began), and at the vote's start the removal would read as one before the vote,
    which cancels it (seed 5.1; the site's ``is_voting_canceled``): the day would end there and
    the team loss fall in the night. The export says so instead of writing that."""
    game = play("\n".join([f"/new fiim2024{options}", *TABLE, *before, *vote, "/vote 1 2,3,4,6,8,9",
                           penalty, "/ppk 5"]))
    state = final(game)
    assert state.result is not None and state.result.why == "team_loss"
    departure = state.seat(seat).departure
    assert departure is not None and (departure.day, departure.phase) == (1, "day")
    assert 1 not in state.vote_bans  # the vote went on after the removal
    ballot = read_game(*game).day(1).rounds[-1]  # type: ignore[union-attr]
    assert any(c not in ballot.counts for c in ballot.candidates)  # the round left unfinished
    with pytest.raises(ExportError) as caught:
        to_mafiaratings(*game)
    assert (caught.value.code, caught.value.params) == ("cut_short_vote", {"day": 1, "seat": seat})
    for lang in LANGS:
        text = error_text(caught.value, catalog(lang))
        assert catalog(lang).text("seat", n=seat) in text and "{" not in text


def test_a_foul_then_a_team_loss_in_an_unfinished_round_stay_on_that_day() -> None:
    """A foul during the vote, then a team loss before the round ends: both are written at the
    vote's start, the last moment of it the record keeps, and replay on day 1."""
    game = play("\n".join(["/new fiim2024", *TABLE, *NOMINEES, "/vote 1 2,3,4,6,8,9", "/foul 6",
                           "/ppk 5"]))
    players = to_mafiaratings(*game)["players"]
    assert players[5]["warnings"] == [{"round": 0, "time": "voting start", "order": 1}]
    assert players[4]["death"] == {"round": 0, "type": "teamKickOut",
                                   "time": {"round": 0, "time": "voting start", "order": 2}}
    assert [(seat, when) for seat, _, when, _ in _replayed(game)] == [
        (5, [("day", 1), ("kind", "voting"), ("round", 0), ("seat", 1)]),
        (6, [("day", 1), ("kind", "voting"), ("round", 0), ("seat", 1)])]


def _phases(items: list[tuple[object, ...]]) -> list[tuple[object, ...]]:
    """(seat, severity, day, at night) of each penalty."""
    return sorted((seat, severity, dict(when)["day"], dict(when)["kind"] in ("night", "night_zero"))
                  for seat, severity, when, _ in items)  # type: ignore[misc]


@pytest.mark.parametrize(("options", "script", "exact"), [
    ("", ["/next", "/dq 9 4.2.4", "/ppk 5"], True),  # in #2's speech: a removal, a team loss
    ("", ["/foul 3", "/foul 3", "/foul 3", "/next", "/dq 9 4.2.4", "/foul 3", "/next", "/ppk 5"], True),
    # the vote cancelled (seed 5.1) by #9's 2nd technical foul, given after #6's 3rd foul: the
    # record keeps no hands of it, so both are written at its start
    (" technical_fouls=true", ["/foul 6", "/foul 6", "/tech 9", *NOMINEES, "/foul 6", "/vote 1 2,3",
                               "/tech 9", "/miss", "/next", "/next", "/ppk 5"], False),
], ids=["removal_then_team_loss", "two_removals", "cancelled_vote"])
def test_penalties_at_one_game_time_keep_their_order(options: str, script: list[str],
                                                     exact: bool) -> None:
    """Penalties given at one moment are written with the site's ``order`` (js/src/game.js
    numbers the actions at one game time 1, 2, …) and replay in it: a removal is not turned
    into a penalty after the game's end, two removals keep their order, and a foul given before
    a cancelling removal does not fall in the night."""
    game = play("\n".join([f"/new fiim2024{options}", *TABLE, *script]))
    exported = to_mafiaratings(*game)
    times = [t for p in exported["players"] for t in [
        *p.get("warnings", []), *p.get("techFouls", []), (p.get("death") or {}).get("time") or {}]]
    assert {1, 2} <= {t["order"] for t in times if "order" in t}
    report = records.replay(exported)
    assert report.agrees and report.report == read_game(*game).outcome()
    ours = _when(export_penalties(read_game(*game)))
    assert (_replayed(game) == ours) if exact else (_phases(_replayed(game)) == _phases(ours))


LEADER = ["/new fiim2024 first_day_vote=raise_only", *TABLE, *NOMINEES, "/vote 1 2,3,4,6,8,9",
          "/vote 3 0"]  # #1 leads alone and stays: his 30 s (MafiaRatings 7.16.2)
NIGHT_THEN_LOSS = ["/miss", "/next", "/next", "/ppk 5"]


@pytest.mark.parametrize(("before", "penalty", "then"), [
    ([], "/foul 6", ["/next", *NIGHT_THEN_LOSS]),
    (["/foul 6"] * 3, "/foul 6", ["/next", *NIGHT_THEN_LOSS]),  # seed 5.2: day 2's vote is not held
    (["/foul 1"] * 3, "/foul 1", NIGHT_THEN_LOSS),  # the leader's own: his 30 s end with him
    ([], "/ppk 5", []),
], ids=["foul", "removal", "leaders_removal", "team_loss"])
def test_a_penalty_in_the_first_day_leaders_speech_is_written_at_its_time(
        before: list[str], penalty: str, then: list[str]) -> None:
    """Day 1's leader who stays (MafiaRatings 7.16.2) speaks 30 s after the vote; the site gives
    that speech the time «day kill speaking» of the leader, and him no death (js/src/game.js).
    A penalty in it is written there, and replays in it — not before the vote, where a removal
    would cancel day 1's vote (seed 5.1) instead of day 2's (seed 5.2); the leader's own removal
    there is his fourth foul, not a departure by the vote."""
    game = play("\n".join([*LEADER[:4], *before, *LEADER[4:], penalty, *then]))
    state = final(game)
    assert state.result is not None and state.result.why == "team_loss"
    assert not any(d.cause is rules.Cause.VOTE for _, d in state.departures())
    seat = int(penalty.split()[1])
    player = to_mafiaratings(*game)["players"][seat - 1]
    written = player["death"]["time"] if penalty.startswith("/ppk") else player["warnings"][-1]
    assert written == {"round": 0, "time": "day kill speaking", "speaker": 1}
    assert ("death" in to_mafiaratings(*game)["players"][0]) == (penalty == "/foul 1")
    assert _replayed(game) == _when(export_penalties(read_game(*game)))
    report = records.replay(to_mafiaratings(*game))
    assert report.agrees and report.report == read_game(*game).outcome()
    assert report.recorded["departures"] == report.report["departures"]  # as the record reads


def test_the_leader_who_stays_after_a_revote_speaks_after_it() -> None:
    """Day 1's leader kept after a revote (MafiaRatings 7.16.2) spoke twice: before the revote
    (F24 §4.4.12.1) and his 30 s after it. A foul in each keeps its own moment: the first at his
    tie speech, the second at the site's «day kill speaking»."""
    game = play("\n".join(["/new fiim2024 first_day_vote=raise_only", *TABLE, *TIED[:-3],
                           "/foul 6", "/next", "/next", "/next",  # #6's in #1's tie speech
                           "/vote 1 2,3,4,6,8,9", "/vote 3 0", "/foul 7",  # #7's in his 30 s
                           "/next", *NIGHT_THEN_LOSS]))
    assert not final(game).departures()  # #1 stays: only a raise vote removes on day 1
    players = to_mafiaratings(*game)["players"]
    assert players[5]["warnings"] == [{"round": 0, "time": "voting", "speaker": 1, "votingRound": 1}]
    assert players[6]["warnings"] == [{"round": 0, "time": "day kill speaking", "speaker": 1}]
    assert _replayed(game) == _when(export_penalties(read_game(*game)))


# --- penalties after leaving and after the result (issue 10: seed 4.5, §12.9, F24 §7.9) ---------

KILLED_AND_DISQUALIFIED = f"""
/new seed
/roles D2 M5 M7 S8
/start
/next
{SPEECHES}
/kill 4
/dq 4 4.2.6
/next
/next
/next
/ppk 2
"""


def _late_lines(game: Game, seat: int, lang: str = "ru") -> list[str]:
    from bot.protocol.sheet import _late_penalties

    record = read_game(*game)
    return [span.text for span in _late_penalties(record, seat, catalog(lang))]


def test_killed_and_disqualified_the_same_night_is_on_the_sheet_and_in_the_json() -> None:
    """SC, RULES.md §12.9: the night victim disqualified the same night left by the kill; the
    protocol keeps both — the kill as his departure, the disqualification as a penalty after
    leaving (for the points, F24 §8.2.4)."""
    game = play(KILLED_AND_DISQUALIFIED)
    state = final(game)
    assert state.seat(4).departure.cause is rules.Cause.KILL and state.seat(4).disqualified
    assert _late_lines(game, 4) == ["+ дисквалификация (4.2.6) ночью, после убийства"]
    listed = [p for p in to_json(*game)["penalties"] if p["seat"] == 4]
    assert listed == [{"seat": 4, "reason": "4.2.6", "severity": "disqualifying",
                       "when": {"kind": "night", "day": 1, "step": "don_check"}, "after": "leaving"}]


def test_a_disqualification_in_the_last_word_is_on_the_sheet() -> None:
    """Seed 4.5 (classes 2–4 of issue 10): the voted-out #8 disqualified in his last word for
    leaving the table (4.2.1: no team loss, F24 §6.8.5 does not list it); the sheet shows it
    beside his departure by the vote."""
    game = play(LAST_WORD.format(fouls="", last_word="/dq 8 4.2.1").replace("\n/next\n/ppk", "\n/ppk"))
    assert _late_lines(game, 8) == ["+ дисквалификация (4.2.1) в последнем слове"]
    assert _late_lines(game, 8, "en") == ["+ disqualification (4.2.1) in the last word"]
    assert [p["after"] for p in to_json(*game)["penalties"] if p["seat"] == 8] == ["leaving"]


AFTER_THE_GAME = f"""
/new fiim2024
/roles D2 M5 M7 S8
/start
/next
{SPEECHES}
/miss
/next
/next
/ppk 2
/foul 3
/dq 9 4.2.4
"""


def test_penalties_after_the_game_are_on_the_sheet_in_the_json_and_in_the_export() -> None:
    """F24 §7.9 (real MafiaRatings records carry them): a foul and a disqualification after the
    game are recorded — the sheet, our JSON, and the MafiaRatings export with the site's game
    time ``end`` — and the result is unchanged; the export replays to the same game."""
    game = play(AFTER_THE_GAME)
    state = final(game)
    assert state.result.why == "team_loss" and state.seat(9).at_table
    assert _late_lines(game, 9) == ["+ дисквалификация (4.2.4) после игры"]
    assert _late_lines(game, 3) == ["+ фол после игры"]
    after = [p for p in to_json(*game)["penalties"] if p["after"] == "result"]
    assert [(p["seat"], p["severity"], p["when"]["kind"]) for p in after] == [
        (3, "foul", "end"), (9, "disqualifying", "end")]
    exported = to_mafiaratings(*game)  # verified by replaying it through our importer
    assert exported["players"][8]["death"]["type"] == "kickOut"
    assert exported["players"][8]["death"]["time"]["time"] == "end"
    assert exported["players"][2]["warnings"][-1]["time"] == "end"
    report = records.replay(exported)
    assert report.agrees, report.differences


def test_an_item_not_applied_after_the_game_is_recorded_but_no_death() -> None:
    """F24/S24 §6.8.6: tears (the seed's 4.2.7, F24 §6.7.7) after the decisive event are not
    applied: the sheet lists them as not applied, our JSON marks them, and the MafiaRatings export
    has no death for the player (he was not disqualified)."""
    game = play(AFTER_THE_GAME.replace("/dq 9 4.2.4", "/dq 9 4.2.7"))
    state = final(game)
    assert not state.seat(9).disqualified
    assert _late_lines(game, 9) == ["+ дисквалификация (4.2.7) после игры, не применяется (ФИИМ 2024, §6.8.6)"]
    after = [p for p in to_json(*game)["penalties"] if p["seat"] == 9]
    assert [(p["reason"], p.get("applied", True)) for p in after] == [("4.2.7", False)]
    exported = to_mafiaratings(*game)
    assert "death" not in exported["players"][8] or exported["players"][8]["death"] is None


# --- the sheet as a FIIM протокол: header, points, penalties (issue 14) --------------------------

def sheet_texts(game: Game, lang: str = "ru", **info: object) -> list[str]:
    from bot.protocol.sheet import SheetInfo, compose

    _, _, events = game
    canvas, _ = compose(read_game(*game), catalog(lang), SheetInfo(**info))  # type: ignore[arg-type]
    return canvas.texts()


def test_the_header_names_the_judge_the_club_and_the_times_in_the_clubs_zone() -> None:
    """The date and the times are the club's (a setting), never the process's; the game's number
    is never digit-grouped; the judge's name stands over a line for his signature."""
    game = play(RED_WIN)
    moscow = " ".join(sheet_texts(game, game_id=12345, started_at=1_741_780_000,
                                  ended_at=1_741_783_000, tz="Europe/Moscow", judge="Иван Петров",
                                  club="Клуб «Мафия»", table="Зал 1"))
    assert "Протокол игры №12345" in moscow and "12 345" not in moscow
    assert "12.03.2025 · Клуб «Мафия» · стол: Зал 1" in moscow
    assert "начало 14:46, окончание 15:36 (Europe/Moscow)" in moscow
    assert "Судья игры: Иван Петров ______________________ (подпись)" in moscow
    far = " ".join(sheet_texts(game, started_at=1_741_780_000, tz="Asia/Vladivostok"))
    assert "начало 21:46 (Asia/Vladivostok)" in far
    late = " ".join(sheet_texts(game, started_at=1_741_820_000, tz="Asia/Vladivostok", lang="en"))
    assert "2025-03-13" in late  # past midnight there: the club's date, not UTC's


@pytest.mark.parametrize("name", ["red_win", "black_win", "cancelled", "draw"])
def test_the_sheet_shows_every_seats_points(games: dict[str, Game], name: str) -> None:
    """The points column (F24/S24 §8): each seat's total and its parts; our JSON carries them."""
    config, names, events = games[name]
    state = final(games[name])
    winners = [s.number for s in state.seats if state.result.winner is not None
               and s.role.team is state.result.winner]
    if winners:  # the judge's extra after the game (F24 §8.4.3)
        events = [*events, rules.Extra(seat=winners[0], points="0.6")]
    game = (config, names, events)
    table = rules.game_points(final(game))
    texts = sheet_texts(game)
    assert "Баллы" in texts
    totals = [t for t in texts if t in {rules.points.show(p.total) for p in table.values()}]
    assert len(totals) >= 10
    joined = " ".join(texts)
    data = json.loads(json.dumps(to_json(*game)))
    assert data["points"]["rules"] == "fiim2024" if config.preset != "fsm2024" else "fsm2024"
    assert {k: v["total"] for k, v in data["points"]["seats"].items()} == \
        {str(s): rules.points.show(p.total) for s, p in table.items()}
    if winners:
        assert data["points"]["seats"][str(winners[0])]["extra"] == "0.6"
        assert "дополнительные баллы +0.6" in joined


def test_every_penalty_is_on_the_sheet_with_its_item_and_moment() -> None:
    """Seed IV: every penalty, the fouls of a player who was later disqualified included, with
    the item and the moment; F24 §7.9: those after the game; the judge's penalty points (§8.5)."""
    game = play(AFTER_THE_GAME)
    config, names, events = game
    game = (config, names, [*events, rules.BadPlay(seat=3, item="8.5.3")])
    texts = " ".join(sheet_texts(game))
    assert "Наказания и баллы от Судьи" in texts
    assert "ППК — Д2, речь №2" in texts  # the team loss that ended the game
    assert "фол — после игры" in texts  # F24 §7.9
    assert "дисквалификация 4.2.4 — оскорбления других игроков или Судей, мат после игры" in texts
    assert ("штрафные баллы -0.5 8.5.3 — «слом» голосования в красного при четырёх игроках "
            "после игры") in texts
    dq_fouls = play("\n".join(["/new", "/roles D2 M5 M7 S8", "/start", "/next",
                               "/foul 4 4.1.2", "/foul 4", "/dq 4 4.2.4", "/ppk 2"]))
    lines = sheet_texts(dq_fouls)
    assert lines.count("фол") == 2 and lines.count("дисквалификация") == 1
    assert any(t.startswith("4.1.2 — ") for t in lines) and lines.count("Д1, речь №1") == 4


def test_the_raise_votes_voters_of_a_polemica_record_reach_the_sheet() -> None:
    """Polemica records who raised a hand to raise everyone (F24 §4.4.12.3): 334187's day 4
    (three of six for): the protocol keeps the voters, and the sheet marks each hand ↑ or ↓."""
    path = SHARED / "games" / "polemica" / "334187.json"
    if not path.is_file():
        pytest.skip(f"the shared game records are not beside the project ({path.parent})")
    imported = records.import_record(json.loads(path.read_text("utf-8")))
    record = read_game(imported.config, imported.names, imported.events)
    raised = record.day(4).raise_vote  # type: ignore[union-attr]
    assert raised is not None and raised.yes == 3 and raised.at_table == 6
    assert raised.voters is not None and len(raised.voters) == 3
    cells = [t for t in sheet_texts((imported.config, imported.names, imported.events))
             if len(t) < 20]  # the day cells (a narrow column wraps «6/6 ↑» in two lines)
    assert sum(t.count("↑") for t in cells) == 3 and sum(t.count("↓") for t in cells) == 3


def test_long_names_that_differ_only_at_the_end_stay_told_apart_on_the_sheet() -> None:
    """Newcomer's report, item 10: a name too long for its column keeps its beginning and its
    end («Александра Константин…ская-1»), so two names differing only at the end never look
    identical; a name that fits is drawn whole."""
    from bot.protocol.sheet import BODY, fit_middle, text_width

    long = "Александра Константинопольская-Преображенская"
    names = {1: long + "-1", 2: long + "-2", 3: "Вера"}
    script = RED_WIN.replace("/name 1 Анна", f"/name 1 {names[1]}").replace(
        "/name 2 Борис", f"/name 2 {names[2]}")
    for lang in ("ru", "en"):
        texts = sheet_texts(play(script), lang)
        shown = [t for t in texts if t.startswith("Алекс")]
        assert len(shown) == 2 and shown[0] != shown[1], shown
        assert shown[0].endswith("-1") and shown[1].endswith("-2") and "…" in shown[0]
        assert "Вера" in texts
    for width in (80.0, 150.0, 260.0):
        a, b = fit_middle(names[1], width), fit_middle(names[2], width)
        assert a != b and text_width(a, BODY, False) <= width
    assert fit_middle("Вера", 150.0) == "Вера"
