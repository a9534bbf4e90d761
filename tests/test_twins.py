"""Twins held equal in structure: each Hindi lesson has its English twin's skeleton.

A Hindi notebook may word everything its own way, but a reader who follows "section 5" or a
quick check's number must find the same place in both. So, per lesson, the two notebooks must
have the same headings (level and section number, in order), the same quick checks and exercises
(by id, in the same numbered section, in the same order) and the same number of code cells. The
words of a heading are not compared: that is the translation's business.
"""
from __future__ import annotations

import json
import re

import pytest
from saved_outputs import LESSONS

NAMES = sorted(p.name for p in (LESSONS / "en").glob("*.ipynb"))
HEADING = re.compile(r"^(#{1,6})\s+(?:(\d+)\.\s)?")
# show_checks(lesson, LANG, ["a", "b"]), show_quiz(lesson, LANG, ids=["a"]), exercise(lesson, "id", LANG)
CHECKS = re.compile(r"show_(?:checks|quiz)\([^\[\)]*\[([^\]]*)\]")
EXERCISE = re.compile(r"exercise\(\s*\"[^\"]+\"\s*,\s*\"([^\"]+)\"")


def skeleton(cells: list[dict]) -> dict:
    """The structure of a notebook's cells: headings, graded items per section, code cells.

    Returns ``{"headings": [(level, section number or None), ...], "graded": [(section, kind, id),
    ...], "code_cells": n}``, where section is the number of the last numbered heading above the
    item (None before the first). Fenced code blocks in markdown are not headings.
    """
    headings, graded, section, code = [], [], None, 0
    for cell in cells:
        text = "".join(cell["source"])
        if cell["cell_type"] == "markdown":
            text = re.sub(r"```.*?```", "", text, flags=re.S)
            for line in text.splitlines():
                m = HEADING.match(line)
                if m:
                    headings.append((len(m.group(1)), m.group(2)))
                    if m.group(2):
                        section = m.group(2)
        elif cell["cell_type"] == "code":
            code += 1
            for m in CHECKS.finditer(text):
                graded += [(section, "check", i) for i in re.findall(r"\"([^\"]+)\"", m.group(1))]
            graded += [(section, "exercise", i) for i in EXERCISE.findall(text)]
    return {"headings": headings, "graded": graded, "code_cells": code}


def differences(en: list[dict], hi: list[dict]) -> list[str]:
    """What differs between the skeletons of two twins' cells, in words (empty if nothing)."""
    a, b = skeleton(en), skeleton(hi)
    found = []
    if a["headings"] != b["headings"]:
        found.append(f"headings differ: en has {len(a['headings'])} {a['headings']}, "
                     f"hi has {len(b['headings'])} {b['headings']}")
    if a["graded"] != b["graded"]:
        found.append(f"quick checks and exercises differ: en {a['graded']}, hi {b['graded']}")
    if a["code_cells"] != b["code_cells"]:
        found.append(f"code cells: en {a['code_cells']}, hi {b['code_cells']}")
    return found


def cells(lang: str, name: str) -> list[dict]:
    return json.loads((LESSONS / lang / name).read_text(encoding="utf-8"))["cells"]


@pytest.mark.parametrize("name", NAMES)
def test_hindi_twin_has_the_english_skeleton(name):
    assert differences(cells("en", name), cells("hi", name)) == []


def md(text):
    return {"cell_type": "markdown", "source": [text]}


def code(text):
    return {"cell_type": "code", "source": [text], "outputs": []}


EN = [md("# Lesson 9 · Title\n\nIntro."), md("## 1. One\n\nText."),
      code('show_checks("09_x", LANG, ["first", "second"])'), md("## 2. Two"),
      code('q = exercise("09_x", "own_thing", LANG)'), md("## Recap\n\n```\n# not a heading\n```")]


def test_an_identical_skeleton_passes_whatever_the_words():
    hi = [md("# पाठ 9 · शीर्षक\n\nभूमिका।"), md("## 1. एक\n\nपाठ।"), EN[2], md("## 2. दो"), EN[4], md("## सार")]
    assert differences(EN, hi) == []


def test_a_lost_heading_is_caught():
    # Lesson 4's Hindi once had its sections' text without their "## N." headings.
    hi = [EN[0], md("One, without its heading."), EN[2], EN[3], EN[4], EN[5]]
    assert any("headings differ" in d for d in differences(EN, hi))


def test_a_renumbered_section_is_caught():
    hi = [EN[0], md("## 1. One"), EN[2], md("## 3. Two"), EN[4], EN[5]]
    assert any("headings differ" in d for d in differences(EN, hi))


def test_a_check_moved_to_another_section_is_caught():
    hi = [EN[0], EN[1], EN[3], EN[2], EN[4], EN[5]]
    assert any("quick checks" in d for d in differences(EN, hi))


def test_a_missing_code_cell_is_caught():
    hi = EN[:-1] + [code("print(1)"), EN[-1]]
    assert differences(EN, hi) == ["code cells: en 2, hi 3"]


def test_the_skeleton_of_a_real_lesson():
    s = skeleton(cells("en", "04_what_to_remove.ipynb"))
    assert [n for level, n in s["headings"] if level == 2 and n] == [str(i) for i in range(1, 11)]
    assert (("1", "check", "first_traceback_loss") in s["graded"]
            and ("4", "exercise", "own_superseded") in s["graded"])
