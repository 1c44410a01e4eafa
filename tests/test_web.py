"""The web layer's server and its live streams over the service (issue 30): the pages and their
headers, a page's key, a stream fed by the service's commits (and silent on what is hidden),
the broadcast's delay, a stopped table, rotated secrets, the bounds on streams, the health
endpoint, the logs. The platforms' parts — Telegram's Mini App, the browser — are in
``tests/test_web_app.py`` and ``tests/test_web_browser.py``; the whole games' secrecy in
``tests/test_web_secrecy.py``."""

from __future__ import annotations

import logging
import re
from pathlib import Path

import aiohttp
import pytest

import rules
from bot import commands as cmds
from bot.logs import RedactingFormatter
from bot.web.auth import Signer
from support.web import base, open_stream, service_at, web_over, web_settings

ROLES = rules.SetRoles(roles=("don", "mafia", "mafia", "sheriff") + ("civilian",) * 6)
NAMES = {n: f"Игрок{n}" for n in rules.SEATS}


async def _game(service, chat: str = "tg:1"):  # type: ignore[no-untyped-def]
    return await service.new_game(chat, chat, rules.PRESETS["fiim2024"], dict(NAMES))


async def test_the_pages_are_static_and_carry_the_security_headers(tmp_path: Path) -> None:
    """Every page is the package's static file with a CSP that allows no inline script (and no
    other origin); the scripts are modules of the package; nothing else is served."""
    async with service_at(tmp_path / "db.sqlite3") as service, web_over(service) as layer, \
            aiohttp.ClientSession() as http:
        for path in ("/live", "/overlay", "/app", "/tournament"):
            async with http.get(base(layer) + path) as response:
                assert response.status == 200, path
                html = await response.text()
                policy = response.headers["Content-Security-Policy"]
                assert "script-src 'self'" in policy and "'unsafe-inline'" not in policy
                assert "default-src 'none'" in policy and "frame-ancestors" in policy
                assert response.headers["X-Content-Type-Options"] == "nosniff"
                assert response.headers["Referrer-Policy"] == "no-referrer"
                # scripts only by src from the package, no inline code, nothing from elsewhere
                assert re.findall(r"<script(?![^>]*\bsrc=\"/static/)", html) == []
                assert "http" not in html.replace('http-equiv', '')
        async with http.get(base(layer) + "/app") as response:
            assert "web.telegram.org" in response.headers["Content-Security-Policy"]  # framed there
        async with http.get(base(layer) + "/live") as response:
            assert response.headers["X-Frame-Options"] == "DENY"
        for name in ("live.js", "app.js", "common.js", "overlay.css"):
            async with http.get(f"{base(layer)}/static/{name}") as response:
                assert response.status == 200
                assert "http://" not in await response.text() and "https://" not in await response.text()
        for bad in ("/static/..%2Fserver.py", "/static/server.py", "/static/x.js", "/"):
            async with http.get(base(layer) + bad) as response:
                assert response.status == 404, bad
        async with http.get(base(layer) + "/healthz") as response:
            assert response.status == 200 and (await response.json())["ok"] is True


async def test_a_wrong_key_is_refused_alike_whatever_was_wrong(tmp_path: Path) -> None:
    async with service_at(tmp_path / "db.sqlite3") as service, web_over(service) as layer, \
            aiohttp.ClientSession() as http:
        row = await service.store.web_table("tg:1", create=True)
        answers = set()
        for key in (f"{row.id}.{row.secret[:-1]}x", f"{row.id + 1}.{row.secret}", "", "x.y",
                    f"{row.id}", f"{row.id}.", "99999999999999.abc"):
            async with http.get(base(layer) + "/api/stream", headers={"X-Page-Key": key}) as response:
                answers.add((response.status, await response.text()))
        assert answers == {(404, "404: Not Found")}
        reader = await open_stream(http, base(layer) + "/api/stream", {"X-Page-Key": row.public_key})
        assert reader.status == 200
        await reader.stop()


