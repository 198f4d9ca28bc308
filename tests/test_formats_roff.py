"""Manual pages in roff: `.TH` names the page, `.SH`/`.SS` make sections, requests and
escapes are not text, and every line stays in its place."""
from __future__ import annotations

import gzip

import pytest

from glean_personal.errors import SkipFile
from glean_personal.formats import read_document
from helpers.documents import lines_of

# A man(7) page in the style DocBook and help2man write (written for this test).
PAGE = r""".\" Title: kiln-fire
.TH "KILN\-FIRE" "1" "2026-01-01" "Kiln 1\&.0" "Kiln Manual"
.\" a comment
.de XX
.ft B
..
.SH "NAME"
kiln-fire \- Fire a kiln load to a cone
.SH "SYNOPSIS"
.sp
.nf
\fIkiln fire\fR [\-\-cone=<n>] [\-\-slow]
.fi
.SH "OPTIONS"
.PP
\fB\-\-slow\fR
.RS 4
Cool the kiln slowly, so the ware does not crack\&.
See
.BR kiln-load (1)
and \(lqglazes\(rq\(em or \*(Aqnot\*(Aq\&.
.RE
.SS "Cones"
.TS
tab(:);
l l.
Cone 06:Low fire
.TE
.IP "Note" 4
Keep the lid shut\e.
"""

MDOC = """.Dd January 1, 2026
.Dt KILN-LOAD 1
.Os
.Sh NAME
.Nm kiln-load
.Nd stack shelves in a kiln
.Sh SYNOPSIS
.Nm
.Op Fl v
.Ar shelf ...
.Sh DESCRIPTION
.Bl -tag -width Ds
.It Fl v
Say which shelf is loaded.
.El
"""


def test_a_man_page_reads_as_its_sections_and_words():
    doc = read_document(gzip.compress(PAGE.encode()), "kiln-fire.1.gz")
    assert doc.title == "kiln-fire(1)"
    assert [s.heading for s in doc.sections] == [
        ("kiln-fire(1)", "NAME"), ("kiln-fire(1)", "SYNOPSIS"), ("kiln-fire(1)", "OPTIONS"),
        ("kiln-fire(1)", "OPTIONS", "Cones")]
    text = lines_of(doc)
    assert text[8] == "kiln-fire - Fire a kiln load to a cone"
    assert text[12] == "kiln fire [--cone=<n>] [--slow]"
    assert text[16] == "--slow"
    assert text[18] == "Cool the kiln slowly, so the ware does not crack."
    assert text[20] == "kiln-load(1)"
    assert text[21] == "and \u201cglazes\u201d\u2014 or 'not'."
    assert text[27] == "Cone 06  Low fire"
    assert text[29] == "Note" and text[30] == "Keep the lid shut\\."
    whole = "\n".join(s.text for s in doc.sections)
    for junk in ("\\f", ".RS", ".PP", "comment", ".ft", "tab(:)", "l l.", "\\&"):
        assert junk not in whole, junk


def test_an_mdoc_page_too():
    doc = read_document(MDOC.encode(), "kiln-load.1")
    assert doc.title == "kiln-load(1)"
    assert [s.heading[-1] for s in doc.sections] == ["NAME", "SYNOPSIS", "DESCRIPTION"]
    text = lines_of(doc)
    assert text[5] == "kiln-load" and text[6] == "stack shelves in a kiln"
    assert text[9] == "-v" and text[13] == "-v" and text[14] == "Say which shelf is loaded."
    assert "-tag" not in doc.text


# Shaped as OpenSSH's pages are (sftp.1): the name given once in NAME, then `.Nm`
# alone wherever the text says the program's name, and `.Xr` for other pages.
MDOC_NAMED = """.Dd $Mdocdate: January 1 2026 $
.Dt KILN-LOAD 1
.Os
.Sh NAME
.Nm kiln-load
.Nd stack shelves in a kiln
.Sh DESCRIPTION
.Nm
is a loading program, similar to
.Xr kiln-fire 1 ,
which stacks every shelf
.Pq see Xr kiln.conf 5 .
Run
.Nm .
again after a firing.
"""


def test_an_mdoc_page_says_its_name_where_nm_stands_alone():
    doc = read_document(gzip.compress(MDOC_NAMED.encode()), "kiln-load.1.gz")
    text = lines_of(doc)
    assert text[8] == "kiln-load" and text[9] == "is a loading program, similar to"
    assert text[10] == "kiln-fire(1),"
    assert text[12] == "see kiln.conf(5)."
    assert text[14] == "kiln-load."
    assert "kiln-load is a loading program" in " ".join(doc.sections[-1].text.split())


