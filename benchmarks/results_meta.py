"""What every benchmark's results file records about the run: the code, the date, the machine's load.

``meta()`` -> ``{"commit": "aefdbd8...", "dirty": False, "date": "2026-12-01T21:30:00Z",
"load_average": [1.2, 0.9, 0.8], "cores": 2, "python": "3.11.7"}``. ``write(name, data)`` saves
``data`` with that record as ``benchmarks/results/NAME.json``; ``benchmarks/tables.py`` turns
the files into the READMEs' tables.
"""
from __future__ import annotations

import datetime
import json
import os
import platform
import subprocess
from pathlib import Path

RESULTS = Path(__file__).with_name("results")
ROOT = Path(__file__).resolve().parents[1]


def _git(*args: str) -> str:
    try:
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return ""


def meta() -> dict:
    """The run's record: commit (and whether library code was uncommitted), UTC date, load average, cores."""
    dirty = bool(_git("status", "--porcelain", "--", "ctxlib"))
    return {"commit": _git("rev-parse", "HEAD"), "dirty": dirty,
            "date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "load_average": [round(x, 2) for x in os.getloadavg()], "cores": os.cpu_count(),
            "python": platform.python_version()}


def write(name: str, data: dict, started_meta: dict | None = None) -> Path:
    """Save ``data`` plus ``meta()`` (the load at the start, ``started_meta``, and at the end) as ``results/NAME.json``."""
    RESULTS.mkdir(exist_ok=True)
    end = meta()
    record = {"meta": dict(started_meta or end, load_average_at_end=end["load_average"]), **data}
    path = RESULTS / f"{name}.json"
    path.write_text(json.dumps(record, indent=1, sort_keys=False) + "\n")
    return path
