"""The lessons as a learner sees them: JupyterLab and Voila, driven by a real headless Chromium.

nbval proves the saved outputs; this proves that the controls work in a browser. For every
lesson in ``lessons/en`` and ``lessons/hi`` it opens the notebook in JupyterLab, clears the
saved outputs, runs all cells, waits for the kernel to be idle, and asserts that:

- no cell shows an error or a stderr line, and no widget failed to render;
- moving the lesson's control (a budget or attempts slider) to a new value shows exactly the
  text that the control's own ctxlib callback returns for that value (the ``CONTROLS`` table);
- a quick check's radio buttons are labelled with the options' texts, and answering it wrongly,
  then rightly, shows ``ctxlib.course.widgets.check_answer``'s text;
- accessibility (the course's ``ctxlib-a11y`` extension): the quick check's options are one radio
  group named by its heading (one Tab stop, arrows move the choice, Tab then Enter checks it),
  its feedback box is a live region, it is marked with the lesson's ``lang``, every slider handle
  is named by its label, and axe-core (``AXE``) finds no serious or critical violation in the
  lesson's output areas.

With every system Devanagari font hidden from Chromium (a fontconfig that lists only DejaVu), a
Hindi lesson still renders its prose, widgets and tables in the course's own Noto Sans Devanagari,
in JupyterLab and in Voila: the font comes from the course's server (``run.py``'s
``write_jupyter_config``), and Chromium reports that face as the one it drew the text with.
A lesson table (``ctxlib.course.tables.Table``) is an HTML table in the page.

One lesson is also shown with Voila the way ``python3 run.py present`` shows it, in both
languages: its slider is moved there too, the tab's title is the lesson's title, no cell tagged
``learner-only`` is shown, and the page asks nothing of another machine.

Needs Debian's Chromium at /usr/bin/chromium and the ``playwright`` package, which drives that
browser and never downloads its own. Without them these tests are skipped, unless
``CTXLIB_REQUIRE_BROWSER=1`` (set by CI), which turns a missing browser into a failure.
Screenshots go to a temporary folder; with ``CTXLIB_UPDATE_SCREENSHOTS=1`` they replace the
ones in ``docs/screenshots/`` that the README and ``docs/instructors.md`` show.

Servers run on 127.0.0.1 with no token, serving a temporary copy of ``lessons/`` with temporary
Jupyter config, runtime, settings and workspace folders, so the repository and the user's
Jupyter setup are left as they were. Every process started here is stopped at the end.
"""
from __future__ import annotations

import contextlib
import functools
import importlib.util
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

import pytest

from ctxlib.i18n import message
from ctxlib.course.examples import LESSON1_FILES
from ctxlib.course.quiz import correct_option_ids, load_quiz
from ctxlib.repo import read_repo
from ctxlib.course.sample_project import QUERY, build_sample_project
from ctxlib.course.jupyter_fonts import FONT_FAMILY
from ctxlib.course.widgets.quickchecks import question_heading
from ctxlib.course.widgets import (REPO_TEXT, check_answer, option_label, repack, repack_repository,
                            rerun_loop, rerun_removal, ui_text)

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]
VIEWPORT = {"width": 1280, "height": 800}
LANGS = ("en", "hi")
LESSONS = sorted(p.stem for p in (ROOT / "lessons" / "en").glob("*.ipynb"))
# JupyterLab's own first-run toasts (news, update check) would cover the screenshots and try the network.
LAB_SETTINGS = {"@jupyterlab/apputils-extension/notification.jupyterlab-settings":
                '{"fetchNews": "false", "checkForUpdates": false}'}


@dataclass(frozen=True)
class Control:
    """A lesson's slider to move: its label, the value to move it to, and what it must then show.

    ``label(lang)`` and ``expected(lang)`` take the notebook's language; ``expected`` calls the
    control's ctxlib callback for ``value``, so the browser is checked against the library.
    ``step`` is the slider's step, for moving it with the arrow keys. ``chart``: the control
    also draws a chart (``.ctxlib-chart``: an ``img`` on the desktop, an inline ``svg`` in the
    browser build) after the text, as Lesson 2's does.
    """

    label: Callable[[str], str]
    value: int
    step: int
    expected: Callable[[str], str]
    chart: bool = False


@functools.cache
def run_module():
    """``run.py`` loaded as a module: the Voila command and the Jupyter configuration come from it."""
    spec = importlib.util.spec_from_file_location("run", ROOT / "run.py")
    run = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(run)
    return run


@functools.cache
def sample_project_files() -> dict:
    """Lesson 3's sample project as the lesson reads it: ``{path: text}`` of the files the reader keeps."""
    with tempfile.TemporaryDirectory() as folder:
        return {f.path: f.text for f in read_repo(build_sample_project(Path(folder) / "shop")).files}


