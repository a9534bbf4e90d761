"""``run.py``, the learner's two commands: what ``lab`` and ``test`` run, and the settings it writes."""
from __future__ import annotations

import ast
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture
def run(tmp_path, monkeypatch):
    """``run.py`` as a module, its environment folder moved to ``tmp_path/venv``."""
    spec = importlib.util.spec_from_file_location("run_under_test", ROOT / "run.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setattr(module, "VENV", tmp_path / "venv")
    return module


def pytest_args(command: list[str]) -> list[str]:
    assert command[1:3] == ["-m", "pytest"]
    return command[3:]


def test_test_runs_tests_and_lessons_when_no_path_is_given(run):
    assert pytest_args(run.test_command([])) == [
        "tests", "lessons", "--nbval", "--nbval-current-env", "-p", "no:cacheprovider"]
    assert pytest_args(run.test_command(["-q", "-k", "tokens"], cwd=ROOT))[:2] == ["tests", "lessons"]


def test_test_runs_only_the_paths_given(run, tmp_path):
    args = pytest_args(run.test_command(["tests/test_tokens.py", "-q"], cwd=ROOT))
    assert args == ["--nbval", "--nbval-current-env", "-p", "no:cacheprovider",
                    str(ROOT / "tests" / "test_tokens.py"), "-q"]
    # A test id keeps its part after "::"; a path relative to where the learner stands is made absolute.
    args = pytest_args(run.test_command(["test_tokens.py::test_x", "-x"], cwd=ROOT / "tests"))
    assert args[-2:] == [f"{ROOT / 'tests' / 'test_tokens.py'}::test_x", "-x"]
    assert "tests" not in args and "lessons" not in args


def test_lab_opens_lesson_1_in_the_learners_language_with_no_warning_of_its_own(run):
    assert run.lang_option([], {"LANG": "hi_IN.UTF-8"}) == ("hi", [])
    assert run.lang_option(["--no-browser"], {"LANG": "C.UTF-8"}) == ("en", ["--no-browser"])
    assert run.lang_option(["--lang", "hi", "--port", "9"], {"CTXLIB_LANG": "en"}) == ("hi", ["--port", "9"])
    assert run.lang_option(["--lang=en"], {"LANG": "hi_IN"}) == ("en", [])
    with pytest.raises(SystemExit, match="--lang must be en or hi, got 'fr'"):
        run.lang_option(["--lang", "fr"], {})
    command = run.lab_command(["--no-browser"], "hi")
    # The printed link (the server's default URL, which JupyterLab sets) is the lesson, not the Launcher.
    assert "--LabApp.default_url=/lab/tree/lessons/hi/01_window_as_budget.ipynb" in command
    assert (ROOT / "lessons" / "hi" / "01_window_as_budget.ipynb").is_file()
    assert "--KernelManager.transport=ipc" in command  # no "Kernel is running over TCP without encryption"
    assert command[-1] == "--no-browser" and not any("token" in arg.lower() for arg in command)


def test_lab_prints_the_lessons_link_and_no_warning_of_the_courses_own(run, tmp_path):
    """A real JupyterLab started as ``run.py lab --no-browser --lang hi`` starts it, with a kernel started too."""
    import re
    import signal
    import socket
    import time
    import urllib.request

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    command = [sys.executable, *run.lab_command(["--no-browser", "--allow-root", f"--port={port}",
                                                  "--ServerApp.ip=127.0.0.1", "--ServerApp.port_retries=0"], "hi")[1:]]
    import tempfile

    # As run.py lab does: a short runtime folder, since a kernel's socket path must stay under ~100 bytes.
    runtime = tempfile.mkdtemp(prefix="ctxlib-lab-", dir="/tmp")
    env = {**os.environ, "JUPYTER_RUNTIME_DIR": runtime, "JUPYTER_CONFIG_DIR": str(tmp_path / "cfg")}
    log = tmp_path / "lab.log"
    with log.open("w") as out:
        process = subprocess.Popen(command, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, env=env,
                                   start_new_session=True)
    try:
        deadline = time.monotonic() + 90
        while not (link := re.search(rf"http://127\.0\.0\.1:{port}/\S+", log.read_text())):
            assert process.poll() is None and time.monotonic() < deadline, log.read_text()[-3000:]
            time.sleep(0.3)
        assert link.group().startswith(f"http://127.0.0.1:{port}/lab/tree/lessons/hi/01_window_as_budget.ipynb?token=")
        token = link.group().split("token=")[1]
        request = urllib.request.Request(f"http://127.0.0.1:{port}/api/kernels?token={token}", data=b"{}",
                                         method="POST", headers={"Content-Type": "application/json"})
        kernel = json.loads(urllib.request.urlopen(request, timeout=60).read())
        while "kernel_info" not in log.read_text() and time.monotonic() < deadline:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/kernels/{kernel['id']}?token={token}", timeout=10)
            time.sleep(1)
            if time.monotonic() > deadline - 60:
                break
        time.sleep(3)  # the kernel's own start-up lines reach the log
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=30)
        shutil.rmtree(runtime, ignore_errors=True)
    text = log.read_text()
    assert "Kernel started" in text, text[-3000:]
    assert "DeprecationWarning" not in text and "without encryption" not in text, text[-3000:]


