"""Is the ranking any good? Measure a context builder on a repository's own history.

Lesson 3, "Is the ranking any good?". Every commit is a task someone really did: its
message says what the task was, its diff says which files it needed. Asked at the commit's
parent, a good context builder packs those files. That is how SWE-bench scores retrieval
(issue text in, the gold patch's files as the answer); here the history itself is the data,
so any repository can be measured, offline, with the ``git`` command.

Which commits qualify (``QUALIFY_RULES``, printed by ``ctxlib eval``):

1. one parent (no merges, no root commit);
2. the subject is not automated or bookkeeping (``Merge``, ``Bump``, ``Release``, ``Revert``,
   ``pre-commit``, version numbers; see ``_AUTOMATED``);
3. it modifies 1 to ``MAX_TARGETS`` code files (``ranking.path_kind`` is ``source``), and touches
   at most ``MAX_CHANGED`` files in all: the code files are the answer, as the gold patch is in
   SWE-bench (tests, docs and changelogs edited alongside are not asked for);
4. the cleaned message keeps at least ``MIN_WORDS`` words.

How the message is cleaned (``clean_message``): subject and body; trailer lines
(``Signed-off-by:``, ``Co-authored-by:``...) and pull-request numbers go; every edited
file's path and file name (``src/jinja2/lexer.py``, ``lexer.py``) is removed, so the answer
is not in the question; the module's name alone (``lexer``) stays, as a real issue says it.

Selection is deterministic: qualifying commits newest first, every k-th one (``every``), at
most ``limit``. Each parent tree is exported with ``git archive`` into a temporary folder,
read with ``repo.read_repo`` and packed with ``fit.pack_files``.

Measures, per system: all-files recall at a budget (every edited code file packed, in any
view), any-file recall (at least one), the mean reciprocal rank of the first edited file in
the ranking, top-1 (an edited file ranks first), and the share of packed tokens by path kind.
"""
from __future__ import annotations

import re
import subprocess
import tempfile
from dataclasses import asdict, dataclass, field
from pathlib import Path

from . import fit, ranking, repo
from .i18n import N_

BUDGETS = (13_000, 27_000, 50_000)
MAX_TARGETS = 4
MAX_CHANGED = 12
MIN_WORDS = 3
MIN_QUALIFYING = 3  # fewer qualifying commits than this: "too little history"
QUALIFY_RULES = (
    "one parent (no merges, no root commit)",
    "subject not automated or bookkeeping (merge, bump, release, revert, pre-commit, a version number)",
    f"modifies 1 to {MAX_TARGETS} code files (source, not tests, docs or changelogs) and touches "
    f"at most {MAX_CHANGED} files",
    f"the cleaned message keeps at least {MIN_WORDS} words",
)
CLEANING_RULES = (
    "subject and body; trailer lines (Signed-off-by: ...), Mercurial's --HG-- lines and pull-request "
    "numbers (#123) removed",
    "every edited file's path and file name removed (src/pkg/lexer.py, lexer.py); the module's "
    "name alone stays",
)
_AUTOMATED = re.compile(r"^\s*(merge\b|bump\b|release\b|revert\b|prepare\b|\[pre-commit|pre-commit|"
                        r"update (the )?changelog|v?\d+\.\d+(\.\d+)?\s*$|version\b|changelog\b)", re.I)
_TRAILER = re.compile(r"^[A-Za-z][\w-]*-by:.*$|^(Closes|Fixes|Refs|See|Co-authored-by|Change-Id):.*$|"
                      r"^--HG--$|^branch : .*$",
                      re.M | re.I)
_PR_NUMBER = re.compile(r"\(?#\d+\)?|\bgh-\d+\b", re.I)


class EvalError(ValueError):
    """Why a folder cannot be evaluated: not a git repository, too little history, a bad option."""


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
    """A way to rank and pack: ``scorer`` and ``view`` for ``fit.pack_files``, and the ranking's ``signals``."""

    name: str
    scorer: str = "signals"
    view: str = "auto"
    signals: tuple[str, ...] = ranking.SIGNALS


CURRENT = System(N_("ctxlib pack"))
BASELINE = System(N_("plain BM25, whole files"), scorer="plain", view="whole", signals=())


@dataclass
class Outcome:
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


def git(git_dir: Path, *args: str, binary: bool = False):
    """Run ``git --git-dir=GIT_DIR ARGS``; its stdout (text or bytes). Raises ``EvalError`` with git's first line."""
    done = subprocess.run(["git", f"--git-dir={git_dir}", *args], capture_output=True)
    if done.returncode:
        first = (done.stderr.decode("utf-8", "replace").strip().splitlines() or ["failed"])[0]
        raise EvalError(f"git {args[0]}: {first}")
    return done.stdout if binary else done.stdout.decode("utf-8", "replace")


