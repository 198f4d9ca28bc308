"""Built documentation sites, as Debian installs them: what a generator adds around the
pages (its search index, previous/next links, a chapter's list of other pages, rustdoc's
"Run" buttons) is not read as the pages' words. Written after the Rust book (mdBook) and
the Debian Administrator's Handbook (Publican's DocBook HTML)."""
from __future__ import annotations

import gzip
import json

import pytest

from glean_personal.errors import SkipFile
from glean_personal.formats import read_document

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
    folder = tmp_path / "handbook"
    folder.mkdir()
    (folder / "sect.creating-accounts.html").write_text(SECTION_PAGE, encoding="utf-8")
    (folder / "basic-configuration.html").write_text(CHAPTER_PAGE, encoding="utf-8")
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
