"""HTML: visible words only, sections from h1-h6, no glued tokens, no crashes."""
from __future__ import annotations

from pathlib import Path

import pytest

from glean_personal.errors import SkipFile
from glean_personal.formats import read_document
from helpers.cost import cpu_budget

CORPUS = Path(__file__).parent / "data" / "corpus" / "markitdown"

PAGE = b"""<!doctype html>
<html><head><title>Repair &amp; Reuse</title>
<style>body { color: red }</style>
<script>var hidden = "scriptword";</script>
</head>
<body>
<noscript>noscriptword</noscript><template><p>templateword</p></template>
<p>Intro&nbsp;paragraph with &eacute;l&egrave;ve and &#8212; dash.</p>
<h1>Brakes</h1>
<p>end</p><p>start</p>
<ul><li>pads</li><li>cables</li></ul>
<h2>Rim brakes</h2>
<table><tr><th>Part</th><th>Cost</th></tr><tr><td>Pads</td><td>4.50</td></tr></table>
<pre>line one
    indented line</pre>
<h2>Disc brakes</h2>
<div>Rotor<br>Caliper</div>
<h1>Gears</h1>
<p>Derailleur   hanger
   alignment.</p>
</body></html>"""


def _sections(data: bytes, name: str = "page.html"):
    doc = read_document(data, name)
    return doc, {s.heading: s.text for s in doc.sections}


def test_title_sections_and_dropped_bodies():
    doc, body = _sections(PAGE)
    assert doc.title == "Repair & Reuse"
    assert doc.format == "html"
    assert list(body) == [(), ("Brakes",), ("Brakes", "Rim brakes"), ("Brakes", "Disc brakes"),
                          ("Gears",)]
    for hidden in ("scriptword", "noscriptword", "templateword", "color: red"):
        assert hidden not in doc.text


def test_blocks_separate_words_and_paragraphs():
    doc, body = _sections(PAGE)
    assert "endstart" not in doc.text
    assert body[("Brakes",)] == "end\n\nstart\n\npads\n\ncables"
    assert body[("Brakes", "Disc brakes")] == "Rotor\nCaliper"
    assert body[("Gears",)] == "Derailleur hanger alignment."


def test_entities_tables_and_pre():
    doc, body = _sections(PAGE)
    assert body[()] == "Intro paragraph with élève and — dash."
    rim = body[("Brakes", "Rim brakes")]
    assert "Part | Cost\n\nPads | 4.50" in rim
    assert "line one\n    indented line" in rim


def test_first_h1_is_title_without_title_tag():
    doc, _ = _sections(b"<h2>Minor</h2><p>x</p><h1>Main  topic</h1><p>y</p>")
    assert doc.title == "Main topic"


def test_stem_title_when_nothing_else():
    doc, _ = _sections(b"<p>just text</p>", "folder/guide.htm")
    assert doc.title == "guide"
    assert doc.format == "html"


def test_unclosed_script_drops_rest_of_file():
    doc, _ = _sections(b"<p>visible</p><script>var secret = 1; <p>gone")
    assert doc.text == "visible"


def test_unclosed_noscript_drops_rest_of_file():
    doc, _ = _sections(b"<p>visible</p><noscript><p>gone</p>")
    assert doc.text == "visible"


def test_inline_menu_links_are_separate_words():
    doc, _ = _sections(b"<nav><a href=1>Docs</a><a href=2>API</a></nav>")
    assert "DocsAPI" not in doc.text
    assert doc.text.split() == ["Docs", "API"]


def test_meta_charset_is_honoured():
    html = '<html><head><meta charset="windows-1252"><title>Caf\u00e9</title></head><body>na\u00efve</body></html>'
    doc, _ = _sections(html.encode("cp1252"))
    assert doc.title == "Café"
    assert doc.text == "naïve"


def test_http_equiv_charset():
    html = ('<meta http-equiv="Content-Type" content="text/html; charset=ISO-8859-1">'
            "<p>\u00e9t\u00e9</p>")
    doc, _ = _sections(html.encode("latin-1"))
    assert doc.text == "été"


def test_utf8_without_declaration_and_cp1252_fallback():
    assert _sections("<p>Grüße</p>".encode("utf-8"))[0].text == "Grüße"
    assert _sections("<p>Grüße</p>".encode("cp1252"))[0].text == "Grüße"


