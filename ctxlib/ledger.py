"""The token ledger: one record per turn, the run log it makes, and the p50/p90 read from it.

Lesson 2, "The ledger instrumentation". A harness that logs, for every turn, the input size,
the output size and the tokens each appended block added can answer the questions the
ceiling needs: how big is a patch, how big are a failing suite's diagnostics, at p50 and p90.
The budget is then recomputed from the log whenever the repository or the prefix changes.

Percentiles here are nearest-rank: the p-th percentile of n values is the value at 1-based
rank ceil(p/100 * n) in ascending order, so it is always one of the observed sizes.
Example: ``percentile([5, 1, 4, 2, 3], 50) == 3``; ``percentile(range(1, 11), 90) == 9``.

``generate_run_log`` makes a deterministic, synthetic log of 200 runs from stated
distributions, standing in for a real harness's log: diagnostics heavy-tailed (a few failing
tests of about 5,800 tokens each, and now and then a cascade of up to 60,000), merged patches
not. Its nearest-rank diagnostics are 17,540 at p50 and 24,443 at p90 (18,000 and 24,000
rounded to thousands), its merged patches 6,066 at p50 and 6,869 at p90.

Not handled: merging logs from different harnesses, or records of partial streams.
"""
from __future__ import annotations

import io
import json
import math
import numbers
import random
from dataclasses import asdict, dataclass, field
from fractions import Fraction
from pathlib import Path

from . import safefile
from .ceiling import Ceiling, check_attempts, check_tokens, first_turn_ceiling, is_whole_number, shown_count
from .i18n import N_, WordedError, shown

# Block kinds, as ctxlib.removal names them: a diff is an "edit", a test run's output "diagnostics".
PATCH_KIND = "edit"
DIAGNOSTICS_KIND = "diagnostics"
# The names ledgers written before the one vocabulary used; read back as today's kinds.
OLD_KIND_NAMES = {"retrieved_files": "retrieved_file", "attempt_diff": PATCH_KIND, "tool_output": DIAGNOSTICS_KIND}
STOP_REASONS = ("end_turn", "max_tokens", "context_length_exceeded")


@dataclass(frozen=True)
class TurnRecord:
    """One turn of one run: tokens in, reply room, tokens out, what was appended, how it stopped.

    ``appended`` maps block kind -> tokens added to the transcript since the previous request
    (before trimming); ``trimmed_tokens`` is what the trim step cut before this request. So a
    ledger balances: input = previous input + sum(appended) - trimmed. ``passed`` is True when
    the attempt's tests passed, so its patch is the one that was merged.
    """

    run: int
    turn: int
    attempt: int
    input_tokens: int
    max_tokens: int
    output_tokens: int
    stop_reason: str
    appended: dict = field(default_factory=dict)
    trimmed_tokens: int = 0
    passed: bool = False

    @classmethod
    def from_dict(cls, data) -> "TurnRecord":
        """A record from a decoded JSON object; ValueError says which field is wrong.

        Kinds in ``appended`` under their old names (``OLD_KIND_NAMES``) are read as today's.
        """
        if not isinstance(data, dict):
            raise WordedError.of(N_("a ledger record is a JSON object, got {type}"), type=type(data).__name__)
        optional = ("trimmed_tokens", "passed")  # fields added later; old ledgers lack them
        missing = [name for name in cls.__dataclass_fields__
                   if name not in data and name not in optional]
        if missing:
            raise WordedError.of(N_("missing field(s): {fields}"), fields=", ".join(missing))
        for name in ("run", "turn", "attempt", "input_tokens", "max_tokens", "output_tokens",
                     "trimmed_tokens"):
            if name in data:
                check_tokens(name, data[name])
        if data["stop_reason"] not in STOP_REASONS:
            raise WordedError.of(N_("stop_reason must be one of {known}, got {value}"), known=str(STOP_REASONS),
                                 value=shown(data["stop_reason"]))
        if not isinstance(data["appended"], dict):
            raise WordedError.of(N_("appended must be an object of kind -> tokens, got {value}"),
                                 value=shown(data["appended"]))
        for kind, tokens in data["appended"].items():  # a kind is the file's: a 10 MB one gave a 10 MB message
            check_tokens(f"appended[{shown(kind)}]", tokens)
        if not isinstance(data.get("passed", False), bool):
            raise WordedError.of(N_("passed must be true or false, got {value}"), value=shown(data["passed"]))
        fields = {name: data[name] for name in cls.__dataclass_fields__ if name in data}
        fields["appended"] = {OLD_KIND_NAMES.get(kind, kind): tokens for kind, tokens in data["appended"].items()}
        return cls(**fields)


def write_ledger(path, records) -> None:
    """Write ``records`` as JSON Lines, one ``TurnRecord`` per line, atomically.

    The file is written beside ``path`` and moved into place (``safefile.write_atomically``), so a
    reader never sees half a ledger; a link, a device or a FIFO at ``path`` is refused (``safefile.Refused``).
    """
    safefile.write_atomically(path, "".join(json.dumps(asdict(record), sort_keys=True) + "\n" for record in records))