async def test_a_stream_shows_each_commit_and_nothing_that_is_hidden(tmp_path: Path) -> None:
    """The first frame is the table as it is; each commit that changes what the table may see
    sends one frame; the roles entered (private) send nothing — no frame, no byte."""
    async with service_at(tmp_path / "db.sqlite3") as service, web_over(service) as layer, \
            aiohttp.ClientSession() as http:
        await _game(service)
        row = await service.store.web_table("tg:1", create=True)
        reader = await open_stream(http, base(layer) + "/api/stream", {"X-Page-Key": row.public_key})
        await reader.count(1, "the first frame")
        first = reader.states()[0]
        assert first["game"] == 1 and first["kind"] == "public"
        assert [s["name"] for s in first["seats"]] == list(NAMES.values())
        size = len(reader.raw)
        await service.act("tg:1", "tg:1", ROLES)
        await layer.hub.idle()  # type: ignore[union-attr]
        await service.act("tg:1", "tg:1", rules.StartGame())
        await reader.count(2, "the night")
        # the roles were committed between the two: not one byte of the stream came for them
        assert len(reader.frames) == 2
        assert bytes(reader.raw[size:]) == reader.frames[1].raw
        assert reader.states()[1]["head"].startswith("Нулевая ночь")
        await service.act("tg:1", "tg:1", rules.Next())
        await service.act("tg:1", "tg:1", rules.Penalty(seat=4, reason="4.1.1"))
        await reader.wait(lambda r: r.states()[-1]["seats"][3]["fouls"] == 1, "the foul")
        last = reader.states()[-1]
        assert last["turn"] and "№1" in last["turn"]
        assert last["seats"][0]["speaking"] and not last["seats"][1]["speaking"]
        assert all(s["role"] is None for s in last["seats"])
        await reader.stop()


async def test_a_stopped_table_sends_its_last_frame_and_closes_its_streams(tmp_path: Path) -> None:
    async with service_at(tmp_path / "db.sqlite3") as service, web_over(service) as layer, \
            aiohttp.ClientSession() as http:
        await _game(service)
        row = await service.store.web_table("tg:1", create=True)
        url, key = base(layer) + "/api/stream", {"X-Page-Key": row.public_key}
        reader = await open_stream(http, url, key)
        await reader.count(1)
        await service.abandon("tg:1", "tg:1")
        await reader.wait(lambda r: r.closed, "the stream closed")
        assert reader.states()[-1]["stopped"] is True
        assert layer.hub.streams("tg:1") == 0  # type: ignore[union-attr]
        again = await open_stream(http, url, key)  # a page opened later is told, then closed
        await again.wait(lambda r: r.closed, "closed at once")
        assert again.states()[-1]["stopped"] is True


async def test_new_secrets_close_the_old_pages_and_refuse_their_key(tmp_path: Path) -> None:
    async with service_at(tmp_path / "db.sqlite3") as service, web_over(service) as layer, \
            aiohttp.ClientSession() as http:
        await _game(service)
        old = await service.store.web_table("tg:1", create=True)
        reader = await open_stream(http, base(layer) + "/api/stream", {"X-Page-Key": old.public_key})
        await reader.count(1)
        new = await service.store.rotate_web_table("tg:1")
        layer.hub.close("tg:1")  # type: ignore[union-attr]  # as /stream new does
        await reader.wait(lambda r: r.closed, "the old page closed")
        again = await open_stream(http, base(layer) + "/api/stream", {"X-Page-Key": old.public_key})
        assert again.status == 404
        fresh = await open_stream(http, base(layer) + "/api/stream", {"X-Page-Key": new.public_key})
        assert fresh.status == 200
        await fresh.stop()


async def test_streams_are_bounded_per_address_and_per_table(tmp_path: Path) -> None:
    async with service_at(tmp_path / "db.sqlite3") as service, \
            web_over(service, web_settings(web_max_per_ip=2, web_max_per_table=3)) as layer, \
            aiohttp.ClientSession() as http:
        await _game(service)
        await _game(service, "tg:2")
        one = await service.store.web_table("tg:1", create=True)
        two = await service.store.web_table("tg:2", create=True)
        url = base(layer) + "/api/stream"
        readers = [await open_stream(http, url, {"X-Page-Key": one.public_key}) for _ in range(2)]
        assert [r.status for r in readers] == [200, 200]
        third = await open_stream(http, url, {"X-Page-Key": two.public_key})
        assert third.status == 429  # a third stream from 127.0.0.1
        for r in readers:
            await r.stop()
    forwarded = web_settings(web_max_per_ip=5, web_max_per_table=2, web_forwarded=True)
    async with service_at(tmp_path / "db2.sqlite3") as service, web_over(service, forwarded) as layer, \
            aiohttp.ClientSession() as http:
        await _game(service)
        row = await service.store.web_table("tg:1", create=True)
        url = base(layer) + "/api/stream"
        readers = [await open_stream(http, url, {"X-Page-Key": row.public_key,
                                                 "X-Forwarded-For": f"10.0.0.{i}"}) for i in range(3)]
        assert [r.status for r in readers] == [200, 200, 429]  # the table's bound
        for r in readers:
            await r.stop()


