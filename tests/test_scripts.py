"""Every script is searchable: CJK by any substring, marks folded, identifiers by their parts.

The analysis is checked on its own (pure functions), against SQLite's
tokenizer (what the extra columns hold must tokenize the same in both
stores), and end to end on both stores: search, snippets, `--explain`, and
the migration of a schema-1 file.
"""
from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

import pytest

import glean_personal
from glean_personal.analysis import (
    alt_text,
    bigram_chain,
    identifier_parts,
    identifier_phrases,
    search_spans,
    search_tokens,
    tokenize,
    unmark,
)
from glean_personal.query import parse

from helpers.chat import ask, indexed_notes, message_text
from helpers.files import write_tree
from helpers.sqlite import needs_fts5
from helpers.templates import index_copy

DATA = Path(__file__).parent / "data" / "schema1"

FILES = {
    "tokyo.txt": "東京都の渋谷区に行きました。それから新宿で友達に会いました。\n",
    "kyoto.txt": "京都の寺を見に行きました。\n",
    "seoul.txt": "서울에서 친구를 만났습니다.\n",
    "mixed.txt": "Python3の使い方を学ぶ。\n",
    "athens.txt": "Η Αθήνα είναι η πρωτεύουσα της Ελλάδας.\n",
    "moscow.txt": "Ёлка стоит в углу. Мой дом в Москве.\n",
    "arabic.txt": "كَتَبَ الوَلَدُ الدَّرْسَ\n",
    "camel.txt": "To read the command line, call parseArgs before anything else.\n",
    "pascal.txt": "The ParseArgs class reads options.\n",
    "snake.txt": "def parse_args(argv): return argv\n",
    "kebab.txt": "The parse-args helper in the shell script.\n",
    "http.txt": "An HTTPServer answers requests; see also XMLHttpRequest.\n",
    "prose.txt": "We parse the file, then read its args one by one.\n",
    "other.txt": "Nothing to see here: coffee, tea and biscuits.\n",
}


# --- analysis: pure functions ----------------------------------------------------


@pytest.mark.parametrize("text, alt", [
    ("plain English words", ""),
    ("café naïve Ångström", ""),                      # unicode61 folds Latin already
    ("東京都の渋谷区", "東京 京都 都の の渋 渋谷 谷区"),
    ("東京", ""),                                      # a two-character token is its own bigram
    ("서울에서", "서울 울에 에서"),
    ("Python3の使い方", "python3 の使 使い い方"),
    ("Αθήνα είναι", "αθηνα ειναι"),
    ("ΑΘΉΝΑ και", "αθηνα και"),                         # the whole field, so phrases still hold
    ("Ёлка мой", "елка мои"),
    ("ﬁle ＡＢＣ１２３", "file abc123"),
    ("كَتَبَ الوَلَدُ", "كتب الولد"),
    ("שָׁלוֹם", "שלום"),
    ("parseArgs and ParseArgs", "parse args parse args"),   # only the parts, not the field
    ("HTTPServer XMLHttpRequest utf8Decode", "http server xml http request utf8 decode"),
    ("PDFs APIs IDs", ""),                             # an acronym's plural is one word
    ("parse_args parse-args", ""),                     # unicode61 splits these already
])
def test_alt_text(text, alt):
    assert alt_text(text) == alt


@pytest.mark.parametrize("typed, tokens", [
    ("東京", ["東京"]),
    ("東京都", ["東京", "京都"]),
    ("αθηνα", ["αθηνα"]),
    ("Αθήνα", ["αθηνα"]),
    ("ЁЛКА", ["елка"]),
    ("parseArgs", ["parseargs"]),
    ("cafe", ["cafe"]),
])
def test_search_tokens(typed, tokens):
    assert search_tokens(typed) == tokens


def test_identifier_parts():
    assert identifier_parts("parseArgs") == ("parse", "args")
    assert identifier_parts("ParseArgs") == ("parse", "args")
    assert identifier_parts("getHTTPResponse") == ("get", "http", "response")
    assert identifier_parts("parse_args") == ()
    assert identifier_parts("parse") == ()
    assert identifier_parts("URLs") == ()


def test_identifier_phrases():
    assert identifier_phrases("parseArgs") == [("parse", "args")]
    assert identifier_phrases("merge.conflictStyle") == [("conflict", "style")]
    assert identifier_phrases("a/fooBar.js") == [("foo", "bar")]
    assert identifier_phrases("parse_args") == []


def test_bigram_chain():
    assert bigram_chain(["東京", "京都"]) == "東京都"
    assert bigram_chain(["東京"]) == "東京"
    assert bigram_chain(["東京", "渋谷"]) is None
    assert bigram_chain(["python3", "の使"]) is None


