"""Contents and index pages: dot leaders read as one ellipsis, and such a page is
not the passage that answers (it only names the subject and a page number)."""
from __future__ import annotations

from glean_personal.formats import read_document
from pdf_factory import document

LEADER = " . . . . . . . . . . . . . . . . . . "
MANUAL = document("Kiln manual", [
    ["Contents", "1 Loading the kiln" + LEADER + "2", "2 Firing the kiln" + LEADER + "2",
     "3 Cooling the kiln slowly" + LEADER + "3", "4 Cooling faults" + LEADER + "3",
     "5 Slowly cooling large pots" + LEADER + "3"],
    ["1 Loading the kiln", "Stack the shelves on posts of equal height."],
    ["3 Cooling the kiln slowly", "Close the damper and leave the lid shut for a day",
     "so that the ware does not crack while cooling."] + [
        f"Note {n}: record the cone number, the weather, the clay body and the glaze batch."
        for n in range(12)],
], [("Contents", 0), ("1 Loading the kiln", 1), ("3 Cooling the kiln slowly", 2)])


def test_dot_leaders_read_as_one_ellipsis():
    doc = read_document(MANUAL, "kiln.pdf")
    contents = doc.sections[0].text
    assert "1 Loading the kiln \u2026 2" in contents and ". ." not in contents


def test_the_page_that_explains_comes_before_the_contents(open_ix, tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "kiln.pdf").write_bytes(MANUAL)
    ix = open_ix()
    ix.index(tmp_path / "docs")
    passages = ix.search("cooling the kiln slowly", passages=True, limit=3).results
    assert passages[0].page == "3"
    hit = ix.search("cooling the kiln slowly", limit=1).results[0]
    assert hit.page == "3" and "damper" in hit.snippets[0].text


def test_a_long_run_of_dots_or_digits_costs_no_backtracking():
    from glean_personal.search import _is_listing
    from helpers.cost import cpu_budget
    with cpu_budget(1.0):   # each took seconds when the leader was one pattern over the text
        for line in (". " * 8000 + "1 x", "1" * 20000 + "x", ". . . ." + "1" * 20000 + "x"):
            _is_listing("\n".join([line] * 4))
    assert _is_listing("Contents\n1 Loading \u2026 2\n2 Firing . . . . 3\n3 Cooling .... 4")
    assert not _is_listing("Contents\n1 Loading 2\n2 Firing 3\n3 Cooling 4\n4 Faults 5")


# A generated cross-reference: each word, then the pages that name it (as SQLite's
# documentation has four of, hundreds of lines each).
CROSSREF = "# Keyword crossreference\n\n" + "\n\n".join(
    f"{word} → c3ref/{word}.html pragma.html#{word} changes.html#v3_{n} faq.html#q{n}"
    for n, word in enumerate(["busy_timeout", "busy timeout", "pragma busy_timeout",
                              "busy_handler", "cache_size", "temp_store"]))
PRAGMAS = ("# Pragmas\n\n## PRAGMA busy_timeout\n\nThis pragma sets a handler that sleeps "
           "while a table is locked, until the timeout in milliseconds has passed; then the "
           "statement returns an error. It is a per-connection setting, and the default is "
           "zero: no waiting at all, so a writer that finds the database locked fails at once.\n")


def test_a_cross_reference_page_is_a_listing(tmp_path, open_ix, monkeypatch):
    import glean_personal.search as search
    from helpers.files import write_tree
    ix = open_ix()
    others = {f"misc/{w}.md": f"# {w.title()}\n\nNotes on {w}, nothing about locks.\n"
              for w in ("garden", "music", "travel", "books", "cars", "games")}
    ix.index(write_tree(tmp_path / "docs", {"crossref.md": CROSSREF, "pragma.md": PRAGMAS,
                                            **others}))

    def first():
        return [h.document["path"] for h in ix.search("busy timeout pragma").results][:2]
    assert first() == ["pragma.md", "crossref.md"]
    monkeypatch.setattr(search, "TUNING", search.TUNING.replace(references=False))
    assert first() == ["crossref.md", "pragma.md"]   # as it ranked before such pages were known


# A page that is the collection's table of contents: every heading of every page,
# one a line, as Perl's `perltoc` is.
TOC = "# kilnbook - kiln documentation table of contents\n\n" + "\n\n".join(
    f"## kiln{n} - {topic}\n\nDESCRIPTION\n\nCooling the kiln slowly\n\nFiring faults\n\nSEE ALSO"
    for n, topic in enumerate(["loading", "firing", "cooling", "glazes", "repairs"]))
COOLING = ("# kilncooling - cooling the kiln\n\n## Slowly\n\nClose the damper and leave the lid "
           "shut for a day, so that the ware does not crack while it cools. Opening the kiln "
           "early is the commonest cause of cracked pots, and the glaze crazes too.\n")


