"""The browser build (``python3 run.py lite DIR``): every lesson run inside a browser tab, offline.

The built site is served from 127.0.0.1 by ``run.py``'s own server and opened in headless
Chromium with every request that leaves 127.0.0.1 refused. For each lesson of ``lessons/en``
and ``lessons/hi`` the test opens it in JupyterLite, clears the outputs, runs all cells in
Pyodide and asserts that:

- every cell prints exactly what the desktop run saved in the notebook (the figures nbval
  checks, e.g. ``tokens used: 150 of 300``); a chart by its text alternative (the desktop saves a
  PNG and the browser draws SVG; their bars are compared in ``tests/test_pyodide_fallbacks.py``);
- no cell shows an error or a stderr line;
- moving the lesson's control shows the text its ctxlib callback returns (``CONTROLS`` from
  ``tests/test_browser.py``), and a quick check answered wrongly, then rightly, shows the
  feedback and lands in the browser's progress file, which ``ctxlib grade`` then reads; the
  quick check is one radio group with a live feedback box, and axe-core finds no serious or
  critical violation in the output areas (as ``tests/test_browser.py`` checks in JupyterLab);
- no request left 127.0.0.1.

The site is the folder in ``CTXLIB_LITE_SITE`` (default ``build/lite``); without a built site
the tests are skipped (``CTXLIB_REQUIRE_LITE=1``, set by CI, makes that a failure). The times
to first show a lesson and to have Python ready are printed (``pytest -s``) and written to
``<tmp>/ctxlib-lite-timings.json``.
"""
from __future__ import annotations

import contextlib
import csv
import importlib.util
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest

from ctxlib.course.quiz import correct_option_ids, load_quiz
from ctxlib.course.widgets.quickchecks import check_answer, question_heading
from test_browser import (CHROMIUM, CHROMIUM_FLAGS, CONTROLS, LATIN_FONT_DIR, LATIN_ONLY_FONTCONFIG, RUN_FINISHED,
                          VIEWPORT, assert_accessible_outputs, assert_no_errors, assert_quick_check_accessible, menu,
                          answer_wrong_then_right, missing, move_control, screenshot_dir, wait_for_text)

ROOT = Path(__file__).resolve().parent.parent
SITE = Path(os.environ.get("CTXLIB_LITE_SITE", ROOT / "build" / "lite"))
LANGS = ("en", "hi")
LESSONS = sorted(p.stem for p in (ROOT / "lessons" / "en").glob("*.ipynb"))
PROGRESS_FILE = "ctxlib-progress.json"  # ctxlib.course.progress.progress_path() in the browser build
TIMINGS = Path(tempfile.gettempdir()) / "ctxlib-lite-timings.json"
# Lessons that cannot run in the browser build as they are, and why. Their test is expected to
# fail (strictly: once the lesson is fixed the test passes, and then this entry must go).
BROWSER_GAPS: dict[str, str] = {}

# The notebook open in the tab, and Python's readiness, through the app object the test asks
# JupyterLite to expose (see expose_app); the kernel answering kernel_info means Pyodide,
# every preloaded wheel and ctxlib are in.
KERNEL_READY = """async (path) => {
  const app = window.jupyterapp;
  const panel = app && app.shell.currentWidget;
  if (!panel || !panel.sessionContext || panel.context.path !== path) return false;
  await panel.sessionContext.ready;
  const kernel = panel.sessionContext.session && panel.sessionContext.session.kernel;
  if (!kernel) return false;
  await kernel.info;
  return kernel.status === 'idle';
}"""
FONT_LOADED = """async () => (await document.fonts.load('16px "ctxlib Devanagari"', 'हिन्दी'))
  .filter(f => f.status === 'loaded').map(f => f.family.replace(/"/g, ''))"""
NOTEBOOK_JSON = "() => window.jupyterapp.shell.currentWidget.content.model.toJSON()"
READ_FILE = """async (path) => {
  const model = await window.jupyterapp.serviceManager.contents.get(path, {content: true});
  if (model.format === 'base64') {  // what the kernel writes through /drive is stored as bytes
    return new TextDecoder().decode(Uint8Array.from(atob(model.content), c => c.charCodeAt(0)));
  }
  return typeof model.content === 'string' ? model.content : JSON.stringify(model.content);
}"""


