"""The index file: one file, its store kind for life, its schema version, readable errors."""
from __future__ import annotations

import sqlite3
import subprocess
import sys

import pytest

import glean_personal
from glean_personal.errors import DatabaseError, SchemaTooNew, StoreKindError
from glean_personal.store import schema
from glean_personal.store.core import Store
from helpers.files import write_tree


def _cli(*args):
    return subprocess.run([sys.executable, "-m", "glean_personal", *args],
                          capture_output=True, text=True)


def test_kind_and_version_are_recorded(tmp_path, store_kind):
    with glean_personal.open_index(tmp_path / "p.db") as ix:
        st = ix.status()
        assert st.store == store_kind and st.schema_version == schema.SCHEMA_VERSION


def test_a_file_keeps_its_kind_for_life(tmp_path, monkeypatch):
    db = tmp_path / "p.db"
    glean_personal.open_index(db, store="plain").close()
    monkeypatch.setenv("GLEAN_PERSONAL_STORE", "fts5")
    with glean_personal.open_index(db) as ix:
        assert ix.status().store == "plain"


def test_fts5_passage_text_lives_once(tmp_path):
    root = write_tree(tmp_path / "f", {"a.md": "Unique zanzibar text."})
    with glean_personal.open_index(tmp_path / "p.db", store="fts5") as ix:
        ix.index(root)
    conn = sqlite3.connect(tmp_path / "p.db")
    tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    assert "passage_fts_content" not in tables          # external content: no second copy
    sql = conn.execute("SELECT sql FROM sqlite_master WHERE name='passage_fts'").fetchone()[0]
    assert "content='passage_indexed'" in sql and "content_rowid='id'" in sql


def test_no_journal_is_left_after_a_command(tmp_path, store_kind):
    root = write_tree(tmp_path / "f", {"a.md": "alpha", "b.txt": "beta"})
    db = tmp_path / "p.db"
    assert _cli("index", str(root), "--db", str(db), "--quiet").returncode == 0
    assert _cli("link", "--db", str(db)).returncode == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f", "p.db"]


def index_with_schema_version(db, version: str) -> None:
    """A new index file whose recorded schema version is then changed."""
    glean_personal.open_index(db).close()
    conn = sqlite3.connect(db)
    conn.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (version,))
    conn.commit()
    conn.close()


def test_a_newer_schema_is_refused_with_a_clear_message(tmp_path):
    db = tmp_path / "p.db"
    index_with_schema_version(db, "99")
    with pytest.raises(SchemaTooNew):
        glean_personal.open_index(db)
    run = _cli("status", "--db", str(db))
    assert run.returncode == 3 and "newer glean-personal" in run.stderr
    assert "Traceback" not in run.stderr and len(run.stderr.strip().splitlines()) == 1


def test_an_older_schema_is_migrated_in_one_transaction(tmp_path, monkeypatch):
    db = tmp_path / "p.db"
    index_with_schema_version(db, "0")
    ran = []
    for version in range(schema.SCHEMA_VERSION):
        monkeypatch.setitem(schema.MIGRATIONS, version,
                            lambda c, v=version: ran.append((v, c.in_transaction)))
    with glean_personal.open_index(db) as ix:
        assert ix.status().schema_version == schema.SCHEMA_VERSION
    assert ran == [(v, True) for v in range(schema.SCHEMA_VERSION)]


def test_a_version_1_file_gains_line_and_page_columns(tmp_path, store_kind):
    db = tmp_path / "p.db"
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.txt").write_text("alpha bravo\ncharlie delta\n")
    with glean_personal.open_index(db, store=store_kind) as ix:
        ix.index(tmp_path / "docs")
    conn = sqlite3.connect(db)   # make it the file an earlier release wrote
    for column in ("line_start", "line_end", "page"):
        conn.execute(f"ALTER TABLE passages DROP COLUMN {column}")
    conn.execute("UPDATE meta SET value = '1' WHERE key = 'schema_version'")
    conn.commit()
    conn.close()
    with glean_personal.open_index(db) as ix:
        hits = ix.search("charlie").results
        assert [h.title for h in hits] == ["a"] and hits[0].lines is None
        (tmp_path / "docs" / "a.txt").write_text("alpha bravo\n\ncharlie delta\n")
        ix.index(tmp_path / "docs")
        assert ix.search("charlie").results[0].lines == [1, 3]


