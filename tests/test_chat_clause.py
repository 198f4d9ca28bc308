"""The circumstances of a request in /chat's match strength (both stores).

A question in plain words often says when or why it asks, or in place of what,
in a subordinate clause (*… while I am cooking*, *… before sending them*, *…
instead of stopping*): everyday words a manual seldom uses, each weighing as
much as the request's own words or twice that. A passage that lacks one of
them lacks half its weight, and the words it holds are counted against the
main clause's for the rule on few words; a passage holding one counts it in
full. A question with no such clause, or with fewer than two words of weight
before it, is weighed as before.
"""
from __future__ import annotations

import pytest

from glean_personal import search as search_module
from glean_personal.analysis import tokenize
from glean_personal.query import main_clause
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

# Three words of the backup note, then a clause of four words no note holds and
# none of them foreign (three with a verb's ending, a time word).
CLAUSE = "mount the archive disk while cooking, painting and cleaning on weekends"
# The same words with no clause: the circumstances weigh in full.
LIST = "mount the archive disk, cooking, painting and cleaning on weekends"


@pytest.fixture(scope="module", params=["fts5", "plain"])
def db(request, tmp_path_factory):
    return indexed_notes(tmp_path_factory.mktemp(f"clause-{request.param}"), NOTES,
                         request.param)


def test_a_passage_lacking_the_circumstances_answers_the_request(db, monkeypatch):
    hit = passage_search(db, CLAUSE).results[0]
    assert hit.section == ["Backups", "Archive disk"]
    assert hit.strength >= search_module.TUNING.answer_strength
    message = ask(db, CLAUSE)
    assert message["citations"][0]["sourceDocument"]["title"] == "Backups"
    tuned(monkeypatch, clause_share=1.0)   # the rule off: the clause weighs in full
    assert passage_search(db, CLAUSE).results[0].strength < search_module.TUNING.answer_strength
    assert "citations" not in ask(db, CLAUSE)


def test_without_a_clause_the_words_weigh_in_full(db):
    hit = passage_search(db, LIST).results[0]
    assert hit.section == ["Backups", "Archive disk"]
    assert hit.strength < search_module.TUNING.answer_strength
    assert "citations" not in ask(db, LIST)


def test_a_clause_word_the_passage_holds_counts_in_full(db, monkeypatch):
    # *evening*, after *when*, is in the garden note's passage: held, it counts as any
    # word, so the strength is the one the question has without the rule (under 1: the
    # passage lacks *pipe*)
    question = "water the hose pipe when it is evening"
    on = passage_search(db, question).results[0]
    assert on.section == ["Garden", "Watering"] and on.strength < 1.0
    tuned(monkeypatch, clause_share=1.0)
    assert passage_search(db, question).results[0].strength == on.strength


def test_a_main_clause_needs_two_words_of_weight(db, monkeypatch):
    # *mount* alone before the clause: no clause is read, the strength is as before
    question = "mount while cooking, painting and cleaning on weekends"
    on = passage_search(db, question).results[0].strength
    tuned(monkeypatch, clause_share=1.0)
    assert passage_search(db, question).results[0].strength == on


def test_where_the_main_clause_ends():
    def main(text):
        found = main_clause(tokenize(text))
        return None if found is None else sorted(found)

    assert main("make responses smaller before sending them") == ["make", "responses", "smaller"]
    assert main("use all the cores instead of just one") == ["all", "cores", "the", "use"]
    assert main("keep a copy in case the file gets damaged") == ["a", "copy", "keep"]
    assert main("stop the script as soon as a command fails") == ["script", "stop", "the"]
    # a word that opens the question, or *at once*, opens no clause
    assert main("when is my dentist appointment") is None
    assert main("collect the keys of many servers at once") is None
    assert main("what is the capital of France") is None
