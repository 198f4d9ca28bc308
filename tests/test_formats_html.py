"""HTML: visible words only, sections from h1-h6, no glued tokens, no crashes."""
from __future__ import annotations

from pathlib import Path

import pytest

from glean_personal.errors import SkipFile
from glean_personal.formats import extract, read_document
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
    assert "Part: Pads; Cost: 4.50" in rim   # a header row and one row: name-value pairs
    assert "line one\n    indented line" in rim


def test_crlf_line_endings_leave_no_carriage_return():
    # Git's HTML manual pages are written with CRLF: their <pre> blocks kept a CR
    # at the end of every line (in snippets and in --json).
    crlf = PAGE.replace(b"\n", b"\r\n")
    doc, body = _sections(crlf)
    assert "\r" not in doc.text and "\r" not in doc.title
    assert body == _sections(PAGE)[1]
    lone_cr, _ = _sections(b"<h1>T</h1><pre>one\rtwo</pre>")
    assert lone_cr.sections[-1].text == "one\ntwo"
    front, _ = _sections(b"---\r\ntitle: Front\r\n---\r\n<p>body</p>")
    assert front.title == "Front" and "title:" not in front.text


def test_first_h1_is_title_without_title_tag():
    doc, _ = _sections(b"<h2>Minor</h2><p>x</p><h1>Main  topic</h1><p>y</p>")
    assert doc.title == "Main topic"


@pytest.mark.parametrize("title, h1, expected", [
    # a generator's title: the page's heading, then the site's name and version
    ("What\u2019s New In Python 3.11 \u2014 Python 3.11.2 documentation",
     "What\u2019s New In Python 3.11", "What\u2019s New In Python 3.11"),
    ("Models | Django documentation | Django", "Models", "Models"),
    ("Overview \u2014 NumPy v1.26 Manual", "Overview", "Overview"),
    # what follows the heading is the page's own: a subtitle, or no site's name
    ("git-reset - Reset current HEAD to the specified state", "git-reset",
     "git-reset - Reset current HEAD to the specified state"),
    ("Getting Started - MkDocs", "Getting Started", "Getting Started - MkDocs"),
    ("Python documentation", "Python", "Python documentation"),
])
def test_a_site_name_after_the_heading_is_not_the_title(title, h1, expected):
    page = f"<html><head><title>{title}</title></head><body><h1>{h1}</h1><p>text</p></body></html>"
    doc, _ = _sections(page.encode())
    assert doc.title == expected


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


def test_xml_declaration_charset_of_an_xhtml_page():
    page = ('<?xml version="1.0" encoding="Shift_JIS"?>\n<html xmlns="http://www.w3.org/1999/xhtml">'
            "<head><title>東京</title></head><body><p>東京の話</p></body></html>")
    doc, _ = _sections(page.encode("shift_jis"))
    assert doc.title == "東京" and doc.text == "東京の話"


def test_a_meta_charset_wins_over_the_xml_declaration():
    page = ('<?xml version="1.0" encoding="Shift_JIS"?><html><head><meta charset="utf-8">'
            "<title>x</title></head><body><p>été</p></body></html>")
    doc, _ = _sections(page.encode("utf-8"))
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
    # The post is the page's <article>: the site's navbar, sidebar and footer are frame.
    assert "AutoGen Docs API Blog" not in doc.text and "Recent posts" not in doc.text
    assert "Copyright" not in doc.text
    assert "function(" not in doc.text


def test_markitdown_wikipedia_page():
    doc = read_document((CORPUS / "test_wikipedia.html").read_bytes(), "test_wikipedia.html")
    assert doc.title == "Microsoft - Wikipedia"
    paths = [s.heading for s in doc.sections]
    # MediaWiki's #bodyContent is the article; the language menu and navboxes are left out.
    assert ("History", "1972–1985: Founding") in paths
    assert "Afrikaans" not in doc.text
    founding = next(s.text for s in doc.sections if s.heading[-1:] == ("1972–1985: Founding",))
    assert "Bill Gates" in founding and "Paul Allen" in founding
    assert "The Vanguard Group | 8.9%" in doc.text


@pytest.mark.parametrize("data", [
    b"<a x" * 100_000,                       # tags that never close
    b"<" * 300_000 + b">",                   # a lone ">" at the end
    b"<!-- " * 100_000 + b">",               # comments that never close
    b"<![CDATA[" * 50_000 + b">",
    b"<p>w" * 50_000,                        # (about 1 CPU s: each is a section's paragraph)
], ids=["unclosed-tags", "lone-gt", "unclosed-comments", "unclosed-cdata", "many-paragraphs"])
def test_pathological_html_is_linear(data):
    with cpu_budget(3.0):   # a quadratic scan of these takes minutes; none needs over 1.1 s
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


# -- the page's content, not its frame ------------------------------------------
def _page(body: str, head: str = "<title>T</title>") -> bytes:
    return f"<!doctype html><html><head>{head}</head><body>{body}</body></html>".encode()


SPHINX = _page("""
<div class="related" role="navigation"><h3>Navigation</h3><ul><li><a href="genindex.html">index</a></li></ul></div>
<div class="document"><div class="documentwrapper"><div class="bodywrapper">
<div class="body" role="main">
<section id="csv"><h1>csv — CSV files<a class="headerlink" href="#csv" title="Permalink">¶</a></h1>
<p>Read and write tabular data.</p>
<h2>Reader objects<a class="headerlink" href="#r">¶</a></h2><p>Rows come back as lists.</p>
</section></div></div></div>
<div class="sphinxsidebar" role="navigation"><h3>Table of Contents</h3><ul><li>csv</li></ul>
<h4>Previous topic</h4><p>File Formats</p></div></div>
<div class="footer">© Copyright 2001 Python Software Foundation.</div>
""")


def test_sphinx_page_is_read_as_its_body():
    doc, body = _sections(SPHINX)
    assert list(body) == [("csv — CSV files",), ("csv — CSV files", "Reader objects")]
    assert body[("csv — CSV files",)] == "Read and write tabular data."
    for frame in ("Navigation", "Table of Contents", "Previous topic", "File Formats",
                  "Copyright", "¶", "index"):
        assert frame not in doc.text and all(frame not in h for s in body for h in s)
    assert doc.title == "T"


