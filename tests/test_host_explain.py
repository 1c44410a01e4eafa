"""``/rule`` and ``/why`` at a hosted table (issue 14): anyone asks in the group; the answer is the
rule as the table's preset numbers it and the engine's reason for the last ruling the table may
know — nobody at a hosted table is its judge, so no private ruling is ever told."""

from __future__ import annotations

from bot.i18n import catalog
from support.fake_host import HOST, table

RU = catalog("ru")


async def test_a_player_asks_why_there_is_no_vote_today() -> None:
    async with table() as t:
        await t.to_first_speech()
        for _ in range(4):  # the host's fouls: the 4th removes (seed 4.5), today's vote is lost (5.1)
            assert await t.command(HOST, "/foul 7") == []
        asker = t.player(2)
        answer = await t.command(asker, "/why")
        assert len(answer) == 1 and "Последнее решение:" in answer[0]
        assert "Правило — 5.1: удаление игрока" in answer[0] and "№7" in answer[0]
        assert (await t.command(asker, "/rule 5.7"))[0].startswith("5.7: игрок с третьим фолом")
        assert (await t.command(asker, "/почему")) == answer


async def test_at_night_zero_why_has_no_ruling_yet() -> None:
    async with table() as t:
        await t.fill()
        answer = await t.command(t.player(1), "/why")
        assert answer == [RU.text("why-nothing")]  # night 0: no ruling yet
