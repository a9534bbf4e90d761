"""Where practice sits and how the prose reads (issue 21, items 2-4), in both languages.

The rules are those of the course's practice audit: at least 60% of numbered sections ("## N.") hold
a graded item (a quick check shown by ``show_checks`` or ``show_quiz(lesson, LANG, [ids])``, or a code
exercise); no cell shows more than 3 quick checks; no ``show_quiz(lesson, LANG)`` shows them all in one
place; the first code cell after a prediction's check (the reveal) keeps its answer out of plain view
(``jupyter.outputs_hidden`` in its metadata, so nbval still compares it) and is tagged ``reveal``; every
markdown exercise prompt and "Run All" line sits in a cell of its own tagged ``learner-only``; prose
sentences are at most 40 words, the 90th percentile at most 30; each lesson's top cell states its
reading time; multiple-answer checks do not always put their right options first.
"""
import hashlib
import itertools
import json
import math
import re
from pathlib import Path

import pytest
from saved_outputs import LESSONS

QUIZZES = Path(__file__).resolve().parent.parent / "quizzes"
NAMES = sorted(p.name for p in (LESSONS / "en").glob("*.ipynb"))
# Lesson 4 is being fixed on the i22-lesson4 branch (issue 21 items 2-6 for Lesson 4): the integrator
# removes it from this set once that branch is merged.
PENDING: set[str] = set()
LANGS = ("en", "hi")

GRADED = re.compile(r"show_checks\(|show_quiz\([^)]*,\s*\[|exercise\(")
SHOWN_IDS = re.compile(r"(?:show_checks|show_quiz)\([^,]+,[^,]+,\s*(?:ids\s*=\s*)?\[([^\]]*)\]")
ALL_AT_ONCE = re.compile(r"show_quiz\(\s*\"[^\"]+\"\s*,\s*LANG\s*\)")
PREDICTION = re.compile(r"exercise\(\s*\"[^\"]+\"\s*,\s*\"(predict_[a-z0-9_]+|exact_budget)\"")
# A markdown exercise prompt or a "Run All" line, in either language.
PROMPT = re.compile(r"^\*\*(Your turn|Exercise \d|Predict, then run|अब आपकी बारी|अभ्यास \d|पहले अनुमान)|Run → Run All Cells", re.M)
# "Reading time: about 18 minutes", bold or not ("**Reading time:** about 35 minutes")
READING = {"en": re.compile(r"Reading time:(?:\*\*)? about (\d+) minutes"),
           "hi": re.compile(r"पढ़ने का समय:(?:\*\*)? लगभग (\d+) मिनट")}


def cells(lang, name):
    return json.loads((LESSONS / lang / name).read_text(encoding="utf-8"))["cells"]


def text(cell):
    return "".join(cell["source"])


def pending(name):
    if name in PENDING:
        pytest.skip(f"{name}: pending, fixed on another branch (see PENDING)")


def sections(cs):
    """{section number: how many graded items it holds}, in lesson order."""
    sec, secs = None, {}
    for c in cs:
        src = text(c)
        if c["cell_type"] == "markdown":
            m = re.search(r"^## (\d+)\.", src, re.M)
            if m:
                sec = m.group(1)
                secs[sec] = 0
        elif sec and GRADED.search(src):
            secs[sec] += 1
    return secs


def sentences(cs, lang):
    """The prose's sentences, split as the audit splits them (Hindi also ends a sentence with ।)."""
    prose = " ".join(text(c) for c in cs if c["cell_type"] == "markdown")
    prose = re.sub(r"```.*?```", " ", prose, flags=re.S)
    prose = re.sub(r"`[^`]*`", "X", prose)
    prose = re.sub(r"\|[^\n]*\|", " ", prose)
    prose = re.sub(r"<!--.*?-->", " ", prose, flags=re.S)
    end = r"[.!?।]" if lang == "hi" else r"[.!?]"
    parts = re.split(rf"(?<={end})\s+|\n\n|\n[-*] |\n#+ ", prose)
    return [s for s in parts if len(s.split()) >= 3]


