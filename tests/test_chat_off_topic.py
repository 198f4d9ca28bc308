"""/chat declines a question about something the index does not cover (both stores).

On top of match strength: a question word the index has never seen, nor any
word close to it (no did-you-mean, no synonym it holds), names something the
index is not about. A real answer is still quoted, and a word the index knows,
even in passing, is no veto.
"""
from __future__ import annotations

import pytest

import glean_personal
from glean_personal import search as search_module
from glean_personal.surfaces.local_backend import foreign_words
from helpers.chat import large_index  # noqa: F401  (autouse: the rules of a large index)
from helpers.chat import ask, indexed_notes, message_text, passage_search

NOTES = {
    "debugging.md": """\
# Debugging notes

## Breakpoints

When the debugger does not stop at a breakpoint, check that the file it was set in is the
one that runs: a copy of the module installed elsewhere is loaded first, and the line
numbers no longer match. Setting the breakpoint by function name avoids that.

## Logging

Turn the log level down to debug while chasing a problem, and back up afterwards.
""",
    "budget.md": """\
# Household budget

## Monthly sheet

The sheet has two columns, one for the month and one for the amount spent; the last row
holds the sum of the values above it, and the cell beside it the average.

## Savings

Whatever is left at the end of the month goes to the savings account on the first.
""",
    # Two, columns, sum and values in several places: commoner than pandas and groupby.
    "sheets.md": """\
# Spreadsheet habits

## Layout

Keep two columns for dates and amounts, and put the sum of the values at the bottom.

## Checks

Compare the sum with the bank statement; two values that differ by the same amount in
both columns are usually one payment typed twice.
""",
    "garden.md": """\
# Garden plan

Two rows of beans along the fence, the tomatoes in columns by the shed; the sum of the
seed costs is in the budget sheet, with the values from last year beside it.
""",
    # Gloves in one passage; need (a request word) in another.
    "workshop.md": """\
# Workshop safety

## Cranks

Wear cut-resistant gloves when removing cranks, and wrap a rag over the teeth.

## Lifting

Heavy bikes need two people to lift onto the stand.
""",
    # The index knows pandas and groupby, each in passing.
    "zoo.md": """\
# Zoo trip

We saw the red pandas asleep in the trees, then the penguins at feeding time. The kids
want to come back in the spring when the new enclosure opens.
""",
    "code.md": """\
# Python snippets

## Grouping

`itertools.groupby` groups consecutive items with the same key; sort the items by that
key first, or equal keys that are apart end up in separate groups.
""",
}


@pytest.fixture(scope="module", params=["fts5", "plain"])
def db(request, tmp_path_factory):
    return indexed_notes(tmp_path_factory.mktemp(f"off-topic-{request.param}"), NOTES,
                         request.param)




def test_a_word_like_nothing_in_the_index_declines(db):
    question = "vscode debugger does not stop at my breakpoint"
    result = passage_search(db, question)
    # The search still ranks the notes, strongly: the gate is /chat's.
    assert result.results[0].title == "Debugging notes"
    assert result.results[0].strength >= search_module.TUNING.answer_strength
    assert result.absent_terms == ["vscode"] and foreign_words(result) == ["vscode"]
    message = ask(db, question)
    assert "citations" not in message
    assert "has nothing on that" in message_text(message) and "'vscode'" in message_text(message)


def test_the_same_question_in_the_index_s_words_is_answered(db):
    message = ask(db, "why does the debugger not stop at my breakpoint")
    assert message["citations"][0]["sourceDocument"]["title"] == "Debugging notes"
    assert "Setting the breakpoint by function name avoids that." in message_text(message)


def test_an_unknown_word_close_to_a_known_one_is_not_foreign(db):
    # breakpiont is a slip for breakpoint (did you mean): it is weighed, not a veto.
    result = passage_search(db, "the debugger does not stop at my breakpiont")
    assert result.absent_terms == ["breakpiont"]
    assert result.suggestions == {"breakpiont": ["breakpoint"]}
    assert foreign_words(result) == []


def test_a_word_the_index_holds_in_passing_is_no_veto(db):
    # pandas is only in the zoo note: known, so the question is weighed, not declined.
    result = passage_search(db, "pandas groupby two columns and sum the values")
    assert result.absent_terms == [] and foreign_words(result) == []


