"""The library's input checks speak the learner's language: each is a ``WordedError`` (a ``ValueError``) or a
``WordedTypeError`` (a ``TypeError``) whose ``str`` is the English it always was and whose ``text("hi")`` is Hindi
that still names the bad value. A sweep keeps new plain-English raises out of the modules a learner reaches."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from ctxlib import ceiling, cost, evaluate, fit, ledger, overflow, packing, prefix, ranking, recent, removal, repo
from ctxlib import scoring, strategies, tokens, transcript, views
from ctxlib.course import answers, charts, exercises, quiz, runs, sample_project
from ctxlib.course.widgets import lesson1 as widgets1, lesson4 as widgets4
from ctxlib.i18n import WordedError, WordedTypeError, error_name, in_lang

DEVANAGARI = re.compile("[\u0900-\u097f]")
PACKAGE = Path(ceiling.__file__).parent


def _knapsack_too_big():
    files = [[strategies.Option(f"f{i}.py", "whole", 1.0, lambda: "x = 1\n")] for i in range(3)]
    strategies.knapsack(files, 99, lambda option, budget: 10, max_cells=5)


# (case id, the call, the class its raiser documents, the English it always said, the bad value as shown)
CASES = [
    ("packing.check_budget", lambda: packing.check_budget(-5), ValueError,
     "budget must be a positive whole number of tokens, got -5", "-5"),
    ("packing.budget_after_margin", lambda: packing.budget_after_margin(1_000, 100), ValueError,
     "margin must be a percentage from 0 up to (not including) 100, got 100", "100"),
    ("packing.budget_after_margin leaves nothing", lambda: packing.budget_after_margin(3, 90), ValueError,
     "a margin of 90% leaves nothing of a budget of 3 tokens", "90%"),
    ("scoring.clean_terms string", lambda: scoring.clean_terms("discount pricing"), ValueError,
     "query_terms must be a list of terms, got the string 'discount pricing'; try ['discount', 'pricing']",
     "'discount pricing'"),
    ("scoring.clean_terms term", lambda: scoring.clean_terms(["discount", 7]), TypeError,
     "each query term must be a string, got 7", "7"),
    ("ceiling.first_turn_ceiling", lambda: ceiling.first_turn_ceiling(24_000, window_tokens=-1), ValueError,
     "window_tokens must be a whole number of tokens >= 1, got -1", "-1"),
    ("ceiling.route", lambda: ceiling.route("everything"), ValueError,
     "no task class for declared scope 'everything'; known scopes: 'one-line', 'refactor'", "'everything'"),
    ("ceiling.window_share", lambda: ceiling.window_share(10**400, 1), ValueError,
     "window_tokens / repo_tokens is too large for a float: a window of 401 digits over 1 tokens", "401"),
    ("cost.Pricing", lambda: cost.Pricing("mine", -0.5, 1.25), ValueError,
     "read_fraction must be a number >= 0, got -0.5", "-0.5"),
    ("ledger.percentile", lambda: ledger.percentile([3, "x"], 50), ValueError,
     "percentile needs numbers, got 'x' at position 1", "'x'"),
    ("ledger.round_to", lambda: ledger.round_to(1_000, 0), ValueError,
     "step must be a positive whole number of tokens, got 0", "0"),
    ("ledger.TurnRecord.from_dict", lambda: ledger.TurnRecord.from_dict([1]), ValueError,
     "a ledger record is a JSON object, got list", "list"),
    ("overflow.Run", lambda: overflow.Run(steps=[overflow.Step("patch", 10)]), ValueError,
     "steps[0].reply_kind must be 'edit' or 'model_message', got 'patch'", "'patch'"),
    ("prefix.render_prefix", lambda: prefix.render_prefix("be brief", [{"name": "read", "parameters": {}}]),
     ValueError, "tool schema 'read' has no 'description'", "'description'"),
    ("removal.make_block", lambda: removal.make_block("memo", 5, "a memo"), ValueError,
     f"kind must be one of {removal.KINDS}, got 'memo'", "'memo'"),
    ("removal.compaction", lambda: removal.compaction([], 10, window_tokens=100, threshold=0.5, low_mark=0.7),
     ValueError, "need 0 < low_mark < threshold <= 1, got low_mark=0.7, threshold=0.5", "0.7"),
    ("tokens.count_tokens type", lambda: tokens.count_tokens(b"def total(): ..."), TypeError,
     "text must be a string, got bytes", "bytes"),
    ("tokens.count_tokens encoding", lambda: tokens.count_tokens("x", "gpt2"), ValueError,
     f"unknown encoding 'gpt2': ctxlib ships {', '.join(sorted(tokens.ENCODINGS))}", "'gpt2'"),
    ("tokens.estimate_tokens", lambda: tokens.estimate_tokens(None), TypeError,
     "text must be a string, got NoneType", "NoneType"),
    ("transcript.simulate", lambda: transcript.simulate(transcript.Loop(passes_on_attempt=9)), ValueError,
     "passes_on_attempt must be None or 1..4, got 9", "9"),
    ("transcript.simulate kinds", lambda: transcript.simulate(transcript.Loop(evictable_kinds="diagnostics")),
     ValueError, f"evictable_kinds must be a tuple of kinds from {transcript.LOOP_KINDS}, got 'diagnostics' "
                 "(one kind is a tuple of one: ('diagnostics',))", "('diagnostics',)"),
    ("views.line_ranges", lambda: views.line_ranges([3], 10, context=-2), ValueError,
     "context must be a whole number of lines >= 0, got -2", "-2"),
    ("views.symbol_view", lambda: views.symbol_view("def f(): pass", 42), ValueError,
     "symbol_view: name must be a string, got int 42", "42"),
    ("strategies.knapsack", _knapsack_too_big, ValueError,
     "the exact knapsack needs 3 files x 100 token counts = 300 table cells, above its limit of 5; use the greedy "
     "or density strategy, a smaller budget, or a narrower query", "300"),
    ("fit.rank", lambda: fit.rank({"a.py": "x"}, "x", scorer="tfidf"), ValueError,
     "unknown scorer 'tfidf': choose one of " + ", ".join(fit.SCORERS), "'tfidf'"),
    ("fit.pack_files", lambda: fit.pack_files({"a.py": "x"}, "x", 100, strategy="random"), ValueError,
     "unknown strategy 'random': choose one of " + ", ".join(fit.STRATEGIES), "'random'"),
    ("recent.recency", lambda: recent.recency([("fix", "a.py")], ["a.py"]), ValueError,
     "commit 0: expected (message: str, paths: a list of str), got ('fix', 'a.py')", "('fix', 'a.py')"),
    ("ranking.clean_query type", lambda: ranking.clean_query(42), TypeError,
     "the query must be text or a list of texts, got 42", "42"),
    ("ranking.rank_files", lambda: ranking.rank_files({"a.py": "x"}, "x", signals=("names", "mood")), ValueError,
     "unknown signal 'mood': choose from " + ", ".join(ranking.SIGNALS), "'mood'"),
    ("evaluate.evaluate_repository", lambda: evaluate.evaluate_repository(".", budgets=(0,)), ValueError,
     "a budget must be a positive whole number of tokens, got 0", "0"),
    ("charts.removal_chart", lambda: charts.removal_chart([]), ValueError,
     "removal_chart needs at least one outcome, got none", None),
    ("runs.load_runs", lambda: runs.load_runs("aider"), ValueError,
     "agent must be one of ['openhands', 'swe-agent'], got 'aider'", "'aider'"),
    ("widgets.lesson1.request_table", lambda: widgets1.request_table({"task": "fix it"}, window_tokens=0), ValueError,
     "window_tokens must be a positive number of tokens, got 0", "0"),
    ("widgets.lesson4.make_rule", lambda: widgets4.make_rule("shuffle"), ValueError,
     f"rule must be one of {widgets4.RULES}, got 'shuffle'", "'shuffle'"),
]


@pytest.mark.parametrize("call, cls, english, shown", [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_error_is_english_as_str_and_hindi_in_hi(call, cls, english, shown):
    with pytest.raises(cls) as caught:
        call()
    exc = caught.value
    assert isinstance(exc, (WordedError, WordedTypeError))
    assert str(exc) == english
    assert exc.text("en") == english
    assert error_name(exc) == cls.__name__
    hindi = exc.text("hi")
    assert hindi != english and DEVANAGARI.search(hindi), hindi
    assert in_lang(exc, "hi") == hindi
    if shown is not None:
        assert shown in hindi, hindi


def test_repo_errors_in_hindi(tmp_path):
    with pytest.raises(ValueError) as caught:
        repo.read_repo(tmp_path, max_file_bytes=0)
    assert str(caught.value) == "max_file_bytes must be a positive whole number of bytes, got 0"
    assert caught.value.text("hi") == "max_file_bytes bytes की 0 से बड़ी पूर्ण संख्या होना चाहिए, मिला 0"
    with pytest.raises(ValueError) as caught:
        repo.read_repo(tmp_path / "nowhere")
    assert str(caught.value) == f"{tmp_path / 'nowhere'}: no such directory"
    assert caught.value.text("hi") == f"{tmp_path / 'nowhere'}: ऐसा कोई folder नहीं है"
    with pytest.raises(ValueError) as caught:
        repo.read_repo(tmp_path, include="*.py")
    assert str(caught.value) == "include must be a list of patterns, got the string '*.py'; try ['*.py']"
    assert caught.value.text("hi") == "include patterns की list होनी चाहिए, पर यह string है: '*.py'; इसे आज़माएँ: ['*.py']"


def test_sample_project_refuses_a_full_folder_in_hindi(tmp_path):
    (tmp_path / "notes.txt").write_text("mine\n")
    with pytest.raises(ValueError) as caught:
        sample_project.build_sample_git_repository(tmp_path)
    assert str(caught.value) == f"{tmp_path}: not empty; the sample repository needs an empty folder"
    assert caught.value.text("hi").startswith(f"{tmp_path}: ख़ाली नहीं है")


def test_a_ledger_line_wraps_the_worded_reason(tmp_path):
    log = tmp_path / "run.jsonl"
    log.write_text('{"run": 1}\n', encoding="utf-8")
    with pytest.raises(ValueError) as caught:
        ledger.read_ledger(log)
    assert str(caught.value).startswith(f"{log}, line 1: not a ledger record: missing field(s): turn, ")
    assert caught.value.text("hi").startswith(f"{log}, line 1: ledger का record नहीं है: ये field(s) नहीं हैं: turn, ")


def test_answers_name_the_option_in_hindi():
    question = next(q for q in quiz.load_quiz("01_window_as_budget", "en").questions if q.type == "single_choice")
    with pytest.raises(ValueError) as caught:
        answers.grade(question, "zz")
    ids = [o.id for o in question.options]
    assert str(caught.value) == f"question {question.id!r} has no option ['zz']; options: {ids}"
    assert caught.value.text("hi") == f"सवाल {question.id!r} में विकल्प ['zz'] नहीं है; विकल्प: {ids}"


def test_the_exercise_checker_shows_a_type_error_in_hindi():
    def answer(text):
        return tokens.count_tokens(text.encode())

    said = exercises._their_error(_raised(answer, "total"), exercises.MESSAGES["hi"], "hi")
    assert said.startswith("TypeError: text एक string होना चाहिए, मिला bytes")


def _raised(function, *args) -> BaseException:
    try:
        function(*args)
    except Exception as exc:  # noqa: BLE001  the exception itself is what the test reads
        return exc
    raise AssertionError("no exception")


def test_worded_errors_pickle_with_both_languages():
    import pickle

    for cls, call in ((ValueError, lambda: packing.check_budget(0)), (TypeError, lambda: tokens.count_tokens(3))):
        exc = pickle.loads(pickle.dumps(_raised(call)))
        assert isinstance(exc, cls) and DEVANAGARI.search(exc.text("hi")) and error_name(exc) == cls.__name__


# The modules a learner reaches from the lessons, the exercises and the widgets.
LEARNER_MODULES = ["bm25.py", "ceiling.py", "cost.py", "evaluate.py", "fit.py", "history.py", "ledger.py",
                   "overflow.py", "packing.py", "prefix.py", "ranking.py", "recent.py", "removal.py", "repo.py", "safegit.py",
                   "scoring.py", "strategies.py", "tokens.py", "transcript.py", "views.py", "course/answers.py", "course/charts.py",
                   "course/runs.py", "course/sample_project.py", "course/widgets/lesson1.py",
                   "course/widgets/lesson2.py", "course/widgets/lesson3.py", "course/widgets/lesson4.py"]
# Plain raises left in those modules on purpose, each with its reason.
ALLOWED = {
    ("course/charts.py", "language must be 'en' or 'hi', got "): "the notebook passes its own LANG; a wrong one is "
                                                                 "the author's mistake, and no language is known yet",
    ("course/widgets/lesson3.py", "a reason is a ctxlib.reasons.Skipped, got "): "the widget's own call; a learner "
                                                                                 "never passes a reason",
    ("course/widgets/lesson3.py", "lang must be one of "): "as charts' language: no language to word it in",
    ("history.py", "git "): "git's own first line of error output follows the command's name: English from git",
    ("tokens.py", " ranks in "): "a damaged ranks cache: usercache.cached catches it and parses the shipped file",
    ("tokens.py", "token lengths do not add up"): "a damaged ranks cache: usercache.cached catches it, as above",
}
# Raised with a literal, these say English only; with an N_ message id (``.of``, a ``Worded``) they are worded.
RAISED = ("ValueError", "TypeError", "WordedError", "WordedTypeError", "EvalError", "HistoryError")


def _plain_raises(source: str):
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
            name = getattr(node.exc.func, "id", getattr(node.exc.func, "attr", None))
            first = node.exc.args[0] if node.exc.args else None
            first = first.body if isinstance(first, ast.IfExp) else first  # f"..." if ... else f"..."
            if name in RAISED and isinstance(first, (ast.Constant, ast.JoinedStr)):
                parts = first.values if isinstance(first, ast.JoinedStr) else [first]
                lead = next((p.value for p in parts if isinstance(p, ast.Constant) and isinstance(p.value, str)), "")
                yield node.lineno, lead


def test_no_plain_english_raise_in_the_modules_a_learner_reaches():
    found = [f"{module}:{line}: {lead!r}" for module in LEARNER_MODULES
             for line, lead in _plain_raises((PACKAGE / module).read_text(encoding="utf-8"))
             if not any(module == m and lead.startswith(start) for m, start in ALLOWED)]
    assert not found, "raise a WordedError / WordedTypeError with an N_ message id instead:\n" + "\n".join(found)


def test_the_sweep_sees_a_plain_raise():
    assert list(_plain_raises('def f(x):\n    raise ValueError(f"x must be 1, got {x!r}")\n')) == [(2, "x must be 1, got ")]
    assert list(_plain_raises('raise TypeError("no")\n')) == [(1, "no")]
    assert list(_plain_raises('raise HistoryError(f"{path}: damaged")\n')) == [(1, ": damaged")]
    assert list(_plain_raises('raise ValueError(f"{r}: no folder" if x else f"{r}: not one")\n')) == [(1, ": no folder")]
    assert list(_plain_raises('raise WordedError.of(N_("got {x}"), x=1)\nraise ValueError(message)\n')) == []


def test_history_errors_in_hindi(tmp_path):
    from ctxlib import history, safegit

    root = sample_project.build_sample_git_repository(tmp_path / "shop")
    reader = history.PureGit(root)
    with pytest.raises(history.HistoryError) as caught:
        reader.write_tree("0" * 40, tmp_path / "out")
    assert str(caught.value) == f"{'0' * 40}: no such commit in {reader.git_dir}"
    assert caught.value.text("hi") == f"{'0' * 40}: {reader.git_dir} में ऐसा कोई commit नहीं है"
    with pytest.raises(history.HistoryError) as caught:
        reader.write_tree("--output=x.tar", tmp_path / "out")
    assert str(caught.value) == "'--output=x.tar': not a commit hash"
    assert caught.value.text("hi") == "'--output=x.tar': यह commit hash नहीं है"
    (root / ".git" / "description2").symlink_to(root / "README.md")
    with pytest.raises(history.HistoryError) as caught:
        safegit.recent_commits(root, 5)
    assert str(caught.value) == f"{root}: the history signal does not read this .git: a symbolic link ('description2')"
    assert caught.value.text("hi") == f"{root}: history signal यह .git नहीं पढ़ता: एक symbolic link ('description2')"


def test_a_count_that_is_not_an_int_is_shown_with_its_type():
    # "must be a positive whole number of tokens, got 2000.0" read as a contradiction (round s41).
    from ctxlib.ceiling import shown_count
    from ctxlib.packing import check_budget

    assert [shown_count(v) for v in (2000, 2000.0, "2000", True)] == ["2000", "2000.0 (float)", "'2000' (str)",
                                                                       "True (bool)"]
    with pytest.raises(ValueError) as info:
        check_budget(2000.0)
    assert str(info.value) == "budget must be a positive whole number of tokens, got 2000.0 (float)"
    assert info.value.text("hi").endswith("मिला 2000.0 (float)")