def reveals(cs):
    """(exercise id, index of the first code cell after its check) for each prediction exercise."""
    for i, c in enumerate(cs):
        m = PREDICTION.search(text(c)) if c["cell_type"] == "code" else None
        if not m:
            continue
        j = i
        while j < len(cs) and not (cs[j]["cell_type"] == "code" and ".check(" in text(cs[j])):
            j += 1
        k = j + 1
        while k < len(cs) and cs[k]["cell_type"] != "code":
            k += 1
        yield m.group(1), k


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", NAMES)
def test_most_sections_end_with_a_graded_item(name, lang):
    pending(name)
    secs = sections(cells(lang, name))
    graded = [s for s, n in secs.items() if n]
    assert len(secs) >= 5, f"{lang}/{name}: only {len(secs)} numbered sections found"
    assert len(graded) / len(secs) >= 0.6, f"{lang}/{name}: {len(graded)} of {len(secs)} sections graded"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", NAMES)
def test_quick_checks_come_a_few_at_a_time(name, lang):
    pending(name)
    for i, c in enumerate(cells(lang, name)):
        src = text(c)
        assert not ALL_AT_ONCE.search(src), f"{lang}/{name} cell {i}: every quick check in one place"
        m = SHOWN_IDS.search(src)
        if m:
            assert m.group(1).count(",") + 1 <= 3, f"{lang}/{name} cell {i}: more than 3 quick checks"


@pytest.mark.parametrize("name", NAMES)
def test_every_quick_check_is_shown_once_after_some_section(name):
    """Each quick check of the quiz appears in exactly one cell of the lesson, in both twins alike."""
    pending(name)
    quiz = json.loads((QUIZZES / "en" / name.replace(".ipynb", ".json")).read_text(encoding="utf-8"))
    checks = [q["id"] for q in quiz["questions"] if q["type"] != "code"]
    for lang in LANGS:
        shown = [i for c in cells(lang, name) for m in SHOWN_IDS.finditer(text(c))
                 for i in re.findall(r"\"([a-z0-9_]+)\"", m.group(1))]
        assert sorted(shown) == sorted(checks), f"{lang}/{name}: quick checks shown {shown}, quiz has {checks}"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", NAMES)
def test_predictions_are_not_answered_in_plain_view(name, lang):
    pending(name)
    cs = cells(lang, name)
    found = list(reveals(cs))
    # Lesson 4 asks for no "predict, then run"; the others must have theirs found, or the test checks nothing
    assert bool(found) == (name != "04_what_to_remove.ipynb"), f"{lang}/{name}: prediction exercises found: {found}"
    for exercise_id, k in found:
        reveal = cs[k]
        hidden = reveal["metadata"].get("jupyter", {}).get("outputs_hidden") is True
        assert hidden and "reveal" in reveal["metadata"].get("tags", []), (
            f"{lang}/{name}: the cell after {exercise_id}'s check (cell {k}) shows its answer in plain view")
        assert reveal["outputs"], f"{lang}/{name}: the reveal of {exercise_id} has no saved output for nbval"


def printed(cell):
    return "".join("".join(o.get("text", "")) + "".join(o.get("data", {}).get("text/plain", "")) for o in cell["outputs"])


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", NAMES)
def test_nothing_above_a_prediction_prints_its_answer(name, lang):
    """The reveal's last line (where its answer is: the attempt that stops, the files kept) is printed
    by no cell above the question; header lines and turn 1 may repeat."""
    pending(name)
    cs = cells(lang, name)
    for exercise_id, k in reveals(cs):
        question = next(i for i, c in enumerate(cs) if c["cell_type"] == "code" and f'"{exercise_id}"' in text(c))
        above = "\n".join(printed(c) for c in cs[:question] if c["cell_type"] == "code")
        lines = [line.strip() for line in printed(cs[k]).splitlines() if line.strip()]
        assert lines, f"{lang}/{name}: the reveal of {exercise_id} prints nothing"
        assert lines[-1] not in above, f"{lang}/{name}: {lines[-1]!r}, the answer to {exercise_id}, is printed above it"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", NAMES)