def test_a_page_titled_as_a_table_of_contents_or_an_index_is_a_listing(tmp_path, open_ix):
    from glean_personal.kinds import is_listing_title
    for title in ("Index", "Index \u2014 Python 3.11 documentation", "Index | Node.js Documentation",
                  "Python Module Index", "perltoc - perl documentation table of contents",
                  "63. Concept Index", "Option Index", "Variables Index (zsh)"):
        assert is_listing_title(title), title
    for title in ("Index Of A Parameter With A Given Name", "index-compatibility.cocci",
                  "Indexes", "Table of contents in Word", "Building an index", "CREATE INDEX",
                  "11.2. Index Types", "Chapter 11. Indexes", "Website Keyword Index"):
        assert not is_listing_title(title), title
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "kilntoc.md").write_text(TOC)
    (tmp_path / "docs" / "kilncooling.md").write_text(COOLING)
    ix = open_ix()
    ix.index(tmp_path / "docs")
    hits = ix.search("how do I cool the kiln slowly", limit=2).results
    assert [h.document["path"] for h in hits] == ["kilncooling.md", "kilntoc.md"]


# Manual pages' own index pages, as systemd's: `systemd.index(7)` lists every page, its
# name on one line and its summary on the next; `systemd.directives(7)` lists every
# setting, then the pages that document it. Read by the roff reader, gzipped.
def _roff(name: str, section: str, summary: str, body: str) -> bytes:
    import gzip
    return gzip.compress((f'.TH "{name.upper()}" "{section}" "" "kiln 1" "{name}"\n.SH "NAME"\n'
                          f"{name} \\- {summary}\n{body}").encode())


KILN_INDEX = _roff("kiln.index", "7", "List all manpages from the kiln project",
                   '.SH "C"\n' + "".join(
                       f".PP\n\\fB{page}\\fR(5)\n.RS 4\n\\(em {summary}\n.RE\n"
                       for page, summary in [
                           ("kiln-cool.conf", "Cooling the kiln slowly after a firing"),
                           ("kiln-cone.conf", "Cone numbers for the kiln firing"),
                           ("kiln-damper.conf", "Damper settings of the kiln while cooling"),
                           ("kiln-lid.conf", "When the kiln lid may be opened after cooling"),
                           ("kiln-shelf.conf", "Shelves and posts of the kiln")]))
KILN_COOL = _roff("kiln-cool.conf", "5", "Cooling configuration",
                  '.SH "DESCRIPTION"\n.PP\nSlowDown= sets how many degrees an hour the kiln may '
                  "lose after the last cone has bent. Keep the damper closed and the lid shut "
                  "until the kiln is below one hundred degrees, or the ware cracks and the glaze "
                  "crazes. A thick pot wants a slower rate than a thin one.\n")


def test_a_manual_pages_index_page_is_a_listing(tmp_path, open_ix, monkeypatch):
    import glean_personal.search as search
    from glean_personal.search import _is_listing
    assert _is_listing("Accept=\n\nkiln-socket(5)\n\nAfter=\n\nkiln.unit(5)\n\nSlowDown=\n\n"
                       "kiln-cool.conf(5), kiln-lid.conf(5),")
    assert not _is_listing("Start it with kilnctl(1).\nThen read the log with kilnlog(1) to see\n"
                           "what the firing did, and when.\nSee also kiln.unit(5) for the rest.")
    # a sentence whose page names stand on lines of their own, as roff keeps DocBook's
    assert not _is_listing("These files configure the kiln manager,\nkilnd.service(8). See\n"
                           "kiln.syntax(7)\nfor a general description of the syntax.")
    (tmp_path / "man" / "man5").mkdir(parents=True)
    (tmp_path / "man" / "man7").mkdir()
    (tmp_path / "man" / "man7" / "kiln.index.7.gz").write_bytes(KILN_INDEX)
    (tmp_path / "man" / "man5" / "kiln-cool.conf.5.gz").write_bytes(KILN_COOL)
    for n, topic in enumerate(["garden", "music", "travel", "books", "cars", "games"]):
        (tmp_path / "man" / "man5" / f"{topic}.5.gz").write_bytes(
            _roff(topic, "5", f"Notes on {topic}", f'.SH "DESCRIPTION"\n.PP\nNothing about {topic} {n}.\n'))
    ix = open_ix()
    ix.index(tmp_path / "man")

    def first():
        return [h.document["path"] for h in ix.search("cool the kiln slowly after firing").results][:2]
    assert first() == ["man5/kiln-cool.conf.5.gz", "man7/kiln.index.7.gz"]
    monkeypatch.setattr(search, "TUNING", search.TUNING.replace(references=False))
    assert first() == ["man7/kiln.index.7.gz", "man5/kiln-cool.conf.5.gz"]