def test_lab_adds_allow_root_as_root_and_says_so(run, monkeypatch, capsys):
    calls = []
    monkeypatch.setattr(run, "setup", lambda *a, **k: 0)
    monkeypatch.setattr(run.subprocess, "call", lambda command, **kw: calls.append(command) or 0)
    monkeypatch.setattr(run, "running_as_root", lambda: True)
    monkeypatch.setenv("CTXLIB_LANG", "en")
    run.lab(["--no-browser"])
    assert calls[-1][-2:] == ["--allow-root", "--no-browser"]
    assert "--allow-root" in capsys.readouterr().out.splitlines()[0]
    run.lab(["--allow-root"])  # given already: not twice
    assert calls[-1].count("--allow-root") == 1
    monkeypatch.setattr(run, "running_as_root", lambda: False)
    run.lab([])
    assert "--allow-root" not in calls[-1]


def test_a_learners_lines_from_run_py_are_in_hindi(run, monkeypatch, capsys):
    # run.py uses only the standard library: its few lines for a learner are in its own table, HINDI
    monkeypatch.setattr(run, "setup", lambda *a, **k: 0)
    monkeypatch.setattr(run.subprocess, "call", lambda command, **kw: 0)
    monkeypatch.setattr(run, "running_as_root", lambda: True)
    run.lab(["--lang", "hi"])
    assert capsys.readouterr().out.splitlines() == [
        "[run.py] root के रूप में चल रहा है (कोई container या workshop VM?), इसलिए JupyterLab को --allow-root दिया गया",
        "[run.py] JupyterLab में पाठ 1 हिंदी में खुल रहा है (चुनने के लिए --lang en या --lang hi; रोकने के लिए यहाँ Ctrl+C)"]
    with pytest.raises(SystemExit, match="--lang en या hi होना चाहिए, मिला 'fr'"):
        run.lang_option(["--lang", "fr"], {"LANG": "hi_IN.UTF-8"})


def said_by_run_py() -> tuple[set[str], list[str]]:
    """The messages run.py gives ``say`` and ``worded`` (string literals, implicit concatenation joined), and the
    lines where a message is not a literal, or ``sys.exit`` gets a text that is not worded."""
    source = (ROOT / "run.py").read_text(encoding="utf-8")
    said, unworded = set(), []
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        first, name = node.args[0], ast.get_source_segment(source, node.func)
        if name in ("say", "worded"):
            options = [first.body, first.orelse] if isinstance(first, ast.IfExp) else [first]
            said |= {o.value for o in options if isinstance(o, ast.Constant) and isinstance(o.value, str)}
            if not all(isinstance(o, ast.Constant) for o in options):
                unworded.append(f"{node.lineno}: {ast.get_source_segment(source, first)}")
        elif name == "sys.exit" and isinstance(first, (ast.JoinedStr, ast.Constant)) and isinstance(
                getattr(first, "value", ""), str):
            unworded.append(f"{node.lineno}: {ast.get_source_segment(source, first)}")
    return said, unworded


