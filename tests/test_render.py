"""The renderer: announcements, refusals, the judge's panel and the result, on real states built
with rules.apply. The texts must say what the rules require, in the rules' own terms, and never
reveal a role or the nominees to the players (F24 §4.4.13, §4.5.4; seed 5.4)."""

from __future__ import annotations

import dataclasses
import logging
import re
from pathlib import Path
from typing import Any, Iterator

import pytest

import rules
from bot import render as render_module
from bot.i18n import LANGS, Catalog, catalog
from bot.render import error_text, notice_text, reason_text, result_text, status_text
from rules import (
    BestMove, DonCheck, Kind, Next, NightKill, Nominate, Notice, Penalty, RaiseVote, SetName,
    SetRoles, SheriffCheck, Shots, StartGame, Vote,
)
from rules import notices as nt
from support.notices import ROLES, SAMPLES, variants

RU = catalog("ru")
EN = catalog("en")
ISOLATION_MARKS = ("\u2068", "\u2069")

# Words that name a role (ru, en). "Дон" and "don" as whole words.
ROLE_WORDS = re.compile(r"шериф|\bдон|мафи|мирн|sheriff|\bdon\b(?!')|mafia|civilian", re.I)

# --- playing --------------------------------------------------------------------------------


class Game:
    """A game driven through rules.apply, keeping every notice."""

    def __init__(self, preset: str = "seed", roles: tuple[str | None, ...] | None = ROLES,
                 **options: Any) -> None:
        config = rules.PRESETS[preset].with_options(**options) if options else rules.PRESETS[preset]
        self.state = rules.new_game(config)
        self.notices: list[Notice] = []
        if roles is not None:
            self.apply(SetRoles(roles))

    def apply(self, *events: rules.Event) -> list[Notice]:
        new: list[Notice] = []
        for event in events:
            self.state, notices = rules.apply(self.state, event)
            new.extend(notices)
        self.notices.extend(new)
        return new

    def to_day_one(self) -> "Game":
        self.apply(StartGame(), Next())
        return self

    def speeches(self, count: int) -> list[Notice]:
        return self.apply(*[Next()] * count)


def texts(notices: list[Notice], cat: Catalog = RU) -> list[str]:
    return [t for t in (notice_text(n, cat) for n in notices) if t]


def first(notices: list[Notice], kind: Kind) -> Notice:
    return next(n for n in notices if n.kind is kind)


# --- every notice kind ----------------------------------------------------------------------

# The kinds the engine marks private (rules/notices.py), and the ones allowed to name roles.
PRIVATE = {Kind.ROLES_SET, Kind.SHOOTING_RESULT, Kind.DON_CHECK, Kind.SHERIFF_CHECK,
           Kind.BEST_MOVE_HITS, Kind.REMOVED_DETAILS, Kind.RESULT_FIXED}
# GAME_OVER reveals the roles once the game is over; NIGHT_STEP is the judge's call of a night
# step («Просыпается Дон и ищет Шерифа», F24 §4.5.6): it names the step and no seat.
# BAD_PLAY comes after the game (F24/S24 §8.5): «Шериф не вскрылся …» names the role then.
MAY_NAME_ROLES = {Kind.GAME_OVER, Kind.NIGHT_STEP, Kind.BAD_PLAY}


def test_samples_cover_every_kind() -> None:
    assert sorted(n.kind for n in SAMPLES) == sorted(Kind)


@pytest.mark.parametrize("lang", LANGS)
def test_every_notice_renders_cleanly(lang: str, caplog: pytest.LogCaptureFixture) -> None:
    """One line per notice, fully formatted: no Fluent error (logged), no leftover ``{``, no
    isolation marks, no raw parameter values such as ``None``/``True``."""
    cat = catalog(lang)
    caplog.set_level(logging.WARNING, logger="bot")
    for notice in variants():
        text = notice_text(notice, cat)
        if isinstance(notice, nt.NightStep) and notice.step == "best_move":
            assert text is None  # BEST_MOVE_DUE says it
            continue
        assert text and text.strip(), notice
        assert "{" not in text and "none" not in text and "None" not in text, text
        assert "True" not in text and "False" not in text, text
        assert not any(mark in text for mark in ISOLATION_MARKS), text
    assert not caplog.records, [r.getMessage() for r in caplog.records]


@pytest.mark.parametrize("lang", LANGS)
def test_public_notices_name_no_role(lang: str) -> None:
    """F24 §4.4.13, §4.5.4: a departed player's role is never revealed during the game. Only
    GAME_OVER (after the game) and the private notices may name roles."""
    cat = catalog(lang)
    for notice in variants():
        if notice.kind in PRIVATE or notice.kind in MAY_NAME_ROLES:
            continue
        text = notice_text(notice, cat) or ""
        assert not ROLE_WORDS.search(text), (notice.kind, text)


def test_public_notices_of_a_real_game_name_no_role() -> None:
    game = full_game()
    for notice in game.notices:
        if notice.private or notice.kind in MAY_NAME_ROLES:
            continue
        for cat in (RU, EN):
            text = notice_text(notice, cat) or ""
            assert not ROLE_WORDS.search(text), (notice.kind, text)


def test_notices_carry_no_names() -> None:
    """Names belong to the panel and the result; announcements use seats (except NAME_SET)."""
    game = Game()
    game.apply(SetName(3, "Вася"))
    game.to_day_one()
    game.apply(Nominate(1, 3), Penalty(3, "4.1.3"))
    for notice in game.notices[2:]:
        assert "Вася" not in (notice_text(notice, RU) or "")
    assert "Вася" in status_text(game.state, RU, for_judge=False)


# --- announcements in the rules' words ------------------------------------------------------

def test_night_and_day_announcements() -> None:
    game = Game()
    started = game.apply(StartGame())
    assert texts(started)[-1] == "Наступает ночь. Договорка — 60 секунд."
    day = game.apply(Next())
    assert texts(day) == ["День 1. За столом 10 игроков; первым говорит игрок №1.",
                          "Слово игроку №1 — 60 секунд."]


def test_third_foul_announcement_seed_4_4() -> None:
    game = Game().to_day_one()
    game.apply(Penalty(5, "foul"), Penalty(5, "foul"))
    third = game.apply(Penalty(5, "4.1.1"))
    lines = texts(third)
    assert lines[0].startswith("Игроку №5 — фол: речь не в свою игровую минуту")
    assert lines[0].endswith("(4.1.1). Теперь 3 фола.")
    assert lines[1] == ("Игрок №5 получает третий фол: лишается слова в ближайшую минуту, "
                        "но может выставить кандидатуру (4.4).")


