"""Match strength reads a synonym that is the same word in full and a code name's part
only beside another of its parts, and /chat answers from a passage holding three or
more of a question's words that seldom meet (both stores).

A long question in everyday words holds many words a manual never uses; a
passage holding its rarer words together answers it although its share of the
question's weight is low. Words that every note holds meet anywhere, and answer
nothing.
"""
from __future__ import annotations

import pytest

import glean_personal
from glean_personal import search as search_module
from glean_personal.surfaces import mcp
from helpers.chat import ask, indexed_notes, message_text, top_passage

NETWORK = """\
# Home network

## Port forwarding

Forward port 8080 on the router to the NAS, so that the photo gallery on the NAS
can be reached from outside the house.

## Cleaning up

The rmdir command removes each empty directory it is given; a directory that still
holds files stays where it is.
"""

BROWSER = """\
# Browser scripts

## Fetching

Old pages call XMLHttpRequest from JavaScript; when it fails, the page shows nothing.

## Options

The parseArgs helper reads the options given on the command line.
"""

# Thirty days of the same errands: went, shop, bought, bread and milk are in
# nearly every passage, so they weigh next to nothing and meet everywhere.
DIARY = "# Diary\n\n" + "\n\n".join(
    f"## Day {n}\n\nWent to the shop and bought bread and milk, then walked home."
    for n in range(1, 31)) + "\n"

# Everyday words the notes never use, which weigh twice the rarest word they hold
# (no subordinate clause: a missing word of one weighs less, query.main_clause).
VISIT = "with my grandmother visiting us this rainy weekend in november"


@pytest.fixture(scope="module", params=["fts5", "plain"])
def db(request, tmp_path_factory):
    files = {"network.md": NETWORK, "diary.md": DIARY, "browser.md": BROWSER}
    return indexed_notes(tmp_path_factory.mktemp(f"evidence-{request.param}"), files,
                         request.param)


def test_a_synonym_that_is_the_same_word_holds_it_in_full(db):
    # delete = remove and folder = directory are lines of one meaning: the passage
    # holds all of the question.
    hit = top_passage(db, "delete an empty folder")
    assert hit.section[-1] == "Cleaning up"
    assert hit.strength == 1.0 and hit.rare_matched


def test_a_synonym_an_everyday_word_expands_to_holds_less(db):
    # rid > remove only expands the everyday word: three quarters of its weight.
    hit = top_passage(db, "rid an empty folder")
    assert hit.section[-1] == "Cleaning up"
    assert 0.75 < hit.strength < 1.0


def test_the_same_word_counts_as_any_synonym_when_turned_down(db, monkeypatch):
    monkeypatch.setattr(search_module, "TUNING",
                        search_module.TUNING.replace(synonym_same=0.75))
    assert top_passage(db, "delete an empty folder").strength < 1.0


def test_rare_words_together_answer_a_long_everyday_question(db):
    question = f"forward a port on the router to the nas {VISIT}"
    hit = top_passage(db, question)
    assert hit.section[-1] == "Port forwarding"
    # The everyday words hold most of the weight, so the share is low ...
    assert hit.strength < search_module.TUNING.answer_strength
    # ... but forward, port, router and nas are one passage's words, and no other's.
    assert hit.rare_together and hit.to_dict()["rare_together"] is True
    message = ask(db, question)
    assert message["citations"][0]["sourceDocument"]["title"] == "Home network"
    assert "Forward port 8080 on the router" in message_text(message)


def test_common_words_together_answer_nothing(db):
    question = f"went to the shop and bought bread {VISIT}"
    with glean_personal.open_index(db, readonly=True) as ix:
        hits = ix.search(question, passages=True).results
    assert hits and hits[0].title == "Diary"
    assert not any(h.rare_together for h in hits)
    message = ask(db, question)
    assert "citations" not in message
    assert "has nothing on that" in message_text(message)


def test_mcp_says_the_words_are_rare_together_and_only_then(db):
    server = mcp.Server(str(db))
    rows = {}
    for n, query in enumerate([f"forward a port on the router to the nas {VISIT}",
                               "went to the shop and bought bread"]):
        reply = server.handle({"jsonrpc": "2.0", "id": n, "method": "tools/call",
                               "params": {"name": "local_search",
                                          "arguments": {"query": query}}})
        rows[n] = reply["result"]["structuredContent"]["results"][0]
    assert rows[0]["rare_together"] is True
    assert "rare_together" not in rows[1]


def test_the_rule_can_be_turned_off(db, monkeypatch):
    monkeypatch.setattr(search_module, "TUNING",
                        search_module.TUNING.replace(together_margin=0.0))
    question = f"forward a port on the router to the nas {VISIT}"
    assert not top_passage(db, question).rare_together
    assert "citations" not in ask(db, question)


def test_a_lone_part_of_a_code_name_is_no_evidence(db):
    # The index matches *request* in XMLHttpRequest (--explain says so), but a page
    # naming the browser's API is not about a request: two of three words held.
    with glean_personal.open_index(db, readonly=True) as ix:
        hit = ix.search("javascript request fails", passages=True, explain=True).results[0]
    assert hit.section[-1] == "Fetching" and "request" in hit.matched_terms
    assert 0.6 < hit.strength < 0.7


def test_two_parts_of_one_code_name_are_evidence(db):
    # parseArgs holds *parse args*: both its parts are asked for ...
    hit = top_passage(db, "parse args options")
    assert hit.section[-1] == "Options" and hit.strength == 1.0
    # ... but *parse* alone is only a part of it.
    hit = top_passage(db, "parse the options")
    assert hit.section[-1] == "Options" and hit.strength < 1.0
