"""A room on JupyterHub, for real: ``python3 run.py hub``'s hub on 127.0.0.1 with five learners.

It starts the hub the way ``run.py hub`` does (its command, configuration and environment) in a
temporary room folder, signs five learners in over HTTP with the room's password (and one
with a wrong password, which must be refused), starts each learner's server and a kernel of
their own through the hub's REST API, and answers Lesson 1's first quick check in each kernel the
way the Check button does: three learners right, two wrong. Then ``run.py hub-grade``'s table
must list the five learners with exactly those outcomes, and each home must hold its own copy of
the lessons and its own progress file. The hub and every server it started are stopped at the end.

Run as root (as CI runs), the hub gives each learner a system user of their own; a second test
then shows, from inside two learners' kernels, that neither can read the other's home, the hub's
secrets (``<room>/private``: database, cookie secret, password) or the grades, and that no
kernel runs as uid 0. Not as root, that test is skipped (it needs to create users) and the five
learners share the hub's account (``--shared-account``).

Needs JupyterHub and its proxy in ``.venv`` (``python3 run.py hub --install-only``); without them
this is skipped, unless ``CTXLIB_REQUIRE_HUB=1`` (set by CI), which makes that a failure.
Only loopback is used.
"""
from __future__ import annotations

import csv
import hashlib
import importlib.util
import json
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
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

    closed = run.running_as_root() and run.closed_to_learners(ROOT)
    if closed:  # as run.py hub refuses to start: the learners' users could not reach the course's .venv
        pytest.fail(f"{closed} is closed to other users, so the hub's learners cannot reach the course; "
                    f"chmod o+x {closed} (.ci/run does)", pytrace=False)
    # Not under pytest's own temporary folder (0700, root's): learners' users must reach their homes.
    room = Path(tempfile.mkdtemp(prefix="ctxlib-room-"))
    password = run.room_password(room, PASSWORD)
    port = run.free_port()
    log_path = tmp_path_factory.mktemp("hub") / "hub.log"
    try:
        with log_path.open("w") as log:
            yield from run_hub(room, port, password, log, log_path)
    finally:
        remove_room(room)


def remove_room(room: Path) -> None:
    """Delete the test's room and the system users the hub made for it (those whose home is in it)."""
    for entry in pwd.getpwall():
        if entry.pw_name.startswith("ctx-") and Path(entry.pw_dir).parent == room / "homes":
            subprocess.run(["userdel", entry.pw_name], check=False, capture_output=True)
    shutil.rmtree(room, ignore_errors=True)
    # The learners' socket folders (tools/jupyterhub_config.py's RUNTIME).
    shutil.rmtree(Path(tempfile.gettempdir()) / f"ctxlib-hub-{hashlib.sha256(str(room).encode()).hexdigest()[:8]}",
                  ignore_errors=True)


