"""Built documentation sites, as Debian installs them: what a generator adds around the
pages (its search index, previous/next links, a chapter's list of other pages, rustdoc's
"Run" buttons) is not read as the pages' words. Written after the Rust book (mdBook) and
the Debian Administrator's Handbook (Publican's DocBook HTML)."""
from __future__ import annotations

import gzip
import json
import re

import pytest

from glean_personal.errors import SkipFile
from glean_personal.formats import extract, read_document
from helpers.files import write_tree
from pdf_factory import show, stream, text_pdf

# -- mdBook's search index: every page's text again, as an elasticlunr index ----------
CHAPTER = """<!DOCTYPE HTML><html lang="en"><head><meta charset="UTF-8">
<title>Reading a File - The Book</title></head><body>
<nav id="sidebar" class="sidebar" aria-label="Table of contents"><ol class="chapter">
<li><a href="ch12-02-reading-a-file.html">12.2. Reading a File</a></li></ol></nav>
<div id="page-wrapper" class="page-wrapper"><div class="page"><div id="content" class="content">
<main><h1 id="reading-a-file"><a class="header" href="#reading-a-file">Reading a File</a></h1>
<p>Now we add functionality to read the file specified in the file_path argument.
The function fs::read_to_string takes the file_path and returns the contents.</p>
</main></div></div></div></body></html>"""


def _mdbook_index() -> dict:
    body = ("Now we add functionality to read the file specified in the file_path argument. "
            "The function fs::read_to_string takes the file_path and returns the contents.")
    return {
        "doc_urls": ["ch12-02-reading-a-file.html#reading-a-file"],
        "index": {
            "documentStore": {"docInfo": {"0": {"body": 24, "breadcrumbs": 3, "title": 3}},
                              "docs": {"0": {"body": body, "breadcrumbs": "Reading a File",
                                             "id": "0", "title": "Reading a File"}},
                              "length": 1, "save": True},
            "fields": ["title", "body", "breadcrumbs"],
            "index": {"body": {"root": {"docs": {}, "df": 0}}},
            "lang": "English", "pipeline": ["trimmer", "stopWordFilter", "stemmer"],
            "ref": "id", "version": "0.9.5"},
        "results_options": {"limit_results": 30, "teaser_word_count": 30},
        "search_options": {"bool": "OR", "expand": True}}


def _site(folder):
    folder.mkdir()
    (folder / "ch12-02-reading-a-file.html").write_text(CHAPTER, encoding="utf-8")
    (folder / "searchindex.json").write_text(json.dumps(_mdbook_index()), encoding="utf-8")
    with gzip.open(folder / "searchindex.json.gz", "wt", encoding="utf-8") as fh:
        json.dump(_mdbook_index(), fh)
    return folder


def test_mdbooks_search_index_is_skipped_and_the_chapter_answers(open_ix, tmp_path):
    ix = open_ix()
    report = ix.index(_site(tmp_path / "book"))
    paths = [h.document["path"] for h in ix.search("read the contents of a file", limit=5).results]
    assert paths == ["ch12-02-reading-a-file.html"]
    skipped = {s["path"]: s["reason"] for s in report.skipped}
    for name in ("searchindex.json", "searchindex.json.gz"):
        assert "search index (mdBook's)" in skipped[name], skipped


@pytest.mark.parametrize("kind, value", [
    ("elasticlunr's", {"version": "0.9.5", "fields": ["title", "body"], "ref": "id",
                       "documentStore": {"docs": {}}, "index": {}, "pipeline": []}),
    ("lunr's", {"version": "2.3.9", "fields": ["title", "text"], "fieldVectors": [],
                "invertedIndex": [], "pipeline": ["stemmer"]}),
    ("MkDocs'", {"config": {"lang": ["en"], "separator": "[\\s\\-]+"},
                 "docs": [{"location": "", "title": "Home", "text": "Welcome to the site."},
                          {"location": "install/", "title": "Install", "text": "Run pip."}]}),
    ("Haddock's", [{"display_html": "<a href=\"#v:catMaybes\">catMaybes</a> :: [Maybe a] -&gt; [a]",
                    "name": "catMaybes", "module": "Data.Maybe", "link": "Data-Maybe.html#v:catMaybes"}]),
])
def test_other_generators_search_indexes_are_skipped(kind, value):
    with pytest.raises(SkipFile, match=f"search index \\({kind}\\)"):
        read_document(json.dumps(value).encode(), "search_index.json")


def test_json_that_only_looks_a_little_like_an_index_is_read():
    # A settings file with `docs` and `config` whose entries are not pages.
    value = {"config": {"theme": "dark"}, "docs": [{"title": "Notes", "path": "notes.md"}],
             "index": {"documentStore": "local"}}
    doc = read_document(json.dumps(value).encode(), "site.json")
    assert "Notes" in doc.text and "documentStore: local" in doc.text
    # a list of records, none with Haddock's `display_html`
    records = [{"name": "catMaybes", "link": "Data-Maybe.html"}]
    assert "catMaybes" in read_document(json.dumps(records).encode(), "names.json").text


# -- Publican's DocBook HTML (the Debian Administrator's Handbook) --------------------
def _publican(body: str, title: str) -> str:
    return (
        '<?xml version="1.0" encoding="UTF-8" standalone="no"?>\n'
        '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" '
        '"http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">'
        '<html xmlns="http://www.w3.org/1999/xhtml"><head><meta http-equiv="Content-Type" '
        f'content="text/html; charset=UTF-8" /><title>{title}</title>'
        '<meta name="generator" content="publican v4.3.2" /></head><body>'
        '<div id="banner"><a href="http://debian-handbook.info/get/"><span class="text">'
        'Download the ebook</span></a></div><p id="title"><a class="left" href="http://www.debian.org">'
        '<img alt="Product Site" src="Common_Content/images//image_left.png" /></a></p>'
        '<ul class="docnav top"><li class="previous"><a accesskey="p" href="sect.common-procedures.html">'
        '<strong>Prev</strong></a></li><li class="home">The Administrator\'s Handbook</li>'
        '<li class="next"><a accesskey="n" href="sect.network-config.html"><strong>Next</strong></a>'
        '</li></ul>' + body +
        '<ul class="docnav"><li class="previous"><a accesskey="p" href="sect.user-group-databases.html">'
        '<strong>Prev</strong>8.4. User and Group Databases</a></li><li class="up"><a accesskey="u" '
        'href="#"><strong>Up</strong></a></li><li class="home"><a accesskey="h" href="index.html">'
        '<strong>Home</strong></a></li><li class="next"><a accesskey="n" href="sect.shell-environment.html">'
        '<strong>Next</strong>8.6. Shell Environment</a></li></ul></body></html>')


SECTION_PAGE = _publican(
    '<div class="section"><div class="titlepage"><div><div><h2 class="title"><a id="sect.creating-accounts">'
    '</a>8.5. Creating Accounts</h2></div></div></div><div class="para">One of the first actions an '
    'administrator needs to do when setting up a new machine is to create user accounts. This is '
    'typically done using the <code class="command">adduser</code> command.</div></div>',
    "8.5. Creating Accounts")
CHAPTER_PAGE = _publican(
    '<div xml:lang="en-US" class="chapter" lang="en-US"><div class="titlepage"><div><div>'
    '<h1 class="title"><a id="basic-configuration"></a>Chapter 8. Basic Configuration</h1></div></div></div>'
    '<div class="toc"><dl class="toc"><dt><span class="section"><a href="basic-configuration.html#sect.lang">'
    '8.1. Configuring the System for Another Language</a></span></dt><dt><span class="section">'
    '<a href="sect.creating-accounts.html">8.5. Creating Accounts</a></span></dt><dt><span class="section">'
    '<a href="sect.shell-environment.html">8.6. Shell Environment</a></span></dt></dl></div>'
    '<div class="para">This chapter reviews the basic configuration: networking, language and '
    'locales, printing, mount points.</div><div class="section"><div class="titlepage"><div><div>'
    '<h2 class="title"><a id="sect.lang"></a>8.1. Configuring the System for Another Language</h2>'
    '</div></div></div><div class="para">Set the default language with the locales package.</div>'
    '</div></div>', "Chapter 8. Basic Configuration")


def test_publican_navigation_banner_and_a_chapters_list_of_other_pages_are_left_out():
    doc = read_document(SECTION_PAGE.encode(), "sect.creating-accounts.html")
    assert [s.heading for s in doc.sections] == [("8.5. Creating Accounts",)]
    assert doc.sections[0].text.endswith("using the adduser command.")
    for nav in ("Prev", "Next", "Home", "Up", "Download the ebook", "8.4.", "8.6.", "Handbook"):
        assert nav not in doc.text, nav
    chapter = read_document(CHAPTER_PAGE.encode(), "basic-configuration.html")
    assert {s.heading: s.text for s in chapter.sections} == {
        ("Chapter 8. Basic Configuration",):
            "This chapter reviews the basic configuration: networking, language and locales, "
            "printing, mount points.",
        ("Chapter 8. Basic Configuration", "8.1. Configuring the System for Another Language"):
            "Set the default language with the locales package."}


def test_a_manual_on_one_page_keeps_its_table_of_contents():
    # No previous/next links: the table of contents is the page's own outline.
    page = CHAPTER_PAGE.replace('<ul class="docnav top">', '<ul class="top">').replace(
        '<ul class="docnav">', '<ul>')
    chapter = read_document(page.encode(), "manual.html")
    assert "8.5. Creating Accounts" in chapter.text


def test_a_chapter_page_is_no_answer_for_a_section_on_another_page(open_ix, tmp_path):
    folder = write_tree(tmp_path / "handbook", {"sect.creating-accounts.html": SECTION_PAGE,
                                                "basic-configuration.html": CHAPTER_PAGE})
    ix = open_ix()
    ix.index(folder)
    paths = [h.document["path"] for h in ix.search("creating accounts", limit=5).results]
    assert paths == ["sect.creating-accounts.html"]
    assert ix.search("previous next home download ebook", limit=5).results == []


# -- rustdoc: a "Run" link to the playground after every example ----------------------
def test_rustdocs_run_links_are_left_out():
    page = ('<!DOCTYPE html><html><head><meta name="generator" content="rustdoc">'
            '<title>Vec in std::vec</title></head><body class="rustdoc"><main>'
            '<h1 class="fqn">Struct <a class="struct" href="#">Vec</a></h1>'
            '<div class="docblock"><p>A contiguous growable array type.</p>'
            '<div class="example-wrap"><pre class="rust rust-example-rendered"><code>'
            'let mut vec = Vec::new();\nvec.push(1);</code></pre>'
            '<a class="test-arrow" target="_blank" href="https://play.example/?code=x">Run</a></div>'
            '<p>It can also be made with the vec! macro.</p></div></main></body></html>')
    doc = read_document(page.encode(), "struct.Vec.html")
    lines = doc.text.split("\n")
    assert "vec.push(1);" in lines and "Run" not in lines
    assert "It can also be made with the vec! macro." in lines


# -- Texinfo's makeinfo --html: a page a node, with navigation, menus and indexes -----
def _makeinfo(body: str, title: str, version: str = "6.8", generator: str = "makeinfo") -> str:
    return ('<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN" '
            '"http://www.w3.org/TR/html4/loose.dtd"><html>'
            f'<!-- Created by GNU Texinfo {version}, https://www.gnu.org/software/texinfo/ -->'
            f'<head><meta http-equiv="Content-Type" content="text/html; charset=utf-8">'
            f'<title>{title} (GNU Octave (version 7.3.0))</title>'
            f'<meta name="Generator" content="{generator}"><link rel="stylesheet" type="text/css" '
            'href="octave.css"></head><body lang="en">' + body + '</body></html>')


