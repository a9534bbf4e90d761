"""The lessons' example data, so notebooks, tests and the CLI share one copy.

``LESSON1_FILES`` is Lesson 1's example: the four-file throwaway project of the chapter this
course is built from, verbatim, with its query (``LESSON1_QUERY``) and budget in tokens
(``LESSON1_BUDGET``). ``CHAPTER_CODE`` is that chapter's packing code, exactly as printed there.
"""
from pathlib import Path
from types import MappingProxyType

_LESSON1_FILES = MappingProxyType({
    "shop/pricing.py": "def apply_discount(price, percent): ... discount discount tax " * 5,
    "shop/cart.py": "class Cart: total discount " * 4,
    "docs/history.md": "release notes and history " * 200,
    "tests/test_pricing.py": "def test_discount ... discount " * 6,
})
_LESSON1_QUERY = ("discount", "pricing")
LESSON1_FILES = dict(_LESSON1_FILES)  # the notebook's own copies: a learner's code may change them
LESSON1_QUERY = list(_LESSON1_QUERY)
LESSON1_BUDGET = 300


def lesson1_example() -> tuple[dict, list]:
    """Fresh copies of Lesson 1's files and query, as the chapter gives them.

    The exercise checkers build their cases from these, not from ``LESSON1_FILES``: a packer tried on the
    lesson's own dict in a notebook cell may have popped what it packed, and the checks would then expect
    other answers (108, the right smallest budget, read as "too high") and lose their boundary cases.
    """
    return dict(_LESSON1_FILES), list(_LESSON1_QUERY)


# One sentence in both languages, for the rough rule's failure on Devanagari.
SENTENCE_EN = "The agent only knows what is in its context window, so choose what goes in with care."
SENTENCE_HI = "Agent सिर्फ़ वही जानता है जो उसकी context window में है, इसलिए उसमें क्या जाए यह सोच-समझकर चुनें।"



def _data(name: str) -> str:
    return (Path(__file__).parent / "data" / "lesson1" / name).read_text(encoding="utf-8")


# The chapter's own code, as it prints it (data/lesson1/chapter_code.py.txt); Lesson 1 shows it and
# measures it as a sample of code.
CHAPTER_CODE = _data("chapter_code.py.txt")

# A tiny request, as a harness assembles it on one call (Lesson 1, section 1), written for this
# course: a system prompt, one tool's JSON schema and a task; the files come from LESSON1_FILES.
REQUEST_INSTRUCTIONS = _data("system_prompt.txt").strip()
REQUEST_TOOL = _data("read_file_tool.json").strip()
REQUEST_TASK = _data("task.txt").strip()
