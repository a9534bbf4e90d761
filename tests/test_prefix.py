"""The fixed prefix, measured: the course agent's system prompt and tool schemas, counted exactly."""
import json

import pytest

from ctxlib import count_tokens
from ctxlib.prefix import check_tool, prefix_tokens, render_prefix
from ctxlib.course.coding_agent import MCP_SERVERS, SERVER_NAMES, SYSTEM_PROMPT, TOOLS

TOOL = {"name": "read_file", "description": "Read a file.",
        "parameters": {"type": "object", "properties": {"path": {"type": "string"}}}}


def test_the_rendered_prefix_is_a_chat_completions_body():
    body = json.loads(render_prefix("Be brief.", [TOOL]))
    assert body == {"messages": [{"role": "system", "content": "Be brief."}],
                    "tools": [{"type": "function", "function": TOOL}]}


def test_prefix_tokens_counts_the_rendered_text_exactly():
    text = render_prefix("Be brief.", [TOOL])
    assert prefix_tokens("Be brief.", [TOOL]) == count_tokens(text) == count_tokens(text, "o200k_base")
    assert prefix_tokens("Be brief.", [TOOL], "cl100k_base") == count_tokens(text, "cl100k_base")


def test_the_course_agent_has_five_tools_and_four_servers():
    assert [t["name"] for t in TOOLS] == ["read_file", "search", "edit_file", "run_tests", "list_files"]
    assert tuple(MCP_SERVERS) == SERVER_NAMES and [len(tools) for tools in MCP_SERVERS.values()] == [4, 4, 3, 5]
    names = [t["name"] for t in TOOLS] + [t["name"] for ts in MCP_SERVERS.values() for t in ts]
    assert len(names) == len(set(names)) == 21


def test_the_measured_drift():
    # The figures Lesson 2 prints: 1,530 tokens for the agent, 3,415 with the four servers.
    assert count_tokens(SYSTEM_PROMPT) == 548
    assert prefix_tokens(SYSTEM_PROMPT, TOOLS) == 1_530
    everything = TOOLS + [t for tools in MCP_SERVERS.values() for t in tools]
    assert prefix_tokens(SYSTEM_PROMPT, everything) == 3_415
    # Every schema added grows the prefix: it is re-sent on every request.
    sizes = [prefix_tokens(SYSTEM_PROMPT, everything[:n]) for n in range(len(everything) + 1)]
    assert sizes == sorted(set(sizes))


@pytest.mark.parametrize("tools, message", [
    ([{"name": "x", "description": "d"}], "tool schema 'x' has no 'parameters'"),
    (["read_file"], "a tool schema is a dict with name, description and parameters, got 'read_file'"),
    ([TOOL, TOOL], "tool names must be unique, repeated: read_file"),
])
def test_bad_schemas_are_named(tools, message):
    with pytest.raises(ValueError, match=message):
        render_prefix("", tools)
    if isinstance(tools[0], dict) and "parameters" in tools[0]:
        assert check_tool(tools[0]) is tools[0]
