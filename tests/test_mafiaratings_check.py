"""MafiaRatings' own validity check (include/game.php ``Game::check``, as
:func:`rules.records.mafiaratings_check.site_issues`): the site's stored games pass it, our export
of a game passes it, and each kind of flaw the site looks for is found, in the site's words."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

import rules
from bot.protocol import to_mafiaratings
from rules.records.mafiaratings_check import gametime_problem, site_issues

SHARED = Path(__file__).resolve().parents[1].parent / "shared" / "games" / "mafiaratings"


def _game() -> dict[str, Any]:
    """A short complete game (mafia 1 and 2, Don 3, Sheriff 10) played through the engine and
    exported: D1 #4→1, #5→2, #1 out by 6 hands; N1 #4 killed, checks, best move; D2 #5→2, #6→3,
    #2 out; N2 #5 killed; D3 #6→3, #3 out → red."""
    config = rules.PRESETS["fiim2024"]
    state = rules.new_game(config)
    events: list[rules.Event] = []

    def do(event: rules.Event) -> None:
        nonlocal state
        state, _ = rules.apply(state, event)
        events.append(event)

    plan = {1: {4: 1, 5: 2}, 2: {5: 2, 6: 3}, 3: {6: 3}}
    hands = {1: {1: (2, 3, 4, 5, 6, 7)}, 2: {2: (5, 6, 7, 8, 9)}, 3: {}}
    nights = {1: [rules.Shots(shots=((2, 4), (3, 4))), rules.DonCheck(target=10),
                  rules.SheriffCheck(target=2), rules.BestMove(guesses=(2, 3, 5))],
              2: [rules.Shots(shots=((3, 5),)), rules.Next(), rules.Next()]}
    do(rules.SetRoles(roles=("mafia", "mafia", "don", *("civilian",) * 6, "sheriff")))
    do(rules.StartGame())
    do(rules.Next())
    while state.phase is not rules.Phase.GAME_OVER:
        action = rules.next_action(state)
        if action.kind == "speech":
            target = plan.get(state.day, {}).get(action.params["seat"])
            if target is not None:
                do(rules.Nominate(by=action.params["seat"], target=target))
            do(rules.Next())
        elif action.kind == "vote":
            voters = hands[state.day].get(action.params["nominee"], ())
            do(rules.Vote(nominee=action.params["nominee"], count=len(voters), voters=voters))
        elif action.kind == "shooting":
            for event in nights[state.day]:
                do(event)
        else:
            do(rules.Next())
    return to_mafiaratings(config, {}, events)


@pytest.fixture()
def game() -> dict[str, Any]:
    return copy.deepcopy(GAME)


GAME = _game()


def test_our_export_passes() -> None:
    assert GAME["winner"] == "civ"
    assert site_issues(GAME) == []


@pytest.mark.skipif(not SHARED.is_dir(), reason=f"the real records ({SHARED}) are not present")
@pytest.mark.parametrize("name", ["1", "4872", "4873", "4874", "4875"])
def test_the_sites_own_games_pass(name: str) -> None:
    assert site_issues(json.loads((SHARED / f"{name}.json").read_text("utf-8"))) == []


def _has(issues: list[str], text: str) -> bool:
    return any(text in issue for issue in issues)


def test_a_living_player_who_did_not_vote(game: dict[str, Any]) -> None:
    game["players"][9]["voting"][1] = None  # #10 cast no vote on day 2 (round 1)
    assert _has(site_issues(game), "Player 10 did not vote in round 1")


def test_a_vote_against_a_player_not_nominated(game: dict[str, Any]) -> None:
    game["players"][6]["voting"][1] = 8
    assert _has(site_issues(game), "Player 7 voted for player 8, who is not nominated in round 1")


def test_a_red_player_who_shoots(game: dict[str, Any]) -> None:
    game["players"][6]["shooting"] = [4]
    assert _has(site_issues(game), "Player 7 can not shoot because he/she is red")


def test_a_black_alive_at_the_shooting_who_did_not_shoot_the_victim(game: dict[str, Any]) -> None:
    game["players"][2]["shooting"] = [6]  # the Don shot #6, #4 was killed
    assert _has(site_issues(game), "Wrong shooting to player 4 in round 1 for player 3")


def test_a_legacy_of_a_player_voted_out(game: dict[str, Any]) -> None:
    game["players"][0]["legacy"] = [2, 3, 5]
    assert _has(site_issues(game), "Player 1 was not killed in night")


def test_nominating_after_death_and_a_dead_nominee(game: dict[str, Any]) -> None:
    game["players"][0]["nominating"] = [None, None, 5]  # #1 left on day 1 (round 0)
    game["players"][5]["nominating"][2] = 4  # #4 was killed in night 1
    issues = site_issues(game)
    assert _has(issues, "Player 1 is nominating someone after he/she is dead")
    assert _has(issues, "Player 6 nominated dead player 4 in round 2")


def test_a_player_voted_out_who_did_not_win_the_vote(game: dict[str, Any]) -> None:
    game["players"][1]["death"] = {"round": 0, "type": "day"}  # #2 'voted out' on day 1
    assert _has(site_issues(game), "Player 2 is specified as voted out in round 0")


def test_a_warning_at_a_malformed_game_time(game: dict[str, Any]) -> None:
    game["players"][7]["warnings"] = [{"round": 1, "time": "voting kill all"}]
    assert _has(site_issues(game), "Player 8 warning 1 is incorect: votingRound must be set.")
    game["players"][7]["warnings"] = [{"round": 1, "time": "voting kill all", "votingRound": 1}]
    assert site_issues(game) == []


def test_the_game_times_the_site_accepts() -> None:
    assert gametime_problem({"round": 0, "time": "speaking", "speaker": 3}) is None
    assert gametime_problem({"round": 1, "time": "voting", "votingRound": 0, "nominee": 7}) is None
    assert gametime_problem({"round": 2, "time": "night kill speaking"}) is None
    assert gametime_problem({"round": 0, "time": "speaking"}) is not None
    assert gametime_problem({"time": "shooting"}) == "round must be set."
    assert gametime_problem({"round": 1, "time": "lunch"}) is not None


def test_the_cards() -> None:
    game = copy.deepcopy(GAME)
    game["players"][4]["role"] = "maf"
    assert _has(site_issues(game), "This game has 3 mafs. Must be 2.")
    with pytest.raises(ValueError):
        site_issues({"players": []})
