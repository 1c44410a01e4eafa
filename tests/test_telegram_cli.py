"""``mafia-referee telegram``: the token comes from the environment; without one, a clear message
and exit status 2; with one, the bot runs (long polling) until interrupted, and the token never
reaches its log. Here it runs as a real process against the fake Bot API on 127.0.0.1 — the README's
Telegram section up to the point where a real token is needed."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
from pathlib import Path

import pytest

from bot.cli import main
from fakebot import FakeBotAPI

TOKEN_VARS = ("MAFIA_REFEREE_TELEGRAM_TOKEN", "TELEGRAM_BOT_TOKEN")


@pytest.fixture
def no_token(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    for name in TOKEN_VARS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(tmp_path)  # no .env here


def test_without_a_token_it_says_so_and_exits_2(no_token: None, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["telegram"]) == 2
    err = capsys.readouterr().err
    assert "MAFIA_REFEREE_TELEGRAM_TOKEN" in err and "@BotFather" in err


def test_an_empty_token_is_no_token(no_token: None, monkeypatch: pytest.MonkeyPatch,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("TELEGRAM_BOT_TOKEN", " ")
    assert main(["telegram"]) == 2


@pytest.mark.parametrize("variable", TOKEN_VARS)
async def test_the_bot_runs_as_a_process_until_interrupted(variable: str, tmp_path: Path) -> None:
    async with FakeBotAPI() as fake:
        judge = fake.add_user("Судья", "judge", started=True)
        env = {k: v for k, v in os.environ.items() if k not in TOKEN_VARS and not k.startswith("MAFIA_REFEREE_")}
        env.update({variable: fake.token, "MAFIA_REFEREE_TELEGRAM_BASE_URL": fake.base_url,
                    "MAFIA_REFEREE_DB": str(tmp_path / "referee.sqlite3"), "MAFIA_REFEREE_LANG": "ru"})
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "telegram", cwd=tmp_path, env=env,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        try:
            await fake.wait_for(lambda: fake.calls_to("getUpdates"), timeout=20, what="polling")
            fake.user_sends(judge, None, "/new")
            reply = await fake.wait_sent(judge, count=2, timeout=20)  # the news, then the panel
            assert "Подготовка к игре" in (reply.text or "") and reply.buttons
            assert fake.calls_to("setMyCommands")  # post_init ran
        finally:
            if process.returncode is None:
                process.send_signal(signal.SIGINT)
            out, err = await asyncio.wait_for(process.communicate(), 20)
        assert process.returncode == 0, err.decode()
        log = out.decode() + err.decode()
        assert fake.token not in log and fake.token.split(":")[1] not in log
        assert (tmp_path / "referee.sqlite3").is_file()


async def test_without_a_route_to_telegram_it_tries_a_few_times_and_exits_1(tmp_path: Path) -> None:
    """No Bot API at the address (a network failure at start-up): a few tries, then exit 1 with
    a line that says what is wrong (the service manager restarts it) and no traceback; the token
    never in the log."""
    import socket

    with socket.socket() as probe:  # a port on 127.0.0.1 that nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    token = "123456:secret-part-of-the-token"
    env = {k: v for k, v in os.environ.items() if k not in TOKEN_VARS and not k.startswith("MAFIA_REFEREE_")}
    env.update({"MAFIA_REFEREE_TELEGRAM_TOKEN": token,
                "MAFIA_REFEREE_TELEGRAM_BASE_URL": f"http://127.0.0.1:{port}/bot",
                "MAFIA_REFEREE_DB": str(tmp_path / "referee.sqlite3")})
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "telegram", cwd=tmp_path, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await asyncio.wait_for(process.communicate(), 60)
    log = out.decode() + err.decode()
    assert process.returncode == 1, log
    assert "cannot reach the Telegram Bot API" in log
    assert "Traceback" not in log
    assert token not in log and "secret-part-of-the-token" not in log


@pytest.mark.parametrize("fmt", ["text", "json"])
async def test_a_token_telegram_refuses_is_one_line_and_exit_2(tmp_path: Path, fmt: str) -> None:
    """The Bot API answers 401 Unauthorized (a wrong or revoked token): restarting cannot help,
    so the exit status is 2 (README; the systemd unit's RestartPreventExitStatus=2 stops there),
    one line from the catalog, no traceback, the token nowhere — in text and in JSON logs."""
    from bot.i18n import catalog

    async with FakeBotAPI() as fake:
        wrong = "123456789:AAFakeTokenThatTelegramRefuses_x"
        assert wrong != fake.token  # the fake answers 401 to any other token
        env = {k: v for k, v in os.environ.items() if k not in TOKEN_VARS and not k.startswith("MAFIA_REFEREE_")}
        env.update({"MAFIA_REFEREE_TELEGRAM_TOKEN": wrong, "MAFIA_REFEREE_TELEGRAM_BASE_URL": fake.base_url,
                    "MAFIA_REFEREE_DB": str(tmp_path / "referee.sqlite3"), "MAFIA_REFEREE_LANG": "en",
                    "MAFIA_REFEREE_LOG_FORMAT": fmt})
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "bot", "telegram", cwd=tmp_path, env=env,
            stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
        out, err = await asyncio.wait_for(process.communicate(), 60)
        log = out.decode() + err.decode()
        assert process.returncode == 2, log
        assert "Traceback" not in log
        assert wrong not in log and wrong.split(":")[1] not in log
        lines = [line for line in log.splitlines() if line.strip()]
        assert len(lines) == 1, log
        expected = catalog("en").text("cli-telegram-bad-token")
        if fmt == "json":
            record = json.loads(lines[0])
            assert record["message"] == expected and "exception" not in record
        else:
            assert lines[0].endswith(expected)
        assert fake.calls_to("getMe")
