"""``/why`` after a ruling, as the judge would ask it at the table (issue 14): the last ruling
and the rule it rests on, numbered as the game's preset numbers it — built from the engine's
notices (:mod:`bot.why`), never from the words announced; and ``/rule`` for the rules those
answers name (:mod:`bot.rulebook`)."""

from __future__ import annotations

import dataclasses
import logging

import pytest

import rules
from bot import render, rulebook, why
from bot.i18n import catalog
from bot.rulebook import Entry
from rules import Kind, Phase
from support.notices import SAMPLES

from .harness import Table
from .test_skips_explained import _morning, _raise_out_on_day_one

PRESETS = sorted(rules.PRESETS)
#: seed 5.1 (a removal cancels the nearest vote) as each preset cites it
CITE_5_1 = {"seed": "5.1", "fiim2024": "ФИИМ 2024, §7.1", "fsm2024": "ФСМ 2024, §7.1"}
CITE_5_7 = {"seed": "5.7", "fiim2024": "ФИИМ 2024, §7.6", "fsm2024": "ФСМ 2024, §7.6"}
CITE_7_10 = {"seed": "ФИИМ 2024, §7.10", "fiim2024": "ФИИМ 2024, §7.10", "fsm2024": "ФСМ 2024, §7.10"}


def ask_why(t: Table, *, judge: bool = True, lang: str = "ru") -> tuple[rules.Notice | None, str]:
    """``/why`` now: the ruling it explains and its answer."""
    ruling = why.last_ruling(t.notices, private=judge)
    return ruling, why.why_text(t.notices, t.state.config, catalog(lang), private=judge)


def grounds(t: Table, *, judge: bool = True) -> tuple[Entry, ...]:
    ruling = why.last_ruling(t.notices, private=judge)
    assert ruling is not None
    return why.grounds(ruling, t.state.config)


@pytest.mark.parametrize("preset", PRESETS)
def test_a_fourth_foul_on_day_one_why_is_there_no_vote_today(preset: str) -> None:
    """Seed 5.1 (F24/S24 §7.1): a removal cancels the nearest vote — today's."""
    t = Table(preset=preset)
    t.fouls(3, 4)
    ruling, answer = ask_why(t)
    assert ruling is not None and ruling.kind in (Kind.VOTE_CANCELLED, Kind.VOTE_NOT_HELD)
    assert ruling["day"] == 1
    assert grounds(t) == (Entry("cite", "5.1"),)
    assert f"Правило — {CITE_5_1[preset]}: удаление игрока" in answer, answer
    assert "№3" in answer  # the ruling as announced: whose removal


@pytest.mark.parametrize("preset", PRESETS)
def test_a_disqualification_names_its_item_with_the_cancelled_vote(preset: str) -> None:
    t = Table(preset=preset)
    t.dq(4, "4.2.4")
    assert grounds(t) == (Entry("cite", "5.1"), Entry("reason", "4.2.4"))
    _, answer = ask_why(t)
    assert "Пункт 4.2.4" in answer and "дисквалифицирующий фол" in answer


def _four_at_the_table(preset: str) -> Table:
    """Day 4 with seats 5, 6, 7 and 10 at the table (three reds, one black): blacks 8 and 9 and
    red 4 voted out, reds 1–3 shot."""
    t = Table(roles="S5 D8 M9 M10", preset=preset)
    t.play_until(4, kills={1: 1, 2: 2, 3: 3}, out={1: 8, 2: 9, 3: 4})
    t.expect_table(5, 6, 7, 10)
    return t


