"""Host mode's pure parts and its storage: /newgame's options, the step plan, the events a closing
step becomes (the engine decides everything: F24 §4.4.5–4.4.8 votes, §4.4.12.3 the raise vote,
§4.5.3–4.5.9 the night, seed 4.4 the 3rd foul's silence), the callback codec, the secrecy of the
group's texts, the rate limiter and the tables in SQLite (migration 0003)."""

from __future__ import annotations

import asyncio
import random

import pytest

import rules
from bot.commands import CommandError
from bot.i18n import catalog
from bot.host import steps as st
from bot.host import views as vw
from bot.telegram.host.limiter import HostRateLimiter
from bot.host.options import HostError, HostOptions, TableSpec, parse_newgame
from bot.host.steps import Step
from rules import Role
from rules import notices as nt
from storage import HostStepRow, StorageError, Store, user_version
from support import RU_SECRETS

ROLES = ("civilian", "don", "civilian", "sheriff", "mafia", "civilian", "mafia", "civilian",
         "civilian", "civilian")  # Don 2, Sheriff 4, mafia 5 and 7
OPTIONS = HostOptions()


def play(*events: rules.Event) -> rules.GameState:
    state, _ = rules.fold(rules.PRESETS["seed"], [rules.SetRoles(roles=ROLES), rules.StartGame(), *events])
    return state


def step_for(state: rules.GameState, **inputs: object) -> Step:
    plan = st.plan(state, OPTIONS)
    return Step(no=1, key=plan.key, kind=plan.kind, seconds=plan.seconds, seat=plan.seat,
                night=plan.night, opened=0.0, deadline=0.0, **inputs)  # type: ignore[arg-type]


def day_one_vote() -> rules.GameState:
    """Day 1: #1 nominates #5, #2 nominates #7, the rest pass: the vote on #5 is open."""
    return play(rules.Next(), rules.Nominate(by=1, target=5), rules.Next(),
                rules.Nominate(by=2, target=7), *[rules.Next()] * 9)


# --- options ----------------------------------------------------------------------------------------

def test_newgame_options() -> None:
    spec = parse_newgame([], vote_window=10, shooting=20, silenced=10)
    assert spec.options == HostOptions("join", "auto", 20, 10)
    assert spec.config.preset == "seed" and spec.config.timers.vote_window == 10
    assert spec.config.timers.speech == 60  # F24 §4.3.1: the rules' own lengths stay
    spec = parse_newgame(["fiim2024", "seats=shuffle", "mute=foul", "timers.vote_window=5",
                          "shooting=15", "raise_vote=no"], vote_window=10, shooting=20, silenced=10)
    assert spec.options == HostOptions("shuffle", "foul", 15, 10)
    assert spec.config.preset == "fiim2024" and spec.config.timers.vote_window == 5
    assert spec.config.raise_vote is False
    assert TableSpec.from_dict(spec.to_dict()) == spec
    with pytest.raises(HostError):
        parse_newgame(["mute=sometimes"], vote_window=10, shooting=20, silenced=10)
    with pytest.raises(HostError):
        parse_newgame(["shooting=0"], vote_window=10, shooting=20, silenced=10)
    with pytest.raises(CommandError):
        parse_newgame(["no_such_option=1"], vote_window=10, shooting=20, silenced=10)


def test_the_shooting_is_one_option_for_host_and_judge() -> None:
    """``shooting=N`` and the rules' ``timers.shooting=N`` are one length (F24 §4.5.3 gives the
    shooting none): the blacks' window and the judge's timer; both given is one option given
    twice, refused as any duplicate is (which was meant?). Host mode needs a window: 0 is
    refused either way."""
    for args, seconds in (([], 20), (["shooting=15"], 15), (["timers.shooting=30"], 30)):
        spec = parse_newgame(args, vote_window=10, shooting=20, silenced=10)
        assert (spec.options.shooting, spec.config.timers.shooting) == (seconds, seconds), args
    for args in (["shooting=15", "timers.shooting=30"], ["timers.shooting=30", "shooting=15"]):
        with pytest.raises(CommandError) as refused:
            parse_newgame(args, vote_window=10, shooting=20, silenced=10)
        assert refused.value.code == "duplicate_option"
    assert parse_newgame([], vote_window=10, shooting=25, silenced=10).config.timers.shooting == 25
    with pytest.raises(HostError):
        parse_newgame(["timers.shooting=0"], vote_window=10, shooting=20, silenced=10)