# One entry per lesson; a lesson without one fails test_every_lesson_has_a_control.
CONTROLS = {
    # The pack explorer at its default query and counter, budget moved from 300 to 100 tokens.
    "01_window_as_budget": Control(
        label=lambda lang: message("budget", lang), value=100, step=10,
        expected=lambda lang: repack(LESSON1_FILES, 100, "discount pricing", "rough", lang)),
    # The running-total explorer at the chapter's figures, attempts moved from 4 to 2.
    "02_running_total": Control(
        label=lambda lang: message("attempts", lang), value=2, step=1,
        expected=lambda lang: rerun_loop(max_attempts=2, lang=lang), chart=True),
    # The repository explorer on the sample project (BM25, auto view, greedy), budget 2,000 -> 1,000.
    "03_real_repository": Control(
        label=lambda lang: REPO_TEXT[lang]["budget"], value=1_000, step=100,
        expected=lambda lang: repack_repository(sample_project_files(), QUERY, 1_000, lang=lang)),
    # The removal explorer on the 40-turn run under observation masking, keep_last moved from 10 to 3.
    "04_what_to_remove": Control(
        label=lambda lang: message("keep last", lang), value=3, step=1,
        expected=lambda lang: rerun_removal(keep_last=3, lang=lang)),
}


def screenshot_dir() -> Path:
    if os.environ.get("CTXLIB_UPDATE_SCREENSHOTS") == "1":
        return ROOT / "docs" / "screenshots"
    return Path(tempfile.gettempdir()) / "ctxlib-screenshots"


def missing(*packages: str) -> str | None:
    """Why a browser test cannot run here (no Chromium, or a package not installed), or None."""
    if not Path(CHROMIUM).exists():
        return f"{CHROMIUM} not found (Debian: apt-get install chromium)"
    for package in packages:
        if importlib.util.find_spec(package) is None:
            return f"the {package} package is not installed (pip install -e '.[test,present]')"
    return None


def skip_or_fail(reason: str | None) -> None:
    if reason and os.environ.get("CTXLIB_REQUIRE_BROWSER") == "1":
        pytest.fail(f"CTXLIB_REQUIRE_BROWSER=1 but {reason}", pytrace=False)
    if reason:
        pytest.skip(reason)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def server(command: list[str], port: int, home: Path, name: str):
    """Run ``command`` in its own process group until the port answers; stop it and its kernels after.

    Kernels run in their own sessions, so they are collected as the server's children
    before it is stopped and killed if the server's own shutdown left any behind.
    """
    import psutil

    env = dict(os.environ)
    for var, sub in (("JUPYTER_CONFIG_DIR", "config"), ("JUPYTER_DATA_DIR", "data"),
                     ("JUPYTER_RUNTIME_DIR", "runtime"), ("JUPYTERLAB_SETTINGS_DIR", "settings"),
                     ("JUPYTERLAB_WORKSPACES_DIR", "workspaces"), ("IPYTHONDIR", "ipython")):
        env[var] = str(home / sub)
        (home / sub).mkdir(parents=True, exist_ok=True)
    # Quick checks record attempts; keep them out of the user's ~/.ctxlib/progress.json.
    env["CTXLIB_PROGRESS"] = str(home / "progress.json")
    # The course's own Jupyter setup (the bundled font for JupyterLab and Voila), as run.py setup writes it.
    run_module().write_jupyter_config(home / "config", home / "data")
    for file, text in LAB_SETTINGS.items():
        (home / "settings" / file).parent.mkdir(parents=True, exist_ok=True)
        (home / "settings" / file).write_text(text, encoding="utf-8")
    log_path = home / f"{name}.log"
    log = log_path.open("w")
    process = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    try:
        deadline = time.monotonic() + 60
        while True:
            assert process.poll() is None, f"{name} exited early"
            assert time.monotonic() < deadline, f"{name} did not listen on port {port} within 60 s"
            with socket.socket() as s:
                if s.connect_ex(("127.0.0.1", port)) == 0:
                    break
            time.sleep(0.2)
        yield f"http://127.0.0.1:{port}"
    except BaseException:
        # pytest shows this with the failure: the server's side of the story.
        print(f"--- the end of {name}'s log ---\n{log_path.read_text(errors='replace')[-4000:]}")
        raise
    finally:
        children = psutil.Process(process.pid).children(recursive=True) if process.poll() is None else []
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()
        for child in children:
            if child.is_running():
                child.kill()
        log.close()


@pytest.fixture(scope="module")
def home(tmp_path_factory) -> Path:
    """A scratch folder holding a copy of the lessons and the servers' Jupyter folders."""
    home = tmp_path_factory.mktemp("browser")
    shutil.copytree(ROOT / "lessons", home / "lessons",
                    ignore=shutil.ignore_patterns(".ipynb_checkpoints", ".*.ipynb"))
    return home


@pytest.fixture(scope="module")
def driver():
    """Playwright itself, once per module: both browsers below are launched from it."""
    skip_or_fail(missing("playwright"))
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        yield playwright


