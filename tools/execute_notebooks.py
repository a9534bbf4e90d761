#!/usr/bin/env python3
"""Re-execute lesson notebooks top to bottom in a fresh kernel and save them with outputs.

    python tools/execute_notebooks.py [PATH ...]     (default: lessons; a folder means every .ipynb in it)

Why not ``jupyter nbconvert --execute``: nbclient's default imitates the ipywidgets Output
widget, so a line printed by an ``interact`` callback is saved only inside the widget state,
not in the cell's outputs; nbval then sees an output the notebook does not have and fails.
With ``widget_registry = {}`` the printed line is saved as ordinary stdout, so nbval checks it.
Each notebook is written atomically (a temporary file, then a rename).
"""
from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

import nbformat
from nbclient import NotebookClient


def execute(path: Path) -> None:
    # The quick-check cells record attempts; keep a maintainer's run out of their own progress file.
    os.environ["CTXLIB_PROGRESS"] = os.path.join(tempfile.mkdtemp(prefix="ctxlib-nb-"), "progress.json")
    nb = nbformat.read(path, as_version=4)
    client = NotebookClient(nb, timeout=600, kernel_name="python3",
                            resources={"metadata": {"path": str(path.parent)}})
    client.widget_registry = {}
    client.execute()
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.stem}.", suffix=".ipynb")
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        nbformat.write(nb, out)
    os.replace(tmp, path)


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