@pytest.mark.parametrize("body", [
    # MkDocs Material
    '<header class="md-header"><nav>Site Search</nav></header><main class="md-main">'
    '<div class="md-sidebar"><nav class="md-nav">Sidebar links</nav></div>'
    '<div class="md-content"><article class="md-content__inner"><h1>Guide</h1><p>The words.</p>'
    '</article></div></main><footer class="md-footer">Made with Material</footer>',
    # Docusaurus: the title sits in a <header> inside the article
    '<nav class="navbar">Docs Blog</nav><div class="main-wrapper"><aside>Sidebar links</aside>'
    '<main><div class="theme-doc-markdown markdown"><header><h1>Guide</h1></header>'
    '<p>The words.</p></div><nav class="pagination-nav">Next Previous</nav></main></div>'
    '<footer class="footer">Copyright Site</footer>',
    # rustdoc
    '<nav class="sidebar">Sidebar links</nav><main><div class="width-limiter">'
    '<section id="main-content" class="content"><h1>Guide<a class="anchor" href="#g">§</a></h1>'
    '<p>The words.</p></section></div></main>',
    # GitHub-style rendered Markdown
    '<div class="site-header" role="banner">Site Search</div>'
    '<article class="markdown-body"><h1><a class="anchor" href="#guide"></a>Guide</h1>'
    '<p>The words.</p></article><div role="contentinfo">Copyright Site</div>',
    # javadoc and Doxygen
    '<div class="topNav">Site</div><div class="contentContainer"><h1>Guide</h1><p>The words.</p></div>'
    '<div class="bottomNav" role="navigation">Sidebar links</div>',
    '<div id="top"><div id="navrow1" class="tabs">Site Search</div></div>'
    '<div class="contents"><h1>Guide</h1><p>The words.</p></div><hr class="footer"/>',
], ids=["mkdocs", "docusaurus", "rustdoc", "github", "javadoc", "doxygen"])
def test_generator_body_containers(body):
    doc, sections = _sections(_page(body + "<p>Trailing site text outside.</p>"))
    assert sections == {("Guide",): "The words."}


def test_asciidoc_keeps_its_header_beside_the_content():
    page = _page(
        '<div id="header"><h1>git-add(1) Manual Page</h1><h2>NAME</h2>'
        '<div class="sectionbody"><p>git-add - Add file contents to the index</p></div></div>'
        '<div id="content"><div class="sect1"><h2>DESCRIPTION</h2><p>Updates the index.</p>'
        '</div></div><div id="footnotes"><hr/></div>'
        '<div id="footer"><div id="footer-text">Last updated 2024-05-31</div></div>',
        head='<meta name="generator" content="AsciiDoc 10.2.0"/><title>git-add(1)</title>')
    doc, body = _sections(page)
    assert body == {("git-add(1) Manual Page", "NAME"): "git-add - Add file contents to the index",
                    ("git-add(1) Manual Page", "DESCRIPTION"): "Updates the index."}


def test_largest_of_several_articles_and_no_marker_pages():
    articles = _page("<article><p>short teaser</p></article>"
                     "<article><h2>Story</h2><p>" + "long story words " * 50 + "</p></article>")
    doc, body = _sections(articles)
    assert list(body) == [("Story",)] and "teaser" not in doc.text
    # Without markers the page is read whole, less its frame.
    plain = _page("<header><p>Site banner</p></header><nav>Home About</nav><h1>Notes</h1>"
                  "<p>Body text.</p><aside>Related posts</aside><footer>Contact</footer>")
    doc, body = _sections(plain)
    assert body == {("Notes",): "Body text."}
    # A <header> or <aside> inside a section belongs to it (a book chapter's title).
    chapter = _page("<section><header><h2>Chapter I</h2></header><p>It was a dark night.</p>"
                    "<aside>A side note.</aside></section>")
    doc, body = _sections(chapter)
    assert body == {("Chapter I",): "It was a dark night.\n\nA side note."}


def test_a_small_marker_does_not_stand_for_the_page():
    page = _page("<h1>Recipe</h1><p>" + "flour water salt " * 40 + "</p>"
                 "<div class='comments'><div class='body'>nice one</div></div>")
    doc, body = _sections(page)
    assert "flour water salt" in body[("Recipe",)] and "nice one" in body[("Recipe",)]


def test_page_that_is_all_frame_is_still_read():
    doc, body = _sections(_page("<header><h1>Only Title</h1><p>Only words here.</p></header>"))
    assert body == {("Only Title",): "Only words here."}
    doc, body = _sections(_page("<nav><a href='a.html'>Alpha</a> <a href='b.html'>Beta</a></nav>"))
    assert "Alpha" in doc.text and "Beta" in doc.text


def test_breadcrumb_trails_are_frame():
    body = ('<div class="breadcrumbs"><a href="/">Docs</a> › <a href="/guides">Guides</a></div>'
            '<h1>Install</h1><p>Run the installer.</p>')
    _, sections = _sections(_page(body))
    assert sections == {("Install",): "Run the installer."}


def test_skip_links_and_permalinks_are_dropped_but_real_links_kept():
    page = _page('<a class="skip-link" href="#main">Skip to main content</a>'
                 '<main id="main"><h2 id="x">Setup <a href="#x">#</a></h2>'
                 '<p>See <a href="#install">installation</a> and <a href="other.html">¶ list</a>.</p>'
                 '<h3>Usage<a class="hash-link" href="#usage">\u200b</a></h3><p>Run it.</p>'
                 '<pre>make all<button class="copy">Copy</button></pre></main>')
    doc, body = _sections(page)
    assert body == {("Setup",): "See installation and ¶ list .",
                    ("Setup", "Usage"): "Run it.\n\nmake all"}
    assert "Skip" not in doc.text


def test_links_back_to_the_top_of_the_page_are_dropped():
    # Double Commander's help ends each section with a link back to the page's top,
    # and each Vim help page ends with one; a link elsewhere or to a section stays.
    page = _page('<a name="topofpage"></a><div class="dchelpage"><h1>2.5. Find files</h1>'
                 '<h2 id="1">1. Introduction</h2><p>Tabs group the search tool.</p>'
                 '<p class="navback"><a href="#topofpage">(back to top)</a></p>'
                 '<h2 id="2">2. Tab "Standard"</h2><p>Search by name. See <a href="#top">Top</a> and '
                 '<a href="#2">the top panel</a> and <a href="toolbar.html">top</a>.</p>'
                 '<p class="navback"><a href="#topofpage">Back to the top of the page ↑</a></p>'
                 '<p>See the note at the <a href="#top">top</a> of this page.</p></div>'
                 '<pre>diff text.\n<A HREF="#top">top</A> - <A HREF="index.html">main help file</A></pre>')
    doc, body = _sections(page)
    assert body[("2.5. Find files", "1. Introduction")] == "Tabs group the search tool."
    standard = body[("2.5. Find files", '2. Tab "Standard"')]
    assert standard.startswith("Search by name. See Top and the top panel and top .")
    assert "back" not in doc.text.lower() and "main help file" in standard
    assert "See the note at the top of this page." in standard


def test_navigation_bars_named_by_class_or_id_are_left_out():
    # Double Commander's help, as its pages are written: a site-link bar in the header
    # and a previous/next bar, `<div>`s named `nav` and `footer` (no `<nav>`, no role),
    # were every page's first section. Lists and divisions with other names stay.
    page = _page('<a name="topofpage"></a><div class="header"><a href="index.html">'
                 '<img src="images/dclogo2017.png" alt="Double Commander"></a>'
                 '<div id="global-nav" class="nav"><a href="https://doublecmd.sourceforge.io/">Homepage</a>'
                 ' | <a href="https://github.com/doublecmd/doublecmd/wiki">Wiki</a></div></div>'
                 '<div class="footer"><div class="nav"><a href="index.html">Index</a> | '
                 '<a href="variables.html">Previous</a> | <a href="regexp.html">Next</a></div></div>'
                 '<div class="dchelpage"><div><h1>2.13. Internal Commands</h1></div>'
                 '<div><p>Internal commands may be grouped by categories.</p>'
                 '<ul class="navigation-keys"><li>Tab switches panels</li></ul>'
                 '<div class="navigator">The navigator panel shows folders.</div></div>'
                 '<ul id="site-nav"><li><a href="faq.html">FAQ</a></li></ul></div>')
    doc, body = _sections(page)
    assert list(body) == [("2.13. Internal Commands",)]
    text = body[("2.13. Internal Commands",)]
    assert text.startswith("Internal commands may be grouped by categories.")
    assert "Tab switches panels" in text and "The navigator panel shows folders." in text
    for word in ("Homepage", "Wiki", "Index", "Previous", "FAQ"):
        assert word not in doc.text


