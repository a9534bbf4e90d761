"""Is the ranking any good? Measure a context builder on a repository's own history.

Lesson 3, "Is the ranking any good?". Every commit is a task someone really did: its
message says what the task was, its diff says which files it needed. Asked at the commit's
parent, a good context builder packs those files. That is how SWE-bench scores retrieval
(issue text in, the gold patch's files as the answer); here the history itself is the data,
so any repository can be measured, offline: with the ``git`` command, or without it through
``ctxlib.history``'s pure-Python reader.

Which commits qualify (``QUALIFY_RULES``, printed by ``ctxlib eval``):

1. one parent (no merges, no root commit);
2. the subject is not automated or bookkeeping (``Merge``, ``Bump``, ``Release``, ``Revert``,
   ``pre-commit``, version numbers; see ``_AUTOMATED``);
3. it modifies 1 to ``MAX_TARGETS`` code files (``ranking.path_kind`` is ``source``, or a packaging
   or CI file, ``ranking.is_packaging``: "Add zip_safe=False" is answered by ``setup.py``), and touches
   at most ``MAX_CHANGED`` files in all: the code files are the answer, as the gold patch is in
   SWE-bench (tests, docs and changelogs edited alongside are not asked for);
4. the cleaned message keeps at least ``MIN_WORDS`` words.

How the message is cleaned (``clean_message``): subject and body; trailer lines
(``Signed-off-by:``, ``Co-authored-by:``...) and pull-request numbers go; every edited
file's path and file name (``src/jinja2/lexer.py``, ``lexer.py``) is removed, so the answer
is not in the question; the module's name alone (``lexer``) stays, as a real issue says it.

Selection is deterministic: qualifying commits newest first, every k-th one (``every``), at
most ``limit``. Each parent tree is written into a temporary folder (``history``),
read with ``repo.read_repo`` and packed with ``fit.pack_files``.

Measures, per system: all-files recall at a budget (every edited code file packed, in any
view), any-file recall (at least one), the mean reciprocal rank of the first edited file in
the ranking, top-1 (an edited file ranks first), and the share of packed tokens by path kind.
"""
from __future__ import annotations

import dataclasses
import re
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path

from . import fit, history, ranking, recent, repo
from .ceiling import is_whole_number, shown_count
from .i18n import N_, Worded, WordedError, message

BUDGETS = (13_000, 27_000, 50_000)
MAX_TARGETS = 4
MAX_CHANGED = 12
MIN_WORDS = 3
MIN_QUALIFYING = 3  # fewer qualifying commits than this: "too little history"
_QUALIFY = (N_("one parent (no merges, no root commit)"),
            N_("subject not automated or bookkeeping (merge, bump, release, revert, pre-commit, a version number)"),
            N_("modifies 1 to {most} code files (source or packaging, not tests, docs or changelogs) and touches "
               "at most {changed} files"),
            N_("the cleaned message keeps at least {words} words"))
_CLEANING = (N_("subject and body; trailer lines (Signed-off-by: ...), Mercurial's --HG-- lines and pull-request "
                "numbers (#123) removed"),
             N_("every edited file's path and file name removed (src/pkg/lexer.py, lexer.py); the module's "
                "name alone stays"))


def qualify_rules(lang: str = "en") -> tuple[str, ...]:
    """The rules a commit must meet to be a task, in ``lang`` (``"en"`` or ``"hi"``); ``ValueError`` for another."""
    return tuple(message(rule, lang, most=MAX_TARGETS, changed=MAX_CHANGED, words=MIN_WORDS) for rule in _QUALIFY)


def cleaning_rules(lang: str = "en") -> tuple[str, ...]:
    """How a commit's message is cleaned into a query (``clean_message``), in ``lang``."""
    return tuple(message(rule, lang) for rule in _CLEANING)


QUALIFY_RULES, CLEANING_RULES = qualify_rules(), cleaning_rules()  # the English, as ``eval --format json`` gives them
_AUTOMATED = re.compile(r"^\s*(merge\b|bump\b|release\b|revert\b|prepare\b|\[pre-commit|pre-commit|"
                        r"update (the )?changelog|v?\d+\.\d+(\.\d+)?\s*$|version\b|changelog\b)", re.I)
