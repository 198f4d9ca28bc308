"""Search through the facade, on both store kinds, over real files."""
from __future__ import annotations

import functools
import os
import json
import random
import time
from pathlib import Path

import pytest

from glean_personal import open_index
from glean_personal import search
from glean_personal.errors import Ambiguous, NotFound
from helpers.files import write_tree
from helpers.templates import index_copy
from pdf_factory import show, text_pdf

FILES = {
    "espresso.md": "# Espresso machine care\n\nDescale the espresso machine weekly with citric "
                   "acid.\n\n## Grinder\n\nClean the burrs every month with a brush.\n",
    "notes/archive.txt": "Scheduling the archive.\n\nThe weekly backup runs every Sunday night "
                         "and copies the archive to the spare disk.\n",
    "git.html": "<html><head><title>Git tips</title></head><body><h1>Checkout</h1>"
                "<p>Use sparse-checkout to fetch part of a repository.</p><h2>Paths</h2>"
                "<p>Join paths with os.path.join in src/app.py before pushing with "
                "--force-with-lease.</p></body></html>",
    "team.json": '{"title": "Team roster", "members": [{"name": "Ada", "role": "descaling lead"}]}',
    "body.md": "Some notes.\n\nThe word kettle appears only in this body text about kettles.\n",
    "heading.md": "# Notes\n\n## Kettle\n\nA section about boiling water.\n",
    "kettle.md": "# Kettle\n\nThe title says it all: a page about the kettle.\n",
}


def _build(home: Path) -> Path:
    root = write_tree(home / "files", FILES)
    db = home / "p.db"
    with open_index(db) as index:
        report = index.index(root, label="files")
    assert report.added == len(FILES) and not report.skipped
    return db


@pytest.fixture
def ix(tmp_path, tmp_path_factory, store_kind, open_ix):
    """A copy (tmp_path/p.db) of FILES indexed once per store kind; the folder is shared."""
    index_copy(tmp_path_factory, "search", store_kind, _build, tmp_path / "p.db")
    return open_ix()


def paths(result):
    return [h.document["path"] for h in result.results]


def test_title_beats_heading_beats_body(ix):
    assert paths(ix.search("kettle"))[:3] == ["kettle.md", "heading.md", "body.md"]


@pytest.mark.parametrize("query, expected", [
    ("sparse-checkout", "git.html"),
    ("os.path.join", "git.html"),
    ("src/app.py", "git.html"),
    ("--force-with-lease", "git.html"),
    ("descale espresso", "espresso.md"),
    ('"citric acid"', "espresso.md"),
    ("descaling lead", "team.json"),
    ("MACHINE café", "espresso.md"),
])
def test_finds_what_the_user_means(ix, query, expected):
    assert paths(ix.search(query))[0] == expected


def test_stems_match_exactly_and_a_star_is_a_prefix(ix):
    assert "espresso.md" in paths(ix.search("descaled"))
    assert "notes/archive.txt" in paths(ix.search("scheduling"))
    assert paths(ix.search("sched")) == []             # a bare word is not a prefix
    assert "notes/archive.txt" in paths(ix.search("sched*"))
    assert paths(ix.search("kett")) == [] and paths(ix.search("kett*"))


def test_explain_never_claims_a_word_the_passage_lacks(tmp_path, open_ix):
    root = write_tree(tmp_path / "c", {"a.md": "# Notes\n\nThe capitlaztion of Francis is odd.\n"})
    ix = open_ix()
    ix.index(root)
    result = ix.search("capital of France capitlaztion", explain=True)
    assert result.results[0].matched_terms == ["capitlaztion"]
    assert result.results[0].missed_terms == ["capital", "france"]


def test_the_snippet_width_is_the_tuning_s(ix, monkeypatch):
    """`SearchTuning.snippet_chars` sets the snippet's width (docs1: it was never read)."""
    text = lambda: ix.search("citric acid descale").results[0].snippets[0].text
    wide = text()
    monkeypatch.setattr(search, "TUNING", search.TUNING.replace(snippet_chars=30))
    narrow = text()
    assert "citric" in narrow and len(narrow) <= 40 < len(wide)


def test_a_narrow_snippet_still_shows_the_word_found(tmp_path, open_ix, monkeypatch):
    # The window starts a quarter of its width before the word and steps back to a
    # space up to 30 characters earlier; cut to its width, a narrow one ended before
    # the word (20: "stopped"; on the Git golden questions, 128 of 483 snippets at 20
    # and 14 at 40 showed no word found, 43 at 20 were empty).
    ix = open_ix()
    ix.index(write_tree(tmp_path / "notes", {"phone.md": (
        "# Phone\n\nAfter the upgrade in March the shared family calendars stopped "
        "synchronising on every phone, and the reminders for the dentist were lost twice "
        "before anyone noticed.\n")}))
    for width in (10, 20, 30, 60):
        monkeypatch.setattr(search, "TUNING", search.TUNING.replace(snippet_chars=width))
        shown = ix.search("synchronising").results[0].snippets[0]
        assert [shown.text[a:b] for a, b in shown.ranges] == ["synchronising"], width
        assert len(shown.text) <= width + 30, width

def test_result_fields_and_snippet_ranges(ix):
    hit = ix.search("weekly backup").results[0]
    assert hit.document["path"] == "notes/archive.txt"
    assert hit.url.startswith("file://") and hit.url.endswith("/files/notes/archive.txt")
    assert hit.passages_total >= 1 and 1 <= hit.passages_matched <= hit.passages_total
    snip = hit.snippets[0]
    marked = {snip.text[a:b].lower() for a, b in snip.ranges}
    assert {"weekly", "backup"} <= marked
    d = hit.to_dict()
    assert d["snippets"][0]["snippet"] == d["snippets"][0]["text"]
    assert {"startIndex", "endIndex"} <= set(d["snippets"][0]["ranges"][0])


def test_explain_uses_the_store_tokenizer(ix):
    result = ix.search("descaling espresso unicorn", explain=True)
    top = result.results[0]
    assert top.document["path"] == "espresso.md"
    assert set(top.matched_terms) == {"descaling", "espresso"}   # 'descale' stems alike
    assert top.missed_terms == ["unicorn"]
    assert top.relative == 1.0
    assert all(0 < h.relative <= 1 for h in result.results)
    assert "tied_with_previous" in top.to_dict()


def test_ties_are_labelled(tmp_path, open_ix):
    root = write_tree(tmp_path / "same", {"a.txt": "zebra crossing", "b.txt": "zebra crossing"})
    ix = open_ix()
    ix.index(root)
    result = ix.search("zebra", explain=True)
    assert [h.tied_with_previous for h in result.results] == [False, True]


def test_passages_mode(ix):
    result = ix.search("espresso", passages=True)
    assert result.results and all(h.passages_matched == 1 for h in result.results)
    assert {h.passage_id for h in result.results}.__len__() == len(result.results)


def test_filters(ix, tmp_path):
    assert set(paths(ix.search("kettle", type="md"))) == {"kettle.md", "heading.md", "body.md"}
    assert paths(ix.search("espresso descaling", type=["json"])) == ["team.json"]
    assert paths(ix.search("archive", path="notes/*")) == ["notes/archive.txt"]
    assert paths(ix.search("espresso", source="nope")) == []
    future = time.time() + 86400
    assert paths(ix.search("espresso", after=future)) == []
    assert paths(ix.search("espresso", before=future))[0] == "espresso.md"


@pytest.mark.parametrize("folder", ["notes", "notes/", "NOTES"])
def test_a_folder_named_as_a_path_filter_means_the_files_below_it(ix, folder):
    """People and agents name a folder (`--path notes`), not a glob below it; the
    filter is case-sensitive as paths are, so `NOTES` is no folder here."""
    found = paths(ix.search("archive", path=folder))
    assert found == ([] if folder == "NOTES" else ["notes/archive.txt"])
    assert paths(ix.search("archive", path="archive.txt")) == ["notes/archive.txt"]
    assert paths(ix.search("kettle", path="notes")) == []


def test_a_page_past_the_last_result_says_where_the_results_end(ix):
    everything = ix.search("kettle", limit=50)
    count = len(everything.results)
    assert 2 <= count < 50 and not everything.notices
    past = ix.search("kettle", offset=count + 5)
    assert past.results == [] and past.past_end
    assert past.notices == [f"the offset is past the last result: this search has {count} "
                            "results"]
    last = ix.search("kettle", offset=count - 1)
    assert len(last.results) == 1 and not last.past_end and not last.notices
    assert not ix.search("zzzkettle", offset=3).past_end   # nothing found at all


def test_limit_offset_and_has_more(ix):
    everything = paths(ix.search("kettle", limit=10))
    assert paths(ix.search("kettle", limit=1, offset=1)) == everything[1:2]
    assert ix.search("kettle", limit=1).has_more


@pytest.mark.parametrize("text", ["", "the of and", '"', "NEAR(a b)", "title:kettle", "*", "^",
                                  "\x00", "😀", "עברית", "x" * 10000, "AND OR NOT",
                                  "-", "--", "-kettle", "NOT NOT", "OR kettle OR", "type:", "path:[",
                                  "type:md", 'kettle -"', "kettle*", "**", "k*", '"kettle"*'])
def test_odd_queries_never_raise(ix, text):
    ix.search(text)
    ix.search(text, explain=True, passages=True)


def test_random_strings_never_raise(ix):
    rng = random.Random(7)
    alphabet = 'kettle espresso type:path:source: "()*^:-+./\\\'~!@#$%&={}[]<>|? \t\n\x00\u200bÄß漢😀\ud800' + "ANDORNOTNEAR"
    for _ in range(400):
        text = "".join(rng.choice(alphabet) for _ in range(rng.choice([1, 5, 30, 120])))
        ix.search(text, limit=3)


def test_fetch_by_id_path_and_fragment(ix):
    hit = ix.search("grinder burrs").results[0]
    by_id = ix.fetch(hit.document["id"])
    assert by_id.document["path"] == "espresso.md"
    assert "Clean the burrs every month" in by_id.text
    assert by_id.sections[0]["heading"] == ["Espresso machine care"]
    assert ix.fetch("espresso.md").document["id"] == hit.document["id"]
    assert ix.fetch("archive").document["path"] == "notes/archive.txt"
    root = ix.sources()[0]["root"]
    assert ix.fetch(os.path.join(root, "git.html")).document["path"] == "git.html"
    with pytest.raises(Ambiguous) as err:
        ix.fetch(".md")
    assert len(err.value.candidates) >= 3
    with pytest.raises(NotFound):
        ix.fetch("no-such-file")


def test_purge_removes_rows_and_never_files(ix):
    root = Path(ix.sources()[0]["root"])
    before = sorted(p.name for p in root.rglob("*"))
    done = ix.purge("files")
    assert done.documents == len(FILES)
    assert ix.search("kettle").results == []
    assert before and sorted(p.name for p in root.rglob("*")) == before
    with pytest.raises(NotFound):
        ix.purge("files")


def test_ranking_never_abstains_and_strength_says_how_well_it_matched(ix):
    # 'sourdough', 'starter' and 'feeding' are in no document; only 'weekly' matches.
    result = ix.search("sourdough starter weekly feeding")
    assert result.results and result.absent_terms == ["sourdough", "starter", "feeding"]
    top = result.results[0]
    assert 0 < top.strength < 0.5 and not top.rare_matched
    assert result.strength == top.strength
    full = ix.search("descale espresso machine").results[0]
    assert full.document["path"] == "espresso.md"
    assert full.strength == 1.0 and full.rare_matched
    d = full.to_dict()
    assert d["strength"] == 1.0 and d["rare_matched"] is True


def test_or_alternatives_count_as_one_for_strength(ix):
    top = ix.search("espresso OR unicornium").results[0]
    assert top.document["path"] == "espresso.md" and top.strength == 1.0


def test_strength_halves_a_passage_holding_few_of_the_query_words(ix, monkeypatch):
    # espresso.md holds 'descale' and 'espresso': all of a two-word query,
    # three of a four-word one, but only two of three words: halved (the rule of
    # an index that is not small; this one is).
    monkeypatch.setattr(search, "TUNING", search.TUNING.replace(small_index=0))
    assert ix.search("descale espresso").results[0].strength == 1.0
    four = ix.search("descale espresso machine backup").results[0]
    assert four.document["path"] == "espresso.md" and 0.5 < four.strength < 1.0
    three = ix.search("descale espresso backup")
    assert "espresso.md" in paths(three)
    assert max(h.strength for h in three.results) < 0.5   # each holds two of three words at most


