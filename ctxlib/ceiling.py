"""The first-turn ceiling: how much repository code the first request may carry.

Lesson 2, "Deriving the ceiling from the loop". A coding agent's transcript only grows:
every failing attempt appends its diff and the fresh diagnostics, and the last request must
still leave room for the patch. So the cap on the first turn's fill is what the window has
left after everything the loop will add:

    ceiling = window - fixed prefix - task statement - attempts x (patch + diagnostics)

With the chapter's figures (200,000 window, 9,000 prefix, 1,000 task, 6,000 patch, 4 attempts)
that is 94,000 at the p50 diagnostics of 18,000 and 70,000 (35% of the window) at the p90 of
24,000. "One ceiling per task class" routes a task on its declared scope to its own figures.

Design: a loop that cannot fit is a result, not an exception. ``first_turn_ceiling`` always
returns a ``Ceiling``; ``fits`` is False and ``shortfall_tokens`` says by how much when the
loop alone fills the window, so a lesson widget can print it instead of a traceback.

Not handled: choosing which files fill the ceiling (Lessons 1 and 3) and trimming a
transcript that overflows anyway (``ctxlib.transcript``).
"""
from __future__ import annotations

from dataclasses import dataclass

from .i18n import N_, WordedError, shown

# The chapter's figures, used as defaults so that ``first_turn_ceiling(24_000)`` reads like it.
WINDOW_TOKENS = 200_000
FIXED_PREFIX_TOKENS = 9_000
TASK_TOKENS = 1_000
PATCH_TOKENS = 6_000
DIAGNOSTICS_P50_TOKENS = 18_000
DIAGNOSTICS_P90_TOKENS = 24_000
MAX_ATTEMPTS = 4


def is_whole_number(value, smallest: int = 0) -> bool:
    """Whether ``value`` is a whole number (an ``int``) of at least ``smallest``: the one count check.

    bool is refused although it is an int in Python: ``True`` tokens is a bug, not a size.
    ``is_whole_number(3, 1)`` -> True; ``is_whole_number(0, 1)``, ``is_whole_number(True)``,
    ``is_whole_number(2.0)`` -> False.
    """
    return not isinstance(value, bool) and isinstance(value, int) and value >= smallest


def shown_count(value) -> str:
    """``value`` as a message about a count shows it: ``repr``, and the type when it is not an ``int``
    (``"2000.0 (float)"``, ``"np.int64(2000) (int64)"``), so "must be a whole number, got 2000.0" does not
    read as a contradiction."""
    text = shown(value)
    return text if type(value) is int else f"{text} ({type(value).__name__})"


def check_tokens(name: str, value, *, positive: bool = False) -> int:
    """``value`` if it is a whole number of tokens (>= 0, or > 0 if ``positive``), else ValueError.

    bool is refused although it is an int in Python: ``True`` tokens is a bug, not a size.
    Example: ``check_tokens("patch_tokens", -5)`` raises
    ``ValueError("patch_tokens must be a whole number of tokens >= 0, got -5")``.
    """
    smallest = 1 if positive else 0
    if not is_whole_number(value, smallest):
        raise WordedError.of(N_("{name} must be a whole number of tokens >= {smallest}, got {value}"),
                             name=name, smallest=smallest, value=shown_count(value))
    return value


def check_attempts(value) -> int:
    """``value`` if it is a whole number of attempts >= 1, else ValueError naming it."""
    if not is_whole_number(value, 1):
        raise WordedError.of(N_("max_attempts must be a whole number >= 1, got {value}"), value=shown_count(value))
    return value


@dataclass(frozen=True)
class Ceiling:
    """The ceiling arithmetic, term by term, in tokens; ``ceiling_tokens`` may be <= 0."""

    window_tokens: int
    fixed_prefix_tokens: int
    task_tokens: int
    patch_tokens: int
    diagnostics_tokens: int
    max_attempts: int

    @property
    def per_attempt_tokens(self) -> int:
        """What one failing attempt appends: its diff (patch) plus its diagnostics."""
        return self.patch_tokens + self.diagnostics_tokens

    @property
    def loop_growth_tokens(self) -> int:
        """Everything the loop adds over ``max_attempts`` attempts."""
        return self.per_attempt_tokens * self.max_attempts

    @property
    def ceiling_tokens(self) -> int:
        """The first turn's fill cap; <= 0 when the loop alone does not fit."""
        fixed = self.fixed_prefix_tokens + self.task_tokens
        return self.window_tokens - fixed - self.loop_growth_tokens

    @property
    def fits(self) -> bool:
        """True when at least one token of repository code fits on the first turn."""
        return self.ceiling_tokens > 0

    @property
    def shortfall_tokens(self) -> int:
        """How many tokens the loop alone runs over the window; 0 when it fits or just fills it."""
        return max(0, -self.ceiling_tokens)

    @property
    def share_of_window(self) -> float:
        """The ceiling as a fraction of the window, e.g. 0.35 for 70,000 of 200,000."""
        return self.ceiling_tokens / self.window_tokens

    def __str__(self) -> str:
        if self.ceiling_tokens > 0:
            return (f"first-turn ceiling {self.ceiling_tokens:,} tokens "
                    f"({self.share_of_window:.0%} of the {self.window_tokens:,}-token window)")
        if self.shortfall_tokens == 0:
            return "the loop fills this window exactly: no room for any repository code"
        return f"the loop cannot fit in this window: short by {self.shortfall_tokens:,} tokens"


