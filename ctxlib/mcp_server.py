"""``ctxlib mcp``: the packer as a Model Context Protocol server, for a coding agent's harness.

Lesson 3's point, in a real harness: the harness, not the model, holds the budget. The model asks
for context ("pack the files about vat invoices into 8,000 tokens"); the server reads only inside
the roots it was started with, refuses what looks like a credential, ranks for the query and
returns a text whose exact token count is at most the budget.

Three tools, over stdio, with the official Python SDK (``mcp``, the ``[mcp]`` extra):

- ``pack(query, budget, path?, include?, exclude?, view?, encoding?)``: the packed context as the
  text result, then the report (what was packed, in which view, what was skipped and why) as a second
  text item and as structured output;
- ``rank(query, path?, top?, explain?)``: the ranking ``pack`` walks, with each signal's effect;
- ``count(paths, encoding?)``: exact token counts, per file and per folder.

The tool bodies are the plain functions ``pack_tool``, ``rank_tool`` and ``count_tool``: they take
the roots and the arguments as the model sent them, check every argument themselves (so that a
budget of "lots" gets one sentence, not a validation dump) and raise ``ToolInputError``. Secrets are
refused as ``ctxlib pack`` refuses them, and no argument turns that off.

Not handled: roots are fixed when the server starts (the protocol's roots capability is not read),
and only stdio is served. The module does not use ``from __future__ import annotations``: the SDK
reads the tools' annotations (their JSON schemas) at run time, and they are local to ``build_server``.
"""

import json
import os
import sys
from pathlib import Path

from .i18n import N_
from . import tokens  # the rest of the library is imported by the tools, so `ctxlib count` starts as fast
from .mcproots import ToolInputError, check_roots, open_target, resolve_path  # noqa: F401 (the server's names too)
from .mcproots import roots_text as _roots_text

MAX_BUDGET_TOKENS = 2_000_000  # ten times the largest context window of 2026; a larger ask is a mistake
MAX_TOP = 1_000
MAX_PATTERNS = 1_000  # include or exclude patterns of one call; a .gitignore of a large repository has ~200
MAX_COUNT_PATHS = 100  # each folder named is read whole: 100,000 "." read the tree 100,000 times
SHOWN_DIGITS = 30  # a longer number in an error is told by its length
PROGRESS_EVERY_FILES = 200  # a progress notification per this many files read


