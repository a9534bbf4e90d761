#!/usr/bin/env python3
"""Build the course as a static site to read, from the saved notebooks, with no network.

    python tools/build_site.py DIR [--lite URL]      (run.py site DIR runs this in .venv)

DIR is replaced by the site: ``index.html`` (both languages), per language (``en/``, ``hi/``) a
front page, one page per lesson, the glossary and a search page, and ``assets/`` (one style
sheet, the search script and its index, the course's Noto Sans Devanagari with its licence).
Every page names its language (``<html lang>``), links the same page in the other language,
the previous and next lesson, the glossary and the search; a lesson page also links the lesson
in the browser build's Notebook interface, as its front page opens a lesson
(``URL/notebooks/index.html?path=lessons/LANG/NAME.ipynb``, with ``--lite URL``: ``run.py publish`` gives ``../lite``,
where it puts the build; without it, no such link) and says how to run it locally. Nothing is fetched from
another host: no CDN, no web font service, no script from elsewhere.

Why our own small builder: Sphinx + myst-nb, jupyter-book 2 (mystmd, which fetches its theme
from the web at build time) and nbconvert's full templates (require.js and MathJax from a CDN)
would each need a network or bring pages we would have to fix. Markdown is rendered by mistune
and code by Pygments (both already in .venv through nbconvert and JupyterLab).

Wide code and outputs scroll sideways and take the keyboard focus (``tabindex="0"``), so they
can be scrolled without a mouse. A notebook becomes a page like this: markdown cells as prose; code cells with their saved
outputs (stdout, tables as HTML, charts as the image with its text alternative); cells tagged
``learner-only`` are left out (they ask the reader to run something); a quick check's widget
becomes its options as a list, the answer and explanation folded in a ``<details>``; any
other widget shows its plain-text note (what it is), after the printed result it was saved with.
A lesson's relative link to another lesson goes to its page; to another file of the course
(``../../docs/library.md``), to a copy of that file under ``files/``.
"""
from __future__ import annotations

import argparse
import html
import json
import re
import shutil
import sys
from pathlib import Path

import mistune
from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import PythonLexer

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ctxlib.course.quiz import correct_option_ids, load_quiz  # noqa: E402
from ctxlib.course.site_text import site_text  # noqa: E402
from ctxlib.course.widgets.quickchecks import option_label, question_heading  # noqa: E402
from ctxlib.i18n import LANGS  # noqa: E402

FONT = ROOT / "ctxlib" / "course" / "data" / "fonts" / "NotoSansDevanagari-Regular.ttf"
LANGUAGE_NAMES = {"en": "English", "hi": "हिन्दी"}
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
RUN_LOCALLY = "python3 run.py lab"
markdown = mistune.create_markdown(escape=False, plugins=["table", "strikethrough"])
code_html = HtmlFormatter(style="bw", cssclass="highlight")


LESSONS = ROOT / "lessons"
TARGET = Path("site")  # the folder being built (build sets it)


def lessons() -> list[str]:
    """The lesson names (file stems) in reading order; each exists in every language."""
    names = sorted(p.stem for p in (LESSONS / "en").glob("*.ipynb"))
    for lang in LANGS:
        missing = [n for n in names if not (LESSONS / lang / f"{n}.ipynb").is_file()]
        if missing:
            sys.exit(f"build_site: lessons/{lang} lacks {missing}")
    return names


def lesson_title(notebook: dict) -> str:
    for cell in notebook["cells"]:
        if cell["cell_type"] == "markdown":
            for line in "".join(cell["source"]).splitlines():
                if line.startswith("# "):
                    return line[2:].strip()
    return "?"


def text(value) -> str:
    return "".join(value) if isinstance(value, list) else str(value)


def quiz_for(lesson: str, lang: str):
    try:
        return load_quiz(lesson, lang)
    except (OSError, ValueError, KeyError):
        return None


