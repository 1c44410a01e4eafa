"""The Discord adapter's pieces that need no server: the panel fitted into Discord's limits, the
slash commands' definitions and translations, the rights and the invite link, the keys, the
command line and the shared service of ``mafia-referee both``."""

from __future__ import annotations

from pathlib import Path
from typing import Iterator

import discord
import pytest
from discord import app_commands

import rules
from bot import commands as cmds
from bot import demo
from bot.cli import main
from bot.discord import keys, layout, rights, slash
from bot.discord.both import ScopedService
from bot.i18n import catalog
from bot.service import Service
from bot.judge import panel as pn
from bot.judge.callbacks import Press, decode
from storage import Store

# --- the panel within Discord's limits ----------------------------------------------------------

VIEWS = (pn.V_NOMINATE, pn.V_FOUL, pn.V_RESULT, pn.V_ROLES, pn.V_BEST)
SEAT_VIEWS = (pn.V_FOUL_SEAT, pn.V_DQ, pn.V_TEAM)


def demo_states(preset: str) -> Iterator[rules.GameState]:
    """One state of each kind (what the rules expect, roles known, departures) met in the demo
    game under ``preset`` (the roles entered; and once without)."""
    kinds: set[tuple[object, ...]] = set()
    for with_roles in (True, False):
        state = rules.new_game(rules.PRESETS[preset])
        yield state
        for text in demo.commands()[1:]:
            command = cmds.parse(text, state)
            if not isinstance(command, cmds.Act):
                continue
            if isinstance(command.event, rules.SetRoles) and not with_roles:
                continue
            try:
                state, _ = rules.apply(state, command.event)
            except rules.RuleError:
                continue
            kind = (rules.next_action(state).kind, state.roles_known, len(state.departures()) > 2,
                    any(s.fouls for s in state.seats))
            if kind not in kinds:
                kinds.add(kind)
                yield state


def presses(state: rules.GameState) -> Iterator[Press | None]:
    yield None
    for view in VIEWS:
        yield Press(1, 7, view)
    yield Press(1, 7, pn.V_ROLES, ("2.5",))
    yield Press(1, 7, pn.V_BEST, ("2.7.9",))
    fouled = [s.number for s in state.seats if s.fouls][:1]
    for seat in (1, 10, *fouled):  # a seat with a foul has one button more (withdraw it)
        for view in SEAT_VIEWS:
            yield Press(1, 7, view, (str(seat),))
        for code in ("ppk", "4.3.1"):
            yield Press(1, 7, pn.V_TEAM_SIDE, (str(seat), code))


@pytest.mark.parametrize("preset", list(rules.PRESETS))
def test_every_panel_fits_discords_grid(preset: str) -> None:
    """At most 5 rows of at most 5 buttons, every button kept and in order, unique custom_ids of
    at most 100 characters, labels of at most 80 — for every view of every state of a game."""
    cat = catalog("ru")
    seen = 0
    for state in demo_states(preset):
        for press in presses(state):
            panel = pn.render_panel(state, 1, 7, cat, press)
            rows = layout.fit_rows(panel.rows)
            assert len(rows) <= layout.MAX_ROWS and all(1 <= len(r) <= layout.MAX_ROW for r in rows)
            assert [b for r in rows for b in r] == panel.buttons
            view = layout.panel_view(panel)  # discord.py checks the grid itself
            components = view.to_components()
            ids = [c["custom_id"] for row in components for c in row["components"]]
            assert len(ids) == len(set(ids)) == len(panel.buttons)
            assert all(len(i) <= 100 and layout.is_ours(i) and decode(i) is not None for i in ids)
            assert all(len(c["label"]) <= 80 for row in components for c in row["components"])
            seen += 1
    assert seen > 200


