"""The adapter-neutral service: rights, revisions, undo, restarts, concurrency, game life cycle."""

from __future__ import annotations

import asyncio

import pytest

import rules
from bot.service import Outcome, Service, ServiceError
from storage import Store


@pytest.fixture
def store(any_store: Store) -> Store:
    """This module's store-level tests run on both backends (SQLite, PostgreSQL: issue 18)."""
    return any_store


CHAT = "tg:-100123"
JUDGE = "tg:42"
PLAYER = "tg:7"
SEED = rules.PRESETS["seed"]


@pytest.fixture
def service(store: Store) -> Service:
    return Service(store)


def refold(outcome: Outcome, log: list[rules.Event], names: dict[int, str] | None = None) -> rules.GameState:
    return rules.fold(outcome.state.config, log, names)[0]


async def start_day_one(service: Service, chat: str = CHAT) -> Outcome:
    """Setup → night 0 (F24 §4.2.1) → day 1, seat 1 speaks first (F24 §4.3.2)."""
    await service.act(chat, JUDGE, rules.StartGame())
    return await service.act(chat, JUDGE, rules.Next())


# --- acting -----------------------------------------------------------------------------------
async def test_act_applies_logs_and_counts_the_revision(service: Service, store: Store) -> None:
    created = await service.new_game(CHAT, JUDGE, SEED, {1: "Анна"})
    assert (created.revision, created.judge, created.notices) == (0, JUDGE, [])
    assert created.state.phase is rules.Phase.SETUP and created.state.seat(1).name == "Анна"
    started = await service.act(CHAT, JUDGE, rules.StartGame(), revision=0)
    assert started.revision == 1 and started.game_id == created.game_id
    assert started.state.phase is rules.Phase.NIGHT_ZERO  # F24 §1.3: the game opens with a night
    assert [n.kind for n in started.notices] == [rules.Kind.GAME_STARTED, rules.Kind.NIGHT_ZERO]
    day = await service.act(CHAT, JUDGE, rules.Next(), revision=1)
    assert day.state.phase is rules.Phase.SPEECH and day.state.speaker == 1  # F24 §4.3.2
    assert [r.event for r in await store.events(created.game_id)] == [{"type": "start_game"}, {"type": "next"}]
    assert await service.events(CHAT) == [rules.StartGame(), rules.Next()]


async def test_a_read_only_current_is_the_game_s_own_state_and_an_action_leaves_it_as_it_was(
        service: Service) -> None:
    """``current(copy=False)`` (a timer's tick reads the game so) hands out the service's own
    state instead of a copy: safe only because an action, an undo and a fix make a new state
    and never change the old one in place — what this checks."""
    from rules import snapshot

    await service.new_game(CHAT, JUDGE, SEED, {1: "Анна"})
    day = await start_day_one(service)
    own = await service.current(CHAT, copy=False)
    copied = await service.current(CHAT)
    assert own is not None and copied is not None and own.revision == day.revision
    assert own.state is (await service.current(CHAT, copy=False)).state  # type: ignore[union-attr]
    assert copied.state is not own.state
    before = snapshot.state_to_dict(own.state)
    await service.act(CHAT, JUDGE, rules.Penalty(seat=1, reason="foul"))
    await service.act(CHAT, JUDGE, rules.Next())
    await service.undo(CHAT, JUDGE)
    assert snapshot.state_to_dict(own.state) == before
    assert snapshot.state_to_dict((await service.current(CHAT)).state) != before  # type: ignore[union-attr]


async def test_a_refused_event_changes_nothing(service: Service, store: Store) -> None:
    await service.new_game(CHAT, JUDGE, SEED)
    before = await start_day_one(service)
    # F24 §4.4.2: only the speaker nominates, in his own minute; seat 1 speaks, not seat 2.
    with pytest.raises(rules.RuleError) as refused:
        await service.act(CHAT, JUDGE, rules.Nominate(by=2, target=5), revision=before.revision)
    assert refused.value.code is rules.Code.NOT_SPEAKER
    after = await service.current(CHAT)
    assert after is not None and after.revision == before.revision and after.state == before.state
    assert len(await store.events(before.game_id)) == 2
    # and the same revision is still good: the refusal did not move it
    ok = await service.act(CHAT, JUDGE, rules.Nominate(by=1, target=5), revision=before.revision)
    assert ok.revision == 3 and ok.state.nominees == [5]