def test_every_line_run_py_says_is_in_its_hindi_table(run):
    said, unworded = said_by_run_py()
    table = run.hindi()
    assert len(said) > 40 and said == set(table)  # every line said is in the table, and the table holds no other
    # the two places that pass a text already worded: say(message) inside say itself and the isolation report's lines
    assert sorted(int(line.split(":")[0]) for line in unworded) == sorted(
        node.lineno for node in ast.walk(ast.parse((ROOT / "run.py").read_text(encoding="utf-8")))
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") in ("say", "worded")
        and node.args and isinstance(node.args[0], ast.Name))
    assert all(set(re.findall(r"{\w+", table[m])) == set(re.findall(r"{\w+", m)) for m in table)
    assert all(re.search("[\u0900-\u097f]", hindi) for hindi in table.values())  # written in Devanagari
    assert all(line == line.strip() or line == " or " for line in table)


def test_an_unreadable_hindi_table_leaves_run_py_in_english(run, tmp_path, monkeypatch):
    for broken in ("[1, 2]", '{"x": 3}', "{not json", None):
        path = tmp_path / "run_hi.json"
        path.unlink(missing_ok=True)
        if broken is not None:
            path.write_text(broken, encoding="utf-8")
        monkeypatch.setattr(run, "HINDI_FILE", path)
        monkeypatch.setattr(run, "_HINDI", None)
        assert run.worded("ready: python3 run.py lab", "hi") == "ready: python3 run.py lab"


def test_an_instructors_lines_are_in_hindi_too(run, tmp_path, monkeypatch, capsys):
    with pytest.raises(SystemExit, match="कमरे का password कम से कम 8 characters का होना चाहिए, दिया गया password 5 characters का है"):
        run.room_password(tmp_path, "short", "hi")
    monkeypatch.setattr(run, "running_as_root", lambda: False)
    lines = run.isolation_report(shared_account=False, lang="hi")
    assert lines[0].startswith("root के रूप में नहीं चल रहा: हर शिक्षार्थी का server आपके user (")
    assert "--shared-account दें" in lines[1]
    room = tmp_path / "room"
    with pytest.raises(SystemExit, match="ऐसा कोई folder नहीं है"):
        run.grade_room(room, tmp_path / "grades.csv", "hi")
    monkeypatch.setenv("CTXLIB_LANG", "hi")  # no --lang: the environment's language
    (room / "homes" / "asha").mkdir(parents=True)
    with pytest.raises(SystemExit, match="के 1 शिक्षार्थियों में से किसी ने अभी तक"):
        run.grade_room(room, tmp_path / "grades.csv")
    with pytest.raises(SystemExit, match="उपयोग: python3 run.py lite DIR"):
        run.lite([])
    monkeypatch.setenv("CTXLIB_LANG", "en")
    with pytest.raises(SystemExit, match="^usage: python3 run.py lite DIR"):
        run.lite([])
    with pytest.raises(SystemExit, match="उपयोग: python3 run.py offline-install DIR"):
        run.offline_install(["--lang", "hi"])
    with pytest.raises(SystemExit, match="बनी हुई site नहीं है"):
        run.lite_serve([str(tmp_path), "--lang", "hi"])


def test_lab_settings_turn_off_news_and_keep_other_settings(run):
    path = run.VENV / "share" / "jupyter" / "lab" / "settings" / "overrides.json"
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps({"@jupyterlab/apputils-extension:themes": {"theme": "JupyterLab Dark"}}))
    assert run.write_lab_settings() == path
    assert json.loads(path.read_text()) == {
        "@jupyterlab/apputils-extension:themes": {"theme": "JupyterLab Dark"},
        "@jupyterlab/apputils-extension:notification": {"fetchNews": "false", "checkForUpdates": False}}


