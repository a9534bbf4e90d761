"""Two rules of the packer (ctxlib/fit.py): identical files are packed once, and more budget
never loses a file that a smaller budget packed (the default strategy: strategies.footholds_first),
on the sample project's history and on the 325 tasks of the ranking benchmark (their budget cases,
numbers only, derived by benchmarks/bench_eval.py --budget-cases into tests/data)."""
import gzip
import json
from pathlib import Path

import pytest

from ctxlib import evaluate
from ctxlib.course.sample_project import build_sample_git_repository
from ctxlib.reasons import Reason
from ctxlib.fit import FOOTHOLD_FILES, pack_files, pack_ranked, rank_query
from ctxlib.strategies import DEFER_TOKENS, Option, footholds_first, same_bytes
from ctxlib.tokens import count_tokens

VAT = "def vat_rate(country):\n    '''The VAT rate of a country.'''\n    return RATES[country]\n"
FILES = {"shop/vat.py": VAT, "vendor/shop/vat.py": VAT, "web/vat.py": VAT,
         "shop/invoice.py": "from .vat import vat_rate\n\ndef total(lines):\n    return sum(lines) * vat_rate('DE')\n"}


def test_same_bytes_groups_by_text_best_ranked_first():
    assert same_bytes({"a.py": "x", "b.py": "x", "c.py": "y", "d.py": "z"}, ["b.py", "a.py", "c.py", "d.py"]) == (
        {"b.py": ("a.py",)}, {"a.py": "b.py"})
    assert same_bytes({"a.py": "xy", "b.py": "yx"}, ["a.py", "b.py"]) == ({}, {})  # same length, other bytes


def test_identical_files_are_packed_once_with_the_other_paths_named():
    pack = pack_files(FILES, "vat rate", 2_000, strategy="footholds")
    chosen = {c.path: c for c in pack.chosen}
    first = [c for c in pack.chosen if c.path.endswith("vat.py")]
    assert len(first) == 1 and first[0].path == "shop/vat.py"
    assert set(first[0].copies) == {"vendor/shop/vat.py", "web/vat.py"}
    assert pack.text.count("RATES[country]") == 1
    assert "==> shop/vat.py (whole; the same bytes as " in pack.text
    reasons = {s.path: (s.code, dict(s.params)) for s in pack.skipped}
    assert reasons["web/vat.py"] == (Reason.SAME_BYTES, {"first": "shop/vat.py"})
    assert "shop/invoice.py" in chosen and pack.used_tokens == count_tokens(pack.text) <= 2_000
    as_json = json.loads(pack_files(FILES, "vat rate", 2_000, fmt="json", strategy="footholds").text)
    assert [set(f.get("copies", ())) for f in as_json["files"] if f["path"] == "shop/vat.py"] == [
        {"vendor/shop/vat.py", "web/vat.py"}]


def test_footholds_first_keeps_every_file_a_smaller_budget_took():
    # The lesson's greedy takes A whole at 100 and squeezes B out, though at 60 it packed A and B
    # as ranges. Footholds first: A and B in their cheapest view, then A widened if it fits.
    rows = [[("A", "whole", 10, 70), ("A", "ranges", 4, 20)], [("B", "whole", 9, 50), ("B", "ranges", 3, 30)]]
    cost = lambda option, limit: len(option.text)  # noqa: E731
    picks = {}
    for budget in (40, 60, 100, 140):
        files = [[Option.of(p, v, "." * t, value) for p, v, value, t in row] for row in rows]
        picks[budget] = [(o.path, o.view) for o, _ in footholds_first(iter(files), budget, cost).chosen]
    assert picks == {40: [("A", "ranges")], 60: [("A", "ranges"), ("B", "ranges")],
                     100: [("A", "whole"), ("B", "ranges")], 140: [("A", "whole"), ("B", "whole")]}


@pytest.fixture(scope="module")
def history(tmp_path_factory):
    return build_sample_git_repository(tmp_path_factory.mktemp("shop") / "history")


def test_more_budget_never_loses_an_edited_file_on_the_sample_projects_history(history):
    budgets = (200, 300, 500, 800, 1_200, 2_000, 3_000, 5_000)
    checked = 0
    for task in evaluate.mine_instances(history):
        files = evaluate.files_at(history, task.parent)
        ranked = rank_query(files, task.query)
        held = set()
        for budget in budgets:
            try:
                packed = {c.path for c in pack_ranked(files, ranked, budget).chosen} & set(task.targets)
            except ValueError:  # too small for anything: holds nothing
                packed = set()
            assert held <= packed, (task.query, budget, held - packed)  # no edited file lost
            held, checked = packed, checked + 1
        assert set(task.targets) <= held  # at the largest budget every edited file is in
    assert checked == 7 * len(budgets)


