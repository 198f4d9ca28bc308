"""A foreign word in a question's circumstances in /chat (both stores).

/chat declines a question with a word foreign to the index (no word near it, no
synonym held): such a word names something the index never mentions, and the
question is about it. A word that only the question's subordinate clause holds
(after *when*, *before*, *instead of*...: `query.main_clause`) says when, why or
in place of what it asks, not what: the question is about its main clause, and
such a word is never foreign, unless typed as a name or in quotes. It still
weighs as any word the index lacks (half of that where the passage lacks it, as
every word of the circumstances does).
"""
from __future__ import annotations

import pytest

from glean_personal.surfaces.local_backend import foreign_words
from helpers.chat import large_index  # noqa: F401  (autouse: the rules of a large index)
from helpers.chat import ask, indexed_notes, passage_search, tuned

NOTES = {
    "backup.md": """\
# Backups

## Archive disk

Mount the archive disk, then run the backup script: it copies the database and
keeps seven copies.
""",
    "garden.md": """\
# Garden

## Watering

Water the tomatoes in the evening; the hose reel is behind the shed.
""",
}

# The backup note's words, then a clause whose *silently* no note holds nor any word near it.
ASIDE = "run the backup script on the archive disk instead of silently skipping it"


@pytest.fixture(scope="module", params=["fts5", "plain"])
def db(request, tmp_path_factory):
    return indexed_notes(tmp_path_factory.mktemp(f"clause-foreign-{request.param}"), NOTES,
                         request.param)


def test_a_word_only_the_circumstances_hold_is_not_foreign(db, monkeypatch):
    result = passage_search(db, ASIDE)
    assert "silently" in result.absent_terms and foreign_words(result) == []
    message = ask(db, ASIDE)
    assert message["citations"][0]["sourceDocument"]["title"] == "Backups"
    assert {"instead", "silently", "skipping"} <= set(result.circumstances)
    tuned(monkeypatch, clause_foreign=False)   # the rule off: foreign, and declined
    # (*instead*, which opens the clause, is no word of the notes either)
    assert foreign_words(passage_search(db, ASIDE)) == ["instead", "silently"]
    assert "citations" not in ask(db, ASIDE)


def test_it_weighs_as_any_word_the_index_lacks(db, monkeypatch):
    # the rule only keeps /chat from declining: the strength is the same either way,
    # and under 1 (the passage lacks *silently*)
    on = passage_search(db, ASIDE).results[0]
    tuned(monkeypatch, clause_foreign=False)
    off = passage_search(db, ASIDE).results[0]
    assert (on.section, on.strength) == (off.section, off.strength)
    assert on.strength < 1.0


@pytest.mark.parametrize("question, word", [
    # in the main clause, the word is what the question is about
    ("silently run the backup script on the archive disk instead of skipping it", "silently"),
    # a name typed in the clause names a thing, as anywhere
    ("run the backup script on the archive disk instead of Zorblax", "zorblax"),
    # so does a word in quotes
    ('run the backup script on the archive disk instead of "silently" skipping it', "silently"),
    # one word before the clause is no request yet: no clause is read
    ("run instead of silently skipping the backup script", "silently"),
])
def test_still_foreign(db, question, word):
    result = passage_search(db, question)
    assert word in foreign_words(result)
    assert "citations" not in ask(db, question)


def test_a_question_without_an_absent_word_has_no_circumstances_listed(db):
    # read only for a word the index lacks
    assert passage_search(db, "run the backup script before mounting the disk").circumstances == []