def run_hub(room, port, password, log, log_path):
    import psutil

    process = subprocess.Popen(run.hub_command(), cwd=room, stdout=log, stderr=subprocess.STDOUT,
                               env=run.hub_environment(room, "127.0.0.1", port, password,
                                                       shared_account=not run.running_as_root()),
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
    grades = room / "private" / "grades.csv"
    assert run.grade_room(room, grades) == 0
    summary = capfd.readouterr().out
    with grades.open(encoding="utf-8", newline="") as f:
        rows = {row["learner"]: row for row in csv.DictReader(f)}
    assert sorted(rows) == sorted(LEARNERS)
    column = f"{LESSON}:{question.id}"
    assert {name: row[column] for name, row in rows.items()} == {
        name: "passed" if is_right else "failed" for name, is_right in LEARNERS.items()}
    assert {name: int(row["passed"]) for name, row in rows.items()} == {
        name: int(is_right) for name, is_right in LEARNERS.items()}
    assert f"wrote {grades.resolve()}: 5 learners x" in summary
    # The report per question names who passed and who failed this one; its page is beside the CSV.
    line = next(line for line in summary.splitlines() if line.startswith(question.id))
    assert line.split()[1:] == ["asha,", "john,", "meera", "li.wei,", "ravi", "-"]
    assert f"<code>{question.id}</code>" in grades.with_suffix(".html").read_text(encoding="utf-8")


# What a learner's kernel can read: "read", "denied" or "missing", per path.
PROBE = """
import json, os
def probe(path):
    try:
        os.listdir(path) if os.path.isdir(path) else open(path, "rb").read(1)
        return "read"
    except PermissionError:
        return "denied"
    except FileNotFoundError:
        return "missing"
paths = {paths!r}
print(json.dumps({{"uid": os.getuid(), "euid": os.geteuid(), "pid": os.getpid(), "home": os.path.expanduser("~"),
                  **{{name: probe(path) for name, path in paths.items()}}}}))
"""


def test_each_learner_is_a_user_of_their_own(hub):
    if not run.running_as_root():
        pytest.skip("isolation needs the hub to run as root (it creates a system user per learner); CI runs it so")
    import psutil

    hub_client = load("hub_client", ROOT / "tools" / "hub_client.py")
    url, room = hub
    asha, ravi = (hub_client.Learner(url, name, PASSWORD) for name in ("asha", "ravi"))
    for learner in (asha, ravi):
        if not learner.api("GET", f"hub/api/users/{learner.name}").json()["servers"].get("", {}).get("ready"):
            learner.start_server()  # not already started by the test above
        learner.wait_until_ready()
        learner.start_kernel()
        # Each has a progress file, so there is something of the other's to try to read.
        learner.run("from ctxlib.course.progress import record_attempt\n"
                    "record_attempt('01_window_as_budget', 'fits_but_not_all', 'failed')")
    grades = room / "private" / "grades.csv"
    assert run.grade_room(room, grades) == 0 and grades.is_file()
    private = room / "private"
    seen = {}
    for me, other in ((asha, ravi), (ravi, asha)):
        other_home = room / "homes" / other.name
        paths = {"other_home": other_home, "other_progress": other_home / ".ctxlib" / "progress.json",
                 "other_lesson": other_home / "lessons" / "en" / f"{LESSON}.ipynb",
                 "homes_listing": room / "homes", "private": private, "password": private / "password",
                 "database": private / "jupyterhub.sqlite", "cookie_secret": private / "jupyterhub_cookie_secret",
                 "grades": grades, "grades_page": grades.with_suffix(".html"),
                 "own_progress": room / "homes" / me.name / ".ctxlib" / "progress.json"}
        assert all(Path(p).exists() for p in paths.values()), {k: Path(p).exists() for k, p in paths.items()}
        seen[me.name] = json.loads(me.run(PROBE.format(paths={k: str(v) for k, v in paths.items()})))
        got = seen[me.name]
        assert got["uid"] != 0 and got["euid"] != 0, f"{me.name}'s kernel runs as root: {got}"
        assert pwd.getpwuid(got["uid"]).pw_name == f"ctx-{me.name}"
        assert psutil.Process(got["pid"]).uids().real == got["uid"]  # seen from outside too
        assert got["home"] == str(room / "homes" / me.name)
        assert {k: got[k] for k in paths} == {**{k: "denied" for k in paths}, "own_progress": "read"}, got
        home = room / "homes" / me.name
        assert (home.stat().st_uid, home.stat().st_mode & 0o777) == (got["uid"], 0o700)
    assert seen["asha"]["uid"] != seen["ravi"]["uid"]
    assert (private.stat().st_uid, private.stat().st_mode & 0o777) == (0, 0o700)


def test_sign_in_page_explains_a_refusal_and_opens_lesson_1_in_the_chosen_language(hub):
    """In Chromium, through the real login page: a refused name shows its rule, a Hindi learner lands on Hindi Lesson 1."""
    from test_browser import CHROMIUM, CHROMIUM_FLAGS, VIEWPORT, missing, skip_or_fail

    from ctxlib.course.room import name_rule_text

    skip_or_fail(missing("playwright"))
    from playwright.sync_api import sync_playwright

    url, room = hub
    hindi_title = next(line.lstrip("# ").strip() for cell in json.loads(
        (ROOT / "lessons" / "hi" / f"{LESSON}.ipynb").read_text(encoding="utf-8"))["cells"]
        if cell["cell_type"] == "markdown" for line in "".join(cell["source"]).splitlines() if line.startswith("# "))
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        try:
            page = browser.new_page(viewport=VIEWPORT)

            def sign_in(name: str, password: str, lang: str) -> None:
                page.goto(f"{url}/hub/login")
                page.fill("#username_input", name)
                page.fill("#password_input", password)
                page.select_option("#lang_input", lang)
                page.click("#login_submit")

            sign_in("आशा", PASSWORD, "hi")  # Devanagari cannot be a user name: the rule, in Hindi
            assert page.locator("#login_error").inner_text().strip() == name_rule_text("letters", "hi", char="आ")
            assert page.locator("#lang_input").input_value() == "hi"  # the choice is kept
            sign_in("Asha Rao", "not-the-password", "en")
            assert page.locator("#login_error").inner_text().strip() == name_rule_text("password", "en")
            assert "Invalid username or password" not in page.content()

            sign_in("Meera Iyer", PASSWORD, "hi")  # normalized to meera.iyer
            lesson_url = f"{url}/user/meera.iyer/lab/tree/lessons/hi/{LESSON}.ipynb"
            page.wait_for_url(lambda u: u.startswith(lesson_url), timeout=240_000)
            heading = page.locator(".jp-Notebook .jp-MarkdownOutput h1").first
            heading.wait_for(timeout=120_000)
            assert heading.inner_text().strip().rstrip("¶").strip() == hindi_title
        finally:
            browser.close()
    assert (room / "homes" / "meera.iyer" / "lessons" / "hi" / f"{LESSON}.ipynb").is_file()
