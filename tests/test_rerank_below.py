"""The coverage rerank reads a few documents below its leaders too: one whose best
passage holds more of the query than every leader's joins them, and is scaled by
its coverage as they are (`SearchTuning.below`). A page that holds the whole
question in one long passage ranked below short pages repeating one of its words,
and the rerank, reading only the leaders, never saw it."""
from __future__ import annotations

import glean_personal.search as search
from helpers.files import write_tree

FILLER = "The long survey of the northern colony went on through the winter months. "

# Short logs that repeat one word of the query: they lead on it alone.
FILES = {f"log{i}.md": f"# Log {i}\n\n" + "walrus " * (8 - i) + "seen.\n" for i in range(4)}
# The page that holds every word of the query, once each, in one long passage.
FILES["survey.md"] = ("# Survey\n\n" + FILLER * 10 + "A walrus grows its ivory tusks all its "
                      "life. " + FILLER * 10 + "\n")
# Notes on another subject, so that the words weigh as in an ordinary index.
FILES.update({f"kettle{i}.md": f"# Kettle {i}\n\nDescale kettle {i} with vinegar and rinse it "
                               "twice.\n" for i in range(40)})

QUERY = "walrus ivory tusks"


def _paths(ix, **kw):
    return [h.document["path"] for h in ix.search(QUERY, limit=5, **kw).results]


def test_a_document_below_the_leaders_holding_more_of_the_query_joins_them(
        open_ix, tmp_path, monkeypatch):
    ix = open_ix()
    ix.index(write_tree(tmp_path / "notes", FILES))
    # two leaders read; the survey is the fifth document by its BM25 score
    monkeypatch.setattr(search, "TUNING", search.TUNING.replace(rerank=2, below=0))
    assert _paths(ix) == ["log0.md", "log1.md", "log2.md", "log3.md", "survey.md"]
    monkeypatch.setattr(search, "TUNING", search.TUNING.replace(rerank=2, below=3))
    found = _paths(ix)
    # it joins the leaders and passes the logs left below them, which hold no more than
    # the leaders do and keep their order
    assert found.index("survey.md") < found.index("log2.md") < found.index("log3.md")
    scores = [h.score for h in ix.search(QUERY, limit=5).results]
    assert scores == sorted(scores, reverse=True)


def test_the_same_for_a_list_of_passages(open_ix, tmp_path, monkeypatch):
    ix = open_ix()
    ix.index(write_tree(tmp_path / "notes", FILES))
    monkeypatch.setattr(search, "TUNING", search.TUNING.replace(rerank=2, below=0))
    assert _paths(ix, passages=True)[-1] == "survey.md"
    monkeypatch.setattr(search, "TUNING", search.TUNING.replace(rerank=2, below=3))
    found = _paths(ix, passages=True)
    assert found.index("survey.md") < found.index("log2.md")


def test_too_far_below_the_leaders_it_is_not_read(open_ix, tmp_path, monkeypatch):
    ix = open_ix()
    ix.index(write_tree(tmp_path / "notes", FILES))
    monkeypatch.setattr(search, "TUNING", search.TUNING.replace(rerank=2, below=2))
    assert _paths(ix)[-1] == "survey.md"


def test_no_leaders_no_rerank_and_no_error(open_ix, tmp_path, monkeypatch):
    # `rerank=0` turns the coverage rerank off: with no leader to compare with, none
    # below joins, and the order is the BM25 order (it raised ValueError: max() of
    # no leaders' shares)
    ix = open_ix()
    ix.index(write_tree(tmp_path / "notes", FILES))
    monkeypatch.setattr(search, "TUNING", search.TUNING.replace(rerank=0, below=3))
    assert _paths(ix) == ["log0.md", "log1.md", "log2.md", "log3.md", "survey.md"]
    assert _paths(ix, passages=True)[-1] == "survey.md"


def test_a_document_joining_the_leaders_is_listed_once_and_pages_keep_the_order(
        open_ix, tmp_path, monkeypatch):
    ix = open_ix()
    ix.index(write_tree(tmp_path / "notes", FILES))
    monkeypatch.setattr(search, "TUNING", search.TUNING.replace(rerank=2, below=3))
    for passages in (False, True):
        whole = [(h.document["path"], h.passage_id, h.score)
                 for h in ix.search(QUERY, limit=10, passages=passages).results]
        paths = [path for path, _, _ in whole]
        # every matching document once, the survey among the leaders
        assert sorted(set(paths)) == sorted(paths) == sorted(
            ["log0.md", "log1.md", "log2.md", "log3.md", "survey.md"])
        assert paths.index("survey.md") < 3
        # pages of two, one after another, list what one page of ten does
        paged = [(h.document["path"], h.passage_id, h.score)
                 for offset in range(0, 10, 2)
                 for h in ix.search(QUERY, limit=2, offset=offset, passages=passages).results]
        assert paged == whole


def test_a_table_of_contents_joining_from_below_counts_half_as_a_leader_does(
        open_ix, tmp_path, monkeypatch):
    # A long table of contents holding each word of the query on a line of its own ranks
    # below the logs, and holds more of the query than they do. Read as a leader, its
    # passage counts half (`TUNING.listing`); joining them from below, it did not for a
    # search of documents (it came first on the plain store), only for one of passages.
    files = dict(FILES)
    files["contents.md"] = "# Contents\n\n" + "".join(
        f"{line} . . . . . {page}\n" for page, line in enumerate(
            [f"Chapter {k} of the northern colony" for k in range(30)]
            + ["The walrus", "Ivory", "Tusks"]
            + [f"Appendix {k} of the survey" for k in range(30)], start=3))
    ix = open_ix()
    ix.index(write_tree(tmp_path / "notes", files))
    monkeypatch.setattr(search, "TUNING", search.TUNING.replace(rerank=10, below=0))
    for passages in (False, True):   # all read as leaders: the contents come last
        found = [h.document["path"] for h in ix.search(QUERY, limit=10, passages=passages).results]
        assert found[-1] == "contents.md" and len(found) == 6, passages
    monkeypatch.setattr(search, "TUNING", search.TUNING.replace(rerank=2, below=4))
    for passages in (False, True):
        found = [h.document["path"] for h in ix.search(QUERY, limit=10, passages=passages).results]
        assert found.index("survey.md") < found.index("contents.md"), passages
        assert found.index("contents.md") > found.index("log1.md"), passages
