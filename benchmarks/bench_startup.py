"""Benchmark: the wall-clock time of small ``ctxlib`` commands, start-up included.

Three commands a learner types often, each run in a fresh process through the console
script of the Python running this file (``python -m ctxlib.course.commands``):

- ``ctxlib pack`` on the sample project (Lesson 3's shop), query "vat invoice", budget 2,000;
- ``ctxlib count`` of one small file (a 3-line Python file);
- ``ctxlib progress`` on a progress file of 50 attempts.

Goals (issue 13): pack and count at most 0.3 s, progress at most 0.5 s. Each command runs
once to warm the user's cache of decoded ranks (``ctxlib.tokens.cache_dir()``, here a
temporary folder) and the OS file cache, then ``--repeat`` times; the table gives the
median and the fastest. A last row gives ``count`` with an empty cache (the first run on a
machine, which parses the shipped ranks file and writes the cache).

    python benchmarks/bench_startup.py            # ~20 s
    python benchmarks/bench_startup.py --repeat 20

Results go to ``benchmarks/results/bench_startup.json`` (with the commit, date, load and cores);
``python3 run.py bench-tables`` writes the READMEs' start-up figures from it.
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
import results_meta  # noqa: E402

GOALS = {"pack": 0.3, "count": 0.3, "progress": 0.5}


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def run(argv, env) -> tuple[float, float]:
    """One run in a fresh process: (wall seconds, CPU seconds of the child)."""
    cpu, started = _children_cpu(), time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "ctxlib.course.commands", *argv], env=env,
                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    elapsed = time.perf_counter() - started
    if done.returncode:
        sys.exit(f"bench_startup: ctxlib {' '.join(argv)} failed:\n{done.stderr}")
    return elapsed, _children_cpu() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=10, help="timed runs per command (default: %(default)s)")
    parser.add_argument("--no-save", action="store_true", help="do not write benchmarks/results/")
    args = parser.parse_args()
    started_meta = results_meta.meta()
    saved = {"repeat": args.repeat, "rows": []}

    from ctxlib.course.sample_project import build_sample_project

    work = Path(tempfile.mkdtemp(prefix="ctxlib-bench-"))
    shop = build_sample_project(work / "shop")
    small = work / "small.py"
    small.write_text("def vat(amount):\n    return amount * 0.19\n\n", encoding="utf-8")
    progress = work / "progress.json"
    attempts = [{"lesson": "01_window_as_budget", "question": "whole_repo", "outcome": "passed", "hints_used": 0,
                 "solution_viewed": False, "time": "2025-05-01T09:30:00Z"}] * 50
    progress.write_text(json.dumps({"format": "ctxlib-progress", "version": 1, "learner": "Asha",
                                    "attempts": attempts}), encoding="utf-8")
    env = {**os.environ, "CTXLIB_PROGRESS": str(progress), "CTXLIB_CACHE_DIR": str(work / "cache")}
    commands = {"pack": ["pack", str(shop), "--query", "vat invoice", "--budget", "2000"],
                "count": ["count", str(small)], "progress": ["progress"]}

    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} cores, load average "
          f"{os.getloadavg()[0]:.2f}; {args.repeat} runs each after one warm-up, each a fresh process.\n")
    print("| command | median wall s | fastest wall s | median CPU s | goal s | met (median wall) |")
    print("|---|---:|---:|---:|---:|---|")
    for name, argv in commands.items():
        run(argv, env)  # warm: the ranks cache, the OS file cache, compiled bytecode
        walls, cpus = zip(*(run(argv, env) for _ in range(args.repeat)))
        median = statistics.median(walls)
        print(f"| ctxlib {name} | {median:.3f} | {min(walls):.3f} | {statistics.median(cpus):.3f} | {GOALS[name]} | "
              f"{'yes' if median <= GOALS[name] else 'no'} |")
        saved["rows"].append({"command": name, "median": median, "fastest": min(walls),
                              "median_cpu": statistics.median(cpus), "goal": GOALS[name]})
    walls, cpus = zip(*(run(commands["count"], {**env, "CTXLIB_CACHE_DIR": str(work / f"cold-{i}")})
                        for i in range(3)))
    print(f"| ctxlib count, empty cache (first run) | {statistics.median(walls):.3f} | {min(walls):.3f} "
          f"| {statistics.median(cpus):.3f} | - | - |")
    saved["rows"].append({"command": "count, empty cache", "median": statistics.median(walls), "fastest": min(walls),
                          "median_cpu": statistics.median(cpus), "goal": None})
    print("\nOn a busy machine wall time exceeds CPU time; on an idle one they are close.")
    if not args.no_save:
        print("wrote", results_meta.write("bench_startup", saved, started_meta))


if __name__ == "__main__":
    main()
