"""The room's sign-in rule and system users (ctxlib.course.room), and what run.py hub says about isolation."""
from __future__ import annotations

import importlib.util
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
