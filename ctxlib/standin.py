"""A stand-in git directory: a repository's objects and the commit its HEAD names, none of its config.

A repository's own ``.git/config`` can make git run programs. ``git archive`` runs a
``filter.<driver>.smudge`` command for every file the tree's ``.gitattributes`` gives that driver;
a partial clone's promisor remote runs ``uploadpack`` when ``git log`` fetches a missing object. A
hand-in or a downloaded repository may carry either. So the readers that run git,
``history.GitCommand`` (``ctxlib eval``) and ``safegit.IsolatedGit`` (``pack --history``), run it
on a folder made here:

- ``HEAD``, a ``refs`` folder and a ``config`` of our own that names only the object format
  (``extensions.objectformat``, SHA-1 or SHA-256);
- the repository's objects through ``GIT_OBJECT_DIRECTORY`` (its ``objects/info/alternates`` still
  work), its shallow file through ``GIT_SHALLOW_FILE``;
- no system or global config either (``ENV``): a user's ``filter.lfs.smudge`` would download;
- an ``info/attributes`` (``NO_ATTRIBUTES``) that outranks the tree's ``.gitattributes``: ``git archive`` writes
  each file's bytes as the commit holds them, as the dulwich reader does.

``run`` caps a git run's time, output and memory (``cap_memory``), so a damaged or hostile repository
cannot hold a reader for ever or fill the machine's memory.
"""
from __future__ import annotations

import os
import subprocess
import tempfile
import threading
from pathlib import Path
from typing import NamedTuple

# Nothing fetched, nothing asked, no config but the stand-in's (os.devnull: an empty global config), no system
# attributes file.
ENV = {"GIT_NO_LAZY_FETCH": "1", "GIT_TERMINAL_PROMPT": "0", "GIT_CONFIG_NOSYSTEM": "1",
       "GIT_CONFIG_GLOBAL": os.devnull, "GIT_ATTR_NOSYSTEM": "1"}
# The stand-in's info/attributes, which outranks every .gitattributes of the tree and the user's own: no attribute
# changes a file git archive writes. export-subst expanded $Format:%B$ (a 172 KB .git wrote 4 GB a tree) and %G?
# ran gpg; ident, eol, working-tree-encoding and filters rewrote files that the dulwich reader writes as they are.
NO_ATTRIBUTES = "* -text -eol -crlf -ident -filter -export-subst -export-ignore -working-tree-encoding\n"


# What ``git rev-parse --local-env-vars`` lists: variables that point git at another repository
# (a git hook sets GIT_DIR, for one). The git command runs without them.
GIT_LOCAL_ENV = ("GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_CONFIG", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT",
                 "GIT_OBJECT_DIRECTORY", "GIT_DIR", "GIT_WORK_TREE", "GIT_IMPLICIT_WORK_TREE", "GIT_GRAFT_FILE",
                 "GIT_INDEX_FILE", "GIT_NO_REPLACE_OBJECTS", "GIT_REPLACE_REF_BASE", "GIT_PREFIX",
                 "GIT_INTERNAL_SUPER_PREFIX", "GIT_SHALLOW_FILE", "GIT_COMMON_DIR")


def caller_environment() -> dict[str, str]:
    """``os.environ`` without ``GIT_LOCAL_ENV``: git finds the repository from ``--git-dir`` or ``-C`` alone."""
    return {name: value for name, value in os.environ.items() if name not in GIT_LOCAL_ENV}


def write(folder: Path, head: bytes, objectformat: str = "") -> None:
    """Make ``folder`` (an empty folder) a stand-in git directory.

    Args:
        folder: the empty folder to fill.
        head: the bytes of its ``HEAD`` file: a commit's hash and a newline, or ``ref: refs/heads/NAME``
            (the repository's own ``HEAD``, whose refs the caller links in).
        objectformat: ``"sha256"`` for a SHA-256 repository; ``""`` (SHA-1) otherwise.
    Raises:
        OSError: the folder cannot be written.
    """
    (folder / "HEAD").write_bytes(head)
    (folder / "refs").mkdir(exist_ok=True)
    (folder / "info").mkdir(exist_ok=True)
    (folder / "info" / "attributes").write_text(NO_ATTRIBUTES, encoding="ascii")
    (folder / "config").write_text("[core]\n\trepositoryformatversion = %d\n" % bool(objectformat)
                                   + (f"[extensions]\n\tobjectformat = {objectformat}\n" if objectformat else ""))


