"""Real game records as the engine's external oracle (shared/games/README.md), plus the importers'
refusals on options and values they do not know.

The expected timelines below are copied from the README's "Expected timelines" table (which the
team did not write), not from the replay's output. Day k is followed by night k; MafiaRatings'
round r holds night r and our day r+1.
"""

from __future__ import annotations

import copy
import io
import json
from pathlib import Path
from typing import Any

import pytest

import rules
from bot.i18n import catalog
from bot.render import notice_text
from bot.replay_cli import run_replay_cli
from rules import FirstDayVote, NominationWithdrawal, RevoteOrder, Rotation, ThirdFoul
from rules import notices as nt
from rules.records import RecordError, detect, import_record, replay
from rules.records.mafiaratings import upgrade_rules_code

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "games"
needs_shared = pytest.mark.skipif(
    not SHARED.is_dir(), reason=f"the real game records ({SHARED}) are not present beside the project")

D, N = "day", "night"

# README "Expected timelines": (winner, departures (seat, day, phase, cause), cancelled votes,
# notices that must appear (kind, params subset; "seats" compared as sets)).
EXPECTED: dict[str, tuple[str | None, list[tuple[int, int, str, str]], list[int],
                          list[tuple[str, dict[str, Any]]]]] = {
    # D1 1:5 4:5, revote 5:5, lift 1/10 → nobody · N1 kill 1 · D2 2 out · N2 kill 10 · D3 8 out ·
    # N3 kill 6 · D4 7 out · N4 last black (seat 4) shoots himself → red
    "polemica/270561.json": (
        "red",
        [(1, 1, N, "kill"), (2, 2, D, "vote"), (10, 2, N, "kill"), (8, 3, D, "vote"),
         (6, 3, N, "kill"), (7, 4, D, "vote"), (4, 4, N, "kill")],
        [],
        [("raise_result", {"seats": [1, 4], "yes": 1, "at_table": 10, "passed": False}),
         ("vote_counted", {"nominee": 2, "count": 9})],
    ),
    # D1 3-way tie 1:3 2:3 3:3 (+4:1), revote 1:5 → 1 out · N1 kill 8 · D2 3 out; seat 5 4th foul
    # during 3's farewell → removed · N2 kill 6 · D3 nominations 4→10, 10→7, no vote · N3 kill 10
    "polemica/272910.json": (
        "black",
        [(1, 1, D, "vote"), (8, 1, N, "kill"), (3, 2, D, "vote"), (5, 2, D, "fouls"),
         (6, 2, N, "kill"), (10, 3, N, "kill")],
        [3],
        [("tie", {"seats": [1, 2, 3], "round": 0}), ("removed", {"seat": 5, "cause": "fouls"}),
         ("vote_not_held", {"day": 3})],
    ),
    # D1 single leader 1 (5 votes) stays · N1 kill 4 · D2 2:4 8:4 → revote 8 out · N2 miss ·
    # D3 2 out · N3 kill 1 · D4 6:3 7:3 twice, lift 3/6 → nobody · N4 kill 5 · D5 7 out ·
    # N5 kill 10 · D6 9 out → red
    "polemica/334187.json": (
        "red",
        [(4, 1, N, "kill"), (8, 2, D, "vote"), (2, 3, D, "vote"), (1, 3, N, "kill"),
         (5, 4, N, "kill"), (7, 5, D, "vote"), (10, 5, N, "kill"), (9, 6, D, "vote")],
        [],
        [("leader_stays", {"seat": 1}), ("night_result", {"night": 2, "killed": None}),
         ("raise_result", {"seats": [6, 7], "yes": 3, "at_table": 6, "passed": False})],
    ),
    # partial: D1 single nominee, no vote · N1 kill 10 · D2 (9 alive) 4:3 5:3 6:3 twice, lift 2/9
    # → nobody; nominees 3 and 8 got 0 votes · ends at night 2
    "polemica/333915.json": (
        None,
        [(10, 1, N, "kill")],
        [],
        [("vote_not_held", {"day": 1}), ("vote_counted", {"nominee": 8, "count": 0}),
         ("raise_result", {"seats": [4, 5, 6], "yes": 2, "at_table": 9, "passed": False})],
    ),
    # D1 no nominations · N1 kill 1 · D2 8 out · N2 kill 3 · D3 7 out · N3 kill 5 · D4 6 out ·
    # N4 kill 4 · D5 (3 left) 9 out → maf
    "mafiaratings/1.json": (
        "black",
        [(1, 1, N, "kill"), (8, 2, D, "vote"), (3, 2, N, "kill"), (7, 3, D, "vote"),
         (5, 3, N, "kill"), (6, 4, D, "vote"), (4, 4, N, "kill"), (9, 5, D, "vote")],
        [],
        [("vote_not_held", {"day": 1})],
    ),
    # D1 single nominee, no vote · N1 kill 2 · D2 tie 5:3 7:3 → revote 7 out · N2 kill 8 ·
    # D3 seat 10 4th warning during the vote → removed, vote cancelled → 3 v 3 → maf
    "mafiaratings/4872.json": (
        "black",
        [(2, 1, N, "kill"), (7, 2, D, "vote"), (8, 2, N, "kill"), (10, 3, D, "fouls")],
        [3],
        [("vote_not_held", {"day": 1}), ("tie", {"seats": [5, 7]}),
         ("vote_cancelled", {"day": 3, "seat": 10})],
    ),
    # D1 tie → nobody · N1 kill 7 · D2 6 out · N2 kill 2 · D3 3 out · N3 kill 10 · D4 4 out ·
    # N4 kill 1 · D5 9 out → civ
    "mafiaratings/4873.json": (
        "red",
        [(7, 1, N, "kill"), (6, 2, D, "vote"), (2, 2, N, "kill"), (3, 3, D, "vote"),
         (10, 3, N, "kill"), (4, 4, D, "vote"), (1, 4, N, "kill"), (9, 5, D, "vote")],
        [],
        [],
    ),
    # D1 tie → nobody · N1 kill 8 · D2 5 out · N2 kill 1 · D3 10 out · N3 kill 6 · D4 7 out → civ
    "mafiaratings/4874.json": (
        "red",
        [(8, 1, N, "kill"), (5, 2, D, "vote"), (1, 2, N, "kill"), (10, 3, D, "vote"),
         (6, 3, N, "kill"), (7, 4, D, "vote")],
        [],
        [],
    ),
    # D1 tie → nobody · N1 kill 7 · D2 (9 alive) 3:3 5:3 9:3 twice → all three leave ·
    # N2 kill 10 · D3 1 out → civ
    "mafiaratings/4875.json": (
        "red",
        [(7, 1, N, "kill"), (3, 2, D, "raise"), (5, 2, D, "raise"), (9, 2, D, "raise"),
         (10, 2, N, "kill"), (1, 3, D, "vote")],
        [],
        [("raise_result", {"seats": [3, 5, 9], "at_table": 9, "passed": True})],
    ),
}