def read_ledger(path) -> list[TurnRecord]:
    """The ``TurnRecord`` list in a JSON Lines ledger; blank lines are skipped.

    Raises:
        ValueError: a line is not JSON or not a valid record, as "<path>, line <n>: <why>".
        safefile.Refused: not a regular file (a FIFO, a link), or over ``MAX_LEDGER_BYTES``.
    """
    records = []
    for number, line in _lines(path):
        if not line.strip():
            continue
        try:
            records.append(TurnRecord.from_dict(safefile.load_json(line)))
        except (json.JSONDecodeError, ValueError, safefile.Refused) as error:
            raise WordedError.of(N_("{path}, line {number}: not a ledger record: {error}"), path=str(path), number=number,
                                 error=error if callable(getattr(error, "text", None)) else str(error)) from None
    return records


MAX_LEDGER_BYTES = 64 * 1024 * 1024  # ~200,000 turns; read whole, so a FIFO or /dev/zero is refused first


def _lines(path):
    # A ledger that is not UTF-8 is named, with the line, instead of a bare UnicodeDecodeError.
    data = safefile.read_regular_file(path, MAX_LEDGER_BYTES)
    for number, line in enumerate(io.BytesIO(data), start=1):  # lines end at "\n" only, as before
        try:
            yield number, line.decode("utf-8")
        except UnicodeDecodeError as error:
            raise WordedError.of(N_("{path}, line {number}: not UTF-8 text (bad byte at offset {offset})"), path=str(path),
                                 number=number, offset=error.start) from None


def percentile(values, p) -> int:
    """The nearest-rank p-th percentile: the value at rank ceil(p/100 * n) of the sorted values.

    Args: ``values`` sizes in tokens (non-empty); ``p`` in (0, 100], e.g. 50 for p50.
    Returns: one of ``values``. The rank is computed exactly (``Fraction``): in floats, 55/100 * 100 is
    55.00000000000001 and its ceiling 56 (p28 of 25 values, p56 of 25, p55 of 100 went one rank too high).
    Raises: ValueError for no values, a value that is not a number (NaN, text, a bool: NaN made ``sorted``
    leave [3, nan, 1, 2] as it was, and its p25 3) or p outside (0, 100].
    """
    ordered = list(values)
    if not ordered:
        raise WordedError.of(N_("percentile needs at least one value, got none"))
    bad = next((k for k, v in enumerate(ordered) if isinstance(v, bool) or not isinstance(v, numbers.Real) or v != v), None)
    if bad is not None:
        raise WordedError.of(N_("percentile needs numbers, got {value} at position {position}"), value=shown(ordered[bad]),
                             position=bad)
    ordered.sort()
    if isinstance(p, bool) or not isinstance(p, (int, float)) or not 0 < p <= 100:
        raise WordedError.of(N_("p must be a number in (0, 100], got {p}"), p=shown(p))
    return ordered[math.ceil(Fraction(p) * len(ordered) / 100) - 1]


def patch_sizes(records, merged_only: bool = True) -> list[int]:
    """The patches in the log, in tokens: by default only merged ones (attempts that ``passed``).

    The chapter's 6,000 is "the p50 of merged patches". ``merged_only=False`` gives every
    complete patch instead (output tokens of turns that stopped with end_turn), failed ones too.
    """
    return [r.output_tokens for r in records
            if r.stop_reason == "end_turn" and (r.passed or not merged_only)]


def diagnostics_sizes(records) -> list[int]:
    """Every failing run's diagnostics in the log: the tool output appended before a turn."""
    return [r.appended[DIAGNOSTICS_KIND] for r in records if DIAGNOSTICS_KIND in r.appended]