def test_a_header_names_three_copies_and_counts_the_rest():
    files = {f"c{n}/vat.py": VAT for n in range(6)}
    pack = pack_files(files, "vat rate", 2_000)
    assert pack.text.startswith("==> c0/vat.py (whole; the same bytes as c1/vat.py, c2/vat.py, c3/vat.py and 2 more) <==")
    assert pack.chosen[0].copies == tuple(f"c{n}/vat.py" for n in range(1, 6))


def test_copies_of_a_file_refused_for_a_secret_are_refused_too():
    key = 'KEY = "AKIA' + 'QZ7W3XK5N2LMVY4R"  # vat rate\n'
    files = {"shop/vat.py": VAT, "keys/a.py": key, "keys/b.py": key}
    pack = pack_files(files, "vat rate", 2_000)
    assert {s.path: s.code for s in pack.skipped if s.path.startswith("keys/")} == {
        "keys/a.py": Reason.SECRET, "keys/b.py": Reason.SECRET}


CASES = Path(__file__).with_name("data") / "budget_cases.json.gz"
VIEWS = {"w": "whole", "s": "signatures", "r": "ranges"}


def replay(case: dict, room: int) -> set[int]:
    """The ranks of the edited files ``footholds_first`` packs in ``room`` tokens, from a budget case:
    each file's views with their exact token counts, priced as ``fit.choose`` prices them (a file
    holding a secret is refused once a view of it fits)."""
    files, tokens, secret, refused = [], {}, set(), set()
    for rank, (edited, has_secret, views) in enumerate(case["files"]):
        path = f"{rank}:{edited}"
        if has_secret:
            secret.add(path)
        options = []
        for k, (view, chars, cost, value) in enumerate(views):
            option = Option.of(path, f"{VIEWS[view]}{k}", "x" * chars, value)
            tokens[option] = cost
            options.append(option)
        files.append(options)

    def cost(option, limit):
        if option.path in refused:
            return limit + 1
        if tokens[option] <= limit and option.path in secret:
            refused.add(option.path)
            return limit + 1
        return tokens[option]
    walk = footholds_first(iter(files[:FOOTHOLD_FILES]), room, cost, refused=refused)  # as fit.choose
    return {int(o.path.split(":")[0]) for o, _ in walk.chosen if o.path.endswith(":1")}


def test_more_budget_never_loses_an_edited_file_on_the_benchmarks_tasks():
    data = json.loads(gzip.decompress(CASES.read_bytes()))
    assert data["budgets"] == list(evaluate.BUDGETS) and data["defer_tokens"] == DEFER_TOKENS
    assert len(data["cases"]) == 325 and len({c["repo"] for c in data["cases"]}) == 13
    lost, packed_edited, deferred = [], 0, 0
    for case in data["cases"]:
        held = set()
        for budget, room in zip(data["budgets"], case["rooms"]):
            packed = replay(case, room)
            if held - packed:
                lost.append((case["repo"], case["commit"], budget, sorted(held - packed)))
            held = packed
        packed_edited += len(held)
        deferred += any(min(v[2] for v in views) > DEFER_TOKENS for _, _, views in case["files"])
    assert lost == []
    assert packed_edited > 250  # most edited files are in at the largest budget: the replay packs
    assert deferred > 0  # some tasks have a file the rule defers (a minified jquery.js, 25,789 tokens)


def test_footholds_weigh_the_80_best_ranked_files_and_say_so_of_the_rest():
    # 100 files that all match; a budget that would hold a foothold of each. Only 80 are weighed.
    files = {f"m{n:03d}.py": f"def vat_{n}():\n    return 'vat rate {n}'\n" for n in range(100)}
    pack = pack_files(files, "vat rate", 50_000)
    assert FOOTHOLD_FILES == 80 and len(pack.chosen) == 80 and pack.files_tokenized == 80
    beyond = [s for s in pack.skipped if s.code is Reason.NOT_WEIGHED]
    assert len(beyond) == 20 and {dict(s.params)["most"] for s in beyond} == {80}
    assert {dict(s.params)["strategy"] for s in beyond} == {"footholds"}
    assert {c.path for c in pack.chosen}.isdisjoint(s.path for s in beyond)
