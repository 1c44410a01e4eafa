"""Issue 35: the boundaries where two things happen at once, resolved by the rules and for the
player, at 10, 7 and 4 players under each preset where the class applies.

1. One departure, told as the rules say (RULES.md §12 item 9, R6.12: "Killed + DQ in the same
   night" — the kill counts, the next day's vote is held, no last word and no best move; seed
   4.5): the removal is told when it happens in the line every night removal reads; the morning
   tells the night's result once, with no second departure line, last word or best move; both
   causes stay for the protocol and the points. A removal in one's own last word is told once.
3. After the decisive event (F24/S24 §6.8.6, §7.9; RULES.md R6.6, R6.7): a team loss is not
   applied, a removal changes nothing else and cancels no vote; the table is told in one line that
   the result stands.
4. Each preset by its own texts: under fsm2024 the last speaker's only candidate on day 2 or
   later is a determined result (SC-determined, RULES.md R6.11): a removal then lets him leave by
   the vote and cancels the next day's vote; the seed (5.1: «ближайшее или текущее голосование
   не проводится») and FIIM 2024 (its §7.1 is the seed's 5.1) cancel today's vote.

Every table is reached by real events (:mod:`.harness`): the seats not kept are disqualified in
night 0 (day 1's vote is then not held, seed 5.1) and night 1 is a miss, so day 2 is played at
that size; the roles are S5 D8 M9 M10 (#10, #9 black where kept).
"""

from __future__ import annotations

import pytest

import rules
from bot.i18n import catalog
from bot.protocol.record import read_game
from bot.render import notice_text
from rules import Cause, Code, Kind, NightStep, Notice

from .harness import Table

PRESETS = ("seed", "fiim2024", "fsm2024")
ROLES = "S5 D8 M9 M10"
#: players at the table → the seats kept (blacks #9, #10 at seven; #10 alone at four)
KEEP = {10: tuple(range(1, 11)), 7: (1, 2, 3, 4, 5, 9, 10), 4: (1, 2, 3, 10)}
SIZES = sorted(KEEP, reverse=True)
RU = catalog("ru")


def at_size(players: int, preset: str, *, night: int = 2, options: dict | None = None,
            keep: tuple[int, ...] | None = None) -> Table:
    """The table with ``players`` at it (``keep``, else :data:`KEEP`), at the start of day 2
    (night 1 a miss) — or, with ``night=1``, at night 1's shooting (day 1 without nominations)."""
    seats = keep or KEEP[players]
    assert len(seats) == players
    t = Table(roles=ROLES, preset=preset, start="night0", **(options or {}))
    for seat in sorted((n for n in range(1, 11) if n not in seats), key=lambda n: n < 8):
        t.dq(seat)  # the blacks first (#8–#10), so that no parity ends the game on the way
    t.next()
    t.skip_day()  # day 1: no vote (seed 5.1, or nobody nominated)
    if night == 2:
        t.miss()
        t.expect_day(2)
    t.expect_table(*seats)
    return t


def public(notices: list[Notice]) -> list[Notice]:
    return [n for n in notices if not n.private]


def lines(notices: list[Notice]) -> list[str]:
    """The words the table reads: each public notice's line."""
    return [text for n in public(notices) if (text := notice_text(n, RU))]


def shape(notices: list[Notice]) -> list[tuple[str, list[tuple[str, object]]]]:
    """What the table hears of a night removal, its seat apart (it names who was removed)."""
    return [(n.kind.value, sorted((k, v) for k, v in n.params.items() if k != "seat"))
            for n in public(notices)]


def penalize(t: Table, seat: int, how: str) -> None:
    """A disqualification for night talk (seed 4.2.6), or the 4th foul (seed 4.5)."""
    if how == "dq":
        t.dq(seat, "4.2.6")
    else:
        t.foul(seat)


# --- 1. killed and removed the same night ---------------------------------------------------------

def _to_the_night(players: int, preset: str, fouled: int | None) -> Table:
    t = at_size(players, preset)
    if fouled is not None:
        t.fouls(fouled, 3)  # by day: three fouls, he stays (seed 4.4)
    t.skip_day()
    t.expect_night(2)
    return t


