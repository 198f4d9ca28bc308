"""The query language: user text becomes quoted FTS5 terms, never syntax."""
from __future__ import annotations

import random
import sqlite3

import pytest

from glean_personal.query import MAX_TERMS, code_name, parse


def labels(text):
    return parse(text).labels()


@pytest.mark.parametrize("text, expected", [
    ("espresso descaling", ["espresso", "descaling"]),
    ("how do I descale the machine", ["descale", "machine"]),
    ('"context manager" exit', ['"context manager"', "exit"]),
    ("sparse-checkout", ['"sparse checkout"', "sparse", "checkout"]),
    ("os.path.join", ['"os path join"', "os", "path", "join"]),
    ("src/app.py", ['"src app py"', "src", "app", "py"]),
    ("don't panic", ['"don t"', "panic"]),
    # a contraction of function words asks, like a request word, beside two content words
    ("why doesn't my merge work", ["merge", "work"]),
    ("copy the bugfix onto the branch I’m on", ["copy", "bugfix", "onto", "branch"]),
    ("I/O error on the disk", ['"i o"', "error", "disk"]),
    ("the logs' folder, i.e. their default location", ["logs", "folder", "default", "location"]),
    # *won't*, *mustn't*: their first pieces are no common words, but they are contractions
    ("why won't my merge work", ["merge", "work"]),
    ("you mustn't edit the branch", ["edit", "branch"]),
    ("it won't start", ['"won t"', "start"]),   # kept beside one word, but not *won* as a word
    # two common words a hyphen joins name something: no contraction
    ("add a to-do item to my notes", ["add", '"to do"', "item", "notes"]),
    ("do-while loop syntax", ['"do while"', "loop", "syntax"]),
    # a number the tokenizer splits is one number, not its pieces as words
    ("slow with 1,000,000 rows", ["slow", "\"1 000 000\"", "rows"]),
    ("what's new in python 3.11", ["new", "python", '"3 11"']),
    # a possessive is the name alone: "tom s" is in no file that says Tom
    ("what is Tom's phone number?", ["tom", "phone", "number"]),
    ("mum\u2019s birthday", ["mum", "birthday"]),
    ('"Tom\'s" shed', ['"tom s"', "shed"]),                        # quoted: as typed
    ("NEAR( title:x", ["near", "\"title x\"", "title"]),
    ("--force-with-lease", ['"force with lease"', "force", "lease"]),
    ("C++", ["c"]),
    ("a I the", ['"a i the"']),
    ("to be, or not to be", ['"to be or not to be"']),
    ("the", ["the"]),
    ("Café MÜNCHEN", ["cafe", "munchen"]),
    ("a way to make a tarball of a release", ["tarball", "release"]),   # request words go
    ("how do I sort a list of names", ["sort", "list", "names"]),       # sorting is a subject
    # where an answer is written is not what it says
    ("where in the docs does it say how to rotate logs", ["rotate", "logs"]),
    ("according to the documentation, rotate logs", ["rotate", "logs"]),
    ("is it mentioned in the manual how to rotate logs", ["rotate", "logs"]),
    ("python docs", ["python", "docs"]),                  # too few words left to drop one
    ("list vs. tuple", ["list", "tuple"]),                 # a comparison names two subjects
    ("lightweight versus annotated tag", ["lightweight", "annotated", "tag"]),
    ("vs code settings sync", ["vs", "code", "settings", "sync"]),   # first, a name's word
])
def test_terms_are_what_the_user_means(text, expected):
    assert labels(text) == expected


def test_bare_words_are_exact_and_a_star_makes_a_prefix():
    q = parse("run os 2024 schedul*")
    assert [(t.tokens, t.prefix) for t in q.terms] == [
        (("run",), False), (("os",), False), (("2024",), False), (("schedul",), True)]
    assert q.fts5() == '"run" OR "os" OR "2024" OR "schedul"*'
    assert q.labels()[-1] == "schedul*"


@pytest.mark.parametrize("text, terms, excluded", [
    ("git NOT rebase", ["git"], ["rebase"]),
    ("git -rebase", ["git"], ["rebase"]),
    ('espresso -"citric acid"', ["espresso"], ['"citric acid"']),
    ('espresso NOT "citric acid"', ["espresso"], ['"citric acid"']),
    ("-X importtime", ["importtime"], []),                  # a one-letter option stays literal
    ("--force-with-lease", ['"force with lease"', "force", "lease"], []),
    ("git rebase NOT", ["git", "rebase"], []),              # nothing follows: no exclusion
    ("wi-fi", ['"wi fi"', "wi", "fi"], []),
])
def test_minus_and_not_exclude(text, terms, excluded):
    q = parse(text)
    assert q.labels() == terms
    assert [t.label for t in q.excluded] == excluded