def test_unbalanced_and_deep_markers_stay_bounded():
    data = b'<div class="body">' * 50_000 + b"<h2>Deep</h2><p>bottom</p>"
    doc, body = _sections(data)
    assert body[("Deep",)] == "bottom"
    # A frame element that never closes drops nothing the page needs.
    doc, body = _sections(b"<nav>menu<h1>Title</h1><p>text</p>")
    assert "text" in doc.text


def test_api_signatures_are_sections():
    page = _page("""<div class="body" role="main"><section><h1>csv</h1>
<h2>Module Contents<a class="headerlink" href="#mc">¶</a></h2>
<p>Functions:</p>
<dl class="py function"><dt class="sig sig-object py" id="csv.reader">
<span class="sig-prename">csv.</span><span class="sig-name">reader</span>(<em>csvfile</em>)
<a class="headerlink" href="#csv.reader">¶</a></dt><dd><p>Return a reader.</p></dd></dl>
<dl class="py class"><dt class="sig sig-object py" id="csv.Sniffer">class csv.Sniffer</dt>
<dd><p>Deduces formats.</p>
<dl class="py method"><dt class="sig sig-object py" id="csv.Sniffer.sniff">sniff(sample)</dt>
<dd><p>Analyze the sample.</p></dd></dl></dd></dl>
<dl><dt>term</dt><dd>A plain definition list is no API.</dd></dl>
<h2>Examples</h2><p>Read a file.</p></section></div>""")
    doc = read_document(page, "csv.html")
    assert [(s.heading[1:], s.text) for s in doc.sections] == [
        (("Module Contents",), "Functions:"),
        (("Module Contents", "csv.reader(csvfile)"), "Return a reader."),
        (("Module Contents", "class csv.Sniffer"), "Deduces formats."),
        (("Module Contents", "sniff(sample)"), "Analyze the sample.\n\nterm\n\n"
                                               "A plain definition list is no API."),
        (("Examples",), "Read a file."),
    ]
    assert "¶" not in doc.text


# -- rustdoc: a type's page without the docs it inherits ------------------------
RUSTDOC = _page("""
<a class="skip-main-content" href="#main-content">Skip to main content</a>
<nav class="sidebar"><h2><a href="#">Cursor</a></h2><ul><li><a href="#method.seek">seek</a></li></ul></nav>
<main><section id="main-content" class="content">
<div class="main-heading"><div class="rustdoc-breadcrumbs"><a href="../index.html">std</a>::<wbr><a href="index.html">io</a></div>
<h1>Struct <span class="struct">Cursor</span>
<button id="copy-path">Copy item path</button></h1>
<span class="sub-heading"><span class="since" title="Stable">1.0.0</span> · <a class="src" href="s.html">Source</a></span></div>
<details class="toggle top-doc" open><summary class="hideme"><span>Expand description</span></summary>
<div class="docblock"><p>Wraps an in-memory buffer and gives it a seekable position.</p></div></details>
<h2 id="implementations" class="section-header">Implementations</h2>
<div id="implementations-list"><details class="toggle implementors-toggle" open><summary>
<section class="impl"><h3 class="code-header">impl Cursor</h3></section></summary>
<div class="impl-items"><details class="toggle method-toggle" open><summary>
<section id="method.position" class="method"><span class="rightside"><span class="since">1.0.0</span> · <a class="src" href="s.html">Source</a></span>
<h4 class="code-header">pub fn position(&amp;self) -&gt; u64</h4></section></summary>
<div class="docblock"><p>Returns the current position of this cursor.</p></div></details></div></details></div>
<h2 id="deref-methods-%5Bu8%5D" class="section-header">Methods from Deref&lt;Target = [u8]&gt;</h2>
<div id="deref-methods-%5Bu8%5D-1" class="impl-items"><details class="toggle method-toggle" open><summary>
<section id="method.len" class="method"><h4 class="code-header">pub const fn len(&amp;self) -&gt; usize</h4></section></summary>
<div class="docblock"><p>Returns the number of elements in the slice.</p></div></details></div>
<h2 id="trait-implementations" class="section-header">Trait Implementations</h2>
<div id="trait-implementations-list"><details class="toggle implementors-toggle" open><summary>
<section class="impl"><h3 class="code-header">impl Seek for Cursor</h3></section></summary>
<div class="impl-items"><details class="toggle method-toggle" open><summary>
<section id="method.seek" class="method trait-impl"><a class="src rightside" href="s.html">Source</a>
<h4 class="code-header">fn seek(&amp;mut self, pos: SeekFrom) -&gt; Result&lt;u64&gt;</h4></section></summary>
<div class="docblock">Seek to an offset, in bytes, in a stream. <a href="t.html">Read more</a></div></details>
<div class="impl-items"><p>nested inherited words</p></div></div></details></div>
<h2 id="synthetic-implementations" class="section-header">Auto Trait Implementations</h2>
<div id="synthetic-implementations-list"><section class="impl"><h3 class="code-header">impl Send for Cursor</h3></section></div>
<h2 id="blanket-implementations" class="section-header">Blanket Implementations</h2>
<div id="blanket-implementations-list"><details class="toggle implementors-toggle"><summary>
<section class="impl"><h3 class="code-header">impl&lt;T&gt; From&lt;T&gt; for T</h3></section></summary>
<div class="impl-items"><div class="docblock"><p>Returns the argument unchanged.</p></div></div></details></div>
<p>After the lists, the page goes on.</p>
</section></main>
""", head='<meta name="generator" content="rustdoc"><title>Cursor in std::io - Rust</title>')


def test_rustdoc_page_leaves_out_inherited_docs_and_labels():
    doc, sections = _sections(RUSTDOC)
    text = " ".join(sections.values())
    heads = " ".join(" ".join(h) for h in sections)
    assert doc.title == "Cursor in std::io - Rust"
    assert "seekable position" in text and "current position of this cursor" in text
    assert "pub fn position(&self) -> u64" in heads
    # The implemented traits are named; their methods' copied docs are not.
    assert "impl Seek for Cursor" in heads + text and "impl Send for Cursor" in heads + text
    assert "Seek to an offset" not in text and "fn seek" not in heads
    assert "nested inherited" not in text
    # Blanket implementations are the same on every page: gone, heading's words aside.
    assert "Returns the argument unchanged" not in text and "From<T>" not in heads + text
    assert "the page goes on" in text
    assert "number of elements in the slice" not in text and "fn len" not in heads
    for label in ("Expand description", "Source", "1.0.0", "Copy item path", "Skip to"):
        assert label not in text, label
    assert "seek" not in text.split()
    assert () not in sections and "std" not in text.split()   # the breadcrumb trail


