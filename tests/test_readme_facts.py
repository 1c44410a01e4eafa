"""The README states what the code does (newcomer's report: README inaccuracies): every timer
option with its true default, the commands of the CLI, and when roles may be entered — each
checked against the code, so that a change to one without the other fails here."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

import pytest

import rules
from bot.cli import _parser as build_parser
from bot.i18n import catalog
from bot.render import error_text

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text("utf-8")
README_RU = (ROOT / "README.ru.md").read_text("utf-8")


def test_the_options_table_names_every_timer_with_its_default() -> None:
    table = {m[1]: m[2] for m in re.finditer(r"^\| `timers\.(\w+)` \| `(\d+)`", README, re.M)}
    pairs = re.search(r"^\| `timers\.don_check` · `timers\.sheriff_check` \| `(\d+)` · `(\d+)`",
                      README, re.M)
    assert pairs is not None
    table.update(don_check=pairs[1], sheriff_check=pairs[2])
    defaults = rules.config.Timers()
    for field in dataclasses.fields(rules.config.Timers):
        if field.name == "vote_window":  # a hosted table's: the host setting's default
            assert re.search(r"^\| `timers\.vote_window` \| `10` in host mode", README, re.M)
            assert f"`{field.name}`" in README_RU and "10 (`MAFIA_REFEREE_HOST_VOTE_WINDOW`)" in README_RU
            continue
        assert table.get(field.name) == str(getattr(defaults, field.name)), field.name
        assert f"`{field.name}` {getattr(defaults, field.name)}" in README_RU, field.name


def test_the_commands_block_lists_every_subcommand() -> None:
    block = README.split("## Commands", 1)[1].split("\n\n", 2)[1]
    listed = set(re.findall(r"^    mafia-referee (\S+)", block, re.M)) - {"#", "COMMAND", "--version"}
    parser = build_parser()
    sub = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    assert set(sub.choices) <= listed | {"help"}, set(sub.choices) - listed


@pytest.mark.parametrize("preset", sorted(rules.PRESETS))
def test_roles_are_entered_before_the_start_or_in_night_zero_as_the_readme_says(preset: str) -> None:
    """README.ru: «Роли вносятся до /start или в нулевую ночь»; the day-1 refusal says the same."""
    deal = rules.SetRoles(("civilian", "don", "civilian", "civilian", "mafia", "civilian", "mafia",
                           "sheriff", "civilian", "civilian"))
    state = rules.new_game(rules.PRESETS[preset])
    state, _ = rules.apply(state, rules.StartGame())
    state, _ = rules.apply(state, deal)  # night 0: accepted
    state, _ = rules.apply(state, rules.SetRoles((None,) * 10))  # and wiped
    assert not state.roles_known
    state, _ = rules.apply(state, deal)
    state, _ = rules.apply(state, rules.Next())  # day 1 … (or the Sheriff's look first)
    while state.phase is rules.Phase.NIGHT_ZERO:
        state, _ = rules.apply(state, rules.Next())
    error = rules.check(state, deal)
    assert error is not None and error.code is rules.Code.WRONG_PHASE
    assert "нулевую ночь" in error_text(error, catalog("ru")) and "night 0" in error_text(error, catalog("en"))
    assert "до `/start` или в нулевую ночь" in README_RU


def test_the_group_answers_that_yield_are_commands_a_group_is_answered() -> None:
    """README (MAFIA_REFEREE_TELEGRAM_RATE_GROUP): the answers that only read and yield to the
    game are of commands typed in the group — each one a group is answered (the others, /log
    among them, are the judge's private chat's: refused in a group, never left out)."""
    from bot import commands as cmds

    row = re.search(r"^\| `TELEGRAM_RATE_GROUP`.*an answer that only reads \(([^)]*)\)", README, re.M)
    assert row is not None
    named = re.findall(r"`/(\w+)`", row[1])
    assert named
    for name in named:
        found = cmds.spec(name)
        assert found is not None and found.routes_at(cmds.Place.GROUP, "tg"), name
