"""What a repository's recent commits say about a task: the ``history`` signal (issue 25).

Lesson 3 ranks files by what they hold. A repository's history says two more things, each
measured on the tuning half of ``benchmarks/bench_eval.py``'s projects (never on the held-back half):

1. **Recency.** Work comes in runs: a file changed in the last few commits is likely to change
   again. The commit the tree is at weighs 1, the one before it ``RECENT_DECAY``, then
   ``RECENT_DECAY`` squared, back ``RECENT_COMMITS`` commits; a file takes its most recent weight.
2. **Similar tasks.** A past commit whose message shares the task's rarer words ("Refresh sync
   reminders", "Update macOS runners") edited files this task is likely to edit too. The last
   ``SIMILAR_COMMITS`` messages are scored against the task's terms with BM25 (the same ``K1``
   and ``B`` as ``bm25.py``); each of the ``SIMILAR_TOP`` best shares its score among the files it
   changed; the largest file's total is 1.

A commit that changed more than ``MAX_FILES`` files (a formatting sweep, a move) says little
about any one of them, and is passed over. Both weights are between 0 and 1; ``ranking.rank_files``
adds ``RECENT_SHARE`` and ``SIMILAR_SHARE`` of the best file's score times them.

A commit here is ``(message, paths)``: the paths it added, modified or changed the type of, newest
first, the first being the commit the files were read at (``safegit.recent_commits`` reads them
with git). The rules are written here to be read; they read no file and start no process.
"""
from __future__ import annotations

import collections
from collections.abc import Iterable, Sequence

from . import bm25
from .i18n import N_, Worded, WordedError, shown

RECENT_COMMITS = 10
RECENT_DECAY = 0.7
RECENT_SHARE = 0.2
SIMILAR_COMMITS = 100
SIMILAR_TOP = 5
SIMILAR_SHARE = 0.2
MAX_FILES = 30
HISTORY_COMMITS = max(RECENT_COMMITS, SIMILAR_COMMITS)  # how many commits the signal reads

Commit = tuple[str, Sequence[str]]  # (message, paths it changed)


def _commits(commits: Iterable[Commit]) -> list[tuple[str, tuple[str, ...]]]:
    if isinstance(commits, (bool, str)) or not isinstance(commits, Iterable):  # history=True raised a bare TypeError
        raise WordedError.of(N_("history must be the recent commits, (message, paths) pairs newest first, as "
                                "safegit.recent_commits returns them; got {commits:.80} (pack_repository(..., "
                                "history=True) reads its folder's own)"), commits=shown(commits))
    out = []
    for i, commit in enumerate(commits):
        if i >= HISTORY_COMMITS:
            break
        try:
            message, paths = commit
        except (TypeError, ValueError):
            raise WordedError.of(N_("commit {i}: expected (message, paths), got {commit:.80}"), i=i, commit=shown(commit)) from None
        if not isinstance(message, str) or isinstance(paths, str):
            raise WordedError.of(N_("commit {i}: expected (message: str, paths: a list of str), got {commit:.80}"), i=i,
                                 commit=shown(commit))
        out.append((message, tuple(paths)))
    return out


def recency(commits: Iterable[Commit], paths) -> dict[str, float]:
    """Each file's recency weight: ``RECENT_DECAY ** i`` for the most recent commit ``i`` (0 = newest) that changed it.

    Args:
        commits: ``(message, paths)`` pairs, newest first (only the first ``RECENT_COMMITS`` are read).
        paths: the files there are (a set or dict of POSIX paths); others are left out.
    Returns:
        ``{path: weight}``, each weight in (0, 1], for the files the recent commits changed.
    Raises:
        ValueError: a commit is not a ``(message, paths)`` pair.
    """
    weight: dict[str, float] = {}
    for i, (_, changed) in enumerate(_commits(commits)[:RECENT_COMMITS]):
        if len(changed) > MAX_FILES:
            continue
        for path in changed:
            if path in paths and path not in weight:
                weight[path] = RECENT_DECAY ** i
    return weight


def similar(commits: Iterable[Commit], terms: Sequence[str], paths) -> dict[str, float]:
    """Each file's share of the past commits whose messages are most like the task (BM25 of the message).

    Args:
        commits: ``(message, paths)`` pairs, newest first (only the first ``SIMILAR_COMMITS`` are read).
        terms: the task's search terms (``ranking.clean_query(...).terms``: lower-case code terms).
        paths: the files there are; others are left out.
    Returns:
        ``{path: weight}`` in (0, 1], the largest 1; empty when no message holds a term.
    Raises:
        ValueError: a commit is not a ``(message, paths)`` pair.
    """
    docs = [(collections.Counter(bm25.code_terms(message)), changed)
            for message, changed in _commits(commits)[:SIMILAR_COMMITS] if 0 < len(changed) <= MAX_FILES]
    if not docs or not terms:
        return {}
    df = collections.Counter(term for words, _ in docs for term in words)
    average = sum(sum(words.values()) for words, _ in docs) / len(docs) or 1.0
    scored = []
    for words, changed in docs:
        length, score = sum(words.values()), 0.0
        for term in set(terms):
            tf = words[term]
            if tf:
                idf = bm25.inverse_document_frequency(len(docs), df[term])
                score += idf * tf * (bm25.K1 + 1) / (tf + bm25.K1 * (1 - bm25.B + bm25.B * length / average))
        if score > 0:
            scored.append((score, changed))
    scored.sort(key=lambda s: -s[0])  # stable: among equal scores the newer commit first
    share: dict[str, float] = collections.defaultdict(float)
    for score, changed in scored[:SIMILAR_TOP]:
        for path in changed:
            if path in paths:
                share[path] += score / len(changed)
    most = max(share.values(), default=0.0)
    return {path: value / most for path, value in share.items()} if most > 0 else {}


def bonuses(commits: Iterable[Commit], terms: Sequence[str], scores: dict[str, float]) -> dict[str, tuple[float, str]]:
    """What the history signal adds to each file's score, and why (``ranking.rank_files``'s last step).

    Args:
        commits: ``(message, paths)`` pairs, newest first (``safegit.recent_commits``).
        terms: the task's search terms. scores: ``{path: score}`` of every file, before this signal.
    Returns:
        ``{path: (bonus, why)}``: ``best x (RECENT_SHARE x recency + SIMILAR_SHARE x similar)``, where
        ``best`` is the best score (1 when no file scored), for each file the history names; ``why`` an
        ``i18n.Worded`` (English as a ``str``, ``why.text("hi")`` in Hindi).
    Raises:
        ValueError: a commit is not a ``(message, paths)`` pair.
    """
    commits = _commits(commits)
    best = max(scores.values(), default=0.0) or 1.0
    recent, alike = recency(commits, scores), similar(commits, terms, scores)
    out = {}
    for path in sorted(set(recent) | set(alike)):
        bonus = best * (RECENT_SHARE * recent.get(path, 0.0) + SIMILAR_SHARE * alike.get(path, 0.0))
        values = {"recent": recent.get(path, 0.0), "alike": alike.get(path, 0.0), "bonus": bonus}
        if path in recent and path in alike:
            why = N_("changed recently (weight {recent:.2f}), changed by commits like the task (weight {alike:.2f}): "
                     "+{bonus:.2f}")
        else:
            why = N_("changed recently (weight {recent:.2f}): +{bonus:.2f}") if path in recent else \
                N_("changed by commits like the task (weight {alike:.2f}): +{bonus:.2f}")
        out[path] = (bonus, Worded((why, values)))
    return out