def _load(name: str) -> dict[str, Any]:
    return json.loads((SHARED / name).read_text(encoding="utf-8"))


def _has_notice(notices: list[rules.Notice], kind: str, params: dict[str, Any]) -> bool:
    def same(key: str, want: Any, got: Any) -> bool:
        if key == "seats":
            return sorted(want) == sorted(got or [])
        return bool(want == got)

    return any(n.kind.value == kind and all(same(k, v, n.params.get(k)) for k, v in params.items())
               for n in notices)


def _departures(rows: list[tuple[int, int, str, str]]) -> list[dict[str, Any]]:
    key = {D: 0, N: 1}
    return [{"seat": s, "day": d, "phase": p, "cause": c}
            for s, d, p, c in sorted(rows, key=lambda r: (r[1], key[r[2]], r[0]))]


# --- the real records ----------------------------------------------------------------------------
@needs_shared
def test_every_shared_record_has_an_expected_timeline() -> None:
    files = sorted(str(p.relative_to(SHARED)) for p in SHARED.glob("*/*.json"))
    assert files == sorted(EXPECTED)


@needs_shared
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_record_replays_as_recorded(name: str) -> None:
    """Every departure (seat, day, phase, cause), every cancelled vote (seed 5.1/5.2) and the
    winner (F24 §1.4, §7.9) as the README's table has them."""
    winner, departures, cancelled, notices = EXPECTED[name]
    report = replay(_load(name))
    assert report.report == {"winner": winner, "departures": _departures(departures),
                             "cancelled_votes": cancelled}
    assert report.agrees, report.differences
    assert report.differences == []
    assert report.recorded == report.report
    for kind, params in notices:
        assert _has_notice(report.notices, kind, params), (kind, params)


@needs_shared
@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_imported_events_are_a_valid_log(name: str) -> None:
    """The generated events fold to the same game after a JSON round trip (they are a game
    log), and departures are never fed: the engine produces them."""
    imported = import_record(_load(name))
    assert imported.problems == []
    log = [rules.from_dict(json.loads(json.dumps(rules.to_dict(e)))) for e in imported.events]
    assert log == imported.events
    state, _ = rules.fold(imported.config, log)
    again, _ = rules.fold(imported.config, import_record(_load(name)).events)
    assert [s.departure for s in state.seats] == [s.departure for s in again.seats]
    assert state.seat(1).name == imported.names[1]
    assert [s.role.value if s.role else None for s in state.seats] == list(imported.roles)


@needs_shared
def test_record_options() -> None:
    """The rules each record was played by (README "Options and causes")."""
    cfg = {name: import_record(_load(name)).config for name in EXPECTED}
    assert cfg["polemica/334187.json"].first_day_vote is FirstDayVote.RAISE_ONLY  # liftOnly
    assert cfg["polemica/272910.json"].first_day_vote is FirstDayVote.SINGLE_NOT_VOTED  # absent
    assert cfg["polemica/333915.json"].raise_3_of_9 is True  # no config: 3 of 9 allowed
    game1 = cfg["mafiaratings/1.json"]  # 0000100101000: 7.16.2, 7.22.2, 8.17.2
    assert game1.first_day_vote is FirstDayVote.RAISE_ONLY
    assert game1.raise_2_of_4 is False and game1.best_move is False
    default = cfg["mafiaratings/4872.json"]  # 0000000000000
    assert default.first_day_vote is FirstDayVote.SINGLE_NOT_VOTED
    assert default.raise_2_of_4 and default.raise_3_of_9 and default.best_move
    assert default.third_foul is ThirdFoul.SILENCE  # 9.5.1
    for config in cfg.values():
        assert config.draw_declared is rules.DrawDeclared.AFTER_THIRD_NIGHT  # F24 §7.7