def first_turn_ceiling(
    diagnostics_tokens: int = DIAGNOSTICS_P50_TOKENS,
    *,
    window_tokens: int = WINDOW_TOKENS,
    fixed_prefix_tokens: int = FIXED_PREFIX_TOKENS,
    task_tokens: int = TASK_TOKENS,
    patch_tokens: int = PATCH_TOKENS,
    max_attempts: int = MAX_ATTEMPTS,
) -> Ceiling:
    """The largest first-turn fill that leaves room for the whole loop.

    Args (all in tokens except ``max_attempts``; defaults are the chapter's figures):
        diagnostics_tokens: diagnostics one failing test run appends (p50 18,000; p90 24,000).
        window_tokens: the model's context window (200,000).
        fixed_prefix_tokens: system prompt + tool definitions, measured (9,000).
        task_tokens: ticket text + acceptance criteria (1,000).
        patch_tokens: one attempt's diff (p50 of merged patches, 6,000).
        max_attempts: attempts the loop allows (4).
    Returns:
        a ``Ceiling``; ``.ceiling_tokens`` is 94,000 with the defaults and 70,000 for
        ``first_turn_ceiling(24_000)``. ``.fits`` is False when the loop alone fills the window.
    Raises:
        ValueError: a size is negative or not a whole number, the window is 0, or
            ``max_attempts`` < 1; the message names the argument and the value.
    """
    return Ceiling(
        window_tokens=check_tokens("window_tokens", window_tokens, positive=True),
        fixed_prefix_tokens=check_tokens("fixed_prefix_tokens", fixed_prefix_tokens),
        task_tokens=check_tokens("task_tokens", task_tokens),
        patch_tokens=check_tokens("patch_tokens", patch_tokens),
        diagnostics_tokens=check_tokens("diagnostics_tokens", diagnostics_tokens),
        max_attempts=check_attempts(max_attempts),
    )


@dataclass(frozen=True)
class TaskClass:
    """A kind of task with its own loop figures: attempts, expected diagnostics, patch (tokens)."""

    name: str
    scope: str
    max_attempts: int
    diagnostics_tokens: int
    patch_tokens: int = PATCH_TOKENS


# The chapter's two classes. The one-line change converges on attempt one; the refactor runs
# everything, emits 40k when it fails and uses every attempt. The chapter gives no refactor
# patch size, so both keep the p50 patch of 6,000.
ONE_LINE_CHANGE = TaskClass("one-line configuration change", "one-line", 1, DIAGNOSTICS_P50_TOKENS)
NINE_FILE_REFACTOR = TaskClass("cross-cutting refactor, nine files", "refactor", MAX_ATTEMPTS,
                               40_000)


def route(declared_scope: str, classes=(ONE_LINE_CHANGE, NINE_FILE_REFACTOR)) -> TaskClass:
    """The task class whose ``scope`` equals the task's declared scope.

    Lesson 2, "One ceiling per task class": the harness knows the scope before the first request.
    Example: ``route("refactor").max_attempts == 4``.
    Raises:
        ValueError: no class has that scope; the message lists the known scopes.
    """
    for task_class in classes:
        if task_class.scope == declared_scope:
            return task_class
    known = ", ".join(repr(c.scope) for c in classes)
    raise WordedError.of(N_("no task class for declared scope {scope}; known scopes: {known}"),
                         scope=shown(declared_scope), known=known)


def class_ceiling(task_class: TaskClass, **window_figures) -> Ceiling:
    """``first_turn_ceiling`` with a task class's attempts, diagnostics and patch.

    ``window_figures`` may set ``window_tokens``, ``fixed_prefix_tokens`` and ``task_tokens``.
    Example: ``class_ceiling(ONE_LINE_CHANGE).ceiling_tokens == 166_000`` (loop growth 24,000).
    """
    return first_turn_ceiling(
        task_class.diagnostics_tokens,
        patch_tokens=task_class.patch_tokens,
        max_attempts=task_class.max_attempts,
        **window_figures,
    )


def ceiling_gap_tokens(right: Ceiling, applied: Ceiling) -> int:
    """Tokens of window lost (> 0) or overrun (< 0) when a task runs under another class's ceiling.

    ``right`` is the task's own ceiling, ``applied`` the one it was given. Positive: the fill
    could have held that many more tokens of code. Negative: the loop overruns the window by
    that many at the last attempt. Example: the one-line change (166,000) run under the
    chapter's p50 ceiling (94,000) loses 72,000 tokens.
    """
    return right.ceiling_tokens - applied.ceiling_tokens


def window_share(window_tokens: int, repo_tokens: int) -> float:
    """The fraction of a repository one full window can show, e.g. 200,000 / 12,000,000 = 0.0167.

    Lesson 2, the opening: a 200,000-token window shows about 1.7% of a 12-million-token repository.
    Raises:
        ValueError: either size is not a positive whole number of tokens, or the share is past a float's range.
    """
    check_tokens("window_tokens", window_tokens, positive=True)
    check_tokens("repo_tokens", repo_tokens, positive=True)
    try:
        return window_tokens / repo_tokens
    except OverflowError:  # 10**400 / 1: no float holds it
        raise WordedError.of(N_("window_tokens / repo_tokens is too large for a float: a window of {digits} digits "
                                 "over {repo} tokens"), digits=len(str(window_tokens)), repo=shown(repo_tokens)) from None