def test_exercise_prompts_and_run_all_lines_are_learner_only(name, lang):
    pending(name)
    for i, c in enumerate(cells(lang, name)):
        if c["cell_type"] != "markdown" or not PROMPT.search(text(c)):
            continue
        assert "learner-only" in c["metadata"].get("tags", []), f"{lang}/{name} cell {i}: prompt not tagged learner-only"
        assert not re.search(r"^#", text(c), re.M) or "Capstone" in text(c), (
            f"{lang}/{name} cell {i}: a learner-only prompt shares its cell with a heading")


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", NAMES)
def test_prose_sentences_are_short(name, lang):
    pending(name)
    lengths = sorted(len(s.split()) for s in sentences(cells(lang, name), lang))
    longest = max(sentences(cells(lang, name), lang), key=lambda s: len(s.split()))
    p90 = lengths[int(0.9 * len(lengths))]
    assert lengths[-1] <= 40, f"{lang}/{name}: a sentence of {lengths[-1]} words: {longest[:200]!r}"
    assert p90 <= 30, f"{lang}/{name}: 90th percentile {p90} words"


def test_the_sentence_splitter_counts_hindi_sentences():
    cs = [{"cell_type": "markdown", "source": ["पहला वाक्य यहाँ है। दूसरा वाक्य `code` के साथ है।\n\n- एक सूची का मद यहाँ"]}]
    assert [len(s.split()) for s in sentences(cs, "hi")] == [4, 6, 6]
    assert [len(s.split()) for s in sentences(cs, "en")] == [10, 6]


@pytest.mark.parametrize("name", NAMES)
def test_the_top_cell_states_the_reading_time(name):
    pending(name)
    minutes = {}
    for lang in LANGS:
        top = text(cells(lang, name)[0])
        m = READING[lang].search(top)
        assert m, f"{lang}/{name}: the top cell states no reading time"
        minutes[lang] = int(m.group(1))
    assert minutes["en"] == minutes["hi"], f"{name}: the twins state different reading times {minutes}"
    words = sum(len(s.split()) for s in sentences(cells("en", name), "en"))
    # 200 words a minute for technical prose, give or take a third
    assert abs(minutes["en"] - words / 200) <= max(2, words / 200 / 3), f"{name}: {words} words, stated {minutes['en']} min"


def right_options(q):
    ids = sorted(o["id"] for o in q["options"])
    for r in range(1, len(ids) + 1):
        for combo in itertools.combinations(ids, r):
            key = f"{q['salt']}:{q['id']}:{','.join(combo)}"
            if hashlib.sha256(key.encode()).hexdigest() == q["answer_sha256"]:
                return [ids.index(i) for i in combo]
    raise AssertionError(f"{q['id']}: no set of options matches the stored key")


def quiz(lang, name):
    return json.loads((QUIZZES / lang / name.replace(".ipynb", ".json")).read_text(encoding="utf-8"))["questions"]


@pytest.mark.parametrize("name", NAMES)
def test_multiple_answer_checks_do_not_put_their_right_options_first(name):
    pending(name)
    for q in quiz("en", name):
        if q["type"] == "multiple_choice":
            right = right_options(q)
            assert right != list(range(len(right))), f"{name} {q['id']}: the right options are the first {len(right)}"


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", NAMES)
def test_the_right_option_is_never_the_longest(name, lang):
    for q in quiz(lang, name):
        if q["type"] != "single_choice":
            continue
        (right,) = right_options(q)
        lengths = [len(o["text"]) for o in q["options"]]
        others = lengths[:right] + lengths[right + 1:]
        assert lengths[right] <= max(others), f"{lang}/{name} {q['id']}: the right option is the longest {lengths}"


def test_no_numbered_section_is_the_old_quick_check_section():
    for name in NAMES:
        for lang in LANGS:
            headings = [m for c in cells(lang, name) if c["cell_type"] == "markdown"
                        for m in re.findall(r"^## \d+\. (Quick check|त्वरित जाँच)$", text(c), re.M)]
            assert not headings or name in PENDING, f"{lang}/{name}: a numbered section holds only quick checks"
