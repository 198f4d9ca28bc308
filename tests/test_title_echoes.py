"""A question's further passages that hold its words only in their document's title
lend the document no support: every passage carries its title, and a short page
titled by one of the question's words matched the question with each of its
sections, as if each were about it."""
from __future__ import annotations

import glean_personal.search as search
from helpers.files import write_tree

# A short reference page titled by one word of the question, whose sections, but the
# first, say nothing the question asks: each matches it by the title alone.
SECTIONS = [
    ("Syntax", "The function takes one argument, a colour number, and gives back a whole number."),
    ("Return value", "An integer from 0 to 255 for the part of the colour asked for."),
    ("Parameters", "ColourNumber: a long integer that names a colour as the three parts mixed."),
    ("Example", "Print the part of a colour number chosen with the colour dialog, then the "
                "other two parts."),
    ("Errors", "An argument that is not a number stops the macro with a message."),
    ("Notes", "The green and blue parts are read by the two functions beside this one."),
    ("See also", "The colour dialog, the functions for the other parts, and the list of "
                 "named colours."),
]


def reference(heading: str = "{}") -> str:
    return ("# Red function\n\nReturns the red part of a colour code.\n\n"
            + "\n\n".join(f"## {heading.format(name)}\n\n{text}" for name, text in SECTIONS)
            + "\n")


# The page that answers, in one passage of an ordinary length.
FORMATS = ("# Number formats\n\n## Negative numbers\n\n"
           "A cell format can show negative amounts in red: choose the format with a minus "
           "sign and the colour, and every such figure in an account stands out from the "
           "others, which is what most people want when they keep accounts. The format is "
           "kept with the cell when it is copied, and a style can hold it for a whole column, "
           "so that the figures entered later are shown the same way without choosing the "
           "format again for each of them. A sheet printed in black and white shows the minus "
           "sign alone, so keep it in the format as well. Brackets around the figure are the "
           "accountants' habit and can be chosen in the same list of formats.\n")

# Notes on other subjects, so that the index's words have ordinary weights.
NOTES = {f"notes/{topic}.md": f"# {topic.title()}\n\n" + "\n\n".join(
    f"## {topic.title()} part {n}\n\n" + (
        f"Notes on {topic}, kept for the office: the suppliers we use, what each order cost, "
        f"which batches were good and which were returned, and who to call when a delivery is "
        f"late. The list is read again each season and the old entries are struck out. ") * 3
    for n in range(6)) for topic in ("paper", "printers", "desks", "phones", "travel", "orders")}

QUESTION = "show the amounts below zero in red in my budget"


def _index(open_ix, tmp_path, page: str, name: str = "p.db"):
    ix = open_ix(name)
    ix.index(write_tree(tmp_path / f"docs-{name}", {"red.md": page, "formats.md": FORMATS, **NOTES}))
    return ix


def _paths(ix, query, **kw):
    return [h.document["path"] for h in ix.search(query, limit=3, **kw).results]


def test_sections_matched_by_the_title_alone_lend_no_support(open_ix, tmp_path, monkeypatch):
    ix = _index(open_ix, tmp_path, reference())
    assert _paths(ix, QUESTION)[:2] == ["formats.md", "red.md"]
    monkeypatch.setattr(search, "TUNING", search.TUNING.replace(title_echoes=False))
    assert _paths(ix, QUESTION)[:2] == ["red.md", "formats.md"]   # as it ranked before


def test_a_list_of_passages_ranks_them_the_same_way(open_ix, tmp_path, monkeypatch):
    # /chat and MCP list passages, each document's best carrying its support
    ix = _index(open_ix, tmp_path, reference())
    assert _paths(ix, QUESTION, passages=True)[:2] == ["formats.md", "red.md"]
    monkeypatch.setattr(search, "TUNING", search.TUNING.replace(title_echoes=False))
    assert _paths(ix, QUESTION, passages=True)[:2] == ["red.md", "formats.md"]


def _score(ix, query, path):
    return next(h.score for h in ix.search(query, limit=5).results if h.document["path"] == path)


def test_sections_headed_by_the_word_still_lend_support(open_ix, tmp_path, monkeypatch):
    # the same page, each section headed *Red: Syntax*, *Red: Return value*...: the
    # headings are the sections' own, and hold the word; the title-only page loses
    ix = _index(open_ix, tmp_path, reference("Red: {}"))
    on = _score(ix, QUESTION, "red.md")
    monkeypatch.setattr(search, "TUNING", search.TUNING.replace(title_echoes=False))
    assert _score(ix, QUESTION, "red.md") == on
    ix = _index(open_ix, tmp_path, reference(), "titled.db")
    off = _score(ix, QUESTION, "red.md")
    monkeypatch.setattr(search, "TUNING", search.TUNING.replace(title_echoes=True))
    assert _score(ix, QUESTION, "red.md") < 0.7 * off


def test_a_search_of_words_keeps_the_title_s_support(open_ix, tmp_path):
    # a list of words, not a sentence: a page titled by the name typed is about it throughout
    ix = _index(open_ix, tmp_path, reference())
    hits = ix.search("red budget amounts", limit=3).results
    assert hits[0].document["path"] == "red.md"
