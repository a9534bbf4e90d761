"""Real agent runs under three context strategies, read from the data shipped in ``data/complexity_trap/``.

Lesson 4's real-world check. The files are the per-instance results published with Lindenbauer,
Slinko, Felder, Bogomolov and Zharov (2025), *The Complexity Trap: Simple Observation Masking Is
as Efficient as LLM Summarization for Agent Context Management* (MIT license; see that folder's
README and LICENSE): one row per SWE-bench Verified task and experiment, with the number of turns,
the mean input ("prompt") tokens per model call, the cost in USD and whether it was solved.

``strategy_table`` gives, per model and strategy: instances, turns p50/p90, mean input tokens per
call at p50 (over instances), mean cost per instance and the solve rate. The solve rate divides by
the 500 tasks of SWE-bench Verified, as the paper does, so a task with no row counts as unsolved.

Not handled: the 50-task runs (hybrid and masking-window sweeps) and OpenHands' 500-task masking run
with a window of 72 (``full_runs`` leaves them out). The lesson tabulates SWE-agent's five model
configurations and OpenHands' one (Gemini 2.5 Flash, ``load_runs("openhands")``).
"""
from __future__ import annotations

import csv
import gzip
from dataclasses import dataclass
from pathlib import Path

from ..i18n import N_, WordedError
from ..ledger import percentile

DATA = Path(__file__).parent / "data" / "complexity_trap"
FILES = {"swe-agent": "experiment_instance_costs_sweagent.csv.gz",
         "openhands": "experiment_instance_costs_openhands.csv.gz"}
TASKS = 500
# Experiment names start with the model; the paper's names for the five SWE-agent configurations.
MODELS = (("local-Qwen3-Coder_480B_A35B", "Qwen3-Coder 480B"), ("gemini_2.5_flash_thinking", "Gemini 2.5 Flash (thinking)"),
          ("gemini_2.5_flash", "Gemini 2.5 Flash"), ("local-Qwen3-32B_thinking", "Qwen3 32B (thinking)"),
          ("local-qwen3-32b", "Qwen3 32B"), ("gemini-2.5-flash", "Gemini 2.5 Flash"))
STRATEGIES = ("Raw Agent", "Observation Masking", "LLM-Summary")


@dataclass(frozen=True)
class TaskRun:
    """One task in one experiment: agent, model, strategy, turns, mean input tokens per call, cost (USD), solved.

    ``cost_usd`` is the agent's calls plus the summarizer's (``cost + summary_cost`` in the file), as the
    paper counts it; ``summary_cost_usd`` is the summarizer's part.
    """

    agent: str
    experiment: str
    model: str
    strategy: str
    turns: int
    mean_input_tokens: int
    cost_usd: float
    summary_cost_usd: float
    solved: bool


def _model(experiment: str) -> str:
    for prefix, name in MODELS:
        if experiment.startswith(prefix):
            return name
    return experiment


def _openhands_strategy(experiment: str) -> str:
    if "raw_agent" in experiment:
        return "Raw Agent"
    return "Observation Masking" if "observation_masking" in experiment else "LLM-Summary"