@pytest.fixture(scope="module")
def browser(driver):
    chromium = driver.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
    try:
        yield chromium
    finally:
        chromium.close()


@pytest.fixture(scope="module")
def lab(browser, home):
    port = free_port()
    command = [sys.executable, "-m", "jupyterlab", "--allow-root", "--no-browser",
               "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}", "--ServerApp.port_retries=0",
               "--IdentityProvider.token=", "--ServerApp.password=",
               "--LabApp.extension_manager=readonly", f"--ServerApp.root_dir={home / 'lessons'}"]
    with server(command, port, home / "lab", "jupyterlab") as url:
        yield url


# Every non-empty code cell shows an execution count and the kernel is idle; or a cell failed,
# which stops Run All, so the test reports the error instead of waiting for cells that never run.
RUN_FINISHED = """() => {
  const cells = [...document.querySelectorAll('.jp-Notebook .jp-CodeCell')]
    .filter(c => (c.querySelector('.cm-content')?.textContent || '').trim() !== '');
  const idle = (document.querySelector('#jp-main-statusbar')?.textContent || '').includes('Idle');
  const failed = document.querySelector('.jp-Notebook [data-mime-type="application/vnd.jupyter.stderr"]');
  return cells.length > 0 && idle && (failed !== null
    || cells.every(c => /\\[\\d+\\]/.test(c.querySelector('.jp-InputPrompt')?.textContent || '')));
}"""


SHUT_DOWN_KERNELS = """async () => {
  const xsrf = (document.cookie.match(/_xsrf=([^;]+)/) || [])[1] || '';
  const sessions = await (await fetch('/api/sessions')).json();
  for (const s of sessions) {
    await fetch('/api/sessions/' + s.id, {method: 'DELETE', headers: {'X-XSRFToken': decodeURIComponent(xsrf)}});
  }
}"""


def open_page(browser) -> tuple:
    """A new browser tab that refuses every request leaving 127.0.0.1, and the list of those it refused."""
    page, refused = browser.new_page(viewport=VIEWPORT), []

    def refuse(route):
        refused.append(route.request.url)
        route.abort()

    page.route(re.compile(r"^(https?|wss?)://(?!127\.0\.0\.1[:/])"), refuse)
    return page, refused


def menu(page, top: str, item: str) -> None:
    page.locator(".lm-MenuBar-itemLabel").get_by_text(top, exact=True).click()
    page.locator(".lm-Menu-itemLabel").get_by_text(item, exact=True).click()


# An element's text as the reader sees it, less any chart's labels (an inline SVG chart in the
# browser build has text; the desktop's PNG has none): the charts are hidden while it is read.
TEXT_WITHOUT_CHARTS = """e => {
  const charts = [...e.querySelectorAll('.ctxlib-chart')];
  charts.forEach(c => { c.dataset.display = c.style.display; c.style.display = 'none'; });
  const text = e.innerText;
  charts.forEach(c => { c.style.display = c.dataset.display; });
  return text;
}"""


def wait_for_text(locator, expected: str, timeout_s: float = 30) -> None:
    """Wait until ``locator`` shows exactly ``expected`` (ends of lines and text trimmed)."""
    want = expected.strip()
    deadline = time.monotonic() + timeout_s
    shown = None
    while time.monotonic() < deadline:
        shown = locator.evaluate(TEXT_WITHOUT_CHARTS).strip() if locator.count() else None
        if shown == want:
            return
        time.sleep(0.2)
    assert shown == want, f"after {timeout_s:.0f} s the page shows:\n{shown}\n\nctxlib computes:\n{want}"


def wait_for_result(box, control: Control, lang: str) -> None:
    """Wait until the control's output shows ctxlib's text for the new value, and its chart if it draws one."""
    output = box.locator(".widget-output")
    wait_for_text(output, control.expected(lang))
    if control.chart:  # a PNG <img> on the desktop, an inline <svg> in the browser build
        chart = output.locator(".ctxlib-chart img, .ctxlib-chart svg").first
        chart.wait_for(timeout=30_000)
        chart.evaluate("e => e.tagName !== 'IMG' || e.complete ? null : "
                       "new Promise(done => e.addEventListener('load', done))")


def assert_no_errors(page, where: str) -> None:
    """No error or stderr output (JupyterLab and Voila show both as stderr), no broken widget."""
    errors = page.locator('[data-mime-type="application/vnd.jupyter.stderr"]')
    assert errors.count() == 0, f"{where}: error output:\n{errors.first.inner_text()}"
    body = page.locator("body").inner_text()
    for sign in ("Error displaying widget", "Failed to load model", "There was an error when executing cell"):
        assert sign not in body, f"{where}: the page shows {sign!r}"