def test_the_absent_option() -> None:
    """``absent_after`` (issue #4: "what … a stated option say"): 2 silent speeches in a row by
    default, ``absent=N`` 0–10 (0 = off); kept with the table's spec."""
    assert parse_newgame([], vote_window=10, shooting=20, silenced=10).options.absent_after == 2
    for arg, value in (("absent=0", 0), ("absent=3", 3), ("absent_after=10", 10)):
        spec = parse_newgame([arg], vote_window=10, shooting=20, silenced=10)
        assert spec.options.absent_after == value
        assert TableSpec.from_dict(spec.to_dict()).options.absent_after == value
    for bad in ("absent=11", "absent=-1", "absent=two"):
        with pytest.raises(HostError):
            parse_newgame([bad], vote_window=10, shooting=20, silenced=10)
    # a table stored before the option existed gets the default
    assert TableSpec.from_dict({"host": {"seating": "join"}}).options.absent_after == 2


def test_the_deal_is_the_rules_deck() -> None:
    """R1.1: 7 red with one Sheriff, 3 black with one Don; seeded, it is reproducible."""
    for seed in range(20):
        cards = rules.deal(random.Random(seed))
        assert sorted(cards) == sorted(ROLES)
        assert rules.check(rules.new_game(), rules.SetRoles(roles=cards)) is None
    assert rules.deal(random.Random(3)) == rules.deal(random.Random(3))


# --- the plan -----------------------------------------------------------------------------------------

def test_the_plan_follows_the_engine() -> None:
    timers = rules.PRESETS["seed"].timers
    state = play()
    assert st.plan(state, OPTIONS) == st.Plan("night_zero", "night_zero", timers.mafia_meeting)
    state = play(rules.Next())
    plan = st.plan(state, OPTIONS)
    assert (plan.kind, plan.seat, plan.seconds) == ("speech", 1, 60)  # F24 §4.3.1–4.3.2
    assert st.writers(state, plan) == {1}
    assert st.speaks_out_of_turn(state, plan, 2) and not st.speaks_out_of_turn(state, plan, 1)
    # seed 4.1.1 by day (a foul), seed 4.2.6 at night (night talk: a disqualifying foul)
    assert st.out_of_turn_reason(state, plan, 2) == "4.1.1"
    assert st.out_of_turn_reason(state, plan, 1) is None
    night_zero = play()
    assert st.out_of_turn_reason(night_zero, st.plan(night_zero, OPTIONS), 2) == "4.2.6"
    fouled = play(rules.Next(), *[rules.Penalty(seat=3, reason="4.1.1")] * 3, rules.Next(), rules.Next())
    plan = st.plan(fouled, OPTIONS)  # seed 4.4: #3's minute is silent, he may still nominate
    assert (plan.kind, plan.seat, plan.seconds) == ("silenced", 3, OPTIONS.silenced)
    assert st.writers(fouled, plan) == set()
    vote = day_one_vote()
    plan = st.plan(vote, OPTIONS)
    assert (plan.kind, plan.seat, plan.seconds) == ("vote", 5, timers.vote_window)
    assert st.writers(vote, plan) == set()