def skip_or_fail(reason: str | None) -> None:
    if reason and (os.environ.get("CTXLIB_REQUIRE_LITE") == "1" or os.environ.get("CTXLIB_REQUIRE_BROWSER") == "1"
                   and (SITE / "jupyter-lite.json").is_file()):
        pytest.fail(f"the browser build test must run here, but {reason}", pytrace=False)
    if reason:
        pytest.skip(reason)


WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
# Per code cell of the open notebook, per output: the text a widget's Output areas show, or null.
WIDGET_TEXTS = """() => [...document.querySelectorAll('.jp-Notebook .jp-CodeCell')].map(cell => {
  const area = cell.querySelector('.jp-Cell-outputArea');
  return area ? [...area.children].filter(c => c.classList.contains('jp-OutputArea-child')).map(child => {
    const outs = child.querySelectorAll('.widget-output');
    // A chart reads as its text alternative, as the saved notebook's plain text has it.
    return outs.length ? [...outs].map(o => {
      const copy = o.cloneNode(true);
      copy.querySelectorAll('.ctxlib-chart').forEach(chart => chart.replaceWith(
        ((chart.querySelector('svg') || chart.querySelector('img') || chart).getAttribute('aria-label')
         || (chart.querySelector('img') || {}).alt || '') + '\\n'));
      return copy.textContent;
    }).join('') : null;
  }) : [];
})"""


def printed(cell: dict, widget_texts: list | None = None) -> str:
    """What a code cell shows as text: its stdout and stderr, each result's text/html or text/plain
    (outputs that carry a chart are left out), and for a widget what its Output areas show.

    The saved notebooks hold a control's printed line as stdout (``tools/execute_notebooks.py``);
    in a live JupyterLab the same line is inside the widget, so ``widget_texts`` gives, per
    output, the text the page shows inside it (None: not a widget). Line ends are trimmed.
    """
    parts = []
    for n, out in enumerate(cell.get("outputs", [])):
        data = out.get("data", {})
        if out["output_type"] == "stream":
            parts.append("".join(out["text"]))
        elif out["output_type"] == "error":
            parts.append(f"error: {out['ename']}: {out['evalue']}\n")
        elif WIDGET_VIEW in data:
            if widget_texts is not None and n < len(widget_texts) and widget_texts[n]:
                parts.append(widget_texts[n])
        elif 'class="ctxlib-chart"' in "".join(data.get("text/html", "")):
            # A chart (a PNG on the desktop, inline SVG here): its text alternative, same numbers.
            parts.append("".join(data.get("text/plain", "")) + "\n")
        elif not any(kind.startswith("image/") for kind in data):
            parts.append("".join(data.get("text/html", data.get("text/plain", ""))) + "\n")
    return "\n".join(line.rstrip() for line in "".join(parts).strip().splitlines())


def differences(saved: dict, live: dict, widget_texts: list[list]) -> list[str]:
    """One block per non-empty code cell whose text in the browser differs from the saved one."""
    found = []
    saved_cells = [c for c in saved["cells"] if c["cell_type"] == "code"]
    live_cells = [c for c in live["cells"] if c["cell_type"] == "code"]
    assert len(saved_cells) == len(live_cells) == len(widget_texts), "the site's notebook differs from the repository's"
    for n, (cell, got_cell, texts) in enumerate(zip(saved_cells, live_cells, widget_texts), 1):
        source = "".join(cell["source"]).strip()
        if not source or re.search(r"^# NBVAL_(SKIP|IGNORE_OUTPUT)", source, re.M):
            continue  # nbval does not check these on the desktop either
        if "desktop-only" in cell.get("metadata", {}).get("tags", []):
            # It starts a process (Lesson 3's MCP server), which Pyodide cannot: nbval checks its output on the
            # desktop, and here it must say so in one line (ctxlib.course.agent.describe) instead of failing.
            got = printed(got_cell, texts)
            if "error:" in got or not got:
                found.append(f"code cell {n} (desktop-only) failed in the browser:\n{got[:1500]}")
            continue
        want, got = printed(cell), printed(got_cell, texts)
        if want != got:
            found.append(f"code cell {n} ({source.splitlines()[0][:60]!r}):\n--- saved\n{want[:1500]}\n"
                         f"--- browser\n{got[:1500]}")
    return found