@needs_shared
def test_partial_record_stops_where_the_record_stops() -> None:
    """333915 stops at night 2's shooting: the replay does not invent a miss there."""
    imported = import_record(_load("polemica/333915.json"))
    state, _ = rules.fold(imported.config, imported.events)
    assert state.phase is rules.Phase.NIGHT and state.night is not None
    assert state.night.number == 2 and not state.night.shot
    assert replay(_load("polemica/333915.json")).complete is False


def envelope(game: dict[str, Any], leaving: list[int] | None = None) -> dict[str, Any]:
    """``game`` as Polemica's API returns it: inside ``data``, with the envelope's own id,
    times, winner code (the game's ``result``), judge and players (seat, name, card and, given
    ``leaving``, the order they left the table: ``quit_index`` 2 for the first)."""
    people = []
    for p in game["players"]:
        person = {"position": p["position"], "username": p.get("username"), "role": p["role"]}
        if leaving is not None:
            person["quit_index"] = leaving.index(p["position"]) + 2 if p["position"] in leaving else None
        people.append(person)
    return {"id": game.get("id"), "type": "match", "started_at": "2025-04-05 13:00:00",
            "ended_at": "2025-04-05 14:20:00", "winnerCode": game.get("result"),
            "judge": dict(game.get("referee") or {"id": 0, "username": "Судья"}),
            "players": people, "data": copy.deepcopy(game)}


@needs_shared
@pytest.mark.parametrize("name", sorted(n for n in EXPECTED if n.startswith("polemica/")))
def test_polemica_envelope_replays_to_the_same_outcome(name: str) -> None:
    """Every shared Polemica game inside the API envelope (the players' leaving order from the
    README's timeline) replays to the outcome of the plain game, with the envelope agreeing."""
    winner, departures, cancelled, _ = EXPECTED[name]
    plain = replay(_load(name))
    wrapped = envelope(_load(name), leaving=[seat for seat, *_ in departures])
    assert detect(wrapped) == "polemica"
    report = replay(wrapped)
    assert report.report == plain.report
    assert report.report["winner"] == winner
    assert report.agrees, report.differences
    assert report.complete is plain.complete


def test_polemica_envelope_cross_checks() -> None:
    """The envelope's winner, cards and leaving order disagreeing with the game are differences
    of the replay; a different judge or id is a note; errors inside name the field under data."""
    game = polemica_game()
    order = [1, 4, 2, 5, 3]  # the game's departures, first to leave first
    assert replay(envelope(game, order)).agrees
    wrong = envelope(game, order)
    wrong["winnerCode"] = 1
    assert any(d.startswith("winnerCode") for d in replay(wrong).differences)
    wrong = envelope(game, order)
    wrong["players"][6]["role"] = 0
    assert any(d.startswith("players[6].role") for d in replay(wrong).differences)
    wrong = envelope(game, [1, 2, 4, 5, 3])
    assert any(d.startswith("leaving order") for d in replay(wrong).differences)
    wrong = envelope(game, [1, 4, 2, 5])
    assert any(d.startswith("leaving order") for d in replay(wrong).differences)
    game["referee"] = {"id": 5, "username": "Судья"}
    other = envelope(game, order)
    other["judge"] = {"id": 77, "username": "Другой судья"}
    other["id"] = 2
    report = replay(other)
    assert report.agrees
    assert any(n.startswith("judge.id") for n in report.notes)
    assert any(n.startswith("id:") for n in report.notes)
    broken = envelope(game)
    broken["data"]["players"][3]["role"] = 9
    with pytest.raises(RecordError) as error:
        import_record(broken)
    assert error.value.field == "data.players[3].role"
    versionless = envelope(game)
    del versionless["data"]["version"]  # the API's envelope is v4's
    assert replay(versionless).agrees
    versionless["data"]["version"] = 3
    with pytest.raises(RecordError) as error:
        import_record(versionless)
    assert error.value.field == "data.version"


def test_polemica_config_carries_the_first_day_rule() -> None:
    """Real API games keep ``zeroVoting`` (and the scoring) in ``config``; ``respeech`` is read
    as ``liftOnly``: polemica-library's GameUtils expels no single day-1 leader under either."""
    game = polemica_game()
    game["config"] = {"zeroVoting": "respeech", "scoringType": 1, "scoringVersion": "3.0",
                      "lift3From9": False}
    config = import_record(game).config
    assert config.first_day_vote is FirstDayVote.RAISE_ONLY and config.raise_3_of_9 is False
    game["zeroVoting"] = "none"
    with pytest.raises(RecordError) as error:
        import_record(game)
    assert error.value.field == "config.zeroVoting"


def test_polemica_respeech_keeps_the_day_one_leader() -> None:
    """zeroVoting respeech: seat 1, the single leader of day 1 (6 hands), stays at the table
    and speaks again — in the replay and in what the record's ballots say."""
    game = polemica_game()
    game["zeroVoting"] = "respeech"
    report = replay(game)
    assert any(n.kind is rules.Kind.LEADER_STAYS and n["seat"] == 1 for n in report.notices)
    for outcome in (report.report, report.recorded):
        assert {"seat": 1, "day": 1, "phase": "day", "cause": "vote"} not in outcome["departures"]


