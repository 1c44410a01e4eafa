"""Host mode's Discord driver: the lobby, the deal, the steps, "only the speaker writes", the
removal timeout, the result, the club channel and the protocol.

The rules engine says what comes next (:func:`bot.host.steps.plan`, shared); the driver
opens the step (a channel message with Discord's live countdown ``<t:…:R>`` and its buttons,
prompts in direct messages at night), collects the players' presses and, when the step closes —
its time is up or the speaker passes — turns them into ONE engine event
(:func:`~bot.host.steps.closing_event`) through :class:`bot.service.Service` with the
bot's own user as the judge.

* Everything a table does runs under the adapter's lock of its channel (slash commands, presses,
  the step's asyncio timers, messages).
* Secrecy (F24 §4.4.13, §4.5.4): the roles, the shots, the checks and their answers, the best
  move go to direct messages only; every night step lasts its full length and reads the same in
  the channel whether or not its role is still at the table.
* Only the speaker writes (seed 4.1.1): with **Manage Permissions** in the channel the bot denies
  Send Messages to every seated member but the speaker (member overwrites); else, with
  **Moderate Members**, it times the others out during each speech; else a message out of one's
  minute is a foul (4.1.1; at night a disqualifying foul, seed 4.2.6), deleted with **Manage
  Messages**. A player removed by the rules (the 4th foul, seed 4.5; a disqualification, seed
  4.2) is timed out until the end of the game.
* Presses: a press from an earlier step is answered "outdated" (ephemerally) and changes
  nothing; a press by a member who is not at the table is refused ephemerally.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import io
import logging
import random
import re
from typing import TYPE_CHECKING, Any

import discord

import rules
from rules import Cause, Kind, Phase
from storage import HostStepRow

from ... import commands as cmds
from ...commands import Act, CommandError
from ...host import steps as st
from ...host import views as vw
from ...host.flow import HostFlow
from ...host.options import HostError, parse_newgame
from ...host.steps import Plan, Step
from ...host.table import TABLE_SIZE, Table
from ...i18n import Catalog
from ...render import error_text, result_text, seat_label, status_text
from ...service import Outcome, ServiceError
from ..countdown import countdown
from ..keys import chat_key, id_of, is_discord, mention_channel, mention_user, user_key
from ..rights import rights_text

if TYPE_CHECKING:  # pragma: no cover
    from ..app import DiscordReferee

log = logging.getLogger(__name__)

REMOVED_CAUSES = (Cause.FOULS, Cause.DISQUALIFICATION)  # seed 4.5, 4.2
REMOVAL_TIMEOUT = dt.timedelta(hours=6)  # longer than any game; lifted at its end
SPEECH_TIMEOUT = dt.timedelta(minutes=10)  # a speech-long mute; renewed or lifted each step
LIVE = ("lobby", "running")
SEND_MESSAGES = discord.Permissions(send_messages=True).value
MEMBER_OVERWRITE = 1  # the overwrite's target type: a member
PENALTIES = frozenset({"foul", "warn", "dq", "ppk", "unfoul"})
SPEAKER_COMMANDS = frozenset({"pass", "nominate"})
OURS = frozenset({"newgame", "channel", "protocol"})  # the host's even with no table
# The rights "only the speaker writes" and the removal need, by mode (the lobby names the missing).
HOST_RIGHTS = ("view_channel", "send_messages", "attach_files")

_Refusal = (CommandError, ServiceError, rules.RuleError, HostError)
TEMPLATE = r"h:[0-9]{1,12}:[0-9]{1,12}:[A-Za-z0-9-]+(?::[A-Za-z0-9-]+)?"
_PATTERN = re.compile(TEMPLATE)


def is_ours(custom_id: str) -> bool:
    return _PATTERN.fullmatch(custom_id) is not None


def rows_view(rows: vw.Rows | None) -> discord.ui.View | None:
    """The shared layout's rows as a persistent view (at most 5 rows of 5 buttons)."""
    if not rows:
        return None
    view = discord.ui.View(timeout=None)
    for index, row in enumerate(rows[:5]):
        for btn in row[:5]:
            if btn.url:
                view.add_item(discord.ui.Button(label=btn.label[:80], url=btn.url, row=index))
            elif btn.data:
                view.add_item(HostButton(discord.ui.Button(
                    label=btn.label[:80], custom_id=btn.data, row=index,
                    style=discord.ButtonStyle.primary if btn.label.startswith("✓")
                    else discord.ButtonStyle.secondary)))
    return view


class HostButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEMPLATE):
    """A host-mode button (``h:<table>:<step>:<action>[:<arg>]``, :mod:`bot.host.views`):
    rebuilt by discord.py from any matching custom_id, after a restart too."""

    def __init__(self, button: discord.ui.Button[Any]) -> None:
        super().__init__(button)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> "HostButton":
        assert isinstance(item, discord.ui.Button)
        return cls(discord.ui.Button(label=item.label, custom_id=item.custom_id, style=item.style))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:  # type: ignore[override]
        referee = getattr(interaction.client, "referee", None)
        host = getattr(referee, "host", None)
        if host is not None and self.item.custom_id is not None:
            await host.on_press(interaction, self.item.custom_id)


