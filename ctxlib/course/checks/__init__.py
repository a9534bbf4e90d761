"""Each lesson's exercise checkers, one module per lesson, as learntools keeps one file per exercise set.

A checker is a function of no arguments returning ``ctxlib.course.exercises.Case`` values: the
arguments to call the learner's answer with, the expected value computed by ctxlib, and how to name
the input in each language (``describe(N_("for ..."))``, so the catalogs see every sentence). A quiz
file names it as ``"ctxlib.course.checks.lesson1:scorer_cases"``.

The first cases of a code exercise are the lesson's own example, named with their inputs; the
cases after them catch one kind of bug each (a boundary, a tie, a repeat, empty input, non-ASCII
text, the misconception the section warns about) and are named by what they test, never by their
data, so a failure message gives nothing to hard-code. ``tests/test_checks_lesson<N>.py`` hold the
wrong answers each checker must reject and the right answers it must accept.

Adding an exercise: write its checker here, name it in the quiz file's ``checker``, run
``python3 run.py catalogs`` and write the Hindi, then add its wrong and right answers to the
lesson's test file (``tests/test_checks_coverage.py`` fails until a function exercise has them).
"""