def test_utf16_with_bom():
    doc, _ = _sections("\ufeff<title>T</title><p>wide text</p>".encode("utf-16-le"))
    assert doc.title == "T"
    assert doc.text == "wide text"


def test_deep_nesting_is_flat_work():
    depth = 100_000
    data = b"<div>" * depth + b"<h2>Deep</h2><p>bottom</p>" + b"</div>" * depth
    doc, body = _sections(data)
    assert body[("Deep",)] == "bottom"


def test_many_unclosed_headings_do_not_grow_without_bound():
    data = b"".join(b"<h%d>h%d" % (1 + i % 6, i) for i in range(5000)) + b"<p>end</p>"
    doc = read_document(data, "h.html")
    assert all(len(s.heading) <= 6 for s in doc.sections)


def test_no_text_is_skipped():
    with pytest.raises(SkipFile, match="no extractable text"):
        read_document(b"<html><head><script>x()</script></head><body> </body></html>", "e.html")


@pytest.mark.parametrize("data", [
    b"<![if !supportLists]>x<![endif]>",
    b"<!DOCTYPE html><![CDATA[ odd ]]><p>ok</p>",
    b"<a href='x'" * 1000,
    b"</" * 1000,
    b"<p>\x00</p>",
    b"<svg><style>x</style><title>t</title></svg>",
])
def test_odd_markup_never_raises_anything_but_skipfile(data):
    try:
        read_document(data, "odd.html")
    except SkipFile:
        pass


def test_markitdown_blog_page():
    doc = read_document((CORPUS / "test_blog.html").read_bytes(), "test_blog.html")
    assert doc.title.startswith("Does Model and Inference Parameter Matter in LLM Applications?")
    headings = [s.heading[-1] for s in doc.sections if s.heading]
    assert any(h.startswith("Experiment Setup") for h in headings)
    assert "the baseline accuracy of untuned gpt-4 can be improved by 20%" in doc.text
    assert "AutoGen Docs API Blog" in doc.text        # nav links not glued
    assert "function(" not in doc.text


def test_markitdown_wikipedia_page():
    doc = read_document((CORPUS / "test_wikipedia.html").read_bytes(), "test_wikipedia.html")
    assert doc.title == "Microsoft - Wikipedia"
    paths = [s.heading for s in doc.sections]
    assert ("Microsoft", "History", "1972–1985: Founding") in paths
    founding = next(s.text for s in doc.sections if s.heading[-1:] == ("1972–1985: Founding",))
    assert "Bill Gates" in founding and "Paul Allen" in founding
    assert "The Vanguard Group | 8.9%" in doc.text


@pytest.mark.parametrize("data", [
    b"<a x" * 100_000,                       # tags that never close
    b"<" * 300_000 + b">",                   # a lone ">" at the end
    b"<!-- " * 100_000 + b">",               # comments that never close
    b"<![CDATA[" * 50_000 + b">",
    b"<p>w" * 100_000,
], ids=["unclosed-tags", "lone-gt", "unclosed-comments", "unclosed-cdata", "many-paragraphs"])
def test_pathological_html_is_linear(data):
    with cpu_budget(3.0):   # a quadratic scan of these takes minutes
        try:
            read_document(data, "p.html")
        except SkipFile:
            pass


def test_comments_and_word_conditionals_leave_no_text():
    data = (b"<p>a<!-- hidden --> b</p><![if !supportLists]>1.<![endif]><p>c<!-- unclosed")
    doc = read_document(data, "c.html")
    assert "hidden" not in doc.text and "supportLists" not in doc.text
    assert doc.text.startswith("a b\n\n1.\n\nc")


def test_whitespace_runs_become_one_space_whatever_the_characters():
    # The reader skips its regex for text with no whitespace but lone spaces;
    # every other whitespace character must still take the regex path.
    import random
    import re
    import sys

    from glean_personal.formats.htmltext import _squeeze

    spaces = [chr(c) for c in range(sys.maxunicode + 1) if chr(c).isspace()]
    pieces = spaces + ["  ", "word", "é", "\x00", "-"]
    rng = random.Random(7)
    samples = ["".join(rng.choice(pieces) for _ in range(rng.randint(0, 8))) for _ in range(20_000)]
    samples += [f"a{s}b" for s in spaces]
    for text in samples:
        assert _squeeze(text) == re.sub(r"\s+", " ", text), repr(text)
