"""``ctxlib eval`` and ``ctxlib rank``: tasks mined from a tiny git repository made here, the
sample project's history with figures checked by hand, and one-line errors for bad input."""
import json
import os
import subprocess
import sys

import pytest

from ctxlib import evaluate
from test_cli_pack import run as run_cli
from ctxlib.course.sample_project import build_sample_git_repository, build_sample_project, sample_files

ENV = {"GIT_AUTHOR_NAME": "T", "GIT_AUTHOR_EMAIL": "t@example.org", "GIT_COMMITTER_NAME": "T",
       "GIT_COMMITTER_EMAIL": "t@example.org", "GIT_AUTHOR_DATE": "1700000000 +0000",
       "GIT_COMMITTER_DATE": "1700000000 +0000", "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}


def git(root, *args):
    subprocess.run(["git", "-c", "commit.gpgsign=false", *args], cwd=root, check=True, capture_output=True,
                   env={**os.environ, **ENV})


def commit(root, message, files):
    for path, text in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)
    git(root, "add", "-A")
    git(root, "commit", "-q", "-m", message)


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    """A repository of six commits; three qualify."""
    root = tmp_path_factory.mktemp("tiny")
    git(root, "init", "-q", "--template=", "-b", "main")
    commit(root, "Start", {"app/parse.py": "def parse(x):\n    return x\n", "app/render.py": "def render(x):\n    return x\n",
                           "tests/test_parse.py": "def test_parse():\n    pass\n", "CHANGES.md": "start\n"})
    commit(root, "Parse empty headers without a crash in parse.py (#12)\n\nSigned-off-by: T <t@example.org>",
           {"app/parse.py": "def parse(x):\n    return x or ''\n"})
    commit(root, "Bump version to 1.1", {"app/parse.py": "def parse(x):\n    return x or ''\n# 1.1\n"})
    commit(root, "Only the tests change here", {"tests/test_parse.py": "def test_parse():\n    assert True\n"})
    commit(root, "Render templates with escaping by default",
           {"app/render.py": "def render(x):\n    return escape(x)\n", "CHANGES.md": "escaping\n"})
    commit(root, "Render and parse unicode names", {"app/render.py": "def render(x):\n    return str(x)\n",
                                                    "app/parse.py": "def parse(x):\n    return str(x)\n"})
    return root


def test_the_rules_pick_three_commits_and_clean_their_messages(tiny):
    found = evaluate.mine_instances(tiny)
    assert [(i.query, i.targets) for i in found] == [
        ("Render and parse unicode names", ("app/parse.py", "app/render.py")),
        ("Render templates with escaping by default", ("app/render.py",)),  # CHANGES.md is not asked for
        ("Parse empty headers without a crash in", ("app/parse.py",)),  # file name, PR number, trailer gone
    ]
    assert [i.query for i in evaluate.mine_instances(tiny, every=2)] == [found[0].query, found[2].query]
    assert len(evaluate.mine_instances(tiny, limit=1)) == 1
    assert found[0].repo == tiny.name


def test_clean_message():
    assert evaluate.clean_message("Fix lexer.py crash (#12)\n\nSigned-off-by: A <a@b>", ["src/lexer.py"]) == "Fix crash"
    assert evaluate.clean_message("see src/pkg/a.py and a.pyc", ["src/pkg/a.py"]) == "see and a.pyc"


def test_eval_measures_each_task(tiny):
    run = evaluate.evaluate_repository(tiny, budgets=(30, 2000))
    current = run.outcomes["ctxlib pack"]
    assert [o.ranks for o in current] == [{"app/parse.py": 2, "app/render.py": 1}, {"app/render.py": 1},
                                          {"app/parse.py": 1}]
    summary = run.summary()["ctxlib pack"]
    assert summary["mrr"] == 1.0 and summary["top1"] == 1.0
    assert summary["all_recall"][2000] == 1.0 and summary["any_recall"][2000] == 1.0
    # 30 tokens hold one small file with its header, not two: the two-file task is half found
    assert [o.packed[30] for o in current] == [["app/render.py"], ["app/render.py"], ["app/parse.py"]]
    assert summary["all_recall"][30] == pytest.approx(2 / 3) and summary["any_recall"][30] == 1.0