def test_a_small_index_needs_two_of_the_query_words(ix):
    # Under SearchTuning.small_index passages, two words meeting in one passage are
    # seldom chance: two of three words held are not halved, one of three is.
    assert ix.store.passage_count() < search.TUNING.small_index
    three = {h.document["path"]: h for h in ix.search("descale espresso backup").results}
    assert 0.5 < three["espresso.md"].strength < 1.0
    one = ix.search("descale fjord backup", passages=True).results
    assert max(h.strength for h in one if h.document["path"] == "espresso.md") < 0.5


def test_both_alternatives_of_an_or_are_one_word_held(ix, monkeypatch):
    # espresso.md holds 'descale' and 'espresso' (both sides of the OR, one of
    # the query's words) and 'machine', not 'backup': two of three, halved.
    monkeypatch.setattr(search, "TUNING", search.TUNING.replace(small_index=0))
    top = ix.search("descale OR espresso machine backup").results
    hit = next(h for h in top if h.document["path"] == "espresso.md")
    assert hit.strength < 0.5


def test_a_clipped_short_word_needs_a_passage_word_as_long(tmp_path, open_ix):
    # 'lfs' stems to 'lf', the stem of 'LF' (line feed): the ranking may list the
    # line-ending page, but its strength does not count 'lfs' as held.
    root = write_tree(tmp_path / "lfs", {
        "eol.md": "# Line endings\n\nGit turns LF into CRLF on checkout.\n",
        "lfs.md": "# Large files\n\nGit LFS keeps large files out of the repository.\n",
    })
    index = open_ix("lfs.db")
    index.index(root, label="lfs")
    hits = {h.document["path"]: h for h in index.search("lfs").results}
    assert hits["lfs.md"].strength == 1.0
    assert "eol.md" not in hits or hits["eol.md"].strength == 0.0
    hits = {h.document["path"]: h for h in index.search("git lfs", explain=True).results}
    assert hits["lfs.md"].strength == 1.0
    assert hits["eol.md"].strength < 0.5


def test_strength_counts_the_title_the_passage_is_indexed_under(tmp_path, open_ix):
    # A sheet's or a plain text's passages are headed without their document's
    # title, yet the index matches the title with each of them (`--explain` says
    # so): strength counts it too.
    root = write_tree(tmp_path / "trip", {
        "packing-list.txt": "Passport, charger, sunglasses and the blue jacket.\n",
        "weather.txt": "Sunny all week, a cold wind on the coast.\n",
    })
    index = open_ix("trip.db")
    index.index(root, label="trip")
    hit = index.search("packing list", explain=True).results[0]
    assert hit.document["path"] == "packing-list.txt"
    assert hit.matched_terms == ["packing", "list"] and hit.strength == 1.0
    hit = index.search("packing list sunglasses").results[0]
    assert hit.document["path"] == "packing-list.txt" and hit.strength == 1.0


def test_exclusion_drops_documents_with_the_word(ix):
    assert paths(ix.search("kettle"))[:1] == ["kettle.md"]
    for q in ("kettle -title", "kettle NOT title", 'kettle -"title says"'):
        got = paths(ix.search(q))
        assert "kettle.md" not in got and "heading.md" in got
    assert ix.search("kettle -title").excluded_terms == ["title"]
    assert paths(ix.search("-kettle")) == []


def test_exclusion_drops_whole_documents_from_a_list_of_passages(tmp_path, open_ix):
    """A list of passages (MCP's, /chat's) leaves out every passage of a document that
    holds an excluded word, as a list of documents does: *-rebase* asks for what is
    not about rebasing, and a rebase guide's other sections are about it too."""
    root = write_tree(tmp_path / "t", {
        "rebase.md": "# Replaying commits\n\n## Moving a branch\n\nA rebase replays each "
                     "commit on the new base, one at a time.\n\n## When it stops\n\nWhen merge "
                     "conflicts stop the replay, resolve the conflicts in each file and continue.\n",
        "merge.md": "# Merging\n\n## Conflicts\n\nMerge conflicts are marked in each file; "
                    "resolve the conflicts, then commit the merge.\n"})
    ix = open_ix()
    ix.index(root)
    both = {h.document["path"] for h in ix.search("merge conflicts", passages=True).results}
    assert both == {"rebase.md", "merge.md"}
    for q in ("merge conflicts -rebase", "merge conflicts NOT rebase"):
        got = [h.document["path"] for h in ix.search(q, passages=True).results]
        assert got and set(got) == {"merge.md"}


def test_filters_inside_the_query(ix):
    assert paths(ix.search("espresso descaling type:json")) == ["team.json"]
    assert paths(ix.search("archive path:notes/*")) == ["notes/archive.txt"]
    assert set(paths(ix.search("kettle type:markdown"))) == {"kettle.md", "heading.md", "body.md"}
    assert paths(ix.search("kettle", type="markdown"))       # --type aliases


def test_a_filter_that_matches_nothing_says_so(ix):
    result = ix.search("kettle", type="pdf")
    assert result.results == []
    assert result.notices == ["no documents of type pdf in this index; types here: md, html, "
                              "json, txt"]
    result = ix.search("kettle source:nosuch")
    assert result.notices == ["no source named nosuch in this index; sources here: files"]
    assert ix.search("unicornium", type="md").notices == []   # the filter matches; the word not
    assert "notices" in result.to_dict()


def test_did_you_mean_from_the_index_vocabulary(ix):
    result = ix.search("espreso")
    assert result.suggestions == {"espreso": ["espresso"]}
    assert ix.search("kettel burs").suggestions == {"kettel": ["kettle"], "burs": ["burrs"]}
    assert ix.search("zzqqxx").suggestions == {}
    assert ix.search("espresso").suggestions == {}
    assert result.to_dict()["suggestions"] == {"espreso": ["espresso"]}


def test_did_you_mean_offers_only_the_nearest_words(tmp_path, open_ix):
    """A real word the text does not use is seldom one slip from a word it does:
    a short stem gets words one edit away, and only the nearest words found are
    offered (bench/spelling.py measures both choices)."""
    root = write_tree(tmp_path / "t", {"cards.md": "# Cards\n\nShuffle the deck. "
                                       "The colors and colons of the decks.\n"})
    ix = open_ix()
    ix.index(root)
    assert ix.search("decide").suggestions == {}        # decid is two edits from deck
    assert ix.search("colours").suggestions == {"colours": ["colors"]}   # not colons too
    assert ix.search("dekc").suggestions == {"dekc": ["deck"]}


def test_did_you_mean_never_offers_a_stopword(tmp_path, open_ix):
    """A stopword finds nothing on its own: *for* is no suggestion for *force*."""
    root = write_tree(tmp_path / "t", {"git.md": "# Forks\n\nWhat to do for forks of a "
                                       "repository, for example.\n"})
    ix = open_ix()
    ix.index(root)
    assert ix.search("force").suggestions == {"force": ["forks"]}
    assert ix.search("fo").suggestions == {}


@pytest.mark.parametrize("order", [("a.md", "b.md"), ("b.md", "a.md")])
def test_did_you_mean_shows_a_word_that_finds_something(tmp_path, open_ix, order):
    """A suggested stem is shown as a word of the text: *databas*, the stem of
    *database*, is no word, and FTS5 reads it as *databa*, which finds nothing;
    of the words with the stem, the one nearest what was typed, whichever file
    the index met first (*connection* for *conection*, not *connectivity*)."""
    texts = {"a.md": "# Notes\n\nBack up the database nightly. The connection pool "
                     "keeps ten connections.\n",
             "b.md": "# Other\n\nThe network connectivity was poor.\n"}
    ix = open_ix()
    for name in order:   # one file, then the other: passage ids in that order
        root = write_tree(tmp_path / "t" / name[0], {name: texts[name]})
        ix.index(root)
    assert ix.search("databse").suggestions == {"databse": ["database"]}
    assert ix.search("database").results
    assert ix.search("conection").suggestions == {"conection": ["connection"]}


def test_an_unknown_word_does_not_hide_a_good_answer(ix):
    # 'zyxwv' is unknown, but the espresso page matches the rest of the query well.
    result = ix.search("zyxwv descale espresso machine weekly")
    assert paths(result)[0] == "espresso.md"
    assert result.absent_terms == ["zyxwv"]


def test_a_title_only_match_is_shown_by_a_passage_that_mentions_the_query(tmp_path, open_ix):
    body = ("Descale the machine weekly with citric acid; rinse twice. " * 30).strip()
    root = write_tree(tmp_path / "t", {"espresso.md": "# Espresso\n\n## Grinder\n\nClean burrs.\n\n"
                                                      "## Water\n\n" + body + " Espresso tastes better.\n"})
    ix = open_ix()
    ix.index(root)
    hit = ix.search("espresso").results[0]
    assert "espresso" in hit.snippets[0].text.lower()
    assert hit.snippets[0].ranges


def _prose(seed: int, paragraphs: int = 30) -> str:
    rnd = random.Random(seed)
    vocab = ["".join(rnd.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rnd.randint(4, 9)))
             for _ in range(800)]
    return "\n\n".join(" ".join(rnd.choice(vocab) for _ in range(40)) + " idle mixture screws"
                       for _ in range(paragraphs))


def test_the_same_text_at_two_paths_is_shown_once(tmp_path, open_ix):
    text = _prose(4)
    root = write_tree(tmp_path / "docs", {
        "guide.md": "# Carburettor guide\n\n" + text,
        "_sources/guide.rst.txt": "Carburettor guide\n=================\n\n" + text,
        "other.md": "# Other\n\n" + _prose(5),
    })
    elsewhere = write_tree(tmp_path / "backup", {"guide.md": "# Carburettor guide\n\n" + text})
    ix = open_ix()
    ix.index(root, label="docs")
    ix.index(elsewhere, label="backup")
    assert ix.status().documents == 4                       # nothing left out of the index
    result = ix.search("idle mixture screws", limit=10)
    shown = [(h.document["source"], h.document["path"]) for h in result.results]
    folded = {d["path"] for h in result.results for d in h.also_at}
    assert len(folded) == 1 and folded <= {"guide.md", "_sources/guide.rst.txt"}
    assert not any(("docs", p) in shown for p in folded)      # the copy is not shown again
    assert ("docs", "other.md") in shown                      # a different text stays
    assert ("backup", "guide.md") in shown                    # another folder is not folded
    passages = ix.search("idle mixture screws", limit=40, passages=True).results
    copies = {h.document["path"] for h in passages if h.document["source"] == "docs"}
    assert len(copies & {"guide.md", "_sources/guide.rst.txt"}) == 1
    hit = next(h for h in ix.search("idle mixture screws").results if h.also_at)
    assert hit.to_dict()["also_at"][0]["path"] in {"guide.md", "_sources/guide.rst.txt"}


def test_a_page_is_shown_before_its_source_and_its_data_copy(tmp_path, open_ix):
    # A page and copies of its text kept elsewhere in the folder (beside the page under
    # its name, the walk would skip them): the page is the one shown.
    text = _prose(6)
    paras = text.split("\n\n")
    html = ("<html><head><title>Carburettor guide</title></head><body>"
            "<nav>Home | Index | Search | Previous | Next</nav><h1>Carburettor guide</h1>"
            + "".join(f"<p>{p}</p>" for p in paras) + "</body></html>")
    root = write_tree(tmp_path / "docs", {
        "src/guide.txt": "Carburettor guide\n=================\n\n" + text,
        "guide.html": html,
        "data/guide.json": json.dumps({"title": "Carburettor guide", "paragraphs": paras}),
        "other.md": "# Other\n\n" + _prose(7),
    })
    ix = open_ix()
    ix.index(root)
    kept = {"src/guide.txt", "guide.html", "data/guide.json"}
    for passages in (False, True):
        hits = ix.search("idle mixture screws", limit=40, passages=passages).results
        shown = {h.document["path"] for h in hits} & kept
        # A list of passages: the page takes the source's place only within the block
        # of results (`fold_block`) the source's first passage is in, so that pages
        # are slices of one order; here other.md's ten passages come first, and the
        # page's first passage falls in the next block. The text is shown once.
        assert shown == ({"src/guide.txt"} if passages else {"guide.html"}), passages
        hit = next(h for h in hits if h.document["path"] in shown)
        assert {d["path"] for d in hit.also_at} == kept - shown


def _spec_page(title: str, paragraphs) -> str:
    return (f"<html><head><title>{title}</title></head><body><h1>{title}</h1>"
            + "".join(f"<p>{p}</p>" for p in paragraphs) + "</body></html>")


