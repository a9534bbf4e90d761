"""A small coding agent's fixed prefix, written for this course: its system prompt and tool schemas.

Lesson 2 measures the fixed prefix instead of assuming it. The files in ``data/coding_agent/``
are what a small harness would send on every request:

    system_prompt.txt   the system prompt
    tools.json          five tool schemas: read a file, search, edit a file, run the tests, list files
    mcp_servers.json    four more tool servers of the kind a team adds over a quarter (an issue
                        tracker, a reporting database, a documentation browser, CI and deploys),
                        each publishing its own schemas into the same prefix

Measure them with ``ctxlib.prefix.prefix_tokens(SYSTEM_PROMPT, TOOLS)`` (1,530 tokens in
o200k_base; 3,415 with every server's tools added). They are examples: a real agent's prompt and
schemas are usually longer.
"""
from __future__ import annotations

import json
from pathlib import Path

from ctxlib.i18n import N_

DATA = Path(__file__).parent / "data" / "coding_agent"

SYSTEM_PROMPT = (DATA / "system_prompt.txt").read_text(encoding="utf-8")
TOOLS = json.loads((DATA / "tools.json").read_text(encoding="utf-8"))
# Server name -> its tool schemas. The names are message ids: a lesson shows them with message().
MCP_SERVERS = json.loads((DATA / "mcp_servers.json").read_text(encoding="utf-8"))
SERVER_NAMES = (N_("issue tracker"), N_("reporting database"), N_("documentation"), N_("CI and deploys"))