@pytest.mark.parametrize("preset", PRESETS)
def test_a_third_foul_at_four_players_why_thirty_seconds(preset: str) -> None:
    """Seed 5.7 (F24/S24 §7.6): at three or four players a 3rd foul shortens the next speech to
    30 s instead of silencing it."""
    t = _four_at_the_table(preset)
    later = t.state.speech_order[-1]
    t.fouls(later, 3)
    ruling, answer = ask_why(t)
    assert ruling is not None and ruling.kind is Kind.THIRD_FOUL
    assert grounds(t) == (Entry("cite", "5.7"),)
    assert f"Правило — {CITE_5_7[preset]}: игрок с третьим фолом" in answer, answer
    t.speeches_until(later)
    t.expect_speech(later, 30)
    assert grounds(t) == (Entry("cite", "5.7"),)  # the short speech itself


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("players", [10, 7])
def test_a_third_foul_why_silent(preset: str, players: int) -> None:
    """Seed 4.4 (F24/S24 §6.4): silent in the nearest speech, above four players."""
    t = Table(roles="S5 D8 M9 M10", preset=preset)
    if players == 7:
        t.play_until(3, kills={1: 1, 2: 2}, out={1: 8})
    t.expect_players(players)
    later = t.state.speech_order[-1]
    t.fouls(later, 3)
    t.speeches_until(later)
    ruling, answer = ask_why(t)
    assert ruling is not None and ruling.kind in (Kind.SPEECH, Kind.SPEECH_SKIPPED)
    assert grounds(t) == (Entry("cite", "4.4"),)
    assert "третий фол: игрок молчит" in answer


@pytest.mark.parametrize("preset", PRESETS)
def test_no_best_move_after_two_left_by_day_one_vote(preset: str) -> None:
    """F24/S24 §7.10, asked in the morning."""
    t = Table(roles="S6 D9 M10 M4", preset=preset)
    _raise_out_on_day_one(t, (3, 8))
    t.shoot(1)
    _morning(t)
    ruling, answer = ask_why(t, judge=False)
    assert ruling is not None and ruling.kind is Kind.BEST_MOVE_SKIPPED
    assert grounds(t, judge=False) == (Entry("cite", "7.10"),)
    assert f"Правило — {CITE_7_10[preset]}" in answer, answer


def _quiet_until_the_end(t: Table) -> None:
    for _ in range(100):
        if t.state.phase is Phase.GAME_OVER:
            return
        if t.state.phase is Phase.NIGHT:
            t.miss()
        elif t.state.phase is Phase.LAST_WORD:
            t.next()
        else:
            t.discuss()  # nobody nominated: no vote (the seed's draw comes at the day's end)
    raise AssertionError("the game never ended")


@pytest.mark.parametrize("preset, rule, cited", [
    ("seed", "5.8", "5.8: ничья: если три «ночи» и три «дня»"),
    ("fiim2024", "7.7", "ФИИМ 2024, §7.7: ничья: если три ночи стрельбы"),
    ("fsm2024", "7.7", "ФСМ 2024, §7.7: ничья"),
])
def test_why_the_game_ended_in_a_draw(preset: str, rule: str, cited: str) -> None:
    """Seed 5.8 (three nights and three days) or F24/S24 §7.7 (three nights)."""
    t = Table(preset=preset)
    _quiet_until_the_end(t)
    ruling, answer = ask_why(t, judge=False)
    assert ruling is not None and ruling.kind is Kind.GAME_OVER and ruling["winner"] is None
    assert grounds(t, judge=False) == (Entry("cite", rule),)
    assert cited in answer, answer
    # /rule draw names the same rule under that game's rules
    assert rulebook.lookup("ничья", t.state.config, catalog("ru")) == (Entry("cite", rule),)


def test_a_club_draw_by_the_seeds_count_under_fiim2024_is_the_seeds_rule() -> None:
    t = Table(preset="fiim2024", draw_declared="after_third_day")
    _quiet_until_the_end(t)
    assert grounds(t, judge=False) == (Entry("cite", "5.8"),)
    assert rulebook.lookup("draw", t.state.config, catalog("en")) == (Entry("cite", "5.8"),)


@pytest.mark.parametrize("preset", PRESETS)
def test_a_night_disqualification_reason_is_never_told_to_the_table(preset: str) -> None:
    """The item of a removal at night stays with the judge (SC-night-wording): ``/why`` asked by
    anyone else names the removal without it."""
    t = Table(roles="S5 D8 M9 M10", preset=preset)
    t.skip_day()
    t.dq(2, "4.2.6")
    _, public = ask_why(t, judge=False)
    assert "4.2.6" not in public and "ночные" not in public.lower(), public
    assert rules.Kind.REMOVED in [n.kind for n in t.notices]


