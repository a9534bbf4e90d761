"""Where each of a few hundred literals occurs in a text, in about sixteen passes over it.

gitleaks runs a rule only if one of its keywords is in the lower-cased text; ctxlib's rule
set has ~390 distinct keywords, and asking ``keyword in text`` for each reads the text ~390
times. ``LiteralSet.find`` answers for all of them at once, exactly, and gives every place
each one occurs (which the scanner then uses instead of searching again): each literal is
looked for from one of its characters, chosen rare in source code (``_PERCENT``) so that few
characters serve all literals (a greedy weighted set cover); one compiled expression per
chosen character, ``c(?=...)``, which ``re`` searches for with its fast literal-prefix scan
and which checks, after each ``c``, the literals anchored on it (a trie of what follows, a
lookbehind for what comes before). A hit names its literal by its group; a literal that could
match at the same place as the named one is checked with ``startswith``.
"""
from __future__ import annotations

import functools
import re

from . import compiledre

# Percent of the characters of the standard library's text files (lower-cased), by band; a
# character not listed is rarer than 0.1 %. Used only to choose the characters searched for.
_BANDS = {6.9: "e", 3.7: "tsarnio", 2.5: "l\ndc", 1.4: "f.0pu_m()',1", 0.7: "h-gbx\"=9:2y",
          0.4: "w345vk68>7#", 0.2: "q\\[]+/z*", 26.6: " "}
_PERCENT = {ch: p for p, chars in _BANDS.items() for ch in chars}
# A search pass costs about as much as an anchor character's hits at this frequency (percent).
_PASS_AS_PERCENT = 0.9


def _choose_anchors(literals) -> dict[str, int]:
    """``{literal: index of its anchor character}``: a greedy weighted set cover, a character
    costing a pass plus its frequency, so that each literal holds its anchor. The greedy can take a
    common character for the many literals it covers at once ("t" for a few dozen new keywords, 3.7 %
    of the text): each common one it took is then banned in turn, and the cover found without it
    kept if it costs less (a few more greedy covers, ~2 ms each, once a process)."""
    def cost(ch):
        return _PASS_AS_PERCENT + _PERCENT.get(ch, 0.05)

    def cover(banned):
        holding: dict[str, set] = {}  # character -> the literals holding it
        for k in literals:
            for ch in k:
                if ch not in banned:
                    holding.setdefault(ch, set()).add(k)
        uncovered, chosen = set(literals), set()
        while uncovered:
            if not holding:
                return None  # a literal of banned characters only
            best = max(sorted(holding), key=lambda ch: len(holding[ch] & uncovered) / cost(ch))
            chosen.add(best)
            uncovered -= holding.pop(best)
        return chosen

    chosen, banned = cover(frozenset()), frozenset()
    for ch in sorted((c for c in chosen if _PERCENT.get(c, 0) >= 1.4), key=lambda c: (-cost(c), c)):
        other = cover(banned | {ch})
        if other is not None and sum(map(cost, other)) < sum(map(cost, chosen)):
            chosen, banned = other, banned | {ch}
    return {k: min((i for i, ch in enumerate(k) if ch in chosen), key=lambda i: (cost(k[i]), i)) for k in literals}


def _consistent(a: str, ia: int, b: str, ib: int) -> bool:
    """Whether ``a`` with its character ``ia`` and ``b`` with its character ``ib`` at the same
    place can both occur there."""
    shift = ia - ib  # b starts at a's index ``shift``
    lo, hi = max(0, shift), min(len(a), shift + len(b))
    return a[lo:hi] == b[lo - shift:hi - shift]


def _trie_source(items) -> str:
    # items: (what follows the anchor, group source) -> a regex alternation, children first
    trie: dict = {}
    for rest, leaf in items:
        node = trie
        for ch in rest:
            node = node.setdefault(ch, {})
        node.setdefault(None, []).append(leaf)

    def emit(node):
        alts = [re.escape(ch) + emit(child) for ch, child in sorted((c, n) for c, n in node.items() if c is not None)]
        alts += node.get(None, [])
        return alts[0] if len(alts) == 1 else "(?:" + "|".join(alts) + ")"

    return emit(trie)


