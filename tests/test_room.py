"""The room's sign-in rule and system users (ctxlib.course.room), and what run.py hub says about isolation."""
from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

from ctxlib.course.room import NameRefused, login_words, name_rule_text, sign_in_name, system_user

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize("typed, name", [("Asha Rao", "asha.rao"), ("  ravi  ", "ravi"), ("Li   Wei", "li.wei"),
                                         ("ＭＥＥＲＡ", "meera"), ("john_2", "john_2"), ("a" * 40, "a" * 40)])
def test_names_are_normalized(typed, name):
    assert sign_in_name(typed) == name


@pytest.mark.parametrize("typed, code, params", [
    ("", "empty", {}), ("   ", "empty", {}), ("आशा", "letters", {"char": "आ"}), ("asha@home", "letters", {"char": "@"}),
    ("../etc", "letters", {"char": "/"}), (".hidden", "start", {"char": "."}), ("-x", "start", {"char": "-"}), ("a" * 41, "length", {"limit": 40, "n": 41})])
def test_refused_names_say_which_rule(typed, code, params):
    with pytest.raises(NameRefused) as refused:
        sign_in_name(typed)
    assert (refused.value.code, refused.value.params) == (code, params)


def test_refusals_and_login_words_in_both_languages():
    assert name_rule_text("letters", "en", char="आ") == ("A name may use only the letters a-z, digits, '.', '_' and '-'; "
                                                       "'आ' is not one of them (type it in Latin letters: asha.rao).")
    hindi = name_rule_text("letters", "hi", char="आ")
    assert "'आ'" in hindi and "Latin" in hindi and "A name" not in hindi
    assert login_words("hi")["name"] == "आपका नाम" and login_words("en")["name"] == "Your name"


def test_system_users_fit_useradd_and_stay_apart():
    assert system_user("asha.rao") == "ctx-asha.rao"
    long_a, long_b = system_user("a" * 40), system_user("a" * 39 + "b")
    assert len(long_a) == len(long_b) == 32 and long_a != long_b and long_a.startswith("ctx-" + "a" * 19 + "-")
    with pytest.raises(ValueError, match="not a sign-in name"):
        system_user("Asha Rao")


def test_hub_says_what_it_cannot_isolate_without_root(monkeypatch):
    spec = importlib.util.spec_from_file_location("run", ROOT / "run.py")
    run = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(run)
    monkeypatch.setattr(run, "running_as_root", lambda: False)
    lines = run.isolation_report(shared_account=False)
    assert "not running as root" in lines[0] and "read every other learner's home" in lines[0]
    assert "serves one learner only" in lines[1] and "--shared-account" in lines[1]
    assert "any number of learners" in run.isolation_report(shared_account=True)[1]
    monkeypatch.setattr(run, "running_as_root", lambda: True)
    assert "a system user of their own" in run.isolation_report(shared_account=False)[0]


def _nobody():
    import pwd

    if os.geteuid() != 0:
        pytest.skip("copying as another user needs root (the hub's isolated mode)")
    try:
        nobody = pwd.getpwnam("nobody")
    except KeyError:
        pytest.skip("no user 'nobody' to copy as")
    # The copy runs this Python as the learner, as a room's learners run it for their own servers. A Python
    # under root's home, or one whose shared library only root may read (CI's 3.13), cannot be tested so.
    probe = subprocess.run([sys.executable, "-I", "-c", "pass"], user=nobody.pw_uid, group=nobody.pw_gid,
                           extra_groups=[], cwd="/", capture_output=True, text=True)
    if probe.returncode:
        said = (probe.stderr.strip().splitlines() or [f"exit status {probe.returncode}"])[-1]
        pytest.skip(f"user 'nobody' cannot run {sys.executable} ({said}), as a room's learners must")
    return nobody


def test_lessons_are_copied_into_a_home_by_the_learner_not_by_root(monkeypatch):
    """As root, the hub's copy of the lessons into a learner's home is made by a process running as the learner:
    root writing or changing owners in a folder the learner controls can be led outside it by a link the
    learner's process swaps in meanwhile (found by the hostile review: copytree, then os.walk + chown as root)."""
    import shutil
    import tempfile

    from ctxlib.course import room

    nobody = _nobody()
    top = Path(tempfile.mkdtemp(prefix="ctxlib-copy-"))  # not pytest's 0700 folder: 'nobody' must reach it
    try:
        os.chmod(top, 0o755)
        source, home = top / "lessons", top / "home"
        (source / "en" / ".ipynb_checkpoints").mkdir(parents=True)
        (source / "en" / "01.ipynb").write_text("{}\n")
        (source / "en" / ".~01.ipynb").write_text("{}\n")
        home.mkdir(mode=0o700)
        os.chown(home, nobody.pw_uid, nobody.pw_gid)

        def as_root(*args, **kwargs):
            raise AssertionError("root wrote into the learner's home")

        for name in ("copytree", "copy2", "copyfile"):
            monkeypatch.setattr(shutil, name, as_root)
        monkeypatch.setattr(os, "chown", as_root)
        assert room.copy_lessons(source, home, nobody) is True
        monkeypatch.undo()
        copied = home / "lessons" / "en" / "01.ipynb"
        assert copied.read_text() == "{}\n" and copied.stat().st_uid == nobody.pw_uid
        assert sorted(p.name for p in (home / "lessons" / "en").iterdir()) == ["01.ipynb"]
        copied.write_text("the learner's work\n")
        assert room.copy_lessons(source, home, nobody) is False  # never over what is there
        assert copied.read_text() == "the learner's work\n"
    finally:
        shutil.rmtree(top)


def test_a_copy_the_learner_cannot_make_is_one_line_naming_the_home():
    import shutil
    import tempfile

    from ctxlib.course import room

    nobody = _nobody()
    top = Path(tempfile.mkdtemp(prefix="ctxlib-copy-"))
    try:
        os.chmod(top, 0o755)
        (top / "lessons").mkdir()
        (top / "home").mkdir(mode=0o755)  # root's: the learner may not write in it
        with pytest.raises(RuntimeError, match=r"copying the lessons into .*home as nobody failed: PermissionError"):
            room.copy_lessons(top / "lessons", top / "home", nobody)
    finally:
        shutil.rmtree(top)
