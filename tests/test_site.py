"""The course as a site to read (``python3 run.py site DIR``): built offline, checked in Chromium.

The site is built once per run into a temporary folder from the saved notebooks (no network:
CI runs this file with only loopback up), or read from ``CTXLIB_SITE`` (CI: the folder
``run.py publish`` made, whose lesson pages' links into the browser build are checked too). Without a browser, only the checks that need none run:

- every internal link (``href``/``src``) of every page points at a file of the site, and at an
  element with that ``id`` when it has a ``#fragment``; no page loads anything from another host;
- every page names its language (``<html lang>``) and links the same page in the other language;
- Lesson 4's quick checks read as questions with their answers folded away (``<details>``).

With Chromium (``/usr/bin/chromium``, the ``playwright`` package) and ``axe-core`` from npm
(``.ci/run`` installs it into ``.venv/npm``; ``CTXLIB_AXE`` names another ``axe.min.js``):

- Lesson 4 in English and in Hindi: the language switch goes to the other language's Lesson 4
  and back; the search finds a Hindi word and an English word; Hindi prose and a Hindi chart's
  image are real Devanagari: the prose is drawn with the site's own font, with no Devanagari
  character left to another font (on a Chromium that sees no system Devanagari font), and the
  chart's text alternative is Hindi; no request leaves the site;
- axe-core reports no serious or critical violation on any page of the site.
"""
from __future__ import annotations

import html.parser
import os
import re
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

ROOT = Path(__file__).resolve().parent.parent
AXE = Path(os.environ.get("CTXLIB_AXE", ROOT / ".venv" / "npm" / "node_modules" / "axe-core" / "axe.min.js"))
HINDI_WORD = "हिस्सेदार"  # Lesson 2's "the six occupants"; glossary term
ENGLISH_WORD = "observation_masking"


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    """The site in ``CTXLIB_SITE`` (a folder ``run.py publish`` or ``run.py site`` made), else one built here."""
    if os.environ.get("CTXLIB_SITE"):
        return Path(os.environ["CTXLIB_SITE"])
    folder = tmp_path_factory.mktemp("site") / "site"
    subprocess.run([sys.executable, str(ROOT / "tools" / "build_site.py"), str(folder), "--lite", "../lite"],
                   check=True, capture_output=True, cwd=ROOT)  # as run.py publish builds it
    return folder


