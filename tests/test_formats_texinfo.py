"""Texinfo sources (`.texi`): sections from sectioning commands, text as Info shows it."""
from __future__ import annotations

import re

from glean_personal.config import Limits
from glean_personal.formats import read_document
from helpers.cost import cpu_budget

# Written for this test in the style of a GNU or Emacs package manual (Magit's,
# say): a header, a title page, menus, index entries, a definition, a table of
# keys, an example, conditionals for other outputs, cross references.
MANUAL = """\\input texinfo    @c -*- texinfo -*-
@c %**start of header
@setfilename tea.info
@settitle Tea Maker Manual
@set VERSION 2.1
@c %**end of header

@copying
Copyright (C) 2026 A. Person <a@@example.org>
@end copying

@titlepage
@title Tea Maker Manual
@subtitle for version @value{VERSION}
@end titlepage

@ifnottex
@node Top
@top Tea Maker Manual

This manual is for Tea Maker version @value{VERSION}.
@end ifnottex

@menu
* Brewing::
* Cleaning::
@end menu

@node Brewing
@chapter Brewing
@cindex steeping

To brew a pot, type @kbd{C-c b} (@code{tea-brew}).  @xref{Cleaning}, for
what to do after; also see @ref{Kettles,,Boiling water,emacs,The Emacs Manual}.

@deffn Command tea-brew &optional strength
@kindex C-c b
@findex tea-brew
This command brews tea@dots{} with @var{strength} spoons.
@end deffn

@defopt tea-default-strength
The strength used when none is given.  Visit @uref{https://example.org/tea, the tea site}.
@end defopt

@table @asis
@item @kbd{C-c s} (@code{tea-stop})
Stop brewing.
@end table

@lisp
(setq tea-default-strength 3) ; @r{three spoons}
@end lisp

@iftex
This paragraph is for the printed manual only.
@end iftex
@ifhtml
@html
<a href="x">only on the web</a>
@end html
@end ifhtml

@node Cleaning
@section Cleaning the pot
@anchor{descaling}

Descale with vinegar @emph{once a month}; caf@'e owners weekly.
Keep @{braces@} and @@ signs.

@ignore
Nobody reads this.
@end ignore

@printindex cp
@bye
Local variables after the end.
"""


def test_a_texinfo_manual_reads_as_its_info_build_shows_it():
    doc = read_document(MANUAL.encode(), "tea.texi")
    assert doc.format == "texinfo"
    assert doc.title == "Tea Maker Manual"
    assert [" › ".join(s.heading) for s in doc.sections] == [
        "Tea Maker Manual", "Brewing", "Brewing › Cleaning the pot"]
    text = doc.text
    for words in ("This manual is for Tea Maker version 2.1.",
                  "To brew a pot, type C-c b (tea-brew).  See Cleaning, for",
                  "also see Boiling water in The Emacs Manual.",
                  "Command: tea-brew &optional strength",
                  "This command brews tea… with strength spoons.",
                  "User Option: tea-default-strength", "Visit the tea site.",
                  "C-c s (tea-stop)\nStop brewing.",
                  "(setq tea-default-strength 3) ; three spoons",
                  "Descale with vinegar once a month; café owners weekly.",
                  "Keep {braces} and @ signs."):
        assert words in text, words
    assert not re.search(r"@\w", text), re.search(r"@\w", text)
    for junk in ("texinfo", "Copyright", "subtitle", "Brewing::", "steeping", "kindex",
                 "printed manual", "only on the web", "descaling", "Nobody", "Local variables",
                 "setfilename", "%**"):
        assert junk not in text, junk


def test_texinfo_lines_keep_their_place():
    doc = read_document(MANUAL.encode(), "tea.texi")
    lines = MANUAL.split("\n")
    brewing = next(s for s in doc.sections if s.heading == ("Brewing",))
    first = brewing.text.split("\n")[0]
    assert first.startswith("To brew a pot")
    assert lines[brewing.first_line - 1].startswith("To brew a pot")


def test_a_brace_left_open_keeps_its_words_and_hostile_lines_cost_linear_time():
    doc = read_document(b"@chapter One\n@emph{words over\ntwo lines} stay.\n", "a.texi")
    assert doc.text == "words over\ntwo lines stay."
    for line in ("@code{" * 20_000, "@" * 40_000 + "x", "@c" + " " * 40_000 + "x",
                 "@end " + " " * 40_000 + "x", "@deffn " + "{" * 20_000 + "x"):
        data = ("@chapter One\n" + line + "\n\nend words\n").encode()
        with cpu_budget(1.0):
            assert "end words" in read_document(data, "a.texi", Limits()).text
    blocks = ("@example\n" * 20_000 + "@end example\n" * 20_000 + "end words\n").encode()
    with cpu_budget(1.0):
        assert "end words" in read_document(blocks, "a.texi", Limits()).text