@pytest.mark.parametrize("how", ["dq", "4th foul"])
@pytest.mark.parametrize("players", SIZES)
@pytest.mark.parametrize("preset", PRESETS)
def test_killed_and_removed_the_same_night_one_departure_told_once(
        preset: str, players: int, how: str) -> None:
    """RULES.md §12.9 / R6.12 (SC): shot, then removed the same night → the kill counts, the next
    day's vote is held (seed 5.1's night-kill exception), no last word (seed 4.5). At night the
    table hears the one line any night removal reads — the same whoever was shot, or nobody —
    and in the morning the night's result once: no second removal line, no last word, and the day
    goes on to a vote that is held."""
    victim = 2

    def night(shot: int | None) -> Table:
        t = _to_the_night(players, preset, victim if how == "4th foul" else None)
        t.shoot(shot)
        penalize(t, victim, how)
        return t

    heard = {shot: shape(night(shot).last) for shot in (victim, None, 3)}
    assert heard[victim] == heard[None] == heard[3], heard  # nothing tells whom they shot
    assert [k for k, _ in heard[victim]] == (["removed"] if how == "dq" else ["foul", "removed"])

    t = night(victim)
    t.end_night()
    start = max(i for i, n in enumerate(t.notices) if n.kind is Kind.NIGHT_RESULT)
    morning = public(t.notices[start:])
    result = morning[0]
    assert (result["killed"], result["killed_removed"]) == (
        victim, "disqualification" if how == "dq" else "fouls")
    kinds = [n.kind for n in morning]
    assert Kind.REMOVED not in kinds and Kind.LAST_WORD not in kinds, kinds
    assert Kind.BEST_MOVE_SKIPPED not in kinds and Kind.VOTE_CANCELLED not in kinds, kinds
    said = lines(morning)[0]
    assert "покидает игру" not in said and f"№{victim}" in said, said
    departures = [line for line in lines(t.notices)
                  if f"Игрок №{victim} " in line and "покидает игру" in line]
    assert len(departures) == 1, departures  # his departure, told once: at night
    t.expect_leaves(victim, cause="kill")
    assert t.state.phase is rules.Phase.SPEECH  # no last word: the day's speeches begin
    order = t.state.speech_order
    t.discuss({order[0]: order[1], order[1]: order[0]})
    t.expect_vote_held(3)


@pytest.mark.parametrize("players", SIZES)
@pytest.mark.parametrize("preset", PRESETS)
def test_killed_and_disqualified_both_causes_stay_for_the_protocol_and_the_points(
        preset: str, players: int) -> None:
    """The kill is his departure (F24 §1.4), the disqualification a penalty after it: the
    protocol keeps both (docs/rules.md §8.6) and the points take the disqualification's −0.5
    (F24/S24 §8.2.4). The game is ended by a team loss of the blacks (seed 4.3)."""
    t = _to_the_night(players, preset, None)
    t.shoot(2)
    t.dq(2, "4.2.6")
    t.end_night()
    t.team_loss(10, "4.3.1")
    t.expect_winner("red")
    record = read_game(t.state.config, None, t.log)
    assert record.departure(2).cause is Cause.KILL
    assert record.late_removals[2].reason == "4.2.6"
    points = rules.game_points(t.state)
    assert points is not None and points[2].disqualification == rules.SCORING[preset].disqualification


@pytest.mark.parametrize("players", SIZES)
@pytest.mark.parametrize("preset", PRESETS)
def test_night_one_victim_removed_before_the_best_move_has_none(preset: str, players: int) -> None:
    """F24 §4.5.9 gives night 1's victim a best move; seed 4.5: removed, he leaves without a
    last word — and makes no best move. Removed during the checks: no best-move step, and the
    morning's line says once that there is neither."""
    t = at_size(players, preset, night=1)
    t.shoot(2)
    t.dq(2, "4.2.6")
    t.end_night()
    assert Kind.BEST_MOVE_DUE not in [n.kind for n in t.notices]
    assert t.state.nights[0].best_move is None
    said = lines([n for n in t.notices if n.kind is Kind.NIGHT_RESULT])[0]
    assert "последнего слова и лучшего хода нет" in said, said


@pytest.mark.parametrize("players", SIZES)
@pytest.mark.parametrize("preset", PRESETS)
def test_night_one_victim_removed_during_the_best_move_makes_none(preset: str, players: int) -> None:
    """Removed during his own best move (seed 4.5), the step ends with him: the morning comes, and
    a best move is refused — he has none (nothing for the points, F24/S24 §8.3.4)."""
    t = at_size(players, preset, night=1)
    t.shoot(2)
    t.next()  # the Don's check
    t.next()  # the Sheriff's
    t.expect_night(1, NightStep.BEST_MOVE)
    t.dq(2, "4.2.6")
    t.expect_day(2)
    t.expect_refused(rules.BestMove(guesses=(8, 9, 10)), Code.WRONG_PHASE)
    assert t.state.nights[0].best_move is None
    assert [n.kind for n in t.notices].count(Kind.NIGHT_RESULT) == 1


