"""``python3 run.py refresh``: which notebooks it re-executes, and the chain's order, on a small copy."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tools"))

import refresh  # noqa: E402


def notebook(*sources) -> str:
    cells = [{"cell_type": "code", "source": s, "metadata": {}, "outputs": [], "execution_count": None}
             for s in sources]
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


FILES = {
    "ctxlib/__init__.py": '_EXPORTS = {"simulate": "transcript"}\n',
    "ctxlib/transcript.py": "from .ledger import TurnRecord\n",
    "ctxlib/ledger.py": "TurnRecord = tuple\n",
    "ctxlib/bm25.py": "def late():\n    from ctxlib import ledger\n",
    "ctxlib/course/shop/shop/vat.py": "RATE = 0.2\n",
    "ctxlib/locale/hi/LC_MESSAGES/ctxlib.po": 'msgid "tokens"\nmsgstr "tokens"\n',
    "quizzes/en/02_loop.json": "{}",
    "lessons/en/01_pack.ipynb": notebook('LANG = "en"', "from ctxlib.bm25 import late"),
    "lessons/hi/01_pack.ipynb": notebook('LANG = "hi"', "from ctxlib.bm25 import late"),
    "lessons/en/02_loop.ipynb": notebook('LANG = "en"', "%matplotlib inline\nfrom ctxlib import simulate"),
    "lessons/hi/02_loop.ipynb": notebook('LANG = "hi"', "%matplotlib inline\nfrom ctxlib import simulate"),
}
ONE = ["lessons/en/01_pack.ipynb", "lessons/hi/01_pack.ipynb"]
TWO = ["lessons/en/02_loop.ipynb", "lessons/hi/02_loop.ipynb"]


@pytest.fixture
def repo(tmp_path):
    for name, text in FILES.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    for args in (["init", "-q"], ["add", "-A"], ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "x"]):
        subprocess.run(["git", *args], cwd=tmp_path, check=True)
    return tmp_path


def touch(repo, name, text="changed\n"):
    path = repo / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(path.read_text(encoding="utf-8") + text if path.exists() and name.endswith(".py") else text,
                    encoding="utf-8")


def stale(repo):
    return refresh.stale_notebooks(repo, refresh.changed_files(repo))


def test_nothing_changed_nothing_is_stale(repo):
    assert stale(repo) == []


def test_a_changed_notebook_makes_both_twins_stale(repo):
    touch(repo, "lessons/hi/02_loop.ipynb", notebook('LANG = "hi"', "from ctxlib import simulate", "1 + 1"))
    assert stale(repo) == TWO


def test_a_module_imported_at_any_depth_counts_and_lazy_exports_are_followed(repo):
    touch(repo, "ctxlib/ledger.py")  # 02 reaches it via ctxlib._EXPORTS -> transcript; 01 via a late import in bm25
    assert stale(repo) == sorted(ONE + TWO)
    subprocess.run(["git", "checkout", "-q", "--", "ctxlib/ledger.py"], cwd=repo, check=True)
    touch(repo, "ctxlib/transcript.py")
    assert stale(repo) == TWO


def test_catalogs_quizzes_and_data_files(repo):
    touch(repo, "ctxlib/locale/hi/LC_MESSAGES/ctxlib.po", 'msgid "tokens"\nmsgstr "टोकन"\n')
    assert stale(repo) == ["lessons/hi/01_pack.ipynb", "lessons/hi/02_loop.ipynb"]
    touch(repo, "ctxlib/locale/ctxlib.pot", "# template\n")
    touch(repo, "ctxlib/locale/en/LC_MESSAGES/ctxlib.mo", "compiled again")
    assert stale(repo) == ["lessons/hi/01_pack.ipynb", "lessons/hi/02_loop.ipynb"]  # derived files add nothing
    subprocess.run(["git", "checkout", "-q", "--", "."], cwd=repo, check=True)
    touch(repo, "quizzes/hi/02_loop.json", "{}")  # untracked counts as changed
    assert stale(repo) == TWO
    touch(repo, "ctxlib/course/shop/shop/vat.py")  # the sample project is read as files
    assert stale(repo) == sorted(ONE + TWO)


def test_refresh_runs_catalogs_then_the_stale_notebooks_then_the_report(repo):
    touch(repo, "lessons/en/01_pack.ipynb", notebook('LANG = "en"', "from ctxlib.bm25 import late", "2"))
    calls, said = [], []
    status = refresh.refresh(repo, run_catalogs=lambda root: calls.append("catalogs") or 0,
                             run_notebooks=lambda root, nbs: calls.append(("execute", nbs)) or 0,
                             report=lambda root, nbs: calls.append(("report", nbs)) or [], say=said.append)
    assert status == 0
    assert calls == ["catalogs", ("execute", ONE), ("report", ONE)]
    assert said[-1] == "refresh: every figure test agrees with the saved outputs"
    mismatch = refresh.refresh(repo, run_catalogs=lambda root: 0, run_notebooks=lambda root, nbs: 0,
                               report=lambda root, nbs: ["tests/test_lesson1_outputs.py::test_x - 0.35 != 0.36"],
                               say=said.append)
    assert mismatch == 1
    assert said[-1] == "refresh: no longer matches a saved output: tests/test_lesson1_outputs.py::test_x - 0.35 != 0.36"


def test_an_untranslated_entry_stops_refresh_before_any_notebook_runs(repo):
    touch(repo, "ctxlib/locale/hi/LC_MESSAGES/ctxlib.po", 'msgid "tokens"\nmsgstr "tokens"\n\nmsgid "new line"\nmsgstr ""\n')
    calls, said = [], []
    status = refresh.refresh(repo, run_catalogs=lambda root: 0,
                             run_notebooks=lambda root, nbs: calls.append(nbs) or 0, say=said.append)
    assert status == 1 and calls == []
    assert said == ["refresh: 1 untranslated entry in ctxlib/locale/hi/LC_MESSAGES/ctxlib.po, e.g. 'new line'; "
                    "translate, then run refresh again"]


def test_the_real_course_s_figure_tests_and_imports():
    assert refresh.figure_tests(ROOT, ["lessons/en/02_running_total.ipynb"])[:2] == [
        "tests/test_lesson2_outputs.py", "tests/test_hindi_outputs.py"]
    closure = refresh.import_closure(refresh._code_sources(ROOT / "lessons/en/04_what_to_remove.ipynb"), ROOT)
    assert {"ctxlib/overflow.py", "ctxlib/removal.py", "ctxlib/cost.py", "ctxlib/__init__.py"} <= closure
    assert not any(p.startswith("ctxlib/course/shop/") for p in closure)


def test_a_bad_ref_is_named(repo):
    with pytest.raises(RuntimeError, match="no-such-ref"):
        refresh.changed_files(repo, "no-such-ref")


def test_the_figure_report_names_a_constant_that_no_longer_matches(tmp_path):
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_lesson1_outputs.py").write_text(
        'def test_share():\n    assert "35%" in "the ceiling is 36% of the window"\n\n'
        'def test_window():\n    assert "200,000" in "a 200,000-token window"\n', encoding="utf-8")
    assert refresh.figure_tests(tmp_path, ["lessons/hi/01_pack.ipynb"]) == ["tests/test_lesson1_outputs.py"]
    report = refresh.figure_report(tmp_path, ["lessons/hi/01_pack.ipynb"])
    assert len(report) == 1 and report[0].startswith("tests/test_lesson1_outputs.py::test_share - ")
    assert refresh.figure_report(tmp_path, []) == []  # nothing re-executed, nothing to check
