"""Benchmark: does the ranking find the code a real commit edited? ``ctxlib eval`` on thirteen projects.

The instances are real commits of eleven public Python projects of different shapes (src and flat
layouts, a vendored package, examples folders, two monorepos, web and non-web libraries), mined by
``ctxlib.evaluate.mine_instances`` (its rules: one parent, not bookkeeping, 1-4 code or packaging
files modified, at most 12 files touched, the message cleaned of trailers, PR numbers and the
edited files' names). Per repository every k-th qualifying commit is kept, newest first, with k
chosen so that about ``per_repo`` remain. ``benchmarks/eval_instances.json`` holds the list, the
projects' shapes and the **split**: every weight and rule of ``ctxlib.ranking`` is chosen on the
``tune`` half only, and the ``held_back`` half reports how it does on projects it was not tuned
on. Two more projects, in TypeScript (vuejs/core) and Go (gin-gonic/gin), are the ``outside`` group:
added after the rules, never used to choose one, they say how the ranking does beyond Python. Each
parent tree is exported from the mirror and packed by every system in the same run:

- ``plain BM25, whole files``: textbook BM25 on words, whole files only (the baseline);
- ``bm25 (before)``: code-aware BM25 with views, what ``ctxlib pack`` did before the signals;
- ``ctxlib pack``: ``ranking.rank_files`` with every signal, packed with the default strategy,
  footholds first (``strategies.footholds_first``: more budget never loses a file);
- ``ctxlib pack, greedy``: the same ranking packed with the lesson's ``strategy="greedy"``;
- ``ctxlib pack --history``: the default, ranked with the parent commit's recent history too
  (``ctxlib.recent``: files changed in its last commits, and by past commits whose messages are like
  the task; its weights chosen on the tuning half);
- ``- SIGNAL`` (``--ablation``): every signal but one, packed at 13k only.

Results go to ``benchmarks/results/bench_eval.json`` (with the commit, date, load and cores);
``python3 run.py bench-tables`` writes the READMEs' tables from it. The repositories are not part
of ctxlib: bring bare mirrors first (any git clone works):

    git clone --bare https://github.com/pallets/jinja MIRRORS/pallets+jinja/repo   # and so on
    nice python benchmarks/bench_eval.py --mirrors MIRRORS            # ~10-20 min on 2 cores
    python benchmarks/bench_eval.py --mirrors MIRRORS --make-instances  # re-mine the list
"""
from __future__ import annotations

import argparse
import gzip
import json
import sys
import time
from pathlib import Path

from tqdm import tqdm

sys.path.insert(0, str(Path(__file__).parent))
import results_meta  # noqa: E402

from ctxlib import evaluate, fit, ranking, repo, strategies  # noqa: E402

INSTANCES = Path(__file__).with_name("eval_instances.json")
BASELINE = evaluate.BASELINE
BEFORE = evaluate.System("bm25 (before)", scorer="bm25", signals=())
FULL = evaluate.CURRENT
GREEDY = evaluate.System("ctxlib pack, greedy", strategy="greedy")
HALVES = ("tune", "held_back", "outside")  # "outside": other languages, measured only


def mirror(mirrors: Path, name: str) -> Path:
    return mirrors / name.replace("/", "+") / "repo"


def load() -> dict:
    """The data file: ``per_repo``, ``projects`` (name -> shape), ``split`` and ``instances``."""
    return json.loads(INSTANCES.read_text())


def instances_of(data: dict) -> list[evaluate.Instance]:
    return [evaluate.Instance(r["commit"], r["parent"], r["query"], tuple(r["targets"]), r["repo"])
            for r in data["instances"]]


def half_of(data: dict) -> dict[str, str]:
    """``{project: "tune" | "held_back" | "outside"}``."""
    return {name: half for half in HALVES for name in data["split"][half]}


