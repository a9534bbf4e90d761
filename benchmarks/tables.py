"""The READMEs' benchmark tables, generated from the results files, so a figure cannot go stale.

Each benchmark writes ``benchmarks/results/NAME.json`` (``results_meta.write``: its figures plus
the commit, the date, the load average and the cores). In ``README.md`` and
``benchmarks/README.md`` a table sits between two marker comments::

    <!-- begin table eval-halves -->
    ...generated...
    <!-- end table eval-halves -->

``python3 run.py bench-tables`` (or ``python benchmarks/tables.py``) rewrites every marked block
from its results file; ``--check`` only reports the blocks that disagree (exit status 1), which
is what ``tests/test_bench_tables.py`` runs.
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).parent
ROOT = HERE.parent
RESULTS = HERE / "results"
DOCS = (ROOT / "README.md", HERE / "README.md")
BLOCK = re.compile(r"(<!-- begin table ([\w-]+) -->\n)(.*?)(<!-- end table \2 -->)", re.S)
B0 = "13000"
SYSTEMS = ("plain BM25, whole files", "bm25 (before)", "ctxlib pack", "ctxlib pack, greedy", "ctxlib pack --history")
HALF_NAMES = {"tune": "tuning half (rules chosen here)", "held_back": "held-back half",
              "outside": "other languages (no weight tuned on them; one rule came from their misses)"}


def load(name: str) -> dict:
    """``results/NAME.json`` as data; ``FileNotFoundError`` when that benchmark has not been run."""
    return json.loads((RESULTS / f"{name}.json").read_text())


def _pct(x: float) -> str:
    return f"{x:.1%}"


def measured_line(meta: dict, seconds=None) -> str:
    """``Measured 2026-12-01T21:40:00Z at commit abc1234 (load average 1.2 at the start, 1.4 at the
    end, 2 cores, Python 3.11.7)``, from a results file's ``meta``."""
    dirty = ", with uncommitted library changes" if meta.get("dirty") else ""
    took = f"; the run took {seconds:,} s" if seconds is not None else ""
    return (f"Measured {meta['date']} at commit {meta['commit'][:7]}{dirty} (load average "
            f"{meta['load_average'][0]:.2f} at the start, {meta.get('load_average_at_end', ['?'])[0]} at the end, "
            f"{meta['cores']} cores, Python {meta['python']}){took}.")