def test_fourth_foul_removal_and_cancelled_vote_seed_4_5_5_1() -> None:
    game = Game().to_day_one()
    game.apply(*[Penalty(2, "foul")] * 3)
    fourth = game.apply(Penalty(2, "foul"))
    lines = texts(fourth)
    assert "Игрок №2 покидает игру без последнего слова: четвёртый фол (4.5)." in lines
    assert ("Сегодня, на 1-й день, голосование не проводится (5.1): удаление игрока №2: "
            "четвёртый фол.") in lines  # the cause the engine knows, never «4-й или …»
    status = status_text(game.state, RU, for_judge=False)
    assert "На 1-й день голосование не проводится (5.1): удаление игрока №2: четвёртый фол." in status
    assert "№2: 4 фола; удаление: 4 фола, день 1 (4.5)" in status


def test_disqualification_by_day_names_the_item_seed_4_2() -> None:
    game = Game().to_day_one()
    line = texts(game.apply(Penalty(9, "4.2.7")))[0]
    assert line == ("Игрок №9 покидает игру без последнего слова: дисквалификация — "
                    "слёзы за игровым столом (4.2.7; 4.5).")


def test_night_removal_hides_its_reason() -> None:
    """A night removal's reason would tell who was awake: the group hears only that the player
    left (the notice's reason is None); the judge gets the details privately."""
    game = Game().to_day_one()
    game.apply(Nominate(1, 3))
    game.speeches(10)  # day 1: a single nominee is not voted (F24 §4.4.10) → night 1
    assert game.state.phase is rules.Phase.NIGHT
    notices = game.apply(Penalty(9, "4.2.2"))
    removed = first(notices, Kind.REMOVED)
    public = notice_text(removed, RU) or ""
    assert public == "Игрок №9 удаляется и покидает игру без последнего слова (4.5)."
    details = first(notices, Kind.REMOVED_DETAILS)
    assert details.private
    assert "«ночные» прикосновения (4.2.2)" in (notice_text(details, RU) or "")
    assert "4.2.2" not in status_text(game.state, RU, for_judge=False)
    assert "4.2.2" in status_text(game.state, RU, for_judge=True)
    assert "На 2-й день голосование не проводится (5.1): удаление игрока №9: дисквалификация." \
        in texts(notices)  # the cause, never the item of a night removal


def test_single_nominee_on_day_one_is_not_voted_f24_4_4_10() -> None:
    game = Game().to_day_one()
    game.apply(Nominate(1, 3))
    lines = texts(game.speeches(10))
    assert ("Голосование не проводится: в первый день выставлена только одна кандидатура (ФИИМ 2024, §4.4.10)."
            in lines)
    assert lines[-2:] == ["Наступает ночь.", "Мафия выходит на охоту."]


def test_tie_revote_and_raise_vote_f24_4_4_12() -> None:
    game = Game().to_day_one()
    game.apply(Nominate(1, 3), Next(), Nominate(2, 7))
    voting = game.speeches(9)
    assert texts(voting)[-1] == "Голосование. Кандидатуры на голосовании: игроки №3, №7."
    status = status_text(game.state, RU, for_judge=True)
    assert "Кто за то, чтобы игроку №3 покинуть игровой стол? Осталось: 10 голосов." in status
    tie = texts(game.apply(Vote(3, 5)))
    assert tie[0] == "Против игрока №3 — 5 голосов."
    assert tie[1].startswith("Против игрока №7 — 5 голосов: неподнятые руки отходят")
    assert tie[2].startswith("Равное количество голосов: игроки №3, №7.")
    assert tie[3] == "Слово игроку №3 перед переголосованием — 30 секунд."
    revote = texts(game.apply(Next(), Next()))
    assert "Переголосование: игроки №3, №7." in revote
    raise_lines = texts(game.apply(Vote(3, 5)))
    assert any("Кто за то, чтобы все голосуемые игроки покинули игровой стол?" in t
               and "не меньше 6 из 10" in t for t in raise_lines)
    judge = status_text(game.state, RU, for_judge=True)
    assert "День 1 — голосование за подъём." in judge
    failed = texts(game.apply(RaiseVote(count=5)))
    assert failed[0] == "За подъём — 5 из 10: не больше половины, все остаются за столом."
    assert failed[1] == ("Никто не покидает игру: за подъём проголосовало не больше половины "
                         "игроков (ФИИМ 2024, §4.4.12.3).")
    assert failed[2] == "Наступает ночь."


def test_leaving_by_the_vote_gets_a_last_word_f24_4_4_13() -> None:
    game = Game().to_day_one()
    game.apply(Nominate(1, 3), Next(), Nominate(2, 7))
    game.speeches(9)
    lines = texts(game.apply(Vote(3, 6)))
    assert "По итогам голосования игру покидает игрок №3." in lines
    assert lines[-1] == "Последнее слово игрока №3 — 60 секунд."


# --- the panel ------------------------------------------------------------------------------

def silenced_day() -> Game:
    """Day 1: #5 got a third foul before his turn (SCENARIOS S01); #1 nominated #3, #2 #7."""
    game = Game()
    game.apply(SetName(3, "Вася"))
    game.to_day_one()
    game.apply(Nominate(1, 3), Next(), Nominate(2, 7))
    game.apply(*[Penalty(5, "foul")] * 3)
    return game


def test_status_shows_the_pending_silence_seed_4_4() -> None:
    game = silenced_day()
    for view in (True, False):
        status = status_text(game.state, RU, for_judge=view)
        assert "День 1 — речи." in status
        assert "Говорит игрок №2 — 60 секунд." in status
        assert "№5" in status and "3 фола; без слова в ближайшую минуту (третий фол, 4.4)" in status
    game.apply(Next(), Next(), Next())  # #3, #4 speak; #5's turn
    assert game.state.speaker == 5
    judge = status_text(game.state, RU, for_judge=True)
    assert ("Игрок №5: третий фол — без слова в эту минуту (4.4), "
            "можно только выставить кандидатуру.") in judge
    assert "может выставить кандидатуру — /nominate" in judge  # seed 4.4: he still nominates