def test_unmark():
    assert unmark("Αθήνα") == "Αθηνα"
    assert unmark("ёлка") == "елка"
    assert unmark("が") == "が"          # kana voicing marks are letters, not accents
    assert unmark("한국어") == "한국어"   # Hangul comes back composed


@pytest.mark.parametrize("text", [
    "東京都の渋谷区に行きました", "Αθήνα είναι", "call parseArgs now", "Python3の使い方",
    "كَتَبَ الوَلَدُ", "ﬁle ＡＢＣ",
])
def test_search_spans_point_into_the_text(text):
    for start, end, token in search_spans(text):
        assert 0 <= start < end <= len(text)
        assert search_tokens(text[start:end])   # a span always covers word characters
    assert {t for _, _, t in search_spans(text)} >= set(alt_text(text).split())


@needs_fts5
@pytest.mark.parametrize("text", [t for t in FILES.values()] + ["ΑΘΉΝΑ και ΣΟΦΊΑ ς"])
def test_alt_text_tokenizes_the_same_in_sqlite(text):
    """The extra column holds text that SQLite cuts into exactly the Python tokens."""
    alt = alt_text(text)
    db = sqlite3.connect(":memory:")
    db.execute("CREATE VIRTUAL TABLE t USING fts5(a, tokenize='unicode61 remove_diacritics 2')")
    db.execute("CREATE VIRTUAL TABLE v USING fts5vocab(t, 'instance')")
    db.execute("INSERT INTO t(rowid, a) VALUES (1, ?)", (alt,))
    got = [r[0] for r in db.execute("SELECT term FROM v ORDER BY offset")]
    assert got == tokenize(alt) == alt.split()


def test_query_terms():
    assert [t.tokens for t in parse("東京都").terms] == [("東京", "京都")]
    assert parse("東京都").labels() == ["東京都"]
    assert [t.tokens for t in parse("Αθήνα").terms] == [("αθηνα",)]
    terms = [t.tokens for t in parse("parseArgs").terms]
    assert terms[:2] == [("parseargs",), ("parse", "args")]


# --- both stores, end to end ----------------------------------------------------------


def _build(home: Path) -> Path:
    db = home / "p.db"
    with glean_personal.open_index(db) as ix:
        ix.index(write_tree(home / "docs", FILES))
    return db


@pytest.fixture
def scripts_ix(tmp_path, tmp_path_factory, store_kind, open_ix):
    """A copy (tmp_path/p.db) of FILES indexed once per store kind; the folder is shared."""
    index_copy(tmp_path_factory, "scripts", store_kind, _build, tmp_path / "p.db")
    return open_ix()


def _paths(result):
    return [h.document["path"] for h in result.results]


@pytest.mark.parametrize("query, found, not_found", [
    ("東京", {"tokyo.txt"}, set()),
    ("渋谷区", {"tokyo.txt"}, set()),
    ("京都", {"kyoto.txt", "tokyo.txt"}, set()),        # 東京都 holds 京都 too
    ("友達", {"tokyo.txt"}, {"kyoto.txt"}),
    ("京都の寺", {"kyoto.txt"}, {"tokyo.txt"}),
    ("서울", {"seoul.txt"}, set()),
    ("使い方", {"mixed.txt"}, set()),
    ("αθηνα", {"athens.txt"}, set()),
    ("ΑΘΗΝΑ", {"athens.txt"}, set()),
    ("Αθήνα", {"athens.txt"}, set()),
    ("πρωτευουσα", {"athens.txt"}, set()),
    ('"αθηνα ειναι"', {"athens.txt"}, set()),
    ("елка", {"moscow.txt"}, set()),
    ("Ёлка", {"moscow.txt"}, set()),
    ("كتب", {"arabic.txt"}, set()),
])
def test_every_script_is_found(scripts_ix, query, found, not_found):
    result = scripts_ix.search(query)
    paths = set(_paths(result))
    assert paths >= found and not paths & not_found, paths
    assert result.absent_terms == []


@pytest.mark.parametrize("query, path", [
    ("東京", "tokyo.txt"), ("渋谷区", "tokyo.txt"), ("서울", "seoul.txt"),
    ("αθηνα", "athens.txt"), ("Αθήνα", "athens.txt"), ('"αθηνα ειναι"', "athens.txt"),
    ("елка", "moscow.txt"), ("كتب", "arabic.txt"), ("parse args", "camel.txt"),
])
def test_strength_counts_what_the_search_form_matched(scripts_ix, query, path):
    """Match strength reads the passage as the index does, search forms included: a
    hit whose `--explain` says every word matched is not shown at strength 0."""
    hit = next(h for h in scripts_ix.search(query, limit=20, explain=True).results
               if h.document["path"] == path)
    assert hit.missed_terms == [] and hit.matched_terms
    assert hit.strength == 1.0 and hit.rare_matched