def test_rustdoc_rules_apply_only_to_rustdoc_pages():
    other = RUSTDOC.replace(b'content="rustdoc"', b'content="Hugo 0.1"')
    _, sections = _sections(other)
    text = " ".join(sections.values())
    assert "Seek to an offset" in text and "Returns the argument unchanged" in text
    assert "Expand description" in text


# -- redirect stubs ---------------------------------------------------------------
REDIRECT = b"""<!DOCTYPE html>
<html lang="en"><head>
    <meta http-equiv="refresh" content="0;URL=../../../std/io/fn.copy.html">
    <title>Redirection</title>
</head><body>
    <p>Redirecting to <a href="../../../std/io/fn.copy.html">../../../std/io/fn.copy.html</a>...</p>
    <script>location.replace("../../../std/io/fn.copy.html" + location.search + location.hash);</script>
</body></html>"""


def test_redirect_page_is_skipped_with_its_target():
    with pytest.raises(SkipFile, match=r"redirect page \(to \.\./\.\./\.\./std/io/fn\.copy\.html\)"):
        read_document(REDIRECT, "fn.copy.html")
    spaced = REDIRECT.replace(b'"0;URL=', b"\"0; url='").replace(b'.html">\n', b".html'\">\n", 1)
    with pytest.raises(SkipFile, match="redirect page"):
        read_document(spaced, "fn.copy.html")


def test_pages_that_only_refresh_later_or_say_more_are_read():
    later = REDIRECT.replace(b'"0;URL=', b'"30;URL=')
    assert "Redirecting to" in read_document(later, "a.html").sections[0].text
    reload_only = REDIRECT.replace(b'"0;URL=../../../std/io/fn.copy.html"', b'"0"')
    assert read_document(reload_only, "a.html").sections
    long = REDIRECT.replace(b"<p>Redirecting", b"<p>" + b"This page has moved, but here is why. " * 12
                            + b"</p><p>Redirecting")
    assert "here is why" in read_document(long, "a.html").sections[0].text


def test_indexing_a_rustdoc_tree_skips_redirects_and_inherited_docs(tmp_path, open_ix):
    root = tmp_path / "doc"
    (root / "io" / "cursor").mkdir(parents=True)
    (root / "io" / "struct.Cursor.html").write_bytes(RUSTDOC)
    (root / "io" / "cursor" / "struct.Cursor.html").write_bytes(
        REDIRECT.replace(b"fn.copy.html", b"struct.Cursor.html"))
    ix = open_ix()
    report = ix.index(root)
    assert report.added == 1
    assert [s["reason"] for s in report.skipped] == [
        "a redirect page (to ../../../std/io/struct.Cursor.html)"]
    assert [h.document["path"] for h in ix.search("seekable position").results] == [
        "io/struct.Cursor.html"]
    assert not ix.search("argument unchanged").results
    assert not ix.search("redirecting").results


def test_redirect_without_url_keyword():
    sqlite_style = (b'<html><head><meta http-equiv="refresh" content="0; ./cli.html"></head>'
                    b'<body>Redirect to <a href="./cli.html">./cli.html</a></body></html>')
    with pytest.raises(SkipFile, match=r"redirect page \(to \./cli\.html\)"):
        read_document(sqlite_style, "sqlite.html")


# -- DocBook XSL: previous/up/next links above and below every page ---------------
DOCBOOK = _page("""
<div class="navheader"><table width="100%" summary="Navigation header">
<tr><th colspan="3" align="center">Chapter 2. Tuning</th></tr>
<tr><td><a accesskey="p" href="ch01.html">Prev</a></td><td><a accesskey="n" href="ch03.html">Next</a></td></tr>
</table><hr></div>
<div class="chapter"><div class="titlepage"><h1 class="title"><a name="tuning"></a>2. Tuning the cache</h1></div>
<div class="toc"><p><b>Table of Contents</b></p><dl class="toc"><dt><span class="sect1"><a href="#sizes">2.1. Sizes</a></span></dt></dl></div>
<div class="sect1"><h2 class="title"><a name="sizes"></a>2.1. Sizes</h2><p>Raise the cache size for large builds.</p></div></div>
<div><table class="nav" width="100%" summary="Navigation footer"><tr>
<td><a accesskey="p" href="ch01.html">&lt;&lt; 1. Introduction</a></td><td><a accesskey="u" href="index.html">Up</a></td>
<td><a accesskey="n" href="ch03.html">3. Advanced topics &gt;&gt;</a></td></tr></table></div>
""", head='<title>2. Tuning the cache</title><meta name="generator" content="DocBook XSL Stylesheets V1.79.2">')


def test_docbook_navigation_header_and_footer_are_left_out():
    doc, sections = _sections(DOCBOOK)
    text = " ".join(sections.values())
    assert doc.title == "2. Tuning the cache"
    assert sections[("2. Tuning the cache", "2.1. Sizes")] == "Raise the cache size for large builds."
    for nav in ("Prev", "Next", "Chapter 2. Tuning", "Introduction", "Advanced topics", "Up"):
        assert nav not in text, nav
    assert () not in sections   # nothing left above the chapter's title
    # a page with links to the pages around it is one of many: the chapter's table of
    # contents lists the others' sections, and is navigation too
    assert ("2. Tuning the cache",) not in sections and "Table of Contents" not in text
    # a manual on one page keeps it: on Git's user manual it helped a question find it
    whole = DOCBOOK.replace(b'class="navheader"', b'class="header"').replace(
        b'summary="Navigation header"', b'').replace(b'summary="Navigation footer"', b'')
    assert _sections(whole)[1][("2. Tuning the cache",)].startswith("Table of Contents\n\n2.1. Sizes")
    # A table of data is read, summary or not.
    data = _page('<table summary="Cache sizes"><tr><td>small</td><td>64 MB</td></tr></table>')
    assert "64 MB" in _sections(data)[1][()]


# A page laid out in tables before CSS, as libxml2's and libxslt's web pages are
# (written for this test after libxslt's `bugs.html`): banner, menu cell, text cell.
_MENU = ('<table><tr><td><center><b>Main Menu</b></center></td></tr><tr><td><form action="search.php">'
         '<input name="query" type="text"></form><ul>'
         + "".join(f'<li><a href="p{n}.html">Page number {n}</a></li>' for n in range(12))
         + '</ul></td></tr></table>')
TABLE_LAYOUT = _page(
    '<table><tr><td><h1>The XSLT C library</h1><h2>Reporting bugs</h2></td></tr></table>'
    '<table><tr><td valign="top" width="200">' + _MENU + '</td>'
    '<td valign="top"><table><tr><td><p>Send the bug with the input and the stylesheet '
    'to the <a href="list.html">mailing list</a>; do not mail me directly.</p></td></tr></table>'
    '</td></tr></table>', head="<title>Reporting bugs</title>")


