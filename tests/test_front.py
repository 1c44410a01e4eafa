"""The front door (issue 29): every command is one spec of the command table (``bot/commands.py``)
and every typed line goes through one router (``bot/front.py``).

The table below is the door as a judge, a player and an admin meet it: for each command, the
part that carries it out where it is typed — the judge's private chat with the bot (``desk``), a
Telegram group (``group``), a Discord channel (``channel``), the console, and a chat where a
hosted table gathers or plays (on Telegram and on Discord) — and who may give it. ``-``: refused
there, in the words of :meth:`bot.front.Front.not_here`, the same on every platform.

Then the router walks every command at every place of every platform over stand-in parts: it
reaches the part the table says, with the command parsed once, or refuses it in the door's words
and reaches nothing. Last, the real platforms (the console, the PTB Application over the fake Bot
API, discord.py over the fake Discord) refuse the same commands in the same words.
"""

from __future__ import annotations

import contextlib
from pathlib import Path
from types import SimpleNamespace
from typing import Any, AsyncIterator

import discord
import pytest

import rules
from bot import commands as cmds
from bot.commands import Part, Place
from bot.console import Session
from bot.front import Entry, Front
from bot.i18n import catalog
from bot.judge.port import Reply
from bot.service import Service, ServiceError
from fakebot import FakeBotAPI
from support import discord_table
from support.host_table import host_table
from support.telegram_table import table as telegram_table

RU = catalog("ru")

#: part names as the table writes them; ``:J`` the game's judge, ``:A`` the chat's admin, ``:JA``
#: either, ``:JS`` the judge or (Discord) Manage Server, ``:AO`` an admin to open a tournament
#: or give a table to host mode (a grant), ``:AT`` an admin to take another judge's game over
DOOR = """
command    desk          group         channel       console       tg-table      dc-table
new        judge         -             judge         judge         -             -
name       judge         -             judge         judge         -             -
roles      judge         -             judge         judge         -             -
start      platform      platform      judge         judge         platform      -
next       judge         -             judge         judge         -             -
pass       judge         -             judge         judge         host          host
nominate   judge         -             judge         judge         host          host
withdraw   judge         -             judge         judge         -             -
vote       judge         -             judge         judge         -             -
raise      judge         -             judge         judge         -             -
kill       judge         -             judge         judge         -             -
don        judge         -             judge         judge         -             -
sheriff    judge         -             judge         judge         -             -
unfoul     judge         -             judge         judge         host          host
miss       judge         -             judge         judge         -             -
shots      judge         -             judge         judge         -             -
bestmove   judge         -             judge         judge         -             -
foul       judge         -             judge         judge         host          host
warn       judge         -             judge         judge         host          host
dq         judge         -             judge         judge         host          host
ppk        judge         -             judge         judge         host          host
tech       judge         -             judge         judge         -             -
result     judge         -             judge         judge         -             -
undo       judge         -             judge         judge         -             -
extra      judge         -             judge         judge         -             -
badplay    judge         -             judge         judge         -             -
fix        judge         -             judge         judge         -             -
timer      judge         -             judge         judge         -             -
status     judge         judge         judge         judge         host          host
points     judge         -             judge         judge         -             -
protocol   judge         host/judge    host/judge    judge         host          host
why        judge         judge         judge         judge         host          host
rule       judge         judge         judge         judge         host          host
log        judge         -             judge         judge         -             -
help       judge         platform      judge         judge         platform      -
games      club          club          club          club          club          club
stats      club          club          club          club          club          club
top        club          club          club          club          club          club
rating     club          club          club          club          club          club
evening    club          club          club          club          club          club
seating    club          club          club          club          club          club
roster     club          club          club          club          club          club
rename     club          club          club          club          club          club
merge      club          club          club          club          club          club
forget     club          club          club          club          club          club
settings   -             club:A        club:A        club:A        club:A        club:A
tournament tournament:AO tournament:AO tournament:AO tournament:AO tournament:AO tournament:AO
table      tournament:AO tournament:AO tournament:AO tournament:AO tournament:AO tournament:AO
quit       judge         -             -             judge         -             -
lang       platform      platform:JA   platform:JS   platform      platform:JA   platform:JS
newgame    -             host          host          -             host          host
stop       -             -             -             -             host          host
join       -             -             -             -             host          host
channel    -             platform:A    platform:A    -             platform:A    platform:A
link       -             platform      platform:J    -             -             -
unlink     -             platform:J    platform:J    -             -             -
stream     web           web:JA        web:JA        -             web:A         web:A
takeover   -             judge:AT      judge:AT      -             -             -
panel      -             -             platform:J    -             -             -
seat       -             -             platform:J    -             -             -
"""
COLUMNS = {"desk": (Place.DESK, "tg"), "group": (Place.GROUP, "tg"), "channel": (Place.CHANNEL, "dc"),
           "console": (Place.CONSOLE, "console"), "tg-table": (Place.TABLE, "tg"),
           "dc-table": (Place.TABLE, "dc")}
