"""ctxlib: the context window as a budget. The library behind the course's lessons.

Modules, in the order the lessons use them:
    tokens      exact token counts (tiktoken, offline) and the rough 4-characters rule   (Lesson 1)
    scoring     the lesson's relevance score                                             (Lesson 1)
    packing     the greedy packer under a token budget                                   (Lesson 1)
    ceiling     the first-turn ceiling: window - prefix - task - attempts x (patch + diagnostics) (Lesson 2)
    transcript  the simulator: the one loop under Lesson 2's trim, as ledger records     (Lesson 2)
    ledger      the per-turn token ledger as JSON Lines; p50/p90 from a run log           (Lesson 2)
    repo        reading a repository safely: .gitignore, binaries, size cap, secrets      (Lesson 3)
    bm25        code-aware BM25 ranking, with explain                                     (Lesson 3)
    ranking     the ranking pack walks: BM25 plus named signals, each explained           (Lesson 3)
    evaluate    recall and reciprocal rank on a repository's own git history             (Lesson 3)
    views       a file at different costs: whole, symbol, signatures, line ranges         (Lesson 3)
    strategies  choosing under a budget: greedy, density, exact knapsack                  (Lesson 3)
    render      the packed context as text, Markdown or JSON                              (Lesson 3)
    fit         pack_repository: rank, views, render, re-count in exact tokens            (Lesson 3)
    removal     the one Block (a transcript with identities) and the removal rules        (Lesson 4)
    overflow    the one loop, under any removal rule: what was removed, what was lost     (Lesson 4)
    cost        billed input tokens over a run, with and without a prompt cache           (Lesson 4)
    i18n        messages in the learner's language (gettext catalogs)
    cli         the ``ctxlib`` command's library subcommands

The classroom (quick checks, exercises, progress, grading, widgets, charts, the sample
project) is ``ctxlib.course``; it imports this library, never the reverse.
"""
import importlib

# Loaded on first use (PEP 562), so that "ctxlib count" does not pay for the simulator's imports.
_EXPORTS = {"first_turn_ceiling": "ceiling", "Packed": "packing", "pack_context": "packing",
            "score_file": "scoring", "count_tokens": "tokens", "estimate_tokens": "tokens",
            "get_encoding": "tokens", "token_counter": "tokens", "Loop": "transcript", "simulate": "transcript",
            "pack_repository": "fit"}


def __getattr__(name):
    if name in _EXPORTS:
        value = getattr(importlib.import_module(f".{_EXPORTS[name]}", __name__), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'ctxlib' has no attribute {name!r}")


__version__ = "0.1.0"
__all__ = [
    "Loop",
    "Packed",
    "count_tokens",
    "estimate_tokens",
    "first_turn_ceiling",
    "get_encoding",
    "pack_context",
    "pack_repository",
    "score_file",
    "simulate",
    "token_counter",
]
