"""Lesson 3's "From your agent" cell: the harness's side of ctxlib mcp (ctxlib.course.agent)."""
import sys

import pytest

pytest.importorskip("mcp", reason="the [mcp] extra is not installed: pip install -e '.[mcp]'")

import anyio  # noqa: E402

from ctxlib.course import agent  # noqa: E402
from ctxlib.course.sample_project import BUDGET, QUERY, build_sample_project  # noqa: E402


def test_the_harness_gets_the_libraries_pack_within_the_budget(tmp_path):
    root = build_sample_project(tmp_path / "shop")
    answers = anyio.run(agent.ask_server, root, QUERY, BUDGET)
    assert answers.tools == ["count", "pack", "rank"]
    lines = agent.describe(answers, root, QUERY, BUDGET, "en").splitlines()
    assert lines[0] == "tools the server offers: count, pack, rank"
    assert lines[1].startswith("pack returned 1,9") and lines[1].endswith("for a budget of 2,000")
    assert lines[2] == "the same text as pack_repository gives: yes"
    assert lines[3].startswith("files packed: shop/invoice.py (whole)")
    assert lines[4] == "asked for the folder above the root: refused: yes; the answer names the root: yes"
    hindi = agent.describe(answers, root, QUERY, BUDGET, "hi")
    assert "tools the server offers" not in hindi and "2,000" in hindi


def test_the_browser_build_says_why_it_cannot(monkeypatch, tmp_path):
    monkeypatch.setattr(sys, "platform", "emscripten")
    assert anyio.run(agent.ask_server, tmp_path, QUERY, BUDGET) is None
    assert agent.describe(None, tmp_path, QUERY, BUDGET, "en").startswith("This cell starts a process")