def answer_block(question, lang: str) -> str:
    """A quick check as a reader sees it on the site: options, then the answer folded away."""
    parts = []
    if question.type in ("single_choice", "multiple_choice"):
        items = "".join(f"<li>{html.escape(option_label(question, o.id))}</li>" for o in question.options)
        parts.append(f'<ul class="options">{items}</ul>')
        right = sorted(correct_option_ids(question) or [])
        letters = ", ".join(option_label(question, o)[:1] for o in right)
        answer = site_text("correct_options", lang, letters=letters)
    else:
        value = question.answer.get("value", f"{question.answer.get('min')}-{question.answer.get('max')}")
        answer = site_text("correct_number", lang, value=f"{value:,}" if isinstance(value, int) else value)
    parts.append(f'<details class="answer"><summary>{html.escape(site_text("answer", lang))}</summary>'
                 f"<p><strong>{html.escape(answer)}</strong></p>"
                 f"<p>{html.escape(site_text('explanation', lang))}: {html.escape(question.explanation)}</p></details>")
    return "".join(parts)


def render_outputs(cell: dict, lesson: str, lang: str, quiz) -> str:
    out, pending = [], None  # pending: the quick check whose QuestionView was just shown
    headings = {question_heading(quiz, q.id, lang): q for q in quiz.questions} if quiz else {}
    for output in cell.get("outputs", []):
        kind = output["output_type"]
        if kind == "stream":
            if output.get("name") == "stderr":
                continue
            out.append(f'<pre class="output" tabindex="0">{html.escape(text(output["text"]).rstrip())}</pre>')
            continue
        if kind == "error":
            out.append(f'<pre class="output error" tabindex="0">{html.escape(output["ename"])}: {html.escape(output["evalue"])}</pre>')
            continue
        data = output.get("data", {})
        if WIDGET_VIEW in data:
            if pending is not None:
                out.append(answer_block(pending, lang))
                pending = None
            else:
                note = text(data.get("text/plain", "")).strip()
                out.append(f'<p class="widget-note">{html.escape(site_text("widget_note", lang))}'
                           + (f" <span>{html.escape(note)}</span>" if note else "") + "</p>")
            continue
        if "text/html" in data:
            page = text(data["text/html"])
            match = re.search(r'class="ctxlib-question-heading"[^>]*>([^<]*)<', page)
            if match and html.unescape(match.group(1)) in headings:
                question = headings[html.unescape(match.group(1))]
                pending = question if question.type != "code" else None
                if question.type == "code":
                    page += f'<p class="widget-note">{html.escape(site_text("code_exercise", lang))}</p>'
            out.append(f'<div class="output html" tabindex="0">{page}</div>')
        elif "image/png" in data:
            alt = text(data.get("text/plain", ""))
            out.append(f'<img class="output" src="data:image/png;base64,{text(data["image/png"]).strip()}" '
                       f'alt="{html.escape(alt)}">')
        elif "text/plain" in data:
            out.append(f'<pre class="output" tabindex="0">{html.escape(text(data["text/plain"]).rstrip())}</pre>')
    if pending is not None:  # a quick check whose widget was not saved
        out.append(answer_block(pending, lang))
    return "".join(out)


def heading_ids(body: str, prefix: str = "s") -> tuple[str, list[tuple[str, str]]]:
    """Give each h1-h3 an id; return the body and the (id, heading text) of each h2."""
    sections, n = [], [0]

    def add(match):
        n[0] += 1
        ident = f"{prefix}{n[0]}"
        if match.group(1) == "2":
            sections.append((ident, re.sub(r"<[^>]+>", "", match.group(3))))
        return f'<h{match.group(1)} id="{ident}"{match.group(2)}>{match.group(3)}</h{match.group(1)}>'

    return re.sub(r"<h([1-3])([^>]*)>(.*?)</h\1>", add, body, flags=re.S), sections


