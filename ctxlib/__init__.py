"""ctxlib: the context window as a budget. The library behind the course's lessons.

Modules, in the order the lessons use them:
    tokens      exact token counts (tiktoken, offline) and the rough 4-characters rule   (Lesson 1)
    scoring     the lesson's relevance score                                             (Lesson 1)
    packing     the greedy packer under a token budget                                   (Lesson 1)
    ceiling     the first-turn ceiling: window - prefix - task - attempts x (patch + diagnostics) (Lesson 2)
    transcript  the turn-by-turn transcript simulator: trim, reply room, stop_reason      (Lesson 2)
    ledger      the per-turn token ledger as JSON Lines; p50/p90 from a run log           (Lesson 2)
    charts      the stacked per-turn chart against the window line                       (Lesson 2)
    quiz        the quick checks: loading, validating, grading
    exercises   code exercises: q.check(), q.hint(), q.solution()
    progress    the learner's progress file, written atomically
    grading     the instructor's grade table from many progress files
    widgets     the lessons' interactive controls, one module per lesson
    cli         the ``ctxlib`` command
"""
from .ceiling import first_turn_ceiling
from .packing import Packed, pack_context
from .scoring import score_file
from .tokens import count_tokens, estimate_tokens, get_encoding, token_counter
from .transcript import Loop, simulate

__version__ = "0.1.0"
__all__ = [
    "Loop",
    "Packed",
    "count_tokens",
    "estimate_tokens",
    "first_turn_ceiling",
    "get_encoding",
    "pack_context",
    "score_file",
    "simulate",
    "token_counter",
]