def test_lab_settings_match_jupyterlabs_schema(run):
    """The keys and values must be ones JupyterLab knows, or it ignores them silently."""
    schema_path = Path(sys.prefix) / "share" / "jupyter" / "lab" / "schemas" / "@jupyterlab" / \
        "apputils-extension" / "notification.json"
    if not schema_path.exists():
        pytest.skip(f"JupyterLab's schema is not at {schema_path}")
    properties = json.loads(schema_path.read_text())["properties"]
    settings = run.LAB_OVERRIDES["@jupyterlab/apputils-extension:notification"]
    assert settings["fetchNews"] in [choice["const"] for choice in properties["fetchNews"]["oneOf"]]
    assert properties["checkForUpdates"]["type"] == "boolean" and settings["checkForUpdates"] is False


def test_present_template_is_installed_and_used(run):
    folder = run.install_present_template()
    assert folder == run.VENV / "share" / "jupyter" / "voila" / "templates" / "ctxlib"
    assert (folder / "index.html.j2").read_bytes() == (ROOT / "tools" / "present" / "index.html.j2").read_bytes()
    assert "--template=ctxlib" in run.voila_command("x.ipynb", [])


def test_room_password_rules(run, tmp_path):
    with pytest.raises(SystemExit, match="at least 8 characters, got 5"):
        run.room_password(tmp_path, "short")
    assert run.room_password(tmp_path, "sunflower-42") == "sunflower-42"
    assert run.room_password(tmp_path, None) == "sunflower-42"  # kept for the next start
    assert (tmp_path / "private" / "password").stat().st_mode & 0o077 == 0
    assert (tmp_path / "private").stat().st_mode & 0o777 == 0o700  # no learner's to read


def test_hub_grade_needs_a_room_with_answers(run, tmp_path):
    with pytest.raises(SystemExit, match="no such folder"):
        run.grade_room(tmp_path, tmp_path / "grades.csv")
    (tmp_path / "homes" / "asha").mkdir(parents=True)
    with pytest.raises(SystemExit, match="none of the 1 learners"):
        run.grade_room(tmp_path, tmp_path / "grades.csv")


def test_the_end_of_a_run_names_the_skipped_groups(tmp_path):
    (tmp_path / "test_browser.py").write_text(
        "import pytest\n\ndef test_a():\n    pytest.skip('/usr/bin/chromium not found')\n\n"
        "def test_b():\n    pytest.skip('/usr/bin/chromium not found')\n")
    (tmp_path / "test_other.py").write_text("import pytest\n\ndef test_c():\n    pytest.skip('no GPU')\n")
    (tmp_path / "test_fine.py").write_text("def test_d():\n    assert 1 + 1 == 2\n")

    def tail(*files):
        # The course's conftest.py, loaded as a plugin, in a folder of its own.
        result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "conftest",
                                 *files], cwd=tmp_path, capture_output=True, text=True, env={"PYTHONPATH": str(ROOT)})
        return result.stdout[result.stdout.index("skipped test groups"):]

    out = tail("test_browser.py", "test_other.py", "test_fine.py")
    assert "skipped 2 browser tests (JupyterLab and Voila in headless Chromium): /usr/bin/chromium not found" in out
    assert "to run them: install Chromium: sudo apt-get install chromium" in out
    assert "skipped 1 tests in test_other.py: no GPU" in out
    assert out.count("to run them:") == 2  # every group says how
    assert "none" not in out.splitlines()[1]
    assert "none: every collected test ran" in tail("test_fine.py")


def test_lab_settings_go_where_jupyterlab_reads_its_overrides(run, monkeypatch):
    from jupyterlab.commands import get_app_dir

    monkeypatch.setattr(run, "VENV", Path(sys.prefix))
    path = Path(get_app_dir()) / "settings" / "overrides.json"
    assert run.write_lab_settings() == path
    assert json.loads(path.read_text())["@jupyterlab/apputils-extension:notification"]["fetchNews"] == "false"


