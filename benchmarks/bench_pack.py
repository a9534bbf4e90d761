"""Benchmark: pack the running Python's standard library under a 70,000-token budget.

Compares, each in a fresh process so no cache carries over (the OS file cache is warmed
first and is shared by all):

- ctxlib:  ``read_repo`` then ``ctxlib.fit.pack_files``, as ``ctxlib pack`` does (rank,
           then tokenize only what the packer reaches, re-count the rendered text);
- naive:   read, tokenize every file exactly, rank, pack whole files greedily, render, check;
- floor:   load the encoding, read every byte (``read_repo``, the same files the others
           read), one pass of the lesson's term-count scorer.

The tree is ``sysconfig.get_paths()["stdlib"]`` without ``site-packages``/``dist-packages``;
its ``test`` folders are included (they are most of the tree's size, as tests are in a
real repository). "seconds" is wall-clock time in the child process, module imports
included; "after imports" starts once the job's modules are imported (for ctxlib, that
includes gitleaks' rules, which it loads on first use). Peak memory is the child's
maximum resident set size. 2x and 4x read the tree two and four times, as if a repository
held that many copies of it.

    python benchmarks/bench_pack.py            # ~2-4 minutes; prints the Markdown tables
    python benchmarks/bench_pack.py --repeat 1 # quicker, noisier

Results go to ``benchmarks/results/bench_pack.json`` (with the commit, date, load average and
cores); ``python3 run.py bench-tables`` writes the READMEs' tables from it.
"""
from __future__ import annotations

import time

_START = time.perf_counter()

import argparse  # noqa: E402
import importlib  # noqa: E402
import json  # noqa: E402
import os  # noqa: E402
import resource  # noqa: E402
import subprocess  # noqa: E402
import sys  # noqa: E402
import sysconfig  # noqa: E402
from pathlib import Path  # noqa: E402

sys.path.insert(0, str(Path(__file__).parent))
import results_meta  # noqa: E402

ROOT = sysconfig.get_paths()["stdlib"]
EXCLUDE = ["site-packages/", "dist-packages/"]
QUERY = "parse http headers"
ENCODING = "o200k_base"


def read_copies(copies: int):
    """The tree read ``copies`` times, as if it were that many folders of one repository."""
    from ctxlib.repo import read_repo

    files, skipped = {}, []
    for i in range(copies):
        prefix = f"copy{i}/" if copies > 1 else ""
        found = read_repo(ROOT, exclude=EXCLUDE)
        files.update({prefix + f.path: f.text for f in found.files})
        skipped += found.skipped
    return files, skipped


def run_ctxlib(budget: int, copies: int) -> dict:
    from ctxlib.fit import pack_files

    files, skipped = read_copies(copies)
    pack = pack_files(files, QUERY, budget, encoding=ENCODING, skipped=skipped)
    return {"files": len(files), "used": pack.used_tokens, "packed": len(pack.chosen),
            "tokenized": pack.files_tokenized}


def run_naive(budget: int, copies: int) -> dict:
    from ctxlib.fit import rank
    from ctxlib.render import render_text
    from ctxlib.strategies import Option
    from ctxlib.tokens import count_tokens

    files, _ = read_copies(copies)
    counts = {path: count_tokens(text, ENCODING) for path, text in files.items()}  # every file
    chosen, room = [], budget
    for path, score in rank(files, QUERY):
        header = count_tokens(f"==> {path} (whole) <==\n", ENCODING) + 1
        if score > 0 and counts[path] + header <= room:
            chosen.append(Option.of(path, "whole", files[path], score))
            room -= counts[path] + header
    text = render_text(chosen)
    while count_tokens(text, ENCODING) > budget:
        chosen.pop()
        text = render_text(chosen)
    return {"files": len(files), "used": count_tokens(text, ENCODING), "packed": len(chosen),
            "tokenized": len(files)}


def run_floor(budget: int, copies: int) -> dict:
    from ctxlib.scoring import score_file
    from ctxlib.tokens import get_encoding

    get_encoding(ENCODING)
    files, _ = read_copies(copies)  # the same files ctxlib reads, every byte of them
    terms = QUERY.split()
    for path, text in files.items():
        score_file(path, text, terms)
    return {"files": len(files), "chars": sum(len(text) for text in files.values())}


JOBS = {"ctxlib": run_ctxlib, "naive": run_naive, "floor": run_floor}
IMPORTS = {"ctxlib": ["ctxlib.fit"], "naive": ["ctxlib.fit"], "floor": ["ctxlib.repo", "ctxlib.scoring"]}


