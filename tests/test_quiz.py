"""Quick checks: the quiz files, their validation, grading, and the widget's callback."""
import json

import pytest

from ctxlib import count_tokens, estimate_tokens, pack_context
from ctxlib.examples import SEED_FILES, SEED_QUERY, SENTENCE_EN, SENTENCE_HI
from ctxlib.quiz import (LANGS, QuizError, answer_hash, check_twins, correct_option_ids, grade, load_quiz,
                         load_quiz_file, main, question_text, quizzes_dir)
from ctxlib.widgets import check_answer, quiz_widget, show_quiz

LESSON = "01_window_as_budget"
QUIZZES = {lang: load_quiz(LESSON, lang) for lang in LANGS}
ALL_QUESTIONS = [(lang, q) for lang in LANGS for q in QUIZZES[lang].questions]
IDS = [f"{lang}-{q.id}" for lang, q in ALL_QUESTIONS]
# Written down by hand from the quiz's design, so a wrong key in the files fails here.
RIGHT = {"whole_repo": {"c"}, "budget_100": {"b"}, "skip_keep_going": {"d"},
         "hindi_rough_rule": {"a", "b"}, "name_files": {"c"}}


def test_both_languages_load_with_the_same_questions():
    en, hi = QUIZZES["en"], QUIZZES["hi"]
    assert [q.id for q in en.questions] == [q.id for q in hi.questions] == [
        "whole_repo", "budget_100", "budget_120_used", "skip_keep_going", "hindi_rough_rule", "name_files"]
    assert {q.type for q in en.questions} == {"single_choice", "multiple_choice", "numeric"}
    check_twins(en, hi)
    assert all(q.lang == "hi" for q in hi.questions)


def test_the_seed_question_keeps_its_four_options_and_right_answer():
    q = QUIZZES["en"].question("whole_repo")
    assert q.prompt == "Why not always put the whole repository in the context?"
    assert [o.text for o in q.options] == [
        "Because context is free", "Repositories cannot be read",
        "It rarely fits, costs more, is slower and buries the relevant parts", "Because models dislike code"]
    assert QUIZZES["hi"].question("whole_repo").prompt == "पूरा repository हमेशा context में क्यों न रखें?"


@pytest.mark.parametrize("lang,q", [(l, q) for l, q in ALL_QUESTIONS if q.id in RIGHT], ids=lambda v: getattr(v, "id", v))
def test_hashed_keys_open_exactly_the_right_options(lang, q):
    assert correct_option_ids(q) == RIGHT[q.id]
    assert q.answer_sha256 == answer_hash(q.salt, q.id, sorted(RIGHT[q.id]))


@pytest.mark.parametrize("lang,q", ALL_QUESTIONS, ids=IDS)
def test_every_question_grades_a_right_and_a_wrong_answer(lang, q):
    if q.type == "numeric":
        right, wrong = q.answer["value"], q.answer["value"] + 1
    elif q.type == "single_choice":
        right = next(iter(RIGHT[q.id]))
        wrong = next(o.id for o in q.options if o.id not in RIGHT[q.id])
    else:
        right = sorted(RIGHT[q.id])
        wrong = sorted(RIGHT[q.id] | {next(o.id for o in q.options if o.id not in RIGHT[q.id])})
    assert grade(q, right).correct is True
    assert grade(q, wrong).correct is False


@pytest.mark.parametrize("lang,q", [(l, q) for l, q in ALL_QUESTIONS if q.options], ids=lambda v: getattr(v, "id", v))
def test_every_option_has_its_own_feedback(lang, q):
    feedbacks = [o.feedback for o in q.options]
    assert all(f.strip() for f in feedbacks) and len(set(feedbacks)) == len(feedbacks) == 4
    for option in q.options:
        said = grade(q, [option.id] if q.type == "multiple_choice" else option.id).option_feedback
        assert said == [(option.id, option.feedback)]


def test_multiple_choice_says_when_right_options_are_missing():
    for lang, note in (("en", "Some right options are not chosen yet."), ("hi", "कुछ सही विकल्प अभी चुने नहीं गए हैं।")):
        feedback = grade(QUIZZES[lang].question("hindi_rough_rule"), ["a"])
        assert feedback.correct is False and feedback.notes == [note]


def test_the_packing_questions_match_what_the_packer_does():
    assert pack_context(SEED_FILES, SEED_QUERY, 100).chosen == [("shop/pricing.py", 77)]
    assert QUIZZES["en"].question("budget_100").options[1].text == "shop/pricing.py only: 77 tokens used"
    packed = pack_context(SEED_FILES, SEED_QUERY, 120)
    assert packed.chosen == [("shop/pricing.py", 77), ("shop/cart.py", 27)]
    for lang in LANGS:
        assert QUIZZES[lang].question("budget_120_used").answer == {"value": packed.used, "abs_tol": 0}