class Links(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.links, self.ids, self.lang, self.alternate = [], set(), None, None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag == "html":
            self.lang = attrs.get("lang")
        if "id" in attrs:
            self.ids.add(attrs["id"])
        if tag == "link" and attrs.get("rel") == "alternate":
            self.alternate = attrs.get("href")
        for name in ("href", "src", "action"):
            if attrs.get(name):
                self.links.append((tag, attrs[name]))


def parsed(path: Path) -> Links:
    parser = Links()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


def test_every_internal_link_resolves_and_nothing_comes_from_another_host(site):
    pages = sorted(p for p in site.rglob("*.html") if "lite" not in p.relative_to(site).parts)
    assert len(pages) == 1 + 2 * (len(list((ROOT / "lessons" / "en").glob("*.ipynb"))) + 3)
    broken, external, checked = [], [], 0
    for page in pages:
        for tag, link in parsed(page).links:
            if link.startswith("data:"):
                continue
            parts = urlsplit(link)
            if parts.scheme or parts.netloc:
                external.append((page.relative_to(site), link))
                continue
            if "/lite/" in "/" + parts.path and not (site / "lite").is_dir():
                continue  # the browser build: beside the site once run.py publish has put it there
            target = (page.parent / unquote(parts.path)).resolve() if parts.path else page
            checked += 1
            if not target.is_file():
                broken.append((str(page.relative_to(site)), link))
            elif parts.fragment and target.suffix == ".html" and parts.fragment not in parsed(target).ids:
                broken.append((str(page.relative_to(site)), link))
    assert checked > 100 and broken == [] and external == []
    css = (site / "assets" / "site.css").read_text(encoding="utf-8")
    assert re.findall(r"url\(([^)]+)\)", css) == ['"fonts/NotoSansDevanagari-Regular.ttf"']
    assert (site / "assets" / "fonts" / "NotoSansDevanagari-Regular.ttf").is_file()


def test_every_page_names_its_language_and_links_its_twin(site):
    for lang in ("en", "hi"):
        for page in (site / lang).glob("*.html"):
            links = parsed(page)
            assert links.lang == lang, page
            other = "hi" if lang == "en" else "en"
            assert links.alternate == f"../{other}/{page.name}", page
    hindi = (site / "hi" / "04_what_to_remove.html").read_text(encoding="utf-8")
    assert "<h1 id=\"s1\">पाठ 4" in hindi and 'aria-label="पाठ"' in hindi and ">अगला" not in hindi
    assert "पिछला" in hindi and "शब्दावली" in hindi and "खोजें" in hindi


def test_quick_checks_read_as_questions_with_the_answer_folded_away(site):
    from ctxlib.course.quiz import correct_option_ids, load_quiz
    from ctxlib.course.widgets.quickchecks import option_label

    page = (site / "en" / "04_what_to_remove.html").read_text(encoding="utf-8")
    quiz = load_quiz("04_what_to_remove", "en")
    shown = [q for q in quiz.questions if q.type == "single_choice" and option_label(q, q.options[0].id) in page]
    assert shown, "no quick check of Lesson 4 on its page"
    question = shown[0]
    right = sorted(correct_option_ids(question))[0]
    folded = re.search(r'<details class="answer"><summary>Show the answer</summary><p><strong>Answer: (\w)</strong>',
                       page[page.index(option_label(question, question.options[0].id)):])
    assert folded and folded.group(1) == option_label(question, right)[0]
    assert "widget-view" not in page and "IPY_MODEL" not in page
    assert 'class="run-browser" href="../lite/notebooks/index.html?path=lessons/en/04_what_to_remove.ipynb"' in page


def test_a_site_built_alone_links_no_browser_build(tmp_path):
    # run.py site DIR has no browser build beside it: its lesson pages say how to run the lesson locally, and link
    # no ../lite that is not there (a newcomer's finding, s42); run.py publish passes --lite ../lite.
    sys.path.insert(0, str(ROOT / "tools"))
    try:
        import build_site
    finally:
        sys.path.remove(str(ROOT / "tools"))
    assert build_site.browser_link(None, "hi", "01_window_as_budget") == ""
    assert 'href="https://example.org/lite/notebooks/index.html?path=lessons/hi/01_window_as_budget.ipynb"' in \
        build_site.browser_link("https://example.org/lite/", "hi", "01_window_as_budget")


# --- in Chromium ---------------------------------------------------------------------------

def browser_missing() -> str | None:
    from test_browser import CHROMIUM, missing

    if not Path(CHROMIUM).is_file():
        return f"no Chromium at {CHROMIUM}"
    if not AXE.is_file():
        return f"no axe-core at {AXE} (npm install --prefix .venv/npm axe-core)"
    return missing("playwright")


@pytest.fixture(scope="module")
def served(site):
    from test_browser import skip_or_fail

    from test_lite import serving

    skip_or_fail(browser_missing())
    with serving(site) as url:
        yield url


@pytest.fixture(scope="module")
def chromium(tmp_path_factory):
    """Chromium that sees only DejaVu (no system Devanagari font), as on a fresh machine."""
    from test_browser import CHROMIUM, CHROMIUM_FLAGS, LATIN_FONT_DIR, LATIN_ONLY_FONTCONFIG, skip_or_fail

    skip_or_fail(browser_missing())  # before a launch: a test may ask for this fixture before "served"
    from playwright.sync_api import sync_playwright

    folder = tmp_path_factory.mktemp("fontconfig")
    (folder / "fonts.conf").write_text(LATIN_ONLY_FONTCONFIG.format(fonts=LATIN_FONT_DIR, cache=folder / "cache"))
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS,
                                             env={**os.environ, "FONTCONFIG_FILE": str(folder / "fonts.conf")})
        try:
            yield browser
        finally:
            browser.close()


def new_page(chromium, served):
    from test_browser import VIEWPORT

    page, refused = chromium.new_page(viewport=VIEWPORT), []

    def refuse(route):
        refused.append(route.request.url)
        route.abort()

    page.route(lambda url: not url.startswith(served + "/"), refuse)
    return page, refused


def drawn_with(page, selector: str) -> list[dict]:
    cdp = page.context.new_cdp_session(page)
    try:
        cdp.send("DOM.enable")
        cdp.send("CSS.enable")
        root = cdp.send("DOM.getDocument", {"depth": -1})["root"]["nodeId"]
        node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
        return cdp.send("CSS.getPlatformFontsForNode", {"nodeId": node})["fonts"]
    finally:
        cdp.detach()


def assert_real_devanagari(page, selector: str) -> None:
    """The element's text is drawn with the site's font; no Devanagari character went to another font."""
    page.locator(selector).scroll_into_view_if_needed()
    page.wait_for_function("() => document.fonts.status === 'loaded'")
    text = page.locator(selector).inner_text()
    fonts = drawn_with(page, selector)
    bundled = [f for f in fonts if f["isCustomFont"] and "Devanagari" in f["familyName"] and f["glyphCount"] > 0]
    others = sum(f["glyphCount"] for f in fonts if f not in bundled)
    assert bundled and others <= len(re.sub(r"[\u0900-\u097F\u200c\u200d]", "", text)), (text[:80], fonts)