def slider(page, label: str):
    """The slider whose label is exactly ``label``, and the box of its control (sliders and output)."""
    found = page.locator(".widget-slider").filter(has=page.locator(".widget-label").get_by_text(label, exact=True))
    found.first.wait_for(timeout=120_000)  # widgets render after their cell has run
    assert found.count() == 1, f"expected one slider labelled {label!r}, found {found.count()}"
    return found, found.locator("xpath=ancestor::div[contains(@class, 'widget-vbox')][1]")


def move_control(page, control: Control, lang: str, screenshot: str):
    """Type the control's new value into its slider, wait for ctxlib's result, and save a screenshot.

    The sidebar is closed first: it would take a fifth of the picture, and a learner reading a
    lesson closes it too."""
    found, box = slider(page, control.label(lang))
    found.locator(".widget-readout").click()
    page.keyboard.press("Control+A")
    page.keyboard.type(str(control.value))
    page.keyboard.press("Enter")
    wait_for_result(box, control, lang)
    page.locator(".jp-SideBar.jp-mod-left .lm-TabBar-tab.lm-mod-current").click()
    save_screenshot(page, box, screenshot)


def answer_wrong_then_right(page, lesson: str, lang: str):
    """Answer the lesson's first single-choice quick check wrongly, then rightly; return the question.

    Checks that its radio buttons carry the options' texts and the feedback shown each time.
    Used by this test (JupyterLab) and by the browser build's (JupyterLite)."""
    quiz = load_quiz(lesson, lang)
    question = next(q for q in quiz.questions if q.type == "single_choice")
    right = sorted(correct_option_ids(question))[0]
    wrong = next(o.id for o in question.options if o.id != right)
    heading = question_heading(quiz, question.id, lang)
    shown = page.locator(".jp-OutputArea-child").filter(
        has=page.locator(".ctxlib-question-heading").get_by_text(heading, exact=True))
    box = shown.locator("xpath=following-sibling::div[contains(@class, 'jp-OutputArea-child')][1]")
    labels = box.locator(".widget-radio-box label")
    labels.first.wait_for(timeout=60_000)
    box.scroll_into_view_if_needed()  # JupyterLab lays out only the cells near the window
    assert [t.strip() for t in labels.all_text_contents()] == [option_label(question, o.id) for o in question.options]
    for option_id in (wrong, right):
        labels.nth([o.id for o in question.options].index(option_id)).locator("input").check()
        box.get_by_role("button", name=ui_text("check", lang), exact=True).click()
        wait_for_text(box.locator(".ctxlib-feedback"), check_answer(question, option_id, lang))
    return question


def answer_quick_check(page, lesson: str, lang: str, progress: Path) -> None:
    """``answer_wrong_then_right``, then check that both attempts reached the progress file."""
    question = answer_wrong_then_right(page, lesson, lang)
    # The kernel shows the feedback first, then writes the file: give it a moment.
    deadline = time.monotonic() + 15
    while True:
        attempts = json.loads(progress.read_text(encoding="utf-8"))["attempts"]
        outcomes = [a["outcome"] for a in attempts if (a["lesson"], a["question"]) == (lesson, question.id)]
        if outcomes[-2:] == ["failed", "passed"] or time.monotonic() > deadline:
            break
        time.sleep(0.3)
    assert outcomes[-2:] == ["failed", "passed"], f"progress file for {lesson}/{question.id}: {outcomes}"


# axe-core from npm (.ci/run installs it into .venv/npm; CTXLIB_AXE names another axe.min.js):
# injected by the tests into the page, never loaded by the course itself.
AXE = Path(os.environ.get("CTXLIB_AXE", ROOT / ".venv" / "npm" / "node_modules" / "axe-core" / "axe.min.js"))
# The serious and critical violations axe finds inside the course's output areas (its own content).
AXE_SERIOUS = """async (selector) => {
  const result = await axe.run({include: [[selector]]}, {resultTypes: ['violations']});
  return result.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
    .map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.length, first: v.nodes[0].html.slice(0, 300),
                why: v.nodes[0].failureSummary}));
}"""


def assert_accessible_outputs(page, where: str) -> None:
    """axe-core finds no serious or critical violation in the notebook's output areas."""
    assert AXE.is_file(), f"axe-core is not installed at {AXE} (npm install --prefix .venv/npm axe-core)"
    page.add_script_tag(path=str(AXE))
    violations = page.evaluate(AXE_SERIOUS, ".jp-Cell-outputArea")
    assert violations == [], f"{where}: axe-core in the output areas:\n" + "\n".join(map(str, violations))


