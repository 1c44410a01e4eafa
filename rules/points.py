"""Points (баллы) of a finished game: what each player earns for the tournament rating.

Pure functions of a game over and its preset (docs/rules.md §8.7):

* :func:`game_points` — every seat's points, part by part (:class:`SeatPoints`), or ``None`` while the
  game goes on or with the roles unknown (the points follow from the teams);
* :func:`check_extra` — may the judge give a seat these extra points (F24/S24 §8.4), or why not
  (the limit named);
* :func:`check_bad_play` — may the judge give a seat the penalty points of this listed bad play
  (F24/S24 §8.5), or why not;
* :data:`SCORING` — each preset's numbers (:class:`Scoring`).

The seed says nothing of points, so its preset scores as FIIM 2024 (docs/rules.md §1: where the
seed is silent, FIIM 2024). Points are :class:`~decimal.Decimal` values with two decimals at most.

The automatic part follows from the record alone: the win (F24/S24 §8.2.1–8.2.3), a
disqualification (§8.2.4) and a team loss (§8.2.5), the best move of the first night's victim
(§8.3.4) and, in FIIM 2024, the automatic bonus of a player with no destructive play (F24
§8.4.8). The judge's part is given after the result, by events the log keeps
(:class:`rules.Extra`, :class:`rules.BadPlay`): extra points within the preset's limits (§8.4)
and penalty points for the listed bad plays (§8.5). The first-night victim's compensation (§8.6)
needs the player's statistics over a series of games: it is not computed here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from typing import Literal

from .errors import Code, RuleError
from .state import GameState, Phase, Role, Team

ZERO = Decimal(0)


def hundredths(n: int) -> Decimal:
    """``n`` hundredths of a point: ``hundredths(70)`` is 0.70."""
    return Decimal(n) / 100


def show(points: Decimal) -> str:
    """Points as text, without needless zeros: ``0.5``, ``-0.25``, ``1``."""
    text = format(points.normalize(), "f")
    return "0" if text in ("-0", "0") else text


def parse_points(value: object) -> Decimal:
    """A number of points as the judge gives it (``"0.4"``, ``"0,4"``, ``0.4``): a
    :class:`Decimal` with at most two decimals, zero or more. Raises ``RuleError(BAD_POINTS)``."""
    text = str(value).strip().replace(",", ".")
    try:
        points = Decimal(text)
    except InvalidOperation:
        raise RuleError(Code.BAD_POINTS, value=str(value)[:20]) from None
    if not points.is_finite() or points < 0 or points != points.quantize(hundredths(1)):
        raise RuleError(Code.BAD_POINTS, value=str(value)[:20])
    return points.quantize(hundredths(1))


Who = Literal["any", "red", "black", "sheriff"]


@dataclass(frozen=True)
class BadPlayItem:
    """A listed bad play (F24/S24 §8.5): its number in the preset's rules, who can commit it
    (``red``: a red player or the Sheriff; ``sheriff``; ``black``: a mafia or the Don; ``any``)
    and whether its text makes the player's team's loss part of it (``lost``: "…, and the reds
    lost", "…, and lost": in a game his team won or drew its premise is false)."""

    code: str
    who: Who
    lost: bool = False


@dataclass(frozen=True)
class Scoring:
    """A preset's points (F24 §8 / S24 §8). Extras are the judge's extra points (§8.4):
    ``extra_players`` players at most (``extra_players_approved`` with the chief judge's
    approval), ``extra_total`` at most in all (``extra_total_approved``), a winner's values
    ``winner_values`` (more with approval: ``winner_values_approved``), a loser's
    ``loser_values``. ``best_move_in_limit``: extras that outweigh a best move still count in
    the total (F24 §8.4.6) or not (S24 §8.4.6)."""

    rules: str  # "fiim2024" | "fsm2024": whose rules (F24 §8 or S24 §8) these are
    win: Decimal
    disqualification: Decimal
    team_loss: Decimal
    best_move: dict[int, Decimal]  # blacks named → points
    extra_players: int
    extra_players_approved: int
    extra_total: Decimal
    extra_total_approved: Decimal
    winner_values: tuple[Decimal, ...]
    winner_values_approved: tuple[Decimal, ...]
    loser_values: tuple[Decimal, ...]
    best_move_in_limit: bool
    auto_bonus: Decimal  # F24 §8.4.8; zero: none
    bad_play: Decimal
    bad_plays: tuple[BadPlayItem, ...] = field(default=())

    def item(self, code: str) -> BadPlayItem | None:
        return next((i for i in self.bad_plays if i.code == code), None)


def _steps(low: int, high: int) -> tuple[Decimal, ...]:
    """Tenths from ``low`` to ``high`` hundredths, inclusive."""
    return tuple(hundredths(n) for n in range(low, high + 1, 10))


# F24 §8.5: the bad plays as the edition numbers them (its items 1–13, with the sub-items of 13).
_F24_BAD_PLAYS = (
    BadPlayItem("8.5.1", "any"),  # two or more destructive plays
    BadPlayItem("8.5.2", "red", lost=True),  # broke the day-1 vote into a red (or himself), and lost
    BadPlayItem("8.5.3", "red"),  # broke the vote into a red at four players
    BadPlayItem("8.5.4", "red"),  # voted against three or more red "testaments"
    BadPlayItem("8.5.5", "red"),  # voted at 3 v 3 without playing out two Sheriffs' checks
    BadPlayItem("8.5.6", "black", lost=True),  # owned up at four players, and lost
    BadPlayItem("8.5.7", "any", lost=True),  # voted himself out by accident, and his team lost
    BadPlayItem("8.5.8", "red"),  # split the vote twice at three players
    BadPlayItem("8.5.9", "red"),  # voted at 2 v 2 or 3 v 3 against a sure red's call
    BadPlayItem("8.5.10", "red", lost=True),  # a red who claimed the Sheriff and left it standing, and lost
    BadPlayItem("8.5.11", "sheriff", lost=True),  # the Sheriff who never revealed himself, and lost
    BadPlayItem("8.5.12", "sheriff", lost=True),  # the Sheriff's checks left wrong or incomplete, and lost
    BadPlayItem("8.5.13.1", "black", lost=True),  # a black asleep at the договорка, and lost
    BadPlayItem("8.5.13.2", "sheriff", lost=True),  # no check for two or more nights, and lost
    BadPlayItem("8.5.13.3", "sheriff", lost=True),  # no check when any check won the game, and lost
    BadPlayItem("8.5.13.4", "black", lost=True),  # no shot for two or more nights, and lost
    BadPlayItem("8.5.13.5", "black", lost=True),  # missed the obvious winning shot, and lost
)

# S24 §8.5: its items 1–11 (item 6 only heads items 7–11).
_S24_BAD_PLAYS = (
    BadPlayItem("8.5.1", "red", lost=True),  # broke the day-1 vote into a red (or himself), and lost
    BadPlayItem("8.5.2", "red"),  # broke the vote into a red at four players
    BadPlayItem("8.5.3", "red", lost=True),  # a red who claimed the Sheriff and left it standing, and lost
    BadPlayItem("8.5.4", "sheriff", lost=True),  # the Sheriff who never revealed himself, and lost
    BadPlayItem("8.5.5", "sheriff", lost=True),  # the Sheriff's checks left wrong or incomplete, and lost
    BadPlayItem("8.5.7", "black", lost=True),  # a black asleep at the договорка, and lost
    BadPlayItem("8.5.8", "sheriff", lost=True),  # no check for two or more nights, and lost
    BadPlayItem("8.5.9", "sheriff", lost=True),  # no check when any check won the game, and lost
    BadPlayItem("8.5.10", "black", lost=True),  # no shot for two or more nights, and lost
    BadPlayItem("8.5.11", "black", lost=True),  # missed the obvious winning shot, and lost
)

FIIM_2024 = Scoring(
    rules="fiim2024",
    win=Decimal(1),  # F24 §8.2.1–8.2.3
    disqualification=-hundredths(50),  # F24 §8.2.4
    team_loss=-hundredths(70),  # F24 §8.2.5
    best_move={3: hundredths(70), 2: hundredths(50)},  # F24 §8.3.4
    extra_players=5, extra_players_approved=6,  # F24 §8.4.1
    extra_total=hundredths(280), extra_total_approved=hundredths(300),  # F24 §8.4.2
    winner_values=_steps(30, 100),  # F24 §8.4.3: 0.3 to 1
    winner_values_approved=(*_steps(30, 100), hundredths(130), hundredths(150)),  # and 1.3, 1.5
    loser_values=_steps(20, 70),  # F24 §8.4.4
    best_move_in_limit=True,  # F24 §8.4.6
    auto_bonus=hundredths(30),  # F24 §8.4.8
    bad_play=-hundredths(50),  # F24 §8.5
    bad_plays=_F24_BAD_PLAYS,
)

FSM_2024 = Scoring(
    rules="fsm2024",
    win=Decimal(1),  # S24 §8.2.1–8.2.3
    disqualification=-hundredths(50),  # S24 §8.2.4
    team_loss=-Decimal(1),  # S24 §8.2.5
    best_move={3: hundredths(50), 2: hundredths(25)},  # S24 §8.3.4
    extra_players=4, extra_players_approved=5,  # S24 §8.4.1
    extra_total=hundredths(120), extra_total_approved=hundredths(120),  # S24 §8.4.2
    winner_values=_steps(10, 50),  # S24 §8.4.3
    winner_values_approved=_steps(10, 70),  # 0.6 and 0.7 with the chief judge's approval
    loser_values=_steps(10, 40),  # S24 §8.4.4
    best_move_in_limit=False,  # S24 §8.4.6
    auto_bonus=ZERO,  # FSM has no automatic bonus
    bad_play=-hundredths(40),  # S24 §8.5
    bad_plays=_S24_BAD_PLAYS,
)

#: Each preset's points; the seed's are FIIM 2024's (the seed has no points).
SCORING: dict[str, Scoring] = {"seed": FIIM_2024, "fiim2024": FIIM_2024, "fsm2024": FSM_2024}


def scoring(state: GameState) -> Scoring:
    return SCORING[state.config.preset]


@dataclass(frozen=True)
class SeatPoints:
    """One seat's points, part by part (F24/S24 §8). ``extra`` is the judge's (§8.4) and
    ``best_move`` the best move's (§8.3.4) before they exclude each other (§8.4.6):
    ``extra_counts`` says which one counts. ``bad_plays`` are the items given (§8.5)."""

    seat: int
    win: Decimal = ZERO
    best_move: Decimal = ZERO
    extra: Decimal = ZERO
    extra_counts: bool = True  # False: the best move outweighs the judge's extra (F24/S24 §8.4.6)
    auto_bonus: Decimal = ZERO
    disqualification: Decimal = ZERO
    team_loss: Decimal = ZERO
    bad_play: Decimal = ZERO
    bad_plays: tuple[str, ...] = ()

    @property
    def additional(self) -> Decimal:
        """The additional points (доп. баллы): everything but the win — the sum the rating's
        first tie-break compares (F24/S24 §8.7.1)."""
        chosen = self.extra if self.extra_counts else self.best_move
        return (chosen + self.auto_bonus + self.disqualification + self.team_loss
                + self.bad_play)

    @property
    def total(self) -> Decimal:
        return self.win + self.additional


def _winner(state: GameState) -> Team | None:
    result = state.result
    return result.winner if result is not None else None


def best_move_points(state: GameState) -> tuple[int, Decimal] | None:
    """The first night's victim and what his best move earns (F24/S24 §8.3.4: two or three
    blacks named, by a red player or the Sheriff), or ``None`` when it earns nothing."""
    night = next((n for n in state.nights if n.number == 1), None)
    if night is None or night.killed is None or not night.best_move:
        return None
    victim = night.killed
    if state.team_of(victim) is not Team.RED:
        return None
    hits = sum(1 for g in night.best_move if state.team_of(g) is Team.BLACK)
    earned = scoring(state).best_move.get(hits)
    return (victim, earned) if earned else None


def _team_loss_seat(state: GameState) -> int | None:
    return state.team_loss_by


def game_points(state: GameState) -> dict[int, SeatPoints] | None:
    """Every seat's points once the game is over (F24/S24 §8.2–8.5), or ``None`` before the end
    or with the roles unknown."""
    if state.phase is not Phase.GAME_OVER or not state.roles_known or state.result is None:
        return None
    score = scoring(state)
    winner = _winner(state)
    best = best_move_points(state)
    loser_by_loss = _team_loss_seat(state)
    out: dict[int, SeatPoints] = {}
    for seat in state.seats:
        n = seat.number
        team = seat.role.team if seat.role is not None else None
        win = score.win if winner is not None and team is winner else ZERO
        best_move = best[1] if best is not None and best[0] == n else ZERO
        extra = state.extras.get(n, ZERO)
        items = tuple(state.bad_plays.get(n, ()))
        disqualified = score.disqualification if seat.disqualified else ZERO
        team_loss = score.team_loss if loser_by_loss == n else ZERO
        destructive = bool(disqualified or team_loss or items)
        auto = score.auto_bonus if score.auto_bonus and not destructive else ZERO
        out[n] = SeatPoints(
            seat=n, win=win, best_move=best_move, extra=extra,
            extra_counts=extra > best_move or not best_move,
            auto_bonus=auto, disqualification=disqualified, team_loss=team_loss,
            bad_play=score.bad_play * len(items), bad_plays=items)
    return out


def _counted_extras(state: GameState, extras: dict[int, Decimal]) -> dict[int, Decimal]:
    """The judge's extras that count in his limits (F24/S24 §8.4.1–8.4.2, §8.4.6): an extra
    outweighed by its player's best move does not count; FSM 2024 leaves out an extra that
    outweighs it too."""
    score = scoring(state)
    best = best_move_points(state)
    out = {}
    for seat, value in extras.items():
        if value <= 0:
            continue
        if best is not None and best[0] == seat and (value <= best[1] or not score.best_move_in_limit):
            continue
        out[seat] = value
    return out


def _range(values: tuple[Decimal, ...]) -> str:
    """``0.3–1`` (a run of tenths), then any values past it: ``0.3–1, 1.3, 1.5``."""
    end = 0
    while end + 1 < len(values) and values[end + 1] - values[end] == hundredths(10):
        end += 1
    run = show(values[0]) if end == 0 else f"{show(values[0])}–{show(values[end])}"
    return ", ".join([run, *map(show, values[end + 1:])])


def check_extra(state: GameState, seat: int, value: Decimal, approved: bool = False) -> RuleError | None:
    """May the judge give ``seat`` an extra of ``value`` (zero takes it back), ``approved``
    by the chief judge where the rules allow more with his approval? ``None`` if so, else the
    :class:`RuleError` naming the limit (F24/S24 §8.4; each also carries ``rules``, the preset,
    so that its words cite the preset's numbers):

    * ``WRONG_PHASE`` before the end, ``ROLES_UNKNOWN`` with the roles unknown;
    * ``EXTRA_IN_DRAW`` after a draw (§8.4.7);
    * ``EXTRA_VALUE`` (``seat``, ``value``, ``side``: ``winners`` | ``losers``, ``allowed``,
      ``approvable``: the chief judge's approval would allow it — a winner's value above the
      range, never one below it): not one of the values for the seat's side (§8.4.3–8.4.4);
    * ``EXTRA_PLAYERS`` (``count``, ``limit``): too many players given extras (§8.4.1);
    * ``EXTRA_TOTAL`` (``total``, ``limit``): too much in all (§8.4.2)."""
    if state.phase is not Phase.GAME_OVER:
        return RuleError(Code.WRONG_PHASE, event="extra", phase=state.phase.value)
    if not state.roles_known:
        return RuleError(Code.ROLES_UNKNOWN)
    if value == 0:
        return None
    winner = _winner(state)
    if winner is None:
        return RuleError(Code.EXTRA_IN_DRAW, rules=state.config.preset)
    score = scoring(state)
    side = "winners" if state.team_of(seat) is winner else "losers"
    allowed = (score.loser_values if side == "losers"
               else score.winner_values_approved if approved else score.winner_values)
    if value not in allowed:
        approvable = side == "winners" and not approved and value in score.winner_values_approved
        return RuleError(Code.EXTRA_VALUE, seat=seat, value=show(value), side=side,
                         allowed=_range(allowed), approvable=approvable, rules=state.config.preset)
    extras = {**state.extras, seat: value}
    counted = _counted_extras(state, extras)
    players = score.extra_players_approved if approved else score.extra_players
    if len(counted) > players:
        return RuleError(Code.EXTRA_PLAYERS, count=len(counted), limit=players,
                         rules=state.config.preset)
    total = sum(counted.values(), ZERO)
    limit = score.extra_total_approved if approved else score.extra_total
    if total > limit:
        return RuleError(Code.EXTRA_TOTAL, total=show(total), limit=show(limit),
                         rules=state.config.preset)
    return None


def check_bad_play(state: GameState, seat: int, code: str, withdraw: bool = False) -> RuleError | None:
    """May the judge give ``seat`` the penalty points of bad play ``code`` (the preset's own
    number in F24/S24 §8.5), or take them back (``withdraw``)? ``None`` if so, else why:
    ``WRONG_PHASE`` before the end, ``ROLES_UNKNOWN``, ``UNKNOWN_BAD_PLAY`` (``item``),
    ``BAD_PLAY_ROLE`` (``seat``, ``item``, ``who``: the item is for another role),
    ``BAD_PLAY_GIVEN`` (the same item twice: the same play is not added up, F24 §8.5.1),
    ``BAD_PLAY_NOT_GIVEN`` (nothing to take back)."""
    if state.phase is not Phase.GAME_OVER:
        return RuleError(Code.WRONG_PHASE, event="bad_play", phase=state.phase.value)
    if not state.roles_known:
        return RuleError(Code.ROLES_UNKNOWN)
    item = scoring(state).item(code)
    if item is None:
        return RuleError(Code.UNKNOWN_BAD_PLAY, item=str(code)[:20], rules=state.config.preset)
    given = state.bad_plays.get(seat, ())
    if withdraw:
        return None if code in given else RuleError(Code.BAD_PLAY_NOT_GIVEN, seat=seat, item=code)
    role = state.seat(seat).role
    fits = {"any": True, "red": role is not None and role.team is Team.RED,
            "black": role is not None and role.team is Team.BLACK,
            "sheriff": role is Role.SHERIFF}[item.who]
    if not fits:
        return RuleError(Code.BAD_PLAY_ROLE, seat=seat, item=code, who=item.who)
    if code in given:
        return RuleError(Code.BAD_PLAY_GIVEN, seat=seat, item=code)
    return None


def bad_play_premise(state: GameState, seat: int, code: str) -> RuleError | None:
    """A bad play whose item includes the loss of the player's team (F24 §8.5.2 "…, and the reds
    lost"; :attr:`BadPlayItem.lost`) given in a game that team won, or a draw: its premise is
    false — ``BAD_PLAY_NOT_LOST`` (``seat``, ``item``, ``result``: ``won`` or ``draw``). A new
    refusal (:func:`rules.admit`): a stored log may hold such a bad play given before. A bad
    play :func:`check_bad_play` refuses anyway (another role's item, one given twice) is left
    to it: its refusal says more, as :func:`rules.admit` promises."""
    if state.result is None or not state.roles_known or check_bad_play(state, seat, code) is not None:
        return None
    item = scoring(state).item(code)
    role = state.seat(seat).role if 1 <= seat <= len(state.seats) else None
    if item is None or not item.lost or role is None:
        return None
    if state.result.winner is None:
        return RuleError(Code.BAD_PLAY_NOT_LOST, seat=seat, item=code, result="draw")
    if state.result.winner is role.team:
        return RuleError(Code.BAD_PLAY_NOT_LOST, seat=seat, item=code, result="won")
    return None
