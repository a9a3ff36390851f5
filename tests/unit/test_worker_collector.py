"""A gunicorn worker collects garbage as GC_THRESHOLDS says, with the app's objects frozen."""

import json
import subprocess
import sys

from service.gunicorn_conf import GC_THRESHOLDS

WORKER_STARTS = """
import gc, json, types
from service import gunicorn_conf
before = gc.get_threshold()
gunicorn_conf.post_worker_init(types.SimpleNamespace(alive=False, wsgi=None))
print(json.dumps({"before": before, "after": gc.get_threshold(), "frozen": gc.get_freeze_count()}))
"""


def test_a_worker_collects_young_objects_less_often_and_freezes_the_app() -> None:
    """Run in a process of its own: the thresholds and the frozen objects are process-wide."""
    found = json.loads(subprocess.check_output([sys.executable, "-c", WORKER_STARTS], text=True))
    assert tuple(found["before"]) != GC_THRESHOLDS  # CPython's own, until the worker starts
    assert tuple(found["after"]) == GC_THRESHOLDS
    assert found["frozen"] > 1000  # the imported modules' objects