def test_an_fts5_file_without_fts5_names_the_fix(tmp_path, monkeypatch):
    db = tmp_path / "p.db"
    glean_personal.open_index(db, store="fts5").close()
    monkeypatch.setattr(schema, "has_fts5", lambda conn: False)
    with pytest.raises(StoreKindError, match="GLEAN_PERSONAL_STORE=plain"):
        Store.open(db)


@pytest.mark.parametrize("content", [b"not a database at all, just words" * 40,
                                     b"SQLite format 3\x00" + b"\x00" * 200])
def test_a_file_that_is_not_an_index(tmp_path, content):
    db = tmp_path / "p.db"
    db.write_bytes(content)
    with pytest.raises(DatabaseError):
        glean_personal.open_index(db)
    run = _cli("search", "x", "--db", str(db))
    assert run.returncode == 3 and "Traceback" not in run.stderr


def test_another_sqlite_file_is_not_taken_over(tmp_path):
    db = tmp_path / "other.db"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE notes(x)")
    conn.commit()
    conn.close()
    with pytest.raises(DatabaseError, match="not a glean-personal index"):
        glean_personal.open_index(db)


def test_a_read_only_open_never_creates_a_file(tmp_path):
    run = _cli("search", "x", "--db", str(tmp_path / "missing.db"))
    assert run.returncode == 1 and "run `glean-personal index FOLDER` first" in run.stderr
    assert not (tmp_path / "missing.db").exists()


def test_status_json_has_the_contract_fields(tmp_path, store_kind):
    root = write_tree(tmp_path / "f", {"a.md": "alpha beta"})
    db = tmp_path / "p.db"
    _cli("index", str(root), "--db", str(db), "--quiet")
    import json
    data = json.loads(_cli("status", "--db", str(db), "--json").stdout)
    assert {"store", "schema_version", "documents", "passages", "sources", "db_bytes"} <= set(data)
    assert data["store"] == store_kind and data["documents"] == 1


def test_documents_written_in_one_transaction_are_indexed_exactly(tmp_path, store_kind):
    """The full-text rows of a transaction's passages are added before it commits,
    even when a document is replaced or removed within the same transaction."""
    from glean_personal.store import maintenance
    from glean_personal.query import Filters, parse

    st = Store.open(tmp_path / "p.db", force_kind=store_kind)

    def put(sid, path, text):
        return st.put_document(sid, path, path, "md", len(text), 1, "0" * 64, [],
                               [((), text, 0, len(text), None, None, None)], b"")

    with st.transaction():
        sid = st.save_source(str(tmp_path), "t", [], [], 5_000_000)
        put(sid, "a.md", "walrus tusks")
        b = put(sid, "b.md", "narwhal horn")
        put(sid, "c.md", "beluga song")
        put(sid, "a.md", "walrus whiskers")      # replaced before the commit
        st.remove_documents([b])                 # removed before the commit
    with st.reading():
        found = {q: [st.passages([pid])[pid]["text"]
                     for pid, _ in st.fulltext.search(parse(q), 10, Filters())]
                 for q in ("walrus", "tusks", "narwhal", "beluga")}
    assert found == {"walrus": ["walrus whiskers"], "tusks": [], "narwhal": [],
                     "beluga": ["beluga song"]}
    assert maintenance.problems(st) == {"sqlite": [], "fulltext": [], "cross": []}
    with pytest.raises(RuntimeError), st.transaction():
        put(sid, "d.md", "dugong")
        raise RuntimeError("a failed batch")
    with st.reading():
        assert st.fulltext.search(parse("dugong"), 10, Filters()) == []
    assert maintenance.problems(st) == {"sqlite": [], "fulltext": [], "cross": []}
    st.close()