WHO = {"J": cmds.Who.JUDGE, "A": cmds.Who.ADMIN, "JA": cmds.Who.JUDGE_OR_ADMIN,
       "JS": cmds.Who.JUDGE_OR_SERVER_ADMIN, "AO": cmds.Who.ADMIN_TO_OPEN,
       "AT": cmds.Who.ADMIN_TO_TAKE}
#: a line of each command that needs arguments (any other is typed bare)
SAMPLES = {"name": "/name 3 Вася", "roles": "/roles D2 M5 M7 S8", "nominate": "/nominate 3 7",
           "withdraw": "/withdraw 3", "vote": "/vote 7 4", "raise": "/raise 6", "kill": "/kill 4",
           "don": "/don 3", "sheriff": "/sheriff 5", "unfoul": "/unfoul 5", "shots": "/shots 2:7 5:7",
           "bestmove": "/bestmove 1 2 3", "foul": "/foul 5", "warn": "/warn 5", "dq": "/dq 5",
           "ppk": "/ppk 5", "tech": "/tech 5", "extra": "/extra 3 0.4", "badplay": "/badplay 3 8.5.2",
           "fix": "/fix 2 /foul 5", "lang": "/lang en", "seat": "/seat 5 123", "link": "/link",
           "rule": "/rule 5.7", "join": "/join Аня"}


def _door() -> dict[str, dict[str, str]]:
    lines = [line.split() for line in DOOR.strip().splitlines()]
    header = lines[0][1:]
    return {row[0]: dict(zip(header, row[1:])) for row in lines[1:]}


def test_the_table_is_the_door() -> None:
    """Every command has its row, and each row says where it works, which part carries it out
    there and who may give it: exactly what its spec's routes say."""
    door = _door()
    assert set(door) == set(cmds.command_names())
    for spec in cmds.specs():
        for column, (place, platform) in COLUMNS.items():
            routes = spec.routes_at(place, platform)
            part, _, who = door[spec.name][column].partition(":")
            if part == "-":
                assert not routes, (spec.name, column)
                continue
            assert "/".join(r.part.value for r in routes) == part, (spec.name, column)
            assert routes[0].who is WHO.get(who, cmds.Who.ANYONE), (spec.name, column)


def test_every_name_and_alias_finds_its_command() -> None:
    """English and Russian names, short forms, ``/cmd@bot``, case and ё: one spec each."""
    for typed, name in (("/FOUL@RefereeBot", "foul"), ("фол", "foul"), ("ф", None), ("f", "foul"),
                        ("/пас", "pass"), ("/n", "next"), ("далее", "next"), ("подъём", "raise"),
                        ("подъем", "raise"), ("/newgame", "newgame"), ("/правило", "rule")):
        found = cmds.spec(typed)
        assert (found.name if found is not None else None) == name, typed
    names = [n for s in cmds.specs() for n in (s.name, *s.aliases)]
    assert len(names) == len(set(names))  # no name or alias names two commands


# --- the router over stand-in parts ----------------------------------------------------------------