def find_git_dir(path) -> Path:
    """The git directory of ``path``: a working copy's ``.git`` or a bare repository itself.

    Raises ``EvalError`` ("not a git repository") for anything else, and when ``git`` is missing.
    """
    p = Path(path)
    if not p.is_dir():
        raise EvalError(f"{path}: no such directory")
    try:
        done = subprocess.run(["git", "-C", str(p), "rev-parse", "--absolute-git-dir"], capture_output=True)
    except FileNotFoundError:
        raise EvalError("the git command is not installed; ctxlib eval needs it") from None
    if done.returncode:
        raise EvalError(f"{path}: not a git repository (ctxlib eval reads a repository's history)")
    return Path(done.stdout.decode().strip())


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


def _log(git_dir: Path) -> list[tuple[str, list[str], str, list[tuple[str, str]]]]:
    # One pass over history: hash, parents, message, then --name-status lines, newest first.
    out = git(git_dir, "log", "--no-renames", "--name-status", "--format=%x1e%H%x1f%P%x1f%B%x1f")
    commits = []
    for record in out.split("\x1e")[1:]:
        sha, parents, message, changes = (record.split("\x1f") + ["", "", ""])[:4]
        status = [tuple(line.split("\t", 1)) for line in changes.strip().splitlines() if "\t" in line]
        commits.append((sha, parents.split(), message.strip(), status))
    return commits


