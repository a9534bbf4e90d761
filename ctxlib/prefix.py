"""The fixed prefix, measured: the system prompt and tool schemas as a provider receives them.

Lesson 2, "The ledger instrumentation": the fixed prefix is "one call to the tokenizer against
the rendered system prompt and the serialised tool schemas", re-sent on every request, and it
drifts upward every time someone adds a tool. ``render_prefix`` builds the part of a request
body that is the same on every turn, a JSON object in the shape of a chat-completions API::

    {"messages": [{"role": "system", "content": "<system prompt>"}],
     "tools": [{"type": "function", "function": {"name": ..., "description": ..., "parameters": {...}}}]}

and ``prefix_tokens`` counts it exactly (``ctxlib.tokens.count_tokens``).

Not handled: a provider turns tool schemas into its own internal prompt format before the
model reads them, so its count differs from this one by the wrappers it adds; the JSON body is
what a harness can measure without the provider, and it grows with every schema the same way.
"""
from __future__ import annotations

import json

from .i18n import N_, WordedError, shown

from .tokens import DEFAULT_ENCODING, count_tokens


def check_tool(tool) -> dict:
    """``tool`` if it is a tool schema: a dict with a ``name``, a ``description`` and ``parameters``.

    Raises: ValueError naming the first missing key, or the value if it is not a dict.
    """
    if not isinstance(tool, dict):
        raise WordedError.of(N_("a tool schema is a dict with name, description and parameters, got {tool}"), tool=shown(tool))
    for key in ("name", "description", "parameters"):
        if key not in tool:
            raise WordedError.of(N_("tool schema {name} has no {key}"), name=shown(tool.get("name", "?")), key=shown(key))
    return tool


def render_prefix(system_prompt: str, tools) -> str:
    """The request body's fixed part: the system message and the tool schemas, as JSON text.

    Args:
        system_prompt: the harness's system prompt (text).
        tools: tool schemas, each ``{"name", "description", "parameters"}`` (a JSON Schema).
    Returns:
        the JSON text, keys in the order given, non-ASCII kept as is, one space after ``:``
        and ``,`` (``json.dumps``'s default separators). The same input gives the same text.
    Raises:
        ValueError: a tool schema lacks a key (``check_tool``), or two tools share a name.
    """
    names = [check_tool(tool)["name"] for tool in tools]
    repeated = sorted({name for name in names if names.count(name) > 1})
    if repeated:
        raise WordedError.of(N_("tool names must be unique, repeated: {names}"), names=", ".join(repeated))
    body = {"messages": [{"role": "system", "content": system_prompt}],
            "tools": [{"type": "function", "function": tool} for tool in tools]}
    return json.dumps(body, ensure_ascii=False)


def prefix_tokens(system_prompt: str, tools, encoding: str = DEFAULT_ENCODING) -> int:
    """Exact tokens of ``render_prefix(system_prompt, tools)`` in ``encoding``.

    This is the ceiling's ``fixed_prefix_tokens``, measured instead of assumed.
    Raises: as ``render_prefix`` and ``ctxlib.tokens.count_tokens``.
    """
    return count_tokens(render_prefix(system_prompt, tools), encoding)
