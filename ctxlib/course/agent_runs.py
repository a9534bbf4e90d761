"""Real agent runs: mean input tokens per model call, from SWE-agent runs on SWE-bench Verified.

Lesson 2 uses them to show how heavy the tail of what an agent's requests carry is in real
runs. The data is ``data/complexity_trap/`` (Lindenbauer et al. 2025, *The Complexity Trap*,
MIT; its README gives the source commit): one row per task and configuration, with
``mean_prompt_tokens``, the mean input tokens per model call over that task's run.

Not handled: the OpenHands file (its strategy is encoded in the experiment name).
"""
from __future__ import annotations

import csv
import gzip
from pathlib import Path

SWE_AGENT_FILE = Path(__file__).parent / "data" / "complexity_trap" / "experiment_instance_costs_sweagent.csv.gz"
RAW_AGENT = "Raw Agent"  # the agent with no context management


def mean_input_tokens(model: str = "gemini_2.5_flash-agent", strategy: str = RAW_AGENT) -> list[int]:
    """Mean input tokens per call, one value per task, for the runs of ``model`` under ``strategy``.

    Args:
        model: the start of the ``experiment`` column, e.g. ``"gemini_2.5_flash-agent"`` (Gemini
            2.5 Flash without thinking) or ``"local-Qwen3-32B_thinking"``.
        strategy: ``"Raw Agent"``, ``"Observation Masking"`` or ``"LLM-Summary"``.
    Returns:
        the values (tokens, rounded down to whole tokens), in file order.
    Raises:
        ValueError: no row matches; the message names the model and the strategy.
    """
    with gzip.open(SWE_AGENT_FILE, "rt", encoding="utf-8", newline="") as handle:
        values = [int(float(row["mean_prompt_tokens"])) for row in csv.DictReader(handle)
                  if row["experiment"].startswith(model) and row["strategy"] == strategy]
    if not values:
        raise ValueError(f"no SWE-agent runs for model {model!r} with strategy {strategy!r}")
    return values
