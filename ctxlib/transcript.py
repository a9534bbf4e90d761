"""The transcript simulator: watch an agent loop fill the context window turn by turn.

Lesson 2, "The ledger for a 180k fill". The first request carries the fixed prefix (system
prompt + tool definitions), the task and the retrieved files. Each failing attempt appends
its diff and its diagnostics, and the whole transcript is re-sent on the next turn.

There is one loop in ctxlib: ``simulate`` runs Lesson 4's ``overflow.run_loop`` on the ``Loop``'s
figures (``as_run``) under Lesson 2's rule (``lesson2_rule``), with the blocks and kinds of
``ctxlib.removal`` (``fixed_prefix``, ``task``, ``retrieved_file``, ``edit`` for a diff,
``diagnostics`` for the test output), and writes each turn as a ledger record. The rules, in the
order a turn applies them:
1. Trim, before every request, until input <= window - reply_reserve_tokens. Two rules:
   - head trim (``keep_tail_tokens=0``, the default; ``removal.head_trim``): cut the oldest
     evictable block from its head (the tracebacks at the head of a pytest block go first, the
     summary tail stays), then the next oldest;
   - tail-keeping trim (``keep_tail_tokens=K``; ``removal.keep_tail``): cut each evictable block,
     oldest first, down to its last K tokens, then move on to the next block, so every cut tool
     output keeps a tail of K tokens.
   Pinned blocks are never touched, so when they (and the kept tails) alone exceed the target
   the request goes out with less reply room than reserved. Only diagnostics are evictable by
   default (the chapter's harness pins retrieved files).
2. Reply room. When output shares the window (most providers), reply room = window - input
   and a patch larger than it is cut off: stop_reason "max_tokens". When the provider's
   output limit is separate (``output_limit_tokens``), the trim target is the window itself
   and the reply room is that limit.
3. Overflow. An input over the window (only pinned blocks can cause it), or one that leaves
   no reply room at all, is refused at the request: stop_reason "context_length_exceeded",
   no output, and ``Simulation.error`` says why. Trimming is one bounded pass: it never loops.

The chapter's trace (attempt 3/4, input 198,412, max_tokens 1,588) is reached from the stated
fill of 180,000 once the failed attempts' diffs are allowed to differ (the chapter's 6,000 is
the p50 of *merged* patches): ``Loop(patch_tokens=(6000, 2412, 6000, 6000))``. With the
tail-keeping trim it is reached with a tail of test output in every request:
``Loop(keep_tail_tokens=1_206, patch_tokens=(4000, 2000, 6000, 6000),
diagnostics_tokens=(12000, 6000, 18000, 18000))``. With equal 6,000-token diffs and the 180,000
fill it is not: the second request carries 196,000 pinned tokens and attempt 2 is cut off.

Not handled: which blocks a smarter removal rule should drop (Lesson 4), tokens of the
messages around blocks, and streaming.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .ceiling import check_attempts, check_tokens, is_whole_number
from .i18n import N_, Worded, WordedError, shown
from .ledger import DIAGNOSTICS_KIND, PATCH_KIND, TurnRecord
from .overflow import CHAPTER_PATH, Outcome, Run, Step, run_loop
from .removal import Block, Rule, head_trim, keep_tail as _keep_tail_rule  # noqa: F401 (Block: re-exported)

# The kinds of block Lesson 2's loop makes, in the order a request holds them (removal.KINDS has all).
LOOP_KINDS = ("fixed_prefix", "task", "retrieved_file", PATCH_KIND, DIAGNOSTICS_KIND)


@dataclass(frozen=True)
class Loop:
    """One agent run's figures, in tokens; the defaults are the chapter's 180,000-fill run.

    ``patch_tokens`` and ``diagnostics_tokens`` are one size for every attempt or a tuple with
    one size per attempt. ``reply_reserve_tokens`` is what the trim step keeps free for the
    reply (default: one p50 patch); it is ignored when ``output_limit_tokens`` is set, since
    then output does not share the window (None: it does). ``evictable_kinds`` lists the
    block kinds trim may cut. ``passes_on_attempt`` ends the run green on that attempt
    (None: every attempt fails). ``keep_tail_tokens`` chooses the trim rule: 0 (default) cuts
    the oldest evictable block away before touching the next; K > 0 keeps the last K tokens of
    every block it cuts (see the module docstring).
    """

    window_tokens: int = 200_000
    fixed_prefix_tokens: int = 9_000
    task_tokens: int = 1_000
    fill_tokens: int = 180_000
    patch_tokens: int | tuple = 6_000
    diagnostics_tokens: int | tuple = 18_000
    max_attempts: int = 4
    reply_reserve_tokens: int = 6_000
    evictable_kinds: tuple = (DIAGNOSTICS_KIND,)
    output_limit_tokens: int | None = None
    passes_on_attempt: int | None = None
    keep_tail_tokens: int = 0


@dataclass(frozen=True)
class Simulation:
    """What ``simulate`` saw: the loop, one ledger record and one sent transcript per turn, the ``Outcome``."""

    loop: Loop
    records: list = field(default_factory=list)
    transcripts: list = field(default_factory=list)
    error: str | None = None
    outcome: Outcome | None = None

    @property
    def stop_reason(self) -> str:
        """How the last turn ended: end_turn, max_tokens or context_length_exceeded."""
        return self.records[-1].stop_reason


def _per_attempt(name: str, sizes, max_attempts: int) -> tuple:
    if not isinstance(sizes, (tuple, list)):
        sizes = (sizes,) * max_attempts
    if len(sizes) < max_attempts:
        raise WordedError.of(N_("{name} gives {n} sizes but max_attempts is {attempts}"), name=name, n=len(sizes),
                             attempts=max_attempts)
    return tuple(check_tokens(f"{name}[{i}]", size) for i, size in enumerate(sizes))


# Every turn re-sends (and this simulator keeps) the whole transcript, so the work grows with the
# square of the attempts: 1,000 take about 0.15 s, 20,000 took 78 s. No agent loop runs that long.
MAX_SIMULATED_ATTEMPTS = 1_000


def _check(loop: Loop) -> tuple[tuple, tuple]:
    check_tokens("window_tokens", loop.window_tokens, positive=True)
    for name in ("fixed_prefix_tokens", "task_tokens", "fill_tokens", "reply_reserve_tokens",
                 "keep_tail_tokens"):
        check_tokens(name, getattr(loop, name))
    check_attempts(loop.max_attempts)
    if loop.max_attempts > MAX_SIMULATED_ATTEMPTS:
        raise WordedError.of(N_("max_attempts must be at most {most:,} for the simulator (each turn re-sends the whole "
                                "transcript), got {attempts:,}"), most=MAX_SIMULATED_ATTEMPTS, attempts=loop.max_attempts)
    if loop.output_limit_tokens is not None:
        check_tokens("output_limit_tokens", loop.output_limit_tokens, positive=True)
    kinds = loop.evictable_kinds
    if isinstance(kinds, str) or not isinstance(kinds, (tuple, list, set, frozenset)):
        one = [(N_(" (one kind is a tuple of one: ({kind:.40},))"), {"kind": shown(kinds)})] if isinstance(kinds, str) else []
        raise WordedError(Worded((N_("evictable_kinds must be a tuple of kinds from {known}, got {value:.80}"),
                                  {"known": str(LOOP_KINDS), "value": shown(kinds)}), *one))
    unknown = [k for k in kinds if not isinstance(k, str) or k not in LOOP_KINDS]
    if unknown:
        raise WordedError.of(N_("evictable_kinds must be among {known}, got {value:.120}"), known=str(LOOP_KINDS),
                             value=shown(unknown))
    attempts = range(1, loop.max_attempts + 1)
    # True is in range(1, 5) (it equals 1) and 1.0 too, then raised a TypeError mid-run: a whole number only.
    if loop.passes_on_attempt is not None and not (is_whole_number(loop.passes_on_attempt)
                                                   and loop.passes_on_attempt in attempts):
        raise WordedError.of(N_("passes_on_attempt must be None or 1..{attempts}, got {value}"), attempts=loop.max_attempts,
                             value=shown(loop.passes_on_attempt))
    return (_per_attempt("patch_tokens", loop.patch_tokens, loop.max_attempts),
            _per_attempt("diagnostics_tokens", loop.diagnostics_tokens, loop.max_attempts))


def lesson2_rule(loop: Loop) -> Rule:
    """The removal rule ``loop`` names: Lesson 2's head trim, or its tail-keeping trim.

    ``keep_tail_tokens=0`` -> ``Rule(head_trim, kinds=evictable_kinds)``; K > 0 ->
    ``Rule(keep_tail, tail_tokens=K, kinds=evictable_kinds)`` (both in ``ctxlib.removal``).
    Example: blocks of 10 (pinned) and 8 (evictable) trimmed to 12 -> the evictable block keeps its
    last 2 tokens, 6 trimmed; with ``keep_tail_tokens=3`` and a target of 10 it keeps its last 3.
    """
    kinds = tuple(loop.evictable_kinds)
    if loop.keep_tail_tokens:
        return Rule(_keep_tail_rule, tail_tokens=loop.keep_tail_tokens, kinds=kinds)
    return Rule(head_trim, kinds=kinds)


def as_run(loop: Loop) -> Run:
    """``loop``'s figures as Lesson 4's scripted ``Run``: per attempt a diff of ``CHAPTER_PATH``
    (``patch_tokens``), then its diagnostics; attempts up to ``passes_on_attempt`` (or all).

    Kinds not in ``evictable_kinds`` are pinned (Lesson 2's trim may not cut them).
    Raises: ValueError as ``simulate`` does.
    """
    patches, diagnostics = _check(loop)
    attempts = loop.passes_on_attempt or loop.max_attempts
    steps = tuple(Step("edit", patches[i], "diagnostics", diagnostics[i], CHAPTER_PATH) for i in range(attempts))
    return Run(steps, window_tokens=loop.window_tokens, reply_reserve_tokens=loop.reply_reserve_tokens,
               fixed_prefix_tokens=loop.fixed_prefix_tokens, task_tokens=loop.task_tokens,
               fill_tokens=loop.fill_tokens, output_limit_tokens=loop.output_limit_tokens,
               pinned_kinds=tuple(k for k in LOOP_KINDS if k not in loop.evictable_kinds))


def refusal_text(simulation: "Simulation", lang: str = "en") -> str:
    """Why the last request was refused, in ``lang``; "" when nothing was refused.

    The same reason as ``Simulation.error`` (always English, for logs), from the message catalog:
    ``refusal_text(simulate(Loop(output_limit_tokens=32_000)), "en")`` -> "pinned blocks alone
    need 202,000 tokens against a 200,000-token window (2,000 over); trimming cannot help".
    Raises: ValueError for an unknown ``lang``.
    """
    from .i18n import check_lang

    check_lang(lang)
    if simulation.error is None:
        return ""
    return _refusal(simulation.loop, simulation.transcripts[-1],
                    simulation.records[-1].input_tokens, lang)


def _refusal(loop: Loop, blocks, input_tokens: int, lang: str = "en") -> str:
    from .i18n import message

    pinned = sum(block.tokens for block in blocks if block.pinned)
    if pinned > loop.window_tokens:
        return message("pinned blocks alone need {pinned:,} tokens against a {window:,}-token "
                       "window ({over:,} over); trimming cannot help", lang, pinned=pinned,
                       window=loop.window_tokens, over=pinned - loop.window_tokens)
    return message("the input of {input:,} tokens fills the whole window and leaves no reply room",
                   lang, input=input_tokens)


def simulate(loop: Loop = Loop()) -> Simulation:
    """Run the loop turn by turn under the rules in this module's docstring.

    This is ``overflow.run_loop(as_run(loop), lesson2_rule(loop))``, Lesson 4's loop under Lesson 2's
    rule, with each ``Turn`` written as a ledger record. Returns a ``Simulation`` whose ``records`` are
    ``ledger.TurnRecord`` (run 0, one per turn) and whose ``transcripts`` are the blocks each request
    carried after trimming. With ``Loop(patch_tokens=(6000, 2412, 6000, 6000))`` (the stated 180,000
    fill) the last record is attempt 3, input 198,412, max_tokens 1,588, stop_reason "max_tokens";
    so it is with ``Loop(fill_tokens=176_412)``.
    Raises: ValueError for a figure that is not a whole number of tokens, attempts < 1 or more
    than ``MAX_SIMULATED_ATTEMPTS`` (1,000), an unknown evictable kind, or too few per-attempt sizes.
    """
    patches, diagnostics = _check(loop)
    outcome = run_loop(as_run(loop), lesson2_rule(loop))
    appended = {"fixed_prefix": loop.fixed_prefix_tokens, "task": loop.task_tokens,
                "retrieved_file": loop.fill_tokens}
    records = []
    for turn in outcome.turns:
        attempt = turn.turn  # one attempt per turn
        passed = turn.stop_reason == "end_turn" and attempt == loop.passes_on_attempt
        records.append(TurnRecord(0, turn.turn, attempt, turn.input_tokens, turn.max_tokens, turn.output_tokens,
                                  turn.stop_reason, appended, sum(r.tokens for r in turn.removals), passed))
        appended = {PATCH_KIND: patches[attempt - 1], DIAGNOSTICS_KIND: diagnostics[attempt - 1]}
    last = outcome.turns[-1]
    error = (_refusal(loop, last.blocks, last.input_tokens)
             if last.stop_reason == "context_length_exceeded" else None)
    return Simulation(loop, records, [turn.blocks for turn in outcome.turns], error, outcome)


def occupancy(simulation: Simulation) -> list[dict]:
    """Per turn, tokens by block kind in the request, plus the reply, for a table or stacked chart.

    Each row: ``turn``, ``attempt``, one key per kind in ``LOOP_KINDS`` (tokens sent), ``reply``
    (output tokens), ``input_tokens``, ``max_tokens``, ``head_lost`` (tokens cut from heads so
    far, still-present blocks), ``stop_reason``.
    """
    rows = []
    for record, blocks in zip(simulation.records, simulation.transcripts):
        row = {"turn": record.turn, "attempt": record.attempt}
        row.update({kind: sum(b.tokens for b in blocks if b.kind == kind) for kind in LOOP_KINDS})
        row.update(reply=record.output_tokens, input_tokens=record.input_tokens,
                   max_tokens=record.max_tokens, head_lost=sum(b.head_lost for b in blocks),
                   stop_reason=record.stop_reason)
        rows.append(row)
    return rows


def format_trace(record: TurnRecord, max_attempts: int, model: str = "coding-agent-v2") -> str:
    """The chapter's trace lines for one turn, e.g.

    ``attempt 3/4  model=coding-agent-v2  input_tokens=198,412  max_tokens=1,588``
    ``[stop_reason: max_tokens]``
    """
    return (f"attempt {record.attempt}/{max_attempts}  model={model}  "
            f"input_tokens={record.input_tokens:,}  max_tokens={record.max_tokens:,}\n"
            f"[stop_reason: {record.stop_reason}]")


def last_tokens(text: str, keep_tokens: int, encoding: str = "o200k_base") -> str:
    """The last ``keep_tokens`` tokens of ``text``: what a trim from the head leaves of a tool output.

    The text form of the tail-keeping trim (``removal.keep_tail`` works on block sizes), counted
    in exact tokens of ``encoding`` (not characters). A cut that falls inside a multi-byte
    character shows U+FFFD there. Example: the last 2 tokens of "hello world again" in
    o200k_base are " world again".
    Raises: ValueError if ``keep_tokens`` is not a whole number >= 0 or the encoding is unknown.
    """
    from .tokens import encode_ids, get_encoding

    check_tokens("keep_tokens", keep_tokens)
    ids = encode_ids(text, encoding)  # a million blanks too, which tiktoken's own encode refuses
    return get_encoding(encoding).decode(ids[len(ids) - min(keep_tokens, len(ids)):])
