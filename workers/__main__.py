"""`python -m workers worker ...`: RQ's own command line, in this service's structured logs.

RQ's per-job lines (started, succeeded, result kept) come only with LOVELETTER_VERBOSE or an
explicit `--logging_level`; otherwise its workers log from WARNING.
"""

from __future__ import annotations

import sys

from rq.cli import main

from play import logs
from play.settings import Settings

settings = Settings.load()
logs.configure(settings)  # before RQ's, which then adds no handler of its own
if "--logging_level" not in sys.argv:
    sys.argv[2:2] = ["--logging_level", "INFO" if settings.verbose else "WARNING"]
main(prog_name="python -m workers")
