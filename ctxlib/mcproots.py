"""Where the MCP server may read: its roots, a path the model names inside them, and opening it safely.

``ctxlib mcp --root DIR`` fixes the folders at start (``check_roots``). A tool's ``path`` is resolved
inside them by name (``resolve_path``: no ``..`` out, no link below a root), then opened part by part
below its root without following a link (``open_target``), and the tool reads from that descriptor: a
folder the repository's own processes swap for a link to ``/`` between the check and the read leads
nowhere (a check by name, then a read by name, read wherever the link pointed).
"""
from __future__ import annotations

import os
from pathlib import Path

from . import safefile


class ToolInputError(ValueError):
    """An argument the model sent that cannot be used; its text is one sentence for the model to act on."""


def check_roots(roots) -> list[Path]:
    """The server's roots as resolved folders.

    Args:
        roots: folder paths (str or Path), at least one.
    Returns:
        each root with links resolved (``Path.resolve``), in the order given, duplicates dropped.
    Raises:
        ValueError: for no root, or a root that is not an existing folder (naming it).
    """
    resolved = []
    for root in roots:
        path = Path(root).expanduser().resolve()
        if not path.is_dir():
            raise ValueError(f"--root {root}: not a folder" if path.exists() else f"--root {root}: no such folder")
        if path not in resolved:
            resolved.append(path)
    if not resolved:
        raise ValueError("give at least one --root DIR: the folders the server may read")
    return resolved


def roots_text(roots) -> str:
    """The roots, for a message: ``/a, /b``."""
    return ", ".join(str(r) for r in roots)


def resolve_path(roots: list[Path], path: str | None) -> tuple[Path, Path]:
    """``(root, target)``: the folder or file ``path`` names, inside one of ``roots``.

    Args:
        roots: resolved root folders (``check_roots``).
        path: ``None`` or ``""`` for the first root; a path relative to a root (tried against each
            root in order, the first that has it wins); or an absolute path inside a root.
    Returns:
        the root holding it and the path itself (not resolved: the reader opens it without following links).
    Raises:
        ToolInputError: for a path outside every root, one that passes through a symbolic link, or one
            that does not exist; the message names the roots.
    """
    if path is None or not str(path).strip():
        return roots[0], roots[0]
    if not isinstance(path, str) or "\x00" in path:
        raise ToolInputError(f"path must be a text path inside the roots ({roots_text(roots)}), got {path!r}.")
    candidates = [Path(path)] if os.path.isabs(path) else [root / path for root in roots]
    for candidate in candidates:
        absolute = Path(os.path.abspath(candidate))  # '..' folded without touching the disk
        root = next((r for r in roots if absolute == r or r in absolute.parents), None)
        if root is None:
            continue
        here = root
        try:  # a name the system refuses (over 255 bytes: "File name too long") is no such file
            for part in absolute.relative_to(root).parts:  # no link anywhere below the root
                here = here / part
                if here.is_symlink():
                    raise ToolInputError(f"{path}: is or passes through a symbolic link; the server reads nothing "
                                         f"through links (roots: {roots_text(roots)}).")
            if absolute.exists():
                return root, absolute
        except OSError as exc:
            raise ToolInputError(f"{path:.200}: cannot be read ({exc.strerror}; "
                                 f"roots: {roots_text(roots)}).") from None
    if not any(Path(os.path.abspath(c)) == r or r in Path(os.path.abspath(c)).parents
               for c in candidates for r in roots):
        raise ToolInputError(f"{path}: is outside the roots this server may read ({roots_text(roots)}).")
    raise ToolInputError(f"{path}: no such file or folder in the roots ({roots_text(roots)}).")


def open_target(roots: list[Path], root: Path, target: Path, path) -> tuple[int, bool]:
    """``(descriptor, is a folder)``: an open descriptor of the folder ``target`` (``resolve_path``'s), or of the
    folder of the file ``target``, every part below ``root`` opened without following a link
    (``safefile.open_folder_below``). A folder swapped for a link after ``resolve_path`` looked cannot lead the
    read outside the roots: ``ToolInputError``. The caller closes the descriptor and reads relative to it."""
    parts = target.relative_to(root).parts
    try:
        fd = safefile.open_folder_below(root, parts[:-1])
        if not parts:
            return fd, True
        try:
            inner = safefile.open_nofollow(parts[-1], safefile.DIR_FLAGS, fd)
        except NotADirectoryError:
            return fd, False
        except BaseException:
            os.close(fd)
            raise
        os.close(fd)
        return inner, True
    except OSError as exc:
        why = "is or passes through a symbolic link" if isinstance(exc, safefile.Refused) else exc.strerror
        raise ToolInputError(f"{path:.200}: {why}; the server reads nothing through links (roots: "
                             f"{roots_text(roots)}).") from None