def round_to(tokens: int, step: int = 1_000) -> int:
    """``tokens`` rounded to the nearest ``step`` (halves up), e.g. 23,836 -> 24,000.

    Raises ``ValueError`` unless ``tokens`` is a whole number >= 0 (NaN came back as NaN, 1.5 as 0.0)
    and ``step`` a positive one.
    """
    check_tokens("tokens", tokens)
    if not is_whole_number(step, 1):
        raise WordedError.of(N_("step must be a positive whole number of tokens, got {step}"), step=shown_count(step))
    return (tokens + step // 2) // step * step


def ceiling_from_log(records, *, p: float = 90, step: int = 1_000, **window_figures) -> Ceiling:
    """The first-turn ceiling with the patch p50 and the diagnostics p-th percentile from a log.

    Both percentiles are rounded to ``step`` tokens (a budget is written in round figures;
    ``step=1`` keeps them exact). ``window_figures`` are ``first_turn_ceiling``'s keywords:
    ``window_tokens``, ``fixed_prefix_tokens``, ``task_tokens``, ``max_attempts``.
    Example: on ``generate_run_log()`` this is 70,000; with ``fixed_prefix_tokens=21_000``, 58,000.
    """
    return first_turn_ceiling(
        round_to(percentile(diagnostics_sizes(records), p), step),
        patch_tokens=round_to(percentile(patch_sizes(records), 50), step),
        **window_figures,
    )


# The synthetic log's stated distributions. A failing suite prints one block per failing test
# (the real pytest runs of Lesson 2 grow that way, about linearly in the failures), so a
# failing run's diagnostics are FAILURES tests of about 5,800 tokens each; 3% of failing runs
# are a cascade (one bad signature fails everything, or a flaky test dumps its request log):
# Pareto from 4 failures' worth, capped at the chapter's largest figure, 60,000.
FAILURES = ((1, 0.15), (2, 0.20), (3, 0.35), (4, 0.25), (5, 0.05))
TOKENS_PER_FAILURE = 5_800
CASCADE_SHARE = 0.03
MERGED_PATCH_TOKENS = 6_000  # lognormal median; sigma 0.1, so p90 is about 1.14 x p50
PASS_SHARE = 0.45            # the chance that an attempt passes


def _diagnostics_tokens(rng: random.Random) -> int:
    if rng.random() < CASCADE_SHARE:
        return min(round(4 * TOKENS_PER_FAILURE * rng.paretovariate(1.0)), 60_000)
    draw, total, failures = rng.random(), 0.0, FAILURES[-1][0]
    for count, share in FAILURES:
        total += share
        if draw < total:
            failures = count
            break
    return round(sum(rng.lognormvariate(math.log(TOKENS_PER_FAILURE), 0.15)
                     for _ in range(failures)))


def generate_run_log(runs: int = 200, random_state: int = 370, *, fixed_prefix_tokens: int = 9_000,
                     task_tokens: int = 1_000, fill_tokens: int = 40_000,
                     window_tokens: int = 200_000, max_attempts: int = 4) -> list[TurnRecord]:
    """A deterministic, synthetic ledger of ``runs`` agent runs, for reading p50/p90 from data.

    Each attempt passes with probability 0.45 (``PASS_SHARE``). A passing attempt's patch is
    merged: lognormal around 6,000 tokens with sigma 0.1 (not heavy-tailed). A failing
    attempt's diff varies more (lognormal around 5,000, sigma 0.45); its diagnostics, appended
    before the next attempt, are heavy-tailed: ``FAILURES`` failing tests of about 5,800 tokens
    each, or in 3% of failing runs a Pareto cascade capped at 60,000. ``random_state`` was
    picked so that the percentiles round to the chapter's 18,000 / 24,000 / 6,000.
    Same ``random_state``, same log.
    Raises:
        ValueError: a size or count is not a whole number, or a run's input would not leave
            room for its patch in the window (lower ``fill_tokens``).
    """
    if not is_whole_number(runs, 1):
        raise WordedError.of(N_("runs must be a whole number >= 1, got {runs}"), runs=shown_count(runs))
    for name, value in (("fixed_prefix_tokens", fixed_prefix_tokens), ("task_tokens", task_tokens),
                        ("fill_tokens", fill_tokens), ("window_tokens", window_tokens)):
        check_tokens(name, value)
    check_attempts(max_attempts)
    rng = random.Random(random_state)
    records = []
    for run in range(1, runs + 1):
        appended = {"fixed_prefix": fixed_prefix_tokens, "task": task_tokens,
                    "retrieved_file": fill_tokens}
        input_tokens = sum(appended.values())
        for attempt in range(1, max_attempts + 1):
            passed = rng.random() < PASS_SHARE
            median, sigma = (MERGED_PATCH_TOKENS, 0.1) if passed else (5_000, 0.45)
            patch = round(rng.lognormvariate(math.log(median), sigma))
            if input_tokens + patch > window_tokens:
                raise WordedError.of(N_("run {run} attempt {attempt} needs {tokens:,} tokens, over the {window:,}-token "
                                        "window; lower fill_tokens"), run=run, attempt=attempt,
                                     tokens=input_tokens + patch, window=window_tokens)
            records.append(TurnRecord(run, attempt, attempt, input_tokens,
                                      window_tokens - input_tokens, patch, "end_turn", appended,
                                      passed=passed))
            if passed or attempt == max_attempts:
                break
            appended = {PATCH_KIND: patch, DIAGNOSTICS_KIND: _diagnostics_tokens(rng)}
            input_tokens += sum(appended.values())
    return records


def tail_ratio(values, p: float = 90) -> float:
    """How far the p-th percentile sits above the median: ``percentile(values, p) / p50``.

    A measure of how heavy a distribution's upper tail is, for sizes in tokens; e.g. 1.33 for
    the chapter's diagnostics (24,000 / 18,000). Raises as ``percentile``, or ValueError when
    the median is 0.
    """
    median = percentile(values, 50)
    if median == 0:
        raise WordedError.of(N_("tail_ratio needs a median above 0, got 0"))
    return percentile(values, p) / median
