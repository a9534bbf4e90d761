"""Which of a few hundred literals a text holds, in about twenty passes over it.

gitleaks runs a rule only if one of its keywords is in the lower-cased text; ctxlib's rule
set has ~275 distinct keywords, and asking ``keyword in text`` for each reads the text ~275
times. ``LiteralSet.present`` answers the same question for all of them at once, exactly:

- the few keywords most texts hold (``LIKELY``: in at least a tenth of the standard library's
  files) are asked with ``in``, which stops at the first occurrence;
- every other keyword is looked for from one of its characters, chosen rare in source code
  (``_PERCENT``) so that few keywords need many characters: one compiled expression per chosen
  character, ``c(?=...)``, which ``re`` searches for with its fast literal-prefix scan and which
  checks, after each ``c``, the keywords anchored on it (a trie of what follows, a lookbehind
  for what comes before). Each hit names its keyword by its group; a keyword that could match
  at the same place as the named one is checked with ``startswith``.
"""
from __future__ import annotations

import re

# Percent of the characters of the standard library's text files (lower-cased), by band; a
# character not listed is rarer than 0.1 %. Used only to choose the characters searched for.
_BANDS = {6.9: "e", 3.7: "tsarnio", 2.5: "l\ndc", 1.4: "f.0pu_m()',1", 0.7: "h-gbx\"=9:2y",
          0.4: "w345vk68>7#", 0.2: "q\\[]+/z*", 26.6: " "}
_PERCENT = {ch: p for p, chars in _BANDS.items() for ch in chars}
# A search pass costs about as much as an anchor character's hits at this frequency (percent).
_PASS_AS_PERCENT = 0.9
LIKELY = frozenset({"s.", "pass", "test_", "ey", "sk", "default", "key", "://", "api", "auth", "ext_", "access"})


def _anchor_choices(keyword: str) -> str:
    # Not the last character (unless it is the only one): after the anchor, the trie's next
    # character rejects most places at once.
    return keyword[:-1] if len(keyword) > 1 else keyword


def _choose_anchors(keywords) -> dict[str, str]:
    """``{keyword: anchor character}``: a greedy weighted set cover, a character costing a
    pass plus its frequency, so that each keyword holds its anchor."""
    def cost(ch):
        return _PASS_AS_PERCENT + _PERCENT.get(ch, 0.05)

    uncovered, chosen = set(keywords), []
    while uncovered:
        best = max(sorted({ch for k in uncovered for ch in _anchor_choices(k)}),
                   key=lambda ch: sum(ch in _anchor_choices(k) for k in uncovered) / cost(ch))
        chosen.append(best)
        uncovered = {k for k in uncovered if best not in _anchor_choices(k)}
    return {k: min((ch for ch in _anchor_choices(k) if ch in chosen), key=lambda ch: (cost(ch), ch))
            for k in keywords}


def _consistent(a: str, ia: int, b: str, ib: int) -> bool:
    """Whether ``a`` with its character ``ia`` and ``b`` with its character ``ib`` at the same
    place can both occur there."""
    shift = ia - ib  # b starts at a's index ``shift``
    return all(a[shift + i] == ch for i, ch in enumerate(b) if 0 <= shift + i < len(a))


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


class LiteralSet:
    """A fixed set of lower-case literals, and which of them a text holds.

    ``LiteralSet(["adafruit", "ghp_", "key"]).present("x = 'ghp_...'")`` -> ``{"ghp_"}``.
    Built once (~10 ms for gitleaks' keywords); ``present`` reads no state but the text.
    """

    def __init__(self, literals):
        self.literals = literals = tuple(sorted({k for k in literals if k}))
        self.likely = [(k, re.compile(re.escape(k))) for k in literals if k in LIKELY]  # re's scan: ~2x ``in``
        anchors = _choose_anchors([k for k in literals if k not in LIKELY])
        self.searches = []  # (compiled, {group name: (keyword, others that can match at its place)})
        for ch in sorted(set(anchors.values())):
            members = [(k, _anchor_choices(k).index(ch)) for k in sorted(anchors) if anchors[k] == ch]
            leaves = [(k[i + 1:], ("(?<=" + re.escape(k) + ")" if i else "") + f"(?P<g{n}>)")
                      for n, (k, i) in enumerate(members)]
            names = {f"g{n}": (k, [(o, j) for o, j in members if o != k and _consistent(k, i, o, j)])
                     for n, (k, i) in enumerate(members)}
            self.searches.append((re.compile(re.escape(ch) + "(?=" + _trie_source(leaves) + ")"), names))

    def present(self, lowered: str) -> set[str]:
        """The literals ``lowered`` holds: exactly ``{k for k in literals if k in lowered}``.

        Args:
            lowered: the text, lower-cased by the caller (the literals are matched as they are).
        Returns:
            a new set of the literals found.
        """
        found = {k for k, search in self.likely if search.search(lowered)}
        for pattern, names in self.searches:
            for m in pattern.finditer(lowered):
                keyword, others = names[m.lastgroup]
                found.add(keyword)
                for other, j in others:  # anchored on the same character, and could be here too
                    at = m.start() - j
                    if at >= 0 and other not in found and lowered.startswith(other, at):
                        found.add(other)
        return found
