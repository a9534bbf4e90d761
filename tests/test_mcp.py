"""`ctxlib mcp`, tested as an agent's harness uses it: a subprocess spoken to by the SDK's own client.

Each test starts `python -m ctxlib mcp --root DIR` over stdio, initializes a session with
`mcp.ClientSession`, and calls the tools. The budget is checked by re-counting the returned text with
tiktoken (ctxlib's offline encodings are tiktoken's), never by trusting the server's own report.
"""
from __future__ import annotations

import json
import os
import sys
from pathlib import Path

import pytest

pytest.importorskip("mcp", reason="the [mcp] extra is not installed: pip install -e '.[mcp]'")

import anyio  # noqa: E402  (comes with mcp)
from mcp import ClientSession, StdioServerParameters  # noqa: E402
from mcp.client.stdio import stdio_client  # noqa: E402

from ctxlib import mcp_server  # noqa: E402
from ctxlib.course import sample_project  # noqa: E402
from ctxlib.tokens import count_tokens  # noqa: E402

AWS_KEY = "AKIA" + "Q3EGRTYUIOPASDFG"  # a made-up key in the shape gitleaks' aws-access-token rule knows


@pytest.fixture(scope="module")
def shop(tmp_path_factory) -> Path:
    """The course's sample project, plus a credential file and a link out of the root."""
    root = tmp_path_factory.mktemp("mcp") / "shop"
    sample_project.build_sample_project(root)
    (root / "deploy" / "aws.env").write_text(f"AWS_ACCESS_KEY_ID={AWS_KEY}\n", encoding="utf-8")
    outside = root.parent / "outside.txt"
    outside.write_text("the secret plans, outside the root\n", encoding="utf-8")
    (root / "notes").symlink_to(root.parent, target_is_directory=True)
    return root


def call(root: Path, *calls, env=None, options=()):
    """Start the server on ``root`` (with ``options``), run ``calls`` (``(tool, arguments)``) in one session, return
    the results (and the tool list first)."""
    params = StdioServerParameters(command=sys.executable, args=["-m", "ctxlib", "mcp", "--root", str(root), *options],
                                   env={"CTXLIB_OFFLINE": "1", **(env or {})})
    progress: list[float] = []

    async def on_progress(value, total, message):
        progress.append(value)

    async def run():
        with open(os.devnull, "w") as errlog:
            async with stdio_client(params, errlog=errlog) as (read, write):
                async with ClientSession(read, write) as session:
                    await session.initialize()
                    tools = (await session.list_tools()).tools
                    results = [await session.call_tool(name, arguments, progress_callback=on_progress)
                               for name, arguments in calls]
                    return tools, results

    tools, results = anyio.run(run)
    return tools, results, progress


def text_of(result, item: int = 0) -> str:
    return result.content[item].text


def test_tools_are_listed_with_schemas_a_model_can_act_on(shop):
    tools, _, _ = call(shop)
    by_name = {t.name: t for t in tools}
    assert sorted(by_name) == ["count", "pack", "rank"]
    pack = by_name["pack"].input_schema
    assert pack["required"] == ["query", "budget"]
    assert pack["properties"]["budget"]["type"] == "integer"
    assert pack["properties"]["view"]["enum"] == ["auto", "whole", "signatures", "ranges"]
    assert "hard token budget" in by_name["pack"].description
    assert by_name["count"].input_schema["properties"]["paths"]["type"] == "array"
    assert all(t.annotations.read_only_hint for t in tools)


def test_pack_holds_the_budget_in_exact_tokens_and_reports(shop):
    _, results, _ = call(shop, ("pack", {"query": "vat invoice rounding", "budget": 300}),
                         ("pack", {"query": "vat invoice rounding", "budget": 1200, "encoding": "cl100k_base"}))
    small, large = results
    assert not small.is_error and not large.is_error
    assert 0 < count_tokens(text_of(small), "o200k_base") <= 300
    assert 300 < count_tokens(text_of(large), "cl100k_base") <= 1200
    report = small.structured_content
    assert report["used_tokens"] == count_tokens(text_of(small), "o200k_base")
    assert report["budget_tokens"] == 300
    assert report["packed"][0]["path"] == "shop/invoice.py"
    assert "shop/invoice.py" in text_of(small, 1)  # the report as a second text item
    assert json.dumps(report)  # plain JSON, for any client


def test_pack_is_the_same_pack_as_the_library_gives(shop):
    from ctxlib.fit import pack_repository

    _, (result,), _ = call(shop, ("pack", {"query": "discount codes", "budget": 900}))
    assert text_of(result) == pack_repository(shop, "discount codes", 900).text