def test_hand_counts_are_reflowed_in_order() -> None:
    """Eleven counts (0–10) in Telegram's rows of six become 0–4, 5–9, 10."""
    state = next(s for s in demo_states("seed") if rules.next_action(s).kind == "vote")
    panel = pn.render_panel(state, 1, 7, catalog("en"))
    rows = layout.fit_rows(panel.rows)
    counts = [[b.label for b in row] for row in rows if all(b.label.isdigit() for b in row)]
    assert counts == [["0", "1", "2", "3", "4"], ["5", "6", "7", "8", "9"], ["10"]]


def test_inert_buttons_get_distinct_ids_and_stay_inert() -> None:
    buttons = [pn.Button("·", "1:7:i"), pn.Button("2", "1:7:k:2"), pn.Button("·", "1:7:i")]
    ids = layout.custom_ids(buttons)
    assert ids[0] == "1:7:i" and ids[1] == "1:7:k:2" and ids[2] != ids[0]
    assert decode(ids[2]).action == pn.INERT
    assert layout.custom_ids([pn.Button("x", "1:7:n"), pn.Button("y", "1:7:n")])  # logged, kept


def test_custom_ids_of_other_bots_are_not_ours() -> None:
    assert layout.is_ours("12:40:p:5:4.1.1")
    assert not layout.is_ours("play-again") and not layout.is_ours("12:x:n")


# --- the slash commands ------------------------------------------------------------------------------

def test_the_game_commands_keep_the_typed_names() -> None:
    """Every command of the table that works in a Discord channel or at a hosted table there is
    a slash command of the same name — every typed command but ``/quit`` (a chat has nothing to
    quit) — and only those; each works in a server only."""
    names = {c.name for c in slash.COMMANDS}
    assert names == set(cmds.command_names()) - {"quit"}
    assert {"panel", "link", "unlink", "seat", "takeover", "newgame", "stop", "pass", "join",
            "protocol", "channel"} <= names  # Discord's own and host mode's too
    assert all(c.guild_only for c in slash.COMMANDS)
    assert set(slash.OPTIONS) <= names


@pytest.mark.parametrize(("name", "values", "typed"), [
    ("foul", {"seat": 4, "reason": "4.1.3"}, "/foul 4 4.1.3"),
    ("nominate", {"target": 7, "by": 3}, "/nominate 3 7"),  # the typed order, not Discord's
    ("nominate", {"target": 7}, "/nominate 7"),
    ("rename", {"player": "Аня", "new": "Анна"}, "/rename Аня = Анна"),
    ("extra", {"seat": 2, "points": "0.5", "approved": True}, "/extra 2 0.5 +"),
    ("extra", {"seat": 2, "points": "0.5", "approved": False}, "/extra 2 0.5"),
    ("settings", {"rules": "fiim2024", "off": True}, "/settings off"),  # off wins
    ("settings", {"rules": "fiim2024"}, "/settings fiim2024"),
    ("top", {"period": "month", "least": 5}, "/top month min=5"),
    ("table", {"number": 2, "host": True}, "/table 2 host"),
    ("start", {}, "/start"),  # no options: made from the table alone
])
async def test_a_slash_commands_options_are_typed_as_its_line(name: str, values: dict[str, object],
                                                              typed: str) -> None:
    """A slash command reaches the front door as the line a judge would type (one parser)."""
    from types import SimpleNamespace

    lines: list[str] = []

    async def heard(interaction: object, line: str) -> None:
        lines.append(line)

    command = next(c for c in slash.COMMANDS if c.name == name)
    interaction = SimpleNamespace(client=SimpleNamespace(referee=SimpleNamespace(slash=heard)))
    await command.callback(interaction, **values)  # type: ignore[arg-type]
    assert lines == [typed]
    assert {p.name for p in command.parameters} == {o.name for o in slash.OPTIONS.get(name, slash.Slash()).options}


#: what the other options of a command are when one of its numbers is tried at its bounds: a
#: required text, or the choice the number belongs to (``/stream delay N``, ``/evening new``)
_BESIDE: dict[str, dict[str, object]] = {
    "name": {"name": "Аня"}, "extra": {"points": "0.5"}, "badplay": {"item": "8.5.2"},
    "fix": {"command": "/foul 5"}, "stream": {"what": "delay"},
    "evening": {"action": "new", "start": "19:30"}, "tournament": {"action": "open", "games": 4},
    "seating": {"players": "20"},
}