@pytest.fixture(scope="module")
def site():
    skip_or_fail(None if (SITE / "jupyter-lite.json").is_file() else
                 f"the browser build is not built in {SITE} (python3 run.py lite {SITE})")
    skip_or_fail(missing("playwright"))
    with serving(SITE) as url:
        yield url


@contextlib.contextmanager
def serving(folder: Path):
    """``folder`` served by run.py's own static server on a free port of 127.0.0.1; yields its URL."""
    spec = importlib.util.spec_from_file_location("run", ROOT / "run.py")
    run = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(run)
    server = run.lite_server(folder, "127.0.0.1", 0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


@pytest.fixture(scope="module")
def playwright():
    """One Playwright for the module: a second sync_playwright() while one runs would fail."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as started:
        yield started


@pytest.fixture(scope="module")
def browser(playwright):
    # Every test here needs the built site; the HTTPS test serves it itself, so it asks here, before a launch.
    skip_or_fail(None if (SITE / "jupyter-lite.json").is_file() else
                 f"the browser build is not built in {SITE} (python3 run.py lite {SITE})")
    skip_or_fail(None if Path(CHROMIUM).is_file() else f"{CHROMIUM} not found (Debian: apt-get install chromium)")
    chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
    try:
        yield chromium
    finally:
        chromium.close()


@contextlib.contextmanager
def tab(browser, site: str, **options):
    """A fresh browser profile (empty storage) and a tab in it; yields (page, refused requests).

    ``options`` go to Playwright's ``new_context`` (e.g. ``service_workers="block"``).

    Every request that is not for the site is refused and listed. The site's own
    ``jupyter-lite.json`` is served with ``exposeAppInBrowser`` on, so the test can read the
    notebook's outputs from JupyterLab itself.
    """
    context = browser.new_context(viewport=VIEWPORT, **options)
    refused = []

    def route(route):
        url = route.request.url
        if not url.startswith(site + "/"):
            refused.append(url)
            return route.abort()
        if url.split("?")[0] == f"{site}/jupyter-lite.json":
            # Read from the site's folder, not fetched: the test's own client need not trust an HTTPS certificate.
            config = json.loads((SITE / "jupyter-lite.json").read_text(encoding="utf-8"))
            config["jupyter-config-data"]["exposeAppInBrowser"] = True
            return route.fulfill(status=200, json=config)
        return route.continue_()

    context.route(re.compile(r"^(https?|wss?)://"), route)
    page = context.new_page()
    try:
        yield page, refused
    finally:
        context.close()


def open_lesson(page, site: str, path: str) -> dict:
    """Open ``path`` in JupyterLite and wait for Python; return the seconds to the notebook and to Python."""
    started = time.monotonic()
    page.goto(f"{site}/lab/index.html?path={path}")
    page.locator(".jp-Notebook .jp-Cell").first.wait_for(timeout=120_000)
    shown = time.monotonic() - started
    page.wait_for_function(KERNEL_READY, arg=path, timeout=300_000, polling=500)
    return {"notebook_shown_s": round(shown, 1), "python_ready_s": round(time.monotonic() - started, 1)}


def answer_quick_check(page, lesson: str, lang: str) -> tuple[str, str]:
    """Answer the lesson's first single-choice quick check wrongly, then rightly (``answer_wrong_then_right``).

    Returns the question's id and the text of the browser's progress file after the two attempts.
    """
    question = answer_wrong_then_right(page, lesson, lang)
    # The kernel writes the file through /drive, which reaches the browser's storage a moment later.
    deadline = time.monotonic() + 30
    while True:
        text = page.evaluate(READ_FILE, PROGRESS_FILE)
        attempts = json.loads(text)["attempts"]
        outcomes = [a["outcome"] for a in attempts if (a["lesson"], a["question"]) == (lesson, question.id)]
        if outcomes[-2:] == ["failed", "passed"] or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    assert outcomes[-2:] == ["failed", "passed"], f"browser progress file for {lesson}/{question.id}: {outcomes}"
    return question.id, text


def record_timing(name: str, timing: dict) -> None:
    timings = json.loads(TIMINGS.read_text()) if TIMINGS.is_file() else {}
    timings[name] = timing
    TIMINGS.write_text(json.dumps(timings, indent=1) + "\n")
    print(f"\n{name}: {timing}")


@pytest.mark.parametrize("lesson", LESSONS)
@pytest.mark.parametrize("lang", LANGS)
def test_lesson_in_browser_build(site, browser, lesson, lang, request):
    if lesson in BROWSER_GAPS and os.environ.get("CTXLIB_LITE_IGNORE_GAPS") != "1":
        request.applymarker(pytest.mark.xfail(reason=BROWSER_GAPS[lesson], strict=True))
    path = f"lessons/{lang}/{lesson}.ipynb"
    saved = json.loads((ROOT / path).read_text(encoding="utf-8"))
    with tab(browser, site) as (page, refused):
        timing = open_lesson(page, site, path)
        started = time.monotonic()
        menu(page, "Edit", "Clear Outputs of All Cells")
        menu(page, "Run", "Run All Cells")
        page.wait_for_function(RUN_FINISHED, timeout=600_000, polling=1000)
        timing["run_all_s"] = round(time.monotonic() - started, 1)
        record_timing(f"{lang}/{lesson}", timing)
        # Widgets draw a moment after their cell has run: give the page up to a minute to show them.
        deadline = time.monotonic() + 60
        while (found := differences(saved, page.evaluate(NOTEBOOK_JSON), page.evaluate(WIDGET_TEXTS))) \
                and time.monotonic() < deadline:
            time.sleep(1)
        if found:
            report = Path(tempfile.gettempdir()) / f"ctxlib-lite-{lang}-{lesson}.txt"
            report.write_text("\n\n".join(found), encoding="utf-8")
        assert not found, f"{len(found)} cells print otherwise in the browser (all in {report}); the first:\n{found[0]}"
        assert_no_errors(page, f"browser build {lang}/{lesson}")
        if lang == "hi":  # the site's own Devanagari font, not the machine's, draws the Hindi
            faces = page.evaluate(FONT_LOADED)
            assert faces == ["ctxlib Devanagari"], f"the site's Devanagari font did not load: {faces}"

        control = CONTROLS.get(lesson)
        if control is not None:
            move_control(page, control, lang, f"lite_{lang}_{lesson}")

        if any(q.type == "single_choice" for q in load_quiz(lesson, lang).questions):
            question_id, text = answer_quick_check(page, lesson, lang)
            # The file a learner downloads from the site is one that ctxlib grade reads.
            with tempfile.TemporaryDirectory() as folder:
                (Path(folder) / "class").mkdir()
                (Path(folder) / "class" / "asha.json").write_text(text, encoding="utf-8")
                subprocess.run([sys.executable, "-m", "ctxlib.course.commands", "grade", Path(folder) / "class",
                                "--csv", Path(folder) / "grades.csv"], check=True, capture_output=True)
                with (Path(folder) / "grades.csv").open(encoding="utf-8") as f:
                    row = next(csv.DictReader(f))
            assert (row["learner"], row[f"{lesson}:{question_id}"]) == ("asha", "passed")
            assert_quick_check_accessible(page, lesson, lang)  # the course's ctxlib-a11y extension is in the site
        assert_accessible_outputs(page, f"browser build {lang}/{lesson}")
        assert_no_errors(page, f"browser build {lang}/{lesson} after the interactions")
        assert refused == [], f"the site asked for something outside 127.0.0.1: {refused}"


# Per Hindi text of the charts on the page: its text, and the fonts Chromium drew it with.
CHART_TEXTS = """() => [...document.querySelectorAll('.ctxlib-chart svg text')]
  .filter(t => /[\\u0900-\\u097F]/.test(t.textContent))
  .map((t, i) => { t.setAttribute('data-ctxlib-chart-text', i); return t.textContent; })"""


def chart_fonts(page, index: int) -> list[dict]:
    """The fonts Chromium drew the chart text marked ``index`` with (DevTools' CSS.getPlatformFontsForNode)."""
    cdp = page.context.new_cdp_session(page)
    try:
        cdp.send("DOM.enable")
        cdp.send("CSS.enable")
        root = cdp.send("DOM.getDocument", {"depth": -1, "pierce": True})["root"]["nodeId"]
        node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": f'[data-ctxlib-chart-text="{index}"]'})["nodeId"]
        return cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
    finally:
        cdp.detach()


@pytest.fixture(scope="module")
def browser_without_devanagari(tmp_path_factory, playwright):
    """Chromium that sees only DejaVu, as on a fresh machine: no system font has Devanagari."""
    if not LATIN_FONT_DIR.is_dir():
        skip_or_fail(f"{LATIN_FONT_DIR} not found (Debian: apt-get install fonts-dejavu-core)")
    folder = tmp_path_factory.mktemp("fontconfig")
    (folder / "fonts.conf").write_text(LATIN_ONLY_FONTCONFIG.format(fonts=LATIN_FONT_DIR, cache=folder / "cache"))
    chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS,
                                          env={**os.environ, "FONTCONFIG_FILE": str(folder / "fonts.conf")})
    try:
        yield chromium
    finally:
        chromium.close()


@pytest.mark.parametrize("lesson", ["02_running_total", "04_what_to_remove"])
def test_hindi_charts_draw_real_devanagari_in_the_browser_build(site, browser_without_devanagari, lesson):
    """Lesson 2's and Lesson 4's Hindi charts, drawn by Pyodide as inline SVG on a machine with no
    Devanagari font: every Hindi text in them (title, axis labels, legend) is drawn with the site's
    own font, no Devanagari character is left to another font (which would draw a box), and each
    chart fits the notebook's output area and has its text alternative."""
    path = f"lessons/hi/{lesson}.ipynb"
    with tab(browser_without_devanagari, site) as (page, refused):
        open_lesson(page, site, path)
        menu(page, "Edit", "Clear Outputs of All Cells")
        menu(page, "Run", "Run All Cells")
        page.wait_for_function(RUN_FINISHED, timeout=600_000, polling=1000)
        assert_no_errors(page, f"browser build hi/{lesson}")
        charts = page.locator(".jp-OutputArea-output .ctxlib-chart svg")
        charts.first.wait_for(timeout=60_000)
        assert page.locator(".jp-OutputArea-output img").count() == 0, "a chart is still an image"
        for n in range(charts.count()):
            chart = charts.nth(n)
            chart.scroll_into_view_if_needed()
            label = chart.get_attribute("aria-label")
            assert chart.get_attribute("role") == "img" and label.startswith("चार्ट: "), label
            area = chart.locator("xpath=ancestor::div[contains(@class, 'jp-OutputArea-output')][1]")
            assert chart.bounding_box()["width"] <= area.bounding_box()["width"] + 1
        page.wait_for_function("""async () => (await document.fonts.load('16px "ctxlib Devanagari"', 'हिन्दी')).length > 0""")
        texts = page.evaluate(CHART_TEXTS)
        assert len(texts) >= 5, f"too few Hindi texts in the charts: {texts}"
        for index, text in enumerate(texts):
            page.locator(f'[data-ctxlib-chart-text="{index}"]').scroll_into_view_if_needed()
            fonts = chart_fonts(page, index)
            bundled = [f for f in fonts if f["isCustomFont"] and "Devanagari" in f["familyName"]
                       and f["glyphCount"] > 0]
            # Latin letters, digits, spaces and signs may come from DejaVu; a Devanagari letter may not.
            others = sum(f["glyphCount"] for f in fonts if f not in bundled)
            latin = len(re.sub(r"[\u0900-\u097F\u200c\u200d]", "", text))
            assert bundled and others <= latin, f"chart text {text!r} was drawn with {fonts}"
        charts.first.scroll_into_view_if_needed()
        folder = screenshot_dir()
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"lite_hi_{lesson}_chart.png").write_bytes(charts.first.screenshot())
        assert refused == [], f"the site asked for something outside 127.0.0.1: {refused}"


