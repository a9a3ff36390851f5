"""`loveletter openapi [--check]`: write api-spec/openapi.yaml, or check it is up to date."""

from __future__ import annotations

import argparse
import importlib.util
import sys
from pathlib import Path

from service import openapi
from service.cli.help import add_command


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the `openapi` command."""
    parser = add_command(
        subparsers,
        "openapi",
        summary="generate (or --check) api-spec/openapi.yaml",
        description="Write the OpenAPI document the code generates (routes, schemas, examples)"
        " as YAML, or check that the file is up to date. A developer's command: it needs the"
        " dev extra (PyYAML).",
        examples=("loveletter openapi", "loveletter openapi --check"),
    )
    parser.add_argument("--check", action="store_true", help="exit 1 if the file is out of date")
    parser.add_argument("--output", type=Path, default=openapi.SPEC_PATH, help="the YAML file")
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Write the document, or compare it with the file."""
    if importlib.util.find_spec("yaml") is None:
        print("loveletter openapi needs PyYAML, in the dev set: pip install -r"
              " requirements-dev.txt", file=sys.stderr)  # fmt: skip
        return 2
    if args.check:
        if openapi.drift(args.output):
            print(f"{args.output} is out of date: run `loveletter openapi`", file=sys.stderr)
            return 1
        print(f"{args.output} is up to date")
        return 0
    openapi.write(args.output)
    print(f"wrote {args.output}")
    return 0