def test_eval_on_the_sample_project_history(tmp_path):
    run = evaluate.evaluate_repository(build_sample_git_repository(tmp_path / "shop"), budgets=(500, 2000))
    assert len(run.instances) == 7
    ranks = [o.first_rank for o in run.outcomes["ctxlib pack"]]
    assert ranks == [1, 1, 1, 1, 1, 1, 4]  # one miss: "Round VAT to whole cents" puts money.py first
    assert run.summary()["ctxlib pack"]["mrr"] == pytest.approx((6 + 1 / 4) / 7)


def test_sample_repository_is_deterministic_and_ends_at_the_folder(tmp_path):
    root = build_sample_git_repository(tmp_path / "a")
    head = subprocess.run(["git", "-C", str(root), "rev-parse", "HEAD"], capture_output=True, text=True).stdout
    assert head.strip() == "2af2ecf463d0eb3fb7463fa53942b07a2a22b516"
    assert subprocess.run(["git", "-C", str(root), "status", "--porcelain"], capture_output=True,
                          text=True).stdout == ""
    copy = build_sample_project(tmp_path / "b")
    for rel, data in sample_files().items():
        assert (root / rel).read_bytes() == data == (copy / rel).read_bytes()
    with pytest.raises(ValueError, match="not empty"):
        build_sample_git_repository(root)


def test_cli_eval_text_and_json(tiny, capsys):
    status, out, err = run_cli(capsys, "eval", str(tiny), "--budget", "2000")
    assert status == 0, err
    lines = out.splitlines()
    assert lines[0] == f"ctxlib eval: 3 tasks from the history of {tiny}"
    assert lines[1].startswith("a commit qualifies if: one parent")
    assert any(line.split()[:4] == ["ctxlib", "pack", "100.0%", "100.0%"] for line in lines)
    status, out, err = run_cli(capsys, "eval", str(tiny), "--budget", "2000", "--format", "json", "--no-baseline")
    data = json.loads(out)
    assert data["summary"]["ctxlib pack"]["mrr"] == 1.0 and list(data["outcomes"]) == ["ctxlib pack"]
    status, out, err = run_cli(capsys, "eval", str(tiny), "--budget", "2000", "--limit", "1")
    assert out.splitlines()[0] == f"ctxlib eval: 1 task from the history of {tiny}"


@pytest.mark.parametrize("argv, message", [
    (["eval", "{tmp}"], "ctxlib: {tmp}: not a git repository (ctxlib eval reads a repository's history)\n"),
    (["eval", "{tmp}/nope"], "ctxlib: {tmp}/nope: no such directory\n"),
    (["eval", "{tiny}", "--every", "0"], "ctxlib: every must be a positive whole number, got 0\n"),
    (["eval", "{tiny}", "--budget", "-5"], "ctxlib: a budget must be a positive whole number of tokens, got -5\n"),
    (["rank", "{tmp}/nope", "--query", "x"], "ctxlib: {tmp}/nope: no such directory\n"),
    (["rank", "{tiny}", "--query", "x", "--top", "0"], "ctxlib: --top must be a positive whole number, got 0\n"),
    (["rank", "{tiny}", "--query", "!!!"], "ctxlib: the query has no words to search for, got '!!!'\n"),
])
def test_bad_input_is_one_line(tiny, tmp_path, capsys, argv, message):
    argv = [a.format(tmp=tmp_path, tiny=tiny) for a in argv]
    status, out, err = run_cli(capsys, *argv)
    assert status == 2 and err == message.format(tmp=tmp_path, tiny=tiny)


def test_a_subfolder_of_a_working_copy_is_refused_with_its_top_folder_named(tiny, capsys):
    # It read the whole repository's history under the subfolder's name (a hostile tester's finding, s43).
    status, out, err = run_cli(capsys, "eval", str(tiny / "app"), "--limit", "1")
    assert status == 2 and out == "" and err == (
        f"ctxlib: {tiny / 'app'} is a folder inside the git working copy {tiny}: ctxlib eval reads the whole "
        f"repository's history, so give it the top folder (ctxlib eval {tiny})\n")
    status, _, err = run_cli(capsys, "eval", str(tiny / "app"), "--lang", "hi")
    assert status == 2 and f"ctxlib eval {tiny}" in err and "working copy" in err and "पूरी history" in err


