"""The judge's command language (bot/commands.py): what each typed command means, and a clear
CommandError for every malformed one. Whether the rules allow a command now is the engine's
business; these tests only check the parse (and, where it matters, that the engine accepts it)."""

from __future__ import annotations

import pytest

import rules
from bot import commands as c
from bot.commands import Act, CommandError, FixCmd, NewGame, Quit, SetLang, Show, UndoCmd, parse
from bot.i18n import catalog
from bot.render import error_text

ROLES_2_5_7_8 = ("civilian", "don", "civilian", "civilian", "mafia", "civilian", "mafia",
                 "sheriff", "civilian", "civilian")


def play(*texts: str) -> rules.GameState:
    """A seed game driven through the parser: each text parsed against the state it acts on."""
    state = rules.new_game(rules.PRESETS["seed"])
    for text in texts:
        command = parse(text, state)
        assert isinstance(command, Act), text
        state, _ = rules.apply(state, command.event)
    return state


def day_one() -> rules.GameState:
    return play("/roles D2 M5 M7 S8", "/start", "/next")


# --- what the commands mean -----------------------------------------------------------------

@pytest.mark.parametrize(("text", "event"), [
    ("/name 3 Вася", rules.SetName(seat=3, name="Вася")),
    ("/name 10  Анна Мария ", rules.SetName(seat=10, name="Анна Мария")),
    ("/start", rules.StartGame()),
    ("/next", rules.Next()),
    ("/n", rules.Next()),
    ("/pass", rules.Next()),
    ("next", rules.Next()),  # the slash is optional
    ("/NEXT", rules.Next()),
    ("/next@referee_bot", rules.Next()),  # a Telegram group command
    ("/nominate 3 7", rules.Nominate(by=3, target=7)),
    ("/vote 7 4", rules.Vote(nominee=7, count=4)),
    ("/vote 7 0", rules.Vote(nominee=7, count=0)),
    ("/vote 7 1,2,3", rules.Vote(nominee=7, voters=(1, 2, 3))),
    ("/vote 7 1 2 3", rules.Vote(nominee=7, voters=(1, 2, 3))),
    ("/vote 7 4,", rules.Vote(nominee=7, voters=(4,))),
    ("/raise 6", rules.RaiseVote(count=6)),
    ("/raise 1,2,3", rules.RaiseVote(voters=(1, 2, 3))),
    ("/kill 4", rules.NightKill(target=4)),
    ("/miss", rules.NightKill(target=None)),
    ("/shots 2:7 5:7 7:7", rules.Shots(shots=((2, 7), (5, 7), (7, 7)))),
    ("/shots 2:7 5:- 7:7", rules.Shots(shots=((2, 7), (5, None), (7, 7)))),
    ("/don 3", rules.DonCheck(target=3)),
    ("/sheriff 5", rules.SheriffCheck(target=5)),
    ("/bestmove 1 2 3", rules.BestMove(guesses=(1, 2, 3))),
    ("/bestmove 1,2", rules.BestMove(guesses=(1, 2))),
    ("/foul 5", rules.Penalty(seat=5, reason="foul")),
    ("/foul 5 4.1.3", rules.Penalty(seat=5, reason="4.1.3")),
    ("/warn 5", rules.Penalty(seat=5, reason="warning")),
    ("/dq 5", rules.Penalty(seat=5, reason="dq")),
    ("/dq 5 4.2.7", rules.Penalty(seat=5, reason="4.2.7")),
    ("/ppk 5", rules.Penalty(seat=5, reason="ppk")),
    ("/ppk 5 4.3.1 black", rules.Penalty(seat=5, reason="4.3.1", team="black")),
    ("/ppk 5 red", rules.Penalty(seat=5, reason="ppk", team="red")),
    ("/ppk 5 чёрные 4.3.2", rules.Penalty(seat=5, reason="4.3.2", team="black")),
    ("/unfoul 5", rules.WithdrawFoul(seat=5)),
    ("/tech 5", rules.Penalty(seat=5, reason="tech")),
    ("/withdraw 3", rules.WithdrawNomination(by=3)),
    ("/result red", rules.DeclareResult(winner="red")),
    ("/result black", rules.DeclareResult(winner="black")),
    ("/result draw", rules.DeclareResult(winner="draw")),
    ("/extra 3 0.4", rules.Extra(seat=3, points="0.4")),  # F24/S24 §8.4
    ("/extra 3 0,4", rules.Extra(seat=3, points="0,4")),  # the engine reads the comma
    ("/extra 3 1.3 +", rules.Extra(seat=3, points="1.3", approved=True)),
    ("/extra 3 0", rules.Extra(seat=3, points="0")),
    ("/badplay 3 8.5.2", rules.BadPlay(seat=3, item="8.5.2")),  # F24/S24 §8.5
    ("/badplay 3 -8.5.2", rules.BadPlay(seat=3, item="8.5.2", withdraw=True)),
])
def test_event_commands(text: str, event: rules.Event) -> None:
    assert parse(text, None) == Act(event)


