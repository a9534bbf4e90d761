"""tools/execute_notebooks.py saves a notebook that the room's learners can still read."""
import importlib.util
import os
import stat
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("execute_notebooks", ROOT / "tools" / "execute_notebooks.py")
execute_notebooks = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(execute_notebooks)


def test_a_reexecuted_notebook_keeps_the_usual_permissions_and_its_output(tmp_path, monkeypatch):
    # mkstemp's 0600 made a re-executed Lesson 3 unreadable to a learner's server, which copies the
    # lessons as the learner's own user: the room's sign-in test could not open Lesson 1 (session 41).
    monkeypatch.setenv("CTXLIB_PROGRESS", str(tmp_path / "progress.json"))
    path = tmp_path / "tiny.ipynb"
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell("print(6 * 7)")])
    path.write_text(nbformat.writes(nb) + "\n", encoding="utf-8")
    umask = os.umask(0o022)
    try:
        execute_notebooks.execute(path)
    finally:
        os.umask(umask)
    assert stat.S_IMODE(path.stat().st_mode) == 0o644
    saved = nbformat.read(path, as_version=4)
    assert saved.cells[0].outputs[0]["text"] == "42\n"
    assert path.read_text(encoding="utf-8").endswith("}\n") and not path.read_text(encoding="utf-8").endswith("\n\n")