_NAV = ('<div class="header"><p>Next: <a href="The-do_002duntil-Statement.html" accesskey="n" '
        'rel="next">The do-until Statement</a>, Previous: <a href="The-switch-Statement.html" '
        'accesskey="p" rel="prev">The switch Statement</a>, Up: <a href="Statements.html" '
        'accesskey="u" rel="up">Statements</a> &nbsp; [<a href="index.html#SEC_Contents" '
        'title="Table of contents" rel="contents">Contents</a>][<a href="Concept-Index.html" '
        'title="Index" rel="index">Index</a>]</p></div>')
WHILE_NODE = _makeinfo(
    '<div class="section" id="The-while-Statement">' + _NAV + '<hr><span id="The-while-Statement-1">'
    '</span><h3 class="section">10.3 The while Statement</h3><p>The <code>while</code> statement '
    'repeatedly executes a statement as long as a condition is true.</p>'
    '<ul class="section-toc"><li><a href="Loop-Examples.html" accesskey="1">Loop Examples</a></li>'
    '<li><a href="Nested-Loops.html" accesskey="2">Nested Loops</a></li></ul><hr>' + _NAV + '</div>',
    "The while Statement")
MATRIX_NODE = _makeinfo(
    '<div class="section" id="Basic-Matrix-Functions">' + _NAV + '<hr>'
    '<h3 class="section">18.2 Basic Matrix Functions</h3><dl class="def">'
    '<dt id="index-balance"><span class="category">: </span><span><em><var>AA</var> =</em> '
    '<strong>balance</strong> <em>(<var>A</var>)</em><a href="#index-balance" '
    'class="copiable-anchor"> &para;</a></span></dt><dd><p>Balance the matrix A to reduce '
    'numerical errors in future calculations.</p></dd>'
    '<dt id="index-eig"><span class="category">Function: </span><span><strong>eig</strong> '
    '<em>(<var>A</var>)</em></span></dt><dd><p>Compute the eigenvalues of a square matrix.</p>'
    '</dd></dl></div>', "Basic Matrix Functions")
_JUMP = ('<table><tr><th valign="top">Jump to: &nbsp; </th><td><a class="summary-letter" '
         'href="#Function-Index_fn_letter-B"><b>B</b></a> &nbsp; <a class="summary-letter" '
         'href="#Function-Index_fn_letter-E"><b>E</b></a></td></tr></table>')
FUNCTION_INDEX = _makeinfo(
    '<div class="unnumbered" id="Function-Index">' + _NAV + '<hr>'
    '<h2 class="unnumbered">Function Index</h2>' + _JUMP +
    '<table class="index-fn" border="0"><tr><td></td><th align="left">Index Entry</th><td>&nbsp;</td>'
    '<th align="left"> Section</th></tr><tr><th id="Function-Index_fn_letter-B">B</th><td></td><td>'
    '</td></tr><tr><td></td><td valign="top"><a href="Basic-Matrix-Functions.html#index-balance">'
    '<code>balance</code></a>:</td><td>&nbsp;</td><td valign="top"><a href="Basic-Matrix-Functions.html">'
    'Basic Matrix Functions</a></td></tr><tr><td></td><td valign="top"><a href="Basic-Matrix-Functions'
    '.html#index-eig"><code>eig</code></a>:</td><td>&nbsp;</td><td valign="top"><a href="Basic-Matrix-'
    'Functions.html">Basic Matrix Functions</a></td></tr></table>' + _JUMP + '</div>',
    "Function Index")
TOP_NODE = _makeinfo(
    '<h1 class="settitle" align="center">GNU Octave</h1><span id="SEC_Contents"></span>'
    '<h2 class="contents-heading">Table of Contents</h2><div class="contents"><ul class="no-bullet">'
    '<li><a id="toc-Statements" href="Statements.html">10 Statements</a><ul class="no-bullet">'
    '<li><a href="The-while-Statement.html">10.3 The while Statement</a></li></ul></li></ul></div>'
    '<div class="top" id="Top"><div class="header"><p>Next: <a href="Preface.html" accesskey="n" '
    'rel="next">Preface</a></p></div><hr><p>This manual documents how to run, install and port '
    'GNU Octave.</p><table class="menu" border="0" cellspacing="0"><tr><td align="left" '
    'valign="top">&bull; <a href="Statements.html" accesskey="1">Statements</a>:</td>'
    '<td>&nbsp;&nbsp;</td><td align="left" valign="top">Looping and branching.</td></tr></table>'
    '</div>', "Top")


def test_makeinfo_navigation_menus_and_table_of_contents_are_left_out():
    doc = read_document(WHILE_NODE.encode(), "The-while-Statement.html")
    assert [(s.heading, s.text) for s in doc.sections] == [
        (("10.3 The while Statement",),
         "The while statement repeatedly executes a statement as long as a condition is true.")]
    top = read_document(TOP_NODE.encode(), "index.html")
    assert [s.heading for s in top.sections] == [("GNU Octave",)]
    assert "This manual documents how to run, install and port GNU Octave." in top.text
    for nav in ("Table of Contents", "10 Statements", "Preface", "Looping and branching"):
        assert nav not in top.text, nav


def test_makeinfo_definitions_lose_an_empty_category_and_keep_a_named_one():
    doc = read_document(MATRIX_NODE.encode(), "Basic-Matrix-Functions.html")
    lines = doc.text.split("\n")
    assert "AA = balance (A)" in lines
    assert "Function: eig (A)" in lines
    assert not any(line.startswith(":") or "¶" in line for line in lines)


def test_makeinfo_index_pages_show_no_entries():
    doc = read_document(FUNCTION_INDEX.encode(), "Function-Index.html")
    for word in ("balance", "eig", "Basic Matrix Functions", "Jump to", "Index Entry", "|"):
        assert word not in doc.text, word


def test_texi2any_is_makeinfo_under_its_newer_name():
    # Texinfo's converter calls itself `texi2any` in the pages it makes (zsh's manual)
    page = FUNCTION_INDEX.replace('content="makeinfo"', 'content="texi2any"')
    assert 'content="texi2any"' in page
    doc = read_document(page.encode(), "Function-Index.html")
    for word in ("balance", "eig", "Basic Matrix Functions", "Jump to", "Index Entry", "|"):
        assert word not in doc.text, word
    node = read_document(WHILE_NODE.replace('content="makeinfo"', 'content="texi2any"').encode(),
                         "The-while-Statement.html")
    assert "Previous" not in node.text and "Nested Loops" not in node.text


def test_texinfo_7_navigation_menus_and_indexes_are_left_out():
    page = _makeinfo(
        '<div class="section-level-extent" id="The-while-Statement"><div class="nav-panel"><p>'
        'Next: <a href="Loops.html" accesskey="n" rel="next">Loops</a>, Up: <a href="Statements.html" '
        'accesskey="u" rel="up">Statements</a></p></div><hr><h3 class="section" id="The-while-Statement-1">'
        '<span>10.3 The while Statement<a class="copiable-link" href="#The-while-Statement-1"> &para;'
        '</a></span></h3><dl class="first-deffn"><dt class="deffn" id="index-pause"><span '
        'class="category-def">: </span><span><strong class="def-name">pause</strong> <var '
        'class="def-var-arguments">(n)</var><a class="copiable-link" href="#index-pause"> &para;</a>'
        '</span></dt><dd><p>Suspend the execution of the program for n seconds.</p></dd></dl>'
        '<ul class="mini-toc"><li><a href="Loops.html" accesskey="1">Loops</a></li></ul>'
        '<table class="cp-entries-printindex" border="0"><tr><td></td><td class="printindex-index-entry">'
        '<a href="Loops.html#index-loop">loop</a>:</td><td class="printindex-index-section">'
        '<a href="Loops.html">Loops</a></td></tr></table></div>', "The while Statement", "7.0.3")
    doc = read_document(page.encode(), "The-while-Statement.html")
    assert [s.heading for s in doc.sections] == [("10.3 The while Statement",)]
    assert [line for line in doc.sections[0].text.split("\n") if line] == [
        "pause (n)", "Suspend the execution of the program for n seconds."]


# R's manuals: Texinfo 6.8 run as `texi2any --html`, a whole manual on one page
ONE_PAGE_MANUAL = _makeinfo(
    '<h1 class="settitle" align="center">R Data Import/Export</h1><span id="SEC_Contents"></span>'
    '<h2 class="contents-heading">Table of Contents</h2><div class="contents"><ul class="no-bullet">'
    '<li><a href="#Reading-Excel-spreadsheets">9 Reading Excel spreadsheets</a></li></ul></div>'
    '<div class="chapter" id="Reading-Excel-spreadsheets"><div class="header"><p>Next: <a href="'
    '#Concept-index" accesskey="n" rel="next">Concept index</a> &nbsp; [<a href="#SEC_Contents" '
    'title="Table of contents" rel="contents">Contents</a>][<a href="#Concept-index" title="Index" '
    'rel="index">Index</a>]</p></div><h2 class="chapter">9 Reading Excel spreadsheets</h2>'
    '<p>The most common question is how to read a quince spreadsheet<a id="DOCF1" href="#FOOT1">'
    '<sup>1</sup></a>.</p></div><div class="unnumbered" id="Concept-index"><h2 class="unnumbered">'
    'Concept index</h2><table class="index-cp" border="0"><tr><td></td><td valign="top"><a href="'
    '#index-Excel"><code>Excel</code></a>:</td><td>&nbsp;</td><td valign="top"><a href="'
    '#Reading-Excel-spreadsheets">Reading Excel spreadsheets</a></td></tr></table></div>'
    '<div class="footnote"><hr><h4 class="footnotes-heading">Footnotes</h4><h5><a id="FOOT1" '
    'href="#DOCF1">(1)</a></h5><p>Or a workbook saved by another program.</p></div>',
    "R Data Import/Export", generator="texi2any")


def test_a_texi2any_manual_on_one_page_is_read_as_makeinfos_and_keeps_its_footnotes_apart():
    doc = read_document(ONE_PAGE_MANUAL.encode(), "R-data.html")
    assert [s.heading for s in doc.sections] == [
        ("R Data Import/Export", "9 Reading Excel spreadsheets"),
        ("R Data Import/Export", "Concept index"),
        ("R Data Import/Export", "Footnotes", "(1)")]
    for nav in ("Table of Contents", "9 Reading", "Next:", "Contents ]", "Index Entry", "Excel:"):
        assert nav not in doc.text, nav
    assert doc.sections[2].text == "Or a workbook saved by another program."
    # on a page a node, the footnotes stay under the node's heading
    node = read_document(WHILE_NODE.replace(
        '<hr>' + _NAV + '</div>', '<div class="footnote"><hr><h4 class="footnotes-heading">Footnotes'
        '</h4><h5><a id="FOOT1" href="#DOCF1">(1)</a></h5><p>Or until.</p></div></div>').encode(),
        "The-while-Statement.html")
    assert node.sections[-1].heading == ("10.3 The while Statement", "Footnotes", "(1)")


def test_a_one_page_manuals_chapter_answers_and_its_index_does_not(open_ix, tmp_path):
    folder = write_tree(tmp_path / "manual", {"R-data.html": ONE_PAGE_MANUAL})
    ix = open_ix()
    ix.index(folder)
    hits = ix.search("read a quince spreadsheet", limit=3, passages=True).results
    assert [list(h.section) for h in hits] == [["R Data Import/Export", "9 Reading Excel spreadsheets"]]
    assert ix.search("table of contents", limit=3).results == []