def test_a_night_step_lasts_the_same_with_its_role_gone() -> None:
    """The Don's and the Sheriff's steps keep their length whether or not the role is at the
    table; the prompt goes only to a role that may still check (R5.8)."""
    # the Sheriff (#4), or a civilian (#6), leaves with four fouls on day 1 (seed 4.5)
    gone = play(rules.Next(), *[rules.Penalty(seat=4, reason="foul")] * 4, *[rules.Next()] * 9)
    alive = play(rules.Next(), *[rules.Penalty(seat=6, reason="foul")] * 4, *[rules.Next()] * 9)
    for state in (gone, alive):
        assert state.phase is rules.Phase.NIGHT
    plans = {}
    for name, state in (("gone", gone), ("alive", alive)):
        kinds = []
        for _ in range(3):
            plan = st.plan(state, OPTIONS)
            kinds.append((plan.kind, plan.seconds, plan.key))
            step = step_for(state)
            if plan.kind == "sheriff_check":
                plans[name] = st.prompted(state, step)
            state, _ = rules.apply(state, st.closing_event(state, step))
        assert [k[0] for k in kinds] == ["shooting", "don_check", "sheriff_check"]
        plans[name + "-kinds"] = kinds
    assert plans["gone-kinds"] == plans["alive-kinds"]
    assert plans["alive"] == [4] and plans["gone"] == []


def test_closing_events() -> None:
    vote = day_one_vote()
    step = step_for(vote, hands=[1, 2, 3, 3, 11 - 1])
    assert st.closing_event(vote, step) == rules.Vote(nominee=5, voters=(1, 2, 3, 10))
    assert st.closing_event(vote, step_for(vote)) == rules.Vote(nominee=5, count=0)
    night = play(rules.Next(), *[rules.Next()] * 10)  # no nominees: straight to night 1
    shooting = step_for(night, shots={"2": 9, "5": 9})  # #7 did not press
    assert st.closing_event(night, shooting) == rules.Shots(shots=((2, 9), (5, 9), (7, None)))
    after, _ = rules.apply(night, st.closing_event(night, shooting))
    assert after.nights[-1].killed is None  # not every black shot: a miss (F24 §4.5.5)
    assert st.closing_event(after, step_for(after, target=4)) == rules.DonCheck(target=4)
    assert st.closing_event(after, step_for(after)) == rules.Next()
    raise_step = Step(no=1, key="raise:1", kind="raise", seconds=10, seat=None, night=None,
                      opened=0, deadline=0, hands=[1, 2])
    assert st.closing_event(vote, raise_step) == rules.RaiseVote(voters=(1, 2))


def test_one_vote_a_round_is_the_engines_answer() -> None:
    """Seed 4.1.8: a player who voted against an earlier nominee of this round may not raise a
    hand again; the engine says so, the window refuses the hand."""
    state = play(rules.Next(), rules.Nominate(by=1, target=5), rules.Next(),
                 rules.Nominate(by=2, target=7), rules.Next(), rules.Nominate(by=3, target=9),
                 *[rules.Next()] * 8, rules.Vote(nominee=5, voters=(1, 2)))
    step = step_for(state)
    assert step.kind == "vote" and step.seat == 7
    refusal = rules.can_vote(state, 1)
    assert refusal is not None and refusal.code is rules.Code.ALREADY_VOTED
    assert rules.can_vote(state, 3) is None
    with pytest.raises(rules.RuleError):
        st.toggle_hand(state, step, 1)


def test_pass_words() -> None:
    for text in ("Пас", "пас!", "Спасибо.", " спасибо ", "Pass", "thanks"):
        assert st.is_pass(text), text
    for text in ("пас на 5", "спасибо, но нет", "пасую?"):
        assert not st.is_pass(text), text


# --- views ------------------------------------------------------------------------------------------

