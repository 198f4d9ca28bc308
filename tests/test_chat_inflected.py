"""A word with a verb's ending in /chat (both stores).

/chat declines a question with a word foreign to the index (no word near it, no
synonym held): such a word is the name of something the index never mentions.
A word with a verb's ending, -ed or -ing (*messed*, *oriented*), is not a name:
names are not inflected, and a manual that never writes *messed* is not silent
on restoring a file. It is never foreign, unless typed as a name, and it still
weighs as any word the index lacks in the match strength.
"""
from __future__ import annotations

import pytest

from glean_personal.query import is_inflected
from glean_personal.surfaces.local_backend import foreign_words, typed_names
from helpers.chat import large_index  # noqa: F401  (autouse: the rules of a large index)
from helpers.chat import ask, indexed_notes, passage_search, tuned

NOTES = {
    "budget.md": """\
# Budget

## Restoring a backup

To restore an earlier version of the budget file, open the backup folder and copy
the backup over the budget file.

## Currency

Amounts are shown in the currency of the account.
""",
    "garden.md": """\
# Garden

## Watering

Water the tomatoes in the evening; the hose reel is behind the shed.
""",
}

MESSED = "restore an earlier version of my budget file that I messed up"
NAMED = "restore an earlier version of my budget file from Beijing"


@pytest.fixture(scope="module", params=["fts5", "plain"])
def db(request, tmp_path_factory):
    return indexed_notes(tmp_path_factory.mktemp(f"inflected-{request.param}"), NOTES,
                         request.param)


def test_a_word_with_a_verbs_ending_the_index_lacks_is_not_foreign(db, monkeypatch):
    result = passage_search(db, MESSED)
    assert "messed" in result.absent_terms and foreign_words(result) == []
    message = ask(db, MESSED)
    assert message["citations"][0]["sourceDocument"]["title"] == "Budget"
    tuned(monkeypatch, inflected_words=False)
    assert foreign_words(passage_search(db, MESSED)) == ["messed"]
    assert "citations" not in ask(db, MESSED)


def test_it_weighs_as_any_word_the_index_lacks(db, monkeypatch):
    # the rule only keeps /chat from declining: the strength is the same either way,
    # and under 1 (the passage lacks *messed*)
    on = passage_search(db, MESSED).results[0]
    tuned(monkeypatch, inflected_words=False)
    off = passage_search(db, MESSED).results[0]
    assert (on.section, on.strength) == (off.section, off.strength)
    assert on.strength < 1.0


def test_one_typed_as_a_name_is_still_foreign(db):
    assert is_inflected("beijing")   # by its ending; typed as a name, it is a name
    result = passage_search(db, NAMED)
    assert foreign_words(result) == ["beijing"]
    assert "citations" not in ask(db, NAMED)


def test_which_words_have_a_verbs_ending():
    for word in ("messed", "oriented", "cluttering", "crunching", "reinstalled"):
        assert is_inflected(word)
    for word in ("speed", "string", "thing", "bed", "jenkins", "docker", "kubernetes",
                 "naïved", "x2ing"):
        assert not is_inflected(word)


# Typed so, a word with a verb's ending is meant as written: in quotes, or with
# a diacritic, which the index folds away (*linköping* is the absent *linkoping*,
# all ASCII) and no English verb has.
LITERAL = {
    'restore an earlier version of my budget file from "beijing"': "beijing",
    "restore an earlier version of my budget file from “Nanjing”": "nanjing",
    'restore an earlier version of my budget file I "messed" up': "messed",
    "restore an earlier version of my budget file from jönköping": "jonkoping",
    "restore an earlier version of my budget file from Linköping": "linkoping",
}


@pytest.mark.parametrize("question", sorted(LITERAL))
def test_one_quoted_or_with_a_diacritic_is_still_foreign(db, question):
    result = passage_search(db, question)
    assert foreign_words(result) == [LITERAL[question]]
    assert "citations" not in ask(db, question)


def test_a_word_ending_in_string_has_no_verbs_ending(db):
    for word in ("docstring", "substring", "tostring", "bytestring"):
        assert not is_inflected(word)
    question = "restore an earlier version of my budget file from its docstring"
    assert foreign_words(passage_search(db, question)) == ["docstring"]
    assert "citations" not in ask(db, question)
    # a first word is never typed as a name: a wording still
    assert foreign_words(passage_search(db, "Messed up: " + MESSED[:-len(" that I messed up")])) == []


# A name typed in single quotes or in brackets is a name as well (an apostrophe is no
# quote to the query, and `typed_names` read no word after a quote or a bracket, so
# *'Kunming'* was a verb's form, not foreign, and /chat answered from the budget).
IN_MARKS = ["restore an earlier version of my budget file from 'Kunming'",
            "restore an earlier version of my budget file from \u2018Kunming\u2019",
            "restore an earlier version of my budget file from (Kunming)",
            "restore an earlier version of my budget file from [Kunming]"]


@pytest.mark.parametrize("question", IN_MARKS)
def test_a_name_in_single_quotes_or_brackets_is_still_foreign(db, question):
    assert typed_names(question) == {"kunming"}
    assert foreign_words(passage_search(db, question)) == ["kunming"]
    assert "citations" not in ask(db, question)
    # the first word of a sentence is no name, quoted or not
    assert typed_names("'Kunming' mirrors. (Nanjing) too") == frozenset()
