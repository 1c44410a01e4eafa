"""What the table is told does not depend on the hidden roles (F24 §4.4.13, seed 5.4).

Two games of one preset are dealt different roles and played by the same judge's actions
(random plausible games, the same generator as tests/test_properties.py). Until either game has
a result, the table must read the same in both: the public notices of every action, word for
word, and the public status — by wording, count and order nothing it reads may tell one deal
from the other. An action only one of the two deals accepts (the blacks' shots: the shooters
are the deal's) is left out of both, as a judge would record the shots his table took. Now and
then the judge undoes his last actions: what the table is told of the undo is the same too.
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rules
from bot.i18n import catalog
from bot.judge.routing import undo_texts
from bot.render import notice_text, status_text
from rules import DeclareResult, Event, GameState, Notice, RuleError, SetRoles
from test_properties import PRESET_NAMES, ROLE_DECK, STYLES, plausible_event

RU = catalog("ru")
STEPS = 200  # actions a game: most games reach their result


def _told(notices: list[Notice]) -> list[str]:
    """What the table reads of one action: its public notices' words."""
    return [text for text in (notice_text(n, RU) for n in notices if not n.private) if text]


def _apply(state: GameState, event: Event) -> tuple[GameState, list[Notice]] | None:
    try:
        return rules.apply(state, event)
    except RuleError:
        return None


def _over(state: GameState) -> bool:
    return state.result is not None or state.phase is rules.Phase.GAME_OVER


@settings(max_examples=60, deadline=None, database=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data(), preset=st.sampled_from(PRESET_NAMES))
def test_what_the_table_is_told_does_not_depend_on_the_roles(data: st.DataObject, preset: str) -> None:
    config = rules.PRESETS[preset]
    deals = [tuple(data.draw(st.permutations(ROLE_DECK), label=f"deal {n}")) for n in (1, 2)]
    games = [rules.apply(rules.new_game(config), SetRoles(roles=deal))[0] for deal in deals]
    style = data.draw(STYLES, label="style")

    def draw(strategy: Any, label: str | None = None) -> Any:
        return data.draw(strategy, label=label)

    events: list[Event] = []  # the actions both games took, oldest first
    before: list[list[GameState]] = [[], []]  # each game's state before each of them
    for _ in range(STEPS):
        if any(_over(game) for game in games):
            break
        if events and data.draw(st.integers(0, 7), label="undo?") == 0:
            steps = data.draw(st.integers(1, min(3, len(events))), label="undo steps")
            undone = events[len(events) - steps:][::-1]  # newest first, as an undo lists them
            restored = [states[len(states) - steps] for states in before]
            told = [undo_texts(state, undone, RU, RU)[1] for state in restored]
            assert told[0] == told[1], (undone, deals)
            games, events = restored, events[:len(events) - steps]
            before = [states[:len(states) - steps] for states in before]
            continue
        event = plausible_event(draw, games[0], style)
        if isinstance(event, (SetRoles, DeclareResult)):  # a deal of its own; a judge's verdict
            continue
        applied = [_apply(game, event) for game in games]
        if any(result is None for result in applied):  # refused by either: left out of both
            continue
        (first, said_first), (second, said_second) = applied  # type: ignore[misc]
        if any(_over(game) for game in (first, second)):
            break  # the result: the roles are revealed then (F24 §1.4)
        assert _told(said_first) == _told(said_second), (event, deals)
        assert status_text(first, RU, for_judge=False) == status_text(second, RU, for_judge=False), \
            (event, deals)
        for states, game in zip(before, games):
            states.append(game)
        events.append(event)
        games = [first, second]
