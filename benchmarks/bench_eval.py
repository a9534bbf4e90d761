"""Benchmark: does the ranking find the code a real commit edited? ``ctxlib eval`` on five projects.

The instances are real commits of five well-known Python projects, mined by
``ctxlib.evaluate.mine_instances`` (its rules: one parent, not bookkeeping, 1-4 code files
modified, at most 12 files touched, the message cleaned of trailers, PR numbers and the edited
files' names). Per repository every k-th qualifying commit is kept, newest first, with k chosen
so that about ``PER_REPO`` remain; the list is saved in ``benchmarks/eval_instances.json`` so
that every run measures the same tasks. Each parent tree is exported with ``git archive`` and
packed by every system in the same run:

- ``plain BM25, whole files``: textbook BM25 on words, whole files only (the baseline);
- ``bm25 (before)``: code-aware BM25 with views, what ``ctxlib pack`` did before the signals;
- ``ctxlib pack``: ``ranking.rank_files`` with every signal (the default now);
- ``- SIGNAL``: every signal but one (the ablation; packed at 13k only).

The repositories are not part of ctxlib: bring bare mirrors first (any git clone works):

    git clone --bare https://github.com/pallets/jinja MIRRORS/pallets+jinja/repo   # and so on
    nice python benchmarks/bench_eval.py --mirrors MIRRORS            # ~20 min on 2 cores
    python benchmarks/bench_eval.py --mirrors MIRRORS --make-instances  # re-mine the list
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from tqdm import tqdm

from ctxlib import evaluate, ranking

REPOS = ["pallets/jinja", "pallets/werkzeug", "python-attrs/attrs", "encode/starlette",
         "marshmallow-code/marshmallow"]
PER_REPO = 40
INSTANCES = Path(__file__).with_name("eval_instances.json")
BASELINE = evaluate.BASELINE
BEFORE = evaluate.System("bm25 (before)", scorer="bm25", signals=())
FULL = evaluate.CURRENT


def mirror(mirrors: Path, name: str) -> Path:
    return mirrors / name.replace("/", "+") / "repo"


def make_instances(mirrors: Path) -> list[evaluate.Instance]:
    found = []
    for name in REPOS:
        every_one = evaluate.mine_instances(mirror(mirrors, name), label=name)
        every = max(1, len(every_one) // PER_REPO)
        found += every_one[::every][:PER_REPO]
        print(f"{name}: {len(every_one)} qualifying commits, every {every}th kept", file=sys.stderr)
    return found


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"))
    parser.add_argument("--make-instances", action="store_true", help="mine and save the instance list")
    parser.add_argument("--no-ablation", action="store_true")
    parser.add_argument("--every", type=int, default=1, help="use every k-th saved instance (a quick look)")
    parser.add_argument("--out", type=Path, help="also write every outcome as JSON here")
    args = parser.parse_args()
    if args.make_instances or not INSTANCES.exists():
        instances = make_instances(args.mirrors)
        INSTANCES.write_text(json.dumps([{"repo": i.repo, "commit": i.commit, "parent": i.parent,
                                          "query": i.query, "targets": list(i.targets)} for i in instances],
                                        indent=1) + "\n")
    rows = json.loads(INSTANCES.read_text())
    instances = [evaluate.Instance(r["commit"], r["parent"], r["query"], tuple(r["targets"]), r["repo"])
                 for r in rows][::args.every]
    systems = [(BASELINE, evaluate.BUDGETS), (BEFORE, evaluate.BUDGETS), (FULL, evaluate.BUDGETS)]
    if not args.no_ablation:
        systems += [(evaluate.System(f"- {s}", signals=tuple(x for x in ranking.SIGNALS if x != s)),
                     evaluate.BUDGETS[:1]) for s in ranking.SIGNALS]
    outcomes = {s.name: [] for s, _ in systems}
    started = time.perf_counter()
    for instance in tqdm(instances, desc="eval", unit=" tasks"):
        git_dir = mirror(args.mirrors, instance.repo)
        files = evaluate.files_at(git_dir, instance.parent)
        for system, budgets in systems:
            outcomes[system.name].append(evaluate.evaluate_files(files, instance, system, budgets))
    seconds = time.perf_counter() - started
    b0 = evaluate.BUDGETS[0]
    print(f"{len(instances)} instances from {len(REPOS)} repositories, {seconds:.0f} s\n")
    print("| system | all@13k | any@13k | all@27k | all@50k | MRR | top-1 |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    summaries = {}
    for system, budgets in systems:
        s = summaries[system.name] = evaluate.summarize(outcomes[system.name], budgets)
        later = [f"{s['all_recall'][b]:.1%}" if b in s["all_recall"] else "" for b in evaluate.BUDGETS[1:]]
        print(f"| {system.name} | {s['all_recall'][b0]:.1%} | {s['any_recall'][b0]:.1%} | {' | '.join(later)} "
              f"| {s['mrr']:.3f} | {s['top1']:.1%} |")
    print()
    for name in (BASELINE.name, BEFORE.name, FULL.name):
        s = summaries[name]
        print(f"{name}: ranked first: " + ", ".join(f"{k} {v:.1%}" for k, v in s["first_kind"].items()))
        print(f"{name}: packed tokens at 13k: " + ", ".join(f"{k} {v:.1%}" for k, v in s["kind_share"][b0].items()))
    multi = [i for i, inst in enumerate(instances) if len(inst.targets) > 1]
    for name in (BASELINE.name, BEFORE.name, FULL.name):
        found = [outcomes[name][i] for i in multi]
        share = sum(len(o.packed.get(b0, [])) == len(o.instance.targets) for o in found) / max(1, len(found))
        print(f"{name}: multi-file tasks ({len(found)}): all edited files packed at 13k for {share:.1%}")
    if args.out:
        args.out.write_text(json.dumps({name: [evaluate.outcome_json(o) for o in found]
                                        for name, found in outcomes.items()}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