@pytest.mark.parametrize(("text", "command"), [
    ("/undo", UndoCmd(1)),
    ("/undo 3", UndoCmd(3)),
    ("/status", Show("status")),
    ("/log", Show("log")),
    ("/help", Show("help")),
    ("/result", Show("result")),
    ("/points", Show("points")),
    ("/lang en", SetLang("en")),
    ("/lang RU", SetLang("ru")),
    ("/quit", Quit()),
    ("/new", NewGame("seed", {})),
    ("/new fiim2024", NewGame("fiim2024", {})),
])
def test_other_commands(text: str, command: c.Command) -> None:
    assert parse(text, None) == command


def test_roles_letters_build_the_full_deal() -> None:
    """R1.1: Don, two mafia, the Sheriff; every seat not named is a civilian."""
    assert parse("/roles D2 M5 M7 S8", None) == Act(rules.SetRoles(roles=ROLES_2_5_7_8))
    assert parse("/roles д2 м5 м7 ш8", None) == Act(rules.SetRoles(roles=ROLES_2_5_7_8))
    assert parse("/roles M7,S8,D2,M5", None) == Act(rules.SetRoles(roles=ROLES_2_5_7_8))
    assert parse("/roles unknown", None) == Act(rules.SetRoles(roles=(None,) * 10))


def test_roles_are_accepted_by_the_engine() -> None:
    state = play("/roles D2 M5 M7 S8")
    assert [s.role.value for s in state.seats] == list(ROLES_2_5_7_8)


def test_roles_with_a_wrong_count_are_left_to_the_engine() -> None:
    """Two blacks only: the parser builds the tuple, the engine refuses it (R1.1)."""
    command = parse("/roles D2 M5 S8", None)
    assert isinstance(command, Act)
    with pytest.raises(rules.RuleError) as caught:
        rules.apply(rules.new_game(), command.event)
    assert caught.value.code is rules.Code.BAD_ROLES


def test_nominate_with_one_seat_uses_the_speaker() -> None:
    """F24 §4.4.2: the speaker nominates in his own minute; day 1 opens with seat 1 (R3.1)."""
    state = day_one()
    assert state.speaker == 1
    assert parse("/nominate 7", state) == Act(rules.Nominate(by=1, target=7))
    state = play("/roles D2 M5 M7 S8", "/start", "/next", "/next", "/nominate 7")
    assert state.nominations == [(2, 7)]


def test_nominate_with_one_seat_needs_a_speaker() -> None:
    for state in (None, play("/roles D2 M5 M7 S8", "/start")):  # nobody speaks at night 0
        with pytest.raises(CommandError) as caught:
            parse("/nominate 7", state)
        assert caught.value.code == "no_speaker"


def test_after_the_end_nobody_is_asked_who_nominates() -> None:
    """A game over takes no nomination (F24 §1.4), whoever makes it: "the game is over", not
    "say who nominates: /nominate 3 7" — advice no seat could follow."""
    state = play("/start", "/result red")
    for text in ("/nominate 7", "/withdraw"):
        with pytest.raises(rules.RuleError) as caught:
            parse(text, state)
        assert caught.value.code is rules.Code.GAME_OVER, text


