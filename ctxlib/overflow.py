"""The agent loop under a removal rule: per turn, what was sent, what was removed, and what was lost.

Lesson 4. A ``Run`` is a scripted loop: the opening blocks (fixed prefix, task, retrieved files)
and one ``Step`` per turn, saying what the model writes (a diff or a message, ``reply_tokens``)
and what the harness appends after it (a file read, search results or diagnostics). Each turn:

1. The rule runs on the transcript with ``target_tokens = window - reply_reserve_tokens``
   (``Run.target_tokens``; the window itself when output has its own limit).
2. Input = the tokens of what the rule left; reply room = window - input (or
   ``output_limit_tokens`` when the provider's output limit is separate). An input over the
   window, or no reply room at all, is refused: stop_reason ``context_length_exceeded``, the run
   ends and nothing is sent. A reply larger than the room is cut off: ``max_tokens``, the run ends.
   Otherwise ``end_turn``. So no request that is sent exceeds the window.
3. The reply and the tool output are appended. An edit raises its file's version; a read
   records the version it saw. The run ends after the last step: it always terminates.

**What the model needed**, checked on every request that is sent (``needed_items``):

- the task: the task block, whole;
- the latest failure's tracebacks: the first ``tracebacks_tokens`` of the newest diagnostics
  block, unmasked and uncut (a summary of them does not count);
- the latest diff: the newest edit, whole;
- the current version of each file it edited and then read again: that newest read, whole.

An item is *lost* on a turn when it exists (for example a diff has been written) and the request
does not hold it. ``Turn.lost`` lists them, so rules can be compared on it.

This is the course's one loop: Lesson 2's ``transcript.simulate`` is ``run_loop`` on its
``Loop`` figures under ``head_trim`` (or ``keep_tail``), and turns the ``Turn``s into ledger records.

Not handled: the model's behaviour changing with what it lost (the script is fixed), time, and
the prompt cache (``ctxlib.cost`` reads the requests this module records).
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from .ceiling import check_tokens
from .i18n import N_, WordedError, shown
from .removal import PINNED_KINDS, Block, Rule, make_block

TASK, TRACEBACKS, LATEST_DIFF, CURRENT_FILE = (N_("the task"), N_("the latest tracebacks"),
                                              N_("the latest diff"), N_("the current version of {path}"))


@dataclass(frozen=True)
class Step:
    """One turn of a scripted run: the model's reply (kind, tokens), then the tool output the harness appends.

    ``reply_kind`` is "edit" (a diff of ``path``) or "model_message"; ``output_kind`` is "file_read"
    (of ``path``), "search_results", "diagnostics" or None; ``tracebacks_tokens`` is how many tokens at
    the head of a diagnostics block are the tracebacks (all sizes in tokens).
    """

    reply_kind: str
    reply_tokens: int
    output_kind: str | None = None
    output_tokens: int = 0
    path: str | None = None
    tracebacks_tokens: int = 0


@dataclass(frozen=True)
class Run:
    """A scripted loop, in tokens: window, reply reserve, the opening blocks' sizes and the steps.

    ``output_limit_tokens``: the provider's separate output limit (None: output shares the window).
    ``pinned_kinds``: the kinds no rule may touch (Lesson 2 pins every kind its trim may not cut).
    """

    steps: tuple
    window_tokens: int = 200_000
    reply_reserve_tokens: int = 6_000
    fixed_prefix_tokens: int = 9_000
    task_tokens: int = 1_000
    fill_tokens: int = 0
    output_limit_tokens: int | None = None
    pinned_kinds: tuple = PINNED_KINDS

    def __post_init__(self):
        check_tokens("window_tokens", self.window_tokens, positive=True)
        for name in ("reply_reserve_tokens", "fixed_prefix_tokens", "task_tokens", "fill_tokens"):
            check_tokens(name, getattr(self, name))
        if self.output_limit_tokens is not None:
            check_tokens("output_limit_tokens", self.output_limit_tokens, positive=True)
        if not self.steps:
            raise WordedError.of(N_("a run needs at least one step, got none"))
        for i, step in enumerate(self.steps):
            if step.reply_kind not in ("edit", "model_message"):
                raise WordedError.of(N_("steps[{i}].reply_kind must be 'edit' or 'model_message', got {value}"), i=i,
                                     value=shown(step.reply_kind))
            if step.output_kind not in (None, "file_read", "search_results", "diagnostics"):
                raise WordedError.of(N_("steps[{i}].output_kind must be a tool output kind or None, got {value}"), i=i,
                                     value=shown(step.output_kind))
            check_tokens(f"steps[{i}].reply_tokens", step.reply_tokens)
            check_tokens(f"steps[{i}].output_tokens", step.output_tokens)
            if step.tracebacks_tokens > step.output_tokens:
                raise WordedError.of(N_("steps[{i}].tracebacks_tokens must be <= its output_tokens ({most:,}), got {value}"),
                                     i=i, most=step.output_tokens, value=shown(step.tracebacks_tokens))

    @property
    def target_tokens(self) -> int:
        """What a request may carry before the rule must act: window - reply reserve (at least 0),
        or the whole window when output has its own limit (``output_limit_tokens``)."""
        if self.output_limit_tokens is not None:
            return self.window_tokens
        return max(self.window_tokens - self.reply_reserve_tokens, 0)

    def reply_room(self, input_tokens: int) -> int:
        """Tokens the reply may use after ``input_tokens`` of input: window - input, or the output limit."""
        if self.output_limit_tokens is not None:
            return self.output_limit_tokens
        return self.window_tokens - input_tokens


@dataclass(frozen=True)
class Turn:
    """One request: its blocks, input, reply room (``max_tokens``), reply written, stop_reason, removals, lost items."""

    turn: int
    blocks: tuple
    input_tokens: int
    max_tokens: int
    output_tokens: int
    stop_reason: str
    removals: tuple
    lost: tuple


@dataclass(frozen=True)
class Outcome:
    """A run under one rule: the rule's name and one ``Turn`` per request."""

    rule: str
    run: Run
    turns: list = field(default_factory=list)

    @property
    def stop_reason(self) -> str:
        """How the last turn ended: end_turn, max_tokens or context_length_exceeded."""
        return self.turns[-1].stop_reason

    @property
    def first_lost(self) -> dict:
        """For each needed item ever lost, the first turn that lost it: ``{item: turn}``."""
        first = {}
        for turn in self.turns:
            for item in turn.lost:
                first.setdefault(item, turn.turn)
        return first