@pytest.mark.parametrize(("stage", "moment"), [
    ({"type": "toDay", "day": 2}, "day 2 start of the day"),
    ({"type": "comKill", "day": 1}, "night 1 (best_move)"),
])
def test_polemica_to_day_and_com_kill_stages(stage: dict[str, Any], moment: str) -> None:
    """``toDay``: the passage to day d (before its morning's last word); ``comKill``: the
    night's last step, after the guess, where the judge names who killed the Sheriff."""
    from rules.records.polemica import stage_moment
    assert stage_moment(stage, "stage").describe() == moment


def test_polemica_a_fourth_foul_at_to_day_cancels_that_days_vote() -> None:
    """A 4th foul at ``toDay`` of day 2 removes the player in the morning: day 2's vote is not
    held (seed 5.1), as a removal at the end of night 1 would do."""
    game = polemica_game()
    game["players"][7]["fouls"] = [{"time": f"t{i}", "stage": {"type": "speech", "day": 1, "player": 8}}
                                   for i in range(3)]
    game["players"][7]["fouls"].append({"time": "t9", "stage": {"type": "toDay", "day": 2}})
    game["players"][7]["disqual"] = {"type": "toDay", "day": 2}
    report = replay(game)
    assert {"seat": 8, "day": 2, "phase": "day", "cause": "fouls"} in report.report["departures"]
    assert 2 in report.report["cancelled_votes"]


def _announced(notice: rules.Notice) -> str:
    """The line the replay prints for ``notice`` (Russian catalog, the CLI's default)."""
    line = notice_text(notice, catalog("ru"))
    assert line
    return line


@needs_shared
def test_cli_on_a_real_record(tmp_path: Path) -> None:
    out = io.StringIO()
    assert run_replay_cli(str(SHARED / "polemica" / "272910.json"), False, out) == 0
    text = out.getvalue()
    assert text.rstrip().endswith(catalog("ru").text("replay-agrees"))
    # seed 5.2: seat 5's 4th foul after day 2's result → day 3's vote is not held
    assert _announced(nt.VoteNotHeld(day=3, why="5.2", seat=5, cause="fouls", reason=None,
                                     rules="fiim2024")) in text
    assert "(ФИИМ 2024, §7.2)" in text  # a FIIM 2024 record cites FIIM 2024's own number
    out = io.StringIO()
    assert run_replay_cli(SHARED / "mafiaratings" / "4875.json", True, out) == 0
    data = json.loads(out.getvalue())
    assert data["agrees"] is True and data["winner"] == "red"
    assert set(data) >= {"winner", "departures", "cancelled_votes"}
    assert {"seat": 3, "day": 2, "phase": "day", "cause": "raise"} in data["departures"]  # MR 4875
    tampered = _load("polemica/270561.json")
    tampered["result"] = 1
    path = tmp_path / "tampered.json"
    path.write_text(json.dumps(tampered), encoding="utf-8")
    out = io.StringIO()
    assert run_replay_cli(str(path), False, out) == 1
    assert catalog("ru").text("replay-difference", difference="winner") in out.getvalue()


# --- hand-made minimal records ---------------------------------------------------------------------
def polemica_game() -> dict[str, Any]:
    """A small complete Polemica game. Don 1, mafia 2 and 3, sheriff 10.
    D1: 4→1, 5→2; seat 1 gets 6 hands → out. N1: 2 and 3 shoot 4 → killed.
    D2: 5→2, 6→3; 2 gets 5 of 8 → out. N2: 3 shoots 5 → killed. D3: 6→3, all 6 → out: red."""
    roles = {1: 0, 2: 1, 3: 1, 10: 3}
    players = [{"position": s, "username": f"Игрок {s}", "role": roles.get(s, 2), "techs": [],
                "fouls": []} for s in range(1, 11)]
    votes: list[dict[str, Any]] = [
        {"day": 1, "num": 0, "voter": 4, "candidate": 1},
        {"day": 1, "num": 0, "voter": 5, "candidate": 2},
        *({"day": 1, "num": 1, "voter": v, "candidate": 1} for v in range(2, 8)),
        *({"day": 1, "num": 1, "voter": v, "candidate": 2} for v in (1, 8, 9, 10)),
        {"day": 2, "num": 0, "voter": 5, "candidate": 2},
        {"day": 2, "num": 0, "voter": 6, "candidate": 3},
        *({"day": 2, "num": 1, "voter": v, "candidate": 2} for v in (5, 6, 7, 8, 9)),
        *({"day": 2, "num": 1, "voter": v, "candidate": 3} for v in (2, 3, 10)),
        {"day": 3, "num": 0, "voter": 6, "candidate": 3},
        *({"day": 3, "num": 1, "voter": v, "candidate": 3} for v in (3, 6, 7, 8, 9, 10)),
    ]
    return {
        "id": 1, "version": 4, "players": players, "votes": votes,
        "shots": [{"night": 1, "shooter": 2, "victim": 4}, {"night": 1, "shooter": 3, "victim": 4},
                  {"night": 2, "shooter": 3, "victim": 5}],
        "checks": [{"night": 1, "role": 3, "player": 2}],
        "stage": {"type": "gameOver", "day": 3}, "result": 0,
    }