def test_a_menu_cell_beside_the_text_is_left_out():
    _, sections = _sections(TABLE_LAYOUT)
    text = " ".join(sections.values())
    assert "Page number" not in text and "Main Menu" not in text
    assert sections[("The XSLT C library", "Reporting bugs")] == (
        "Send the bug with the input and the stylesheet to the mailing list ; do not mail me directly.")
    # `</td>` and `</tr>` left out, as HTML allows: the same
    loose = TABLE_LAYOUT.replace(b"</td>", b"").replace(b"</tr>", b"")
    assert "Page number" not in " ".join(_sections(loose)[1].values())
    # a cell before the menu in its row keeps its words
    before = TABLE_LAYOUT.replace(b'<td valign="top" width="200">', b'<td>Logo text</td><td valign="top" width="200">')
    assert _sections(before)[1][("The XSLT C library", "Reporting bugs")].startswith("Logo text\n\nSend the bug")


def test_a_table_of_link_lists_alone_is_the_page():
    # an index page, SQLite's list of its SQL commands: no text beside the links
    cells = "".join("<td><ul>" + "".join(f'<li><a href="c{c}{n}.html">COMMAND {c}{n}</a></li>'
                                         for n in range(12)) + "</ul></td>" for c in "AB")
    page = _page(f"<h1>SQL commands</h1><p>Short.</p><table><tr>{cells}</tr></table>")
    text = " ".join(_sections(page)[1].values())
    assert "COMMAND A0" in text and "COMMAND B11" in text


def test_line_number_links_marked_nosnippet_do_not_glue_to_the_code():
    # rustdoc's source view: each line starts with a link to itself, its number.
    listing = _page('<main><h1>macros.rs</h1><pre class="rust"><code>'
                    '<a href=#1 id=1 data-nosnippet>1</a><span class="attr">#[macro_export]\n'
                    '<a href=#2 id=2 data-nosnippet>2</a></span>macro_rules! detect {\n'
                    '<a href=#3 id=3 data-nosnippet>3</a>}</code></pre>'
                    '<p>See <a href="#2">line 2</a>.</p></main>')
    _, sections = _sections(listing)
    assert sections[("macros.rs",)] == "#[macro_export]\nmacro_rules! detect {\n}\n\nSee line 2 ."


# Page templates a site generator fills in (written for this test): Go's web site
# keeps a page's title in a JSON comment, Jekyll and Hugo in front matter.
@pytest.mark.parametrize("page, title", [
    ('<!--{\n\t"Title": "Go 1 and the Future of Go Programs",\n\t"Path": "/doc/go1compat"\n}-->\n'
     '<h2 id="introduction">Introduction</h2>\n<p>Programs written to Go 1 keep compiling.</p>\n',
     "Go 1 and the Future of Go Programs"),
    ('---\nlayout: default\ntitle: "Getting started"\n---\n<h2>Introduction</h2>\n'
     '<p>Programs written to Go 1 keep compiling.</p>\n', "Getting started"),
    ('<!--{ "Path": "/x" }-->\n<h2>Introduction</h2>\n<p>Programs written to Go 1 keep compiling.</p>\n',
     "go1compat"),
    ('<!--{ not json }-->\n<h2>Introduction</h2>\n<p>Programs written to Go 1 keep compiling.</p>\n',
     "go1compat"),
])
def test_a_page_template_takes_its_title_from_its_metadata(tmp_path, page, title):
    path = tmp_path / "go1compat.html"
    path.write_text(page, encoding="utf-8")
    doc = extract(path)
    assert doc.title == title
    assert doc.sections[0].heading == ("Introduction",)
    assert doc.text.strip().endswith("Programs written to Go 1 keep compiling.")
    assert "layout" not in doc.text and "---" not in doc.text and "Path" not in doc.text


FAQ = b"""<html><head><title>FAQ</title></head><body><h1>Frequently Asked Questions</h1>
<a name="q8"></a>
<p><b>(8) Are there any known size limits?</b></p>
<blockquote><p>See <a href="limits.html">the limits page</a> for a full discussion.</p></blockquote>
<p><strong>Is the database file portable?</strong> </p>
<blockquote><p>Yes, across machines of any byte order.</p></blockquote>
<h2>Other matters</h2>
<p><b>Inheritance:</b></p><p>A label, not a question.</p>
<p><b>Why?</b> Words after the bold span.</p>
<p>Words before <b>a bold question?</b></p>
<table><tr><td><p><b>In a cell?</b></p></td></tr></table>
<p><b>A line<br>broken question?</b></p>
</body></html>"""


def test_a_bold_question_alone_in_its_paragraph_heads_its_answer():
    """Hand-written FAQs head each answer with its question in bold: as a heading,
    the answer's passage is cited by the question, one level under the page's."""
    _, sections = _sections(FAQ)
    top = ("Frequently Asked Questions",)
    assert sections[top + ("(8) Are there any known size limits?",)] \
        == "See the limits page for a full discussion."
    assert sections[top + ("Is the database file portable?",)] \
        == "Yes, across machines of any byte order."
    # A label, a question with words beside it, in a table cell or over two lines
    # is text of the section it is in.
    assert sections[top + ("Other matters",)].split("\n\n") == [
        "Inheritance:", "A label, not a question.", "Why? Words after the bold span.",
        "Words before a bold question?", "In a cell?", "A line\nbroken question?"]
    assert len(sections) == 3


# A member of a C API as Doxygen 1.8–1.9 writes it (LMDB's `group__mdb.html`):
# a title with a `◆` permalink, the prototype as a table, one row a parameter.
DOXYGEN_MEMBER = """<html><head><title>Kettle: Kettle API</title>
<meta name="generator" content="Doxygen 1.9.4"/></head><body>
<div class="contents">
<h2 class="groupheader">Function Documentation</h2>
<a id="ga32a193c6bf4d7d5c5d579e71f22e9340"></a>
<h2 class="memtitle"><span class="permalink"><a href="#ga32a193c6bf4d7d5c5d579e71f22e9340">&#9670;&nbsp;</a></span>kettle_boil()</h2>
<div class="memitem">
<div class="memproto">
      <table class="memname">
        <tr>
          <td class="memname">int kettle_boil </td>
          <td>(</td>
          <td class="paramtype">KETTLE *&#160;</td>
          <td class="paramname"><em>kettle</em>, </td>
        </tr>
        <tr>
          <td class="paramkey"></td>
          <td></td>
          <td class="paramtype">unsigned int&#160;</td>
          <td class="paramname"><em>degrees</em>&#160;</td>
        </tr>
        <tr>
          <td></td>
          <td>)</td>
          <td></td><td></td>
        </tr>
      </table>
</div><div class="memdoc">
<p>Heat the water in a kettle to the given temperature.</p>
<dl class="params"><dt>Parameters</dt><dd>
  <table class="params">
    <tr><td class="paramdir">[in]</td><td class="paramname">kettle</td><td>The kettle to heat. </td></tr>
  </table>
</dd></dl>
</div></div>
</div></body></html>
"""


