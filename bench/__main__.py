"""``python -m bench [--quick] [--games N] [--only engine,storage] [--json FILE]``: run the
measurements and print one table (progress goes to stderr). Not part of the tests: it never
fails because a target is missed; the exit status is 0 unless the bench itself broke."""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
import time
from pathlib import Path
from types import ModuleType
from typing import Sequence

from . import Section, as_json, eprint, load_average, machine, table

#: The sections, in the order they run: name -> module of this package (see bench/__init__.py).
SECTIONS: dict[str, str] = {
    "engine": "bench.engine",
    "storage": "bench.storage",
    "longlog": "bench.longlog",
    "club": "bench.club",
    "http": "bench.http",
    "e2e": "bench.e2e",
    "kill": "bench.kill",
    "scale": "bench.scale",
    "workers": "bench.workers",
    "web": "bench.web",
    "host": "bench.host",
}
#: Sections run only when named in ``--only`` (kill points take minutes: bench/kill.py; scale
#: and workers need a PostgreSQL server: bench/scale.py, bench/workers.py; web opens hundreds of
#: streams: bench/web.py; host mode's tick drives the tests' in-memory platform: bench/host.py).
OPT_IN = frozenset({"kill", "scale", "workers", "web", "host"})


def _modules() -> dict[str, ModuleType]:
    return {name: importlib.import_module(module) for name, module in SECTIONS.items()}


def _parser(modules: dict[str, ModuleType]) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m bench", description="Measure mafia-referee and print a table.")
    parser.add_argument("--quick", action="store_true",
                        help="small sizes and single passes: a check that the bench runs (seconds)")
    default = ",".join(name for name in modules if name not in OPT_IN)
    parser.add_argument("--only", default=default, metavar="NAMES",
                        help=f"comma-separated sections to run (default: {default}; "
                             f"also: {','.join(sorted(OPT_IN))})")
    parser.add_argument("--json", type=Path, default=None, metavar="FILE",
                        help="also write every figure to FILE as JSON")
    for name, module in modules.items():
        add = getattr(module, "add_arguments", None)
        if add is not None:
            add(parser.add_argument_group(name))
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    modules = _modules()
    args = _parser(modules).parse_args(argv)
    chosen = [name.strip() for name in args.only.split(",") if name.strip()]
    unknown = [name for name in chosen if name not in modules]
    if unknown:
        print(f"unknown section(s): {', '.join(unknown)}; known: {', '.join(modules)}", file=sys.stderr)
        return 2
    info = machine()
    sections: list[Section] = []
    started = time.perf_counter()
    for name in chosen:
        start = time.perf_counter()
        section = modules[name].run(args)
        section.seconds = time.perf_counter() - start
        eprint(f"{name}: {section.seconds:.1f} s")
        sections.append(section)
    total = time.perf_counter() - started
    info["load after"] = load_average(len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else 1)

    print("mafia-referee bench" + (" (--quick: small sizes, figures indicative only)" if args.quick else ""))
    for key, value in info.items():
        print(f"  {key:10} {value}")
    print("  ratio = figure / floor")
    print()
    print(table(sections))
    notes = [f"[{s.title}] {note}" for s in sections for note in s.notes]
    if notes:
        print()
        print("\n".join(notes))
    print()
    print(f"total {total:.1f} s (" + ", ".join(f"{s.title} {s.seconds:.1f} s" for s in sections) + ")")
    if args.json is not None:
        args.json.write_text(json.dumps(as_json(sections, info), ensure_ascii=False, indent=2) + "\n",
                             encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