def test_a_div_header_of_another_generator_is_kept():
    page = ('<html><head><title>Notes</title></head><body><div class="header"><p>Welcome to my '
            'notes about sourdough bread.</p></div><p>Feed the starter every day.</p></body></html>')
    doc = read_document(page.encode(), "notes.html")
    assert "Welcome to my notes about sourdough bread." in doc.text


def test_an_index_page_is_no_answer_for_the_functions_it_lists(open_ix, tmp_path):
    folder = write_tree(tmp_path / "octave.html", {"Basic-Matrix-Functions.html": MATRIX_NODE,
                                                   "Function-Index.html": FUNCTION_INDEX,
                                                   "The-while-Statement.html": WHILE_NODE})
    ix = open_ix()
    ix.index(folder)
    paths = [h.document["path"] for h in ix.search("balance eig", limit=5).results]
    assert paths == ["Basic-Matrix-Functions.html"]
    assert ix.search("switch do-until", limit=5).results == []


# -- rustdoc as Rust 1.63 writes it: the version box and "Notable traits" tooltips -----
HEAP_PAGE = (
    '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
    '<meta name="generator" content="rustdoc"><title>BinaryHeap in std::collections - Rust'
    '</title></head><body class="rustdoc struct"><section id="main-content" class="content">'
    '<div class="main-heading"><h1 class="fqn"><span class="in-band">Struct <a href="../index.html">'
    'std</a>::<wbr><a href="index.html">collections</a>::<wbr><a class="struct" href="#">BinaryHeap'
    '</a></span></h1><span class="out-of-band"><span class="since" title="Stable since Rust version '
    '1.0.0">1.0.0</span> · <a class="srclink" href="../../src/alloc/collections/binary_heap.rs.html'
    '#247-249">source</a> · <a id="toggle-all-docs" href="javascript:void(0)" title="collapse all '
    'docs">[<span class="inner">&#x2212;</span>]</a></span></div>'
    '<details class="rustdoc-toggle top-doc" open><summary class="hideme"><span>Expand description'
    '</span></summary><div class="docblock"><p>A priority queue implemented with a binary heap. See '
    '<a href="struct.BTreeMap.html"><code>BTreeMap</code></a>, or <a href="struct.ThinBox.html">'
    'ThinBox</a><span class="stab unstable">Experimental</span>.</p>'
    "<div class='information'><div class='tooltip should_panic'>ⓘ</div></div><div class="
    '"example-wrap"><pre class="rust rust-example-rendered should_panic"><code>let heap = '
    'BinaryHeap::&lt;i32&gt;::new();</code></pre></div></div></details><h2 id="implementations" class="small-section-header">Implementations</h2>'
    '<div id="implementations-list"><details class="rustdoc-toggle implementors-toggle" open>'
    '<summary><section id="impl-BinaryHeap%3CT%3E" class="impl has-srclink"><h3 class="code-header">'
    'impl&lt;T&gt; BinaryHeap&lt;T&gt;</h3></section></summary><div class="impl-items">'
    '<details class="rustdoc-toggle method-toggle" open><summary><section id="method.into_sorted_vec"'
    ' class="method has-srclink"><span class="rightside"><a class="srclink" href="#">source</a>'
    '</span><h4 class="code-header">pub fn <a href="#method.into_sorted_vec" class="fnname">'
    'into_sorted_vec</a>(self) -&gt; Vec&lt;T&gt;<span class="notable-traits"><span class='
    '"notable-traits-tooltip">ⓘ<span class="notable-traits-tooltiptext"><span class="docblock">'
    '<span class="notable">Notable traits for Vec&lt;u8, A&gt;</span><code class="content">'
    '<span class="where fmt-newline">impl&lt;A: Allocator&gt; Write for Vec&lt;u8, A&gt;</span>'
    '</code></span></span></span></span></h4></section></summary><div class="docblock"><p>Consumes '
    'the heap and returns a vector in sorted (ascending) order.</p></div></details></div></details>'
    '</div></section></body></html>')


def test_old_rustdocs_version_box_and_notable_traits_tooltips_are_left_out(open_ix, tmp_path):
    doc = read_document(HEAP_PAGE.encode(), "struct.BinaryHeap.html")
    assert doc.text.split("\n")[0] == ("A priority queue implemented with a binary heap. See "
                                       "BTreeMap, or ThinBox Experimental.")
    assert "source" not in doc.text and "[−]" not in doc.text and "1.0.0" not in doc.text
    assert "ⓘ" not in doc.text and "let heap = BinaryHeap::<i32>::new();" in doc.text
    folder = write_tree(tmp_path / "std", {"collections/struct.BinaryHeap.html": HEAP_PAGE})
    ix = open_ix()
    ix.index(folder)
    hits = ix.search("sorted vector", limit=3, passages=True).results
    assert hits and list(hits[0].section) == [
        "Struct std::collections::BinaryHeap", "Implementations", "impl<T> BinaryHeap<T>",
        "pub fn into_sorted_vec(self) -> Vec<T>"]
    assert ix.search("notable traits allocator", limit=3).results == []


# -- javadoc 17: a "Uses of Class" page for every class, class trees, the A-Z index ----
def _javadoc(writer: str, title: str, body: str) -> str:
    return ('<!DOCTYPE HTML><html lang="en"><head><title>' + title + ' (Java SE 17 &amp; JDK 17)'
            '</title><meta name="generator" content="javadoc/' + writer + '"></head><body>'
            '<div class="flex-box"><header role="banner" class="flex-header"><nav role="navigation">'
            '<a href="../../index.html">Overview</a></nav></header><div class="flex-content">'
            '<main role="main">' + body + '</main></div></div></body></html>')


FILES_PAGE = _javadoc("ClassWriterImpl", "Files", (
    '<div class="header"><h1 title="Class Files" class="title">Class Files</h1></div>'
    '<section class="method-summary" id="method-summary"><h2>Method Summary</h2>'
    '<div class="summary-table"><div class="col-second"><a href="#readAllLines">readAllLines</a>'
    '(Path path)</div><div class="col-last"><div class="block">Read all lines from a file.</div>'
    '</div></div><div class="inherited-list"><h3 id="methods-inherited-from-class-java.lang.Object">'
    'Methods declared in class&nbsp;java.lang.<a href="../../lang/Object.html">Object</a></h3>'
    '<code><a href="../../lang/Object.html#clone()">clone</a>, <a href="../../lang/Object.html#'
    'notify()">notify</a>, <a href="../../lang/Object.html#wait()">wait</a></code></div></section>'
    '<section class="method-details" id="method-detail"><h2>Method Details</h2>'
    '<section class="detail" id="readAllLines(java.nio.file.Path)"><h3>readAllLines</h3>'
    '<div class="member-signature"><span class="modifiers">public static</span>&nbsp;<span '
    'class="return-type"><a href="../../util/List.html">List</a>&lt;<a href="../../lang/String.html">'
    'String</a>&gt;</span>&nbsp;<span class="element-name">readAllLines</span><wbr><span class='
    '"parameters">(<a href="Path.html">Path</a>&nbsp;path)</span></div>'
    '<div class="block">Read all lines from a file.</div></section></section>'))
LIST_USES = _javadoc("ClassUseWriter", "Uses of Interface java.util.List", (
    '<div class="header"><h1 title="Uses of Interface java.util.List" class="title">Uses of '
    'Interface<br>java.util.List</h1></div><section class="class-uses"><h2>Uses of List in '
    'java.nio.file</h2><div class="caption"><span>Methods in java.nio.file that return List</span>'
    '</div><div class="col-second"><a href="../../nio/file/Files.html#readAllLines">Files.'
    'readAllLines</a>(Path path)</div><div class="col-last"><div class="block">Read all lines from '
    'a file.</div></div></section>'))
TREE_PAGE = _javadoc("PackageTreeWriter", "java.nio.file Class Hierarchy", (
    '<h1 class="title">Hierarchy For Package java.nio.file</h1><section class="hierarchy">'
    '<h2 title="Class Hierarchy">Class Hierarchy</h2><ul><li>java.lang.Object<ul><li>java.nio.'
    'file.<a href="Files.html">Files</a></li></ul></li></ul></section>'))


@pytest.mark.parametrize("writer, page, reason", [
    ("ClassUseWriter", LIST_USES, "uses of a class"),
    ("PackageTreeWriter", TREE_PAGE, "a package's class hierarchy"),
    ("IndexWriter", _javadoc("IndexWriter", "R-Index", '<h1>Index</h1><dl class="index">'
                             '<dt><a href="Files.html#readAllLines">readAllLines(Path)</a> - in '
                             'java.nio.file.Files</dt><dd>Read all lines from a file.</dd></dl>'),
     "the index of all names"),
], ids=["uses", "tree", "index"])
def test_javadocs_cross_reference_pages_are_skipped(writer, page, reason):
    with pytest.raises(SkipFile, match=f"javadoc's cross-reference page \\({reason}\\)"):
        read_document(page.encode(), "index-18.html")
    kept = page.replace(f"javadoc/{writer}", "javadoc/ClassWriterImpl")
    assert "java.nio.file" in read_document(kept.encode(), "index-18.html").text   # a class page is read


def test_javadocs_lists_of_inherited_methods_are_left_out(open_ix, tmp_path):
    doc = read_document(FILES_PAGE.encode(), "Files.html")
    assert [s.heading[-1] for s in doc.sections] == ["Method Summary", "readAllLines"]
    assert "notify" not in doc.text and "declared in" not in doc.text
    assert "public static List<String> readAllLines(Path path)" in doc.text.split("\n")
    ix = open_ix()
    ix.index(write_tree(tmp_path / "java.base", {"java/nio/file/Files.html": FILES_PAGE}))
    assert ix.search("wait notify", limit=3).results == []


def test_a_javadoc_class_page_answers_without_its_uses_page(open_ix, tmp_path):
    folder = write_tree(tmp_path / "java.base", {"java/nio/file/Files.html": FILES_PAGE,
                                                 "java/nio/file/package-tree.html": TREE_PAGE,
                                                 "java/util/class-use/List.html": LIST_USES})
    ix = open_ix()
    report = ix.index(folder)
    skipped = {s["path"]: s["reason"] for s in report.skipped}
    assert skipped == {"java/nio/file/package-tree.html":
                       "javadoc's cross-reference page (a package's class hierarchy)",
                       "java/util/class-use/List.html": "javadoc's cross-reference page (uses of a class)"}
    paths = [h.document["path"] for h in ix.search("read all lines of a file into a list", limit=5).results]
    assert paths == ["java/nio/file/Files.html"]


