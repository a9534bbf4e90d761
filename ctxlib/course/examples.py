"""The lessons' example data, so notebooks, tests and the CLI share one copy.

``SEED_FILES`` is the four-file throwaway project from Lesson 1 (seed 000), verbatim.
"""

SEED_FILES = {
    "shop/pricing.py": "def apply_discount(price, percent): ... discount discount tax " * 5,
    "shop/cart.py": "class Cart: total discount " * 4,
    "docs/history.md": "release notes and history " * 200,
    "tests/test_pricing.py": "def test_discount ... discount " * 6,
}
SEED_QUERY = ["discount", "pricing"]
SEED_BUDGET = 300

# One sentence in both languages, for the rough rule's failure on Devanagari.
SENTENCE_EN = "The agent only knows what is in its context window, so choose what goes in with care."
SENTENCE_HI = "Agent सिर्फ़ वही जानता है जो उसकी context window में है, इसलिए उसमें क्या जाए यह सोच-समझकर चुनें।"