@pytest.mark.parametrize("question, title", [
    ("東京", "tokyo"), ("渋谷区", "tokyo"), ("Αθήνα", "athens"), ("ёлка", "moscow"),
])
def test_chat_quotes_a_passage_found_by_its_search_form(tmp_path, store_kind, question, title):
    db = indexed_notes(tmp_path, {k: v for k, v in FILES.items() if k.startswith(title)}
                       | {"other.txt": FILES["other.txt"]}, store_kind)
    message = ask(db, question)
    cited = [f["citation"]["sourceDocument"]["metadata"]["path"]
             for f in message["fragments"] if "citation" in f]
    assert cited == [title + ".txt"], message_text(message)


@pytest.mark.parametrize("query", ["parse args", "parseArgs", '"parse args"'])
def test_identifiers_are_found_by_their_parts(scripts_ix, query):
    paths = _paths(scripts_ix.search(query, limit=20))
    assert {"camel.txt", "pascal.txt", "snake.txt", "kebab.txt"} <= set(paths), paths
    assert "other.txt" not in paths


def test_identifier_found_by_itself_first(scripts_ix):
    paths = _paths(scripts_ix.search("parseArgs", limit=20))
    assert paths[0] in {"camel.txt", "pascal.txt"}


def test_acronym_parts(scripts_ix):
    assert "http.txt" in _paths(scripts_ix.search("http server"))
    assert "http.txt" in _paths(scripts_ix.search('"http request"'))


def _ranges(text, result):
    hit = result.results[0]
    return [hit.snippets[0].text[a:b] for a, b in hit.snippets[0].ranges]


def test_snippets_mark_what_matched(scripts_ix):
    result = scripts_ix.search("渋谷区", explain=True)
    assert _ranges("", result) == ["渋谷区"]
    assert result.results[0].matched_terms == ["渋谷区"]
    assert result.results[0].missed_terms == []
    result = scripts_ix.search("αθηνα", explain=True)
    assert _ranges("", result) == ["Αθήνα"]
    assert result.results[0].matched_terms == ["αθηνα"]
    result = scripts_ix.search("parse args", path="camel.txt", explain=True)
    assert _ranges("", result) == ["parseArgs"]
    assert result.results[0].matched_terms == ["parse", "args"]


def test_cjk_snippet_marks_only_the_whole_word(scripts_ix):
    """`東京都` is marked where it stands, not every 京都 or 東京 apart from it."""
    result = scripts_ix.search("都の渋", explain=True)
    assert _ranges("", result) == ["都の渋"]


def test_a_cjk_title_is_searchable(tmp_path, open_ix):
    docs = write_tree(tmp_path / "docs", {"東京ガイド.txt": "A guide.\n", "x.txt": "Other.\n"})
    ix = open_ix()
    ix.index(docs)
    assert _paths(ix.search("東京")) == ["東京ガイド.txt"]
    assert _paths(ix.search("ガイド")) == ["東京ガイド.txt"]


def test_removing_a_document_unindexes_its_forms(tmp_path, open_ix):
    docs = write_tree(tmp_path / "docs", {"a.txt": FILES["tokyo.txt"], "b.txt": FILES["camel.txt"]})
    ix = open_ix()
    ix.index(docs)
    (docs / "a.txt").write_text("nothing Japanese now\n", encoding="utf-8")
    (docs / "b.txt").unlink()
    ix.index(docs)
    assert ix.search("渋谷").results == []
    assert ix.search("parse args").results == []
    assert ix.verify().ok


# --- a schema-1 file is upgraded --------------------------------------------------


@pytest.mark.parametrize("kind", ["fts5", "plain"])
def test_schema_1_file_upgrades_and_finds_by_search_forms(tmp_path, kind):
    if kind == "fts5":
        conn = sqlite3.connect(":memory:")
        try:
            conn.execute("CREATE VIRTUAL TABLE t USING fts5(x)")
        except sqlite3.Error:
            pytest.skip("no FTS5 here")
        finally:
            conn.close()
    db = tmp_path / "old.db"
    shutil.copy(DATA / f"{kind}.db", db)
    with glean_personal.open_index(db) as ix:
        assert _paths(ix.search("東京")) == ["tokyo.txt"]
        assert _paths(ix.search("αθηνα")) == ["athens.txt"]
        assert "code.txt" in _paths(ix.search("http server"))
        assert _paths(ix.search("espresso")) == ["note.txt"]
        assert ix.verify().ok
    conn = sqlite3.connect(db)
    version = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0]
    conn.close()
    from glean_personal.store.schema import SCHEMA_VERSION
    assert int(version) == SCHEMA_VERSION


