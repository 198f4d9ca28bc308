"""Word forms the stemmer does not join: a question's *hide* also finds a
manual's *hidden*, and *verify* its *verification*.

The table is checked directly, the parser's choices on real queries, and
search on real files indexed into both store kinds.
"""
from __future__ import annotations

from pathlib import Path

import pytest

from glean_personal import open_index
from glean_personal.analysis import is_stopword
from glean_personal.wordforms import _table, other_forms
from glean_personal.query import parse
from glean_personal.surfaces.render.text import search_results
from helpers.files import write_tree
from helpers.templates import index_copy

FILES = {
    "dotfiles.md": "# Dotfiles\n\nFiles whose names begin with a dot are hidden from the "
                   "listing unless you ask for them.\n",
    "sizes.md": "# Sizes\n\nThe listing shows each of the files with its size and owner.\n",
    "journal.md": "# Journal\n\nAfter a power loss the journal brings the database back to "
                  "its last committed state.\n",
    "battery.md": "# Battery\n\nThe laptop's battery powers the machine for three hours.\n",
    "tags.md": "# Tags\n\nTo organize photos by trip, give each a tag and a color.\n",
    "albums.md": "# Albums\n\nAn album holds photos of one trip, in the order taken.\n",
    "remotes.md": "# Remotes\n\nA second remote is added with its name and address.\n",
}


def _build(home: Path) -> Path:
    db = home / "p.db"
    with open_index(db) as index:
        index.index(write_tree(home / "files", FILES), label="files")
    return db


@pytest.fixture
def ix(tmp_path, tmp_path_factory, store_kind, open_ix):
    index_copy(tmp_path_factory, "wordforms", store_kind, _build, tmp_path / "p.db")
    return open_ix()


def test_each_form_finds_the_others():
    assert other_forms("hide") == ("hid", "hidden")
    assert other_forms("hidden") == ("hide", "hid")
    assert other_forms("written") == ("write", "wrote")
    assert other_forms("delete") == ()   # a regular verb: the stemmer joins its forms


def test_forms_that_are_mostly_other_words_are_left_out():
    # *leave* is not *left* (a left join), nor *find* *found*, nor *lead* *led*.
    for word in ("leave", "left", "find", "found", "lead", "led", "bind", "bound"):
        assert other_forms(word) == (), word


def test_a_noun_made_from_a_verb_is_one_of_its_forms():
    assert other_forms("verify") == ("verification",)
    assert other_forms("verification") == ("verify",)
    assert set(other_forms("lose")) == {"loss", "lost"}
    assert other_forms("verifies") == ("verify", "verification")
    # nouns that name something else in software are not
    assert other_forms("apply") == () and other_forms("extend") == ()


def test_forms_go_both_ways_and_none_is_a_stopword():
    for word, others in _table().items():
        assert not is_stopword(word), word
        assert len(set(others)) == len(others) and word not in others, word
        for form in others:
            assert word in other_forms(form), (word, form)


def test_only_a_questions_plain_words_get_their_forms():
    question = parse("how do I hide my files")
    assert {("hidden",), ("hid",)} <= question.forms
    added = {t.tokens for _, t in question.expansions}
    assert ("hidden",) in added
    assert parse("hide").forms == frozenset()                # one word as typed
    assert ("hidden",) in parse("hide files").forms          # a list of plain words
    assert parse('how to "hide files"').forms == frozenset()  # a quoted phrase
    assert parse("how do I hide OR delete files").forms == frozenset()  # the user's OR


def test_a_question_finds_the_passive_of_its_verb(ix):
    result = ix.search("how do I hide files from the listing")
    first = result.results[0]
    assert first.document["path"] == "dotfiles.md"
    # *hidden* holds the word *hide* itself: full strength, not a synonym's share
    assert first.strength == pytest.approx(1.0)
    assert "hidden" in result.expansions["hide"]


def test_explain_says_which_form_matched(ix):
    result = ix.search("how do I hide files from the listing", explain=True)
    hit = result.results[0]
    assert hit.missed_terms == ["hide"]          # no word of the passage has the stem *hide*
    assert hit.matched_forms == [("hide", "hidden")]
    assert not hit.matched_synonyms              # a form is the word, not a synonym of it
    assert {"term": "hide", "form": "hidden"} in hit.to_dict()["matched_forms"]
    text = search_results(result, color=False, explain=True)
    assert "\u203a by form: hide \u2192 hidden" in text and "by synonym" not in text


def test_mcp_lists_the_forms_a_passage_holds(ix, tmp_path):
    from glean_personal.surfaces import mcp
    from test_mcp import conforms, tool
    ix.close()
    tools = mcp.Tools(str(tmp_path / "p.db"))
    data = tools.local_search({"query": "how do I hide files from the listing"})
    assert conforms(data, tool("local_search")["outputSchema"])
    row = next(r for r in data["results"] if r["path"] == "dotfiles.md")
    assert row["matched_forms"] == ["hide \u2192 hidden"] and "matched_synonyms" not in row


def test_an_ing_or_s_form_has_its_verbs_forms():
    assert set(other_forms("hiding")) == {"hide", "hid", "hidden"}
    assert other_forms("throwing") == ("throw", "threw", "thrown")
    assert other_forms("running") == ("run", "ran")
    assert other_forms("keeps") == ("keep", "kept")
    assert other_forms("string") == () and other_forms("thing") == ()


def test_a_question_finds_the_noun_of_its_verb(ix):
    result = ix.search("what happens to the database if the machine loses power")
    assert [h.document["path"] for h in result.results][:1] == ["journal.md"]
    assert "loss" in result.expansions["loses"]


def test_a_question_finds_what_porter_splits_from_its_word(ix):
    # Porter stems *added* and *adding* to *ad*, but *add* and *adds* to *add*.
    assert other_forms("add") == ("added",) and other_forms("adding") == ("add", "added")
    result = ix.search("how do I add a remote")
    assert [h.document["path"] for h in result.results][:1] == ["remotes.md"]
    assert result.results[0].strength == pytest.approx(1.0)


def test_a_long_question_searches_at_most_eight_forms():
    from glean_personal.query import SYNONYMS_PER_QUERY
    verbs = "hide write keep throw break build catch draw drive feed forget freeze grow"
    question = parse("how do I " + verbs)
    assert len(question.forms) == SYNONYMS_PER_QUERY
    assert len(question.expansions) <= 2 * SYNONYMS_PER_QUERY


def test_british_and_american_spellings_are_one_word():
    assert other_forms("organise") == ("organize",)
    assert other_forms("organizing") == ("organising",)
    assert other_forms("colours") == ("colors",)
    assert other_forms("color") == ("colour",) and other_forms("licences") == ("licenses",)
    assert other_forms("analyse") == ("analysis", "analyze")
    # -our only from British to American: *error* has no *errour*, *hour* no *hor*
    assert other_forms("error") == () and other_forms("hour") == ()


def test_a_question_in_british_spelling_finds_american_text(ix):
    result = ix.search("how do I organise my photos by colour")
    first = result.results[0]
    assert first.document["path"] == "tags.md"
    assert first.strength == pytest.approx(1.0)
    assert result.expansions["organise"] == ["organize"]
