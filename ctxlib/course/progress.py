"""The learner's progress file, and the instructor's grade table built from many of them.

Every quick check a learner answers (a widget's Check button, a code exercise's ``q.check``)
appends one attempt to a local JSON file: lesson, question id, outcome, hints used, whether
the solution was viewed, and the UTC time. Viewing a code exercise's solution is recorded too,
with outcome ``null``. The file is ``~/.ctxlib/progress.json``, or the path in the environment
variable ``CTXLIB_PROGRESS`` (tests and notebook runs point it at a throwaway file)::

    {"format": "ctxlib-progress", "version": 1, "learner": "Asha",
     "attempts": [{"lesson": "01_window_as_budget", "question": "whole_repo", "outcome": "passed",
                   "hints_used": 0, "solution_viewed": false, "time": "2025-05-01T09:30:00Z"}]}

Safety: every write is ``ctxlib.safefile.write_atomically`` (a temporary file in the same folder,
then renamed over the old one, never over a link or a device), so a crash mid-write leaves the
old file whole. A file that is not JSON, or not a progress file, is never overwritten: it is
renamed ``progress.json.corrupt-<UTC time>``, reported, and a new file is started with what can
be kept of it (``salvage``: the learner and every attempt that passes the schema on its own). A
UTF-8 byte order mark is accepted; a number over 100 digits is refused with a reason.

Several writers at once (two notebooks, a notebook and ``ctxlib progress --name``): every
write holds a lock on ``<file>.lock`` (``filelock``), re-reads the file under the lock and
appends to what it finds, so no attempt is lost (``tests/test_progress.py`` runs 4 processes
x 200 attempts); ``ctxlib progress``, which may move a corrupt file aside, reads under it too
(``lock_to_read``). Reading is ``ctxlib.safefile``'s: only a regular file of at most
``MAX_PROGRESS_BYTES``, JSON nested at most 64 deep; anything else is refused with a reason.

A question's outcome for scoring is its best attempt: passed, else failed (a wrong answer or
an error), else not attempted. Not handled: merging one learner's files from two machines;
file systems where locks do not work (some network shares), where the later write wins.
"""
from __future__ import annotations

import contextlib
import json
import os
import sys
from datetime import datetime, timezone
from errno import ENOENT
from pathlib import Path

from ctxlib import safefile
from ctxlib.i18n import LANGS, N_, Worded, WordedError, in_lang, message

FORMAT, VERSION = "ctxlib-progress", 1
OUTCOMES = ("passed", "failed", "not attempted", "error")
SCHEMA = {
    "type": "object", "required": ["format", "version", "attempts"],
    "properties": {
        "format": {"const": FORMAT}, "version": {"const": VERSION}, "learner": {"type": ["string", "null"]},
        "attempts": {"type": "array", "items": {
            "type": "object", "required": ["lesson", "question", "outcome", "hints_used", "solution_viewed", "time"],
            "properties": {"lesson": {"type": "string"}, "question": {"type": "string"},
                           "outcome": {"enum": [*OUTCOMES, None]}, "hints_used": {"type": "integer", "minimum": 0},
                           "solution_viewed": {"type": "boolean"}, "time": {"type": "string"}}}},
    },
}
# What a notebook says when the progress file is in trouble; translated by ctxlib.i18n.
NOTES = {
    "moved": N_("ctxlib: your progress file could not be read ({problem}); it is kept as {name} "
                "and a new one is started."),
    "not_saved": N_("ctxlib: this attempt was not saved to your progress file ({problem})."),
}


MAX_PROGRESS_BYTES = 16 * 1024 * 1024  # ~100,000 attempts; a larger "progress file" is something else
LOCK_TIMEOUT_SECONDS = 30


class ProgressError(WordedError):
    """A progress file that cannot be used: not UTF-8, not JSON, or not in ctxlib's progress format; ``str()`` is
    the English, ``text(lang)`` the reason in ``lang`` (a field's own problem stays as the schema says it)."""


class ProgressPathError(ValueError):
    """``CTXLIB_PROGRESS`` or the home folder names no usable place, e.g. ``~nosuchuser/p.json``."""


BROWSER_DRIVE = Path("/drive")  # where JupyterLite's Pyodide kernel mounts the site's files


