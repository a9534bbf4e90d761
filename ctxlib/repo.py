"""Reading a repository: which files a context builder may look at, and why others are skipped.

Lesson 3, "Reading a real repository". ``read_repo`` walks a directory and returns plain
data: the readable text files, and every file or folder it left out with the reason.

- ``.gitignore`` files at every level, with git's own pattern rules (``pathspec``); a
  nested ``.gitignore`` speaks only for its own folder, and a deeper ``!pattern`` can
  re-include what a shallower one ignored, as in git.
- Default excludes a repository rarely lists: ``.git``, caches, ``node_modules``, and
  virtual environments under any name (a folder holding ``pyvenv.cfg``).
- Binary files (a NUL byte in the first 8 KiB) and files above ``max_file_bytes``.
- Symbolic links are never followed, so nothing outside the root can be read.
- Bytes that are not UTF-8 are replaced with U+FFFD and the file is noted, not dropped.
- Credentials are never returned unless asked: dotenv files, private keys and credential
  files by name here. Contents are judged by ``credential_in_text``, with detect-secrets'
  rules; the packer applies it to every text before it could be packed, not to every
  file here, because scanning all 37 MB of the standard library takes ~5 s.

Order is deterministic: sorted POSIX-style paths relative to the root.
Not handled: ``.git/info/exclude``, the global gitignore, ``.gitattributes``, submodules.
"""
from __future__ import annotations

import functools
import importlib
import os
from dataclasses import dataclass, field
from pathlib import Path

import pathspec

MAX_FILE_BYTES = 1_048_576  # 1 MiB: larger text files are usually data or generated code
BINARY_SNIFF_BYTES = 8192  # git's own test for "binary": a NUL byte near the start

DEFAULT_EXCLUDED_DIRS = {
    ".git": "version control data", ".hg": "version control data", ".svn": "version control data",
    "__pycache__": "cache", ".mypy_cache": "cache", ".pytest_cache": "cache", ".ruff_cache": "cache",
    ".hypothesis": "cache", ".ipynb_checkpoints": "cache", ".tox": "test environments",
    ".nox": "test environments", "node_modules": "installed packages",
    ".venv": "virtual environment", "venv": "virtual environment", "env": "virtual environment",
}
VENV_MARKERS = ("pyvenv.cfg", "conda-meta")  # a folder holding one of these is an environment
# Names too common to exclude without a marker: the standard library has a ``venv`` package.
_ENV_DIRS_NEED_MARKER = {"venv", "env"}

# gitignore syntax, so the rules read the way a repository's own .gitignore does.
CREDENTIAL_PATTERNS = [
    "*.env", ".env", ".env.*", "!.env.example", "!.env.sample", "!.env.template",
    "*.pem", "*.key", "*.p12", "*.pfx", "id_rsa", "id_dsa", "id_ecdsa", "id_ed25519",
    "credentials.json", "credentials", ".netrc", "_netrc", ".npmrc", ".pypirc",
    ".git-credentials", "secrets.json", "secrets.yaml", "secrets.yml",
]
CREDENTIAL_FILES = pathspec.GitIgnoreSpec.from_lines(CREDENTIAL_PATTERNS)


@dataclass(frozen=True)
class RepoFile:
    """One readable text file: its POSIX path relative to the root, its text and its size in bytes."""

    path: str
    text: str
    size_bytes: int


@dataclass(frozen=True)
class Skipped:
    """A file or folder left out, with the reason a person reads in the report."""

    path: str
    reason: str


@dataclass
class Repo:
    """What ``read_repo`` found: readable files, skipped paths, and notes (e.g. replaced bytes)."""

    root: Path
    files: list[RepoFile] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    notes: list[Skipped] = field(default_factory=list)


def credential_file_reason(path: str) -> str | None:
    """Why the file name ``path`` looks like a credential, or ``None``.

    ``credential_file_reason("deploy/.env.prod")`` -> ``"looks like a credential file (.env.*)"``,
    naming the rule in ``CREDENTIAL_PATTERNS`` that matched; ``credential_file_reason(".env.example")``
    -> ``None`` (a template holds no secrets).
    """
    # The name alone: a folder called ``credentials/`` holds code, not secrets.
    result = CREDENTIAL_FILES.check_file(path.rsplit("/", 1)[-1])
    if result.include:
        return f"looks like a credential file ({CREDENTIAL_PATTERNS[result.index]})"
    return None


