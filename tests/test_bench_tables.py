"""The READMEs' benchmark tables agree with the results files they are generated from."""
import copy
import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
spec = importlib.util.spec_from_file_location("bench_tables", ROOT / "benchmarks" / "tables.py")
tables = importlib.util.module_from_spec(spec)
spec.loader.exec_module(tables)


def test_every_marked_table_matches_its_results_file():
    marked = [m.group(2) for doc in tables.DOCS for m in tables.BLOCK.finditer(doc.read_text(encoding="utf-8"))]
    assert {"pack-trees", "pack-budgets", "eval-halves", "eval-projects", "eval-ablation", "readme-mcp", "startup", "readme-startup",
             "readme-measured"} <= set(marked)
    assert tables.stale() == [], "run: python3 run.py bench-tables"


def test_a_changed_figure_makes_the_table_stale(tmp_path, monkeypatch):
    doc = tmp_path / "README.md"
    doc.write_text("x\n<!-- begin table eval-projects -->\n" + tables.render("eval-projects")
                   + "<!-- end table eval-projects -->\n", encoding="utf-8")
    assert tables.stale([doc]) == []
    results = copy.deepcopy(tables.load("bench_eval"))
    first = next(iter(results["by_project"]))
    results["by_project"][first]["mrr"] += 0.01  # one figure moves in the results file
    monkeypatch.setattr(tables, "load", lambda name: results)
    assert tables.stale([doc]) == [(doc, "eval-projects")]
    tables.update([doc])
    assert tables.stale([doc]) == [] and f"{results['by_project'][first]['mrr']:.3f}" in doc.read_text()


def test_results_record_the_run():
    for name in ("bench_pack", "bench_eval", "bench_mcp", "bench_startup"):
        meta = tables.load(name)["meta"]
        assert len(meta["commit"]) == 40 and meta["cores"] >= 1 and len(meta["load_average"]) == 3
        assert meta["date"].endswith("Z")
    line = tables.measured_line({"date": "2026-12-01T21:00:00Z", "commit": "a" * 40, "dirty": False,
                                 "load_average": [1.5, 1, 1], "load_average_at_end": [2.0, 1, 1], "cores": 2,
                                 "python": "3.11.7"}, 42)
    assert line == ("Measured 2026-12-01T21:00:00Z at commit aaaaaaa (load average 1.50 at the start, 2.0 at "
                    "the end, 2 cores, Python 3.11.7); the run took 42 s.")


def test_pack_summary_states_the_goals_from_the_cells():
    r = {"cells": [{"copies": 1, "job": "ctxlib", "seconds": 1.1, "peak_mb": 150.0},
                   {"copies": 1, "job": "floor", "seconds": 1.0, "peak_mb": 140.0},
                   {"copies": 1, "job": "naive", "seconds": 5.5, "peak_mb": 150.0}]}
    assert tables.pack_summary(r).endswith("1x: 1.10x the floor, 5.0x faster than naive, 150 MB. "
                                           "Goals met: 1.1x the floor at 1x, 5x faster than naive at 1x.")
    r["cells"] += [{"copies": 4, "job": "ctxlib", "seconds": 3.0, "peak_mb": 310.0},
                   {"copies": 4, "job": "floor", "seconds": 2.0, "peak_mb": 280.0}]
    assert tables.pack_summary(r).endswith(" Goals met: 1.1x the floor at 1x, 5x faster than naive at 1x. "
                                           "Goals missed: 1.1x the floor at 4x, 300 MB at 4x.")


def test_the_ablation_table_has_a_column_per_signal_left_out_or_says_it_was_not_run():
    r = tables.load("bench_eval")
    text = tables.eval_ablation(r)
    header = text.splitlines()[0]
    assert header.startswith("| half | all signals | - ") and header.count("| - ") == len(
        [s for s in r["systems"] if s.startswith("- ")]) >= 6
    kind = r["halves"]["tune"]["- kind"]
    assert f"{kind['all_recall']['13000']:.1%}, {kind['mrr']:.3f}" in text
    without = dict(r, systems=[s for s in r["systems"] if not s.startswith("- ")])
    assert tables.eval_ablation(without).startswith("Not in the last results file: that run had no `--ablation`.")


def test_the_mcp_paragraph_follows_its_results():
    r = copy.deepcopy(tables.load("bench_mcp"))
    text = tables.readme_mcp(r)
    ours = next(row for row in r["rows"] if row["server"] == "ctxlib mcp")
    assert f"with {ours['tokens']:,} exact tokens (within the budget)" in text and "refused a folder" in text
    ours.update(tokens=3001, budget_held=False, leaked=["dotenv AWS key"], outside=True)
    r["rows"] = [ours]  # a run without --repomix, where ctxlib went wrong three ways
    text = tables.readme_mcp(r)
    assert "3,001 exact tokens (over the budget)" in text and "returned 1 of the 4 planted secrets" in text
    assert "it packed a folder outside its root" in text and "repomix --mcp" not in text.split("server**")[1]


def test_the_startup_table_says_whether_each_goal_is_met():
    r = {"repeat": 5, "meta": tables.load("bench_pack")["meta"],
         "rows": [{"command": "pack", "median": 0.31, "fastest": 0.25, "median_cpu": 0.3, "goal": 0.3},
                  {"command": "count", "median": 0.2, "fastest": 0.18, "median_cpu": 0.19, "goal": 0.3},
                  {"command": "progress", "median": 0.5, "fastest": 0.4, "median_cpu": 0.45, "goal": 0.5},
                  {"command": "count, empty cache", "median": 0.4, "fastest": 0.39, "median_cpu": 0.38, "goal": None}]}
    lines = tables.startup(r).splitlines()
    assert lines[2].endswith("| 0.310 | 0.250 | 0.300 | 0.3 | no |")
    assert lines[3].endswith("| 0.3 | yes |") and lines[4].endswith("| 0.5 | yes |")  # at the goal is met
    assert lines[5].endswith("| 0.400 | 0.390 | 0.380 | - | - |")
    assert ("`ctxlib pack` 0.31 s (goal 0.3 s: missed), `ctxlib count` 0.20 s (goal 0.3 s: met), "
            "`ctxlib progress` 0.50 s (goal 0.5 s: met)") in tables.readme_startup(r)
