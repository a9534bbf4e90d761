"""Lesson 3, "From your agent": ``ctxlib mcp`` seen from the harness's side, as a notebook cell runs it.

``ask_server`` does what an agent's harness does: it starts ``ctxlib mcp --root ROOT`` as a process,
speaks the Model Context Protocol to it over stdio with the official SDK's client, lists the tools and
calls ``pack``. It also asks for a folder outside the root, which the server must refuse. ``describe``
turns the answers into the lines the lesson prints, checked against the library itself: the returned
text counted again with tiktoken, and compared with ``fit.pack_repository`` on the same arguments.

The browser build has no processes (Pyodide): there ``ask_server`` returns ``None`` and ``describe``
says so in one line.
"""
from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field
from pathlib import Path

from ctxlib.i18n import message


@dataclass
class ServerAnswers:
    """What the server answered: its tool names, the pack call's text and report, and the refusal."""

    tools: list[str]
    text: str
    report: dict = field(repr=False)
    outside_refused: bool
    outside_names_root: bool


async def ask_server(root, query: str, budget_tokens: int) -> ServerAnswers | None:
    """Start ``ctxlib mcp --root root``, call ``pack(query, budget_tokens)``, and ask for ``root``'s parent.

    Args:
        root: the folder the server may read.
        query: the task in words.
        budget_tokens: the hard budget in tokens (o200k_base) the harness asks for.
    Returns:
        the ``ServerAnswers``; ``None`` where no process can be started (the browser build).
    Raises:
        OSError: if the server cannot be started; ``mcp``'s errors if it stops answering.
    """
    if sys.platform == "emscripten":
        return None
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    root = Path(root)
    server = StdioServerParameters(command=sys.executable, args=["-m", "ctxlib", "mcp", "--root", str(root)])
    with open(os.devnull, "w") as quiet:  # the server's own log line
        async with stdio_client(server, errlog=quiet) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                tools = sorted(t.name for t in (await session.list_tools()).tools)
                packed = await session.call_tool("pack", {"query": query, "budget": budget_tokens})
                outside = await session.call_tool("pack", {"query": query, "budget": budget_tokens,
                                                           "path": str(root.parent)})
    refusal = outside.content[0].text if outside.content else ""
    return ServerAnswers(tools, packed.content[0].text, packed.structured_content or {}, bool(outside.is_error),
                         str(root) in refusal)


def describe(answers: ServerAnswers | None, root, query: str, budget_tokens: int, lang: str = "en") -> str:
    """The lesson's lines about ``answers``, each checked against the library, in ``lang``.

    Args:
        answers: from ``ask_server``, or ``None`` (the browser build).
        root, query, budget_tokens: the same arguments the server was asked with.
        lang: ``"en"`` or ``"hi"``.
    Returns:
        lines: the tools offered; the pack's exact tokens counted again with tiktoken against the budget;
        whether it equals ``fit.pack_repository``'s pack; the files packed; whether the outside folder was refused.
    """
    if answers is None:
        return message("This cell starts a process, which the browser build cannot do; on your own machine it "
                       "prints the server's answers.", lang)
    from ctxlib.fit import pack_repository
    from ctxlib.tokens import count_tokens

    same = answers.text == pack_repository(root, query, budget_tokens).text
    yes_no = {True: message("yes", lang), False: message("no", lang)}
    lines = [
        message("tools the server offers: {tools}", lang, tools=", ".join(answers.tools)),
        message("pack returned {tokens:,} tokens, counted again with tiktoken, for a budget of {budget:,}", lang,
                tokens=count_tokens(answers.text), budget=budget_tokens),
        message("the same text as pack_repository gives: {answer}", lang, answer=yes_no[same]),
        message("files packed: {files}", lang,
                files=", ".join(f"{p['path']} ({p['view']})" for p in answers.report.get("packed", []))),
        message("asked for the folder above the root: refused: {refused}; the answer names the root: {named}", lang,
                refused=yes_no[answers.outside_refused], named=yes_no[answers.outside_names_root]),
    ]
    return "\n".join(lines)