def test_code_identifiers_by_their_parts(tmp_path, open_ix):
    docs = write_tree(tmp_path / "src", {
        "cli.js": "function parseArgs(argv) {\n  return argv.slice(2)\n}\n",
        "cli.py": 'def parse_args(argv):\n    """Read the options."""\n    return argv\n',
        "other.py": "def unrelated():\n    return 1\n",
    })
    ix = open_ix()
    ix.index(docs)
    for query in ("parse args", "parseArgs", "parse_args"):
        assert set(_paths(ix.search(query))) == {"cli.js", "cli.py"}, query
    assert _paths(ix.search("parseArgs"))[0] == "cli.js"


LONG_JAPANESE = ("これは長い文章です。" * 30 + "東京都の渋谷区に行きました。"
                 + "新宿駅で友達に会いました。" * 30 + "\n")


def test_a_cjk_snippet_is_cut_at_its_punctuation(tmp_path, open_ix):
    """Text with no spaces is cut after a 。 or 、, not mid-sentence, and never
    starts on the punctuation mark."""
    docs = write_tree(tmp_path / "docs", {"long.txt": LONG_JAPANESE, "x.txt": "Other.\n"})
    ix = open_ix()
    ix.index(docs)
    snip = ix.search("渋谷区").results[0].snippets[0]
    assert [snip.text[a:b] for a, b in snip.ranges] == ["渋谷区"]
    assert snip.text.startswith("これは") and snip.text.endswith("。"), snip.text


def test_a_mark_holds_the_vowel_signs_of_its_last_letter(scripts_ix):
    """كَتَبَ is marked whole, its last fatha too: a range never ends between a letter
    and its combining marks."""
    hit = scripts_ix.search("كتب").results[0]
    snip = hit.snippets[0]
    assert [snip.text[a:b] for a, b in snip.ranges] == ["كَتَبَ"]


@pytest.mark.parametrize("typed, title, marked", [
    ("ёлк", "Ёлка и праздник", "Ёлк"),
    ("елка", "Ёлка и праздник", "Ёлка"),
    ("αθη", "Ταξίδι στην Αθήνα", "Αθή"),
    ("ΤΑΞΙΔΙ", "Ταξίδι στην Αθήνα", "Ταξίδι"),
    ("creme", "Café et crème brûlée", "crème"),
    ("旅", "北京旅行", "旅"),
])
def test_autocomplete_folds_titles_as_search_does(tmp_path, open_ix, typed, title, marked):
    """A title completes whatever the script's case and marks, as search finds it:
    SQLite's LIKE folds the case of ASCII letters only."""
    docs = write_tree(tmp_path / "docs", {
        "ru.md": "# Ёлка и праздник\n\nМы поставили ёлку.\n",
        "el.md": "# Ταξίδι στην Αθήνα\n\nΗ Ακρόπολη.\n",
        "fr.md": "# Café et crème brûlée\n\nLe café.\n",
        "zh.md": "# 北京旅行\n\n长城非常壮观。\n",
        "x.md": "# Other\n\nNothing here.\n"})
    ix = open_ix()
    ix.index(docs)
    done = [c for c in ix.suggest(typed) if c.document is not None]
    assert [c.text for c in done] == [title]
    assert done[0].text[done[0].start:done[0].end] == marked


@pytest.mark.parametrize("query, path", [
    ("渋谷区に行ったことがある", "tokyo.txt"),   # a sentence no passage holds whole
    ("東京で友達に会った", "tokyo.txt"),
    ("서울에서 친구", "seoul.txt"),
    # two sentences: the runs either side of a `。` or `、` were one phrase, and it
    # was not split, being no chain of pairs
    ("渋谷区に行った。新宿で友達に会った", "tokyo.txt"),
    ("京都の寺、見に行った", "kyoto.txt"),
    ("東京。渋谷", "tokyo.txt"),
])
def test_a_cjk_sentence_is_searched_by_its_pairs(scripts_ix, query, path):
    """Ranking never abstains: a run of Chinese or Japanese that no passage holds whole
    is searched by its character pairs, weighed by rarity, not answered with nothing."""
    result = scripts_ix.search(query, explain=True)
    assert _paths(result)[0] == path, _paths(result)
    assert result.results[0].matched_terms


def test_a_cjk_run_held_whole_stays_a_phrase(scripts_ix):
    """...but a run some passage holds is still the phrase, and a quoted run always."""
    assert "tokyo.txt" not in _paths(scripts_ix.search("京都の寺"))
    assert _paths(scripts_ix.search('"渋谷区に行ったことがある"')) == []


def test_a_cjk_question_held_only_in_part_is_weak(scripts_ix):
    """The pairs no passage holds count against the strength: /chat does not quote the
    Tokyo note for a question about Tokyo's weather."""
    top = scripts_ix.search("東京の天気はどうですか").results[0]
    assert top.document["path"] == "tokyo.txt" and top.strength < 0.33
