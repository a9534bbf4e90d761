"""Messages in the learner's language: one gettext catalog per language, managed with Babel.

Every sentence the library or the course can show a person is written once, in English, as
a gettext message id, and translated in ``ctxlib/locale/<lang>/LC_MESSAGES/ctxlib.po``
(compiled to ``ctxlib.mo`` beside it). A translator adds a language without reading code::

    python3 run.py catalogs        # extract every message id, update each .po, compile the .mo files

In code, a message is looked up where it is shown::

    message("tokens used: {used} of {budget}", "hi", used=150, budget=300)
    -> 'इस्तेमाल हुए tokens: 150 / 300'

Placeholders are ``str.format`` fields, filled after translation, so a translation may
reorder them. ``N_`` marks a message id that is stored (in a table, a dataclass) and looked up
later. A message id with no translation falls back to English; ``tests/test_i18n.py`` fails on
any such gap, so a learner never meets one. Not handled: plural rules beyond gettext's own
(``message_n``), right-to-left scripts.
"""
from __future__ import annotations

import errno
import gettext
import json
import os
import re
import reprlib
from functools import lru_cache
from pathlib import Path

LANGS = ("en", "hi")
DOMAIN = "ctxlib"
LOCALE_DIR = Path(__file__).with_name("locale")


def check_lang(lang) -> str:
    """``lang`` itself if it is one of ``LANGS``; otherwise ``ValueError`` naming the value."""
    if lang not in LANGS:
        raise ValueError(f"lang must be one of {sorted(LANGS)}, got {lang!r}")
    return lang


def language_of(name: str) -> str:
    """The language part of a locale name or language tag, in lower case: ``"hi_IN.UTF-8"``, ``"hi-IN"``,
    ``"HI"``, ``"hi@devanagari"`` -> ``"hi"``; ``"C.UTF-8"`` -> ``"c"``; ``""`` -> ``""``."""
    return re.split(r"[_.@:-]", name.strip(), maxsplit=1)[0].lower()


def lang_from_environment(environ=None) -> str:
    """The language a command prints in when it is not given ``--lang``: ``"en"`` or ``"hi"``.

    Args:
        environ: a mapping of environment variables (default ``os.environ``).
    Returns:
        ``CTXLIB_LANG``'s language if it is one of ``LANGS`` (``hi``, ``HI``, ``hi_IN.UTF-8``); else
        ``"hi"`` if the locale (``LC_ALL``, then ``LC_MESSAGES``, then ``LANG``, the order setlocale
        reads them in) is Hindi (``hi_IN.UTF-8``, ``hi``); else ``"en"``.
    """
    environ = os.environ if environ is None else environ
    setting = environ.get("CTXLIB_LANG", "")
    chosen = language_of(setting)
    if chosen in LANGS:
        return chosen
    fallback = "en"
    for name in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = environ.get(name, "")
        if value:
            fallback = "hi" if language_of(value) == "hi" else "en"
            break
    if setting.strip():
        _warn_unknown_lang(setting, fallback)
    return fallback


@lru_cache(maxsize=None)
def _warn_unknown_lang(setting: str, fallback: str) -> None:
    # Once per process and setting: a command that asks twice says it once.
    import sys

    print(message(N_("ctxlib: CTXLIB_LANG={setting} is not a language ctxlib speaks ({langs}); using {lang}"),
                  fallback, setting=setting, langs=", ".join(LANGS), lang=fallback), file=sys.stderr)


@lru_cache(maxsize=None)
def translation(lang: str) -> gettext.NullTranslations:
    """The compiled catalog for ``lang`` (English falls back to the message ids themselves)."""
    check_lang(lang)
    return gettext.translation(DOMAIN, localedir=str(LOCALE_DIR), languages=[lang], fallback=True)


def message(msgid: str, lang: str = "en", /, **params) -> str:
    """``msgid`` translated into ``lang``, with ``params`` filled in.

    Args:
        msgid: the English text, a ``str.format`` template (``"{used} of {budget}"``).
        lang: ``"en"`` or ``"hi"``.
        params: values for the template's fields.
    Returns:
        the translated text; the English ``msgid`` if the catalog has no entry for it.
    Raises:
        ValueError: for an unknown ``lang``.
        KeyError: if the template names a field that ``params`` does not give.
    """
    text = translation(lang).gettext(msgid)
    return text.format(**params) if params else text


