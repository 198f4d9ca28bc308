"""Retrieval metrics, checked against values worked out by hand."""
import json
from pathlib import Path

import pytest

from glean_personal.errors import UsageError
from glean_personal.evaluation import (
    Case, load_golden, normalise_path, score_case, score_cases, summarize,
)

# 1/log2(r + 1) for ranks 1..5, written out: 1, 0.6309297536, 0.5, 0.4306765581, 0.3868528072
# and rank 6 -> 1/log2(7) = 0.3562071871.


def test_mixed_ranking():
    s = score_case(["a", "x", "b", "y", "z", "c"], ["a", "b", "c", "d"])
    assert s["recall@5"] == pytest.approx(2 / 4)
    assert s["recall@10"] == pytest.approx(3 / 4)
    assert s["mrr@10"] == 1.0
    assert s["hit@1"] == 1.0
    # DCG = 1 + 0.5 + 0.3562071871 = 1.8562071871
    # IDCG (4 relevant) = 1 + 0.6309297536 + 0.5 + 0.4306765581 = 2.5616063117
    assert s["ndcg@10"] == pytest.approx(1.8562071871 / 2.5616063117)
    assert s["ndcg@10"] == pytest.approx(0.72462, abs=1e-5)
    assert s["first_relevant_rank"] == 1


def test_single_relevant_at_rank_three():
    s = score_case(["x", "y", "a"], ["a"])
    assert s["mrr@10"] == pytest.approx(1 / 3)
    assert s["ndcg@10"] == pytest.approx(0.5)          # 1/log2(4) over an ideal of 1
    assert s["recall@5"] == 1.0 and s["recall@10"] == 1.0
    assert s["hit@1"] == 0.0


def test_relevant_at_rank_six_counts_for_recall10_only():
    s = score_case(["p", "q", "r", "s", "t", "a"], ["a"])
    assert s["recall@5"] == 0.0
    assert s["recall@10"] == 1.0
    assert s["mrr@10"] == pytest.approx(1 / 6)
    assert s["ndcg@10"] == pytest.approx(0.3562071871)


def test_relevant_past_rank_ten_scores_zero():
    ranked = [f"x{i}" for i in range(10)] + ["a"]
    s = score_case(ranked, ["a"])
    assert all(s[m] == 0.0 for m in ("recall@5", "recall@10", "mrr@10", "ndcg@10", "hit@1"))
    assert s["first_relevant_rank"] is None


def test_ideal_dcg_is_capped_at_ten():
    relevant = [f"r{i}" for i in range(12)]
    s = score_case(relevant[:10], relevant)
    assert s["ndcg@10"] == pytest.approx(1.0)
    assert s["recall@10"] == pytest.approx(10 / 12)
    assert s["recall@5"] == pytest.approx(5 / 12)


def test_two_relevant_both_found_in_reverse_slots():
    # relevant at ranks 2 and 3: DCG = 0.6309297536 + 0.5; IDCG = 1 + 0.6309297536
    s = score_case(["x", "a", "b"], ["a", "b"])
    assert s["ndcg@10"] == pytest.approx(1.1309297536 / 1.6309297536)
    assert s["mrr@10"] == pytest.approx(0.5)


def test_repeated_results_count_once_and_paths_normalise():
    s = score_case(["x", "./x", "dir\\a.html"], ["dir/a.html"])
    assert s["returned"] == 2
    assert s["mrr@10"] == pytest.approx(0.5)


def test_no_results():
    s = score_case([], ["a"])
    assert s["empty"] is True
    assert s["ndcg@10"] == 0.0 and s["hit@1"] == 0.0


def test_unanswerable_case_has_no_metrics():
    assert score_case([], [])["empty"] is True
    s = score_case(["x"], [])
    assert s["empty"] is False and s["answerable"] is False
    assert s["ndcg@10"] is None and s["mrr@10"] is None