def assert_quick_check_accessible(page, lesson: str, lang: str) -> None:
    """The first single-choice quick check: one radio group named by its heading, one Tab stop,
    arrows move the choice, Tab then Enter checks it, the feedback box is a live region, lang is set."""
    quiz = load_quiz(lesson, lang)
    question = next(q for q in quiz.questions if q.type == "single_choice")
    heading = question_heading(quiz, question.id, lang)
    shown = page.locator(".jp-OutputArea-child").filter(
        has=page.locator(".ctxlib-question-heading").get_by_text(heading, exact=True))
    box = shown.locator("xpath=following-sibling::div[contains(@class, 'jp-OutputArea-child')][1]")
    box.scroll_into_view_if_needed()
    quiz_box = box.locator(".ctxlib-quiz")
    group = quiz_box.locator(".widget-radio-box")
    assert group.get_attribute("role") == "radiogroup"
    named_by = group.get_attribute("aria-labelledby")
    assert page.locator(f"#{named_by}").inner_text().strip() == heading
    inputs = group.locator('input[type="radio"]')
    names = set(inputs.evaluate_all("inputs => inputs.map(i => i.name)"))
    assert len(names) == 1 and "" not in names, f"the options are not one group: names {names}"
    language = "e => e.closest('[lang]').getAttribute('lang')"  # its own lang, or the one it inherits
    assert quiz_box.get_attribute("lang") == lang and shown.locator(".ctxlib-question").evaluate(language) == lang
    status = quiz_box.locator('.widget-html-content[role="status"][aria-live="polite"]')
    assert status.count() == 1, "the feedback box is not a live region"
    # Keyboard: in the group (on the first option), arrow to the second, Tab leaves the group for Check.
    inputs.nth(0).click()
    page.keyboard.press("ArrowDown")
    state = inputs.evaluate_all("is => is.map(i => [i.checked, document.activeElement === i])")
    assert state[1] == [True, True], f"after ArrowDown from the first option (checked, focused): {state}; " \
        f"focus on {page.evaluate('document.activeElement.outerHTML.slice(0, 200)')}"
    # ipywidgets holds a choice's update back while the previous one is unanswered, but not a button's
    # click, so a Check pressed at once can reach the kernel before the second option does (seen once
    # in CI: the first option's feedback). A learner's Tab and Enter take longer than this.
    page.wait_for_timeout(1000)
    page.keyboard.press("Tab")
    check = quiz_box.get_by_role("button", name=ui_text("check", lang), exact=True)
    assert check.evaluate("b => document.activeElement === b"), "Tab from the group did not reach Check"
    page.keyboard.press("Enter")
    wait_for_text(status, check_answer(question, question.options[1].id, lang))
    # Every slider of the lesson has its label as its accessible name.
    handles = page.locator(".widget-slider .noUi-handle")
    names = handles.evaluate_all("hs => hs.map(h => h.getAttribute('aria-label'))")
    assert names and all(names), f"slider handles without a name: {names}"


def save_screenshot(page, element, name: str) -> None:
    """A window-sized picture with ``element`` in the middle: what a learner sees at that point.

    A control taller than the window (Lesson 2's sliders, ledger and chart) gets a taller
    window, so the picture shows the controls together with what they drew.
    """
    page.evaluate("document.activeElement && document.activeElement.blur()")
    height = element.bounding_box()["height"]
    page.set_viewport_size({"width": VIEWPORT["width"], "height": max(VIEWPORT["height"], min(1600, int(height) + 220))})
    element.evaluate("e => e.scrollIntoView({block: 'center'})")
    time.sleep(0.5)  # let the relayout and the scroll settle before the picture
    folder = screenshot_dir()
    folder.mkdir(parents=True, exist_ok=True)
    tmp = folder / f".{name}.png.tmp"
    tmp.write_bytes(page.screenshot())
    os.replace(tmp, folder / f"{name}.png")


def test_every_lesson_has_a_control():
    assert LESSONS, "no lessons found in lessons/en"
    uncovered = [lesson for lesson in LESSONS if lesson not in CONTROLS]
    assert not uncovered, f"add an entry to CONTROLS in tests/test_browser.py for {uncovered}"


@pytest.mark.parametrize("lesson", [lesson for lesson in LESSONS if lesson in CONTROLS])
@pytest.mark.parametrize("lang", LANGS)
def test_lesson_in_jupyterlab(lab, browser, home, lesson, lang):
    control = CONTROLS[lesson]
    page, refused = open_page(browser)
    try:
        # ?reset: a fresh workspace, so the tabs of earlier lessons do not come back.
        page.goto(f"{lab}/lab/tree/{lang}/{lesson}.ipynb?reset")
        page.locator("#jp-main-statusbar").get_by_text("Idle").wait_for(timeout=60_000)
        menu(page, "Edit", "Clear Outputs of All Cells")
        menu(page, "Run", "Run All Cells")
        page.wait_for_function(RUN_FINISHED, timeout=120_000)
        assert_no_errors(page, f"{lang}/{lesson}")

        move_control(page, control, lang, f"{lang}_{lesson}")

        answer_quick_check(page, lesson, lang, home / "lab" / "progress.json")
        assert_quick_check_accessible(page, lesson, lang)
        assert_accessible_outputs(page, f"{lang}/{lesson}")
        assert_no_errors(page, f"{lang}/{lesson} after the interactions")
        assert refused == [], f"the lesson asked for something outside this machine: {refused}"
    finally:
        # Shut the kernel down, so the next lesson has both cores; the server wants its XSRF cookie
        # back. If that fails the server's shutdown still stops the kernel, at the end.
        with contextlib.suppress(Exception):
            page.evaluate(SHUT_DOWN_KERNELS)
        page.close()