_TRAILER = re.compile(r"^[A-Za-z][\w-]*-by:.*$|^(Closes|Fixes|Refs|See|Co-authored-by|Change-Id):.*$|"
                      r"^--HG--$|^branch : .*$",
                      re.M | re.I)
_PR_NUMBER = re.compile(r"\(?#\d+\)?|\bgh-\d+\b", re.I)


class EvalError(WordedError):
    """Why a folder cannot be evaluated: not a git repository, too little history, a bad option (a ``ValueError``
    whose ``text(lang)`` words the reasons a person meets first)."""


@dataclass(frozen=True)
class Instance:
    """One task from history: the cleaned ``query``, the ``parent`` to pack, the ``targets`` it edited."""

    commit: str
    parent: str
    query: str
    targets: tuple[str, ...]
    repo: str = ""  # a label for reports, e.g. "pallets/jinja"


@dataclass(frozen=True)
class System:
    """A way to rank and pack: ``scorer``, ``view`` and ``strategy`` for ``fit.pack_files``, and the ranking's ``signals``."""

    name: str
    scorer: str = "signals"
    view: str = "auto"
    signals: tuple[str, ...] = ranking.SIGNALS
    strategy: str = fit.DEFAULT_STRATEGY
    history: bool = False  # rank by the parent commit's recent history too (recent.py), as pack --history does


CURRENT = System(N_("ctxlib pack"))
HISTORY = System(N_("ctxlib pack --history"), history=True)
BASELINE = System(N_("plain BM25, whole files"), scorer="plain", view="whole", signals=())


@dataclass
class TaskResult:
    """One instance under one system: each target's rank (1-based; 0 if unscored) and what was packed."""

    instance: Instance
    system: str
    ranks: dict[str, int]
    top: list[str]
    packed: dict[int, list[str]] = field(default_factory=dict)  # budget -> targets packed
    kind_tokens: dict[int, dict[str, int]] = field(default_factory=dict)  # budget -> kind -> tokens
    error: str = ""

    @property
    def first_rank(self) -> int:
        """The best rank of any target; 0 when none scored."""
        found = [r for r in self.ranks.values() if r]
        return min(found) if found else 0


def _reader(path) -> history.GitCommand | history.PureGit:
    # history.open_history, with its HistoryError as an EvalError; a reader passed in is used as it is.
    if isinstance(path, (history.GitCommand, history.PureGit)):
        return path
    try:
        return history.open_history(path)
    except history.HistoryError as exc:
        raise EvalError(*exc.args) from None


def clean_message(message: str, edited) -> str:
    """The task text of a commit ``message``, per ``CLEANING_RULES``, as one line.

    ``clean_message("Fix lexer.py crash (#12)\\n\\nSigned-off-by: A <a@b>", ["src/lexer.py"])``
    -> ``"Fix crash"``.
    """
    text = _PR_NUMBER.sub(" ", _TRAILER.sub(" ", message))
    for path in sorted(edited, key=len, reverse=True):
        for name in (path, path.rsplit("/", 1)[-1]):
            text = re.sub(rf"(?<![\w/.-]){re.escape(name)}(?![\w/-])", " ", text, flags=re.I)
    return " ".join(text.split())


def qualifying(commit) -> Instance | None:
    """The ``Instance`` a log entry (``history.LogEntry``) gives, or ``None`` if it breaks a rule of ``QUALIFY_RULES``."""
    sha, parents, message, status = commit
    if len(parents) != 1 or not message or _AUTOMATED.match(message.splitlines()[0]):
        return None
    if not status or len(status) > MAX_CHANGED:
        return None
    # Named as repo.read_repo names the files of the written tree (an odd byte as \xff, a newline
    # as \n), so an edited file that is packed counts as packed.
    targets = tuple(sorted(repo.display_path(p) for s, p in status if s == "M" and _is_code(p)))
    if not 1 <= len(targets) <= MAX_TARGETS:
        return None
    query = clean_message(message, [p for _, p in status])
    if len(re.findall(r"[A-Za-z]{2,}", query)) < MIN_WORDS:
        return None
    return Instance(sha, parents[0], query, targets)


def _is_code(path: str) -> bool:
    return ranking.path_kind(path) == "source" or ranking.is_packaging(path)


