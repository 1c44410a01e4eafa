"""The judge's panel as Discord sees it: an embed and a ``discord.ui.View`` of buttons.

The panel itself — its text, and which buttons the rules call for now — is built by
:func:`bot.judge.panel.render_panel`, shared with Telegram; nothing about the game is decided
here. This module only fits it into Discord's limits:

* at most 5 buttons in a row and 5 rows in a message (Telegram has neither limit): a row of hand
  counts wider than 5 is re-flowed with the rows of the same action after it (0–4, 5–9, 10), and
  while more than 5 rows remain the two neighbours with the fewest buttons between them are joined;
* a ``custom_id`` is unique within a message and at most 100 characters (the shared codec keeps
  it within 64 bytes: ``"<game_id>:<revision>:<action>[:<arg>…]"``); the inert "·" buttons of
  departed seats, identical on Telegram, get a distinguishing last argument and are disabled;
* an embed's description holds 4096 characters (a message's text only 2000).

A press is dispatched by :class:`PanelButton`, a ``discord.ui.DynamicItem`` registered once with
the client: it matches any custom_id of this shape, so a panel sent before a restart still works.
"""

from __future__ import annotations

import logging
import re
from typing import Any, Sequence

import discord

from ..judge import panel as pn
from ..judge.callbacks import decode

log = logging.getLogger(__name__)

MAX_ROW = 5  # buttons in an action row
MAX_ROWS = 5  # action rows in a message
MAX_BUTTONS = MAX_ROW * MAX_ROWS
MAX_LABEL = 80  # characters of a button's label
MAX_CUSTOM_ID = 100
MAX_DESCRIPTION = 4096  # characters of an embed's description
PANEL_COLOUR = 0x8B1E2D

TEMPLATE = r"[0-9]{1,12}:[0-9]{1,12}:[A-Za-z0-9._+-]+(?::[A-Za-z0-9._+-]*)*"

_STYLES: dict[str, discord.ButtonStyle] = {
    pn.NEXT: discord.ButtonStyle.primary,
    pn.START: discord.ButtonStyle.success,
    pn.ROLES: discord.ButtonStyle.success,
    pn.BEST_MOVE: discord.ButtonStyle.success,
    pn.RESULT: discord.ButtonStyle.success,
    pn.NEW: discord.ButtonStyle.success,
    pn.PENALTY: discord.ButtonStyle.danger,
    pn.KILL: discord.ButtonStyle.danger,
}


def _action(button: pn.Button) -> str:
    press = decode(button.data)
    return press.action if press is not None else ""


def fit_rows(rows: Sequence[Sequence[pn.Button]]) -> list[list[pn.Button]]:
    """The panel's rows within Discord's 5×5 grid, in the same order. More than 25 buttons
    cannot be shown: the last ones are dropped (no panel of the shared builder has that many)."""
    out: list[list[pn.Button]] = []
    index = 0
    given = [list(r) for r in rows if r]
    while index < len(given):
        row = given[index]
        index += 1
        if len(row) <= MAX_ROW:
            out.append(row)
            continue
        action = _action(row[0])
        run = list(row)  # a wide grid (hand counts): re-flow it with its continuation rows
        while index < len(given) and all(_action(b) == action for b in given[index]):
            run.extend(given[index])
            index += 1
        out.extend(run[i:i + MAX_ROW] for i in range(0, len(run), MAX_ROW))
    while len(out) > MAX_ROWS:
        pairs = [(len(out[i]) + len(out[i + 1]), i) for i in range(len(out) - 1)
                 if len(out[i]) + len(out[i + 1]) <= MAX_ROW]
        if not pairs:
            flat = [b for r in out for b in r]
            if len(flat) > MAX_BUTTONS:
                log.error("a panel of %d buttons: %d dropped", len(flat), len(flat) - MAX_BUTTONS)
            out = [flat[i:i + MAX_ROW] for i in range(0, min(len(flat), MAX_BUTTONS), MAX_ROW)]
            break
        _, i = min(pairs)
        out[i:i + 2] = [out[i] + out[i + 1]]
    return out


def custom_ids(buttons: Sequence[pn.Button]) -> list[str]:
    """A unique custom_id per button: a repeated inert "·" gets its position as an argument (its
    press does nothing anyway); any other repeat is a bug of the builder and is logged."""
    seen: set[str] = set()
    out: list[str] = []
    for position, button in enumerate(buttons):
        data = button.data
        if data in seen:
            if _action(button) != pn.INERT:
                log.error("two panel buttons carry %r", data)
            data = f"{data}:{position}"
        seen.add(data)
        assert len(data) <= MAX_CUSTOM_ID, data
        out.append(data)
    return out


class PanelButton(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEMPLATE):
    """One button of a judge's panel. ``discord.py`` rebuilds it from any matching custom_id
    (after a restart too) and calls :meth:`callback`, which hands the press to the adapter."""

    def __init__(self, button: discord.ui.Button[Any]) -> None:
        super().__init__(button)

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction[Any], item: discord.ui.Item[Any],
                             match: re.Match[str], /) -> "PanelButton":
        assert isinstance(item, discord.ui.Button)
        return cls(discord.ui.Button(label=item.label, custom_id=item.custom_id, style=item.style,
                                     disabled=item.disabled))

    async def callback(self, interaction: discord.Interaction[Any]) -> None:  # type: ignore[override]
        referee = getattr(interaction.client, "referee", None)
        if referee is None or self.item.custom_id is None:
            return
        await referee.guarded(interaction, referee.on_press(interaction, self.item.custom_id))


_PATTERN = re.compile(TEMPLATE)


def is_ours(custom_id: str) -> bool:
    """Whether a custom_id has the panel's shape (and so is this bot's)."""
    return _PATTERN.fullmatch(custom_id) is not None


def custom_ids_of(message: discord.Message) -> set[str]:
    """The custom_ids of a message's buttons as Discord sent them."""
    out: set[str] = set()
    for row in message.components:
        for child in getattr(row, "children", [row]):
            custom_id = getattr(child, "custom_id", None)
            if custom_id:
                out.add(custom_id)
    return out


def panel_view(panel: pn.Panel) -> discord.ui.View:
    """The panel's buttons as a persistent view (no timeout: the custom_id carries the state)."""
    view = discord.ui.View(timeout=None)
    rows = fit_rows(panel.rows)
    ids = custom_ids([b for row in rows for b in row])
    position = 0
    for number, row in enumerate(rows):
        for button in row:
            action = _action(button)
            item: discord.ui.Button[Any] = discord.ui.Button(
                label=(button.label or "·")[:MAX_LABEL], custom_id=ids[position],
                style=_STYLES.get(action, discord.ButtonStyle.secondary),
                disabled=action == pn.INERT)
            view.add_item(_placed(item, number))
            position += 1
    return view


def _placed(item: discord.ui.Button[Any], row: int) -> PanelButton:
    placed = PanelButton(item)
    placed.row = row
    return placed


def panel_embed(panel: pn.Panel, title: str) -> discord.Embed:
    text = panel.text
    if len(text) > MAX_DESCRIPTION:
        text = text[:MAX_DESCRIPTION - 1] + "…"
    return discord.Embed(title=title, description=text, colour=PANEL_COLOUR)