def local_links(body: str, lang: str, target: Path) -> str:
    """Point a lesson's relative links at the site: another lesson's notebook becomes its page; any
    other file of the course (``../../docs/library.md``) is shipped under ``files/`` and linked there."""
    def fix(match):
        link = match.group(1)
        if re.match(r"[a-z][a-z0-9+.-]*:|#|/", link):
            return match.group(0)
        path, _, fragment = link.partition("#")
        source = (LESSONS / lang / path).resolve()
        if source.suffix == ".ipynb" and source.parent.parent == LESSONS:
            new = f"../{source.parent.name}/{source.stem}.html"
        elif source.is_file() and ROOT in source.parents:
            relative = source.relative_to(ROOT)
            (target / "files" / relative).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / "files" / relative)
            new = f"../files/{relative.as_posix()}"
        else:
            sys.exit(f"build_site: lessons/{lang} links to {link}, which is not a file of the course")
        return f'href="{html.escape(new + ("#" + fragment if fragment else ""))}"'

    return re.sub(r'href="([^"]+)"', fix, body)


def lesson_body(notebook: dict, lesson: str, lang: str) -> str:
    quiz = quiz_for(lesson, lang)
    parts = []
    for cell in notebook["cells"]:
        tags = cell.get("metadata", {}).get("tags", [])
        if "learner-only" in tags:
            continue
        source = text(cell["source"])
        if cell["cell_type"] == "markdown":
            parts.append(f'<div class="prose">{local_links(markdown(source), lang, TARGET)}</div>')
        elif cell["cell_type"] == "code" and source.strip():
            code = highlight(source, PythonLexer(), code_html).replace("<pre>", '<pre tabindex="0">', 1)
            parts.append(f'<div class="cell"><div class="code" lang="en">{code}'
                         f"</div>{render_outputs(cell, lesson, lang, quiz)}</div>")
    return "\n".join(parts)


def page(lang: str, title: str, body: str, here: str, other: str, depth: int, nav: str = "") -> str:
    """One page: header (course home, language switch, search), the body, the footer."""
    up = "../" * depth
    search = (f'<form class="search" role="search" action="{up}{lang}/search.html">'
              f'<label for="q">{html.escape(site_text("search_label", lang))}</label>'
              f'<input id="q" name="q" type="search">'
              f'<button type="submit">{html.escape(site_text("search", lang))}</button></form>')
    other_lang = "hi" if lang == "en" else "en"
    switch = (f'<nav class="language" aria-label="{html.escape(site_text("language", lang))}">'
              f'<a href="{other}" hreflang="{other_lang}" lang="{other_lang}">{LANGUAGE_NAMES[other_lang]}</a></nav>')
    return f"""<!DOCTYPE html>
<html lang="{lang}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(title)}</title>
<link rel="stylesheet" href="{up}assets/site.css">
<link rel="alternate" hreflang="{other_lang}" href="{other}">
</head>
<body>
<a class="skip" href="#content">{html.escape(site_text("skip", lang))}</a>
<header>
<a class="home" href="{up}{lang}/index.html">{html.escape(site_text("title", lang))}</a>
{switch}
{search}
</header>
<main id="content" data-page="{here}">
{body}
{nav}
</main>
<footer><p>{html.escape(site_text("footer", lang))}</p></footer>
</body>
</html>
"""


def pager(lang: str, names: list[str], titles: dict, index: int) -> str:
    links = []
    if index > 0:
        prev = names[index - 1]
        links.append(f'<a rel="prev" href="{prev}.html">← {html.escape(site_text("previous", lang))}: '
                     f"{html.escape(titles[lang, prev])}</a>")
    if index + 1 < len(names):
        nxt = names[index + 1]
        links.append(f'<a rel="next" href="{nxt}.html">{html.escape(site_text("next", lang))}: '
                     f"{html.escape(titles[lang, nxt])} →</a>")
    links.append(f'<a href="glossary.html">{html.escape(site_text("glossary", lang))}</a>')
    return f'<nav class="pager" aria-label="{html.escape(site_text("lessons", lang))}">{" ".join(links)}</nav>'


def plain(body: str) -> str:
    """A page's readable text, for the search index: tags, code and images dropped, spaces squeezed."""
    body = re.sub(r"<(script|style|svg)\b.*?</\1>", " ", body, flags=re.S)
    body = re.sub(r"<img\b[^>]*>", " ", body)
    return re.sub(r"\s+", " ", html.unescape(re.sub(r"<[^>]+>", " ", body))).strip()