def test_a_secret_is_refused_and_nothing_turns_it_off(shop):
    _, results, _ = call(shop, ("pack", {"query": "aws access key deploy", "budget": 5000}),
                         ("pack", {"query": "aws", "budget": 5000, "include_secrets": True}),
                         ("count", {"paths": ["deploy"]}))
    packed, with_flag, counted = results
    assert AWS_KEY not in text_of(packed)
    skipped = {s["path"]: s["reason"] for s in packed.structured_content["skipped"]}
    assert "deploy/aws.env" in skipped
    assert AWS_KEY not in text_of(with_flag)  # an unknown argument is ignored, never obeyed
    assert "deploy/aws.env" in {s["path"] for s in counted.structured_content["skipped"]}
    # count's entries are pack's (render.skipped_entry): the same code and words for the same file
    counted_entry = {s["path"]: s for s in counted.structured_content["skipped"]}["deploy/aws.env"]
    packed_entry = {s["path"]: s for s in packed.structured_content["skipped"]}["deploy/aws.env"]
    assert counted_entry == packed_entry and counted_entry["code"] == "credential-file"


@pytest.mark.parametrize("arguments, says", [
    ({"query": "vat", "budget": "lots"}, "budget must be a whole number of tokens"),
    ({"query": "vat", "budget": 0}, "budget must be between 1 and"),
    ({"query": "   ", "budget": 500}, "query must be non-empty text"),
    ({"query": "vat", "budget": 500, "path": "no/such/folder"}, "no such file or folder in the roots"),
    ({"query": "vat", "budget": 500, "path": "/etc"}, "is outside the roots"),
    ({"query": "vat", "budget": 500, "path": "../"}, "is outside the roots"),
    ({"query": "vat", "budget": 500, "path": "notes"}, "symbolic link"),
    ({"query": "vat", "budget": 500, "view": "everything"}, "view must be one of auto, whole"),
    ({"query": "vat", "budget": 2}, "too small"),
])
def test_bad_arguments_are_tool_errors_of_one_sentence_and_the_server_stays_up(shop, arguments, says):
    _, (bad, good), _ = call(shop, ("pack", arguments), ("count", {"paths": ["shop/invoice.py"]}))
    assert bad.is_error
    message = text_of(bad)
    assert says in message, message
    assert "\n" not in message and "Traceback" not in message
    if "roots" in says or "link" in says:
        assert str(shop) in message  # names the roots
    assert not good.is_error  # the same server answers the next call


def test_count_is_exact_per_file_and_per_folder(shop):
    _, (result,), _ = call(shop, ("count", {"paths": ["shop/invoice.py", "shop"]}))
    counted = result.structured_content
    invoice = (shop / "shop" / "invoice.py").read_text(encoding="utf-8")
    assert counted["files"][0] == {"path": "shop/invoice.py", "tokens": count_tokens(invoice, "o200k_base"),
                                   "characters": len(invoice)}
    folder = counted["folders"][0]
    assert folder["path"] == "shop"
    assert folder["tokens"] == sum(f["tokens"] for f in counted["files"][1:])


def test_rank_explains_the_order_pack_walks(shop):
    _, (result,), _ = call(shop, ("rank", {"query": "vat invoice rounding", "top": 3, "explain": True}))
    ranked = result.structured_content
    assert [f["path"] for f in ranked["files"]][0] == "shop/invoice.py"
    assert len(ranked["files"]) == 3
    assert {"signal", "effect"} <= set(ranked["files"][0]["signals"][0])
    # include and exclude, as pack's: a ranking that explains a pack made with them
    _, (excluded, included), _ = call(shop, ("rank", {"query": "vat invoice rounding", "exclude": ["shop/invoice.py"]}),
                                      ("rank", {"query": "vat invoice rounding", "include": ["tests/"]}))
    assert "shop/invoice.py" not in [f["path"] for f in excluded.structured_content["files"]]
    assert {f["path"].split("/")[0] for f in included.structured_content["files"]} == {"tests"}


def test_a_long_pack_reports_progress(tmp_path):
    for i in range(450):
        (tmp_path / f"m{i:03}.py").write_text(f"def tax_{i}(amount):\n    return amount * {i}\n", encoding="utf-8")
    _, (result,), progress = call(tmp_path, ("pack", {"query": "tax amount", "budget": 400}))
    assert not result.is_error
    assert progress == [200, 400]  # one notification per 200 files read


def test_roots_are_checked_before_serving(tmp_path):
    with pytest.raises(ValueError, match="no such folder"):
        mcp_server.check_roots([tmp_path / "missing"])
    with pytest.raises(ValueError, match="at least one --root"):
        mcp_server.check_roots([])


def test_the_report_says_where_the_walk_stopped_by_code(shop):
    # Footholds first (the default) stops at the handbook: its cheapest view, 1,814 tokens, does not
    # fit in what its walk has left; the files after it carry the code "stopped-at", not "budget-full".
    _, (result,), _ = call(shop, ("pack", {"query": "vat invoice", "budget": 2000}))
    codes = {s["path"]: s.get("code") for s in result.structured_content["skipped"]}
    assert codes["docs/billing-handbook.md"] == "stopped-here"
    assert codes["README.md"] == "stopped-at" and "budget-full" not in codes.values()
    reason = {s["path"]: s["reason"] for s in result.structured_content["skipped"]}["README.md"]
    assert reason.startswith("not reached: the walk stopped at docs/billing-handbook.md, whose cheapest view "
                             "(1,814 tokens) did not fit in the ")