def learner_only_texts(notebook: Path) -> list[str]:
    """Text that each ``learner-only`` cell would show: a markdown cell's first line as rendered, a code
    cell's first printed line; a line that a shown cell prints too (a report's header) is left out, since
    finding it on the page would prove nothing."""
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    printed = lambda cell: ["".join(o["text"]) for o in cell.get("outputs", []) if o.get("text")]
    shown = "\n".join(text for cell in cells if "learner-only" not in cell["metadata"].get("tags", [])
                      for text in printed(cell))
    texts = []
    for cell in cells:
        if "learner-only" not in cell["metadata"].get("tags", []):
            continue
        if cell["cell_type"] == "markdown":
            texts.append(re.sub(r"[*_`]", "", "".join(cell["source"]).splitlines()[0])[:60])
        texts += [text.splitlines()[0] for text in printed(cell)]
    return [t.strip() for t in texts if t.strip() and t.strip() not in shown]


@pytest.mark.parametrize("lang", LANGS)
def test_present_with_voila(browser, home, lang):
    """``python3 run.py present`` shows the first lesson as a page whose slider repacks the files.

    The tab is titled with the lesson's first heading, in the lesson's language; no learner-only
    cell shows (its text is nowhere on the page); and nothing was asked of another machine.
    """
    skip_or_fail(missing("voila"))
    run = run_module()
    lesson = LESSONS[0]
    control = CONTROLS[lesson]
    notebook = home / "lessons" / lang / f"{lesson}.ipynb"
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    title = next(line[2:].strip() for c in cells if c["cell_type"] == "markdown"
                 for line in "".join(c["source"]).splitlines() if line.startswith("# "))
    hidden = learner_only_texts(notebook)
    assert hidden, f"{lang}/{lesson} has no learner-only cell with text, so presenting mode is not tested"
    port = free_port()
    command = run.voila_command(notebook, ["--no-browser", "--Voila.ip=127.0.0.1", f"--port={port}"],
                                python=sys.executable)
    with server(command, port, home / f"voila-{lang}", "voila") as url:
        page, refused = open_page(browser)
        try:
            # Voila streams the page while the kernel runs the cells; wait for the controls, not "load".
            page.goto(url, wait_until="commit", timeout=60_000)
            found, box = slider(page, control.label(lang))
            assert_no_errors(page, f"voila {lang}/{lesson}")
            start = int(found.locator(".widget-readout").inner_text().replace(",", ""))  # "2,000"
            key = "ArrowRight" if control.value > start else "ArrowLeft"
            for _ in range(abs(control.value - start) // control.step):
                found.locator(".noUi-handle").press(key)
            wait_for_result(box, control, lang)
            assert_no_errors(page, f"voila {lang}/{lesson} after moving the slider")
            # Every cell has been run and placed on the page (the hidden ones as empty markers).
            page.wait_for_function(f"() => document.querySelectorAll('[cell-index]').length >= {len(cells)}",
                                   timeout=120_000)
            assert page.title() == title
            assert page.evaluate("document.documentElement.lang") == lang  # a screen reader reads Hindi as Hindi
            body = page.locator("body").inner_text()
            shown = [text for text in hidden if text in body]
            assert shown == [], f"voila {lang}/{lesson} shows learner-only text: {shown}"
            assert refused == [], f"the page asked for something outside this machine: {refused}"
            if lang == "en":
                save_screenshot(page, box, f"present_{lang}_{lesson}")
        finally:
            page.close()


# --- Hindi with no Devanagari font on the machine ---------------------------------------

# A fontconfig that knows one Latin family and nothing else: Chromium then has no system font
# for Devanagari, as on a fresh Debian, whatever this machine has installed.
LATIN_FONT_DIR = Path("/usr/share/fonts/truetype/dejavu")
LATIN_ONLY_FONTCONFIG = """<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd">
<fontconfig><dir>{fonts}</dir><cachedir>{cache}</cachedir></fontconfig>
"""
# Marks the first element of each kind whose own text has Devanagari, so the browser can be asked
# which fonts drew it: markdown prose, a printed line (code font), a quick check's option label.
MARK_HINDI = """() => {
  const kinds = {prose: '.jp-RenderedMarkdown p, .jp-RenderedMarkdown li',
                 printed: '.jp-OutputArea-output pre', option: '.widget-radio-box label'};
  const found = {};
  for (const [kind, selector] of Object.entries(kinds)) {
    const el = [...document.querySelectorAll(selector)].find(e =>
      [...e.childNodes].some(n => n.nodeType === Node.TEXT_NODE && /[\\u0900-\\u097F]/.test(n.textContent)));
    if (el) { el.setAttribute('data-ctxlib-hindi', kind); found[kind] = el.textContent.trim().slice(0, 60); }
  }
  return found;
}"""
BUNDLED_FACE_LOADED = """family => [...document.fonts].some(f => f.family.replace(/["']/g, '') === family && f.status === 'loaded')"""


@pytest.fixture(scope="module")
def browser_without_devanagari(driver, tmp_path_factory):
    """Chromium that sees only DejaVu: every system Devanagari font is hidden from it."""
    if not LATIN_FONT_DIR.is_dir():
        skip_or_fail(f"{LATIN_FONT_DIR} not found (Debian: apt-get install fonts-dejavu-core)")
    folder = tmp_path_factory.mktemp("fontconfig")
    (folder / "fonts.conf").write_text(LATIN_ONLY_FONTCONFIG.format(fonts=LATIN_FONT_DIR, cache=folder / "cache"))
    env = {**os.environ, "FONTCONFIG_FILE": str(folder / "fonts.conf")}
    if shutil.which("fc-list"):
        hindi = subprocess.run(["fc-list", ":lang=hi"], env=env, capture_output=True, text=True, check=True).stdout
        assert hindi.strip() == "", f"the test's fontconfig still offers Devanagari fonts:\n{hindi}"
    chromium = driver.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS, env=env)
    try:
        yield chromium
    finally:
        chromium.close()