def pack_trees(r: dict) -> str:
    head = (f"| tree | pipeline | seconds | vs floor | after imports | vs floor | CPU seconds | peak MB "
            f"| files tokenized | tokens used of {r['budget']:,} |\n|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
    floors = {c["copies"]: c for c in r["cells"] if c["job"] == "floor"}
    rows = []
    for c in r["cells"]:
        f = floors[c["copies"]]
        n = [f"{c[k]:,}" if isinstance(c.get(k), int) else "-" for k in ("tokenized", "used")]
        rows.append(f"| {c['copies']}x | {c['job']} | {c['seconds']:.2f} | {c['seconds'] / f['seconds']:.2f}x "
                    f"| {c['pipeline_seconds']:.2f} | {c['pipeline_seconds'] / f['pipeline_seconds']:.2f}x "
                    f"| {c['cpu_seconds']:.2f} | {c['peak_mb']:.0f} | {n[0]} | {n[1]} |")
    return (head + "\n".join(rows) + "\n\n" + pack_summary(r) + f"\nFastest of {r['repeat']} runs per cell (naive at "
            f"2x and 4x: 1 run). " + measured_line(r["meta"], r.get("seconds")))


def pack_summary(r: dict) -> str:
    cell = {(c["copies"], c["job"]): c for c in r["cells"]}
    parts = []
    for copies in sorted({c["copies"] for c in r["cells"]}):
        ctx, floor, naive = cell[copies, "ctxlib"], cell[copies, "floor"], cell.get((copies, "naive"))
        faster = f", {naive['seconds'] / ctx['seconds']:.1f}x faster than naive" if naive else ""
        parts.append(f"{copies}x: {ctx['seconds'] / floor['seconds']:.2f}x the floor{faster}, "
                     f"{ctx['peak_mb']:.0f} MB")
    return ("ctxlib pack, against the floor (goal at most 1.1x at 1x and 4x; at least 5x faster than "
            "naive; under 300 MB at 4x): " + "; ".join(parts) + "." + pack_verdicts(cell))


def pack_verdicts(cell: dict) -> str:
    """" Goals met: ...; missed: ..." for ``pack_summary``'s goals, each at the tree sizes it was measured at."""
    said = {True: [], False: []}
    sizes = sorted({copies for copies, _ in cell})
    for copies in (1, 4):
        if (copies, "ctxlib") in cell and (copies, "floor") in cell:
            said[cell[copies, "ctxlib"]["seconds"] <= 1.1 * cell[copies, "floor"]["seconds"]].append(
                f"1.1x the floor at {copies}x")
    for copies in sizes:
        if (copies, "naive") in cell:
            said[cell[copies, "naive"]["seconds"] >= 5 * cell[copies, "ctxlib"]["seconds"]].append(
                f"5x faster than naive at {copies}x")
    if (4, "ctxlib") in cell:
        said[cell[4, "ctxlib"]["peak_mb"] < 300].append("300 MB at 4x")
    return "".join(f" Goals {word}: {', '.join(said[ok])}." for ok, word in ((True, "met"), (False, "missed"))
                   if said[ok])


def pack_budgets(r: dict) -> str:
    head = ("| budget (tokens) | ctxlib seconds | after imports | CPU seconds | files tokenized | files packed "
            "| tokens used |\n|---:|---:|---:|---:|---:|---:|---:|\n")
    return head + "\n".join(f"| {b['budget']:,} | {b['seconds']:.2f} | {b['pipeline_seconds']:.2f} "
                            f"| {b['cpu_seconds']:.2f} | {b['tokenized']:,} | {b['packed']:,} | {b['used']:,} |"
                            for b in r["budgets"])


def eval_halves(r: dict) -> str:
    head = ("| half | system | tasks | all@13k | any@13k | all@27k | all@50k | MRR | top-1 | multi-file all@13k |\n"
            "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
    rows = []
    for half, table in r["halves"].items():
        for name in [n for n in SYSTEMS if n in table]:  # --history: in results from issue 25's history signal on
            s = table[name]
            bold = "**" if name == "ctxlib pack" else ""
            m = s["multi_file"]
            rows.append(f"| {HALF_NAMES[half]} | {bold}{name}{bold} | {s['instances']} "
                        f"| {bold}{_pct(s['all_recall'][B0])}{bold} | {_pct(s['any_recall'][B0])} "
                        f"| {_pct(s['all_recall']['27000'])} | {_pct(s['all_recall']['50000'])} "
                        f"| {bold}{s['mrr']:.3f}{bold} | {_pct(s['top1'])} | {_pct(m['all_recall'])} of {m['instances']} |")
    tasks = sum(t["ctxlib pack"]["instances"] for t in r["halves"].values())
    return (head + "\n".join(rows) + "\n\nMore budget losing an edited file that a smaller budget packed "
            f"(13k -> 27k -> 50k), of {tasks} tasks: ctxlib pack (footholds first) {len(r['monotone_violations'])}, "
            f"greedy {len(r['monotone_violations_greedy'])}. " + measured_line(r["meta"], r.get("seconds")))


def eval_projects(r: dict) -> str:
    half = {name: h for h in HALF_NAMES for name in r["split"].get(h, ())}
    h = r.get("by_project_history", {})
    head = ("| project | half | shape | tasks | all@13k | MRR | top-1 |" + (" MRR, --history |" if h else "")
            + "\n|---|---|---|---:|---:|---:|---:|" + ("---:|" if h else "") + "\n")
    return head + "\n".join(f"| {name} | {half[name].replace('_', '-')} | {r['projects'][name]} | {s['instances']} "
                            f"| {_pct(s['all_recall'][B0])} | {s['mrr']:.3f} | {_pct(s['top1'])} |"
                            + (f" {h[name]['mrr']:.3f} |" if h else "")
                            for name, s in r["by_project"].items())


def eval_ablation(r: dict) -> str:
    """Every signal but one (``bench_eval.py --ablation``): all@13k and MRR per half."""
    dropped = [name for name in r["systems"] if name.startswith("- ")]
    if not dropped:
        return ("Not in the last results file: that run had no `--ablation`. " + measured_line(r["meta"], r.get("seconds")))
    head = ("| half | all signals | " + " | ".join(dropped) + " |\n|---|" + "---|" * (len(dropped) + 1) + "\n")
    rows = []
    for half, table in r["halves"].items():
        cells = [f"{_pct(table[name]['all_recall'][B0])}, {table[name]['mrr']:.3f}" for name in ("ctxlib pack", *dropped)]
        rows.append(f"| {HALF_NAMES[half]} | " + " | ".join(cells) + " |")
    return (head + "\n".join(rows) + "\n\nEach cell: all edited files packed at 13k, then the MRR. "
            + measured_line(r["meta"], r.get("seconds")))


def readme_measured(_: dict) -> str:
    e, p = load("bench_eval"), load("bench_pack")
    with_history = all("ctxlib pack --history" in table for table in e["halves"].values())
    head = ("| projects | tasks | all edited files at 13k: ctxlib pack (footholds first) | greedy | plain BM25 (baseline) "
            "| MRR: ctxlib | baseline |" + (" with --history: all@13k, MRR |" if with_history else "")
            + "\n|---|---:|---:|---:|---:|---:|---:|" + ("---:|" if with_history else "") + "\n")
    rows = []
    for half, table in e["halves"].items():
        names = ", ".join(n if half == "outside" else n.split("/")[1] for n in e["split"][half])  # "core" says little
        c, g, b = table["ctxlib pack"], table["ctxlib pack, greedy"], table["plain BM25, whole files"]
        h = table.get("ctxlib pack --history")
        rows.append(f"| {HALF_NAMES[half]}: {names} | {c['instances']} | **{_pct(c['all_recall'][B0])}** "
                    f"| {_pct(g['all_recall'][B0])} | {_pct(b['all_recall'][B0])} | **{c['mrr']:.3f}** "
                    f"| {b['mrr']:.3f} |" + (f" {_pct(h['all_recall'][B0])}, {h['mrr']:.3f} |" if with_history else ""))
    return (head + "\n".join(rows) + f"\n\n{measured_line(e['meta'])}\n\nPacking the standard library "
            f"({p['tree']['files']:,} files; 2x and 4x: the tree copied 2 and 4 times) at {p['budget']:,} tokens; "
            "the floor only loads the encoding, reads every byte and scores once, naive tokenizes every file; "
            + pack_summary(p)[len("ctxlib pack, "):] + " " + measured_line(p["meta"]))


def readme_mcp(r: dict) -> str:
    """The README's paragraph on ``ctxlib mcp`` against repomix's MCP server (``bench_mcp.py``)."""
    rows = {row["server"]: row for row in r["rows"]}
    c, n = rows["ctxlib mcp"], len(r["secrets"])
    held = "within" if c["budget_held"] else "over"
    text = (f"- **From your agent, against repomix's MCP server** (`benchmarks/bench_mcp.py`, one run, the same\n"
            f"  client; the sample project with {n} credentials planted in {n} formats): `ctxlib mcp` answered\n"
            f"  \"pack this task in {r['budget']:,} tokens\" with {c['tokens']:,} exact tokens ({held} the budget), "
            f"`{c['ranked']}` first,\n  and returned {len(c['leaked'])} of the {n} planted secrets, even when asked "
            f"for them by name with room for\n  the whole tree; it {'packed' if c['outside'] else 'refused'} a folder "
            f"outside its root.")
    x = rows.get("repomix --mcp")
    if x:
        leaked = f" ({', '.join(x['leaked'])})" if x["leaked"] else ""
        text += (f" `repomix --mcp` {r['repomix_version']} has no budget and no\n  query: its pack returned the "
                 f"whole tree ({x['tokens']:,} tokens), {len(x['leaked'])} of the {n} planted secrets{leaked},\n"
                 f"  and it {'packed' if x['outside'] else 'refused'} a folder outside the tree when asked.")
    return text + "\n  " + measured_line(r["meta"])


STARTUP_NAMES = {"pack": "`ctxlib pack` on the sample project (budget 2,000)", "count": "`ctxlib count` of one small file",
                 "progress": "`ctxlib progress` (50 attempts)",
                 "count, empty cache": "`ctxlib count`, first run on a machine (empty cache)"}


def startup(r: dict) -> str:
    """``bench_startup.py``: each command's median, fastest and median CPU seconds against its goal."""
    head = ("| command | median wall s | fastest wall s | median CPU s | goal s | met (median wall) |\n"
            "|---|---:|---:|---:|---:|---|\n")
    rows = [f"| {STARTUP_NAMES[x['command']]} | {x['median']:.3f} | {x['fastest']:.3f} | {x['median_cpu']:.3f} | "
            + (f"{x['goal']} | {'yes' if x['median'] <= x['goal'] else 'no'} |" if x["goal"] else "- | - |")
            for x in r["rows"]]
    return (head + "\n".join(rows) + f"\n\n{r['repeat']} runs of each command after one warm-up, each a fresh "
            "process. " + measured_line(r["meta"]))


def readme_startup(r: dict) -> str:
    """The README's start-up line, from ``bench_startup.py``'s results."""
    goal = {x["command"]: x for x in r["rows"] if x["goal"]}
    said = ", ".join(f"`ctxlib {name}` {goal[name]['median']:.2f} s (goal {goal[name]['goal']} s: "
                     f"{'met' if goal[name]['median'] <= goal[name]['goal'] else 'missed'})"
                     for name in ("pack", "count", "progress"))
    return (f"- **Start-up** (median of {r['repeat']} fresh processes; the sample project for `pack`, a small file "
            f"for `count`):\n  {said}. {measured_line(r['meta'])}")


TABLES = {"pack-trees": ("bench_pack", pack_trees), "pack-budgets": ("bench_pack", pack_budgets),
          "eval-halves": ("bench_eval", eval_halves), "eval-projects": ("bench_eval", eval_projects),
          "eval-ablation": ("bench_eval", eval_ablation), "readme-mcp": ("bench_mcp", readme_mcp),
          "startup": ("bench_startup", startup), "readme-startup": ("bench_startup", readme_startup),
          "readme-measured": ("bench_eval", readme_measured)}


def render(name: str) -> str:
    """The generated text of table ``name`` (a key of ``TABLES``), from its results file."""
    results, make = TABLES[name]
    return make(load(results)).rstrip("\n") + "\n"


def stale(docs=DOCS) -> list[tuple[Path, str]]:
    """``[(document, table name), ...]`` whose marked block differs from ``render(name)``."""
    found = []
    for doc in docs:
        for m in BLOCK.finditer(doc.read_text(encoding="utf-8")):
            if m.group(3) != render(m.group(2)):
                found.append((doc, m.group(2)))
    return found


def update(docs=DOCS) -> int:
    """Rewrite every marked block in ``docs`` from its results file; returns how many changed."""
    changed = 0
    for doc in docs:
        text = doc.read_text(encoding="utf-8")
        new = BLOCK.sub(lambda m: m.group(1) + render(m.group(2)) + m.group(4), text)
        if new != text:
            doc.write_text(new, encoding="utf-8")
            changed += sum(1 for _ in BLOCK.finditer(text))
    return changed


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if "--check" in argv:
        found = stale()
        for doc, name in found:
            print(f"{doc.relative_to(ROOT)}: table {name} disagrees with benchmarks/results/{TABLES[name][0]}.json "
                  f"(run: python3 run.py bench-tables)")
        return 1 if found else 0
    update()
    print("tables written from benchmarks/results/: " + ", ".join(TABLES))
    return 0


if __name__ == "__main__":
    sys.exit(main())
