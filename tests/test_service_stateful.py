"""Property-based stateful tests of the referee SERVICE (issue #6): hypothesis drives
:class:`bot.service.Service` over a real SQLite store with random streams of actions.

The engine's own properties are in ``test_properties.py``; this machine checks what the service
adds on top of ``rules.apply`` — the judge, the revision, undo, replacing and taking over a game,
a restart (the store closed and reopened under a new service) and concurrent actions — and that
the log in the store is the whole truth (ENGINEERING.md §1: "the state changes in memory only after
the commit, so a refused or failed action changes nothing, and an acknowledged one survives a
crash"). Two chats play side by side so that transactions of different games interleave.

Rules (each step picks one): an action drawn from ``rules.next_action`` (mostly legal) or garbage
(seats 0/11/-1, wrong phase…), with or without the current revision; undo of 1–3 steps; a
correction of an earlier standing action (``Service.fix``: accepted exactly when
``rules.correct`` accepts it, and then the log with the Fix folds to the service's state); an action
with a stale or future revision; an action by a non-judge; an action whose renderer fails;
``new_game`` with or without ``replace``; ``take_over``; a restart; two tasks acting with the same
revision at once (exactly one wins, the other is ``stale``), while the other chat acts too.

Invariants after every step, for both chats: the stored log equals the model's (so a refused
action changed neither); the revision equals the stored rows; the service's state equals the
model's ``rules.fold``; the judge and the finished flag are the model's; the outbox holds exactly
the messages of the accepted actions; no exception but ``RuleError``/``ServiceError`` escapes an
action (any other escapes the machine and fails the test). After each restart and at the end of
each example: ``rules.fold`` of the stored rows and a FRESH service over the same store (nothing
cached) give the service's state.

The machine asserts behaviour only (what a client of the service can observe), never internals,
so that the store's and the service's internals (caches, group commit) may change under it.
"""

from __future__ import annotations

import asyncio
import json
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Awaitable, TypeVar

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

import rules
from bot.service import Outcome, Service, ServiceError
from rules import Event, Fix, Phase, RuleError, Undo
from storage import OutboxItem, Store
from test_properties import ROLE_DECK, STYLES, Style, garbage_event, plausible_event

T = TypeVar("T")

CHATS = ("tg:-1001", "tg:-1002")
JUDGES = ("tg:1", "tg:2", "tg:3")  # the judges who may take a game over
STRANGER = "tg:99"  # never a judge
OUTBOX = "tg:outbox"  # where the machine's renderer queues its messages
PRESETS = ("seed", "fiim2024", "fsm2024")
NAMES = ({}, {1: "Анна", 10: "Кирилл"}, {5: " Дина "})

MAX_EXAMPLES = 25
STEPS = 60
HANG = 20.0  # seconds: an action that takes longer is stuck
WARMUP = 120  # plausible events each game may start with


def normalised(event: Event) -> Event:
    """The event as the log stores it (the JSON round trip the service applies)."""
    return rules.from_dict(json.loads(json.dumps(rules.to_dict(event))))


def as_json(event: Event) -> Any:
    """The event's JSON form as the store gives it back."""
    return json.loads(json.dumps(rules.to_dict(event)))


def snapshot(state: rules.GameState) -> str:
    return repr(state)


class RenderFailed(Exception):
    """The adapter's renderer broke: the action must not be logged."""


@dataclass
class Model:
    """What a chat's current game must be, as the machine predicts it."""

    config: rules.RulesConfig
    judge: str
    names: dict[int, str]
    log: list[Event] = field(default_factory=list)
    game_id: int = 0
    style: Style = field(default_factory=Style)

    _folded: tuple[int, rules.GameState] | None = field(default=None, repr=False)

    @property
    def state(self) -> rules.GameState:
        """``rules.fold`` of the model's log (cached by length: the log only grows)."""
        if self._folded is None or self._folded[0] != len(self.log):
            self._folded = (len(self.log), rules.fold(self.config, self.log, self.names)[0])
        return self._folded[1]

    def append(self, event: Event) -> None:
        """Log an accepted event (its JSON form), stepping the cached state when it is not an
        undo (the step-by-step state equals the fold: ``test_properties.py``; ``check_replay``
        folds the stored log anyway)."""
        event = normalised(event)
        state = self.state
        self.log.append(event)
        if not isinstance(event, (Undo, Fix)):
            self._folded = (len(self.log), rules.apply(state, event)[0])

    @property
    def revision(self) -> int:
        return len(self.log)

    @property
    def finished(self) -> bool:
        return self.state.phase is Phase.GAME_OVER

    def accepts(self, event: Event) -> bool:
        """Would the rules take ``event`` now? (RuleError: no; what else it raises: a bug.)"""
        return rules.check(self.state, normalised(event)) is None