def _carburettor_pages(tmp_path, open_ix, smaller, larger, more=8):
    """An index of two pages sharing eight paragraphs (one about the throttle cable's
    tension), the larger `more` paragraphs longer, and an unrelated page: `smaller` and
    `larger` are (path, page-maker) pairs, each maker given the paragraphs."""
    shared = _prose(8).split("\n\n")
    shared[3] += " Tighten the throttle cable tension by half a turn."
    added = _prose(9, more).split("\n\n")
    root = write_tree(tmp_path / "docs", {
        smaller[0]: smaller[1](shared), larger[0]: larger[1](shared + added),
        "html/other.html": _spec_page("Other", _prose(10).split("\n\n")),
    })
    ix = open_ix()
    ix.index(root)
    return ix


def test_of_two_editions_of_one_text_the_fuller_is_shown(tmp_path, open_ix):
    """A specification kept in two versions (Go's `go1.17_spec.html` beside
    `go_spec.html`, which holds its text and a chapter more): whichever ranks first,
    the later, fuller one is shown and the earlier named under it, so a question only
    the later answers is not shown the earlier. (Under two titles, the fuller with more
    passages holds the other as a part, and both are kept: the next test.)"""
    spec = functools.partial(_spec_page, "Carburettor specification")
    ix = _carburettor_pages(tmp_path, open_ix, ("html/old_spec.html", spec),
                            ("html/spec.html", spec))
    for passages in (False, True):
        hits = ix.search("throttle cable tension", limit=10, passages=passages).results
        shown = [h.document["path"] for h in hits if "spec" in h.document["path"]]
        assert shown[:1] == ["html/spec.html"], passages
        assert "html/old_spec.html" not in shown
        assert [d["path"] for d in hits[0].also_at] == ["html/old_spec.html"]


def test_a_part_and_the_larger_text_that_holds_it_are_not_copies(tmp_path, open_ix):
    """A man page and the manual that repeats it (Bash's `bash.html` and
    `bashref.html`; `git-show.html` and `git-log.html`, which includes its text):
    their sketches pass for one text, but the manual has another title, words the
    page lacks and more passages, so both are kept and listed, neither named under the
    other. Before, the one ranked later was folded under the first."""
    ix = _carburettor_pages(
        tmp_path, open_ix, ("html/tool.html", functools.partial(_spec_page, "tool(1)")),
        ("html/manual.html", functools.partial(_spec_page, "The carburettor manual")), 10)
    rows = dict(ix.store.conn.execute("SELECT path, passages FROM documents"))
    assert rows["html/manual.html"] > rows["html/tool.html"]
    hits = ix.search("throttle cable tension", limit=10).results
    shown = {h.document["path"] for h in hits}
    assert {"html/tool.html", "html/manual.html"} <= shown
    assert not any(d["path"] in shown for h in hits for d in h.also_at)
    # a list of passages shows the passage both hold once, from the part, and names the
    # manual under it (`chapters_first`)
    hits = ix.search("throttle cable tension", limit=10, passages=True).results
    assert hits[0].document["path"] == "html/tool.html"
    assert [d["path"] for d in hits[0].also_at] == ["html/manual.html"]


def test_a_translation_left_half_done_stays_a_copy_of_its_original(tmp_path, open_ix):
    """A translation under its own title that left much of the original in English
    (WeeChat's Italian guide) lacks what the original has, but it is no part of it:
    in another language, it is still folded under the original as a copy."""
    def italian(paragraphs):
        return _spec_page("Guida del carburatore", paragraphs).replace(
            "<html>", '<html lang="it">')
    ix = _carburettor_pages(
        tmp_path, open_ix, ("html/guide.it.html", italian),
        ("html/guide.en.html", functools.partial(_spec_page, "The carburettor guide")), 10)
    langs = dict(ix.store.conn.execute("SELECT path, lang FROM documents"))
    assert langs["html/guide.it.html"] == "it" and langs["html/guide.en.html"] == "en"
    hits = ix.search("throttle cable tension", limit=10).results
    shown = [h.document["path"] for h in hits]
    assert "html/guide.en.html" in shown and "html/guide.it.html" not in shown
    host = hits[shown.index("html/guide.en.html")]
    assert [d["path"] for d in host.also_at] == ["html/guide.it.html"]


def test_kept_word_counts_follow_changes_to_the_index(ix, tmp_path, open_ix):
    """Counts and vocabulary kept between searches are forgotten when the index changes,
    through this handle or another one."""
    assert ix.search("samovar").absent_terms == ["samovar"]
    assert ix.search("samovr").suggestions == {}
    extra = write_tree(tmp_path / "more", {"tea.md": "# Tea\n\nThe samovar keeps the water hot.\n"})
    ix.index(extra, label="more")            # written through this handle
    assert ix.search("samovar").absent_terms == []
    assert ix.search("samovr").suggestions == {"samovr": ["samovar"]}
    other = open_ix()                         # the same file, another connection
    other.purge("more")
    assert ix.search("samovar").absent_terms == ["samovar"]
    assert ix.search("samovr").suggestions == {}


def test_a_word_begins_as_its_stem_less_two_letters():
    """Search stems only the words that begin as a query stem does (snippets._heads):
    it relies on Porter changing no more than a stem's last two letters."""
    from glean_personal.analysis import stem
    from glean_personal.snippets import _heads
    roots = ["sens", "nob", "relat", "valen", "organ", "happ", "hop", "conflat", "possib",
             "activ", "commun", "hyster", "cr", "pon", "gener", "format", "electr", "a", "ab"]
    suffixes = ["", "ility", "ibility", "ability", "ation", "ational", "tional", "ency", "ancy",
                "izer", "ization", "izing", "ing", "ed", "eed", "ies", "ses", "s", "y", "ly",
                "bly", "bli", "alli", "entli", "eli", "ousli", "iveness", "fulness", "ousness",
                "aliti", "iviti", "biliti", "logi", "logy", "icate", "ative", "alize", "iciti",
                "ical", "ful", "ness", "ible", "able", "ement", "ment", "ant", "ism", "ous",
                "ive", "ize", "ate", "iti", "ll", "ating", "bling", "ying"]
    for root in roots:
        for suffix in suffixes:
            for word in (root + suffix, root + suffix + "s", root + suffix + "ed"):
                s = stem(word)
                assert word.startswith(_heads([s])), (word, s)


def test_the_words_worth_stemming_are_the_tokens_that_begin_as_a_stem_does():
    """`_Heads.words` finds, by one pattern over the text with its separators made
    spaces, exactly the tokens (runs of [0-9a-z]) that begin with a head: separators of
    every kind (punctuation, `_`, line ends, characters outside ASCII), a token at either
    end, digits."""
    from glean_personal.analysis import tokenize
    from glean_personal.snippets import _Heads
    heads = _Heads(["rotat", "log", "x", "2024"])
    texts = ["Rotate the logs: logrotate_daily rotated\nlog-files, (log)/logging.",
             "log", "xlog x-ray 2024-05 v2024 logé café\u00a0log\tlogs\u2003rotation",
             "", "___", "émigré log\u0301 log"]
    for text in texts:
        low = text.lower()
        expected = {tok for tok in tokenize(low.encode("ascii", "replace").decode())
                    if tok.startswith(heads.heads)}
        assert heads.words(low) == expected, text
    assert heads.words("rotate the logs: logrotate_daily") == {"rotate", "logs", "logrotate"}


def test_a_shown_passage_is_compared_with_its_white_space_made_single_spaces():
    """`copies._one_spaced` is `" ".join(text.split())`, and leaves a text already so
    as it is."""
    from glean_personal.copies import _one_spaced
    texts = ["a b", " a b", "a b ", "a  b", "a\nb", "a\tb", "a\u00a0b", "a\u2003b", "a\x1fb",
             "a\x85b", "a\u3000b", "a\u200bb", "", "   ", "\n", "caf\u00e9 au lait."]
    for text in texts:
        assert _one_spaced(text) == " ".join(text.split()), repr(text)
    text = "already single spaced, as half the shown passages are."
    assert _one_spaced(text) is text


def test_a_question_is_answered_by_its_passage_not_by_a_long_page_of_mentions(tmp_path, open_ix):
    # The handbook names three of the words in each of 24 sections; the
    # housekeeping page says it all in one. Asked as a question in plain words,
    # the page that answers it comes first; the same words as a keyword list
    # still favour the document that is about them throughout (a list of words is
    # asked as a question, but its further passages add up as a keyword search's).
    # (*at night*, not *every night*: the thesaurus gives that *nightly*, which the
    # housekeeping page's heading holds.)
    words = ["rotate", "log", "files", "night", "scheduler", "disk"]
    sections = "\n".join(
        f"## Part {i}\n\nThis part of the handbook mentions {words[i % 6]}, {words[(i + 2) % 6]} "
        f"and {words[(i + 4) % 6]} among other topics such as printers, badges and lunch "
        f"menus number {i}.\n" for i in range(24))
    files = {"handbook.md": "# Office handbook\n\n" + sections,
             "housekeeping.md": "# Housekeeping\n\n## Nightly jobs\n\nA scheduler job renames the "
                                "log files each night, so they rotate before the disk fills. It "
                                "was set up by the operations team years ago and still works.\n"}
    for topic in ("kettle", "garden", "bicycle", "recipe", "travel", "music", "budget", "tax"):
        files[f"{topic}.md"] = (f"# {topic.title()}\n\nNotes about the {topic}: nothing about "
                                f"computers, only the {topic} and its care.\n\n## More\n\n"
                                f"Further {topic} remarks.\n")
    ix = open_ix()
    ix.index(write_tree(tmp_path / "office", files))
    question = ix.search("how do I rotate the log files at night")
    keywords = ix.search("rotate log files night")
    assert question.terms == keywords.terms
    assert paths(question)[:2] == ["housekeeping.md", "handbook.md"]
    assert paths(keywords)[:2] == ["handbook.md", "housekeeping.md"]


def test_a_word_with_symbols_ranks_the_passage_holding_it_as_typed_first(tmp_path, open_ix):
    # Both pages are about upstream branches; the index keeps only the word
    # `upstream`, so the page that spells `@{upstream}` out wins only on the
    # text as typed. Without the symbols the order is the other way round.
    files = {"branches.md": "# Branches\n\nEvery branch may track an upstream branch. The upstream "
                            "is set by push -u. Pull merges from the upstream branch, and status "
                            "compares with upstream.\n",
             "revisions.md": "# Revisions\n\nA suffix names a commit: branch@{upstream} is the "
                             "branch it builds on top of, and branch@{push} is where it pushes.\n"}
    ix = open_ix()
    ix.index(write_tree(tmp_path / "docs", files))
    assert paths(ix.search("upstream")) == ["branches.md", "revisions.md"]
    assert paths(ix.search("@{upstream}")) == ["revisions.md", "branches.md"]


DIR_C = """#include "dir.h"

static int add_patterns(const char *fname, const char *base, int baselen,
\t\t\tstruct pattern_list *pl, struct index_state *istate,
\t\t\tunsigned flags, struct oid_stat *oid_stat)
{
\tstruct stat st;
\tint r, fd;
\tsize_t size = 0;
\tchar *buf;

\tif (flags & PATTERN_NOFOLLOW)
\t\tfd = open_nofollow(fname, O_RDONLY);
\telse
\t\tfd = open(fname, O_RDONLY);
\tif (fd < 0 || fstat(fd, &st) < 0) {
\t\tif (fd >= 0)
\t\t\tclose(fd);
\t\treturn -1;
\t}
\tsize = xsize_t(st.st_size);
\tbuf = xmallocz(size);
\tif (read_in_full(fd, buf, size) != size) {
\t\tfree(buf);
\t\tclose(fd);
\t\treturn -1;
\t}
\tclose(fd);
\tr = parse_pattern_buffer(buf, size, base, baselen, pl, istate, oid_stat);
\tfree(buf);
\treturn r;
}

int add_patterns_from_file_to_list(const char *fname, const char *base, int baselen,
\t\t\t\t   struct pattern_list *pl, struct index_state *istate,
\t\t\t\t   unsigned flags)
{
\treturn add_patterns(fname, base, baselen, pl, istate, flags, NULL);
}
"""

SPARSE_C = """#include "dir.h"

static int sparse_checkout_init(struct pattern_list *pl)
{
\tadd_patterns(".git/info/sparse-checkout", pl);
\tadd_patterns(".git/info/sparse-checkout.local", pl);
\treturn add_patterns(".git/info/sparse-checkout.extra", pl);
}
"""