# The kernels the page runs, and the notebooks open in its main area.
KERNELS_RUNNING = "() => [...window.jupyterapp.serviceManager.kernels.running()].length"
NOTEBOOKS_OPEN = "() => document.querySelectorAll('.jp-NotebookPanel').length"


def open_from_front_page(page, site: str, path: str) -> None:
    """Open the site's front page and click the lesson ``path``'s link; wait until its Python is ready."""
    page.goto(f"{site}/")
    page.locator(f'a[href$="path={path}"]').click()
    page.locator(".jp-Notebook .jp-Cell").first.wait_for(timeout=120_000)
    page.wait_for_function(KERNEL_READY, arg=path, timeout=300_000, polling=500)


# RUN_FINISHED for the Notebook interface, which has no status bar: the kernel itself says it is idle.
RUN_FINISHED_NOTEBOOK = RUN_FINISHED.replace(
    "(document.querySelector('#jp-main-statusbar')?.textContent || '').includes('Idle')",
    "window.jupyterapp.shell.currentWidget?.sessionContext?.session?.kernel?.status === 'idle'")


RUN_STATE = """() => {
  const cells = [...document.querySelectorAll('.jp-Notebook .jp-CodeCell')]
    .filter(c => (c.querySelector('.cm-content')?.textContent || '').trim() !== '')
    .map(c => (c.querySelector('.jp-InputPrompt')?.textContent || '').trim());
  const kernel = window.jupyterapp?.shell.currentWidget?.sessionContext?.session?.kernel;
  return {cells: cells.length, ran: cells.filter(p => /\\[\\d+\\]/.test(p)).length,
          running: cells.filter(p => p.includes('*')).length, kernel: kernel ? kernel.status : 'none',
          dialog: [...document.querySelectorAll('.jp-Dialog')].map(d => d.innerText.slice(0, 200))};
}"""


