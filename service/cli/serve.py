"""`loveletter serve`: the API (gunicorn), RQ worker(s) and, without REDIS_URL, a local Redis."""

from __future__ import annotations

import argparse

from service.serve import ServeOptions, serve


def register(subparsers: argparse._SubParsersAction) -> None:
    """Add the `serve` command."""
    defaults = ServeOptions()
    parser = subparsers.add_parser("serve", help="run the API, a worker and (if needed) Redis")
    parser.add_argument("--port", type=int, default=defaults.port, help="HTTP port (8000)")
    parser.add_argument("--host", default=defaults.host, help="address to bind (127.0.0.1)")
    parser.add_argument("--workers", type=int, default=defaults.workers,
                        help=f"gunicorn worker processes ({defaults.workers})")  # fmt: skip
    parser.add_argument("--threads", type=int, default=defaults.threads,
                        help=f"threads per gthread worker ({defaults.threads})")  # fmt: skip
    parser.add_argument("--rq-workers", type=int, default=defaults.rq_workers,
                        help="RQ worker processes (1)")  # fmt: skip
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Serve until Ctrl-C / SIGTERM."""
    options = ServeOptions(
        host=args.host,
        port=args.port,
        workers=args.workers,
        threads=args.threads,
        rq_workers=args.rq_workers,
    )
    return serve(options)
