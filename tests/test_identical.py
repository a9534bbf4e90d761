"""Identical texts are found by length, then bytes (ctxlib/identical.py): each copy points at its first."""
from ctxlib import identical
from ctxlib.identical import COMPARED, first_copies


def test_each_copy_points_at_the_first_equal_text():
    assert first_copies(["a = 1", "b", "a = 1", "b", "c"]) == [0, 1, 0, 1, 4]
    assert first_copies([]) == []
    assert first_copies(["xy", "yx", "xy"]) == [0, 1, 0]  # one length, other bytes: not a copy


def test_many_texts_of_one_length_go_to_a_dictionary_and_still_match():
    texts = [f"{i:05}" for i in range(3 * COMPARED)] + ["00002", f"{3 * COMPARED - 1:05}", "00000"]
    first = first_copies(texts)
    assert first[:3 * COMPARED] == list(range(3 * COMPARED))
    assert first[3 * COMPARED:] == [2, 3 * COMPARED - 1, 0]


def test_a_text_is_compared_with_at_most_COMPARED_others_of_its_length(monkeypatch):
    compared = []

    class Counted(str):
        def __eq__(self, other):
            compared.append(1)
            return str.__eq__(self, other)

        __hash__ = str.__hash__

    texts = [Counted(f"{i:04}") for i in range(200)]
    assert first_copies(texts) == list(range(200))
    assert len(compared) <= COMPARED * (COMPARED + 1) // 2 + 200  # not 200 x 199 / 2
    assert identical.COMPARED == COMPARED


def test_shared_texts_gives_back_the_first_equal_text():
    pool = identical.SharedTexts()
    first = pool.share("x = " + str(1))
    assert pool.share("x = 1") is first
    assert pool.share("x = 2") == "x = 2" and pool.share("x = 2") is not first
    many = [pool.share(f"{k:05}") for k in range(identical.COMPARED + 5)]  # past COMPARED: a dictionary
    assert [pool.share(f"{k:05}") for k in range(identical.COMPARED + 5)] == many
    assert all(a is b for a, b in zip(many, [pool.share(f"{k:05}") for k in range(identical.COMPARED + 5)]))


def test_read_repo_holds_one_string_for_copies_of_a_file(tmp_path):
    from ctxlib.repo import read_repo

    for name in ("a.py", "b/a.py", "c/d/a.py"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("def f():\n    return 1\n")
    (tmp_path / "e.py").write_text("def f():\n    return 2\n")  # same length, other bytes
    texts = {f.path: f.text for f in read_repo(tmp_path).files}
    assert texts["a.py"] is texts["b/a.py"] is texts["c/d/a.py"]
    assert texts["e.py"] is not texts["a.py"] and texts["e.py"].endswith("2\n")