async def test_a_non_judge_is_refused_and_changes_nothing(service: Service, store: Store) -> None:
    created = await service.new_game(CHAT, JUDGE, SEED)
    for attempt in (service.act(CHAT, PLAYER, rules.StartGame()), service.undo(CHAT, PLAYER)):
        with pytest.raises(ServiceError) as refused:
            await attempt
        assert refused.value.code == "not_judge"
    assert await store.events(created.game_id) == []
    now = await service.current(CHAT)
    assert now is not None and now.revision == 0 and now.state.phase is rules.Phase.SETUP


async def test_a_stale_revision_is_refused(service: Service, store: Store) -> None:
    await service.new_game(CHAT, JUDGE, SEED)
    await service.act(CHAT, JUDGE, rules.StartGame(), revision=0)
    for attempt in (service.act(CHAT, JUDGE, rules.Next(), revision=0),
                    service.undo(CHAT, JUDGE, revision=0)):
        with pytest.raises(ServiceError) as stale:
            await attempt
        assert (stale.value.code, stale.value.params) == ("stale", {"revision": 0, "current": 1})
    now = await service.current(CHAT)
    assert now is not None and now.revision == 1 and now.state.phase is rules.Phase.NIGHT_ZERO


async def test_no_game(service: Service) -> None:
    assert await service.current(CHAT) is None
    for attempt in (service.act(CHAT, JUDGE, rules.StartGame()), service.undo(CHAT, JUDGE),
                    service.take_over(CHAT, JUDGE), service.events(CHAT)):
        with pytest.raises(ServiceError) as refused:
            await attempt
        assert refused.value.code == "no_game"


async def test_take_over(service: Service, store: Store) -> None:
    created = await service.new_game(CHAT, JUDGE, SEED)
    taken = await service.take_over(CHAT, PLAYER)
    assert taken.judge == PLAYER and taken.revision == 0
    assert (await store.game(created.game_id)).judge == PLAYER  # type: ignore[union-attr]
    with pytest.raises(ServiceError, match="not_judge"):
        await service.act(CHAT, JUDGE, rules.StartGame())
    assert (await service.act(CHAT, PLAYER, rules.StartGame())).judge == PLAYER


# --- undo -------------------------------------------------------------------------------------
async def test_undo_several_steps(service: Service, store: Store) -> None:
    created = await service.new_game(CHAT, JUDGE, SEED)
    day = await start_day_one(service)
    await service.act(CHAT, JUDGE, rules.Nominate(by=1, target=5))
    await service.act(CHAT, JUDGE, rules.Next())  # seat 2 speaks
    back = await service.undo(CHAT, JUDGE, steps=2, revision=4)
    assert back.undone == (rules.Next(), rules.Nominate(by=1, target=5))  # newest first
    assert back.notices == [] and back.revision == 6  # two Undo rows were logged
    assert back.state.speaker == 1 and back.state.nominees == []
    assert back.state == refold(back, [rules.StartGame(), rules.Next()]) == day.state
    assert [r.event["type"] for r in await store.events(created.game_id)] == [
        "start_game", "next", "nominate", "next", "undo", "undo"]
    # undoing an act with an Undo event is the same as one step
    one = await service.act(CHAT, JUDGE, rules.Undo())
    assert one.undone == (rules.Next(),) and one.state.phase is rules.Phase.NIGHT_ZERO
    # one event stands (StartGame): two steps are refused, nothing logged
    with pytest.raises(ServiceError) as refused:
        await service.undo(CHAT, JUDGE, steps=2)
    assert (refused.value.code, refused.value.params) == ("nothing_to_undo", {"steps": 2, "available": 1})
    assert len(await store.events(created.game_id)) == 7
    last = await service.undo(CHAT, JUDGE)
    assert last.state.phase is rules.Phase.SETUP and last.revision == 8


