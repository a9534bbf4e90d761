"""Reading a repository: gitignore at every level, default excludes, binaries, size cap,
symlinks, undecodable bytes and credentials (ctxlib/repo.py), on trees built in tmp_path."""
import hashlib
import os
import pickle

import pytest

from ctxlib.repo import credential_file_reason, credential_in_text, read_repo
from ctxlib.course.sample_project import build_sample_project

# Fake secrets, assembled so this file itself does not look like one.
AWS_EXAMPLE_KEY_ID = "AKIA" + "IOSFODNN7EXAMPLE"
GITHUB_TOKEN = "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8"
PRIVATE_KEY_HEADER = "-----BEGIN RSA " + "PRIVATE KEY-----"


def write(root, rel, data="x = 1\n"):
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(data, bytes):
        path.write_bytes(data)
    else:
        path.write_text(data, encoding="utf-8")
    return path


def paths(repo):
    return [f.path for f in repo.files]


def reasons(repo):
    return {s.path: s.reason for s in repo.skipped}


def test_gitignore_at_several_levels_is_scoped_to_its_folder(tmp_path):
    write(tmp_path, ".gitignore", "*.log\nbuild/\n")
    write(tmp_path, "a.log", "root log\n")
    write(tmp_path, "build/out.py")
    write(tmp_path, "x.tmp", "kept: the *.tmp rule lives in sub/deeper\n")
    write(tmp_path, "sub/.gitignore", "!keep.log\ncache_dir/\n")
    write(tmp_path, "sub/keep.log", "re-included by a deeper negation\n")
    write(tmp_path, "sub/other.log", "still ignored\n")
    write(tmp_path, "sub/cache_dir/data.py")
    write(tmp_path, "sub/deeper/.gitignore", "*.tmp\n")
    write(tmp_path, "sub/deeper/y.tmp", "ignored\n")
    write(tmp_path, "sub/deeper/code.py")
    repo = read_repo(tmp_path)
    assert paths(repo) == [".gitignore", "sub/.gitignore", "sub/deeper/.gitignore", "sub/deeper/code.py",
                           "sub/keep.log", "x.tmp"]
    assert reasons(repo) == {"a.log": "ignored by .gitignore", "build/": "ignored by .gitignore",
                             "sub/cache_dir/": "ignored by .gitignore", "sub/deeper/y.tmp": "ignored by .gitignore",
                             "sub/other.log": "ignored by .gitignore"}


def test_exclude_patterns_act_like_a_root_gitignore(tmp_path):
    write(tmp_path, "site-packages/pkg.py")
    write(tmp_path, "lib.py")
    write(tmp_path, ".gitignore", "*.log\n")
    write(tmp_path, "a.log")
    write(tmp_path, "sub/b.tmp")
    repo = read_repo(tmp_path, exclude=["site-packages/", "*.tmp"])
    assert paths(repo) == [".gitignore", "lib.py"]
    # Said as what it is: what --exclude left out was "ignored by .gitignore" too, a .gitignore the user never wrote.
    assert reasons(repo) == {"a.log": "ignored by .gitignore", "site-packages/": "left out by --exclude",
                             "sub/b.tmp": "left out by --exclude"}
    assert {s.path: s.code.value for s in repo.skipped}["sub/b.tmp"] == "excluded"


def test_default_excludes_and_virtual_environments_by_marker(tmp_path):
    for folder in (".git", "node_modules/left-pad", "__pycache__", ".mypy_cache", ".pytest_cache", ".tox", ".venv"):
        write(tmp_path, f"{folder}/file.py")
    write(tmp_path, "myenv/pyvenv.cfg", "home = /usr/bin\n")
    write(tmp_path, "myenv/lib/site.py")
    write(tmp_path, "venv/__init__.py", "# a package called venv, like the standard library's\n")
    write(tmp_path, "env/settings.py")
    repo = read_repo(tmp_path)
    assert paths(repo) == ["env/settings.py", "venv/__init__.py"]
    assert reasons(repo) == {
        ".git/": "excluded by default (version control data)",
        ".mypy_cache/": "excluded by default (cache)",
        ".pytest_cache/": "excluded by default (cache)",
        ".tox/": "excluded by default (test environments)",
        ".venv/": "excluded by default (virtual environment)",
        "__pycache__/": "excluded by default (cache)",
        "myenv/": "excluded by default (virtual environment)",
        "node_modules/": "excluded by default (installed packages)",
    }