def test_the_numeric_question_explains_common_mistakes():
    q = QUIZZES["en"].question("budget_120_used")
    assert grade(q, "104").correct and grade(q, 104.0).correct
    stopped = grade(q, 77)
    assert stopped.notes[0] == "77 is not right." and "keeps going" in stopped.notes[1]
    assert grade(q, 103).notes == ["103 is not right."]
    assert grade(q, "many").notes == ["Enter a number."]


def test_the_hindi_sentence_figures_are_what_ctxlib_counts():
    assert (len(SENTENCE_HI), estimate_tokens(SENTENCE_HI)) == (97, 24)
    assert (count_tokens(SENTENCE_HI, "o200k_base"), count_tokens(SENTENCE_HI, "cl100k_base")) == (27, 80)
    assert (len(SENTENCE_EN), estimate_tokens(SENTENCE_EN), count_tokens(SENTENCE_EN)) == (85, 21, 19)
    assert count_tokens(SENTENCE_EN, "cl100k_base") == 19
    for lang in LANGS:
        prompt = QUIZZES[lang].question("hindi_rough_rule").prompt
        assert all(str(n) in prompt for n in (97, 24, 27, 80, 85, 21, 19))


def test_grade_refuses_option_ids_the_question_lacks():
    with pytest.raises(ValueError, match="has no option"):
        grade(QUIZZES["en"].question("whole_repo"), "z")
    with pytest.raises(ValueError, match="takes one option"):
        grade(QUIZZES["en"].question("whole_repo"), ["a", "c"])


def test_question_text_reads_as_plain_text():
    assert question_text(QUIZZES["en"].question("whole_repo")) == (
        "Why not always put the whole repository in the context?\n"
        "  A) Because context is free\n  B) Repositories cannot be read\n"
        "  C) It rarely fits, costs more, is slower and buries the relevant parts\n"
        "  D) Because models dislike code\nChoose one.")
    assert question_text(QUIZZES["hi"].question("budget_120_used")).endswith("उत्तर एक संख्या में दें (tokens)।")


# --- malformed files -------------------------------------------------------------------

def _english():
    return json.loads((quizzes_dir() / "en" / f"{LESSON}.json").read_text(encoding="utf-8"))


def _write(tmp_path, data):
    path = tmp_path / "broken.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def _break(data, question_id, change):
    question = next(q for q in data["questions"] if q["id"] == question_id)
    change(question)
    return data


@pytest.mark.parametrize("change,question_id,field,problem", [
    (lambda q: q.pop("explanation"), "budget_100", "questions/1", "'explanation' is a required property"),
    (lambda q: q.update(type="essay"), "skip_keep_going", "questions/3/type", "'essay' is not one of"),
    (lambda q: q.update(answer_sha256="0" * 64), "name_files", "questions/5/answer_sha256", "matches no set of options"),
    (lambda q: q.update(id="whole_repo"), "whole_repo", "questions/1/id", "same id"),
    (lambda q: q["options"].__delitem__(slice(1, None)), "whole_repo", "questions/0/options", "too short"),
    (lambda q: q["options"][2].pop("feedback"), "hindi_rough_rule", "questions/4/options/2", "'feedback' is a required"),
    (lambda q: q.update(answer={"min": 110, "max": 100}), "budget_120_used", "questions/2/answer", "above max"),
], ids=["missing-field", "unknown-type", "wrong-hash", "duplicate-id", "one-option", "option-feedback", "bad-range"])
def test_a_malformed_file_names_the_file_question_and_field(tmp_path, change, question_id, field, problem):
    target = "budget_100" if question_id == "whole_repo" and field.endswith("/id") else question_id
    path = _write(tmp_path, _break(_english(), target, change))
    with pytest.raises(QuizError) as caught:
        load_quiz_file(path)
    err = caught.value
    assert (err.path, err.question_id, err.field) == (str(path), question_id, field)
    assert problem in str(err) and str(path) in str(err) and repr(question_id) in str(err)


def test_bad_json_names_the_question_nearest_the_error(tmp_path):
    text = (quizzes_dir() / "en" / f"{LESSON}.json").read_text(encoding="utf-8")
    cut = text.index('"id": "budget_120_used"') + 200  # end the file halfway through that question
    with pytest.raises(QuizError, match=r"broken\.json: question 'budget_120_used', field \(JSON syntax\): not valid JSON"):
        load_quiz_file(_write(tmp_path, text[:cut]))


