"""The judge's panel on a screen, over HTTP (issue 30; the browser's own tests are
``tests/test_web_browser.py``): who may sign in — Telegram's ``initData`` (a forged, expired or
another bot's refused; another user's signs him in to his own chat, where the judge's game is
not: no panel, no roles, his taps change nothing) and a Discord judge's one-time link (used
once, expiring, bound to the judge and the game) — and that a tap and a typed line go through
the platform's front door as the judge's press and command do. And ``/stream``: where the
broadcast's address is said (only privately)."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import aiohttp
import pytest

import rules
from bot.i18n import catalog
from bot.web.auth import sign_init_data
from fakebot import FakeBotAPI
from support import discord_table as dt
from support import telegram_table as tt
from support.browser import init_fields

pytestmark = pytest.mark.usefixtures("ptb_timedelta")
RU = catalog("ru")
WEB = {"web_url": "http://127.0.0.1", "web_port": 0}


async def _post(http: aiohttp.ClientSession, url: str, body: Any, session: str | None = None
                ) -> tuple[int, Any]:
    headers = {"Authorization": f"Bearer {session}"} if session else {}
    async with http.post(url, json=body, headers=headers) as response:
        data = await response.json() if response.content_type == "application/json" else await response.text()
        return response.status, data


async def test_telegram_init_data_signs_in_its_user_to_his_own_game_only(tmp_path: Path) -> None:
    async with FakeBotAPI() as fake, tt.table(fake, tmp_path / "db.sqlite3", **WEB) as t, \
            aiohttp.ClientSession() as http:
        await t.say("/new")
        await t.say("/roles D2 M5 M7 S8")
        base = f"http://127.0.0.1:{t.referee.web.port}"
        judge = sign_init_data(init_fields(t.judge.id), fake.token)
        for bad, why in ((judge.replace("auth_date=", "auth_date=1"), "forged"),
                         (sign_init_data(init_fields(t.judge.id, at=time.time() - 90_000), fake.token), "expired"),
                         (sign_init_data(init_fields(t.judge.id), "42:another-bot"), "forged"),
                         ("", "missing"), ("user=%7B&hash=zz", "forged"), ("a=1&a=2", "malformed")):
            status, said = await _post(http, base + "/api/app/session", {"tg": bad})
            assert (status, said) == (403, why)
        status, signed = await _post(http, base + "/api/app/session", {"tg": judge})
        assert status == 200
        view = signed["state"]
        assert view["game"] == 1 and view["panel"]["rows"] and view["seats"][1]["role"] == "don"
        # a tap: the panel's own press data, through the front door (the judge's press)
        start = next(b["data"] for row in view["panel"]["rows"] for b in row
                     if b["label"] == RU.text("judge-btn-start"))
        status, pressed = await _post(http, base + "/api/app/press", {"data": start}, signed["session"])
        assert status == 200 and (await t.state()).phase is rules.Phase.NIGHT_ZERO
        assert pressed["state"]["revision"] == view["revision"] + 1
        # the same tap again: outdated, nothing changes (exactly as a stale button)
        status, again = await _post(http, base + "/api/app/press", {"data": start}, signed["session"])
        assert again["answer"] == RU.text("judge-press-outdated") and await t.log_length() == 2
        # a typed line at the desk, with the judge's identity
        status, typed = await _post(http, base + "/api/app/command", {"line": "/foul 4 4.1.1"},
                                    signed["session"])
        assert status == 200 and (await t.state()).seat(4).fouls == ["4.1.1"]
        status, refused = await _post(http, base + "/api/app/command", {"line": "/foul 11"}, signed["session"])
        assert refused["replies"][0]["refused"] is True and await t.log_length() == 3
        # another user (a player of the group): signed in to his own chat, no game there
        other = sign_init_data(init_fields(t.players[1].id, "Игрок"), fake.token)
        status, his = await _post(http, base + "/api/app/session", {"tg": other})
        assert status == 200 and his["state"]["game"] is None and "panel" not in his["state"]
        status, tried = await _post(http, base + "/api/app/press", {"data": start}, his["session"])
        status, typed = await _post(http, base + "/api/app/command", {"line": "/foul 4 4.1.1"}, his["session"])
        assert await t.log_length() == 3 and (await t.state()).seat(4).fouls == ["4.1.1"]
        # no session, a forged one
        status, _ = await _post(http, base + "/api/app/press", {"data": start})
        assert status == 401
        status, _ = await _post(http, base + "/api/app/press", {"data": start}, signed["session"] + "x")
        assert status == 401


async def test_the_broadcast_address_is_said_only_in_private(tmp_path: Path) -> None:
    async with FakeBotAPI() as fake, tt.table(fake, tmp_path / "db.sqlite3", **WEB) as t:
        await t.say("/stream")  # at the desk: all three addresses, privately
        desk = t.private()[-1]
        assert desk.count("/live#") == 2 and desk.count("/overlay#") == 2
        await t.say("/new")
        await t.say("/link", chat=t.group)
        await t.say("/stream", chat=t.group, user=t.players[1])  # a member: not his to ask
        assert "/live#" not in t.public()[-1]
        await t.say("/stream", chat=t.group)  # the judge in the group
        group = t.public()[-1]
        assert group.count("/live#") == 1 and RU.text("web-broadcast-sent") in group
        assert t.private()[-1].count("/live#") == 1  # the broadcast's, in his private chat
        key = re.search(r"/live#(\d+)\.(\S+)", group)
        assert key is not None
        await t.say("/stream new", chat=t.group)
        assert key[2] not in t.public()[-1] and RU.text("web-rotated") in t.public()[-1]
        await t.say("/stream delay 120", chat=t.group)
        assert (await t.service.store.web_table(f"tg:{t.group.id}")).delay == 120  # type: ignore[union-attr]


async def test_a_discord_judge_gets_a_one_time_link_bound_to_him_and_the_game(tmp_path: Path) -> None:
    async with dt.table(tmp_path / "db.sqlite3", settings=WEB) as t, aiohttp.ClientSession() as http:
        await t.slash("new")
        await t.slash("panel")
        links = [re.search(r"/app#dc=(\S+)", x) for x in t.dm()]
        ticket = next(m[1] for m in links if m)
        layer = t.referee.web
        base = f"http://127.0.0.1:{layer.port}"
        status, signed = await _post(http, base + "/api/app/session", {"dc": ticket})
        assert status == 200 and signed["state"]["game"] == 1
        assert await _post(http, base + "/api/app/session", {"dc": ticket}) == (403, "used")
        assert (await _post(http, base + "/api/app/session", {"dc": ticket[:-2] + "xx"}))[0] == 403
        # a tap through Discord's front door: the game starts
        view = signed["state"]
        start = next(b["data"] for row in view["panel"]["rows"] for b in row
                     if b["label"] == RU.text("judge-btn-start"))
        status, pressed = await _post(http, base + "/api/app/press", {"data": start}, signed["session"])
        assert status == 200 and (await t.state()).phase is rules.Phase.NIGHT_ZERO
        status, typed = await _post(http, base + "/api/app/command", {"line": "/foul 3"}, signed["session"])
        assert (await t.state()).seat(3).fouls == ["foul"]
        # a link expires, and one for another game is refused
        await t.slash("panel")
        fresh = [re.search(r"/app#dc=(\S+)", x) for x in t.dm()]
        late = [m[1] for m in fresh if m][-1]
        layer.signer.clock = lambda: time.time() + layer.settings.web_link_ttl + 1
        assert await _post(http, base + "/api/app/session", {"dc": late}) == (403, "expired")
        layer.signer.clock = time.time
        await t.slash("panel")
        newest = [m[1] for m in (re.search(r"/app#dc=(\S+)", x) for x in t.dm()) if m][-1]
        await t.slash("new")
        await t.slash("new")  # confirmed: another game now
        assert await _post(http, base + "/api/app/session", {"dc": newest}) == (403, "expired")


async def test_a_tournament_page_shows_every_table_and_the_standings(tmp_path: Path) -> None:
    """``/stream tournament`` in the club's group gives the tournament page; it shows the
    tournament's view (each table's judge and game) and each running game as its live page
    does — no role before the end."""
    players = [f"Игрок {n:02d}" for n in range(1, 21)]
    async with FakeBotAPI() as fake, tt.table(fake, tmp_path / "db.sqlite3", **WEB) as t, \
            aiohttp.ClientSession() as http:
        chief = t.players[0]  # the group's owner: its admin
        await t.say("/stream tournament", chat=t.group, user=chief)
        assert t.public()[-1] == RU.text("web-no-tournament")
        await t.say("/tournament open 2 " + ", ".join(players), chat=t.group, user=chief)
        await t.say("/table 1", chat=t.group)
        await t.say("/new fiim2024")
        await t.say("/roles D2 M5 M7 S8")
        await t.say("/stream tournament", chat=t.group, user=chief)
        found = re.search(r"/tournament#(\S+)", t.public()[-1])
        assert found is not None
        base = f"http://127.0.0.1:{t.referee.web.port}"
        async with http.get(base + "/api/tournament", headers={"X-Page-Key": found[1]}) as response:
            assert response.status == 200
            page = await response.json()
        assert page["lines"][0].startswith("Турнир №1")
        assert page["standings"] and [x["table"] for x in page["tables"]] == [1, 2]
        one = page["tables"][0]["view"]
        seated = (await t.state()).seats
        assert [s["name"] for s in one["seats"]] == [s.name for s in seated]
        assert set(s.name for s in seated) <= set(players)  # the plan's
        assert all(s["role"] is None for s in one["seats"]) and page["tables"][1]["view"] is None
        # a table page's key opens no tournament, and a wrong one nothing
        row = await t.service.store.web_table(f"tg:{t.judge.id}", create=True)
        for key in (row.public_key, found[1][:-1] + "x"):
            async with http.get(base + "/api/tournament", headers={"X-Page-Key": key}) as response:
                assert response.status == 404


def test_the_mini_app_button_needs_an_https_address_on_telegram(tmp_path: Path) -> None:
    """Telegram opens a Mini App from ``https://`` only: a panel with another Web App address
    would be refused whole by the Bot API, so none is added (another Bot API server — a local
    one, the tests' fake — may be given any)."""
    from bot.settings import Settings
    from bot.telegram.app import build_application, referee_of

    for url, base_url, shown in (("https://referee.example.org", None, True),
                                 ("http://referee.example.org", None, False),
                                 ("http://127.0.0.1", "http://127.0.0.1:1/bot", True)):
        settings = Settings(telegram_token="1:" + "a" * 35, web_url=url, telegram_base_url=base_url,
                            db=tmp_path / "db.sqlite3", _env_file=None)  # type: ignore[call-arg]
        assert referee_of(build_application(settings)).mini_app is shown, url