def _integer_options() -> list[tuple[str, str, int]]:
    from discord.app_commands.transformers import RangeTransformer

    return [(name, option.name, bound) for name, spec in sorted(slash.OPTIONS.items())
            for option in spec.options
            if isinstance(option.kind, RangeTransformer)
            and option.kind.type is discord.AppCommandOptionType.integer
            for bound in (int(option.kind.min_value), int(option.kind.max_value))]


@pytest.mark.parametrize(("name", "option", "bound"), _integer_options())
async def test_every_number_a_slash_option_offers_is_read_by_its_typed_line(
        name: str, option: str, bound: int) -> None:
    """A slash command becomes its typed line (one parser): every number an integer option
    offers, at both ends of its range, must be one the typed line reads — not refused as a bad
    argument (``/fix action:12345`` past a line's four digits; ``/stream delay`` up to its six
    hours, 21600 s)."""
    from types import SimpleNamespace

    lines: list[str] = []

    async def heard(interaction: object, line: str) -> None:
        lines.append(line)

    command = next(c for c in slash.COMMANDS if c.name == name)
    values = {**{o.name: 3 for o in slash.OPTIONS[name].options if o.required}, **_BESIDE.get(name, {}),
              option: bound}
    interaction = SimpleNamespace(client=SimpleNamespace(referee=SimpleNamespace(slash=heard)))
    await command.callback(interaction, **values)  # type: ignore[arg-type]
    [line] = lines
    try:
        cmds.find(line).parse(line, None)
    except cmds.CommandError as error:
        assert error.code not in ("bad_argument", "bad_seat", "bad_option_value", "bad_undo"), (line, error)


async def test_descriptions_in_both_languages_within_discords_limits() -> None:
    client = discord.Client(intents=discord.Intents.none())
    tree: app_commands.CommandTree[discord.Client] = app_commands.CommandTree(client)
    slash.install(tree)
    translator = slash.CatalogTranslator()
    for command in tree.get_commands():
        payload = await command.get_translated_payload(tree, translator)  # type: ignore[union-attr]
        assert 1 <= len(payload["description"]) <= 100, command.name
        assert payload["description_localizations"]["ru"], command.name
        assert "name_localizations" not in payload or not payload["name_localizations"]
        for option in payload.get("options", []):
            assert 1 <= len(option["description"]) <= 100, (command.name, option["name"])
            assert len(option["description_localizations"]["ru"]) <= 100
    ru = await translator.translate(app_commands.locale_str("x", key="dc-cmd-foul"),
                                    discord.Locale.russian, None)  # type: ignore[arg-type]
    en = await translator.translate(app_commands.locale_str("x", key="dc-cmd-foul"),
                                    discord.Locale.american_english, None)  # type: ignore[arg-type]
    assert ru == catalog("ru").text("dc-cmd-foul") and en is None


# --- rights, keys ----------------------------------------------------------------------------------------

def test_rights_and_the_invite_link() -> None:
    url = rights.invite_url(123456789012345678)
    assert "client_id=123456789012345678" in url and "scope=bot+applications.commands" in url
    bits = int(url.rsplit("permissions=", 1)[1])
    granted = discord.Permissions(bits)
    assert granted.send_messages and granted.attach_files and granted.moderate_members
    assert not granted.administrator and not granted.manage_channels
    assert rights.missing(discord.Permissions.none()) == list(rights.CHANNEL_RIGHTS)
    assert rights.missing(discord.Permissions(administrator=True)) == []
    text = rights.rights_text(["moderate_members"], catalog("en"))
    assert "Moderate Members" in text


def test_the_readme_gives_the_invites_permissions_number() -> None:
    """An admin who builds the link by hand copies README's number: it is the invite's."""
    import re

    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text("utf-8")
    numbers = set(re.findall(r"permissions=(\d+)", readme))
    assert numbers == {str(rights.invite_permissions().value)}