@pytest.mark.parametrize("removed", [True, False])
@pytest.mark.parametrize("players", [10, 7])  # the Sheriff (#5) is not kept at four
@pytest.mark.parametrize("preset", PRESETS)
def test_a_sheriff_shot_and_removed_the_same_night_checks_nobody(preset: str, players: int,
                                                                 removed: bool) -> None:
    """R5.8: a Sheriff shot tonight still checks (he leaves at the end of the night) — but one
    removed tonight has left at once (seed 4.5): his check is refused; the step still runs."""
    t = _to_the_night(players, preset, None)
    t.shoot(5)
    if removed:
        t.dq(5, "4.2.6")
    t.next()  # the Don's check, not made
    t.expect_night(2, NightStep.SHERIFF_CHECK)
    if removed:
        t.expect_refused(rules.SheriffCheck(target=1), Code.NO_SHERIFF)
    else:
        t.sheriff_check(1)


# --- 1. a removal in one's own last word ----------------------------------------------------------

@pytest.mark.parametrize("how", ["dq", "4th foul"])
@pytest.mark.parametrize("players", SIZES)
@pytest.mark.parametrize("preset", PRESETS)
def test_a_removal_in_ones_own_last_word_is_told_once(preset: str, players: int, how: str) -> None:
    """Seed 4.5: a 4th or disqualifying foul in one's own last word ends it; he has left by the
    vote already, so he does not leave again (seed 5.1: no vote is affected). One line says his
    last word ends; no line about his last word follows it. (Leaving the table, seed 4.2.1: not
    an item of F24/S24 §6.8.5, so no team loss under the 2024 presets either.)"""
    t = at_size(players, preset)
    leaver = 2
    if how == "4th foul":
        t.fouls(leaver, 3)
    order = t.state.speech_order
    t.discuss({order[0]: leaver})  # day 2, the only candidate: every hand (F24 §4.4.8)
    t.expect_last_word(leaver)
    t.dq(leaver, "4.2.1") if how == "dq" else t.foul(leaver)
    said = public(t.last)
    cut = [n for n in said if n.kind is Kind.REMOVED]
    assert [n["last_word"] for n in cut] == ["cut"]
    after = said[said.index(cut[0]) + 1:]
    assert not [n for n in after if n.params.get("seat") == leaver], after
    assert not [n for n in said if n.kind in (Kind.VOTE_CANCELLED, Kind.NEXT_VOTE_CANCELLED)]
    t.expect_leaves(leaver, cause="vote")
    t.expect_game_on()
    t.expect_night(2)


@pytest.mark.parametrize("players", SIZES)
@pytest.mark.parametrize("preset", PRESETS)
def test_the_night_victim_removed_in_his_morning_last_word(preset: str, players: int) -> None:
    """The night's victim speaks his last word first (F24 §4.5.9); a disqualification in it ends
    it (seed 4.5), told once; he was killed, so the day's vote is held (seed 5.1)."""
    t = _to_the_night(players, preset, None)
    t.kill(2)
    t.expect_last_word(2)
    t.dq(2, "4.2.1")
    assert [n["last_word"] for n in public(t.last) if n.kind is Kind.REMOVED] == ["cut"]
    assert not [n for n in t.last if n.kind in (Kind.VOTE_CANCELLED, Kind.NEXT_VOTE_CANCELLED)]
    t.expect_day(3)
    order = t.state.speech_order
    t.discuss({order[0]: order[1], order[1]: order[0]})
    t.expect_vote_held(3)


# --- 3. after the decisive event ------------------------------------------------------------------

def _decided_by_the_vote(players: int, preset: str) -> tuple[Table, str]:
    """Day 2, the leader of a decisive vote in his last word, and the winner it fixed (F24 §1.4,
    §7.9): at seven — #8, #9, #10 black, #1–#4 red — #1 is voted out, 3 v 3: black wins; at four
    (#10 the only black) #10 is voted out: red wins."""
    if players == 4:
        t = at_size(4, preset)
        order = t.state.speech_order
        t.discuss({order[0]: 10})
        t.expect_last_word(10)
        return t, "red"
    t = at_size(7, preset, keep=(1, 2, 3, 4, 8, 9, 10))
    order = t.state.speech_order
    t.discuss({order[0]: 1})
    t.expect_last_word(1)
    assert t.state.result is not None  # fixed, the judge's until the last word ends
    return t, "black"