class _Part:
    """A stand-in part: records what reaches it (its name and the command parsed)."""

    def __init__(self, name: str, reached: list[tuple[str, Any]]) -> None:
        self.name = name
        self.reached = reached

    def held(self, home: str) -> Any:
        return contextlib.nullcontext()

    def state(self, current: Any, place: Place) -> rules.GameState | None:
        return None

    async def run(self, call: Any) -> list[Reply]:
        self.reached.append((self.name, call.command))
        return [Reply(f"done by {self.name}")]


class _Host(_Part):
    """Host mode's stand-in: a table gathers in the chat ``"table"``."""

    async def live(self, chat: str) -> Any:
        return object() if chat == "table" else None

    async def owns_protocol(self, chat: str) -> bool:
        return False

    async def message(self, chat: str, user: str, text: str, handle: Any, **kw: Any) -> bool:
        return False  # nobody seated here: a group's command is nobody's speech


class _Service:
    """The service as the router reads it: every chat its own home, each with a game judged
    by ``judge``."""

    def __init__(self, judge: str) -> None:
        self.judge = judge

    async def home(self, chat: str) -> str:
        return chat

    async def current(self, home: str, *, copy: bool = True) -> Any:
        return SimpleNamespace(judge=self.judge, game_id=1, state=SimpleNamespace(phase=rules.Phase.SPEECH))

    async def announce(self, game_id: int) -> str | None:
        return None

    async def missing(self, home: str) -> ServiceError:
        return ServiceError("no_game")


class _Rights:
    def __init__(self, admin: bool) -> None:
        self.admin = admin

    async def is_admin(self, entry: Entry, chat: str, *, server: bool = False) -> bool:
        return self.admin


def _front(reached: list[tuple[str, Any]], *, judge: str = "u:judge", admin: bool = True) -> Front:
    parts = {part: (_Host if part is Part.HOST else _Part)(part.value, reached) for part in Part}

    async def cat(chat: str) -> Any:
        return RU

    return Front(lambda: _Service(judge), parts, _Rights(admin), cat,  # type: ignore[arg-type]
                 lines=parts[Part.HOST])  # type: ignore[arg-type]


@pytest.mark.parametrize("column", list(COLUMNS))
async def test_every_command_reaches_its_part_or_is_refused_in_the_doors_words(column: str) -> None:
    place, platform = COLUMNS[column]
    door = _door()
    for spec in cmds.specs():
        reached: list[tuple[str, Any]] = []
        front = _front(reached)
        chat = "table" if place is Place.TABLE else "chat"
        typed = Place.GROUP if (place is Place.TABLE and platform == "tg") else \
            Place.CHANNEL if place is Place.TABLE else place
        text = SAMPLES.get(spec.name, f"/{spec.name}")
        entry = Entry(platform, typed, chat, "u:judge", text)
        answers = await front.enter(entry)
        assert answers is not None, (spec.name, column)
        part = door[spec.name][column].partition(":")[0]
        if part == "-":
            assert reached == [] and [a.refused for a in answers] == [True], (spec.name, column)
            words = await front.not_here(spec, place, entry, RU)
            assert [a.text for a in answers] == [words], (spec.name, column)
        else:
            assert [name for name, _ in reached] == [part.split("/")[-1]], (spec.name, column)
            assert reached[0][1] == cmds.parse_as(spec, text, None)  # parsed once, as typed


async def test_a_refusal_names_where_the_command_works() -> None:
    """Off its places a command is refused, saying where it works — not a generic "unknown"."""
    reached: list[tuple[str, Any]] = []
    front = _front(reached)
    cases = [("console", Place.CONSOLE, "/newgame", "bots"), ("console", Place.CONSOLE, "/link", "bots"),
             ("tg", Place.DESK, "/newgame", "group"), ("tg", Place.DESK, "/stop", "table"),
             ("tg", Place.DESK, "/seat 5", "discord"), ("dc", Place.CHANNEL, "/stop", "table"),
             ("tg", Place.GROUP, "/join Аня", "table"), ("console", Place.CONSOLE, "/panel", "discord"),
             ("dc", Place.DM, "/seat 5", "channel")]
    for platform, place, text, where in cases:
        answers = await front.enter(Entry(platform, place, "chat", "u:judge", text))
        name = cmds.spec(cmds.head(text)).name  # type: ignore[union-attr]
        assert answers == [Reply(RU.text("front-not-here", command=name, where=where), refused=True)], text
    assert reached == []


