"""The protocol of a Telegram judge-mode game (issue 14), over the fake Bot API: at the end the
score sheet (PNG) and both JSON files — ours and the MafiaRatings layout, possible because every
hand was recorded by voter — reach the judge's private chat, the linked group and the club's
channel (``/channel`` in the group); ``/protocol`` sends them again where it is asked."""

from __future__ import annotations

import json
from pathlib import Path
from typing import AsyncIterator

import pytest

from fakebot import FakeBotAPI, FakeChat
from rules import Phase, Team
from rules.records import replay
from support.telegram_table import Table, table

pytestmark = pytest.mark.usefixtures("ptb_timedelta")


@pytest.fixture
async def t(fake: FakeBotAPI, tmp_path: Path) -> AsyncIterator[Table]:
    async with table(fake, tmp_path / "referee.sqlite3") as running_table:
        yield running_table


def files(t: Table, chat: object) -> tuple[list[bytes], dict[str, bytes]]:
    """The pictures and the documents (by file name) the bot sent to ``chat``."""
    sent = t.fake.sent(chat)  # type: ignore[arg-type]
    pictures = [t.fake.files[m.photo[-1]["file_id"]].data for m in sent if m.photo]
    documents = {m.document["file_name"]: t.fake.files[m.document["file_id"]].data
                 for m in sent if m.document}
    return pictures, documents


async def day_one(t: Table, new: str = "/new") -> FakeChat:
    """The club's channel linked to the group (by its owner, an admin), the judge's game
    (``new``) linked there, roles D2 M5 M7 S8, started and at day 1: #1 speaks. The channel."""
    owner = t.players[0]  # the group's creator: an admin, he links the club's channel
    channel = t.fake.add_channel("Клубный канал", username="club_news")
    await t.say("/channel @club_news", chat=t.group, user=owner)
    await t.say(new)
    await t.say("/link", chat=t.group)
    await t.say("/roles D2 M5 M7 S8")
    await t.say("/start")
    await t.say("/next")  # night 0 ends: day 1, #1 speaks
    return channel


async def test_a_judges_game_ends_with_its_protocol_everywhere(t: Table) -> None:
    channel = await day_one(t, "/new fiim2024")
    await t.say("/nominate 5")
    await t.say("/next")
    await t.say("/nominate 7")  # #2 nominates #7
    for _ in range(9):
        await t.say("/next")
    assert (await t.state()).phase is Phase.VOTING
    await t.say("/vote 5 1,2,3,4,6,8")  # the voters named (F24 §4.4.5); #5, #7, #9, #10 → #7
    await t.say("/next")  # #5's last word
    await t.say("/kill 1")
    await t.say("/next")  # the Don does not check
    await t.say("/next")  # nor the Sheriff
    await t.say("/bestmove 2 7 9")
    await t.say("/next")  # #1's last word
    await t.say("/ppk 7 4.3.1")  # an oath: the blacks lose (seed 4.3.1)
    state = await t.state()
    assert state.phase is Phase.GAME_OVER and state.result.winner is Team.RED

    for chat in (t.judge, t.group, channel):
        await t.fake.wait_for(lambda c=chat: len(files(t, c)[1]) >= 2, timeout=30,
                              what=f"the protocol in {chat}")
        pictures, documents = files(t, chat)
        assert len(pictures) == 1 and pictures[0].startswith(b"\x89PNG")
        assert sorted(documents) == ["game-1.json", "game-1.mafiaratings.json"], chat
        ours = json.loads(documents["game-1.json"])
        assert ours["outcome"]["winner"] == "red"
        assert ours["points"]["seats"]["7"]["team_loss"] == "-0.7"  # F24 §8.2.5
        report = replay(json.loads(documents["game-1.mafiaratings.json"]))
        assert report.agrees and report.report["winner"] == "red", report.differences

    # /protocol sends them again, where it is asked
    before = len(files(t, t.group)[0])
    await t.say("/protocol", chat=t.group)
    await t.fake.wait_for(lambda: len(files(t, t.group)[0]) > before, timeout=30,
                          what="the protocol sent again")
    before = len(files(t, t.judge)[0])
    await t.say("/protocol")
    await t.fake.wait_for(lambda: len(files(t, t.judge)[0]) > before, timeout=30,
                          what="the protocol sent again to the judge")


async def test_a_correction_that_changes_the_result_sends_the_protocol_again(t: Table) -> None:
    """The game ends by a team loss given to the wrong seat (the reds lose); after the end the
    judge corrects it into the black offender's (seed 4.3: the blacks lose): the game is still
    over, with the other result. The group and the club's channel, told "black wins" with its
    protocol, are told of the correction and get the protocol of the result as it stands —
    the channel is never left with a result the game no longer has."""
    channel = await day_one(t)
    await t.say("/ppk 3 4.3.1 red")  # 4: the game is over, black wins
    assert (await t.state()).result.winner is Team.BLACK  # type: ignore[union-attr]
    for chat in (t.group, channel):
        await t.fake.wait_for(lambda c=chat: len(files(t, c)[1]) >= 2, timeout=30,
                              what=f"the protocol in {chat}")
    told = [len(t.texts(chat)) for chat in (t.group, channel)]
    await t.say("/fix 4 /ppk 5 4.3.1 black")
    state = await t.state()
    assert state.phase is Phase.GAME_OVER and state.result.winner is Team.RED  # type: ignore[union-attr]
    for chat, before in zip((t.group, channel), told):
        def ours(c: object = chat) -> list[dict[str, object]]:
            return [json.loads(t.fake.files[m.document["file_id"]].data) for m in t.fake.sent(c)  # type: ignore[arg-type]
                    if m.document and m.document["file_name"] == "game-1.json"]

        await t.fake.wait_for(lambda: len(ours()) >= 2, timeout=30, what=f"the protocol again in {chat}")
        assert [d["outcome"]["winner"] for d in ours()] == ["black", "red"], chat  # type: ignore[index]
        assert any("Поправка судьи" in text for text in t.texts(chat)[before:]), chat


async def test_an_end_undone_before_its_protocol_left_sends_no_protocol(t: Table) -> None:
    """The judge disqualifies the Don and both mafia (seed 4.5): the reds win, and the protocol
    is queued for the group. Telegram refuses the group's score sheet for a moment; the judge
    takes the last disqualification back before it is sent again. The game is on again: the
    group gets no «protocol» of it saying the game is not over (nor a MafiaRatings note) — the
    protocol goes at the game's real end."""
    await day_one(t)
    group = t.group.id
    fault = t.fake.fail_next("sendPhoto", 500, match=lambda params: int(params.get("chat_id", 0)) == group)
    for seat in (2, 5, 7):
        await t.say(f"/dq {seat}")
    assert (await t.state()).phase is Phase.GAME_OVER
    await t.fake.wait_for(lambda: fault.remaining == 0, timeout=30, what="the group's score sheet refused")
    await t.say("/undo")
    assert (await t.state()).phase is not Phase.GAME_OVER
    await t.fake.wait_for(lambda: "Поправка судьи" in t.public()[-1], timeout=30,
                          what="the undo told, after the group's queue is retried")
    told = "\n".join(t.public())
    assert "не окончена" not in told and "MafiaRatings" not in told and not files(t, t.group)[1]
    await t.say("/dq 7")  # the game's real end: its protocol
    await t.fake.wait_for(lambda: len(files(t, t.group)[1]) >= 2, timeout=30, what="the group's protocol")
