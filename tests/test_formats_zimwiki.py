"""Zim wiki pages (`.txt` files of a Zim notebook): the header left out, sections under
the `=` headings, the title from the page's own heading, the wiki's marks taken off."""
from __future__ import annotations

from glean_personal.formats import read_document
from helpers.cost import cpu_budget

# Written for this test in the shape of a page of Zim's manual (Plugins/Print_to_Browser.txt).
PAGE = """\
Content-Type: text/x-zim-wiki
Wiki-Format: zim 0.4
Creation-Date: 2026-03-01T10:00:00+01:00

====== Kettle Timer ======

This plugin rings when the **tea** has steeped. See [[Plugins:Tray Icon|the tray icon]]
and [[Help:Preferences]], or //https://example.org/kettle// for more.

{{./kettle.png?width=200}}

===== Options =====
The option **Steep minutes** sets the time; ''__default__'' (as written) is 4. //Italic// words stay.
'''
kettle --steep 4
'''

==== Keys ====
Press ''<Ctrl>T'' to start.
"""


def test_a_zim_page_reads_as_sections_under_its_headings():
    doc = read_document(PAGE.encode(), "Kettle_Timer.txt")
    assert doc.format == "txt" and doc.title == "Kettle Timer"
    assert [s.heading for s in doc.sections] == [(), ("Options",), ("Options", "Keys")]
    first = " ".join(doc.sections[0].text.split())
    assert first.startswith("This plugin rings when the tea has steeped. See the tray icon and Help:Preferences")
    assert "https://example.org/kettle" in first
    for junk in ("Content-Type", "x-zim-wiki", "Wiki-Format", "Creation-Date", "[[", "**", "{{", "kettle.png"):
        assert junk not in doc.text, junk
    options = doc.sections[1].text
    assert "The option Steep minutes sets the time; __default__ (as written) is 4. Italic words stay." in options
    assert "kettle --steep 4" in options and "'''" not in options
    assert "Press <Ctrl>T to start." in doc.sections[2].text


def test_a_text_that_only_mentions_zim_stays_plain():
    text = b"Notes\n\nContent-Type: text/x-zim-wiki is what a Zim page says first.\n====== Not a heading here ======\n"
    doc = read_document(text, "notes.txt")
    assert doc.title != "Not a heading here" and "Content-Type" in doc.text


def test_marks_never_closed_cost_linear_time():
    """A bold, italic or underline mark with no closing one was read from each mark to
    the line's end: six lines of 4,750 such marks took 5 CPU seconds, a 1 MB line hours;
    a `[[` or `{{` never closed 300 characters on (10 CPU seconds a megabyte of them)."""
    lines = [mark + "a " for mark in ("**", "//", "__", "~~", "''")]
    body = "\n\n".join([unit * 4_750 for unit in lines] + ["[[" * 9_900] * 10 + ["{{" * 9_900] * 10)
    page = ("Content-Type: text/x-zim-wiki\nWiki-Format: zim 0.4\n\n====== Marks ======\n\n"
            + body + "\n\n" + "**b " * 250_000 + "**end**\n\nlast **words** here\n")
    with cpu_budget(1.0):
        doc = read_document(page.encode(), "Marks.txt")
    assert doc.title == "Marks" and "last words here" in doc.text
    assert "**a **a" in doc.text and "//a //a" in doc.text   # left as written
    assert doc.text.count("**b ") == 250_000   # a line of a megabyte is no prose: as typed