# -- Django's Sphinx theme, Sphinx's viewcode links, the Apache HTTP Server manual ------
# (round 15 of the new-user trials: Django 3.2's HTML manual and Apache httpd 2.4's
# manual, as Debian installs them)
DJANGO_PAGE = """<!DOCTYPE html><html lang="en"><head><meta charset="utf-8" />
<title>Sending email &#8212; Django 3.2.25 documentation</title></head><body>
<div class="document"><div id="custom-doc" class="yui-t6">
<div id="hd"><h1><a href="../index.html">Django 3.2.25 documentation</a></h1>
<div id="global-nav"><a href="../index.html">Home</a> | <a href="../contents.html">Table of contents</a>
| <a href="../genindex.html">Index</a> | <a href="../py-modindex.html">Modules</a></div>
<div class="nav">&laquo; <a href="cache.html">previous</a> | <a href="index.html">up</a> |
<a href="files.html">next</a> &raquo;</div></div>
<div id="bd"><div id="yui-main"><div class="yui-b"><div class="yui-g" id="topics-email">
<div class="section" id="s-sending-email"><h1>Sending email<a class="headerlink" href="#sending-email">¶</a></h1>
<p>Django provides a couple of light wrappers over smtplib to make sending email quick.</p>
<div class="section" id="s-send-mail"><h2>send_mail()<a class="headerlink" href="#send-mail">¶</a></h2>
<dl class="py function"><dt class="sig sig-object py" id="django.core.mail.send_mail">
<span class="sig-name descname">send_mail</span>(<em>subject</em>, <em>message</em>)
<a class="reference internal" href="../_modules/django/core/mail.html#send_mail"><span class="viewcode-link"><span class="pre">[source]</span></span></a><a class="headerlink" href="#django.core.mail.send_mail">¶</a></dt>
<dd><p>In most cases, you can send email using send_mail to a list of recipients.</p></dd></dl>
</div></div></div></div></div>
<div class="yui-b" id="sidebar"><div class="sphinxsidebar" role="navigation"><div class="sphinxsidebarwrapper">
<h4>Previous topic</h4><p class="topless"><a href="cache.html">Caching</a></p></div></div>
<h3>Last update:</h3><p class="topless">Nov 11, 2026</p></div></div>
<div id="ft"><div class="nav">&laquo; <a href="cache.html">previous</a> | <a href="index.html">up</a> |
<a href="files.html">next</a> &raquo;</div></div></div></div></body></html>"""

VIEWCODE_PAGE = """<html><head><title>django.core.mail</title></head><body><div class="body" role="main">
<h1>Source code for django.core.mail</h1><div class="highlight"><pre>
<div class="viewcode-block" id="send_mail"><a class="viewcode-back" href="../../../topics/email.html#django.core.mail.send_mail">[docs]</a><span class="k">def</span> <span class="nf">send_mail</span>(subject, message):
    return mail.send()</div></pre></div></div></body></html>"""


def test_djangos_theme_is_read_without_its_header_footer_and_last_update():
    doc = read_document(DJANGO_PAGE.encode(), "email.html")
    assert doc.title == "Sending email"   # the site's name after the heading is not the title
    assert [s.heading for s in doc.sections] == [
        ("Sending email",), ("Sending email", "send_mail()", "send_mail(subject, message)")]
    for junk in ("previous", "Table of contents", "Last update", "Nov 11", "Previous topic",
                 "Django 3.2.25 documentation", "[source]", "¶"):
        assert junk not in doc.text


def test_sphinx_viewcode_source_and_docs_links_are_left_out():
    doc = read_document(VIEWCODE_PAGE.encode(), "mail.html")
    assert "[docs]" not in doc.text
    assert "def send_mail(subject, message):" in doc.text.split("\n")
    # a "[source]" that is not viewcode's (a link elsewhere, or plain words) stays
    other = DJANGO_PAGE.replace("../_modules/django/core/mail.html#send_mail", "../src/mail.py")
    assert "send_mail(subject, message) [source]" in [
        s.heading[-1] for s in read_document(other.encode(), "email.html").sections]


def _httpd(body: str, stylesheet: str = "../../style/css/manual.css") -> str:
    return f"""<!DOCTYPE html SYSTEM "about:legacy-compat">
<html lang="en"><head><META http-equiv="Content-Type" content="text/html; charset=UTF-8">
<title>mod_deflate - Apache HTTP Server Version 2.4</title>
<link href="{stylesheet}" rel="stylesheet" media="all" type="text/css" title="Main stylesheet">
</head><body id="manual-page"><div id="page-header">
<p class="menu"><a href="../mod/index.html">Modules</a> | <a href="../mod/quickreference.html">Directives</a>
| <a href="../glossary.html">Glossary</a> | <a href="../sitemap.html">Sitemap</a></p>
<p class="apache">Apache HTTP Server Version 2.4</p></div>
<div id="path"><a href="https://www.apache.org/">Apache</a> &gt; <a href="../index.html">Version 2.4</a>
&gt; <a href="./">Modules</a></div>
<div id="page-content"><div id="preamble"><h1>Apache Module mod_deflate</h1>
<div class="toplang"><p><span>Available Languages: </span><a href="../../en/mod/mod_deflate.html">&nbsp;en&nbsp;</a> |
<a href="../../fr/mod/mod_deflate.html" hreflang="fr">&nbsp;fr&nbsp;</a></p></div>
<h3>Summary</h3><p>The mod_deflate module provides the DEFLATE output filter that compresses
output from your server before it is sent to the client.</p></div>
<div id="quickview"><h3>Topics</h3><ul id="topics"><li><a href="#enable">Enabling Compression</a></li></ul>
<h3>Bugfix checklist</h3><ul class="seealso"><li><a href="https://example.org/CHANGES">httpd changelog</a></li>
<li><a href="https://example.org/bugs">Known issues</a></li></ul></div>
{body}</div>
<div class="bottomlang"><p><span>Available Languages: </span><a href="../../en/mod/mod_deflate.html">&nbsp;en&nbsp;</a></p></div>
<div id="footer"><p class="apache">Copyright 2026 The Apache Software Foundation.</p>
<p class="menu"><a href="../mod/index.html">Modules</a> | <a href="../sitemap.html">Sitemap</a></p></div>
</body></html>"""


HTTPD_SECTION = """<div class="section"><h2 id="enable">Enabling Compression <a title="Permanent link"
href="#enable" class="permalink">&para;</a></h2><p>Compression is implemented by the DEFLATE
filter: <code>SetOutputFilter DEFLATE</code> compresses the pages of its container.</p></div>"""


def test_the_apache_manuals_header_languages_quickview_and_footer_are_left_out():
    doc = read_document(_httpd(HTTPD_SECTION).encode(), "mod_deflate.html")
    assert [s.heading for s in doc.sections] == [
        ("Apache Module mod_deflate", "Summary"), ("Apache Module mod_deflate", "Enabling Compression")]
    for junk in ("Available Languages", "Sitemap", "Apache >", "Version 2.4", "Topics",
                 "Bugfix checklist", "Known issues", "Copyright", "¶"):
        assert junk not in doc.text
    assert doc.sections[0].text.startswith("The mod_deflate module provides the DEFLATE output filter")
    # another site's `div#path` or `div.toplang` is its own business
    other = read_document(_httpd(HTTPD_SECTION, "css/site.css").encode(), "mod_deflate.html")
    assert "Available Languages" in other.text and "Known issues" in other.text


def test_the_apache_manuals_pages_answer_without_their_frame(open_ix, tmp_path):
    folder = write_tree(tmp_path / "manual", {"en/mod/mod_deflate.html": _httpd(HTTPD_SECTION)})
    ix = open_ix()
    ix.index(folder)
    assert ix.search("available languages sitemap", limit=3).results == []
    assert ix.search("bugfix checklist known issues", limit=3).results == []
    hits = ix.search("compress the pages with the DEFLATE filter", limit=3, passages=True).results
    assert [list(h.section) for h in hits][:1] == [["Apache Module mod_deflate", "Enabling Compression"]]


def test_djangos_pages_answer_without_their_navigation(open_ix, tmp_path):
    folder = write_tree(tmp_path / "html", {"topics/email.html": DJANGO_PAGE,
                                            "_modules/django/core/mail.html": VIEWCODE_PAGE})
    ix = open_ix()
    ix.index(folder)
    assert ix.search("last update previous up next", limit=3).results == []
    shown = [h.passage_text for h in ix.search("send mail", limit=5, passages=True).results]
    assert shown and not any("[docs]" in text or "[source]" in text for text in shown)


# -- Erlang/OTP's erl_docgen: a function's "Types" is a label, not a section -------------
def _erldocgen(functions: str) -> str:
    return f"""<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN">
<html xmlns:erl="http://erlang.org" xmlns:fn="http://www.w3.org/2005/02/xpath-functions">
<head><link rel="stylesheet" href="../../../../doc/otp_doc.css" type="text/css">
<title>Erlang -- lists</title></head><body><div id="container">
<div class="topbar"><div class="topbar-title"><h1 id="lists">lists</h1></div></div>
<aside class="hide-mobile" id="leftnav"><nav class="leftnav-tube"><p class="section-title">STDLIB</p>
<h3 id="toc">Table of Contents</h3><ul class="flipMenu"><li><a href="array.html">array</a></li></ul></nav></aside>
<div id="content"><div class="innertube"><center><h1>lists</h1></center></div>
<div class="innertube"><h3 id="description" class="title-link">Description</h3></div>
<div class="REFBODY rb-3"><p>This module contains functions for list processing. Unless otherwise
stated, all functions assume that position numbering starts at 1. That is, the first element of a
list is at position 1. Two terms T1 and T2 compare equal if T1 == T2 evaluates to true. They match
if T1 =:= T2 evaluates to true. Whenever an ordering function F is expected as argument, it is
assumed that the following properties hold of F for all x, y, and z: if x F y and y F x, then
x = y (F is antisymmetric); if x F y and y F z, then x F z (F is transitive); x F y or y F x
(F is total). An example of a typical ordering function is less than or equal to: =&lt;/2.</p></div>
<div class="innertube"><h3 id="export" class="title-link">Exports</h3></div>
{functions}
<div class="footer"><hr><p>Copyright © 1997-2026 Ericsson AB. All Rights Reserved.</p></div>
</div></div></body></html>"""


def _erlfunction(ident: str, signature: str, types: str, text: str, since: str = "") -> str:
    since = f'<div class="title-since"><span class="since">{since}</span></div>' if since else ""
    return f"""<article class="func"><h4 id="{ident}" class="bold_code title-link func-head">
<div class="title-anchors"><span class="ghlink-before"><a href="#{ident}" title="Link to this place!"><span
class="paperclip-before"></span></a></span></div><span class="title-name">{signature}</span>{since}</h4>
<div class="REFBODY fun-types"><h3 id="types" class="func-types-title">Types</h3>
<div class="REFTYPES rt-1"><span class="bold_code bc-2">{types}</span></div></div>
<div class="exports-tube"><div class="REFBODY rb-7"><p>{text}</p></div></div></article>"""


ERL_FUNCTIONS = (
    _erlfunction("sort-1", "sort(List1) -&gt; List2", "List1 = List2 = [T]",
                 "Returns a list containing the sorted elements of List1.")
    + _erlfunction("split-2", "split(String, SearchPattern) -&gt; [unicode:chardata()]",
                   "String = unicode:chardata()", "Splits String where SearchPattern is found.",
                   since="OTP 20.0"))


def test_erl_docgens_types_label_leaves_each_function_its_own_section():
    doc = read_document(_erldocgen(ERL_FUNCTIONS).encode(), "lists.html")
    assert [s.heading for s in doc.sections] == [
        ("lists", "Description"),
        ("lists", "Exports", "sort(List1) -> List2"),
        ("lists", "Exports", "split(String, SearchPattern) -> [unicode:chardata()]")]
    assert doc.sections[1].text.split("\n\n") == [
        "Types", "List1 = List2 = [T]", "Returns a list containing the sorted elements of List1."]
    assert "OTP 20.0" not in doc.text and "Copyright" not in doc.text
    # another page's "Types" heading of that class is a heading
    other = _erldocgen(ERL_FUNCTIONS).replace(' xmlns:erl="http://erlang.org"', "")
    assert ("lists", "Types") in [s.heading for s in read_document(other.encode(), "lists.html").sections]


