"""The judge's corrections on Telegram, over the fake Bot API: the audit trail (``/log all`` and
the panel's «Журнал» button: every action, who recorded it and when, what was undone and by whom)
and ``/fix`` (an earlier action replaced, the rest of the log replayed over it)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import AsyncIterator

import pytest

import rules
from fakebot import FakeBotAPI
from support.telegram_table import Table, linked_day_one, table

pytestmark = pytest.mark.usefixtures("ptb_timedelta")  # PTB gives retry_after as a timedelta

CLOCK = r"\d\d:\d\d:\d\d"


@pytest.fixture
async def t(fake: FakeBotAPI, tmp_path: Path) -> AsyncIterator[Table]:
    async with linked_day_one(fake, tmp_path / "referee.sqlite3") as running_table:
        yield running_table


async def test_log_all_shows_the_undone_actions_with_their_authors(t: Table) -> None:
    """The judge's foul is undone by him; an admin takes the game over, records a foul and undoes
    it: the trail names both judges, each action, each undo and what it took back."""
    judge, owner = f"tg:{t.judge.id}", f"tg:{t.players[0].id}"
    await t.say("/foul 3 4.1.2")  # 4
    await t.press("Отмена хода ↩")  # 5
    await t.say("/takeover", chat=t.group, user=t.players[0])
    await t.say("/foul 6", chat=t.players[0], user=t.players[0])  # 6
    await t.say("/undo", chat=t.players[0], user=t.players[0])  # 7
    await t.say("/log all", chat=t.players[0], user=t.players[0])
    trail = t.fake.sent(t.players[0])[-1].text or ""
    lines = trail.splitlines()[1:]
    assert [re.sub(CLOCK, "T", line) for line in lines] == [
        f"1. T · {judge} · /roles D2 M5 M7 S8", f"2. T · {judge} · /start", f"3. T · {judge} · /next",
        f"4. T · {judge} · /foul 3 4.1.2 — отменено действием 5 ({judge}, T)",
        f"5. T · {judge} · ↩ отмена действия 4",
        f"6. T · {owner} · /foul 6 — отменено действием 7 ({owner}, T)",
        f"7. T · {owner} · ↩ отмена действия 6",
    ]
    # the panel's button posts the same trail below the panel; the group never sees it
    await t.press("Журнал 📜", user=t.players[0], message=t.panel(t.players[0]))
    assert (t.fake.sent(t.players[0])[-1].text or "").splitlines()[1:] == lines
    assert not [x for x in t.public() if "/foul" in x or "отмена действия" in x]


async def test_a_correction_three_actions_back_and_one_refused(t: Table) -> None:
    """/fix moves a foul recorded three actions back to the seat it was meant for: his third
    (seed 4.4: silent in his next speech). The judge reads what changed; the group gets a short
    correction of what it had been told (no command, no private notice). A correction that
    would break a later action is refused, naming it; nothing changes."""
    for text in ("/foul 5", "/foul 5", "/foul 3 4.1.2", "/nominate 4"):  # actions 4–7
        await t.say(text)
    await t.press("Далее ▶")  # 8
    await t.press("Далее ▶")  # 9: #3 speaks
    group = len(t.public())
    await t.say("/fix 6 /foul 5 4.1.2")
    state = await t.state()
    assert (len(state.seat(5).fouls), len(state.seat(3).fouls), state.speaker) == (3, 0, 3)
    private = "\n".join(t.private())
    assert "✎ Исправлено действие 6: было «/foul 3 4.1.2», стало «/foul 5 4.1.2»." in private
    assert "+ Игрок №5 получает третий фол: лишается слова в ближайшую минуту" in private
    [correction] = [x for x in t.public()[group:] if "Поправка судьи" in x]
    assert "+ Игрок №5 получает третий фол" in correction and "/foul" not in correction
    assert "Сейчас: речь игрока №3." in correction
    log = await t.log_length()
    await t.say("/fix 4 /dq 5")
    refusal = t.fake.sent(t.judge)[-1].text or ""
    assert refusal.startswith("Исправление не принято: с ним было бы невозможно действие 5 «/foul 5».")
    assert await t.log_length() == log
    await t.press("Далее ▶")
    await t.press("Далее ▶")
    assert (await t.state()).speaker == 5 and (await t.state()).seconds == 0  # silenced (seed 4.4)


async def test_an_undone_correction_the_group_never_saw_is_not_announced(t: Table) -> None:
    """At night the judge corrects the shooting (a kill into a miss: nothing the group has been
    told changes, so it hears nothing) and takes the correction back: the group hears nothing
    of that either — "the judge undid an action" would tell it that something hidden was
    changed at night (F24 §4.4.13). An undone correction of what it was told is announced."""
    await t.say("/foul 6")  # 4
    for _ in range(10):  # day 1: ten speeches, nobody nominated; night 1's shooting
        await t.say("/next")
    await t.say("/kill 4")  # 15
    assert (await t.state()).night.step is rules.NightStep.DON_CHECK  # type: ignore[union-attr]
    heard = t.public()
    await t.say("/fix 15 /miss")
    await t.say("/undo")
    assert t.public() == heard
    assert "Отменено 1 действие" in t.private()[-1]
    assert (await t.state()).seat(4).departure is not None  # the kill stands again
    await t.say("/fix 4 /foul 7")  # the group was told of #6's foul: it is #7's
    await t.say("/undo")
    assert len(t.public()) == len(heard) + 2
    assert "Поправка судьи: отмена." in t.public()[-1] and "№7" in t.public()[-1]


async def test_an_undo_of_a_correction_and_the_action_before_it_is_told_once(t: Table) -> None:
    """/undo 2 of a foul and then a correction of it: the group, told of #6's foul and then that
    it was #7's, is told once that neither stands."""
    await t.say("/foul 6")  # 4
    await t.say("/fix 4 /foul 7")
    heard = len(t.public())
    await t.say("/undo 2")
    assert len(t.public()) == heard + 1
    told = t.public()[-1]
    assert "Поправка судьи: отмена." in told and told.count("№7") == 1 and "№6" not in told
    state = await t.state()
    assert not state.seat(7).fouls and not state.seat(6).fouls


