"""Snapshots of a game's folded state (issue 16, item 4): a cold load or an undo replays a short
tail of the log from a stored (or kept) state instead of the whole log.

The properties: a snapshot is the fold — encoding any reachable state and decoding it gives the
same state; whatever the judge does (undo included, as deep as he likes, across snapshots),
the service's state equals :func:`rules.fold` of the stored log, and so does a fresh service
loading the game from the store. A snapshot written by another version of the rules, or one that
cannot be read, is ignored: the log is folded instead.
"""

from __future__ import annotations

import asyncio
import json
import logging
from pathlib import Path
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rules
from bot.service import Service, ServiceError
from rules.snapshot import state_from_dict, state_to_dict, version
from storage import Store
from test_properties import ROLE_DECK, STYLES, plausible_event

PRESETS = ("seed", "fiim2024", "fsm2024")
CHAT, JUDGE = "tg:1", "tg:1"


def roundtrip(state: rules.GameState) -> rules.GameState:
    return state_from_dict(state.config, json.loads(json.dumps(state_to_dict(state))))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), preset=st.sampled_from(PRESETS), known=st.booleans())
def test_every_reachable_state_survives_its_snapshot(data: st.DataObject, preset: str,
                                                     known: bool) -> None:
    """state_from_dict(state_to_dict(s)) == s for every state a game passes through (every
    preset, roles known or not, to the end of the game)."""
    draw = lambda strategy, label=None: data.draw(strategy, label=label)  # noqa: E731
    style = data.draw(STYLES, label="style")
    state = rules.new_game(rules.PRESETS[preset])
    if known:
        state, _ = rules.apply(state, rules.SetRoles(roles=tuple(data.draw(st.permutations(ROLE_DECK)))))
    assert roundtrip(state) == state
    for _ in range(250):
        if state.phase is rules.Phase.GAME_OVER:
            break
        try:
            state, _ = rules.apply(state, plausible_event(draw, state, style))
        except rules.RuleError:
            continue
        assert roundtrip(state) == state


async def _play(data: st.DataObject, store: Store, every: int, preset: str) -> Service:
    """A game played through a service that snapshots every ``every`` events: plausible
    actions, undos of 1–4 steps and corrections of earlier actions; after each, the service's state is the fold of its log."""
    draw = lambda strategy, label=None: data.draw(strategy, label=label)  # noqa: E731
    style = data.draw(STYLES, label="style")
    service = Service(store, snapshot_every=every)
    await service.new_game(CHAT, JUDGE, rules.PRESETS[preset])
    config = rules.PRESETS[preset]
    await service.act(CHAT, JUDGE, rules.SetRoles(roles=tuple(data.draw(st.permutations(ROLE_DECK)))))
    for _ in range(data.draw(st.integers(5, 90), label="steps")):
        current = await service.current(CHAT)
        assert current is not None
        choice = data.draw(st.integers(0, 9), label="undo? fix?")
        if choice == 0:
            try:
                await service.undo(CHAT, JUDGE, steps=data.draw(st.integers(1, 4), label="undo"))
            except ServiceError as error:
                assert error.code == "nothing_to_undo"
        elif choice == 1:  # a correction (docs/rules.md §2.6): an action into one of its kind
            log = await service.events(CHAT)
            fixable = [(seq, e) for seq, e in rules.standing(log) if not isinstance(e, rules.Fix)]
            if not fixable:  # everything undone
                continue
            seq, event = data.draw(st.sampled_from(fixable), label="fix")
            if isinstance(event, rules.Penalty):
                event = rules.Penalty(seat=data.draw(st.integers(1, 10), label="seat"),
                                      reason=event.reason)
            try:
                await service.fix(CHAT, JUDGE, seq, event)
            except rules.RuleError:
                pass
        elif current.state.phase is not rules.Phase.GAME_OVER:
            try:
                await service.act(CHAT, JUDGE, plausible_event(draw, current.state, style))
            except rules.RuleError:
                pass
        after = await service.current(CHAT)
        assert after is not None
        assert after.state == rules.fold(config, await service.events(CHAT))[0]
    return service


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data(), every=st.sampled_from([1, 2, 3, 5, 8]), preset=st.sampled_from(PRESETS))
def test_a_snapshot_equals_the_fold(data: st.DataObject, every: int, preset: str) -> None:
    """Acting and undoing across snapshots, then loading the game cold (a fresh service over the
    store: the stored snapshot and the log's tail): always the fold of the whole log."""
    async def main() -> None:
        store = await Store.open(":memory:")
        try:
            service = await _play(data, store, every, preset)
            events = await service.events(CHAT)
            folded = rules.fold(rules.PRESETS[preset], events)[0]
            for again in (every, 1, 1000):  # whatever the fresh service's own interval
                fresh = await Service(store, snapshot_every=again).current(CHAT)
                assert fresh is not None and fresh.state == folded
                assert fresh.revision == len(events)
        finally:
            await store.close()

    asyncio.run(main())


async def _stored_game(store: Store, events: int) -> tuple[Service, int]:
    service = Service(store, snapshot_every=4)
    created = await service.new_game(CHAT, JUDGE, rules.PRESETS["seed"])
    await service.act(CHAT, JUDGE, rules.SetRoles(roles=ROLE_DECK))
    await service.act(CHAT, JUDGE, rules.StartGame())
    for _ in range(events):
        await service.act(CHAT, JUDGE, rules.Next())
    return service, created.game_id


