"""Issue 23's invariants under random hostile trees and hand-ins (hypothesis; a modest example count for CI).

For any tree of odd names, links (inside, outside, dangling, to /dev/zero), FIFOs, files that
change into links while the walk runs, keys hidden in files, and any set of good and bad
hand-ins: no traceback (only a ``ValueError`` that says what is wrong), nothing read from
outside the root, the budget held, no line of a refused key in any output, every good hand-in graded.
"""
import contextlib
import csv
import io
import json
import os
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ctxlib.course.commands import main
from ctxlib.course.progress import new_progress
from ctxlib.fit import pack_repository
from ctxlib.tokens import count_tokens

OUTSIDE = "OUTSIDE-THE-ROOT-7f3a"
KEY = ("-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW\n"
       "QyNTUxOQAAACBzdmVyeXNlY3JldGtleW1hdGVyaWFsZm9ydGVzdGluZ29ubHkAAAAJSVRFU1QK\n"
       "-----END OPENSSH PRIVATE KEY-----\n")
KEY_LINES = KEY.splitlines()[:3]

names = st.sampled_from(["a.py", "b.py", "vat.py", "a\\xff.py", "two\nlines.py", " lead.py", "-dash.py", "x" * 120 + ".py",
                         "ü.py", ".gitignore", "sub", "deep", ".env", "id_rsa", "notes.txt", "k.yaml"])
byte_names = st.sampled_from([b"bad\xff.py", b"\xfe\xfe.txt"])
contents = st.sampled_from([
    "def vat_invoice(total):\n    return total * 1.2  # vat invoice\n",
    "class Invoice:\n    vat: float\n    def total(self):\n        return 1\n",
    f'KEY = """{KEY}"""\ndef load_vat_key():\n    return KEY  # vat invoice\n',
    "# vat\n" + "x = 1\n" * 200 + f"BLOB = '''{KEY}'''\n" + "y = 2  # invoice\n" * 50,
    "*a*a*a*a*a*a*a*a*ac\n!vat.py\n**/x/**/y/**/z\n[\n",
    "vat invoice " * 300,
    "\x00binary vat",
    "",
])
kinds = st.sampled_from(["file", "file", "file", "link-outside", "link-inside", "dangling", "fifo", "zero", "dir"])
entries = st.lists(st.tuples(st.sampled_from(["", "sub/", "deep/er/"]), names, kinds, contents), max_size=10)


def _build(root: Path, outside: Path, tree, raw_names) -> None:
    for folder, name, kind, text in tree:
        where = root / folder
        try:
            where.mkdir(parents=True, exist_ok=True)
        except OSError:  # a file of that name came first: the tree simply has no such folder
            continue
        path = where / name
        if os.path.lexists(path) or (path.exists() and path.is_dir()):
            continue
        with contextlib.suppress(OSError):
            if kind == "file":
                path.write_text(text, encoding="utf-8")
            elif kind == "link-outside":
                path.symlink_to(outside)
            elif kind == "link-inside":
                path.symlink_to(root)
            elif kind == "dangling":
                path.symlink_to(root / "nowhere")
            elif kind == "fifo":
                os.mkfifo(path)
            elif kind == "zero":
                path.symlink_to("/dev/zero")
            else:
                path.mkdir()
    for raw in raw_names:
        with contextlib.suppress(OSError), open(os.path.join(os.fsencode(root), raw), "w") as f:
            f.write("def vat(invoice): return invoice  # vat invoice\n")


