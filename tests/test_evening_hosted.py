"""Issue 33, item 1: at the start the evening's list becomes a hosted table's lobby. Within
twelve hours of a closed sign-up's start, ``/newgame`` in the club's group names the list's
players who have not sat down yet; with ten or more on the list only they sit (a member not on
it is refused and nothing changes), ten of them fill the table and the deal begins (F24 §1.1:
ten players); a list of fewer than ten leaves the free seats to anyone."""

from __future__ import annotations

from bot.host.port import Player
from storage import Store
from storage.evening import CLOSED, GOING
from support.fake_host import GROUP, HOST, PLAYERS, RU, Table, table


async def _evening(store: Store, at: float, players: list[Player]) -> int:
    made = await store.open_evening(GROUP, HOST.user, at, "Europe/Moscow", 1, now=at - 3600)
    assert made is not None
    for player in players:
        assert (await store.sign_evening(made.id, player.user, player.name, GOING, at - 60)).outcome == GOING
    assert await store.end_evening(made.id, CLOSED, at)
    return made.id


def _lobby(t: Table):  # noqa: ANN202 - a fake message
    return t.chats.last(GROUP, with_button=RU.text("host-btn-join"))


async def test_a_full_evening_list_is_the_lobby_and_only_its_players_sit() -> None:
    async with table() as t:
        await _evening(t.store, t.clock(), PLAYERS)
        stranger = Player("fk:999", "Чужой")
        assert await t.command(HOST, "/newgame") == []
        assert "Список вечера (10): садятся только игроки этого списка." in _lobby(t).text
        refused = await t.press(stranger, _lobby(t).data(RU.text("host-btn-join")))
        assert refused.text == RU.text("host-join-evening-only")
        assert t.table().players == []
        for player in PLAYERS[:9]:
            assert (await t.press(player, _lobby(t).data(RU.text("host-btn-join")))).text == \
                RU.text("host-join-done")
        assert _lobby(t).text.endswith("Ещё не сели: Кирилл")
        await t.press(PLAYERS[9], _lobby(t).data(RU.text("host-btn-join")))
        assert t.table().step is not None and t.table().step.kind == "night_zero"  # the deal


async def test_a_short_list_leaves_the_free_seats_to_anyone_and_an_old_evening_nothing() -> None:
    async with table() as t:
        await _evening(t.store, t.clock(), PLAYERS[:4])
        assert await t.command(HOST, "/newgame") == []
        assert "Список вечера (4): свободные места — для всех." in _lobby(t).text
        stranger = Player("fk:999", "Чужой")
        assert (await t.press(stranger, _lobby(t).data(RU.text("host-btn-join")))).text == \
            RU.text("host-join-done")
    async with table() as t:
        await _evening(t.store, t.clock() - 13 * 3600, PLAYERS)  # yesterday's: not this lobby's
        assert await t.command(HOST, "/newgame") == []
        assert "Список вечера" not in _lobby(t).text


async def test_tonights_list_is_the_lobby_even_when_next_weeks_sign_up_is_already_posted() -> None:
    # tonight's sign-up closed at its start; during the evening the admin posts next week's
    async with table() as t:
        await _evening(t.store, t.clock(), PLAYERS)
        week = t.clock() + 7 * 24 * 3600
        posted = await t.store.open_evening(GROUP, HOST.user, week, "Europe/Moscow", 1, now=t.clock())
        assert posted is not None
        assert await t.command(HOST, "/newgame") == []
        assert "Список вечера (10): садятся только игроки этого списка." in _lobby(t).text


async def test_the_host_lets_anyone_take_a_no_shows_seat() -> None:
    """Ten on the evening's list, one does not come: only the list's players may sit, so the
    table could never have its ten (F24 §1.1). The host — not a player, not a stranger — opens
    the free seats to anyone with the lobby's button; the reserve's player sits and the deal
    begins. A second press on the open lobby changes nothing."""
    async with table() as t:
        await _evening(t.store, t.clock(), PLAYERS)
        assert await t.command(HOST, "/newgame") == []
        for player in PLAYERS[:9]:  # Кирилл does not come
            await t.press(player, _lobby(t).data(RU.text("host-btn-join")))
        stranger = Player("fk:999", "Запасной")
        assert (await t.press(stranger, _lobby(t).data(RU.text("host-btn-join")))).text == \
            RU.text("host-join-evening-only")
        opening = _lobby(t).data(RU.text("host-btn-open-evening"))
        refused = await t.press(PLAYERS[0], opening)  # a player of the table
        assert refused.text == RU.text("host-not-host", platform="fk")
        assert refused.text != RU.text("host-evening-opened")
        assert "садятся только игроки этого списка" in _lobby(t).text
        assert (await t.press(HOST, opening)).text == RU.text("host-evening-opened")
        assert "свободные места — для всех" in _lobby(t).text
        assert RU.text("host-btn-open-evening") not in _lobby(t).labels()
        assert (await t.press(HOST, opening)).text == RU.text("host-outdated")
        assert (await t.press(stranger, _lobby(t).data(RU.text("host-btn-join")))).text == \
            RU.text("host-join-done")
        assert t.table().step is not None and t.table().step.kind == "night_zero"  # the deal
