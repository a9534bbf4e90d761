"""Identical files: which texts of a tree are copies of one another, found without hashing every text.

Lesson 3, "The hard budget". A repository can hold one file several times (a vendored copy, a file
copied into two packages, the benchmark's tree read four times). Ranking reads each distinct text
once, and a pack shows it once (``strategies.same_bytes``). Texts are grouped by length first, so a
tree without copies costs one ``len`` per file and no pass over any text; texts of one length are
compared with ``==`` (C's ``memcmp``, which stops at the first difference). Past ``COMPARED``
distinct texts of one length a dictionary takes over, so many files of one length (a hostile tree)
cost one hash each, never a comparison with every other.
"""
from __future__ import annotations

COMPARED = 8  # distinct texts of one length compared one by one before a dictionary takes over


def first_copies(texts) -> list[int]:
    """For each of ``texts``, the index of the first text equal to it (its own index if none before is).

    Args:
        texts: a sequence of strings (or of bytes), e.g. ``list(files.values())``.
    Returns:
        a list as long as ``texts``. ``first_copies(["a = 1", "b", "a = 1"])`` -> ``[0, 1, 0]``.
    """
    pool, first_of = SharedTexts(), {}  # id of each distinct text (the pool keeps it alive) -> its first index
    return [first_of.setdefault(id(pool.share(text)), k) for k, text in enumerate(texts)]


class SharedTexts:
    """One string object for each distinct text: ``share(text)`` returns the first equal text it was given.

    ``read_repo`` passes every file's text through one of these, so a tree holding 5,000 copies of a
    file holds its text once (it held 5,000: 845 MB at the peak for 5,000 copies of a 74 kB module).
    Grouped by length as ``first_copies`` is: a text of a new length costs one ``len``.

    ``pool = SharedTexts(); a = pool.share("x = 1"); pool.share("x = " + "1") is a`` -> ``True``.
    """

    def __init__(self):
        self._groups: dict[int, list[str] | dict] = {}  # length -> its distinct texts (or text -> text)

    def share(self, text: str) -> str:
        """``text``, or the equal text shared before it. Raises nothing (any ``str`` or ``bytes``)."""
        group = self._groups.get(len(text))
        if group is None:
            self._groups[len(text)] = [text]
            return text
        if isinstance(group, dict):
            return group.setdefault(text, text)
        for other in group:
            if other == text:
                return other
        group.append(text)
        if len(group) > COMPARED:
            self._groups[len(text)] = {t: t for t in group}
        return text