@pytest.mark.parametrize("players", [7, 4])
@pytest.mark.parametrize("preset", PRESETS)
def test_a_team_loss_after_the_decisive_event_is_recorded_only(preset: str, players: int) -> None:
    """F24/S24 §6.8.6: after the decisive vote or kill the team-loss items (§6.8.1–6.8.5) are not
    applied; F24 §7.9: the result stands. An oath (seed 4.3.1) by a player of the winning team in
    the leaver's last word: one line, recorded «not applied», no team wording, no penalty points
    (§8.2.5), and the winners win. (At ten no vote or kill can decide the game.)"""
    t, winner = _decided_by_the_vote(players, preset)
    offender = next(n for n in t.state.at_table if t.state.team_of(n).value == winner)
    t.team_loss(offender, "4.3.1")
    said = public(t.last)
    assert [n.kind for n in said] == [Kind.PENALTY_AFTER_RESULT]
    assert (said[0]["severity"], said[0]["applied"]) == ("team_loss", False)
    assert not [n for n in t.last if n.kind is Kind.TEAM_LOSS]
    text = lines(said)[0]
    assert text.count("ППК") == 1 and "поражение команды" not in text, text
    t.finish_last_words()
    t.expect_winner(winner)
    points = rules.game_points(t.state)
    assert points is not None and points[offender].team_loss == 0


@pytest.mark.parametrize("who", ["leaver", "other"])
@pytest.mark.parametrize("players", [7, 4])
@pytest.mark.parametrize("preset", PRESETS)
def test_a_disqualification_after_the_decisive_event_changes_nothing_else(
        preset: str, players: int, who: str) -> None:
    """F24/S24 §7.9: «В случае дисквалификации любого игрока результат игры не меняется»; an
    insult (seed 4.2.4) is still punished after the result (F24 §6.8.6 does not exempt it):
    the player is disqualified (−0.5, §8.2.4), and — no vote following — no vote is said to be
    cancelled; the table is told in one line that the result stands. The leaver himself: his
    last word ends (seed 4.5), never a team loss once the result is fixed (§6.8.6)."""
    t, winner = _decided_by_the_vote(players, preset)
    leaver = t.state.speaker
    seat = leaver if who == "leaver" else next(n for n in t.state.at_table)
    t.dq(seat, "4.2.4")
    said = public(t.last)
    removed = [n for n in said if n.kind is Kind.REMOVED]
    assert len(removed) == 1 and removed[0].stands
    assert not [n for n in t.last if n.kind in (Kind.VOTE_CANCELLED, Kind.NEXT_VOTE_CANCELLED,
                                               Kind.TEAM_LOSS)]
    assert "результат игры уже определён и не меняется" in lines(removed)[0].lower()
    t.finish_last_words()
    t.expect_winner(winner)
    points = rules.game_points(t.state)
    assert points is not None and points[seat].disqualification == rules.SCORING[preset].disqualification


@pytest.mark.parametrize("preset", PRESETS)
def test_a_penalty_at_night_after_the_decisive_kill_tells_the_table_nothing_early(preset: str) -> None:
    """F24 §4.5.9, §7.9: the decisive kill is told in the morning, the result after the victim's
    last word. A penalty at night after it: leaving the table (seed 4.2.1, still applied after
    the result) removes the player, told as any night removal; night talk (seed 4.2.6, not
    applied after the result, F24 §6.8.6) is recorded for the judge alone; neither cancels a vote
    the morning would then announce."""
    t = Table(roles=ROLES, preset=preset, start="night0")  # 2 blacks (#9, #10), 4 reds
    for seat in (6, 7, 8, 4):
        t.dq(seat)
    t.next()
    t.skip_day()
    t.miss()
    order = t.state.speech_order
    t.discuss({order[0]: 1})  # day 2: #1 out → 2 v 3
    t.finish_last_words()
    t.shoot(2)  # night 2: 2 v 2, the result fixed (the judge's)
    assert t.state.result is not None
    t.dq(3, "4.2.6")
    assert public(t.last) == [] and t.last[0].kind is Kind.PENALTY_AFTER_RESULT
    t.dq(5, "4.2.1")
    assert [n.kind for n in public(t.last)] == [Kind.REMOVED]
    assert public(t.last)[0]["reason"] is None and not public(t.last)[0].stands
    t.end_night()
    assert not [n for n in t.notices if n.kind is Kind.VOTE_CANCELLED and n.day == 3]
    t.last_word(2)
    t.expect_winner("black")


# --- 4. the last speaker's only candidate, then a removal -------------------------------------------

def _night_and_day_three(t: Table) -> None:
    """Night 2 a miss; day 3: its first two speakers nominate each other (a vote, unless one is
    cancelled)."""
    t.miss()
    order = t.state.speech_order
    t.discuss({order[0]: order[1], order[1]: order[0]})