def test_binary_means_a_nul_byte_in_the_first_8_kib(tmp_path):
    write(tmp_path, "logo.png", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
    write(tmp_path, "late_nul.txt", b"a" * 8192 + b"\x00")
    repo = read_repo(tmp_path)
    assert paths(repo) == ["late_nul.txt"]
    assert reasons(repo) == {"logo.png": "binary (NUL bytes in the first 8 KiB)"}


def test_size_cap_skips_larger_files_with_their_size(tmp_path):
    write(tmp_path, "small.txt", "a" * 100)
    write(tmp_path, "big.txt", "a" * 101)
    repo = read_repo(tmp_path, max_file_bytes=100)
    assert paths(repo) == ["small.txt"]
    assert reasons(repo) == {"big.txt": "larger than the size cap (101 bytes > 100)"}
    assert repo.files[0].size_bytes == 100


def test_once_the_files_read_hold_max_tree_bytes_the_rest_are_listed_not_read(tmp_path):
    # A tree's texts are held in memory: a hostile tree of many 1 MiB files must not take it all. The walk reads a
    # folder's files in sorted order, then its folders, so which files are read is the same on every machine.
    for name in ("a.txt", "b/c.txt", "b/d.txt", "e.txt"):
        write(tmp_path, name, "x" * 40)
    write(tmp_path, "b/empty.txt", "")
    repo = read_repo(tmp_path, max_tree_bytes=80)
    assert paths(repo) == ["a.txt", "e.txt"]  # 40 + 40 = 80: full
    assert reasons(repo) == {name: "not read: the files read before it hold 80 bytes, the most a tree may"
                             for name in ("b/c.txt", "b/d.txt", "b/empty.txt")}
    assert repo.bytes_read == 80
    assert paths(read_repo(tmp_path, max_tree_bytes=81)) == ["a.txt", "b/c.txt", "e.txt"]  # may pass it by a file
    assert len(read_repo(tmp_path).files) == 5  # the default, 1 GiB


def test_pack_names_the_files_past_max_tree_bytes(tmp_path):
    from ctxlib.fit import pack_repository
    from ctxlib.reasons import Reason
    write(tmp_path, "a_vat.py", "VAT = 19\n")
    write(tmp_path, "b_vat.py", "def vat():\n    return 19\n")
    pack = pack_repository(tmp_path, "vat", 1000, max_tree_bytes=5)
    assert [c.path for c in pack.chosen] == ["a_vat.py"]
    assert [(s.path, s.code) for s in pack.skipped if s.path == "b_vat.py"] == [("b_vat.py", Reason.TREE_FULL)]


def test_symlinks_are_never_followed(tmp_path):
    outside = tmp_path / "outside"
    write(outside, "secret.txt", "not part of the repository\n")
    root = tmp_path / "repo"
    write(root, "real.py")
    os.symlink(outside / "secret.txt", root / "escape.txt")
    os.symlink(outside, root / "escape_dir")
    os.symlink(root / "real.py", root / "alias.py")
    repo = read_repo(root)
    assert paths(repo) == ["real.py"]
    assert reasons(repo) == {"alias.py": "symbolic link to inside the root: not followed",
                             "escape.txt": "symbolic link to outside the root: not followed",
                             "escape_dir": "symbolic link to outside the root: not followed"}


def test_undecodable_bytes_are_replaced_and_noted(tmp_path):
    write(tmp_path, "latin1.csv", "café;Köln\n".encode("latin-1"))
    repo = read_repo(tmp_path)
    assert repo.files[0].text == "caf\ufffd;K\ufffdln\n"
    assert [(n.path, n.reason) for n in repo.notes] == [
        ("latin1.csv", "not valid UTF-8 (first bad byte at offset 3); undecodable bytes replaced with U+FFFD")]


def test_credential_files_are_skipped_by_name(tmp_path):
    for name in (".env", ".env.local", "deploy/id_rsa", "certs/server.pem", "gcp/credentials.json", ".netrc"):
        write(tmp_path, name, "anything\n")
    write(tmp_path, ".env.example", "API_KEY=\n")
    write(tmp_path, "docker/credentials/helpers.py")  # a folder named credentials holds code
    repo = read_repo(tmp_path)
    assert paths(repo) == [".env.example", "docker/credentials/helpers.py"]
    assert reasons(repo) == {
        ".env": "looks like a credential file (.env)", ".env.local": "looks like a credential file (.env.*)",
        ".netrc": "looks like a credential file (.netrc)",
        "certs/server.pem": "looks like a credential file (*.pem)",
        "deploy/id_rsa": "looks like a credential file (id_rsa)",
        "gcp/credentials.json": "looks like a credential file (credentials.json)",
    }
    assert ".env" in paths(read_repo(tmp_path, include_secrets=True))


def test_credential_file_reason_on_names():
    assert str(credential_file_reason("deploy/.env")) == "looks like a credential file (.env)"
    assert str(credential_file_reason("deploy/.env.prod")) == "looks like a credential file (.env.*)"
    assert credential_file_reason(".env.example") is None
    assert credential_file_reason("shop/keys.py") is None


def test_ordinary_code_has_no_credential():
    assert credential_in_text("def private_key_path(home):\n    return home / '.ssh' / 'id_rsa'\n") is None


def test_bad_arguments_raise_for_people(tmp_path):
    with pytest.raises(ValueError, match="no such directory"):
        read_repo(tmp_path / "missing")
    write(tmp_path, "file.txt")
    with pytest.raises(ValueError, match="not a directory"):
        read_repo(tmp_path / "file.txt")
    with pytest.raises(ValueError, match="max_file_bytes must be a positive whole number of bytes, got 0"):
        read_repo(tmp_path, max_file_bytes=0)
    with pytest.raises(ValueError, match="max_tree_bytes must be a positive whole number of bytes, got -1"):
        read_repo(tmp_path, max_tree_bytes=-1)


def test_order_is_sorted_posix_paths_and_progress_counts_files(tmp_path):
    for rel in ("b/z.py", "a.py", "b/a.py", "B.py"):
        write(tmp_path, rel)
    calls = []
    repo = read_repo(tmp_path, progress=calls.append)
    assert paths(repo) == ["B.py", "a.py", "b/a.py", "b/z.py"]
    assert calls == [1, 1, 1, 1]


def test_sample_project_reads_as_the_lesson_describes(tmp_path):
    repo = read_repo(build_sample_project(tmp_path))
    assert len(repo.files) == 23
    assert reasons(repo) == {".env": "looks like a credential file (.env)",
                             "server.log": "ignored by .gitignore",
                             "static/logo.png": "binary (NUL bytes in the first 8 KiB)",
                             "vendor/": "ignored by .gitignore"}
    assert [n.path for n in repo.notes] == ["data/legacy_customers.csv"]
    aws = next(f for f in repo.files if f.path == "deploy/invoice_archive.ini")
    assert str(credential_in_text(aws.text)) == "holds a secret (gitleaks: generic-api-key)"


def test_sample_project_is_byte_for_byte_deterministic(tmp_path):
    def digest(root):
        return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
                for p in sorted(root.rglob("*")) if p.is_file()}
    first, second = digest(build_sample_project(tmp_path / "a")), digest(build_sample_project(tmp_path / "b"))
    assert first == second
    assert not [p for p in first if p.endswith(".tmp")]


