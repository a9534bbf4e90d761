#!/usr/bin/env python3
"""Re-execute lesson notebooks top to bottom in a fresh kernel and save them with outputs.

    python tools/execute_notebooks.py [PATH ...]     (default: lessons; a folder means every .ipynb in it)

Why not ``jupyter nbconvert --execute``: nbclient's default imitates the ipywidgets Output
widget, so a line printed by an ``interact`` callback is saved only inside the widget state,
not in the cell's outputs; nbval then sees an output the notebook does not have and fails.
With ``widget_registry = {}`` the printed line is saved as ordinary stdout, so nbval checks it.
Each notebook is written atomically (``safefile.write_atomically``: a temporary file, then a rename,
with the usual permissions: the room's learners copy the lessons as their own users).
"""
from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import nbformat
from nbclient import NotebookClient

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from ctxlib import safefile  # noqa: E402


def execute(path: Path) -> None:
    # The quick-check cells record attempts; keep a maintainer's run out of their own progress file.
    os.environ["CTXLIB_PROGRESS"] = os.path.join(tempfile.mkdtemp(prefix="ctxlib-nb-"), "progress.json")
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(nb, timeout=600, kernel_name="python3",
                            resources={"metadata": {"path": str(path.parent)}})
    client.widget_registry = {}
    client.execute()
    # safefile's atomic write keeps the usual permissions: mkstemp's 0600 left a re-executed lesson
    # unreadable to the room's learners, whose servers copy the lessons as their own users.
    text = nbformat.writes(nb)
    safefile.write_atomically(path, text if text.endswith("\n") else text + "\n")  # as nbformat.write ends it


def main(args: list[str]) -> int:
    paths = []
    for arg in args or ["lessons"]:
        p = Path(arg)
        paths += sorted(p.rglob("*.ipynb")) if p.is_dir() else [p]
    for path in paths:
        if ".ipynb_checkpoints" in path.parts:
            continue
        print(f"executing {path}", flush=True)
        execute(path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