class ServiceMachine(RuleBasedStateMachine):
    """Random actions on two chats' games through one :class:`Service`."""

    def __init__(self) -> None:
        super().__init__()
        self.dir = Path(tempfile.mkdtemp(prefix="svc-stateful-"))
        self.db = self.dir / "referee.sqlite3"
        self.loop = asyncio.new_event_loop()
        self.store: Store = self.run(Store.open(self.db))
        self.service = Service(self.store)
        self.models: dict[str, Model] = {}
        self.queued: list[dict[str, Any]] = []  # the outbox payloads of the accepted actions

    def run(self, coro: Awaitable[T]) -> T:
        """Run ``coro`` on this example's loop; a hang (a lost wake-up in the store's commit,
        a lock never released) fails the example instead of the whole run."""
        return self.loop.run_until_complete(asyncio.wait_for(coro, HANG))

    def teardown(self) -> None:
        try:
            if self.models:
                self.check_replay()
        finally:
            self.close()

    def close(self) -> None:
        try:
            self.run(self.store.close())
        finally:
            self.loop.close()
            shutil.rmtree(self.dir, ignore_errors=True)

    # --- helpers ---------------------------------------------------------------------------------
    def render_for(self, chat: str):  # type: ignore[no-untyped-def]
        """A renderer that queues one message per action, naming the chat and the new revision."""
        def render(outcome: Outcome) -> list[OutboxItem]:
            return [OutboxItem(chat=OUTBOX, payload={"chat": chat, "revision": outcome.revision})]
        return render

    async def _new(self, chat: str, judge: str, config: rules.RulesConfig, names: dict[int, str],
                   replace: bool) -> Outcome:
        return await self.service.new_game(chat, judge, config, names, replace=replace)

    def create(self, chat: str, judge: str, preset: str, names: dict[int, str], replace: bool,
               style: Style, deal: tuple[str, ...] | None) -> None:
        """``new_game``: refused with ``game_exists`` over an unfinished game unless ``replace``."""
        model = self.models.get(chat)
        config = rules.PRESETS[preset]
        busy = model is not None and not model.finished
        try:
            outcome = self.run(self._new(chat, judge, config, names, replace))
        except ServiceError as error:
            assert busy and not replace, f"new_game refused: {error}"
            assert error.code == "game_exists" and error.params["game_id"] == model.game_id  # type: ignore[union-attr]
            return
        assert not busy or replace, "new_game replaced an unfinished game without replace=True"
        if model is not None:
            assert outcome.game_id != model.game_id
            old = self.run(self.store.game(model.game_id))
            assert old is not None and old.finished
            if busy:
                assert old.result == "abandoned"
        stripped = {seat: name.strip() for seat, name in names.items()}
        assert outcome.revision == 0 and outcome.judge == judge
        assert snapshot(outcome.state) == snapshot(rules.new_game(config, stripped))
        self.models[chat] = Model(config=config, judge=judge, names=stripped, game_id=outcome.game_id,
                                  style=style)
        if deal is not None:
            self.expect_act(chat, judge, rules.SetRoles(roles=deal), None)

    def expect_act(self, chat: str, user: str, event: Event, revision: int | None,
                   render: bool = True) -> None:
        """One action; the model says whether it is accepted, refused by the service, or by the
        rules — and a refusal changes nothing (checked by the invariants)."""
        model = self.models[chat]
        expected: str | None = None
        if user != model.judge:
            expected = "not_judge"
        elif revision is not None and revision != model.revision:
            expected = "stale"
        elif isinstance(event, Undo) and not rules.standing(model.log):
            expected = "nothing_to_undo"
        try:
            outcome = self.run(self.service.act(chat, user, event, revision=revision,
                                                render=self.render_for(chat) if render else None))
        except ServiceError as error:
            assert error.code == expected, f"{event}: {error.code}, expected {expected}"
            return
        except RuleError:
            assert expected is None, f"{event}: a RuleError before the {expected} check"
            assert not isinstance(event, Undo) and not model.accepts(event), f"{event} refused"
            return
        assert expected is None, f"{event} accepted, expected {expected}"
        if not isinstance(event, Undo):
            assert model.accepts(event), f"{event} accepted against the rules"
        model.append(event)
        self.check_outcome(chat, outcome, render)

    def check_outcome(self, chat: str, outcome: Outcome, rendered: bool) -> None:
        model = self.models[chat]
        assert outcome.game_id == model.game_id and outcome.judge == model.judge
        assert outcome.revision == model.revision
        assert snapshot(outcome.state) == snapshot(model.state)
        if rendered:
            self.queued.append({"chat": chat, "revision": outcome.revision})
            assert len(outcome.outbox) == 1

    def draw_event(self, data: st.DataObject, model: Model, garbage: bool) -> Event:
        draw = lambda strategy, label=None: data.draw(strategy, label=label)  # noqa: E731
        state = model.state
        if garbage:
            return garbage_event(draw, state)
        return plausible_event(draw, state, model.style)

    # --- rules -------------------------------------------------------------------------------------
    @initialize(data=st.data())
    def open_games(self, data: st.DataObject) -> None:
        for chat in CHATS:
            self.create(chat, JUDGES[0], data.draw(st.sampled_from(PRESETS), label="preset"),
                        data.draw(st.sampled_from(NAMES), label="names"), False,
                        data.draw(STYLES, label="style"),
                        tuple(data.draw(st.permutations(ROLE_DECK), label="deal")))
            self.warm_up(data, chat)

    def warm_up(self, data: st.DataObject, chat: str) -> None:
        """A game already under way (most bugs live past the first day): up to :data:`WARMUP`
        plausible actions, checked as any other."""
        for _ in range(data.draw(st.integers(0, WARMUP), label="warmup")):
            model = self.models[chat]
            self.expect_act(chat, model.judge, self.draw_event(data, model, False), model.revision)

    @rule(data=st.data(), chat=st.sampled_from(CHATS), burst=st.integers(1, 12))
    def act(self, data: st.DataObject, chat: str, burst: int) -> None:
        """A burst of the judge's actions (most steps are plain play, so games go deep):
        each mostly what the rules expect, sometimes garbage; with the revision or without."""
        for _ in range(burst):
            model = self.models[chat]
            kind = data.draw(st.sampled_from(["plausible"] * 6 + ["garbage"]), label="kind")
            event = self.draw_event(data, model, kind == "garbage")
            revision = model.revision if data.draw(st.booleans(), label="with_revision") else None
            self.expect_act(chat, model.judge, event, revision)

    @rule(chat=st.sampled_from(CHATS), steps=st.integers(1, 3), with_revision=st.booleans())
    def undo(self, chat: str, steps: int, with_revision: bool) -> None:
        """Undo ``steps`` standing events; ``nothing_to_undo`` if fewer stand (the game's
        creation is never undone)."""
        model = self.models[chat]
        standing = len(rules.standing(model.log))  # corrections are actions too
        try:
            outcome = self.run(self.service.undo(
                chat, model.judge, steps=steps, revision=model.revision if with_revision else None,
                render=self.render_for(chat)))
        except ServiceError as error:
            assert error.code == "nothing_to_undo" and standing < steps, str(error)
            assert error.params == {"steps": steps, "available": standing}
            return
        assert standing >= steps, "undo beyond the game's creation"
        for _ in range(steps):
            model.append(Undo())
        assert len(outcome.undone) == steps
        self.check_outcome(chat, outcome, True)

    @rule(data=st.data(), chat=st.sampled_from(CHATS))
    def fix(self, data: st.DataObject, chat: str) -> None:
        """The judge corrects a standing action into one the rules would have expected then:
        accepted exactly when :func:`rules.correct` accepts it (else nothing changes)."""
        model = self.models[chat]
        actions = [seq for seq, event in rules.standing(model.log)  # what a judge corrects
                   if not isinstance(event, (Fix, rules.Next, rules.StartGame, rules.SetRoles))]
        if not actions:
            return
        seq = data.draw(st.sampled_from(actions), label="seq")
        then = rules.state_before(model.config, model.log, seq, model.names)
        draw = lambda strategy, label=None: data.draw(strategy, label=label)  # noqa: E731
        original = dict(rules.counted(model.log))[seq]
        for _ in range(5):  # mostly one of its own kind, which is what a judge corrects
            replacement = normalised(plausible_event(draw, then, model.style))
            if rules.fixable(original, replacement) and replacement != original:
                break
        try:
            expected = rules.correct(model.config, model.log, seq, replacement, model.names)
        except RuleError as error:
            expected, code = None, error.code
        try:
            outcome = self.run(self.service.fix(chat, model.judge, seq, replacement,
                                                render=self.render_for(chat)))
        except RuleError as error:
            assert expected is None and error.code is code, f"{seq} -> {replacement}: {error}"
            return
        assert expected is not None, f"{seq} -> {replacement} accepted against rules.correct"
        model.append(Fix(seq=seq, event=replacement))
        assert snapshot(model.state) == snapshot(expected.state)
        assert outcome.correction == expected
        self.check_outcome(chat, outcome, True)

    @rule(data=st.data(), chat=st.sampled_from(CHATS), shift=st.sampled_from([-1, -2, -5, 1, 3]))
    def act_stale(self, data: st.DataObject, chat: str, shift: int) -> None:
        """A press from a panel of another revision (before an undo, a restart…): ``stale``."""
        model = self.models[chat]
        revision = model.revision + shift
        if revision < 0:
            revision = model.revision + 1
        event = data.draw(st.sampled_from([rules.Next(), Undo(), self.draw_event(data, model, False)]))
        self.expect_act(chat, model.judge, event, revision)

    @rule(data=st.data(), chat=st.sampled_from(CHATS), user=st.sampled_from([STRANGER, *JUDGES]),
          with_revision=st.booleans())
    def act_as_someone(self, data: st.DataObject, chat: str, user: str, with_revision: bool) -> None:
        """Anyone but the judge: ``not_judge``, whatever the event and the revision."""
        model = self.models[chat]
        event = data.draw(st.sampled_from([rules.Next(), Undo(), self.draw_event(data, model, False)]))
        self.expect_act(chat, user, event, model.revision if with_revision else None)
        if user != model.judge:
            try:
                self.run(self.service.undo(chat, user))
            except ServiceError as error:
                assert error.code == "not_judge"
            else:
                raise AssertionError("a non-judge's undo was accepted")

    @rule(data=st.data(), chat=st.sampled_from(CHATS))
    def act_render_fails(self, data: st.DataObject, chat: str) -> None:
        """The adapter's renderer raises: the error reaches the caller and nothing is logged."""
        model = self.models[chat]
        event = self.draw_event(data, model, False)

        def render(outcome: Outcome) -> list[OutboxItem]:
            raise RenderFailed(outcome.revision)

        try:
            self.run(self.service.act(chat, model.judge, event, render=render))
        except RenderFailed:
            assert model.accepts(event), "the renderer ran for an event the rules refuse"
        except RuleError:
            assert not model.accepts(event)

    @rule(data=st.data(), chat=st.sampled_from(CHATS), replace=st.booleans(),
          judge=st.sampled_from(JUDGES), deal=st.booleans())
    def new_game(self, data: st.DataObject, chat: str, replace: bool, judge: str, deal: bool) -> None:
        self.create(chat, judge, data.draw(st.sampled_from(PRESETS), label="preset"),
                    data.draw(st.sampled_from(NAMES), label="names"), replace,
                    data.draw(STYLES, label="style"),
                    tuple(data.draw(st.permutations(ROLE_DECK), label="deal")) if deal else None)
        if deal:
            self.warm_up(data, chat)

    @rule(chat=st.sampled_from(CHATS), judge=st.sampled_from(JUDGES))
    def take_over(self, chat: str, judge: str) -> None:
        """An admin takes the game over in place: he is the judge now, the game is unchanged,
        and the old judge's next action is refused."""
        model = self.models[chat]
        old = model.judge
        outcome = self.run(self.service.take_over(chat, judge))
        model.judge = judge
        assert outcome.judge == judge and outcome.revision == model.revision
        assert snapshot(outcome.state) == snapshot(model.state)
        if old != judge:
            self.expect_act(chat, old, rules.Next(), model.revision)

    @rule()
    def restart(self) -> None:
        """The process stops and starts again: a new service over the reopened store."""
        self.run(self.store.close())
        self.store = self.run(Store.open(self.db))
        self.service = Service(self.store)
        self.check_replay()

    @rule(data=st.data(), chat=st.sampled_from(CHATS), other_acts=st.booleans())
    def concurrent(self, data: st.DataObject, chat: str, other_acts: bool) -> None:
        """The judge on two devices: two presses with the same revision race; exactly one wins
        and the other is ``stale``. Meanwhile the other chat's game may act too (another game's
        transaction interleaves): it is accepted or refused exactly as alone."""
        model = self.models[chat]
        candidates = [self.draw_event(data, model, False) for _ in range(4)]
        legal = [e for e in candidates if model.accepts(e)]
        if not legal:
            return
        first = legal[0]
        second = data.draw(st.sampled_from(legal), label="second")
        revision = model.revision
        other = CHATS[1 - CHATS.index(chat)]
        other_model = self.models[other]
        other_event = self.draw_event(data, other_model, False) if other_acts else None
        other_ok = other_event is not None and other_model.accepts(other_event)

        async def race() -> list[Any]:
            tasks = [self.service.act(chat, model.judge, first, revision=revision,
                                      render=self.render_for(chat)),
                     self.service.act(chat, model.judge, second, revision=revision,
                                      render=self.render_for(chat))]
            if other_event is not None:
                tasks.append(self.service.act(other, other_model.judge, other_event,
                                              render=self.render_for(other)))
            return await asyncio.gather(*tasks, return_exceptions=True)

        results = self.run(race())
        won = [(event, r) for event, r in zip((first, second), results[:2]) if isinstance(r, Outcome)]
        lost = [r for r in results[:2] if not isinstance(r, Outcome)]
        assert len(won) == 1, f"{len(won)} of two presses with revision {revision} won: {results}"
        assert isinstance(lost[0], ServiceError) and lost[0].code == "stale", repr(lost[0])
        assert lost[0].params == {"revision": revision, "current": revision + 1}
        event, outcome = won[0]
        model.append(event)
        self.check_outcome(chat, outcome, True)
        if other_event is not None:
            result = results[2]
            if other_ok:
                assert isinstance(result, Outcome), repr(result)
                other_model.append(other_event)
                self.check_outcome(other, result, True)
            else:
                assert isinstance(result, RuleError), repr(result)

    # --- invariants ----------------------------------------------------------------------------------
    async def observed(self, service: Service, chat: str) -> tuple[Outcome, list[dict[str, Any]]]:
        current = await service.current(chat)
        assert current is not None
        rows = await self.store.events(current.game_id)
        return current, [r.event for r in rows]

    @invariant()
    def the_log_is_the_truth(self) -> None:
        """After every step: the stored log is the model's (so a refused action changed
        neither), the revision is its length, the service's state is the model's fold."""
        for chat, model in self.models.items():
            current, stored = self.run(self.observed(self.service, chat))
            assert current.game_id == model.game_id and current.judge == model.judge
            assert stored == [as_json(e) for e in model.log], "the stored log is not the model's"
            assert current.revision == len(stored) == model.revision
            assert snapshot(current.state) == snapshot(model.state)
            row = self.run(self.store.game(model.game_id))
            assert row is not None and row.finished == model.finished
            assert row.judge == model.judge and row.chat == chat
            assert self.run(self.service.events(chat)) == model.log

    def check_replay(self) -> None:
        """A replay of the stored log gives the same state: ``rules.fold`` of the rows, and a
        FRESH service over the same store (nothing cached), twice alike."""
        fresh = Service(self.store)
        for chat, model in self.models.items():
            current, stored = self.run(self.observed(self.service, chat))
            folded, _ = rules.fold(model.config, [rules.from_dict(e) for e in stored], model.names)
            assert snapshot(current.state) == snapshot(folded)
            replayed, _ = self.run(self.observed(fresh, chat))
            assert snapshot(replayed.state) == snapshot(current.state)
            assert replayed.revision == current.revision and replayed.judge == current.judge

    @invariant()
    def the_outbox_holds_what_was_accepted(self) -> None:
        pending = self.run(self.store.pending(OUTBOX))
        assert [r.payload for r in pending] == self.queued


ServiceMachine.TestCase.settings = settings(
    max_examples=MAX_EXAMPLES, stateful_step_count=STEPS, deadline=None, database=None,
    derandomize=True, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                             HealthCheck.filter_too_much],
)
TestServiceMachine = ServiceMachine.TestCase
