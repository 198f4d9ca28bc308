"""Words of the calendar and the clock in /chat (both stores).

/chat declines a question with a word foreign to the index (no word near it, no
synonym held): such a word is the name of something the index never mentions.
A word of the calendar or the clock (*tomorrow*, *April*) is never foreign: it
says when, not what the question is about, and a manual may well never write
it. It still weighs as any word the index lacks in the match strength.
"""
from __future__ import annotations

import pytest

from glean_personal.query import TIME_WORDS
from glean_personal.surfaces.local_backend import foreign_words
from helpers.chat import large_index  # noqa: F401  (autouse: the rules of a large index)
from helpers.chat import ask, indexed_notes, passage_search, tuned

NOTES = {
    "settings.md": """\
# Settings

## Tax year

The tax year starts on the first of January unless you choose another month as its start
in the settings dialog.

## Currency

Amounts are shown in the currency of the account.
""",
    "drafts.md": """\
# Drafts

## Saving a draft

Save the draft of a shopping list with the save button; a saved draft keeps its list
until you delete it.
""",
    "garden.md": """\
# Garden

## Watering

Water the tomatoes in the evening; the hose reel is behind the shed.
""",
}

APRIL = "my tax year starts in April and not in January"
TOMORROW = "save the draft of my shopping list so I have it tomorrow"
NAMED = "save the draft of my shopping list to jenkins"


@pytest.fixture(scope="module", params=["fts5", "plain"])
def db(request, tmp_path_factory):
    return indexed_notes(tmp_path_factory.mktemp(f"times-{request.param}"), NOTES,
                         request.param)


@pytest.mark.parametrize("question, word, title", [(APRIL, "april", "Settings"),
                                                   (TOMORROW, "tomorrow", "Drafts")])
def test_a_time_word_the_index_lacks_is_not_foreign(db, monkeypatch, question, word, title):
    result = passage_search(db, question)
    assert word in result.absent_terms and foreign_words(result) == []
    assert ask(db, question)["citations"][0]["sourceDocument"]["title"] == title
    tuned(monkeypatch, time_words=False)
    assert foreign_words(passage_search(db, question)) == [word]
    assert "citations" not in ask(db, question)


def test_a_time_word_weighs_as_any_word_the_index_lacks(db, monkeypatch):
    # the rule only keeps /chat from declining: the strength is the same either way,
    # and under 1 (the passage lacks *tomorrow*)
    on = passage_search(db, TOMORROW).results[0]
    tuned(monkeypatch, time_words=False)
    off = passage_search(db, TOMORROW).results[0]
    assert (on.section, on.strength) == (off.section, off.strength)
    assert on.strength < 1.0


def test_a_name_beside_it_is_still_foreign(db):
    result = passage_search(db, NAMED)
    assert foreign_words(result) == ["jenkins"]
    assert "citations" not in ask(db, NAMED)


def test_which_words_are_time_words():
    for word in ("april", "january", "tomorrow", "tonight", "saturday", "afternoon"):
        assert word in TIME_WORDS
    for word in ("may", "march", "time", "week", "month", "hour", "daily"):
        assert word not in TIME_WORDS


@pytest.mark.parametrize("question, word", [
    ("save the draft of my shopping list so I have it on Saturdays", "saturdays"),
    ("save the draft of my shopping list for the weekends", "weekends"),
    ("save the draft of my shopping list in the mornings", "mornings")])
def test_a_time_word_in_the_plural_is_not_foreign(db, monkeypatch, question, word):
    # *on Saturdays*, *weekends*, *mornings* say when as *Saturday* does (review18);
    # the plural was foreign, and /chat declined a question its notes answer
    result = passage_search(db, question)
    assert word in result.absent_terms and foreign_words(result) == []
    assert ask(db, question)["citations"][0]["sourceDocument"]["title"] == "Drafts"
    tuned(monkeypatch, time_words=False)
    assert foreign_words(passage_search(db, question)) == [word]