# The detect-secrets plugins used: those for secrets with a fixed, recognisable format. Its
# entropy and keyword plugins flag nearly every source file (299 of the first 300 in the
# standard library), IPPublicDetector flags addresses, not secrets, and the five
# assignment-context plugins (Artifactory, Cloudant, two IBM, SoftLayer) cost ~1 us per
# character. Its own scan functions run per line with every filter: ~20 us per character.
SECRET_PLUGINS = [
    ("aws", "AWSKeyDetector"), ("azure_storage_key", "AzureStorageKeyDetector"),
    ("basic_auth", "BasicAuthDetector"), ("discord", "DiscordBotTokenDetector"),
    ("github_token", "GitHubTokenDetector"), ("gitlab_token", "GitLabTokenDetector"),
    ("jwt", "JwtTokenDetector"), ("mailchimp", "MailchimpDetector"), ("npm", "NpmDetector"),
    ("openai", "OpenAIDetector"), ("private_key", "PrivateKeyDetector"),
    ("pypi_token", "PypiTokenDetector"), ("sendgrid", "SendGridDetector"), ("slack", "SlackDetector"),
    ("square_oauth", "SquareOAuthDetector"), ("stripe", "StripeDetector"),
    ("telegram_token", "TelegramBotTokenDetector"), ("twilio", "TwilioKeyDetector"),
]


@functools.cache
def _secret_patterns():
    patterns = []
    for module, name in SECRET_PLUGINS:  # imported on first use: detect-secrets takes ~0.2 s to load
        plugin = getattr(importlib.import_module(f"detect_secrets.plugins.{module}"), name)
        patterns += [(plugin.secret_type, pattern) for pattern in plugin().denylist]
    return patterns


def credential_in_text(text: str) -> str | None:
    """Why ``text`` looks like it holds a secret, by detect-secrets' format rules, or ``None``.

    Args:
        text: a file's contents.
    Returns:
        e.g. ``"holds a secret (detect-secrets: AWS Access Key)"`` for a line with an
        ``AKIA...`` key id, else ``None``. About 0.14 microseconds per character.
    """
    for secret_type, pattern in _secret_patterns():
        if pattern.search(text):
            return f"holds a secret (detect-secrets: {secret_type})"
    return None


def _excluded_dir_reason(entry: os.DirEntry) -> str | None:
    reason = DEFAULT_EXCLUDED_DIRS.get(entry.name)
    has_marker = any(os.path.exists(os.path.join(entry.path, marker)) for marker in VENV_MARKERS)
    if reason and (entry.name not in _ENV_DIRS_NEED_MARKER or has_marker):
        return f"excluded by default ({reason})"
    if has_marker:
        return "excluded by default (virtual environment)"
    return None


def _ignored(rel: str, is_dir: bool, specs: list[tuple[str, pathspec.GitIgnoreSpec]]) -> bool:
    # Git's rule: every .gitignore from the root down to the file's folder is consulted,
    # and the last pattern that matches decides; a deeper file overrides a shallower one.
    decision = None
    for base, spec in specs:
        inner = rel[len(base):] + ("/" if is_dir else "")
        result = spec.check_file(inner)
        if result.include is not None:
            decision = result.include
    return bool(decision)


def read_file(path: Path, rel: str, max_file_bytes: int) -> tuple[RepoFile | None, Skipped | None]:
    """Read one file: ``(file, None)``; ``(None, why)`` if skipped (binary, too big,
    unreadable); ``(file, note)`` if undecodable bytes were replaced."""
    try:
        size = path.stat().st_size
        if size > max_file_bytes:
            return None, Skipped(rel, f"larger than the size cap ({size:,} bytes > {max_file_bytes:,})")
        data = path.read_bytes()
    except OSError as exc:
        return None, Skipped(rel, f"cannot be read ({exc.strerror})")
    if b"\x00" in data[:BINARY_SNIFF_BYTES]:
        return None, Skipped(rel, "binary (NUL bytes in the first 8 KiB)")
    try:
        return RepoFile(rel, data.decode("utf-8"), len(data)), None
    except UnicodeDecodeError as exc:
        note = Skipped(rel, f"not valid UTF-8 (first bad byte at offset {exc.start}); "
                            f"undecodable bytes replaced with U+FFFD")
        return RepoFile(rel, data.decode("utf-8", errors="replace"), len(data)), note


