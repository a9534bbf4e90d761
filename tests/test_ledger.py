"""The token ledger: JSON Lines round trip, nearest-rank percentiles, the 200-run log."""
import json
from dataclasses import asdict

import pytest

from ctxlib.ledger import (
    TurnRecord,
    ceiling_from_log,
    diagnostics_sizes,
    generate_run_log,
    patch_sizes,
    percentile,
    read_ledger,
    round_to,
    tail_ratio,
    write_ledger,
)

RECORDS = [
    TurnRecord(1, 1, 1, 80_000, 120_000, 6_100, "end_turn",
               {"fixed_prefix": 9_000, "task": 1_000, "retrieved_file": 70_000}),
    TurnRecord(1, 2, 2, 104_100, 95_900, 5_800, "end_turn",
               {"edit": 6_100, "diagnostics": 18_000}, passed=True),
    TurnRecord(2, 1, 1, 80_000, 120_000, 1_588, "max_tokens", {"retrieved_file": 70_000}, 0),
]


@pytest.fixture(scope="module")
def run_log():
    return generate_run_log()


def test_nearest_rank_percentiles_on_hand_made_data():
    assert percentile([5, 1, 4, 2, 3], 50) == 3          # rank ceil(2.5) = 3
    assert percentile(range(1, 11), 90) == 9             # rank ceil(9.0) = 9
    assert percentile(range(1, 11), 91) == 10            # rank ceil(9.1) = 10
    assert percentile([10, 20], 50) == 10                # no interpolation: an observed size
    assert percentile([7], 1) == percentile([7], 100) == 7


def test_a_rank_that_floats_put_one_too_high_is_exact():
    # 55/100 * 100 is 55.00000000000001 in floats, 28/100 * 25 is 7.000000000000001: ceil gave 56 and 8
    assert percentile(range(1, 101), 55) == 55 and percentile(range(1, 26), 28) == 7
    assert percentile(range(1, 26), 56) == 14 and percentile(range(1, 101), 55.5) == 56


@pytest.mark.parametrize("values, p, message", [
    ([], 50, "at least one value"),
    ([1, 2], 0, r"p must be a number in \(0, 100\], got 0"),
    ([1, 2], 101, "got 101"),
    ([1, 2], True, "got True"),
])
def test_percentile_refuses_what_it_cannot_answer(values, p, message):
    with pytest.raises(ValueError, match=message):
        percentile(values, p)


def test_round_to_thousands_halves_up():
    assert round_to(23_836) == 24_000
    assert round_to(17_500) == 18_000
    assert round_to(17_499) == 17_000
    assert round_to(5_992, 1) == 5_992


def test_sizes_read_from_records():
    assert patch_sizes(RECORDS) == [5_800]               # merged: the attempt that passed
    assert patch_sizes(RECORDS, merged_only=False) == [6_100, 5_800]  # the cut-off reply is not a patch
    assert diagnostics_sizes(RECORDS) == [18_000]


def test_a_ledger_written_before_the_passed_field_still_reads(tmp_path):
    old = {k: v for k, v in asdict(RECORDS[0]).items() if k not in ("passed", "trimmed_tokens")}
    (tmp_path / "old.jsonl").write_text(json.dumps(old) + "\n", encoding="utf-8")
    assert read_ledger(tmp_path / "old.jsonl") == [RECORDS[0]]


def test_tail_ratio():
    assert tail_ratio([18_000] * 5 + [24_000] * 5, 90) == 24_000 / 18_000
    with pytest.raises(ValueError, match="median above 0"):
        tail_ratio([0, 0, 5], 90)


def test_jsonl_round_trip(tmp_path):
    path = tmp_path / "ledger.jsonl"
    write_ledger(path, RECORDS)
    lines = path.read_text(encoding="utf-8").splitlines()
    assert len(lines) == 3
    assert json.loads(lines[1])["appended"] == {"edit": 6_100, "diagnostics": 18_000}
    assert read_ledger(path) == RECORDS
    assert [p.name for p in tmp_path.iterdir()] == ["ledger.jsonl"]  # no temporary file left


def test_a_ledger_written_with_the_old_kind_names_reads_as_today_s(tmp_path):
    old = {**asdict(RECORDS[1]), "appended": {"attempt_diff": 6_100, "tool_output": 18_000}}
    first = {**asdict(RECORDS[0]), "appended": {"fixed_prefix": 9_000, "task": 1_000, "retrieved_files": 70_000}}
    path = tmp_path / "old.jsonl"
    path.write_text(json.dumps(first) + "\n" + json.dumps(old) + "\n", encoding="utf-8")
    assert read_ledger(path) == RECORDS[:2]
    assert diagnostics_sizes(read_ledger(path)) == [18_000]


def test_write_replaces_an_existing_ledger(tmp_path):
    path = tmp_path / "ledger.jsonl"
    write_ledger(path, RECORDS)
    write_ledger(path, RECORDS[:1])
    assert read_ledger(path) == RECORDS[:1]


