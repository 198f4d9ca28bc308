"""Long lists of short entries (a glossary, a program's settings, its error codes):
for a question written as a sentence such a list keeps a share of its score, so the
page that explains comes before an entry that only names the question's words."""
from __future__ import annotations

import glean_personal.search as search
from helpers.files import write_tree

# A glossary of 240 terms, each a line or two under a heading of its own (as Perl's
# `perlglossary`): one of them names the question's words.
WORDS = ["bisque", "bloating", "bone dry", "burnish", "celadon", "chuck", "coil", "cone",
         "crawling", "crazing", "damper", "deflocculant", "dunting", "earthenware", "engobe",
         "flux", "frit", "greenware", "grog", "kiln wash", "leather hard", "luting", "majolica",
         "maturing", "oxidation", "pinholing", "porcelain", "pug mill", "raku", "reduction"]
ENTRIES = [f"{word} {n}" for n in range(8) for word in WORDS]
GLOSSARY = "# Pottery glossary\n\n" + "\n\n".join(
    f"## {entry}\n\nA term of the potter's trade, number {i}." for i, entry in enumerate(ENTRIES))
GLOSSARY += "\n\n## slow cooling\n\nCooling a kiln slowly, so that nothing cracks.\n"

# The page that explains, in passages of an ordinary length.
COOLING = ("# Firing schedules\n\n## After the last cone\n\n"
           "While the kiln is cooling, keep the cold air out. When the last cone bends, switch the kiln off and close the damper and every spy "
           "hole. Leave the lid shut until the kiln is below a hundred degrees, which takes a "
           "day for a small kiln and longer for a large one; opening early lets cold air in and "
           "the ware cracks (dunting). Large pots and thick bases are the first to crack, so "
           "for those the controller can hold the temperature for an hour at the quartz "
           "inversion before it goes on falling.\n")

# Notes on other subjects, so that the index's passages are of an ordinary length.
NOTES = {f"notes/{topic}.md": f"# {topic.title()}\n\n" + "\n\n".join(
    f"## {topic.title()} part {n}\n\n" + (
        f"Notes on {topic}, kept for the studio: the suppliers we use, what each order cost, "
        f"which batches were good and which were returned, and who to call when a delivery is "
        f"late. The list is read again each season and the old entries are struck out. ") * 3
    for n in range(6)) for topic in ("clay", "glazes", "tools", "shelves", "sales", "classes",
                                     "studio", "markets", "orders", "repairs")}

QUESTION = "how do I stop the pots from cracking while the kiln is cooling"


def _index(open_ix, tmp_path):
    ix = open_ix()
    ix.index(write_tree(tmp_path / "docs", {"glossary.md": GLOSSARY, "firing.md": COOLING,
                                            **NOTES}))
    return ix


def _paths(ix, query, **kw):
    return [h.document["path"] for h in ix.search(query, limit=3, **kw).results]


def test_the_page_that_explains_comes_before_a_glossary_entry(open_ix, tmp_path, monkeypatch):
    ix = _index(open_ix, tmp_path)
    assert _paths(ix, QUESTION)[:2] == ["firing.md", "glossary.md"]
    monkeypatch.setattr(search, "TUNING", search.TUNING.replace(entries=1.0))
    assert _paths(ix, QUESTION)[:2] == ["glossary.md", "firing.md"]   # as it ranked before


def test_a_list_of_words_and_a_list_of_passages_still_find_the_entry(open_ix, tmp_path):
    ix = _index(open_ix, tmp_path)
    assert _paths(ix, "slow cooling")[0] == "glossary.md"   # not a sentence: the name typed
    # /chat and MCP list passages: there the entry is the passage to quote
    assert _paths(ix, QUESTION, passages=True)[0] == "glossary.md"


def test_only_long_lists_of_short_entries_are_lists(open_ix, tmp_path):
    # a reference of as many entries, each a paragraph long, is not one
    reference = "# Glaze reference\n\n" + "\n\n".join(
        f"## {entry}\n\n" + f"How {entry} behaves in a glaze at each cone, what it costs and "
        f"where to buy it, how much to weigh out for a test tile and what to do when it "
        f"crawls, pinholes or runs off the pot onto the shelf. " * 4 for entry in ENTRIES)
    ix = open_ix()
    ix.index(write_tree(tmp_path / "docs", {"glossary.md": GLOSSARY, "firing.md": COOLING,
                                            "reference.md": reference, **NOTES}))
    with ix.store.reading():
        lists = {path: search._entry_list(ix.store, ix.resolve(path)["id"])
                 for path in ("glossary.md", "reference.md", "firing.md")}
    assert lists == {"glossary.md": True, "reference.md": False, "firing.md": False}


def test_the_kept_answer_follows_the_tuning(open_ix, tmp_path, monkeypatch):
    # Whether a document is such a list is kept while the index is unchanged; a caller
    # that tunes the rule in one process (a sweep of `entry_length`) asked the same
    # open index and was given the answer of the first setting.
    ix = _index(open_ix, tmp_path)
    assert _paths(ix, QUESTION)[:2] == ["firing.md", "glossary.md"]
    monkeypatch.setattr(search, "TUNING", search.TUNING.replace(entry_length=0.01))
    assert _paths(ix, QUESTION)[:2] == ["glossary.md", "firing.md"]   # no list that short
    monkeypatch.setattr(search, "TUNING", search.TUNING.replace(entry_length=0.8,
                                                                entry_headings=1.01))
    assert _paths(ix, QUESTION)[:2] == ["glossary.md", "firing.md"]