def _sentence(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return text if text.endswith(".") else text + "."


def _open_folder(roots, root: Path, target: Path, path, tool: str) -> int:
    """``open_target``'s descriptor of the folder ``target``; ``ToolInputError`` for a file (``tool`` reads folders)."""
    fd, folder = open_target(roots, root, target, path)
    if not folder:
        os.close(fd)
        raise ToolInputError(f"{path}: is a file; {tool} reads a folder (roots: {_roots_text(roots)}).")
    return fd


def check_budget_arg(budget) -> int:
    """``budget`` as a whole number of tokens, or ``ToolInputError`` naming the value.

    A text of decimal digits is read as one ("8000"); ``str.isdigit`` also passed "²", which ``int``
    refuses, and ``int`` refuses text of more than 4,300 digits: each was a ``ValueError`` that named
    no budget. A number of more than ``SHOWN_DIGITS`` digits is told by its length, not printed whole."""
    if isinstance(budget, bool) or not isinstance(budget, int):
        if isinstance(budget, float) and budget.is_integer():
            budget = int(budget)
        elif isinstance(budget, str) and budget.strip().isdecimal():
            digits = budget.strip().lstrip("0") or "0"
            if len(digits) > SHOWN_DIGITS:
                raise ToolInputError(f"budget must be between 1 and {MAX_BUDGET_TOKENS:,} tokens; "
                                     f"got a number of {len(digits):,} digits.")
            budget = int(digits)
        else:
            raise ToolInputError(f"budget must be a whole number of tokens, such as 8000; got {budget!r:.200}.")
    if budget < 1 or budget > MAX_BUDGET_TOKENS:
        shown = f"{budget:,}" if budget < 10 ** SHOWN_DIGITS else f"a number of more than {SHOWN_DIGITS} digits"
        raise ToolInputError(f"budget must be between 1 and {MAX_BUDGET_TOKENS:,} tokens; got {shown}.")
    return budget


MAX_QUERY_CHARS = 100_000  # a task in words: a long pasted issue is ~20,000


def _check_text(name: str, value, *, required: bool = True) -> str:
    if value is None and not required:
        return ""
    if not isinstance(value, str) or (required and not value.strip()):
        raise ToolInputError(f"{name} must be non-empty text describing the task; got {value!r:.200}.")
    if len(value) > MAX_QUERY_CHARS:  # a 20 MB query took 1 GB
        raise ToolInputError(f"{name} must be at most {MAX_QUERY_CHARS:,} characters; got {len(value):,}.")
    return value


def _check_patterns(name: str, value) -> list[str]:
    """``include`` or ``exclude`` as a list of patterns; ``ToolInputError`` for anything else, or more than
    ``MAX_PATTERNS`` (each is compiled: a million took ~80 s), named bounded (``i18n.shown``: the ``repr`` of an
    int of 5,000 digits or a list nested 200,000 deep raised ValueError or RecursionError in place of this)."""
    from .i18n import shown

    if value is None:
        return []
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise ToolInputError(f"{name} must be a list of gitignore-style patterns such as [\"*.py\"]; "
                             f"got {shown(value)}.")
    if len(value) > MAX_PATTERNS:
        raise ToolInputError(f"{name} takes at most {MAX_PATTERNS:,} patterns; got {len(value):,}.")
    return value


def _check_choice(name: str, value, choices) -> str:
    if value not in choices:
        raise ToolInputError(f"{name} must be one of {', '.join(choices)}; got {value!r}.")
    return value


def _recent(target: Path, fd: int) -> tuple[list, dict]:
    """What ``--history`` gives ``pack`` and ``rank`` for the folder ``target``: its last commits
    (``safegit.recent_commits``, as ``ctxlib pack --history`` reads them) and the report's ``history`` entry,
    ``{"commits": N}``, or ``{"commits": 0, "why": "..."}`` for a folder whose history cannot be read (not the
    top folder of a git working copy, a refused ``.git``): ranked without it. Raises nothing."""
    from . import history, recent, safegit

    try:
        commits = safegit.recent_commits(target, recent.HISTORY_COMMITS, root_fd=fd)  # read through fd, not the name
    except history.HistoryError as exc:
        return [], {"commits": 0, "why": _sentence(exc)}
    return commits, {"commits": len(commits)}


def pack_tool(roots: list[Path], query, budget, path=None, include=None, exclude=None, view="auto",
              encoding=tokens.DEFAULT_ENCODING, progress=None, history: bool = False) -> tuple[str, dict]:
    """The ``pack`` tool: ``(packed text, report)``.

    Args:
        roots: the server's resolved roots.
        query: the task in words, e.g. ``"vat invoice rounding"``.
        budget: the hard limit in tokens of ``encoding`` for the whole returned text.
        path: a folder inside a root (default: the first root).
        include, exclude: gitignore-style patterns, as ``ctxlib pack --include/--exclude``.
        view: ``"auto"``, ``"whole"``, ``"signatures"`` or ``"ranges"`` (``fit.VIEW_LADDERS``).
        encoding: ``"o200k_base"`` or ``"cl100k_base"``.
        progress: optional callable, called with the number of files read so far.
        history: rank by the folder's last commits too (the server's ``--history``; ``_recent``).
    Returns:
        the text ``ctxlib pack`` would print (``tokens.count_tokens(text, encoding) <= budget``) and a
        report ``{"root", "path"}`` and ``render.pack_report``'s (``"query"``, the tokens, ``"packed"``,
        ``"skipped"`` with each reason's ``"code"``...), with ``"history"`` when ``history`` is on.
    Raises:
        ToolInputError: for any argument that cannot be used, or when nothing fits (one sentence).
    """
    from . import fit, render

    query = _check_text("query", query)
    budget = check_budget_arg(budget)
    view = _check_choice("view", view, list(fit.VIEW_LADDERS))
    encoding = _check_choice("encoding", encoding, sorted(tokens.ENCODINGS))
    include, exclude = _check_patterns("include", include), _check_patterns("exclude", exclude)
    root, target = resolve_path(roots, path)
    fd = _open_folder(roots, root, target, path, "pack")
    commits, used = _recent(target, fd) if history else ([], None)  # once the folder is known to be inside a root
    seen = [0]

    def tick(n=1):
        seen[0] += n
        if progress is not None and seen[0] % PROGRESS_EVERY_FILES == 0:
            progress(seen[0])

    try:
        pack = fit.pack_repository(target, query, budget, encoding=encoding, view=view, include=include,
                                   exclude=exclude, include_secrets=False, progress=tick, root_fd=fd, history=commits)
    except ValueError as exc:
        raise ToolInputError(_sentence(exc)) from None
    finally:
        os.close(fd)
    shown = str(target.relative_to(root)) if target != root else "."
    report = {"root": str(root), "path": shown, **render.pack_report(pack, query)}
    if used is not None:
        report["history"] = used
    return pack.text, report


def format_report(report: dict, listed: int = 20) -> str:
    """The ``pack`` report as a few lines a model (or a person) reads: packed files, skips, the total."""
    lines = [f"packed {len(report['packed'])} files from {report['path']} for {report['query']!r}: "
             f"{report['used_tokens']:,} of {report['budget_tokens']:,} tokens ({report['encoding']})"]
    lines += [f"  {p['tokens']:>7,}  {p['view']:<10}  {p['path']}" for p in report["packed"]]
    if report["skipped"]:
        lines.append(f"skipped {len(report['skipped'])} files, e.g.:")
        lines += [f"  {s['path']}: {s['reason']}" for s in report["skipped"][:listed]]
    return "\n".join(lines)


def rank_tool(roots: list[Path], query, path=None, top=20, explain=False, history: bool = False,
              include=None, exclude=None) -> dict:
    """The ``rank`` tool: the files ``pack`` would walk, best first, with each signal's effect.

    Args:
        roots: the server's resolved roots.
        query: the task in words.
        path: a folder inside a root (default: the first root).
        top: how many files to list, 1 to ``MAX_TOP``.
        explain: also give each file's BM25 part and signals (``ranking.explain_ranked``).
        history: rank by the folder's last commits too, as ``pack_tool``.
        include, exclude: gitignore-style patterns, as ``pack_tool``'s (and ``ctxlib rank --include/--exclude``).
    Returns:
        ``{"query_terms", "files": [{"path", "score", "kind", ...}]}`` (and ``"history"`` when ``history`` is
        on, as ``pack_tool``'s report); files scoring 0 are left out.
    Raises:
        ToolInputError: for any argument that cannot be used.
    """
    from . import ranking, repo

    query = _check_text("query", query)
    if isinstance(top, bool) or not isinstance(top, int) or not 1 <= top <= MAX_TOP:
        # repr of 5,000 digits raised "Exceeds the limit (4300 digits)"; a long list was printed whole
        huge = isinstance(top, int) and abs(top) >= 10 ** SHOWN_DIGITS
        shown = f"a number of more than {SHOWN_DIGITS} digits" if huge else f"{top!r:.200}"
        raise ToolInputError(f"top must be a whole number from 1 to {MAX_TOP:,}; got {shown}.")
    if not isinstance(explain, bool):
        raise ToolInputError(f"explain must be true or false; got {explain!r}.")
    include, exclude = _check_patterns("include", include), _check_patterns("exclude", exclude)
    root, target = resolve_path(roots, path)
    fd = _open_folder(roots, root, target, path, "rank")
    commits, used = _recent(target, fd) if history else ([], None)  # once the folder is known to be inside a root
    try:
        files = {f.path: f.text for f in repo.read_repo(target, root_fd=fd, include=include, exclude=exclude).files}
    finally:
        os.close(fd)
    try:
        cleaned = ranking.clean_query(query, files)
        ranked = ranking.rank_files(files, cleaned, history=commits)
    except ValueError as exc:
        raise ToolInputError(_sentence(exc)) from None
    rows = []
    for r in ranked:
        if r.score <= 0 or len(rows) >= top:
            continue
        row = {"path": r.path, "score": round(r.score, 4), "kind": r.kind}
        if explain:
            row["bm25"] = round(r.bm25, 4)
            row["signals"] = [{"signal": s, "effect": e} for s, e in r.effects]
        rows.append(row)
    return {"query_terms": list(cleaned.terms), "files": rows, **({"history": used} if used is not None else {})}


def count_tool(roots: list[Path], paths, encoding=tokens.DEFAULT_ENCODING) -> dict:
    """The ``count`` tool: exact token counts per file, and totals per folder named.

    Args:
        roots: the server's resolved roots.
        paths: files or folders inside the roots (a list of text paths, at least one).
        encoding: ``"o200k_base"`` or ``"cl100k_base"``.
    Returns:
        ``{"encoding", "files": [{"path", "tokens", "characters"}], "folders": [{"path", "tokens",
        "files"}], "skipped": [{"path", "code", "reason"}] (``render.skipped_entry``), "total_tokens"}``; a folder is read as ``pack``
        reads it (``.gitignore``, binaries, size cap, credentials skipped). A path named twice is read
        once, and ``total_tokens`` counts each file once, also one named alone and inside a folder named
        (``[".", "."]`` said twice the tree's tokens).
    Raises:
        ToolInputError: for no path, more than ``MAX_COUNT_PATHS``, a path outside the roots or through a
            link, or a bad encoding.
    """
    from . import repo
    from .render import skipped_entry

    encoding = _check_choice("encoding", encoding, sorted(tokens.ENCODINGS))
    if isinstance(paths, str):
        paths = [paths]
    if not isinstance(paths, list) or not paths or not all(isinstance(p, str) for p in paths):
        raise ToolInputError(f"paths must be a list of one or more files or folders in the roots; got {paths!r:.200}.")
    if len(paths) > MAX_COUNT_PATHS:
        raise ToolInputError(f"paths must name at most {MAX_COUNT_PATHS} files or folders; got {len(paths):,}.")
    files, folders, skipped, seen = [], [], [], set()
    for path in paths:
        root, target = resolve_path(roots, path)
        if target in seen:
            continue
        seen.add(target)
        shown = str(target.relative_to(root)) if target != root else "."
        fd, folder = open_target(roots, root, target, path)
        try:
            found = repo.read_repo(target, root_fd=fd) if folder else repo.read_file(
                target.name, shown, repo.MAX_FILE_BYTES, dir_fd=fd)
        finally:
            os.close(fd)
        if isinstance(found, repo.Repo):
            under = (lambda rel: f"{shown}/{rel}") if shown != "." else (lambda rel: rel)
            rows = [{"path": under(f.path),
                     "tokens": tokens.count_tokens(f.text, encoding), "characters": len(f.text)}
                    for f in found.files]
            files += rows
            folders.append({"path": shown, "tokens": sum(r["tokens"] for r in rows), "files": len(rows)})
            skipped += [{**skipped_entry(s), "path": under(s.path)} for s in found.skipped]
        else:
            found, remark = found
            if found is not None:
                files.append({"path": shown, "tokens": tokens.count_tokens(found.text, encoding),
                              "characters": len(found.text)})
            if remark is not None and found is None:
                skipped.append(skipped_entry(remark))
    once = {f["path"]: f["tokens"] for f in files}  # a file inside a folder also named alone: counted once
    return {"encoding": encoding, "files": files, "folders": folders, "skipped": skipped,
            "total_tokens": sum(once.values())}


PACK_DESCRIPTION = (
    "Pack the repository files most relevant to a task into a hard token budget. Returns the packed "
    "context (file headers and contents, whole files, signatures or the line ranges around the query's "
    "hits), whose exact token count is at most `budget`, then a report of what was packed and what was "
    "skipped and why. Files that look like credentials are always refused. Use it before editing code: "
    "ask for the context of the task in the task's own words.")
RANK_DESCRIPTION = (
    "Rank a repository's files for a task, best first, as `pack` walks them: BM25 over code-aware terms "
    "plus named signals (definitions, file names, tests, imports). With explain, each signal's effect. "
    "Reads nothing but the ranking: use it to see why a file was or was not packed.")
COUNT_DESCRIPTION = (
    "Count tokens exactly (tiktoken) for files or folders inside the roots: per file, and a total per "
    "folder (read as `pack` reads them: .gitignore, binaries and credentials skipped).")


def build_server(roots, history: bool = False):
    """An ``MCPServer`` (the SDK's) with the three tools bound to ``roots``; ``history``: ``pack`` and ``rank`` rank
    by a folder's last commits too (``_recent``). Raises ``ValueError`` for bad roots."""
    from typing import Annotated

    import anyio
    import anyio.from_thread
    from mcp.server.mcpserver import Context, MCPServer
    from mcp.server.mcpserver.exceptions import ToolError
    from mcp.types import CallToolResult, TextContent, ToolAnnotations
    from pydantic import WithJsonSchema

    from . import fit

    roots = check_roots(roots)
    server = MCPServer("ctxlib", instructions=(
        "ctxlib packs a repository's most relevant files into a hard token budget. Call `pack` with the "
        f"task and a budget to get context; `rank` to see the order; `count` for exact sizes. Roots: "
        f"{_roots_text(roots)}."))
    read_only = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True,
                                open_world_hint=False)

    def loose(schema: dict):  # the schema the model sees; the tool body checks the value itself
        return WithJsonSchema(schema)

    Query = Annotated[object, loose({"type": "string", "description": "the task in words, e.g. 'vat invoice rounding'"})]
    Budget = Annotated[object, loose({"type": "integer", "minimum": 1, "maximum": MAX_BUDGET_TOKENS,
                                      "description": "hard limit in tokens for the whole returned text"})]
    SubPath = Annotated[object, loose({"type": "string", "description": "a folder inside a root (default: the first root)"})]
    Patterns = Annotated[object, loose({"type": "array", "items": {"type": "string"},
                                        "description": "gitignore-style patterns, e.g. ['*.py', 'src/']"})]
    View = Annotated[object, loose({"type": "string", "enum": list(fit.VIEW_LADDERS), "default": "auto",
                                    "description": "auto: whole file, else signatures, else hit ranges"})]
    Encoding = Annotated[object, loose({"type": "string", "enum": sorted(tokens.ENCODINGS),
                                        "default": tokens.DEFAULT_ENCODING})]
    Top = Annotated[object, loose({"type": "integer", "minimum": 1, "maximum": MAX_TOP, "default": 20})]
    Explain = Annotated[object, loose({"type": "boolean", "default": False})]
    Paths = Annotated[object, loose({"type": "array", "items": {"type": "string"}, "minItems": 1,
                                     "description": "files or folders inside the roots"})]

    async def run(work, ctx: Context | None = None):
        try:
            return await anyio.to_thread.run_sync(work)
        except ToolInputError as exc:
            raise ToolError(str(exc)) from None
        except (OSError, ValueError, RecursionError) as exc:  # the library's one-line errors
            raise ToolError(_sentence(exc)) from None

    @server.tool(name="pack", description=PACK_DESCRIPTION, annotations=read_only, structured_output=False)
    async def pack(query: Query, budget: Budget, ctx: Context, path: SubPath = None, include: Patterns = None,
                   exclude: Patterns = None, view: View = "auto", encoding: Encoding = tokens.DEFAULT_ENCODING):
        def progress(files_read: int) -> None:
            anyio.from_thread.run(ctx.report_progress, files_read, None, f"{files_read:,} files read")

        text, report = await run(lambda: pack_tool(roots, query, budget, path, include, exclude, view, encoding,
                                                   progress=progress, history=history))
        return CallToolResult(content=[TextContent(type="text", text=text),
                                       TextContent(type="text", text=format_report(report))],
                              structured_content=report)

    @server.tool(name="rank", description=RANK_DESCRIPTION, annotations=read_only, structured_output=False)
    async def rank(query: Query, path: SubPath = None, top: Top = 20, explain: Explain = False,
                   include: Patterns = None, exclude: Patterns = None):
        result = await run(lambda: rank_tool(roots, query, path, top, explain, history, include, exclude))
        return CallToolResult(content=[TextContent(type="text", text=json.dumps(result, indent=1))],
                              structured_content=result)

    @server.tool(name="count", description=COUNT_DESCRIPTION, annotations=read_only, structured_output=False)
    async def count(paths: Paths, encoding: Encoding = tokens.DEFAULT_ENCODING):
        result = await run(lambda: count_tool(roots, paths, encoding))
        return CallToolResult(content=[TextContent(type="text", text=json.dumps(result, indent=1))],
                              structured_content=result)

    return server


