"""A room on JupyterHub (``python3 run.py hub``): the sign-in name rule and each learner's own system user.

A name a learner types becomes three things: their name on the hub, their home's folder
(``<room>/homes/<name>``) and, when the hub runs as root, a system user of their own. So it must
be one safe path component and a valid user name. ``sign_in_name`` applies the rule:

    "  Asha Rao " -> "asha.rao"      (spaces become one ".", capitals lowercase)
    "आशा"         -> refused: "letters"  (Latin letters a-z, digits, ".", "_", "-" only)

A refusal is a code and its parameters (``NameRefused``); ``name_rule_text`` gives the words in
English or Hindi, for the login page. ``system_user`` maps a name to the user its server runs as
(``ctx-asha.rao``), as The Littlest JupyterHub maps its learners to ``jupyter-<name>``.
``copy_lessons`` gives a new home its copy of the lessons, written by the learner's own user.
Not handled: creating the user (``tools/jupyterhub_config.py`` runs ``useradd``), passwords.
"""
from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
import sys
import unicodedata
from pathlib import Path

from ctxlib.i18n import N_, check_lang, message

NAME_MAX_CHARS = 40
# What a learner may type, after spaces became "." and capitals lowercase.
NAME_PATTERN = re.compile(rf"^[a-z0-9][a-z0-9._-]{{0,{NAME_MAX_CHARS - 1}}}$")
SYSTEM_PREFIX = "ctx-"
SYSTEM_MAX_CHARS = 32  # useradd's limit on a user name

# Each rule a name can break, as a message id; its params fill the placeholders.
RULES = {
    "empty": N_("Type your name (for example: asha.rao)."),
    "letters": N_("A name may use only the letters a-z, digits, '.', '_' and '-'; "
                  "{char!r} is not one of them (type it in Latin letters: asha.rao)."),
    "start": N_("A name must begin with a letter or a digit, not {char!r}."),
    "length": N_("A name may be at most {limit} characters; this one has {n}."),
    "password": N_("The password is not the room's password; ask your instructor for it."),
    "one_learner": N_("This hub serves one learner only ({name}): it was started without root, so it "
                      "cannot keep learners apart. Ask your instructor."),
}


class NameRefused(ValueError):
    """A sign-in name that breaks a rule: ``code`` (a ``RULES`` key) and ``params`` for its message."""

    def __init__(self, code: str, **params):
        super().__init__(f"{code}: {params}")
        self.code, self.params = code, params


def name_rule_text(code: str, lang: str = "en", **params) -> str:
    """The words for refusal ``code`` (a ``RULES`` key) in ``lang`` ("en" or "hi"); KeyError, ValueError otherwise."""
    return message(RULES[code], check_lang(lang), **params)


def sign_in_name(typed: str) -> str:
    """The hub name for what a learner typed, or ``NameRefused`` saying which rule it breaks.

    Leading and trailing spaces go, each run of spaces inside becomes one ".", capitals become
    lowercase (Unicode NFKC first, so a full-width "Ａ" is "a"). The result must match
    ``NAME_PATTERN``: ``sign_in_name("Asha Rao")`` -> ``"asha.rao"``; ``sign_in_name("")`` raises
    ``NameRefused("empty")``; ``sign_in_name("आशा")`` raises ``NameRefused("letters", char="आ")``.
    """
    name = re.sub(r"\s+", ".", unicodedata.normalize("NFKC", str(typed)).strip()).lower()
    if not name:
        raise NameRefused("empty")
    bad = next((c for c in name if not re.fullmatch(r"[a-z0-9._-]", c)), None)
    if bad is not None:
        raise NameRefused("letters", char=bad)
    if not name[0].isalnum():
        raise NameRefused("start", char=name[0])
    if len(name) > NAME_MAX_CHARS:
        raise NameRefused("length", limit=NAME_MAX_CHARS, n=len(name))
    return name


def system_user(name: str) -> str:
    """The system user a learner's server runs as: ``"ctx-" + name``, at most 32 characters.

    A longer name keeps its first 19 characters and gets 8 hex digits of its SHA-256, so two long
    names never share a user: ``system_user("asha.rao")`` -> ``"ctx-asha.rao"``. Raises
    ``ValueError`` for a name ``sign_in_name`` would not give.
    """
    if not NAME_PATTERN.fullmatch(name):
        raise ValueError(f"not a sign-in name: {name!r}")
    user = SYSTEM_PREFIX + name
    if len(user) > SYSTEM_MAX_CHARS:
        digest = hashlib.sha256(name.encode()).hexdigest()[:8]
        user = f"{SYSTEM_PREFIX}{name[:SYSTEM_MAX_CHARS - len(SYSTEM_PREFIX) - 9]}-{digest}"
    return user


LESSONS_LEFT_OUT = (".ipynb_checkpoints", ".*.ipynb")  # Jupyter's own copies, never the course's
_COPY = ("import shutil, sys\n"
         "shutil.copytree(sys.argv[1], sys.argv[2], ignore=shutil.ignore_patterns(*sys.argv[3:]))\n")


def copy_lessons(source, home, user=None) -> bool:
    """Copy the folder ``source`` to ``home/lessons``, unless the home already has one (the learner's work).

    Args:
        source: the course's ``lessons`` folder; home: the learner's home folder.
        user: the learner's ``pwd.struct_passwd`` when the hub runs as root, else ``None``.
    Returns:
        whether a copy was made.
    Raises:
        RuntimeError: the copy failed, with its last line of error output.

    As root, the copy is made by a process running as ``user`` (``subprocess``'s ``user`` and ``group``, no
    supplementary groups), so root itself writes nothing and changes no owner inside a home the learner
    controls: a root copy and ``chown`` there could be led outside it by a link the learner's running
    process makes meanwhile (``lessons/en`` swapped for a link to ``/etc`` between two steps), writing into
    or giving the learner files anywhere. The learner's process can only do what the learner could.
    """
    dest = Path(home) / "lessons"
    if os.path.lexists(dest):
        return False
    command = [sys.executable, "-I", "-c", _COPY, str(source), str(dest), *LESSONS_LEFT_OUT]
    if user is None:  # not root: the hub's own user is the learners' too
        shutil.copytree(source, dest, ignore=shutil.ignore_patterns(*LESSONS_LEFT_OUT))
        return True
    done = subprocess.run(command, user=user.pw_uid, group=user.pw_gid, extra_groups=[], cwd=str(home),
                          env={"PATH": os.defpath, "HOME": str(home), "LANG": "C.UTF-8"},
                          capture_output=True, text=True)
    if done.returncode:
        said = (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1]
        raise RuntimeError(f"copying the lessons into {home} as {user.pw_name} failed: {said}")
    return True


# The login page's words (tools/hub_templates/login.html), each shown in English and Hindi.
LOGIN_WORDS = {
    "title": N_("Sign in to the course"),
    "name": N_("Your name"),
    "name_rule": N_("Latin letters a-z, digits, '.', '_' and '-'; spaces become '.' "
                    "(Asha Rao signs in as asha.rao)."),
    "password": N_("The room's password"),
    "language": N_("Lessons in"),
    "sign_in": N_("Sign in"),
}


def login_words(lang: str) -> dict[str, str]:
    """``LOGIN_WORDS`` in ``lang`` ("en" or "hi"): ``{"title": ..., "name": ..., ...}``; ValueError otherwise."""
    return {key: message(msgid, check_lang(lang)) for key, msgid in LOGIN_WORDS.items()}
