"""A game state as JSON, for the store's snapshots of a folded log (issue 16: a cold load or a
deep undo replays a bounded tail, not the whole log).

:func:`state_to_dict` / :func:`state_from_dict` turn a :class:`~rules.state.GameState` (without
its config, which the game's row holds) into JSON-ready values and back, field by field from the
dataclasses' own type hints, so that a field added to the state is carried without code here.

A snapshot is only as good as the code that folded it: :data:`VERSION` names the format and the
rules engine's source (a hash of ``rules/*.py``), and a snapshot written under another version is
never used — the log is folded instead. Any change to the engine thus retires every stored
snapshot safely, at the price of one full fold per game.

A snapshot is only as good as the log under it, too (issue 32): it carries a digest of the log
rows it folds (:func:`payload`: SHA-256 over each row's text, :func:`event_text`, in order), so
that a log edited by hand under it — which a cold load from the snapshot would never read — is
noticed when the game is loaded (:func:`unpack`; the service sets such a game aside), not when
its protocol is drawn from the log at the end.
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import json
import types
import typing
from decimal import Decimal
from functools import cache
from pathlib import Path
from typing import Any, Iterable, Mapping

from .config import RulesConfig
from .state import GameState

FORMAT = 2  # 2: the state with the digest of the log under it (:func:`payload`)


@cache
def version() -> str:
    """The snapshot version of this code: ``"<format>:<hash of the engine's source>"``."""
    digest = hashlib.sha256()
    for path in sorted(Path(__file__).parent.glob("*.py")):
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return f"{FORMAT}:{digest.hexdigest()[:16]}"


def event_text(event: Mapping[str, Any]) -> str:
    """The text of a log row holding ``event`` (:func:`rules.to_dict`'s): compact JSON, keys
    sorted, as the stores write it (``storage.store``; a test keeps the two the same)."""
    return json.dumps(dict(event), ensure_ascii=False, sort_keys=True, separators=(",", ":"))


def log_digest(texts: Iterable[str], start: Any = None) -> Any:
    """The running digest of a log's rows (their texts, in order): a SHA-256 object, fed on
    from ``start`` (one such object, left as it was) or from the empty log."""
    digest = start.copy() if start is not None else hashlib.sha256()
    for text in texts:
        digest.update(text.encode("utf-8"))
        digest.update(b"\n")
    return digest


def payload(state: GameState, digest: str) -> dict[str, Any]:
    """What a snapshot stores: the state (:func:`state_to_dict`) and ``digest``, the hex digest
    of the log rows it folds (:func:`log_digest`)."""
    return {"state": state_to_dict(state), "log": digest}


def unpack(data: Any) -> tuple[dict[str, Any], str]:
    """A stored snapshot's state (for :func:`state_from_dict`) and the digest of the log under
    it. Raises ``ValueError`` for anything else (another format)."""
    if not isinstance(data, dict) or not isinstance(data.get("state"), dict) \
            or not isinstance(data.get("log"), str):
        raise ValueError("not a snapshot of this format")
    return data["state"], data["log"]


def state_to_dict(state: GameState) -> dict[str, Any]:
    """The state as JSON-ready values (its ``config`` left out)."""
    return {f.name: _encode(getattr(state, f.name)) for f in dataclasses.fields(state)
            if f.name != "config"}


def state_from_dict(config: RulesConfig, data: dict[str, Any]) -> GameState:
    """Inverse of :func:`state_to_dict` under ``config``. Raises ``ValueError`` (or
    ``TypeError``/``KeyError``) for data that is not a state of this code's shape."""
    return _decode_dataclass(GameState, data, config=config)


_PLAIN = frozenset({str, int, float, bool, type(None)})  # exactly these types: as they are


@cache
def _field_names(kind: type) -> tuple[str, ...] | None:
    """The fields of a dataclass type, ``None`` for any other type (looked up once per type:
    a snapshot encodes a few hundred values)."""
    if dataclasses.is_dataclass(kind):
        return tuple(f.name for f in dataclasses.fields(kind))
    return None


def _encode(value: Any) -> Any:
    kind = type(value)
    if kind in _PLAIN:
        return value
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, Decimal):  # points (F24 §8): exact, as text
        return str(value)
    names = _field_names(kind)
    if names is not None:
        return {name: _encode(getattr(value, name)) for name in names}
    if isinstance(value, (list, tuple)):
        return [_encode(v) for v in value]
    if isinstance(value, dict):  # keys are seats or days (ints): JSON objects would make them text
        return [[_encode(k), _encode(v)] for k, v in value.items()]
    return value


@cache
def _hints(cls: type) -> dict[str, Any]:
    return typing.get_type_hints(cls)


def _decode_dataclass(cls: type, data: dict[str, Any], **given: Any) -> Any:
    fields = _fields(cls)
    values = dict(given)
    for name, decode in fields:
        if name not in given:
            values[name] = decode(data[name])
    return cls(**values)


@cache
def _fields(cls: type) -> tuple[tuple[str, Any], ...]:
    """Each init field of the dataclass with its decoder."""
    hints = typing.get_type_hints(cls)
    return tuple((f.name, _decoder(hints[f.name])) for f in dataclasses.fields(cls) if f.init)


def _plain(kind: type) -> Any:
    def decode(value: Any) -> Any:
        if type(value) is not kind and not (kind is float and type(value) is int):
            raise ValueError(f"expected {kind.__name__}, got {value!r}")
        return value
    return decode


def _decimal(value: Any) -> Decimal:
    if type(value) is not str:
        raise ValueError(f"expected a decimal as text, got {value!r}")
    return Decimal(value)


@cache
def _decoder(hint: Any) -> Any:
    """A function that decodes the JSON form of a value of type ``hint`` (built once per type:
    a cold load decodes a snapshot in a fraction of a millisecond)."""
    origin = typing.get_origin(hint)
    args = typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        (inner,) = [a for a in args if a is not type(None)]
        some = _decoder(inner)
        return lambda v: None if v is None else some(v)
    if origin is list:
        item = _decoder(args[0])
        return lambda v: [item(x) for x in v]
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            item = _decoder(args[0])
            return lambda v: tuple(item(x) for x in v)
        items = tuple(_decoder(a) for a in args)

        def fixed(v: Any) -> Any:
            if len(v) != len(items):
                raise ValueError(f"expected {len(items)} values, got {v!r}")
            return tuple(d(x) for d, x in zip(items, v))
        return fixed
    if origin is dict:
        key, val = _decoder(args[0]), _decoder(args[1])
        return lambda v: {key(k): val(x) for k, x in v}
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return hint
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return lambda v: _decode_dataclass(hint, v)
    if hint in (int, str, bool, float):
        return _plain(hint)
    if hint is Decimal:
        return _decimal
    raise TypeError(f"no snapshot decoding for {hint!r}")
