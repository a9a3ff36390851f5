"""`loveletter serve`: the API (gunicorn), RQ worker(s) and, without REDIS_URL, a local Redis."""

from __future__ import annotations

import argparse

from service.cli.help import add_command
from service.serve import ServeOptions, serve


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the `serve` command."""
    defaults = ServeOptions()
    parser = add_command(
        subparsers,
        "serve",
        summary="run the API, a worker and (if needed) Redis",
        description="Run the API under gunicorn, RQ worker(s) for bots, deadlines and webhooks"
        " and, when REDIS_URL is not set, a Redis server of its own with its data in"
        " LOVELETTER_DATA_DIR (default ./.loveletter). Logs go to stderr: JSON lines, or"
        " readable ones on a terminal; the banner is printed once everything is up. Ctrl-C"
        " stops everything.",
        examples=("loveletter serve", "loveletter serve --port 9000 --verbose"),
    )
    parser.add_argument("--port", type=int, default=defaults.port, help="HTTP port")
    parser.add_argument("--host", default=defaults.host, help="address to bind")
    parser.add_argument("--workers", type=int, default=defaults.workers,
                        help="gunicorn worker processes")  # fmt: skip
    parser.add_argument("--threads", type=int, default=defaults.threads,
                        help="threads per gthread worker")  # fmt: skip
    parser.add_argument("--rq-workers", type=int, default=defaults.rq_workers,
                        help="RQ worker processes (bots, deadlines)")  # fmt: skip
    parser.add_argument("--webhook-workers", type=int, default=defaults.webhook_workers,
                        help="RQ worker processes of webhook deliveries")  # fmt: skip
    parser.add_argument("--verbose", action="store_true",
                        help="also gunicorn's and RQ's own INFO lines (a few per job)")  # fmt: skip
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Serve until Ctrl-C / SIGTERM."""
    options = ServeOptions(
        host=args.host,
        port=args.port,
        workers=args.workers,
        threads=args.threads,
        rq_workers=args.rq_workers,
        webhook_workers=args.webhook_workers,
        verbose=args.verbose,
    )
    return serve(options)