def plan_of(literals) -> list:
    """What ``LiteralSet`` searches ``literals`` with, as plain data (JSON): ``[[anchor, expression, {group:
    [literal, its anchor index, [[another literal anchored on the same character that could match at the same
    place, its anchor index], ...]]}], ...]``, one item per anchor character (``_choose_anchors``)."""
    literals = sorted({k for k in literals if k})
    anchors = _choose_anchors(literals)
    plan = []
    for ch in sorted({k[i] for k, i in anchors.items()}):
        members = [(k, anchors[k]) for k in literals if k[anchors[k]] == ch]
        leaves = [(k[i + 1:], ("(?<=" + re.escape(k) + ")" if i else "") + f"(?P<g{n}>)")
                  for n, (k, i) in enumerate(members)]
        names = {f"g{n}": [k, i, [[o, j] for o, j in members if o != k and _consistent(k, i, o, j)]]
                 for n, (k, i) in enumerate(members)}
        plan.append([ch, re.escape(ch) + "(?=" + _trie_source(leaves) + ")", names])
    return plan


class LiteralSet:
    """A fixed set of literals, and where a text holds each of them (for gitleaks' keyword
    prefilter: a rule runs only if the lower-cased text holds one of its keywords).

    Args:
        literals: strings (an empty one is dropped); matched as they are, case and all.
    Raises:
        nothing: each literal is escaped into the expressions.

    ``LiteralSet(["ghp_", "key"]).find("key = 'ghp_x' # key")`` -> ``{"key": [0, 16], "ghp_": [7]}``.
    ``plan``: ``plan_of(literals)`` made earlier (the scanner ships its keywords' plan, ``credentials._keywords``):
    planning 486 keywords takes ~50 ms, compiling the plan's expressions ~15 ms. ``find`` reads no state but the text.
    """

    def __init__(self, literals, plan=None):
        literals = sorted({k for k in literals if k})
        self.literals = frozenset(literals)
        # A shipped plan's expressions are compiled once per machine (compiledre); a new set's in each process.
        compile_ = re.compile if plan is None else compiledre.compile_cached
        # (anchor, compiled, {group: (literal, its anchor index, [(other, its index)])})
        self.searches = [(ch, compile_(source), {group: (k, i, [tuple(o) for o in others])
                                                   for group, (k, i, others) in names.items()})
                         for ch, source, names in (plan_of(literals) if plan is None else plan)]

    def find(self, text: str) -> dict[str, list[int]]:
        """Every place each literal occurs in ``text``.

        Args:
            text: the text (the literals are matched as they are: lower-case both for a
                case-blind search).
        Returns:
            ``{literal: [offset, ...]}`` for the literals ``text`` holds, each list ascending and
            holding every start, overlapping ones too: exactly ``[i for i in range(len(text))
            if text.startswith(literal, i)]``; a literal it does not hold is not a key.
        Raises:
            nothing.
        """
        found: dict[str, list[int]] = {}
        for anchor, pattern, names in self.searches:
            if anchor not in text:  # a memchr: much faster than the pattern's scan
                continue
            for m in pattern.finditer(text):
                literal, i, others = names[m.lastgroup]
                at = m.start()
                found.setdefault(literal, []).append(at - i)
                for other, j in others:  # anchored on the same character, and could be here too
                    if at >= j and text.startswith(other, at - j):
                        found.setdefault(other, []).append(at - j)
        return found


def holds_any(words: tuple, text: str) -> bool:
    """Whether ``text`` holds one of ``words``: ``any(w in text for w in words)``, the same answer.

    gitleaks' stopwords (an allowlist drops a secret that holds one) are its use; for a long
    list (generic-api-key's has 1,446) the words are looked up by their first two characters
    at each place of ``text``, ~15x faster on a secret of 30 characters.

    Args:
        words: a tuple of strings (the index built for a long one is kept, by the tuple);
        text: the text, lower-cased by the caller for a case-blind answer.
    Returns:
        ``True`` if some word is in ``text`` (the empty word always is). Raises nothing.
    """
    if len(words) < 32:
        return any(w in text for w in words)
    by_start, short = _by_start(words)
    return any(w in text for w in short) or any(
        (found := by_start.get(text[i:i + 2])) is not None and any(text.startswith(w, i) for w in found)
        for i in range(len(text) - 1))


@functools.cache
def _by_start(words: tuple) -> tuple[dict, tuple]:
    by_start: dict[str, list] = {}
    for w in words:
        if len(w) >= 2:
            by_start.setdefault(w[:2], []).append(w)
    return by_start, tuple(w for w in words if len(w) < 2)