def qualifying(commit) -> Instance | None:
    """The ``Instance`` a ``_log`` record gives, or ``None`` if it breaks a rule of ``QUALIFY_RULES``."""
    sha, parents, message, status = commit
    if len(parents) != 1 or not message or _AUTOMATED.match(message.splitlines()[0]):
        return None
    if not status or len(status) > MAX_CHANGED:
        return None
    targets = tuple(sorted(p for s, p in status if s == "M" and ranking.path_kind(p) == "source"))
    if not 1 <= len(targets) <= MAX_TARGETS:
        return None
    query = clean_message(message, [p for _, p in status])
    if len(re.findall(r"[A-Za-z]{2,}", query)) < MIN_WORDS:
        return None
    return Instance(sha, parents[0], query, targets)


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
        EvalError: not a git repository; fewer than ``MIN_QUALIFYING`` qualifying commits;
            ``every`` or ``limit`` not a positive whole number.
    """
    for name, value in (("every", every), ("limit", limit)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, int) or value < 1):
            raise EvalError(f"{name} must be a positive whole number, got {value!r}")
    git_dir = find_git_dir(path)
    if not _has_head(git_dir):
        raise EvalError(f"{path}: the repository has no commits yet")
    found = [i for i in map(qualifying, _log(git_dir)) if i]
    if len(found) < MIN_QUALIFYING:
        raise EvalError(f"{path}: too little history: {len(found)} qualifying commit(s), at least "
                        f"{MIN_QUALIFYING} needed (a shallow clone? try 'git fetch --unshallow')")
    label = label or Path(path).resolve().name
    chosen = [Instance(i.commit, i.parent, i.query, i.targets, label) for i in found[::every]]
    return chosen[:limit] if limit else chosen


def _has_head(git_dir: Path) -> bool:
    return subprocess.run(["git", f"--git-dir={git_dir}", "rev-parse", "--verify", "-q", "HEAD"],
                          capture_output=True).returncode == 0


def export_tree(git_dir: Path, commit: str, dest: Path) -> None:
    """Write the tree of ``commit`` into the folder ``dest``: ``git archive COMMIT | tar -x -C DEST``."""
    data = git(git_dir, "archive", "--format=tar", commit, binary=True)
    done = subprocess.run(["tar", "-x", "-C", str(dest)], input=data, capture_output=True)
    if done.returncode:
        raise EvalError(f"tar: {done.stderr.decode('utf-8', 'replace').strip()[:200]}")


def files_at(path, commit: str) -> dict[str, str]:
    """``{path: text}`` of the repository at ``path`` as it was at ``commit``, read as ``ctxlib pack`` reads a folder.

    The tree is exported into a temporary folder (``export_tree``), read with ``repo.read_repo``
    (``.gitignore``, binaries, size cap, credentials) and the folder removed. Raises ``EvalError``.
    """
    with tempfile.TemporaryDirectory(prefix="ctxlib-eval-") as tmp:
        export_tree(find_git_dir(path), commit, Path(tmp))
        return {f.path: f.text for f in repo.read_repo(tmp).files}


def run_instance(git_dir: Path, instance: Instance, systems, budgets=BUDGETS, encoding: str = "o200k_base"):
    """Export ``instance.parent``, read it, and rank and pack it under every system; a list of ``Outcome``."""
    files = files_at(git_dir, instance.parent)
    return [evaluate_files(files, instance, s, budgets, encoding) for s in systems]


def system_ranking(files, query, system: System) -> list[tuple[str, float]]:
    """The ranking ``system`` walks: ``[(path, score), ...]`` best first."""
    if system.scorer == "signals":
        return [(r.path, r.score) for r in ranking.rank_files(files, query, system.signals)]
    return fit.rank(files, query, system.scorer)


def evaluate_files(files: dict[str, str], instance: Instance, system: System, budgets=BUDGETS,
                   encoding: str = "o200k_base") -> Outcome:
    """Rank and pack ``files`` for ``instance`` under ``system``: one ``Outcome``.

    A query the system cannot search (nothing left after cleaning) is an outcome with
    ``error`` set and every target missed, so it still counts against recall.
    """
    outcome = Outcome(instance, system.name, {t: 0 for t in instance.targets}, [])
    try:
        ranked = system_ranking(files, instance.query, system)
    except ValueError as exc:
        outcome.error = str(exc)
        return outcome
    place = {path: i for i, (path, score) in enumerate(ranked, 1) if score > 0}
    outcome.ranks = {t: place.get(t, 0) for t in instance.targets}
    outcome.top = [p for p, s in ranked[:5] if s > 0]
    for budget in budgets:
        try:
            pack = _pack(files, instance.query, budget, system, encoding)
        except ValueError:
            outcome.packed[budget], outcome.kind_tokens[budget] = [], {}
            continue
        chosen = {c.path for c in pack.chosen}
        outcome.packed[budget] = [t for t in instance.targets if t in chosen]
        kinds: dict[str, int] = {}
        for c in pack.chosen:
            kinds[ranking.path_kind(c.path)] = kinds.get(ranking.path_kind(c.path), 0) + c.tokens
        outcome.kind_tokens[budget] = kinds
    return outcome


def _pack(files, query, budget, system: System, encoding):
    return fit.pack_files(files, query, budget, scorer=system.scorer, view=system.view, encoding=encoding,
                          signals=system.signals)


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


def worst_misses(outcomes, count: int = 3) -> list[Outcome]:
    """The ``count`` outcomes whose first edited file ranked lowest (unranked first), then by commit."""
    missed = [o for o in outcomes if o.first_rank != 1]
    return sorted(missed, key=lambda o: (-(o.first_rank or 10**9), o.instance.commit))[:count]


def outcome_json(outcome: Outcome) -> dict:
    """One ``Outcome`` as plain JSON data."""
    data = asdict(outcome)
    data["instance"]["targets"] = list(outcome.instance.targets)
    data["first_rank"] = outcome.first_rank
    return data


@dataclass
class EvalRun:
    """A whole ``ctxlib eval``: the instances, every system's outcomes, and the figures per system."""

    repo: str
    instances: list[Instance]
    outcomes: dict[str, list[Outcome]]  # system name -> one outcome per instance, in order
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
        if isinstance(b, bool) or not isinstance(b, int) or b < 1:
            raise EvalError(f"a budget must be a positive whole number of tokens, got {b!r}")
    git_dir = find_git_dir(path)
    if instances is None:
        instances = mine_instances(path, every=every, limit=limit)
    run = EvalRun(str(path), [], {s.name: [] for s in systems}, budgets)
    for instance in instances:
        try:
            outcomes = run_instance(git_dir, instance, systems, budgets, encoding)
        except (EvalError, ValueError, OSError) as exc:
            run.skipped.append((instance, str(exc)))
        else:
            run.instances.append(instance)
            for o in outcomes:
                run.outcomes[o.system].append(o)
        if progress:
            progress(1)
    return run


def explain_miss(path, outcome: Outcome, signals=ranking.SIGNALS) -> str:
    """Why ``outcome``'s edited file ranked low: ``ranking.explain_ranked`` for the file ranked
    first and for the best-placed edited file, at the instance's parent commit."""
    instance = outcome.instance
    files = files_at(path, instance.parent)
    ranked = ranking.rank_files(files, instance.query, signals)
    place = {r.path: (i, r) for i, r in enumerate(ranked, 1)}
    target = min(instance.targets, key=lambda t: place.get(t, (10**9, None))[0])
    lines = [f"ranked 1st: {ranking.explain_ranked(ranked[0])}"]
    if target in place:
        i, r = place[target]
        lines.append(f"edited, ranked {i}: {ranking.explain_ranked(r)}")
    else:
        lines.append(f"edited: {target} was not read (ignored, too big or binary at that commit)")
    return "\n".join(lines)