def test_erl_docgen_functions_are_found_under_their_own_heading(open_ix, tmp_path):
    folder = write_tree(tmp_path / "stdlib", {"doc/html/lists.html": _erldocgen(ERL_FUNCTIONS)})
    ix = open_ix()
    ix.index(folder)
    hits = ix.search("sorted elements of a list", limit=1, passages=True).results
    assert [list(h.section) for h in hits] == [["lists", "Exports", "sort(List1) -> List2"]]
    assert ix.search("Ericsson copyright", limit=3).results == []


def test_one_long_erl_docgen_function_is_not_taken_for_the_whole_page():
    # each function is an <article>; one that holds most of the page's words
    # (compile:file/2's options) left the page only that function before
    long_text = " ".join(["Option report_errors prints the errors as they occur."] * 40)
    page = _erldocgen(_erlfunction("file-2", "file(File, Options) -&gt; CompRet",
                                   "File = file:filename()", long_text))
    doc = read_document(page.encode(), "compile.html")
    assert [s.heading for s in doc.sections] == [
        ("lists", "Description"), ("lists", "Exports", "file(File, Options) -> CompRet")]


# Sphinx's search page, as the basic theme writes it (the Python manual's, cut short).
SPHINX_SEARCH = """<!DOCTYPE html><html><head><title>Search &#8212; Python 3.11 documentation</title>
<script src="_static/documentation_options.js"></script>
<script src="_static/searchtools.js"></script></head><body>
<div class="body" role="main"><h1 id="search-documentation">Search</h1>
<noscript><div class="admonition warning"><p>Please activate JavaScript to enable the search
functionality.</p></div></noscript>
<p>Searching for multiple words only shows matches that contain all words.</p>
<form action="" method="get"><input type="text" name="q" /><input type="submit" value="search" />
</form><div id="search-results"></div></div>
<div class="footer">&copy; Copyright 2001-2026, Python Software Foundation.</div></body></html>"""


def test_sphinx_search_page_is_skipped():
    # Every Sphinx build has one; its results are filled in by its script, so as
    # a document it held only how to search.
    with pytest.raises(SkipFile, match="Sphinx's search page"):
        read_document(SPHINX_SEARCH.encode(), "search.html")
    # a page with such a box but none of Sphinx's search script, or with text of
    # its own, is read
    other = SPHINX_SEARCH.replace("searchtools.js", "site.js")
    assert "Searching for multiple words" in read_document(other.encode(), "search.html").text
    long_text = SPHINX_SEARCH.replace("</form>", "</form><p>" + "Help text. " * 120 + "</p>")
    assert "Help text." in read_document(long_text.encode(), "search.html").text


# -- Doxygen: a source file's numbered listing is a copy of the file it documents ---------
def _doxygen(title: str, contents: str, generator: str = "Doxygen 1.9.4") -> str:
    """A page as Doxygen 1.9 writes it (FFmpeg's API reference, Debian's ffmpeg-doc, cut short)."""
    return f"""<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "https://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">
<html xmlns="http://www.w3.org/1999/xhtml">
<head>
<meta http-equiv="Content-Type" content="text/xhtml;charset=UTF-8"/>
<meta name="generator" content="{generator}"/>
<title>{title}</title>
<link href="tabs.css" rel="stylesheet" type="text/css"/>
<script type="text/javascript" src="dynsections.js"></script>
<link href="doxygen.css" rel="stylesheet" type="text/css" />
</head>
<body>
<div id="top"><div id="titlearea"><div id="projectname">FFmpeg<span id="projectnumber">&#160;5.1.9</span></div></div>
</div>
<div class="header"><div class="headertitle"><div class="title">avformat.h</div></div></div>
<div class="contents">
{contents}
</div>
<hr class="footer"/><address class="footer"><small>Generated on Fri Nov 7 2025 for FFmpeg by doxygen 1.9.4</small></address>
</body></html>"""


_LISTED = [(1, '<span class="comment">/*</span>'),
           (2, '<span class="comment"> * copyright (c) 2001 Fabrice Bellard</span>'),
           (3, '<span class="comment"> * This file is part of FFmpeg.</span>'),
           (1203, '<span class="comment"> * Read packets of a media file to get stream information. This</span>'),
           (1204, '<span class="comment"> * is useful for file formats with no headers such as MPEG.</span>'),
           (1215, '<span class="keywordtype">int</span> <a class="code hl_function" '
                  'href="group__lavf__decoding.html#gad42172e27cddafb81096939783b157bb">'
                  'avformat_find_stream_info</a>(<a class="code hl_struct" '
                  'href="structAVFormatContext.html">AVFormatContext</a> *ic, AVDictionary **options);')]
DOXYGEN_SOURCE = _doxygen(
    "FFmpeg: libavformat/avformat.h Source File",
    '<a href="avformat_8h.html">Go to the documentation of this file.</a><div class="fragment">'
    + "\n".join(f'<div class="line"><a id="l{n:05d}" name="l{n:05d}"></a>'
                 f'<span class="lineno">{n:5d}</span>{code}</div>' for n, code in _LISTED)
    + "</div><!-- fragment -->")
DOXYGEN_FILE_PAGE = _doxygen(
    "FFmpeg: libavformat/avformat.h File Reference",
    '<p>Main libavformat public API header. <a href="#details">More...</a></p>'
    '<a href="avformat_8h_source.html">Go to the source code of this file.</a>'
    '<h2 class="groupheader">Functions</h2><table class="memberdecls"><tr class="memitem">'
    '<td class="memItemLeft">int&#160;</td><td class="memItemRight"><a class="el" '
    'href="group__lavf__decoding.html#gad42172e27cddafb81096939783b157bb">'
    'avformat_find_stream_info</a> (AVFormatContext *ic, AVDictionary **options)</td></tr>'
    '<tr class="memdesc"><td class="mdescRight">Read packets of a media file to get stream '
    'information.</td></tr></table>')


def test_doxygen_source_listing_is_skipped_and_the_file_page_read():
    # Doxygen writes each documented file again as a numbered listing, for the "Go to the
    # source code of this file" links; the comments in it are what the file's page and its
    # structures' pages say, so the listing matched what they answer (FFmpeg's 158 took
    # 24 of the first-ten places of its para6 questions).
    with pytest.raises(SkipFile, match="Doxygen's copy of a source file"):
        read_document(DOXYGEN_SOURCE.encode(), "api/avformat_8h_source.html")
    page = read_document(DOXYGEN_FILE_PAGE.encode(), "api/avformat_8h.html")
    assert "Read packets of a media file to get stream information" in page.text
    # the same title from another generator, or a Doxygen page titled so with no
    # numbered lines (a page about source files), is read
    other = DOXYGEN_SOURCE.replace("Doxygen 1.9.4", "Sphinx 5.3.0")
    assert "avformat_find_stream_info" in read_document(other.encode(), "a_source.html").text
    about = _doxygen("Notes: Source File", "<p>Each source file starts with a licence header.</p>")
    assert "licence header" in read_document(about.encode(), "notes.html").text


def test_an_older_doxygens_source_listing_is_skipped_too():
    # Doxygen 1.8 (hwloc's reference, Ubuntu 20.04's doxygen) names each line's anchor
    # without an id: `<a name="l00001"></a>`.
    listing = DOXYGEN_SOURCE.replace("Doxygen 1.9.4", "Doxygen 1.8.17")
    listing = re.sub(r'<a id="(l[0-9]{5})" name="l[0-9]{5}">', r'<a name="\1">', listing)
    assert 'id="l0' not in listing and '<a name="l00001">' in listing
    with pytest.raises(SkipFile, match="Doxygen's copy of a source file"):
        read_document(listing.encode(), "html/a00146_source.html")


# -- gtk-doc (GLib's reference): "Parameters" and "Returns" are labels -------------------
def _gtkdoc(body: str, title: str = "Key-value file parser: GLib Reference Manual",
            generator: str = "GTK-Doc V1.33.1 (XML mode)") -> str:
    return f"""<!DOCTYPE html PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN">
<html><head><meta http-equiv="Content-Type" content="text/html; charset=UTF-8">
<title>{title}</title><meta name="generator" content="DocBook XSL Stylesheets Vsnapshot">
<meta name="generator" content="{generator}"></head><body bgcolor="white">
<table class="navigation" id="top" width="100%" summary="Navigation header"><tr valign="middle">
<td width="100%" align="left" class="shortcuts"><a href="#" class="shortcut">Top</a><span id="nav_description">
<span class="dim">|</span> <a href="#desc" class="shortcut">Description</a></span></td>
<td><a accesskey="h" href="index.html"><img src="home.png" alt="Home"></a></td></tr></table>
{body}
<div class="footer"><hr>Generated by GTK-Doc V1.33.1</div></body></html>"""


def _gtkfunction(name: str, signature: str, text: str, params: str, returns: str) -> str:
    returns = f'<div class="refsect3"><h4>Returns</h4><p>{returns}</p></div>' if returns else ""
    return f"""<div class="refsect2"><a name="{name}"></a><h3>{name} ()</h3>
<pre class="programlisting">{signature}</pre><p>{text}</p>
<div class="refsect3"><a name="{name}.parameters"></a><h4>Parameters</h4>
<div class="informaltable"><table class="informaltable" width="100%" border="0"><tbody>
{params}</tbody></table></div></div>{returns}<p class="since">Since: 2.6</p></div><hr>"""


GTK_PAGE = """<div class="refentry"><div class="refnamediv"><table width="100%"><tr><td valign="top">
<h2><span class="refentrytitle">Key-value file parser</span></h2>
<p>Key-value file parser — parses .ini-like config files</p></td></tr></table></div>
<div class="refsect1"><a name="desc"></a><h2>Description</h2><p>GKeyFile lets you parse, edit or
create files containing groups of key-value pairs.</p></div>
<div class="refsect1"><h2>Functions</h2>""" + _gtkfunction(
    "g_key_file_load_from_file",
    "gboolean\ng_key_file_load_from_file (GKeyFile *key_file,\n    const gchar *file);",
    "Loads a key file into an empty GKeyFile structure.",
    '<tr><td class="parameter_name"><p>key_file</p></td><td class="parameter_description">'
    '<p>an empty GKeyFile struct</p></td></tr>',
    "TRUE if a key file could be loaded, FALSE otherwise") + _gtkfunction(
    "g_key_file_set_list_separator",
    "void\ng_key_file_set_list_separator (GKeyFile *key_file,\n    gchar separator);",
    "Sets the character which is used to separate values in lists.",
    '<tr><td class="parameter_name"><p>separator</p></td><td class="parameter_description">'
    '<p>the separator, a semicolon by default</p></td></tr>', "") + "</div></div>"


def test_gtkdocs_parameters_and_returns_stay_in_their_functions_section():
    doc = read_document(_gtkdoc(GTK_PAGE).encode(), "glib-Key-value-file-parser.html")
    assert [s.heading for s in doc.sections] == [
        ("Key-value file parser",), ("Description",),
        ("Functions", "g_key_file_load_from_file ()"), ("Functions", "g_key_file_set_list_separator ()")]
    loads = doc.sections[2].text.split("\n\n")
    assert loads[-6:] == ["Parameters", "key_file", "an empty GKeyFile struct", "Returns",
                          "TRUE if a key file could be loaded, FALSE otherwise", "Since: 2.6"]
    assert "Top" not in doc.text and "Description |" not in doc.text
    # another generator's "Parameters" heading is a heading
    other = read_document(_gtkdoc(GTK_PAGE, generator="DocBook XSL").encode(), "x.html")
    assert ("Functions", "g_key_file_load_from_file ()", "Parameters") in [
        s.heading for s in other.sections]