@pytest.mark.parametrize("bad_line, why", [
    ("{not json", "Expecting property name"),
    ('{"run": 1}', "missing field(s): turn, attempt"),
    (json.dumps({**asdict(RECORDS[0]), "input_tokens": -3}), "input_tokens must be a whole number"),
    (json.dumps({**asdict(RECORDS[0]), "stop_reason": "done"}), "stop_reason must be one of"),
    (json.dumps({**asdict(RECORDS[0]), "appended": {"diagnostics": 1.5}}), "appended['diagnostics']"),
    (json.dumps({**asdict(RECORDS[0]), "passed": "yes"}), "passed must be true or false, got 'yes'"),
    ("[1, 2]", "a ledger record is a JSON object, got list"),
])
def test_a_malformed_line_names_the_file_and_line(tmp_path, bad_line, why):
    path = tmp_path / "runs.jsonl"
    good = json.dumps(asdict(RECORDS[0]))
    path.write_text(f"{good}\n\n{bad_line}\n", encoding="utf-8")
    with pytest.raises(ValueError) as error:
        read_ledger(path)
    assert str(error.value).startswith(f"{path}, line 3: not a ledger record: ")
    assert why in str(error.value)


def test_the_run_log_is_deterministic_and_has_200_runs(run_log):
    assert generate_run_log() == run_log
    assert generate_run_log(random_state=1) != run_log
    assert sorted({r.run for r in run_log}) == list(range(1, 201))
    assert len(run_log) == 437


def test_the_run_log_balances_turn_by_turn(run_log):
    previous = {}
    for record in run_log:
        before = previous.get(record.run, 0)
        assert record.input_tokens == before + sum(record.appended.values()) - record.trimmed_tokens
        assert record.input_tokens + record.max_tokens == 200_000
        previous[record.run] = record.input_tokens


def test_the_run_log_percentiles_are_the_chapter_s_after_rounding(run_log):
    diagnostics, patches = diagnostics_sizes(run_log), patch_sizes(run_log)
    # 178 runs end with a merged patch; 22 fail all four attempts.
    assert len(diagnostics) == 237 and len(patches) == 178
    assert sum(r.passed for r in run_log) == 178
    assert percentile(diagnostics, 50) == 17_540
    assert percentile(diagnostics, 90) == 24_443
    assert percentile(patches, 50) == 6_066
    assert [round_to(percentile(diagnostics, 50)), round_to(percentile(diagnostics, 90)),
            round_to(percentile(patches, 50))] == [18_000, 24_000, 6_000]


def test_the_run_log_diagnostics_are_heavy_tailed_and_merged_patches_are_not(run_log):
    diagnostics, patches = sorted(diagnostics_sizes(run_log)), patch_sizes(run_log)
    assert [size for size in diagnostics if size >= 40_000] == [43_287, 51_753] + [60_000] * 5
    assert round(tail_ratio(diagnostics, 90), 2) == 1.39 and round(tail_ratio(patches, 90), 2) == 1.13
    assert round(tail_ratio(diagnostics, 99), 2) == 3.42 and round(tail_ratio(patches, 99), 2) == 1.24
    assert max(patches) == 7_721


def test_the_ceiling_recomputed_from_the_log(run_log):
    assert ceiling_from_log(run_log).ceiling_tokens == 70_000
    assert ceiling_from_log(run_log, p=50).ceiling_tokens == 94_000
    assert ceiling_from_log(run_log, fixed_prefix_tokens=21_000).ceiling_tokens == 58_000
    # Unrounded: 200,000 - 10,000 - 4 x (6,066 + 24,443) = 67,964.
    assert ceiling_from_log(run_log, step=1).ceiling_tokens == 67_964


def test_the_generator_refuses_a_fill_that_overflows_the_window():
    with pytest.raises(ValueError, match="over the 200,000-token window; lower fill_tokens"):
        generate_run_log(fill_tokens=190_000)
    with pytest.raises(ValueError, match="runs must be a whole number >= 1, got 0"):
        generate_run_log(runs=0)


def test_a_ledger_that_is_not_utf8_is_named(tmp_path):
    path = tmp_path / "runs.jsonl"
    path.write_bytes(b'\n\xff\n')
    with pytest.raises(ValueError, match=r"runs.jsonl, line 2: not UTF-8 text \(bad byte at offset 0\)"):
        read_ledger(path)


@pytest.mark.parametrize("step", [0, -1000, 1.5, True])
def test_rounding_needs_a_positive_step(step):
    with pytest.raises(ValueError, match=f"step must be a positive whole number of tokens, got {step!r}"):
        round_to(23_836, step)


def test_a_huge_kind_in_a_ledger_gives_a_short_message(tmp_path):
    # The bad value was bounded (i18n.shown), not the kind it is under: a ledger line whose appended kind is a
    # 10 MB string gave a 10 MB error, in both languages (round s42).
    from ctxlib.ledger import read_ledger

    record = {"run": 1, "turn": 1, "attempt": 1, "input_tokens": 1, "max_tokens": 1, "output_tokens": 1,
              "stop_reason": "end_turn", "appended": {"k" * 10_000_000: -1}}
    path = tmp_path / "ledger.jsonl"
    path.write_text(json.dumps(record) + "\n", encoding="utf-8")
    with pytest.raises(ValueError) as raised:
        read_ledger(path)
    assert len(str(raised.value)) < 1_000 and len(raised.value.text("hi")) < 1_000
    assert "appended['kkk" in str(raised.value) and "got -1" in str(raised.value)