def test_candidates_among_some_words_keep_their_full_scores(tmp_path, store_kind):
    """`among` narrows which passages are scored, never what they score."""
    from glean_personal.query import Filters, parse

    st = Store.open(tmp_path / "p.db", force_kind=store_kind)
    texts = (["walrus " * n + "beach" for n in range(1, 6)]            # the common word only
             + ["walrus tusks on the beach", "tusks of ivory", "walrus walrus tusks"])
    with st.transaction():
        sid = st.save_source(str(tmp_path), "t", [], [], 5_000_000)
        for i, text in enumerate(texts):
            st.put_document(sid, f"{i}.md", f"{i}.md", "md", len(text), 1, "0" * 64, [],
                            [((), text, 0, len(text), None, None, None)], b"")
    query = parse("walrus tusks")
    with st.reading():
        full = dict(st.fulltext.search(query, 20, Filters()))
        some = st.fulltext.search(query, 20, Filters(), among=[query.terms[1]])
        text = {pid: st.passages([pid])[pid]["text"] for pid in full}
    assert len(full) == len(texts)
    assert sorted(text[pid] for pid, _ in some) == sorted(t for t in texts if "tusks" in t)
    for pid, score in some:
        assert score == pytest.approx(full[pid])
    assert [pid for pid, _ in some] == [pid for pid in sorted(full, key=lambda p: (-full[p], p))
                                         if "tusks" in text[pid]]
    st.close()


def _mixed_corpus(tmp_path):
    """An FTS5 store of 60 documents of common, rare and filler words, each with a
    copy of its first passage (tied scores)."""
    import random

    st = Store.open(tmp_path / "p.db", force_kind="fts5")
    rng = random.Random(7)
    common = ["plan", "report", "editor", "note", "review", "time"]
    rare = ["walrus", "tusks", "narwhal", "beluga", "kelp", "orca"]
    filler = [f"w{i}" for i in range(40)]
    with st.transaction():
        sid = st.save_source(str(tmp_path), "t", [], [], 5_000_000)
        for d in range(60):
            passages = []
            for _ in range(rng.randint(1, 5)):
                words = [rng.choice(common) if rng.random() < 0.3 else
                         rng.choice(rare) if rng.random() < 0.05 else rng.choice(filler)
                         for _ in range(rng.randint(3, 40))]
                text = " ".join(words)
                passages.append(((rng.choice(["Intro", "Plan", "Walrus care"]),), text, 0,
                                 len(text), None, None, None))
            passages.append(passages[0])
            title = " ".join(rng.sample(common + rare + filler, 2))
            st.put_document(sid, f"{d}.{'md' if d % 3 else 'txt'}", title,
                            "md" if d % 3 else "txt", 1, 1, "0" * 64, [], passages, b"")
    return st


_MIXED_QUERIES = ["plan report editor", "note walrus review", "plan editor -walrus",
                  "report tusks narwhal time", "plan rep*", '"plan report" editor note',
                  "beluga orca kelp plan", "time note", "zzzunknown plan report"]


def test_fts5_bounded_search_returns_what_the_one_or_statement_does(tmp_path):
    """The FTS5 store scores only passages whose terms could reach the best found so
    far: the candidates, their scores (to the bit) and their order must be the one
    OR statement's, whatever the limit, filters, excluded words or prefixes."""
    from glean_personal.query import Filters, parse

    st = _mixed_corpus(tmp_path)
    ft = st.fulltext
    ft.BOUNDED_POSTINGS = 0   # bounded for every query, however few its postings
    checked = 0
    with st.reading():
        assert ft._rows_weighed() == ft.passage_count()   # bm25()'s own row count, read
        for text in _MIXED_QUERIES:
            query = parse(text)
            for filters in (Filters(), Filters(formats=("md",))):
                for limit in (1, 3, 10, 40, 500):
                    sql, params = ft.search_sql(query, limit, filters)
                    expected = [(r[0], r[1]) for r in ft.conn.execute(sql, params)]
                    got = ft._search_bounded(query, limit, filters)
                    if got is not None:
                        checked += 1
                        assert got == expected, (text, filters, limit)
                    assert ft.search(query, limit, filters) == expected
    assert checked > 60
    st.close()


