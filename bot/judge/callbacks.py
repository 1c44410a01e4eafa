"""The callback-data codec of the judge's panel: ``"<game_id>:<revision>:<action>[:<arg>…]"``.

Every button carries the game and its revision (the number of rows in the game's log), so a press
from an older panel, or the second of two identical presses, is recognised as stale and changes
nothing (ARCHITECTURE.md, "The path of one press"). Telegram allows at most 64 bytes of callback
data: :func:`encode` asserts it.

    >>> encode(12, 40, "p", 5, "4.1.1")
    '12:40:p:5:4.1.1'
    >>> decode('12:40:p:5:4.1.1')
    Press(game_id=12, revision=40, action='p', args=('5', '4.1.1'))
"""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_BYTES = 64  # Bot API: InlineKeyboardButton.callback_data is 1-64 bytes

_TOKEN = re.compile(r"[A-Za-z0-9._+-]*")  # no ":" inside an argument
_NUMBER = re.compile(r"[0-9]{1,12}")


@dataclass(frozen=True)
class Press:
    """A decoded button press: which game, at which revision, what the button does."""

    game_id: int
    revision: int
    action: str
    args: tuple[str, ...] = ()

    def arg(self, index: int, default: str = "") -> str:
        return self.args[index] if index < len(self.args) else default

    def int_arg(self, index: int) -> int:
        """Argument ``index`` as an int; ``ValueError`` when it is missing or not a number."""
        value = self.arg(index)
        if not _NUMBER.fullmatch(value):
            raise ValueError(f"argument {index} of {self.action!r} is not a number: {value!r}")
        return int(value)


def encode(game_id: int, revision: int, action: str, *args: object) -> str:
    """The callback data of a button; asserts Telegram's 64-byte limit and the token alphabet."""
    parts = [str(game_id), str(revision), action, *(str(a) for a in args)]
    assert all(_TOKEN.fullmatch(p) for p in parts[2:]), parts
    data = ":".join(parts)
    assert len(data.encode("utf-8")) <= MAX_BYTES, data
    return data


def decode(data: str | None) -> Press | None:
    """The press encoded in ``data``, or ``None`` for anything this bot did not make."""
    if not data or len(data.encode("utf-8")) > MAX_BYTES:
        return None
    parts = data.split(":")
    if len(parts) < 3 or not _NUMBER.fullmatch(parts[0]) or not _NUMBER.fullmatch(parts[1]):
        return None
    if not parts[2] or not all(_TOKEN.fullmatch(p) for p in parts[2:]):
        return None
    return Press(int(parts[0]), int(parts[1]), parts[2], tuple(parts[3:]))