def progress_path() -> Path:
    """The learner's progress file: ``$CTXLIB_PROGRESS`` if set, else ``~/.ctxlib/progress.json``.

    The test suite's ``conftest.py`` sets ``CTXLIB_PROGRESS`` to a throwaway file, for the
    tests and for the notebook kernels nbval starts, so no test writes into the real home.
    Raises ``ProgressPathError`` when a ``~user`` in it cannot be expanded (no such user, no home).

    In the browser build (Pyodide in JupyterLite) the home folder lives in memory and is gone
    on reload, so the file is ``ctxlib-progress.json`` at the top of the file browser
    (``/drive``, kept in the browser's storage), same format; download it from there to hand it in.
    """
    setting = os.environ.get("CTXLIB_PROGRESS")
    if not setting and sys.platform == "emscripten" and BROWSER_DRIVE.is_dir():
        return BROWSER_DRIVE / "ctxlib-progress.json"
    try:
        return Path(setting).expanduser() if setting else Path.home() / ".ctxlib" / "progress.json"
    except (RuntimeError, KeyError, OSError):  # Path.expanduser: "Could not determine home directory."
        where = f"CTXLIB_PROGRESS={setting!r}" if setting else "the home folder"
        raise ProgressPathError(f"{where}: the home folder in it cannot be found; "
                                f"set CTXLIB_PROGRESS to a full path") from None


def utc_now() -> str:
    """The current UTC time as ISO 8601 to the second, e.g. ``"2025-05-01T09:30:00Z"``."""
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def new_progress(learner: str | None = None) -> dict:
    """An empty progress record for ``learner`` (``None``: the file name will stand for the name)."""
    return {"format": FORMAT, "version": VERSION, "learner": learner, "attempts": []}


def schema_problem(data) -> str | None:
    """What in ``data`` breaks ``SCHEMA``, as ``"field attempts/0/outcome: 'maybe' is not one of [...]"``, or ``None``.

    A hand-written check of the small schema above (``tests/test_progress.py`` holds it equal
    to jsonschema's verdict), because importing jsonschema costs ~2 s of start-up.
    """
    if not isinstance(data, dict):
        return f"field (top level): {data!r} is not of type 'object'"
    for name in SCHEMA["required"]:
        if name not in data:
            return f"field (top level): {name!r} is a required property"
    if data["format"] != FORMAT:
        return f"field format: {FORMAT!r} was expected"
    if data["version"] != VERSION or isinstance(data["version"], bool):
        return f"field version: {VERSION} was expected"
    if "learner" in data and data["learner"] is not None and not isinstance(data["learner"], str):
        return f"field learner: {data['learner']!r} is not of type 'string', 'null'"
    if not isinstance(data["attempts"], list):
        return f"field attempts: {data['attempts']!r} is not of type 'array'"
    item = SCHEMA["properties"]["attempts"]["items"]
    for i, a in enumerate(data["attempts"]):
        at = f"attempts/{i}"
        if not isinstance(a, dict):
            return f"field {at}: {a!r} is not of type 'object'"
        for name in item["required"]:
            if name not in a:
                return f"field {at}: {name!r} is a required property"
        for name in ("lesson", "question", "time"):
            if not isinstance(a[name], str):
                return f"field {at}/{name}: {a[name]!r} is not of type 'string'"
        if a["outcome"] not in item["properties"]["outcome"]["enum"] or isinstance(a["outcome"], bool):
            return f"field {at}/outcome: {a['outcome']!r} is not one of {item['properties']['outcome']['enum']!r}"
        hints = a["hints_used"]
        if isinstance(hints, bool) or not isinstance(hints, int) and not (isinstance(hints, float) and hints.is_integer()):
            return f"field {at}/hints_used: {hints!r} is not of type 'integer'"
        if hints < 0:
            return f"field {at}/hints_used: {hints!r} is less than the minimum of 0"
        if not isinstance(a["solution_viewed"], bool):
            return f"field {at}/solution_viewed: {a['solution_viewed']!r} is not of type 'boolean'"
    return None


