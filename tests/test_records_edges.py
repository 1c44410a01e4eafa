"""Issue 35, item 5: the importers on what real platforms add. A Polemica record whose ``config``
carries ``isLive`` (and other platform flags: how the platform shows or counts a game, no rule)
replays, the flag noted; an unknown rule option stays an error. The Polemica envelope's
cross-check finds each player's seat in ``tablePosition`` (its ``position`` there being something
else). A MafiaRatings draw whose last quiet rounds leave no trace in the record is replayed
through them to its draw (F24 §7.7)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from rules.records import RecordError, import_record, replay

from test_records import envelope, mafiaratings_game, polemica_game


@pytest.mark.parametrize("flags", [{"isLive": True}, {"isLive": False, "isRated": True, "hasStream": False}])
def test_a_polemica_record_with_platform_flags_replays(flags: dict[str, Any]) -> None:
    plain = replay(polemica_game())
    game = polemica_game()
    game["config"] = {"lift3From9": True, "scoringType": 1, **flags}
    report = replay(game)
    assert report.agrees, report.differences
    assert report.report == plain.report
    for key in flags:
        assert any(note.startswith(f"config.{key}:") for note in report.notes), report.notes
    wrapped = envelope(game, [1, 4, 2, 5, 3])  # inside the API's envelope too
    assert replay(wrapped).agrees


@pytest.mark.parametrize("config", [{"isLive": True, "lift2From4": False}, {"isRanked": 1},
                                    {"liveMode": True}])
def test_an_unknown_rule_option_beside_them_is_still_an_error(config: dict[str, Any]) -> None:
    """Only a true-or-false ``is…``/``has…`` flag carries no rule; anything else unknown is named."""
    game = polemica_game()
    game["config"] = config
    with pytest.raises(RecordError) as error:
        import_record(game)
    assert error.value.field.startswith("config.") and error.value.field != "config.isLive"


def test_the_envelope_reads_each_seat_from_table_position() -> None:
    """The API's envelope names a player's seat ``tablePosition``; its ``position`` is another
    number (here: the standings' place, shuffled). The cards and the leaving order are compared
    seat by seat, so the envelope agrees; a card that does differ is still a difference."""
    game = polemica_game()
    wrapped = envelope(game, [1, 4, 2, 5, 3])
    places = list(range(1, 11))
    random.Random(5).shuffle(places)
    for person, place in zip(wrapped["players"], places):
        person["tablePosition"] = person["position"]
        person["position"] = place
    report = replay(wrapped)
    assert report.agrees, report.differences
    wrapped["players"][6]["role"] = 0  # seat 7 dealt the Don by the envelope
    assert any(d.startswith("players[6].role") and "seat 7" in d for d in replay(wrapped).differences)


def test_a_mafiaratings_draw_after_quiet_rounds_without_trace_replays_to_the_draw() -> None:
    """Nobody leaves after night 1's kill; the site records nothing of the quiet rounds after it
    (no nominations, no votes, misses), only the result: a draw. The replay plays on through the
    quiet rounds and the engine declares the draw after the third quiet night (F24 §7.7)."""
    game = mafiaratings_game()
    del game["players"][1]["death"]
    game["players"][4]["death"] = {"round": 1, "type": "night"}
    game["winner"] = "tie"
    report = replay(game)
    assert report.agrees, report.differences
    assert report.report["winner"] == "draw"
    assert report.report["departures"] == [{"seat": 5, "day": 1, "phase": "night", "cause": "kill"}]
    # the same record with another result is not bent to it: the replay disagrees
    game["winner"] = "civ"
    assert not replay(game).agrees
