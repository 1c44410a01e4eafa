"""The judge's panel records who raised a hand (the game's ``record_voters`` option, issue 14):
the seats toggled with the count shown, the last nominee's hands still derived (F24 §4.4.8), the
raise vote by seat (§4.4.12.3); the protocol's vote cells then name the voters and the
MafiaRatings export, which records each player's vote, is possible. Counts stay the default.

Driven as the judge drives it: each press is a button of the rendered panel, decoded, and either
a view (another face of the panel) or a game event applied by the engine."""

from __future__ import annotations

import pytest

import rules
from bot.commands import parse
from bot.i18n import catalog
from bot.judge import panel as pn
from bot.judge.callbacks import decode
from bot.protocol import read_game, to_mafiaratings
from rules import Phase

CAT = catalog("ru")
PRESETS = sorted(rules.PRESETS)


class Judge:
    """One game at the panel: the log, the state, the view shown."""

    def __init__(self, preset: str, **options: object) -> None:
        config = rules.PRESETS[preset].with_options(record_voters=True, **options)
        self.state = rules.new_game(config)
        self.log: list[rules.Event] = []
        self.view: pn.Press | None = None  # type: ignore[name-defined]
        for event in (rules.SetRoles(pn.roles_event([2, 5, 7, 8]).roles), rules.StartGame(), rules.Next()):
            self.apply(event)

    def apply(self, event: rules.Event) -> None:
        self.state, _ = rules.apply(self.state, event)
        self.log.append(event)
        self.view = None

    def panel(self) -> pn.Panel:
        return pn.render_panel(self.state, 1, len(self.log), CAT, self.view)

    def press(self, label: str) -> None:
        button = next((b for b in self.panel().buttons if b.label == label), None)
        assert button is not None, f"no {label!r} in {[b.label for b in self.panel().buttons]}"
        press = decode(button.data)
        assert press is not None
        if pn.is_view(press):
            self.view = press
        else:
            self.apply(pn.event_for(self.state, press))

    def hands(self, *seats: int) -> None:
        """Toggle ``seats`` and accept: the count shown follows."""
        for n, seat in enumerate(seats, 1):
            self.press(str(seat))
            assert f"Рук: {n}" in self.panel().text
        self.press(f"Принято: {len(seats)} ✓")

    def typed(self, line: str) -> None:
        command = parse(line, self.state)
        self.apply(command.event)  # type: ignore[union-attr]


def nominate_on_day_one(j: Judge, *pairs: tuple[int, int]) -> None:
    """Day 1's speeches, ``by`` nominating ``target``."""
    wanted = dict(pairs)
    while j.state.phase is Phase.SPEECH:
        speaker = j.state.speaker
        if speaker in wanted:
            j.typed(f"/nominate {speaker} {wanted.pop(speaker)}")
        j.typed("/next")


@pytest.mark.parametrize("preset", PRESETS)
def test_the_hands_by_seat_and_the_last_nominees_derived(preset: str) -> None:
    j = Judge(preset)
    nominate_on_day_one(j, (1, 3), (4, 6), (9, 10))
    assert j.state.phase is Phase.VOTING
    assert "Кто голосует против игрока №3?" in j.panel().text
    j.hands(1, 2)
    # seed 4.1.8: one hand a round — the seats already raised are inert now
    shown = [b.label for b in j.panel().buttons][:10]
    assert shown[0] == shown[1] == CAT.text("judge-seat-gone") and shown[2] == "3"
    j.hands(4, 5, 6)  # against #6; the other five go to #10 by themselves (F24 §4.4.8)
    record = read_game(j.state.config, {}, j.log)
    voters = record.days[0].rounds[0].voters
    assert voters == {3: (1, 2), 6: (4, 5, 6), 10: (3, 7, 8, 9, 10)}
    assert [s for s, d in j.state.departures()] == [10]  # five hands: #10 leaves


@pytest.mark.parametrize("preset", PRESETS)
def test_a_toggle_takes_a_hand_back_and_none_is_zero(preset: str) -> None:
    j = Judge(preset)
    nominate_on_day_one(j, (1, 3), (4, 6))
    j.press("5")
    j.press("7")
    j.press(CAT.text("judge-seat-picked", n=5))  # taken back
    assert "Рук: 1" in j.panel().text
    j.press(CAT.text("judge-seat-picked", n=7))  # taken back too: nobody
    j.press("Принято: 0 ✓")
    assert read_game(j.state.config, {}, j.log).days[0].rounds[0].voters[3] == ()


@pytest.mark.parametrize("preset", PRESETS)
def test_the_raise_vote_by_seat_and_the_export_has_every_voter(preset: str) -> None:
    """A tie twice, then the raise vote by seat (F24 §4.4.12.3: more than half of the ten)."""
    j = Judge(preset)
    nominate_on_day_one(j, (1, 3), (4, 6))
    j.hands(1, 2, 3, 4, 5)  # five against #3, the other five go to #6: a tie
    while j.state.phase is Phase.TIE_SPEECH:
        j.typed("/next")
    j.hands(1, 2, 3, 4, 5)  # the same tie again
    assert j.state.phase is Phase.RAISE_VOTE
    assert "(нужно 6)" in j.panel().text
    j.hands(1, 2, 4, 5, 7, 9)
    assert sorted(s for s, d in j.state.departures()) == [3, 6]
    raised = read_game(j.state.config, {}, j.log).days[0].raise_vote
    assert raised is not None and raised.voters == (1, 2, 4, 5, 7, 9)
    # the rest of the game by typed commands, the hands by seat, to the end: the export takes it
    while j.state.phase is not Phase.GAME_OVER:
        step = rules.expected(j.state)
        if isinstance(step, rules.Shooting):
            j.typed(f"/kill {next(s for s in j.state.at_table if j.state.team_of(s) is rules.Team.RED)}")
        elif isinstance(step, rules.Voting):
            j.hands(*[s for s in j.state.at_table if rules.can_vote(j.state, s) is None])
        elif isinstance(step, rules.RaiseVoting):
            j.hands()
        elif isinstance(step, rules.Speech) and not j.state.nominations:
            j.typed(f"/nominate {j.state.speaker} {next(s for s in j.state.at_table if s != j.state.speaker)}")
        else:
            j.typed("/next")
    exported = to_mafiaratings(j.state.config, {}, j.log)  # refused for a count (votes_by_count)
    players = exported["players"]
    # day 1: each seat's hand in both rounds, then its raise-vote answer
    assert players[0]["voting"][0] == [3, 3, True] and players[5]["voting"][0] == [6, 6, False]


def test_counts_stay_the_default() -> None:
    state = rules.new_game(rules.PRESETS["seed"])
    assert not state.config.record_voters
    assert "record_voters" not in rules.changed_options(state.config)
    config = parse("/new fiim2024 record_voters=yes", None).config()  # type: ignore[union-attr]
    assert config.record_voters and rules.changed_options(config) == {"record_voters": True}


def test_recording_voters_is_no_rule_mafiaratings_lacks() -> None:
    from bot.protocol.export import rules_code
    plain = rules_code(rules.PRESETS["fiim2024"])
    assert rules_code(rules.PRESETS["fiim2024"].with_options(record_voters=True)) == plain