def test_the_callback_codec() -> None:
    data = vw.encode(123456, 789, vw.SHOOT, vw.NO_SHOT)
    assert data == "h:123456:789:S:-"
    press = vw.decode(data)
    assert press == vw.HostPress(123456, 789, "S", "-") and press.seat() is None
    assert vw.decode("h:1:2:M:10").seat() == 10  # type: ignore[union-attr]
    with pytest.raises(ValueError):
        vw.decode("h:1:2:M:11").seat()  # type: ignore[union-attr]
    for bad in (None, "", "1:2:n", "h:x:2:J", "h:1:2", "h:1:2:J:1:2", "x" * 65):
        assert vw.decode(bad) is None, bad
    assert len(vw.encode(10 ** 12 - 1, 10 ** 12 - 1, vw.NOMINATE, 10).encode()) <= 64
    assert vw.start_payload("/start h42") == 42
    assert vw.start_payload("/start") is None and vw.start_payload("/start x42") is None
    assert vw.deep_link("RefBot", 42) == "https://t.me/RefBot?start=h42"


def test_group_texts_never_name_a_role() -> None:
    """F24 §4.4.13, §4.5.4: every step line and its keyboard, before the end, is free of role
    words and check answers."""
    cat = catalog("ru")
    state = play(rules.Next())
    for kind, seat in (("speech", 1), ("silenced", 1), ("last_word", 1), ("tie_speech", 1),
                       ("vote", 5), ("raise", None), ("shooting", None), ("don_check", None),
                       ("sheriff_check", None), ("best_move", 3), ("night_zero", None)):
        for closed in (False, True):
            step = Step(no=1, key=kind, kind=kind, seconds=20, seat=seat, night=1, opened=0,
                        deadline=0, hands=[1, 2])
            text = vw.step_text(step, state, cat, closed=closed)
            labels = [b.label for row in vw.step_keyboard(step, state, 1, cat) for b in row]
            assert not any(word in text for word in RU_SECRETS), text
            assert not any(word in label for label in labels for word in RU_SECRETS)
    assert vw.public_lines([nt.DonCheck(target=4, sheriff=True)], cat) == []


def test_the_role_card_and_the_blacks() -> None:
    cat = catalog("ru")
    state = play()
    assert vw.role_card(state, 4, "Клуб", cat) == "🎭 Стол в «Клуб». Ваше место — №4, ваша роль — Шериф."
    card = vw.role_card(state, 5, "Клуб", cat)
    assert "Чёрные за столом: Дон №2, мафия №7." in card  # F24 §4.2: the blacks meet
    assert st.role_seat(state, Role.DON) == 2 and rules.shooters(state) == [2, 5, 7]


# --- the rate limiter ---------------------------------------------------------------------------------

async def test_moderation_calls_do_not_wait_for_the_groups_message_limit() -> None:
    """ENGINEERING.md §2: ~20 messages a minute per group. Mutes and deletions are not messages:
    they pass; a second message in the same minute waits."""
    limiter = HostRateLimiter(overall_max_rate=100, overall_time_period=1, group_max_rate=1,
                              group_time_period=60)
    await limiter.initialize()
    calls: list[str] = []

    async def call(endpoint: str, data: dict) -> bool:  # type: ignore[type-arg]
        calls.append(endpoint)
        return True

    async def request(endpoint: str) -> object:
        data = {"chat_id": -100123}
        return await limiter.process_request(call, (endpoint, data), {}, endpoint, data, None)

    try:
        for endpoint in ("sendMessage", "restrictChatMember", "restrictChatMember", "deleteMessage"):
            await asyncio.wait_for(request(endpoint), 1)
        with pytest.raises(asyncio.TimeoutError):
            await asyncio.wait_for(request("sendMessage"), 0.3)
    finally:
        await limiter.shutdown()
    assert calls[:4] == ["sendMessage", "restrictChatMember", "restrictChatMember", "deleteMessage"]


# --- storage (0003) -----------------------------------------------------------------------------------

