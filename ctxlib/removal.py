"""What to remove when the transcript overflows: a transcript with identities, and the removal rules.

Lesson 4, and the one vocabulary of every lesson's loop (Lesson 2's ``transcript.simulate`` runs
the same blocks under ``head_trim`` or ``keep_tail``). Every block says what it is and what it
refers to, so a rule can tell test output from a superseded diff or a stale copy of a file. The
kinds, one name each (a display layer words them in the viewer's language from ``kind`` and the
plain fields ``path``, ``attempt``, ``turn``, ``version``, ``tokens``):

    fixed_prefix, task, retrieved_file   pinned: never removed (the chapter's harness pins its fill)
    model_message                        what the model wrote that is not a diff
    edit                                 a diff of ``path``, part of ``attempt``
    file_read, search_results            tool output: a file the agent read (``path``, ``version``), hits
    diagnostics                          tool output: a test or type-checker run of ``attempt``;
                                         the head holds the tracebacks, the tail the summary
    summary                              what a summarizing rule left in place of the blocks it took

A block remembers which stretches of its original tokens it still holds (``kept``, a tuple of
``(start, end)`` token offsets), so "were the tracebacks at its head kept?" has an exact answer.
A masked block keeps its identity and holds only a one-line placeholder.

Every rule is a plain function ``rule(blocks, target_tokens, **params) -> (blocks, removals)``:
``target_tokens`` is what the request may carry (window - reply reserve, as in Lesson 2), the
result is the new transcript and one ``Removal`` per block touched. Pinned blocks are never
touched. ``Rule(function, **params)`` binds the parameters; ``compose(a, b)`` applies ``a`` then
``b``. Where each rule comes from:

    head_trim              Lesson 2's trim: the oldest tool output first, from its head
    keep_tail              the same cut, but every output keeps its last ``tail_tokens`` (the summary)
    head_and_tail          Codex-style harnesses: one long tool output keeps its head and its tail
    observation_masking    SWE-agent: the last ``keep_last`` tool outputs stay, older ones become
                           placeholders (Lindenbauer et al. 2025 keep the last 10)
    drop_superseded_diffs  a diff of a file that a later diff of the same file replaces is dropped
    replace_stale_copies   a file read again (after an edit) supersedes the older copy
    summarize_span         OpenHands' summarizing condenser: older blocks become one summary block
                           of a stated size (simulated: no model is called)
    compaction             Claude Code-style: only past ``threshold`` of the window, summarize the
                           oldest blocks down to ``low_mark`` of the window

Not handled: the text inside blocks (sizes and identities only), a summary's quality (a summary
holds none of the needed items verbatim, see ``ctxlib.overflow``), and the tokens of message
framing around blocks.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

from .ceiling import check_tokens
from .i18n import N_, WordedError, shown
from .tokens import estimate_tokens

KINDS = ("fixed_prefix", "task", "retrieved_file", "model_message", "edit",
         "file_read", "search_results", "diagnostics", "summary")
TOOL_OUTPUTS = ("file_read", "search_results", "diagnostics")
PINNED_KINDS = ("fixed_prefix", "task", "retrieved_file")


@dataclass(frozen=True)
class Block:
    """A stretch of the transcript with its identity: kind, tokens now, what it refers to, what it still holds."""

    kind: str
    tokens: int
    label: str
    pinned: bool = False
    turn: int = 0
    path: str | None = None
    version: int | None = None
    attempt: int | None = None
    original_tokens: int = 0
    kept: tuple = ()
    tracebacks_tokens: int = 0
    masked: bool = False

    def holds(self, start: int, end: int) -> bool:
        """True if every original token in ``[start, end)`` is still in the block (an empty range: True)."""
        if end <= start:
            return True
        return not self.masked and any(a <= start and end <= b for a, b in self.kept)

    @property
    def head_lost(self) -> int:
        """Original tokens before the first one the block still holds (all of them if it holds none).

        After head cuts only (Lesson 2's trims) it is the total cut from the head: 18,000 kept, cut
        16,412 -> 16,412. A middle cut keeps the head, so it stays 0.
        """
        return self.kept[0][0] if self.kept else self.original_tokens

    @property
    def whole(self) -> bool:
        """True if nothing of the block has been cut or masked."""
        return self.holds(0, self.original_tokens) and self.tokens == self.original_tokens


def make_block(kind: str, tokens: int, label: str, **identity) -> Block:
    """A fresh block holding all of its ``tokens``; pinned if its kind is one of ``PINNED_KINDS``.

    Raises: ValueError for an unknown kind or a size that is not a whole number of tokens.
    Example: ``make_block("diagnostics", 18_000, "pytest, attempt 1", attempt=1, tracebacks_tokens=4_000)``.
    """
    if kind not in KINDS:
        raise WordedError.of(N_("kind must be one of {known}, got {kind}"), known=str(KINDS), kind=shown(kind))
    check_tokens("tokens", tokens)
    identity.setdefault("pinned", kind in PINNED_KINDS)
    return Block(kind, tokens, label, original_tokens=tokens, kept=((0, tokens),) if tokens else (), **identity)


@dataclass(frozen=True)
class Removal:
    """What a rule took: the block's label and kind, tokens removed, the action (a message id) and the rule."""

    label: str
    kind: str
    tokens: int
    action: str
    rule: str


CUT_HEAD, CUT_TAIL, CUT_MIDDLE = N_("cut from the head"), N_("cut to its tail"), N_("middle cut")
MASKED, DROPPED, SUMMARIZED = N_("masked"), N_("dropped"), N_("summarized")


def _cut(block: Block, keep_from: int, keep_to: int, keep_also: tuple = ()) -> Block:
    """The block keeping only kept-content offsets ``[keep_from, keep_to)`` (and ``keep_also``), in kept order."""
    spans, position = [], 0
    wanted = [(keep_from, keep_to), *keep_also]
    for a, b in block.kept:
        for lo, hi in wanted:
            s, e = max(a, a + lo - position), min(b, a + hi - position)
            if s < e:
                spans.append((s, e))
        position += b - a
    spans.sort()
    return replace(block, kept=tuple(spans), tokens=sum(e - s for s, e in spans))


def cut_head(block: Block, tokens: int) -> Block:
    """``block`` without its first ``tokens`` kept tokens. Example: 18,000 kept, cut 16,412 -> the last 1,588.

    Raises: ValueError unless ``tokens`` is a whole number >= 0 (-5 and NaN cut nothing, silently).
    """
    return _cut(block, check_tokens("tokens", tokens), block.tokens)


def keep_head_and_tail(block: Block, head_tokens: int, tail_tokens: int) -> Block:
    """``block`` keeping its first ``head_tokens`` and last ``tail_tokens`` kept tokens (the middle goes).

    Raises: ValueError unless both are whole numbers >= 0 (a head of -10 kept the tail alone, silently).
    """
    check_tokens("head_tokens", head_tokens)
    check_tokens("tail_tokens", tail_tokens)
    if head_tokens + tail_tokens >= block.tokens:
        return block
    return _cut(block, 0, head_tokens, ((block.tokens - tail_tokens, block.tokens),))


def placeholder_text(block: Block) -> str:
    """The one line a masked block shows instead of its content, e.g.
    ``[pytest, attempt 1: 18,000 tokens of diagnostics, removed to save space]``."""
    return f"[{block.label}: {block.original_tokens:,} tokens of {block.kind}, removed to save space]"


def mask(block: Block) -> Block:
    """``block`` replaced by its placeholder: same identity, ``masked``, tokens = the placeholder's (rough rule)."""
    return replace(block, masked=True, kept=(), tokens=estimate_tokens(placeholder_text(block)))


def _total(blocks) -> int:
    return sum(b.tokens for b in blocks)


def _latest_diagnostics(blocks) -> int | None:
    indices = [i for i, b in enumerate(blocks) if b.kind == "diagnostics"]
    return indices[-1] if indices else None


def _check_target(target_tokens) -> int:
    return check_tokens("target_tokens", target_tokens)


def head_trim(blocks, target_tokens: int, *, kinds: tuple = TOOL_OUTPUTS):
    """Lesson 2's trim: while the total is over ``target_tokens``, cut the oldest tool output from its head.

    Tool outputs are the blocks of ``kinds`` (default ``TOOL_OUTPUTS``; Lesson 2's ``Loop`` passes its
    ``evictable_kinds``); diffs, messages and pinned blocks are never cut. A block cut
    to 0 tokens stays (it keeps its identity). One pass, oldest first. May remove the latest
    diagnostics while older evictable blocks remain: it cuts only tool output, so older diffs and
    messages survive while the newest test output goes.
    Returns ``(blocks, removals)``. Example: outputs of 18,000 and 24,000 over a target by 20,000
    -> the first cut to 0, the second loses its first 2,000 tokens (its tracebacks).
    """
    excess = _total(blocks) - _check_target(target_tokens)
    kept, removals = [], []
    for block in blocks:
        if excess > 0 and block.kind in kinds and not block.pinned and not block.masked and block.tokens:
            cut = min(block.tokens, excess)
            removals.append(Removal(block.label, block.kind, cut, CUT_HEAD, "head_trim"))
            block, excess = cut_head(block, cut), excess - cut
        kept.append(block)
    return kept, removals


def keep_tail(blocks, target_tokens: int, *, tail_tokens: int = 2_000, kinds: tuple = TOOL_OUTPUTS):
    """Like ``head_trim``, but each tool output keeps at least its last ``tail_tokens`` (its summary).

    Lesson 2's tail-keeping trim (``Loop(keep_tail_tokens=K)``) is this rule with ``tail_tokens=K``;
    ``kinds`` as in ``head_trim``. A block of ``tail_tokens`` or fewer is left alone.
    While over ``target_tokens``, tool outputs are cut from the head, oldest first, each down to
    ``tail_tokens`` at most. The total may stay over the target once every output is at its tail.
    May remove the latest diagnostics while older evictable blocks remain (their tails, diffs and
    messages stay). Returns ``(blocks, removals)``.
    """
    check_tokens("tail_tokens", tail_tokens)
    excess = _total(blocks) - _check_target(target_tokens)
    kept, removals = [], []
    for block in blocks:
        room = block.tokens - tail_tokens
        if excess > 0 and block.kind in kinds and not block.pinned and not block.masked and room > 0:
            cut = min(room, excess)
            removals.append(Removal(block.label, block.kind, cut, CUT_TAIL, "keep_tail"))
            block, excess = cut_head(block, cut), excess - cut
        kept.append(block)
    return kept, removals


def head_and_tail(blocks, target_tokens: int, *, max_tokens: int = 8_000, head_tokens: int = 4_000,
                  tail_tokens: int = 2_000):
    """Every tool output longer than ``max_tokens`` keeps its first ``head_tokens`` and last ``tail_tokens``.

    Codex-style harnesses cut one long tool output this way when it arrives; here it acts on every
    request, whatever the total (``target_tokens`` is only checked). The head holds the first
    tracebacks, the tail the summary. May remove the latest diagnostics while older evictable
    blocks remain: it cuts the middle of any long output, the newest included.
    Raises: ValueError if ``head_tokens + tail_tokens > max_tokens``. Returns ``(blocks, removals)``.
    """
    _check_target(target_tokens)
    for name, value in (("max_tokens", max_tokens), ("head_tokens", head_tokens), ("tail_tokens", tail_tokens)):
        check_tokens(name, value)
    if head_tokens + tail_tokens > max_tokens:
        raise WordedError.of(N_("head_tokens + tail_tokens must be <= max_tokens ({most:,}), got {tokens:,}"),
                             most=max_tokens, tokens=head_tokens + tail_tokens)
    kept, removals = [], []
    for block in blocks:
        if block.kind in TOOL_OUTPUTS and not block.pinned and not block.masked and block.tokens > max_tokens:
            cut = keep_head_and_tail(block, head_tokens, tail_tokens)
            removals.append(Removal(block.label, block.kind, block.tokens - cut.tokens, CUT_MIDDLE, "head_and_tail"))
            block = cut
        kept.append(block)
    return kept, removals


def observation_masking(blocks, target_tokens: int, *, keep_last: int = 10, polling: int = 1):
    """Keep the last ``keep_last`` tool outputs; every older one becomes a one-line placeholder.

    SWE-agent's rule, the "observation masking" of Lindenbauer et al. 2025 (who keep the last 10).
    It acts on every request, whatever the total: the placeholder says what was there and its size
    (``placeholder_text``). Diffs and messages are never masked. May remove the latest diagnostics
    while older evictable blocks remain: once ``keep_last`` newer outputs (reads, searches) have
    arrived after a test run, its output is masked, while older diffs and messages stay.
    ``polling`` is SWE-agent's ``LastNObservations(polling=...)``: the masked stretch moves only when
    the number of outputs reaches a multiple of ``polling``, so between moves the transcript only
    grows and a prompt cache keeps serving it; ``polling=1`` (the paper's runs) masks every turn.
    With n outputs, the oldest ``(n // polling) * polling - keep_last`` are masked (none if that is
    below 1): keep_last 10, polling 5, 24 outputs -> 10 masked, 14 shown.
    Raises: ValueError if ``keep_last`` or ``polling`` < 1. Returns ``(blocks, removals)``.
    """
    _check_target(target_tokens)
    check_tokens("keep_last", keep_last, positive=True)
    check_tokens("polling", polling, positive=True)
    outputs = [i for i, b in enumerate(blocks) if b.kind in TOOL_OUTPUTS and not b.pinned]
    older = set(outputs[:max(0, (len(outputs) // polling) * polling - keep_last)])
    kept, removals = [], []
    for i, block in enumerate(blocks):
        masked = mask(block)
        if i in older and not block.masked and masked.tokens < block.tokens:  # a placeholder never grows a block
            removals.append(Removal(block.label, block.kind, block.tokens - masked.tokens, MASKED,
                                    "observation_masking"))
            block = masked
        kept.append(block)
    return kept, removals


def drop_superseded_diffs(blocks, target_tokens: int):
    """Drop every diff of a file that a later diff of the same file supersedes.

    In the chapter's loop every attempt edits the same file, so only the latest attempt's diff
    stays. Acts whatever the total; never touches tool output. Returns ``(blocks, removals)``.
    """
    _check_target(target_tokens)
    return _keep_only_the_latest(blocks, "edit", "drop_superseded_diffs")


def replace_stale_copies(blocks, target_tokens: int):
    """Drop every copy of a file the agent read again later: the newest read supersedes the older ones.

    A re-read after an edit holds the file's current version; an older copy is stale. A copy
    that nothing re-read stays, stale or not. Acts whatever the total. Returns ``(blocks, removals)``.
    """
    _check_target(target_tokens)
    return _keep_only_the_latest(blocks, "file_read", "replace_stale_copies")


def _keep_only_the_latest(blocks, kind: str, rule: str):
    """Drop every unpinned block of ``kind`` whose path a later block of ``kind`` has: ``(kept, removals)``."""
    last = {b.path: i for i, b in enumerate(blocks) if b.kind == kind}
    kept, removals = [], []
    for i, block in enumerate(blocks):
        if block.kind == kind and not block.pinned and last[block.path] != i:
            removals.append(Removal(block.label, block.kind, block.tokens, DROPPED, rule))
            continue
        kept.append(block)
    return kept, removals


def _summarize(blocks, chosen: set, summary_tokens: int, rule: str):
    """Replace the blocks at indices ``chosen`` by one summary block, where the first of them stood."""
    taken = [blocks[i] for i in sorted(chosen)]
    removals = [Removal(b.label, b.kind, b.tokens, SUMMARIZED, rule) for b in taken]
    summary = make_block("summary", summary_tokens, f"summary of {len(taken)} blocks "
                         f"({sum(b.original_tokens for b in taken):,} tokens)",
                         turn=max(b.turn for b in taken))
    out = []
    for i, block in enumerate(blocks):
        if i == min(chosen):
            out.append(summary)
        if i not in chosen:
            out.append(block)
    return out, removals


def summarize_span(blocks, target_tokens: int, *, keep_last: int = 4, summary_tokens: int = 2_000):
    """When the total is over ``target_tokens``, replace every evictable block but the last ``keep_last``
    (and the latest diagnostics) with one summary block of ``summary_tokens`` tokens.

    OpenHands' summarizing condenser (keep the first events, summarize the middle, keep the recent
    ones). The summary's size is stated, not generated: no model is called. Earlier summaries are
    folded into the new one. Raises: ValueError for ``keep_last`` < 1. Returns ``(blocks, removals)``.
    """
    check_tokens("keep_last", keep_last, positive=True)
    check_tokens("summary_tokens", summary_tokens)
    if _total(blocks) <= _check_target(target_tokens):
        return list(blocks), []
    evictable = [i for i, b in enumerate(blocks) if not b.pinned]
    chosen = set(evictable[:-keep_last]) - {_latest_diagnostics(blocks)}
    if sum(blocks[i].tokens for i in chosen) <= summary_tokens:
        return list(blocks), []  # summarizing would not make the transcript smaller
    return _summarize(blocks, chosen, summary_tokens, "summarize_span")


def compaction(blocks, target_tokens: int, *, window_tokens: int, threshold: float = 0.8,
               low_mark: float = 0.5, summary_tokens: int = 3_000):
    """Only when the total passes ``threshold`` x ``window_tokens``: summarize the oldest evictable
    blocks into one of ``summary_tokens`` until the total is at most ``low_mark`` x the window.

    Claude Code-style compaction near the limit: rare, and large when it happens. The latest
    diagnostics are never summarized; if the low mark cannot be reached, everything else evictable
    is summarized. ``target_tokens`` is only checked: the threshold decides. Raises: ValueError
    unless 0 < low_mark < threshold <= 1. Returns ``(blocks, removals)``.
    """
    _check_target(target_tokens)
    check_tokens("window_tokens", window_tokens, positive=True)
    check_tokens("summary_tokens", summary_tokens)
    if not 0 < low_mark < threshold <= 1:
        raise WordedError.of(N_("need 0 < low_mark < threshold <= 1, got low_mark={low_mark}, threshold={threshold}"),
                             low_mark=shown(low_mark), threshold=shown(threshold))
    total = _total(blocks)
    if total <= threshold * window_tokens:
        return list(blocks), []
    latest = _latest_diagnostics(blocks)
    chosen, freed = set(), 0
    for i, block in enumerate(blocks):
        if total - freed + (summary_tokens if chosen else 0) <= low_mark * window_tokens:
            break
        if not block.pinned and i != latest:
            chosen.add(i)
            freed += block.tokens
    if freed <= summary_tokens:
        return list(blocks), []
    return _summarize(blocks, chosen, summary_tokens, "compaction")


def no_removal(blocks, target_tokens: int):
    """Remove nothing: the raw agent, which re-sends the whole transcript. Returns ``(blocks, [])``."""
    _check_target(target_tokens)
    return list(blocks), []


class Rule:
    """A removal rule with its parameters bound: ``Rule(observation_masking, keep_last=3)``; call it as the rule."""

    def __init__(self, function, /, name: str | None = None, **params):
        if not callable(function):
            raise WordedError.of(N_("a rule must be a function, got {value}"), value=shown(function))
        self.function, self.params = function, params
        shown = ", ".join(f"{k}={v:,}" if isinstance(v, int) else f"{k}={v}" for k, v in params.items()
                          if k != "window_tokens")
        self.name = name or (f"{function.__name__}({shown})" if shown else function.__name__)

    def __call__(self, blocks, target_tokens: int):
        return self.function(blocks, target_tokens, **self.params)

    def __repr__(self) -> str:
        return f"Rule({self.name})"


def compose(*rules) -> Rule:
    """One rule applying ``rules`` in order, each to what the one before left; removals concatenated.

    Example: ``compose(drop_superseded_diffs, head_trim)`` drops old diffs, then trims what is still over.
    Raises: ValueError for no rules.
    """
    if not rules:
        raise WordedError.of(N_("compose needs at least one rule, got none"))

    def composed(blocks, target_tokens):
        removals = []
        for rule in rules:
            blocks, taken = rule(blocks, target_tokens)
            removals += taken
        return blocks, removals

    return Rule(composed, name=" + ".join(getattr(r, "name", getattr(r, "__name__", "rule")) for r in rules))
