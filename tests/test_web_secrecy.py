"""The live page's stream reveals nothing the group may not see (issue 30; F24 §4.4.13, §4.5.4;
seed 5.4): not by its words, nor by how many frames it sends, their order, their sizes or when.

Twin games: the shipped demo game (bot/demo/club_game.txt) played twice through the service,
with the same public story — the same nominations, votes, fouls, shots, kills — and different
hidden facts: another Don and Sheriff (the same black seats, so the same end), other check
targets. Their public streams must be the same bytes, frame for frame, until the result reveals
the roles; the broadcast's (which shows the roles) must differ before. The platforms' whole
games, read in the browser's DOM as well, are in ``tests/test_web_browser.py``."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import aiohttp

import rules
from bot import commands as cmds
from bot.i18n import catalog
from bot.render import notice_text
from bot.service import Service
from support import RU_SECRETS
from support.web import Reader, base, open_stream, service_at, web_over

DEMO = Path(__file__).parent.parent / "bot" / "demo" / "club_game.txt"
CHAT = "tg:7"
#: the twin's hidden facts: the same blacks (so the same end), the Sheriff #10 (alive to the
#: end; the original's #8 is shot on night 3), other check targets
TWIN = {"/roles D2 M5 M7 S8": "/roles D2 M7 M5 S10", "/don 8": "/don 3", "/sheriff 2": "/sheriff 9"}


def demo_lines(twin: bool = False) -> list[str]:
    lines = [line.strip() for line in DEMO.read_text("utf-8").splitlines()]
    lines = [line for line in lines if line and not line.startswith("#") and line != "/new seed"]
    return [TWIN.get(line, line) if twin else line for line in lines]


async def play(service: Service, lines: list[str], after) -> None:  # type: ignore[no-untyped-def]
    """Each line as the judge's command, through the service; ``after()`` once each commits."""
    await service.new_game(CHAT, CHAT, rules.PRESETS["seed"])
    for line in lines:
        current = await service.current(CHAT)
        assert current is not None
        state = current.state if current.state.phase is not rules.Phase.GAME_OVER else None
        command = cmds.parse(line, state)
        assert isinstance(command, cmds.Act), line
        await service.act(CHAT, CHAT, command.event)
        await after()


@dataclass
class Followed:
    public: Reader
    broadcast: Reader
    counts: list[int]  # the public frames sent once each line had committed (the server's count)
    state: rules.GameState  # the game at its end
    notices: list[rules.Notice]  # every notice of the game


async def follow_game(db: Path, lines: list[str]) -> Followed:
    """The public and the broadcast streams of the whole game (no delay)."""
    async with service_at(db) as service, web_over(service) as layer, aiohttp.ClientSession() as http:
        row = await service.store.web_table(CHAT, create=True)
        await service.store.set_web_delay(CHAT, 0)
        url = base(layer) + "/api/stream"
        public = await open_stream(http, url, {"X-Page-Key": row.public_key})
        broadcast = await open_stream(http, url, {"X-Page-Key": row.broadcast_key})
        await public.count(1)
        counts: list[int] = []

        async def after() -> None:
            await layer.hub.idle()  # type: ignore[union-attr]
            current = await service.current(CHAT)
            assert current is not None
            await public.wait(lambda r: r.states()[-1]["status"] == public_status(current.state),
                              "the page showing the commit")
            counts.append(layer.hub.published(CHAT))  # type: ignore[union-attr]  # the server's count

        await play(service, lines, after)
        await public.stop()
        await broadcast.stop()
        current = await service.current(CHAT)
        assert current is not None
        row = await service.store.game(current.game_id)
        assert row is not None
        _, notices = rules.fold(current.state.config, await service.events(CHAT), row.names)
        return Followed(public, broadcast, counts, current.state, notices)


def public_status(state: rules.GameState) -> str:
    from bot.render import result_text, status_text

    cat = catalog("ru")
    if state.phase is rules.Phase.GAME_OVER:
        return result_text(state, cat)
    return status_text(state, cat, for_judge=False)


async def test_twin_games_stream_the_same_bytes_until_the_roles_are_revealed(tmp_path: Path) -> None:
    first = await follow_game(tmp_path / "one.sqlite3", demo_lines())
    second = await follow_game(tmp_path / "two.sqlite3", demo_lines(twin=True))
    one, one_cast, two, two_cast = first.public, first.broadcast, second.public, second.broadcast
    assert first.state.phase is rules.Phase.GAME_OVER and first.state.result is not None
    assert second.state.result == first.state.result
    assert [s.role for s in first.state.seats] != [s.role for s in second.state.seats]
    # the same frames at the same moments: each command left the same count behind it
    assert first.counts == second.counts
    over = next(i for i, f in enumerate(one.frames) if f.data.get("result"))
    assert over == next(i for i, f in enumerate(two.frames) if f.data.get("result"))
    for mine, theirs in zip(one.frames[:over], two.frames[:over]):
        assert mine.raw == theirs.raw  # byte for byte: the same words, sizes, order
    assert one.frames[over].raw != two.frames[over].raw  # the roles, revealed at the end
    assert any(f.data["seats"][4]["role"] for f in one.frames[over:])
    # the broadcast shows them before: its frames differ between the twins
    assert [f.raw for f in one_cast.frames[:over]] != [f.raw for f in two_cast.frames[:over]]


async def test_the_stream_never_carries_a_hidden_fact_before_the_end(tmp_path: Path) -> None:
    """Every byte of the public stream before the result: no role word, no check's answer, no
    private notice's text, no role field; a hidden commit (the roles, a check) sends no frame."""
    followed = await follow_game(tmp_path / "db.sqlite3", demo_lines())
    public, broadcast, counts = followed.public, followed.broadcast, followed.counts
    cat = catalog("ru")
    secrets = [t for t in (notice_text(n, cat) for n in followed.notices if n.private) if t]
    assert secrets
    over = next(i for i, f in enumerate(public.frames) if f.data.get("result"))
    before = b"".join(f.raw for f in public.frames[:over]).decode()
    for word in (*RU_SECRETS, *secrets):
        assert word not in before, word
    for frame in public.frames[:over]:
        assert all(seat["role"] is None for seat in frame.data["seats"])
        assert "role" not in frame.data["labels"]
    assert '"role":"' not in before  # no seat's role: the step's names ("проверка Дона") are public
    # the roles' line (private) and the checks (private, in a step that moves on) sent nothing
    lines = demo_lines()
    roles_at = lines.index("/roles D2 M5 M7 S8")
    assert counts[roles_at] == counts[roles_at - 1]
    # the broadcast carried them (with no delay here)
    cast = b"".join(f.raw for f in broadcast.frames).decode()
    assert "Дон проверяет игрока №8: Шериф." in cast and '"role":"sheriff"' in cast