def read_repo(root, *, max_file_bytes: int = MAX_FILE_BYTES, include_secrets: bool = False,
              exclude=(), progress=None) -> Repo:
    """Walk ``root`` and read every text file a context builder may use.

    Args:
        root: a directory (str or Path).
        max_file_bytes: size cap in bytes; larger files are skipped (default 1 MiB).
        include_secrets: read credential-looking files too (default: skip them).
        exclude: extra gitignore-style patterns, read as if from a ``.gitignore`` at the
            root, e.g. ``["site-packages/"]``.
        progress: optional callable, called with 1 after each file is read (a progress bar).
    Returns:
        a ``Repo``: ``files`` and ``skipped`` sorted by path, and ``notes`` for files whose
        undecodable bytes were replaced. Ignored folders are reported once, as ``"vendor/"``.
    Raises:
        ValueError: if ``root`` is not a directory or ``max_file_bytes`` is not positive.
    """
    root = Path(root)
    if not root.is_dir():
        raise ValueError(f"{root}: not a directory" if root.exists() else f"{root}: no such directory")
    if isinstance(max_file_bytes, bool) or not isinstance(max_file_bytes, int) or max_file_bytes <= 0:
        raise ValueError(f"max_file_bytes must be a positive whole number of bytes, got {max_file_bytes!r}")
    repo = Repo(root=root)
    if isinstance(exclude, str):
        raise ValueError(f"exclude must be a list of patterns, got the string {exclude!r}; try [{exclude!r}]")
    specs = [("", pathspec.GitIgnoreSpec.from_lines(list(exclude)))] if exclude else []
    _walk(root, "", specs, repo, max_file_bytes, include_secrets, progress)
    repo.files.sort(key=lambda f: f.path)
    repo.skipped.sort(key=lambda s: s.path)
    repo.notes.sort(key=lambda s: s.path)
    return repo


def _gitignore_spec(lines: list[str], name: str, repo: Repo):
    """The spec for one ``.gitignore``; a line pathspec cannot read is left out and noted, as git ignores it."""
    try:
        return pathspec.GitIgnoreSpec.from_lines(lines)
    except ValueError:  # pathspec's GitWildMatchPatternError, e.g. a lone "!"
        good = []
        for number, line in enumerate(lines, 1):
            try:
                pathspec.GitIgnoreSpec.from_lines([line])
            except ValueError:
                repo.notes.append(Skipped(name, f"line {number} ({line!r}) is not a pattern; left out"))
            else:
                good.append(line)
        return pathspec.GitIgnoreSpec.from_lines(good)


def _walk(folder: Path, prefix: str, specs, repo: Repo, max_file_bytes, include_secrets, progress):
    gitignore = folder / ".gitignore"
    if gitignore.is_file() and not gitignore.is_symlink():
        lines = gitignore.read_text(encoding="utf-8", errors="replace").splitlines()
        specs = specs + [(prefix, _gitignore_spec(lines, prefix + ".gitignore", repo))]
    try:
        entries = sorted(os.scandir(folder), key=lambda e: e.name)
    except OSError as exc:
        repo.skipped.append(Skipped(prefix or "./", f"folder cannot be read ({exc.strerror})"))
        return
    for entry in entries:
        rel = prefix + entry.name
        if entry.is_symlink():
            target = os.path.realpath(entry.path)
            where = "inside" if Path(target).is_relative_to(repo.root.resolve()) else "outside"
            repo.skipped.append(Skipped(rel, f"symbolic link to {where} the root: not followed"))
        elif entry.is_dir():
            reason = _excluded_dir_reason(entry)
            if reason is None and _ignored(rel, True, specs):
                reason = "ignored by .gitignore"
            if reason:
                repo.skipped.append(Skipped(rel + "/", reason))
            else:
                _walk(Path(entry.path), rel + "/", specs, repo, max_file_bytes, include_secrets, progress)
        elif entry.is_file():
            reason = ("ignored by .gitignore" if _ignored(rel, False, specs)
                      else None if include_secrets else credential_file_reason(rel))
            if reason:
                repo.skipped.append(Skipped(rel, reason))
                continue
            found, remark = read_file(Path(entry.path), rel, max_file_bytes)
            if found:
                repo.files.append(found)
            if remark:
                (repo.notes if found else repo.skipped).append(remark)
            if progress:
                progress(1)
        else:
            repo.skipped.append(Skipped(rel, "not a regular file (a device, socket or pipe)"))