def parse_progress(text: str) -> dict:
    """The progress record in ``text``; ``ProgressError`` saying what is wrong (empty, not JSON,
    nested too deep, a bad field). A record without ``"learner"`` (the schema allows it) gets ``None``."""
    text = text.removeprefix("\ufeff")  # a UTF-8 byte order mark, as some editors save: accepted
    if not text.strip():
        raise ProgressError.of(N_("the file is empty"))
    try:
        data = safefile.load_json(text)
    except safefile.Refused as exc:
        raise ProgressError(exc) from None  # too deep, too many digits: the Refused words itself in any language
    except json.JSONDecodeError as exc:
        raise ProgressError.of(N_("not JSON: {detail}"), detail=safefile.json_error_text(exc)) from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ProgressError.of(N_('not a ctxlib progress file (no "format": "{format}")'), format=FORMAT)
    problem = schema_problem(data)
    if problem is not None:
        raise ProgressError.of(N_("not in ctxlib's progress format: {problem}"), problem=problem)
    data.setdefault("learner", None)
    for a in data["attempts"]:  # 3.0 is a whole number to the schema; as a float, two of 1e308 summed to inf
        a["hints_used"] = int(a["hints_used"])
    return data


def read_progress(path) -> dict:
    """Read one progress file.

    Raises:
        ProgressError: see ``parse_progress``, or not UTF-8.
        safefile.Refused: not a regular file (a FIFO, a device), or larger than ``MAX_PROGRESS_BYTES``.
        OSError: missing or unreadable.
    """
    data = safefile.read_regular_file(path, MAX_PROGRESS_BYTES)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ProgressError.of(N_("not UTF-8 text (bad byte at offset {offset})"), offset=exc.start) from None
    return parse_progress(text)


def progress_lock(path):
    """The lock every writer of ``path`` holds: a ``ProgressLock`` on ``<path>.lock``, 30 s timeout.

    In the browser build (Pyodide) there is no OS file locking, and one kernel per tab writes:
    no lock there (``contextlib.nullcontext``).
    """
    if sys.platform == "emscripten":
        return contextlib.nullcontext()
    return ProgressLock(str(path) + ".lock")


class ProgressLock:
    """A ``filelock.FileLock`` on ``lock_path`` (``LOCK_TIMEOUT_SECONDS``) that fails at once where its file cannot be made.

    filelock took "no such file" from a folder that makes no files (``/proc/self/``) for a lock held by another, and
    waited out the timeout. A held lock has its file: two tries that fail with no file there raise ``FileNotFoundError``
    naming the lock file, at once; a lock really held raises ``filelock.Timeout`` after the timeout."""

    def __init__(self, lock_path: str):
        import filelock

        self.lock = filelock.FileLock(lock_path, timeout=LOCK_TIMEOUT_SECONDS)

    def acquire(self) -> None:
        import filelock

        for _ in range(2):  # twice: a holder may have let go (and its file gone) between the try and the look
            try:
                self.lock.acquire(timeout=0)
                return
            except filelock.Timeout:
                if os.path.lexists(self.lock.lock_file):
                    break
        else:
            raise FileNotFoundError(ENOENT, os.strerror(ENOENT), self.lock.lock_file)
        self.lock.acquire(timeout=LOCK_TIMEOUT_SECONDS)

    def release(self) -> None:
        self.lock.release()

    def __enter__(self):
        self.acquire()

    def __exit__(self, *exc_info) -> None:
        self.release()


@contextlib.contextmanager
def lock_to_read(path):
    """``progress_lock(path)`` held, for a reader: reading may move a corrupt file aside (``open_progress``),
    and a writer must not be writing meanwhile. Where no lock can be made (no folder yet, or one the reader
    may not write, where nothing could be moved either) the file is read without one; a lock held by
    another for ``LOCK_TIMEOUT_SECONDS`` raises ``filelock.Timeout`` as it does for writers."""
    lock = progress_lock(path)
    if not hasattr(lock, "acquire"):  # the browser build: no locks
        yield
        return
    import filelock

    try:
        lock.acquire()
    except filelock.Timeout:
        raise
    except OSError:
        yield
        return
    try:
        yield
    finally:
        lock.release()


def save_progress(data: dict, path=None) -> None:
    """Write a progress record to ``path`` (default ``progress_path()``) atomically, creating its folder (``~/.ctxlib``
    the first time); raises ``OSError`` (``safefile.Refused`` for a record over ``MAX_PROGRESS_BYTES`` even unindented).
    Callers that read, change and write hold ``progress_lock(path)`` around all three."""
    path = Path(path or progress_path())
    path.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(data, ensure_ascii=False, indent=1) + "\n"
    if len(text.encode("utf-8")) > MAX_PROGRESS_BYTES:  # never a file its reader refuses: compact, else not written
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n"
    if (size := len(text.encode("utf-8"))) > MAX_PROGRESS_BYTES:
        raise safefile.Refused(safefile.Reason.TOO_BIG, size=size, cap=MAX_PROGRESS_BYTES)
    safefile.write_atomically(path, text)


