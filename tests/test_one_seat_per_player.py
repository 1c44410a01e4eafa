"""One player, one seat (the newcomer's report, item 1): the club's statistics count each seat of
a game as a game of its player, so two seats of one game never get one name as the roster tells
names apart (case-folded, ё as е, NFKC: :func:`rules.name_key`) — wherever a seat gets a name:
``/name`` (the console, Telegram and Discord share it), the roster's spelling, a correction, a
game's first names (a tournament's table), a hosted lobby; and two roster entries that sat in one
game are two people, never merged. A log stored before the refusal still replays."""

from __future__ import annotations

import pytest

import rules
from bot.console import Session
from bot.host.port import Player
from bot.host.steps import distinct_name
from bot.i18n import catalog
from bot.service import Service
from storage import ClubError, Store
from support.fake_host import GROUP, HOST, RU, table
from support import club
from support.stores import rows as sql_rows

from scenarios.harness import Table

CLUB = "tg:-100555"
JUDGE = "tg:42"
NAMES = club.NAMES
store = club.store  # this module's store tests run on both backends (SQLite, PostgreSQL)


def team_loss(preset: str) -> Table:
    """D8 M9 M10 S5: black #9 swears an oath on day 1 (seed 4.3.1): red wins."""
    t = Table(preset=preset)
    t.team_loss(9, "4.3.1")
    return t


async def play(service: Service, table_: Table, names: dict[int, str]) -> int:
    outcome = await service.new_game(CLUB, JUDGE, table_.state.config, names)
    for event in table_.log:
        await service.act(CLUB, JUDGE, event)
    return outcome.game_id


@pytest.mark.parametrize("name", ["Вася", "вася", "ВАСЯ", " Вася ", "вАсЯ", "ＶＡＳЯ".replace("ＶＡＳ", "ВАС")])
def test_the_names_of_one_player_share_a_key(name: str) -> None:
    assert rules.name_key(name) == rules.name_key("Вася")


def test_the_key_folds_fullwidth_letters_yo_and_spaces() -> None:
    assert rules.name_key("Ｄina") == rules.name_key("Dina") == rules.name_key("DINA")
    assert rules.name_key("Пётр  Иванов") == rules.name_key("петр иванов")
    assert rules.name_key("Вася") != rules.name_key("Вася П.")


@pytest.mark.parametrize("preset", ["seed", "fiim2024", "fsm2024"])
async def test_a_second_seat_with_the_same_name_is_refused_and_changes_nothing(preset: str) -> None:
    store = await Store.open(":memory:")
    try:
        session = Session(Service(store), catalog("ru"))
        await session.open()
        assert (await session.handle(f"/new {preset}")).accepted
        assert (await session.handle("/name 1 Вася")).accepted
        for seat, typed in ((2, "Вася"), (3, "вася"), (4, "ВАСЯ"), (10, "  вася  ")):
            reply = await session.handle(f"/name {seat} {typed}")
            assert not reply.accepted, typed
            assert "уже у места 1" in reply.lines[0] and "одно место" in reply.lines[0]
        current = await session.service.current(session.chat)
        assert current is not None
        assert [s.name for s in current.state.seats] == ["Вася", *[None] * 9]
        assert (await session.handle("/name 1 вася")).accepted  # the same seat, spelled anew
        assert (await session.handle("/name 2 Вася П.")).accepted  # another person
        for line in ("/roles D2 M5 M7 S8", "/start"):
            assert (await session.handle(line)).accepted
        refused = await session.handle("/name 3 вася п.")  # after the start too
        assert not refused.accepted and "уже у места 2" in refused.lines[0]
    finally:
        await store.close()


