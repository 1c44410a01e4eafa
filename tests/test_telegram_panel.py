"""The pure parts of the Telegram adapter: the callback-data codec, the panel's keyboards and the
routing of notices. No network here."""

from __future__ import annotations

import pytest

import rules
from bot import demo
from bot.commands import Act, NewGame, parse
from bot.i18n import catalog
from bot.render import notice_text
from bot.judge import panel as pn
from bot.judge.callbacks import MAX_BYTES, Press, decode, encode
from bot.judge.routing import judge_text, public_text, turn_key, undo_texts
from bot.judge.timer import Timer
from rules import Phase

BIG_GAME, BIG_REVISION = 10**11, 99_999  # the worst case for the 64-byte limit
CAT = catalog("ru")


def demo_states() -> list[tuple[rules.GameState, list[rules.Notice]]]:
    """Every state of the shipped demo game, with the notices of the event that led there."""
    state: rules.GameState | None = None
    out = []
    for line in demo.commands():
        command = parse(line, state)
        if isinstance(command, NewGame):
            state = rules.new_game(command.config())
            continue
        assert isinstance(command, Act) and state is not None
        state, notices = rules.apply(state, command.event)
        out.append((state, notices))
    return out


def views(state: rules.GameState) -> list[Press | None]:
    """Every view the panel can show in ``state``."""
    out: list[Press | None] = [None, Press(1, 1, pn.V_NOMINATE), Press(1, 1, pn.V_FOUL),
                               Press(1, 1, pn.V_RESULT), Press(1, 1, pn.V_ROLES, ("2.5.7",)),
                               Press(1, 1, pn.V_ROLES, ("2.5.7.8",)), Press(1, 1, pn.V_BEST, ("3.4",)),
                               Press(1, 1, pn.V_HANDS, ("1.2.3.4.6.7.8.9.10",))]
    for seat in rules.SEATS:
        out += [Press(1, 1, pn.V_FOUL_SEAT, (str(seat),)), Press(1, 1, pn.V_DQ, (str(seat),)),
                Press(1, 1, pn.V_TEAM, (str(seat),)), Press(1, 1, pn.V_TEAM_SIDE, (str(seat), "ppk"))]
    return out


# --- the codec ----------------------------------------------------------------------------------
def test_the_codec_round_trips() -> None:
    data = encode(12, 40, "p", 5, "4.2.10", "black")
    assert data == "12:40:p:5:4.2.10:black"
    assert decode(data) == Press(12, 40, "p", ("5", "4.2.10", "black"))
    assert decode(encode(1, 0, "k", "-")) == Press(1, 0, "k", ("-",))


@pytest.mark.parametrize("data", [None, "", "n", "1:2", "x:1:n", "1:y:n", "1:2:", "1:2:n:a b",
                                  "1:2:" + "n" * 70, "-1:2:n"])
def test_foreign_data_decodes_to_nothing(data: str | None) -> None:
    assert decode(data) is None


def test_encode_refuses_more_than_64_bytes() -> None:
    with pytest.raises(AssertionError):
        encode(1, 1, "x" * 70)


def test_every_button_of_every_view_fits_telegrams_limit() -> None:
    """Bot API: callback_data is 1–64 bytes. Every view of each kind of state of a whole game
    (one per phase and night step), under FIIM 2024's reason catalog (the longest codes, a
    superset of the others), with a huge game id and revision."""
    kinds: dict[tuple[str, str | None, bool], rules.GameState] = {}
    for state, _ in demo_states():
        step = state.night.step.value if state.night is not None else None
        kinds.setdefault((state.phase.value, step, state.roles_known), state)
    assert len(kinds) >= 9
    for state in kinds.values():
        state.config = rules.PRESETS["fiim2024"]
        for view in views(state):
            rendered = pn.render_panel(state, BIG_GAME, BIG_REVISION, CAT, view)
            for button in rendered.buttons:
                assert len(button.data.encode()) <= MAX_BYTES, button
                press = decode(button.data)
                assert press is not None and (press.game_id, press.revision) == (BIG_GAME, BIG_REVISION)
                assert button.label.strip()


# --- the panel ----------------------------------------------------------------------------------
def labels(panel: pn.Panel) -> list[str]:
    return [b.label for b in panel.buttons]


def day_one() -> rules.GameState:
    state = rules.new_game(rules.PRESETS["seed"])
    for event in (rules.SetRoles(("civilian", "don", "civilian", "civilian", "mafia", "civilian",
                                  "mafia", "sheriff", "civilian", "civilian")),
                  rules.StartGame(), rules.Next()):
        state, _ = rules.apply(state, event)
    return state