PARSER_PY = """class Parser:
    \"\"\"Reads tokens.\"\"\"

    def parse(self, text):
        return self.tokens(text)

    def tokens(self, text):
        words = []
        for number, line in enumerate(text.splitlines(), 1):
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            if line.endswith("\\\\"):
                line = line[:-1]
            for word in line.split():
                if word.isdigit():
                    word = int(word)
                elif word.lower() in ("true", "false"):
                    word = word.lower() == "true"
                words.append((number, word))
        return words


def run(text):
    parser = Parser()
    return parser.parse(text) + Parser().parse(text.upper())


def count(texts):
    parser = Parser()
    first = parser.tokens(texts[0])
    last = parser.tokens(texts[-1])
    every = [parser.tokens(t) for t in texts]
    return len(first) + len(last) + sum(map(len, every)) + len(parser.tokens(" ".join(texts)))
"""


SETTINGS_PY = "def load_settings(path, defaults=None, environ=None, strict=False):\n" + "".join(
    f"    value_{n} = read_option(path, 'section_{n}', 'option_{n}', fallback=defaults)\n"
    f"    check_range(value_{n}, minimum={n}, maximum={n * 10}, strict=strict)\n"
    for n in range(24)) + "    return settings\n"


def test_a_code_name_finds_its_definition_before_its_callers(tmp_path, open_ix):
    # `add_patterns` is called more often in the other function and file than it is
    # defined; its words are in a longer name too. Only its own heading says it is
    # defined there, and that is what a search for the name wants first.
    ix = open_ix()
    ix.index(write_tree(tmp_path / "src", {"dir.c": DIR_C, "sparse.c": SPARSE_C,
                                           "parser.py": PARSER_PY, "settings.py": SETTINGS_PY}))
    first = ix.search("add_patterns").results[0]
    assert (first.document["path"], first.section, first.lines[0]) == ("dir.c", ["add_patterns"], 3)
    first = ix.search("Parser.parse").results[0]
    assert (first.document["path"], first.section) == ("parser.py", ["Parser.parse"])
    # a definition longer than a passage is shown from its start, where its signature is
    first = ix.search("load_settings").results[0]
    assert (first.document["path"], first.section, first.lines[0]) == (
        "settings.py", ["load_settings"], 1)
    # a word alone may name a definition too: the method, not the function calling it
    first = ix.search("tokens").results[0]
    assert (first.document["path"], first.section) == ("parser.py", ["Parser.tokens"])


RESPONSE_JS = """'use strict';

var res = module.exports = Object.create(http.ServerResponse.prototype);

/**
 * Transfer the file at the given `path`, setting the Content-Type
 * from its extension, and call `callback` when it is sent or fails.
 *
 * @public
 */

res.sendFile = function sendFile(path, options, callback) {
  var opts = options || {};
  if (!path) {
    throw new TypeError('path argument is required to res.sendFile');
  }
  var file = send(this.req, encodeURI(path), opts);
  sendfile(this, file, opts, callback);
};

function sendfile(res, file, options, callback) {
  // called by res.sendFile and res.download: pipe the file, then call back once
  file.on('end', function () { callback(null); });
  file.pipe(res);
}

/**
 * Set the status code.
 */

res.status = function status(code) {
  this.statusCode = code;
  return this;
};
"""

SENDFILE_TEST_JS = "'use strict'\n\ndescribe('res', function () {\n" + "".join(
    f"  it('should send file {n}', function (done) {{\n"
    f"    var app = express();\n    app.use(function (req, res) {{\n"
    f"      res.sendFile(path.join(fixtures, 'name{n}.txt'));\n    }});\n"
    f"    request(app).get('/').expect(200, done);\n  }});\n\n" for n in range(6)) + "});\n"


def test_the_file_defining_a_name_comes_before_the_test_file_named_after_it(tmp_path, open_ix):
    # Express defines `res.sendFile = function sendFile(…)` in lib/response.js and
    # tests it in test/res.sendFile.js, whose calls match more often: the
    # file that holds the definition is the one a search for the name wants first.
    ix = open_ix()
    others = {f"lib/{name}.js": f"'use strict';\n\n/**\n * The {name} helpers.\n */\n\n"
              f"exports.{name} = function {name}(req, res, next) {{\n  res.setHeader('X-{name}', "
              f"req.url);\n  next();\n}};\n" for name in ("query", "cookies", "etag", "vary")}
    ix.index(write_tree(tmp_path / "express", {"lib/response.js": RESPONSE_JS,
                                               "test/res.sendFile.js": SENDFILE_TEST_JS, **others}))
    first = ix.search("res.sendFile").results[0]
    assert (first.document["path"], first.section, first.lines[0]) == (
        "lib/response.js", ["res.sendFile"], 5)
    # among more words, the file that defines the name is lifted less, as its passage is
    assert paths(ix.search("res.sendFile fixtures"))[0] == "test/res.sendFile.js"


REQUEST_JS = """'use strict';

var req = Object.create(http.IncomingMessage.prototype);

/**
 * Check if the request is fresh, aka Last-Modified or the ETag still match:
 * a cached copy the client holds may be used.
 */

req.isFresh = function isFresh() {
  var status = this.res.statusCode;
  if (status >= 200 && status < 300 || status === 304) {
    return fresh(this.headers, { etag: this.res.get('ETag') });
  }
  return false;
};
"""

FRESH_TEST_JS = "'use strict'\n\ndescribe('req.isFresh', function () {\n" + "".join(
    f"  it('should be fresh when the etag matches ({n})', function (done) {{\n"
    f"    var app = express();\n    app.use(function (req, res) {{\n"
    f"      res.set('ETag', '\"{n}\"');\n      res.send(req.isFresh());\n    }});\n"
    f"    request(app).get('/').set('If-None-Match', '\"{n}\"').expect(304, done);\n  }});\n\n"
    for n in range(8)) + "});\n"

HISTORY_MD = "".join(
    f"4.{n}.0 / 2014-0{n % 9 + 1}-01\n==================\n\n"
    f"  * fix request freshness check when the ETag is weak ({n})\n"
    f"  * deps: fresh@0.{n}.0\n\n" for n in range(10))


def test_a_question_finds_the_code_before_its_tests_and_release_notes(tmp_path, open_ix):
    # Tests call what they test over and over and are named after it, and release
    # notes name every fix; a question not about tests or versions wants the code.
    others = {f"lib/{name}.js": f"'use strict';\n\n// The {name} helpers: {name} lists, {name} "
              f"maps.\n\nexports.{name} = function {name}(list) {{\n  return list.map(String);\n}};\n"
              for name in ("colours", "shapes", "planets", "rivers", "cities", "metals", "stars",
                           "birds", "trees", "coins", "ships", "songs", "clocks", "lamps", "kites")}
    ix = open_ix()
    ix.index(write_tree(tmp_path / "app", {"lib/request.js": REQUEST_JS, "History.md": HISTORY_MD,
                                           "test/req.isFresh.js": FRESH_TEST_JS, **others}))
    plain = ix.search("how does it check if a request is fresh").results
    paths = [h.document["path"] for h in plain[:3]]
    # the code first; then the notes and the test, each at half (the notes, 10 of the
    # tree's passages, count as one passage too: no support from their others)
    assert paths[0] == "lib/request.js"
    assert sorted(paths[1:]) == ["History.md", "test/req.isFresh.js"]
    # asked about its tests, the test file counts in full
    tested = ix.search("how is the request freshness check tested").results
    assert [h.document["path"] for h in tested][0] == "lib/request.js"
    def share(results):
        return next(h.score for h in results if h.document["path"] == "test/req.isFresh.js") \
            / results[0].score
    assert share(tested) > 1.5 * share(plain)


def test_a_question_that_changes_something_is_not_about_versions(tmp_path, open_ix):
    # *change*, *add*, *new* are what a person does (`change the default editor`);
    # *what changed in*, *new in 2.3*, *version* ask what release notes answer. Release
    # notes are known by their names as Debian keeps them too (`changelog.Debian.gz`).
    import gzip
    log = "".join(f"tool ({n}.0-1) unstable; urgency=low\n\n  * Change the default editor "
                  f"to nano when EDITOR is unset ({n}).\n  * New upstream release.\n\n"
                  for n in range(12))
    guide = ("# Configuration\n\n## Editor\n\nThe editor the tool opens is the default "
             "editor: set `core.editor` in the configuration file to change it.\n")
    root = write_tree(tmp_path / "doc", {"guide.md": guide})
    (root / "changelog.Debian.gz").write_bytes(gzip.compress(log.encode()))
    ix = open_ix()
    ix.index(root)
    assert paths(ix.search("how do I change the default editor"))[0] == "guide.md"
    assert paths(ix.search("what changed in the default editor"))[0] == "changelog.Debian.gz"


@pytest.mark.parametrize("path, notes", [
    ("changelog.Debian.gz", True), ("pkg/NEWS.gz", True), ("CHANGELOG.2", True),
    ("Documentation/RelNotes/2.28.0.txt", True), ("HISTORY.rst", True),
    ("notes/relationships.md", False), ("news/article.md", False), ("history.gz.md", False),
    ("doc/version8.txt", True), ("html/version9.html", True), ("version_2.md", True),
    ("versionnumbers.html", False), ("git-version.html", False), ("version.html", False),
    ("c3ref/libversion.html", False)])
def test_release_notes_are_known_by_their_paths(path, notes):
    from glean_personal.kinds import is_release_notes_path
    assert is_release_notes_path(path) is notes


GPL_PAGE = """<html><head><title>License \u2014 shell 3.6.0 documentation</title></head><body>
<h1>License</h1>
<h2>License for the shell</h2>
<p>The shell is Copyright (C) 2005-2009 Axel Liljencrantz and its contributors. It is
released under the GNU General Public License, version 2.</p>
<p>This program is free software; you can redistribute it and/or modify it under the terms
of the GNU General Public License as published by the Free Software Foundation.</p>
<p>If the distribution and/or use of the Program is restricted in certain countries either
by patents or by copyrighted interfaces, the original copyright holder who places the
Program under this License may add an explicit geographical distribution limitation
excluding those countries, so that distribution is permitted only in or among countries
not thus excluded. You may add programs to the places you keep them, for good or ill.</p>
<p>Where copies of the Program live is yours to choose.</p>
<p>Activities other than copying, distribution and modification are not covered by this
License; they are outside its scope. The act of running the Program is not restricted,
and the output from the Program is covered only if its contents constitute a work based
on the Program.</p>
</body></html>
"""

ADD_PATH_PAGE = """<html><head><title>add_path - add to the path \u2014 shell 3.6.0 documentation</title>
</head><body>
<h1>add_path - add to the path</h1>
<h2>Description</h2>
<p>add_path is a simple way to add a directory to the PATH, the list of directories
searched for commands. It keeps the change in a universal variable, so it lasts.</p>
<p>Components are added in the order they are given, and they are prepended to the path
unless --append is given.</p>
</body></html>
"""


def pages_about(names, sentence: str, folder: str = "", title: str = "{n}") -> dict:
    """Small pages, one a name, among which a test's answer and its look-alike must rank."""
    return {f"{folder}{n}.html": f"<html><head><title>{title.format(n=n)}</title></head><body>"
            f"<h1>{n}</h1><p>{sentence.format(n=n)}</p></body></html>" for n in names}


def test_a_licence_counts_half_for_a_question_not_about_licensing(tmp_path, open_ix):
    # A licence is long legal prose about programs, places and use: fish's license.html
    # (the GPL) came first for a plain question its add-to-the-path page answers.
    others = pages_about(("colours", "shapes", "planets", "rivers", "cities", "metals", "birds",
                          "trees"), "The {n} command lists {n} entries and their values.",
                         folder="cmds/", title="{n} - {n} things")
    ix = open_ix()
    ix.index(write_tree(tmp_path / "doc", {"license.html": GPL_PAGE,
                                           "cmds/add_path.html": ADD_PATH_PAGE, **others}))
    found = paths(ix.search("add the folder where my programs live to the places searched "
                            "for commands, for good"))
    assert found[0] == "cmds/add_path.html"
    assert "license.html" in found
    # asked about the licence, it counts in full
    assert paths(ix.search("which licence covers the programs, may I redistribute them"))[0] \
        == "license.html"


THEME_CSS = """/* Theme of the help pages: how each page, its links, tables and images look.
   The search box and the page body use the same font. */
body { font-family: sans-serif; margin: 0 2em; }
a.link, a.link:visited { color: #2a5db0; }     /* a link to another page */
table.page td { padding: 2px; }                /* a table on the page */
img.image { border: none; }                    /* an image in the page */
div.search input { width: 12em; }              /* the search box */
"""

