"""The MCP server's stdio wire: a line the SDK cannot read gets a JSON-RPC error, not silence.

The SDK's stdio transport (``mcp.server.stdio``) validates each line and hands the server an exception
for one it cannot read, and its dispatcher drops those: a client that sent a lone surrogate escape
(``"\\udcff"``, which Python's ``json.dumps`` writes for a file name of undecodable bytes), a line that
is no JSON, or JSON that is no JSON-RPC message, waited for its own timeout. ``run_stdio`` serves as
``MCPServer.run("stdio")`` does, and answers each such line with JSON-RPC 2.0's error for it::

    {"jsonrpc": "2.0", "id": 7, "error": {"code": -32700, "message": "Parse error: ..."}}

to the line's own ``id`` when one can be read from it, else ``null``, as JSON-RPC 2.0 says.

Not handled: a request whose ``id`` is neither a string nor an integer (``1.5``, ``{}``); the SDK reads
it as a notification, which has no reply. It uses the SDK's ``MCPServer._lowlevel_server`` (what
``run_stdio_async`` uses); an SDK without it is served by ``run("stdio")``, silence and all.
"""
from __future__ import annotations

import json

PARSE_ERROR, INVALID_REQUEST = -32700, -32600  # JSON-RPC 2.0, section 5.1


def error_reply(problem: Exception) -> dict:
    """The JSON-RPC error object for a line the SDK refused with ``problem`` (pydantic's ``ValidationError``).

    ``{"jsonrpc": "2.0", "id": 7, "error": {"code": -32700, "message": "Parse error: ..."}}``: -32700 for a
    line that is no JSON to the SDK (a lone surrogate escape too), -32600 for JSON that is no message; the
    ``id`` is the line's own when it is a string or an integer (read by Python's ``json``), else ``None``.
    """
    errors = problem.errors() if hasattr(problem, "errors") else []
    line = errors[0].get("input") if errors else None
    parse = bool(errors) and errors[0].get("type") == "json_invalid"
    said = ".".join(map(str, errors[0].get("loc", ()))) + ": " if errors and errors[0].get("loc") else ""
    said += (errors[0].get("msg") if errors else None) or type(problem).__name__
    message_id = None
    try:
        found = json.loads(line) if isinstance(line, (str, bytes)) else line
    except (ValueError, RecursionError):
        found = None
    if isinstance(found, dict) and type(found.get("id")) in (str, int):
        message_id = found["id"]
    code, kind = (PARSE_ERROR, "Parse error") if parse else (INVALID_REQUEST, "Invalid Request")
    return {"jsonrpc": "2.0", "id": message_id, "error": {"code": code, "message": f"{kind}: {said[:200]}"}}


class Answering:
    """The SDK's read stream, less the exceptions: each is answered on ``write_stream`` (``error_reply``) instead."""

    def __init__(self, read_stream, write_stream):
        self.read_stream, self.write_stream = read_stream, write_stream

    @property
    def last_context(self):  # the dispatcher runs each message in the context its sender had
        return getattr(self.read_stream, "last_context", None)

    async def receive(self):
        import anyio
        import mcp_types
        from mcp.shared.message import SessionMessage

        while True:
            item = await self.read_stream.receive()
            if not isinstance(item, Exception):
                return item
            reply = mcp_types.JSONRPCError.model_validate(error_reply(item))
            try:
                await self.write_stream.send(SessionMessage(reply))
            except (anyio.ClosedResourceError, anyio.BrokenResourceError):
                pass  # the client has gone: nobody to tell

    async def aclose(self) -> None:
        await self.read_stream.aclose()

    def __aiter__(self):
        return self

    async def __anext__(self):
        import anyio

        try:
            return await self.receive()
        except anyio.EndOfStream:
            raise StopAsyncIteration from None


def run_stdio(server) -> None:
    """Serve the SDK's ``MCPServer`` ``server`` over stdio until the client closes, as ``server.run("stdio")``
    does, answering the lines the SDK cannot read (``Answering``)."""
    import anyio
    from mcp.server.stdio import stdio_server

    lowlevel = getattr(server, "_lowlevel_server", None)
    if lowlevel is None:
        server.run("stdio")
        return

    async def serve():
        async with stdio_server() as (read_stream, write_stream):
            await lowlevel.run(Answering(read_stream, write_stream), write_stream,
                               lowlevel.create_initialization_options())

    anyio.run(serve)