# An Info file as makeinfo 6.8 writes one (in the style of Debian's
# /usr/share/info/grep.info.gz): preamble, node headers, titles underlined by
# level, a menu, cross references, an index node with its NUL-bearing marker,
# an image, the tag table.
INFO = (
    "This is tea.info, produced by makeinfo version 6.8 from tea.texi.\n"
    "\n"
    "This manual is for Tea Maker.\n"
    "INFO-DIR-SECTION Kitchen\n"
    "START-INFO-DIR-ENTRY\n"
    "* tea: (tea).   Brew tea.\n"
    "END-INFO-DIR-ENTRY\n"
    "\n"
    "\x1f\n"
    "File: tea.info,  Node: Top,  Next: Brewing,  Up: (dir)\n"
    "\n"
    "Tea Maker\n"
    "*********\n"
    "\n"
    "‘tea’ brews tea.\n"
    "\n"
    "* Menu:\n"
    "\n"
    "* Brewing::          How to brew.\n"
    "\n"
    "\x1f\n"
    "File: tea.info,  Node: Brewing,  Next: Index,  Prev: Top,  Up: Top\n"
    "\n"
    "1 Brewing\n"
    "*********\n"
    "\n"
    "Run ‘tea-brew’.  *Note Cleaning the pot: Cleaning, for what follows;\n"
    "the steeping time (*note Steeping\n"
    "Times::) depends on the leaves.\n"
    "\n"
    "\x00\x08[image src=\"pot.png\" alt=\"A teapot\"\x00\x08]\n"
    "\n"
    "1.1 Cleaning\n"
    "============\n"
    "\n"
    "Descale monthly.\n"
    "\n"
    "\x1f\n"
    "File: tea.info,  Node: Index,  Prev: Brewing,  Up: Top\n"
    "\n"
    "Index\n"
    "*****\n"
    "\n"
    "\x00\x08[index\x00\x08]\n"
    "* Menu:\n"
    "\n"
    "* descaling:                            Cleaning.             (line 6)\n"
    "\n"
    "\x1f\n"
    "Tag Table:\n"
    "Node: Top\x7f220\n"
    "\x1f\n"
    "End Tag Table\n"
    "\n"
    "\x1f\n"
    "Local Variables:\n"
    "coding: utf-8\n"
    "End:\n")


def test_an_info_file_with_an_index_is_read_as_info_shows_it():
    data = INFO.encode()
    assert b"\x00" in data
    for name in ("tea.info", "tea.info-1"):   # a whole manual, or one part of a split one
        doc = read_document(data, name)
        assert doc.format == "info" and doc.title == "Tea Maker"
        assert [" › ".join(s.heading) for s in doc.sections] == [
            "Tea Maker", "1 Brewing", "1 Brewing › 1.1 Cleaning", "Index"]
        text = doc.text
        for words in ("‘tea’ brews tea.", "See Cleaning the pot, for what follows;",
                      "the steeping time (Steeping\nTimes) depends on the leaves.", "A teapot",
                      "Descale monthly."):
            assert words in text, words
        for junk in ("makeinfo", "This manual is for", "INFO-DIR", "File:", "Node:", "Menu",
                     "How to brew", "*note", "*Note", "pot.png", "descaling", "Tag Table", "coding",
                     "\x1f", "\x00", "\x08"):
            assert junk not in text, junk
    plain = INFO.replace("\x00\x08[index\x00\x08]\n", "").replace("\x00\x08[image src=\"pot.png\" alt=\"A teapot\"\x00\x08]", "")
    assert read_document(plain.encode(), "tea-1").sections[1].heading == ("1 Brewing",)   # old split style
    brewing = read_document(data, "tea.info").sections[1]
    assert INFO.split("\n")[brewing.first_line - 1].startswith("Run ‘tea-brew’.")


def test_info_references_over_many_lines_cost_linear_time():
    notes = "\x1f\nFile: a.info,  Node: Top,  Up: (dir)\n\nA\n*\n\n" + "*note a\n" * 30_000 + "\nend words\n"
    with cpu_budget(1.0):
        assert "end words" in read_document(notes.encode(), "a.info", Limits()).text
    markers = b"\x1f\nFile: a.info,  Node: Top\n\n" + b"\x00\x08[image" * 40_000 + b"\nend words\n"
    with cpu_budget(1.0):
        assert "end words" in read_document(markers, "a.info", Limits()).text


def test_a_texinfo_file_without_settitle_is_titled_by_its_chapter_else_its_name():
    chapter = b"@node Files\n@chapter File Handling\n@section Visiting\nOpen a file.\n"
    assert read_document(chapter, "files.texi").title == "File Handling"
    fragment = b"@c included by the manual\n@appendixsubsec ADDENDUM\nUse this license.\n"
    assert read_document(fragment, "fdl-1.3.texi").title == "fdl-1.3"


def test_a_dot_info_file_that_is_no_info_manual_is_plain_text():
    doc = read_document(b"name = Views\ndescription = Create lists of content.\ncore = 7.x\n", "views.info")
    assert "Create lists of content." in doc.text