def _swapping_scandir(outside: Path, swap: bool):
    """os.scandir that, when ``swap``, turns every regular file it lists into a link to ``outside``
    right after listing it: the race of item 1, made certain."""
    real = os.scandir

    @contextlib.contextmanager
    def scandir(fd):
        with real(fd) as found:
            listed = list(found)
        if swap:
            for entry in listed:
                if entry.is_file(follow_symlinks=False):
                    tmp = f".swap-{entry.name}"
                    with contextlib.suppress(OSError, ValueError):
                        if isinstance(fd, int):  # the walk lists an open folder
                            os.symlink(outside, tmp, dir_fd=fd)
                            os.rename(tmp, entry.name, src_dir_fd=fd, dst_dir_fd=fd)
                        else:
                            os.symlink(outside, os.path.join(fd, tmp))
                            os.rename(os.path.join(fd, tmp), os.path.join(fd, entry.name))
        yield iter(listed)

    return scandir


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tree=entries, raw_names=st.lists(byte_names, max_size=2, unique=True), swap=st.booleans(),
       budget=st.sampled_from([40, 300, 2000, 50_000]), view=st.sampled_from(["auto", "ranges", "signatures", "whole"]),
       fmt=st.sampled_from(["text", "markdown", "json"]))
def test_the_reader_and_packer_hold_the_invariants(tree, raw_names, swap, budget, view, fmt):
    with tempfile.TemporaryDirectory() as tmp:
        outside = Path(tmp) / "shadow"
        outside.write_text(f"{OUTSIDE} vat invoice\n")
        root = Path(tmp) / "repo"
        root.mkdir()
        _build(root, outside, tree, raw_names)
        real = os.scandir
        os.scandir = _swapping_scandir(outside, swap)
        try:
            pack = pack_repository(root, "vat invoice key", budget, view=view, fmt=fmt)
        except ValueError as exc:  # nothing to pack, a budget too small: said, not raised from deep inside
            assert OUTSIDE not in str(exc) and all(line not in str(exc) for line in KEY_LINES)
            return
        finally:
            os.scandir = real
        assert OUTSIDE not in pack.text
        assert all(line not in pack.text for line in KEY_LINES)
        assert pack.used_tokens == count_tokens(pack.text, pack.encoding) <= budget
        report = " ".join(f"{s.path} {s.reason}" for s in pack.skipped)
        assert OUTSIDE not in report


hand_ins = st.lists(st.sampled_from(["good", "good", "huge", "bom", "garbage", "deep", "fifo", "link", "empty",
                                     "dup"]), min_size=1, max_size=7)


def _hand_in(folder: Path, n: int, kind: str, outside: Path) -> str | None:
    path = folder / f"h{n}.json"
    record = json.dumps({**new_progress(f"L{n}" if kind != "dup" else "Same"), "attempts": [
        {"lesson": "01_window_as_budget", "question": "whole_repo", "outcome": "passed", "hints_used": 1,
         "solution_viewed": False, "time": "2026-01-01T00:00:00Z"}]})
    if kind in ("good", "dup"):
        path.write_text(record)
        return path.name
    if kind == "bom":
        path.write_bytes(b"\xef\xbb\xbf" + record.encode())
        return path.name
    if kind == "huge":
        path.write_text(record.replace('"hints_used": 1', '"hints_used": ' + "7" * 5000))
    elif kind == "garbage":
        path.write_bytes(b"\xff\xfe{not json")
    elif kind == "deep":
        path.write_text("[" * 5000 + "]" * 5000)
    elif kind == "fifo":
        os.mkfifo(path)
    elif kind == "link":
        path.symlink_to(outside)
    else:
        path.write_text("")
    return None


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kinds=hand_ins)
def test_every_good_hand_in_is_graded(kinds):
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "class"
        folder.mkdir()
        outside = Path(tmp) / "other.json"
        outside.write_text(json.dumps({**new_progress(OUTSIDE), "attempts": []}))
        good = [name for n, kind in enumerate(kinds) if (name := _hand_in(folder, n, kind, outside))]
        out_csv = Path(tmp) / "g.csv"
        stdout, stderr = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
            try:
                status = main(["grade", str(folder), "--csv", str(out_csv)])
            except SystemExit as exc:
                status = exc.code
        assert "Traceback" not in stderr.getvalue()
        if not good:
            assert status == 2
            return
        assert status == 0
        rows = list(csv.reader(out_csv.open(encoding="utf-8")))
        assert sorted(r[1] for r in rows[1:]) == sorted(good)
        assert len({r[0] for r in rows[1:]}) == len(good)  # two learners called "Same" told apart
        assert OUTSIDE not in out_csv.read_text() and OUTSIDE not in stdout.getvalue()