def fonts_that_drew(page, kind: str) -> list[dict]:
    """The fonts Chromium drew the text of the element marked ``kind`` with (DevTools' CSS.getPlatformFontsForNode)."""
    cdp = page.context.new_cdp_session(page)
    try:
        cdp.send("DOM.enable")
        cdp.send("CSS.enable")
        root = cdp.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
        node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": f'[data-ctxlib-hindi="{kind}"]'})["nodeId"]
        return cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
    finally:
        cdp.detach()


def assert_hindi_in_the_bundled_font(page, kinds: tuple[str, ...], where: str) -> None:
    """The bundled face is loaded, and each kind of Hindi text was drawn with it and no system Devanagari font."""
    page.wait_for_function(BUNDLED_FACE_LOADED, arg=FONT_FAMILY, timeout=30_000)
    found = page.evaluate(MARK_HINDI)
    assert set(kinds) <= set(found), f"{where}: no Hindi text found for {set(kinds) - set(found)}; found {found}"
    for kind in kinds:
        # JupyterLab lays out only the cells near the window; a text that is not laid out has no fonts yet.
        page.locator(f'[data-ctxlib-hindi="{kind}"]').scroll_into_view_if_needed()
        time.sleep(0.5)
        fonts = fonts_that_drew(page, kind)
        bundled = [f for f in fonts if f["isCustomFont"] and "Devanagari" in f["familyName"] and f["glyphCount"] > 0]
        system = [f for f in fonts if not f["isCustomFont"] and "Devanagari" in f["familyName"]]
        assert bundled and not system, f"{where}: {kind} {found[kind]!r} was drawn with {fonts}"


def test_hindi_renders_with_the_bundled_font_and_no_system_font(browser_without_devanagari, lab, home):
    """Hindi lesson 1 in JupyterLab and in Voila, on a Chromium that has no Devanagari font of its own."""
    lesson = LESSONS[0]
    page, refused = open_page(browser_without_devanagari)
    try:
        page.goto(f"{lab}/lab/tree/hi/{lesson}.ipynb?reset")
        page.locator("#jp-main-statusbar").get_by_text("Idle").wait_for(timeout=60_000)
        menu(page, "Edit", "Clear Outputs of All Cells")
        menu(page, "Run", "Run All Cells")
        page.wait_for_function(RUN_FINISHED, timeout=120_000)
        assert_no_errors(page, f"hi/{lesson} without system fonts")
        page.locator(".widget-radio-box label").first.wait_for(timeout=60_000)
        assert_hindi_in_the_bundled_font(page, ("prose", "printed", "option"), f"JupyterLab hi/{lesson}")
        page.locator(".jp-SideBar.jp-mod-left .lm-TabBar-tab.lm-mod-current").click()
        quiz = page.locator(".jp-OutputArea-child").filter(has=page.locator(".ctxlib-question-heading")).first
        save_screenshot(page, quiz, f"hi_{lesson}_no_system_font")
        assert refused == [], f"the lesson asked for something outside this machine: {refused}"
    finally:
        with contextlib.suppress(Exception):
            page.evaluate(SHUT_DOWN_KERNELS)
        page.close()

    skip_or_fail(missing("voila"))
    port = free_port()
    command = run_module().voila_command(home / "lessons" / "hi" / f"{lesson}.ipynb",
                                         ["--no-browser", "--Voila.ip=127.0.0.1", f"--port={port}"], python=sys.executable)
    with server(command, port, home / "voila-hi-no-system-font", "voila") as url:
        page, refused = open_page(browser_without_devanagari)
        try:
            page.goto(url, wait_until="commit", timeout=60_000)
            found, box = slider(page, CONTROLS[lesson].label("hi"))
            assert_no_errors(page, f"voila hi/{lesson} without system fonts")
            assert_hindi_in_the_bundled_font(page, ("prose", "printed"), f"Voila hi/{lesson}")
            save_screenshot(page, box, f"present_hi_{lesson}_no_system_font")
        finally:
            page.close()


