"""The audit trail (bot/audit.py): every logged action with who recorded it and when, what was
undone and by whom — and our JSON protocol carries it (``audit``) beside the log it replays."""

from __future__ import annotations

import json

import rules
from bot.audit import trail
from bot.i18n import catalog
from bot.protocol import from_json
from bot.protocol.files import protocol_files
from bot.service import Service
from storage import Store

A, B = "tg:1", "tg:2"


async def test_the_json_protocol_carries_the_audit_trail() -> None:
    store = await Store.open(":memory:")
    try:
        service = Service(store)
        outcome = await service.new_game(A, A, rules.PRESETS["seed"])
        for event in (rules.SetRoles(roles=("civilian", "don", "civilian", "civilian", "mafia",
                                            "civilian", "mafia", "sheriff", "civilian", "civilian")),
                      rules.StartGame(), rules.Next(), rules.Penalty(seat=3, reason="4.1.2")):
            await service.act(A, A, event)
        await service.undo(A, A)
        await service.take_over(A, B)
        await service.act(A, B, rules.Penalty(seat=5, reason="4.3.1"))  # a team loss ends it
        rows = await store.events(outcome.game_id)
        files = dict((await protocol_files(store, outcome.game_id, catalog("ru"))).files)
        data = json.loads(files[f"game-{outcome.game_id}.json"])
    finally:
        await store.close()
    audit = data["audit"]
    assert [(a["seq"], a["by"], a["command"]) for a in audit] == [
        (1, A, "/roles D2 M5 M7 S8"), (2, A, "/start"), (3, A, "/next"), (4, A, "/foul 3 4.1.2"),
        (5, A, "undo"), (6, B, "/ppk 5 4.3.1")]
    assert audit[3]["undone"] == {"seq": 5, "by": A, "at": rows[4].at}
    assert audit[4]["undoes"] == 4 and "undone" not in audit[4]
    assert [a["undone"] for a in audit if a["seq"] not in (4, 5)] == [None] * 4
    assert [a["at"] for a in audit] == [row.at for row in rows]
    assert [a["event"] for a in audit] == [row.event for row in rows] == data["events"]
    config, _, events = from_json(data)  # the replay still reads the protocol as before
    assert rules.fold(config, events)[0].result is not None


def test_an_undo_of_an_undo_takes_back_the_action_before() -> None:
    """Undo takes back the latest action still standing (an undo is not an action)."""
    rows = [_row(1, rules.StartGame()), _row(2, rules.Next()), _row(3, rules.Undo()),
            _row(4, rules.Undo()), _row(5, rules.StartGame())]
    entries = trail(rows)
    assert [(e.seq, e.undone_by.seq if e.undone_by else None, e.undoes) for e in entries] == [
        (1, 4, None), (2, 3, None), (3, None, 2), (4, None, 1), (5, None, None)]


def _row(seq: int, event: rules.Event):  # noqa: ANN202
    from storage import EventRow
    return EventRow(seq, rules.to_dict(event), A, 1_700_000_000.0 + seq)


def test_an_undone_correction_no_longer_marks_the_action_it_had_corrected() -> None:
    """/log all: action 3 corrected by action 4 reads «исправлено действием 4»; once action 4 is
    undone (action 5) the correction stands no more, so action 3 is no longer marked as
    corrected (and action 4 reads as undone); a later correction that stands marks it again."""
    from bot.audit import lines, to_json
    from storage.store import EventRow

    log = [rules.StartGame(), rules.Next(), rules.Penalty(seat=3, reason="foul"),
           rules.Fix(seq=3, event=rules.Penalty(seat=4, reason="foul")), rules.Undo()]
    rows = [EventRow(seq, rules.to_dict(e), "judge", 1000.0 + seq) for seq, e in enumerate(log, 1)]
    config = rules.PRESETS["seed"]
    cat = catalog("ru")

    def read(rows: list[EventRow]) -> list[str]:
        return lines(trail(rows), config, cat, who=str, when=lambda at: str(int(at)))

    text = read(rows)
    assert "исправлено действием" not in text[2], text[2]
    assert "отменено действием 5" in text[3], text[3]
    assert to_json(trail(rows), config)[2]["fixed"] is None
    again = rules.Fix(seq=3, event=rules.Penalty(seat=5, reason="foul"))
    rows.append(EventRow(6, rules.to_dict(again), "judge", 1006.0))
    assert "исправлено действием 6" in read(rows)[2]
    assert to_json(trail(rows), config)[2]["fixed"]["seq"] == 6