async def test_undo_is_refused_at_creation(service: Service, store: Store) -> None:
    created = await service.new_game(CHAT, JUDGE, SEED, {2: "Вера"})
    with pytest.raises(ServiceError) as refused:
        await service.undo(CHAT, JUDGE)
    assert refused.value.code == "nothing_to_undo"
    await service.act(CHAT, JUDGE, rules.SetName(seat=2, name="Вика"))
    back = await service.undo(CHAT, JUDGE)
    assert back.state.seat(2).name == "Вера"  # the names given at creation are not undone
    with pytest.raises(ServiceError, match="nothing_to_undo"):
        await service.act(CHAT, JUDGE, rules.Undo())
    assert [r.event["type"] for r in await store.events(created.game_id)] == ["set_name", "undo"]


async def test_undo_of_the_end_reopens_the_game(service: Service, store: Store) -> None:
    created = await service.new_game(CHAT, JUDGE, SEED)
    await service.act(CHAT, JUDGE, rules.StartGame())
    # roles unknown: the judge declares the result (rules.DeclareResult)
    over = await service.act(CHAT, JUDGE, rules.DeclareResult("black"))
    assert over.state.phase is rules.Phase.GAME_OVER
    row = await store.game(created.game_id)
    assert row is not None and row.result == "black" and row.finished_at is not None
    assert await store.open_games() == []
    await service.undo(CHAT, JUDGE)
    row = await store.game(created.game_id)
    assert row is not None and row.finished_at is None and row.result is None
    assert [g.id for g in await store.open_games()] == [created.game_id]
    with pytest.raises(ServiceError, match="game_exists"):
        await service.new_game(CHAT, JUDGE, SEED)


# --- restart ----------------------------------------------------------------------------------
async def test_a_restart_restores_the_same_state(any_target: str) -> None:
    async with await Store.open(any_target) as store:
        service = Service(store)
        await service.new_game(CHAT, JUDGE, SEED.with_options(self_nomination=False), {1: "Анна", 4: "Гоша"})
        await start_day_one(service)
        await service.act(CHAT, JUDGE, rules.Nominate(by=1, target=4))
        await service.act(CHAT, JUDGE, rules.Penalty(seat=3, reason="foul"))
        await service.act(CHAT, JUDGE, rules.Next())
        await service.act(CHAT, JUDGE, rules.Nominate(by=2, target=7))
        await service.undo(CHAT, JUDGE)
        await service.take_over(CHAT, PLAYER)
        before = await service.current(CHAT)
        logged = await service.events(CHAT)
    assert before is not None
    async with await Store.open(any_target) as store:
        assert [g.id for g in await store.open_games()] == [before.game_id]
        service = Service(store)
        after = await service.current(CHAT)
        assert after is not None
        assert after == before  # same game, revision, state (config, names, fouls …), judge
        assert after.state.config.self_nomination is False
        assert after.state.seat(3).fouls == ["foul"] and after.state.speaker == 2
        assert await service.events(CHAT) == logged
        # play goes on where it stopped
        more = await service.act(CHAT, PLAYER, rules.Nominate(by=2, target=7), revision=before.revision)
        assert more.revision == before.revision + 1 and more.state.nominees == [4, 7]


async def test_the_cached_state_equals_a_fresh_fold(service: Service, store: Store) -> None:
    """The state handed out after each action is the one the log folds to."""
    await service.new_game(CHAT, JUDGE, SEED)
    steps: list[rules.Event] = [rules.StartGame(), rules.Next(), rules.Nominate(by=1, target=5),
                                rules.Next(), rules.Nominate(by=2, target=6)]
    steps += [rules.Next()] * 9  # seats 2–10 finish their speeches; two nominees: the vote (F24 §4.4.5)
    for event in steps:
        outcome = await service.act(CHAT, JUDGE, event)
        fresh = await Service(store).current(CHAT)  # a new service folds the stored log
        assert fresh is not None and fresh.state == outcome.state and fresh.revision == outcome.revision
    assert outcome.state.phase is rules.Phase.VOTING