def test_lesson_4_in_both_languages_switch_search_and_devanagari(chromium, served):
    from test_browser import screenshot_dir

    page, refused = new_page(chromium, served)
    try:
        page.goto(f"{served}/en/04_what_to_remove.html")
        assert page.locator("html").get_attribute("lang") == "en"
        page.locator("nav.language a").click()
        page.wait_for_url(f"{served}/hi/04_what_to_remove.html")
        assert page.locator("html").get_attribute("lang") == "hi"
        assert page.locator("h1").first.inner_text().startswith("पाठ 4")
        # Hindi prose, and the first chart: an image whose text alternative says in Hindi what it shows.
        page.evaluate("""() => {
          const p = [...document.querySelectorAll('.prose p')].find(e => /[\\u0900-\\u097F]{4}/.test(e.textContent));
          p.setAttribute('data-check', 'prose');
        }""")
        assert_real_devanagari(page, '[data-check="prose"]')
        chart = page.locator("main img.output, main .ctxlib-chart img").first
        if page.locator(".ctxlib-chart img").count():  # saved by charts.show: its text alternative is the alt
            assert chart.get_attribute("alt").startswith("चार्ट: हटाने के हर नियम के साथ")
        else:  # saved before charts.show gave one (until the notebook is executed again): a bare PNG
            assert chart.get_attribute("alt") is not None
        chart.evaluate("img => img.complete || new Promise(done => img.addEventListener('load', done))")
        assert chart.evaluate("img => img.naturalWidth") > 0
        box, main = chart.bounding_box(), page.locator("main").bounding_box()
        assert box["width"] <= main["width"]
        page.locator("header").screenshot()  # laid out
        page.locator("nav.language a").click()
        page.wait_for_url(f"{served}/en/04_what_to_remove.html")

        for lang, word in (("hi", HINDI_WORD), ("en", ENGLISH_WORD)):
            page.goto(f"{served}/{lang}/index.html")
            page.locator("#q").fill(word)
            page.locator("#q").press("Enter")
            page.wait_for_url(re.compile(rf"/{lang}/search\.html\?q="))
            page.locator("#results li").first.wait_for(timeout=10_000)
            assert word in page.locator("#results").inner_text()
            first = page.locator("#results li a").first
            target = first.get_attribute("href")
            first.click()
            page.wait_for_load_state()
            assert word in page.locator("main").inner_text(), f"search result {target} lacks {word!r}"
        page.goto(f"{served}/hi/search.html?q={HINDI_WORD}")
        page.locator("#results li").first.wait_for(timeout=10_000)
        assert_real_devanagari(page, "#results li:first-child")

        page.goto(f"{served}/hi/04_what_to_remove.html")
        folder = screenshot_dir()
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "site_hi_04_what_to_remove.png").write_bytes(page.screenshot())
        assert refused == [], f"the site asked for something from another host: {refused}"
    finally:
        page.close()


SERIOUS = """async () => {
  const result = await axe.run(document, {resultTypes: ['violations']});
  return result.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
    .map(v => ({id: v.id, impact: v.impact, nodes: v.nodes.length, first: v.nodes[0].html.slice(0, 200),
                why: v.nodes[0].failureSummary}));
}"""


def test_axe_finds_no_serious_or_critical_violation_on_any_page(chromium, served, site):
    page, refused = new_page(chromium, served)
    found = {}
    try:
        for path in sorted(p for p in site.rglob("*.html") if "lite" not in p.relative_to(site).parts):
            url = f"{served}/{path.relative_to(site).as_posix()}"
            page.goto(url + ("?q=token" if path.name == "search.html" else ""))
            page.add_script_tag(path=str(AXE))
            violations = page.evaluate(SERIOUS)
            if violations:
                found[str(path.relative_to(site))] = violations
    finally:
        page.close()
    assert found == {}, "\n".join(f"{page}: {v}" for page, vs in found.items() for v in vs)
    assert refused == []


def test_a_folder_that_is_not_a_site_is_never_replaced(tmp_path):
    """``run.py site DIR`` once deleted whatever DIR held (a web root, the course's parent with ``..``)."""
    build = [sys.executable, str(ROOT / "tools" / "build_site.py")]
    victim = tmp_path / "notes"
    (victim / "sub").mkdir(parents=True)
    (victim / "notes.txt").write_text("data\n")
    done = subprocess.run([*build, str(victim)], capture_output=True, text=True, cwd=ROOT)
    assert done.returncode != 0
    assert "is not an earlier site (no .ctxlib-site); nothing was deleted" in done.stderr
    assert (victim / "notes.txt").read_text() == "data\n" and (victim / "sub").is_dir()
    site = tmp_path / "site"
    for _ in range(2):  # a new folder, then the same folder again: an earlier site is replaced
        subprocess.run([*build, str(site)], check=True, capture_output=True, cwd=ROOT)
        assert (site / ".ctxlib-site").is_file() and (site / "en" / "01_window_as_budget.html").is_file()
    empty = tmp_path / "empty"
    empty.mkdir()
    subprocess.run([*build, str(empty)], check=True, capture_output=True, cwd=ROOT)
    assert (empty / "index.html").is_file()