def test_real_answers_are_quoted(db):
    question = "what does the last row of the monthly sheet hold"
    assert passage_search(db, question).results[0].title == "Household budget"
    message = ask(db, question)
    assert message["citations"][0]["sourceDocument"]["title"] == "Household budget"
    assert "holds the sum of the values above it" in message_text(message)
    message = ask(db, "group items by key with groupby")
    assert message["citations"][0]["sourceDocument"]["title"] == "Python snippets"


def test_the_foreign_word_rule_can_be_turned_off(db, monkeypatch):
    monkeypatch.setattr(search_module, "TUNING",
                        search_module.TUNING.replace(decline_foreign=False))
    message = ask(db, "vscode debugger does not stop at my breakpoint")
    assert message["citations"][0]["sourceDocument"]["title"] == "Debugging notes"


def test_an_unknown_word_with_a_synonym_the_index_holds_is_not_foreign(db):
    # total is in no note, and no word is near it, but its synonym sum is: weighed, no veto.
    result = passage_search(db, "where is the total on the monthly sheet")
    assert "total" in result.absent_terms and "total" not in result.suggestions
    assert result.expansions.get("total")
    assert foreign_words(result) == []


def test_words_the_did_you_mean_never_judges_are_not_foreign(db):
    # Under three letters or starting with a digit: no suggestion is ever made for them,
    # so having none says nothing about the index.
    result = passage_search(db, "qz 3dxq debugger does not stop at my breakpoint")
    assert {"qz", "3dxq"} <= set(result.absent_terms) and not result.suggestions
    assert foreign_words(result) == []


def test_a_request_word_is_not_foreign(db):
    # show is in no note and near no word of them; it asks, it names nothing.
    result = passage_search(db, "show me the savings")
    assert "show" in result.absent_terms and foreign_words(result) == []
    message = ask(db, "show me the savings")
    assert message["citations"][0]["sourceDocument"]["title"] == "Household budget"


def test_a_request_word_weighs_nothing_in_strength(db):
    # need is kept in the query (one other word only), but a passage holding gloves
    # alone holds what the question is about: full strength, and /chat quotes it.
    result = passage_search(db, "what gloves do we need")
    gloves = [h for h in result.results if "gloves" in h.passage_text]
    assert gloves and gloves[0].strength == 1.0
    message = ask(db, "what gloves do we need")
    assert "cut-resistant gloves" in message_text(message)


def test_a_small_index_never_declines_for_a_foreign_word(db, monkeypatch):
    # A few notes lack most everyday words, and have no word near most of them: a
    # word missing there says little, so the answer is quoted.
    question = "which gloves protect you when removing cranks"
    result = passage_search(db, question)
    assert foreign_words(result) == ["protect"]
    message = ask(db, question)
    assert "citations" not in message and "'protect'" in message_text(message)
    monkeypatch.setattr(search_module, "TUNING", search_module.SearchTuning())
    with glean_personal.open_index(db, readonly=True) as ix:
        assert ix.status().passages < search_module.TUNING.small_index
    message = ask(db, question)
    assert "Wear cut-resistant gloves when removing cranks" in message_text(message)


def test_an_unknown_word_made_of_a_known_one_and_a_prefix_is_not_foreign(db):
    # unmatched is in no note, but matched is: the index lacks a wording, not the thing.
    result = passage_search(db, "the breakpoint line numbers are unmatched")
    assert result.absent_terms == ["unmatched"] and result.bases == {"unmatched": "matched"}
    assert foreign_words(result) == []
    message = ask(db, "why is my breakpoint unmatched when the debugger runs")
    assert message["citations"][0]["sourceDocument"]["title"] == "Debugging notes"
    # a word the index lacks, with the prefix or without it, stays foreign
    result = passage_search(db, "unvscode debugger does not stop at my breakpoint")
    assert result.bases == {} and foreign_words(result) == ["unvscode"]


def test_a_prefix_leaves_a_base_of_four_letters_or_more(open_ix, tmp_path):
    # *unset* less *un* is *set*, too short a word to tell a wording from a thing
    folder = tmp_path / "notes"
    folder.mkdir()
    (folder / "counter.md").write_text("# Counter\n\nSet the counter, then sign the sheet.\n",
                                       encoding="utf-8")
    ix = open_ix()
    ix.index(folder)
    assert ix.search("unset counter").bases == {}
    assert ix.search("unsign counter").bases == {"unsign": "sign"}