def mine_instances(path, *, every: int = 1, limit: int | None = None, label: str = "") -> list[Instance]:
    """Tasks from the history of the repository at ``path`` (a working copy or a bare git directory).

    Args:
        path: the repository folder.
        every: keep every k-th qualifying commit, newest first (1: all of them).
        limit: at most this many instances (``None``: no limit).
        label: stored in each ``Instance.repo`` (default: the folder's name).
    Returns:
        the instances, newest first.
    Raises:
        EvalError: not a git repository; its history cannot be read (a damaged repository);
            fewer than ``MIN_QUALIFYING`` qualifying commits; ``every`` or ``limit`` not a positive
            whole number.
    """
    for name, value in (("every", every), ("limit", limit)):
        if value is not None and not is_whole_number(value, 1):
            raise EvalError.of(N_("{name} must be a positive whole number, got {value}"), name=name, value=shown_count(value))
    reader = _reader(path)
    if reader is path:
        path = reader.git_dir  # messages name the repository, not the reader
    try:
        if not reader.has_head():
            raise EvalError(Worded((N_("{path}: the repository has no commits yet"), {"path": str(path)})))
        log = reader.log()
    except history.HistoryError as exc:
        raise EvalError(*exc.args) from None
    found = [i for i in map(qualifying, log) if i]
    if len(found) < MIN_QUALIFYING:
        raise EvalError(Worded((N_("{path}: too little history: {n} qualifying commit(s), at least {least} needed "
                                   "(a shallow clone? try 'git fetch --unshallow')"),
                                {"path": str(path), "n": len(found), "least": MIN_QUALIFYING})))
    if not label:  # the repository's folder name: "shop" for shop/.git, "jinja.git" for a bare mirror
        label = reader.git_dir.parent.name if reader.git_dir.name == ".git" else reader.git_dir.name
    chosen = [Instance(i.commit, i.parent, i.query, i.targets, label) for i in found[::every]]
    return chosen[:limit] if limit else chosen


def files_at(path, commit: str) -> dict[str, str]:
    """``{path: text}`` of the repository at ``path`` as it was at ``commit``, read as ``ctxlib pack`` reads a folder.

    Args:
        path: the repository folder, or a reader from ``history.open_history``.
        commit: a full commit hash.
    Returns:
        ``{POSIX path: text}``: the tree is written into a temporary folder (the reader's
        ``write_tree``), read with ``repo.read_repo`` (``.gitignore``, binaries, size cap,
        credentials) and the folder removed.
    Raises:
        EvalError: not a repository, or no such commit.
    """
    reader = _reader(path)
    with tempfile.TemporaryDirectory(prefix="ctxlib-eval-") as tmp:
        try:
            reader.write_tree(commit, Path(tmp), max_file_bytes=repo.MAX_FILE_BYTES)
        except history.HistoryError as exc:
            raise EvalError(*exc.args) from None
        return {f.path: f.text for f in repo.read_repo(tmp).files}


def run_instance(reader, instance: Instance, systems, budgets=BUDGETS, encoding: str = "o200k_base", files=None):
    """Write ``instance.parent``'s tree, read it, and rank and pack it under every system; a list of ``TaskResult``.

    ``reader`` is a repository folder or a reader from ``history.open_history``; ``files``: that
    tree read already (``files_at``). Systems that differ only in view or strategy are ranked once."""
    files = files_at(reader, instance.parent) if files is None else files
    readable = tuple(t for t in instance.targets if t in files)
    if not readable:  # an edited binary .py, or one ignored or too big: no ranking could find it
        raise EvalError.of(N_("no edited file was read at the parent commit ({paths}: binary, too big or ignored there)"),
                           paths=", ".join(instance.targets))
    if readable != instance.targets:
        instance = dataclasses.replace(instance, targets=readable)
    rankings: dict = {}
    commits = parent_history(reader, instance.parent) if any(s.history for s in systems) else []

    def shared(system):
        key = (system.scorer, system.signals, system.history)
        if key not in rankings:
            try:
                rankings[key] = system_ranking(files, instance.query, system, commits)
            except ValueError:
                rankings[key] = None
        return rankings[key]
    return [evaluate_files(files, instance, s, budgets, encoding, shared(s)) for s in systems]