def test_keys() -> None:
    assert keys.chat_key(42) == "dc:42" and keys.user_key(7) == "dc:7"
    assert keys.id_of("dc:42") == 42 and keys.is_discord("dc:42")
    assert not keys.is_discord("tg:42") and not keys.is_discord("dc:guild:5")
    with pytest.raises(ValueError):
        keys.id_of("tg:42")
    assert keys.mention_user("dc:7") == "<@7>" and keys.mention_channel("dc:42") == "<#42>"


# --- the command line ----------------------------------------------------------------------------------

TOKEN_VARS = ("MAFIA_REFEREE_DISCORD_TOKEN", "DISCORD_BOT_TOKEN", "MAFIA_REFEREE_TELEGRAM_TOKEN",
              "TELEGRAM_BOT_TOKEN")


@pytest.fixture
def no_token(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in TOKEN_VARS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)  # no .env here


def test_discord_without_a_token_says_so_and_exits_2(no_token: None, capsys: pytest.CaptureFixture[str],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    assert main(["discord"]) == 2
    err = capsys.readouterr().err
    assert "MAFIA_REFEREE_DISCORD_TOKEN" in err and "Developer Portal" in err
    monkeypatch.setenv("DISCORD_BOT_TOKEN", "  ")
    assert main(["discord"]) == 2


def test_both_needs_both_tokens(no_token: None, capsys: pytest.CaptureFixture[str],
                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DISCORD_BOT_TOKEN", "x")
    assert main(["both"]) == 2
    assert "MAFIA_REFEREE_TELEGRAM_TOKEN" in capsys.readouterr().err


def test_the_invite_link_needs_no_token(no_token: None, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["discord", "--invite", "123456789012345678"]) == 0
    out = capsys.readouterr().out.strip()
    assert out == rights.invite_url(123456789012345678)


# --- both bots, one service ------------------------------------------------------------------------------

async def test_each_adapter_rearms_only_its_own_timers(store: Store) -> None:
    service = Service(store)
    for chat in ("tg:1", "dc:2"):
        outcome = await service.new_game(chat, chat, rules.PRESETS["seed"])
        await service.set_timer(outcome.game_id, {"key": chat, "stage": "running"})
    assert len(await service.open_timers()) == 2
    telegram = ScopedService(service, "tg:")
    assert [t["key"] for t in (await telegram.open_timers()).values()] == ["tg:1"]
    assert telegram.store is service.store  # everything else is the same service


async def test_both_bots_run_in_one_process_over_one_service(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch) -> None:
    """``mafia-referee both``: Telegram long-polls (the fake Bot API) while the Discord client
    is on its gateway (the fake Discord), both over one service and one store; cancelling stops
    both and closes the store."""
    import asyncio
    import contextlib

    from bot.discord.both import serve_both
    from bot.settings import Settings
    from fakebot import FakeBotAPI
    from fakediscord import FakeDiscordServer

    from bot.discord import app as dc_app

    monkeypatch.setenv("PTB_TIMEDELTA", "1")
    clients: list[dc_app.RefereeClient] = []
    build = dc_app.build_client

    def spied(*args: object, **kwargs: object) -> dc_app.RefereeClient:  # only to look at it
        clients.append(build(*args, **kwargs))  # type: ignore[arg-type]
        return clients[-1]

    monkeypatch.setattr(dc_app, "build_client", spied)
    async with FakeBotAPI() as telegram, FakeDiscordServer() as discord_fake:
        settings = Settings(db=tmp_path / "both.sqlite3", telegram_token=telegram.token,
                            telegram_base_url=telegram.base_url, discord_token=discord_fake.fake.token,
                            discord_base_url=discord_fake.base_url)
        task = asyncio.create_task(serve_both(settings))
        await discord_fake.wait_for(lambda: discord_fake.connected or task.done(), 20, "the gateway")
        assert not task.done(), task
        for _ in range(200):
            if telegram.calls_to("getUpdates"):
                break
            await asyncio.sleep(0.05)
        assert telegram.calls_to("getUpdates"), "Telegram is not polling"
        published = {c["name"]: c for c in discord_fake.fake.published}  # the slash commands
        assert set(published) == {c.name for c in slash.COMMANDS}
        assert published["foul"]["description_localizations"]["ru"].startswith("Фол")
        service = clients[0].referee.service
        assert isinstance(service, Service)
        game = await service.new_game("dc:1", "dc:2", rules.PRESETS["seed"])
        assert game.game_id == 1  # the one store, open
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        assert not discord_fake.connected  # the Discord client closed with it
    with pytest.raises(Exception):
        await service.store.game(1)  # closed with the process


async def test_both_bots_with_a_webhook_url_serve_telegrams_webhook(tmp_path: Path) -> None:
    """``mafia-referee both`` with ``…_TELEGRAM_WEBHOOK_URL`` set: as ``mafia-referee telegram``,
    Telegram's updates come by the webhook (registered with its secret; never by getUpdates,
    which would delete it) while Discord is on its gateway; a forged POST is refused (403), the
    real one is acted on."""
    pytest.importorskip("tornado", reason="webhook mode needs python-telegram-bot[webhooks] (tornado)")
    import asyncio
    import contextlib
    import socket

    import aiohttp

    from bot.discord.both import serve_both
    from bot.settings import Settings
    from fakebot import FakeBotAPI
    from fakediscord import FakeDiscordServer
    from support.webhook import post_update

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = int(sock.getsockname()[1])
    async with FakeBotAPI() as telegram, FakeDiscordServer() as discord_fake:
        judge = telegram.add_user("Judge", "judge", started=True)
        settings = Settings(db=tmp_path / "both.sqlite3", telegram_token=telegram.token,
                            telegram_base_url=telegram.base_url, discord_token=discord_fake.fake.token,
                            discord_base_url=discord_fake.base_url,
                            telegram_webhook_url="https://referee.example.org/tg/hook",
                            telegram_webhook_port=port)
        task = asyncio.create_task(serve_both(settings, "webhook-Secret_42"))
        try:
            await telegram.wait_for(lambda: telegram.webhook or task.done(), timeout=20, what="setWebhook")
            assert not task.done(), task
            assert telegram.webhook["secret_token"] == "webhook-Secret_42"
            await discord_fake.wait_for(lambda: discord_fake.connected or task.done(), 20, "the gateway")
            telegram.user_sends(judge, None, "/new")
            update = telegram._updates.pop()  # what Telegram would POST to the webhook
            hook = f"http://127.0.0.1:{port}/tg/hook"
            async with aiohttp.ClientSession() as http:
                assert await post_update(http, hook, update) == 403  # no secret: not Telegram
                assert await post_update(http, hook, update, "webhook-Secret_42") == 200
            reply = await telegram.wait_sent(judge, count=2, timeout=20)  # the news, then the panel
            assert reply.buttons
            assert not telegram.calls_to("getUpdates") and telegram.webhook
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task


@pytest.mark.parametrize("refusal", [discord.LoginFailure("Improper token has been passed."),
                                     discord.PrivilegedIntentsRequired(shard_id=None)])
def test_a_refused_token_or_intent_exits_2(refusal: Exception, tmp_path: Path,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """Exit 2, as bad settings: the systemd unit (RestartPreventExitStatus=2) stops restarting a
    bot whose token Discord refuses; restarting would not help."""
    from pydantic import SecretStr

    from bot.discord import app as dc_app
    from bot.settings import Settings

    async def refused(self: discord.Client, token: str, **kwargs: object) -> None:
        raise refusal

    monkeypatch.setattr(discord.Client, "start", refused)  # the gateway's login
    settings = Settings(discord_token=SecretStr("x" * 59), db=tmp_path / "r.sqlite3")
    assert dc_app.run(settings) == 2