@pytest.mark.parametrize("preset", ["fiim2024", "fsm2024"])
def test_an_insult_in_the_last_word_why_the_team_lost(preset: str) -> None:
    """F24/S24 §6.8.5: an insult (4.2.4) in one's final minute loses the game for one's team."""
    t = Table(roles="S5 D8 M9 M10", preset=preset)
    t.skip_day()
    t.miss()
    t.discuss({2: 9, 3: 6})
    t.vote({9: 6})
    t.expect_last_word(9)
    t.dq(9, "4.2.4")
    loss = next(n for n in t.notices if n.kind is Kind.TEAM_LOSS)
    assert why.grounds(loss, t.state.config) == (
        Entry("cite", "4.3"), Entry("reason", "4.2.4"), Entry("cite", "6.8.5"))
    ruling, answer = ask_why(t, judge=False)  # the last ruling: the game is over by it
    assert ruling is not None and ruling.kind is Kind.GAME_OVER
    edition = {"fiim2024": "ФИИМ 2024", "fsm2024": "ФСМ 2024"}[preset]
    assert f"Правило — {edition}, §6.8: поражение команды" in answer, answer


def test_before_any_ruling_why_says_so() -> None:
    t = Table(start="night0")
    ruling, answer = ask_why(t)
    assert ruling is None and answer == catalog("ru").text("why-nothing")


# --- every kind of ruling has an answer -----------------------------------------------------------

def _played_notices() -> list[tuple[rules.RulesConfig, list[rules.Notice]]]:
    """The notices of games that make many kinds of ruling, under every preset."""
    out = []
    for preset in PRESETS:
        for build in (_four_at_the_table, _tie_and_raise, _fouls_and_end):
            t = build(preset)
            out.append((t.state.config, list(t.notices)))
    return out


def _tie_and_raise(preset: str) -> Table:
    t = Table(roles="S6 D9 M10 M4", preset=preset)
    _raise_out_on_day_one(t, (3, 8))
    t.shoot(1)
    _morning(t)
    return t


def _fouls_and_end(preset: str) -> Table:
    t = Table(roles="S5 D8 M9 M10", preset=preset)
    t.fouls(2, 3)
    t.dq(4, "4.2.1")
    t.skip_day()
    t.shoot(1)
    t.next()
    t.next()
    t.best_move(8, 9, 3)
    t.end_night()
    t.team_loss(10, "4.3.1")
    return t


def test_every_notice_kind_is_a_ruling_with_an_answer_or_named_as_none() -> None:
    """Each kind the engine says is either in :data:`bot.why.NOT_RULINGS` or has grounds; the
    rules a ground names are ones ``/rule`` answers under every preset, in both languages."""
    seen: set[Kind] = set()
    for config, notices in _played_notices():
        for i, notice in enumerate(notices):
            seen.add(notice.kind)
            if not why.is_ruling(notice):
                continue
            for entry in why.grounds(notice, config):
                for lang in ("ru", "en"):
                    text = rulebook.entry_text(entry, config, catalog(lang))
                    assert text and "rule-" not in text
    for sample in SAMPLES:  # a kind no game above made: its grounds from its fields alone
        if sample.kind in why.NOT_RULINGS:
            with pytest.raises(KeyError):
                why.grounds(sample, rules.PRESETS["seed"])
            continue
        for preset in PRESETS:
            why.grounds(dataclasses.replace(sample, rules=preset), rules.PRESETS[preset])
    assert len(seen) > 25  # the games above say most kinds (a broken scan sees none)


def test_every_answer_formats_without_a_missing_argument(caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.WARNING, logger="bot.i18n")
    for config, notices in _played_notices():
        for end in range(1, len(notices) + 1):
            for lang in ("ru", "en"):
                for judge in (True, False):
                    assert why.why_text(notices[:end], config, catalog(lang), private=judge)
    assert not [r for r in caplog.records if "catalog" in r.getMessage()]