def test_status_hides_nominees_and_roles_from_players_seed_5_4() -> None:
    game = silenced_day()
    judge = status_text(game.state, RU, for_judge=True)
    public = status_text(game.state, RU, for_judge=False)
    assert "Выставлены (только для судьи, 5.4): №3, №7." in judge
    assert "Выставлены" not in public
    assert "№2: Дон" in judge and "№8: Шериф" in judge and "№5: мафия" in judge
    assert not ROLE_WORDS.search(public), public
    assert "/next" in judge and "/next" not in public  # what to do next: the judge's
    assert "№3 Вася" in public  # the panel may use names
    public_en = status_text(game.state, EN, for_judge=False)
    assert "Nominated" not in public_en and not ROLE_WORDS.search(public_en)


def test_status_setup_and_night() -> None:
    game = Game(roles=None)
    status = status_text(game.state, RU, for_judge=True)
    assert status.startswith("Подготовка к игре: правила ФИИМ (редакция клуба).")
    assert "/start" in status and "Роли не внесены" in status
    game.to_day_one()
    game.apply(Nominate(1, 3))
    game.speeches(10)
    night = status_text(game.state, RU, for_judge=True)
    assert night.startswith("Ночь 1 — стрельба.")
    assert "/miss" in night


def test_status_during_the_vote_shows_counts_to_the_judge() -> None:
    game = Game().to_day_one()
    game.apply(Nominate(1, 3), Next(), Nominate(2, 7), Next(), Nominate(3, 9))
    game.speeches(8)
    game.apply(Vote(3, 4))
    judge = status_text(game.state, RU, for_judge=True)
    assert "Голосование среди игроков №3, №7, №9: №3 — 4 голоса." in judge
    assert "Кто за то, чтобы игроку №7 покинуть игровой стол? Осталось: 6 голосов." in judge


# --- the end --------------------------------------------------------------------------------

def full_game() -> Game:
    """#5 (mafia) voted out on day 1; #4 killed on night 1 (best move 2 7 9); on day 2 #2 (Don)
    is disqualified for tears and #7 (mafia) gets a 4th foul: no black left, red wins (F24 §1.4)."""
    game = Game()
    game.apply(SetName(4, "Глеб"))
    game.to_day_one()
    game.apply(Nominate(1, 5), Next(), Nominate(2, 3))
    game.speeches(9)
    game.apply(Vote(5, 7), Next())  # #5 leaves; his last word
    game.apply(NightKill(4), DonCheck(8), SheriffCheck(2), BestMove((2, 7, 9)))
    game.apply(Next())  # #4's last word; speeches of day 2
    game.apply(Penalty(2, "4.2.7"), *[Penalty(7, "foul")] * 4)
    return game


def test_game_over_reveals_the_roles_and_the_winner() -> None:
    game = full_game()
    assert game.state.phase is rules.Phase.GAME_OVER
    last = notice_text(game.notices[-1], RU)
    assert last == ("Игра окончена. Победа красных: все чёрные игроки покинули игру. "
                    "Роли: Дон — №2; мафия — №5, №7; Шериф — №8; остальные — мирные.")
    status = status_text(game.state, RU, for_judge=False)
    assert status.startswith("Игра окончена. Победа красных")


def test_result_text() -> None:
    game = full_game()
    result = result_text(game.state, RU)
    lines = result.splitlines()
    assert lines[0] == "Итоги игры. Победа красных: все чёрные игроки покинули игру."
    assert lines[1:6] == [
        "Покинули игру по порядку:",
        "1. №5 — покидает игру по итогам голосования (день 1)",
        "2. №4 Глеб — покидает игру: ночное убийство (ночь 1)",
        "3. №2 — удаление: дисквалификация — слёзы за игровым столом (4.2.7), день 2",
        "4. №7 — удаление: 4 фола, день 2 (4.5)",
    ]
    assert "Фолы: №7 — 4 фола." in lines
    assert "Лучший ход игрока №4 Глеб: №2, №7, №9 (чёрных: 2)." in lines
    assert lines[-1] == "Роли: Дон — №2; мафия — №5, №7; Шериф — №8; остальные — мирные."
    english = result_text(game.state, EN)
    assert english.startswith("The result. Red wins: every black player has left the game.")


def test_result_text_before_the_end_hides_roles_and_hits() -> None:
    game = Game().to_day_one()
    result = result_text(game.state, RU)
    assert result.splitlines()[0] == "Игра ещё не окончена."
    assert not ROLE_WORDS.search(result)


def test_team_loss_ppk_seed_4_3() -> None:
    game = Game().to_day_one()
    lines = texts(game.apply(Penalty(4, "4.3.2")))
    assert lines[0] == "ППК — поражение команды красных: игрок №4 — шантаж, угрозы и подкуп (4.3.2)."
    assert lines[1].startswith("Игра окончена. Победа чёрных: ППК — поражение команды красных.")


def _drawn(preset: str) -> rules.GameState:
    state = rules.new_game(rules.PRESETS[preset])
    state.phase = rules.Phase.GAME_OVER
    state.result = rules.Result(None, "draw")
    return state


def test_draw_is_announced_seed_5_8() -> None:
    """Seed 5.8: «Если в течение 3 «ночей» и «дней», следующих подряд друг за другом, начиная с
    «ночи», никто из игроков не покидает игру, присуждается ничья» — nights AND days."""
    assert result_text(_drawn("seed"), RU).splitlines()[0] == (
        "Итоги игры. Ничья: три «ночи» и три «дня» подряд, начиная с «ночи», "
        "— без выбывших (5.8).")


@pytest.mark.parametrize("preset", ["fiim2024", "fsm2024"])
def test_draw_is_announced_f24_7_7(preset: str) -> None:
    """F24/S24 §7.7 (RULES.md E3): «три «ночи» подряд … после третьей «ночи» присуждается
    ничья» — the 2024 presets count nights only."""
    ru, en = {"fiim2024": ("ФИИМ 2024", "FIIM 2024"), "fsm2024": ("ФСМ 2024", "FSM 2024")}[preset]
    assert result_text(_drawn(preset), RU).splitlines()[0] == (
        f"Итоги игры. Ничья: три «ночи» подряд без выбывших ({ru}, §7.7).")
    assert f"three nights in a row ({en}, §7.7)" in result_text(_drawn(preset), EN)