async def test_the_broadcast_shows_the_roles_behind_the_table_by_its_delay(tmp_path: Path) -> None:
    """The broadcast page's frames come ``delay`` seconds after their commit (the hub's clock),
    with the roles; until then a page opened waits."""
    now = [1_000_000.0]
    async with service_at(tmp_path / "db.sqlite3") as service, \
            web_over(service, clock=lambda: now[0]) as layer, aiohttp.ClientSession() as http:
        await _game(service)
        await service.act("tg:1", "tg:1", ROLES)
        row = await service.store.set_web_delay("tg:1", 300)
        reader = await open_stream(http, base(layer) + "/api/stream", {"X-Page-Key": row.broadcast_key})
        await reader.wait(lambda r: any(f.event == "waiting" for f in r.frames), "the waiting page")
        public = await open_stream(http, base(layer) + "/api/stream", {"X-Page-Key": row.public_key})
        await public.count(1)  # a spectator of the live page changes nothing of the broadcast's delay
        now[0] += 100
        await service.act("tg:1", "tg:1", rules.StartGame())
        await layer.hub.idle()  # type: ignore[union-attr]
        assert reader.states() == []  # nothing before the delay
        now[0] += 201  # 301 s after the page opened: its first view is due, not the night's
        layer.hub.release("tg:1")  # type: ignore[union-attr]  # the timer's call, at once
        await reader.count(1, "the first delayed frame")
        assert reader.states()[0]["head"].startswith("Подготовка")
        now[0] += 100
        layer.hub.release("tg:1")  # type: ignore[union-attr]
        await reader.count(2, "the night, 300 s after it began")
        shown = reader.states()
        assert shown[1]["head"].startswith("Нулевая ночь")
        await public.stop()
        assert [s["role"] for s in shown[1]["seats"]][:4] == ["don", "mafia", "mafia", "sheriff"]
        await reader.stop()


def test_the_logs_mask_the_pages_secrets() -> None:
    """A page's key, a session, a one-time link, a Mini App's hash: masked in any log line."""
    formatter = RedactingFormatter(["123456:ABCDEFGHIJKLMNOPQRSTUVWXYZ"])
    signer = Signer()
    session = signer.session("tg", "tg:1", "tg:1", 60)
    ticket = signer.ticket("dc:1", "dc:2", 3, 60)
    key = "17.uHT_B10Cd2_2TKJOpONY6A"
    record = logging.LogRecord("bot.web", logging.INFO, __file__, 1,
                               "opened %s with %s, %s and %s", (
                                   f"https://x.example/live#{key}", f"Bearer {session}",
                                   f"https://x.example/app#dc={ticket}", "auth_date=1&hash=" + "a" * 64),
                               None)
    line = formatter.format(record)
    for secret in (key.split(".")[1], session, ticket, "a" * 64):
        assert secret not in line
    assert "<token>" in line and "game 12.5" == formatter.redact("game 12.5")


def test_stream_parses_its_forms() -> None:
    assert cmds.parse("/stream", None) == cmds.StreamCmd()
    assert cmds.parse("/stream new", None) == cmds.StreamCmd("new")
    assert cmds.parse("/stream delay 120", None) == cmds.StreamCmd("delay", 120)
    assert cmds.parse("трансляция турнир", None) == cmds.StreamCmd("tournament")
    for bad in ("/stream delay", "/stream delay x", "/stream delay 99999", "/stream wat"):
        with pytest.raises(cmds.CommandError):
            cmds.parse(bad, None)