async def test_rights_are_checked_once_by_the_door_in_one_text_per_platform() -> None:
    """Who may give a command is the router's: refused before the part sees it, in one catalog
    text (its platform's variant where the right has another name there)."""
    reached: list[tuple[str, Any]] = []
    front = _front(reached, judge="u:judge", admin=False)
    stranger = "u:someone"
    for platform, place in (("tg", Place.GROUP), ("dc", Place.CHANNEL)):
        for text, key in (("/channel off", "front-channel-admin-only"),
                          ("/lang en", "front-lang-not-allowed"),
                          ("/takeover", "front-takeover-admin-only"),
                          ("/unlink", "judge-not-judge")):
            answers = await front.enter(Entry(platform, place, "chat", stranger, text))
            assert answers == [Reply(RU.text(key, platform=platform, judge="u:judge", command="x"),
                                     refused=True)], (platform, text)
    assert reached == []
    # the judge himself passes where the judge may; an admin where an admin may
    await front.enter(Entry("tg", Place.GROUP, "chat", "u:judge", "/unlink"))
    assert [name for name, _ in reached] == ["platform"]


async def test_a_grant_is_found_by_the_door_and_applied_by_the_part() -> None:
    """Opening a tournament needs the club's admin, but the tournament's desk refuses in its own
    order (no tournament, not its chief, then the right): the router only finds the right."""
    calls: list[Any] = []

    class Desk(_Part):
        async def run(self, call: Any) -> list[Reply]:
            calls.append(call.granted)
            return []

    for admin, granted in ((True, True), (False, False)):
        front = _front([], admin=admin)
        front.parts = {**front.parts, Part.TOURNAMENT: Desk("tournament", [])}  # type: ignore[dict-item]
        await front.enter(Entry("tg", Place.GROUP, "chat", "u:x", "/tournament open 2 А, Б"))
        assert calls[-1] is granted
        await front.enter(Entry("tg", Place.GROUP, "chat", "u:x", "/tournament"))  # a look: no right needed
        assert calls[-1] is True


async def test_another_bots_line_is_not_ours() -> None:
    front = _front([])
    for text in ("/stop@OtherBot", "/frobnicate", "/"):
        assert await front.enter(Entry("tg", Place.GROUP, "chat", "u:x", text, bot="RefereeBot")) is None
    assert await front.enter(Entry("tg", Place.GROUP, "chat", "u:x", "/status@RefereeBot",
                                   bot="RefereeBot")) is not None


# --- the real platforms ----------------------------------------------------------------------------

async def test_the_console_refuses_what_is_not_the_consoles(store: Any) -> None:
    session = Session(Service(store), RU)
    await session.open()
    for text, where in (("/newgame", "bots"), ("/link", "bots"), ("/channel off", "bots"),
                        ("/stop", "table"), ("/seat 5", "discord")):
        reply = await session.handle(text)
        name = cmds.spec(cmds.head(text)).name  # type: ignore[union-attr]
        assert reply.lines == [RU.text("front-not-here", command=name, where=where)], text
        assert not reply.accepted
    assert await store.current_game(session.chat) is None  # nothing was created


@pytest.fixture
async def fake() -> AsyncIterator[FakeBotAPI]:
    async with FakeBotAPI() as api:
        yield api


@pytest.mark.usefixtures("ptb_timedelta")
async def test_telegram_refuses_in_the_doors_words(fake: FakeBotAPI, tmp_path: Path) -> None:
    async with telegram_table(fake, tmp_path / "db.sqlite3") as t:
        for text, where in (("/newgame", "group"), ("/stop", "table"), ("/seat 5", "discord")):
            await t.say(text)  # in the judge's private chat
            name = cmds.spec(cmds.head(text)).name  # type: ignore[union-attr]
            assert t.fake.sent(t.judge)[-1].text == RU.text("front-not-here", command=name, where=where)
        await t.say("/stop", chat=t.group)  # no table here
        assert t.fake.sent(t.group)[-1].text == RU.text("front-not-here", command="stop", where="table")
        await t.say("/channel off", chat=t.group)  # the judge is not the group's admin
        assert t.fake.sent(t.group)[-1].text == RU.text("front-channel-admin-only", platform="tg")
        assert await t.service.store.host_channel(f"tg:{t.group.id}") is None