def test_an_mdoc_name_is_a_word_not_a_delimiter():
    """`.Nm :` before the page's name gave no name, but made `:` the page's name, which
    every bare `.Nm` then showed (and `::` for `.Nm :` itself)."""
    page = MDOC_NAMED.replace(".Sh NAME\n", ".Sh NAME\n.Nm :\n.Nm\n", 1)
    doc = read_document(page.encode(), "kiln-load.1")
    text = lines_of(doc)
    assert text[5] == ":" and text[6] == "" and text[7] == "kiln-load"
    assert text[10] == "kiln-load" and text[16] == "kiln-load."   # `:` and `:.` before


# Shaped as Tcl's pages are: each carries Tcl's man.macros, whose `.QW` (a quoted word)
# and `.AP` (a C function's argument) print what they are given, while `.VS` (a change
# bar, its argument a version) and `.AS` (tab stops) print nothing of theirs.
TCL_PAGE = r""".TH Kiln_Load 3tcl 8.6 Tcl "Tcl Library Procedures"
.de AP
.ie !"\\$4"" .TP \\$4
.el \{\
.   ie !"\\$2"" .TP \\n()Cu
.   el          .TP 15
.\}
.ta \\n()Au \\n()Bu
.ie !"\\$3"" \{\
\&\\$1 \\fI\\$2\\fP (\\$3)
.\}
..
.de AS
.nr )A 10n
.if !"\\$1"" .nr )A \\w'\\$1'u+3n
..
.de VS
.if !"\\$2"" .br
.mk ^Y
.ie n 'mc \s12\(br\s0
.el .nr ^v 1u
..
.de QW
.ie '\\*(lq'"' ``\\$1''\\$2
.\"" fix emacs highlighting
.el \\*(lq\\$1\\*(rq\\$2
..
.SH NAME
Kiln_Load \- stack shelves in a kiln
.SH ARGUMENTS
.AS int shelves
.AP int shelves in
How many shelves to stack.
.SH DESCRIPTION
.VS 8.6
Returns the index of the
.QW shelf
where the stacking fails, or the
.QW top ),
whichever comes first.
"""


def test_a_page_s_own_macros_that_print_their_arguments_keep_them():
    doc = read_document(gzip.compress(TCL_PAGE.encode()), "Kiln_Load.3tcl.gz")
    assert doc.title == "Kiln_Load(3tcl)"
    assert [s.heading[-1] for s in doc.sections] == ["NAME", "ARGUMENTS", "DESCRIPTION"]
    arguments = " ".join(doc.sections[1].text.split())
    assert arguments == "int shelves in How many shelves to stack."
    description = " ".join(doc.sections[2].text.split())
    assert description == ("Returns the index of the shelf where the stacking fails, "
                           "or the top), whichever comes first.")
    assert "8.6" not in doc.sections[2].text


def test_text_that_mentions_roff_stays_plain():
    doc = read_document(b"Notes on .TH and .SH requests\n.SH is a heading in roff.\n", "notes.txt")
    assert doc.sections[0].heading == () and ".SH is a heading" in doc.text


def test_an_indented_macro_definition_ends_at_its_indented_end():
    src = '.TH MORE 1\n.if \\n[.g] \\{\\\n.  am URL\n.    ad l\n.  .\n.\\}\n.SH NAME\nmore \\- page through text\n'
    doc = read_document(src.encode(), "more.1")
    assert doc.title == "more(1)" and doc.text == "more - page through text"


def test_a_page_that_only_shows_another_is_skipped_with_its_target(tmp_path, open_ix):
    stub = b'.\\" queue.3 is queue(7) under another name\n.so man7/queue.7\n'
    with pytest.raises(SkipFile, match=r"only shows another \(man7/queue\.7\)"):
        read_document(gzip.compress(stub), "queue.3.gz")
    man = tmp_path / "man" / "man3"
    man.mkdir(parents=True)
    (man / "queue.3.gz").write_bytes(gzip.compress(stub))
    (man / "kiln-fire.1.gz").write_bytes(gzip.compress(PAGE.encode()))
    ix = open_ix()
    report = ix.index(tmp_path / "man")
    assert report.added == 1
    assert [s["reason"] for s in report.skipped] == [
        "a manual page that only shows another (man7/queue.7)"]