def mafiaratings_game() -> dict[str, Any]:
    """A MafiaRatings game ended on day 1 by a team loss: seat 2 (mafia) is removed with his
    team during seat 1's speech (seed 4.3) → the city wins."""
    players: list[dict[str, Any]] = [{"id": 1000 + s, "name": f"Игрок {s}"} for s in range(1, 11)]
    players[0]["role"] = "don"
    players[1]["role"] = "maf"
    players[2]["role"] = "maf"
    players[9]["role"] = "sheriff"
    players[1]["death"] = {"round": 0, "type": "teamKickOut",
                           "time": {"round": 0, "time": "speaking", "speaker": 1}}
    return {"id": 7, "rules": "0000000000000", "features": "dutcvnwr", "winner": "civ",
            "players": players}


def test_detect() -> None:
    assert detect(polemica_game()) == "polemica"
    assert detect(mafiaratings_game()) == "mafiaratings"
    with pytest.raises(RecordError) as error:
        detect({"hello": 1})
    assert error.value.field == "record"


def test_handmade_polemica_game_replays() -> None:
    report = replay(polemica_game())
    assert report.agrees, report.differences
    assert report.report == {
        "winner": "red",  # F24 §1.4: no black at the table
        "departures": _departures([(1, 1, D, "vote"), (4, 1, N, "kill"), (2, 2, D, "vote"),
                                   (5, 2, N, "kill"), (3, 3, D, "vote")]),
        "cancelled_votes": [],
    }


def test_handmade_team_loss_replays() -> None:
    """Seed 4.3 / F24 §6.8: a team loss ends the game at once; its departure shows as team_loss."""
    report = replay(mafiaratings_game())
    assert report.agrees, report.differences
    assert report.report == {"winner": "red",
                             "departures": _departures([(2, 1, D, "team_loss")]),
                             "cancelled_votes": []}


def test_handmade_disagreement_is_reported() -> None:
    game = polemica_game()
    game["result"] = 1
    report = replay(game)
    assert not report.agrees
    assert any(d.startswith("winner") for d in report.differences)


def test_refused_fact_is_a_difference() -> None:
    """A shot by a red player is refused by the engine (F24 §4.5.3): a disagreement, not a crash."""
    game = polemica_game()
    game["shots"][2]["shooter"] = 7
    report = replay(game)
    assert not report.agrees
    assert any("night 2" in d and "not_black" in d for d in report.differences)


def test_removal_at_night_zero_cancels_the_first_vote() -> None:
    """Seed 5.1 (RULES.md R6.12): a removal in night 0 cancels day 1's vote."""
    game = mafiaratings_game()
    player = game["players"][1]
    player["death"] = {"round": 0, "type": "kickOut", "time": {"round": 0, "time": "arrangement"}}
    game["players"][3]["nominating"] = [5]
    game["players"][4]["nominating"] = [6]
    report = replay(game)
    assert report.report["departures"] == _departures([(2, 0, N, "disqualification")])
    assert report.report["cancelled_votes"] == [1]
    assert report.recorded["cancelled_votes"] == [1]


def test_penalty_at_a_moment_the_replay_lacks_is_noted() -> None:
    """A foul recorded in a tie speech that the replay never holds is fed at the next moment,
    with a note."""
    game = mafiaratings_game()
    game["players"][4]["warnings"] = [
        {"round": 0, "time": "voting", "votingRound": 1, "speaker": 5}]
    game["players"][1]["death"]["time"] = {"round": 0, "time": "day kill speaking", "speaker": 9}
    report = replay(game)
    assert any("players[4].warnings[0]" in note and "fed at" in note for note in report.notes)


def mafia_wins_by_kills(rules_code: str) -> dict[str, Any]:
    """No nominations; the mafia kills 4, 5, 6, 7 in nights 1–4: 3 black v 3 red → black wins
    (F24 §1.4)."""
    game = mafiaratings_game()
    del game["players"][1]["death"]
    for night, seat in enumerate((4, 5, 6, 7), start=1):
        game["players"][seat - 1]["death"] = {"round": night, "type": "night"}
    game.update(rules=rules_code, winner="maf")
    return game


def test_mafia_wins_by_a_night_kill() -> None:
    """8.19.1: the last victim still has his last word; the result stands (F24 §7.9)."""
    report = replay(mafia_wins_by_kills("0000000000000"))
    assert report.agrees, report.differences
    assert report.report["winner"] == "black"


def test_mafia_wins_by_a_night_kill_without_final_speech() -> None:
    """8.19.2 (MafiaRatings rules[10] = 1): no final speech, the game ends at the kill."""
    report = replay(mafia_wins_by_kills("0000000000100"))
    assert report.agrees, report.differences
    assert report.report["winner"] == "black"