class DiscordHost(HostFlow):
    """Host mode over the judge mode's :class:`~bot.discord.app.DiscordReferee` (its service,
    catalogs, clock, timer scale, sending helpers and per-channel locks)."""

    def __init__(self, referee: "DiscordReferee") -> None:
        self.referee = referee
        self._tables: dict[int, Table] = {}
        self._tasks: dict[int, list[asyncio.Task[None]]] = {}

    # --- basics -------------------------------------------------------------------------------
    @property
    def service(self) -> Any:
        return self.referee.service

    @property
    def bot_key(self) -> str:
        """The judge of every hosted game: the bot's own user (mentionable, like a judge)."""
        user = self.referee.bot.user
        return user_key(user.id) if user is not None else user_key(0)

    def table(self, table_id: int) -> Table | None:
        return self._tables.get(table_id)

    async def _cat(self, chat: str) -> Catalog:
        return await self.referee.cat(chat)

    async def _load(self, table_id: int) -> Table | None:
        table = self._tables.get(table_id)
        if table is None:
            row = await self.service.store.host_table(table_id)
            if row is None or not is_discord(row.chat):
                return None
            # one object per table: another handler may have loaded it during the await
            table = self._tables.setdefault(table_id, Table.from_row(row))
        return table

    async def _table_of(self, chat: str, status: str | None = None) -> Table | None:
        row = await self.service.store.host_table_of(chat, status)
        return None if row is None else await self._load(row.id)

    async def live(self, chat: str) -> Table | None:
        table = await self._table_of(chat)
        return table if table is not None and table.status in LIVE else None

    async def _save(self, table: Table, *fields: str) -> None:
        values: dict[str, Any] = {}
        for name in fields:
            value = getattr(table, name)
            values[name] = value.to_dict() if isinstance(value, Step) else value
        await self.service.store.update_host_table(table.id, **values)

    def _channel(self, chat: str, *, private: bool = False) -> discord.PartialMessageable:
        return self.referee._messageable(id_of(chat), private=private)

    async def _post(self, chat: str, text: str, view: discord.ui.View | None = None) -> discord.Message | None:
        return await self.referee._send(self._channel(chat), text[:2000], view=view)

    async def _dm(self, user: str, text: str, view: discord.ui.View | None = None) -> discord.Message | None:
        channel = await self.referee._dm_channel(user)
        if channel is None:
            return None
        return await self.referee._send(channel, text[:2000], view=view)

    async def _edit(self, chat: str, message_id: int, text: str, view: discord.ui.View | None = None,
                    *, private: bool = False) -> bool:
        channel = self._channel(chat, private=private)
        if private:
            found = await self.referee._dm_channel(chat)
            if found is None:
                return False
            channel = found
        return await self.referee._edit(channel, message_id, text=text[:2000], view=view)

    async def _answer(self, interaction: discord.Interaction[Any], text: str | None = None) -> None:
        if text:
            await self.referee.reply(interaction, text)
        else:
            await self.referee._ack(interaction)

    # --- who may direct ---------------------------------------------------------------------------
    @staticmethod
    def _may_direct(table: Table, user: str, interaction: discord.Interaction[Any]) -> bool:
        """The member who opened the table, or one with Manage Channels, directs it."""
        perms = getattr(interaction, "permissions", None)
        return user == table.host or bool(perms is not None and perms.manage_channels)

    # --- slash commands -----------------------------------------------------------------------
    async def claims(self, home: str, name: str) -> bool:
        """Is this command host mode's: its own commands always, every command in a channel
        where a table gathers or plays (judge mode must not act on the bot's game)."""
        return name in OURS or await self.live(home) is not None

    async def command(self, interaction: discord.Interaction[Any], home: str, user: str,
                      text: str) -> list[str]:
        """A slash command in ``home`` (under its lock); the ephemeral answers."""
        name = text.strip().split(None, 1)[0].lstrip("/").lower()
        args = text.split()[1:]
        cat = await self._cat(home)
        try:
            if name == "newgame":
                return await self._new_table(interaction, home, user, args)
            if name == "channel":
                return await self._set_channel(interaction, home, args)
            if name == "protocol":
                return await self._protocol(home)
            return await self._table_command(interaction, home, user, name, text)
        except HostError as error:
            return [cat.text("host-error-bad_option", **error.params)]
        except _Refusal as error:
            return [error_text(error, cat)]

    async def _table_command(self, interaction: discord.Interaction[Any], home: str, user: str,
                             name: str, text: str) -> list[str]:
        cat = await self._cat(home)
        table = await self.live(home)
        if table is None:
            return [cat.text("host-no-table")]
        if name == "stop":
            if not self._may_direct(table, user, interaction):
                return [cat.text("dc-host-not-host")]
            await self._stop(table, mention_user(user))
            return [cat.text("dc-done-host")]
        if table.status != "running":
            return [cat.text("host-not-started")]
        current = await self.service.current(home)
        assert current is not None
        state = current.state
        if name == "status":
            return [status_text(state, cat, for_judge=False)]
        if name in PENALTIES:  # the host's fouls (seed IV)
            if not self._may_direct(table, user, interaction):
                return [cat.text("dc-host-not-host")]
            command = cmds.parse(text, state)
            if isinstance(command, Act):
                await self._act_and_advance(table, command.event)
            return [cat.text("dc-done-host")]
        if name not in SPEAKER_COMMANDS:
            return [cat.text("dc-host-table", command=name)]
        seat = table.seat_of(user)
        step = table.step
        if seat is None or step is None or step.seat != seat or step.kind not in (*st.SPEAKING, "silenced"):
            return [cat.text("host-not-speaker")]
        await self._active(table, step)
        if name == "pass":
            await self._act_and_advance(table, rules.Next())
            return [cat.text("dc-done-host")]
        command = cmds.parse(text, state)  # /nominate 7: the speaker nominates (F24 §4.4.2)
        if isinstance(command, Act) and isinstance(command.event, rules.Nominate):
            if command.event.by != seat:
                raise rules.RuleError(rules.Code.NOT_SPEAKER, seat=command.event.by, speaker=seat)
            await self._act_and_advance(table, command.event)
        return [cat.text("dc-done-host")]

    # --- the lobby ----------------------------------------------------------------------------
    async def _new_table(self, interaction: discord.Interaction[Any], home: str, user: str,
                         args: list[str]) -> list[str]:
        cat = await self._cat(home)
        if await self.live(home) is not None:
            return [cat.text("dc-host-busy")]
        current = await self.service.current(home)
        if current is not None and not current.finished:  # over, or stopped: a new table may open
            return [cat.text("dc-host-judge-game", game=current.game_id)]
        settings = self.referee.settings
        spec = parse_newgame(args, vote_window=settings.telegram_host_vote_window,
                             shooting=settings.telegram_host_shooting,
                             silenced=settings.telegram_host_silenced)
        table_id = await self.service.store.create_host_table(home, user, spec.to_dict())
        table = await self._load(table_id)
        assert table is not None
        perms = interaction.app_permissions
        channel = interaction.channel
        table.data = {"rights": self._rights(perms), "host_name": mention_user(user),
                      "title": f"#{getattr(channel, 'name', '') or ''}"}
        await self._save(table, "data")
        await self._show_lobby(table)
        return [cat.text("dc-host-opened")]

    @staticmethod
    def _rights(perms: discord.Permissions) -> dict[str, bool]:
        """What the bot may do in the channel: set member overwrites (Manage Permissions, shown
        by discord.py as ``manage_roles``), time members out, delete messages."""
        admin = perms.administrator
        return {"overwrite": admin or perms.manage_roles, "timeout": admin or perms.moderate_members,
                "delete": admin or perms.manage_messages,
                "basic": admin or all(getattr(perms, n) for n in HOST_RIGHTS)}

    def _mode(self, table: Table) -> str:
        """How "only the speaker writes" is enforced: ``overwrite``, ``timeout`` or ``foul``."""
        rights = table.data.get("rights", {})
        if table.spec.options.mute == "foul":
            return "foul"
        if rights.get("overwrite"):
            return "overwrite"
        return "timeout" if rights.get("timeout") else "foul"

    def _missing_lines(self, table: Table, cat: Catalog) -> list[str]:
        rights = table.data.get("rights", {})
        lines: list[str] = []
        if not rights.get("basic", True):
            lines.append(cat.text("dc-missing-rights", rights=rights_text(list(HOST_RIGHTS), cat)))
        mode = self._mode(table)
        if table.spec.options.mute != "foul" and mode != "overwrite":
            lines.append(cat.text("dc-host-right-overwrite", mode=mode))
        if not rights.get("timeout"):
            lines.append(cat.text("dc-host-right-timeout"))
        if not rights.get("delete"):
            lines.append(cat.text("dc-host-right-delete"))
        return lines

    def _lobby(self, table: Table, cat: Catalog) -> tuple[str, discord.ui.View]:
        preset = cat.text(f"preset-{table.spec.config.preset}")
        count = len(table.players)
        lines = [cat.text("host-lobby", preset=preset, count=count, left=TABLE_SIZE - count,
                          seating=table.spec.options.seating, host=table.data.get("host_name", ""))]
        lines.append(cat.text("host-lobby-absent", count=table.spec.options.absent_after))
        for index, player in enumerate(table.players, 1):
            lines.append(cat.text("host-lobby-player", index=index, name=player["name"],
                                  reachable="yes" if player.get("reachable") else "no"))
        if any(not p.get("reachable") for p in table.players):
            lines.append(cat.text("dc-host-dm-closed"))
        lines.extend(self._missing_lines(table, cat))
        rows: vw.Rows = [[vw.Btn(cat.text("host-btn-join"), vw.encode(table.id, 0, vw.JOIN)),
                          vw.Btn(cat.text("host-btn-leave"), vw.encode(table.id, 0, vw.LEAVE))]]
        view = rows_view(rows)
        assert view is not None
        return "\n".join(lines), view

    async def _show_lobby(self, table: Table) -> None:
        cat = await self._cat(table.chat)
        text, view = self._lobby(table, cat)
        if table.lobby_message is not None:
            await self._edit(table.chat, table.lobby_message, text, view)
            return
        sent = await self._post(table.chat, text, view)
        if sent is not None:
            table.lobby_message = sent.id
            await self._save(table, "lobby_message")

    async def _join(self, interaction: discord.Interaction[Any], table: Table) -> None:
        """A member joins (or, with his DMs now open, tries again): the bot says hello in his
        direct messages — his role and the night's buttons will come there."""
        cat = await self._cat(table.chat)
        who = user_key(interaction.user.id)
        player = table.player(who)
        if player is not None and player.get("reachable"):
            await self._answer(interaction, cat.text("host-join-already"))
            return
        if player is None and table.full:
            await self._answer(interaction, cat.text("host-join-full"))
            return
        if player is None:
            name = st.seat_name(getattr(interaction.user, "display_name", None),
                                fallback=str(interaction.user.id))
            player = {"user": who, "name": name, "reachable": False}
            table.players.append(player)
        hello = await self._dm(who, (await self._cat(table.chat)).text(
            "host-joined", title=table.data.get("title", "")))
        player["reachable"] = hello is not None
        await self._save(table, "players")
        await self._answer(interaction, cat.text("host-join-done") if hello is not None
                           else cat.text("dc-host-join-dm-closed"))
        await self._show_lobby(table)
        await self._maybe_start(table)

    async def _leave(self, interaction: discord.Interaction[Any], table: Table) -> None:
        cat = await self._cat(table.chat)
        who = user_key(interaction.user.id)
        if table.player(who) is None:
            await self._answer(interaction, cat.text("host-not-in-lobby"))
            return
        table.players = [p for p in table.players if p["user"] != who]
        await self._save(table, "players")
        await self._answer(interaction, cat.text("host-left-lobby"))
        await self._show_lobby(table)

    async def _maybe_start(self, table: Table) -> None:
        """Ten players the bot can write to: the deal and night 0 (R1.1)."""
        if table.status == "lobby" and table.full and all(p.get("reachable") for p in table.players):
            await self._start(table)

    def _rng(self, table: Table) -> random.Random:
        seed = self.referee.settings.telegram_host_seed
        return random.Random(f"{seed}:{table.id}") if seed is not None else random.Random()

    async def _start(self, table: Table) -> None:
        """Seats (join order or shuffled), the random deal (:class:`rules.SetRoles`), the cards
        in direct messages, night 0."""
        cat = await self._cat(table.chat)
        rng = self._rng(table)
        order = list(table.players)
        if table.spec.options.seating == "shuffle":
            rng.shuffle(order)
        names = {seat: p["name"] for seat, p in enumerate(order, 1)}
        await self.service.new_game(table.chat, self.bot_key, table.spec.config, names, replace=True)
        outcome = await self._act(table, rules.SetRoles(roles=st.deal(rng)))
        table.seats = {seat: p["user"] for seat, p in enumerate(order, 1)}
        table.game_id = outcome.game_id
        table.status = "running"
        table.data["mode"] = self._mode(table)
        table.data.setdefault("muted", [])
        table.data.setdefault("removed", [])
        await self._save(table, "seats", "game_id", "status", "data")
        if table.lobby_message is not None:
            await self._edit(table.chat, table.lobby_message, cat.text("host-lobby-started"), None)
        for seat, user in table.seats.items():
            await self._dm(user, vw.role_card(outcome.state, seat, table.data.get("title", ""),
                                              await self._cat(table.chat)))
        outcome = await self._act(table, rules.StartGame())
        await self._post(table.chat, cat.text(
            "dc-host-started", host=table.data.get("host_name", ""),
            seats=self._seats_text(table, outcome.state, cat), mode=table.data["mode"]))
        await self._to_club(table, cat.text("host-channel-start", title=mention_channel(table.chat),
                                            host=table.data.get("host_name", ""),
                                            seats=vw.seats_text(outcome.state, cat)))
        await self._advance(table, outcome, vw.public_lines(outcome.notices, cat))

    @staticmethod
    def _seats_text(table: Table, state: rules.GameState, cat: Catalog) -> str:
        return "\n".join(f"{seat_label(s.number, cat)} {mention_user(table.seats[s.number])}"
                         if s.number in table.seats else seat_label(s.number, cat)
                         for s in state.seats)

    # --- acting and moving from step to step ----------------------------------------------------
    async def _act(self, table: Table, event: rules.Event) -> Outcome:
        return await self.service.act(table.chat, self.bot_key, event)  # type: ignore[no-any-return]

    async def _act_and_advance(self, table: Table, event: rules.Event, *,
                               lead: list[str] | None = None) -> Outcome:
        """Apply one event (the rules may refuse it); its public lines — ``lead`` first — are
        posted, then the step the rules expect."""
        outcome = await self._act(table, event)
        await self._answers(table, outcome.state, outcome.notices)
        cat = await self._cat(table.chat)
        await self._advance(table, outcome, [*(lead or []), *vw.public_lines(outcome.notices, cat)])
        return outcome

    async def _answers(self, table: Table, state: rules.GameState, notices: list[rules.Notice]) -> None:
        """A check's answer goes to its checker's direct messages only (F24 §4.5.6–4.5.7)."""
        cat = await self._cat(table.chat)
        for notice in notices:
            role = {Kind.DON_CHECK: rules.Role.DON, Kind.SHERIFF_CHECK: rules.Role.SHERIFF}.get(notice.kind)
            if role is None:
                continue
            seat = st.role_seat(state, role)
            user = table.seats.get(seat) if seat is not None else None
            if user is not None:
                await self._dm(user, vw.check_answer(notice, cat))

    async def _advance(self, table: Table, outcome: Outcome, lines: list[str]) -> None:
        state = outcome.state
        plan = st.plan(state, table.spec.options)
        old = table.step
        if old is not None and old.key == plan.key and plan.kind != "over":
            if lines:
                await self._post(table.chat, "\n".join(lines))
            old.revision = outcome.revision
            if old.view or old.kind in ("speech", "silenced"):
                old.view = ""
                await self._show(table, state)
            await self._save(table, "step")
            await self._sync_mutes(table, state, plan)
            return
        await self._retire_step(table, state, plan)
        if plan.kind == "over":
            await self._finish(table, outcome, lines)
            return
        await self._open(table, state, plan, lines, old, outcome.revision)

    async def _catch_up(self, table: Table, current: Outcome) -> None:
        await self._advance(table, current, [])

    async def _open(self, table: Table, state: rules.GameState, plan: Plan, lines: list[str],
                    old: Step | None, revision: int) -> None:
        now = self.referee.clock()
        step = Step(no=(old.no if old else 0) + 1, key=plan.key, kind=plan.kind,
                    seconds=plan.seconds, seat=plan.seat, night=plan.night, opened=now,
                    deadline=now + plan.seconds * self.referee.timer_scale, base="\n".join(lines),
                    revision=revision)
        if (step.at_night and old is not None and old.at_night and old.night == step.night
                and old.message is not None):
            step.message, step.base = old.message, old.base  # one night, one message, edited
            if lines:
                await self._post(table.chat, "\n".join(lines))
        table.step = step
        data = {"data": table.data} if old is not None and self._count_silence(table, old) else {}
        await self.service.store.update_host_table(  # the step, its record and the old step's
            table.id, step=step.to_dict(),            # silence count: one transaction
            opened=HostStepRow(step.no, step.key, step.kind, step.seconds, now), **data)
        await self._sync_mutes(table, state, plan)
        await self._show(table, state)
        await self._prompt_all(table, state)
        self._arm(table)

    def _step_text(self, table: Table, step: Step, state: rules.GameState, cat: Catalog, *,
                   closed: bool = False) -> str:
        text = vw.step_text(step, state, cat, closed=closed)
        if not closed and step.seconds > 0:  # Discord's live countdown
            text = f"{text} {cat.text('dc-timer-ends', until=countdown(step.deadline))}"
        return text

    async def _show(self, table: Table, state: rules.GameState, *, closed: bool = False) -> None:
        step = table.step
        if step is None:
            return
        cat = await self._cat(table.chat)
        text = self._step_text(table, step, state, cat, closed=closed)
        view = None if closed else rows_view(vw.step_keyboard(step, state, table.id, cat))
        if step.message is not None:
            await self._edit(table.chat, step.message, text, view)
            return
        sent = await self._post(table.chat, text, view)
        if sent is not None:
            step.message = sent.id
            await self._save(table, "step")

    async def _retire_step(self, table: Table, state: rules.GameState, following: Plan) -> None:
        """The step is over: its timer stops, its message loses its buttons, its prompts close
        (its silence was counted when the next step was stored: :meth:`_count_silence`)."""
        self._cancel(table)
        step = table.step
        if step is None:
            return
        same_night = step.at_night and following.kind in st.NIGHT_STEPS and following.night == step.night
        cat = await self._cat(table.chat)
        if step.message is not None and not same_night:
            await self._edit(table.chat, step.message,
                             self._step_text(table, step, state, cat, closed=True), None)
        for user, message_id in step.prompts.items():
            seat = table.seat_of(user)
            if seat is None:
                continue
            text, _ = vw.prompt(step, state, seat, table.id, cat)
            await self._edit(user, message_id, f"{text}\n\n{cat.text('host-prompt-closed')}",
                             None, private=True)

    async def _prompt_all(self, table: Table, state: rules.GameState) -> None:
        """The night's prompts in direct messages (none for a role no longer in the game; the
        step runs its full length all the same)."""
        step = table.step
        if step is None:
            return
        cat = await self._cat(table.chat)
        for seat in st.prompted(state, step):
            user = table.seats.get(seat)
            if user is None or user in step.prompts:
                continue
            text, rows = vw.prompt(step, state, seat, table.id, cat)
            sent = await self._dm(user, text, rows_view(rows))
            if sent is not None:
                step.prompts[user] = sent.id
        await self._save(table, "step")

    # --- timers ------------------------------------------------------------------------------
    def _cancel(self, table: Table) -> None:
        for task in self._tasks.pop(table.id, []):
            if task is not asyncio.current_task():
                task.cancel()

    def _arm(self, table: Table) -> None:
        """The step's 10-second warning (a speech) and its end, from the stored deadline."""
        self._cancel(table)
        step = table.step
        if step is None:
            return
        now = self.referee.clock()
        tasks: list[asyncio.Task[None]] = []
        if step.stage == "running" and step.kind in (*st.SPEAKING, "night_zero") and step.seconds > st.WARN_LEFT:
            warn_at = step.deadline - st.WARN_LEFT * self.referee.timer_scale
            tasks.append(asyncio.create_task(self._after(max(0.0, warn_at - now), table.id, step.no, True),
                                             name=f"host-warn-{table.id}"))
        tasks.append(asyncio.create_task(self._after(max(0.0, step.deadline - now), table.id, step.no, False),
                                         name=f"host-step-{table.id}"))
        self._tasks[table.id] = tasks

    async def _after(self, delay: float, table_id: int, no: int, warn: bool) -> None:
        await asyncio.sleep(delay)
        try:
            table = await self._load(table_id)
            if table is None:
                return
            async with self.referee._lock(table.chat):
                step = table.step
                if table.status != "running" or step is None or step.no != no:
                    return
                if warn:
                    if step.stage != "running":
                        return
                    step.stage = "warned"
                    current = await self.service.current(table.chat)
                    if current is not None:  # shown, then stored: a kill between shows it again
                        await self._show(table, current.state)
                    await self._save(table, "step")
                    return
                self._tasks.pop(table.id, None)
                await self._close_step(table)
        except Exception:
            log.exception("host: table %s: a timer failed", table_id)

    async def resume(self) -> None:
        """After a restart (before the gateway connects: no press comes first): every running
        Discord table's step is re-armed from its deadline — or, if the process died between an
        event and its step, the step the rules expect now is opened at once."""
        for row in await self.service.store.open_host_tables():
            if not is_discord(row.chat):
                continue
            table = self._tables.get(row.id) or Table.from_row(row)
            self._tables[table.id] = table
            if table.status != "running" or table.step is None:
                continue
            current = await self.service.current(table.chat)
            if current is None or current.game_id != table.game_id \
                    or (not current.finished
                        and st.plan(current.state, table.spec.options).key == table.step.key):
                self._arm(table)
                if table.data.get("absent_due") is not None:  # a removal a stop cut short
                    async with self.referee._lock(table.chat):
                        await self._absent(table)
                continue
            async with self.referee._lock(table.chat):
                try:
                    if current.finished and current.state.phase is not Phase.GAME_OVER:
                        await self._stopped(table, str(table.data.get("stopped_by", "")))  # cut short
                    else:
                        await self._advance(table, current, [])
                except Exception:  # one broken table must not keep the others down
                    log.exception("host: cannot resume table %s", table.id)

    async def shutdown(self) -> None:
        for tasks in self._tasks.values():
            for task in tasks:
                task.cancel()
        self._tasks.clear()

    # --- only the speaker writes; removals ------------------------------------------------------
    async def _member(self, table: Table, user: str) -> discord.Member | None:
        return await self.referee._member(table.chat, id_of(user))

    async def _timeout(self, table: Table, user: str, until: dt.timedelta | None, reason: str) -> bool:
        return await self.referee._timeout(table.chat, id_of(user), until, reason)

    async def _overwrite(self, table: Table, user: str, *, mute: bool) -> bool:
        """Deny (or give back) Send Messages to one member in the table's channel."""
        http = self.referee.bot.http
        channel_id, member_id = id_of(table.chat), id_of(user)
        try:
            if mute:
                await http.edit_channel_permissions(channel_id, member_id, "0", str(SEND_MESSAGES),
                                                    MEMBER_OVERWRITE, reason="mafia host: not his minute")
            else:
                await http.delete_channel_permissions(channel_id, member_id, reason="mafia host: his minute")
        except discord.NotFound:
            return not mute
        except discord.HTTPException as error:
            log.info("host: cannot overwrite %s in %s: %s", user, table.chat, error)
            return False
        return True

    async def _mute(self, table: Table, user: str, *, mute: bool) -> bool:
        if table.data.get("mode") == "overwrite":
            return await self._overwrite(table, user, mute=mute)
        cat = await self._cat(table.chat)
        reason = cat.text("dc-host-mute-reason", table=table.id)
        return await self._timeout(table, user, SPEECH_TIMEOUT if mute else None, reason)

    async def _sync_mutes(self, table: Table, state: rules.GameState, plan: Plan) -> None:
        """Everyone at the table but the speaker is muted (overwrites: the whole game; timeouts:
        during each speech only, so that every hand can be raised). A player the rules removed
        (seed 4.5, 4.2) is timed out until the end of the game."""
        await self._sync_removals(table, state)
        mode = table.data.get("mode")
        if mode not in ("overwrite", "timeout") or state.phase is Phase.GAME_OVER:
            return
        removed = set(table.data.get("removed", []))
        open_ = {table.seats[s] for s in st.writers(state, plan) if s in table.seats}
        everyone = set(table.seats.values())
        if mode == "timeout":  # a removed player keeps the removal's own timeout
            everyone -= removed
        if mode == "timeout" and plan.kind not in (*st.SPEAKING, "silenced"):
            wanted: set[str] = set()
        else:
            wanted = everyone - open_
        muted = set(table.data.get("muted", []))
        changed = False
        for user in sorted(wanted - muted):
            if await self._mute(table, user, mute=True):
                muted.add(user)
                changed = True
            elif mode == "overwrite":  # the right is gone: fall back to fouls (seed 4.1.1)
                table.data["mode"] = "foul"
                await self._post(table.chat, (await self._cat(table.chat)).text("host-mute-failed"))
                changed = True
                break
        for user in sorted(muted - wanted):
            if user in removed and mode == "timeout":  # the removal's timeout stays
                muted.discard(user)
                changed = True
                continue
            if await self._mute(table, user, mute=False):
                muted.discard(user)
                changed = True
        if changed:
            table.data["muted"] = sorted(muted)
            await self._save(table, "data")

    async def _sync_removals(self, table: Table, state: rules.GameState) -> None:
        removed = set(table.data.get("removed", []))
        now = {table.seats[n] for n, d in state.departures()
               if d.cause in REMOVED_CAUSES and n in table.seats}
        if state.phase is Phase.GAME_OVER:
            now = set()
        cat = await self._cat(table.chat)
        failed: list[int] = []
        for user in sorted(now - removed):
            seat = table.seat_of(user)
            reason = cat.text("dc-timeout-reason", game=table.game_id or 0, seat=seat or 0)
            if await self._timeout(table, user, REMOVAL_TIMEOUT, reason):
                removed.add(user)
            else:
                failed.append(seat or 0)
        for user in sorted(removed - now):
            seat = table.seat_of(user)
            await self._timeout(table, user, None, cat.text("dc-timeout-lifted", game=table.game_id or 0,
                                                            seat=seat or 0))
            removed.discard(user)
        if failed:
            await self._post(table.chat, cat.text("dc-host-timeout-failed",
                                                  seats=", ".join(map(str, failed))))
        if removed != set(table.data.get("removed", [])):
            table.data["removed"] = sorted(removed)
            await self._save(table, "data")

    async def _unmute_all(self, table: Table) -> None:
        for user in list(table.data.get("muted", [])):
            await self._mute(table, user, mute=False)
        table.data["muted"] = []
        cat = await self._cat(table.chat)
        for user in list(table.data.get("removed", [])):
            await self._timeout(table, user, None, cat.text("dc-timeout-lifted", game=table.game_id or 0,
                                                            seat=table.seat_of(user) or 0))
        table.data["removed"] = []
        await self._save(table, "data")

    # --- the end ----------------------------------------------------------------------------------
    async def _finish(self, table: Table, outcome: Outcome, lines: list[str]) -> None:
        """The result (F24 §1.4) with the roles, the mutes lifted, the club told, the protocol;
        the table is stored as over last (nothing resumes a table that is over: a process that
        dies before does it all again at the restart)."""
        cat = await self._cat(table.chat)
        text = "\n".join([*lines, "", result_text(outcome.state, cat)]).strip()
        await self._post(table.chat, text)
        await self._unmute_all(table)
        club = await self._club(table)
        if club is not None:
            await self._post(club, cat.text("dc-club-result", game=outcome.game_id,
                                            channel=mention_channel(table.chat))
                             + "\n" + result_text(outcome.state, cat))
        await self._send_protocol(table, outcome, [table.chat, *([club] if club else [])])
        table.step = None
        table.status = "over"
        await self._save(table, "step", "status")

    async def _stop(self, table: Table, who: str) -> None:
        cat = await self._cat(table.chat)
        self._cancel(table)
        if table.status == "running":
            current = await self.service.current(table.chat)
            step = table.step
            if current is not None and step is not None and step.message is not None:
                await self._edit(table.chat, step.message,
                                 self._step_text(table, step, current.state, cat, closed=True), None)
            table.data["stopped_by"] = who  # a restart after the abandon finishes the stop
            await self._save(table, "data")
            try:
                await self.service.abandon(table.chat, self.bot_key)
            except ServiceError as error:
                log.info("host: table %s: %s", table.id, error)
        elif table.lobby_message is not None:
            await self._edit(table.chat, table.lobby_message, cat.text("host-lobby-closed"), None)
        await self._stopped(table, who)

    async def _stopped(self, table: Table, who: str) -> None:
        """The end of a stop (its game abandoned, if it had one): the mutes lifted, the table
        stored as stopped, the channel told."""
        await self._unmute_all(table)
        table.step = None
        table.status = "stopped"
        await self._save(table, "step", "status")
        cat = await self._cat(table.chat)
        await self._post(table.chat, cat.text("host-stopped", who=who))

    # --- the club channel and the protocol ----------------------------------------------------------
    async def _club(self, table: Table) -> str | None:
        linked = await self.service.store.host_channel(table.chat)
        return linked[0] if linked is not None and is_discord(linked[0]) and linked[0] != table.chat else None

    async def _to_club(self, table: Table, text: str) -> None:
        club = await self._club(table)
        if club is not None:
            await self._post(club, text)

    async def _set_channel(self, interaction: discord.Interaction[Any], home: str, args: list[str]) -> list[str]:
        cat = await self._cat(home)
        if not interaction.permissions.manage_channels:
            return [cat.text("dc-host-channel-admin-only")]
        if not args:
            linked = await self.service.store.host_channel(home)
            return [cat.text("dc-host-channel-usage") if linked is None
                    else cat.text("dc-host-channel-is", channel=mention_channel(linked[0]))]
        if args[0] == "off":
            await self.service.store.set_host_channel(home, None)
            return [cat.text("host-channel-unlinked")]
        club = chat_key(int(args[0]))
        if club == home:
            await self.service.store.set_host_channel(home, None)
            return [cat.text("dc-link-self")]
        sent = await self._post(club, cat.text("dc-host-club-linked", channel=mention_channel(home)))
        if sent is None:
            return [cat.text("dc-link-cannot-post", channel=mention_channel(club),
                             rights=rights_text(["view_channel", "send_messages", "attach_files"], cat))]
        await self.service.store.set_host_channel(home, club, mention_channel(club))
        return [cat.text("dc-linked", channel=mention_channel(club))]

    async def _protocol(self, home: str) -> list[str]:
        cat = await self._cat(home)
        table = await self._table_of(home, "over")
        current = await self.service.current(home)
        if table is None or current is None or current.game_id != table.game_id:
            return [cat.text("host-protocol-none")]
        await self._send_protocol(table, current, [home])
        return [cat.text("dc-done-host")]

    async def _send_protocol(self, table: Table, outcome: Outcome, chats: list[str]) -> None:
        """The score sheet (PNG) and our JSON, with the adapter's protocol builder."""
        cat = await self._cat(table.chat)
        files, problems = await self.referee._protocol_files(table.chat, outcome, cat)
        if not files and not problems:
            return
        for chat in chats:
            text = "\n".join([cat.text("dc-protocol", game=outcome.game_id), *problems])
            await self.referee._send(self._channel(chat), text,
                                     files=[discord.File(io.BytesIO(d), n) for n, d in files])

    # --- presses ----------------------------------------------------------------------------
    async def on_press(self, interaction: discord.Interaction[Any], custom_id: str) -> None:
        press = vw.decode(custom_id)
        table = await self._load(press.table) if press is not None else None
        if press is None or table is None:
            cat = await self.referee.guild_cat(interaction.guild_id)
            await self._answer(interaction, cat.text("host-outdated"))
            return
        async with self.referee._lock(table.chat):
            try:
                await self._pressed(interaction, table, press)
            except _Refusal as error:
                await self._answer(interaction, error_text(error, await self._cat(table.chat)))
            except ValueError:
                await self._answer(interaction, (await self._cat(table.chat)).text("host-outdated"))

    async def _pressed(self, interaction: discord.Interaction[Any], table: Table, press: vw.HostPress) -> None:
        cat = await self._cat(table.chat)
        user = user_key(interaction.user.id)
        if press.action in (vw.JOIN, vw.LEAVE):
            if table.status != "lobby":
                await self._answer(interaction, cat.text("host-outdated"))
            elif press.action == vw.JOIN:
                await self._join(interaction, table)
            else:
                await self._leave(interaction, table)
            return
        seat = table.seat_of(user)
        if seat is None:  # not at this table: refused, nothing changes
            await self._answer(interaction, cat.text("host-not-player"))
            return
        step = table.step
        if table.status != "running" or step is None or step.no != press.step:
            await self._answer(interaction, cat.text("host-outdated"))
            return
        current = await self.service.current(table.chat)
        assert current is not None
        state = current.state
        if st.plan(state, table.spec.options).key != step.key:  # the step outlived its turn
            await self._answer(interaction, cat.text("host-outdated"))
            await self._advance(table, current, [])
            return
        if press.action in (vw.PASS, vw.NOM_VIEW, vw.BACK, vw.NOMINATE):
            await self._speaker_press(interaction, table, step, state, seat, press)
        elif press.action == vw.HAND:
            await self._hand(interaction, table, step, state, seat)
        elif press.action in (vw.SHOOT, vw.CHECK, vw.BEST):
            await self._night_press(interaction, table, step, state, seat, press)
        else:
            await self._answer(interaction, cat.text("host-outdated"))

    async def _speaker_press(self, interaction: discord.Interaction[Any], table: Table, step: Step,
                             state: rules.GameState, seat: int, press: vw.HostPress) -> None:
        cat = await self._cat(table.chat)
        if step.seat != seat or step.kind not in (*st.SPEAKING, "silenced"):
            await self._answer(interaction, cat.text("host-not-speaker"))
            return
        await self._active(table, step)
        if press.action == vw.PASS:
            await self._answer(interaction)
            await self._act_and_advance(table, rules.Next())
        elif press.action in (vw.NOM_VIEW, vw.BACK):
            step.view = "nominate" if press.action == vw.NOM_VIEW else ""
            await self._save(table, "step")
            await self._answer(interaction)
            await self._show(table, state)
        else:
            target = press.seat()
            if target is None:
                raise ValueError("no target")
            await self._act_and_advance(table, rules.Nominate(by=seat, target=target))
            await self._answer(interaction, cat.text("host-nominated", seat=seat_label(target, cat)))

    async def _hand(self, interaction: discord.Interaction[Any], table: Table, step: Step,
                    state: rules.GameState, seat: int) -> None:
        """A hand up or down in a nominee's window (F24 §4.4.5; seed 4.1.8, the engine says who
        may) or in the raise vote's (§4.4.12.3)."""
        cat = await self._cat(table.chat)
        if step.kind not in st.WINDOWS:
            await self._answer(interaction, cat.text("host-outdated"))
            return
        try:
            up = st.toggle_hand(state, step, seat)
        except rules.RuleError as refusal:
            await self._answer(interaction, error_text(refusal, cat))
            return
        await self._save(table, "step")
        await self._answer(interaction, cat.text("host-hand", up="yes" if up else "no", kind=step.kind,
                                                 seat=seat_label(step.seat, cat)))

    async def _night_press(self, interaction: discord.Interaction[Any], table: Table, step: Step,
                           state: rules.GameState, seat: int, press: vw.HostPress) -> None:
        """A shot, a check or a best-move seat, in direct messages; changeable until the step
        closes, applied then."""
        user = user_key(interaction.user.id)
        cat = await self._cat(table.chat)
        if not st.take_night_choice(state, step, seat, press.action, press.seat()):
            await self._answer(interaction, cat.text("host-outdated"))
            return
        await self._save(table, "step")
        await self._answer(interaction, cat.text("host-taken"))
        message_id = step.prompts.get(user)
        if message_id is not None:
            text, rows = vw.prompt(step, state, seat, table.id, cat)
            await self._edit(user, message_id, text, rows_view(rows), private=True)

    # --- messages -------------------------------------------------------------------------------
    async def on_message(self, message: discord.Message) -> None:
        """A member writes: in direct messages during night 0 a black's words go to the other
        blacks (F24 §4.2); in a hosted channel a seated player out of his minute is fouled
        (seed 4.1.1) and his message deleted where allowed."""
        author = message.author
        if author.bot:
            return
        who = user_key(author.id)
        if message.guild is None:
            for table in [t for t in self._tables.values() if t.status == "running" and t.seat_of(who)]:
                async with self.referee._lock(table.chat):
                    await self._relay(table, who, message.content or "")
            return
        chat = chat_key(message.channel.id)
        if await self.live(chat) is None:
            return
        async with self.referee._lock(chat):
            await self._channel_message(chat, who, message)

    async def _relay(self, table: Table, user: str, text: str) -> None:
        current = await self.service.current(table.chat)
        seat = table.seat_of(user)
        if current is None or seat is None or current.state.phase is not Phase.NIGHT_ZERO or not text:
            return
        blacks = st.blacks_at_table(current.state)
        if seat not in blacks:
            return
        cat = await self._cat(table.chat)
        for other in blacks:
            if other != seat and other in table.seats:
                await self._dm(table.seats[other], cat.text("host-relay", seat=seat_label(seat, cat), text=text))

    async def _channel_message(self, chat: str, user: str, message: discord.Message) -> None:
        table = await self._table_of(chat)
        if table is None or table.status != "running" or table.step is None:
            return
        seat = table.seat_of(user)
        if seat is None:
            return
        current = await self.service.current(chat)
        if current is None:
            return
        state = current.state
        plan = st.plan(state, table.spec.options)
        if plan.key != table.step.key:
            return
        if seat in st.writers(state, plan):
            await self._active(table, table.step)
            if message.content and st.is_pass(message.content):
                await self._act_and_advance(table, rules.Next())
            return
        if table.data.get("rights", {}).get("delete"):
            try:
                await message.delete()
            except discord.HTTPException as error:
                log.info("host: cannot delete %s: %s", message.id, error)
        reason = st.out_of_turn_reason(state, plan, seat)  # 4.1.1 by day, 4.2.6 at night
        if reason is not None:
            try:
                await self._act_and_advance(table, rules.Penalty(seat=seat, reason=reason))
            except rules.RuleError as error:
                log.info("host: no foul for %s: %s", seat, error)


__all__ = ["DiscordHost", "HostButton", "TABLE_SIZE", "is_ours", "rows_view"]