def test_new_options() -> None:
    command = parse("/new fsm2024 raise_vote=no self_nomination=true best_move=yes "
                    "first_day_vote=no_vote draw_quiet_nights=4 timers.speech=45", None)
    assert isinstance(command, NewGame)
    assert command.preset == "fsm2024"
    assert command.options == {
        "raise_vote": False, "self_nomination": True, "best_move": True,
        "first_day_vote": "no_vote", "draw_quiet_nights": 4, "timers": {"speech": 45},
    }
    config = command.config()
    assert config.preset == "fsm2024"
    assert config.raise_vote is False
    assert config.raise_3_of_9 is True  # the preset's own value is kept (S24)
    assert config.first_day_vote is rules.FirstDayVote.NO_VOTE
    assert config.timers.speech == 45
    assert config.timers.tie_speech == rules.PRESETS["fsm2024"].timers.tie_speech


def test_new_without_a_preset_is_the_seed() -> None:
    command = parse("/new third_foul=short_speech", None)
    assert command == NewGame("seed", {"third_foul": "short_speech"})
    assert isinstance(command, NewGame)
    assert command.config().third_foul is rules.ThirdFoul.SHORT_SPEECH


def test_new_club_options_of_mafiaratings() -> None:
    """Every MafiaRatings club option has a /new name (console, Telegram and Discord parse
    /new here alike)."""
    command = parse("/new fiim2024 rotation=last nomination_withdrawal=auto "
                    "first_day_vote=self-break raise_whole_table=yes raise_3_of_9=yes "
                    "raise_3_of_9_from_day=3 technical_fouls=on", None)
    assert isinstance(command, NewGame)
    config = command.config()
    assert config.rotation is rules.Rotation.LAST
    assert config.nomination_withdrawal is rules.NominationWithdrawal.AUTO
    assert config.first_day_vote is rules.FirstDayVote.SELF_BREAK
    assert config.raise_whole_table and config.technical_fouls
    assert (config.raise_3_of_9, config.raise_3_of_9_from_day) == (True, 3)
    with pytest.raises(CommandError) as caught:
        parse("/new rotation=middle", None)
    assert caught.value.code == "bad_option_value"
    with pytest.raises(CommandError) as caught:
        parse("/new raise_3_of_9_from_day=0", None)
    assert caught.value.code == "bad_option_value"


def test_new_with_a_clubs_mafiaratings_code() -> None:
    """``mafiaratings=CODE`` sets the options the site's 13 digits name; an option typed after
    it overrides its digit; a value the site does not define is refused."""
    command = parse("/new fiim2024 mafiaratings=1001201021011 best_move=yes", None)
    assert isinstance(command, NewGame)
    config = command.config()
    assert config.rotation is rules.Rotation.LAST
    assert config.first_day_vote is rules.FirstDayVote.NO_BREAK
    assert config.raise_whole_table is True
    assert (config.raise_3_of_9, config.raise_3_of_9_from_day) == (True, 3)
    assert config.third_foul is rules.ThirdFoul.SHORT_SPEECH and config.technical_fouls
    assert config.best_move is True  # 8.17.2 in the code, then best_move=yes
    for code in ("2000000000000", "12", "abc"):
        with pytest.raises(CommandError) as caught:
            parse(f"/new mafiaratings={code}", None)
        assert caught.value.code == "bad_option_value"


def test_withdraw_and_tech_reach_the_engine() -> None:
    """MafiaRatings 7.5.1 and 9.6.2 through the typed commands."""
    state = rules.new_game(rules.PRESETS["seed"].with_options(nomination_withdrawal="explicit",
                                                             technical_fouls=True))
    for text in ("/roles D2 M5 M7 S8", "/start", "/next", "/nominate 7", "/withdraw",
                 "/nominate 4", "/tech 6", "/tech 6"):
        command = parse(text, state)
        assert isinstance(command, Act), text
        state, _ = rules.apply(state, command.event)
    assert state.nominations == [(1, 4)]
    assert state.seat(6).departure is not None and state.seat(6).departure.reason == "tech"
    with pytest.raises(CommandError) as caught:
        parse("/withdraw", None)
    assert caught.value.code == "no_speaker"
    with pytest.raises(CommandError) as caught:
        parse("/tech 6 4.1.1", state)  # a foul's reason is not a technical foul
    assert caught.value.code == "wrong_reason"


def test_every_option_name_is_known_to_the_config() -> None:
    for name in c.option_names():
        assert name.startswith("timers.") or name == c.MAFIARATINGS_OPTION \
            or hasattr(rules.RulesConfig(), name)