def load_runs(agent: str = "swe-agent", path: Path | None = None) -> list[TaskRun]:
    """Every row of the agent's file as a ``TaskRun``.

    Args: ``agent`` "swe-agent" or "openhands"; ``path`` another gzipped CSV of the same columns.
    Raises: ValueError for an unknown agent; OSError if the file cannot be read.
    """
    if agent not in FILES:
        raise WordedError.of(N_("agent must be one of {known}, got {agent}"), known=str(sorted(FILES)), agent=repr(agent))
    with gzip.open(path or DATA / FILES[agent], "rt", encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    return [TaskRun(agent, r["experiment"], _model(r["experiment"]),
                     r.get("strategy") or _openhands_strategy(r["experiment"]), int(r["turn_count"]),
                     int(float(r["mean_prompt_tokens"])),
                     float(r["cost"]) + float(r["summary_cost"]), float(r["summary_cost"]), r["outcome"] == "1")
            for r in rows]


def full_runs(instances) -> list[TaskRun]:
    """The instances of experiments run on all 500 tasks (their names end in ``verified-500`` or have no 50-task
    mark), at each strategy's default setting: OpenHands' 500-task masking run with a window of 72 (``-M_72``)
    is a sweep point, not the default, and is left out so each row is one run."""
    return [i for i in instances if "verified-50" not in i.experiment.replace("verified-500", "")
            and "verified_50" not in i.experiment and "-M_" not in i.experiment]


@dataclass(frozen=True)
class StrategyRow:
    """One model under one strategy: instances, turns p50/p90, mean input tokens per call p50, mean cost (USD), solve rate."""

    model: str
    strategy: str
    instances: int
    turns_p50: int
    turns_p90: int
    input_tokens_p50: int
    mean_cost_usd: float
    solve_rate: float


def _deciles(values) -> list[int]:
    # Nearest rank, the course's one percentile rule (ctxlib.ledger.percentile, Lesson 2).
    return [percentile(values, p) for p in range(10, 100, 10)]


def strategy_table(instances) -> list[StrategyRow]:
    """One ``StrategyRow`` per (model, strategy) over ``instances``, in the order of ``MODELS`` and ``STRATEGIES``.

    p50/p90 are nearest-rank percentiles (``ctxlib.ledger.percentile``, the rule of the whole course: a
    value some task really had, never a mean of two); the solve rate is solved / 500.
    Example: Qwen3-Coder 480B, Raw Agent -> input_tokens_p50 19,151, solve_rate 0.534.
    """
    groups = {}
    for i in instances:
        groups.setdefault((i.model, i.strategy), []).append(i)
    order = [name for _, name in MODELS]
    rows = []
    for (model, strategy), group in sorted(groups.items(), key=lambda kv: (order.index(kv[0][0]) if kv[0][0] in order
                                                                           else len(order), STRATEGIES.index(kv[0][1]))):
        turns = _deciles([i.turns for i in group])
        rows.append(StrategyRow(model, strategy, len(group), turns[4], turns[8],
                                _deciles([i.mean_input_tokens for i in group])[4],
                                sum(i.cost_usd for i in group) / len(group), sum(i.solved for i in group) / TASKS))
    return rows


def saving(rows, model: str, strategy: str = "Observation Masking") -> float:
    """1 - (``strategy``'s p50 input tokens per call / the raw agent's), for ``model``: the measured saving.

    Raises: KeyError if the table has no such row.
    """
    by = {(r.model, r.strategy): r for r in rows}
    return 1 - by[(model, strategy)].input_tokens_p50 / by[(model, "Raw Agent")].input_tokens_p50


def mean_input_tokens(model: str = "gemini_2.5_flash-agent", strategy: str = "Raw Agent") -> list[int]:
    """Mean input tokens per model call, one value per task, for the SWE-agent runs of ``model`` under ``strategy``.

    Lesson 2 uses it to show how heavy the tail of what real requests carry is.

    Args:
        model: the start of the ``experiment`` column, e.g. ``"gemini_2.5_flash-agent"`` (Gemini
            2.5 Flash without thinking) or ``"local-Qwen3-32B_thinking"``.
        strategy: ``"Raw Agent"``, ``"Observation Masking"`` or ``"LLM-Summary"``.
    Returns:
        the values (tokens, rounded down to whole tokens), in file order.
    Raises:
        ValueError: no row matches; the message names the model and the strategy.
    """
    values = [i.mean_input_tokens for i in load_runs("swe-agent")
              if i.experiment.startswith(model) and i.strategy == strategy]
    if not values:
        raise WordedError.of(N_("no SWE-agent runs for model {model} with strategy {strategy}"), model=repr(model),
                             strategy=repr(strategy))
    return values