def parent_history(path, parent: str) -> list[tuple[str, list[str]]]:
    """What ``pack --history`` would read at ``parent``: its last ``recent.HISTORY_COMMITS`` first-parent commits,
    ``(message, paths added, modified or retyped)``, newest first (``parent`` first). Raises ``EvalError``."""
    try:
        return [(message, [p for kind, p in status if kind != "D"])
                for _, _, message, status in _reader(path).recent(recent.HISTORY_COMMITS, parent)]
    except history.HistoryError as exc:
        raise EvalError(*exc.args) from None


def system_ranking(files, query, system: System, commits=()) -> fit.Ranking:
    """The ranking ``system`` walks (``fit.rank_query``, the registry ``pack`` and ``rank`` use too):
    ``.ranked`` is ``[(path, score), ...]`` best first. ``commits``: the parent's history (``parent_history``),
    used when ``system.history``. Raises ``ValueError`` for a query it cannot search."""
    return fit.rank_query(files, query, system.scorer, system.signals, commits if system.history else ())


def evaluate_files(files: dict[str, str], instance: Instance, system: System, budgets=BUDGETS,
                   encoding: str = "o200k_base", ranked: fit.Ranking | None = None) -> TaskResult:
    """Rank ``files`` once for ``instance`` under ``system`` and pack that ranking at each budget: one ``TaskResult``.

    ``ranked``: ``system_ranking(files, instance.query, system)`` made already (systems that differ
    only in view or strategy share one ranking).

    A query the system cannot search (nothing left after cleaning) is a result with
    ``error`` set and every target missed, so it still counts against recall.
    """
    result = TaskResult(instance, system.name, {t: 0 for t in instance.targets}, [])
    try:
        ranking_ = ranked or system_ranking(files, instance.query, system)
    except ValueError as exc:
        result.error = str(exc)
        return result
    ranked = ranking_.ranked
    place = {path: i for i, (path, score) in enumerate(ranked, 1) if score > 0}
    result.ranks = {t: place.get(t, 0) for t in instance.targets}
    result.top = [p for p, s in ranked[:5] if s > 0]
    for budget in budgets:
        try:
            pack = fit.pack_ranked(files, ranking_, budget, view=system.view, strategy=system.strategy,
                                   encoding=encoding)
        except ValueError:
            result.packed[budget], result.kind_tokens[budget] = [], {}
            continue
        chosen = {c.path for c in pack.chosen}
        result.packed[budget] = [t for t in instance.targets if t in chosen]
        kinds: dict[str, int] = {}
        for c in pack.chosen:
            kinds[ranking.path_kind(c.path)] = kinds.get(ranking.path_kind(c.path), 0) + c.tokens
        result.kind_tokens[budget] = kinds
    return result


def summarize(outcomes, budgets=BUDGETS) -> dict:
    """The figures for one system's outcomes: recall at each budget, MRR, top-1, kind shares.

    Returns ``{"instances", "all_recall": {budget: share}, "any_recall": {...}, "mrr", "top1",
    "first_kind": {kind: share}, "kind_share": {budget: {kind: share of packed tokens}}}``;
    shares are fractions of 1.
    """
    n = max(1, len(outcomes))
    result = {"instances": len(outcomes), "all_recall": {}, "any_recall": {}, "kind_share": {}}
    for b in budgets:
        result["all_recall"][b] = sum(len(o.packed.get(b, [])) == len(o.instance.targets) for o in outcomes) / n
        result["any_recall"][b] = sum(bool(o.packed.get(b)) for o in outcomes) / n
        totals: dict[str, int] = {}
        for o in outcomes:
            for kind, tokens in o.kind_tokens.get(b, {}).items():
                totals[kind] = totals.get(kind, 0) + tokens
        whole = max(1, sum(totals.values()))
        result["kind_share"][b] = {k: v / whole for k, v in sorted(totals.items(), key=lambda kv: -kv[1])}
    result["mrr"] = sum(1 / o.first_rank for o in outcomes if o.first_rank) / n
    result["top1"] = sum(o.first_rank == 1 for o in outcomes) / n
    firsts: dict[str, int] = {}
    for o in outcomes:
        if o.top:
            firsts[ranking.path_kind(o.top[0])] = firsts.get(ranking.path_kind(o.top[0]), 0) + 1
    result["first_kind"] = {k: v / n for k, v in sorted(firsts.items(), key=lambda kv: -kv[1])}
    return result


