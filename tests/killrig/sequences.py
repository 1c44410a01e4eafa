"""Announcements after kills against the reference: nothing lost, nothing out of order, and a
message repeated only when a kill cut its send (the outbox marks a row sent after its send
returns, so a process killed during that one send sends it again at the next start — at least
once, ENGINEERING.md §1)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, Sequence


class Sent(Protocol):
    text: str | None
    life: int  # which life of the bot process sent it (0: the first)


@dataclass(frozen=True)
class Said:
    """A message's text as compared (normalised), and the life of the bot that sent it."""

    text: str
    life: int


def compare_announcements(got: Sequence[Sent], want: Sequence[str]) -> tuple[list[str], int, int]:
    """Walk the messages a chat got against the reference's texts. Returns (errors, allowed
    repeats, repeats beyond the allowance). A repeat is allowed when it follows its first copy
    directly, the two were sent by different lives of the bot (a kill fell between them: by
    life, not by clock, since a request the dying process had written may be read after the
    kill), and that kill has not excused another repeat in this chat already."""
    errors: list[str] = []
    repeats = beyond = 0
    used: set[int] = set()
    i = j = 0
    while i < len(got):
        text = got[i].text or ""
        if j < len(want) and text == want[j]:
            i += 1
            j += 1
            continue
        if i > 0 and text == (got[i - 1].text or ""):
            free = [k for k in range(got[i - 1].life, got[i].life) if k not in used]
            if free:
                used.add(free[0])
                repeats += 1
            else:
                beyond += 1
                errors.append(f"message {i} repeated with no kill to excuse it: {text[:80]!r}")
            i += 1
            continue
        expected = want[j][:80] if j < len(want) else "(nothing more)"
        errors.append(f"message {i} is {text[:80]!r}, the reference has {expected!r} "
                      f"(lost or out of order)")
        return errors, repeats, beyond
    if j < len(want):
        errors.append(f"{len(want) - j} message(s) lost, first: {want[j][:80]!r}")
    return errors, repeats, beyond