def test_a_speech_panel() -> None:
    state = day_one()
    shown = pn.render_panel(state, 1, 3, CAT, timer=pn.TimerView("⏱", True))
    assert labels(shown) == ["Далее ▶", "Выставить ▸", "⏸ Пауза", "Фол ▸", "Отмена хода ↩", "Журнал 📜",
                             "Почему?"]
    assert "Говорит игрок №1" in shown.text and shown.text.endswith("⏱")
    paused = pn.render_panel(state, 1, 3, CAT, timer=pn.TimerView("⏸", False))
    assert "▶ Продолжить" in labels(paused)


def test_the_nominate_view_offers_only_what_the_engine_allows() -> None:
    state = day_one()
    state, _ = rules.apply(state, rules.Nominate(by=1, target=5))
    state, _ = rules.apply(state, rules.Next())  # #2 speaks; #5 is already nominated (F24 §4.4.3)
    shown = pn.render_panel(state, 1, 5, CAT, Press(1, 5, pn.V_NOMINATE))
    seats = labels(shown)[:10]
    assert seats[4] == "·" and seats[1] == "2" and seats[0] == "1"  # self-nomination: option on
    assert "Кого выставляет игрок №2?" in shown.text
    assert pn.event_for(state, decode(shown.rows[0][2].data)) == rules.Nominate(by=2, target=3)  # type: ignore[arg-type]


def test_the_vote_offers_counts_up_to_the_hands_left() -> None:
    """F24 §4.4.5–4.4.8: at most the hands not yet raised; the last nominee is never asked."""
    state = day_one()
    state, _ = rules.apply(state, rules.Nominate(by=1, target=5))
    for _ in range(9):
        state, _ = rules.apply(state, rules.Next())
    state, _ = rules.apply(state, rules.Nominate(by=10, target=7))
    state, _ = rules.apply(state, rules.Next())
    assert state.phase is Phase.VOTING
    shown = pn.render_panel(state, 1, 9, CAT)
    assert labels(shown)[:11] == [str(n) for n in range(11)]
    assert "Сколько рук против игрока №5?" in shown.text
    assert pn.event_for(state, decode(shown.rows[0][3].data)) == rules.Vote(nominee=5, count=3)  # type: ignore[arg-type]


def test_departed_seats_are_inert_dots_at_night() -> None:
    states = [s for s, _ in demo_states() if s.night is not None and s.night.number == 2
              and s.night.step.value == "shooting"]
    shown = pn.render_panel(states[0], 1, 1, CAT)
    seats = labels(shown)[:10]
    gone = {n for n in rules.SEATS if not states[0].seat(n).at_table}
    assert gone and all(seats[n - 1] == "·" for n in gone)
    assert all(decode(b.data).action == pn.INERT for b in shown.buttons if b.label == "·")  # type: ignore[union-attr]
    assert "Промах" in labels(shown)


def test_the_foul_views_follow_the_presets_catalog() -> None:
    """Seed IV: fouls 4.1.x, disqualifying 4.2.x, team loss 4.3.x; FIIM 2024 adds its own."""
    state = day_one()
    fouls = labels(pn.render_panel(state, 1, 3, CAT, Press(1, 3, pn.V_FOUL_SEAT, ("4",))))
    assert [c for c in fouls if c.startswith("4.")] == [f"4.1.{i}" for i in range(1, 9)]
    dq = pn.render_panel(state, 1, 3, CAT, Press(1, 3, pn.V_DQ, ("4",)))
    assert [c for c in labels(dq) if c.startswith("4.")] == [f"4.2.{i}" for i in range(1, 11)]
    assert "4.2.7 — слёзы за игровым столом" in dq.text
    state.config = rules.PRESETS["fiim2024"]
    dq = pn.render_panel(state, 1, 3, CAT, Press(1, 3, pn.V_DQ, ("4",)))
    assert "6.7.16" in labels(dq)


def test_the_roles_picker_builds_the_deal() -> None:
    """R1.1: the Don, two mafia and the Sheriff; the rest civilians."""
    state = rules.new_game(rules.PRESETS["seed"])
    press: Press | None = Press(1, 0, pn.V_ROLES)
    for seat in (2, 5, 7, 8):
        shown = pn.render_panel(state, 1, 0, CAT, press)
        button = next(b for b in shown.buttons if b.label == str(seat))
        press = decode(button.data)
    shown = pn.render_panel(state, 1, 0, CAT, press)
    assert "Дон — №2, мафия — №5, мафия — №7, Шериф — №8" in shown.text
    accept = decode(next(b for b in shown.buttons if b.label == "Принято ✓").data)
    event = pn.event_for(state, accept)  # type: ignore[arg-type]
    assert rules.apply(state, event)[0].seat(8).role is rules.Role.SHERIFF


def test_roles_unknown_with_two_left_asks_only_for_the_result() -> None:
    state = rules.new_game(rules.PRESETS["seed"])
    for event in (rules.StartGame(), rules.Next(), *[rules.Penalty(seat=n, reason="dq") for n in range(1, 9)]):
        state, _ = rules.apply(state, event)
    shown = pn.render_panel(state, 1, 10, CAT)
    assert labels(shown) == ["Победа красных", "Победа чёрных", "Ничья", "Отмена хода ↩"]