def test_a_doxygen_member_reads_its_title_and_prototype_as_one_line():
    doc = read_document(DOXYGEN_MEMBER.encode(), "group__kettle.html")
    member = next(s for s in doc.sections if s.heading[-1].startswith("kettle_boil"))
    assert member.heading == ("kettle_boil()",)   # both titles are h2
    assert member.text.split("\n")[0] == "int kettle_boil ( KETTLE * kettle, unsigned int degrees )"
    assert "[in] | kettle | The kettle to heat." in member.text   # a real table keeps its cells
    assert "◆" not in doc.text


def test_search_shows_a_doxygen_member_without_its_mark(open_ix, tmp_path):
    folder = tmp_path / "html"
    folder.mkdir()
    (folder / "group__kettle.html").write_text(DOXYGEN_MEMBER, encoding="utf-8")
    ix = open_ix()
    ix.index(folder)
    hit = ix.search("heat the water in a kettle", limit=1, passages=True).results[0]
    assert list(hit.section) == ["kettle_boil()"]
    assert hit.passage_text.startswith("int kettle_boil ( KETTLE * kettle, unsigned int degrees )\n")


# DocBook XSL's admonition, as in PostgreSQL's manual (`routine-vacuuming.html`).
DOCBOOK_TIP = """<html><head><title>25.1. Routine Vacuuming</title>
<meta name="generator" content="DocBook XSL Stylesheets Vsnapshot"/></head><body>
<div class="sect1"><h2 class="title">25.1. Routine Vacuuming</h2>
<div class="sect2"><h3 class="title">25.1.2. Recovering Disk Space</h3>
<p>An UPDATE or DELETE of a row does not immediately remove the old version.</p>
<div class="tip"><h3 class="title">Tip</h3><p>Plain VACUUM may not be enough after a mass delete.</p></div>
<p>The standard form of VACUUM removes dead row versions in tables and indexes.</p>
</div>
<div class="sect2"><h3 class="title">25.1.3. Updating Planner Statistics</h3>
<div class="note" style="margin-left: 0.5in; margin-right: 0.5in;"><h3 class="title">Note</h3>
<p>ANALYZE samples the table.</p></div>
</div></div></body></html>
"""


def test_a_docbook_admonition_labels_its_box_and_heads_no_section():
    doc = read_document(DOCBOOK_TIP.encode(), "routine-vacuuming.html")
    assert [s.heading for s in doc.sections] == [
        ("25.1. Routine Vacuuming", "25.1.2. Recovering Disk Space"),
        ("25.1. Routine Vacuuming", "25.1.3. Updating Planner Statistics")]
    assert doc.sections[0].text == (
        "An UPDATE or DELETE of a row does not immediately remove the old version.\n\n"
        "Tip\n\nPlain VACUUM may not be enough after a mass delete.\n\n"
        "The standard form of VACUUM removes dead row versions in tables and indexes.")
    assert doc.sections[1].text == "Note\n\nANALYZE samples the table."


def test_search_files_the_text_after_a_tip_under_its_own_heading(open_ix, tmp_path):
    folder = tmp_path / "html"
    folder.mkdir()
    (folder / "routine-vacuuming.html").write_text(DOCBOOK_TIP, encoding="utf-8")
    ix = open_ix()
    ix.index(folder)
    hit = ix.search("standard form removes dead row versions", limit=1, passages=True).results[0]
    assert list(hit.section) == ["25.1. Routine Vacuuming", "25.1.2. Recovering Disk Space"]


# Doxygen's search engine data beside its pages: an entry a line (so not minified).
DOXYGEN_SEARCH_DATA = """var searchData=
[
  ['kettle_5fboil_0',['kettle_boil',['../group__kettle.html#ga32a193c6bf4d7d5c5d579e71f22e9340',1,'kettle.h']]],
  ['kettle_5fpour_1',['kettle_pour',['../group__kettle.html#ga0b1b5c1e9e4f1d5a2a3e4d5c6b7a8f90',1,'kettle.h']]]
];
"""


def test_doxygen_search_data_is_skipped_and_the_page_found(open_ix, tmp_path):
    folder = tmp_path / "html"
    (folder / "search").mkdir(parents=True)
    (folder / "group__kettle.html").write_text(DOXYGEN_MEMBER, encoding="utf-8")
    (folder / "search" / "all_0.js").write_text(DOXYGEN_SEARCH_DATA, encoding="utf-8")
    (folder / "search" / "navtreeindex0.js").write_text(
        'var NAVTREEINDEX0 =\n{\n"group__kettle.html":[1,0],\n"index.html":[0]\n};\n', encoding="utf-8")
    (folder / "menu.js").write_text("function initMenu(relPath) {\n  return relPath;\n}\n",
                                    encoding="utf-8")
    with pytest.raises(SkipFile, match="search index"):
        extract(folder / "search" / "all_0.js")
    ix = open_ix()
    ix.index(folder)
    paths = [hit.document["path"] for hit in ix.search("kettle_boil", limit=5).results]
    assert paths == ["group__kettle.html"]
    assert ix.search("initMenu", limit=1).results[0].document["path"] == "menu.js"   # code stays


# A help viewer's navigation written as scripts, one link to a page a line: LibreOffice's
# keyword index `bookmarks.js` and table of contents `contents.js`, Doxygen's tree-view
# data (one file a page) and its `menudata.js`.
HELP_BOOKMARKS = """var bookmarks = [
{url:"en-US/text/scalc/guide/line_fix.html?DbPAR=CALC#bm_id1", app:"CALC", text:"freezing -- rows or columns"},
{url:"en-US/text/scalc/guide/line_fix.html?DbPAR=CALC#bm_id2", app:"CALC", text:"rows -- freezing"},
{url:"en-US/text/scalc/guide/print_title_row.html?DbPAR=CALC#bm_id3", app:"CALC", text:"rows -- repeating when printing"},
];
"""
HELP_CONTENTS = """document.getElementById("Contents").innerHTML='\\
    <ul><li><input type="checkbox" id="08"><label for="08">Spreadsheets (Calc)</label><ul>\\
    <li><a target="_top" href="en-US/text/scalc/guide/line_fix.html?DbPAR=CALC">Freezing Rows or Columns as Headers</a></li>\\
    <li><a target="_top" href="en-US/text/scalc/guide/print_title_row.html?DbPAR=CALC">Printing Rows or Columns on Every Page</a></li>\\
    <li><a target="_top" href="en-US/text/scalc/guide/validity.html?DbPAR=CALC">Validity of Cell Contents</a></li>\\
    <li><a target="_top" href="en-US/text/scalc/guide/goalseek.html?DbPAR=CALC">Applying Goal Seek</a></li>\\
    </ul></li></ul>\\
';
"""
DOXYGEN_TREE_DATA = """var kettle_8c =
[
    [ "kettle_boil", "kettle_8c.html#ga32a193c6bf4d7d5c5d579e71f22e9340", null ],
    [ "kettle_pour", "kettle_8c.html#ga0b1b5c1e9e4f1d5a2a3e4d5c6b7a8f90", null ]
];
"""
HELP_PAGE = """<html><head><title>Freezing Rows or Columns as Headers</title></head><body>
<h1>Freezing Rows or Columns as Headers</h1>
<p>If you have long rows or columns of data that extend beyond the viewable area of the
sheet, you can freeze some rows or columns.</p></body></html>
"""