def test_a_note_that_mentions_so_is_still_read():
    doc = read_document(b".so this note is not roff\n", "notes.txt")
    assert "this note is not roff" in doc.text
    assert read_document(b".so what\n", "shrug.txt").text == ".so what"


def test_a_name_in_capitals_keeps_the_spelling_its_name_section_gives(tmp_path, open_ix):
    # `.TH` writes every name in capitals; git-rm is lowered, CURLOPT_TIMEOUT is not.
    page = (".TH CURLOPT_TIMEOUT 3 \"January 02, 2023\" \"libcurl 7.88.1\" \"options\"\n"
            ".SH NAME\nCURLOPT_TIMEOUT \\- maximum time the transfer is allowed to complete\n"
            ".SH DESCRIPTION\nPass a long as parameter containing timeout.\n")
    doc = read_document(gzip.compress(page.encode()), "CURLOPT_TIMEOUT.3.gz")
    assert doc.title == "CURLOPT_TIMEOUT(3)"
    assert [s.heading for s in doc.sections] == [
        ("CURLOPT_TIMEOUT(3)", "NAME"), ("CURLOPT_TIMEOUT(3)", "DESCRIPTION")]
    assert read_document(gzip.compress(PAGE.encode()), "kiln-fire.1.gz").title == "kiln-fire(1)"
    several = ".TH SSL_CTX_NEW 3ssl\n.SH NAME\nSSL_CTX_new, SSL_CTX_free \\- make a context\n"
    assert read_document(several.encode(), "SSL_CTX_new.3ssl").title == "SSL_CTX_new(3ssl)"
    other = ".TH PRINTF 3\n.SH NAME\nfprintf, printf \\- formatted output\n"
    assert read_document(other.encode(), "printf.3").title == "printf(3)"
    shouted = ".TH AS 1\n.SH NAME\nAS \\- the portable GNU assembler\n"
    assert read_document(shouted.encode(), "as.1").title == "as(1)"
    man = tmp_path / "man3"
    man.mkdir()
    (man / "CURLOPT_TIMEOUT.3.gz").write_bytes(gzip.compress(page.encode()))
    ix = open_ix()
    ix.index(man)
    hits = ix.search("maximum time transfer", limit=1).results
    assert hits and hits[0].title == "CURLOPT_TIMEOUT(3)"


# A link as DocBook XSL writes it in a man page (systemd's, git's): the link text in
# blue, then its note number raised; the address is listed under NOTES.
LINKED = r""".TH "KILN\-LOCK" "1" "" "kiln 1" "kiln-lock"
.SH "NAME"
kiln-lock \- Hold the kiln closed while it cools
.SH "DESCRIPTION"
.PP
For more information see the
\m[blue]\fBKiln Lock Documentation\fR\m[]\&\s-2\u[1]\d\s+2\&.
\M[yellow]\F[HB]Marked\F[]\M[] in the manual\&.
.SH "NOTES"
.IP " 1." 4
Kiln Lock Documentation
.RS 4
\%https://example.org/kiln-lock
.RE
"""


def test_colour_and_font_family_escapes_show_nothing():
    doc = read_document(LINKED.encode(), "kiln-lock.1")
    text = doc.sections[1].text
    assert "see the\nKiln Lock Documentation[1]." in text
    assert "Marked in the manual." in text
    assert "blue" not in doc.text and "yellow" not in doc.text and "[]" not in doc.text


# A table as DocBook XSL writes it in a man page (systemd.exec(5)'s limits): every cell
# a tbl text block, `T{` … `T}`, the cells of a row apart by `T}:T{`, and `.T&` giving
# new format lines for the rows below the header.
TABLE = r""".TH "KILN\&.EXEC" "5" "" "kiln 1" "kiln.exec"
.SH "LIMITS"
.TS
allbox tab(:);
lB lB.
T{
Directive
T}:T{
Meaning
T}
.T&
l l
l l.
T{
LimitHeat=
T}:T{
Highest cone the kiln may reach
T}
T{
LimitHours=
T}:T{
Longest firing, in hours
T}
.TE
"""


def test_a_tables_text_blocks_read_as_its_cells():
    doc = read_document(TABLE.encode(), "kiln.exec.5")
    text = doc.sections[0].text
    assert "T{" not in text and "T}" not in text and "l l" not in text
    rows = [" ".join(p.split()) for p in text.split("\n\n") if p.strip()]
    assert rows == ["Directive | Meaning", "LimitHeat= | Highest cone the kiln may reach",
                    "LimitHours= | Longest firing, in hours"]