GTK_INDEX = """<div class="index"><div class="titlepage"><h1 class="title">API Index</h1></div>
<a name="idxG"></a><h3 class="title">G</h3><dt><a class="link" href="glib-Key-value-file-parser.html#g-key-file-load-from-file">g_key_file_load_from_file</a>,
function in <a class="link" href="glib-Key-value-file-parser.html">Key-value file parser</a></dt>
<dd></dd><dt><a class="link" href="glib-Key-value-file-parser.html#g-key-file-set-list-separator">g_key_file_set_list_separator</a>,
function in <a class="link" href="glib-Key-value-file-parser.html">Key-value file parser</a></dt></div>"""


def test_gtkdocs_index_of_all_names_is_skipped():
    with pytest.raises(SkipFile, match="gtk-doc's index of all names"):
        read_document(_gtkdoc(GTK_INDEX, title="API Index: GLib Reference Manual").encode(),
                      "api-index-full.html")
    # DocBook XSL's index in another manual is read
    other = _gtkdoc(GTK_INDEX, title="Index", generator="DocBook XSL")
    assert "g_key_file_set_list_separator" in read_document(other.encode(), "bookindex.html").text


def test_a_gtkdoc_function_is_found_with_its_parameters(open_ix, tmp_path):
    folder = write_tree(tmp_path / "glib", {
        "glib-Key-value-file-parser.html": _gtkdoc(GTK_PAGE),
        "api-index-full.html": _gtkdoc(GTK_INDEX, title="API Index: GLib Reference Manual")})
    ix = open_ix()
    ix.index(folder)
    hits = ix.search("separate values in lists with a semicolon separator", limit=3,
                     passages=True).results
    assert list(hits[0].section) == ["Functions", "g_key_file_set_list_separator ()"]
    assert "Parameters" in hits[0].passage_text
    assert {h.document["path"] for h in ix.search("g_key_file_load_from_file", limit=5).results} \
        == {"glib-Key-value-file-parser.html"}


# -- Haddock (GHC's library references) ------------------------------------------------
def _haddock(module: str, interface: str) -> str:
    src = module.replace(".", "-")
    return f"""<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "x.dtd">
<html xmlns="http://www.w3.org/1999/xhtml"><head><title>{module}</title>
<link href="linuwial.css" rel="stylesheet" type="text/css" title="Linuwial" />
<script src="haddock-bundle.min.js" async="async" type="text/javascript"></script></head><body>
<div id="package-header"><span class="caption">base-4.15.1.0: Basic libraries</span>
<ul class="links" id="page-menu"><li><a href="src/{src}.html">Source</a></li><li><a href="index.html">Contents</a></li>
<li><a href="doc-index.html">Index</a></li></ul></div><div id="content"><div id="module-header">
<table class="info"><tr><th valign="top">Copyright</th><td>(c) The University of Glasgow 2001</td></tr>
<tr><th>License</th><td>BSD-style (see the file libraries/base/LICENSE)</td></tr>
<tr><th>Maintainer</th><td>libraries@haskell.org</td></tr></table>
<p class="caption">{module}</p></div><div id="description"><p class="caption">Description</p>
<div class="doc"><p>The Maybe type, and associated operations.</p></div></div>
<div id="interface"><h1>Documentation</h1>{interface}</div></div>
<div id="footer"><p>Produced by <a href="http://www.haskell.org/haddock/">Haddock</a> version 2.25.1</p></div>
</body></html>"""


HADDOCK_MAYBE = """<div class="top"><p class="src"><span class="keyword">data</span> <a id="t:Maybe" class="def">Maybe</a> a
<a href="src/GHC-Maybe.html#Maybe" class="link">Source</a> <a href="#t:Maybe" class="selflink">#</a></p>
<div class="doc"><p>The <code><a href="Data-Maybe.html#t:Maybe">Maybe</a></code> type encapsulates an optional value.</p></div>
<div class="subs constructors"><p class="caption">Constructors</p><table><tr><td class="src"><a id="v:Nothing" class="def">Nothing</a></td>
<td class="doc empty">&nbsp;</td></tr></table></div>
<div class="subs instances"><h4 class="instances details-toggle-control details-toggle" data-details-id="i:Maybe">Instances</h4>
<details id="i:Maybe" open="open"><summary class="hide-when-js-enabled">Instances details</summary><table>
<tr><td class="src clearfix"><span class="inst-left"><a href="Control-Monad-Fail.html#t:MonadFail">MonadFail</a>
<a href="Data-Maybe.html#t:Maybe">Maybe</a></span> <a href="#t:MonadFail" class="selflink">#</a></td>
<td class="doc"><p><em>Since: base-4.9.0.0</em></p></td></tr><tr><td colspan="2"><details id="i:id:Maybe:MonadFail:1">
<summary class="hide-when-js-enabled">Instance details</summary><p>Defined in <a href="Control-Monad-Fail.html">Control.Monad.Fail</a></p>
<div class="subs methods"><p class="caption">Methods</p><p class="src"><a href="#v:fail">fail</a> :: <a href="Data-String.html#t:String">String</a>
-&gt; <a href="Data-Maybe.html#t:Maybe">Maybe</a> a <a href="src/Control-Monad-Fail.html#fail" class="link">Source</a></p>
</div></details></td></tr></table></details></div></div>
<div class="top"><p class="src"><a id="v:catMaybes" class="def">catMaybes</a> :: [<a href="Data-Maybe.html#t:Maybe">Maybe</a> a] -&gt; [a]
<a href="src/Data-Maybe.html#catMaybes" class="link">Source</a> <a href="#v:catMaybes" class="selflink">#</a></p>
<div class="doc"><p>The <code><a href="Data-Maybe.html#v:catMaybes">catMaybes</a></code> function takes a list of
<code><a href="Data-Maybe.html#t:Maybe">Maybe</a></code>s and returns a list of all the <code><a href="Data-Maybe.html#v:Just">Just</a></code> values.</p>
<h4 class="subheading details-toggle-control details-toggle" data-details-id="ch:catMaybes0">Examples</h4>
<details id="ch:catMaybes0"><summary class="hide-when-js-enabled">Expand</summary><p>Basic usage:</p>
<pre class="screen"><code class="prompt">&gt;&gt;&gt; </code><strong class="userinput"><code>catMaybes [Just 1, Nothing, Just 3]
</code></strong>[1,3]
</pre></details></div></div>
<div class="top"><p class="src"><span class="keyword">class</span> <a id="t:Functor" class="def">Functor</a> f <span class="keyword">where</span>
<a href="src/GHC-Base.html#Functor" class="link">Source</a></p><div class="doc"><p>A type f is a Functor if it provides fmap.</p></div>
<div class="subs minimal"><p class="caption">Minimal complete definition</p><p class="src"><a href="#v:fmap">fmap</a></p></div>
<div class="subs methods"><p class="caption">Methods</p><p class="src"><a id="v:fmap" class="def">fmap</a> :: (a -&gt; b) -&gt; f a -&gt; f b
<a href="src/GHC-Base.html#fmap" class="link">Source</a></p><div class="doc"><p>fmap applies a function inside the structure.</p></div></div></div>"""


def test_haddocks_declarations_are_sections_without_source_links_instances_or_frame():
    doc = read_document(_haddock("Data.Maybe", HADDOCK_MAYBE).encode(), "Data-Maybe.html")
    assert [s.heading for s in doc.sections] == [
        (), ("Documentation", "data Maybe a"), ("Documentation", "catMaybes :: [Maybe a] -> [a]"),
        ("Documentation", "class Functor f where"), ("Documentation", "fmap :: (a -> b) -> f a -> f b")]
    assert doc.sections[2].text.split("\n\n")[1:3] == ["Examples", "Basic usage:"]
    assert "Minimal complete definition\n\nfmap\n\nMethods" in doc.sections[3].text
    for junk in ("Source", "Copyright", "Maintainer", "MonadFail", "Instance", "Expand",
                 "Produced by", "#"):
        assert junk not in doc.text
    # without Haddock's package header the same markup is read as before
    other = _haddock("Data.Maybe", HADDOCK_MAYBE).replace('id="package-header"', 'id="top-bar"')
    assert "Source" in read_document(other.encode(), "Data-Maybe.html").text


HOOGLE = """-- Hoogle documentation, generated by Haddock
-- See Hoogle, http://www.haskell.org/hoogle/


-- | Basic libraries
@package base
@version 4.15.1.0

-- | The <a>catMaybes</a> function takes a list of <a>Maybe</a>s and
--   returns a list of all the <a>Just</a> values.
catMaybes :: [Maybe a] -> [a]
"""


def test_haddocks_hoogle_database_and_name_index_are_skipped():
    with pytest.raises(SkipFile, match="Hoogle's database"):
        read_document(HOOGLE.encode(), "base.txt")
    index = _haddock("base-4.15.1.0: Basic libraries (Index)", "").replace(
        '<div id="interface"><h1>Documentation</h1></div>',
        '<div id="alphabet"><ul><li><a href="doc-index-A.html">A</a></li></ul></div><div id="index">'
        '<table><tr><td class="src">catMaybes</td><td class="module"><a href="Data-Maybe.html#v:catMaybes">'
        'Data.Maybe</a></td></tr></table></div>')
    with pytest.raises(SkipFile, match="Haddock's index of all names"):
        read_document(index.encode(), "doc-index-C.html")
    everything = index.replace('<div id="alphabet"><ul><li><a href="doc-index-A.html">A</a></li></ul></div>', "")
    with pytest.raises(SkipFile, match="Haddock's index of all names"):
        read_document(everything.encode(), "doc-index-All.html")
    # a text file that only mentions Hoogle is read
    assert "Hoogle" in read_document(b"Notes\n\n-- Hoogle documentation, generated by Haddock\n",
                                      "notes.txt").text


def test_a_haddock_function_is_found_under_its_signature(open_ix, tmp_path):
    folder = write_tree(tmp_path / "base", {
        "Data-Maybe.html": _haddock("Data.Maybe", HADDOCK_MAYBE), "base.txt": HOOGLE})
    ix = open_ix()
    ix.index(folder)
    hits = ix.search("keep only the Just values from a list", limit=3, passages=True).results
    assert [(h.document["path"], list(h.section)) for h in hits][:1] == [
        ("Data-Maybe.html", ["Documentation", "catMaybes :: [Maybe a] -> [a]"])]
    assert {h.document["path"] for h in hits} == {"Data-Maybe.html"}
    assert ix.search("Glasgow copyright maintainer", limit=3).results == []


