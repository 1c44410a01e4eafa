"""The Discord client against another server over the wire (``MAFIA_REFEREE_DISCORD_BASE_URL``,
:mod:`bot.discord.endpoint`): the bot as a process, the token, two clients in one process, and
the gateway's reconnects (RESUME, or IDENTIFY again when the session is gone)."""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path

import discord
import pytest
from discord.webhook.async_ import async_context

from bot.discord.endpoint import RoutedWebhookAdapter
from fakediscord import FakeDiscord, FakeDiscordServer
from support.discord_table import BOT_RIGHTS, TABLE_ID, table

TOKEN = "MTIzNDU2Nzg5.secret-part-of-the-discord-token"
TOKEN_VARS = ("MAFIA_REFEREE_DISCORD_TOKEN", "DISCORD_BOT_TOKEN", "MAFIA_REFEREE_TELEGRAM_TOKEN",
              "TELEGRAM_BOT_TOKEN")


def _env(server: FakeDiscordServer, db: Path, variable: str, token: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in TOKEN_VARS and not k.startswith("MAFIA_REFEREE_")}
    env.update({variable: token, "MAFIA_REFEREE_DISCORD_BASE_URL": server.base_url,
                "MAFIA_REFEREE_DB": str(db), "MAFIA_REFEREE_LANG": "ru"})
    return env


@pytest.mark.parametrize("variable", ["MAFIA_REFEREE_DISCORD_TOKEN", "DISCORD_BOT_TOKEN"])
async def test_the_bot_runs_as_a_process_against_another_server(variable: str, tmp_path: Path) -> None:
    """``mafia-referee discord`` with the base URL: it logs in, publishes its commands, identifies
    on the gateway the server names, answers a slash command; Ctrl+C stops it (exit 0). The
    token went to the server with every request (the fake refuses a request without it) and
    never reaches the log."""
    async with FakeDiscordServer(FakeDiscord(token=TOKEN)) as server:
        fake = server.fake
        fake.add_channel(TABLE_ID, "table-1")
        judge = fake.add_user("Judge")
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "discord", cwd=tmp_path,
            env=_env(server, tmp_path / "referee.sqlite3", variable, TOKEN),
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        try:
            await server.wait_for(lambda: server.connected or process.returncode is not None, 60,
                                    "the bot on the gateway")
            assert server.connected, "the bot stopped before it connected"
            assert {c["name"] for c in fake.published} >= {"new", "newgame"}  # its slash commands
            payload = fake.slash_payload(judge, "new", [], channel=TABLE_ID,
                                         perms=discord.Permissions.none(), app_permissions=BOT_RIGHTS)
            assert await server.dispatch("INTERACTION_CREATE", payload) is not None
            await server.wait_for(lambda: any("Игра №1" in r.content for r in fake.replies), 30,
                                    "the answer to /new")
        finally:
            if process.returncode is None:
                process.send_signal(signal.SIGINT)
            try:
                out, err = await asyncio.wait_for(process.communicate(), 30)
            except asyncio.TimeoutError:
                process.kill()
                out, err = await process.communicate()
                pytest.fail("still running 30 s after Ctrl+C:\n" + out.decode() + err.decode())
    log = out.decode() + err.decode()
    assert process.returncode == 0, log
    assert TOKEN not in log and "secret-part" not in log
    assert fake.calls and all(c.status != 401 for c in fake.calls), "a request without the token"
    assert not fake.errors, fake.errors


async def test_a_token_the_server_refuses_is_one_line_and_exit_2(tmp_path: Path) -> None:
    """The server answers 401 (a wrong or revoked token): exit 2 (restarting cannot help), one
    line, no traceback, the token nowhere in the log."""
    async with FakeDiscordServer(FakeDiscord(token="the-right-token")) as server:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "discord", cwd=tmp_path,
            env=_env(server, tmp_path / "referee.sqlite3", "MAFIA_REFEREE_DISCORD_TOKEN", TOKEN),
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        out, err = await asyncio.wait_for(process.communicate(), 60)
    log = out.decode() + err.decode()
    assert process.returncode == 2, log
    assert "Discord refused the token" in log and "Traceback" not in log
    assert TOKEN not in log and "secret-part" not in log
    assert [c.status for c in server.fake.calls] == [401]


async def test_two_clients_in_one_process_each_reach_their_own_server(tmp_path: Path) -> None:
    """The base URL is the client's own: nothing global is changed (discord.py's ``Route.BASE``,
    the webhook adapter outside the client's task), so two clients in one process each send
    their calls and their interaction answers to their own server."""
    async with table(tmp_path / "one.sqlite3") as one, table(tmp_path / "two.sqlite3") as two:
        assert one.server.port != two.server.port
        assert "Игра №1" in await one.slash("new")
        assert "Игра №1" in await two.slash("new")
        await one.slash("name", seat=3, name="Евлампий")
        assert any("Евлампий" in x for x in one.read()) and not any("Евлампий" in x for x in two.read())
        for t in (one, two):
            assert {c.url.split("/api/")[0] for c in t.fake.calls} == {f"http://127.0.0.1:{t.server.port}"}
    assert discord.http.Route.BASE == "https://discord.com/api/v10"
    assert not isinstance(async_context.get(), RoutedWebhookAdapter)


async def test_the_gateway_resumes_after_a_drop_and_identifies_again_when_the_session_is_gone(
        tmp_path: Path) -> None:
    """Discord closes the socket (a node restarts) or asks for a reconnect (op 7): the client
    RESUMEs and gets what was dispatched meanwhile; when the session cannot be resumed
    (INVALID_SESSION) it IDENTIFIEs again. Commands are answered after each."""
    async with table(tmp_path / "referee.sqlite3") as t:
        server = t.server
        assert "Игра №1" in await t.slash("new")
        await server.drop()
        assert await t.slash("name", seat=2, name="Петя")  # dispatched whenever the socket is: delivered
        await server.wait_for(lambda: server.resumed == 1 and server.connected, 10, "a RESUME")
        await server.reconnect()
        await server.wait_for(lambda: server.resumed == 2 and server.connected, 10, "a second RESUME")
        await t.slash("name", seat=3, name="Вася")
        await server.forget()
        await server.wait_for(lambda: server.identified == 2 and server.connected, 10, "a new IDENTIFY")
        assert server.invalidated == 1
        await t.slash("name", seat=4, name="Оля")
        names = {s.number: s.name for s in (await t.state()).seats if s.name}
        assert names == {2: "Петя", 3: "Вася", 4: "Оля"}
