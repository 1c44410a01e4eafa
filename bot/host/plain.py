"""A dataclass of JSON values as a dict of its fields, copied (no other import: the host's
stored records, :class:`.steps.Step` and :class:`.port.TableFlags`, share it)."""

from __future__ import annotations

import dataclasses
from typing import Any


_CONTAINERS = (list, dict)


def json_copy(value: Any) -> Any:
    """``value`` (JSON: lists, dicts, numbers, strings, ``None``) copied: its lists and dicts
    new, the rest shared (immutable). A scalar inside is taken as it is, without a call (the
    table's last steps are 32 records of scalars)."""
    kind = type(value)
    if kind is list:
        return [json_copy(v) if type(v) in _CONTAINERS else v for v in value]
    if kind is dict:
        return {k: json_copy(v) if type(v) in _CONTAINERS else v for k, v in value.items()}
    return value


def plain(obj: Any, *, copied: bool = True) -> dict[str, Any]:
    """``dataclasses.asdict(obj)`` for a dataclass whose fields hold JSON values (an enum left as
    it is): each field copied by :func:`json_copy`, no dataclass walked — 8-10× cheaper, and
    a table's flags and step are written at every step (issue 34). ``copied=False``: the
    fields themselves, for a JSON text made from them at once (a store's write, which
    serialises them before it returns), never to keep."""
    if not copied:
        return {f.name: getattr(obj, f.name) for f in dataclasses.fields(obj)}
    return {f.name: json_copy(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