CROP_PAGE = """<html><head><title>Crop Tool</title></head><body><h1>Crop Tool</h1>
<p>The Crop tool cuts away the edges of an image or a layer: select the part of the page
to keep and press Enter.</p></body></html>"""


def test_a_style_sheet_counts_half_for_a_question_not_about_styling(tmp_path, open_ix):
    # A manual's theme names the page, its links, tables and images in its selectors and
    # comments: over the golden and blind sets' questions style sheets took 25 places in
    # the first ten and one first place.
    others = pages_about(("blur", "smudge", "dodge", "heal", "clone", "fill", "ink", "pencil"),
                         "The {n} tool changes colours and brushes of a layer.", folder="tools/")
    ix = open_ix()
    ix.index(write_tree(tmp_path / "help", {"css/theme.css": THEME_CSS,
                                            "tools/crop.html": CROP_PAGE, **others}))
    question = "keep only part of the image on the page, cut away the edges"
    found = paths(ix.search(question))
    assert found[0] == "tools/crop.html" and "css/theme.css" in found
    halved = {h.document["path"]: h.score for h in ix.search(question, limit=20).results}
    whole = {h.document["path"]: h.score
             for h in ix.search(question + " with the same font", limit=20).results}
    # asked about styling, the style sheet counts in full: about twice its halved score
    assert whole["css/theme.css"] > 1.5 * halved["css/theme.css"]
    assert paths(ix.search("which font do the search box and the page body use"))[0] \
        == "css/theme.css"


SQLITE_COPYRIGHT = """<html><head><title>SQLite Copyright</title></head><body>
<h1>SQLite Is Public Domain</h1>
<p>All of the code and documentation in SQLite has been dedicated to the public domain by the
authors. All code authors, and representatives of the companies they work for, have signed
affidavits dedicating their contributions to the public domain.</p>
<p>Anyone is free to copy, modify, publish, use, compile, sell, or distribute the original
SQLite code, either in source code form or as a compiled binary, for any purpose, commercial
or non-commercial, and by any means.</p></body></html>"""

SQLITE_FAQ = """<html><head><title>SQLite Frequently Asked Questions</title></head><body>
<h1>Frequently Asked Questions</h1>
<h2>Is SQLite threadsafe?</h2><p>SQLite is threadsafe, and the threading mode can be chosen
when it is compiled.</p>
<h2>Where is the web site?</h2><p>The SQLite web site is public; its domain is sqlite.org.</p>
<h2>Can I use SQLite for a web site?</h2><p>SQLite works well as the database of a public
web site with a modest load.</p></body></html>"""


def test_a_question_about_the_public_domain_is_about_licensing(tmp_path, open_ix):
    # Asked in the words of the licence's own title (SQLite's copyright.html, "SQLite Is
    # Public Domain"), with no licence or copyright, the notice counts in full.
    others = pages_about(("lang", "pragma", "vtab", "fts5", "json1", "rtree", "wal", "backup"),
                         "SQLite {n} works with tables, indexes and their rows.")
    ix = open_ix()
    ix.index(write_tree(tmp_path / "doc", {"copyright.html": SQLITE_COPYRIGHT,
                                           "faq.html": SQLITE_FAQ, **others}))
    assert paths(ix.search("is sqlite public domain"))[:2] == ["copyright.html", "faq.html"]


@pytest.mark.parametrize("text, legal", [
    ("which licence covers it", True), ("is sqlite public domain", True),
    ("an open-source alternative", True), ("is it GPLv3 or AGPL", True),
    ("may I distribute it in a closed source product", True),
    ("add a folder to the path", False), ("take a distributed lock", False),
    ("the library my linux distribution installed", False), ("a public web site", False)])
def test_a_search_about_licensing_is_known_by_its_words(text, legal):
    from glean_personal.query import parse
    from glean_personal.search import _about_licensing
    query = parse(text)
    assert _about_licensing(query, {s for t in query.terms for s in t.stems()}) is legal


@pytest.mark.parametrize("title, path, legal", [
    ("copyright", "copyright", True), ("LICENSE", "LICENSE", True),
    ("COPYING.LIB", "COPYING.LIB", True), ("LICENSE-MIT.txt", "LICENSE-MIT.txt", True),
    ("Licensing \u2014 rsyslog 8.2302.0 documentation", "licensing.html", True),
    ("SQLite Copyright", "copyright.html", True),
    ("The Apache License, Version 2.0 - Apache HTTP Server Version 2.4", "en/license.html", True),
    ("History and License \u2014 Python 3.11.2 documentation", "license.html", True),
    ("copy \u2014 Shallow and deep copy operations", "library/copy.html", False),
    ("copyreg \u2014 Register pickle support functions", "library/copyreg.html", False),
    ("34.10. Functions Associated with the COPY Command", "libpq-copy.html", False),
    ("License keys", "admin/keys.html", False),
    ("Copyright notices in the source files", "notes.html", False),
    ("Licence to kill", "films/bond.md", False),
    ("COPYING.LESSER", "COPYING.LESSER", True), ("LICENSE.md", "LICENSE.md", True),
    ("COPYING3", "gcc/COPYING3", True), ("license_gpl3", "doc/license_gpl3.txt", True),
    # a note named by its subject, or a program, is no notice
    ("Copying files with rsync", "notes/copying-files-with-rsync.md", False),
    ("Renewing the number plate", "car/license-plate-renewal.md", False),
    ("license.py", "app/license.py", False)])
def test_legal_notices_are_known_by_their_names_and_titles(title, path, legal):
    from glean_personal.kinds import is_legal_notice
    assert is_legal_notice(title, path) is legal


def test_a_spec_folder_of_documents_is_not_taken_for_tests(tmp_path, open_ix):
    # `spec/` holds a JavaScript project's tests, but a person's `specs/` folder
    # holds specifications: only code there counts as tests.
    text = "# Checkout\n\nThe checkout page must confirm the order total before payment.\n"
    files = {"specs/checkout.md": text, "notes/checkout.md": text.replace("must", "should"),
             "spec/checkout.spec.js": "describe('checkout', () => {\n  it('must confirm the "
                                      "order total before payment', () => {});\n});\n"}
    ix = open_ix()
    ix.index(write_tree(tmp_path / "work", files))
    scores = {h.document["path"]: h.score
              for h in ix.search("how does checkout confirm the order total").results}
    assert scores["specs/checkout.md"] > 0.9 * scores["notes/checkout.md"]
    assert scores["spec/checkout.spec.js"] < 0.6 * scores["specs/checkout.md"]


def test_a_word_alone_names_a_definition_in_code_only_not_a_notes_section(tmp_path, open_ix):
    # In code a section is a definition, and `tokens` alone may name one; in notes
    # a section headed *Insurance* in a trip plan is not what a note about
    # insurance throughout is: the lift for a name must not put it first.
    trip = "# Trip to Porto, May\n\n" + "".join(
        f"## Day {d}\n\n" + f"Walk along the river on day {d}, lunch at the market. " * 3 + "\n\n"
        for d in range(1, 8)) + "## Insurance\n\nTravel insurance: policy 88-123 with the card.\n"
    car = ("# Car insurance renewal\n\nThe car insurance renews on 3 June. The insurance company "
           "sent the new premium. Compare the insurance quotes from two other insurers before the "
           "renewal date; the insurance broker said the discount carries over.\n")
    ix = open_ix()
    ix.index(write_tree(tmp_path / "notes", {"trip.md": trip, "car-insurance.md": car}))
    assert [h.document["path"] for h in ix.search("insurance").results] == [
        "car-insurance.md", "trip.md"]


SUMMARY_RS = """//! Reads a book's table of contents.

/// Parse the summary file into the list of chapters it names.
pub fn parse_summary(text: &str) -> Result<Summary> {
    let mut parser = SummaryParser::new(text);
    parser.parse()
}

#[cfg(test)]
mod tests {
    use super::*;
""" + "".join(f"""
    #[test]
    fn summary_is_parsed_{n}() {{
        let summary = parse_summary("# Summary {n}").unwrap();
        assert_eq!(summary.title, Some("Summary {n}".to_string()), "summary parsed");
    }}
""" for n in range(6)) + "}\n"


LONG_DOC_RS = "//! Links.\n\n" + "".join(
    f"/// Step {n}: a link to a chapter's Markdown file is rewritten to the page it becomes,\n"
    f"/// keeping its fragment; links with a scheme are left alone, as are fragments ({n}).\n"
    for n in range(30)) + """///
/// Returns the link to use in the page.
pub fn fix_link(link: &str) -> String {
    match link.strip_suffix(".md") {
        Some(stem) => format!("{stem}.html"),
        None => link.to_string(),
    }
}
"""


def test_a_name_is_shown_at_its_signature_below_a_long_doc_comment(tmp_path, open_ix):
    # A doc comment longer than a passage is cut from the code below it: the
    # passage to show for the name is the one with the signature, not the comment.
    ix = open_ix()
    ix.index(write_tree(tmp_path / "src", {"links.rs": LONG_DOC_RS,
                                           "other.rs": "pub fn other() -> u8 {\n    1\n}\n"}))
    for passages in (False, True):
        first = ix.search("fix_link", passages=passages).results[0]
        assert first.section == ["fix_link"]
        assert "pub fn fix_link" in first.passage_text, first.lines


def test_a_question_finds_the_code_before_the_tests_in_its_own_file(tmp_path, open_ix):
    # Rust keeps unit tests in the file they test (`mod tests`); they name the
    # function and the question's words more often than the function does.
    others = {f"src/{name}.rs": f"/// The {name} helpers.\npub fn {name}(list: &[u8]) -> usize {{\n"
              f"    list.len()\n}}\n" for name in ("colours", "shapes", "planets", "rivers",
                                                   "cities", "metals", "stars", "birds")}
    ix = open_ix()
    ix.index(write_tree(tmp_path / "book", {"src/summary.rs": SUMMARY_RS, **others}))
    first = ix.search("where is the summary parsed", passages=True).results[0]
    assert (first.section, first.lines[0]) == (["parse_summary"], 3)
    first = ix.search("which tests check the summary is parsed", passages=True).results[0]
    assert first.section[0].startswith("tests.")


APP_PY = '''class Flask:
    """The application object."""

    def test_client(self, use_cookies=True, **kwargs):
        """Creates a test client for this application, to send requests to it
        without running a server.
        """
        cls = self.test_client_class or FlaskClient
        return cls(self, self.response_class, use_cookies=use_cookies, **kwargs)

    def run(self, host=None, port=None):
        """Runs the application on a local development server."""
        run_simple(host or "127.0.0.1", port or 5000, self)
'''

BLOG_TEST_PY = "".join(
    f"def test_create_{n}(client, auth, app):\n    auth.login()\n"
    f"    client.post('/create', data={{'title': 'created {n}', 'body': ''}})\n"
    f"    assert client.get('/create').status_code == 200\n\n\n" for n in range(4))


def test_words_typed_apart_find_the_definition_they_name_together(tmp_path, open_ix):
    # *the test client* is `test_client`: a heading whose name joins words typed one
    # after another is lifted as a name typed is, above tests that say *create*,
    # *client* and *test* more often in shorter passages.
    others = {f"src/{name}.py": f'def {name}(items):\n    """Sort the {name}."""\n'
              f"    return sorted(items)\n" for name in ("colours", "shapes", "planets", "rivers",
                                                     "cities", "metals", "stars", "birds")}
    ix = open_ix()
    ix.index(write_tree(tmp_path / "flask", {"src/app.py": APP_PY,
                                             "examples/tests/test_blog.py": BLOG_TEST_PY, **others}))
    first = ix.search("where is the test client created", passages=True).results[0]
    assert (first.document["path"], first.section) == ("src/app.py", ["Flask.test_client"])


BOOK_PARAGRAPHS = {
    "scope": "When a value goes out of scope the owner is dropped and its memory is returned at "
             "once: the compiler inserts the call at the closing brace, so nothing is leaked and "
             "nothing is freed twice, whatever happens in between.",
    "moves": "Assigning a value to another variable moves it: the first variable can no longer be "
             "used, because two owners of one value would both drop it when their scope ends.",
    "threads": "Threads share data through channels or through a mutex inside a reference count; "
               "the type system refuses to send a value to another thread unless that is safe.",
}