@pytest.mark.usefixtures("ptb_timedelta")
async def test_a_telegram_hosted_table_refuses_judge_mode_in_the_doors_words(fake: FakeBotAPI,
                                                                             tmp_path: Path) -> None:
    async with host_table(fake, tmp_path / "db.sqlite3") as t:
        await t.say(t.owner, "/newgame")  # the lobby gathers: the group is a table now
        for text in ("/link", "/next", "/takeover", "/new"):
            await t.say(t.players[0], text)
            name = cmds.spec(cmds.head(text)).name  # type: ignore[union-attr]
            assert t.group_texts()[-1] == RU.text("host-table-command", command=name), text


async def test_discord_refuses_in_the_doors_words(tmp_path: Path) -> None:
    async with discord_table.table(tmp_path / "db.sqlite3") as t:
        answer = await t.slash("stop")  # no table in the channel
        assert answer == RU.text("front-not-here", command="stop", where="table")
        answer = await t.slash("channel", channel=discord_table.CLUB_ID)  # no Manage Channels
        assert answer == RU.text("front-channel-admin-only", platform="dc")
        assert await t.service.store.host_channel(t.home) is None
        await t.slash("newgame", perms=discord.Permissions(manage_channels=True))
        for name in ("link", "next", "takeover", "new"):
            options = {"channel": discord_table.CLUB_ID} if name == "link" else {}
            answer = await t.slash(name, **options)
            assert answer == RU.text("host-table-command", command=name), name


async def test_every_door_of_a_group_reaches_host_modes_one_judge() -> None:
    """Issue 36: a Telegram group's command is a message the group reads — host mode judges it
    first, and one it takes as speech out of turn is neither carried out nor answered (whatever
    it names: another bot's, no command at all); an edit is only ever a line (never a command
    carried out again); an unnamed sender is handed in as such. A Discord slash command, seen
    by its asker alone, is not judged."""
    judged: list[tuple[str, bool, bool, float | None]] = []

    class Judging(_Host):
        taken = True

        async def message(self, chat: str, user: str, text: str, handle: Any, *,
                          written_at: float | None = None, command: bool = False,
                          anonymous: bool = False) -> bool:
            judged.append((text, command, anonymous, written_at))
            return self.taken

    reached: list[tuple[str, Any]] = []
    front = _front(reached)
    host = Judging("host", reached)
    front.parts = {**front.parts, Part.HOST: host}  # type: ignore[dict-item]
    front.lines = host  # type: ignore[assignment]
    for text in ("/rule Шериф — №7", "/stop@OtherBot Шериф", "/шериф7", "/status"):
        assert await front.enter(Entry("tg", Place.GROUP, "table", "u:p", text, stamp=5.0)) == []
    assert judged == [(t, True, False, 5.0) for t in ("/rule Шериф — №7", "/stop@OtherBot Шериф",
                                                      "/шериф7", "/status")]
    assert reached == []
    judged.clear()
    assert await front.enter(Entry("tg", Place.GROUP, "table", "u:p", "/nominate 7", edit=True,
                                   stamp=9.0, anonymous=True)) == []
    assert judged == [("/nominate 7", False, True, 9.0)] and reached == []  # a line, never run
    host.taken = False  # the speaker's own minute: his command is carried out
    judged.clear()
    await front.enter(Entry("tg", Place.GROUP, "table", "u:p", "/status"))
    assert [name for name, _ in reached] == ["host"] and judged[0][1] is True
    judged.clear()
    await front.enter(Entry("dc", Place.CHANNEL, "table", "u:p", "/status"))  # a slash command
    assert judged == []
    assert await front.enter(Entry("tg", Place.DESK, "u:p", "u:p", "/status", edit=True)) is None