def test_draw_notice_follows_the_preset_and_its_count() -> None:
    """The GAME_OVER notice of a draw names what its preset counted (seed 5.8 / F24 §7.7) and how
    many (option ``draw_quiet_nights``); an older notice without it keeps the seed's words."""
    def line(**params: Any) -> str:
        return notice_text(nt.GameOver(winner=None, why="draw", roles=None, **params), RU) or ""
    assert line(draw_rule="after_third_day", nights=3) == (
        "Игра окончена. Ничья: три «ночи» и три «дня» подряд, начиная с «ночи», — без выбывших "
        "(5.8).")
    assert line(draw_rule="after_third_night", nights=3) == (
        "Игра окончена. Ничья: три «ночи» подряд без выбывших (ФИИМ 2024, §7.7).")
    assert line(draw_rule="after_third_day", nights=4) == (
        "Игра окончена. Ничья: 4 «ночи» и 4 «дня» подряд, начиная с «ночи», — без выбывших (5.8).")
    assert line(draw_rule="after_third_night", nights=5) == (
        "Игра окончена. Ничья: 5 «ночей» подряд без выбывших (ФИИМ 2024, §7.7).")
    assert line() == line(draw_rule="after_third_day", nights=3)


def test_morning_after_a_night_removal_and_a_miss_seed_4_5() -> None:
    """Seed 4.5: a disqualified player «немедленно покидает игру» — announced at night, once. So
    after a miss the morning must not say that nobody left; it names the miss, then that today's
    vote is not held (seed 5.1), the removed seat's reason never told."""
    game = Game().to_day_one()
    game.apply(Nominate(1, 3))
    game.speeches(10)  # day 1: a single nominee is not voted (F24 §4.4.10) → night 1
    night = game.apply(Penalty(9, "4.2.6"))
    assert [notice_text(n, RU) for n in night if not n.private] == [
        "Игрок №9 удаляется и покидает игру без последнего слова (4.5)."]
    said = game.apply(Next(), Next(), Next())  # miss, no checks
    morning = first(said, Kind.NIGHT_RESULT)
    assert notice_text(morning, RU) == "Наступает утро. Промах: ночного убийства нет."
    assert notice_text(morning, EN) == "Morning comes. A miss: nobody was killed tonight."
    banned = first(said, Kind.VOTE_CANCELLED)
    assert notice_text(banned, RU) == (
        "Сегодня, на 2-й день, голосование не проводится (5.1): удаление игрока №9: дисквалификация.")


def test_morning_after_a_kill_and_a_night_removal() -> None:
    """The kill in the morning; the removal, announced at night, is not announced again."""
    game = Game().to_day_one()
    game.apply(Nominate(1, 3))
    game.speeches(10)
    game.apply(*[Penalty(6, "foul")] * 4, NightKill(4))  # seed 4.5: the 4th foul removes #6
    morning = first(game.apply(Next(), Next(), Next()), Kind.NIGHT_RESULT)  # checks, best move
    assert notice_text(morning, RU) == "Наступает утро. Этой ночью убийство: игрок №4 покидает игру."


def test_a_quiet_miss_still_says_nobody_left() -> None:
    assert notice_text(nt.NightResult(night=1, killed=None, removed=(), killed_removed=None), RU) == (
        "Наступает утро. Промах: этой ночью никто не покидает игру.")


def test_a_removed_nominee_is_taken_off_the_ballot_seed_5_2() -> None:
    """Seed 5.2: a nominee removed after the vote's result is known does not stop the vote, but
    he can no longer be voted out; the unvoted hands go to the last nominee still at the table
    (F24 §4.4.8)."""
    game = Game().to_day_one()
    game.apply(Nominate(1, 6), Next(), Nominate(2, 7), Next(), Nominate(3, 8))
    game.speeches(8)  # the vote: 6, 7, 8
    game.apply(Vote(6, 6))  # 6 of 10: #6 cannot be caught (SC)
    lines = texts(game.apply(*[Penalty(8, "foul")] * 4))
    assert ("Игрок №8 покидает игру и снимается с голосования: голосования по этой кандидатуре больше нет (5.2). "
            "Последней кандидатурой становится игрок №7: этой кандидатуре отходят неподнятые руки "
            "(ФИИМ 2024, §4.4.8).") in lines
    assert "Против игрока №7 — 3 голоса: неподнятые руки отходят последней кандидатуре (ФИИМ 2024, §4.4.8)." in lines
    assert not any("Против игрока №8" in line for line in lines)


def test_team_mismatch_is_refused_in_words_seed_4_3() -> None:
    """Seed 4.3: the team loss falls on «команде игрока, совершившего нарушение»; a team that the
    entered roles contradict is refused, saying what the roles say."""
    game = Game().to_day_one()
    error = refusal(game, Penalty(7, "4.3.1", team="red"))
    assert error_text(error, RU) == (
        "Команда не та: по внесённым ролям игрок №7 — из команды чёрных, а указано red (красные). "
        "В ППК указывают команду нарушителя (4.3). Ничего не изменено.")
    assert error_text(error, EN) == (
        "Wrong team: by the entered roles player #7 is black, but red was given. A team loss "
        "names the offender's team (4.3). Nothing changed.")


# --- refusals -------------------------------------------------------------------------------

def refusal(game: Game, event: rules.Event) -> rules.RuleError:
    error = rules.check(game.state, event)
    assert error is not None
    return error


def test_not_speaker_names_who_speaks() -> None:
    game = Game().to_day_one()
    text = error_text(refusal(game, Nominate(4, 7)), RU)
    assert text == ("Выставлять кандидатуру можно только в свою минуту (ФИИМ 2024, §4.4.2): "
                    "сейчас говорит игрок №1, а не №4.")


def test_wrong_phase_names_the_phase_in_words() -> None:
    game = Game().to_day_one()
    text = error_text(refusal(game, Vote(3, 4)), RU)
    assert text == "Сейчас нельзя записать голоса: идёт фаза «речи»."
    game.apply(Nominate(1, 3))
    game.speeches(10)  # night 1, shooting
    text = error_text(refusal(game, DonCheck(3)), RU)
    assert text == "Сейчас нельзя записать проверку Дона: идёт фаза «стрельба»."
    english = error_text(refusal(game, DonCheck(3)), EN)
    assert english == "You can't record the Don's check now: the phase is “shooting”."


def test_every_rule_error_has_a_line() -> None:
    for code in rules.Code:
        params = {"seat": 3, "speaker": 1, "target": 7, "expected": 5, "count": 4, "left": 2,
                  "reason": "4.9.9", "role": "wizard", "black": 2, "don": 0, "sheriff": 1,
                  "event": "vote", "phase": "speech", "why": "removal"}
        for cat in (RU, EN):
            text = error_text(rules.RuleError(code, **params), cat)
            assert text and "{" not in text and "\n" not in text