def _book(tmp_path, open_ix):
    # Two chapters and the single-page edition that repeats them (as mdBook's
    # print.html does), which also has a preface and an appendix about scope.
    p = BOOK_PARAGRAPHS
    files = {"ch1-ownership.md": f"# Ownership\n\n{p['scope']}\n\n## Moves\n\n{p['moves']}\n",
             "ch2-threads.md": f"# Threads\n\n{p['threads']}\n",
             "print.md": "# The book\n\nA preface: every value has a scope and an owner.\n\n"
                         f"## Ownership\n\n{p['scope']}\n\n### Moves\n\n{p['moves']}\n\n"
                         f"## Threads\n\n{p['threads']}\n\n## Appendix\n\nScope rules, once "
                         "more: a value lives until the end of its scope, then it goes.\n"}
    ix = open_ix()
    ix.index(write_tree(tmp_path / "book", files))
    return ix


def test_a_chapter_ranks_above_the_single_page_edition_that_repeats_it(tmp_path, open_ix):
    ix = _book(tmp_path, open_ix)
    result = ix.search("what happens when a value goes out of scope")
    assert paths(result)[:2] == ["ch1-ownership.md", "print.md"]
    assert result.results[0].score == result.results[1].score
    # A list of passages shows the text once, from the chapter, and names the edition.
    shown = ix.search("what happens when a value goes out of scope", passages=True).results
    texts = [h.passage_text for h in shown]
    assert texts.count(BOOK_PARAGRAPHS["scope"]) == 1
    first = shown[texts.index(BOOK_PARAGRAPHS["scope"])]
    assert first.document["path"] == "ch1-ownership.md"
    assert [d["path"] for d in first.also_at] == ["print.md"]


def test_pages_that_share_a_paragraph_keep_their_order(tmp_path, open_ix):
    # The notes are the shorter page and show the same passage, but half of
    # them is not in the guide: neither is an edition of the other.
    shared = BOOK_PARAGRAPHS["scope"]
    files = {"guide.md": f"# Guide\n\n{shared}\n\n## Scope in loops\n\nA loop body is a scope "
                         "too: a value made in it goes out of scope at the end of each turn.\n\n"
                         "## Scope in closures\n\nA closure keeps what it captures in scope.\n",
             "notes.md": f"# Notes\n\n{shared}\n\n## Unrelated\n\nThe kettle is descaled weekly.\n"}
    ix = open_ix()
    ix.index(write_tree(tmp_path / "docs", files))
    assert paths(ix.search("what happens when a value goes out of scope")) == ["guide.md",
                                                                               "notes.md"]


def _manual_with_pdf(tmp_path, open_ix, extra=None):
    # A manual's pages and the same manual as one PDF (gnuplot ships gnuplot.pdf beside
    # its HTML pages): the PDF's passages are its pages, not the HTML's sections.
    p = BOOK_PARAGRAPHS
    chapters = {"ownership": ("Ownership", f"{p['scope']} {p['moves']}"),
                "threads": ("Threads", p["threads"])}
    files = {f"{name}.html": f"<html><head><title>{title}</title></head><body><h1>{title}</h1>"
                             f"<p>{text}</p></body></html>"
             for name, (title, text) in chapters.items()}
    files.update(extra or {})
    root = write_tree(tmp_path / "manual", files)
    pages = [["The book", "Every value has a scope and an owner; it goes when its scope ends."]]
    pages += [[title, text] for title, text in chapters.values()]
    pages += [["Appendix", "Scope rules, once more: a value lives until the end of its scope,",
               "then it goes out of scope and its memory is returned."],
              ["Loops", "A loop body is a scope too: a value made in it goes out of scope at",
               "the end of each turn, and its memory is returned."],
              ["Closures", "A closure keeps what it captures in scope: a value it holds goes",
               "out of scope only when the closure itself is dropped."],
              ["Index", "scope, value, owner, memory: see the chapters above, where a value",
               "goes out of scope and what happens then."]]
    pages += [[topic.title(), f"The {topic} chapter is about {topic} alone, and names nothing "
               "else of the language."] for topic in ("cargo", "macros", "traits", "generics",
                                                      "errors", "testing", "iterators")]
    (root / "manual.pdf").write_bytes(text_pdf([show(lines) for lines in pages]))
    ix = open_ix()
    ix.index(root)
    return ix


def test_a_page_ranks_above_the_pdf_of_its_whole_manual(tmp_path, open_ix):
    ix = _manual_with_pdf(tmp_path, open_ix)
    result = ix.search("what happens when a value goes out of scope")
    found = paths(result)
    assert found[0] == "ownership.html"
    assert found.index("manual.pdf") > 0
    assert result.results[0].score == result.results[found.index("manual.pdf")].score


def test_a_page_only_partly_in_the_pdf_keeps_its_place(tmp_path, open_ix):
    # The notes repeat one paragraph of the manual, but the rest of them is not in it.
    notes = ("<html><head><title>Notes</title></head><body><h1>Notes</h1><p>"
             f"{BOOK_PARAGRAPHS['scope']}</p><p>The kettle in the office is descaled every "
             "week with citric acid; the rota hangs beside the fridge, and whoever forgets "
             "brings biscuits on Friday for the whole floor.</p></body></html>")
    ix = _manual_with_pdf(tmp_path, open_ix, {"notes.html": notes})
    found = paths(ix.search("what happens when a value goes out of scope"))
    assert found.index("manual.pdf") < found.index("notes.html")


RARE_AND_COMMON = {  # every word but *tusks*, *ice* and *herd* in over 30% of the passages
    "d0.md": ["beach vinegar walrus walrus walrus fish swim cold swim kettle fish.",
              "walrus kettle beach walrus cold."],
    "d1.md": ["vinegar beach swim walrus kettle walrus swim herd beach herd."],
    "d2.md": ["walrus beach walrus kettle kettle vinegar kettle beach fish beach kettle beach beach.",
              "kettle swim kettle walrus fish fish walrus vinegar walrus herd kettle fish cold.",
              "beach fish beach walrus cold herd kettle."],
    "d3.md": ["swim vinegar kettle fish beach.",
              "cold kettle fish beach beach swim kettle walrus cold ice vinegar.",
              "beach beach walrus fish beach fish."],
    "d4.md": ["walrus ice kettle vinegar."],
    "d5.md": ["fish kettle fish walrus walrus walrus walrus."],
    "d6.md": ["beach fish swim fish beach kettle kettle vinegar kettle herd fish."],
    "d7.md": ["herd herd beach fish kettle vinegar kettle beach vinegar fish beach beach walrus walrus.",
              "swim swim herd kettle beach."],
    "d8.md": ["fish walrus kettle kettle walrus kettle beach vinegar walrus fish beach walrus walrus."],
    "d9.md": ["herd kettle vinegar walrus walrus walrus walrus swim ice beach tusks walrus beach beach.",
              "kettle beach beach ice.", "vinegar walrus cold."],
    "d10.md": ["vinegar beach cold."],
    "d11.md": ["walrus swim ice fish kettle beach tusks kettle beach.",
               "fish vinegar kettle beach fish fish kettle kettle walrus vinegar ice fish swim vinegar."],
}


def test_a_later_page_scores_the_candidates_the_first_page_scored(tmp_path, open_ix, monkeypatch):
    # The rarer words choose the candidates when they hold a pool's worth of
    # passages (`common`, `pool`); a larger page must decide by the same pool, or
    # its first results differ from the first page's. Past the passages holding a
    # rarer word, the others follow.
    monkeypatch.setattr(search, "TUNING", search.TUNING.replace(common=0.3, pool=4))
    files = {name: f"# Doc {name[1:-3]}\n\n" + "".join(
        f"## Part {j}\n\n{text}\n\n" for j, text in enumerate(parts))
        for name, parts in RARE_AND_COMMON.items()}
    ix = open_ix()
    ix.index(write_tree(tmp_path / "notes", files))
    question = "herd of walrus on cold ice"
    for passages in (False, True):
        def shown(**page):
            return [h.passage_id for h in ix.search(question, passages=passages, **page).results]
        everything = shown(limit=12)
        assert len(everything) == 12 and shown(limit=1) == everything[:1]
        assert [pid for offset in range(12) for pid in shown(limit=1, offset=offset)] == everything


def test_one_long_document_filling_the_pool_leaves_the_page_full(tmp_path, open_ix, monkeypatch):
    # The pool is passages; when one manual's sections fill it, the search fetches
    # deeper rather than show one result and say there are no more.
    monkeypatch.setattr(search, "TUNING", search.TUNING.replace(pool=4))
    files = {"manual.md": "# Walrus manual\n\n" + "".join(
        f"## Walrus tusks {i}\n\nWalrus tusks, part {i}: the walrus tusks grow.\n\n"
        for i in range(12))}
    files.update({f"note{i}.md": f"# Note {i}\n\nA walrus was seen, and its tusks, from boat {i}, "
                                 "far out past the headland in the grey morning.\n"
                  for i in range(3)})
    ix = open_ix()
    ix.index(write_tree(tmp_path / "docs", files))
    for question in ("walrus tusks", "how long do walrus tusks grow"):
        page = ix.search(question, limit=2)
        assert paths(page)[0] == "manual.md" and len(page.results) == 2 and page.has_more
        assert sorted(paths(ix.search(question, limit=10))) == ["manual.md"] + [
            f"note{i}.md" for i in range(3)]


def test_scores_never_rise_down_the_list(tmp_path, open_ix, monkeypatch):
    # Only the leaders are scaled by how much of the query they hold (`rerank`);
    # the results after them must not show a higher score than a leader's.
    monkeypatch.setattr(search, "TUNING", search.TUNING.replace(rerank=2))
    # The logs lead on one word, so coverage halves the two leaders below the rest.
    files = {f"w{i}.md": f"# Log {i}\n\n" + "walrus " * (8 - i) + "seen.\n" for i in range(6)}
    files.update({f"t{i}.md": f"# Survey {i}\n\nIvory tusks, note {i}. "
                              + "The long survey of the northern colony went on. " * 8 + "\n"
                  for i in range(4)})
    files.update({f"k{i}.md": f"# Kettle {i}\n\nDescale kettle {i} with vinegar.\n"
                  for i in range(20)})
    ix = open_ix()
    ix.index(write_tree(tmp_path / "notes", files))
    for question in ("how do a walrus's ivory tusks grow", "walrus ivory tusks", "walrus tusks"):
        for passages in (False, True):
            scores = [h.score for h in ix.search(question, limit=10, passages=passages).results]
            assert len(scores) == 10 and scores == sorted(scores, reverse=True)


def test_a_filter_or_an_excluded_word_never_loses_the_common_word_candidates(
        tmp_path, open_ix, monkeypatch):
    # Scored candidates are the passages holding a rarer word when those are
    # enough (`common`, `pool`); under a filter or `-word` every word selects.
    monkeypatch.setattr(search, "TUNING", search.TUNING.replace(common=0.5, pool=4))
    files = {f"w{i}.txt": "walrus " * (i + 1) + "on the beach" for i in range(6)}
    files.update({f"t{i}.md": f"walrus tusks of ivory number {i}" for i in range(4)})
    index = open_ix()
    index.index(write_tree(tmp_path / "files", files))
    assert paths(index.search("walrus tusks", limit=1))[0].startswith("t")
    assert paths(index.search("walrus tusks -ivory", limit=1))[0].startswith("w")
    assert paths(index.search("walrus tusks type:txt", limit=1))[0].startswith("w")


def test_a_rare_synonym_never_chooses_the_candidates_alone(tmp_path, open_ix, monkeypatch):
    # Every word typed is common (`delete`, `branch`); the thesaurus adds `erase`,
    # rare enough to choose alone. The page answering in the words typed stays.
    monkeypatch.setattr(search, "TUNING", search.TUNING.replace(common=0.34, pool=4))
    files = {f"d{i}.md": f"# Notes {i}\n\nDelete the draft of week {i}.\n" for i in range(10)}
    files.update({f"b{i}.md": f"# Garden {i}\n\nA branch of the pear tree, row {i}.\n"
                  for i in range(10)})
    files.update({f"e{i}.md": f"# Logs {i}\n\nErase the old logs of month {i}.\n"
                  for i in range(9)})
    files["answer.md"] = "# Branches\n\nTo delete a branch, name it after `branch -d`.\n"
    ix = open_ix()
    ix.index(write_tree(tmp_path / "notes", files))
    result = ix.search("delete branch", limit=1)
    assert "erase" in result.expansions["delete"]   # the synonym is searched…
    assert paths(result)[0] == "answer.md"          # …but does not choose alone