def cmd_mcp(args) -> int:
    """``ctxlib mcp --root DIR ...``: serve the tools over stdio until the client closes; returns 0."""
    from .cli import UsageError

    try:
        import mcp  # noqa: F401  (the SDK: the [mcp] extra)
    except ModuleNotFoundError:
        raise UsageError("mcp: the Model Context Protocol SDK is not installed; "
                         "install it from the course's folder with: pip install '.[mcp]'") from None
    server = build_server(args.root, history=args.history)
    print(f"ctxlib mcp: serving pack, rank and count over stdio; roots: {_roots_text(check_roots(args.root))}",
          file=sys.stderr)
    from .mcpwire import run_stdio

    run_stdio(server)  # server.run("stdio"), and a line the SDK cannot read gets a JSON-RPC error
    return 0


def add_mcp_parser(sub) -> None:
    """Add ``mcp`` to the ``ctxlib`` subparsers ``sub`` (an entry point of the ``ctxlib.commands`` group)."""
    p = sub.add_parser(
        "mcp",
        help=N_("serve pack, rank and count to an agent over the Model Context Protocol (stdio)"),
        description=N_("A Model Context Protocol server over stdio: an agent's harness calls pack (a query "
                       "packed into a hard token budget), rank and count. Nothing outside the roots is read, "
                       "through links or otherwise; credentials are always refused. Needs the [mcp] extra."),
    )
    p.add_argument("--root", action="append", required=True, metavar="DIR",
                   help=N_("a folder the server may read; repeatable (the first is the default for 'path')"))
    p.add_argument("--history", action="store_true",
                   help=N_("pack and rank also rank by the last commits of a folder that is the top of a git working "
                           "copy, as 'ctxlib pack --history' does (git reads its objects and refs, never its config)"))
    p.set_defaults(func=cmd_mcp)
