"""HTML pages whose layout hides what their words are: a manual page formatted as
text inside a `<pre>` (Postfix's HTML man pages, man2html's), and a reference's small
tables of a header row over one row of values (rsyslog's parameter tables)."""
from __future__ import annotations

from glean_personal.formats import read_document

# -- a manual page formatted by nroff, in a <pre> -----------------------------------
MAN_PAGE = """<!doctype html public "-//W3C//DTD HTML 4.01 Transitional//EN">
<html> <head>
<meta http-equiv="Content-Type" content="text/html; charset=utf-8">
<title> Kettle manual - kettlectl(1) </title>
</head> <body> <pre>
KETTLECTL(1)                                                      KETTLECTL(1)

<b>NAME</b>
       kettlectl - Kettle boil queue control

<b>SYNOPSIS</b>
   <b>To empty the boil queue</b>:

       <b>kettlectl</b> [<b>-v</b>] <b>-f</b>

<b>DESCRIPTION</b>
       The  <a href="kettlectl.1.html"><b>kettlectl</b>(1)</a>  command  implements  the  kettle  user  interface  for
       boil  management.  See the <a href="kettlesuper.1.html"><b>kettlesuper</b>(1)</a> command for operations
       that require the owner's privileges such as  delet-
       ing a brew from the queue or changing the temper-
       ature of a brew. It works with the built-in
       timer; the built-
       in timer cannot be turned off. Each object is
       followed by a new-
       line character.

       <b>-f</b>     Flush the queue: attempt to boil all queued water.

<b>Queue</b> <b>listing</b>
       Lines in the DE-
       SCALING state are shown last.

<b>NAME=VALUE OVERRIDES</b>
       Settings given on the command line.

<b>SEE ALSO</b>
       <a href="kettlesuper.1.html">kettlesuper(1)</a>, queue maintenance

                                                                  KETTLECTL(1)
</pre> </body> </html>"""


def _sections(doc):
    return {s.heading: s.text for s in doc.sections}


def test_a_manual_page_in_pre_has_its_split_words_joined():
    # Only the words nroff split at a line's end change: cut into sections under
    # their names, such pages ranked worse (a generic heading in every passage).
    doc = read_document(MAN_PAGE.encode(), "kettlectl.1.html")
    assert doc.title == "Kettle manual - kettlectl(1)"
    assert [s.heading for s in doc.sections] == [()]
    text = doc.text
    assert "such as  deleting\n" in text and "delet-" not in text
    assert "a newline\n" in text and "new-" not in text   # a line that was only the word's end goes
    assert "the built-in\n" in text                     # written with its hyphen elsewhere: kept
    assert "DESCRIPTION" in text and "SEE ALSO" in text  # section names stay as text


def test_other_pre_blocks_stay_as_they_are():
    # Text at the margin that is not a section name: a listing, not a manual page.
    listing = MAN_PAGE.replace("<b>SEE ALSO</b>", "see the end.")
    doc = read_document(listing.encode(), "kettlectl.1.html")
    assert [s.heading for s in doc.sections] == [()]
    assert "delet-\n       ing" in doc.text
    # One section name is not a manual page either.
    code = b"<html><body><pre>NAME\n    x = 1\nfree-\n  form</pre></body></html>"
    assert read_document(code, "a.html").sections[0].text == "NAME\n    x = 1\nfree-\n  form"


def _index_page(tmp_path, open_ix, name: str, html: str):
    """An index of one folder holding one page."""
    root = tmp_path / "pages"
    root.mkdir()
    (root / name).write_text(html, encoding="utf-8")
    ix = open_ix()
    ix.index(root)
    return ix


def test_indexed_manual_page_is_found_by_a_joined_word(tmp_path, open_ix):
    ix = _index_page(tmp_path, open_ix, "kettlectl.1.html", MAN_PAGE)
    hit = ix.search("deleting a brew").results[0]
    assert hit.document["path"] == "kettlectl.1.html"
    assert "deleting" in hit.passage_text


# -- a small table of a header row and one or a few rows ------------------------------
PARAMETERS = """<!DOCTYPE html><html><head><title>imkettle: Kettle Input Module</title></head>
<body><div class="document"><div class="body" role="main"><section id="m">
<h1>imkettle: Kettle Input Module</h1>
<section id="mode"><h4>Mode</h4>
<table class="parameter-table docutils align-default">
<thead><tr class="row-odd"><th class="head"><p>type</p></th>
<th class="head"><p>default</p></th>
<th class="head"><p>mandatory</p></th>
<th class="head"><p><code class="docutils literal notranslate"><span class="pre">obsolete</span>
<span class="pre">legacy</span></code> directive</p></th></tr></thead>
<tbody><tr class="row-even"><td><p>word</p></td><td><p>inotify</p></td><td><p>no</p></td>
<td><p>none</p></td></tr></tbody></table>
<p>This specifies whether the kettle is watched or polled.</p>
</section>
<section id="levels"><h4>Levels</h4>
<table><tr><th>level</th><th>meaning</th></tr>
<tr><td>1</td><td>simmer</td></tr><tr><td>2</td><td></td></tr></table>
</section>
<section id="long"><h4>Temperatures</h4>
<table><tr><th>tea</th><th>degrees</th></tr><tr><td>green</td><td>80</td></tr>
<tr><td>oolong</td><td>90</td></tr><tr><td>black</td><td>95</td></tr>
<tr><td>herbal</td><td>100</td></tr></table>
<table><tr><th>a</th><td>one</td></tr><tr><th>b</th><td>two</td></tr></table>
</section></section></div></div></body></html>"""


def test_a_header_row_over_a_few_rows_reads_as_name_value_pairs():
    body = _sections(read_document(PARAMETERS.encode(), "imkettle.html"))
    mode = body[("imkettle: Kettle Input Module", "Mode")]
    assert mode.startswith("type: word; default: inotify; mandatory: no; obsolete legacy directive: none\n\n")
    # An empty cell is left out; each row is a paragraph.
    assert body[("imkettle: Kettle Input Module", "Levels")] == "level: 1; meaning: simmer\n\nlevel: 2"


def test_longer_tables_and_tables_without_a_header_row_keep_their_rows():
    temps = _sections(read_document(PARAMETERS.encode(), "imkettle.html"))[
        ("imkettle: Kettle Input Module", "Temperatures")]
    assert temps == ("tea | degrees\n\ngreen | 80\n\noolong | 90\n\nblack | 95\n\nherbal | 100"
                     "\n\na | one\n\nb | two")


def test_indexed_parameter_table_says_what_each_value_is(tmp_path, open_ix):
    ix = _index_page(tmp_path, open_ix, "imkettle.html", PARAMETERS)
    hit = ix.search("default inotify").results[0]
    assert "default: inotify" in hit.passage_text
    assert "type\n\ndefault" not in hit.passage_text
