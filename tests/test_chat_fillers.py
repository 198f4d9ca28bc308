"""Words that name nothing, in match strength and /chat (both stores).

A question in everyday words carries words that name nothing the answer holds:
another form of a request word (*going*, *told*, *shown*) and function words the
stop list leaves out (*nobody*, *everywhere*, *alongside*). When the index lacks
such a word, it weighs nothing in a passage's match strength (an unknown word
would weigh twice the rarest one) and /chat never takes it for a foreign word.
When the index holds it, it counts as any word.
"""
from __future__ import annotations

import pytest

from glean_personal.query import names_nothing
from glean_personal.surfaces.local_backend import foreign_words
from helpers.chat import large_index  # noqa: F401  (autouse: the rules of a large index)
from helpers.chat import ask, indexed_notes, passage_search, tuned

NOTES = {
    "disposal.md": """\
# Disposal

## Shredding old drives

Overwrite the whole drive with random data three times before the drive is recycled, so
that the old files cannot be recovered.

## Paper

Bank letters pass through the cross-cut shredder in the office.
""",
    "jobs.md": """\
# Long jobs

## Time limits

A backup command that is still running after a minute is stopped by the timeout wrapper,
and the log says so.

## Everyone

Everyone on the rota gets the weekly report by mail.
""",
    "garden.md": """\
# Garden

## Watering

Water the tomatoes every evening in July; the hose reel is behind the shed.
""",
}

NOBODY = "overwrite a drive so that nobody can ever recover the old files"
GOING = "stop a backup command if it is still going after a minute"


@pytest.fixture(scope="module", params=["fts5", "plain"])
def db(request, tmp_path_factory):
    return indexed_notes(tmp_path_factory.mktemp(f"fillers-{request.param}"), NOTES,
                         request.param)


def test_an_indefinite_pronoun_the_index_lacks_weighs_nothing(db, monkeypatch):
    result = passage_search(db, NOBODY)
    assert "nobody" in result.absent_terms and foreign_words(result) == []
    top = result.results[0]
    assert top.section == ["Disposal", "Shredding old drives"]
    strength = top.strength
    message = ask(db, NOBODY)
    assert message["citations"][0]["sourceDocument"]["title"] == "Disposal"
    tuned(monkeypatch, unheld_fillers=False)
    result = passage_search(db, NOBODY)
    # weighed as an unknown word, and foreign: declined
    assert result.results[0].strength < strength
    assert foreign_words(result) == ["nobody"]
    assert "citations" not in ask(db, NOBODY)


def test_a_request_words_other_form_the_index_lacks_weighs_nothing(db, monkeypatch):
    result = passage_search(db, GOING)
    assert result.absent_terms == ["going"] and foreign_words(result) == []
    top = result.results[0]
    assert top.section == ["Long jobs", "Time limits"] and top.strength == 1.0
    assert ask(db, GOING)["citations"][0]["sourceDocument"]["title"] == "Long jobs"
    tuned(monkeypatch, unheld_fillers=False)
    result = passage_search(db, GOING)
    assert result.results[0].strength < 1.0 and foreign_words(result) == ["going"]


def test_a_filler_the_index_holds_counts_as_any_word(db, monkeypatch):
    # *behind* is in the garden note: held there, it counts against the passage
    # that lacks it; *nowhere* is in no note, and weighs nothing.
    held = passage_search(db, "timeout wrapper stops the backup behind").results[0]
    unheld = passage_search(db, "timeout wrapper stops the backup nowhere").results[0]
    assert held.section == unheld.section == ["Long jobs", "Time limits"]
    assert held.strength < 1.0 and unheld.strength == 1.0
    tuned(monkeypatch, unheld_fillers=False)
    assert passage_search(db, "timeout wrapper stops the backup behind").results[0].strength \
        == held.strength


def test_the_search_and_its_order_are_unchanged(db, monkeypatch):
    # strength only: the same hits in the same order with the rule off
    on = [(h.document["path"], h.section) for h in passage_search(db, NOBODY).results]
    tuned(monkeypatch, unheld_fillers=False)
    assert [(h.document["path"], h.section) for h in passage_search(db, NOBODY).results] == on


def test_which_words_name_nothing():
    for word in ("going", "told", "shown", "nobody", "everywhere", "alongside", "whether"):
        assert names_nothing(word)
    for word in ("drive", "backup", "tomorrow", "go", "the"):
        assert not names_nothing(word)


def test_a_filler_typed_in_quotes_or_as_a_name_is_meant(db):
    # Quoted, *nobody* is meant as typed: strength counts it (the passage lacks it),
    # and the foreign-word rule does too, as it did before fillers were set aside.
    quoted = 'overwrite a drive so that "nobody" can ever recover the old files'
    result = passage_search(db, quoted)
    assert result.results[0].strength < 1.0
    assert foreign_words(result) == ["nobody"]
    assert "citations" not in ask(db, quoted)
    named = "overwrite a drive with Nobody so the old files cannot be recovered"
    assert foreign_words(passage_search(db, named)) == ["nobody"]
    assert foreign_words(passage_search(db, NOBODY)) == []


def test_a_filler_in_typographic_quotes_is_meant(db):
    # The query reads “nobody” and «nobody» as quoted (strength counts the word);
    # the foreign-word rule read only straight quotes and set it aside (review18).
    for quoted in ('overwrite a drive so that \u201cnobody\u201d can ever recover the old files',
                   'overwrite a drive so that \u00abnobody\u00bb can ever recover the old files'):
        result = passage_search(db, quoted)
        assert result.results[0].strength < 1.0
        assert foreign_words(result) == ["nobody"], quoted
        assert "citations" not in ask(db, quoted)
    # a quote left open quotes nothing, for the query and for the rule alike
    open_quote = 'overwrite a drive so "nobody can recover old files'
    assert foreign_words(passage_search(db, open_quote)) == []