@pytest.mark.parametrize("preset", PRESETS)
def test_a_result_fixed_before_the_last_word_is_the_judges_alone(preset: str) -> None:
    """F24 §7.9: the decisive vote fixes the result, announced only after the leaver's last
    word; until then ``/why`` tells only the judge (the table sees the departure alone)."""
    t = Table(roles="S5 D8 M9 M10", preset=preset)
    t.play_until(3, out={1: 8, 2: 9})
    opener = t.state.speech_order[t.state.speech_index]
    t.discuss({opener: 10})  # the last black, the only nominee: out by every hand
    assert t.state.phase is Phase.LAST_WORD and t.state.last_words == [10]
    ruling, judge = ask_why(t, judge=True)
    assert ruling is not None and ruling.kind is Kind.RESULT_FIXED
    assert (Entry("cite", "7.9"),) == grounds(t, judge=True)
    public_ruling, public = ask_why(t, judge=False)
    assert public_ruling is not None and public_ruling.kind is Kind.LEAVES_BY_VOTE
    assert "7.9" not in public and "обед" not in public.lower(), public


# --- every rule /why cites is the rule the ruling rests on (the newcomer's item 7) ------------------

@pytest.mark.parametrize("preset", PRESETS)
def test_no_nominees_why_cites_no_rule_of_nominating(preset: str) -> None:
    """Nobody nominated: no vote, by the course of the day (docs/rules.md §4.1). F24 §4.4.2 (one
    nominates only in one's own minute) is not why; no rule is cited."""
    t = Table(preset=preset)
    t.skip_day()
    ruling, answer = ask_why(t)
    assert ruling is not None and ruling.kind is Kind.VOTE_NOT_HELD and ruling["why"] == "no_nominees"
    assert grounds(t) == ()
    assert "4.4.2" not in answer and catalog("ru").text("why-no-rule") in answer


def _short_speech_game(preset: str, out: dict[int, int], kills: dict[int, int]) -> Table:
    """``third_foul=short_speech``: seat 6's 3rd foul, then his next speech."""
    t = Table(roles="S5 D8 M9 M10", preset=preset, third_foul="short_speech")
    day = max([*out, *kills, 0]) + 1
    t.play_until(day, kills=kills, out=out)
    t.fouls(6, 3)
    t.speeches_until(6)
    return t


@pytest.mark.parametrize("preset", PRESETS)
@pytest.mark.parametrize("out, kills, players", [
    ({}, {}, 10), ({1: 8}, {1: 1}, 8), ({1: 8, 2: 2}, {1: 1, 2: 3}, 6), ({1: 8, 2: 2}, {1: 1}, 7),
])
def test_a_short_speech_by_the_option_cites_no_seed_5_7(preset: str, out: dict[int, int],
                                                          kills: dict[int, int], players: int) -> None:
    """MafiaRatings 9.5.2 (``third_foul=short_speech``): at five players or more the 3rd foul cuts
    the next speech to 30 s by the game's own option; seed 5.7 is the 3–4-players rule."""
    t = _short_speech_game(preset, out, kills)
    assert len(t.state.at_table) == players
    third = t.kinds_seen(Kind.THIRD_FOUL)[-1]
    assert why.grounds(third, t.state.config) == ()
    speech = t.expect_notice(Kind.SPEECH, seat=6)
    assert speech["short"] and speech["seconds"] == 30
    assert grounds(t) == ()
    ruling, answer = ask_why(t)
    assert ruling is speech and CITE_5_7[preset] not in answer
    for lang in ("ru", "en"):
        assert CITE_5_7[preset].replace("ФИИМ", "FIIM").replace("ФСМ", "FSM") not in \
            render.notice_text(speech, catalog(lang))


@pytest.mark.parametrize("preset", PRESETS)
def test_a_short_speech_at_four_players_is_still_seed_5_7_under_the_option(preset: str) -> None:
    t = Table(roles="S5 D8 M9 M10", preset=preset, third_foul="short_speech")
    t.play_until(4, kills={1: 1, 2: 2, 3: 3}, out={1: 8, 2: 9, 3: 4})
    later = t.state.speech_order[-1]
    t.fouls(later, 3)
    assert grounds(t) == (Entry("cite", "5.7"),)
    t.speeches_until(later)
    assert grounds(t) == (Entry("cite", "5.7"),)
    assert CITE_5_7[preset] in ask_why(t)[1]