def test_service_and_command_errors() -> None:
    service = pytest.importorskip("bot.service")
    commands = pytest.importorskip("bot.commands")
    for code in ("no_game", "not_judge", "game_exists", "nothing_to_undo"):
        assert error_text(service.ServiceError(code), RU) != error_text(rules.RuleError(rules.Code.GAME_OVER), RU)
    assert error_text(service.ServiceError("stale", revision=3, current=5), RU).startswith("Кнопка устарела")
    with pytest.raises(commands.CommandError) as caught:
        commands.parse("/frobnicate", None)
    assert error_text(caught.value, RU) == "Неизвестная команда: /frobnicate. Список команд: /help."
    with pytest.raises(commands.CommandError) as caught:
        commands.parse("/vote", None)
    assert "номер места" in error_text(caught.value, RU)
    assert error_text(ValueError("boom"), RU) == "Внутренняя ошибка. Действие не выполнено."


def test_reason_text() -> None:
    assert reason_text("4.2.7", RU) == "слёзы за игровым столом"
    assert reason_text("4.2.7", EN) == "tears at the table"
    assert reason_text("6.6.9", RU) == "отказ снять маску по требованию Судьи"


@pytest.mark.parametrize("cat", [RU, EN])
def test_fsm_2024_words_4_1_8_as_its_disqualifying_half(cat) -> None:
    """S24 §6.7.9 makes voting against several nominees disqualifying; under fsm2024 the code
    4.1.8 names only that half, its foul half is 6.6.8 (S24 §6.6.8); elsewhere 4.1.8 has both."""
    seed, fsm = reason_text("4.1.8", cat), reason_text("4.1.8", cat, "fsm2024")
    assert reason_text("4.1.8", cat, "fiim2024") == seed
    assert fsm != seed and "6.7.9" in fsm
    assert reason_text("6.6.8", cat, "fsm2024").split(": ", 1)[1] in seed


# --- the newcomer's report: the shooting, the names, the Russian words ---------------------

def night_one() -> Game:
    """Day 1 without nominees (no vote, seed 5.x / F24 §4.4.10), then night 1's shooting."""
    game = Game().to_day_one()
    game.speeches(10)
    assert game.state.night is not None and game.state.night.step is rules.NightStep.SHOOTING
    return game


def test_a_black_left_out_of_the_shots_is_named_r5_4() -> None:
    """RULES.md R5.4 (F24 §4.5.5): a black who does not shoot makes it a miss. The engine's
    ruling stands; the judge is told who did not shoot (blacks #2, #5, #7 at the table)."""
    game = night_one()
    notice = first(game.apply(Shots(((2, 1), (5, 1)))), Kind.SHOOTING_RESULT)
    assert notice.private and notice.params["why"] == "miss" and notice.params["killed"] is None
    assert notice.params["silent"] == [7]
    text = notice_text(notice, RU)
    assert text is not None and text.startswith("Стрельба: промах (без выстрела: игрок №7).")
    assert notice_text(notice, EN).startswith("Shooting: a miss (player #7 did not shoot).")
    assert game.state.seat(1).at_table  # a miss: nobody leaves


def test_two_blacks_left_out_and_everyone_shooting() -> None:
    game = night_one()
    notice = first(game.apply(Shots(((2, 1),))), Kind.SHOOTING_RESULT)
    assert "(без выстрела: игроки №5, №7)" in (notice_text(notice, RU) or "")
    game = night_one()
    notice = first(game.apply(Shots(((2, 1), (5, 1), (7, 1)))), Kind.SHOOTING_RESULT)
    assert notice.params["silent"] == [] and notice.params["killed"] == 1  # R5.3: a kill
    assert "не стрел" not in (notice_text(notice, RU) or "")


def test_a_shot_given_twice_names_the_seat_once() -> None:
    game = night_one()
    text = error_text(refusal(game, Shots(((2, 1), (2, 3)))), RU)
    assert text == ("Выстрел игрока №2 указан дважды, а у каждого один выстрел за ночь: оставьте одну"
                    " запись. Ничего не записано.")


@pytest.mark.parametrize(("length", "word"), [(501, "символ"), (502, "символа"), (521, "символ"),
                                              (505, "символов"), (511, "символов")])
def test_the_length_limit_has_its_plural(length: int, word: str) -> None:
    commands = pytest.importorskip("bot.commands")
    with pytest.raises(commands.CommandError) as caught:
        commands.parse("x" * length, None)
    assert error_text(caught.value, RU).startswith(f"Слишком длинное сообщение: {length} {word},")


def test_unraised_hands_is_one_word() -> None:
    text = notice_text(nt.VoteCounted(nominee=7, count=4, derived=True), RU)
    assert text is not None and "неподнятые руки" in text


@pytest.mark.parametrize(("name", "why"), [
    ("\u200b", "invisible"), (" \u200b\u2060 ", "invisible"), ("\u3164", "invisible"),
    ("\u202e", "invisible"), ("\x07\x1b", "invisible"), ("", "length"), ("я" * 65, "length"),
])
def test_a_name_must_have_something_visible(name: str, why: str) -> None:
    """Input hygiene, not a rule: a name with nothing visible (a zero-width space, a Hangul
    filler, only controls) is refused with a message saying why."""
    game = Game(roles=None)
    error = refusal(game, SetName(seat=3, name=name))
    assert error.code is rules.Code.BAD_NAME and error.params["why"] == why
    expected = {"invisible": "в имени нет ни одного видимого знака",
                "length": "от 1 до 64 символов"}[why]
    assert expected in error_text(error, RU)


@pytest.mark.parametrize(("name", "kept"), [
    ("\u200b Вася\ufeff", "Вася"),  # invisible characters around a name are dropped
    ("Вася\u202eяилатИ", "ВасяяилатИ"),  # a right-to-left override would reverse what follows
    ("\u2067Али\u2069", "Али"), ("\u200fAli\u200f", "Ali"),  # isolates and marks (Unicode TR9)
    ("Ва\x07ся", "Вася"), ("Анна\tМария", "Анна Мария"),  # control characters
    ("👨\u200d👩\u200d👧", "👨\u200d👩\u200d👧"),  # a joiner inside a name is kept
])
def test_controls_are_taken_out_of_a_name(name: str, kept: str) -> None:
    """Control characters and text-direction controls are taken out of a name (not refused, so
    that a platform's display name still seats its player)."""
    game = Game(roles=None)
    game.apply(SetName(seat=3, name=name))
    assert game.state.seat(3).name == kept



#: the command errors whose parameters are never what the user typed: ``missing_argument``'s
#: ``argument`` names what is missing (a seat, a name); ``wrong_reason``'s ``reason`` is a code
#: the game has (only of another weight)
NOT_TYPED = {"missing_argument", "wrong_reason"}


