"""How a member fills the bot's slash-command forms for a typed line (``/vote 7 1,2,3`` →
``/vote nominee:7 hands:1,2,3``): the command and its options, as Discord's client sends them.
Used by the tests that play a typed script through Discord and by the kill rig's Discord judges."""

from __future__ import annotations

from typing import Any

_TEAM = {"red", "black", "красные", "чёрные", "черные"}
_ALIASES = {"n": "next", "pass": "next", "nom": "nominate", "bm": "bestmove", "f": "foul", "u": "undo"}


def slash_options(text: str) -> tuple[str, dict[str, Any]]:
    """A typed line as a member fills Discord's form for it: the command and its options."""
    name, *args = text.strip().lstrip("/").split()
    name = _ALIASES.get(name.lower(), name.lower())
    rest = " ".join(args)
    if name == "new":
        preset = args[0] if args and "=" not in args[0] else None
        options = " ".join(args[1:] if preset else args)
        return name, {"preset": preset, "options": options or None}
    if name == "newgame":
        return name, {"options": rest or None}
    if name == "name":
        return name, {"seat": int(args[0]), "name": " ".join(args[1:])}
    if name in ("roles", "shots"):
        return name, {name: rest}
    if name == "nominate":
        return name, ({"by": int(args[0]), "target": int(args[1])} if len(args) == 2
                      else {"target": int(args[0])})
    if name == "vote":
        return name, {"nominee": int(args[0]), "hands": " ".join(args[1:])}
    if name == "raise":
        return name, {"hands": rest}
    if name in ("kill", "don", "sheriff", "unfoul"):
        return name, {"seat": int(args[0])}
    if name == "bestmove":
        return name, {"seats": rest}
    if name in ("foul", "warn", "dq", "ppk"):
        options: dict[str, Any] = {"seat": int(args[0])}
        for arg in args[1:]:
            if name == "ppk" and arg.lower() in _TEAM:
                options["team"] = "red" if arg.lower() in ("red", "красные") else "black"
            else:
                options["reason"] = arg
        return name, options
    if name == "result":
        return name, {"winner": args[0] if args else None}
    if name == "undo":
        return name, {"steps": int(args[0]) if args else None}
    assert not args, text
    return name, {}
