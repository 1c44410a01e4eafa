"""The words a judge types: the Russian command words («дальше», «пас», «фол 5», «голос 7 4» …)
work like the English names; /help and an unknown reason list the game's reason codes; /warn
takes no reason and the help says so; a duplicated /new option is refused; a refusal whose
way out is /undo (the roles after the start) says so; /new's options are shown after /new and
in /status."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import rules
from bot.commands import RUSSIAN_WORDS, Act, CommandError, parse, reason_codes
from bot.console import Session
from bot.i18n import catalog
from bot.render import error_text
from bot.service import Service
from storage import Store


@pytest.mark.parametrize(("typed", "english"), [
    ("дальше", "/next"), ("далее", "/next"), ("пас", "/next"), ("Дальше", "/next"),
    ("фол 5", "/foul 5"), ("фол 5 4.1.1", "/foul 5 4.1.1"), ("/фол 5", "/foul 5"),
    ("голос 7 4", "/vote 7 4"), ("голос 7 1,2,3", "/vote 7 1,2,3"), ("подъём 6", "/raise 6"),
    ("подъем 6", "/raise 6"), ("выставить 3 7", "/nominate 3 7"), ("убийство 4", "/kill 4"),
    ("промах", "/miss"), ("дон 3", "/don 3"), ("шериф 5", "/sheriff 5"), ("лх 1 2 3", "/bestmove 1 2 3"),
    ("дк 5", "/dq 5"), ("ппк 5 4.3.1 red", "/ppk 5 4.3.1 red"), ("отмена", "/undo"), ("статус", "/status"),
    ("помощь", "/help"), ("роли D2 M5 M7 S8", "/roles D2 M5 M7 S8"), ("имя 3 Вася", "/name 3 Вася"),
])
def test_the_russian_words_are_the_commands(typed: str, english: str) -> None:
    assert parse(typed, None) == parse(english, None)


def test_every_russian_word_names_a_command_and_is_in_the_help() -> None:
    help_ru = catalog("ru").text("commands-help")
    for word in ("дальше", "пас", "голос 7 4", "фол 5", "отмена"):
        assert word in help_ru
    assert all(word == word.lower() for word in RUSSIAN_WORDS)


def test_a_duplicated_option_is_refused() -> None:
    with pytest.raises(CommandError) as caught:
        parse("/new seed best_move=no best_move=yes", None)
    assert caught.value.code == "duplicate_option" and caught.value.params == {"option": "best_move"}
    with pytest.raises(CommandError):
        parse("/new fiim2024 timers.speech=45 timers.speech=50", None)
    assert parse("/new fiim2024 best_move=no timers.speech=45", None)  # distinct options pass


@pytest.mark.parametrize("preset", sorted(rules.PRESETS))
def test_an_unknown_reason_lists_the_games_codes(preset: str) -> None:
    state = rules.new_game(rules.PRESETS[preset])
    with pytest.raises(CommandError) as caught:
        parse("/foul 5 9.9.9", state)
    codes = caught.value.params["codes"]
    fouls = [code for code, r in state.config.reasons.items() if r.severity is rules.Severity.FOUL]
    assert set(codes.split(", ")) == set(fouls)
    assert "4.1.1" in codes and "4.2.1" not in codes  # a foul's reasons, not a disqualification's
    text = catalog("ru").text("command-unknown_reason", **caught.value.params)
    assert "9.9.9" in text and codes in text


@pytest.mark.parametrize("preset", sorted(rules.PRESETS))
def test_tech_in_a_game_without_technical_fouls_says_so(preset: str) -> None:
    """MafiaRatings 9.6.2 (``technical_fouls``): without the option there is no technical foul
    at all — the refusal says so and names the option, not an empty list of codes."""
    state = rules.new_game(rules.PRESETS[preset])
    for typed in ("/tech 3", "/tech 3 tech", "/тех 3 9.9"):
        with pytest.raises(CommandError) as caught:
            parse(typed, state)
        assert caught.value.code == "no_technical_fouls"
        for lang in ("ru", "en"):
            text = error_text(caught.value, catalog(lang))
            assert "technical_fouls=yes" in text and ": ." not in text
    on = rules.new_game(rules.PRESETS[preset].with_options(technical_fouls=True))
    assert parse("/tech 3", on) == Act(rules.Penalty(seat=3, reason="tech"))
    with pytest.raises(CommandError) as caught:
        parse("/tech 3 9.9", on)
    assert caught.value.code == "unknown_reason" and caught.value.params["codes"] == "tech"


@pytest.fixture
async def session(tmp_path: Path) -> Any:
    store = await Store.open(tmp_path / "referee.sqlite3")
    try:
        yield Session(Service(store), catalog("ru"))
    finally:
        await store.close()


async def test_help_lists_the_reason_codes_of_the_game(session: Session) -> None:
    before = "\n".join((await session.handle("/help")).lines)
    assert reason_codes(rules.REASONS[rules.DEFAULT_PRESET]) in before
    assert "/warn 5 — предупреждение" in before and "/warn 5 [причина]" not in before
    assert (await session.handle("/new fiim2024")).accepted
    after = "\n".join((await session.handle("помощь")).lines)
    assert reason_codes(rules.REASONS["fiim2024"]) in after and "6.8.4" in after


async def test_roles_after_the_start_point_to_undo(session: Session) -> None:
    for line in ("/new", "/roles D2 M5 M7 S8", "/start", "дальше"):
        assert (await session.handle(line)).accepted, line
    reply = await session.handle("/roles D3 M5 M7 S8")
    assert not reply.accepted and "/undo" in reply.lines[0]


async def test_the_new_options_are_shown_after_new_and_in_status(session: Session) -> None:
    reply = await session.handle("/new fiim2024 best_move=no timers.speech=45")
    shown = catalog("ru").text("option-best_move-no")
    assert reply.accepted and shown in reply.lines[0] and "45" in reply.lines[0]
    status = "\n".join((await session.handle("/status")).lines)
    assert shown in status and "45" in status


async def test_a_shot_given_twice_in_one_shots_is_not_said_to_be_recorded(session: Session) -> None:
    """F24 §4.5.3: one shot per black a night. ``/shots 2:4 2:4`` is refused as a shot given
    twice — nothing was recorded, so the refusal does not say the shot «уже записан»."""
    await session.open()
    for line in ("/new", "/roles D2 M5 M7 S8", "/start", *["/next"] * 12):
        await session.handle(line)
    current = await session.service.current(session.chat)
    assert current is not None and current.state.night is not None
    assert current.state.night.step is rules.NightStep.SHOOTING
    reply = await session.handle("/shots 2:4 2:4 5:4 7:4")
    assert not reply.accepted
    assert "дважды" in reply.lines[0] and "уже записан" not in reply.lines[0]
    after = await session.service.current(session.chat)
    assert after is not None and after.state == current.state