def message_n(singular: str, plural: str, n: int, lang: str = "en", /, **params) -> str:
    """Like ``message``, choosing the singular or plural form for the count ``n`` (``n`` is passed as a field too)."""
    text = translation(lang).ngettext(singular, plural, n)
    return text.format(n=n, **params)


def N_(msgid: str) -> str:
    """Mark ``msgid`` for the catalog without translating it now; ``message(msgid, lang)`` does that later."""
    return msgid


def N_n(singular: str, plural: str) -> tuple[str, str]:
    """Mark a plural pair for the catalog, as ``N_`` does one id: ``(*N_n("{n} file", "{n} files"), n, {})``
    is a ``Worded`` part that ``message_n`` words later."""
    return singular, plural


def in_lang(value, lang: str) -> str:
    """``value`` worded in ``lang`` if it can be (a ``Worded``, a ``reasons.Skipped``: anything with ``text(lang)``),
    else ``str(value)``; ``ValueError`` for an unknown ``lang``."""
    check_lang(lang)
    return value.text(lang) if callable(getattr(value, "text", None)) else str(value)


# A value as a message shows it: repr's, kept short (reprlib: the start of a long string or list, six levels deep).
_SHOWN = reprlib.Repr()
_SHOWN.maxstring = _SHOWN.maxother = _SHOWN.maxlong = 160
_SHOWN.maxlist = _SHOWN.maxtuple = _SHOWN.maxdict = _SHOWN.maxset = _SHOWN.maxfrozenset = _SHOWN.maxdeque = 20


def shown(value) -> str:
    """``value`` as an error message shows it: its ``repr`` when that is short, else a bounded form, and never an
    exception. ``shown("gpt2")`` -> ``"'gpt2'"``; a 10 MB string -> its start and end and ``"(10,000,000
    characters)"``; an int of 100,000 digits (``repr`` refuses it) -> ``"<int of about 100,001 digits>"``; a value
    whose own ``repr`` raises -> ``"<Thing instance at 0x...>"``; a list nested 100,000 deep -> six levels of it."""
    long_text = isinstance(value, (str, bytes, bytearray)) and len(value) > 1_000
    try:
        text = _SHOWN.repr(value) if long_text else repr(value)
    except Exception:  # a class's own __repr__, RecursionError, an int too long for str (ValueError)
        try:
            text = _SHOWN.repr(value)
        except Exception:
            text = _unshowable(value)
    if long_text:
        return f"{text} ({len(value):,} characters)"
    return text if len(text) <= 200 else f"{text[:160]}... ({len(text):,} characters)"


def _unshowable(value) -> str:
    if isinstance(value, int):  # str() refuses to write it out, so it cannot count its digits either
        return f"<int of about {int(value.bit_length() * 0.30103) + 1:,} digits>"
    return f"<{type(value).__name__} object>"


class Worded(str):
    """Text that is English as a ``str`` and can be worded again in any of ``LANGS``: ``text(lang)``.

    ``Worded((N_("{n:,} files read"), {"n": 3}), (N_("; {k} left out"), {"k": 1}))`` is the English of its
    parts, joined (``"3 files read; 1 left out"``); ``text("hi")`` joins their Hindi. A part of four,
    ``(*N_n(singular, plural), n, {values})``, is worded by ``message_n``. A value that can be
    worded itself (``in_lang``) is worded in the same language. The library raises and stores these where a
    message may reach a person, so a command prints it in the person's language. Raises ``KeyError`` now, not
    when shown, if a part's template names a field its values do not give.
    """

    parts: tuple

    def __new__(cls, *parts):
        self = super().__new__(cls, _join(parts, "en"))
        self.parts = parts
        return self

    def text(self, lang: str = "en") -> str:
        """The text in ``lang``; ``ValueError`` for an unknown language."""
        return _join(self.parts, check_lang(lang))

    def __reduce__(self):  # a copy keeps its parts (str's own would keep only the English)
        return (_worded_from, self.parts)


def _worded_from(*parts) -> Worded:
    return Worded(*parts)