def test_passage_ranges_are_each_documents_first_and_last_passage(tmp_path):
    """A document's passage range is read from its first and last passage by ordinal:
    the same as the least and greatest id of its passages, also after documents are
    indexed again (new ids) or removed, and (0, -1) for one without passages."""
    st = _mixed_corpus(tmp_path)
    sid = st.conn.execute("SELECT id FROM sources").fetchone()[0]
    with st.transaction():
        for d in (3, 10, 41):   # indexed again: its passages get new ids at the end
            st.put_document(sid, f"{d}.{'md' if d % 3 else 'txt'}", "again", "md", 1, 1, "1" * 64,
                            [], [((f"H{i}",), f"walrus {i}", 0, 8, None, None, None)
                                 for i in range(d % 4 + 2)], b"")
        st.remove_documents([7])
        empty = st.put_document(sid, "empty.md", "empty", "md", 1, 1, "2" * 64, [], [], b"")
    ids = [r[0] for r in st.conn.execute("SELECT id FROM documents")] + [7]
    want = {d: (0, -1) for d in ids}
    want.update({d: (lo, hi) for d, lo, hi in st.conn.execute(
        "SELECT document_id, min(id), max(id) FROM passages GROUP BY document_id")})
    with st.reading():
        assert st.passage_ranges(ids) == want
    assert want[empty] == (0, -1) and want[7] == (0, -1)
    st.close()


