"""Rendering a pack: one small pure function per output format.

Lesson 3, "The hard budget". What the model reads is the rendered text, headers and
separators included, so that text, not the files, is what the budget is checked against.
Each renderer takes blocks (anything with ``path``, ``view`` and ``text``) in order and
returns one string; blocks are joined by the format's ``SEPARATORS`` entry.

    text      ==> shop/vat.py (whole) <==   then the text; a blank line between files
              (a line of a file that starts as a header does, "==> ", gets one more "=")
    markdown  ## shop/vat.py (whole)        then the text in a fenced block with its language
    json      {"files": [{"path": ..., "view": ..., "text": ...}, ...]}, one file per line
"""
from __future__ import annotations

import json
import re

SEPARATORS = {"text": "\n", "markdown": "\n", "json": ",\n"}

LANGUAGES = {
    ".py": "python", ".pyi": "python", ".md": "markdown", ".rst": "rst", ".txt": "text",
    ".toml": "toml", ".cfg": "ini", ".ini": "ini", ".json": "json", ".yml": "yaml",
    ".yaml": "yaml", ".sh": "bash", ".js": "javascript", ".ts": "typescript", ".html": "html",
    ".css": "css", ".c": "c", ".h": "c", ".cpp": "cpp", ".rs": "rust", ".go": "go", ".sql": "sql",
}


def language(path: str) -> str:
    """The Markdown fence language for ``path``: ``"shop/vat.py"`` -> ``"python"``; ``""`` if unknown."""
    dot = path.rfind(".")
    return LANGUAGES.get(path[dot:].lower(), "") if dot > path.rfind("/") else ""


def _body(text: str) -> str:
    return text if text.endswith("\n") or not text else text + "\n"


SHOWN_COPIES = 3  # a header names at most this many identical copies, then "and N more"


def _view(b) -> str:
    # "whole", or "whole; the same bytes as b.py, c.py" for a file packed once for its identical copies
    copies = getattr(b, "copies", ())
    more = f" and {len(copies) - SHOWN_COPIES} more" if len(copies) > SHOWN_COPIES else ""
    return f"{b.view}; the same bytes as {', '.join(copies[:SHOWN_COPIES])}{more}" if copies else b.view


# A file's line that starts as a header does (two or more "=", then "> ") gets one more "=", as mboxrd escapes a
# mail's "From " lines: a file cannot forge another file's header ("==> b.py (whole) <==") in the pack, and the
# line is still read back by dropping one "=". A real header is always exactly "==> ".
_HEADER_LIKE = re.compile(r"^(?===+> )", re.M)


def _escaped(text: str) -> str:
    return _HEADER_LIKE.sub("=", text) if "=> " in text else text


def render_text(blocks) -> str:
    """Plain text: ``==> path (view) <==`` above each file's text, a blank line between files; a file
    with identical copies names them: ``==> a/x.py (whole; the same bytes as b/x.py) <==``. A line of a
    file that starts like a header (``==> ``, ``===> ``...) is shown with one more ``=``, so every line
    that starts with exactly ``==> `` is a header ctxlib wrote (the rule mboxrd uses for "From " lines)."""
    return SEPARATORS["text"].join(f"==> {b.path} ({_view(b)}) <==\n{_body(_escaped(b.text))}" for b in blocks)


def render_markdown(blocks) -> str:
    """Markdown: a ``## path (view)`` heading and a fenced code block with the file's language.

    The fence is one backtick longer than the longest backtick run in the text, so a
    Markdown file with its own fences cannot close ours early.
    """
    parts = []
    for b in blocks:
        longest = max((len(run) for run in re.findall(r"`+", b.text)), default=0)
        fence = "`" * max(3, longest + 1)
        parts.append(f"## {b.path} ({_view(b)})\n\n{fence}{language(b.path)}\n{_body(b.text)}{fence}\n")
    return SEPARATORS["markdown"].join(parts)


def render_json(blocks) -> str:
    """JSON: ``{"files": [...]}`` with one ``{"path", "view", "text"}`` object per line."""
    rows = [json.dumps({"path": b.path, "view": b.view, "text": b.text,
                        **({"copies": list(b.copies)} if getattr(b, "copies", ()) else {})}, ensure_ascii=False)
            for b in blocks]
    return '{"files": [\n' + SEPARATORS["json"].join(rows) + "\n]}\n"


RENDERERS = {"text": render_text, "markdown": render_markdown, "json": render_json}


def skipped_entry(skipped, lang: str = "en") -> dict:
    """One skipped file (or note) as a report shows it to a program: ``{"path", "code", "reason"}``; for a file
    refused for a secret (code ``"secret"``), also the ``"line"`` (1-based) of the one found, so a person can judge it.

    Args:
        skipped: a ``reasons.Skipped``.
        lang: the language of ``reason`` (``"en"`` or ``"hi"``); ``code`` (a ``reasons.Reason`` value) never
            changes, so a program matches on it, not on the words. ``code`` is left out when there is none.
    Returns:
        the entry, a dict ready for JSON.
    Raises:
        ValueError: an unknown ``lang``.
    """
    code = getattr(skipped, "code", None)
    line = skipped.param("at_line") if getattr(code, "value", None) == "secret" else None
    return {"path": skipped.path, **({"code": getattr(code, "value", code)} if code is not None else {}),
            "reason": skipped.text(lang), **({"line": line} if line else {})}


def pack_report(pack, query: str, lang: str = "en") -> dict:
    """A pack's report as data (``ctxlib pack --report json``, the MCP server's ``pack``): what a harness reads.

    Args:
        pack: a ``fit.Pack``.
        query: the task text the pack was made for.
        lang: the language of each skipped file's ``reason`` (``"en"`` or ``"hi"``); ``code`` never changes.
    Returns:
        ``{"query", "budget_tokens", "used_tokens", "encoding", "files_read", "files_tokenized",
        "packed": [{"path", "view", "tokens", "score"}, + "ranges": [kept, of], + "copies": [paths]],
        "skipped": [{"path", "code", "reason"}, + "line" for a secret], "notes": [{"path", "code", "reason"}]}``
        (each ``skipped_entry``); tokens are exact counts in ``encoding``, each packed file's as its rendered
        block; ``used_tokens`` is the whole text's.
    Raises:
        ValueError: an unknown ``lang``.
    """
    return {"query": query, "budget_tokens": pack.budget_tokens, "used_tokens": pack.used_tokens,
            "encoding": pack.encoding, "files_read": pack.files_read, "files_tokenized": pack.files_tokenized,
            "packed": [{"path": c.path, "view": c.view, "tokens": c.tokens, "score": round(c.score, 4),
                        **({"ranges": list(c.ranges)} if c.ranges else {}),
                        **({"copies": list(c.copies)} if c.copies else {})} for c in pack.chosen],
            "skipped": [skipped_entry(s, lang) for s in pack.skipped],
            "notes": [skipped_entry(n, lang) for n in pack.notes]}