def test_mafiaratings_technical_fouls_remove_at_the_second() -> None:
    """9.6.2 (rules[12] = 1): a player's techFouls are fed as technical fouls, apart from his
    warnings; the second removes him (death type techFouls) and that day's vote is not held
    (seed 5.1); 3 black v 3 red after night 3 → black wins."""
    game = mafia_wins_by_kills("0000000000001")
    del game["players"][6]["death"]
    game["players"][7]["techFouls"] = [{"round": 0, "time": "speaking", "speaker": 2, "order": 1},
                                       {"round": 0, "time": "speaking", "speaker": 5, "order": 1}]
    game["players"][7]["warnings"] = [{"round": 0, "time": "speaking", "speaker": 3, "order": 1}]
    game["players"][7]["death"] = {"round": 0, "type": "techFouls"}
    game["players"][0]["nominating"] = [9]
    game["players"][1]["nominating"] = [10]
    report = replay(game)
    assert report.agrees, report.differences
    assert report.report["departures"][0] == {"seat": 8, "day": 1, "phase": "day",
                                              "cause": "disqualification"}
    assert report.report["cancelled_votes"] == [1]
    assert any(n.kind is rules.Kind.TECH_FOUL and n["count"] == 2 for n in report.notices)

    game["rules"] = "0000000000000"  # 9.6.1: no technical fouls — the death is fed as a removal
    report = replay(game)
    assert report.agrees, report.differences
    assert any("technical foul(s) recorded under rules without them" in n for n in report.notes)


def test_mafiaratings_a_removal_in_ones_own_last_word_keeps_the_kill_and_the_vote() -> None:
    """The site writes a removal over the death it follows (js/src/game.js sets ``death`` in
    gamePlayerWarning, gamePlayerKickOut): night 1's victim (#4) with a 4th warning in his
    morning last word was still killed; #5 voted out on day 2 and kicked out in his last word
    was still voted out (seed 4.5; SC: the earlier departure stands)."""
    game = mafia_wins_by_kills("0000000000000")
    four = game["players"][3]
    four["death"] = {"round": 1, "type": "warnings"}
    four["warnings"] = [{"round": 0, "time": "speaking", "speaker": 2}] * 3 + [
        {"round": 1, "time": "night kill speaking", "speaker": 4}]
    game["players"][4]["death"] = {"round": 1, "type": "kickOut",
                                   "time": {"round": 1, "time": "day kill speaking", "speaker": 5}}
    game["players"][5]["death"] = {"round": 2, "type": "night"}  # the kills move on one night
    game["players"][6]["death"] = {"round": 3, "type": "night"}
    game["players"][1]["nominating"] = [None, 5]
    for voter in (1, 2, 3, 5, 6, 7, 8, 9, 10):
        game["players"][voter - 1]["voting"] = [None, 5]
    game["features"] = "dutcvnwr"
    report = replay(game)
    assert report.agrees, report.differences
    assert report.report["departures"][:2] == [
        {"seat": 4, "day": 1, "phase": "night", "cause": "kill"},
        {"seat": 5, "day": 2, "phase": "day", "cause": "vote"}]
    assert report.report["winner"] == "black"


# --- options and values the importer does not know ------------------------------------------------
@pytest.mark.parametrize(("value", "rule"), [
    ("none", FirstDayVote.NO_VOTE), ("liftOnly", FirstDayVote.RAISE_ONLY),
    (None, FirstDayVote.SINGLE_NOT_VOTED)])
def test_polemica_zero_voting(value: str | None, rule: FirstDayVote) -> None:
    game = polemica_game()
    if value is not None:
        game["zeroVoting"] = value
    assert import_record(game).config.first_day_vote is rule


@pytest.mark.parametrize(("change", "field"), [
    ({"zeroVoting": "whatever"}, "zeroVoting"),
    ({"config": {"lift3From9": False, "newOption": 1}}, "config.newOption"),
    ({"config": {"lift3From9": "yes"}}, "config.lift3From9"),
    ({"version": 3}, "version"),
    ({"result": 2}, "result"),
])
def test_polemica_unknown_option_is_an_error(change: dict[str, Any], field: str) -> None:
    game = polemica_game()
    game.update(change)
    with pytest.raises(RecordError) as error:
        import_record(game)
    assert error.value.field == field


def test_polemica_unknown_values_are_errors() -> None:
    game = polemica_game()
    game["players"][0]["role"] = 7
    with pytest.raises(RecordError) as error:
        import_record(game)
    assert error.value.field == "players[0].role"
    game = polemica_game()
    game["players"][5]["fouls"] = [{"time": "t", "stage": {"type": "toLunch", "day": 2}}]
    with pytest.raises(RecordError) as error:
        import_record(game)
    assert error.value.field == "players[5].fouls[0].stage.type"
    game = polemica_game()
    game["checks"][0]["role"] = 1
    with pytest.raises(RecordError) as error:
        import_record(game)
    assert error.value.field == "checks[0].role"


def test_polemica_lift_3_of_9_option() -> None:
    game = polemica_game()
    game["config"] = {"lift3From9": False, "openVoting": True}
    assert import_record(game).config.raise_3_of_9 is False


# include/rules.php $_rules_options: how many values each of the 13 options has.
SITE_OPTION_VALUES = (2, 5, 10, 3, 4, 2, 2, 2, 3, 2, 2, 3, 2)


