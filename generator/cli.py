"""The chatspec command: the only part of the toolkit that writes files."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from generator.core import discover, generate
from generator.errors import SpecError
from generator.options import load_options
from generator.write import unified_diff, write_tree


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="chatspec", description="Compile chat-format specs to Python, JSON Schema and docs.")
    parser.add_argument("--root", type=Path, default=Path("."), help="project root holding specs/ and generated/ (default: .)")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("generate", help="write generated/ from specs/ (only changed files)")
    sub.add_parser("check", help="exit 1 with a diff when generated/ is stale")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    root: Path = args.root
    try:
        files = generate(discover(root / "specs", root), options=load_options(root))
    except SpecError as exc:
        print(f"chatspec: {exc}", file=sys.stderr)
        return 2
    out = root / "generated"
    if args.command == "check":
        diff = unified_diff(out, files)
        if diff:
            sys.stdout.write(diff)
            print("chatspec: generated/ is stale; run `make generate` and commit the result", file=sys.stderr)
            return 1
        print("chatspec: generated/ is up to date")
        return 0
    written, removed = write_tree(out, files)
    for path in written:
        print(f"wrote generated/{path}")
    for path in removed:
        print(f"removed generated/{path}")
    if not written and not removed:
        print("chatspec: generated/ is up to date")
    return 0
