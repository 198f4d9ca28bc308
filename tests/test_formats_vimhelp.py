"""Vim help files (`doc/*.txt`) and the HTML Vim makes of them: sections under the
lines that head them, the help's tag marks taken off."""
from __future__ import annotations

from glean_personal.config import Limits
from glean_personal.formats import read_document
from helpers.cost import cpu_budget

# Written for this test in the style of a plugin's help file.
HELP = """\
*teapot.txt*\tBrew tea from the editor\t\tLast change: 2026 Mar 1

TEAPOT PLUGIN MANUAL

Teapot brews tea while you edit.  See |teapot-brewing| to start.

1. Brewing\t\t\t\t|teapot-brewing|
2. Options\t\t\t\t|teapot-options|

==============================================================================
1. Brewing\t\t\t\t\t*teapot-brewing* *E901*

:Brew {minutes}\t\t\t\t\t\t*:Brew*
\t\t\tStart the kettle and pour after {minutes}.  Example: >
\t\t\t\t:Brew 4
<
\t\t\tA second kettle waits for the first one.

------------------------------------------------------------------------------
Strong tea\t\t\t\t\t\t*teapot-strong*

Let it steep longer with 'teapotsteep'.

==============================================================================
*2.1*\tOptions

\t\t\t\t\t\t*'teapotsteep'* *'tps'*
'teapotsteep' 'tps'\tnumber (default 3)
\tMinutes the leaves steep.

 vim:tw=78:ts=8:noet:ft=help:norl:
"""


def test_a_help_file_reads_as_sections_under_its_headings():
    doc = read_document(HELP.encode(), "teapot.txt")
    assert doc.format == "txt" and doc.title == "teapot"
    assert [s.heading for s in doc.sections] == [
        (), ("1. Brewing",), ("1. Brewing", "Strong tea"), ("2.1 Options",)]
    brewing = doc.sections[1].text
    assert "Start the kettle and pour after {minutes}.  Example:" in brewing
    assert ":Brew 4" in brewing and "*" not in brewing and "|" not in brewing
    assert ">" not in doc.text and "<" not in doc.text   # the example's open and close marks
    assert "Let it steep longer with 'teapotsteep'." in doc.sections[2].text
    assert "'teapotsteep' 'tps'" in doc.sections[3].text
    assert "vim:" not in doc.text and "ft=help" not in doc.text
    assert "See teapot-brewing to start." in doc.sections[0].text


def test_the_html_vim_makes_of_a_help_file_reads_as_the_help_file():
    body = (HELP.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace("|teapot-brewing|", '|<A HREF="#teapot-brewing">teapot-brewing</A>|')
            .replace("*teapot-brewing*", '*<A NAME="teapot-brewing"></A><B>teapot-brewing</B>*'))
    page = ("<HTML><HEAD><TITLE>Vim documentation: teapot</TITLE></HEAD><BODY>"
            "<H1>Vim documentation: teapot</H1><A HREF=\"index.html\">main help file</A>"
            f"<HR><PRE>\n{body}</PRE></BODY></HTML>")
    doc = read_document(page.encode(), "teapot.html")
    assert doc.format == "html" and doc.title == "Vim documentation: teapot"
    assert [s.heading for s in doc.sections] == [
        (), ("1. Brewing",), ("1. Brewing", "Strong tea"), ("2.1 Options",)]
    assert "See teapot-brewing to start." in doc.sections[0].text
    assert "main help file" not in doc.text


def test_other_text_that_starts_with_a_starred_name_is_plain_text():
    # the help's first-line tag alone, with neither Vim nor the help modeline
    doc = read_document(b"*notes.txt* things to buy\n\n==========================\n"
                        b"Shopping\n\nmilk and tea\n", "notes.txt")
    assert [s.heading for s in doc.sections] == [()]
    assert "*notes.txt*" in doc.text


def test_a_page_titled_as_vim_s_that_is_not_a_help_file_reads_as_html():
    page = (b"<html><head><title>Vim documentation: tips</title></head><body>"
            b"<h1>Tips</h1><p>Use <b>*</b> to search the word under the cursor.</p></body></html>")
    doc = read_document(page, "tips.html")
    assert doc.sections[0].heading == ("Tips",)
    assert "Use * to search the word under the cursor." in doc.text


def test_hostile_help_lines_cost_linear_time():
    head = "*big.txt*\tFor Vim version 9.0\n"
    for body in ("*" * 200_000, "|a" * 100_000, ("=" * 30 + "\n" + "x" * 300 + "\n") * 5_000,
                 "> " * 100_000, ("*t*\t" * 20_000) + "\n",
                 # each `vi:` began a modeline search to the line's end (60 KB: 18 CPU s)
                 "vi:" * 20_000 + "\n"):
        with cpu_budget(1.0):
            doc = read_document((head + body).encode(), "big.txt", Limits())
        assert doc.text


def test_a_line_of_tags_alone_after_a_rule_leaves_the_next_line_to_head():
    # Tags on a line of their own above a heading (as plugins write them), indented
    # or not, are for `:help` (dropped as a heading's trailing tags are), not the heading.
    head = "*t.txt*\tFor Vim version 9.0\n\nIntro.\n\n" + "=" * 40 + "\n"
    for tags in ("\t\t\t\t*tag-a* *tag-b*", "*tag-a* *tag-b*"):
        doc = read_document((head + tags + "\nReal heading\n\nText one.\n").encode(), "t.txt")
        assert [s.heading for s in doc.sections] == [(), ("Real heading",)], tags
        assert doc.sections[1].text == "Text one."


def test_a_help_file_with_windows_line_ends_and_a_blank_first_line_is_a_help_file():
    text = "\n*t.txt*\tFor Vim version 9.0\n\nIntro.\n\n" + "=" * 40 + "\n1. Head\t*t-head*\n\nBody.\n"
    doc = read_document(text.replace("\n", "\r\n").encode(), "t.txt")
    assert [s.heading for s in doc.sections] == [(), ("1. Head",)]


def test_a_plugin_help_file_longer_than_the_sniffed_head_is_known_by_its_last_modeline():
    # no *Vim* on the first line, and the modeline past the first 64 KB
    text = ("*teapot.txt*\tBrew tea from the editor\n\n" + "Teapot brews tea.\n" * 5_000
            + "=" * 40 + "\n1. Brewing\t*teapot-brewing*\n\nSteep it.\n\n vim:tw=78:ft=help:norl:\n")
    doc = read_document(text.encode(), "teapot.txt")
    assert doc.title == "teapot" and doc.sections[-1].heading == ("1. Brewing",)


def test_a_long_line_after_a_rule_is_text_and_a_heading_is_cut():
    head = "*t.txt*\tFor Vim version 9.0\n\nIntro.\n\n"
    rule = "=" * 40 + "\n"
    doc = read_document((head + rule + "word " * 50 + "\n\nText.\n").encode(), "t.txt")
    assert [s.heading for s in doc.sections] == [()]   # 250 characters: a paragraph
    doc = read_document((head + rule + "words " * 30 + "\n\nText.\n").encode(), "t.txt")
    assert len(doc.sections[1].heading[0]) == 100   # 180 characters: a heading, cut at 100