def test_or_makes_alternatives_of_one_slot():
    q = parse("colour OR color scheme")
    assert q.labels() == ["colour", "color", "scheme"]
    assert q.slots() == [[0, 1], [2]]
    assert parse("OR").labels() == ["or"]          # alone, just a word
    assert parse("salt OR").labels() == ["salt"]


def test_field_filters_inside_the_query():
    from glean_personal.query import Filters
    q = parse("type:markdown source:notes path:docs/* espresso title:x")
    assert q.labels() == ["espresso", '"title x"', "title"]
    f = q.filters(Filters(formats=("html",)))
    assert f.formats == ("html", "md") and f.sources == ("notes",) and f.path_glob == "docs/*"
    assert parse("type: espresso").fields == {}      # no value: literal text


def test_type_aliases_cover_every_format():
    from glean_personal.query import canonical_type
    from glean_personal.formats import READERS, SUPPORTED
    for name in ("markdown", ".MD", "md"):
        assert canonical_type(name) == "md"
    assert canonical_type("htm") == "html" and canonical_type("text") == "txt"
    assert canonical_type("word") == "docx" and canonical_type("excel") == "xlsx"
    assert canonical_type("powerpoint") == "pptx"
    for fmt in READERS:
        assert canonical_type(fmt) == fmt
    for ext, fmt in SUPPORTED.items():     # every file extension names its format
        assert canonical_type(ext, SUPPORTED) == fmt


def test_unbalanced_quote_is_plain_text():
    assert labels('"unclosed phrase here') == ["unclosed", "phrase"]


def test_terms_are_capped():
    q = parse(" ".join(f"word{i}" for i in range(20000)))
    assert len(q.terms) == MAX_TERMS


@pytest.mark.parametrize("text", ["", "   ", '"', '""', "*", "^", "\x00", "!!!", "-",
                                  "NOT", "-espresso", "type:md"])
def test_nothing_searchable_is_an_empty_query(text):
    assert parse(text).empty


def test_random_strings_always_give_valid_fts5():
    """Thousands of hostile strings: every expression is accepted by FTS5."""
    conn = sqlite3.connect(":memory:")
    try:
        conn.execute("CREATE VIRTUAL TABLE t USING fts5(x, tokenize='porter unicode61 remove_diacritics 2')")
    except sqlite3.OperationalError:
        pytest.skip("this SQLite has no FTS5")
    conn.execute("INSERT INTO t VALUES ('near and or not title the quick brown fox')")
    rng = random.Random(1234)
    alphabet = ('abc xyz "()*^:-+.,;/\\\'`~!@#$%&={}[]<>|? \t\n\x00\u200b\u2066\u202e'
                "ÄÖÜßéñ漢字한국어עבריתالعربية😀🎉\ud800") + "ANDORNOTNEAR"
    for _ in range(3000):
        n = rng.choice([1, 3, 10, 40, 200])
        text = "".join(rng.choice(alphabet) for _ in range(n))
        for word in rng.sample(["AND", "OR", "NOT", "NEAR(", "title:", "*", '"', "^"], 2):
            text = text.replace(" ", f" {word} ", 1)
        q = parse(text)
        if not q.empty:
            conn.execute("SELECT count(*) FROM t WHERE t MATCH ?", (q.fts5(),)).fetchone()


@pytest.mark.parametrize("text, question", [
    ("how do I rotate the log files", True),
    ("a scratch folder that gets deleted afterwards", True),
    ("rotate log files nightly", True),            # plain words, as agents ask
    ("rotate", False),                           # one word is searched as typed
    ('"rotate the log" files', False),          # a quoted span is not a question…
    ('rotate the "access" log files every night', True),   # …unless words enough surround it
    ("os.path.join", False),
    ("--force-with-lease", False),               # words inside an option name do not count
    ("rotate NOT the", False),                   # nor excluded ones
])
def test_a_question_in_plain_words_is_told_from_a_keyword(text, question):
    assert parse(text).question is question


@pytest.mark.parametrize("text, sentence", [
    ("how do I rotate the log files", True),
    ("rotate log files nightly", False),         # a list of words, not a sentence
    ('how do I "rotate the log"', False),        # not a question at all
])
def test_a_sentence_is_told_from_a_list_of_words(text, sentence):
    assert parse(text).sentence is sentence