def test_with_history_pack_and_rank_rank_by_the_last_commits(tmp_path):
    from ctxlib import ranking, recent, repo, safegit

    root = sample_project.build_sample_git_repository(tmp_path / "shop")
    asks = [("rank", {"query": "vat invoice", "top": 5}), ("pack", {"query": "vat invoice", "budget": 3000}),
            ("rank", {"query": "vat invoice", "top": 5, "path": "shop"})]
    _, with_history, _ = call(root, *asks, options=["--history"])
    _, without, _ = call(root, *asks[:2])
    files = {f.path: f.text for f in repo.read_repo(root).files}
    commits = safegit.recent_commits(root, recent.HISTORY_COMMITS)
    expected = [r.path for r in ranking.rank_files(files, ranking.clean_query("vat invoice", files), history=commits)
                if r.score > 0][:5]
    ranked = with_history[0].structured_content
    assert [f["path"] for f in ranked["files"]] == expected and ranked["history"] == {"commits": 8}
    assert "shop/cart.py" in expected and "shop/cart.py" not in [f["path"] for f in without[0].structured_content["files"]]
    assert with_history[1].structured_content["history"] == {"commits": 8}
    assert "history" not in without[0].structured_content and "history" not in without[1].structured_content
    inner = with_history[2].structured_content  # a folder that is not the top of the working copy: ranked without
    assert inner["history"]["commits"] == 0 and "reads only a .git folder of the folder itself" in inner["history"]["why"]


def test_a_query_longer_than_the_cap_is_one_sentence(shop):
    _, (result,), _ = call(shop, ("rank", {"query": "vat " * 30_000}))
    assert result.is_error and text_of(result).endswith(": query must be at most 100,000 characters; got 120,000.")


def test_rank_and_pack_patterns_are_bounded(shop):
    # a hostile tester's (session 42): an int of 5,000 digits or a list nested deep among the patterns raised repr's
    # ValueError or RecursionError, not the tools' own error; 100,000 patterns took 8 s on this 23-file project
    nested: list = []
    for _ in range(200_000):
        nested = [nested]
    roots = [shop.resolve()]
    for tool, bad in [("rank", [10 ** 5000]), ("rank", [nested]), ("pack", [nested]),
                      ("rank", ["*.py"] * (getattr(mcp_server, "MAX_PATTERNS", 1_000) + 1))]:
        with pytest.raises(mcp_server.ToolInputError) as caught:
            if tool == "rank":
                mcp_server.rank_tool(roots, "vat invoice", exclude=bad)
            else:
                mcp_server.pack_tool(roots, "vat invoice", 2000, include=bad)
        assert len(str(caught.value)) < 400
    assert mcp_server.rank_tool(roots, "vat invoice", exclude=["*.py"] * mcp_server.MAX_PATTERNS)["files"]


def test_a_line_the_sdk_cannot_read_gets_a_json_rpc_error(shop):
    # round s42's leftover: the SDK drops such a line, so a client waited for its own timeout. A lone surrogate
    # escape is what Python's json.dumps writes for a file name of undecodable bytes (os.fsdecode: "\udcff").
    import subprocess
    import threading

    lines = [{"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
                 "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}},
             {"jsonrpc": "2.0", "method": "notifications/initialized"},
             {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
              "params": {"name": "count", "arguments": {"paths": ["shop/bad\udcff.py"]}}}]
    sent = [json.dumps(line) for line in lines] + ["garbage{", '{"jsonrpc": "2.0", "id": "s", "meth": "ping"}',
                                                   "[1, 2]", json.dumps({"jsonrpc": "2.0", "id": 9, "method": "ping"})]
    # stdin stays open until the last request (id 9) is answered: closed at once, the server may end before it
    # answers (the SDK stops at end of input), which made this test fail about one run in three.
    server = subprocess.Popen([sys.executable, "-m", "ctxlib", "mcp", "--root", str(shop)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env={**os.environ, "CTXLIB_OFFLINE": "1"})
    guard = threading.Timer(120, server.kill)  # a server that never answers is ended, and readline returns b""
    guard.start()
    try:
        server.stdin.write("\n".join(sent).encode() + b"\n")
        server.stdin.flush()
        replies = []
        while not any(r.get("id") == 9 for r in replies):
            line = server.stdout.readline()
            assert line, f"the server ended after {replies!r}"
            replies.append(json.loads(line))
    finally:
        guard.cancel()
        server.stdin.close()
        server.wait(timeout=60)
    errors = [(r["id"], r["error"]["code"], r["error"]["message"].split(":")[0]) for r in replies if "error" in r]
    assert errors == [(2, -32700, "Parse error"), (None, -32700, "Parse error"), ("s", -32600, "Invalid Request"),
                      (None, -32600, "Invalid Request")]
    assert [r["id"] for r in replies if "result" in r] == [0, 9]  # and the server went on serving
