"""AsciiDoc: two-line (manual page) titles, and text without the markup a reader never sees."""
from __future__ import annotations

import pytest

from glean_personal.formats import read_document
from helpers.documents import lines_of

# A manual page in the style of Git's documentation (written for this test).
MANPAGE = """\
tidy-notes(1)
=============

NAME
----
tidy-notes - Sort and prune a folder of notes

SYNOPSIS
--------
[synopsis]
tidy-notes [--dry-run] [--keep=<n>] <folder>...

DESCRIPTION
-----------
:fmt: linkgit:markdown[7]
Sorts every {fmt} note by date and removes empty ones. Run
linkgit:tidy-notes-config[5] first; see also <<hooks>> and
link:https://example.org/notes.html[the notes guide].
// a comment nobody sees
include::shared-intro.adoc[]

OPTIONS
-------
`--dry-run`::
`-n`::
	Show what would be pruned, without removing anything.
+
Combine with `--keep` to preview _retention_.

`--keep=<n>`:: Keep the newest _<n>_ notes{litdd}older ones go.

ifdef::with-archive[]
--archive::
	Move pruned notes to an archive folder.
endif::with-archive[]

EXAMPLES
--------
.Preview a prune
------------
$ tidy-notes --dry-run ~/notes
== not a heading, and `backquotes` stay
------------

////
A comment block
with two lines
////

[[hooks]]
HOOKS
-----
The *pre-prune* hook runs first.

== Closing marks ==

Done.
"""


def test_two_line_titles_make_sections_and_the_title():
    doc = read_document(MANPAGE.encode(), "tidy-notes.adoc")
    assert doc.title == "tidy-notes(1)"
    assert [(" › ".join(s.heading), s.first_line) for s in doc.sections] == [
        ("tidy-notes(1) › NAME", 6), ("tidy-notes(1) › SYNOPSIS", 11),
        ("tidy-notes(1) › DESCRIPTION", 16), ("tidy-notes(1) › OPTIONS", 24),
        ("tidy-notes(1) › EXAMPLES", 39), ("tidy-notes(1) › HOOKS", 53),
        ("tidy-notes(1) › Closing marks", 57)]


def test_markup_left_out_and_every_line_in_its_place():
    doc = read_document(MANPAGE.encode(), "tidy-notes.adoc")
    text = lines_of(doc)
    src = MANPAGE.split("\n")
    assert text[16] == "Sorts every markdown(7) note by date and removes empty ones. Run"
    assert text[17] == "tidy-notes-config(5) first; see also HOOKS and"
    assert text[18] == "the notes guide."
    assert text[24] == "--dry-run" and text[25] == "-n"
    assert text[27] == "" and text[28] == "Combine with --keep to preview retention."
    assert text[30] == "--keep=<n>: Keep the newest <n> notes--older ones go."
    assert text[32] == "" and text[33] == "--archive"
    assert text[39] == "Preview a prune" and text[40] == ""
    assert (text[41], text[42]) == (src[40], src[41])   # the listing block as typed
    assert text[53] == "The pre-prune hook runs first." and text[57] == "Done."
    whole = "\n".join(s.text for s in doc.sections)
    for junk in ("linkgit", "include::", "ifdef", "endif", "[synopsis]", ":fmt:", "comment",
                 "{litdd}", "<<", "[[", "------------", "`--"):
        assert junk not in whole, junk


def test_an_underline_of_another_length_is_a_block_not_a_title():
    src = "= Guide\n\nRun these commands now:\n----\nmake\n----\n\nDone.\n"
    doc = read_document(src.encode(), "guide.adoc")
    assert [s.heading for s in doc.sections] == [("Guide",)]
    assert doc.sections[0].text == "Run these commands now:\n\nmake\n\n\nDone."


def test_a_document_without_a_level_0_title_is_named_by_its_file():
    doc = read_document(b"core.editor::\n\tThe editor for messages.\n", "core.adoc")
    assert doc.title == "core"
    assert doc.sections[0].text == "core.editor\n\tThe editor for messages."


def test_search_finds_the_option_with_its_lines(open_ix, tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "tidy-notes.adoc").write_text(MANPAGE, encoding="utf-8")
    ix = open_ix()
    ix.index(folder)
    hit = ix.search("preview retention", limit=1).results[0]
    assert list(hit.section) == ["tidy-notes(1)", "OPTIONS"]
    assert hit.title == "tidy-notes(1)"
    first, last = hit.lines
    assert first <= 28 <= last
    assert "preview retention." in hit.snippets[0].text


@pytest.mark.parametrize("name", ["tidy-notes.txt", "TIDY-NOTES"])
def test_asciidoc_under_a_text_name_is_read_as_asciidoc(name):
    doc = read_document(MANPAGE.encode(), name)
    assert doc.format == "txt" and doc.title == "tidy-notes(1)"
    assert ("tidy-notes(1)", "OPTIONS") in [s.heading for s in doc.sections]
    assert "linkgit" not in doc.text


def test_structured_text_gets_its_sections_and_plain_text_stays_plain():
    structured = "Kiln notes\n==========\n\nLoading\n-------\nStack the shelves.\n"
    doc = read_document(structured.encode(), "kiln.txt")
    assert doc.title == "Kiln notes" and doc.sections[0].heading == ("Kiln notes", "Loading")
    plain = "Kiln notes\n==========\n\nStack the shelves. *Fire* slowly.\n"
    doc = read_document(plain.encode(), "kiln.txt")
    assert doc.sections[0].heading == ()   # plain: one section, its markup kept,
    assert "==========" in doc.text and "*Fire*" in doc.text
    assert doc.title == "Kiln notes"   # and its underlined first line the title