@pytest.mark.parametrize("seek_rows", [0, 50, 10**9])
def test_long_documents_are_those_of_so_many_passages_whichever_way_they_are_found(
        tmp_path, monkeypatch, seek_rows):
    """Every document's row read, or only those holding a multiple of the passage count
    asked for (a document's passage ids are contiguous): the same documents, also after
    documents are indexed again (new ids at the end, gaps behind) or removed."""
    st = _mixed_corpus(tmp_path)
    sid = st.conn.execute("SELECT id FROM sources").fetchone()[0]
    with st.transaction():
        for d in (3, 10, 41):
            st.put_document(sid, f"{d}.{'md' if d % 3 else 'txt'}", "again", "md", 1, 1, "1" * 64,
                            [], [((f"H{i}",), f"walrus {i}", 0, 8, None, None, None)
                                 for i in range(d // 2)], b"")
        st.remove_documents([7, 20])
        st.put_document(sid, "empty.md", "empty", "md", 1, 1, "2" * 64, [], [], b"")
    monkeypatch.setattr(Store, "SEEK_ROWS", seek_rows)
    for n in range(1, 25):
        want = [(title, path, lo, hi) for title, path, lo, hi in st.conn.execute(
            "SELECT d.title, d.path, min(p.id), max(p.id) FROM documents d "
            "JOIN passages p ON p.document_id = d.id GROUP BY d.id "
            "HAVING count(*) >= ? ORDER BY d.id", (n,))]
        with st.reading():
            assert st.long_documents(n) == want, n
    st.close()


def test_fts5_matching_counts_read_rare_terms_once(tmp_path):
    """Counting a document's matching passages reads a rare term's passages once for
    all the documents: the counts are those of one lookup per document."""
    from glean_personal.query import parse

    st = _mixed_corpus(tmp_path)
    ft = st.fulltext
    ranges = [tuple(r) for r in st.conn.execute(
        "SELECT min(id), max(id) FROM passages GROUP BY document_id ORDER BY 1")]
    with st.reading():
        for text in _MIXED_QUERIES:
            terms = parse(text).terms
            ft.frequencies(terms)
            for in_title in (True, False):
                expected = [len(ft.matching(terms, lo, hi, in_title)) for lo, hi in ranges]
                for read_once in (0, 5, 10**9):
                    ft.READ_ONCE = read_once
                    assert ft.matching_counts(terms, ranges, in_title) == expected, text
                    assert ft.matching_counts(terms, ranges[:2], in_title) == expected[:2]
    st.close()


def test_a_phrase_count_follows_the_index_as_it_changes(tmp_path, store_kind):
    """The plain store keeps a phrase's postings between its count and its search;
    a new document holding it must still be found and counted."""
    from glean_personal.query import Filters, parse

    st = Store.open(tmp_path / "p.db", force_kind=store_kind)
    query = parse('"sea walrus"')

    def add(name: str, text: str) -> None:
        with st.transaction():
            sid = st.save_source(str(tmp_path), "t", [], [], 5_000_000)
            st.put_document(sid, name, name, "md", len(text), 1, "0" * 64, [],
                            [((), text, 0, len(text), None, None, None)], b"")

    add("a.md", "a sea walrus sleeps")
    add("b.md", "a walrus at sea")
    with st.reading():
        assert st.fulltext.frequencies(query.terms) == [1]
        assert len(st.fulltext.search(query, 10, Filters())) == 1
    add("c.md", "the sea walrus wakes")
    with st.reading():
        assert st.fulltext.frequencies(query.terms) == [2]
        assert len(st.fulltext.search(query, 10, Filters())) == 2
    st.close()


def test_scores_follow_the_mean_passage_length_as_the_index_changes(tmp_path, store_kind):
    """The plain store keeps the passages' mean length between searches: a write on
    the same connection, or one another connection commits, must still change it."""
    from glean_personal.query import Filters, parse

    query = parse("walrus")

    def add(st: Store, name: str, text: str) -> None:
        with st.transaction():
            sid = st.save_source(str(tmp_path), "t", [], [], 5_000_000)
            st.put_document(sid, name, name, "md", len(text), 1, "0" * 64, [],
                            [((), text, 0, len(text), None, None, None)], b"")

    def scores(st: Store) -> list:
        with st.reading():
            return st.fulltext.search(query, 10, Filters())

    def fresh() -> list:
        other = Store.open(tmp_path / "p.db", force_kind=store_kind)
        try:
            return scores(other)
        finally:
            other.close()

    st = Store.open(tmp_path / "p.db", force_kind=store_kind)
    add(st, "a.md", "a walrus sleeps")
    add(st, "b.md", "tusks")
    first = scores(st)
    add(st, "c.md", "a long passage " * 40 + "with no such animal")   # the mean length grows
    assert scores(st) == fresh() != first
    writer = Store.open(tmp_path / "p.db", force_kind=store_kind)
    add(writer, "d.md", "short")
    writer.close()
    assert scores(st) == fresh()
    st.close()


def test_a_phrase_count_forgets_what_a_rolled_back_transaction_added(tmp_path, store_kind):
    """Counts (and the plain store's mean passage length) kept inside a transaction
    that then rolls back must not outlive it:
    neither `data_version` nor `total_changes` goes back on a rollback."""
    from glean_personal.query import Filters, parse

    st = Store.open(tmp_path / "p.db", force_kind=store_kind)
    query = parse('"sea walrus"')

    def add(name: str, text: str) -> None:
        sid = st.save_source(str(tmp_path), "t", [], [], 5_000_000)
        st.put_document(sid, name, name, "md", len(text), 1, "0" * 64, [],
                        [((), text, 0, len(text), None, None, None)], b"")

    with st.transaction():
        add("a.md", "a sea walrus sleeps")
    with st.reading():
        before = st.fulltext.search(query, 10, Filters())
    with pytest.raises(RuntimeError):
        with st.transaction():
            add("c.md", "the sea walrus wakes")
            st.fulltext.flush()
            assert st.fulltext.frequencies(query.terms) == [2]
            assert len(st.fulltext.search(query, 10, Filters())) == 2
            raise RuntimeError("undo")
    with st.reading():
        assert st.fulltext.frequencies(query.terms) == [1]
        assert st.fulltext.search(query, 10, Filters()) == before   # the same scores too
    st.close()


def test_a_plain_purge_of_many_passages_leaves_the_postings_a_fresh_index_has(
        tmp_path, monkeypatch):
    """Past PLAIN_BULK_REMOVE passages the plain store removes postings in one pass over
    the table (not term by term); what is left is exactly what the other source alone
    gives."""
    from glean_personal.store import fulltext
    monkeypatch.setattr(fulltext, "PLAIN_BULK_REMOVE", 3)   # the bulk path, on small data
    gone = write_tree(tmp_path / "gone", {
        f"n{i}.md": f"# Gone {i}\n\nheron weir {i} otter\n\n## More\n\nquarry kestrel {i}\n"
        for i in range(12)})
    kept = write_tree(tmp_path / "kept", {
        "a.md": "# Kept\n\nheron and lapwing by the mill\n",
        "b.txt": "otter tracks near the ferry\n"})

    def postings(db):
        conn = sqlite3.connect(str(db))
        try:
            return (sorted(conn.execute(
                "SELECT p.term, d.path, p.tf FROM plain_postings p JOIN passages s "
                "ON s.id = p.passage_id JOIN documents d ON d.id = s.document_id")),
                conn.execute("SELECT count(*) FROM plain_lengths").fetchone()[0])
        finally:
            conn.close()
    with glean_personal.open_index(tmp_path / "both.db", store="plain") as ix:
        ix.index(gone)
        ix.index(kept)
        ix.purge("gone")
        assert not ix.search("quarry kestrel").results
        assert {h.document["path"] for h in ix.search("heron otter").results} == {"a.md", "b.txt"}
        assert ix.verify().ok
    with glean_personal.open_index(tmp_path / "alone.db", store="plain") as ix:
        ix.index(kept)
    assert postings(tmp_path / "both.db") == postings(tmp_path / "alone.db")


def test_fts5_search_with_an_excluded_word_keeps_every_term_s_share(tmp_path):
    """FTS5 (3.40) loses an OR's hits under an AND when the whole is inside a NOT (a
    phrase first): a search with an excluded word must give the one OR's scores."""
    from glean_personal.query import Filters, parse

    st = Store.open(tmp_path / "p.db", force_kind="fts5")
    with st.transaction():
        sid = st.save_source(str(tmp_path), "t", [], [], 5_000_000)
        for d, text in enumerate(["beta zeta alpha zeta", "gamma alpha beta"]):
            st.put_document(sid, f"{d}.md", "doc", "md", 1, 1, "0" * 64, [],
                            [((), text, 0, len(text), None, None, None)], b"")
    ft = st.fulltext
    ft.BOUNDED_POSTINGS = 0   # bounded whenever it may be
    with st.reading():
        query = parse('"alpha beta" beta gamma -kappa')
        sql, params = ft.search_sql(query, 10, Filters())
        expected = [(r[0], r[1]) for r in ft.conn.execute(sql, params)]
        assert len(expected) == 2
        assert ft.search(query, 10, Filters()) == expected
    st.close()


def test_fts5_among_s_two_parts_keep_what_the_whole_parts_would(tmp_path):
    """Each part of `among`'s statement keeps only its `limit` best before they are
    merged: the answer is the first `limit` of the parts' merge without that cut."""
    from glean_personal.query import Filters, parse
    from glean_personal.store.schema import BM25_WEIGHTS

    st = _mixed_corpus(tmp_path)
    ft = st.fulltext
    rare = {"walrus", "tusks", "narwhal", "beluga", "kelp", "orca"}
    with st.reading():
        for text in ["plan report walrus", "note review tusks narwhal time", "time beluga kelp"]:
            query = parse(text)
            among = [t for t in query.terms if t.text in rare]
            some = " OR ".join(t.fts5() for t in among)
            both = f"({some}) AND ({' OR '.join(t.fts5() for t in query.terms if t not in among)})"
            scores = {}
            for expr in (some, both):
                for pid, score in ft.conn.execute(
                        f"SELECT rowid, -bm25(passage_fts, {BM25_WEIGHTS}) FROM passage_fts "
                        "WHERE passage_fts MATCH ?", (expr,)):
                    scores[pid] = max(scores.get(pid, score), score)
            ranked = sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))
            assert len(ranked) > 12, text
            for limit in (1, 3, 10, 40):
                assert ft.search(query, limit, Filters(), among) == ranked[:limit], (text, limit)
    st.close()


def test_a_read_transaction_asks_the_data_version_once_and_still_sees_its_own_writes(
        tmp_path, store_kind):
    """Inside `reading()` no other connection's commit can be seen, so the kept answers
    are checked against the index's data version once, not before each; a write through
    the same connection inside it still makes them be read again (`total_changes`)."""
    from glean_personal.query import parse

    st = Store.open(tmp_path / "p.db", force_kind=store_kind)
    query = parse("walrus")

    def add(name: str, text: str) -> None:
        sid = st.save_source(str(tmp_path), "t", [], [], 5_000_000)
        st.put_document(sid, name, name, "md", len(text), 1, "0" * 64, [],
                        [((), text, 0, len(text), None, None, None)], b"")

    with st.transaction():
        add("a.md", "a walrus sleeps")
    asked: list = []
    st.conn.set_trace_callback(lambda sql: asked.append(sql) if sql == "PRAGMA data_version"
                               else None)
    with st.reading():
        for _ in range(3):
            assert st.fulltext.frequencies(query.terms) == [1]
            assert st.fulltext.passage_count() == 1
        assert len(asked) == 1
        add("b.md", "another walrus")    # written inside the read, through this connection
        st.fulltext.flush()
        assert st.fulltext.frequencies(query.terms) == [2]
        assert st.fulltext.passage_count() == 2
    st.conn.set_trace_callback(None)
    st.close()
