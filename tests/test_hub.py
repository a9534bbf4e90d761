"""A room on JupyterHub, for real: ``python3 run.py hub``'s hub on 127.0.0.1 with five learners.

It starts the hub the way ``run.py hub`` does (its command, configuration and environment) in a
temporary room folder, signs five learners in over HTTP with the room's password (and one
with a wrong password, which must be refused), starts each learner's server and a kernel of
their own through the hub's REST API, and answers Lesson 1's first quick check in each kernel the
way the Check button does: three learners right, two wrong. Then ``run.py hub-grade``'s table
must list the five learners with exactly those outcomes, and each home must hold its own copy of
the lessons and its own progress file. The hub and every server it started are stopped at the end.

Needs JupyterHub and its proxy in ``.venv`` (``python3 run.py hub --install-only``); without them
this is skipped, unless ``CTXLIB_REQUIRE_HUB=1`` (set by CI), which makes that a failure.
Only loopback is used.
"""
from __future__ import annotations

import csv
import importlib.util
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest

from ctxlib.course.quiz import correct_option_ids, load_quiz
from ctxlib.course.widgets.quickchecks import check_answer, feedback_html, ui_text

ROOT = Path(__file__).resolve().parent.parent
PASSWORD = "room-test-password"
LESSON = "01_window_as_budget"
# name -> answers right? Three right, two wrong, so the table must tell them apart.
LEARNERS = {"asha": True, "ravi": False, "meera": True, "john": True, "li.wei": False}


def load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


run = load("run", ROOT / "run.py")


def first_choice_question():
    return next(q for q in load_quiz(LESSON, "en").questions if q.type == "single_choice")


@pytest.fixture(scope="module")
def hub(tmp_path_factory):
    """The hub's address and its room folder, while it runs; stopped, with all it started, after."""
    if not run.hub_installed():
        reason = "JupyterHub or its proxy is not in .venv (python3 run.py hub --install-only)"
        if os.environ.get("CTXLIB_REQUIRE_HUB") == "1":
            pytest.fail(f"CTXLIB_REQUIRE_HUB=1 but {reason}", pytrace=False)
        pytest.skip(reason)
    import psutil

    room = tmp_path_factory.mktemp("room")
    (room / "homes").mkdir()
    port = run.free_port()
    log_path = room / "hub.log"
    with log_path.open("w") as log:
        process = subprocess.Popen(run.hub_command(), cwd=room, stdout=log, stderr=subprocess.STDOUT,
                                   env=run.hub_environment(room, "127.0.0.1", port, PASSWORD),
                                   start_new_session=True)
        url = f"http://127.0.0.1:{port}"
        try:
            import requests

            deadline = time.monotonic() + 60
            while True:
                assert process.poll() is None, f"the hub exited early:\n{log_path.read_text()[-4000:]}"
                assert time.monotonic() < deadline, "the hub did not answer within 60 s"
                try:
                    if requests.get(f"{url}/hub/api/", timeout=2).status_code == 200:
                        break
                except requests.ConnectionError:
                    pass
                time.sleep(0.3)
            yield url, room
        except BaseException:
            print(f"--- the end of the hub's log ---\n{log_path.read_text(errors='replace')[-4000:]}")
            raise
        finally:
            started = psutil.Process(process.pid).children(recursive=True) if process.poll() is None else []
            process.send_signal(signal.SIGTERM)  # as Ctrl+C: the hub stops the learners' servers itself
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
            left = [p for p in started if p.is_running() and p.status() != psutil.STATUS_ZOMBIE]
            for p in left:
                p.kill()
            assert not left, f"the hub left these running: {[p.cmdline() for p in left]}"


def test_five_learners_sign_in_answer_and_are_graded(hub, capfd):
    hub_client = load("hub_client", ROOT / "tools" / "hub_client.py")
    url, room = hub
    with pytest.raises(hub_client.HubError, match="403"):
        hub_client.Learner(url, "mallory", "not-the-password")

    learners = [hub_client.Learner(url, name, PASSWORD) for name in LEARNERS]
    for learner in learners:  # all at once, as a room does
        learner.start_server()
    for learner in learners:
        learner.wait_until_ready()

    question = first_choice_question()
    right = sorted(correct_option_ids(question))[0]
    wrong = next(o.id for o in question.options if o.id != right)
    kernels = {}
    for learner in learners:
        learner.start_kernel()
        answer = right if LEARNERS[learner.name] else wrong
        # What pressing Check in Lesson 1's quick check does: grade, show, record the attempt.
        printed = learner.run(f"""
import os
from ctxlib.course.progress import progress_path
from ctxlib.course.quiz import load_quiz
from ctxlib.course.widgets.quickchecks import quiz_widget
question = next(q for q in load_quiz({LESSON!r}, "en").questions if q.type == "single_choice")
box = quiz_widget(question, "en")
box.children[0].value = {answer!r}
box.children[1].children[0].click()
print(os.getpid())
print(progress_path())
print(box.children[2].value)
""")
        pid, path, shown = printed.split("\n", 2)
        kernels[learner.name] = int(pid)
        home = room / "homes" / learner.name
        assert Path(path) == home / ".ctxlib" / "progress.json"
        lines = check_answer(question, answer, "en").split("\n")
        verdict = "right" if lines[0] == ui_text("correct", "en") else "wrong"
        assert shown.strip() == feedback_html(lines, verdict)
        assert (home / "lessons" / "en" / f"{LESSON}.ipynb").is_file()
        assert (home / "lessons" / "hi" / f"{LESSON}.ipynb").is_file()
    assert len(set(kernels.values())) == len(LEARNERS), f"not one kernel per learner: {kernels}"

    capfd.readouterr()
    assert run.grade_room(room, room / "grades.csv") == 0
    summary = capfd.readouterr().out
    with (room / "grades.csv").open(encoding="utf-8", newline="") as f:
        rows = {row["learner"]: row for row in csv.DictReader(f)}
    assert sorted(rows) == sorted(LEARNERS)
    column = f"{LESSON}:{question.id}"
    assert {name: row[column] for name, row in rows.items()} == {
        name: "passed" if is_right else "failed" for name, is_right in LEARNERS.items()}
    assert {name: int(row["passed"]) for name, row in rows.items()} == {
        name: int(is_right) for name, is_right in LEARNERS.items()}
    assert f"wrote {(room / 'grades.csv').resolve()}: 5 learners x" in summary