def measure(job: str, budget: int, copies: int, repeat: int) -> dict:
    """Run one job ``repeat`` times in fresh processes: the fastest times (the usual way to
    time on a machine that is doing other work too) and the largest peak memory."""
    runs = []
    for _ in range(repeat):
        out = subprocess.run([sys.executable, __file__, "--child", job, "--budget", str(budget),
                              "--copies", str(copies)], capture_output=True, text=True)
        if out.returncode:
            sys.exit(f"bench_pack: the {job} run failed:\n{out.stderr}")
        runs.append(json.loads(out.stdout))
    result = dict(runs[0])
    for key in ("seconds", "pipeline_seconds", "cpu_seconds"):
        result[key] = min(r[key] for r in runs)
    result["peak_mb"] = max(r["peak_mb"] for r in runs)
    return result


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def child(job: str, budget: int, copies: int) -> None:
    """One measured run. ``seconds`` counts from interpreter start-up, imports included;
    ``pipeline_seconds`` from after the imports (gitleaks' rules included for ctxlib)."""
    for module in IMPORTS[job]:
        importlib.import_module(module)
    if job == "ctxlib":
        from ctxlib.repo import credential_in_text

        credential_in_text("")  # loads gitleaks' rules, as the first pack would
    imported = time.perf_counter()
    result = JOBS[job](budget, copies)
    done = time.perf_counter()
    result.update(seconds=done - _START, pipeline_seconds=done - imported, cpu_seconds=_cpu(),
                  peak_mb=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)
    print(json.dumps(result))


def _n(value) -> str:
    return f"{value:,}" if isinstance(value, int) else "-"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--budget", type=int, default=70_000)
    parser.add_argument("--copies", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3, help="runs per cell; the fastest is kept")
    parser.add_argument("--child", choices=sorted(JOBS), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        return child(args.child, args.budget, args.copies)

    started = time.perf_counter()
    started_meta = results_meta.meta()
    saved = {"query": QUERY, "encoding": ENCODING, "budget": args.budget, "repeat": args.repeat, "tree": {},
             "cells": [], "budgets": []}
    warm = measure("floor", args.budget, 1, 1)  # warms the OS file cache for everyone
    saved["tree"] = {"root": ROOT, "files": warm["files"], "chars": warm["chars"]}
    print(f"Tree: {ROOT} without site-packages: {warm['files']:,} files, {warm['chars']:,} characters.")
    print(f"Query {QUERY!r}, encoding {ENCODING}, Python {sys.version.split()[0]}, "
          f"{os.cpu_count()} cores; fastest of {args.repeat} runs, each in a fresh process.\n")

    print(f"| tree | pipeline | seconds | vs floor | after imports | vs floor | CPU seconds | peak MB "
          f"| files tokenized | tokens used of {args.budget:,} |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|")
    for copies in (1, 2, 4):
        # The naive pipeline on the doubled trees runs once: it is slow, and only shows the growth.
        cells = {job: measure(job, args.budget, copies, 1 if job == "naive" and copies > 1 else args.repeat)
                 for job in ("floor", "naive", "ctxlib")}
        floor = cells["floor"]
        for job in ("ctxlib", "naive", "floor"):
            r = cells[job]
            saved["cells"].append({"copies": copies, "job": job, **{k: r.get(k) for k in (
                "seconds", "pipeline_seconds", "cpu_seconds", "peak_mb", "tokenized", "used", "packed")}})
            print(f"| {copies}x | {job} | {r['seconds']:.2f} | {r['seconds'] / floor['seconds']:.2f}x "
                  f"| {r['pipeline_seconds']:.2f} | {r['pipeline_seconds'] / floor['pipeline_seconds']:.2f}x "
                  f"| {r['cpu_seconds']:.2f} | {r['peak_mb']:.0f} | {_n(r.get('tokenized'))} | {_n(r.get('used'))} |")
        if copies == 1:
            base = cells
    ctx, naive, floor = base["ctxlib"], base["naive"], base["floor"]
    print(f"\nAt 1x: ctxlib pack is {naive['seconds'] / ctx['seconds']:.1f}x faster than the naive pipeline "
          f"(goal >= 5x) and takes {ctx['seconds'] / floor['seconds']:.2f}x the floor's time "
          f"({ctx['pipeline_seconds'] / floor['pipeline_seconds']:.2f}x after imports, "
          f"{ctx['cpu_seconds'] / floor['cpu_seconds']:.2f}x in CPU time; goal <= 1.1x at 1x and 4x); "
          f"peak memory {ctx['peak_mb']:.0f} MB (goal < 300 MB at 4x).\n")

    print("| budget (tokens) | ctxlib seconds | after imports | CPU seconds | files tokenized | files packed "
          "| tokens used |")
    print("|---:|---:|---:|---:|---:|---:|---:|")
    for budget in (10_000, 70_000, 200_000, 1_000_000):
        r = measure("ctxlib", budget, 1, args.repeat)
        saved["budgets"].append({"budget": budget, **{k: r.get(k) for k in (
            "seconds", "pipeline_seconds", "cpu_seconds", "tokenized", "packed", "used")}})
        print(f"| {budget:,} | {r['seconds']:.2f} | {r['pipeline_seconds']:.2f} | {r['cpu_seconds']:.2f} "
              f"| {r['tokenized']:,} | {r['packed']:,} | {r['used']:,} |")
    saved["seconds"] = round(time.perf_counter() - started)
    print(f"\nWhole benchmark: {saved['seconds']} s.")
    print("wrote", results_meta.write("bench_pack", saved, started_meta))


if __name__ == "__main__":
    main()