def test_event_for_refuses_malformed_presses() -> None:
    state = day_one()
    for press in (Press(1, 1, pn.VOTE, ("x", "1")), Press(1, 1, pn.ROLES, ("1.2",)),
                  Press(1, 1, pn.PENALTY, ("3", "foul", "green")), Press(1, 1, "zz")):
        with pytest.raises(ValueError):
            pn.event_for(state, press)


# --- routing ------------------------------------------------------------------------------------
def test_private_notices_never_reach_the_public_text() -> None:
    seen_private = 0
    for state, notices in demo_states():
        public = public_text(notices, state, CAT) or ""
        judge = judge_text(notices, CAT) or ""
        for notice in notices:
            text = notice_text(notice, CAT)
            if not text:
                continue
            assert text in judge
            if notice.private:
                seen_private += 1
                assert text not in public, text
    assert seen_private >= 8  # roles, shots, checks, best-move hits, the result fixed


def test_the_end_reveals_the_roles_to_the_group() -> None:
    state, notices = demo_states()[-1]
    assert state.phase is Phase.GAME_OVER
    text = public_text(notices, state, CAT) or ""
    assert "Победа красных" in text and "Роли:" in text and "Итоги игры" in text


def test_an_undo_correction_tells_the_group_only_what_it_saw() -> None:
    states = demo_states()
    index = next(i for i, (s, n) in enumerate(states) if any(x.kind is rules.Kind.SHERIFF_CHECK for x in n))
    before = states[index - 1][0]
    check = next(e for e in [rules.SheriffCheck(target=2)])
    judge, public = undo_texts(before, [check], CAT, CAT)
    assert "Шериф проверяет игрока №2: чёрная карта." in judge
    assert "чёрный" not in public and "↩ Поправка" in public and "Сейчас: ночь 1" in public


def test_the_turn_key_changes_with_the_speaker_not_with_a_foul() -> None:
    state = day_one()
    key = turn_key(state)
    fouled, _ = rules.apply(state, rules.Penalty(seat=3, reason="foul"))
    assert turn_key(fouled) == key
    moved, _ = rules.apply(state, rules.Next())
    assert turn_key(moved) != key


def test_the_timer_stages() -> None:
    turn = rules.Turn(seat=3, seconds=60, kind="speech")
    timer = Timer.start("k", turn, scale=2.0, now=100.0)
    assert timer.deadline == 220.0 and timer.next_stage() == ("warned", 200.0)
    timer.stage = "warned"
    assert timer.next_stage() == ("over", 220.0)
    timer.pause(210.0)
    assert timer.stage == "paused" and timer.remaining(999.0) == 5.0 and timer.next_stage() is None
    timer.resume(300.0)
    assert timer.stage == "warned" and timer.deadline == 310.0
    assert "осталось 5 секунд" in timer.line(CAT, 300.0)
    assert Timer.from_dict(timer.to_dict()) == timer


def test_the_panels_countdown_edits() -> None:
    """Every COUNTDOWN_STEP seconds left, then the stages; a late edit skips what it missed; the
    seconds shown are rounded up to the step and never above the step's length."""
    timer = Timer.start("k", rules.Timed("shooting", 22), scale=1.0, now=0.0)
    assert timer.next_edit(0.0, 5) == ("running", 2.0)  # 20 s left
    assert timer.shown_left(0.0, 5) == 22 and timer.shown_left(2.0, 5) == 20
    assert timer.next_edit(2.0, 5) == ("running", 7.0)
    assert timer.next_edit(8.7, 5) == ("warned", 12.0)  # late: 15 is skipped; 10 is the warning
    timer.stage = "warned"
    assert timer.next_edit(12.0, 5) == ("warned", 17.0) and timer.shown_left(13.0, 5) == 10
    assert timer.next_edit(17.0, 5) == ("over", 22.0)
    assert timer.next_edit(30.0, 5) == ("over", 22.0)  # passed meanwhile: at once
    assert timer.next_edit(0.0, None) == timer.next_stage()


@pytest.mark.parametrize(("scale", "step"), [(1.0, 5), (0.2, 5), (0.1, 10), (0.03, 35), (0.02, 50)])
def test_the_countdown_is_edited_at_most_once_a_real_second(scale: float, step: int) -> None:
    """Telegram's limits are in real seconds: however fast timer seconds run, the countdown's
    edits come at least COUNTDOWN_MIN_GAP apart, every 5 timer seconds in play."""
    from bot.judge.timer import COUNTDOWN_MIN_GAP, COUNTDOWN_STEP, countdown_step

    assert countdown_step(scale) == step and step % COUNTDOWN_STEP == 0
    assert step * scale >= COUNTDOWN_MIN_GAP - 1e-9 or step == COUNTDOWN_STEP