def make_instances(data: dict, mirrors: Path) -> list[dict]:
    found = []
    for name in data["projects"]:
        every_one = evaluate.mine_instances(mirror(mirrors, name), label=name)
        every = max(1, len(every_one) // data["per_repo"])
        found += every_one[::every][:data["per_repo"]]
        print(f"{name}: {len(every_one)} qualifying commits, every {every}th kept", file=sys.stderr)
    return [{"repo": i.repo, "commit": i.commit, "parent": i.parent, "query": i.query, "targets": list(i.targets)}
            for i in found]


def monotone_violations(outcomes) -> list[dict]:
    """Edited files packed at a budget and lost at a larger one (``fit``'s rule says: never)."""
    found = []
    for o in outcomes:
        budgets = sorted(o.packed)
        for small, large in zip(budgets, budgets[1:]):
            lost = sorted(set(o.packed[small]) - set(o.packed[large]))
            if lost:
                found.append({"commit": o.instance.commit, "repo": o.instance.repo, "budgets": [small, large],
                              "lost": lost})
    return found


VIEW_CODES = {"whole": "w", "signatures": "s", "ranges": "r"}


def budget_case(files: dict[str, str], instance: evaluate.Instance) -> dict | None:
    """What ``strategies.footholds_first`` is given on this task, as numbers only (no path, no text).

    Files in the default ranking's order (identical copies removed, as ``fit.choose`` does), each
    ``[edited, refused, [[view, characters, tokens, value], ...]]`` with its views richest first,
    priced exactly as ``fit.Frame.block_tokens`` prices them; ``rooms``: the strategy's budget at
    each of ``evaluate.BUDGETS``. Files are listed until their footholds are over the largest room,
    so a replay at these budgets meets no file that is not listed. ``tests/test_pack_budget_rules.py``
    replays these cases offline.
    """
    try:
        ranked = evaluate.system_ranking(files, instance.query, FULL)
    except ValueError:
        return None
    frame = fit.Frame.of("text", "o200k_base")
    rooms = [b - frame.frame + frame.separator for b in evaluate.BUDGETS]
    copies, later = strategies.same_bytes(files, [p for p, _ in ranked.relevant])
    rows, held = [], 0
    for path, score in ranked.relevant:
        if path in later:
            continue
        options = [o for o in fit.view_options(path, files[path], ranked.terms, score, "auto", copies.get(path, ()))
                   if o.text is not None]
        if not options:
            continue
        priced = [[VIEW_CODES[o.view], len(o.text), frame.block_tokens(o), float(f"{o.value:.6g}")] for o in options]
        refused = bool(repo.credential_in_text(files[path], path))
        rows.append([int(path in instance.targets), int(refused), priced])
        foothold = min(priced, key=lambda v: (v[1], -v[3]))[2]
        if not refused and foothold <= strategies.DEFER_TOKENS:
            held += foothold
        if held > rooms[-1]:
            break
    return {"repo": instance.repo, "commit": instance.commit[:10], "edited": len(instance.targets),
            "rooms": rooms, "files": rows}


def summaries(outcomes: dict, systems, keep) -> dict:
    """``{system: evaluate.summarize(...)}`` over the outcomes whose instance ``keep`` accepts, plus multi-file shares."""
    result = {}
    b0 = evaluate.BUDGETS[0]
    for system, budgets in systems:
        chosen = [o for o in outcomes[system.name] if keep(o.instance)]
        s = evaluate.summarize(chosen, budgets)
        multi = [o for o in chosen if len(o.instance.targets) > 1]
        s["multi_file"] = {"instances": len(multi),
                           "all_recall": sum(len(o.packed.get(b0, [])) == len(o.instance.targets)
                                             for o in multi) / max(1, len(multi))}
        result[system.name] = s
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--mirrors", type=Path, default=Path("/work/.mirror"))
    parser.add_argument("--make-instances", action="store_true", help="mine and save the instance list")
    parser.add_argument("--ablation", action="store_true", help="also every signal but one, at 13k")
    parser.add_argument("--half", choices=HALVES, help="only this half (choosing rules: --half tune)")
    parser.add_argument("--no-save", action="store_true", help="do not write benchmarks/results/")
    parser.add_argument("--budget-cases", type=Path, metavar="JSON.GZ",
                        help="also write each task's budget case (budget_case) there, for the tests")
    args = parser.parse_args()
    data = load()
    if args.make_instances or not data.get("instances"):
        data["instances"] = make_instances(data, args.mirrors)
        INSTANCES.write_text(json.dumps(data, indent=1) + "\n")
    halves = half_of(data)
    instances = [i for i in instances_of(data) if args.half in (None, halves[i.repo])]
    systems = [(BASELINE, evaluate.BUDGETS), (BEFORE, evaluate.BUDGETS), (FULL, evaluate.BUDGETS),
               (GREEDY, evaluate.BUDGETS), (evaluate.HISTORY, evaluate.BUDGETS)]
    if args.ablation:
        systems += [(evaluate.System(f"- {s}", signals=tuple(x for x in ranking.SIGNALS if x != s)),
                     evaluate.BUDGETS[:1]) for s in ranking.SIGNALS]
    started_meta = results_meta.meta()
    outcomes = {s.name: [] for s, _ in systems}
    cases: list[dict] = []
    skipped = []
    started = time.perf_counter()
    for instance in tqdm(instances, desc="eval", unit=" tasks"):
        git_dir = mirror(args.mirrors, instance.repo)
        try:
            files = evaluate.files_at(git_dir, instance.parent)
            found = evaluate.run_instance(git_dir, instance, [s for s, _ in systems], evaluate.BUDGETS, files=files)
            if args.budget_cases and (case := budget_case(files, found[0].instance)):
                cases.append(case)
        except (evaluate.EvalError, ValueError, OSError) as exc:
            skipped.append({"commit": instance.commit, "repo": instance.repo, "why": str(exc)})
            continue
        for (system, budgets), o in zip(systems, found):
            if budgets != evaluate.BUDGETS:
                o.packed = {b: o.packed[b] for b in budgets}
            outcomes[system.name].append(o)
    seconds = time.perf_counter() - started
    report = {"split": data["split"], "projects": data["projects"], "seconds": round(seconds),
              "systems": [s.name for s, _ in systems], "budgets": list(evaluate.BUDGETS), "skipped": skipped,
              "halves": {h: summaries(outcomes, systems, lambda i, h=h: halves[i.repo] == h)
                         for h in HALVES if args.half in (None, h)},
              "by_project": {name: summaries(outcomes, systems[2:3], lambda i, n=name: i.repo == n)[FULL.name]
                             for name in data["projects"] if args.half in (None, halves[name])},
              "by_project_history": {name: summaries(outcomes, systems[4:5], lambda i, n=name: i.repo == n)[
                  evaluate.HISTORY.name] for name in data["projects"] if args.half in (None, halves[name])},
              "monotone_violations": monotone_violations(outcomes[FULL.name]),
              "monotone_violations_greedy": monotone_violations(outcomes[GREEDY.name]),
              "misses": [{"repo": o.instance.repo, "commit": o.instance.commit[:10], "query": o.instance.query,
                          "targets": o.instance.targets, "ranks": o.ranks, "top": o.top[:3]}
                         for o in outcomes[FULL.name] if len(o.packed.get(evaluate.BUDGETS[0], [])) < len(o.instance.targets)]}
    for half, table in report["halves"].items():
        print(f"\n{half}: {table[FULL.name]['instances']} tasks")
        for name, s in table.items():
            print(f"  {name}: all@13k {s['all_recall'][13_000]:.1%}, MRR {s['mrr']:.3f}, top-1 {s['top1']:.1%}")
    for name, s in report["by_project"].items():
        print(f"  {name} ({halves[name]}): all@13k {s['all_recall'][13_000]:.1%}, MRR {s['mrr']:.3f}")
    print(f"monotone violations: ctxlib pack (footholds first) {len(report['monotone_violations'])}, greedy "
          f"{len(report['monotone_violations_greedy'])}; skipped: {len(skipped)}; {seconds:.0f} s")
    if args.budget_cases:
        with gzip.open(args.budget_cases, "wt", encoding="utf-8") as out:
            json.dump({"budgets": list(evaluate.BUDGETS), "defer_tokens": strategies.DEFER_TOKENS, "cases": cases},
                      out, separators=(",", ":"))
        print("wrote", args.budget_cases, f"({len(cases)} tasks)")
    if not args.no_save and args.half is None:
        print("wrote", results_meta.write("bench_eval", report, started_meta))
    elif not args.no_save:
        print("wrote", results_meta.write(f"bench_eval_{args.half}", report, started_meta))
    return 0


if __name__ == "__main__":
    sys.exit(main())