def test_a_skipped_notebook_cell_says_why_from_its_own_comment():
    spec = importlib.util.spec_from_file_location("course_conftest", ROOT / "conftest.py")
    conftest = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conftest)
    skipped = next(c for c in json.loads((ROOT / "lessons" / "en" / "03_real_repository.ipynb").read_text())["cells"]
                   if c["cell_type"] == "code" and "".join(c["source"]).startswith("# NBVAL_SKIP"))
    source = "".join(skipped["source"])
    reason = conftest.nbval_skip_reason(source)
    assert reason.startswith("Your own repository") and "nbval skips this cell" in reason
    assert conftest.nbval_skip_reason("# NBVAL_SKIP\nx = 1") == "the cell is marked # NBVAL_SKIP"

    class Item:  # what nbval gives pytest for a cell
        nodeid, options = "lessons/en/03_real_repository.ipynb::Cell 40", {"skip": True}
        cell = type("Cell", (), {"source": source})()

    with pytest.raises(pytest.skip.Exception, match="03_real_repository.ipynb: Your own repository"):
        conftest.pytest_runtest_setup(Item())
    assert conftest.NOTEBOOK_GROUP[1].startswith("nothing to enable")


def test_present_signs_the_lesson_and_says_the_truth_about_no_browser(run, monkeypatch, capsys, tmp_path):
    calls = []
    monkeypatch.setattr(run, "setup", lambda *a, **k: 0)
    monkeypatch.setattr(run, "NOTARY_DIR", tmp_path / "notary")
    monkeypatch.setattr(run.subprocess, "run", lambda command, **kw: calls.append(command))
    monkeypatch.setattr(run.subprocess, "call", lambda command, **kw: calls.append(command) or 0)
    lesson = str(ROOT / "lessons" / "en" / "01_window_as_budget.ipynb")
    run.present([lesson, "--no-browser"])
    assert calls[0][1:3] == ["-m", "nbformat.sign"] and calls[0][-1] == lesson
    assert calls[1][1] == str(ROOT / "tools" / "start_voila.py") and "--no-browser" in calls[1]
    assert [a for a in calls[0] if a.startswith("--NotebookNotary")] == \
        [a for a in calls[1] if a.startswith("--NotebookNotary")]  # signed where Voila looks
    out = capsys.readouterr().out
    assert "open the link it prints" in out and "opens in your browser" not in out
    run.present([lesson])
    assert "it opens in your browser" in capsys.readouterr().out


def test_the_usage_names_every_command(run):
    # "python3 run.py" with no command prints its docstring: the one list of what it can do
    assert [name for name in run.COMMANDS if f"python3 run.py {name} " not in run.__doc__] == []


@pytest.mark.parametrize("hostile", ["{path.__class__.__mro__}", "{0}", "{missing}", "{path", "{path!r} {path}x{}",
                                     "{path:>99999999999999999999}"])
def test_a_hindi_line_with_other_fields_is_said_in_english(run, tmp_path, monkeypatch, hostile):
    # a hostile tester's (session 42): a table's line "{0}" raised IndexError, "{path.__class__.__mro__}" showed the
    # value's classes; the shipped table is checked by the test above, worded itself is now safe for any table
    path = tmp_path / "run_hi.json"
    path.write_text(json.dumps({"creating a virtual environment in {path}": "मार्ग " + hostile}), encoding="utf-8")
    monkeypatch.setattr(run, "HINDI_FILE", path)
    monkeypatch.setattr(run, "_HINDI", None)
    said = run.worded("creating a virtual environment in {path}", "hi", path=tmp_path)
    assert said == f"creating a virtual environment in {tmp_path}"
    path.write_text(json.dumps({"creating a virtual environment in {path}": "{path} में नया"}), encoding="utf-8")
    monkeypatch.setattr(run, "_HINDI", None)
    assert run.worded("creating a virtual environment in {path}", "hi", path="x") == "x में नया"


def test_lang_given_without_a_value_is_refused(run):
    # a hostile tester's (session 42): "python3 run.py lab --lang" opened the lessons in the environment's language
    with pytest.raises(SystemExit, match="--lang must be en or hi, got ''"):
        run.lang_option(["--lang"], {"CTXLIB_LANG": "en"})
    assert run.lang_option(["--lang", "hi", "x"], {}) == ("hi", ["x"])