def test_summarize_means_and_unanswerable_share():
    cases = [
        Case("c1", "q1", ("a",), "identifier"),
        Case("c2", "q2", ("b",), "identifier"),
        Case("c3", "q3", ("c",), "paraphrase"),
        Case("u1", "q4", (), "unanswerable"),
        Case("u2", "q5", (), "unanswerable"),
    ]
    ranked = {"c1": ["a"], "c2": ["x", "b"], "c3": ["y"], "u1": [], "u2": ["z"]}
    summary = summarize(score_cases(cases, ranked))
    overall = summary["overall"]
    assert overall["cases"] == 3
    assert overall["hit@1"] == pytest.approx(1 / 3)
    assert overall["mrr@10"] == pytest.approx((1 + 0.5 + 0) / 3)
    # ndcg: 1, 1/log2(3) = 0.6309297536, 0
    assert overall["ndcg@10"] == pytest.approx((1 + 0.6309297536) / 3)
    assert overall["unanswerable_cases"] == 2
    assert overall["unanswerable_empty"] == pytest.approx(0.5)
    ident = summary["by_category"]["identifier"]
    assert ident["cases"] == 2 and ident["mrr@10"] == pytest.approx(0.75)
    assert ident["unanswerable_empty"] is None
    unans = summary["by_category"]["unanswerable"]
    assert unans["cases"] == 0 and unans["ndcg@10"] is None
    assert unans["unanswerable_empty"] == pytest.approx(0.5)


def test_score_cases_treats_missing_run_as_empty():
    rows = score_cases([Case("c1", "q", ("a",), "identifier")], {})
    assert rows[0]["empty"] is True and rows[0]["mrr@10"] == 0.0


def _write(tmp_path: Path, data) -> Path:
    path = tmp_path / "golden.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return path


def test_load_golden_reads_cases(tmp_path):
    path = _write(tmp_path, {"cases": [
        {"id": "a", "query": "os.path.join", "relevant": ["./library/os.path.html"], "category": "identifier"},
        {"id": "b", "query": "sourdough", "relevant": [], "category": "unanswerable", "note": "extra keys ok"},
    ]})
    cases = load_golden(path)
    assert cases[0] == Case("a", "os.path.join", ("library/os.path.html",), "identifier")
    assert cases[1].answerable is False


@pytest.mark.parametrize("content, fragment", [
    ("{not json", "not valid JSON"),
    ({"questions": []}, '"cases" list'),
    ({"cases": []}, "empty"),
    ({"cases": ["x"]}, "not an object"),
    ({"cases": [{"id": "a", "relevant": ["x"], "category": "c"}]}, '"query"'),
    ({"cases": [{"id": "a", "query": "q", "relevant": "x", "category": "c"}]}, '"relevant"'),
    ({"cases": [{"id": "a", "query": "q", "relevant": ["x"], "category": "c"},
                {"id": "a", "query": "q", "relevant": ["x"], "category": "c"}]}, "duplicate id"),
    ({"cases": [{"id": "a", "query": "q", "relevant": [], "category": "identifier"}]}, "unanswerable"),
    ({"cases": [{"id": "a", "query": "q", "relevant": ["x"], "category": "unanswerable"}]}, "lists relevant"),
    ({"cases": [{"id": "a", "query": "q", "relevant": ["/etc/x"], "category": "c"}]}, "relative"),
    ({"cases": [{"id": "a", "query": "q", "relevant": ["../x"], "category": "c"}]}, "relative"),
])
def test_load_golden_rejects_bad_files(tmp_path, content, fragment):
    path = _write(tmp_path, content)
    with pytest.raises(UsageError) as info:
        load_golden(path)
    message = str(info.value)
    assert fragment in message
    assert "\n" not in message
    assert info.value.exit_code == 2


def test_load_golden_missing_file(tmp_path):
    with pytest.raises(UsageError, match="not found"):
        load_golden(tmp_path / "nope.json")


def test_normalise_path():
    assert normalise_path("./a//b\\c.html") == "a/b/c.html"


def test_bench_golden_sets_are_valid():
    root = Path(__file__).resolve().parent.parent / "bench" / "golden"
    for path in sorted(root.glob("*.json")):
        cases = load_golden(path)
        assert len(cases) >= 10, path


def test_load_golden_reads_a_file_saved_with_a_byte_order_mark(tmp_path):
    """Notepad saves UTF-8 with a BOM; json.load refused it ("Unexpected UTF-8 BOM")."""
    path = tmp_path / "golden.json"
    text = json.dumps({"cases": [{"id": "a", "query": "café", "relevant": ["notes/a.md"],
                                  "category": "keyword"}]}, ensure_ascii=False)
    path.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    assert load_golden(path) == [Case("a", "café", ("notes/a.md",), "keyword")]