def sections_for_search(body: str, url: str, title: str, lang: str) -> list[dict]:
    """One search entry per h2 section (and the part before the first): its link, heading and text."""
    entries = []
    pieces = re.split(r'(<h2 id="[^"]+"[^>]*>.*?</h2>)', body, flags=re.S)
    anchor, heading = "", title
    for piece in pieces:
        found = re.match(r'<h2 id="([^"]+)"[^>]*>(.*?)</h2>', piece, flags=re.S)
        if found:
            anchor, heading = "#" + found.group(1), plain(found.group(2))
            continue
        words = plain(piece)
        if words:
            entries.append({"u": url + anchor, "t": heading, "p": title, "l": lang, "x": words})
    return entries


SEARCH_PAGE = """<h1>{heading}</h1>
<p id="status" role="status" aria-live="polite" data-results="{results}" data-none="{none}"></p>
<ol id="results"></ol>
<noscript><p>{noscript}</p></noscript>
<script src="../assets/search-index.js"></script>
<script src="../assets/search.js"></script>"""


def browser_link(lite: str | None, lang: str, name: str) -> str:
    """The paragraph that opens lesson ``name`` in the browser build at ``lite`` (a URL, from a language folder),
    one lesson with one kernel; ``""`` when there is no browser build (``lite`` is ``None``): no link to nothing."""
    if not lite:
        return ""
    link = f"{lite.rstrip('/')}/notebooks/index.html?path=lessons/{lang}/{name}.ipynb"
    return (f'<p><a class="run-browser" href="{html.escape(link)}">{html.escape(site_text("run_in_browser", lang))}</a> '
            f'({html.escape(site_text("run_in_browser_note", lang))})</p>')