def needed_items(blocks, history: dict) -> dict:
    """The needed items (module docstring) that exist so far, each with True if the request holds it.

    ``history`` is what the run has produced: ``latest_diagnostics`` and ``latest_edit`` (labels or
    None), ``current_reads`` ({path: label of the read of its current version}). Returns
    ``{item: held}``; an item about a file is ``(CURRENT_FILE, path)``.
    """
    by_label = {b.label: b for b in blocks}
    items = {TASK: any(b.kind == "task" and b.whole for b in blocks)}
    if history["latest_diagnostics"]:
        b = by_label.get(history["latest_diagnostics"])
        items[TRACEBACKS] = b is not None and b.holds(0, b.tracebacks_tokens)
    if history["latest_edit"]:
        b = by_label.get(history["latest_edit"])
        items[LATEST_DIFF] = b is not None and b.whole
    for path, label in sorted(history["current_reads"].items()):
        b = by_label.get(label)
        items[(CURRENT_FILE, path)] = b is not None and b.whole
    return items


def run_loop(run: Run, rule=None) -> Outcome:
    """Run ``run`` turn by turn under ``rule`` (a rule function or ``Rule``; None: remove nothing).

    Returns an ``Outcome`` with one ``Turn`` per request, as the module docstring describes.
    Raises: ValueError as ``Run`` does; whatever the rule raises for bad parameters.
    Example: ``run_loop(chapter_run(70_000), head_trim)`` is Lesson 2's
    ``simulate(Loop(fill_tokens=70_000, diagnostics_tokens=(24_000, 60_000, 24_000, 24_000)))``:
    the same inputs and stop_reasons, since ``simulate`` calls this function.
    """
    from .removal import no_removal

    rule = rule or no_removal
    name = getattr(rule, "name", getattr(rule, "__name__", "rule"))

    def new_block(kind, tokens, label, **identity):
        return make_block(kind, tokens, label, pinned=kind in run.pinned_kinds, **identity)

    blocks = [new_block("fixed_prefix", run.fixed_prefix_tokens, "system prompt + tool definitions"),
              new_block("task", run.task_tokens, "task statement")]
    if run.fill_tokens:
        blocks.append(new_block("retrieved_file", run.fill_tokens, "retrieved files"))
    history = {"latest_diagnostics": None, "latest_edit": None, "current_reads": {}}
    versions, attempt, turns = {}, 0, []
    for number, step in enumerate(run.steps, 1):
        blocks, removals = rule(blocks, run.target_tokens)
        blocks = list(blocks)
        input_tokens = sum(b.tokens for b in blocks)
        room = run.reply_room(input_tokens)
        lost = tuple(item for item, held in needed_items(blocks, history).items() if not held)
        if input_tokens > run.window_tokens or room < 1:
            turns.append(Turn(number, tuple(blocks), input_tokens, max(room, 0), 0,
                              "context_length_exceeded", tuple(removals), lost))
            break
        stop = "end_turn" if step.reply_tokens <= room else "max_tokens"
        turns.append(Turn(number, tuple(blocks), input_tokens, room, min(step.reply_tokens, room),
                          stop, tuple(removals), lost))
        if stop == "max_tokens":
            break
        if step.reply_kind == "edit":
            attempt += 1
            versions[step.path] = versions.get(step.path, 0) + 1
            label = f"diff of {step.path}, attempt {attempt} (turn {number})"
            blocks.append(new_block("edit", step.reply_tokens, label, turn=number, path=step.path,
                                     version=versions[step.path], attempt=attempt))
            history["latest_edit"] = label
            history["current_reads"].pop(step.path, None)
        else:
            blocks.append(new_block("model_message", step.reply_tokens, f"model message (turn {number})",
                                     turn=number))
        if step.output_kind:
            label = _output_label(step, number, attempt)
            blocks.append(new_block(step.output_kind, step.output_tokens, label, turn=number, path=step.path,
                                     version=versions.get(step.path, 0) if step.path else None,
                                     attempt=attempt or None, tracebacks_tokens=step.tracebacks_tokens))
            if step.output_kind == "diagnostics":
                history["latest_diagnostics"] = label
            if step.output_kind == "file_read" and versions.get(step.path):
                history["current_reads"][step.path] = label
    return Outcome(name, run, turns)