def open_progress(path=None) -> tuple[dict, tuple[Path, str] | None]:
    """The record in ``path`` (default ``progress_path()``), and ``(moved to, problem)`` if the file was unreadable.

    A missing file gives a new record. A file ``read_progress`` refuses is renamed to
    ``<name>.corrupt-<UTC time>`` (never overwritten, never deleted) and a new record is
    returned with that path and the reason; the caller reports them. Raises ``OSError`` if it
    cannot be renamed.
    """
    path = Path(path or progress_path())
    try:
        return read_progress(path), None
    except FileNotFoundError:
        return new_progress(), None
    except safefile.Refused as exc:  # a FIFO or a device: never moved aside, never written over
        exc.filename = str(path)
        raise
    except ProgressError as exc:
        stamp = utc_now().replace("-", "").replace(":", "")
        aside = path.with_name(f"{path.name}.corrupt-{stamp}")
        n = 1
        while aside.exists():  # two corruptions in one second must not clobber the first
            aside, n = path.with_name(f"{path.name}.corrupt-{stamp}-{n}"), n + 1
        kept = salvage(path)
        os.rename(path, aside)
        return kept, (aside, exc.args[0] if isinstance(exc.args[0], Worded) else str(exc))  # Worded: said in lang


def salvage(path) -> dict:
    """A new record holding what can be kept of the unusable progress file ``path``: its learner
    and every attempt that passes the schema on its own (a 5,000-digit ``hints_used`` drops that
    attempt, not the learner's history). An empty record if nothing can be read."""
    kept = new_progress()
    try:
        text = safefile.read_regular_file(path, MAX_PROGRESS_BYTES).decode("utf-8", errors="replace")
        data = safefile.load_json(text.removeprefix("\ufeff"), lenient_numbers=True)
    except (OSError, ValueError):
        return kept
    if not isinstance(data, dict) or data.get("format") != FORMAT or not isinstance(data.get("attempts"), list):
        return kept
    if isinstance(data.get("learner"), str):
        kept["learner"] = data["learner"]
    kept["attempts"] = [a for a in data["attempts"]
                        if schema_problem({**new_progress(), "attempts": [a]}) is None]
    return kept


def record_attempt(lesson: str, question_id: str, outcome: str | None, *, hints_used: int = 0,
                   solution_viewed: bool = False, path=None, time: str | None = None) -> tuple[Path, str] | None:
    """Append one attempt to the progress file and write it atomically.

    Args:
        lesson, question_id: which quick check, e.g. ``"01_window_as_budget"``, ``"whole_repo"``.
        outcome: one of ``OUTCOMES``, or ``None`` for "viewed the solution" without a check.
        hints_used: how many hints the learner had seen; solution_viewed: whether the solution was shown.
        path: the progress file (default ``progress_path()``); time: UTC ISO time (default now).
    Returns:
        ``(where an unreadable old file was moved, why)``, or ``None`` (the usual case).
    Raises:
        ValueError: an unknown outcome, or any field the progress schema refuses (a negative
            ``hints_used``, a non-string lesson); nothing is written then.
        OSError: the file cannot be written (the old one stays).
    """
    if outcome is not None and outcome not in OUTCOMES:
        raise ValueError(f"outcome must be one of {OUTCOMES} or None, got {outcome!r}")
    attempt = {"lesson": lesson, "question": question_id, "outcome": outcome, "hints_used": hints_used,
               "solution_viewed": solution_viewed, "time": time or utc_now()}
    # Check the attempt against the file's own schema before touching the file: a record the
    # reader would refuse must never be written, or the next read would set the history aside.
    try:
        parse_progress(json.dumps({**new_progress(), "attempts": [attempt]}))
    except ProgressError as exc:
        raise ValueError(f"not a valid attempt, nothing recorded: {exc}") from None
    path = Path(path or progress_path())
    path.parent.mkdir(parents=True, exist_ok=True)
    with progress_lock(path):  # re-read under the lock: another writer may have added attempts
        data, moved = open_progress(path)
        data["attempts"].append(attempt)
        save_progress(data, path)
    return moved


