"""Reading a repository: which files a context builder may look at, and why others are skipped.

Lesson 3, "Reading a real repository". ``read_repo`` walks a directory and returns plain
data: the readable text files, and every file or folder it left out with the reason.

- ``.gitignore`` files at every level, with git's own pattern rules (``pathspec``); a
  nested ``.gitignore`` speaks only for its own folder, and a deeper ``!pattern`` can
  re-include what a shallower one ignored, as in git.
- Default excludes a repository rarely lists: ``.git``, caches, ``node_modules``, and
  virtual environments under any name (a folder holding ``pyvenv.cfg``).
- Binary files (a NUL byte in the first 8 KiB) and files above ``max_file_bytes``; once the files read
  hold ``max_tree_bytes`` (1 GiB), the rest are listed, not read: their texts would be held in memory.
- Every folder and file is opened once, relative to an open descriptor of its folder and
  without following a link (``O_NOFOLLOW``); what is checked (type, size) is the open file's
  (``fstat``). A name swapped for a link to ``/etc/shadow`` while the walk runs is refused as a
  link: nothing outside the root is ever read, whatever changes on disk meanwhile.
- Only regular files are read (``safefile.read_regular_file``): FIFOs, devices and sockets
  are skipped with a reason, never opened for a blocking read.
- Patterns (``.gitignore``, ``exclude``, ``include``) are matched in time linear in the name
  (``ignore.py``); a pattern that can match nothing (``"["``) in ``include``/``exclude`` is an error.
- A file or folder the reader may not open (permission denied) is skipped with the reason,
  and the walk goes on.
- Every name is matched against each ignore file that applies to it, those of all the folders
  above it, and each match scans the whole path: a chain of 2,000 folders each with a ``.gitignore``
  took 226 s to walk, 3,000 folders under 64 of them 33 s. So a folder whose own ``.gitignore`` would
  make more than ``MAX_IGNORE_FILES`` apply (the ``--exclude`` list counts as one; real trees have a
  few), and a folder whose path is longer than ``MAX_PATH_BYTES`` (Linux's ``PATH_MAX``: git cannot
  check such a path out), are not read, and are reported.
- Bytes that are not UTF-8 are replaced with U+FFFD and the file is noted, not dropped.
- Credentials are never returned unless asked: dotenv files, private keys and the credential
  files of common tools (kubeconfig, registry auth, cloud and database clients) by name here
  (``credentials.credential_file_pattern``). Contents are judged by ``credential_in_text``, with gitleaks' rules
  (``credentials.py``); the packer applies it to every text before it could be packed, not
  to every file here: scanning all 37 MB of the standard library takes ~1.1 s, ten times the read.
- Names that cannot be printed as they are (bytes that are not UTF-8, a newline, an escape
  sequence) are shown escaped, ``bad\\xff.py``, ``two\\nlines.py``, and a literal backslash then
  doubled, so two names never show alike (``display_path``).

Order is deterministic: sorted POSIX-style paths relative to the root.
Not handled: ``.git/info/exclude``, the global gitignore, ``.gitattributes``, submodules.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

import pathspec

from . import credentials, identical, ignore, safefile
from .ceiling import is_whole_number, shown_count
from .i18n import N_, WordedError, os_problem, shown
from .reasons import Reason, Skipped

MAX_FILE_BYTES = 1_048_576  # 1 MiB: larger text files are usually data or generated code
BINARY_SNIFF_BYTES = 8192  # git's own test for "binary": a NUL byte near the start
MAX_IGNORE_FILES = 32  # .gitignore files (and the --exclude list) that may apply to one folder
MAX_PATH_BYTES = 4096  # a folder's path below the root, as Linux's PATH_MAX bounds a path git can check out
# All files' bytes: a tree's texts are held in memory (~1.7x their size), so a hostile or huge tree must not take it all.
# 1 GiB is 27 times the standard library's 37 MB; files after that many bytes are listed, not read.
MAX_TREE_BYTES = 1 << 30
MAX_TREE_ENTRIES = 1_000_000  # files and folders a walk lists: 500,000 empty files took 13 s and 377 MB, unbounded

DEFAULT_EXCLUDED_DIRS = {
    ".git": N_("version control data"), ".hg": N_("version control data"), ".svn": N_("version control data"),
    "__pycache__": N_("cache"), ".mypy_cache": N_("cache"), ".pytest_cache": N_("cache"), ".ruff_cache": N_("cache"),
    ".hypothesis": N_("cache"), ".ipynb_checkpoints": N_("cache"), ".tox": N_("test environments"),
    ".nox": N_("test environments"), "node_modules": N_("installed packages"),
    ".venv": N_("virtual environment"), "venv": N_("virtual environment"), "env": N_("virtual environment"),
}
VENV_MARKERS = ("pyvenv.cfg", "conda-meta")  # a folder holding one of these is an environment
# Names too common to exclude without a marker: the standard library has a ``venv`` package.
_ENV_DIRS_NEED_MARKER = {"venv", "env"}

CREDENTIAL_PATTERNS = credentials.CREDENTIAL_FILE_PATTERNS  # gitignore syntax; see credentials.py


@dataclass(frozen=True)
class RepoFile:
    """One readable text file: its POSIX path relative to the root, its text and its size in bytes."""

    path: str
    text: str
    size_bytes: int


@dataclass
class Repo:
    """What ``read_repo`` found: readable files, skipped paths, and notes (e.g. replaced bytes); ``texts``
    makes files with the same text share one string (``identical.SharedTexts``)."""

    root: Path
    files: list[RepoFile] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    notes: list[Skipped] = field(default_factory=list)
    texts: identical.SharedTexts = field(default_factory=identical.SharedTexts, repr=False, compare=False)
    bytes_read: int = 0  # of the files read, before decoding
    entries_listed: int = 0  # files, folders and the rest, in the folders listed (at most MAX_TREE_ENTRIES)


def credential_file_reason(path: str) -> Skipped | None:
    """Why the file name ``path`` looks like a credential (``Reason.CREDENTIAL_FILE``), or ``None``.

    ``str(credential_file_reason("deploy/.env.prod"))`` -> ``"looks like a credential file (.env.*)"``,
    naming the rule in ``credentials.CREDENTIAL_FILE_PATTERNS`` that matched (or gitleaks' rule
    for a file name); ``credential_file_reason(".env.example")`` -> ``None`` (a template holds no secrets).
    """
    pattern = credentials.credential_file_pattern(path)
    return None if pattern is None else Skipped.of(path, Reason.CREDENTIAL_FILE, pattern=pattern)


def credential_in_text(text: str, path: str = "") -> Skipped | None:
    """Why ``text`` looks like it holds a secret, by gitleaks' rules (``credentials.py``), or ``None``.

    Args:
        text: a file's contents.
        path: its name, for the few rules that hold only for some file types.
    Returns:
        a ``Skipped`` for ``path`` with ``Reason.SECRET`` (``detector="gitleaks: aws-access-token"`` for a line
        with an ``AKIA...`` key id, ``str()`` ``"holds a secret (gitleaks: aws-access-token)"``; ``at_line``, the
        line of the secret found, for the report), else ``None``. About 0.03 microseconds per character on source code.
    """
    found = credentials.find_secrets(text, path, first_only=True)
    return Skipped.of(path, Reason.SECRET, detector=f"gitleaks: {found[0].rule}", at_line=found[0].line) if found else None


def display_path(name: str) -> str:
    """``name`` as it can be printed: undecodable bytes as ``\\xff``, control characters escaped.

    ``display_path("a\\udcff.py")`` -> ``"a\\\\xff.py"`` (the byte 0xff that is not UTF-8);
    ``display_path("x\\ny.py")`` -> ``"x\\\\ny.py"``. A printable name without a backslash comes back
    unchanged; in any other name a backslash is doubled, so that the file literally named
    ``a\\xff.py`` (``"a\\\\\\\\xff.py"`` shown) and the one with the byte 0xff stay two files.
    """
    if name.isprintable() and "\\" not in name:
        return name
    out = []
    for ch in name:
        code = ord(ch)
        if ch == "\\":
            out.append("\\\\")
        elif 0xDC80 <= code <= 0xDCFF:  # a byte os.fsdecode could not decode (surrogateescape)
            out.append(f"\\x{code - 0xDC00:02x}")
        elif ch.isprintable():
            out.append(ch)
        else:
            out.append(ch.encode("unicode_escape", "backslashreplace").decode("ascii"))
    return "".join(out)


def _excluded_dir_reason(name: str, parent_fd: int) -> str | None:
    """The name of the kind of folder ``name`` (in the open folder ``parent_fd``) is excluded as by
    default (``"cache"``), or ``None``."""
    reason = DEFAULT_EXCLUDED_DIRS.get(name)
    has_marker = any(safefile.lexists(os.path.join(name, marker), parent_fd) for marker in VENV_MARKERS)
    if reason and (name not in _ENV_DIRS_NEED_MARKER or has_marker):
        return reason
    if has_marker:
        return DEFAULT_EXCLUDED_DIRS[".venv"]
    return None


def _ignored(rel: str, is_dir: bool, specs: list[tuple[str | None, pathspec.GitIgnoreSpec]]) -> Reason | None:
    # Git's rule: every .gitignore from the root down to the file's folder is consulted, and the last pattern
    # that matches decides; a deeper file overrides a shallower one. Base None: the root's --exclude patterns.
    decision = None
    for base, spec in specs:
        result = spec.check_file(rel[len(base or ""):] + ("/" if is_dir else ""))
        if result.include is not None:
            decision = result.include and (Reason.IGNORED if base is not None else Reason.EXCLUDED)
    return decision or None


def read_file(path, rel: str, max_file_bytes: int, dir_fd: int | None = None
              ) -> tuple[RepoFile | None, Skipped | None]:
    """Read one file: ``(file, None)``; ``(None, why)`` if skipped (binary, too big, not a
    regular file, a symbolic link, unreadable); ``(file, note)`` if undecodable bytes were replaced.

    ``path`` is opened once, without following a link, relative to the open folder ``dir_fd``
    when given (``safefile.read_regular_file``); the checks are the open file's.
    """
    try:
        data = safefile.read_regular_file(path, max_file_bytes, dir_fd=dir_fd)
    except safefile.Refused as exc:
        return None, exc.skipped(rel)
    except OSError as exc:
        return None, Skipped.of(rel, Reason.CANNOT_READ, problem=os_problem(exc))
    return decode_file(rel, data)


def decode_file(rel: str, data: bytes) -> tuple[RepoFile | None, Skipped | None]:
    """``read_file``'s verdict on bytes already read: binary (a NUL in the first 8 KiB), UTF-8, or
    UTF-8 with undecodable bytes replaced (and a note)."""
    if b"\x00" in data[:BINARY_SNIFF_BYTES]:
        return None, Skipped.of(rel, Reason.BINARY)
    try:
        return RepoFile(rel, data.decode("utf-8"), len(data)), None
    except UnicodeDecodeError as exc:
        note = Skipped.of(rel, Reason.NOT_UTF8, offset=exc.start)
        return RepoFile(rel, data.decode("utf-8", errors="replace"), len(data)), note


def _spec(patterns, what: str) -> pathspec.GitIgnoreSpec | None:
    if isinstance(patterns, str):
        raise WordedError.of(N_("{what} must be a list of patterns, got the string {value}; try [{value}]"), what=what, value=shown(patterns))
    patterns = list(patterns)
    try:
        spec = ignore.compile_patterns(patterns) if patterns else None
    except ValueError as exc:
        raise WordedError.of(N_("{what}: not a gitignore-style pattern list ({error})"), what=what, error=str(exc)) from None
    # A pattern that matches nothing left every file out (--include) or nothing (--exclude) without a word, and
    # the pack then said "no file matches the query": each such pattern is named, with git's reason.
    read = [(line, None) for line in patterns if not line]  # pathspec drops "" (and keeps "  " as no pattern)
    for line, include in read + [(p.pattern, p.include) for p in (spec.patterns if spec else ())]:
        if include is not None:
            continue
        if not line.strip() or line.startswith("#"):
            why = N_("{what}: the pattern {line!r} matches no file name: git reads a blank line, or one that starts "
                     "with '#', as no pattern (write '\\#' for the character)")
        elif "[" in line:
            why = N_("{what}: the pattern {line!r} can match no file name (git reads an unclosed '[' so; write '\\[' "
                     "for the character)")
        else:
            why = N_("{what}: the pattern {line!r} can match no file name")
        raise WordedError.of(why, what=what, line=line)
    if what == "include" and spec and all(p.include is False for p in spec.patterns):
        raise WordedError.of(N_("{what}: {line!r} only takes back what an earlier pattern matched, so no file "
                                "matches; to leave files out, use --exclude"), what=what, line=patterns[0])
    return spec


def read_repo(root, *, max_file_bytes: int = MAX_FILE_BYTES, include_secrets: bool = False,
              exclude=(), include=(), progress=None, root_fd: int | None = None,
              max_tree_bytes: int = MAX_TREE_BYTES) -> Repo:
    """Walk ``root`` and read every text file a context builder may use.

    Args:
        root: a directory (str or Path).
        max_file_bytes: size cap in bytes; larger files are skipped (default 1 MiB).
        include_secrets: read credential-looking files too (default: skip them).
        exclude: extra gitignore-style patterns, read as if from a ``.gitignore`` at the
            root, e.g. ``["site-packages/"]``.
        include: gitignore-style patterns; when given, only files matching one of them are
            read (``["*.py", "docs/"]``); the others are skipped as "not matched by --include".
        progress: optional callable, called with 1 after each file is read (a progress bar).
        root_fd: an open descriptor of ``root`` to read from instead of opening ``root`` by name (the MCP
            server opens each part below its root without following links: ``safefile.open_folder_below``);
            not closed.
        max_tree_bytes: once the files read hold this many bytes in all (default ``MAX_TREE_BYTES``, 1 GiB),
            the files after them in the walk's order are skipped as ``Reason.TREE_FULL``, unread (the last
            file read may pass it by at most ``max_file_bytes``).
    Returns:
        a ``Repo``: ``files`` and ``skipped`` sorted by path, ``notes`` for files whose undecodable bytes were replaced.
        Ignored folders are reported once (``"vendor/"``); past ``MAX_TREE_ENTRIES`` entries, folders go unlisted.
        Paths are POSIX-style and printable (``display_path``).
    Raises:
        ValueError: if ``root`` is not a directory, ``max_file_bytes`` or ``max_tree_bytes`` is not positive, or a
            pattern list is a bare string or holds a pattern that can match nothing (``"["``).
    """
    root = Path(root)
    for name, value in (("max_file_bytes", max_file_bytes), ("max_tree_bytes", max_tree_bytes)):
        if not is_whole_number(value, 1):
            raise WordedError.of(N_("{name} must be a positive whole number of bytes, got {value}"), name=name, value=shown_count(value))
    excluded, included = _spec(exclude, "exclude"), _spec(include, "include")
    try:  # the root itself may be a link (the user named it); nothing under it is followed
        root_fd = os.dup(root_fd) if root_fd is not None else os.open(
            root, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        raise WordedError.of(N_("{root}: not a directory") if os.path.lexists(root) else N_("{root}: no such directory"),
                             root=str(root)) from None
    repo = Repo(root=root)
    try:
        _walk(root, root_fd, [(None, excluded)] if excluded else [], included, repo, (max_file_bytes, max_tree_bytes),
              include_secrets, progress)
    finally:
        os.close(root_fd)
    repo.files.sort(key=lambda f: f.path)
    # A .gitignore that cannot be read is said when its rules are read, and again when it is read as a file: once.
    repo.skipped = sorted(dict.fromkeys(repo.skipped), key=lambda s: s.path)
    repo.notes.sort(key=lambda s: s.path)
    return repo


def _gitignore_spec(lines: list[str], name: str, repo: Repo):
    """The spec for one ``.gitignore``; a line pathspec cannot read, or one past ``ignore.MAX_PATTERNS``, is left out
    and noted."""
    lines, cut = ignore.first_patterns(lines)
    if cut:
        repo.notes.append(Skipped.of(name, Reason.PATTERNS_CUT, most=ignore.MAX_PATTERNS, cut=cut))
    try:
        return ignore.compile_patterns(lines)
    except ValueError:  # pathspec's GitWildMatchPatternError, e.g. a lone "!"
        good = []
        for number, line in enumerate(lines, 1):
            try:
                ignore.compile_patterns([line])
            except ValueError:
                repo.notes.append(Skipped.of(name, Reason.BAD_PATTERN, number=number,  # a line may be 1 MB long
                                             line=line if len(line) <= 100 else line[:99] + "…"))
            else:
                good.append(line)
        return ignore.compile_patterns(good)


def _folder_specs(folder_fd: int, prefix: str, specs: list, repo: Repo) -> list:
    """``specs`` plus the folder's own ``.gitignore``; an unreadable one is skipped with its reason,
    a link is not followed (and not reported: the walk reports it as a link)."""
    try:
        data = safefile.read_regular_file(".gitignore", MAX_FILE_BYTES, dir_fd=folder_fd)
    except FileNotFoundError:
        return specs
    except safefile.Refused as exc:
        if exc.params.get("kind") != safefile.LINK:
            repo.skipped.append(exc.skipped(prefix + ".gitignore"))
        return specs
    except OSError as exc:
        repo.skipped.append(Skipped.of(prefix + ".gitignore", Reason.CANNOT_READ,
                                       problem=os_problem(exc)))
        return specs
    lines = data.decode("utf-8", errors="replace").splitlines()
    return specs + [(prefix, _gitignore_spec(lines, display_path(prefix) + ".gitignore", repo))]


def _walk(root: Path, root_fd: int, specs, included, repo: Repo, most_bytes, include_secrets, progress):
    # A loop over a stack of folders, not recursion: a tree nested 990 deep must not hit
    # Python's recursion limit. Folders are visited in sorted order, depth first. Every folder
    # and file is opened relative to its parent's open descriptor, never followed if it is a
    # link: a name swapped for a link while the walk runs cannot lead outside the root.
    where = (str(root), os.path.realpath(root))
    held = safefile.OpenFolders(root_fd)  # at most MAX_OPEN_FOLDERS descriptors open, however deep the tree
    stack = [(held.add(os.dup(root_fd), 1), None, "", specs)]
    try:
        while stack:
            parent, name, prefix, specs = stack.pop()
            try:
                at = None
                at = parent.fd  # a folder closed to keep few open is opened again here (or an OSError)
                fd = os.dup(at) if name is None else os.open(name, safefile.DIR_FLAGS, dir_fd=at)
            except OSError as exc:
                shown = display_path(prefix)
                if name is not None and at is not None and safefile.is_link(name, at):  # swapped for a link meanwhile
                    repo.skipped.append(_link_reason(where, prefix.rstrip("/")))
                else:
                    repo.skipped.append(Skipped.of(shown or "./", Reason.FOLDER_UNREADABLE,
                                                   problem=os_problem(exc)))
                continue
            finally:
                parent.release()
            try:
                folders = _read_folder(fd, where, prefix, specs, included, repo, most_bytes,
                                       include_secrets, progress)
            except BaseException:
                os.close(fd)
                raise
            if not folders:
                os.close(fd)
                continue
            folder = held.add(fd, len(folders), prefix.split("/")[:-1])
            stack.extend((folder, *sub) for sub in reversed(folders))
    finally:  # an error mid-walk (KeyboardInterrupt): close what is still open
        for parent, *_ in stack:
            parent.release()


def _read_folder(fd: int, where, prefix: str, specs, included, repo: Repo, most_bytes,
                 include_secrets, progress) -> list:
    """Read the files of the open folder ``fd`` into ``repo``; returns its subfolders to walk,
    as ``[(name, prefix, specs), ...]``. ``most_bytes``: (a file's, all files') largest size in bytes."""
    max_file_bytes, max_tree_bytes = most_bytes
    specs = _folder_specs(fd, prefix, specs, repo)
    if len(specs) > MAX_IGNORE_FILES:
        repo.skipped.append(Skipped.of(display_path(prefix), Reason.TOO_MANY_IGNORE_FILES, most=MAX_IGNORE_FILES))
        return []
    try:
        entries = safefile.list_folder(fd, MAX_TREE_ENTRIES - repo.entries_listed)
    except safefile.Refused:  # the whole walk passed the cap: this folder, and those after it, not read
        repo.skipped.append(Skipped.of(display_path(prefix) or "./", Reason.TOO_MANY_ENTRIES, most=MAX_TREE_ENTRIES))
        return []
    except OSError as exc:
        repo.skipped.append(Skipped.of(display_path(prefix) or "./", Reason.FOLDER_UNREADABLE,
                                       problem=os_problem(exc)))
        return []
    repo.entries_listed += len(entries)
    folders = []
    for entry in entries:
        rel = prefix + entry.name
        shown = display_path(rel)
        try:
            kind = ("link" if entry.is_symlink() else "dir" if entry.is_dir(follow_symlinks=False)
                    else "file" if entry.is_file(follow_symlinks=False) else "other")
        except OSError as exc:  # the entry vanished, or its folder forbids a stat
            repo.skipped.append(Skipped.of(shown, Reason.CANNOT_READ, problem=os_problem(exc)))
            continue
        if kind == "link":
            repo.skipped.append(_link_reason(where, rel))
        elif kind == "dir":
            excluded_as = _excluded_dir_reason(entry.name, fd)
            if excluded_as:
                repo.skipped.append(Skipped.of(shown + "/", Reason.EXCLUDED_DIR, kind=excluded_as))
            elif ignored := _ignored(rel, True, specs):
                repo.skipped.append(Skipped.of(shown + "/", ignored))
            elif len(os.fsencode(rel)) + 1 > MAX_PATH_BYTES:
                repo.skipped.append(Skipped.of(shown + "/", Reason.PATH_TOO_LONG, most=MAX_PATH_BYTES))
            else:
                folders.append((entry.name, rel + "/", specs))
        elif kind == "file":
            if ignored := _ignored(rel, False, specs):
                repo.skipped.append(Skipped.of(shown, ignored))
                continue
            if included is not None and not included.match_file(rel):
                repo.skipped.append(Skipped.of(shown, Reason.NOT_INCLUDED))
                continue
            pattern = None if include_secrets else credentials.credential_file_pattern(rel)
            if pattern is not None:
                repo.skipped.append(Skipped.of(shown, Reason.CREDENTIAL_FILE, pattern=pattern))
                continue
            if repo.bytes_read >= max_tree_bytes:
                repo.skipped.append(Skipped.of(shown, Reason.TREE_FULL, most=max_tree_bytes))
                continue
            found, remark = read_file(entry.name, shown, max_file_bytes, dir_fd=fd)
            if remark is not None and dict(remark.params).get("kind") == safefile.LINK:
                remark = _link_reason(where, rel)  # swapped for a link meanwhile
            if found:
                repo.bytes_read += found.size_bytes
                text = repo.texts.share(found.text)  # copies of one file share one string
                repo.files.append(found if text is found.text else RepoFile(found.path, text, found.size_bytes))
            if remark:
                (repo.notes if found else repo.skipped).append(remark)
            if progress:
                progress(1)
        else:
            kind_name = safefile.file_kind(safefile.lstat_mode(entry)) or N_("not a regular file")
            repo.skipped.append(Skipped.of(shown, Reason.NOT_REGULAR, kind=kind_name))
    return folders


_LINK_INSIDE, _LINK_OUTSIDE = Reason.SYMLINK_INSIDE, Reason.SYMLINK_OUTSIDE


def _link_reason(where: tuple[str, str], rel: str) -> Skipped:
    """Why the link at ``rel`` was skipped: it points inside or outside the root (``where``: the root as
    given and resolved), or through more links than the kernel follows. Only links are read
    (``safefile.resolve_link``: at most 40 hops and 1,024 names, not a chain's whole length)."""
    target = safefile.resolve_link(os.path.join(where[1], rel))
    if target is None:
        return Skipped.of(display_path(rel), Reason.SYMLINK_LOOP, most=safefile.MAX_LINK_HOPS, steps=safefile.MAX_LINK_STEPS)
    inside = os.path.commonpath([where[1], target]) == where[1]
    return Skipped.of(display_path(rel), _LINK_INSIDE if inside else _LINK_OUTSIDE)