# --- concurrency ------------------------------------------------------------------------------
async def test_two_chats_act_concurrently_without_interleaving(service: Service, store: Store) -> None:
    chats = ["tg:-1", "tg:-2"]
    games = {chat: (await service.new_game(chat, JUDGE, SEED)).game_id for chat in chats}
    actions = [service.act(chat, JUDGE, rules.SetName(seat=n % 10 + 1, name=f"{chat}#{n}"))
               for n in range(40) for chat in chats]
    outcomes = await asyncio.gather(*actions)
    for chat in chats:
        mine = [o for o in outcomes if o.game_id == games[chat]]
        assert sorted(o.revision for o in mine) == list(range(1, 41))  # each action its own row
        rows = await store.events(games[chat])
        assert [r.seq for r in rows] == list(range(1, 41))
        assert all(r.event["name"].startswith(chat + "#") for r in rows)
        now = await service.current(chat)
        assert now is not None and now.revision == 40
        assert now.state == rules.fold(SEED, [rules.from_dict(r.event) for r in rows])[0]


async def test_one_revision_wins_among_concurrent_presses(service: Service) -> None:
    """Ten presses of a button carrying revision 0: the first is applied, the rest are stale."""
    await service.new_game(CHAT, JUDGE, SEED)
    results = await asyncio.gather(
        *(service.act(CHAT, JUDGE, rules.SetName(seat=1, name=f"n{i}"), revision=0) for i in range(10)),
        return_exceptions=True)
    applied = [r for r in results if isinstance(r, Outcome)]
    stale = [r for r in results if isinstance(r, ServiceError) and r.code == "stale"]
    assert len(applied) == 1 and len(stale) == 9
    assert (await service.current(CHAT)).revision == 1  # type: ignore[union-attr]


# --- games over time --------------------------------------------------------------------------
async def test_several_games_per_chat_over_time(service: Service, store: Store) -> None:
    first = await service.new_game(CHAT, JUDGE, SEED)
    await service.act(CHAT, JUDGE, rules.StartGame())
    with pytest.raises(ServiceError) as exists:  # the first game is not finished
        await service.new_game(CHAT, PLAYER, SEED)
    assert (exists.value.code, exists.value.params) == ("game_exists", {"game_id": first.game_id})
    await service.act(CHAT, JUDGE, rules.DeclareResult("red"))
    second = await service.new_game(CHAT, PLAYER, rules.PRESETS["fsm2024"])  # after a finished one
    assert second.game_id != first.game_id and second.revision == 0 and second.judge == PLAYER
    assert second.state.phase is rules.Phase.SETUP and second.state.config.preset == "fsm2024"
    assert (await store.game(first.game_id)).result == "red"  # type: ignore[union-attr]
    assert await service.events(CHAT) == []
    await service.act(CHAT, PLAYER, rules.StartGame())
    third = await service.new_game(CHAT, JUDGE, SEED, replace=True)  # replaces an unfinished one
    assert third.game_id not in (first.game_id, second.game_id)
    assert (await store.game(second.game_id)).result == "abandoned"  # type: ignore[union-attr]
    assert [g.id for g in await store.open_games()] == [third.game_id]
    assert (await service.current(CHAT)).game_id == third.game_id  # type: ignore[union-attr]
    # another chat is independent
    other = await service.new_game("tg:-999", JUDGE, SEED)
    assert other.game_id not in (first.game_id, second.game_id, third.game_id)


async def test_bad_names_are_refused_before_anything_is_stored(service: Service, store: Store) -> None:
    with pytest.raises(rules.RuleError) as refused:
        await service.new_game(CHAT, JUDGE, SEED, {11: "Nobody"})
    assert refused.value.code is rules.Code.NO_SUCH_SEAT
    assert await store.current_game(CHAT) is None
    created = await service.new_game(CHAT, JUDGE, SEED, {5: "  Дина  "})
    assert created.state.seat(5).name == "Дина"
    assert (await store.game(created.game_id)).names == {5: "Дина"}  # type: ignore[union-attr]