async def test_the_rosters_spelling_of_a_name_cannot_take_a_second_seat(tmp_path) -> None:  # noqa: ANN001
    """``/name`` takes the roster's spelling (issue 17): «вася» becomes the roster's «Вася»,
    which seat 1 already has; and a correction cannot give a seat another seat's name."""
    store = await Store.open(tmp_path / "club.db")
    try:
        session = Session(Service(store), catalog("ru"))
        await session.open()
        for seat, name in NAMES.items():
            await session.handle(f"/name {seat} {name}")
        for line in ("/roles D2 M5 M7 S8", "/start", "/next", "/ppk 7 4.3.1", "/new"):
            assert (await session.handle(line)).accepted, line
        assert (await session.handle("/name 1 Аня")).accepted
        reply = await session.handle("/name 2 аня")
        assert not reply.accepted and "уже у места 1" in reply.lines[0]
        assert (await session.handle("/name 2 Боря")).accepted
        fixed = await session.handle("/fix 2 /name 2 АНЯ")
        assert not fixed.accepted and "уже у места 1" in fixed.lines[0]
        current = await session.service.current(session.chat)
        assert current is not None and current.state.seat(2).name == "Боря"
    finally:
        await store.close()


async def test_a_games_first_names_are_refused_with_two_seats_of_one_name() -> None:
    store = await Store.open(":memory:")
    try:
        service = Service(store)
        with pytest.raises(rules.RuleError) as caught:
            await service.new_game(CLUB, JUDGE, rules.PRESETS["seed"], {**NAMES, 5: "аня"})
        assert caught.value.code is rules.Code.NAME_TAKEN and caught.value.params["other"] == 1
        assert await service.current(CLUB) is None
    finally:
        await store.close()


def test_a_log_stored_before_the_refusal_still_replays() -> None:
    """A game logged with two seats of one name (before this refusal) loads as it was."""
    log = [rules.SetName(seat=1, name="Вася"), rules.SetName(seat=2, name="вася")]
    state, _ = rules.fold(rules.PRESETS["seed"], log)
    assert [state.seat(1).name, state.seat(2).name] == ["Вася", "вася"]
    assert rules.admit(state, rules.SetName(seat=3, name="ВАСЯ")) is not None
    refusal = rules.check(state, rules.SetName(seat=3, name="ВАСЯ"))  # a new action: refused
    assert refusal is not None and refusal.code is rules.Code.NAME_TAKEN
    assert refusal.params["other"] == 1 and refusal.params["name"] == "Вася"  # as the seat has it


async def test_the_tournament_list_refuses_one_player_named_twice() -> None:
    store = await Store.open(":memory:")
    try:
        session = Session(Service(store), catalog("ru"))
        await session.open()
        players = [f"Игрок {n:02d}" for n in range(1, 11)]
        for repeat in ("игрок 03", "Игрок 03"):
            reply = await session.handle("/tournament open 1 " + ", ".join([*players, repeat]))
            assert any("дважды" in line for line in reply.lines), reply.lines
            assert await store.tournament(session.chat) is None
    finally:
        await store.close()


async def test_two_entries_that_sat_in_one_game_are_not_merged(store: Store) -> None:
    """«Аня» and «Боря» played one game at seats 1 and 2: merged, one person would have played
    it twice (as civilian and Don). Entries of different games still merge."""
    service = Service(store)
    await play(service, team_loss("seed"), NAMES)
    await play(service, team_loss("seed"), {**NAMES, 1: "Анна"})  # Аня, typed anew
    anya, borya, anna = [await store.find_player(CLUB, n) for n in ("Аня", "Боря", "Анна")]
    assert anya is not None and borya is not None and anna is not None
    with pytest.raises(ClubError) as caught:
        await store.merge_players(CLUB, anya.id, borya.id)
    assert caught.value.code == "shared_game"
    assert caught.value.params["source"] == "Аня" and caught.value.params["target"] == "Боря"
    assert (await store.find_player(CLUB, "Боря")).games == 2  # type: ignore[union-attr]
    assert (await store.find_player(CLUB, "Аня")).games == 1  # type: ignore[union-attr]
    with pytest.raises(ClubError, match="shared_game"):
        await store.merge_players(CLUB, anna.id, borya.id)  # Анна and Боря: the second game
    await store.merge_players(CLUB, anna.id, anya.id)  # one person, two games: merged
    assert (await store.find_player(CLUB, "Аня")).games == 2  # type: ignore[union-attr]
    with pytest.raises(ClubError, match="shared_game"):
        await store.merge_players(CLUB, borya.id, anya.id)  # now both games are shared