def test_penalties_reach_the_engine() -> None:
    """Seed 4.4: the third foul silences the nearest speech."""
    state = play("/roles D2 M5 M7 S8", "/start", "/next", "/foul 4", "/foul 4 4.1.3", "/foul 4 4.1.1")
    assert state.seat(4).fouls == ["foul", "4.1.3", "4.1.1"]
    assert state.seat(4).silence_pending


# --- refusals -------------------------------------------------------------------------------

BAD_INPUT = [
    ("", "empty_command", {}),
    ("/name 1 Аня, Боря, Вика", "several_names", {"seat": 1, "count": 3}),  # one seat, one name
    ("   ", "empty_command", {}),
    ("/frobnicate 3", "unknown_command", {"command": "/frobnicate"}),
    ("/kill 0", "bad_seat", {"argument": "0"}),
    ("/kill 11", "bad_seat", {"argument": "11"}),
    ("/kill -1", "bad_seat", {"argument": "-1"}),
    ("/kill abc", "bad_seat", {"argument": "abc"}),
    ("/kill 3.5", "bad_seat", {"argument": "3.5"}),
    ("/kill ²", "bad_seat", {"argument": "²"}),  # str.isdigit() says yes; a seat it is not
    ("/kill ٣", "bad_seat", {"argument": "٣"}),  # an Arabic-Indic three
    ("/name 11 Вася", "bad_seat", {"argument": "11"}),
    ("/vote 0 4", "bad_seat", {"argument": "0"}),
    ("/vote 7 1,11", "bad_seat", {"argument": "11"}),
    ("/vote 7 1,1", "duplicate_seat", {"seat": 1}),
    ("/shots 2:12", "bad_seat", {"argument": "12"}),
    ("/bestmove 1 1", "duplicate_seat", {"seat": 1}),
    ("/roles D2 M2 M7 S8", "duplicate_seat", {"seat": 2}),
    ("/nominate 3 0", "bad_seat", {"argument": "0"}),
    ("/kill", "missing_argument", {"command": "kill", "argument": "seat"}),
    ("/name", "missing_argument", {"argument": "seat"}),
    ("/name 3", "missing_argument", {"argument": "name"}),
    ("/vote", "missing_argument", {"argument": "seat"}),
    ("/vote 7", "missing_argument", {"argument": "count"}),
    ("/raise", "missing_argument", {"argument": "count"}),
    ("/roles", "missing_argument", {"argument": "roles"}),
    ("/shots", "missing_argument", {}),
    ("/lang", "missing_argument", {"argument": "lang"}),
    ("/nominate", "missing_argument", {}),
    ("/foul", "missing_argument", {}),
    ("/kill 3 4", "too_many_arguments", {"argument": "4"}),
    ("/next 3", "too_many_arguments", {"argument": "3"}),
    ("/nominate 1 2 3", "too_many_arguments", {"argument": "3"}),
    ("/bestmove 1 2 3 4", "too_many_arguments", {}),
    ("/foul 5 4.1.3 4.1.1", "too_many_arguments", {"argument": "4.1.1"}),
    ("/ppk 5 red black", "too_many_arguments", {"argument": "black"}),
    ("/vote 7 x", "bad_argument", {"argument": "x"}),
    ("/raise many", "bad_argument", {"argument": "many"}),
    ("/roles X2 M5 M7 S8", "bad_argument", {"argument": "X2"}),
    ("/roles D M5 M7 S8", "bad_argument", {"argument": "D"}),
    ("/shots 27", "bad_argument", {"argument": "27"}),
    ("/result pink", "bad_argument", {"argument": "pink"}),
    ("/undo 0", "bad_undo", {"argument": "0", "limit": c.MAX_UNDO}),
    ("/undo 101", "bad_undo", {"argument": "101", "limit": c.MAX_UNDO}),
    ("/undo 123456", "bad_undo", {"argument": "123456"}),
    ("/ppk 6 4.3.1 green", "bad_team", {"argument": "green"}),
    ("/extra 3", "missing_argument", {"argument": "points"}),
    ("/extra 3 1.3 please", "bad_argument", {"argument": "please"}),
    ("/badplay 3", "missing_argument", {"argument": "item"}),
    ("/undo lots", "bad_argument", {"argument": "lots"}),
    ("/timer later", "bad_argument", {"argument": "later"}),
    ("/timer pause now", "too_many_arguments", {"argument": "now"}),
    ("/fix", "missing_argument", {"argument": "action"}),
    ("/fix 12", "missing_argument", {"argument": "command"}),
    ("/fix twelve /foul 5", "bad_argument", {"argument": "twelve"}),
    ("/fix 0 /foul 5", "bad_argument", {"argument": "0"}),
    ("/warn 5 4.2.7", "wrong_reason", {"reason": "4.2.7"}),  # a disqualifying item, not a warning
    ("/foul 5 dq", "wrong_reason", {"reason": "dq"}),
    ("/dq 5 4.1.1", "wrong_reason", {"reason": "4.1.1"}),
    ("/lang de", "unknown_lang", {"lang": "de"}),
    ("/new chess", "unknown_preset", {"preset": "chess"}),
    ("/new speed=3", "unknown_option", {"option": "speed"}),
    ("/new timers.lunch=30", "unknown_option", {"option": "timers.lunch"}),
    ("/new preset=fiim2024", "unknown_option", {"option": "preset"}),
    ("/new raise_vote=maybe", "bad_option_value", {"option": "raise_vote", "value": "maybe"}),
    ("/new draw_quiet_nights=three", "bad_option_value", {"option": "draw_quiet_nights"}),
    ("/new third_foul=jail", "bad_option_value", {"option": "third_foul"}),
    ("/new timers.speech=-5", "bad_option_value", {"option": "timers.speech"}),
    ("/new raise_vote", "bad_argument", {"argument": "raise_vote"}),
    ("/name 3 " + "я" * 5000, "too_long", {"limit": c.MAX_INPUT}),
    ("x" * 5000, "too_long", {"length": 5000}),
]