@pytest.mark.parametrize("tamper", [
    {"version": "0:an-older-engine"},  # written by another version: never used
    {"state": '{"phase": "setup"}'},  # this version, but not a state: ignored with a warning
    {"state": "not json"},
    {"seq": 10_000},  # past the log's end
])
async def test_an_unusable_snapshot_is_ignored(tamper: dict[str, object],
                                               caplog: pytest.LogCaptureFixture) -> None:
    """The stored snapshot is given a wrong state that would show if used (a seat renamed) and
    then made unusable; a cold load folds the log instead."""
    store = await Store.open(":memory:")
    try:
        service, game = await _stored_game(store, 9)
        truth = (await service.current(CHAT)).state  # type: ignore[union-attr]
        (_, standing, stored_version), = await store.conn.execute_fetchall(
            "SELECT seq, standing, version FROM snapshots WHERE game_id = ?", (game,))
        assert stored_version == version() and standing % 4 == 0
        (text,), = await store.conn.execute_fetchall("SELECT state FROM snapshots")
        stored = json.loads(text)
        wrong = state_from_dict(truth.config, stored["state"])
        wrong.seats[0].name = "Подмена"
        await store.conn.execute_fetchall("UPDATE snapshots SET state = ?",
                                          (json.dumps({**stored, "state": state_to_dict(wrong)}),))
        assert (await Service(store).current(CHAT)).state != truth  # type: ignore[union-attr]
        sets = ", ".join(f"{k} = ?" for k in tamper)
        await store.conn.execute_fetchall(f"UPDATE snapshots SET {sets}", tuple(tamper.values()))
        with caplog.at_level(logging.WARNING, logger="bot.service"):
            loaded = await Service(store).current(CHAT)
        assert loaded is not None and loaded.state == truth
        assert loaded.state == rules.fold(rules.PRESETS["seed"], await service.events(CHAT))[0]
        if "state" in tamper:
            assert "snapshot is unreadable" in caplog.text
        # the next action stores a usable snapshot again, and acting on goes on from the fold
        fresh = Service(store, snapshot_every=4)
        await fresh.act(CHAT, JUDGE, rules.Next())
        (now,), = await store.conn.execute_fetchall("SELECT version FROM snapshots")
        assert now == version()
        assert (await Service(store).current(CHAT)).state == (await fresh.current(CHAT)).state  # type: ignore[union-attr]
    finally:
        await store.close()


async def test_an_undo_under_the_snapshot_is_folded_from_the_start() -> None:
    """Undoing past the stored snapshot (and every kept state) gives the fold, in memory and
    loaded cold; the undo stores a snapshot of where the game now stands. Had it not (the old
    snapshot put back), the load sees the undo reach under the snapshot and folds the log."""
    store = await Store.open(":memory:")
    try:
        service, _ = await _stored_game(store, 13)
        old = await store.conn.execute_fetchall("SELECT seq, standing, version, state FROM snapshots")
        await service.undo(CHAT, JUDGE, steps=12)
        events = await service.events(CHAT)
        folded = rules.fold(rules.PRESETS["seed"], events)[0]
        assert (await service.current(CHAT)).state == folded  # type: ignore[union-attr]
        assert (await Service(store).current(CHAT)).state == folded  # type: ignore[union-attr]
        (seq, standing), = await store.conn.execute_fetchall("SELECT seq, standing FROM snapshots")
        assert (seq, standing) == (len(events), len(rules.effective(events)))
        await store.conn.execute_fetchall("UPDATE snapshots SET seq = ?, standing = ?, version = ?,"
                                          " state = ?", tuple(old[0]))
        assert (await Service(store).current(CHAT)).state == folded  # type: ignore[union-attr]
    finally:
        await store.close()


def test_the_judges_points_survive_their_snapshot() -> None:
    """F24 §8.4–8.5: after the result the judge's extra and penalty points are part of the
    state; a snapshot keeps them exactly (decimals, not floats)."""
    state = rules.new_game(rules.PRESETS["fiim2024"])
    for event in (rules.SetRoles(roles=ROLE_DECK), rules.StartGame(),
                  rules.Penalty(seat=1, reason="4.3.1")):  # #1's team loses (seed 4.3)
        state, _ = rules.apply(state, event)
    assert state.phase is rules.Phase.GAME_OVER
    winner = next(s.number for s in state.seats if s.role is not None
                  and s.role.team is state.result.winner)
    state, _ = rules.apply(state, rules.Extra(seat=winner, points="0.3"))
    assert roundtrip(state) == state and roundtrip(state).extras == state.extras
    assert [type(v) for v in roundtrip(state).extras.values()] == [Decimal]


async def test_a_snapshot_s_digest_is_over_the_log_rows_as_the_stores_write_them(
        tmp_path: Path) -> None:
    """Issue 32: the digest a snapshot keeps of the log under it is computed over each row's
    text as the service encodes the event (:func:`rules.snapshot.event_text`) and checked at a
    load against the texts the store holds: the two must stay one, or every game with a
    snapshot would be set aside as edited. Every row the demo game stores."""
    import io

    from bot.demo import play
    from rules.snapshot import event_text

    db = tmp_path / "demo.sqlite3"
    assert await play(db, out=io.StringIO()) == 0
    async with await Store.open(db) as store:
        texts = await store.conn.execute_fetchall("SELECT event FROM events ORDER BY game_id, seq")
    assert len(texts) > 50
    for (text,) in texts:
        assert event_text(rules.to_dict(rules.from_dict(json.loads(text)))) == text