def run_all(page, timeout_s: float = 300, quiet_s: float = 45) -> None:
    """Run All Cells and wait until every code cell has run (or one has failed).

    Once, in a CI run, a Run All given right after a reload ran nothing: 300 s passed with the
    kernel idle. When ``quiet_s`` seconds pass with the kernel idle, no cell queued or running and
    the run not finished, Run All is given again (at most twice), as a learner would click it
    again. On a timeout the message says what the page showed, and a screenshot is saved.
    """
    menu(page, "Run", "Run All Cells")
    started = quiet_since = time.monotonic()
    clicks, states = 1, []
    while not page.evaluate(RUN_FINISHED_NOTEBOOK):
        state = page.evaluate(RUN_STATE)
        now = time.monotonic()
        if state["running"] or state["kernel"] != "idle":
            quiet_since = now
        elif now - quiet_since > quiet_s and clicks < 3:
            states.append(f"after {now - started:.0f} s, Run All again: {state}")
            menu(page, "Run", "Run All Cells")
            clicks, quiet_since = clicks + 1, now
        if now - started > timeout_s:
            shot = Path(tempfile.gettempdir()) / "ctxlib-lite-run-all.png"
            page.screenshot(path=str(shot))
            raise AssertionError(f"Run All did not finish in {timeout_s:.0f} s; the page: {state}; "
                                 f"{'; '.join(states) or 'given once'}; screenshot {shot}")
        time.sleep(1)
    if states:
        print("\nrun_all: " + "; ".join(states))  # in pytest's output when a test fails, or with -s


