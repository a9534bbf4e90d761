"""Hindi learners see Hindi: English prose in the Hindi notebooks' saved outputs and in the Hindi quick checks.

The rule, for each line of text: remove identifiers, paths and quoted code (``shop/vat.py``,
``max_tokens``, ``'vat'``, ``BM25``), then count the common English words left on the line
(function words like "the", "of", "is" and report words like "chosen", "skipped", "left"). A
line with two or more of them is English prose and all of them count; a single one is taken as
a term in a Hindi sentence. Words the Hindi lessons keep in English on purpose are never counted:
every Latin-script word and phrase of the glossary's Hindi column (``lessons/GLOSSARY.md``:
token, file, window, score, turn, "greedy by score per token", ...). File names, identifiers and numbers never count. Printed source code
(an output starting with ``def``, ``class``, ``import``..., or any output of a cell tagged
``prints-source``, which shows a file's code) is code, the same in both twins.

The course-wide goal is at most ``MAX_ENGLISH_WORDS`` English prose words in the saved outputs
of all Hindi notebooks, and none in the Hindi quiz files. Run this file as a script to see the
lines that count: ``python tests/test_hindi_outputs.py``.
"""
from __future__ import annotations

import json
import re
import sys
from functools import lru_cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HINDI_NOTEBOOKS = sorted((ROOT / "lessons" / "hi").glob("*.ipynb"))
HINDI_QUIZZES = sorted((ROOT / "quizzes" / "hi").glob("*.json"))
MAX_ENGLISH_WORDS = 10  # course-wide, all Hindi notebooks together

# Common English words: a line holding two of them reads as an English sentence.
ENGLISH = set("""the of and is are to for with from not does do in on at by be was were this that these those it its
than then there which what when where who why how only also but or if so as all any each every none
used chosen skipped left fit fits does not files file tokens read tokenized packed relevant out scores score
window budget over under total attempt turn input reply room trimmed kept cut after before first last next
would could should must may can will has have had""".split())
FUNCTION_WORDS = set("""the of and is are to for with from not does do in on at by be was were this that these those it its
than then there which what when where who why how only also but or if so as all any each every none""".split())
# Identifiers (snake_case, dotted, paths), ALL-CAPS names, and anything quoted or in backticks.
CODE = re.compile(r"[A-Za-z_][\w.]*[_./][\w./]*|\b[A-Z0-9_]{2,}\b|`[^`]*`|'[^']*'|\"[^\"]*\"")
PRINTED_SOURCE = re.compile(r"\s*(def|class|@|from|import) ")


@lru_cache(maxsize=1)
def glossary_kept() -> tuple[frozenset, tuple]:
    """What the glossary's "Hindi lessons" column keeps in English: its single Latin-script words
    (function words aside) and its phrases of several words ("greedy by score per token"), longest
    first; and a word its note says stays in English ('"attempt" stays as printed in trace lines')."""
    words, phrases = set(), set()
    for line in (ROOT / "lessons" / "GLOSSARY.md").read_text(encoding="utf-8").splitlines():
        if line.startswith("## Renderings not to use"):
            break  # the terminology table below lists words *not* to use
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if not line.startswith("|") or len(cells) != 3 or cells[0] == "English" or set(cells[0]) <= set("-: "):
            continue
        # A note like '"attempt" stays as printed in trace lines' keeps that word in English too.
        noted = " ".join(re.findall(r'"([A-Za-z][A-Za-z -]*)" stays?\b', cells[2]))
        for run in re.findall(r"[A-Za-z][A-Za-z0-9]*(?:[ -][A-Za-z][A-Za-z0-9]*)*", cells[1] + ", " + noted):
            parts = re.split(r"[ -]", run.lower())
            words |= set(parts)
            if len(parts) > 1:
                phrases.add(run.lower())
    return frozenset(words - FUNCTION_WORDS), tuple(sorted(phrases, key=len, reverse=True))


def kept_terms() -> frozenset:
    """The single words the Hindi lessons keep in English (``glossary_kept``): token, file, window, score..."""
    return glossary_kept()[0]


def english_words(line: str) -> list[str]:
    """The English prose words on ``line``: the common English words left once code and kept terms are taken out,
    if there are at least two of them; ``[]`` otherwise. A kept term's plural is kept too ("scores").

    ``english_words("चुनी गई files: shop/vat.py")`` -> ``[]``;
    ``english_words("tokens used: 150 of 300")`` -> ``["used", "of"]``.
    """
    text = CODE.sub(" ", line)
    for phrase in glossary_kept()[1]:
        text = re.sub(rf"(?i)\b{re.escape(phrase)}\b", " ", text)
    kept = kept_terms()
    words = re.findall(r"[A-Za-z]+", text)
    hits = [w for w in words if w in ENGLISH and w.lower() not in kept and w.lower().removesuffix("s") not in kept]
    return hits if len(hits) >= 2 else []