def record_quietly(lesson: str, question_id: str, outcome: str | None, *, lang: str = "en", **details) -> None:
    """``record_attempt`` for notebooks: never raises, prints nothing when all is well.

    A moved-aside file or a failed write gets one line on stderr in ``lang``, naming the file
    but not its folder, so that a notebook's saved output does not depend on the machine.
    Any failure at all (a bad ``CTXLIB_PROGRESS``, a FIFO, a lock that times out) is that one line.
    """
    lang = lang if lang in LANGS else "en"
    try:
        moved = record_attempt(lesson, question_id, outcome, **details)
    except Exception as exc:  # noqa: BLE001: a notebook's check must never fail because of its record
        print(message(NOTES["not_saved"], lang, problem=_problem(exc, lang)), file=sys.stderr)
        return
    if moved is not None:
        print(message(NOTES["moved"], lang, problem=in_lang(moved[1], lang), name=moved[0].name), file=sys.stderr)


def _problem(exc: Exception, lang: str) -> str:
    # Short and free of folders: a notebook's saved output must not depend on the machine.
    if isinstance(exc, ProgressPathError):
        return "CTXLIB_PROGRESS"
    if isinstance(exc, safefile.Refused):  # in lang: "is a named pipe (FIFO)" was English in the Hindi line
        return exc.text(lang)
    return type(exc).__name__


# --- Scores: one learner (ctxlib progress) and a class (ctxlib grade) -------------------------

def question_summary(data: dict) -> dict:
    """``{(lesson, question): (outcome, hints used, solution viewed)}`` over all attempts.

    Outcome is the best: "passed" if any attempt passed, else "failed" if any failed or raised
    an error, else "not attempted". Hints are the most seen; solution viewed if ever.
    """
    rank = {"passed": 2, "failed": 1, "error": 1}
    summary = {}
    for a in data["attempts"]:
        key = (a["lesson"], a["question"])
        outcome, hints, solution = summary.get(key, ("not attempted", 0, False))
        if rank.get(a["outcome"], 0) > rank.get(outcome, 0):
            outcome = "failed" if a["outcome"] == "error" else a["outcome"]
        summary[key] = (outcome, max(hints, a["hints_used"]), solution or a["solution_viewed"])
    return summary


def summary_record(data: dict) -> dict:
    """``data`` reduced to one attempt per question that ``question_summary`` reads the same: its learner and, per
    (lesson, question), the best outcome, the most hints and whether a solution was viewed. ``ctxlib grade`` keeps
    these, not whole records: a 16 MiB hand-in parses to ~67 MB, and a room's files are read one after another."""
    return {"learner": data.get("learner"),
            "attempts": [{"lesson": lesson, "question": question, "outcome": outcome, "hints_used": hints,
                          "solution_viewed": solution}
                         for (lesson, question), (outcome, hints, solution) in question_summary(data).items()]}


def lesson_scores(data: dict, lessons: dict) -> list[tuple[str, int, int, int, int]]:
    """``[(lesson, passed, questions, hints used, solutions viewed), ...]`` for ``lessons`` = ``{lesson: [ids]}``.

    Attempts at ids no longer in a lesson (a renamed question) are left out of its score.
    """
    summary = question_summary(data)
    rows = []
    for lesson, ids in lessons.items():
        mine = [summary.get((lesson, qid), ("not attempted", 0, False)) for qid in ids]
        rows.append((lesson, sum(o == "passed" for o, _, _ in mine), len(ids),
                     sum(h for _, h, _ in mine), sum(s for _, _, s in mine)))
    return rows


def format_scores(rows, learner: str | None, lang: str = "en") -> str:
    """``ctxlib progress``'s table: a title line, then one line per lesson.

    Args:
        rows: ``lesson_scores``'s rows, ``(lesson, correct, questions, hints, solutions)``.
        learner: the name saved in the progress file, or ``None``.
        lang: ``"en"`` or ``"hi"``.
    Returns:
        the lines, columns aligned by display width, e.g.
        ``01_window_as_budget  5 of 7  2  1`` under ``lesson  correct  hints  solutions``.
    Raises:
        ValueError: for an unknown ``lang``.
    """
    from .tables import Table

    title = (message("Progress of {learner}", lang, learner=learner) if learner else
             message('Progress (no name set: ctxlib progress --name "Your Name")', lang))
    header = [message("lesson", lang), message("correct", lang), message("hints", lang), message("solutions", lang)]
    body = [[lesson, message("{correct} of {total}", lang, correct=ok, total=total), hints, sols]
            for lesson, ok, total, hints, sols in rows]
    return str(Table(header, body, title=title))