def test_a_filter_typed_with_undecodable_bytes_finds_the_file_so_named(tmp_path, open_ix):
    # A name that is not UTF-8 is stored as `caf\xe9.md`; a filter typed with that
    # byte (a lone surrogate in a terminal's argument) means the same file, and a
    # surrogate nothing can name is no match rather than an error.
    (tmp_path / "src").mkdir()
    with open(os.path.join(os.fsencode(tmp_path / "src"), b"caf\xe9.md"), "wb") as fh:
        fh.write(b"# Cafe\n\nespresso beans\n")
    (tmp_path / "src" / "tea.md").write_text("# Tea\n\nespresso never\n", encoding="utf-8")
    ix = open_ix()
    ix.index(tmp_path / "src")
    found = ix.search("espresso path:caf\udce9*").results
    assert [hit.document["path"] for hit in found] == ["caf\\xe9.md"]
    for query in ("espresso path:\ud800*", "espresso source:\udcff", "espresso type:\udcff"):
        assert ix.search(query).results == []
    assert ix.fetch("caf\udce9.md").document["path"] == "caf\\xe9.md"   # a document named so
    with pytest.raises(NotFound):
        ix.fetch("\ud800")


def test_search_knows_code_files_by_the_extensions_the_code_reader_takes():
    # search keeps its own pattern of code extensions (config's table would import
    # dataclasses into every search); every extension the readers take is checked
    import itertools
    import string

    from glean_personal.config import CODE_EXTENSIONS, SUPPORTED
    from glean_personal.kinds import is_code_path as _is_code
    assert all(_is_code("src/a" + ext) and _is_code("A" + ext.upper()) for ext in CODE_EXTENSIONS)
    letters = string.ascii_lowercase + "+"
    others = set(SUPPORTED) | {"." + "".join(p) for n in (1, 2, 3) for p in
                               itertools.product(letters, repeat=n)}
    assert not [ext for ext in others - set(CODE_EXTENSIONS) if _is_code("a" + ext)]


CLI_MD = """# Command-line options

## Options

### `-e`, `--eval "script"`

Evaluate the following argument as JavaScript.

### `--inspect-brk[=[host:]port]`

Activate the inspector on host:port and break at the start of the user script.
The default host:port is 127.0.0.1:9229.

### `--inspect[=[host:]port]`

Activate the inspector on host:port without breaking.
"""

DEBUGGING_MD = """# Debugging

## Choosing a flag

When deciding between `--inspect` and `--inspect-brk`, consider whether the
program should wait: `--inspect-brk` breaks before the first line, so
`--inspect-brk` is the flag for a script that exits at once. Tools that
attach later pass `--inspect-brk` too.
"""


def test_an_option_typed_finds_the_section_headed_by_it(tmp_path, open_ix):
    # The debugging guide says `--inspect-brk` four times; the reference's section
    # headed by the option says it only in its heading, and documents it.
    ix = open_ix()
    ix.index(write_tree(tmp_path / "docs", {"cli.md": CLI_MD, "debugging.md": DEBUGGING_MD}))
    first = ix.search("--inspect-brk").results[0]
    assert (first.document["path"], first.section[-1]) == ("cli.md", "--inspect-brk[=[host:]port]")
    first = ix.search("--eval").results[0]
    assert (first.document["path"], first.section[-1]) == ("cli.md", '-e, --eval "script"')
    # a word, not an option, names no heading: the guide that says it most stays first
    assert ix.search("inspect brk").results[0].document["path"] == "debugging.md"


def test_did_you_mean_distance_is_the_full_table_distance_up_to_its_bound():
    """The edit distance behind did-you-mean computes only the cells near the diagonal;
    every distance up to the bound is the full table's (with transpositions)."""
    import random
    from glean_personal.spelling import _distance

    def full(a, b):
        d = [[i + j if not i * j else 0 for j in range(len(b) + 1)] for i in range(len(a) + 1)]
        for i in range(1, len(a) + 1):
            for j in range(1, len(b) + 1):
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1,
                              d[i - 1][j - 1] + (a[i - 1] != b[j - 1]))
                if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
        return d[-1][-1]

    rng = random.Random(5)
    for _ in range(3000):
        a = "".join(rng.choice("abcd") for _ in range(rng.randint(0, 8)))
        b = "".join(rng.choice("abcd") for _ in range(rng.randint(max(0, len(a) - 2), len(a) + 2)))
        for bound in (1, 2):
            want = full(a, b)
            got = _distance(a, b, bound)
            assert got == want if want <= bound else got > bound, (a, b, bound)
    assert _distance("recieve", "receive", 2) == 1 and _distance("kettel", "kettle", 1) == 1



PASSAGE_NOTES = {
    # Notes about the subject: four sections on it.
    "bread.md": "# Bread notes\n\n## Feeding\n\nFeed the starter flour and water every day, "
                "equal weights of each, more often in a warm kitchen.\n\n## Timing\n\nFeed the "
                "starter at the same time each day, after discarding half of it.\n\n## Storing"
                "\n\nA starter kept in the fridge needs feeding only once a week.\n\n## Reviving"
                "\n\nA neglected starter comes back after three days of feeding twice a day.\n",
    # A passing mention, in a short passage of its own.
    "diary.md": "# Diary\n\n## Monday\n\nForgot to feed the sourdough starter again.\n\n"
                "## Tuesday\n\nBought flour and a new notebook for the market stall accounts, "
                "then spent the afternoon on them.\n",
    "shopping.md": "# Shopping\n\nFlour, yeast and water filters.\n",
    "kitchen.md": "# Kitchen jobs\n\nClean the oven. Feed the cat. Water the herbs.\n",
}


# Unrelated notes, so that the words searched are in few of the passages.
PASSAGE_FILLERS = {f"misc/{w}.md": f"# {w.title()}\n\nNotes on {w}: nothing about bread here.\n"
                   for w in ("garden", "bikes", "taxes", "music", "travel", "books", "cars")}


@pytest.mark.parametrize("fillers", [False, True])
def test_a_question_s_passages_come_in_their_documents_order(tmp_path, open_ix, fillers):
    # Listed alone, the diary's one short passage came before the best passage of
    # the notes about feeding a starter (on one store or the other, as the BM25s of
    # the two differ): the documents' order is now the first passages' order.
    ix = open_ix()
    ix.index(write_tree(tmp_path / "notes", {**PASSAGE_NOTES,
                                             **(PASSAGE_FILLERS if fillers else {})}))
    question = "how do I feed my starter"
    documents = paths(ix.search(question))
    listed = [h.document["path"] for h in ix.search(question, passages=True).results]
    assert documents[:2] == ["bread.md", "diary.md"] and listed[0] == "bread.md"
    firsts = [p for i, p in enumerate(listed) if p not in listed[:i]]
    assert firsts == documents
    # a document's further passages keep their own scores, neither lifted nor
    # counted down: the diary's one passage comes before the notes' second, and
    # the notes' others before the kitchen list's passing mention
    assert listed[:2] == ["bread.md", "diary.md"] and listed.count("bread.md") == 4
    assert listed[-1] == "kitchen.md"


def test_passages_of_a_keyword_search_are_ranked_alone(tmp_path, open_ix, monkeypatch):
    # A keyword list asks for the passages that hold its words, wherever they are.
    ix = open_ix()
    ix.index(write_tree(tmp_path / "notes", PASSAGE_NOTES))

    def listed():
        return [(h.document["path"], h.score)
                for h in ix.search("feed starter water", passages=True).results]
    first = listed()
    monkeypatch.setattr(search, "TUNING", search.TUNING.replace(passage_support=False))
    assert listed() == first and [p for p, _ in first].count("bread.md") >= 3


def test_a_question_s_passages_and_documents_page_on_without_repeating(tmp_path, open_ix, monkeypatch):
    # A later page fetches more candidates (`pool` grows with offset + limit); a
    # document's support must not change with them, or a passage of an earlier page
    # comes again on a later one and another is never shown.
    monkeypatch.setattr(search, "TUNING", search.TUNING.replace(pool=8))
    words = ["oven", "jar", "rye", "crust", "crumb", "loaf", "kitchen", "proof"]
    notes = {f"n{i}.md": f"# Note {i}\n\n" + "".join(
        f"## Part {j}\n\nFeed the starter {' '.join(words[:(i + j) % 8 + 1])} today.\n\n"
        for j in range(i + 1)) for i in range(8)}
    ix = open_ix()
    ix.index(write_tree(tmp_path / "notes", notes))
    question = "how do I feed my starter"
    pages = [h.passage_id for offset in range(0, 30, 3)
             for h in ix.search(question, limit=3, offset=offset, passages=True).results]
    assert pages == [h.passage_id for h in ix.search(question, limit=30, passages=True).results]
    # and so do its documents
    pages = [h.document["path"] for offset in range(0, 8, 2)
             for h in ix.search(question, limit=2, offset=offset).results]
    assert pages == paths(ix.search(question, limit=8))


def test_a_search_result_is_its_hits_as_a_list(ix):
    """docs/api.md: the result behaves as its list of hits; `.results` is the same list."""
    result = ix.search("weekly backup", limit=3)
    assert list(result) == result.results and len(result) == len(result.results) >= 1
    assert result[0] is result.results[0] and result[-1] is result.results[-1]
    assert [h.document["path"] for h in result][0] == "notes/archive.txt"
    empty = ix.search("zyzzyvaquux")
    assert len(empty) == 0 and not empty and list(empty) == []


def test_a_path_written_as_the_shell_writes_it_names_its_document(ix, monkeypatch):
    """`./a.md`, `../b.md`, `root//notes/a.md`, `root/notes/../b.md`: what tab completion
    and agents write; each was "no indexed document matches"."""
    root = ix.sources()[0]["root"]
    monkeypatch.chdir(os.path.join(root, "notes"))
    for written, path in [("./archive.txt", "notes/archive.txt"),
                          ("../espresso.md", "espresso.md"),
                          (root + "//notes/archive.txt", "notes/archive.txt"),
                          (root + "/notes/../espresso.md", "espresso.md"),
                          ("./notes/../kettle.md", "kettle.md")]:
        assert ix.fetch(written).document["path"] == path, written
    monkeypatch.chdir(root)
    assert ix.fetch("./notes/archive.txt").document["path"] == "notes/archive.txt"
    for nothing in ("./nosuch.md", "../files/nosuch.md", "/etc/../etc/passwd"):
        with pytest.raises(NotFound):
            ix.fetch(nothing)


def test_a_shell_path_into_a_source_whose_root_is_a_link(tmp_path, store_kind, monkeypatch):
    """A root indexed through a link (`home/notes` → `data/notes`) is stored as named;
    a path written through the link's target (the shell's folder after `cd -P`, or
    the real path) names the same file. `./a.md` was read as the fragment `a.md`:
    ambiguous with `data.md`, or `data.md` alone."""
    real = tmp_path / "data" / "notes"
    real.mkdir(parents=True)
    (real / "a.md").write_text("# Alpha\n\nThe heron waits by the weir.\n")
    (real / "data.md").write_text("# Data\n\nColumns and rows.\n")
    (tmp_path / "home").mkdir()
    (tmp_path / "home" / "notes").symlink_to(real)
    with open_index(tmp_path / "p.db") as ix:
        ix.index(tmp_path / "home" / "notes")
        monkeypatch.chdir(real)
        for written in ("./a.md", str(real / "a.md"), "../notes/a.md"):
            assert ix.fetch(written).document["path"] == "a.md", written
        monkeypatch.chdir(tmp_path)
        assert ix.fetch("./data/notes/a.md").document["path"] == "a.md"
        assert ix.fetch("./home/notes/a.md").document["path"] == "a.md"
        # a file named `ta.md` is not `data.md`; `./data.md` from elsewhere still is
        with pytest.raises(NotFound):
            ix.fetch("./ta.md")
        assert ix.fetch("./x/../data.md").document["path"] == "data.md"


def test_local_fetch_takes_the_real_path_of_a_source_indexed_through_a_link(tmp_path, store_kind):
    """MCP's `local_fetch` checks that `path` names the document `resolve` found: the
    link's target's path is that document too (it was "no indexed document at …")."""
    from glean_personal.surfaces import mcp
    real = tmp_path / "data" / "notes"
    real.mkdir(parents=True)
    (real / "a.md").write_text("# Alpha\n\nThe heron waits by the weir.\n")
    (tmp_path / "notes").symlink_to(real)
    with open_index(tmp_path / "p.db") as ix:
        ix.index(tmp_path / "notes")
    tools = mcp.Tools(str(tmp_path / "p.db"))
    for path in (str(tmp_path / "notes" / "a.md"), str(real / "a.md")):
        assert tools.call("local_fetch", {"path": path})["document"]["path"] == "a.md", path
    with pytest.raises(NotFound):
        tools.call("local_fetch", {"path": str(real / "b.md")})


