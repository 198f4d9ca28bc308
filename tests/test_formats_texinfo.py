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