def test_a_folder_that_cannot_be_read_is_reported_not_fatal(tmp_path, monkeypatch):
    write(tmp_path, "locked/a.py")
    write(tmp_path, "open.py")
    real_open = os.open

    def refusing_open(path, flags, *args, **kwargs):  # the walk opens each folder by name in its parent
        if str(path) == "locked":  # root can read anything, so refuse as the OS would
            raise PermissionError(13, "Permission denied")
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", refusing_open)
    repo = read_repo(tmp_path)
    assert paths(repo) == ["open.py"]
    assert reasons(repo) == {"locked/": "folder cannot be read (Permission denied)"}
    # The OS's reason is worded in Hindi too (it stayed English inside the Hindi line: round s43)
    assert repo.skipped[0].text("hi").endswith("(अनुमति नहीं है)")
    assert pickle.loads(pickle.dumps(repo.skipped[0])).text("hi") == repo.skipped[0].text("hi")


def test_a_gitignore_line_that_is_no_pattern_is_noted_not_fatal(tmp_path):
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / ".gitignore").write_text("!\n*.log\n", encoding="utf-8")
    (tmp_path / "sub" / "a.log").write_text("log\n", encoding="utf-8")
    (tmp_path / "sub" / "a.py").write_text("x = 1\n", encoding="utf-8")
    repo = read_repo(tmp_path)
    assert [f.path for f in repo.files] == ["sub/.gitignore", "sub/a.py"]
    assert [(n.path, n.reason) for n in repo.notes] == [("sub/.gitignore", "line 1 ('!') is not a pattern; left out")]


def test_exclude_as_a_bare_string_is_refused(tmp_path):
    with pytest.raises(ValueError, match=r"exclude must be a list of patterns, got the string '\*.md'"):
        read_repo(tmp_path, exclude="*.md")