def test_a_path_filter_from_the_root_is_read_as_a_shell_path(tmp_path, store_kind):
    """A glob written from the root is read as `fetch` reads a path (review18): a
    doubled slash, `.` and `..` are the shell's, and a root kept by a link holds
    its real path (`/data/notes/*` for `~/notes`). They matched no document: the
    glob below the root came out `/trips/*` or `x/../trips/*`."""
    notes = tmp_path / "notes"
    (notes / "trips").mkdir(parents=True)
    (notes / "trips" / "a.md").write_text("# Heron\n\nThe heron waits by the weir.\n")
    (tmp_path / "notes2").mkdir()
    (tmp_path / "notes2" / "b.md").write_text("# Heron two\n\nAnother heron by the weir.\n")
    real = tmp_path / "data" / "real"
    real.mkdir(parents=True)
    (real / "c.md").write_text("# Heron three\n\nA heron on the real shore.\n")
    (tmp_path / "linked").symlink_to(real)
    with open_index(tmp_path / "p.db") as ix:
        for folder in ("notes", "notes2", "linked"):
            ix.index(tmp_path / folder)

        def found(glob):
            result = ix.search("heron", path=glob)
            return [(h.document["source"], h.document["path"]) for h in result.results]

        for written in (f"{notes}//trips/*", f"{notes}/x/../trips/*", f"{notes}/./trips/*",
                        f"file://{notes}//trips/*"):
            assert found(written) == [("notes", "trips/a.md")], written
        assert found(f"{notes}/../notes2/*") == [("notes2", "b.md")]
        assert found(f"{tmp_path}/notes2/*") == [("notes2", "b.md")]   # not `notes`
        for written in (f"{tmp_path}/linked/*", f"{real}/*", f"{real}/c.md"):
            assert found(written) == [("linked", "c.md")], written
        assert found(f"{notes}/../elsewhere/*") == []


def test_pages_are_slices_of_one_order_when_a_chapter_moves_up(tmp_path, open_ix):
    # The chapter ranks below notes that quote its paragraph, under the single-page
    # edition that repeats it, and moves up to the edition's place. It did so only
    # once a page reached it: the first page showed the edition first, a later one
    # shifted by the chapter showed the edition again. Now the move is decided over
    # the same block of results (`fold_block`) whatever page is asked.
    p = BOOK_PARAGRAPHS
    files = {"ch1-ownership.md": f"# Ownership\n\n{p['scope']}\n",
             "print.md": "# The book\n\nA preface: every value has a scope and an owner.\n\n"
                         f"## Ownership\n\n{p['scope']}\n\n## Threads\n\n{p['threads']}\n\n"
                         + "".join(f"## Appendix {k}\n\nScope rules, part {k}: see the chapter "
                                   "on ownership for the details.\n\n" for k in range(6))}
    for i in range(6):
        files[f"note{i}.md"] = f"# Note {i}\n\n{p['scope']} What happens then{' again' * i}?\n"
    ix = open_ix()
    ix.index(write_tree(tmp_path / "book", files))
    question = "what happens when a value goes out of scope"
    for passages in (False, True):
        def shown(**page):
            return [(h.document["path"], h.passage_id)
                    for h in ix.search(question, passages=passages, **page).results]
        everything = shown(limit=30)
        assert len(everything) == len(set(everything)) >= 8
        for size in (1, 2, 3):
            assert [hit for offset in range(0, 30, size)
                    for hit in shown(limit=size, offset=offset)] == everything
    assert paths(ix.search(question, limit=2)) == ["ch1-ownership.md", "print.md"]


def test_pages_are_slices_of_one_order_past_the_first_pool(tmp_path, open_ix):
    # 130 release notes fill the first pool of candidates (120 passages) and, damped
    # for a search not about releases, rank below the 40 guides that only a deeper
    # pool holds. A page past the 30th result fetched that deeper pool and ranked it
    # whole, so the guides took the first places on it: it repeated notes the earlier
    # pages had shown and skipped others. Now a deeper pool's results come after the
    # first pool's, ranked among themselves, whatever the page.
    files = {f"release-notes/v{i}.md": f"# Version 1.{i}\n\nDescaling now works on model "
                                       f"{i}; descaling is faster.\n" for i in range(130)}
    files.update({f"guide/g{i}.md": f"# Guide {i}\n\nRun descaling every month so that the "
                                    "kettle keeps its taste and the water heats quickly, "
                                    f"part {i}.\n" for i in range(40)})
    ix = open_ix()
    ix.index(write_tree(tmp_path / "kettle", files))
    for passages in (False, True):
        def shown(**page):
            return [h.passage_id if passages else h.document["path"]
                    for h in ix.search("descaling", passages=passages, **page).results]
        for total in (60, 180):
            whole = shown(limit=total)
            assert [hit for offset in range(0, total, 10)
                    for hit in shown(limit=10, offset=offset)] == whole
            assert len(whole) == len(set(whole)) == min(total, 170)
        assert shown(limit=10) == whole[:10]
        assert shown(limit=30) == whole[:30]
    # every release note holds *faster*: the first pool holds no result, a deeper one
    # all, and every page asks for it alike
    def without(**page):
        return paths(ix.search("descaling -faster", **page))
    whole = without(limit=50)
    assert [hit for offset in range(0, 50, 10) for hit in without(limit=10, offset=offset)] \
        == whole
    assert sorted(whole) == sorted(f"guide/g{i}.md" for i in range(40))


def test_a_list_of_passages_pages_as_one_order_when_a_text_repeats(tmp_path, open_ix):
    # Twelve notes end with the same paragraph, the best passage for the question; a
    # list of passages shows that text once. The first page looked at 11 results,
    # left out the ten repeats among them and filled up with passages it had not
    # looked at, so it showed the text again where a longer request did not.
    scope = BOOK_PARAGRAPHS["scope"]
    files = {f"note{i}.md": f"# Note {i}\n\nA note about lamp {i} and its shade.\n\n"
                            f"## Memory\n\n{scope}\n" for i in range(12)}
    files.update({f"tip{i}.md": f"# Tip {i}\n\nA value can be dropped early{' too' * i}, "
                                "before its scope ends, with an explicit call.\n"
                  for i in range(30)})
    ix = open_ix()
    ix.index(write_tree(tmp_path / "notes", files))
    question = "what happens when a value goes out of scope"
    for passages in (False, True):
        def shown(**page):
            return [h.passage_id if passages else h.document["path"]
                    for h in ix.search(question, passages=passages, **page).results]
        whole = shown(limit=40)
        assert [hit for offset in range(0, 40, 10)
                for hit in shown(limit=10, offset=offset)] == whole
        assert len(whole) == len(set(whole)) >= 30
    texts = [" ".join(h.passage_text.split())
             for h in ix.search(question, passages=True, limit=10).results]
    assert texts.count(scope) == 1


def test_a_list_of_passages_shows_a_repeated_paragraph_once_on_every_page(tmp_path, open_ix):
    # Weekly reports that each end with the same notice. A list of passages shows a
    # text once (chapters_first leaves out a passage another above it shows), but the
    # first page judged only its block of 11 passages: with the notice first in all
    # of them, one was kept and the page was made up from passages never judged, the
    # notice four more times; a request of 30 showed it once.
    notice = ("This report is confidential and intended only for the members of the allotment "
              "society. Please do not forward the watering rota or the plot allocation to "
              "anyone outside the society without asking the committee first, and delete any "
              "printed copy after the season ends.")
    crops = ["tomatoes", "beans", "onions", "garlic", "potatoes", "leeks", "carrots",
             "squash", "peas", "kale", "chard", "beetroot", "fennel", "celery", "radish"]
    ix = open_ix()
    ix.index(write_tree(tmp_path / "reports", {
        f"week{i:02d}.md": f"# Week {i} report\n\nThis week the {crop} on plot {i + 3} needed "
                           f"watering twice; the rota worked well and the {crop} look "
                           f"healthy.\n\n## Notice\n\n{notice}\n"
        for i, crop in enumerate(crops, 1)}))
    question = "forward the plot allocation outside the society"

    def shown(**page):
        return [h.passage_id for h in ix.search(question, passages=True, **page).results]

    first = ix.search(question, passages=True, limit=5).results
    assert [h.passage_text for h in first].count(notice) == 1
    assert len(first[0].also_at) >= 4   # the notice's other files, named under it
    everything = shown(limit=30)
    assert len(everything) == len(set(everything)) == 16   # the notice once, 15 reports
    for size in (1, 5, 7, 10):
        assert [pid for offset in range(0, 30, size)
                for pid in shown(limit=size, offset=offset)] == everything


def test_pages_without_a_word_are_full_when_copies_fold(tmp_path, open_ix):
    # Baking notes, half of them with a backup copy beside them. `-rye` drops the
    # notes that name rye; the documents left were cut to the first block (11), and
    # folding the copies among them left a page of 10 with 8 results and no more to
    # ask for (has_more False), though 15 notes matched; the next page skipped two.
    breads = ["white loaf", "sourdough", "focaccia", "brioche", "bagels", "baguette",
              "ciabatta", "soda bread", "naan", "pita", "challah", "pretzels",
              "english muffins", "cornbread", "flatbread", "milk bread"]
    files = {}
    for i, bread in enumerate(breads):
        text = (f"# {bread.title()}\n\nBread notes for {bread}: {'flour, ' * (1 + i % 5)}"
                f"water, salt and time.\n\n{_prose(40 + i, paragraphs=4)}\n")
        if bread == "brioche":
            text += "\nMade with rye flour once; too dense.\n"
        name = bread.replace(" ", "-") + ".md"
        files[name] = text
        if i % 2 == 0:
            files["backup/" + name] = text
    ix = open_ix()
    ix.index(write_tree(tmp_path / "baking", files))
    for question in ("bread flour -rye", "bread flour NOT rye"):
        everything = [h.document["path"] for h in ix.search(question, limit=30).results]
        assert len(everything) == 15 and "brioche.md" not in everything
        first = ix.search(question, limit=10)
        assert len(first.results) == 10 and first.has_more
        for size in (1, 3, 10):
            assert [h.document["path"] for offset in range(0, 30, size)
                    for h in ix.search(question, limit=size, offset=offset).results
                    ] == everything


@pytest.mark.parametrize("query", ["k*", "k* espresso", "espresso K*"])
def test_a_prefix_too_short_to_search_says_so(ix, query):
    """`k*` is searched as the letter, not as every word that starts with it, and a
    notice says why (it read as if no word began with k)."""
    typed = next(w for w in query.split() if w.endswith("*"))
    result = ix.search(query)
    assert result.notices == [f"{typed!r} is too short to search as a prefix "
                              "(2 letters or more before the *)"]
    assert "kettle" not in [w for r in result.results for w in r.matched_terms or []]
    assert not ix.search("ke* espresso").notices and ix.search("ke*").results


def test_a_query_naming_a_source_prefers_its_documents(tmp_path, open_ix):
    """With two tools' docs indexed, a page of one that mentions the other led a
    question naming the other (agent trial). A source named by its label counts
    double; naming every source, or an index of one, changes nothing."""
    matchers = "# Matchers\n\nA matcher can ignore files by name; syncthing users proxy its GUI.\n"
    patterns = ("# Patterns\n\nPatterns keep some files out of the shared folder: Syncthing "
                "will ignore them.\n")
    other = {f"{t}.md": f"# {t}\n\nNotes about the {t} and its care.\n"
             for t in ("kettle", "garden", "bicycle", "recipe")}   # words weigh as usual
    write_tree(tmp_path / "proxy", dict(other, **{"ignore.md": matchers}))
    write_tree(tmp_path / "sync", dict(other, **{"ignoring.md": patterns}))
    ix = open_ix()
    ix.index(tmp_path / "proxy", label="caddy")
    ix.index(tmp_path / "sync", label="syncthing")
    first = lambda q: ix.search(q).results[0].document["source"]
    assert first("ignore files syncthing") == "syncthing"
    assert first("ignore files") == "caddy"                    # named by none: as before
    assert first("ignore files syncthing caddy") == "caddy"    # named by both: as before
    single = open_ix("one.db")
    single.index(write_tree(tmp_path / "both", dict(other, **{"a/ignore.md": matchers,
                                                              "b/ignoring.md": patterns})),
                 label="syncthing")
    assert [h.document["path"] for h in single.search("ignore files syncthing").results] == \
        ["a/ignore.md", "b/ignoring.md"]
