"""Why a file was left out: a reason is a code and its parameters; the catalog words it when shown.

Lessons 1 and 3. The reader (``repo.py``), the safe file reader (``safefile.py``) and the
packers (``packing.py``, ``fit.py``) each say *why* a file was skipped or refused. That why is
data: a ``Reason`` code plus its parameters, ``Skipped.of("big.csv", Reason.TOO_BIG, size=2_086_091,
cap=1_048_576)``. Code that needs to know why compares codes (``s.code is Reason.NO_MATCH``); only
the display turns a code into words, in the viewer's language, through the message catalog::

    Skipped.of("a.py", Reason.IGNORED).text("hi")  ->  '.gitignore में लिखा है'

So rewording a sentence in the catalog changes what a person reads and nothing else: grouping
in the command's report and the lesson's Hindi display follow the code, never the English. The
same idea as Django's form errors (a ``code`` and ``params``, the message looked up when shown)
and ``http.HTTPStatus`` (a name and a phrase per status).

Adding a reason: one member below, ``NAME = "code", N_("the English words {with} {params}")``,
plus ``group=N_(...)`` when its parameters differ per file (a size) and a report lists many of
them on one line; then ``python3 run.py catalogs`` and the Hindi in the ``.po`` file. A parameter
named in ``WORDED_PARAMS`` holds a message id itself (``kind="cache"``) and is translated too.
"""
from __future__ import annotations

from dataclasses import dataclass, replace
from enum import Enum

from .i18n import N_, OsProblem, in_lang, message

WORDED_PARAMS = frozenset({"kind"})  # parameters whose value is a message id, worded in the viewer's language


class Reason(Enum):
    """A reason code (``.value``, stable, for JSON and tests), its words (``.msgid``) and, for codes
    whose words carry per-file details, the words for a group of them (``.group``)."""

    def __new__(cls, code: str, msgid: str, group: str = ""):
        member = object.__new__(cls)
        member._value_ = code
        member.msgid, member.group = msgid, group
        return member

    # The reader (repo.py, safefile.py, the count command): files it never read or read with a remark.
    IGNORED = "ignored", N_("ignored by .gitignore")
    EXCLUDED = "excluded", N_("left out by --exclude")  # was "ignored by .gitignore" too
    EXCLUDED_DIR = "excluded-dir", N_("excluded by default ({kind})"), N_("excluded by default")
    NOT_INCLUDED = "not-included", N_("not matched by --include")
    CREDENTIAL_FILE = ("credential-file", N_("looks like a credential file ({pattern})"),
                       N_("looks like a credential file"))
    BINARY = "binary", N_("binary (NUL bytes in the first 8 KiB)"), N_("binary")
    TOO_BIG = ("too-big", N_("larger than the size cap ({size:,} bytes > {cap:,})"),
               N_("larger than the size cap"))
    NOT_REGULAR = "not-regular", N_("is {kind}, not a regular file; not read")
    NOT_REPLACED = "not-replaced", N_("is {kind}, not a regular file; not replaced")
    TOO_DEEP = "too-deep", N_("JSON nested {depth:,} levels deep (at most {most} are read)")
    NUMBER_TOO_LONG = ("number-too-long", N_("holds a number {digits:,} digits long (at most {most} are read)"),
                       N_("holds a number too long to read"))
    CANNOT_READ = "cannot-read", N_("cannot be read ({problem})"), N_("cannot be read")
    FOLDER_UNREADABLE = ("folder-unreadable", N_("folder cannot be read ({problem})"),
                         N_("folder cannot be read"))
    TOO_MANY_IGNORE_FILES = ("too-many-ignore-files", N_("folder not read: more than {most} .gitignore files apply to it"),
                             N_("folder not read: too many .gitignore files apply to it"))
    PATH_TOO_LONG = ("path-too-long", N_("folder not read: its path is longer than {most:,} bytes"),
                     N_("folder not read: its path is too long"))
    TOO_MANY_ENTRIES = ("too-many-entries", N_("folder not read: the walk passed {most:,} files and folders, the most "
                                             "a tree may hold"), N_("folder not read: the tree holds too many files"))
    TREE_FULL = ("tree-full", N_("not read: the files read before it hold {most:,} bytes, the most a tree may"),
                 N_("not read: the tree's files passed the most a tree may hold"))
    SYMLINK_INSIDE = "symlink-inside", N_("symbolic link to inside the root: not followed")
    SYMLINK_OUTSIDE = "symlink-outside", N_("symbolic link to outside the root: not followed")
    SYMLINK_LOOP = ("symlink-loop", N_("symbolic link not resolved within {most} links and {steps:,} names (a loop or "
                                       "a long chain): not followed"), N_("symbolic link too long to resolve: not followed"))
    NO_SUCH_FILE = "no-such-file", N_("no such file or folder")
    NOT_UTF8 = ("not-utf8", N_("not valid UTF-8 (first bad byte at offset {offset}); "
                               "undecodable bytes replaced with U+FFFD"), N_("not valid UTF-8"))
    PATTERNS_CUT = ("patterns-cut", N_("only its first {most:,} patterns are used; the {cut:,} after them are left out"),
                    N_("only its first patterns are used; the rest are left out"))
    BAD_PATTERN = ("bad-pattern", N_("line {number} ({line!r}) is not a pattern; left out"),
                   N_("not a pattern; left out"))
    # Lesson 1's greedy packer (packing.py).
    SCORES_ZERO = "scores-zero", N_("scores 0")
    NO_ROOM = "no-room", N_("{cost:,} tokens do not fit in the {left:,} left")
    # Lesson 3's packer (fit.py).
    NO_MATCH = "no-match", N_("scores 0 for the query")
    SECRET = "secret", N_("holds a secret ({detector})"), N_("holds a secret")
    NO_VIEW_FITS = "no-view-fits", N_("does not fit in what was left, in any view")
    NOT_CHOSEN = "not-chosen", N_("not chosen by the {strategy} strategy")
    BUDGET_FULL = "budget-full", N_("not reached: the budget was full")
    WALK_STOPPED = ("walk-stopped", N_("not reached: the walk stopped after {files} files in a row that "
                                       "did not fit ({left:,} tokens were left)"),
                    N_("not reached: the walk stopped after {files} files in a row that did not fit"))
    # Footholds first (strategies.footholds_first) stops at the first file whose cheapest view does not fit.
    STOPPED_HERE = "stopped-here", N_("the walk stopped here: its cheapest view ({cost:,} tokens) did not fit in the {left:,} left")
    STOPPED_AT = "stopped-at", N_("not reached: the walk stopped at {file}, whose cheapest view ({cost:,} tokens) "
                                  "did not fit in the {left:,} left")
    NOT_WEIGHED = "not-weighed", N_("not reached: the {strategy} strategy weighs only the {most} best-ranked files")
    SAME_BYTES = ("same-bytes", N_("the same bytes as {first}: packed once, under that path"),
                  N_("the same bytes as another file: packed once"))
    DROPPED = ("dropped", N_("dropped: the rendered pack was {over} tokens over budget"),
               N_("dropped: the rendered pack was over budget"))