def build(target: Path, lite: str | None) -> None:
    names = lessons()
    notebooks = {(lang, n): json.loads((LESSONS / lang / f"{n}.ipynb").read_text(encoding="utf-8"))
                 for lang in LANGS for n in names}
    titles = {key: lesson_title(nb) for key, nb in notebooks.items()}
    globals()["TARGET"] = target
    if target.exists():
        shutil.rmtree(target)  # main() let only an empty folder or an earlier site through
    (target / "assets" / "fonts").mkdir(parents=True)
    (target / MARKER).write_text("A site built by ctxlib's tools/build_site.py: the next build replaces this folder.\n",
                                 encoding="utf-8")
    shutil.copy2(FONT, target / "assets" / "fonts" / FONT.name)
    shutil.copy2(FONT.parent / "OFL.txt", target / "assets" / "fonts" / "OFL.txt")
    here = Path(__file__).resolve().parent / "site"
    css = (here / "site.css").read_text(encoding="utf-8") + "\n" + code_html.get_style_defs(".highlight")
    (target / "assets" / "site.css").write_text(css, encoding="utf-8")
    shutil.copy2(here / "search.js", target / "assets" / "search.js")
    index = []
    for lang in LANGS:
        folder = target / lang
        folder.mkdir()
        other = "hi" if lang == "en" else "en"
        items = "".join(f'<li><a href="{n}.html">{html.escape(titles[lang, n])}</a></li>' for n in names)
        front = (f"<h1>{html.escape(site_text('title', lang))}</h1><p class='subtitle'>"
                 f"{html.escape(site_text('subtitle', lang))}</p><p>{html.escape(site_text('intro', lang))}</p>"
                 f"<h2>{html.escape(site_text('lessons', lang))}</h2><ol class='lessons'>{items}</ol>"
                 f"<h2><a href='glossary.html'>{html.escape(site_text('glossary', lang))}</a></h2>"
                 f"<p>{html.escape(site_text('glossary_intro', lang))}</p>")
        (folder / "index.html").write_text(page(lang, site_text("title", lang), front, f"{lang}/index.html",
                                                f"../{other}/index.html", 1), encoding="utf-8")
        for i, name in enumerate(names):
            body, _ = heading_ids(lesson_body(notebooks[lang, name], name, lang))
            run = (f'<aside class="run">{browser_link(lite, lang, name)}'
                   f'<p>{html.escape(site_text("run_locally", lang, command="COMMAND"))}</p></aside>'
                   ).replace("COMMAND", f"<code>{RUN_LOCALLY}</code>")
            body = run + body
            (folder / f"{name}.html").write_text(
                page(lang, titles[lang, name], body, f"{lang}/{name}.html", f"../{other}/{name}.html", 1,
                     pager(lang, names, titles, i)), encoding="utf-8")
            index += sections_for_search(body, f"{lang}/{name}.html", titles[lang, name], lang)
        glossary, _ = heading_ids(markdown((LESSONS / "GLOSSARY.md").read_text(encoding="utf-8")))
        glossary = (f"<p>{html.escape(site_text('glossary_intro', lang))}</p>"
                    f'<div class="glossary" lang="en">{glossary}</div>')
        (folder / "glossary.html").write_text(page(lang, site_text("glossary", lang), glossary,
                                                   f"{lang}/glossary.html", f"../{other}/glossary.html", 1,
                                                   pager(lang, [], {}, 0)), encoding="utf-8")
        index += sections_for_search(glossary, f"{lang}/glossary.html", site_text("glossary", lang), lang)
        search = SEARCH_PAGE.format(heading=html.escape(site_text("search", lang)),
                                    results=html.escape(site_text("search_results", lang, n="{n}", query="{query}")),
                                    none=html.escape(site_text("search_none", lang, query="{query}")),
                                    noscript=html.escape(site_text("search_needs_script", lang)))
        (folder / "search.html").write_text(page(lang, site_text("search", lang), search, f"{lang}/search.html",
                                                 f"../{other}/search.html", 1), encoding="utf-8")
    (target / "assets" / "search-index.js").write_text(
        "window.CTXLIB_SEARCH = " + json.dumps(index, ensure_ascii=False) + ";\n", encoding="utf-8")
    both = "".join(f'<section lang="{lang}"><h2><a href="{lang}/index.html">{html.escape(site_text("title", lang))}'
                   f"</a></h2><p>{html.escape(site_text('subtitle', lang))}</p></section>" for lang in LANGS)
    (target / "index.html").write_text(page("en", site_text("title", "en"), f"<h1>ctxlib</h1>{both}", "index.html",
                                            "hi/index.html", 0), encoding="utf-8")


MARKER = ".ctxlib-site"  # in every site built: the one kind of non-empty folder a build may replace


def replaceable(folder: Path) -> bool:
    """Whether a build may delete ``folder`` to write the site there: it does not exist, is empty, or is an
    earlier site (it holds ``MARKER``, or, built before the marker, ``assets/search-index.js``). Anything else
    (a web root, a folder of notes) is refused: building ``run.py site ..`` once deleted the course's parent."""
    if not folder.exists():
        return True
    if not folder.is_dir() or folder.is_symlink():
        return False
    return not any(folder.iterdir()) or (folder / MARKER).is_file() or (folder / "assets" / "search-index.js").is_file()


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="build_site.py", description=__doc__.split("\n\n")[0])
    parser.add_argument("dir", type=Path, help="the folder to (re)create with the site: new, empty, or an earlier site")
    parser.add_argument("--lite", default=None, help="where the browser build is, from a language folder (run.py "
                        "publish gives ../lite, beside the site); without it the pages have no browser-build link")
    parser.add_argument("--lessons", type=Path, default=LESSONS,
                        help="the lessons folder to read (default: this checkout's lessons/)")
    args = parser.parse_args(argv)
    globals()["LESSONS"] = args.lessons.resolve()
    if args.dir.resolve() in (ROOT, ROOT / "lessons", Path.home()) or (args.dir / ".git").exists() \
            or not replaceable(args.dir):
        sys.exit(f"build_site: {args.dir} exists and is not an earlier site (no {MARKER}); nothing was deleted: "
                 "name a new or empty folder")
    build(args.dir, args.lite)
    print(f"[build_site] the site is in {args.dir} ({len(list(args.dir.rglob('*.html')))} pages)")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