@pytest.mark.parametrize("preset", PRESETS)
def test_a_penalty_after_the_game_why_cites_that_the_result_stands(preset: str) -> None:
    """After the game a foul is recorded and the result stands (F24 §7.9); §6.8.6 (items not
    applied after the decisive event) is not why."""
    t = Table(roles="S5 D8 M9 M10", preset=preset)
    t.team_loss(10, "4.3.1")
    t.foul(3)
    assert grounds(t) == (Entry("cite", "7.9"),)
    t.dq(3, "4.2.5")  # F24/S24 §6.8.6: peeking is not applied after the result
    assert grounds(t) == (Entry("cite", "6.8.6"), Entry("reason", "4.2.5"))


@pytest.mark.parametrize("preset", PRESETS)
def test_no_last_word_by_the_option_cites_no_f24_7_9(preset: str) -> None:
    """``last_word_on_decisive_event=false`` (MafiaRatings 8.19.2) is the game's option: F24
    §7.9 gives the leaver his last word, the opposite."""
    t = Table(roles="S5 D8 M9 M10", preset=preset, last_word_on_decisive_event=False)
    t.play_until(3, out={1: 8, 2: 9})
    opener = t.state.speech_order[t.state.speech_index]
    t.discuss({opener: 10})
    skipped = t.expect_notice(Kind.LAST_WORD_SKIPPED)
    assert why.grounds(skipped, t.state.config) == ()


def _announced(notice: rules.Notice, cat: object) -> str:
    return render.notice_text(notice, cat) or ""  # type: ignore[arg-type]


#: Rulings whose announcement names no rule while /why names the one it rests on.
_UNCITED_ANNOUNCEMENTS = {Kind.LEAVES_BY_VOTE, Kind.GAME_OVER, Kind.BEST_MOVE_DUE, Kind.RAISE_RESULT}


def _cited_games() -> list[Table]:
    out = []
    for preset in PRESETS:
        out += [_four_at_the_table(preset), _tie_and_raise(preset), _fouls_and_end(preset),
                _short_speech_game(preset, {}, {})]
        t = Table(preset=preset)
        t.skip_day()
        out.append(t)
    return out


def test_every_rule_why_cites_is_the_one_its_announcement_cites() -> None:
    """The class of item 7: a rule /why cites for a ruling is the one the ruling's own
    announcement printed (never another number), in both languages."""
    checked = 0
    for t in _cited_games():
        config = t.state.config
        for notice in t.notices:
            if not why.is_ruling(notice) or notice.kind in _UNCITED_ANNOUNCEMENTS:
                continue
            for entry in why.grounds(notice, config):
                if entry.kind != "cite":
                    continue
                for lang in ("ru", "en"):
                    cat = catalog(lang)
                    shown = render.cite(entry.code, config.preset, cat)
                    item = str(notice.params.get("reason"))  # 4.3 heads the item 4.3.1 shown
                    assert shown in _announced(notice, cat) or item.startswith(f"{entry.code}."), \
                        (notice, shown)
                    checked += 1
    assert checked > 50


@pytest.mark.parametrize("preset", sorted(rules.PRESETS))
def test_why_in_the_morning_of_a_victim_removed_the_same_night(preset: str) -> None:
    """Issue 35, item 1: the morning tells once that the night's victim was removed too; /why
    then gives that ruling and its rules — no last word, no best move (seed 4.5), the day's vote
    held (seed 5.1) — as the preset numbers them."""
    t = Table(roles="S5 D8 M9 M10", preset=preset)
    t.skip_day()
    t.shoot(3)
    t.dq(3, "4.2.6")
    t.end_night()
    ruling = why.last_ruling(t.notices, private=False)
    assert ruling is not None and ruling.kind is Kind.NIGHT_RESULT
    text = why.why_text(t.notices, t.state.config, catalog("ru"), private=False)
    cited = {"seed": ("4.5", "5.1"), "fiim2024": ("ФИИМ 2024, §6.5", "ФИИМ 2024, §7.1"),
             "fsm2024": ("ФСМ 2024, §6.5", "ФСМ 2024, §7.1")}[preset]
    assert all(c in text for c in cited), text