@pytest.mark.parametrize("lang", LANGS)
def test_a_refusal_repeats_the_typed_words_only_where_the_asker_alone_reads_it(lang: str) -> None:
    """Issue 36: a group's catalog (:meth:`Catalog.unquoting`) never repeats what the user
    typed in a refusal — every command error, the unknown reason and points — while a private
    chat's quotes it, cleaned of text-direction, zero-width and control characters."""
    from bot.commands import COMMAND_ERROR_CODES, CommandError

    typed = "\u202eШериф\u200b№7\x07"
    shown = "Шериф№7"
    cat = catalog(lang)
    group = cat.unquoting()
    assert group.unquoting() is group and cat.unquoting() is group
    params = {"argument": typed, "preset": typed, "option": typed, "value": typed, "lang": typed,
              "reason": typed, "seat": 3, "limit": 100, "length": 5000, "codes": "4.1.1"}
    errors: list[Exception] = [rules.RuleError(rules.Code.UNKNOWN_REASON, reason=typed),
                               rules.RuleError(rules.Code.BAD_POINTS, value=typed)]
    errors += [CommandError(code, **params, command=typed if code == "unknown_command" else "foul")
               for code in COMMAND_ERROR_CODES if code not in NOT_TYPED]
    quoted = 0
    for error in errors:
        private, public = error_text(error, cat), error_text(error, group)
        assert shown not in public and "Шериф" not in public, (error, public)
        assert not any(ch in private for ch in "\u202e\u200b\x07"), (error, private)
        code = error.code.value if isinstance(error, rules.RuleError) else error.code
        key = f"{'error' if isinstance(error, rules.RuleError) else 'command'}-{code}"
        if key in render_module.TYPED_PARAMS:
            assert shown in private, (error, private)
            quoted += 1
    assert quoted == len(render_module.TYPED_PARAMS)


def test_a_name_said_back_is_cleaned_and_escaped_where_the_platform_reads_markup() -> None:
    """:meth:`Catalog.name` and :meth:`Catalog.said` take out what would reorder or hide the
    text (a right-to-left override, a zero-width space, ESC) before a platform's escaping."""
    escaping = RU.escaping(lambda text: text.replace("*", "\\*"))
    assert RU.name("Бо\u200bрис\u202e") == "Борис"
    assert escaping.said("**Бо\u200bрис**\x1b") == "\\*\\*Борис\\*\\*"
    assert escaping.unquoting().said("**Борис**") == RU.text("said-unquoted") == "…"


# --- rule numbers: the club's own (seed) vs FIIM 2024 ---------------------------------------

SEED_RULES = Path(__file__).resolve().parents[1].parent / "shared" / "rules" / "seed-rules.ru.txt"
OWN_CATALOGS = ("notices", "errors", "common", "status", "reasons")
BOOK_MARKS = {"ru": ("ФИИМ 2024, ", "ФСМ 2024, "), "en": ("FIIM 2024, ", "FSM 2024, ")}


def test_rule_numbers_not_in_the_seed_name_their_rule_book() -> None:
    """A judge looks a cited number up in his club's rules (seed-rules.ru.txt), where 4.4 is the
    third-foul rule: a FIIM 2024 number such as 4.4.8 or 7.9 would read as a seed item. Every
    number cited in parentheses is therefore a seed item, or is marked «ФИИМ 2024, …» or
    «ФСМ 2024, …»."""
    if not SEED_RULES.exists():
        pytest.skip(f"the seed rule text is not beside the project ({SEED_RULES})")
    seed = set(re.findall(r"^(\d+(?:\.\d+)+)\.?\s", SEED_RULES.read_text("utf-8"), re.M))
    assert {"4.4", "4.5", "4.1.8", "4.2.10", "4.3.3", "5.1", "5.9"} <= seed
    bad: list[str] = []
    for lang in LANGS:
        for name in OWN_CATALOGS:
            path = Path(render_module.__file__).resolve().parent / "locales" / lang / f"{name}.ftl"
            for line in path.read_text("utf-8").splitlines():
                if line.lstrip().startswith("#"):
                    continue
                for group in re.findall(r"\(([^()]*)\)", line):
                    if group.startswith(BOOK_MARKS[lang]):
                        continue
                    bad += [f"{lang}/{name}: {n} in «{line.strip()}»"
                            for n in re.findall(r"\b\d+(?:\.\d+)+\b", group) if n not in seed]
    assert not bad, "\n".join(bad)


# --- issue 10: each preset's own rule numbers, the removal's cause, natural days ------------------

@pytest.mark.parametrize("preset, cited", [("seed", "4.5"), ("fiim2024", "ФИИМ 2024, §6.5"),
                                           ("fsm2024", "ФСМ 2024, §6.5")])
def test_each_preset_cites_its_own_numbers(preset: str, cited: str) -> None:
    """Seed 4.5 = F24/S24 §6.5: the same removal cites the preset's own text («ФСМ 2024» under
    FSM, never «ФИИМ 2024»); so do seed 5.1 / F24 §7.1 and the F24-only §4.4.8."""
    removed = nt.Removed(seat=4, cause="fouls", reason="foul", tournament=False, last_word=None,
                         rules=preset)
    assert notice_text(removed, RU) == f"Игрок №4 покидает игру без последнего слова: четвёртый фол ({cited})."
    banned = nt.NextVoteCancelled(day=4, seat=5, rule="5.2", cause="disqualification", reason="4.2.4",
                                  rules=preset)
    rule = {"seed": "5.2", "fiim2024": "ФИИМ 2024, §7.2", "fsm2024": "ФСМ 2024, §7.2"}[preset]
    assert notice_text(banned, RU) == (
        f"На 4-й день голосование не проводится ({rule}): удаление игрока №5: дисквалификация (4.2.4).")
    derived = nt.VoteCounted(nominee=7, count=2, derived=True, rules=preset)
    assert ("ФСМ 2024, §4.4.8" if preset == "fsm2024" else "ФИИМ 2024, §4.4.8") in (notice_text(derived, RU) or "")