async def test_host_tables_in_the_store(any_store: Store) -> None:
    """Both backends (one text of the methods: storage.host.HostMethods)."""
    store = any_store
    if isinstance(store, Store):
        assert await user_version(store.conn) >= 3  # 0004 (the outbox) follows
    table = await store.create_host_table("tg:-100", "tg:1", {"host": {}, "rules": {}})
    row = await store.host_table(table)
    assert row is not None and row.status == "lobby" and row.players == [] and row.step is None
    await store.update_host_table(table, players=[{"user": "tg:2", "name": "Аня", "reachable": True}],
                                  seats={1: "tg:2"}, step={"no": 1}, data={"mode": "foul"},
                                  lobby_message=7, status="running")
    row = await store.host_table(table)
    assert row is not None and row.seats == {1: "tg:2"} and row.step == {"no": 1}
    assert row.lobby_message == 7 and row.data == {"mode": "foul"} and row.closed_at is None
    assert [r.id for r in await store.open_host_tables()] == [table]
    assert (await store.host_table_of("tg:-100")).id == table  # type: ignore[union-attr]
    await store.update_host_table(table, status="over", step=None)
    row = await store.host_table(table)
    assert row is not None and row.closed_at is not None and row.step is None
    assert await store.open_host_tables() == []
    assert (await store.host_table_of("tg:-100", "over")).id == table  # type: ignore[union-attr]
    await store.log_host_step(table, 1, "night:1:shooting", "shooting", 20, 1.0)
    await store.log_host_step(table, 1, "again", "again", 1, 2.0)  # the first record stays
    steps = await store.host_steps(table)
    assert [(s.no, s.kind, s.seconds) for s in steps] == [(1, "shooting", 20)]
    # a step stored with its record: one transaction — both, or neither
    await store.update_host_table(table, step={"no": 2},
                                  opened=HostStepRow(2, "night:1:don_check", "don_check", 20, 3.0))
    assert (await store.host_table(table)).step == {"no": 2}  # type: ignore[union-attr]
    with pytest.raises(StorageError):
        await store.update_host_table(table + 1, step={"no": 3}, opened=HostStepRow(3, "x", "x", 1, 4.0))
    assert [s.no for s in await store.host_steps(table)] == [1, 2]
    assert await store.host_steps(table + 1) == []
    await store.set_host_channel("tg:-100", "tg:-1009", "Канал")
    assert await store.host_channel("tg:-100") == ("tg:-1009", "Канал")
    await store.set_host_channel("tg:-100", None)
    assert await store.host_channel("tg:-100") is None
    await store.set_host_channel("tg:-100", "tg:-1009", "Канал")
    await store.set_host_channel("tg:-100", "tg:-1010", "Другой")  # linked anew: replaced
    await store.set_host_channel("tg:-300", "tg:-1011", None)
    await store.move_host_chat("tg:-100", "tg:-300")  # the new chat's own link stays
    assert (await store.host_table_of("tg:-300")).id == table  # type: ignore[union-attr]
    assert await store.host_table_of("tg:-100") is None
    assert await store.host_channel("tg:-300") == ("tg:-1011", None)
    assert await store.host_channel("tg:-100") == ("tg:-1010", "Другой")
    await store.move_host_chat("tg:-100", "tg:-400")
    assert await store.host_channel("tg:-400") == ("tg:-1010", "Другой")
    assert await store.create_host_table("tg:-400", "tg:1", {"host": {}, "rules": {}}) == table + 1
    with pytest.raises(Exception):
        await store.update_host_table(table, status="weird")


def test_a_host_option_given_twice_is_refused() -> None:
    """``/newgame mute=foul mute=restrict`` (or ``seats=`` and ``seating=``, its other name):
    which was meant? Refused as any option given twice is, never the last one taken."""
    for args in (["mute=foul", "mute=restrict"], ["seats=join", "seating=shuffle"],
                 ["absent=1", "absent_after=3"], ["grace=10", "voice_grace=20"],
                 ["silenced=5", "silenced=5"], ["voice=1", "voice=2"]):
        with pytest.raises(CommandError) as refused:
            parse_newgame(args, vote_window=10, shooting=20, silenced=10)
        assert refused.value.code == "duplicate_option", args
