"""Storage and service additions for chat adapters (migration 0002): chat aliases resolved before
locking, a game's announce chat, stored message ids and timers, a take over that moves the game
to its new judge's chat, a chat changing its id. Adapter-neutral: no Telegram here."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

import rules
from bot.service import Service, ServiceError
from storage import NoSuchGame, StorageError, Store, user_version

HOME = "tg:42"  # the judge's private chat, where the game lives
GROUP = "tg:-100123"  # the club's group, linked to it
JUDGE = "tg:42"
ADMIN = "tg:77"
ADMIN_HOME = "tg:77"
SEED = rules.PRESETS["seed"]


@pytest.fixture
def service(store: Store) -> Service:
    return Service(store)


# --- the store --------------------------------------------------------------------------------
async def test_migration_2_is_applied(store: Store) -> None:
    assert await user_version(store.conn) >= 2  # 0003 (host mode) follows
    columns = {r[1] for r in await store.conn.execute_fetchall("PRAGMA table_info(games)")}
    assert {"announce", "messages", "timer"} <= columns


async def test_aliases(store: Store) -> None:
    assert await store.alias(GROUP) is None
    await store.set_alias(GROUP, HOME)
    assert await store.alias(GROUP) == HOME
    assert await store.aliases_of(HOME) == [GROUP]
    await store.set_lang(GROUP, "en")  # the chat row keeps its language beside the alias
    assert await store.alias(GROUP) == HOME and await store.lang(GROUP) == "en"
    await store.set_alias(GROUP, None)
    assert await store.alias(GROUP) is None and await store.aliases_of(HOME) == []
    with pytest.raises(StorageError):
        await store.set_alias(HOME, HOME)


async def test_announce_messages_and_timer_per_game(store: Store) -> None:
    game = await store.create_game(HOME, JUDGE, rules.config_to_dict(SEED), {})
    assert await store.announce(game) is None
    await store.set_announce(game, GROUP)
    assert await store.announce(game) == GROUP
    assert await store.message(game, HOME, "panel") is None
    await store.set_message(game, HOME, "panel", 17)
    await store.set_message(game, GROUP, "timer", 5)
    assert await store.message(game, HOME, "panel") == 17
    assert await store.messages(game) == {(HOME, "panel"): 17, (GROUP, "timer"): 5}
    await store.set_message(game, HOME, "panel", None)
    assert await store.messages(game) == {(GROUP, "timer"): 5}
    await store.set_timer(game, {"deadline": 123.5, "seat": 3})
    assert await store.timer(game) == {"deadline": 123.5, "seat": 3}
    assert await store.open_timers() == {game: {"deadline": 123.5, "seat": 3}}
    await store.finish(game, "red")
    assert await store.open_timers() == {}  # a finished game has nothing to re-arm
    await store.set_timer(game, None)
    assert await store.timer(game) is None
    for call in (store.set_announce(999, GROUP), store.set_message(999, HOME, "panel", 1),
                 store.set_timer(999, None)):
        with pytest.raises(NoSuchGame):
            await call


async def test_what_0002_stores_survives_reopening(db_path: Path) -> None:
    async with await Store.open(db_path) as store:
        game = await store.create_game(HOME, JUDGE, rules.config_to_dict(SEED), {})
        await store.set_alias(GROUP, HOME)
        await store.set_announce(game, GROUP)
        await store.set_message(game, HOME, "panel", 9)
        await store.set_timer(game, {"deadline": 1.0})
    async with await Store.open(db_path) as store:
        assert await store.alias(GROUP) == HOME
        assert await store.announce(game) == GROUP
        assert await store.message(game, HOME, "panel") == 9
        assert await store.timer(game) == {"deadline": 1.0}


# --- the service: aliases -----------------------------------------------------------------------
async def test_an_alias_acts_on_its_homes_game(service: Service, store: Store) -> None:
    created = await service.new_game(HOME, JUDGE, SEED)
    assert await service.link(GROUP, HOME) == HOME
    assert await service.home(GROUP) == HOME and await service.home(HOME) == HOME
    via_group = await service.current(GROUP)
    assert via_group is not None and via_group.game_id == created.game_id
    started = await service.act(GROUP, JUDGE, rules.StartGame(), revision=0)
    assert started.game_id == created.game_id and started.revision == 1
    at_home = await service.current(HOME)
    assert at_home is not None and at_home.revision == 1 and at_home.state == started.state
    assert await service.events(GROUP) == [rules.StartGame()]
    await service.unlink(GROUP)
    assert await service.current(GROUP) is None
    # a fresh service (a restart) finds the alias in the store
    await service.link(GROUP, HOME)
    again = Service(store)
    assert (await again.current(GROUP)).game_id == created.game_id  # type: ignore[union-attr]


async def test_one_lock_serves_all_of_a_games_chats(service: Service, store: Store) -> None:
    """Presses from the group and the home chat with the same revision: exactly one wins."""
    await service.new_game(HOME, JUDGE, SEED)
    await service.link(GROUP, HOME)
    results = await asyncio.gather(
        service.act(HOME, JUDGE, rules.StartGame(), revision=0),
        service.act(GROUP, JUDGE, rules.StartGame(), revision=0),
        return_exceptions=True)
    assert sum(1 for r in results if isinstance(r, ServiceError) and r.code == "stale") == 1
    assert len(await service.events(HOME)) == 1


async def test_bad_aliases_are_refused(service: Service) -> None:
    await service.new_game(HOME, JUDGE, SEED)
    with pytest.raises(ServiceError, match="bad_alias"):
        await service.link(HOME, HOME)
    await service.link(GROUP, HOME)
    with pytest.raises(ServiceError, match="bad_alias"):
        await service.link(HOME, GROUP)  # HOME has an alias: it cannot become one itself
    assert await service.link("tg:-100999", GROUP) == HOME  # an alias of an alias is its home


async def test_announce_and_messages_through_the_service(service: Service) -> None:
    created = await service.new_game(HOME, JUDGE, SEED)
    await service.set_announce(created.game_id, GROUP)
    assert await service.announce(created.game_id) == GROUP
    await service.set_message(created.game_id, HOME, "panel", 3)
    assert await service.message(created.game_id, HOME, "panel") == 3
    assert await service.messages(created.game_id) == {(HOME, "panel"): 3}
    await service.set_timer(created.game_id, {"left": 60})
    assert await service.timer(created.game_id) == {"left": 60}
    assert await service.open_timers() == {created.game_id: {"left": 60}}


# --- the service: take over -----------------------------------------------------------------
async def test_take_over_moves_the_game_to_the_new_judges_chat(service: Service, store: Store) -> None:
    earlier = await service.new_game(HOME, JUDGE, SEED)
    await service.act(HOME, JUDGE, rules.SetRoles((None,) * 10))
    await service.act(HOME, JUDGE, rules.StartGame())
    await service.act(HOME, JUDGE, rules.DeclareResult("draw"))  # the judge's earlier game ended
    created = await service.new_game(HOME, JUDGE, SEED)
    await service.link(GROUP, HOME)
    await service.act(GROUP, JUDGE, rules.StartGame())
    taken = await service.take_over(GROUP, ADMIN, home=ADMIN_HOME)
    assert taken.judge == ADMIN and taken.game_id == created.game_id and taken.revision == 1
    assert await service.home(GROUP) == ADMIN_HOME  # the group follows the game
    moved = await service.current(ADMIN_HOME)
    assert moved is not None and moved.game_id == created.game_id
    back = await service.current(HOME)  # the old judge's chat falls back to his earlier game
    assert back is not None and back.game_id == earlier.game_id
    with pytest.raises(ServiceError, match="not_judge"):
        await service.act(GROUP, JUDGE, rules.Next())
    assert (await service.act(GROUP, ADMIN, rules.Next())).state.day == 1
    # the old judge is free to start a new game at home; it does not touch the moved one
    fresh = await service.new_game(HOME, JUDGE, SEED)
    assert fresh.game_id != created.game_id
    assert (await service.current(GROUP)).game_id == created.game_id  # type: ignore[union-attr]
    # and a restart sees the same
    again = Service(store)
    assert (await again.current(ADMIN_HOME)).judge == ADMIN  # type: ignore[union-attr]
    assert (await again.current(GROUP)).game_id == created.game_id  # type: ignore[union-attr]


async def test_take_over_into_a_busy_chat_is_refused(service: Service, store: Store) -> None:
    created = await service.new_game(HOME, JUDGE, SEED)
    await service.link(GROUP, HOME)
    own = await service.new_game(ADMIN_HOME, ADMIN, SEED)
    with pytest.raises(ServiceError) as refused:
        await service.take_over(GROUP, ADMIN, home=ADMIN_HOME)
    assert refused.value.code == "home_busy" and refused.value.params == {"game_id": own.game_id}
    assert (await store.game(created.game_id)).judge == JUDGE  # type: ignore[union-attr]
    assert await service.home(GROUP) == HOME


async def test_take_over_without_a_home_keeps_the_chat(service: Service) -> None:
    created = await service.new_game(HOME, JUDGE, SEED)
    taken = await service.take_over(HOME, ADMIN)
    assert taken.judge == ADMIN and (await service.current(HOME)).game_id == created.game_id  # type: ignore[union-attr]


async def test_a_chat_that_changes_its_id_keeps_its_link(service: Service, store: Store) -> None:
    created = await service.new_game(HOME, JUDGE, SEED)
    await service.link(GROUP, HOME)
    await service.set_announce(created.game_id, GROUP)
    await store.set_lang(GROUP, "en")
    await service.migrate_chat(GROUP, "tg:-100555")
    assert await service.home("tg:-100555") == HOME
    assert await service.home(GROUP) == GROUP
    assert await service.announce(created.game_id) == "tg:-100555"
    assert await store.lang("tg:-100555") == "en"


@pytest.mark.parametrize("code", ["home_busy", "bad_alias"])
@pytest.mark.parametrize("lang", ["ru", "en"])
def test_the_new_service_refusals_have_words(code: str, lang: str) -> None:
    from bot.i18n import catalog
    from bot.render import error_text

    text = error_text(ServiceError(code, game_id=3, chat="tg:1"), catalog(lang))
    assert text and "service" not in text and code not in text