@pytest.mark.parametrize(("code", "field"), [
    ("2000000000000", "rules[0]"),  # 6.3 rotation: first, last
    ("0005000000000", "rules[3]"),  # 7.5 withdraw: allowed, auto, no
    ("0000400000000", "rules[4]"),  # 7.16 first-day voting: four values
    ("0000002000000", "rules[6]"),  # 7.21 kill all: no, draw
    ("0000000030000", "rules[8]"),  # 7.23 split on nine: yes, no, after1
    ("0000000000030", "rules[11]"),  # 9.5 has 3 values
    ("0000000000002", "rules[12]"),  # 9.6 tech fouls: no, yes
    ("00000000000", "rules"),  # 11 digits: no upgrade makes it 13
    ("00000000000x0", "rules"),
])
def test_mafiaratings_unknown_rule_value_is_an_error(code: str, field: str) -> None:
    game = mafiaratings_game()
    game["rules"] = code
    with pytest.raises(RecordError) as error:
        import_record(game)
    assert error.value.field == field


@pytest.mark.parametrize("position", range(13))
def test_mafiaratings_every_value_the_site_defines_is_read(position: int) -> None:
    """The importer maps all 13 digits: every value include/rules.php defines imports, the next
    one is refused naming its position."""
    for value in range(10):
        game = mafiaratings_game()
        game["rules"] = "0" * position + str(value) + "0" * (12 - position)
        if value < SITE_OPTION_VALUES[position]:
            import_record(game)
        else:
            with pytest.raises(RecordError) as error:
                import_record(game)
            assert error.value.field == f"rules[{position}]"


def test_mafiaratings_rules_code_mapping() -> None:
    game = mafiaratings_game()
    game["rules"] = "0000110101121"
    config = import_record(game).config
    assert config.first_day_vote is FirstDayVote.RAISE_ONLY  # 7.16.2
    assert config.revote_order is RevoteOrder.REVERSE  # 7.18.2
    assert config.raise_2_of_4 is False  # 7.22.2
    assert config.raise_3_of_9 is True  # 7.23.1
    assert config.best_move is False  # 8.17.2
    assert config.last_word_on_decisive_event is False  # 8.19.2
    assert config.third_foul is ThirdFoul.NONE  # 9.5.3
    assert config.technical_fouls is True  # 9.6.2
    assert config.nomination_withdrawal is NominationWithdrawal.EXPLICIT  # 7.5.1

    game["rules"] = "1001201021010"
    config = import_record(game).config
    assert config.rotation is Rotation.LAST  # 6.3.2
    assert config.nomination_withdrawal is NominationWithdrawal.AUTO  # 7.5.2
    assert config.first_day_vote is FirstDayVote.NO_BREAK  # 7.16 no-break
    assert config.raise_whole_table is True  # 7.21.2
    assert (config.raise_3_of_9, config.raise_3_of_9_from_day) == (True, 3)  # 7.23 after1
    assert config.third_foul is ThirdFoul.SHORT_SPEECH  # 9.5.2
    assert config.technical_fouls is False  # 9.6.1

    game["rules"] = "0002300000000"
    config = import_record(game).config
    assert config.nomination_withdrawal is NominationWithdrawal.NONE  # 7.5.3
    assert config.first_day_vote is FirstDayVote.SELF_BREAK  # 7.16 self-break


def test_mafiaratings_record_without_a_code_plays_by_the_site_default() -> None:
    """include/game.php Game::get_rules: no code → DEFAULT_RULES (withdrawal 'no', 3 of 9 'no')."""
    game = mafiaratings_game()
    del game["rules"]
    imported = import_record(game)
    assert imported.config.nomination_withdrawal is NominationWithdrawal.NONE
    assert imported.config.raise_3_of_9 is False
    assert any("default" in note for note in imported.notes)


def test_upgrade_rules_code() -> None:
    """The site's upgrade_rules_code: a 14-character code loses its last option."""
    assert upgrade_rules_code("00000000000001") == "0000000000000"
    assert len(upgrade_rules_code("0" * 29)) == 13
    assert len(upgrade_rules_code("0" * 12)) == 13


@pytest.mark.parametrize(("path", "value", "field"), [
    (("players", 1, "death", "type"), "eaten", "players[1].death.type"),
    (("players", 1, "death", "time", "time"), "lunch", "players[1].death.time.time"),
    (("players", 4, "role"), "mayor", "players[4].role"),
    (("winner",), "both", "winner"),
    (("features",), "dutcvnwrZ", "features"),
    (("features",), "dut", "features"),
    (("players", 5, "role"), "maf", "players[].role"),  # four black cards (R1.1)
])
def test_mafiaratings_unknown_values_are_errors(path: tuple[Any, ...], value: Any, field: str) -> None:
    game = copy.deepcopy(mafiaratings_game())
    target: Any = game
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    with pytest.raises(RecordError) as error:
        import_record(game)
    assert error.value.field == field


def test_cli_exit_codes(tmp_path: Path) -> None:
    good = tmp_path / "good.json"
    good.write_text(json.dumps(mafiaratings_game()), encoding="utf-8")
    out = io.StringIO()
    assert run_replay_cli(str(good), False, out) == 0
    team_loss = [n for n in replay(mafiaratings_game()).notices if n.kind is rules.Kind.TEAM_LOSS]
    assert [n["seat"] for n in team_loss] == [2]  # seed 4.3: seat 2's team loses
    assert _announced(team_loss[0]) in out.getvalue()
    unknown = tmp_path / "unknown.json"
    game = mafiaratings_game()
    game["rules"] = "2000000000000"  # 6.3 rotation has two values (first, last)
    unknown.write_text(json.dumps(game), encoding="utf-8")
    out = io.StringIO()
    assert run_replay_cli(str(unknown), True, out) == 2
    assert json.loads(out.getvalue())["field"] == "rules[0]"
    broken = tmp_path / "broken.json"
    broken.write_text("{not json", encoding="utf-8")
    assert run_replay_cli(str(broken), False, io.StringIO()) == 2
    assert run_replay_cli(str(tmp_path / "missing.json"), False, io.StringIO()) == 2