def _last_speaker_nominates(players: int, preset: str, **options: object) -> tuple[Table, int, int]:
    """Day 2: every speech passes until the last speaker's, who puts up a red (not himself) as
    the only candidate. Returns the table, the last speaker and the candidate."""
    t = at_size(players, preset, options=options)
    last = t.state.speech_order[-1]
    candidate = next(n for n in t.state.speech_order if n not in (last, 8, 9, 10))
    t.speeches_until(last)
    t.nominate(last, candidate)
    return t, last, candidate


@pytest.mark.parametrize("players", SIZES)
@pytest.mark.parametrize("preset", PRESETS)
def test_a_removal_after_the_last_speakers_only_candidate(preset: str, players: int) -> None:
    """Day 2: the last speaker puts up the only candidate, then gets his 4th foul. fsm2024 (SC,
    RULES.md R6.11: the result is determined then): today's vote is held, the candidate leaves by
    it, the next day's vote is not held (S24 §7.2). seed (5.1) and fiim2024 (§7.1, the seed's
    words): today's vote is not held, the candidate stays, the next day's is held. At four (#10,
    the only black, and three reds) the candidate is a red: under fsm2024 his leaving with the
    speaker's removal leaves one black and one red — black wins, after his last word (F24 §1.4,
    §7.9); under the others two reds stay and the game goes on."""
    t, last, candidate = _last_speaker_nominates(players, preset)
    assert last != 10
    t.fouls(last, 3)  # his 3rd: he stays (seed 4.4)
    t.foul(last)  # the 4th: removed (seed 4.5)
    t.expect_leaves(last, cause="fouls")
    if preset == "fsm2024":
        if players == 4:  # the removal fixes the result: no vote follows, none is cancelled
            t.expect_no_notice(Kind.NEXT_VOTE_CANCELLED)
            t.expect_notice(Kind.RESULT_FIXED, winner="black")
        else:
            t.expect_notice(Kind.NEXT_VOTE_CANCELLED, day=3, seat=last, rule="5.2")
        t.expect_leaves(candidate, cause="vote")
        t.expect_last_word(candidate)
        t.last_word(candidate)
        if players == 4:
            t.expect_winner("black")
            return
        _night_and_day_three(t)
        t.expect_no_vote("5.2", day=3)
    else:
        t.expect_no_vote("5.1", day=2)
        t.expect_stays(candidate)
        t.expect_night(2)
        _night_and_day_three(t)
        t.expect_vote_held(3)


@pytest.mark.parametrize("players", SIZES)
def test_fsm_the_only_candidate_removed_himself_is_the_one_leaving(players: int) -> None:
    """fsm2024, SC: the determined candidate is the one leaving by the vote (seed 5.1's exception:
    «является покинувшим игру по результату голосования»): removed before the vote, he leaves
    without a last word (seed 4.5), no vote is cancelled, the next day's is held."""
    t, last, candidate = _last_speaker_nominates(players, "fsm2024")
    t.dq(candidate, "4.2.1")
    t.expect_no_notice(Kind.NEXT_VOTE_CANCELLED)
    t.expect_no_notice(Kind.VOTE_CANCELLED)
    t.next()  # the last speech ends: nobody left to vote for
    t.expect_leaves(candidate, cause="dq")
    t.expect_night(2)
    _night_and_day_three(t)
    t.expect_vote_held(3)


@pytest.mark.parametrize("preset", PRESETS)
def test_a_nomination_before_the_last_speech_decides_nothing(preset: str) -> None:
    """SC's moment is the *last* speaker's nomination: one earlier (the seat after him still to
    speak could nominate) decides nothing, so a removal before the vote cancels today's vote under
    every preset (seed 5.1)."""
    t = at_size(10, preset)
    order = t.state.speech_order
    t.speeches_until(order[-2])
    t.nominate(order[-2], 1)
    t.dq(order[-2], "4.2.1")
    t.discuss()
    t.expect_no_vote("5.1", day=2)
    t.expect_stays(1)


def test_fsm_with_a_withdrawal_allowed_nothing_is_decided_before_the_vote() -> None:
    """With a club's withdrawal (MafiaRatings 7.5.2) the last speaker may still change his
    nomination, so the committee's moment ("will definitely leave") has not come: seed 5.1."""
    t, last, candidate = _last_speaker_nominates(10, "fsm2024", nomination_withdrawal="auto")
    t.dq(last, "4.2.1")
    t.expect_no_vote("5.1", day=2)
    t.expect_stays(candidate)