@pytest.mark.parametrize("text, literals", [
    ("@{upstream}", ("@{upstream}",)),
    ("what does HEAD~3 mean?", ("head~3",)),          # sentence marks are not part of it
    ('"**kwargs" in a call', ("**kwargs",)),
    ("C++ templates", ("c++",)),
    ("os.path.join --force-with-lease don't", ()),   # the tokenizer keeps what these mean
    ("except*", ()),                                 # a trailing star is the prefix operator
    ("-$HOME x", ()),                                # excluded words select nothing
    ("a = b", ()),                                   # a symbol alone is no word
    ("why doesn\u2019t it build", ()),                # a typographic apostrophe is `'`
    ("\u6771\u4eac\u3001\u5927\u962a\uff1f", ()),           # CJK sentence marks are no symbols
    ("C++\uff1f", ("c++",)),
    ("\u0939\u093f\u0928\u094d\u0926\u0940 \u092d\u093e\u0937\u093e", ()),   # Hindi vowel signs are letters' parts
    ("std::vector", ("std::vector",)),
])
def test_words_with_symbols_the_index_drops_are_kept_as_typed(text, literals):
    assert parse(text).literals == literals


def test_words_kept_as_typed_are_bounded_like_terms():
    query = parse(" ".join(f"w{i}@{{x}}" for i in range(200)))
    assert query.literals[:2] == ("w0@{x}", "w1@{x}")
    assert len(query.literals) == MAX_TERMS


def test_a_long_phrase_is_looked_up_by_its_first_words():
    from glean_personal.query import MAX_PHRASE_TOKENS
    dotted = parse("a." * 2000)                         # one word the index splits 2,000 times
    quoted = parse('"' + " ".join(f"w{i}" for i in range(100)) + '"')
    common = parse(" ".join(["the", "of", "to"] * 300))  # only common words: one phrase
    for query in (dotted, quoted, common):
        assert max(len(t.tokens) for t in query.terms) == MAX_PHRASE_TOKENS
    assert quoted.terms[0].tokens[-1] == f"w{MAX_PHRASE_TOKENS - 1}"
    assert parse("-" + "b." * 100 + "c").excluded[0].tokens == ("b",) * MAX_PHRASE_TOKENS


def test_a_phrase_of_the_longest_length_is_kept_whole():
    from glean_personal.query import MAX_PHRASE_TOKENS
    words = [f"w{i}" for i in range(MAX_PHRASE_TOKENS)]
    assert parse('"' + " ".join(words) + '"').terms[0].tokens == tuple(words)
    assert parse(".".join(words) + "*").terms[0].prefix


@pytest.mark.parametrize("heading, name", [
    ("add_patterns", "add_patterns"),
    ("Parser.parse", "parser.parse"),
    ("@functools.lru_cache(user_function)", "functools.lru_cache"),
    ("class json.JSONDecoder(*, object_hook=None)", "json.jsondecoder"),
    ("const char *sqlite3_errmsg(sqlite3*)", "sqlite3_errmsg"),
    ("4.4. The json_extract() function", "json_extract"),
    ("(5) SQLITE_BUSY", "sqlite_busy"),
    ("static int add_patterns", "add_patterns"),
    ("Installation", "installation"),
    ("Rim brakes", ""),                 # prose: the last word is not a name
    ("Using the walrus operator", ""),
    ("", ""),
    ("東京", ""),
])
def test_a_heading_names_a_definition_only_as_code_does(heading, name):
    assert code_name(heading, bare=True) == name


def test_code_names_typed_are_kept_for_ranking():
    assert parse("how does add_patterns work").names == ("add_patterns",)
    assert parse("json.loads OR json.dumps").names == ("json.loads", "json.dumps")
    assert parse("tokens").names == ("tokens",)             # one word alone may be a name
    assert parse("tokens").bare_name and not parse("add_patterns").bare_name   # (in code only)
    assert parse("brake pads").names == ()                  # plain words are not
    assert parse('"add_patterns"').names == () and parse("-add_patterns").names == ()


def test_options_typed_are_names_of_the_headings_that_document_them():
    from glean_personal.query import heading_options, option_name
    assert parse("--inspect-brk").names == ("--inspect-brk",)
    assert parse("git rebase --onto").names == ("--onto",)
    assert option_name("--depth=1") == "--depth" and option_name("-X") == "-X"   # case kept
    assert [option_name(w) for w in ("-5", "x-y", "--", "-", "--9")] == [""] * 5
    assert heading_options('-e, --eval "script"') == ["-e", "--eval"]
    assert heading_options("--inspect-brk[=[host:]port]") == ["--inspect-brk"]
    assert heading_options("- item") == [] and heading_options("Options") == []


@pytest.mark.parametrize("text, short", [("c* compost", ("c*",)), ("compost c*?", ("c*?",)),
                                         ("co* compost", ()), ('"c*" compost', ()),
                                         ("-c* compost", ()), ("*", ())])
def test_a_prefix_too_short_to_search_is_kept_as_typed(text, short):
    """Search says why `c*` matched no word starting with c (the notice quotes it)."""
    assert parse(text).short_prefixes == short