def answered_box(page, lesson: str, lang: str, question):
    """The widget box of ``question``'s quick check in the open lesson (as ``answer_wrong_then_right`` finds it)."""
    heading = question_heading(load_quiz(lesson, lang), question.id, lang)
    shown = page.locator(".jp-OutputArea-child").filter(
        has=page.locator(".ctxlib-question-heading").get_by_text(heading, exact=True))
    box = shown.locator("xpath=following-sibling::div[contains(@class, 'jp-OutputArea-child')][1]")
    box.locator(".widget-radio-box label").first.wait_for(timeout=60_000)
    box.scroll_into_view_if_needed()
    return box


def wait_for_progress(page, lesson: str, question_id: str) -> list[str]:
    """The outcomes recorded for the question in the browser's progress file, once a pass is among them (30 s)."""
    deadline = time.monotonic() + 30
    while True:
        try:
            attempts = json.loads(page.evaluate(READ_FILE, PROGRESS_FILE))["attempts"]
        except Exception:  # noqa: BLE001: the file is not there yet
            attempts = []
        outcomes = [a["outcome"] for a in attempts if (a["lesson"], a["question"]) == (lesson, question_id)]
        if "passed" in outcomes or time.monotonic() > deadline:
            return outcomes
        time.sleep(0.5)


def assert_restored(page, lesson: str, lang: str, question) -> None:
    """The quick check shows the right answer chosen and the feedback it gave, as the learner left it."""
    right = sorted(correct_option_ids(question))[0]
    box = answered_box(page, lesson, lang, question)
    inputs = box.locator(".widget-radio-box input")
    chosen = [inputs.nth(i).is_checked() for i in range(inputs.count())]
    assert chosen == [o.id == right for o in question.options], f"after the reload the choices are {chosen}"
    wait_for_text(box.locator(".ctxlib-feedback"), check_answer(question, right, lang))


