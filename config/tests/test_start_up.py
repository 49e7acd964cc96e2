"""A worker's start-up objects are frozen out of the garbage collector's sight (config/apps.py, freeze_start_up)."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# A fresh interpreter loads the site as a gunicorn worker does, then says how many objects are frozen and how many
# the collector still walks.
PROBE = """
import gc
import config.wsgi
print(gc.get_freeze_count(), len(gc.get_objects()))
"""


def test_a_worker_freezes_what_it_loaded_to_start():
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings_test"}
    result = subprocess.run(
        [sys.executable, "-c", PROBE],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=120,
    )
    frozen, walked = map(int, result.stdout.split()[-2:])
    # Django, the apps and the URLs are tens of thousands of objects; a full collection walks only what came after.
    assert frozen > 50_000
    assert walked < frozen / 10