# --- the command line: what it cannot read is exit 2, in the user's words ---------------------------

def _write(tmp_path: Path, name: str, record: Any) -> Path:
    path = tmp_path / name
    path.write_text(json.dumps(record), encoding="utf-8")
    return path


@pytest.mark.parametrize("section", ["votes", "shots", "checks", "players"])
def test_cli_a_null_section_is_unreadable_not_a_disagreement(tmp_path: Path, section: str) -> None:
    """``"votes": null`` is a malformed record (exit 2), not a game without votes that then
    disagrees with its own result (exit 1)."""
    game = polemica_game()
    game[section] = None
    path = _write(tmp_path, "null.json", game)
    out = io.StringIO()
    assert run_replay_cli(str(path), True, out) == 2
    assert json.loads(out.getvalue()) == {"error": "unreadable", "field": section, "file": str(path),
                                          "message": catalog("ru").text("replay-null-list")}


def test_cli_a_giant_list_is_unreadable(tmp_path: Path) -> None:
    game = polemica_game()
    game["votes"] = [{"day": 1, "num": 0, "voter": 4, "candidate": 1}] * 100_000
    path = _write(tmp_path, "giant.json", game)
    out = io.StringIO()
    assert run_replay_cli(str(path), False, out, lang="en") == 2
    assert out.getvalue().strip() == catalog("en").text(
        "replay-error", kind="unreadable", file=str(path), field=" votes:",
        message=catalog("en").text("replay-too-many", count="100000", limit="10000"))


def test_cli_json_nested_too_deep_is_unreadable(tmp_path: Path) -> None:
    path = tmp_path / "deep.json"
    path.write_text("[" * 200_000 + "]" * 200_000, encoding="utf-8")
    out = io.StringIO()
    assert run_replay_cli(str(path), False, out, lang="en") == 2
    assert out.getvalue().strip() == catalog("en").text(
        "replay-error", kind="unreadable", file=str(path), field="",
        message=catalog("en").text("replay-too-deep"))


def test_cli_a_file_over_the_size_limit_is_refused_before_reading(tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    from bot import replay_cli

    path = tmp_path / "huge.json"
    with open(path, "wb") as handle:  # sparse: 21 MB of nothing, never read
        handle.truncate(replay_cli.MAX_BYTES + 1024 * 1024)
    monkeypatch.setattr("builtins.open", _no_open(path))
    out = io.StringIO()
    assert run_replay_cli(str(path), False, out, lang="en") == 2
    assert str(path) in out.getvalue()
    assert catalog("en").text("replay-too-large", size="21", limit="20") in out.getvalue()


def _no_open(path: Path) -> Any:
    import builtins

    real = builtins.open

    def guarded(file: Any, *args: Any, **kwargs: Any) -> Any:
        assert Path(str(file)) != path, "the oversized file was opened"
        return real(file, *args, **kwargs)

    return guarded


def test_cli_the_unreadable_line_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "empty.json"
    path.write_text("", encoding="utf-8")
    out = io.StringIO()
    assert run_replay_cli(str(path), False, out) == 2
    line = out.getvalue().strip()
    assert line.startswith(catalog("ru").text("replay-error", kind="unreadable", file=str(path),
                                              field="", message="").strip().rstrip(":"))


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_cli_the_comparison_is_in_the_users_language(tmp_path: Path, lang: str) -> None:
    """The winner and the departures in the catalog's words (team-of-red, cause-*), never codes."""
    path = _write(tmp_path, "game.json", polemica_game())
    out = io.StringIO()
    assert run_replay_cli(str(path), False, out, lang=lang) == 0
    cat = catalog(lang)
    text = out.getvalue()
    assert cat.text("replay-winner", winner="team", team=cat.text("team-of-red")) in text
    assert cat.text("cause-kill") in text and cat.text("cause-vote") in text
    assert "1:vote@D1" not in text and "red," not in text


def test_cli_replay_lang_option_and_setting(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """``replay --lang en``; without it, MAFIA_REFEREE_LANG (like the other commands)."""
    from bot.cli import main

    monkeypatch.chdir(tmp_path)
    path = _write(tmp_path, "game.json", polemica_game())
    monkeypatch.setenv("MAFIA_REFEREE_LANG", "ru")
    assert main(["replay", str(path), "--lang", "en"]) == 0
    assert capsys.readouterr().out.rstrip().endswith(catalog("en").text("replay-agrees"))
    monkeypatch.setenv("MAFIA_REFEREE_LANG", "en")
    assert main(["replay", str(path)]) == 0
    assert capsys.readouterr().out.rstrip().endswith(catalog("en").text("replay-agrees"))
    monkeypatch.delenv("MAFIA_REFEREE_LANG")
    assert main(["replay", str(path)]) == 0
    assert capsys.readouterr().out.rstrip().endswith(catalog("ru").text("replay-agrees"))
