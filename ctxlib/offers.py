"""A pack's offers: each relevant file's views, made once, and each view's exact price, counted once.

Lesson 3, "The hard budget". ``fit.pack_ranked`` may walk the ranking twice (the characters-per-token
ceiling is a guess: when it leaves nothing packed, every view is counted exactly) and then, when still
nothing fits, say what the best match needs. Each pass asked ``views.view_options`` afresh, so a Python
file's signatures view was parsed (``ast.parse``) three times and its views counted again for the error:
a 268 kB module under a too-small budget took 3 parses and 1.35 million characters counted. ``Offers``
keeps each file's options as they are made (``view_options`` is lazy, and stays so: a view no pass
reaches is never built) and each option's block tokens once counted, for all the passes of one pack.
"""
from __future__ import annotations

from .views import view_options


class Replay:
    """The items of ``items`` (an iterator), each made once, for any number of walks.

    A walk yields the items made so far, then makes the next ones as it goes: ``list(r)`` twice
    gives the same list, and the iterator was advanced once per item.
    """

    def __init__(self, items):
        self._items, self._made = iter(items), []

    def __iter__(self):
        i = 0
        while True:
            if i == len(self._made):
                try:
                    self._made.append(next(self._items))
                except StopIteration:
                    return
            yield self._made[i]
            i += 1


class Offers:
    """The options of one pack's files (``views.view_options``) and their exact block tokens (``fit.Frame``).

    ``options(path, score, copies)`` gives the file's options, made once per path whatever the passes;
    ``block_tokens(option)`` its cost as a block, counted once per option.
    """

    def __init__(self, files: dict[str, str], terms, view: str, frame):
        self.files, self.terms, self.view, self.frame = files, terms, view, frame
        self._options: dict[str, Replay] = {}
        self._tokens: dict[int, int] = {}  # id(option) -> tokens; the options live in self._options

    def options(self, path: str, score: float, copies=()) -> Replay:
        """``path``'s options, richest view first (the first call's ``score`` and ``copies`` hold for later ones)."""
        if path not in self._options:
            self._options[path] = Replay(view_options(path, self.files[path], self.terms, score, self.view, copies))
        return self._options[path]

    def block_tokens(self, option) -> int:
        """``frame.block_tokens(option)``, counted the first time only."""
        key = id(option)
        if key not in self._tokens:
            self._tokens[key] = self.frame.block_tokens(option)
        return self._tokens[key]