async def test_an_undo_counts_for_the_group_only_what_the_group_was_told(fake: FakeBotAPI,
                                                                         tmp_path: Path) -> None:
    """The judge enters the roles during night 0 (F24 §1.1), which the group is not told of, and
    calls the morning. /undo of the roles alone: the group hears nothing — "the judge undid an
    action" would tell it that something hidden was recorded (F24 §4.4.13). /undo 2 of the
    morning and the roles: the group hears of one action undone, the morning it was told of."""
    async with table(fake, tmp_path / "referee.sqlite3") as t:
        await t.say("/new")
        await t.say("/link", chat=t.group)
        await t.say("/start")
        await t.say("/roles D2 M5 M7 S8")
        heard = t.public()
        await t.say("/undo")
        assert t.public() == heard
        assert not (await t.state()).roles_known
        await t.say("/roles D2 M5 M7 S8")
        await t.say("/next")  # the morning: day 1
        assert len(t.public()) == len(heard) + 1
        await t.say("/undo 2")
        told = t.public()[-1]
        assert len(t.public()) == len(heard) + 2
        assert "отменено 1 действие" in told and "ночь" in told.lower()
        state = await t.state()
        assert state.phase is rules.Phase.NIGHT_ZERO and not state.roles_known
        assert not [line for line in t.public() if "Дон" in line or "D2" in line]


async def test_an_undo_across_a_hidden_correction_reads_as_one_without_it(t: Table) -> None:
    """At night 1 the judge records the Don's check of #8, corrects it to #9 (the group hears
    nothing: F24 §4.4.13) and records the Sheriff's check; then takes back the Sheriff's check
    and the correction. The group reads what it would read had the Don's check never been
    corrected — one action undone, its announcement, where the game stands — not a «correction
    undone», which would tell it that something hidden had been corrected at night."""
    for _ in range(10):  # day 1: ten speeches, nobody nominated; night 1's shooting
        await t.say("/next")
    await t.say("/kill 3")  # 14
    await t.say("/don 8")  # 15
    heard = t.public()
    await t.say("/fix 15 /don 9")
    assert t.public() == heard
    await t.say("/sheriff 2")
    heard = t.public()
    await t.say("/undo 2")
    assert len(t.public()) == len(heard) + 1
    assert t.public()[-1].splitlines()[:3] == [  # then the step's timer
        "↩ Поправка судьи: отменено 1 действие.",
        "Игрок №3, вас убили. Лучший ход: назовите трёх игроков — 20 секунд.",
        "Сейчас: ночь 1 — проверка Шерифа.",
    ]
    # the judge reads what changes back, as it stood: the Don's check of #8 again, the
    # corrected one of #9 and the Sheriff's no longer
    judge = t.private()[-1].splitlines()
    assert judge[2:8] == ["Теперь:", "+ Дон проверяет игрока №8: Шериф.", "Больше не так:",
                          "− Дон проверяет игрока №9: не Шериф.",
                          "− Шериф проверяет игрока №2: чёрная карта.",
                          "− Игрок №3, вас убили. Лучший ход: назовите трёх игроков — 20 секунд."]
    state = await t.state()
    assert state.night is not None and state.night.step is rules.NightStep.SHERIFF_CHECK