@pytest.mark.parametrize(("text", "code", "params"), BAD_INPUT, ids=[t[:24] for t, _, _ in BAD_INPUT])
def test_bad_input_is_a_clear_error(text: str, code: str, params: dict) -> None:
    with pytest.raises(CommandError) as caught:
        parse(text, day_one())
    assert caught.value.code == code
    assert code in c.COMMAND_ERROR_CODES
    for key, value in params.items():
        assert caught.value.params[key] == value


def test_next_during_the_shooting_is_refused() -> None:
    """F24 §4.5.5: the shooting is recorded explicitly (/kill, /miss, /shots); a stray /next
    must not silently become a miss."""
    state = day_one()
    for event in (rules.Next(),) * 10:  # day 1: ten speeches, no nominee → no vote → night 1
        state, _ = rules.apply(state, event)
    assert state.night is not None and state.night.step is rules.NightStep.SHOOTING
    # the judge's desk refuses it (the console and both bots: tests/test_console_words.py)
    assert c.next_in_shooting(parse("/next", state), state)
    assert not c.next_in_shooting(parse("/miss", state), state)
    assert not c.next_in_shooting(parse("/next", day_one()), day_one())
    assert parse("/miss", state) == Act(rules.NightKill(target=None))
    with pytest.raises(CommandError) as caught:  # nor may a correction make one
        FixCmd(3, "/next").replacement(state)
    assert caught.value.code == "shooting_first"


def test_every_error_code_is_raised_somewhere() -> None:
    """Each code listed for the catalogs is one the parser really uses."""
    raised = {code for _, code, _ in BAD_INPUT} | {"no_speaker", "shooting_first", "result_known",
                                                    "duplicate_option", "unknown_reason",
                                                    "no_technical_fouls"}  # test_console_words
    with pytest.raises(CommandError) as caught:  # a correction is a game action
        parse("/fix 3 /undo", day_one()).replacement(day_one())  # type: ignore[union-attr]
    raised.add(caught.value.code)
    assert raised == set(c.COMMAND_ERROR_CODES)


@pytest.mark.parametrize(("text", "what"), [("/timer", "show"), ("/t", "show"), ("/timer pause", "pause"),
                                            ("/timer Продолжить", "resume"), ("/timer next", "next")])
def test_the_timer_command(text: str, what: str) -> None:
    assert parse(text, day_one()) == c.TimerCmd(what)