def _join(parts, lang: str) -> str:
    def worded(params: dict) -> dict:
        return {k: v.text(lang) if callable(getattr(v, "text", None)) else v for k, v in params.items()}

    return "".join(message(part[0], lang, **worded(part[1])) if len(part) == 2
                   else message_n(part[0], part[1], part[2], lang, **worded(part[3])) for part in parts)


# The OS's words for the errors a reader or writer of files meets most; another errno keeps the OS's own text.
_OS_WORDS = {errno.EACCES: N_("permission denied"), errno.EPERM: N_("operation not permitted"),
             errno.ENOENT: N_("no such file or folder"), errno.ENOSPC: N_("no space left on the disk"),
             errno.EROFS: N_("the file system is read-only"), errno.EISDIR: N_("is a folder"),
             errno.ENOTDIR: N_("not a folder"), errno.ELOOP: N_("too many levels of symbolic links"),
             errno.ENAMETOOLONG: N_("the name is too long"), errno.EMFILE: N_("too many open files"),
             errno.EIO: N_("input/output error")}


class OsProblem(str):
    """An ``OSError``'s reason: in English the OS's own words (``"Permission denied"``), and ``text(lang)`` in
    ``lang`` for the common ``errno`` values (``_OS_WORDS``), so a Hindi line does not end in English. Made by
    ``os_problem``; ``in_lang`` and ``Skipped`` word it like any ``Worded``."""

    def __new__(cls, text: str, number: int | None = None):
        self = super().__new__(cls, text)
        self.number = number
        return self

    def text(self, lang: str = "en") -> str:
        """The reason in ``lang``; the OS's text where the catalog has no words for its ``errno``."""
        words = _OS_WORDS.get(self.number)
        return str(self) if check_lang(lang) == "en" or words is None else message(words, lang)

    def __reduce__(self):  # a copy keeps its errno
        return (OsProblem, (str(self), self.number))


def os_problem(exc: OSError) -> OsProblem:
    """``exc.strerror`` (or ``str(exc)`` when it has none) as an ``OsProblem``:
    ``os_problem(PermissionError(13, "Permission denied")).text("hi")`` -> ``"अनुमति नहीं है"``."""
    return OsProblem(exc.strerror or str(exc), exc.errno)


class _Wording:
    """What a worded exception adds to its class: ``text(lang)``, and ``of`` to raise one from a message id."""

    def text(self, lang: str = "en") -> str:
        """The message in ``lang`` (English if it was raised with plain text); ``ValueError`` for an unknown language."""
        return in_lang(self.args[0] if self.args else "", lang)

    @classmethod
    def of(cls, msgid: str, /, **params):
        """``cls(Worded((msgid, params)))``: ``WordedError.of(N_("got {value}"), value=repr(x))``. Pass a value
        already as text (``repr(x)``): it is shown in every language, and the error stays picklable."""
        return cls(Worded((msgid, params)))


class WordedError(_Wording, ValueError):
    """A ``ValueError`` a person may read in any of ``LANGS``: ``str(error)`` is the English, ``text(lang)`` the
    words in ``lang``. Raised with a ``Worded`` (``WordedError(Worded(...))``) or plain text (English only)."""


class WordedTypeError(_Wording, TypeError):
    """A ``TypeError`` a person may read in any of ``LANGS``, as ``WordedError`` is a ``ValueError``."""


def error_name(exc: BaseException) -> str:
    """The class name a person reads for ``exc``: ``"ValueError"`` for a ``WordedError``, ``"TypeError"`` for a
    ``WordedTypeError`` (the classes their raisers document), else ``type(exc).__name__``."""
    if isinstance(exc, WordedError):
        return "ValueError"
    return "TypeError" if isinstance(exc, WordedTypeError) else type(exc).__name__


def extract_notebook(fileobj, keywords, comment_tags, options):
    """Babel extractor for ``.ipynb``: the message ids in a notebook's code cells (``babel.cfg`` names it)."""
    from babel.messages.extract import extract_python
    import io

    cells = json.load(fileobj)["cells"]
    code = "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")
    # IPython magics and shell lines are not Python; blank them so the parser reads the rest.
    code = "\n".join("" if line.lstrip().startswith(("%", "!")) else line for line in code.splitlines())
    yield from extract_python(io.BytesIO(code.encode("utf-8")), keywords, comment_tags, options)