def test_a_help_viewers_navigation_scripts_are_skipped(open_ix, tmp_path):
    folder = tmp_path / "en-US"
    (folder / "text" / "scalc" / "guide").mkdir(parents=True)
    (folder / "text" / "scalc" / "guide" / "line_fix.html").write_text(HELP_PAGE, encoding="utf-8")
    (folder / "bookmarks.js").write_text(HELP_BOOKMARKS, encoding="utf-8")
    (folder / "contents.js").write_text(HELP_CONTENTS, encoding="utf-8")
    (folder / "kettle_8c.js").write_text(DOXYGEN_TREE_DATA, encoding="utf-8")
    # a script that links to a page now and then is code
    (folder / "help2.js").write_text(
        "function goHome() {\n  // back to the start\n  window.location.href = 'index.html';\n}\n"
        "function freezeRows(rows) {\n  return rows.filter(Boolean);\n}\n", encoding="utf-8")
    for name in ("bookmarks.js", "contents.js", "kettle_8c.js"):
        with pytest.raises(SkipFile, match="navigation data"):
            extract(folder / name)
    ix = open_ix()
    ix.index(folder)
    paths = [hit.document["path"] for hit in ix.search("freezing rows", limit=5).results]
    assert paths[0] == "text/scalc/guide/line_fix.html"
    assert not any(p.endswith(("bookmarks.js", "contents.js")) for p in paths)
    assert ix.search("freezeRows", limit=1).results[0].document["path"] == "help2.js"


def test_a_cgi_programs_http_header_before_the_page_is_not_text():
    # man2html writes its page as a CGI program: an HTTP header, a blank line, the
    # page. Saved as a file (Debian's bash-doc ships bash.html so), the header is
    # no part of the manual.
    page = (b"Content-type: text/html; charset=UTF-8\n\n"
            b'<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN">\n'
            b"<HTML><HEAD><TITLE>Man page of BASH</TITLE>\n</HEAD><BODY>\n<H1>BASH</H1>\n"
            b"Section: User Commands  (1)<BR>Updated: 2022 September 19<BR>"
            b'<A NAME="lbAB">&nbsp;</A>\n<H2>NAME</H2>\n\nbash - GNU Bourne-Again SHell\n'
            b"</BODY></HTML>\n")
    doc, sections = _sections(page, "bash.html")
    assert doc.title == "Man page of BASH"
    text = " ".join(s.text for s in doc.sections)
    assert "Content-type" not in text and "charset" not in text
    assert doc.sections[0].heading == ("BASH",)     # no section before the first heading
    assert sections[("BASH", "NAME")] == "bash - GNU Bourne-Again SHell"
    # a page that only quotes such a header keeps it
    quoted = b"<html><body><h1>CGI</h1><pre>Content-type: text/html\n\n</pre></body></html>"
    assert "Content-type: text/html" in " ".join(s.text for s in read_document(quoted, "c.html").sections)


# NTPsec's pages (AsciiDoc's HTML, written for this test after `ntpd.html` and
# `ntplogtemp.html`): a numbered section of links to the other pages, each tool with
# its summary inside the link, and the page's table of contents, before its text.
_TOOLS = [("ntpd", "8", "Network Time Protocol (NTP) daemon"),
          ("ntplogtemp", "1", "log system temperature data for use by ntpviz"),
          ("ntpq", "1", "standard NTP query program"),
          ("ntptime", "8", "read and set kernel time variables")]


def _ntpsec_page(title: str, body: str) -> bytes:
    tools = "".join(f'<li>\n<p><a href="{tool}.html"><code>{tool}({section})</code> - {summary}</a></p>\n</li>\n'
                    for tool, section, summary in _TOOLS)
    return _page(
        f'<div id="header">\n<h1>{title}</h1>\n</div>\n<div id="content">\n'
        '<div class="sect1">\n<h2 id="_related_links">1. Related Links</h2>\n<div class="sectionbody">\n'
        '<div class="sect2">\n<h3 id="_manual_pages">1.1. Manual Pages</h3>\n'
        f'<div class="ulist">\n<ul>\n{tools}</ul>\n</div>\n</div>\n</div>\n</div>\n'
        '<div class="sect1">\n<h2 id="_table_of_contents">2. Table of Contents</h2>\n<div class="sectionbody">\n'
        '<div class="ulist">\n<ul>\n<li>\n<p><a href="#_synopsis">SYNOPSIS</a></p>\n</li>\n'
        '<li>\n<p><a href="#_description">DESCRIPTION</a></p>\n</li>\n'
        '<li>\n<p><a href="#_files">FILES</a></p>\n</li>\n</ul>\n</div>\n<hr/>\n</div>\n</div>\n'
        + body + '</div>',
        head=f'<meta name="generator" content="AsciiDoc 10.2.0"><title>{title}</title>')


NTPD_TITLE = "ntpd - Network Time Protocol (NTP) Daemon"
NTPD = _ntpsec_page(NTPD_TITLE, (
    '<div class="sect1">\n<h2 id="_synopsis">3. SYNOPSIS</h2>\n<div class="sectionbody">\n'
    '<pre class="content">ntpd [-46agGhLmnNqx] [-c conffile]</pre>\n</div>\n</div>\n'
    '<div class="sect1">\n<h2 id="_description">4. DESCRIPTION</h2>\n<div class="sectionbody">\n'
    '<div class="paragraph"><p>The <code>ntpd</code> utility is an operating system daemon which sets and '
    'maintains the system time of day in synchronism with Internet standard time servers. It is a '
    'complete implementation of the Network Time Protocol (NTP) version 4, as defined by RFC 5905, '
    'but also retains compatibility with version 3, as defined by RFC 1305, and versions 1 and 2, '
    'as defined by RFC 1059 and RFC 1119, respectively.</p></div>\n'
    '<div class="paragraph"><p>The <code>ntpd</code> utility can synchronize time to a theoretical '
    'precision of about 232 picoseconds. In practice, this limit is unattainable due to quantum limits '
    'on the clock speed of ballistic-electron logic.</p></div>\n'
    '<div class="paragraph"><p>Ordinarily, <code>ntpd</code> reads the <a href="ntp_conf.html">ntp.conf(5)</a> '
    'configuration file at startup time in order to determine the synchronization sources and operating '
    'modes. It is also possible to specify a working, although limited, configuration entirely on the '
    'command line, obviating the need for a configuration file.</p></div>\n'
    '</div>\n</div>\n'))
NTPLOGTEMP = _ntpsec_page("ntplogtemp - log temperature data", (
    '<div class="sect1">\n<h2 id="_synopsis">3. SYNOPSIS</h2>\n<div class="sectionbody">\n'
    '<pre class="content">ntplogtemp [-h] [-l LOGFILE] [-o] [-w WAIT]</pre>\n</div>\n</div>\n'
    '<div class="sect1">\n<h2 id="_description">4. DESCRIPTION</h2>\n<div class="sectionbody">\n'
    '<div class="paragraph"><p><code>ntplogtemp</code> gathers temperature readings across a system. '
    'The default polling interval is 60 seconds, and the readings are written to a '
    'file for ntpviz to plot.</p></div>\n</div>\n</div>\n'))