def test_fix_names_an_action_and_its_correction_read_against_the_game_then() -> None:
    """``/fix 5 /nominate 7``: the nominating speaker is the one of then (action 5's), not now."""
    fix = parse("/fix №5 /nominate 7", None)
    assert fix == c.FixCmd(seq=5, text="/nominate 7")
    then = day_one()
    now, _ = rules.apply(then, rules.Next())
    assert fix.replacement(then) == rules.Nominate(by=1, target=7)  # type: ignore[union-attr]
    assert fix.replacement(now) == rules.Nominate(by=2, target=7)  # type: ignore[union-attr]


def test_a_long_but_allowed_line_is_parsed() -> None:
    """The cap is on the whole line; a name the engine refuses (over 64 characters) is refused
    by the engine, not the parser."""
    command = parse("/name 3 " + "я" * 100, None)
    assert isinstance(command, Act)
    with pytest.raises(rules.RuleError) as caught:
        rules.apply(rules.new_game(), command.event)
    assert caught.value.code is rules.Code.BAD_NAME


# --- the refusals say what to do (newcomer's report №12) -----------------------------------

RU = catalog("ru")


def refusal(text: str, state: rules.GameState) -> str:
    """The message the judge reads for ``text`` typed in ``state`` (parser or engine refusal)."""
    try:
        command = parse(text, state)
        assert isinstance(command, Act), text
        rules.apply(state, command.event)
    except (CommandError, rules.RuleError) as error:
        return error_text(error, RU)
    raise AssertionError(f"{text} was accepted")


def voting() -> rules.GameState:
    """Day 1 with #5 and #7 nominated: the vote (F24 §4.4.4)."""
    return play("/roles D2 M5 M7 S8", "/start", "/next", "/nominate 5", "/next", "/nominate 7",
                *["/next"] * 9)


def test_too_many_hands_by_count_is_the_engines_message() -> None:
    """F24 §4.4.8: no more hands than players at the table — ``/vote 5 11`` gets the same
    message as ``/vote 5 7`` when fewer are left, not a parse error."""
    state = voting()
    assert state.phase is rules.Phase.VOTING
    text = refusal("/vote 5 11", state)
    assert text == RU.text("error-too_many_hands", count=11, left=10)
    assert "Слишком много рук: 11" in text


@pytest.mark.parametrize("steps", ["0", "101"])
def test_undo_out_of_range_names_the_range(steps: str) -> None:
    with pytest.raises(CommandError) as caught:
        parse(f"/undo {steps}", day_one())
    text = error_text(caught.value, RU)
    assert text == RU.text("command-bad_undo", command="undo", argument=steps, limit=c.MAX_UNDO)
    assert f"от 1 до {c.MAX_UNDO}" in text


@pytest.mark.parametrize("text", ["/next", "/foul 5", "/vote 5 3"])
def test_a_play_command_in_setup_points_to_start(text: str) -> None:
    """Nothing is played before /start (F24 §4.3.1: the game begins with the night's meeting):
    the refusal in setup says so and names /start."""
    state = rules.new_game(rules.PRESETS["seed"])
    event = parse(text, state)
    assert isinstance(event, Act)
    with pytest.raises(rules.RuleError) as caught:
        rules.apply(state, event.event)
    assert caught.value.code is rules.Code.WRONG_PHASE
    expected = RU.text("error-wrong_phase", phase_code="setup",
                       event=RU.text(f"event-{caught.value.params['event']}"), phase="-")
    assert error_text(caught.value, RU) == expected
    assert "/start" in expected


def test_the_wrong_phase_outside_setup_names_the_phase() -> None:
    message = refusal("/start", day_one())
    assert "/start" not in message.split(":", 1)[1] and "«" in message


def test_result_after_the_end_says_it_is_known() -> None:
    """F24 §1.4: a finished game has its result; ``/result draw`` cannot declare another."""
    state = play("/roles unknown", "/start", "/result draw")
    assert state.phase is rules.Phase.GAME_OVER
    with pytest.raises(CommandError) as caught:
        parse("/result red", state)
    assert caught.value.code == "result_known"
    assert error_text(caught.value, RU) == RU.text("command-result_known", command="result")
    assert parse("/result", state) == Show("result")  # showing it is still fine


def test_ppk_with_a_stray_word_names_the_teams() -> None:
    """Seed 4.3 / F24 §4.3: a team-loss penalty may name the team, red or black."""
    with pytest.raises(CommandError) as caught:
        parse("/ppk 6 4.3.1 green", day_one())
    text = error_text(caught.value, RU)
    assert text == RU.text("command-bad_team", command="ppk", argument="green")
    assert "red или black" in text


