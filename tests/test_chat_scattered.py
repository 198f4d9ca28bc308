"""/chat passes over a passage that holds a question's words only far apart (both stores).

A long passage can hold every word of a question by chance, one word to a
sentence: match strength counts them all, and the hit says it is `scattered`.
/chat quotes passages where two of the words come together somewhere, or
whose heading holds one of them.
"""
from __future__ import annotations

import pytest

import glean_personal
from glean_personal import search as search_module
from glean_personal.surfaces import mcp
from helpers.chat import ask, indexed_notes, message_text, top_passage

# One passage (under 1,200 characters) holding django, admins, custom, list and
# filter, each 34 or more words from the next, as a logging guide might.
LOGGING = """\
# Logging recipes

## Sending records by mail

A web project often starts from the Django defaults. The logging setup below is built from \
a dictionary, so every handler, formatter and level lives in one place that the application \
reads once when it starts, before any request is served or any worker is forked. Errors \
that reach the top are mailed to the site admins, who read them the next morning along \
with the overnight reports, the disk usage summary that the backup job sends and whatever \
else the monitoring had to say about the night before. A custom formatter adds the host \
name and the process number in front of every message, which makes it easy to tell the \
machines apart when several of them share one log server. The handlers are given as a \
list, in the order the records should visit them, and the first one writes everything to \
a rotating file on the local disk of each machine, where it stays for a week. Last of \
all, a filter drops the health checks that the load balancer sends every few seconds.
"""

SERVER = """\
# Home server

## Nightly backup

The backup script copies the photo library and the database dump to the external disk \
every night at two o'clock, and keeps the last fourteen copies.

## Updates

Security updates install themselves on Sunday mornings; the machine restarts afterwards \
if the kernel changed.
"""


# Makes *custom*, *host* and *list* commoner than *django* in this index.
SHOPPING = """\
# Shopping

A custom script on the home host prints the shopping list in two columns, one for each shop.
"""


@pytest.fixture(scope="module", params=["fts5", "plain"])
def db(request, tmp_path_factory):
    files = {"logging-recipes.md": LOGGING, "home-server.md": SERVER, "shopping.md": SHOPPING}
    return indexed_notes(tmp_path_factory.mktemp(f"scattered-{request.param}"), files,
                         request.param)


def test_every_word_far_apart_in_one_passage_is_not_quoted(db):
    question = "django admin custom list filter"
    hit = top_passage(db, question)
    assert hit.title == "Logging recipes"
    # Strength keeps its meaning: the passage holds every word of the question.
    assert hit.strength == 1.0 and hit.rare_matched
    assert hit.scattered and hit.to_dict()["scattered"] is True
    message = ask(db, question)
    assert "citations" not in message
    text = message_text(message)
    assert "has nothing on that" in text and "far apart" in text


def test_two_words_together_are_enough_though_the_rarest_stands_apart(db):
    # custom and host stand together; django, the rarest, is far from both: not
    # scattered (the rule asks for two words together, not for the rarest one).
    hit = top_passage(db, "django custom host")
    assert hit.title == "Logging recipes" and not hit.scattered


def test_mcp_says_a_passage_is_scattered_and_only_then(db):
    server = mcp.Server(str(db))
    rows = {}
    for n, query in enumerate(["django admin custom list filter", "nightly database backup"]):
        reply = server.handle({"jsonrpc": "2.0", "id": n, "method": "tools/call",
                               "params": {"name": "local_search",
                                          "arguments": {"query": query}}})
        rows[query] = reply["result"]["structuredContent"]["results"][0]
    assert rows["django admin custom list filter"]["scattered"] is True
    assert "scattered" not in rows["nightly database backup"]


def test_words_together_in_a_passage_are_quoted(db):
    question = "custom formatter that adds the host name to every message"
    hit = top_passage(db, question)
    assert hit.title == "Logging recipes" and not hit.scattered
    message = ask(db, question)
    assert message["citations"][0]["sourceDocument"]["title"] == "Logging recipes"
    assert "A custom formatter adds the host name" in message_text(message)


def test_a_word_in_the_heading_is_near_every_word_of_the_text(db):
    # nightly (in the heading), backup, database, disk: the answer is quoted.
    question = "which disk does the nightly database backup go to"
    hit = top_passage(db, question)
    assert hit.section[-1] == "Nightly backup" and not hit.scattered
    message = ask(db, question)
    assert message["citations"][0]["sourceDocument"]["title"] == "Home server"
    assert "to the external disk every night at two o'clock" in message_text(message)


def test_the_rule_can_be_turned_off(db, monkeypatch):
    monkeypatch.setattr(search_module, "TUNING", search_module.TUNING.replace(scatter_window=0))
    assert not top_passage(db, "django admin custom list filter").scattered
    assert "citations" in ask(db, "django admin custom list filter")


def _weights(db, question: str):
    from glean_personal.evidence import Weights
    from glean_personal.query import parse

    with glean_personal.open_index(db, readonly=True) as ix:
        return Weights(ix.store, parse(question), search_module.TUNING)


# django, admins, custom and list, each 30 or more words from the next.
APART = " ".join(["django"] + ["w"] * 30 + ["admins"] + ["w"] * 30 + ["custom"]
                 + ["w"] * 30 + ["list"])


def test_the_rule_itself_on_a_passage_and_its_headings(db):
    weights = _weights(db, "django admin custom list")
    window = search_module.TUNING.scatter_window
    assert weights.scattered(["Notes", APART], window)
    # a word of the question in a heading is near every word of the text
    assert not weights.scattered(["Django notes", APART], window)
    # the same word twice close together is not two words together
    assert weights.scattered(["Notes", APART.replace("django", "django django", 1)], window)
    # two different words close together are
    assert not weights.scattered(["Notes", APART.replace("custom", "custom django", 1)], window)
    # fewer than three of the words, or the rule off: never scattered
    assert not weights.scattered(["Notes", APART.split(" custom")[0]], window)
    assert not weights.scattered(["Notes", APART], 0)


def test_explain_says_the_words_are_far_apart(db):
    from glean_personal.surfaces.render.text import search_results

    with glean_personal.open_index(db, readonly=True) as ix:
        far = ix.search("django admin custom list filter", passages=True, explain=True)
        near = ix.search("nightly database backup", passages=True, explain=True)
    assert "(its words far apart)" in search_results(far, color=False, explain=True)
    assert "far apart" not in search_results(near, color=False, explain=True)