@pytest.mark.parametrize("preset", ["seed", "fiim2024", "fsm2024"])
def test_an_option_taken_from_another_rule_set_cites_that_set(preset: str) -> None:
    """Three tied of nine not raised is F24 §7.11 under every preset that plays it: the FSM text
    has no such clause, so fsm2024 with ``raise_3_of_9=false`` cites FIIM, never «ФСМ 2024,
    §7.11». The draw after the third quiet day is seed 5.8 (docs/rules.md §8.3); under a 2024
    preset with ``draw_declared=after_third_day`` it is the club edition's, not F24/S24 §7.7
    (three nights)."""
    no_raise = nt.NobodyLeaves(why="3_of_9", seats=(3, 5, 7), rules=preset)
    assert (notice_text(no_raise, RU) or "").endswith("(ФИИМ 2024, §7.11).")
    assert (notice_text(no_raise, EN) or "").endswith("(FIIM 2024, §7.11).")
    draw = nt.GameOver(winner=None, why="draw", roles=None, draw_rule="after_third_day", nights=3,
                       rules=preset)
    cited = "5.8" if preset == "seed" else "редакция клуба, 5.8"
    assert f"подряд, начиная с «ночи», — без выбывших ({cited})." in (notice_text(draw, RU) or "")
    assert ("§7.7" not in (notice_text(draw, EN) or "")) and ("5.8)." in (notice_text(draw, EN) or ""))


def test_no_unraised_hands_line_when_no_hands_were_left() -> None:
    """F24 §4.4.8 speaks of hands not raised; with none left the last nominee just has 0."""
    none_left = nt.VoteCounted(nominee=7, count=0, derived=True)
    assert notice_text(none_left, RU) == "Против игрока №7 — 0 голосов."
    assert notice_text(none_left, EN) == "Against player #7 — 0 votes."


def test_the_third_foul_at_four_players_says_thirty_seconds() -> None:
    """Seed 5.7: with 3 or 4 at the table the 3rd foul shortens the nearest speech to 30 s."""
    third = nt.ThirdFoul(seat=6, effect="silence", may_nominate=True, short=True, seconds=30)
    assert notice_text(third, RU) == ("Игрок №6 получает третий фол: за столом три или четыре игрока, "
                                      "поэтому ближайшая речь этого игрока — 30 секунд (5.7).")


@pytest.mark.parametrize("lang", ["ru", "en"])
def test_a_removal_in_ones_last_word_is_one_announcement(lang: str) -> None:
    """Seed 4.5: «без последнего слова» — the last word ends; he does not leave a second time."""
    cat = catalog(lang)
    cut = notice_text(nt.Removed(seat=6, cause="disqualification", reason="4.2.4", tournament=False,
                                 last_word="cut"), cat) or ""
    assert ("последнее слово окончено" in cut) if lang == "ru" else ("last word ends" in cut)
    assert "покидает игру" not in cut and "leaves the game" not in cut


# --- the rules in force: the preset and the club's options ------------------------------------

def _option_values() -> Iterator[tuple[str, Any]]:
    """Every value of every rule option (enums, both booleans, a changed number, a timer)."""
    import enum as enum_module
    for field in dataclasses.fields(rules.RulesConfig):
        value = getattr(rules.RulesConfig(), field.name)
        if field.name in ("preset", "timers"):
            continue
        if isinstance(value, bool):
            yield field.name, True
            yield field.name, False
        elif isinstance(value, enum_module.Enum):
            yield from ((field.name, member.value) for member in type(value))
        else:
            yield field.name, value + 1


@pytest.mark.parametrize("lang", LANGS)
def test_every_option_value_has_words(lang: str) -> None:
    """Each club option that differs from the preset is shown in words, never as name=value."""
    cat = catalog(lang)
    for name, value in _option_values():
        options = {"raise_3_of_9": True, name: value} if name == "raise_3_of_9_from_day" else {name: value}
        text = render_module.options_text(options, cat)
        assert "=" not in text and text.strip(), (name, value, text)
    assert "45" in render_module.options_text({"timers": {"speech": 45}}, cat)


def test_the_rules_line_shows_only_what_differs_from_the_preset() -> None:
    """The header, /status and the protocol say which club rules are in force (MafiaRatings
    options on a preset); a plain preset is just its name."""
    assert render_module.config_label(rules.PRESETS["fiim2024"], RU) == RU.text("preset-fiim2024")
    config = rules.PRESETS["fiim2024"].with_options(rotation="last", technical_fouls=True,
                                                    raise_3_of_9_from_day=3)
    label = render_module.config_label(config, RU)
    assert label.startswith(RU.text("preset-fiim2024"))
    assert RU.text("option-rotation-last") in label and RU.text("option-technical_fouls-yes") in label
    assert "девяти" not in label  # F24 raises no 3 of 9 at all: its first day means nothing
    game = Game("fiim2024", rotation="last", technical_fouls=True)
    started = game.apply(StartGame())
    line = render_module.config_label(game.state.config, RU)
    assert RU.text("option-rotation-last") in line and line in texts(started)[0]
    for view in (True, False):  # the rules are public: the judge and the players see them
        assert RU.text("status-rules", rules=line) in status_text(game.state, RU, for_judge=view)
    plain = Game("fiim2024")
    plain.apply(StartGame())
    assert all(not ln.startswith(RU.text("status-rules", rules="").split(":")[0])
               for ln in status_text(plain.state, RU, for_judge=True).splitlines())
    assert any(RU.text("preset-fiim2024") + "." in t for t in texts(plain.notices))


@pytest.mark.parametrize("lang", LANGS)
def test_a_games_rule_options_are_not_called_the_clubs(lang: str) -> None:
    """A game played under fiim2024 or fsm2024 with options (a Polemica record's first-day
    «liftOnly», MafiaRatings' withdrawal, a club's /new options) says «this game's rule», never
    «club rule»: the options are the game's, whoever chose them. Only the seed preset is the
    club's edition (its name says so, and so does seed 5.8's draw cited as an option)."""
    cat = catalog(lang)
    club = re.compile(r"клуб|\bclub", re.I)
    for preset in ("fiim2024", "fsm2024"):
        for notice in variants():
            if isinstance(notice, nt.GameOver) and notice.draw_rule == "after_third_day":
                continue  # seed 5.8 taken as an option cites its rule set by name (see
                #           test_an_option_taken_from_another_rule_set_cites_that_set)
            notice = dataclasses.replace(notice, rules=preset)
            if isinstance(notice, nt.GameStarted):
                notice = dataclasses.replace(notice, preset=preset)
            text = notice_text(notice, cat) or ""
            assert not club.search(text), (preset, notice.kind, text)
        config = rules.PRESETS[preset].with_options(first_day_vote="raise_only", technical_fouls=True,
                                                    nomination_withdrawal="auto")
        label = render_module.config_label(config, cat)
        assert cat.text("option-technical_fouls-yes") in label and not club.search(label), label