def _output_label(step: Step, turn: int, attempt: int) -> str:
    if step.output_kind == "diagnostics":
        return f"diagnostics of attempt {attempt} (turn {turn})"
    if step.output_kind == "file_read":
        return f"read of {step.path} (turn {turn})"
    return f"search results (turn {turn})"


# The file every attempt of the chapter's loop edits (Lessons 2 and 4).
CHAPTER_PATH = "billing/invoice.py"


def chapter_run(fill_tokens: int = 70_000, diagnostics_tokens=(24_000, 60_000, 24_000, 24_000), *,
                patch_tokens: int = 6_000, tracebacks_tokens: int = 4_000, path: str = CHAPTER_PATH) -> Run:
    """Lesson 2's loop as a ``Run``: one attempt per turn, each a diff of ``path`` then its diagnostics.

    Defaults: the p90 ceiling's 70,000 fill and the type checker's 60,000-token cascade on attempt 2
    ("if the type checker returns 60k instead of the 24k budgeted"); window 200,000, prefix 9,000,
    task 1,000, a 6,000-token patch and reserve. ``tracebacks_tokens``: the head of each diagnostics
    block that holds the first tracebacks (an assumption of this lesson: 4,000 tokens).
    """
    steps = tuple(Step("edit", patch_tokens, "diagnostics", d, path, min(tracebacks_tokens, d))
                  for d in diagnostics_tokens)
    return Run(steps, fill_tokens=fill_tokens)


