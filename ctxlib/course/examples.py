"""The lessons' example data, so notebooks, tests and the CLI share one copy.

``LESSON1_FILES`` is Lesson 1's example: the four-file throwaway project of the chapter this
course is built from, verbatim, with its query (``LESSON1_QUERY``) and budget in tokens
(``LESSON1_BUDGET``). ``CHAPTER_CODE`` is that chapter's packing code, exactly as printed there.
"""
from pathlib import Path

LESSON1_FILES = {
    "shop/pricing.py": "def apply_discount(price, percent): ... discount discount tax " * 5,
    "shop/cart.py": "class Cart: total discount " * 4,
    "docs/history.md": "release notes and history " * 200,
    "tests/test_pricing.py": "def test_discount ... discount " * 6,
}
LESSON1_QUERY = ["discount", "pricing"]
LESSON1_BUDGET = 300

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