def output_texts(path: Path):
    """The plain text of each saved output of a notebook's code cells (stdout, stderr, ``text/plain``)."""
    notebook = json.loads(path.read_text(encoding="utf-8"))
    for cell in notebook["cells"]:
        if cell["cell_type"] != "code" or "prints-source" in cell.get("metadata", {}).get("tags", []):
            continue  # a cell tagged prints-source shows a file's code, the same in both twins
        for output in cell.get("outputs", []):
            text = "".join(output.get("text", "")) + "".join(output.get("data", {}).get("text/plain", ""))
            if not PRINTED_SOURCE.match(text):
                yield text


def quiz_texts(path: Path):
    """Every text a learner reads in a quiz file: title, prompts, options, feedback, hints, explanations, units."""
    data = json.loads(path.read_text(encoding="utf-8"))
    yield data["title"]
    for q in data["questions"]:
        yield q["prompt"]
        yield q["explanation"]
        yield q.get("unit", "")
        yield from q.get("hints", [])
        for option in q.get("options", []):
            yield option["text"]
            yield option["feedback"]
        for misconception in q.get("misconceptions", []):
            yield misconception["feedback"]


def english_lines(texts) -> list[tuple[str, list[str]]]:
    """``(line, its English prose words)`` for every line of ``texts`` that has any."""
    found = []
    for text in texts:
        for line in text.splitlines():
            hits = english_words(line)
            if hits:
                found.append((line.strip(), hits))
    return found


def report(found) -> str:
    return "\n".join(f"  {len(hits)}: {line[:110]}" for line, hits in found)


def test_the_rule_counts_english_prose_and_spares_terms_names_and_numbers():
    assert english_words("tokens used: 150 of 300") == ["used", "of"]
    assert english_words("pinned blocks alone need 202,000 tokens ... trimming cannot help") == []  # one word
    assert english_words("looks like a credential file (.env) and is skipped") == ["and", "is", "skipped"]
    assert english_words("इस्तेमाल हुए tokens: 150 / 300") == []
    assert english_words("चुनी गई files: shop/vat.py, tests/test_vat.py; 'the of and'") == []
    assert english_words("  docs/history.md        score 0 है") == []
    assert {"token", "tokens", "file", "files", "window", "score", "turn", "attempt"} <= kept_terms()
    assert "the" not in kept_terms() and "by" not in kept_terms()
    assert english_words("Greedy by score files को score के क्रम में लेता है") == []  # a kept phrase
    assert english_words("sorted by score and then by name") == ["by", "and", "then", "by"]


def test_the_count_reads_saved_outputs_not_printed_code(tmp_path):
    notebook = {"cells": [
        {"cell_type": "markdown", "source": "the English twin is not counted here", "metadata": {}},
        {"cell_type": "code", "source": "", "metadata": {}, "outputs": [
            {"output_type": "stream", "name": "stdout", "text": ["chosen (in packing order):\n", "skipped:\n"]},
            {"output_type": "execute_result", "data": {"text/plain": "def pack(files):\n    return the and of"}}]}]}
    path = tmp_path / "x.ipynb"
    path.write_text(json.dumps(notebook), encoding="utf-8")
    assert english_lines(output_texts(path)) == [("chosen (in packing order):", ["chosen", "in"])]


def test_there_are_hindi_notebooks_and_quizzes():
    assert [p.name for p in HINDI_NOTEBOOKS] == [p.name for p in sorted((ROOT / "lessons" / "en").glob("*.ipynb"))]
    assert [p.name for p in HINDI_QUIZZES] == [p.name for p in sorted((ROOT / "quizzes" / "en").glob("*.json"))]


def test_hindi_notebook_outputs_have_at_most_10_english_prose_words():
    per_notebook = {p.name: english_lines(output_texts(p)) for p in HINDI_NOTEBOOKS}
    total = sum(len(hits) for found in per_notebook.values() for _, hits in found)
    shown = "\n".join(f"{name}:\n{report(found)}" for name, found in per_notebook.items() if found)
    assert total <= MAX_ENGLISH_WORDS, f"{total} English prose words in the Hindi outputs (goal <= {MAX_ENGLISH_WORDS}):\n{shown}"


@pytest.mark.parametrize("path", HINDI_QUIZZES, ids=[p.stem for p in HINDI_QUIZZES])
def test_hindi_quick_checks_have_no_english_prose(path):
    found = english_lines(quiz_texts(path))
    assert found == [], f"{path.name}: English prose in the Hindi quick checks:\n{report(found)}"


if __name__ == "__main__":
    grand = 0
    for p in [*HINDI_NOTEBOOKS, *HINDI_QUIZZES]:
        found = english_lines(output_texts(p) if p.suffix == ".ipynb" else quiz_texts(p))
        n = sum(len(h) for _, h in found)
        grand += n if p.suffix == ".ipynb" else 0
        print(f"{p.relative_to(ROOT)} {n}\n{report(found)}" if found else f"{p.relative_to(ROOT)} 0")
    print(f"notebook outputs total {grand} (goal <= {MAX_ENGLISH_WORDS})")
    sys.exit(0)