def test_a_lesson_table_is_an_html_table_in_jupyterlab(browser, lab, home):
    """``ctxlib.course.tables.Table`` shows as an HTML table (its plain text is what nbval reads)."""
    import nbformat

    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(
        'from ctxlib.course.tables import Table\n'
        'Table(["file", "tokens"], [["shop/vat.py", 1234], ["docs/इतिहास.md", 56]], title="इस्तेमाल हुए tokens")')],
        metadata={"kernelspec": {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}})
    nbformat.write(notebook, home / "lessons" / "hi" / "table_check.ipynb")
    page, refused = open_page(browser)
    try:
        page.goto(f"{lab}/lab/tree/hi/table_check.ipynb?reset")
        page.locator("#jp-main-statusbar").get_by_text("Idle").wait_for(timeout=60_000)
        menu(page, "Run", "Run All Cells")
        table = page.locator(".jp-OutputArea-output table.ctxlib-table")
        table.wait_for(timeout=60_000)
        assert table.locator("caption").inner_text() == "इस्तेमाल हुए tokens"
        assert table.locator("th").all_inner_texts() == ["file", "tokens"]
        assert table.locator("tbody tr").first.locator("td").all_inner_texts() == ["shop/vat.py", "1,234"]
        assert table.locator("tbody td").nth(1).evaluate("td => getComputedStyle(td).textAlign") == "right"
    finally:
        with contextlib.suppress(Exception):
            page.evaluate(SHUT_DOWN_KERNELS)
        page.close()


# A prompt meant for a learner at the keyboard, in either language: what presenting must not show.
PROMPT_PATTERNS = re.compile(r"Your turn|अब आपकी बारी|Exercise \d|अभ्यास \d|Run → Run All Cells")


def untagged_prompts(notebook: Path) -> list[str]:
    """Markdown cells that read as a learner's prompt (``PROMPT_PATTERNS``) but carry no ``learner-only`` tag."""
    found = []
    for n, cell in enumerate(json.loads(notebook.read_text(encoding="utf-8"))["cells"]):
        text = "".join(cell["source"])
        if cell["cell_type"] == "markdown" and PROMPT_PATTERNS.search(text) \
                and "learner-only" not in cell["metadata"].get("tags", []):
            found.append(f"cell {n}: {PROMPT_PATTERNS.search(text).group()!r}")
    return found


@pytest.mark.parametrize("lesson", LESSONS)
@pytest.mark.parametrize("lang", LANGS)
def test_voila_shows_no_learner_only_prompt(browser, home, lang, lesson):
    """Presented with Voila, no lesson shows a learner-only cell (markdown or code) nor any prompt text.

    The template hides every cell tagged ``learner-only`` or ``reveal``, whatever its type, and every
    markdown prompt carries that tag (``untagged_prompts`` finds none), so no prompt text is shown.
    """
    skip_or_fail(missing("voila"))
    notebook = home / "lessons" / lang / f"{lesson}.ipynb"
    assert untagged_prompts(notebook) == [], f"{lang}/{lesson}: prompts not tagged learner-only"
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    hidden = learner_only_texts(notebook)
    port = free_port()
    command = run_module().voila_command(notebook, ["--no-browser", "--Voila.ip=127.0.0.1", f"--port={port}"],
                                         python=sys.executable)
    with server(command, port, home / f"voila-{lang}-{lesson}", "voila") as url:
        page, refused = open_page(browser)
        try:
            page.goto(url, wait_until="commit", timeout=60_000)
            page.wait_for_function(f"() => document.querySelectorAll('[cell-index]').length >= {len(cells)}",
                                   timeout=180_000)
            # Voila keeps the cells out of sight until the page is done: read the text once the title shows.
            title = next(line[2:].strip() for c in cells if c["cell_type"] == "markdown"
                         for line in "".join(c["source"]).splitlines() if line.startswith("# "))
            page.wait_for_function("t => document.body.innerText.includes(t)", arg=title, timeout=120_000)
            body = page.locator("body").inner_text()
            assert len(body) > 2000, f"voila {lang}/{lesson} shows almost nothing: {body[:500]!r}"
            shown = [text for text in hidden if text in body]
            assert shown == [], f"voila {lang}/{lesson} shows learner-only text: {shown}"
            assert refused == []
            prompts = PROMPT_PATTERNS.findall(body)
            assert prompts == [], f"voila {lang}/{lesson} shows learner prompts: {prompts}"
        finally:
            page.close()