def test_too_little_history(tmp_path, capsys):
    git(tmp_path, "init", "-q", "--template=", "-b", "main")
    status, _, err = run_cli(capsys, "eval", str(tmp_path))
    assert status == 2 and err == f"ctxlib: {tmp_path}: the repository has no commits yet\n"
    commit(tmp_path, "Start the parser", {"a.py": "x = 1\n"})
    commit(tmp_path, "Parse numbers as well as names", {"a.py": "x = 2\n"})
    status, _, err = run_cli(capsys, "eval", str(tmp_path))
    assert status == 2 and err.startswith(f"ctxlib: {tmp_path}: too little history: 1 qualifying commit(s), at least 3")


def test_cli_rank_text_json_and_explain(tiny, capsys):
    status, out, _ = run_cli(capsys, "rank", str(tiny), "--query", "parse headers", "--explain")
    lines = out.splitlines()
    assert status == 0 and lines[0].startswith("ctxlib rank: ") and lines[2].split()[1:] == [
        lines[2].split()[1], "source", "app/parse.py"]
    assert lines[3].strip().startswith("bm25: ")
    status, out, _ = run_cli(capsys, "rank", str(tiny), "--query", "Fix parse in deadbeef12", "--format", "json")
    data = json.loads(out)
    assert data["query_terms"] == ["fix", "parse", "in"] and data["dropped"] == ["deadbeef12"]
    assert data["files"][0]["path"] == "app/parse.py" and data["files"][0]["kind"] == "source"


def test_cli_rank_reads_the_files_pack_reads_with_include_and_exclude(tiny, capsys):
    # the ranking 'ctxlib pack --exclude tests/' walks: rank takes the same patterns
    def ranked(*options):
        status, out, err = run_cli(capsys, "rank", str(tiny), "--query", "parse", "--format", "json", *options)
        assert status == 0, err
        return [f["path"] for f in json.loads(out)["files"]]
    assert ranked() == ["app/parse.py", "tests/test_parse.py"]
    assert ranked("--exclude", "tests/") == ["app/parse.py"]
    assert ranked("--include", "tests/") == ["tests/test_parse.py"]


def test_the_eval_help_names_the_default_budgets():
    from ctxlib import cli
    assert cli.EVAL_BUDGETS_HELP == ", ".join(map(str, evaluate.BUDGETS))


def test_pack_and_count_do_not_import_the_evaluation():
    code = ("import sys; from ctxlib.cli import build_parser; build_parser(); "
            "print(sorted(m for m in sys.modules if m in ('ctxlib.evaluate', 'ctxlib.history', 'dulwich')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_each_task_is_ranked_once_and_packed_at_every_budget(monkeypatch):
    from ctxlib import fit

    ranked, packed = [], []
    real_rank, real_pack = fit.rank_query, fit.pack_ranked
    monkeypatch.setattr(fit, "rank_query", lambda *a, **k: ranked.append(1) or real_rank(*a, **k))
    monkeypatch.setattr(fit, "pack_ranked", lambda *a, **k: packed.append(a[2]) or real_pack(*a, **k))
    files = {"shop/vat.py": "def vat_rate(country):\n    return 19\n", "docs/notes.md": "nothing here\n"}
    task = evaluate.Instance("c" * 40, "p" * 40, "change the vat rate", ("shop/vat.py",))
    result = evaluate.evaluate_files(files, task, evaluate.CURRENT, budgets=(50, 100, 200))
    assert (len(ranked), packed) == (1, [50, 100, 200])
    assert isinstance(result, evaluate.TaskResult) and result.ranks == {"shop/vat.py": 1}
    assert result.packed == {50: ["shop/vat.py"], 100: ["shop/vat.py"], 200: ["shop/vat.py"]}
