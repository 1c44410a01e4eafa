"""Host mode: a group upgraded to a supergroup takes its hosted table along (ENGINEERING.md §2:
"A group upgraded to a supergroup changes its chat id (`migrate_to_chat_id`): move the game.")."""

from __future__ import annotations

from pathlib import Path

import pytest

from fakebot import FakeBotAPI
from rules import Phase
from support.host_table import host_table, make_world


pytestmark = pytest.mark.usefixtures("ptb_timedelta")  # PTB gives retry_after as a timedelta



async def test_a_hosted_table_follows_its_group_to_the_supergroup(fake: FakeBotAPI,
                                                                   tmp_path: Path) -> None:
    world = make_world(fake, supergroup=False)
    async with host_table(fake, tmp_path / "db.sqlite3", world) as t:
        await t.open_and_fill()
        table_id, game_id = t.table().id, t.table().game_id
        old = world.group
        before = t.processor.done
        new = fake.migrate_group(old)
        await fake.wait_for(lambda: t.processor.done >= before + 2, what="both service messages")
        world.group = new  # the players now act in the supergroup
        table = t.table()
        assert table.id == table_id and table.chat == f"tg:{new.id}"
        current = await t.service.current(f"tg:{new.id}")
        assert current is not None and current.game_id == game_id
        row = await t.service.store.host_table(table_id)
        assert row is not None and row.chat == f"tg:{new.id}"
        # the game goes on in the new chat: day 1 opens there, seat 1 has the floor (F24 §4.3.2)
        step = await t.wait_floor(1, consume=False)
        assert step.message is not None
        assert fake.message(new, step.message) is not None
        state = await t.state()
        assert state.phase is Phase.SPEECH and state.speaker == 1
        await t.pass_turn(1)  # its button, in the new chat, works
        assert (await t.wait_floor(2)).message is not None
        assert (await t.state()).speaker == 2