# -- Qt's qdoc (Qt 5's reference) --------------------------------------------------------
QDOC_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><!-- qstringref.cpp -->
<title>QStringRef Class | Qt Core 5.15.8</title>
<link rel="stylesheet" type="text/css" href="style/offline-simple.css" /></head><body>
<div class="header" id="qtdocheader"><div class="main"><div class="main-rounded">
<div class="navigationbar"><ul><li>Qt 5.15</li><li><a href="qtcore-index.html">Qt Core</a></li>
<li><a href="qtcore-module.html">C++ Classes</a></li><li>QStringRef</li>
<li id="buildversion"><a href="qtcore-index.html">Qt 5.15.8 Reference Documentation</a></li></ul></div>
</div><div class="content"><div class="line"><div class="content mainContent">
<div class="sidebar"><div class="toc"><h3><a name="toc">Contents</a></h3><ul>
<li class="level1"><a href="#public-functions">Public Functions</a></li>
<li class="level1"><a href="#details">Detailed Description</a></li></ul></div>
<div class="sidebar-content" id="sidebar-content"></div></div>
<h1 class="title">QStringRef Class</h1>
<p>The QStringRef class provides a thin wrapper around QString substrings.</p>
<div class="func"><h2>Member Function Documentation</h2>
<h3 class="fn" id="split"><a name="split"></a><span class="type"><a href="qvector.html">QVector</a></span>&lt;<span class="type"><a href="qstringref.html#QStringRef">QStringRef</a></span>&gt; QStringRef::<span class="name">split</span>(<span class="type"><a href="qchar.html">QChar</a></span> <i>sep</i>, <span class="type"><a href="qt.html#SplitBehaviorFlags-enum">Qt::SplitBehavior</a></span> <i>behavior</i> = Qt::KeepEmptyParts) const</h3>
<p>Splits the string into substrings references wherever <i>sep</i> occurs, and returns the list of
those strings.</p></div></div></div></div></div></div>
<div class="footer"><p><acronym title="Copyright">&copy;</acronym> 2020 The Qt Company Ltd.
Documentation contributions included herein are the copyrights of their respective owners.<br/>
The documentation provided herein is licensed under the terms of the
<a href="http://www.gnu.org/licenses/fdl.html">GNU Free Documentation License version 1.3</a>.</p></div>
</body></html>"""

QDOC_INDEX = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE QDOCINDEX>
<INDEX url="http://doc.qt.io/qt-5" title="Qt Network Reference Documentation" version="5.15.8">
    <page name="download" href="qtnetwork-download-example.html" title="Network Download Example"
          brief="Demonstrates how to download a file over HTTP"/>
</INDEX>
"""


def test_qdocs_trail_contents_and_footer_are_left_out_and_signatures_read_as_shown():
    doc = read_document(QDOC_PAGE.encode(), "qstringref.html")
    assert [s.heading for s in doc.sections] == [
        ("QStringRef Class",),
        ("QStringRef Class", "Member Function Documentation",
         "QVector<QStringRef> QStringRef::split(QChar sep, Qt::SplitBehavior behavior = "
         "Qt::KeepEmptyParts) const")]
    for junk in ("Qt 5.15", "Reference Documentation", "Contents", "Public Functions",
                 "Qt Company", "Free Documentation License"):
        assert junk not in doc.text
    # without qdoc's header the same markup is read as before
    other = read_document(QDOC_PAGE.replace('id="qtdocheader"', 'id="top"').encode(), "x.html")
    assert "Contents" in [s.heading[-1] for s in other.sections if s.heading]


def test_qdocs_index_and_qt_help_project_are_skipped(tmp_path):
    with pytest.raises(SkipFile, match=r"qdoc's \.index"):
        read_document(QDOC_INDEX.encode(), "qtnetwork.index")
    qhp = tmp_path / "qtnetwork.qhp"
    qhp.write_text('<?xml version="1.0"?><QtHelpProject version="1.0"><keywords>'
                   '<keyword name="QNetworkAccessManager" ref="qnetworkaccessmanager.html"/>'
                   '</keywords></QtHelpProject>')
    with pytest.raises(SkipFile, match=r"help browser's index of the pages beside it \(\.qhp\)"):
        extract(qhp)
    # a text file that only names the doctype is read
    notes = "Notes on qdoc\n\nIts index files start with <!DOCTYPE QDOCINDEX> on line two.\n" * 3
    assert "qdoc" in read_document(notes.encode(), "notes.txt").text


def test_a_qdoc_page_answers_and_the_index_does_not(open_ix, tmp_path):
    folder = write_tree(tmp_path / "qtcore", {
        "qstringref.html": QDOC_PAGE, "qtnetwork.index": QDOC_INDEX})
    ix = open_ix()
    ix.index(folder)
    hits = ix.search("split a string into substrings", limit=3, passages=True).results
    assert {h.document["path"] for h in hits} == {"qstringref.html"}
    assert hits[0].section[-1].startswith("QVector<QStringRef> QStringRef::split(QChar sep")
    assert ix.search("copyrights of their respective owners", limit=3).results == []
    assert ix.search("download a file over HTTP", limit=3).results == []


# -- Sphinx autodoc with type annotations (Werkzeug's manual, Pallets theme) ----------
SPHINX_ANNOTATED = """<!DOCTYPE html><html lang="en"><head><meta charset="utf-8" />
<meta name="generator" content="Docutils 0.17.1: http://docutils.sourceforge.net/" />
<title>Request / Response Objects &#8212; Werkzeug Documentation (2.2.x)</title></head><body>
<div class="body" role="main"><section id="request-response-objects">
<h1>Request / Response Objects<a class="headerlink" href="#request-response-objects">¶</a></h1>
<dl class="py property"><dt class="sig sig-object py" id="werkzeug.wrappers.Request.files">
<em class="property"><span class="pre">property</span><span class="w"> </span></em><span class="sig-name descname"><span class="pre">files</span></span><em class="property"><span class="p"><span class="pre">:</span></span><span class="w"> </span><a class="reference internal" href="datastructures.html#werkzeug.datastructures.ImmutableMultiDict"><span class="pre">ImmutableMultiDict</span></a><span class="p"><span class="pre">[</span></span><a class="reference external" href="https://docs.python.org/3/library/stdtypes.html#str"><span class="pre">str</span></a><span class="p"><span class="pre">,</span></span><span class="w"> </span><a class="reference internal" href="datastructures.html#werkzeug.datastructures.FileStorage"><span class="pre">FileStorage</span></a><span class="p"><span class="pre">]</span></span></em><a class="headerlink" href="#werkzeug.wrappers.Request.files">¶</a></dt>
<dd><p>A <a class="reference internal" href="#x"><code class="xref"><span class="pre">MultiDict</span></code></a> object containing all uploaded files, each a quince crate.</p>
<dl class="field-list simple"><dt class="field-odd">Parameters<span class="colon">:</span></dt>
<dd class="field-odd"><ul class="simple">
<li><p><strong>filename</strong> (<a class="reference external" href="https://docs.python.org/3/library/typing.html#typing.Optional"><em>Optional</em></a><em>[</em><a class="reference external" href="https://docs.python.org/3/library/stdtypes.html#str"><em>str</em></a><em>]</em>) – the filename of the uploaded <a class="reference internal" href="#y">quince</a> file.</p></li>
</ul></dd></dl></dd></dl>
<p>See <a class="reference internal" href="#z">files</a> , and more.</p>
</section></div></body></html>"""


def test_sphinx_annotations_read_as_written_in_signatures_and_field_lists(open_ix, tmp_path):
    doc = read_document(SPHINX_ANNOTATED.encode(), "wrappers.html")
    assert doc.sections[-1].heading == (
        "Request / Response Objects", "property files: ImmutableMultiDict[str, FileStorage]")
    assert "filename (Optional[str]) – the filename of the uploaded quince file." in doc.text
    assert "A MultiDict object" in doc.text
    assert "See files , and more." in doc.text   # outside signatures and field lists: as before
    folder = write_tree(tmp_path / "html", {"wrappers.html": SPHINX_ANNOTATED})
    ix = open_ix()
    ix.index(folder)
    hits = ix.search("uploaded quince crate", limit=3, passages=True).results
    assert hits and hits[0].section[-1] == "property files: ImmutableMultiDict[str, FileStorage]"


# -- RDoc's Darkfish pages (Ruby API references: Asciidoctor's, as Debian ships it) ----
def _rdoc(body_class: str, main: str) -> str:
    return f"""<!DOCTYPE html>
<html><head><meta charset="UTF-8"><title>class Quince::MemoryLogger - RDoc Documentation</title>
<script type="text/javascript">var rdoc_rel_prefix = "../";</script>
<link href="../css/fonts.css" rel="stylesheet"><link href="../css/rdoc.css" rel="stylesheet">
</head><body id="top" role="document" class="{body_class}">
<nav role="navigation"><div id="class-metadata"><div class="nav-section"><h3>Methods</h3>
<ul class="link-list"><li><a href="#method-i-add">#add</a></li></ul></div></div></nav>
<main role="main" aria-labelledby="class-Quince::MemoryLogger">{main}</main>
<footer id="validator-badges" role="contentinfo"><p>Generated by <a href="https://ruby.github.io/rdoc/">RDoc</a> 6.4.0.
</footer></body></html>"""


RDOC_CLASS = """<h1 id="class-Quince::MemoryLogger" class="class">class Quince::MemoryLogger</h1>
<section class="description"><p>Public: A logger that keeps every message in memory, for tests.</p></section>
<section id="5Buntitled-5D" class="documentation-section">
<section class="attribute-method-details" class="method-section"><header><h3>Attributes</h3></header>
<div id="attribute-i-messages" class="method-detail"><div class="method-heading attribute-method-heading">
<span class="method-name">messages</span><span class="attribute-access-type">[R]</span></div>
<div class="method-description"></div></div></section>
<section id="public-instance-5Buntitled-5D-method-details" class="method-section">
<header><h3>Public Instance Methods</h3></header>
<div id="method-i-add" class="method-detail "><div class="method-heading">
<span class="method-name">add</span><span class="method-args">(severity, message = nil)</span>
<span class="method-click-advice">click to toggle source</span></div>
<div class="method-description"><p>Public: Store a warning in the list of messages instead of printing it.</p>
<div class="method-source-code" id="add-source"><pre><span class="ruby-comment"># File lib/quince/logging.rb, line 47</span>
<span class="ruby-keyword">def</span> <span class="ruby-identifier">add</span> <span class="ruby-identifier">severity</span>
  <span class="ruby-ivar">@messages</span> <span class="ruby-operator">&lt;&lt;</span> { <span class="ruby-value">severity:</span> <span class="ruby-identifier">zanzibar_level</span> }
<span class="ruby-keyword">end</span></pre></div></div></div>
<div id="method-i-clear" class="method-detail "><div class="method-heading">
<span class="method-name">clear</span><span class="method-args">()</span>
<span class="method-click-advice">click to toggle source</span></div>
<div class="method-description"><p>Forget every stored message.</p>
<div class="method-source-code" id="clear-source"><pre><span class="ruby-keyword">def</span> clear
  <span class="ruby-ivar">@messages</span>.<span class="ruby-identifier">clear</span>
<span class="ruby-keyword">end</span></pre></div></div></div></section></section>"""

RDOC_CONTENTS = """<h1 class="class">Table of Contents - RDoc Documentation</h1>
<h2 id="classes">Classes and Modules</h2><ul><li class="class"><a href="Quince/MemoryLogger.html">Quince::MemoryLogger</a></li></ul>
<h2 id="methods">Methods</h2><ul><li class="method"><a href="Quince/MemoryLogger.html#method-i-add">#add</a>
&mdash; <span class="container">Quince::MemoryLogger</span></li></ul>"""


def test_rdocs_methods_are_sections_without_their_hidden_source_or_toggle_label():
    doc = read_document(_rdoc("class", RDOC_CLASS).encode(), "MemoryLogger.html")
    head = "class Quince::MemoryLogger"
    assert [s.heading for s in doc.sections] == [
        (head,), (head, "Attributes", "messages[R]"),
        (head, "Public Instance Methods", "add(severity, message = nil)"),
        (head, "Public Instance Methods", "clear()")]
    assert "Store a warning in the list of messages instead of printing it." in doc.sections[2].text
    for junk in ("click to toggle source", "# File lib", "@messages", "zanzibar", "def ",
                 "Generated by"):
        assert junk not in doc.text
    # without RDoc's stylesheet the same markup is read as before
    other = _rdoc("class", RDOC_CLASS).replace("css/rdoc.css", "css/site.css")
    assert "click to toggle source" in read_document(other.encode(), "x.html").text