# The packer's codes for a relevant file it left out (the rest are the reader's, or "scores 0").
LEFT_OUT_BY_PACKER = frozenset({Reason.SECRET, Reason.NO_VIEW_FITS, Reason.NOT_CHOSEN, Reason.BUDGET_FULL,
                                Reason.WALK_STOPPED, Reason.STOPPED_HERE, Reason.STOPPED_AT,
                                Reason.NOT_WEIGHED, Reason.DROPPED, Reason.SAME_BYTES})


def _worded(params, lang: str) -> dict:
    return {k: message(v, lang) if k in WORDED_PARAMS else in_lang(v, lang) if isinstance(v, OsProblem) else v
            for k, v in params}


@dataclass(frozen=True)
class Skipped:
    """A file or folder left out (or kept with a remark): its path, the ``Reason`` and its parameters.

    ``params`` is a tuple of ``(name, value)`` pairs, so a ``Skipped`` is hashable and compares by
    path, code and parameters. ``text(lang)`` words it; ``str(skipped)`` and ``reason`` are the English.
    """

    path: str
    code: Reason
    params: tuple = ()

    @classmethod
    def of(cls, path: str, code: Reason, **params) -> "Skipped":
        """``Skipped.of("a.bin", Reason.BINARY)``; ``Skipped.of("x.py", Reason.NO_ROOM, cost=46, left=23)``.

        Raises ``TypeError`` if ``code`` is not a ``Reason`` and ``KeyError`` if its words name a
        parameter not given (checked now, not when the report is printed).
        """
        if not isinstance(code, Reason):
            raise TypeError(f"a reason must be a ctxlib.reasons.Reason, got {code!r}")
        skipped = cls(path, code, tuple(params.items()))
        skipped.text("en")
        return skipped

    def param(self, name: str, default=None):
        """The value of parameter ``name`` (``skipped.param("cost")`` -> 46), or ``default``."""
        return next((value for key, value in self.params if key == name), default)

    def at(self, path: str) -> "Skipped":
        """The same reason for another path (the count command prefixes a folder's name)."""
        return replace(self, path=path)

    def text(self, lang: str = "en") -> str:
        """The reason in ``lang`` (``"en"`` or ``"hi"``), from the catalog; ``ValueError`` for another language."""
        return message(self.code.msgid, lang, **_worded(self.params, lang))

    def group_text(self, lang: str = "en") -> str:
        """The words for many files with this code: ``group`` if the code has one, else ``text(lang)``.

        ``Skipped.of("big.csv", Reason.TOO_BIG, size=9, cap=8).group_text()`` -> ``"larger than the size cap"``.
        """
        if not self.code.group:
            return self.text(lang)
        return message(self.code.group, lang, **_worded(self.params, lang))

    def group_key(self) -> tuple:
        """What files reported on one line share: the code alone if it has ``group`` words, else code and params."""
        return (self.code,) if self.code.group else (self.code, self.params)

    @property
    def reason(self) -> str:
        """The reason in English: ``"ignored by .gitignore"``."""
        return self.text("en")

    def __str__(self) -> str:
        return self.reason


def group_by_reason(skipped) -> list[list[Skipped]]:
    """``Skipped`` entries in groups that one report line can name, in order of first appearance.

    Entries share a group when they share a code and, unless the code has words for a group
    (``Reason.group``: sizes, rules, problems that differ per file), its parameters too.
    """
    groups: dict[tuple, list] = {}
    for s in skipped:
        groups.setdefault(s.group_key(), []).append(s)
    return list(groups.values())
