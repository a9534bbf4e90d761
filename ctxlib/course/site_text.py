"""The words of the course's static site (``tools/build_site.py``): navigation, search, answers.

Message ids only, looked up in the catalogs like every other learner-visible text
(``ctxlib.i18n.message``); ``site_text(key, lang)`` translates one. The site's pages are built
from the saved notebooks; only these words are the site's own.
"""
from __future__ import annotations

from ctxlib.i18n import N_, check_lang, message

SITE_TEXT = {
    "title": N_("How a coding agent chooses its context"),
    "subtitle": N_("A course in four lessons, with ctxlib, the library it builds"),
    "intro": N_("Each lesson is a notebook: read it here with its saved results, run it in your browser "
                "with nothing to install, or run it on your own machine."),
    "lessons": N_("Lessons"),
    "glossary": N_("Glossary"),
    "glossary_intro": N_("The terms of the course and how the Hindi lessons write them."),
    "search": N_("Search"),
    "search_label": N_("Search the course"),
    "search_results": N_("{n} places have “{query}”:"),
    "search_none": N_("No page has “{query}”."),
    "search_needs_script": N_("Search needs JavaScript; the lessons and the glossary read without it."),
    "previous": N_("Previous"),
    "next": N_("Next"),
    "home": N_("Course home"),
    "skip": N_("Skip to the content"),
    "language": N_("Language"),
    "run_in_browser": N_("Run this lesson in your browser"),
    "run_in_browser_note": N_("nothing to install; Python starts in the tab in about 20 seconds"),
    "run_locally": N_("On your own machine, in a copy of the course: {command} (sets everything up, then "
                      "opens the lessons in JupyterLab)."),
    "answer": N_("Show the answer"),
    "correct_options": N_("Answer: {letters}"),
    "correct_number": N_("Answer: {value}"),
    "explanation": N_("Explanation"),
    "widget_note": N_("In JupyterLab or the browser build this is a control you can move; here it shows "
                      "its first result."),
    "code_exercise": N_("A code exercise: write it in JupyterLab or in the browser build, where a check runs it."),
    "footer": N_("Built from the course's saved notebooks. Hindi is set in Noto Sans Devanagari "
                 "(SIL Open Font License), shipped with the site."),
}


def site_text(key: str, lang: str, **params) -> str:
    """One of the site's words (a ``SITE_TEXT`` key) in ``lang`` ("en" or "hi"), with ``params`` filled in.

    Raises ``ValueError`` for an unknown language and ``KeyError`` for an unknown key.
    """
    return message(SITE_TEXT[key], check_lang(lang), **params)