async def test_merge_at_the_console_says_why_it_is_refused() -> None:
    store = await Store.open(":memory:")
    try:
        session = Session(Service(store), catalog("ru"))
        await session.open()
        for seat, name in NAMES.items():
            await session.handle(f"/name {seat} {name}")
        for line in ("/roles D2 M5 M7 S8", "/start", "/next", "/ppk 7 4.3.1"):
            assert (await session.handle(line)).accepted, line
        reply = await session.handle("/merge Аня = Боря")
        assert len(reply.lines) == 1 and "разные люди" in reply.lines[0] and "Аня" in reply.lines[0]
        assert "игр 1" in "\n".join((await session.handle("/stats Боря")).lines)
    finally:
        await store.close()


def test_a_hosted_table_tells_two_players_of_one_name_apart() -> None:
    assert distinct_name("Вася", []) == "Вася"
    assert distinct_name("вася", ["Вася"]) == "вася (2)"
    assert distinct_name("Вася", ["Вася", "вася (2)"]) == "Вася (3)"
    long = "Я" * rules.MAX_NAME
    made = distinct_name(long, [long])
    assert len(made) == rules.MAX_NAME and made.endswith(" (2)")


async def test_a_hosted_lobby_of_two_players_with_one_name_deals_a_game() -> None:
    players = [Player(f"fk:{200 + n}", "Вася" if n <= 3 else f"Игрок {n}") for n in range(1, 11)]
    async with table() as t:
        assert await t.command(HOST, "/newgame") == []
        lobby = t.chats.last(GROUP, with_button=RU.text("host-btn-join"))
        for player in players:
            assert (await t.press(player, lobby.data(RU.text("host-btn-join")))).answered
        state = await t.state()
        assert state.phase is rules.Phase.NIGHT_ZERO
        names = sorted(s.name or "" for s in state.seats)
        assert names[:3] == ["Вася", "Вася (2)", "Вася (3)"]
        assert len({rules.name_key(n) for n in names}) == 10


async def test_migration_0011_refolds_the_rosters_keys_with_nfkc(tmp_path) -> None:  # noqa: ANN001
    """A roster written before 0011 kept «Ｄina» under a key of its own; after the migration the
    store's keys are NFKC's, so «Dina» finds that entry (newcomer's report, item 10)."""
    import aiosqlite

    from storage.migrate import bundled, migrate

    db = tmp_path / "old.sqlite3"
    async with aiosqlite.connect(db, isolation_level=None) as conn:
        await migrate(conn, bundled()[:10])
        await conn.execute("INSERT INTO players(club, name, folded, account, created_at)"
                           " VALUES (?, ?, ?, NULL, 0)", (CLUB, "Ｄina", "ｄina"))  # 0006's key
    store = await Store.open(db)
    try:
        found = await store.find_player(CLUB, "Dina")
        assert found is not None and found.name == "Ｄina"
        assert await sql_rows(store, "SELECT folded FROM players") == [("dina",)]
    finally:
        await store.close()


async def test_opening_the_store_computes_every_emptied_key(any_target: str) -> None:
    """On both backends: the keys 0011 leaves empty are computed when the store opens (again
    after a process stopped between the migration and the refold)."""
    store = await Store.open(any_target)
    try:
        await store.add_player(CLUB, "Ｖася")
        await sql_rows(store, "UPDATE players SET folded = ''")
    finally:
        await store.close()
    store = await Store.open(any_target)
    try:
        assert await sql_rows(store, "SELECT folded FROM players") == [("vася",)]
        found = await store.find_player(CLUB, "vАСЯ")
        assert found is not None and found.name == "Ｖася"
    finally:
        await store.close()