# The exploration run's sizes: (median, spread) of a lognormal per kind, in tokens, and how often
# each kind of turn comes. The sizes per kind are assumptions; only the raw run's overall mean input
# is checked against real SWE-agent runs (ctxlib.course.runs), where the fixed prefix and task are
# small, nothing is retrieved up front, and most tokens are tool output.
EXPLORATION_SIZES = {"file_read": (600, 0.6), "search_results": (300, 0.5), "diagnostics": (800, 0.5),
                     "model_message": (150, 0.3), "edit": (250, 0.4)}
EXPLORATION_MIX = (("read", 0.45), ("search", 0.25), ("edit_test", 0.30))


def exploration_run(turns: int = 40, *, seed: int = 4, window_tokens: int = 32_768,
                    fixed_prefix_tokens: int = 3_000, task_tokens: int = 800, files: int = 12) -> Run:
    """A longer run of reads, searches, edits and test runs, sizes drawn from ``EXPLORATION_SIZES``.

    Each turn is a read of one of ``files`` files, a search, or an edit followed by a test run (an
    edit turn writes a diff, the next turn's output is the diagnostics), in the shares of
    ``EXPLORATION_MIX``. Sizes are lognormal with the stated median and spread (``random.Random(seed)``,
    so the run is the same every time). Diagnostics keep their first 30% as tracebacks.
    Raises: ValueError for fewer than 1 turn.
    """
    check_tokens("turns", turns, positive=True)
    rng = random.Random(seed)

    def size(kind):
        median, spread = EXPLORATION_SIZES[kind]
        return max(1, round(median * rng.lognormvariate(0, spread)))

    paths = [f"src/module_{i:02d}.py" for i in range(files)]
    steps, edited = [], []
    for _ in range(turns):
        roll, kind = rng.random(), None
        for name, share in EXPLORATION_MIX:
            roll -= share
            if roll < 0:
                kind = name
                break
        kind = kind or EXPLORATION_MIX[-1][0]
        if kind == "read":
            path = rng.choice(edited) if edited and rng.random() < 0.4 else rng.choice(paths)
            steps.append(Step("model_message", size("model_message"), "file_read", size("file_read"), path))
        elif kind == "search":
            steps.append(Step("model_message", size("model_message"), "search_results", size("search_results")))
        else:
            path = rng.choice(edited) if edited and rng.random() < 0.6 else rng.choice(paths)
            edited.append(path)
            d = size("diagnostics")
            steps.append(Step("edit", size("edit"), "diagnostics", d, path, round(d * 0.3)))
    return Run(tuple(steps), window_tokens=window_tokens, reply_reserve_tokens=4_000,
               fixed_prefix_tokens=fixed_prefix_tokens, task_tokens=task_tokens)


def tokens_by_kind(outcome: Outcome) -> list[dict]:
    """Per turn, tokens sent by block kind plus ``reply``, ``input_tokens``, ``stop_reason``: a chart's rows."""
    from .removal import KINDS

    rows = []
    for t in outcome.turns:
        row = {"turn": t.turn, **{k: sum(b.tokens for b in t.blocks if b.kind == k) for k in KINDS}}
        row["masked"] = sum(b.tokens for b in t.blocks if b.masked)
        for k in KINDS:
            row[k] -= sum(b.tokens for b in t.blocks if b.masked and b.kind == k)
        row.update(reply=t.output_tokens, input_tokens=t.input_tokens, stop_reason=t.stop_reason)
        rows.append(row)
    return rows


__all__ = ["CHAPTER_PATH", "Block", "Outcome", "Rule", "Run", "Step", "Turn", "chapter_run", "exploration_run",
           "needed_items", "run_loop", "tokens_by_kind"]