# --- an event as its command (the audit trail, /fix) -----------------------------------------

@pytest.mark.parametrize("preset", sorted(rules.PRESETS))
@pytest.mark.parametrize("event", [
    rules.SetName(seat=3, name="Анна Мария"), rules.SetRoles(roles=ROLES_2_5_7_8),
    rules.SetRoles(roles=(None,) * 10), rules.StartGame(), rules.Next(),
    rules.Nominate(by=3, target=7), rules.WithdrawNomination(by=3),
    rules.Vote(nominee=7, count=4), rules.Vote(nominee=7, voters=(1, 2, 3)),
    rules.Vote(nominee=7, voters=(4,)), rules.RaiseVote(count=6), rules.RaiseVote(voters=(1, 9)),
    rules.NightKill(target=4), rules.NightKill(target=None),
    rules.Shots(shots=((2, 7), (5, None), (7, 7))), rules.DonCheck(target=3),
    rules.SheriffCheck(target=5), rules.BestMove(guesses=(1, 2, 3)),
    rules.Penalty(seat=5), rules.Penalty(seat=5, reason="warning"),
    rules.Penalty(seat=5, reason="4.1.1"), rules.Penalty(seat=5, reason="4.1.8"),
    rules.Penalty(seat=5, reason="4.2.7"), rules.Penalty(seat=5, reason="4.3.1", team="black"),
    rules.Penalty(seat=5, reason="ppk"), rules.Penalty(seat=5, reason="tech"),
    rules.WithdrawFoul(seat=5), rules.DeclareResult(winner="draw"),
    # after the result: the judge's extra points (§8.4) and a bad play's penalty points (§8.5)
    rules.Extra(seat=3, points="0.4"), rules.Extra(seat=3, points="0.7", approved=True),
    rules.BadPlay(seat=3, item="8.5.2"), rules.BadPlay(seat=3, item="8.5.2", withdraw=True),
])
def test_every_event_reads_back_from_its_command(event: rules.Event, preset: str) -> None:
    """``command_text`` is what the judge would type: parsed under the same preset (seed 4.1.8 is
    a foul, under fsm2024 a disqualifying foul, S24 §6.7.9) it is the same event."""
    config = rules.PRESETS[preset].with_options(technical_fouls=True)
    state = rules.new_game(config)
    assert parse(c.command_text(event, config), state) == Act(event)


def test_an_undone_correction_is_named_as_the_judge_typed_it() -> None:
    """README, ``/undo``: «saying which, as typed»; a correction (``/fix 80 /vote 7 1``) is an
    action undone like any other, so the judge reads its own command back, not «fix»."""
    fix = rules.Fix(seq=80, event=rules.Vote(nominee=7, count=1))
    assert c.command_text(fix) == "/fix 80 /vote 7 1"
    assert parse(c.command_text(fix), rules.new_game(rules.PRESETS["seed"])) == FixCmd(80, "/vote 7 1")
    penalty = rules.Fix(seq=12, event=rules.Penalty(seat=5, reason="4.1.1"))
    assert c.command_text(penalty, rules.PRESETS["seed"]) == "/fix 12 /foul 5 4.1.1"


@pytest.mark.parametrize(("event", "typed"), [
    (rules.Penalty(seat=5), "/foul 5"), (rules.Penalty(seat=5, reason="warning"), "/warn 5"),
    (rules.Penalty(seat=5, reason="dq"), "/dq 5"), (rules.Penalty(seat=5, reason="tech"), "/tech 5"),
    (rules.Penalty(seat=5, reason="ppk", team="black"), "/ppk 5 black"),
    (rules.Penalty(seat=5, reason="4.1.1"), "/foul 5 4.1.1"),
    (rules.Penalty(seat=5, reason="4.3.1", team="red"), "/ppk 5 4.3.1 red"),
])
def test_a_penalty_reads_as_the_judge_types_it(event: rules.Event, typed: str) -> None:
    """The generic reason of a penalty's command (seed IV: a foul, a warning…) is what the
    command records with no reason typed, so its command shows none; an item's code is shown."""
    assert c.command_text(event, rules.PRESETS["seed"].with_options(technical_fouls=True)) == typed