def test_a_section_that_is_only_links_to_other_pages_is_left_out():
    doc, sections = _sections(NTPD, "ntpd.html")
    assert doc.title == NTPD_TITLE
    assert list(sections) == [(NTPD_TITLE, "2. Table of Contents"), (NTPD_TITLE, "3. SYNOPSIS"),
                              (NTPD_TITLE, "4. DESCRIPTION")]
    text = " ".join(sections.values())
    assert "ntplogtemp" not in text and "temperature" not in text and "Related Links" not in text
    # links to places in a page are its outline: they stay
    assert sections[(NTPD_TITLE, "2. Table of Contents")] == "SYNOPSIS\n\nDESCRIPTION\n\nFILES"
    # a link inside a sentence keeps its words
    assert "reads the ntp.conf(5) configuration file at startup" in sections[(NTPD_TITLE, "4. DESCRIPTION")]


def test_a_list_of_links_that_is_not_all_its_section_or_says_more_stays():
    listed = (NTPD_TITLE, "1. Related Links", "1.1. Manual Pages")
    # a sentence before the list: the list is part of the section's text
    led = NTPD.replace(b'<div class="ulist">\n<ul>\n<li>\n<p><a href="ntpd.html">',
                       b'<p>The tools it installs:</p><div class="ulist">\n<ul>\n<li>\n<p><a href="ntpd.html">')
    assert "ntplogtemp(1) - log system temperature data" in _sections(led)[1][listed]
    # each summary after its link, not in it: the items say more than where they go
    said = NTPD
    for tool, section, summary in _TOOLS:
        said = said.replace(f"</code> - {summary}</a>".encode(), f"</code></a> - {summary}".encode())
    assert _sections(said)[1][listed].startswith("ntpd(8) - Network Time")
    # links that leave the tree are the section's text (NTPsec's "External Links")
    away = NTPD.replace(b'href="ntp', b'href="https://docs.ntpsec.org/latest/ntp')
    assert "ntplogtemp(1)" in _sections(away)[1][listed]
    # a list of links to places in pages (SQLite's list of its aggregate functions,
    # `lang_aggfunc.html#group_concat`, atop the page that describes them) stays
    placed = NTPD.replace(b'.html"><code>', b'.html#_description"><code>')
    assert "ntplogtemp(1)" in _sections(placed)[1][listed]


def test_a_page_that_is_mostly_lists_of_links_keeps_them():
    # a short page, a site map, an index page: the links are much of what it has to say
    short = NTPLOGTEMP
    sections = _sections(short, "ntplogtemp.html")[1]
    assert "ntpq(1) - standard NTP query program" in \
        sections[("ntplogtemp - log temperature data", "1. Related Links", "1.1. Manual Pages")]


def test_a_tools_own_page_comes_first_not_the_pages_that_list_it(open_ix, tmp_path):
    folder = tmp_path / "html"
    folder.mkdir()
    (folder / "ntplogtemp.html").write_bytes(NTPLOGTEMP)
    for name in ("ntpd", "ntpq", "ntptime"):
        (folder / f"{name}.html").write_bytes(NTPD.replace(b"ntpd - Network", f"{name} - Network".encode()))
    ix = open_ix()
    ix.index(folder)
    # every page listed `ntplogtemp(1) - log system temperature data for use by ntpviz`
    hits = ix.search("temperature", limit=5).results
    assert [hit.document["path"] for hit in hits] == ["ntplogtemp.html"]


# After the page has begun to say what it says, a list of links is part of it
# (GIMP's `gimp-image-color-management.html`, written for this test after it): the
# submenu's five commands, each a link to its page, are what the section says.
_COMMANDS = ["Enable Color Management", "Assign Color Profile", "Convert to Color Profile",
             "Discard Color Profile", "Save Color Profile to File"]
GIMP_MENU = _page(
    '<h1>6.8. Color Management</h1>'
    '<p>The Color Management submenu contains commands which let you change the ICC color '
    'profile associated with an image and also let you save the associated ICC color profile '
    'to disk. There are five options in the Color Management submenu.</p>'
    '<h2>6.8.1. Activating the Color Management Submenu</h2>'
    '<p>You can access this command from the image menu bar through Image, Color Management.</p>'
    '<h2>6.8.2. The Contents of the “Color Management” Submenu</h2><ul>'
    + "".join(f'<li><a href="gimp-image-{i}.html">{name}</a></li>' for i, name in enumerate(_COMMANDS))
    + '</ul><h2>6.8.3. Profiles</h2>'
    + '<p>A color profile describes the colors a device can show or record. </p>' * 12)


def test_a_list_of_links_after_the_pages_own_text_stays():
    sections = _sections(GIMP_MENU, "gimp-image-color-management.html")[1]
    listed = ("6.8. Color Management", "6.8.2. The Contents of the “Color Management” Submenu")
    assert sections[listed] == "\n\n".join(_COMMANDS)
    # a "See also" at the end of a page, after all it says, stays too
    also = GIMP_MENU.replace(b"</body>", b'<h2>See also</h2><ul><li><a href="icc.html">ICC profiles'
                             b'</a></li><li><a href="softproof.html">Soft proofing</a></li>'
                             b'<li><a href="lcms.html">Little CMS</a></li></ul></body>')
    assert _sections(also)[1][("6.8. Color Management", "See also")] == \
        "ICC profiles\n\nSoft proofing\n\nLittle CMS"
    # the same list atop the page, before its text, is navigation
    atop = GIMP_MENU.replace(b"<p>The Color Management submenu", b"<h2>Related</h2><ul>"
                             b'<li><a href="a.html">Image menu</a></li><li><a href="b.html">Mode'
                             b'</a></li><li><a href="c.html">Transform</a></li></ul>'
                             b"<h2>About</h2><p>The Color Management submenu")
    text = " ".join(_sections(atop)[1].values())
    assert "Transform" not in text and "Discard Color Profile" in text


def test_a_site_map_keeps_its_lists_whatever_their_length():
    # Apache's Chinese `sitemap.html`: short titles in many lists of links, beside one
    # long list of modules whose items say more than their links
    lists = "".join(f'<h2>Part {n}</h2><ul>' + "".join(
        f'<li><a href="p{n}{i}.html">页 {n}{i}</a></li>' for i in range(4)) + '</ul>' for n in range(9))
    modules = '<h2>Modules</h2><ul>' + "".join(
        f'<li><a href="mod/m{i}.html">mod_{i}</a> module number {i} of the server</li>' for i in range(40)) + '</ul>'
    sitemap = _page(f'<h1>站点导航</h1><p>本页列出了全部文档。</p>{lists}{modules}')
    sections = _sections(sitemap, "sitemap.html")[1]
    assert sections[("站点导航", "Part 0")] == "页 00\n\n页 01\n\n页 02\n\n页 03"
    assert len(sections) == 11