def environment(base: dict[str, str], git_dir: Path) -> dict[str, str]:
    """``base`` (the caller's environment, git's repository variables removed) with ``ENV`` and the
    objects and shallow file of the repository whose git directory (the common one, for a linked
    worktree) is ``git_dir``."""
    env = {**base, **ENV, "GIT_OBJECT_DIRECTORY": str(git_dir / "objects")}
    if (git_dir / "shallow").is_file():
        env["GIT_SHALLOW_FILE"] = str(git_dir / "shallow")
    return env


class Ran(NamedTuple):
    """What ``run`` saw: the exit status, stdout, the first 64 KiB of stderr, and ``cut``: ``""``, or
    ``"output"`` (stdout passed the cap) or ``"timeout"`` (the run passed its time), the run killed."""

    code: int
    out: bytes
    err: bytes
    cut: str = ""


# The memory a git run may take (its data: heap and private writable mappings; Linux's RLIMIT_DATA, which leaves
# out the packs git maps read-only). A 6 KB pack holding a tree of 100 million paths took git log --name-status to
# 24 GB in 55 s; a large history's whole log takes a few hundred MB.
MAX_DATA_BYTES = 4 << 30


def cap_memory(pid: int, most: int) -> None:
    """Limit the running process ``pid`` to ``most`` bytes of data (``RLIMIT_DATA``): past it, its allocations fail
    (git says "Out of memory" and stops). Where the system has no ``prlimit`` (macOS, Windows), nothing is done;
    a process that has already ended is left alone. Raises nothing."""
    try:
        import resource

        resource.prlimit(pid, resource.RLIMIT_DATA, (most, most))
    except (ImportError, AttributeError, OSError, ValueError):
        pass


def out_of_memory(err: bytes) -> bool:
    """Whether git's stderr ``err`` says an allocation failed (``fatal: Out of memory, malloc failed``)."""
    return b"out of memory" in err.lower()


SMALL_RUN_BYTES = 256 << 20  # the memory of a run that finds a repository or reads its HEAD (a 3 GB ref took 3.1 GB)


def run_small(command: list[str], env: dict[str, str], timeout: float) -> subprocess.CompletedProcess:
    """``subprocess.run(command, capture_output=True)`` for a short git run (finding the repository, its ``HEAD``),
    its memory capped at ``SMALL_RUN_BYTES`` and its output at 1 MiB (more is a failed run, status 1). Raises
    ``subprocess.TimeoutExpired`` after ``timeout`` seconds, ``OSError`` when it cannot start."""
    ran = run(command, env, 1 << 20, timeout, SMALL_RUN_BYTES)
    if ran.cut == "timeout":
        raise subprocess.TimeoutExpired(command, timeout)
    return subprocess.CompletedProcess(command, 1 if ran.cut else ran.code, ran.out, ran.err)


def run(command: list[str], env: dict[str, str], max_output: int, timeout: float,
        max_data: int = MAX_DATA_BYTES) -> Ran:
    """Run ``command`` with no stdin, its time, output and memory capped.

    Args:
        command: the command line.
        env: its environment.
        max_output: bytes of stdout past which the run is killed.
        timeout: seconds past which it is killed.
        max_data: bytes of data memory it may take (``cap_memory``).
    Returns:
        a ``Ran``; its ``cut`` says whether the run was killed for its output or its time.
    Raises:
        OSError: the command cannot be started.
    """
    with tempfile.TemporaryFile() as errors:
        proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=errors, stdin=subprocess.DEVNULL, env=env)
        cap_memory(proc.pid, max_data)
        timer = threading.Timer(timeout, proc.kill)
        timer.start()
        chunks, size = [], 0
        try:
            while chunk := proc.stdout.read(1 << 16):
                size += len(chunk)
                if size > max_output:
                    proc.kill()
                    break
                chunks.append(chunk)
        finally:
            proc.stdout.close()
            code = proc.wait()
            timed_out = not timer.is_alive() and code < 0
            timer.cancel()
        if size > max_output or timed_out:
            return Ran(code, b"", b"", "output" if size > max_output else "timeout")
        errors.seek(0)
        return Ran(code, b"".join(chunks), errors.read(1 << 16))