def test_front_page_opens_one_lesson_with_one_kernel_and_a_reload_keeps_the_answer(site, browser):
    lesson, later = LESSONS[0], LESSONS[3]
    with tab(browser, site) as (page, refused):
        console = []
        page.on("console", lambda m: console.append(f"{m.type}: {m.text}"))
        open_from_front_page(page, site, f"lessons/en/{lesson}.ipynb")
        run_all(page)
        question = answer_wrong_then_right(page, lesson, "en")
        assert wait_for_progress(page, lesson, question.id)[-2:] == ["failed", "passed"]

        open_from_front_page(page, site, f"lessons/en/{later}.ipynb")
        assert (page.evaluate(NOTEBOOKS_OPEN), page.evaluate(KERNELS_RUNNING)) == (1, 1), \
            "opening Lesson 4 from the front page did not open it alone with one kernel"
        # The site's notebooks name its own kernel: no "Select Kernel" dialog, no warning about python3.
        assert page.locator(".jp-Dialog").count() == 0
        assert not [line for line in console if "python3" in line], [l for l in console if "python3" in l]

        open_from_front_page(page, site, f"lessons/en/{lesson}.ipynb")  # a reload of Lesson 1
        run_all(page)
        assert_restored(page, lesson, "en", question)
        assert_no_errors(page, "browser build, Lesson 1 after a reload")
        assert refused == [], f"the site asked for something outside 127.0.0.1: {refused}"


def spki_sha256(cert: Path) -> str:
    """Base64 of the SHA-256 of the certificate's public key: what Chromium's
    ``--ignore-certificate-errors-spki-list`` names to trust a certificate as if installed."""
    import base64
    import hashlib

    key = subprocess.run(["openssl", "x509", "-pubkey", "-noout", "-in", str(cert)], capture_output=True, check=True).stdout
    der = subprocess.run(["openssl", "pkey", "-pubin", "-outform", "der"], input=key, capture_output=True, check=True).stdout
    return base64.b64encode(hashlib.sha256(der).digest()).decode()


def test_served_over_https_with_a_self_signed_certificate_progress_survives_a_reload(tmp_path, browser):
    """``run.py lite-serve --https``, opened by a browser that trusts its certificate (as once it is
    installed on the room's machines): the quick check answered before a reload is answered after it.

    A browser that only was told "proceed anyway" gives the page no service worker, and the kernel
    then keeps the progress file in the tab's memory only (docs/browser-build.md says so).
    """
    skip_or_fail(None if (SITE / "jupyter-lite.json").is_file() else f"the browser build is not built in {SITE}")
    spec = importlib.util.spec_from_file_location("run", ROOT / "run.py")
    run = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(run)
    cert, key, fingerprint = run.make_certificate(tmp_path / "cert", ["127.0.0.1"])
    assert len(fingerprint.split(":")) == 32 and (key.stat().st_mode & 0o777) == 0o600
    server = run.lite_server(SITE, "127.0.0.1", 0, certificate=(cert, key))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    site = f"https://127.0.0.1:{server.server_address[1]}"
    lesson = LESSONS[0]
    # A Chromium that trusts this certificate, as once it is installed on a learner's machine.
    trusting = browser.browser_type.launch(executable_path=CHROMIUM, args=[
        *CHROMIUM_FLAGS, f"--ignore-certificate-errors-spki-list={spki_sha256(cert)}"])
    try:
        with tab(trusting, site) as (page, refused):
            open_from_front_page(page, site, f"lessons/en/{lesson}.ipynb")
            assert page.evaluate("() => window.isSecureContext") is True
            run_all(page)
            question = answer_wrong_then_right(page, lesson, "en")
            assert wait_for_progress(page, lesson, question.id)[-2:] == ["failed", "passed"]
            page.reload()
            page.wait_for_function(KERNEL_READY, arg=f"lessons/en/{lesson}.ipynb", timeout=300_000, polling=500)
            run_all(page)
            assert_restored(page, lesson, "en", question)
            assert refused == [], f"the site asked for something outside 127.0.0.1: {refused}"
    finally:
        trusting.close()
        server.shutdown()
        server.server_close()
        thread.join()
