"""ctxlib: the context window as a budget. The library behind the course's lessons.

Modules, in the order the lessons use them:
    tokens    exact token counts (tiktoken, offline) and the rough 4-characters rule
    scoring   the lesson's relevance score
    packing   the greedy packer under a token budget
    quiz      the quick checks
    widgets   the lessons' interactive controls
    cli       the ``ctxlib`` command
"""
from .packing import Packed, pack_context
from .scoring import score_file
from .tokens import count_tokens, estimate_tokens, get_encoding, token_counter

__version__ = "0.1.0"
__all__ = [
    "Packed",
    "count_tokens",
    "estimate_tokens",
    "get_encoding",
    "pack_context",
    "score_file",
    "token_counter",
]