@pytest.mark.parametrize(("preset", "ru", "en"), [("seed", "ФИИМ 2024, §4.4.", "FIIM 2024, §4.4."),
                                                 ("fiim2024", "ФИИМ 2024, §4.4.", "FIIM 2024, §4.4."),
                                                 ("fsm2024", "ФСМ 2024, §4.4.", "FSM 2024, §4.4.")])
def test_a_refusal_cites_its_presets_rule(preset: str, ru: str, en: str) -> None:
    """A refusal names the rule as the game's preset numbers it: where the seed is silent
    (nominations) the seed preset cites FIIM 2024 (docs/rules.md §1); FSM 2024 its own text.
    #1 speaks: #2 may not nominate (§4.4.2); #1 nominates twice (§4.4.3)."""
    game = Game(preset).to_day_one()
    refusals = []
    for event in (rules.Nominate(by=2, target=5), rules.Nominate(by=1, target=5),
                  rules.Nominate(by=1, target=6)):
        error = rules.check(game.state, event)
        if error is None:
            game.apply(event)
        else:
            refusals.append(error)
    assert [e.code for e in refusals] == [rules.Code.NOT_SPEAKER, rules.Code.NOMINATION_USED]
    assert f"{ru}2)" in error_text(refusals[0], RU) and f"{ru}3)" in error_text(refusals[1], RU)
    assert f"{en}2)" in error_text(refusals[0], EN) and f"{en}3)" in error_text(refusals[1], EN)


@pytest.mark.parametrize("preset, cited", [("seed", "5.4)"), ("fiim2024", "ФИИМ 2024, §7.4"),
                                           ("fsm2024", "ФСМ 2024, §7.4")])
def test_the_judges_list_of_nominees_cites_seed_5_4_as_the_preset_numbers_it(preset: str, cited: str) -> None:
    """Seed 5.4 is F24/S24 §7.4: under a 2024 preset the panel's nominee list cites that."""
    state, _ = rules.fold(rules.PRESETS[preset], [rules.StartGame(), rules.Next(),
                                                  rules.Nominate(by=1, target=5)])
    text = render_module.status_text(state, catalog("ru"), for_judge=True)
    line = next(x for x in text.splitlines() if x.startswith("Выставлены"))
    assert cited in line and (preset == "seed" or "5.4" not in line), line


def _seats_listed(text: str) -> list[int]:
    """The seats of /result's list of departures, in its order."""
    out = []
    for line in text.splitlines():
        found = re.match(r"\d+\. №(\d+) — ", line)
        if found:
            out.append(int(found.group(1)))
    return out


@pytest.mark.parametrize("preset", sorted(rules.PRESETS))
@pytest.mark.parametrize("when", ["before the shooting", "in the checks"])
@pytest.mark.parametrize("night", [1, 2])
def test_one_order_of_departures_everywhere_the_rules_order(preset: str, when: str, night: int) -> None:
    """A removal in night k and the night's kill: the removed seat leaves at once (seed 4.5),
    the victim at the end of the night (F24 §4.5.4) — /result, the JSON protocol's outcome and
    the replay list them in that order, whichever was recorded first; a team loss (seed 4.3:
    the team is awarded the loss, the game ends) comes last in all three."""
    from bot.protocol.record import departure_of, read_game
    from rules.records.replay import engine_outcome

    roles = rules.SetRoles(tuple("don" if n == 2 else "mafia" if n in (5, 7) else
                                 "sheriff" if n == 8 else "civilian" for n in range(1, 11)))
    events: list[rules.Event] = [roles, rules.StartGame(), rules.Next()]
    if night == 2:
        events += [rules.Next()] * 10 + [rules.NightKill(target=9), rules.Next(), rules.Next(),
                                         rules.Next(), rules.Next()]  # night 1: #9, last word
    events += [rules.Next()] * (10 if night == 1 else 9)
    removal = rules.Penalty(seat=4, reason="4.2.5")
    if when == "before the shooting":
        events += [removal, rules.NightKill(target=1)]
    else:
        events += [rules.NightKill(target=1), removal]
    events += [rules.Next(), rules.Next()]
    if night == 1:
        events += [rules.Next()]  # no best move given
    events += [rules.Penalty(seat=5, reason="4.3.1")]
    config = rules.PRESETS[preset]
    state, notices = rules.fold(config, events)
    assert state.phase is rules.Phase.GAME_OVER and state.team_loss_by == 5
    expected = ([9] if night == 2 else []) + [4, 1, 5]
    assert _seats_listed(render_module.result_text(state, catalog("ru"))) == expected
    assert [d.seat for d in engine_outcome(state, notices).departures] == expected
    record = read_game(config, {}, events)
    assert [d["seat"] for d in record.outcome()["departures"]] == expected
    assert departure_of(record, 5) is not None  # the sheet's «Выбытие» names the team loss too
    text = render_module.result_text(state, catalog("ru"))
    assert "Выбывших нет" not in text and "ППК — команде присуждается поражение" in text


def test_a_team_loss_alone_is_listed_not_nobody_left() -> None:
    state, _ = rules.fold(rules.PRESETS["seed"], [rules.SetRoles(tuple(
        "don" if n == 2 else "mafia" if n in (5, 7) else "sheriff" if n == 8 else "civilian"
        for n in range(1, 11))), rules.StartGame(), rules.Next(), rules.Penalty(seat=5, reason="4.3.1")])
    for lang in ("ru", "en"):
        text = render_module.result_text(state, catalog(lang))
        assert _seats_listed(text) == [5] or "#5" in text, text
    assert "Выбывших нет" not in render_module.result_text(state, catalog("ru"))


@pytest.mark.parametrize("preset", sorted(rules.PRESETS))
@pytest.mark.parametrize("option, cited", [("silence", None), ("short_speech", "правило этой игры")])
def test_a_pending_third_foul_reads_as_the_engine_will_serve_it(preset: str, option: str,
                                                               cited: str | None) -> None:
    """/status: a 3rd foul's penalty to come is the silence of seed 4.4 — or, with the option
    ``third_foul=short_speech``, a 30 s speech by the game's rule (never «без слова», never
    seed 5.7 at ten players)."""
    config = rules.PRESETS[preset].with_options(third_foul=option)
    events = [rules.StartGame(), rules.Next()] + [rules.Penalty(seat=5, reason="foul")] * 3
    state, _ = rules.fold(config, events)
    line = next(x for x in render_module.status_text(state, catalog("ru"), for_judge=False).splitlines()
                if x.startswith("№5"))
    if cited is None:
        assert "без слова в ближайшую минуту" in line, line
    else:
        assert "ближайшая речь — 30 секунд" in line and cited in line and "5.7" not in line, line