def worst_misses(outcomes, count: int = 3) -> list[TaskResult]:
    """The ``count`` outcomes whose first edited file ranked lowest (unranked first), then by commit."""
    missed = [o for o in outcomes if o.first_rank != 1]
    return sorted(missed, key=lambda o: (-(o.first_rank or 10**9), o.instance.commit))[:count]


def outcome_json(outcome: TaskResult) -> dict:
    """One ``TaskResult`` as plain JSON data."""
    data = asdict(outcome)
    data["instance"]["targets"] = list(outcome.instance.targets)
    data["first_rank"] = outcome.first_rank
    return data


@dataclass
class EvalRun:
    """A whole ``ctxlib eval``: the instances, every system's outcomes, and the figures per system."""

    repo: str
    instances: list[Instance]
    outcomes: dict[str, list[TaskResult]]  # system name -> one outcome per instance, in order
    budgets: tuple[int, ...]
    skipped: list[tuple[Instance, str]] = field(default_factory=list)  # could not be exported or read

    def summary(self) -> dict[str, dict]:
        """``{system name: summarize(its outcomes)}``."""
        return {name: summarize(found, self.budgets) for name, found in self.outcomes.items()}


def evaluate_repository(path, *, every: int = 1, limit: int | None = None, budgets=BUDGETS,
                        systems=(CURRENT, BASELINE), instances=None, encoding: str = "o200k_base",
                        progress=None) -> EvalRun:
    """Mine ``path``'s history (``mine_instances``) and measure each system on every instance.

    Args:
        path: a git working copy or bare repository.
        every, limit: as in ``mine_instances``.
        budgets: token budgets to pack at (positive whole numbers).
        systems: ``System``s to compare; default the current ``ctxlib pack`` and the plain-BM25 baseline.
        instances: a list of ``Instance`` to use instead of mining (a saved instance list).
        encoding: tiktoken encoding the budgets are counted in.
        progress: optional callable, called with 1 after each instance (a progress bar).
    Returns:
        an ``EvalRun``.
    Raises:
        EvalError: as ``mine_instances``; a budget that is not a positive whole number.
    """
    budgets = tuple(budgets)
    for b in budgets:
        if not is_whole_number(b, 1):
            raise EvalError.of(N_("a budget must be a positive whole number of tokens, got {budget}"), budget=shown_count(b))
    reader = _reader(path)
    if instances is None:
        instances = mine_instances(reader, every=every, limit=limit)
    run = EvalRun(str(path), [], {s.name: [] for s in systems}, budgets)
    for instance in instances:
        try:
            outcomes = run_instance(reader, instance, systems, budgets, encoding)
        except (EvalError, ValueError, OSError) as exc:
            run.skipped.append((instance, exc.args[0] if isinstance(exc, WordedError) and exc.args else str(exc)))
        else:
            run.instances.append(instance)
            for o in outcomes:
                run.outcomes[o.system].append(o)
        if progress:
            progress(1)
    return run


def explain_miss(path, outcome: TaskResult, signals=ranking.SIGNALS, lang: str = "en") -> str:
    """Why ``outcome``'s edited file ranked low: ``ranking.explain_ranked`` for the file ranked
    first and for the best-placed edited file, at the instance's parent commit. The frame is in
    ``lang``; ``explain_ranked``'s parts stay English (the signals' names, as ``ctxlib rank --explain``)."""
    instance = outcome.instance
    files = files_at(path, instance.parent)
    ranked = ranking.rank_files(files, instance.query, signals) if files else []
    # Ranks as the outcome counts them (evaluate_files): only files scoring above 0 are placed.
    place = {r.path: (i, r) for i, r in enumerate(ranked, 1) if r.score > 0}
    target = min(instance.targets, key=lambda t: place.get(t, (10**9, None))[0])
    lines = [message("ranked 1st: {why}", lang, why=ranking.explain_ranked(ranked[0])) if ranked else
             message("no file was read at that commit (all ignored, too big or binary)", lang)]
    if target in place:
        i, r = place[target]
        lines.append(message("edited, ranked {place}: {why}", lang, place=i, why=ranking.explain_ranked(r)))
    elif target in files:
        lines.append(message("edited: {path} scores 0 for the query (rank none)", lang, path=target))
    else:
        lines.append(message("edited: {path} was not read (ignored, too big or binary at that commit)", lang, path=target))
    return "\n".join(lines)