def test_twins_that_disagree_are_refused():
    hi = load_quiz(LESSON, "hi")
    hi.questions[1].answer_sha256 = hi.questions[0].answer_sha256
    with pytest.raises(QuizError, match="question 'budget_100', field questions/1/answer_sha256"):
        check_twins(QUIZZES["en"], hi)
    hi.questions.pop()
    with pytest.raises(QuizError, match="field questions: ids"):
        check_twins(QUIZZES["en"], hi)


def test_maintainer_hash_command_reproduces_the_stored_key(capsys):
    q = QUIZZES["en"].question("hindi_rough_rule")
    main(["hash", q.id, "b,a", "--salt", q.salt])
    assert json.loads(capsys.readouterr().out) == {"salt": q.salt, "answer_sha256": q.answer_sha256}
    main(["check"])
    assert f"ok: {LESSON} (6 questions, en, hi)" in capsys.readouterr().out


# --- the widget, without a browser -----------------------------------------------------

def _click_check(box):
    box.children[1].children[0].click()
    return box.children[2].value


def test_check_button_shows_the_verdict_and_option_feedback():
    q = QUIZZES["en"].question("whole_repo")
    box = quiz_widget(q, "en")
    box.children[0].value = "a"
    shown = _click_check(box)
    assert "Not quite. Try again." in shown and "A) Not so: every token" in shown and "Explanation" not in shown
    box.children[0].value = "c"
    assert check_answer(q, "c", "en").startswith("Correct!\nC) Right: a real repository")
    assert "Correct!" in _click_check(box) and "Explanation: The window must also hold" in box.children[2].value


def test_check_button_in_hindi_for_multiple_choice_and_numbers():
    multiple = quiz_widget(QUIZZES["hi"].question("hindi_rough_rule"), "hi")
    label, *boxes = multiple.children[0].children
    assert label.value == "उत्तर:" and [b.description for b in boxes] == ["A", "B", "C", "D"]
    boxes[0].value = boxes[1].value = True
    assert _click_check(multiple).startswith("<div") and "सही!\nA) सही: 24, 27 और 80" in multiple.children[2].value
    numeric = quiz_widget(QUIZZES["hi"].question("budget_120_used"), "hi")
    numeric.children[0].value = 123
    assert "अभी पूरी तरह सही नहीं।" in _click_check(numeric) and "123 सही नहीं है।" in numeric.children[2].value
    numeric.children[1].children[1].click()
    assert "संकेत 1: सबसे ऊँचे score से शुरू करें" in numeric.children[2].value


def test_show_quiz_prints_every_question_as_text(capsys):
    for lang, heading in (("en", "Quick check 1 of 6"), ("hi", "त्वरित जाँच 1 (6 में से)")):
        show_quiz(LESSON, lang)
        out = capsys.readouterr().out
        assert out.startswith(heading + "\n" + question_text(QUIZZES[lang].questions[0]))
        assert all(question_text(q) in out for q in QUIZZES[lang].questions)
        assert repr(quiz_widget(QUIZZES[lang].questions[0])) in out  # the widget's short plain-text stand-in


def test_the_format_already_takes_code_exercises_and_every_numeric_key(tmp_path):
    data = _english()
    data["questions"] += [
        {"id": "own_ceiling", "type": "code", "prompt": "Write first_turn_ceiling(window, reply_room).",
         "starter": "def first_turn_ceiling(window, reply_room):\n    ...\n", "solution": "return window - reply_room",
         "checker": "ctxlib.exercises:check_first_turn_ceiling", "hints": ["Subtract."], "explanation": "What is left."},
        {"id": "rel", "type": "numeric", "prompt": "p", "answer": {"value": 200, "rel_tol": 0.05}, "explanation": "e"},
        {"id": "span", "type": "numeric", "prompt": "p", "answer": {"min": 10, "max": 20}, "explanation": "e"},
    ]
    quiz = load_quiz_file(_write(tmp_path, data))
    code, rel, span = quiz.questions[-3:]
    assert question_text(code).endswith("def first_turn_ceiling(window, reply_room):\n    ...\nWrite code, then run q.check().")
    with pytest.raises(NotImplementedError, match="code exercise"):
        grade(code, "anything")
    assert [grade(rel, v).correct for v in (190, 210, 189.9, 210.1)] == [True, True, False, False]
    assert [grade(span, v).correct for v in (10, 20, 9.99, 20.01)] == [True, True, False, False]
