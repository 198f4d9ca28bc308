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


# Tables, attribute references, callouts and links in the style of an Antora site's
# pages (written for these tests; the Neo4j Operations Manual writes its pages so).
TABLES = """\
:description: How to list the jobs the server runs in the background.
[[jobs]]
= Background jobs

[options="header", cols="2a,1a"]
|===
| Name
| Type

| `jobId`

ID of the job.
Used to follow a job.
| String

| `group`

A job belongs to a group:

* `INDEX_POPULATION`
* `LOG_ROTATION`
| String
|===

[cols="1,1,1"]
|===
| Setting | Default | Dynamic

| `db.checkpoint` | `PERIODIC` | {check-mark}
2+| `db.lock` (both columns) | no
.2+| spans two rows | first | a
| second | b
|===

|===
| Alone | Row with `a \\| b`

a|
[source, shell]
----
neo4j start
----
| started
|===
"""


def test_a_table_row_reads_as_one_line_its_cells_joined():
    text = lines_of(read_document(TABLES.encode(), "jobs.adoc"))
    assert text[7] == "Name | Type"
    assert text[10] == "jobId ID of the job. Used to follow a job. | String"
    assert all(text.get(k, "") == "" for k in (8, 11, 12, 13))
    assert text[16] == "group A job belongs to a group: INDEX_POPULATION LOG_ROTATION | String"
    assert text[27] == "Setting | Default | Dynamic"
    assert text[29] == "db.checkpoint | PERIODIC | check mark"
    assert text[30] == "db.lock (both columns) | no"
    assert text[31] == "spans two rows | first | a"
    assert text[32] == "second | b"
    assert text[36] == "Alone | Row with a | b"
    # a row holding a listing keeps its lines: the code as typed, cells without marks
    assert text[38] == "" and text[41] == "neo4j start" and text[43] == "started"
    whole = "\n".join(s.text for s in read_document(TABLES.encode(), "jobs.adoc").sections)
    for junk in ("a|", "2+|", ".2+|", "|===", "\n|", "{check-mark}"):
        assert junk not in whole, junk


def test_the_description_reads_as_the_summary_unless_the_opening_says_it():
    text = lines_of(read_document(TABLES.encode(), "jobs.adoc"))
    assert text[1] == "How to list the jobs the server runs in the background."
    said = ":description: Background jobs of the server.\n= Background jobs\n\nThe server runs jobs.\n"
    doc = read_document(said.encode(), "said.adoc")
    assert "Background jobs of the server" not in doc.text


ATTRIBUTES = """\
= Install
:product: Kiln Server
:docs-uri: https://example.org/docs

The latest version of {product} is {kiln-version}.
Use `GET /db/{name}/tx` with uid=\\{0}; and `{product}` in code.
See link:{docs-uri}/functions/#date[date([ input \\]), time] and
_xref:configuration/kiln-conf.adoc[kiln.conf]_ or
xref:procedures.adoc#list[`list(["a", "b"\\], "c")`] or
link:https://example.org/licensing/, or xref:a.adoc[`f("x", "y")`].

[source, shell, subs="attributes+"]
----
tar -xzf kiln-{kiln-version}.tar.gz # <1>
echo {product} $\\{HOME} <2> <3>
<config/> <!--4-->
----
<1> Unpacks the archive.
<2> Shows the product.

[source, shell, subs="-callouts"]
----
echo {product} <1>
----

Default: +++uid={0},ou={people}+++ at \\https://example.org/ldap
Log in as user:{PLAIN}pass, or see {release-notes}.
"""


def test_attribute_references_callouts_and_links_read_as_the_page_shows_them():
    text = lines_of(read_document(ATTRIBUTES.encode(), "install.adoc"))
    # defined: its value; defined nowhere in the file: its name as words, in code as typed
    assert text[5] == "The latest version of Kiln Server is kiln version."
    assert text[6] == "Use GET /db/{name}/tx with uid={0}; and Kiln Server in code."
    assert text[7] == "See date([ input ]), time and"
    assert text[8] == "kiln.conf or"
    assert text[9] == 'list(["a", "b"], "c") or'
    assert text[10] == 'https://example.org/licensing/, or f("x", "y").'
    # a listing with attributes in its subs: values replaced, unknown ones as typed, callouts gone
    assert text[14] == "tar -xzf kiln-{kiln-version}.tar.gz"
    assert text[15] == "echo Kiln Server ${HOME}"
    assert text[16] == "<config/>"
    assert text[18] == "Unpacks the archive." and text[19] == "Shows the product."
    assert text[23] == "echo {product} <1>"   # subs=-callouts, and no attributes: as typed
    assert text[26] == "Default: uid={0},ou={people} at https://example.org/ldap"   # a passthrough as typed
    assert text[27] == "Log in as user:{PLAIN}pass, or see release notes."   # glued: a placeholder
