"""``ctxlib count``: each case runs the CLI in a temporary directory and checks what it printed."""
import io
import subprocess
import sys

from ctxlib.course.commands import main


def test_count_files(tmp_path, capsys):
    (tmp_path / "a.txt").write_text("hello world", encoding="utf-8")
    (tmp_path / "b.txt").write_text("abcdefgh", encoding="utf-8")
    assert main(["count", str(tmp_path / "a.txt"), str(tmp_path / "b.txt"), "--encoding", "cl100k_base"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["file", "characters", "cl100k_base", "rough", "(chars/4)"]
    assert lines[1].split()[1:] == ["11", "2", "2"]
    assert lines[2].split()[1:] == ["8", "1", "2"]  # "abcdefgh" is one cl100k_base token
    assert lines[3].split() == ["total", "19", "3", "4"]


def test_count_stdin(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"hello world")))
    assert main(["count"]) == 0
    assert capsys.readouterr().out.splitlines()[1].split() == ["<stdin>", "11", "2", "2"]


def test_missing_file(tmp_path, capsys):
    assert main(["count", str(tmp_path / "nope.txt")]) == 2
    err = capsys.readouterr().err
    assert err == f"ctxlib: {tmp_path / 'nope.txt'}: no such file or folder\n"


def test_binary_file(tmp_path, capsys):
    (tmp_path / "img.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    assert main(["count", str(tmp_path / "img.png")]) == 2  # nothing left to count
    assert capsys.readouterr().err == f"ctxlib: {tmp_path / 'img.png'}: binary (NUL bytes in the first 8 KiB)\n"


def test_not_utf8(tmp_path, capsys):
    (tmp_path / "latin1.txt").write_bytes("café".encode("latin-1"))
    # Read as ctxlib pack reads it: the bad byte becomes U+FFFD, and stderr says so.
    assert main(["count", str(tmp_path / "latin1.txt")]) == 0
    out, err = capsys.readouterr()
    assert out.splitlines()[1].split()[1:] == ["4", "2", "1"]  # "caf\ufffd"
    assert err == (f"ctxlib count: note: {tmp_path / 'latin1.txt'}: not valid UTF-8 (first bad byte at offset 3); "
                   "undecodable bytes replaced with U+FFFD\n")


def test_console_script_one_line_error(tmp_path):
    """The installed command: one line on stderr, exit 2, no traceback."""
    result = subprocess.run([sys.executable, "-m", "ctxlib.course.commands", "count", "missing.txt"],
                            cwd=tmp_path, capture_output=True, text=True)
    assert result.returncode == 2
    assert result.stderr == "ctxlib: missing.txt: no such file or folder\n"


def test_unknown_encoding_option(capsys):
    try:
        main(["count", "--encoding", "p50k_base"])
    except SystemExit as exc:
        assert exc.code == 2
    assert "invalid choice: 'p50k_base'" in capsys.readouterr().err


def test_stdin_that_is_not_utf8(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"a\xffb")))
    assert main(["count"]) == 2
    assert capsys.readouterr().err == "ctxlib: <stdin>: is not UTF-8 text (bad byte at offset 1)\n"


def test_bad_arguments_are_one_line(capsys):
    try:
        main(["grade"])
    except SystemExit as exc:
        assert exc.code == 2
    assert capsys.readouterr().err == "ctxlib: grade: the following arguments are required: DIR (see 'ctxlib grade --help')\n"


def test_version_is_the_installed_distributions(capsys):
    import importlib.metadata
    import tomllib
    from pathlib import Path

    import pytest

    with pytest.raises(SystemExit) as done:
        main(["--version"])
    declared = tomllib.loads((Path(__file__).parent.parent / "pyproject.toml").read_text(encoding="utf-8"))
    assert done.value.code == 0
    assert capsys.readouterr().out == f"ctxlib {declared['project']['version']}\n"
    assert importlib.metadata.version("ctxlib") == declared["project"]["version"]


def test_a_file_reached_twice_is_counted_once(tmp_path, capsys, monkeypatch):
    # `ctxlib count src src/app.py` listed app.py twice and the total counted it twice (the MCP count did not).
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "app.py").write_text("hello world", encoding="utf-8")
    (tmp_path / "src" / "b.txt").write_text("abcdefgh", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["count", "src", "src/app.py", "./src", "--encoding", "cl100k_base"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split()[0] for line in lines[1:]] == ["src/app.py", "src/b.txt", "total"]
    assert lines[-1].split() == ["total", "19", "3", "4"]
    assert main(["count", "src/app.py", "src/app.py"]) == 0
    assert len(capsys.readouterr().out.splitlines()) == 2  # the head and one row: no total of one file


def test_when_every_path_is_skipped_the_error_names_why_most_were(tmp_path, capsys):
    # `ctxlib count . --include "*.rs"` in a Python project said only "all 545 paths were skipped".
    for name in ("a.py", "b.py", "c.png"):
        (tmp_path / name).write_text("x = 1\n", encoding="utf-8")
    assert main(["count", str(tmp_path), "--include", "*.rs"]) == 2
    err = capsys.readouterr().err
    assert err == f"ctxlib: nothing to count: all 3 paths were skipped (e.g. {tmp_path}/a.py: not matched by --include)\n"
    assert main(["count", str(tmp_path), "--exclude", "*", "--lang", "hi"]) == 2
    assert "(जैसे " in capsys.readouterr().err