def test_rdocs_table_of_contents_is_skipped():
    with pytest.raises(SkipFile, match="RDoc's table of contents"):
        read_document(_rdoc("table-of-contents", RDOC_CONTENTS).encode(), "table_of_contents.html")
    # another site's page of that class is read
    other = _rdoc("table-of-contents", RDOC_CONTENTS).replace("css/rdoc.css", "css/site.css")
    assert ("Table of Contents - RDoc Documentation", "Classes and Modules") in [
        s.heading for s in read_document(other.encode(), "contents.html").sections]


def test_an_rdoc_method_is_found_under_its_heading(open_ix, tmp_path):
    folder = write_tree(tmp_path / "html", {
        "Quince/MemoryLogger.html": _rdoc("class", RDOC_CLASS),
        "table_of_contents.html": _rdoc("table-of-contents", RDOC_CONTENTS)})
    ix = open_ix()
    ix.index(folder)
    hits = ix.search("keep the warnings in a list instead of printing them", limit=3,
                     passages=True).results
    assert [(h.document["path"], h.section[-1]) for h in hits][:1] == [
        ("Quince/MemoryLogger.html", "add(severity, message = nil)")]
    assert ix.search("zanzibar_level", limit=3).results == []
    assert ix.search("click to toggle source", limit=3).results == []


# -- a site's sitemap (MkDocs, Hugo, Jekyll, Docusaurus write one beside the pages) -----
SITEMAP = """<?xml version="1.0" encoding="UTF-8"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    <url>
         <loc>https://www.example.org/user-guide/quince-configuration.html</loc>
         <lastmod>2022-11-29</lastmod>
         <changefreq>daily</changefreq>
    </url>
</urlset>"""


def test_a_sitemap_is_skipped(open_ix, tmp_path):
    with pytest.raises(SkipFile, match="a sitemap"):
        read_document(SITEMAP.encode(), "sitemap.xml")
    with pytest.raises(SkipFile, match="a sitemap"):
        read_document(gzip.compress(SITEMAP.encode()), "sitemap.xml.gz")
    index = SITEMAP.replace("urlset", "sitemapindex").replace("<url>", "<sitemap>").replace(
        "</url>", "</sitemap>")
    with pytest.raises(SkipFile, match="a sitemap"):
        read_document(index.encode(), "sitemap_index.xml")
    # other XML, and text that quotes a sitemap further down, are read
    assert "quince" in read_document(b'<?xml version="1.0"?><feed><title>quince</title></feed>',
                                     "feed.xml").text
    folder = write_tree(tmp_path / "site", {"sitemap.xml": SITEMAP, "quince.txt": "Quince notes."})
    ix = open_ix()
    ix.index(folder)
    assert [h.document["path"] for h in ix.search("quince configuration", limit=3).results] == [
        "quince.txt"]


# -- LaTeX2HTML's pages (gnuplot's manual as Debian's gnuplot-doc installs it) ------------
LATEX2HTML_PAGE = """<!DOCTYPE HTML>
<!--Converted with LaTeX2HTML 2022.2 (Released July 1, 2022) -->
<HTML lang="en">
<HEAD>
<TITLE>Size</TITLE>
<META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=utf-8">
<META NAME="Generator" CONTENT="LaTeX2HTML v2022.2">
<LINK REL="STYLESHEET" HREF="quince.css">
</HEAD>
<BODY >
<DIV CLASS="navigation"><!--Navigation Panel-->
<A
 HREF="node410.html">
<IMG WIDTH="37" HEIGHT="24" ALT="next" SRC="next.png"></A>
<A
 HREF="node263.html">
<IMG WIDTH="26" HEIGHT="24" ALT="up" SRC="up.png"></A>
<BR>
<B> Next:</B> <A
 HREF="node410.html">Spiderplot</A>
<B> Up:</B> <A
 HREF="node263.html">Set-show</A>
<B> Previous:</B> <A
 HREF="node408.html">Samples</A>
<BR>
<BR></DIV>
<!--End of Navigation Panel-->

<H2><A ID="SECTION0302984000000000000000">
Size</A>
</H2>
<P>
Syntax:
<PRE>
      set size {{no}square | ratio &lt;r&gt; | noratio} {&lt;xscale&gt;,&lt;yscale&gt;}
</PRE>
<P>
The <SPAN CLASS="MATH">4#4</SPAN>xscale<SPAN CLASS="MATH">5#5</SPAN> and <SPAN CLASS="MATH">4#4</SPAN>yscale<SPAN CLASS="MATH">5#5</SPAN> values are scale factors for the size of the plot.
<BR><HR>
<!--Table of Child-Links-->
<A ID="CHILD_LINKS"><STRONG>Subsections</STRONG></A>

<UL CLASS="ChildLinks">
<LI><A ID="tex2html5094"
  HREF="node410.html">Quince ratios</A>
</UL>
<!--End of Table of Child-Links-->
<DIV CLASS="navigation"><HR>
<!--Navigation Panel-->
<B> Next:</B> <A
 HREF="node410.html">Spiderplot</A>
<BR></DIV>
</BODY>
</HTML>
"""


def test_latex2html_navigation_and_math_placeholders_are_left_out():
    # LaTeX2HTML writes an unconverted symbol as a numbered placeholder (4#4 for <),
    # which stored `4#4xscale5#5` as one word; its navigation panels hold the titles
    # of the pages around (Spiderplot, Samples), and the child links its subsections'.
    doc = read_document(LATEX2HTML_PAGE.encode(), "node409.html")
    assert "The xscale and yscale values are scale factors" in doc.text
    assert "#" not in doc.text.replace("{{no}square", "")
    for word in ("Spiderplot", "Samples", "Set-show", "Next:", "Quince ratios"):
        assert word not in doc.text, word
    assert doc.title == "Size"
    # the same markup on a page of another generator keeps its placeholders and child
    # links; its `div.navigation` is navigation on any page
    other = LATEX2HTML_PAGE.replace("LaTeX2HTML v2022.2", "quince-site 1.0")
    text = read_document(other.encode(), "node409.html").text
    assert "4#4" in text and "Quince ratios" in text and "Spiderplot" not in text


# -- A PDF beside a page of its name that is only a way to it ------------------------------
def _pdf_with_a_font(lines):
    # a page of text and 20 KB of embedded font program, as a real PDF carries
    return text_pdf([show(lines)], extra_objects={90: stream(bytes(range(256)) * 80)})


def test_a_pdf_beside_a_redirect_or_landing_page_of_its_name_is_found(open_ix, tmp_path):
    # A site keeps thesis.html as a redirect to thesis.pdf, and paper.html as a landing
    # page that links to paper.pdf: the PDFs hold the text, and were skipped as copies
    # of pages that are skipped themselves (the redirect) or say nothing of it.
    folder = tmp_path / "site"
    folder.mkdir()
    (folder / "thesis.html").write_text(
        '<html><head><meta http-equiv="refresh" content="0; url=thesis.pdf"><title>Moved'
        '</title></head><body>Redirecting to thesis.pdf</body></html>')
    (folder / "thesis.pdf").write_bytes(_pdf_with_a_font(
        ["Drip irrigation of quince orchards lowers fungal blight.",
         "We measured soil moisture in forty orchards."]))
    (folder / "paper.html").write_text(
        "<html><head><title>Medlar paper</title></head><body><h1>Medlar paper</h1>"
        "<p>Published 2024. <a href=paper.pdf>Download the PDF</a>.</p></body></html>")
    (folder / "paper.pdf").write_bytes(_pdf_with_a_font(
        ["Winter pruning of medlar trees doubles the fruit set in the second year."]))
    ix = open_ix()
    report = ix.index(folder)
    assert [s["path"] for s in report.skipped] == ["thesis.html"]
    assert [h.document["path"] for h in ix.search("quince irrigation blight").results] == [
        "thesis.pdf"]
    assert "paper.pdf" in [h.document["path"] for h in ix.search("medlar pruning fruit set").results]
    # `index FILE` judges them alike
    assert not ix.index(folder / "thesis.pdf").skipped


# -- DocBook's olink target database beside the pages (GIMP's gimp-xrefs.xml) --------------
OLINK_DB = (
    '<div element="book" href="index.html" number="" targetptr="quince-main"><ttl>Quince '
    'Orchard Manual</ttl><xreftext>Quince Orchard Manual</xreftext><div element="preface" '
    'href="preface.html" number="" targetptr="preface"><ttl>Preface</ttl><xreftext>Preface'
    '</xreftext><div element="sect1" href="preface.html#quince-team" number="1" '
    'targetptr="quince-team" lang="en"><ttl><acronym xmlns="http://www.w3.org/1999/xhtml" '
    'class="acronym">QOM</acronym> Authors and Contributors\n          </ttl><xreftext>'
    'Section 1, \u201cAuthors and Contributors\u201d</xreftext></div></div><div element="chapter" '
    'href="quince-pruning.html" number="3" targetptr="quince-pruning"><ttl>Pruning Quince '
    'Trees</ttl><xreftext>Chapter 3, <i>Pruning Quince Trees</i></xreftext></div></div>')


def test_a_docbook_olink_database_is_skipped(open_ix, tmp_path):
    # GIMP's manual ships its olink database (950 KB: every section's title and link)
    # beside its pages; it came in the top eight of most questions on that manual.
    with pytest.raises(SkipFile, match="DocBook's cross-reference database"):
        read_document(OLINK_DB.encode(), "quince-xrefs.xml")
    targetset = ('<?xml version="1.0"?>\n<targetset><targetsetinfo>Quince</targetsetinfo>'
                 '<document targetdoc="quince">' + OLINK_DB + '</document></targetset>')
    with pytest.raises(SkipFile, match="DocBook's cross-reference database"):
        read_document(targetset.encode(), "olinkdb.xml")
    # other XML that opens with a div, and prose about olinks, are read
    assert "quince" in read_document(b'<div class="note"><p>Prune the quince in March.</p></div>',
                                     "note.xml").text.lower()
    folder = write_tree(tmp_path / "manual", {
        "quince-xrefs.xml": OLINK_DB,
        "quince-pruning.html": "<html><head><title>Pruning Quince Trees</title></head><body>"
                               "<h1>Pruning Quince Trees</h1><p>Cut back the quince trees in "
                               "late winter.</p></body></html>"})
    ix = open_ix()
    ix.index(folder)
    assert [h.document["path"] for h in ix.search("pruning quince trees", limit=3).results] == [
        "quince-pruning.html"]


# -- Graphviz's image map beside its picture (Sphinx's inheritance diagrams) ---------------
IMAGE_MAP = """<map id="inheritance0a1b" name="inheritance0a1b">
<area shape="rect" id="node1" href="../../extdev/quince.html#quince.Directive" target="_top" \
title="Base class for quince directives." alt="" coords="5,5,87,31"/>
</map>
"""


def test_an_image_map_is_skipped(open_ix, tmp_path):
    with pytest.raises(SkipFile, match="an image map"):
        read_document(IMAGE_MAP.encode(), "inheritance-0a1b.png.map")
    # a note that starts by quoting one is read
    assert "quince" in read_document(b"<map> is the tag; quince notes follow.\n", "notes.txt").text
    folder = write_tree(tmp_path / "site", {"_images/inheritance-0a1b.png.map": IMAGE_MAP,
                                            "quince.txt": "Quince directives."})
    ix = open_ix()
    ix.index(folder)
    assert [h.document["path"] for h in ix.search("quince directives", limit=3).results] == [
        "quince.txt"]
