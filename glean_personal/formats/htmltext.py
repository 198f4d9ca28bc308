"""HTML through the standard library's tolerant `html.parser`.

What a browser would show as words is what gets indexed: script, style,
noscript and template bodies are dropped, block elements separate words so
"end</p><p>start" never becomes one token, `<pre>` keeps its line breaks and
headings make sections.

A page is read as its content, not its frame. Navigation, banners, footers,
search boxes, "skip to content" links and heading permalinks (the `¶` after
every Sphinx heading) are left out. Where the page marks its main content
(`<main>`, `role="main"`, `<article>`, or the body container of a common
documentation generator) only that is read; a page without such markers
is read whole, less its frame, and a page whose only words are in its frame
is read whole. The parser records paragraphs and headings once, with the
ranges the candidate containers cover, and the choice is made at the end.

Parser state is a handful of counters and short stacks, never an element
stack, so a page nested 100,000 levels deep costs no more than a flat one.
"""
from __future__ import annotations

import codecs
import itertools
import json
import re
from html.parser import HTMLParser
from typing import Dict, Iterator, List, Optional, Tuple

from ..config import Limits
from ..document import Document
from ..errors import SkipFile
from .vimhelp import looks_like_vim_help, vim_help_document
from .encoding import bom_encoding, decode_text, normalise_newlines
from .sections import CELL_SEPARATOR, SectionBuilder
from .text import split_front_matter

_DROPPED = frozenset({"script", "style", "noscript", "template"})
_HEADINGS = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}
# Elements that end a paragraph where they start and where they end.
_PARAGRAPH_BLOCKS = frozenset("""
    address article aside blockquote body caption center dd details dialog dir
    div dl dt fieldset figcaption figure footer form frameset head header hgroup
    hr html legend li main menu nav ol p pre section summary table tbody tfoot
    thead tr ul option optgroup select textarea iframe video audio canvas
""".split())
_CELLS = frozenset({"td", "th"})
# Inline elements that sit side by side in menus and toolbars ("<a>Docs</a><a>API</a>"):
# a space at their edges keeps them separate words.
_WORD_EDGES = frozenset({"a", "button", "img", "input", "label", "svg"})
# The frame of a page: dropped wherever it appears ...
_FRAME_TAGS = frozenset({"nav", "footer"})
_FRAME_ROLES = frozenset({"navigation", "banner", "contentinfo", "search"})
# ... and so is a trail of links to the enclosing pages ("std :: io", "Docs › Guides"):
# the page's title already says where it is, and a trail would be its first passage.
_BREADCRUMB_CLASSES = frozenset({"breadcrumb", "breadcrumbs", "rustdoc-breadcrumbs"})
# ... and so is a `<div>` or `<ul>` named, by class or id, as the HTML 4 way of writing
# `<nav>` or `<footer>`: `div.nav`, `div.navbar`, `div.navigation`, `div#global-nav`,
# `div.footer` (Double Commander's help opens every page with `div#global-nav.nav`,
# *Homepage | Wiki*, and `div.footer > div.nav`, *Index | Previous | Next*, and they
# were each page's first section).
_NAV_NAMES = frozenset({"nav", "navbar", "navigation", "footer"})
_NAV_SUFFIX = re.compile(r"^[a-z]+-nav$")   # global-nav, main-nav, site-nav, top-nav
# ... and dropped outside the main content and outside any section or article
# (inside one they hold its title, or a sidebar that belongs to the text).
_PAGE_FRAME_TAGS = frozenset({"header", "aside"})
_SECTIONING = frozenset({"section", "article"})
# Elements whose class or id can mark the main content (or, for header/aside/nav, the frame).
_BARE_MARKERS = _FRAME_TAGS | _PAGE_FRAME_TAGS | {"main", "article"}
_MARKER_TAGS = _BARE_MARKERS | {"div", "section"}
# Body containers of documentation generators: Sphinx, MkDocs, Docusaurus,
# javadoc, Doxygen, GitHub-style Markdown (ids: rustdoc, AsciiDoc, MediaWiki).
_GENERATOR_CLASSES = frozenset({
    "body", "document", "md-content", "md-content__inner", "theme-doc-markdown",
    "contentcontainer", "contents", "markdown-body"})
# (`yui-main`: the main column of YUI's grids, beside its `div.yui-b` sidebar, as
# Django's Sphinx theme lays out its pages inside one `div.document` with the
# header's and footer's previous/up/next links and the sidebar's "Last update:".)
_GENERATOR_IDS = frozenset({"main-content", "content", "bodycontent", "yui-main"})
_ASCIIDOC_COMPANIONS = frozenset({"header", "footnotes"})
# DocBook XSL's links to the previous, next and parent page, above and below
# every page: `div.navheader`/`div.navfooter`, or a table with this summary;
# Publican's (the Debian Administrator's Handbook, Fedora's and Red Hat's guides)
# are `ul.docnav`.
_DOCBOOK_NAV_CLASSES = frozenset({"navheader", "navfooter"})
_DOCBOOK_NAV_LISTS = frozenset({"docnav"})
# On a page of a manual split into pages (one with those links), the chapter's
# `div.toc` lists sections of the pages after it: navigation too (`8.5. Creating
# Accounts` made the Handbook's chapter page a hit for adding a user). A manual
# on one page (Git's user manual) keeps its table of contents: there it is the
# outline of the page, and it helped a golden question find the manual.
_DOCBOOK_TOC = "toc"
# DocBook XSL opens an admonition with a heading of its kind (`<div class="tip"><h3
# class="title">Tip</h3>`): a label, not a section (the text after the box is not the tip's).
_ADMONITION_CLASSES = frozenset({"note", "tip", "warning", "caution", "important"})
_DOCBOOK_NAV_SUMMARIES = frozenset({"navigation header", "navigation footer"})
# The Apache HTTP Server manual (its own XSLT; every page links the stylesheet
# `style/css/manual.css`) puts a menu and a trail of links above each page
# (`div#page-header`, `div#path`), "Available Languages: en | fr | ko" at its top
# and bottom (`div.toplang`, `div.bottomlang`), a box of links to the page's own
# sections and directives and to the bug tracker (`div#quickview`: "Topics",
# "Directives", "Bugfix checklist", "See also"), and the menu again under the
# copyright line (`div#footer`). All are navigation.
_HTTPD_STYLESHEET = "style/css/manual.css"
_HTTPD_NAV_IDS = frozenset({"page-header", "path", "quickview", "footer"})
_HTTPD_NAV_CLASSES = frozenset({"toplang", "bottomlang"})
# Sphinx's viewcode extension links each documented object to a highlighted copy
# of its source (`_modules/…`), a "[source]" link in the signature, and each
# definition there back to its documentation, "[docs]" (`a.viewcode-back`).
_VIEWCODE_LABELS = frozenset({"[source]", "[docs]"})
# Erlang/OTP's erl_docgen (`<html xmlns:erl="http://erlang.org">`) heads each
# function of a reference page with an h4 (`sort(List1) -> List2`), then an h3
# "Types" (`h3.func-types-title`) over the argument types and the description:
# as a section, "Types" took every function's text (`lists › Types`, 76 of the
# page's 156 sections) and left the function's own section empty. It is a label.
# The OTP release that added a function (`div.title-since`: "OTP 20.0") sits
# inside the heading with no space before it (`… -> [unicode:chardata()]OTP
# 20.0`), and a `div.footer` holds the copyright line of every page.
_ERLDOCGEN_LABEL = "func-types-title"
_ERLDOCGEN_MUTED = {"div": frozenset({"title-since"})}
# Texinfo's `makeinfo --html` (`<meta name="Generator" content="makeinfo">`) puts a
# "Next: … Previous: … Up: … [Contents][Index]" line above and below each node
# (`div.header`; Texinfo 7 `div.nav-panel`, Texinfo 4 `div.node`), a node's menu
# of the nodes under it (`ul.section-toc`, `ul.mini-toc`, `table.menu`), the
# manual's table of contents (`div.contents`, `div.shortcontents`) and its index
# pages (`table.index-cp`, `table.index-fn`, …; Texinfo 7 `table.cp-entries-printindex`
# and the letter bars around it). All are navigation: the Info reader shows no
# menu either, and an index page of entry names beat the pages they point to.
_MAKEINFO_NAV = {"div": frozenset({"header", "nav-panel", "node", "contents", "shortcontents",
                                   "short-contents", "element-contents"}),
                 "ul": frozenset({"section-toc", "mini-toc"}),
                 "table": frozenset({"menu"}),
                 "h2": frozenset({"contents-heading", "shortcontents-heading"})}
_MAKEINFO_INDEX_TABLE = re.compile(r"^index-|-(?:entries|letters-header|letters-footer)-printindex$")
# ... the letters "Jump to: A B C" of a Texinfo 6 index (`a.summary-letter`), and a
# definition's category when it is empty (`@deftypefn {} …` shows ": AA = balance (A)").
_MAKEINFO_CATEGORIES = frozenset({"category", "category-def"})
_MAKEINFO_BARE = frozenset({"", ":", "jump to:"})
# ... and its footnotes at the end of the page (`h4.footnotes-heading`): on a manual
# written as one page (R's manuals) that is the end of the manual, after the last
# chapter, and as an h4 they were filed under it (`Concept index › Footnotes ›
# (40)`); they are a part of the page, one level under its first heading.
_MAKEINFO_FOOTNOTES = "footnotes-heading"
# rustdoc lists the traits a type implements; each implemented method repeats
# the trait's own documentation (Iterator's 75 methods on every iterator), and
# blanket implementations (`impl<T> From<T> for T`) are the same on every page,
# and a type that derefs to another (IoSliceMut to [u8]) repeats all its methods.
_RUSTDOC_IMPL_LISTS = frozenset({"trait-implementations-list", "synthetic-implementations-list"})
_RUSTDOC_BOILERPLATE = frozenset({"blanket-implementations-list"})
# ... and beside every item its Rust version and a "Source" link, and a
# "Expand description" toggle above the text: page furniture, not words.
# rustdoc's "Source" link, and the "Run" link after each example (to the playground).
_RUSTDOC_BUTTONS = frozenset({"src", "test-arrow"})
# Older rustdoc (Rust 1.63, as Debian ships it) puts the version, "source" and a
# "[−]" collapse toggle in `span.out-of-band` beside the page's title, and after a
# function that returns an iterator or a writer a "Notable traits" tooltip
# (`span.notable-traits`: `ⓘNotable traits for Vec<u8, A> impl Write for …`)
# inside the method's heading; and before an example that panics, fails to
# compile or is not run, an "ⓘ" (`div.tooltip`, shown with a tooltip).
_RUSTDOC_MUTED = {"span": frozenset({"rightside", "since", "sub-heading", "out-of-band",
                                     "notable-traits"}),
                  "div": frozenset({"tooltip"}),
                  "summary": frozenset({"hideme"})}
# javadoc's generated cross-reference pages (javadoc 17 names its writer in
# `<meta name="generator">`): "Uses of Class …" (`class-use/`, a page per class),
# "Uses of Package", the class hierarchy trees and the A-Z index. Each lists
# names, and repeats first sentences, documented on the class pages.
# ... and on a class's page, under each summary, the members it inherits
# ("Methods declared in class java.lang.Object: clone, equals, …, wait"), names
# only: 2,228 of the 25,005 passages of `java.base`; the class that declares
# them documents them, and the page's hierarchy and "All Implemented
# Interfaces" lines already say where they come from.
_JAVADOC_INHERITED = "inherited-list"
_JAVADOC_LISTINGS = {"javadoc/classusewriter": "uses of a class",
                     "javadoc/packageusewriter": "uses of a package",
                     "javadoc/packagetreewriter": "a package's class hierarchy",
                     "javadoc/treewriter": "the class hierarchy",
                     "javadoc/indexwriter": "the index of all names"}
# gtk-doc (`<meta name="generator" content="GTK-Doc V1.33.1 (XML mode)">`, the GLib,
# GObject and GIO references and most GNOME libraries') heads the parts of each
# function's and type's entry with an h4 "Parameters", "Returns" or "Members":
# as sections they cut every entry into three (`g_key_file_free () › Parameters`
# held only `key_file / a GKeyFile`), and the function's name left its own text.
# They are labels. Its A-Z index of every name (`api-index-full.html`, a
# `div.index` of `g_regex_match, function in Perl-compatible regular
# expressions`) repeats the names the reference pages document.
_GTKDOC_LABELS = frozenset({"parameters", "returns", "members"})
_GTKDOC_INDEX = "index"
# Haddock (GHC's library references; a page's `div#package-header`) writes each
# declaration as a `p.src` line (`words :: String -> [String] Source #`) with a
# "Source" link (`a.link`) to the highlighted module; under each type and class a
# list of its instances (`div.subs.instances`: `Functor Maybe | Since: base-2.1`,
# each with its methods' signatures again), names that the classes' pages
# document; and above the page a table of the module's copyright, licence,
# maintainer and language (`table.info`), and below it "Produced by Haddock"
# (`div#footer`). A declaration's collapsible parts are headed by an h4 ("Examples",
# `h4.details-toggle-control`) over a `<details>` whose `<summary>` says "Expand"
# (`summary.hide-when-js-enabled`, shown only without scripts): the h4 is a label
# (as a section, "Examples" took the next declarations under it), the summary a button.
_HADDOCK_HEADER = "package-header"
# ... and its A-Z index of names (`doc-index-A.html` … `doc-index-All.html`: the
# letters in `div#alphabet`, the names in `div#index`), each name with the modules
# that export it.
_HADDOCK_INDEX = frozenset({"alphabet", "index"})
_HADDOCK_LABEL = "details-toggle-control"
_HADDOCK_MUTED = {"summary": frozenset({"hide-when-js-enabled"})}
_HADDOCK_SIGNATURE = "src"
_HADDOCK_SOURCE = "Source"
# Qt's qdoc (its pages' `div#qtdocheader`) puts a trail above each page
# (`div.navigationbar`: "Qt 5.15 / Qt Core / C++ Classes / QStringView / Qt 5.15.8
# Reference Documentation", every page's first passage), the page's table of
# contents beside it (`div.sidebar`: a section "Contents" of links) and the
# copyright and licence lines below (`div.footer`, in every page's last passage).
_QDOC_HEADER = "qtdocheader"
_QDOC_FRAME = frozenset({"navigationbar", "sidebar", "footer"})
# RDoc's Darkfish pages (Ruby's API references; each page links `css/rdoc.css`)
# head each method with a `div.method-heading` (`convert_file(filename, options
# = {})`), not a heading element, so a class's methods were one section
# (`Public Instance Methods`, 40 methods long); after the name a label "click to
# toggle source" (`span.method-click-advice`), and under the description the
# method's whole Ruby source (`div.method-source-code`, `# File lib/…, line 42`),
# hidden until that label is clicked: 361 of the 382 methods and attributes of
# Asciidoctor's reference, most of its words. The heading is a definition's signature, the label a
# button, and the source is left out like a frame (the `.rb` files hold it). Its
# table of contents (`table_of_contents.html`, `body.table-of-contents`) lists
# every class and method with the class's name, nothing more.
_RDOC_STYLESHEET = "rdoc.css"
_RDOC_HEADING = "method-heading"
_RDOC_SOURCE = "method-source-code"
_RDOC_MUTED = {"span": frozenset({"method-click-advice"})}
_RDOC_CONTENTS = "table-of-contents"
_VOID = frozenset("""
    area base br col embed hr img input keygen link meta param source track wbr
""".split())
_MIN_SHARE = 0.25
# A table cell of this many links, whose words are this share of its words, is a menu.
_MENU_LINKS = 10
_MENU_SHARE = 0.85
_MAX_OPEN_CELLS = 16
_MENU_BESIDE_CHARS = 60   # characters of words not in links in a cell beside it (a sentence)
_MAX_OPEN_ZONES = 8
_MAX_ZONES = 1000
# A list whose every item is a link to another page of the same tree, and nothing
# but its links (`_LINK_LIST_SHARE` of its letters and digits), that is all its
# section holds: navigation written as a section. NTPsec's pages (AsciiDoc) each
# open with `1. Related Links` / `1.1. Manual Pages`, every tool with its summary
# inside the link (`ntplogtemp(1) - log system temperature data for use by
# ntpviz`), words of the pages it names. Left out, heading and all, when the page
# keeps `_LINK_LIST_KEPT` times as many characters of other text: a short page, a
# site map or a manual's index page (an introduction over lists of its pages) is
# what it links to, and keeps them. Links to places (`page.html#name`, `#name`)
# are a page's outline (NTPsec's `2. Table of Contents`, SQLite's list of its
# aggregate functions atop the page that describes each) and keep a list; so do
# links that leave the tree, and an item that says more than its link (`<a>ls</a>
# - list directory contents`).
# Only a list at the top of the page is navigation: with fewer than
# `_LINK_LIST_LEAD` characters of the page's other text before it (NTPsec's
# epigraph under the title is 126 at most). Further down, after the page has
# begun to say what it says, a list of links is part of that: GIMP's "The
# Contents of the Color Management Submenu" (its five commands, after "There
# are five options in the Color Management submenu"), CMake's list of its
# Makefile and Visual Studio generators, a "See also" at the end. And a page
# where such lists are half of its sections or more is a site map, and keeps
# them (Apache's Chinese `sitemap.html`, whose titles are short beside its
# list of modules, kept 4 of its 13 sections).
_LINK_LIST_ITEMS = 3
_LINK_LIST_SHARE = 0.9
_LINK_LIST_KEPT = 3
_LINK_LIST_LEAD = 200
_LINK_LISTS = frozenset({"ul", "ol"})
# A link that leaves the tree: `http:`, `mailto:`, `//host/…`.
_EXTERNAL_LINK = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:|//")
# ◆: Doxygen's mark before each member's title (`<h2 class="memtitle">`).
_PERMALINK_MARKS = frozenset({"¶", "#", "§", "🔗", "⚓", "∞", "\u200b", "◆"})
_PERMALINK_CLASSES = frozenset({
    "headerlink", "anchor", "anchorjs-link", "hash-link", "header-anchor",
    "heading-anchor", "anchor-link", "permalink"})
_SKIP_LINK = re.compile(r"^(?:skip|jump)\s+(?:to|over|navigation|nav\b|links)", re.IGNORECASE)
# A link back to the top of the same page (`<a href="#topofpage">(back to top)</a>` after
# each section of Double Commander's help, 238 in its 21 pages; `<A HREF="#top">top</A>`
# at the foot of each Vim help page): navigation, so its words are not the section's,
# when nothing but punctuation comes before it on its line (Graphviz's *see the note
# at the <a href="#top">top</a> of this page* keeps its word).
_TOP_LINK = re.compile(
    r"^[\s()\[\]↑⇑⬆^«»‹›<>|:.\-–—]*"
    r"(?:(?:(?:back|return|go|jump|scroll)\s+)?(?:up\s+)?to\s+(?:the\s+)?)?top"
    r"(?:\s+of\s+(?:the\s+|this\s+)?(?:page|document))?"
    r"[\s()\[\]↑⇑⬆^«»‹›<>|:.\-–—]*$", re.IGNORECASE)
_TRAILING_MARKS = " ¶§#\u200b"
_MAX_HEADING_CHARS = 300   # a longer "heading" is an unclosed tag swallowing the page
_SIGNATURE_LEVEL = 7       # under the h6 of its page: a definition is the innermost section
# A question in bold, alone in its paragraph (`<p><b>(8) Are there any known size
# limits?</b></p>`), is how hand-written FAQs head each answer: recorded at this level,
# it becomes a heading one level under the heading before it. Other bold paragraphs
# ("Inheritance:", "Changes in version 3.38.0:") stay text: as headings they cut pages
# into small sections that measured no better.
_BOLD_LEVEL = -1
_BOLD_TAGS = frozenset({"b", "strong"})
_MAX_BOLD_HEADING_CHARS = 160
_MAX_TITLE_CHARS = 500
_META_CHARSET = re.compile(
    rb"""<meta[^>]*?charset\s*=\s*["']?\s*([-\w.:]+)""", re.IGNORECASE)
# XHTML (an EPUB's chapters, pages written as XML) names its encoding in the XML
# declaration instead: `<?xml version="1.0" encoding="Shift_JIS"?>`.
_XML_ENCODING = re.compile(rb"""\s*<\?xml\s[^>]*?encoding\s*=\s*["']([-\w.:]+)""")
# Whitespace runs other than a lone space: prose has none, so collapsing is a scan.
_WHITESPACE = re.compile(r"[^\S ]\s*| \s+")
# Word's "<![if !supportLists]>" ... "<![endif]>" markers: no text of their own.
_CONDITIONAL = re.compile(r"<!\[(?:if [^\]>]{0,200}|endif)\]>", re.IGNORECASE)
# `<meta http-equiv="refresh" content="0; url=…">` (`url=` may be left out): go elsewhere at once.
# Two `\s*` never meet around an optional part: that costs time quadratic in a run of spaces.
_REDIRECT = re.compile(r"\s*(?:(?:0+(?:\.0*)?|\.0*)\s*)?[;,]\s*(?:url\s*=\s*)?(\S.*)",
                       re.IGNORECASE | re.DOTALL)
# A redirect page says "Redirecting to …"; one with more to say is read.
_MAX_REDIRECT_CHARS = 300
# Sphinx's search page (`search.html` in every HTML build): its results are
# filled into `div#search-results` by `searchtools.js`; its own text is how to
# search, and at most a footer.
_SPHINX_SEARCH_RESULTS = "search-results"
# Doxygen's listing of a source file it documents (`avformat_8h_source.html`, "FFmpeg:
# libavformat/avformat.h Source File", for the "Go to the source code of this file"
# links; SOURCE_BROWSER, on by default): the header again, comments and all, a line
# a `div.line` with its number (`<a id="l00012">`). The comments are the text the
# file's page and its structures' pages show, so each listing matched what they
# answer: FFmpeg's 158 took 24 of the first-ten places of its para6 questions.
# Like Sphinx's highlighted module sources (`_modules/`, walk.py), they are skipped.
_DOXYGEN_LINE = re.compile(r"l[0-9]{5}$")   # 1.9.4 writes an id and a name, 1.8 a name alone
# LaTeX2HTML writes a symbol it could not convert as a numbered placeholder in a
# `<span class="MATH">` (`4#4` for `<`, `5#5` for `>`, numbered per document in its
# `images.pl`): gnuplot's manual writes each syntax placeholder `<xscale>` as
# `4#4xscale5#5`, which stored the word joined to the digits. Read as a space.
# Its navigation panel above and below each page (`<div class="navigation">`: *Next:
# Spiderplot Up: Set-show Previous: Samples Index*, the neighbours' titles) and the list
# of the page's subsections (`<ul class="ChildLinks">`) are left out like a frame.
_LATEX2HTML_NAV = frozenset({"navigation", "ChildLinks"})
_LATEX2HTML_PLACEHOLDER = re.compile(r"\s*([0-9]+)#\1\s*$")
_DOXYGEN_SOURCE_TITLE = " Source File"
_DOXYGEN_SOURCE_REASON = ("Doxygen's copy of a source file with its lines numbered, for the "
                          "'Go to the source code' links (the file's documented page is read)")
_SPHINX_SEARCH_SCRIPT = "searchtools.js"
_MAX_SEARCH_PAGE_CHARS = 1000
# The WHATWG encoding standard reads these labels as windows-1252.
_AS_CP1252 = {"iso8859-1", "latin-1", "ascii", "iso8859-9", "cp1252"}


def read_html(data: bytes, limits: Limits) -> Document:
    """Visible text of an HTML page, sectioned by h1-h6, without its frame."""
    return _document(_parse(data, limits), limits)


# The title Vim's converter (`doc/makehtml.awk`) gives each help file's page.
_VIM_HELP_TITLE = "Vim documentation: "


# A site generator's page metadata in a leading comment, as JSON (Go's web site:
# `<!--{ "Title": "Getting Started", "Path": "/doc/install" }-->`).
_COMMENT_METADATA = re.compile(r"\s*<!--(\{.*?\})-->", re.DOTALL)


# An HTTP header before the page: man2html, run as a CGI program and its output
# saved as a file, begins it with `Content-type: text/html; charset=UTF-8` and a
# blank line (Debian's `bash-doc` ships `bash.html` so). Never text.
_CGI_HEADER = re.compile(r"content-type[ \t]*:[ \t]*text/html[^\n]*\n"
                         r"(?:[a-z][a-z0-9-]*[ \t]*:[^\n]*\n){0,8}[ \t]*\n(?=\s*<)",
                         re.IGNORECASE)


def _metadata(text: str) -> Tuple[Optional[str], str]:
    """A page template's title from its front matter (`---` … `---`, as Jekyll and
    Hugo pages have; the block is never text) or from JSON metadata in a leading
    comment, and the page without the front matter (or without a CGI program's
    HTTP header, `_CGI_HEADER`)."""
    if text[:13].lower() == "content-type:":
        header = _CGI_HEADER.match(text)
        if header:
            return None, text[header.end():]
    if text.startswith(("---\n", "+++\n")):
        title, rest = split_front_matter(text)
        if rest is not text:
            return title, rest
    if text.lstrip()[:5] == "<!--{":
        found = _COMMENT_METADATA.match(text, 0, min(len(text), _MAX_METADATA_CHARS))
        try:
            fields = json.loads(found.group(1)) if found else None
        except ValueError:
            fields = None
        if isinstance(fields, dict):
            title = fields.get("Title", fields.get("title"))
            if isinstance(title, str) and title.strip():
                return " ".join(title.split())[:_MAX_TITLE_CHARS], text
    return None, text


_MAX_METADATA_CHARS = 65_536


def read_html_file(data: bytes, limits: Limits) -> Document:
    """`read_html` for a file of its own, which may be only a redirect to another.

    Documentation generators leave a stub page at an old or second address
    (rustdoc at every re-export, Sphinx and MkDocs redirect plugins): an
    immediate `<meta>` refresh and a line "Redirecting to …". Indexed, it is a
    result that holds nothing, so it is skipped and the skip names the target.
    javadoc's cross-reference pages (`_JAVADOC_LISTINGS`) are skipped too, so are
    gtk-doc's and Haddock's A-Z indexes of names (`name_index`), Sphinx's
    search page, whose results its script fills in, and Doxygen's listings of
    the source files it documents (`source_listing`).
    """
    parser = _parse(data, limits)
    if parser.listing is not None:
        raise SkipFile(f"javadoc's cross-reference page ({parser.listing})")
    if parser.name_index is not None:
        raise SkipFile(parser.name_index)
    if parser.redirect is not None or parser.sphinx_search_page:
        chars = sum(len(text) for _, text, _ in parser.content())
        if parser.redirect is not None and chars <= _MAX_REDIRECT_CHARS:
            raise SkipFile(f"a redirect page (to {parser.redirect})")
        if parser.sphinx_search_page and chars <= _MAX_SEARCH_PAGE_CHARS:
            raise SkipFile("Sphinx's search page (its results come from a script)")
    if parser.source_listing():
        raise SkipFile(_DOXYGEN_SOURCE_REASON)
    return _vim_help(parser, limits) or _document(parser, limits)


def _vim_help(parser: "_TextParser", limits: Limits) -> Optional[Document]:
    """A Vim help file made HTML by Vim's own converter (`Vim documentation: usr_25`,
    the file in one `<pre>`), read as the help file (`vimhelp`)."""
    if not (parser.title or "").startswith(_VIM_HELP_TITLE):
        return None
    blocks = [text for _, text, _ in parser.content()]
    body = max(blocks, key=len, default="")
    if not looks_like_vim_help(body, body[-2000:]):
        return None
    return vim_help_document(body, parser.title, "html", limits)


def _parse(data: bytes, limits: Limits, kind: Optional[type] = None) -> "_TextParser":
    """Parse a page with `kind` (a `_TextParser`, or a subclass that reads another
    markup as HTML), within the text budget and the rescanning allowance."""
    # As an HTML parser's input stream does, CR LF and a lone CR become LF (else a
    # file with CRLF endings keeps a CR in every line of its <pre> blocks).
    meta_title, text = _metadata(normalise_newlines(decode_text(data, declared=sniff_charset(data))))
    text = defuse(text)
    parser = (kind or _TextParser)(limits.max_text_chars, 2 * len(text) + _RESCAN_ALLOWANCE)
    parser.meta_title = meta_title
    try:
        try:
            parser.feed(text)
            parser.close()
        except _Runaway as stop:
            # The rest is start tags that each swallow it to its end: read it as text.
            rest, parser.rawdata = parser.rawdata[stop.at:], ""
            parser.feed(rest.replace("<", "&lt;"))
            parser.close()
    except _Full:
        pass
    parser.finish()
    return parser


def _document(parser: "_TextParser", limits: Limits) -> Document:
    builder = SectionBuilder(limits.max_text_chars)
    first_h1 = _replay(parser.content(), builder)
    title = _without_site(parser.title, first_h1) or parser.meta_title or first_h1 or ""
    return Document(title=title, format="html", sections=builder.build())


# A documentation generator's <title> is the page's heading and then the site's
# name: `What’s New In Python 3.11 — Python 3.11.2 documentation`, `Models |
# Django documentation | Django`, `Overview — NumPy v1.26 Manual`.
_SITE_SEPARATORS = (" \u2014 ", " \u2013 ", " - ", " | ", " :: ", " \u00b7 ", " \u00bb ")
_SITE_NAME = re.compile(r"\b(?:documentation|docs|manual|handbook|reference)\b", re.IGNORECASE)


def _without_site(title: Optional[str], h1: Optional[str]) -> Optional[str]:
    """The page's own title, when <title> is its first heading and the name of its site.

    Every page of a manual carries the site's name (and often its version), so
    those words matched every passage and ranked none: *what's new in python
    3.11* found every What's New page alike."""
    if not title or not h1 or len(title) <= len(h1) or not title.startswith(h1):
        return title
    rest = title[len(h1):]
    return h1 if rest.startswith(_SITE_SEPARATORS) and _SITE_NAME.search(rest) else title


def _doxygen_line(attrs: List[Tuple[str, Optional[str]]]) -> bool:
    """Is this `<a>` the anchor of a numbered line in a Doxygen listing (`l00012`)?"""
    values = dict(attrs)
    return _DOXYGEN_LINE.match(values.get("id") or values.get("name") or "") is not None


def _replay(ops: List["_Op"], builder: SectionBuilder) -> Optional[str]:
    """Feed recorded headings and paragraphs to `builder`; the first h1's text."""
    first_h1: Optional[str] = None
    depth = 0   # the level of the last true heading
    for level, text, _ in ops:
        if builder.full:
            break
        if level == _BOLD_LEVEL:
            builder.heading(depth + 1, text)
        elif level:
            builder.heading(level, text)
            depth = level
            if level == 1 and first_h1 is None:
                first_h1 = text
        else:
            builder.paragraph(text)
    return first_h1


def sniff_charset(data: bytes) -> Optional[str]:
    """The encoding a `<meta>` tag (or else an XML declaration) declares in the first
    2 KB, if usable."""
    if bom_encoding(data)[0]:
        return None
    match = _META_CHARSET.search(data[:2048]) or _XML_ENCODING.match(data, 0, 2048)
    if not match:
        return None
    try:
        name = codecs.lookup(match.group(1).decode("ascii")).name
    except (LookupError, UnicodeDecodeError):
        return None
    if name.startswith(("utf-16", "utf-32")):
        return "utf-8"   # a page that can declare itself in ASCII is not UTF-16
    return "cp1252" if name in _AS_CP1252 else name


def defuse(text: str) -> str:
    """Remove the constructs that make `html.parser` quadratic, in linear time.

    The parser rescans to the end of the input for every `<` that opens
    something it cannot close (a tag with no `>` after it, a comment with
    no `-->`), so a 1 MB file of `<a x` takes minutes. Comments and marked
    sections are removed here (they carry no visible text), unclosed ones are
    turned into text, and so is every `<` after the last `>`. A start tag of
    thousands of attributes is removed whole (see `_without_swarms`).
    """
    text = _CONDITIONAL.sub("", text)
    text = _strip_between(text, "<!--", "-->")
    text = _strip_between(text, "<![", "]]>")
    text = _without_swarms(text)
    last = text.rfind(">")
    return text[: last + 1] + text[last + 1:].replace("<", "&lt;")


# `html.parser` holds some 800 bytes per attribute while it reads a start tag (its
# pattern's backtracking state, then the list): 5 MB of `<div a a a …>` took 1.3 GB.
# No page has a tag of this many attributes; an inline image or an SVG path is one
# long value, with few separators.
_SWARM_CHARS = 65_536
_SWARM_ATTRIBUTES = 10_000


def _without_swarms(text: str) -> str:
    """The text without start tags longer than _SWARM_CHARS that hold more than
    _SWARM_ATTRIBUTES runs of separators (spaces, `/`, quotes); `<script>` and
    `<style>` stay."""
    if len(text) <= _SWARM_CHARS:
        return text
    out: List[str] = []
    done = 0
    for lt, end in _long_tags(text):
        if not text[lt + 1:lt + 7].lower().startswith(("script", "style")) and _swarm(text, lt, end):
            out += [text[done:lt], " "]
            done = end + 1
    if not out:
        return text
    out.append(text[done:])
    return "".join(out)


def _long_tags(text: str) -> Iterator[Tuple[int, int]]:
    """Where each start tag longer than _SWARM_CHARS starts and ends, as `html.parser`
    reads it: from a `<` and a letter (a later `<a` in it is one more attribute,
    `<x <a <a …>`) to its `>`, over values quoted after `=` (`b=">"`)."""
    if _QUOTED_GT.search(text) is None:   # as on most pages: every tag ends at its first `>`
        start = 0
        while True:
            end = text.find(">", start)
            if end < 0:
                return
            if end - start > _SWARM_CHARS:
                opened = _TAG_OPEN.search(text, start, end)
                if opened and end - opened.start() > _SWARM_CHARS:
                    yield opened.start(), end
            start = end + 1
    opened = _TAG_OPEN.search(text)
    while opened:
        end = _tag_end(text, opened.start())
        if end < 0:
            return
        if end - opened.start() > _SWARM_CHARS:
            yield opened.start(), end
        opened = _TAG_OPEN.search(text, end + 1)


def _tag_end(text: str, lt: int) -> int:
    """Where the start tag at `lt` ends (its `>`), a value quoted after `=` passed over
    whole; -1 when no `>` follows. Each character is looked at once: a quote with no
    match ends nothing, and the search goes on from the `>` already found."""
    gt = text.find(">", lt)
    pos = lt
    while gt >= 0:
        eq = text.find("=", pos, gt)
        if eq < 0:
            return gt
        quote = _GAP.match(text, eq + 1).end()
        if text[quote:quote + 1] not in ("\"", "'"):
            pos = eq + 1
            continue
        close = text.find(text[quote], quote + 1)
        if close < 0:
            return gt
        pos = close + 1
        if pos > gt:
            gt = text.find(">", pos)
    return -1


_SEPARATORS = re.compile(r"[\s/'\"]+")
_TAG_OPEN = re.compile(r"<[A-Za-z]")
# A value quoted after `=` that holds a `>` (or is never closed): then a tag may end past
# its first `>`.
_QUOTED_GT = re.compile(r"""=[ \t\n\r\f]*(?:"[^">]*>|'[^'>]*>)""")
_GAP = re.compile(r"[ \t\n\r\f]*")


def _swarm(text: str, start: int, end: int) -> bool:
    runs = _SEPARATORS.finditer(text, start, end)
    return next(itertools.islice(runs, _SWARM_ATTRIBUTES, None), None) is not None


def _strip_between(text: str, opener: str, closer: str) -> str:
    out: List[str] = []
    pos = 0
    unclosed_from: Optional[int] = None   # no closer exists after this point
    while True:
        start = text.find(opener, pos)
        if start < 0:
            break
        end = -1 if unclosed_from is not None else text.find(closer, start + len(opener))
        if end < 0:
            unclosed_from = start
            out.append(text[pos:start] + "&lt;" + opener[1:])
            pos = start + len(opener)
            continue
        out.append(text[pos:start])
        pos = end + len(closer)
    out.append(text[pos:])
    return "".join(out)


class _Full(Exception):
    """Raised inside the parser once the text budget is spent."""


class _Runaway(Exception):
    """Raised inside the parser when unclosed start tags have cost it too many rescans."""

    def __init__(self, at: int) -> None:
        super().__init__(at)
        self.at = at


# Characters `html.parser` may rescan for unclosed start tags beyond twice the page's length.
_RESCAN_ALLOWANCE = 100_000


_Op = Tuple[int, str, bool]   # (heading level or 0 for a paragraph, text, inside the frame)


# A table of a header row and at most this many rows reads as name-value pairs.
_MAX_PAIR_ROWS = 3
_MAX_PAIR_NAME_CHARS = 80


class _Grid:
    """The cells of an open table, to read it as name-value pairs if it is small.

    A parameter's table in a reference (`type | default | mandatory` over `word |
    none | no`) read as bare cells says "word" and "none" with nothing to tell
    what they are; `type: word; default: none; mandatory: no` does. A table of a
    header row (all `<th>`, two cells or more) and one to three rows of as many
    `<td>` cells, with no table, heading or caption inside and no merged cells,
    is read so: a paragraph a row, each cell after its column's name (an empty
    cell left out). Larger tables keep their rows as they were.
    """

    def __init__(self, depth: int, first: int, zones: int, open_zones: int) -> None:
        self.depth, self.first, self.zones, self.open_zones = depth, first, zones, open_zones
        self.rows: List[List[Tuple[bool, List[str]]]] = []
        self.cell: Optional[List[str]] = None
        self.ok = True

    def start(self, tag: str, attrs: list) -> None:
        if tag == "tr":
            self.rows.append([])
            self.cell = None
        elif tag in _CELLS:
            values = dict(attrs)
            if any((values.get(span) or "1").strip() != "1" for span in ("colspan", "rowspan")):
                self.ok = False   # merged cells
            if not self.rows:
                self.rows.append([])
            self.cell = []
            self.rows[-1].append((tag == "th", self.cell))
        elif tag in _PARAGRAPH_BLOCKS or tag == "br":
            self.space()

    def space(self) -> None:
        if self.cell is not None:
            self.cell.append(" ")

    def data(self, data: str, shown: bool) -> None:
        if self.cell is None:
            if data.strip():
                self.ok = False   # words outside the cells
        elif shown:
            self.cell.append(data)

    def pairs(self) -> Optional[List[str]]:
        """A line of `name: value` pairs a row, or None if the table is not such a grid."""
        rows = [row for row in self.rows if row]
        if not self.ok or not 2 <= len(rows) <= _MAX_PAIR_ROWS + 1:
            return None
        header, body = rows[0], rows[1:]
        if len(header) < 2 or not all(is_th for is_th, _ in header):
            return None
        names = [_collapse("".join(parts)) for _, parts in header]
        if not all(names) or max(map(len, names)) > _MAX_PAIR_NAME_CHARS:
            return None
        out = []
        for row in body:
            if len(row) != len(names) or any(is_th for is_th, _ in row):
                return None
            cells = [_collapse("".join(parts)) for _, parts in row]
            line = "; ".join(f"{name}: {value}" for name, value in zip(names, cells) if value)
            if line:
                out.append(line)
        return out or None


class _TextParser(HTMLParser):
    def __init__(self, budget: int, rescans: int = 1 << 62) -> None:
        super().__init__(convert_charrefs=True)
        self._rescans = rescans                # see parse_starttag
        self.title: Optional[str] = None
        self.meta_title: Optional[str] = None   # from front matter or a metadata comment
        self.redirect: Optional[str] = None    # where an immediate <meta> refresh sends the reader
        self.listing: Optional[str] = None     # which javadoc cross-reference page this is
        self._search_box = False               # Sphinx's box for search results seen
        self._sphinx_search = False            # Sphinx's search script loaded
        self.ops: List[_Op] = []
        self._budget = budget
        self._chars = 0                        # text recorded outside the frame
        self._frame_chars = 0
        self._raw_skip: Optional[str] = None   # inside <script>/<style> raw text
        self._skip_depth = 0                   # open noscript/template elements
        self._pre_depth = 0
        self._title_parts: Optional[List[str]] = None
        self._heading: Optional[Tuple[int, List[str]]] = None
        self._parts: List[str] = []            # the paragraph being built ("\n" = line break)
        self._line_has_text = False            # for placing cell separators
        self._pre_paragraph = False
        self._frame: Optional[List] = None     # [tag, open elements of that name]
        self._open_zones: List[List] = []      # [tag, open elements of that name, zone index]
        self._zones: List[List] = []           # [first op, end op or None, kind]
        self._tracked: set = set()             # tag names whose opening and closing count
        self._sectioning = 0                   # open <section>/<article> elements
        self._anchor: Optional[Tuple[List[str], int, str, str, bool]] = None
        self._local_anchor = False             # the open link goes to a page of the tree
        self._button: Optional[Tuple[List[str], int]] = None
        self._asciidoc = False
        self._rustdoc = False
        self._makeinfo = False
        self._first_level: Optional[int] = None   # the level of the page's first heading
        self._javadoc = False
        self._httpd = False                    # a page of the Apache HTTP Server manual
        self._erldocgen = False                # a page made by Erlang/OTP's erl_docgen
        self._gtkdoc = False                   # a page made by gtk-doc
        self._doxygen = False                  # a page made by Doxygen
        self._latex2html = False               # a page made by LaTeX2HTML
        self._source_lines = 0                 # Doxygen's numbered source lines (`a#l00012`)
        self._haddock = False                  # a page made by Haddock
        self._qdoc = False                     # a page made by Qt's qdoc
        self._rdoc = False                     # a page made by RDoc (Darkfish)
        self._haddock_minimal = False          # inside its "Minimal complete definition"
        self.name_index: Optional[str] = None  # which generator's A-Z index of names this is
        self._soft_edge = False                # a link's edge passed (rustdoc, javadoc, Haddock, qdoc)
        self._field_lists: List[bool] = []     # open `dl`s: is each a Sphinx field list?
        self._chunked = False                  # DocBook links to a previous or next page seen
        self._tables = 0                       # open <table> elements
        self._prototype = 0                    # the depth of an open Doxygen `table.memname`
        self._admonition = False               # the last start tag opened a DocBook admonition
        self._cells: List[List] = []           # open cells: [tables, first op, parts, parts length,
        #                                        chars, link chars, links] when each opened
        self._data_chars = 0                   # words' characters read (spaces aside) ...
        self._link_chars = 0                   # ... and those inside a link
        self._links = 0
        self._rows: List[List] = []            # [tables, menu cells' op ranges,
        #                                        most non-link chars of another cell]
        self._muted: Optional[List] = None     # [tag, open elements of that name, target, start]
        self._bold_lead = False                # a <p> open with no words yet: may be all bold
        self._bold: Optional[List[int]] = None  # [start, end] of its bold span in `_parts`
        self._grid: Optional[_Grid] = None     # the open outermost table, for `_grid_pairs`
        # The open outermost list, while it may be all links (`_LINK_LIST_ITEMS`):
        # [open lists, first op, letters and digits, those in links to pages of the
        #  tree, items, such links at the last item's start]
        self._link_list: Optional[List[int]] = None
        self._local_links = 0                  # links to pages of the tree opened in a link list
        self._link_lists: List[Tuple[int, int]] = []   # op ranges of the lists of links

    # -- tags ---------------------------------------------------------------
    def parse_starttag(self, i: int) -> int:
        """`HTMLParser.parse_starttag`, which cannot find the end of a start tag whose
        attributes run to the end of the page (`<a b='>'<a b='>'…`: a quoted `>` is no
        end); at the end of the input the parser then reads it as text up to the next
        `>` and tries again at the next `<`, rescanning the rest each time (80 KB of
        them cost 24 CPU s). Past an allowance of such rescans, a linear one on any
        page, `_Runaway` stops it and the rest is read as text."""
        end = super().parse_starttag(i)
        if end < 0:
            self._rescans -= len(self.rawdata) - i
            if self._rescans < 0:
                raise _Runaway(i)
        return end

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if self._raw_skip:
            return
        if tag in _DROPPED:
            if tag in ("script", "style"):
                self._raw_skip = tag
                self._sphinx_search = self._sphinx_search or tag == "script" and any(
                    name == "src" and (value or "").endswith(_SPHINX_SEARCH_SCRIPT)
                    for name, value in attrs)
            else:
                self._skip_depth += 1
            return
        if self._skip_depth:
            return
        after_admonition, self._admonition = self._admonition, tag == "div" and attrs and \
            not _ADMONITION_CLASSES.isdisjoint(c.lower() for c in _classes(attrs))
        if tag in _SECTIONING:
            self._sectioning += 1
        if tag == "html" and any(name.startswith("xmlns:erl") for name, _ in attrs):
            self._erldocgen = True
        if tag == "dl":
            self._field_lists.append("field-list" in _classes(attrs))
        if tag == "body" and self._rdoc and _RDOC_CONTENTS in _classes(attrs):
            self.name_index = "RDoc's table of contents (every class and method by name)"
        if not self._search_box and any(name == "id" and (value or "").strip().lower()
                                        == _SPHINX_SEARCH_RESULTS for name, value in attrs):
            self._search_box = True
        if (attrs or tag in self._tracked or tag in _BARE_MARKERS) and tag not in _VOID:
            self._open_container(tag, attrs)
        if tag == "title" and self.title is None and self._heading is None:
            self._title_parts = []
        elif tag in _HEADINGS:
            self._end_heading()
            self._flush()
            if not (after_admonition and "title" in _classes(attrs)) and not (
                    self._erldocgen and _ERLDOCGEN_LABEL in _classes(attrs)) and not (
                    self._haddock and _HADDOCK_LABEL in _classes(attrs)):
                level = _HEADINGS[tag]
                if self._makeinfo and self._first_level is not None and \
                        _MAKEINFO_FOOTNOTES in _classes(attrs):
                    level = min(level, self._first_level + 1)
                self._heading = (level, [])   # else its label is a paragraph
        elif tag == "dt" and _is_signature(attrs) or (
                self._haddock and tag == "p" and self._frame is None and not self._haddock_minimal
                and _HADDOCK_SIGNATURE in _classes(attrs)) or (
                self._rdoc and tag == "div" and self._frame is None
                and _RDOC_HEADING in _classes(attrs)):
            self._end_heading()
            self._flush()
            self._heading = (_SIGNATURE_LEVEL, [])
        elif tag == "br":
            self._newline()
        elif tag in _CELLS:
            self._end_open_cells()   # a cell left open (`</td>` is optional) ends where the next begins
            start = len(self._parts)   # the cell's words, its separator included, start here
            if self._in_prototype():
                self._space()
            elif self._line_has_text:
                self._parts.append(CELL_SEPARATOR)
            self._open_cell(start)
        elif tag == "tr" and self._in_prototype():
            self._end_open_cells()   # a prototype's rows are one line: `int f(int a, char *b)`
            self._space()
        elif tag in _BOLD_TAGS:
            if self._bold_lead and self._bold is None and not self._cells:
                self._bold = [len(self._parts), -1]
        elif tag in _WORD_EDGES:
            self._edge(tag)
            if tag == "a":
                self._start_anchor(attrs)
                self._links += 1
                if self._doxygen and _doxygen_line(attrs):
                    self._source_lines += 1
            elif tag == "button":
                self._button = (self._text_target(), len(self._text_target()))
        elif tag in _PARAGRAPH_BLOCKS:
            self._flush()
            if tag == "tr":   # the row before ends, if its `</td>` and `</tr>` were left out
                self._end_open_cells()
                self._end_row()
            if tag == "table":
                self._tables += 1
                if "memname" in _classes(attrs):
                    self._prototype = self._tables
            if tag == "pre":
                self._pre_depth += 1
                self._pre_paragraph = True
            self._bold_lead = tag == "p" and not self._pre_depth and self._heading is None
        elif tag == "meta":
            values = dict(attrs)
            if (values.get("http-equiv") or "").strip().lower() == "refresh":
                match = _REDIRECT.match(values.get("content") or "")
                if match and self.redirect is None:
                    self.redirect = match.group(1).strip(" '\"")[:_MAX_TITLE_CHARS]
            elif not (self._asciidoc or self._rustdoc or self._makeinfo or self._javadoc) and (
                    values.get("name") or "").lower() == "generator":
                generator = (values.get("content") or "").lower()
                self.listing = self.listing or _JAVADOC_LISTINGS.get(generator.strip())
                self._javadoc = generator.startswith("javadoc")
                self._asciidoc = generator.startswith("asciidoc")
                self._rustdoc = generator.startswith("rustdoc")
                self._makeinfo = generator.startswith(("makeinfo", "texi2any"))
                self._gtkdoc = generator.startswith("gtk-doc")
                self._doxygen = generator.startswith("doxygen")
                self._latex2html = generator.startswith("latex2html")
        elif tag == "link" and not (self._httpd or self._rdoc):
            values = dict(attrs)
            href = (values.get("href") or "").strip()
            if "stylesheet" in (values.get("rel") or "").lower().split():
                self._httpd = href.endswith(_HTTPD_STYLESHEET)
                self._rdoc = href.rpartition("/")[2] == _RDOC_STYLESHEET
        if self._rustdoc:
            self._mute(tag, attrs)   # after a block's flush, so it mutes only its own words
        elif self._makeinfo and (self._muted is not None or tag == "th" or (
                tag == "span" and not _MAKEINFO_CATEGORIES.isdisjoint(_classes(attrs)))):
            self._mute(tag, attrs, bare_only=True)
        elif self._erldocgen and (self._muted is not None or tag == "div"):
            self._mute(tag, attrs, names=_ERLDOCGEN_MUTED)
        elif self._haddock and (self._muted is not None or tag == "summary"):
            self._mute(tag, attrs, names=_HADDOCK_MUTED)
        elif self._rdoc and (self._muted is not None or tag == "span"):
            self._mute(tag, attrs, names=_RDOC_MUTED)
        if self._link_list is not None or tag in _LINK_LISTS:
            self._link_list_start(tag)
        if self._grid is not None or tag == "table":
            self._grid_start(tag, attrs)

    def handle_startendtag(self, tag: str, attrs: list) -> None:
        if tag in _DROPPED:
            return   # <script/> has no body to drop
        self.handle_starttag(tag, attrs)
        if tag not in ("br", "hr"):
            self.handle_endtag(tag)

    def handle_endtag(self, tag: str) -> None:
        if self._raw_skip:
            if tag == self._raw_skip:
                self._raw_skip = None
            return
        if tag in ("noscript", "template"):
            self._skip_depth = max(0, self._skip_depth - 1)
            return
        if self._skip_depth:
            return
        if self._muted is not None and tag == self._muted[0]:
            self._unmute()   # before a block's flush would keep its words
        if tag == "div":
            self._haddock_minimal = False
        if tag == "dl" and self._field_lists:
            self._field_lists.pop()
        if tag == "title" and self._title_parts is not None:
            self.title = _collapse("".join(self._title_parts))[:_MAX_TITLE_CHARS] or None
            self._title_parts = None
        elif tag in _HEADINGS or (tag in ("dt", "p") or self._rdoc and tag == "div") and (
                self._heading is not None and self._heading[0] == _SIGNATURE_LEVEL):
            self._end_heading()
        elif tag in _BOLD_TAGS:
            if self._bold is not None and self._bold[1] < 0:
                self._bold[1] = len(self._parts)
        elif tag in _WORD_EDGES:
            if tag == "a":
                self._end_anchor()
            elif tag == "button" and self._button is not None:
                # A control's label ("Copy", "Copy item path", "Toggle menu") is not the page's.
                target, start = self._button
                self._button = None
                if self._text_target() is target and len(target) >= start:
                    del target[start:]
            self._edge(tag)
        elif tag == "tr" and self._in_prototype():
            self._space()
        elif tag in _PARAGRAPH_BLOCKS:
            if tag == "pre" and self._pre_depth:
                self._pre_depth -= 1
            self._flush()
            if tag in ("tr", "table"):
                self._end_open_cells()   # a cell whose `</td>` was left out ends with its row
                self._end_row()
            if tag == "table" and self._tables:
                if self._prototype == self._tables:
                    self._prototype = 0
                self._tables -= 1
                while self._cells and self._cells[-1][0] > self._tables:
                    self._cells.pop()   # cells of the table that closed, never closed themselves
        elif tag in _CELLS:
            self._close_cell()
        if tag in self._tracked and tag not in _VOID:
            self._close_container(tag)
        if tag in _SECTIONING and self._sectioning:
            self._sectioning -= 1
        if self._link_list is not None and tag in _LINK_LISTS:
            self._link_list_end()
        if self._grid is not None:
            self._grid_end(tag)

    # -- the frame and the main content ---------------------------------------
    def _open_container(self, tag: str, attrs: list) -> None:
        """Count `tag` in the open frame and zones; start one if it is a marker."""
        frame = self._frame
        if tag in self._tracked:
            if frame is not None:
                frame[1] += 1   # only the frame's own tag is tracked while it is open
            else:
                for zone in self._open_zones:
                    if zone[0] == tag:
                        zone[1] += 1
        if frame is not None:
            return   # nothing inside navigation is main content
        if not attrs:
            if tag not in _BARE_MARKERS:
                return
            values: Dict[str, str] = {}
        else:
            values = dict(attrs)
            if tag not in _MARKER_TAGS and not values.get("role") and tag not in ("table", "ul") \
                    and not (self._makeinfo and tag == "h2"):
                return   # most tags: only a role can make them frame or content
        role = (values.get("role") or "").strip().lower()
        if tag == "div" and not self._haddock and (values.get("id") or "") == _HADDOCK_HEADER:
            self._haddock = True
        elif tag == "div" and self._haddock:   # a class's minimal methods: names, no declaration
            self._haddock_minimal = "minimal" in (values.get("class") or "").split()
            if (values.get("id") or "") in _HADDOCK_INDEX:
                self.name_index = "Haddock's index of all names"
        elif tag == "div" and self._gtkdoc and _GTKDOC_INDEX in (values.get("class") or "").split():
            self.name_index = "gtk-doc's index of all names"
        elif tag == "div" and not self._qdoc and (values.get("id") or "") == _QDOC_HEADER:
            self._qdoc = True
        if tag == "div" and (values.get("id") or "").strip().lower() == "banner":
            role = "banner"   # `<div id="banner">`: the HTML 4 way of saying so
        elif (tag == "div" or tag == "ul") and _named_as_navigation(values):
            role = "navigation"
        if tag in _FRAME_TAGS or role in _FRAME_ROLES or (
                tag in _PAGE_FRAME_TAGS and not self._open_zones and not self._sectioning) or (
                self._rustdoc and tag == "div" and self._inherited_docs(values)) or (
                self._javadoc and tag == "div" and _JAVADOC_INHERITED in (values.get("class") or "").split()) or (
                self._docbook_navigation(tag, values)) or (
                self._makeinfo and _makeinfo_navigation(tag, values)) or (
                self._httpd and tag == "div" and _httpd_navigation(values)) or (
                self._erldocgen and tag == "div" and "footer" in (values.get("class") or "").split()) or (
                self._haddock and _haddock_frame(tag, values)) or (
                self._qdoc and tag == "div"
                and not _QDOC_FRAME.isdisjoint((values.get("class") or "").split())) or (
                self._rdoc and tag == "div" and _RDOC_SOURCE in (values.get("class") or "").split()) or (
                self._latex2html and tag in ("div", "ul")
                and not _LATEX2HTML_NAV.isdisjoint((values.get("class") or "").split())) or (
                not _BREADCRUMB_CLASSES.isdisjoint((values.get("class") or "").lower().split())):
            self._flush()
            self._frame = [tag, 1]
            self._tracked = {tag}
            return
        kind = _zone_kind(tag, role, values, self._asciidoc, self._rustdoc, self._erldocgen)
        if kind and len(self._open_zones) < _MAX_OPEN_ZONES and len(self._zones) < _MAX_ZONES:
            self._flush()
            self._open_zones.append([tag, 1, len(self._zones)])
            self._zones.append([len(self.ops), None, kind])
            self._tracked.add(tag)

    def _docbook_navigation(self, tag: str, values: Dict[str, str]) -> bool:
        """DocBook's links to the pages around this one, and once they have been
        seen (the page is one of many), a chapter's table of contents."""
        if _docbook_navigation(tag, values):
            self._chunked = True
            return True
        return self._chunked and tag == "div" and _DOCBOOK_TOC in (
            values.get("class") or "").lower().split()

    def _inherited_docs(self, values: Dict[str, str]) -> bool:
        """A rustdoc block of text the page inherits: left out like a frame.

        Blanket implementations and the methods reached through `Deref` go
        whole; in the trait implementations the `impl Trait for Type` lines
        stay and the methods under them go.
        """
        ident = (values.get("id") or "").strip().lower()
        if ident in _RUSTDOC_BOILERPLATE or ident.startswith("deref-methods-"):
            return True   # "Methods from Deref<Target = [u8]>": the slice's page has them
        return "impl-items" in (values.get("class") or "").split() and any(
            self._zones[zone[2]][2] == "impls" for zone in self._open_zones)

    def _mute(self, tag: str, attrs: list, bare_only: bool = False,
              names: Optional[Dict[str, frozenset]] = None) -> None:
        """Start leaving out a rustdoc label (`_RUSTDOC_MUTED`; `names`: another
        generator's, `_ERLDOCGEN_MUTED`), or count one more inside it.
        With `bare_only` (makeinfo's labels the caller chose, `_MAKEINFO_BARE`), a
        definition's category or a table's header cell goes only if it shows no more
        than a colon or "Jump to:"."""
        muted = self._muted
        if muted is not None:
            if muted[0] == tag:
                muted[1] += 1
            return
        classes = (_RUSTDOC_MUTED if names is None else names).get(tag)
        if bare_only or (classes and not classes.isdisjoint(_classes(attrs))):
            target = self._text_target()
            self._muted = [tag, 1, target, len(target), bare_only, self._line_has_text]

    def _unmute(self) -> None:
        muted = self._muted
        muted[1] -= 1
        if muted[1]:
            return
        self._muted = None
        target, start = muted[2], muted[3]
        if self._text_target() is target and len(target) >= start and (
                not muted[4] or " ".join("".join(target[start:]).split()).lower() in _MAKEINFO_BARE):
            del target[start:]
            if target is self._parts:   # no cell separator after words that went
                # The line is as it was when the label began (joining the paragraph
                # to look again cost a pass over it per label: 40,000 in 640 KB, 18 CPU s).
                self._line_has_text = muted[5]

    def _close_container(self, tag: str) -> None:
        frame = self._frame
        if frame is not None:
            frame[1] -= 1
            if frame[1] == 0:
                self._flush()
                self._frame = None
                self._tracked = {zone[0] for zone in self._open_zones}
            return
        for position in range(len(self._open_zones) - 1, -1, -1):
            zone = self._open_zones[position]
            if zone[0] != tag:
                continue
            zone[1] -= 1
            if zone[1] == 0:   # it closes, and so does anything left open inside it
                self._flush()
                for inner in self._open_zones[position:]:
                    self._zones[inner[2]][1] = len(self.ops)
                del self._open_zones[position:]
                self._tracked = {zone[0] for zone in self._open_zones}
            break

    def _in_prototype(self) -> bool:
        """Directly inside a Doxygen prototype table (`table.memname`), not a table in it."""
        return bool(self._prototype) and self._prototype == self._tables

    def _text_target(self) -> List[str]:
        return self._heading[1] if self._heading is not None else self._parts

    def _start_anchor(self, attrs: list) -> None:
        values = {name: (value or "") for name, value in attrs}
        target = self._text_target()
        href = values.get("href", "").strip()
        self._anchor = (target, len(target), href,
                        values.get("class", "").lower(), "data-nosnippet" in values)
        self._local_anchor = self._link_list is not None and bool(href) \
            and "#" not in href and not _EXTERNAL_LINK.match(href)
        if self._local_anchor:
            self._local_links += 1

    def _end_anchor(self) -> None:
        """Drop a permalink or skip link: its words are not the page's."""
        anchor, self._anchor = self._anchor, None
        if anchor is None:
            return
        target, start, href, classes, nosnippet = anchor
        if self._text_target() is not target or len(target) < start:
            return
        if nosnippet:   # a line number before each line of a code listing (rustdoc's source view)
            del target[start:]
            return
        text = " ".join("".join(target[start:]).split())
        local_link = href.startswith("#")
        permalink = len(text) <= 3 and (
            (local_link and (not text or text in _PERMALINK_MARKS))
            or not _PERMALINK_CLASSES.isdisjoint(classes.split())) or (
            self._rustdoc and not _RUSTDOC_BUTTONS.isdisjoint(classes.split())) or (
            self._makeinfo and "summary-letter" in classes.split()) or (
            self._haddock and text == _HADDOCK_SOURCE and "link" in classes.split()) or (
            text in _VIEWCODE_LABELS and _viewcode_link(href, classes))
        if permalink or (local_link and (_SKIP_LINK.match(text) or (
                _TOP_LINK.match(text) and _starts_line(target, start)))):
            del target[start:]

    @property
    def sphinx_search_page(self) -> bool:
        return self._search_box and self._sphinx_search

    def source_listing(self) -> bool:
        """Is this Doxygen's numbered listing of a source file (`_DOXYGEN_SOURCE_TITLE`)?"""
        return (self._doxygen and self._source_lines > 0
                and (self.title or "").endswith(_DOXYGEN_SOURCE_TITLE))

    def content(self) -> List[_Op]:
        """The recorded text that is the page's content, in document order."""
        self._drop_link_sections()
        ops = self.ops
        for zone in self._zones:
            if zone[1] is None:
                zone[1] = len(ops)
        sizes = [0]
        for _, text, in_frame in ops:
            sizes.append(sizes[-1] + (0 if in_frame else len(text)))
        total = sizes[-1]
        ranges = _main_ranges(self._zones, sizes, total)
        chosen = [op for start, end in ranges for op in ops[start:end] if not op[2]]
        if chosen:
            return chosen
        if total:
            return [op for op in ops if not op[2]]
        return ops   # a page that is all frame is read whole

    # -- text ---------------------------------------------------------------
    def handle_data(self, data: str) -> None:
        if self._raw_skip or self._skip_depth:
            return
        if self._latex2html and "#" in data and _LATEX2HTML_PLACEHOLDER.match(data):
            data = " "
        if self._soft_edge and data and self._title_parts is None:
            self._after_soft_edge(data)
        if self._title_parts is not None:
            self._title_parts.append(data)
        elif self._heading is not None:
            self._heading[1].append(data)
        else:
            self._parts.append(data if self._pre_depth else _squeeze(data))
            if not self._line_has_text and data.strip():
                self._line_has_text = True
                if self._bold is None:
                    self._bold_lead = False   # words before any bold span
        if self._grid is not None:
            self._grid.data(data, self._muted is None)
        if self._link_list is not None:
            size = sum(map(str.isalnum, data))
            self._link_list[2] += size
            if self._anchor is not None and self._local_anchor:
                self._link_list[3] += size
        if self._cells:
            size = len(data) - data.count(" ")
            self._data_chars += size
            if self._anchor is not None:
                self._link_chars += size

    # -- a section that is a list of links: navigation -----------------------
    def _link_list_start(self, tag: str) -> None:
        """Open, or follow inside, a list that may be all links (`_LINK_LISTS`)."""
        current = self._link_list
        if current is None:   # `tag` is a list, just opened (and `_flush`ed what came before)
            if self._frame is None and self._heading is None and not self._tables \
                    and not self._pre_depth:
                self._link_list = [1, len(self.ops), 0, 0, 0, -1]
            return
        if tag in _LINK_LISTS:
            current[0] += 1
        elif tag == "li":
            if current[5] == self._local_links:   # the item before had no link of its own
                current[4] = -1 << 30
            current[4] += 1
            current[5] = self._local_links
        elif tag in _HEADINGS or tag == "table" or tag == "pre":
            current[4] = -1 << 30   # more than a list of links

    def _link_list_end(self) -> None:
        current = self._link_list
        current[0] -= 1
        if current[0]:
            return
        self._link_list = None
        _, first, chars, link_chars, items, last = current
        if items >= _LINK_LIST_ITEMS and last != self._local_links \
                and link_chars >= _LINK_LIST_SHARE * chars and self._frame is None \
                and first < len(self.ops):
            self._link_lists.append((first, len(self.ops)))

    def _drop_link_sections(self) -> None:
        """Leave out each list of links atop the page (`_LINK_LIST_LEAD`) that is all
        its section holds (between a heading and the next, `_LINK_LIST_ITEMS`), and
        then each heading left with nothing under it, when the page keeps
        `_LINK_LIST_KEPT` times as much other text as all such lists and they are
        fewer than half its sections (a site map keeps them). Lists inside a table
        (a page laid out in one) are never such lists. Linear in the page's ops."""
        lists, self._link_lists = self._link_lists, []
        if not lists:
            return
        ops = self.ops
        listed = [False] * len(ops)
        for first, last in lists:
            for k in range(first, min(last, len(ops))):
                listed[k] = True

        # For each op, the nearest op before it and from it on that is neither muted nor
        # in a list (one pass each way: a scan from each list was quadratic in lists
        # back to back), the characters of other text before it, and the sections
        # that hold text (a run of text ops after a heading or the page's start).
        count = len(ops)
        before, lead, text, sections, last_open, run = [-1] * count, [0] * count, 0, 0, -1, False
        for k, (level, words, muted) in enumerate(ops):
            before[k], lead[k] = last_open, text
            if muted:
                continue
            if level:
                run = False
            elif not run:
                run, sections = True, sections + 1
            if not listed[k]:
                last_open = k
                if not level:
                    text += len(words)
        after, next_open = [count] * count, count
        for k in range(count - 1, -1, -1):
            after[k] = next_open   # the first open op after k
            if not (ops[k][2] or listed[k]):
                next_open = k

        def at_heading(k: int) -> bool:   # a heading, or the page's edge
            return not 0 <= k < count or ops[k][0] != 0
        whole = [(first, min(last, count)) for first, last in lists if first < min(last, count)]
        whole = [(first, last) for first, last in whole
                 if at_heading(before[first]) and at_heading(after[last - 1])]
        if 2 * len(whole) >= sections:   # a site map
            return
        size = sum(len(ops[k][1]) for first, last in whole for k in range(first, last)
                   if not ops[k][2] and ops[k][0] == 0)
        dropped = [(first, last) for first, last in whole if lead[first] < _LINK_LIST_LEAD]
        if not dropped:
            return
        gone = [False] * len(ops)
        for first, last in dropped:
            for k in range(first, last):
                gone[k] = not ops[k][2]
        kept = sum(len(op[1]) for op in ops if not op[2] and op[0] == 0) - size
        if kept < _LINK_LIST_KEPT * size:   # all such lists, at the top or not
            return
        for k, out in enumerate(gone):
            if out:
                ops[k] = (ops[k][0], ops[k][1], True)
        title = next((k for k, op in enumerate(ops) if op[0] == 1 and not op[2]), -1)
        for k in range(len(ops) - 1, -1, -1):   # inner headings first
            level = ops[k][0]
            if level == 0 or ops[k][2] or k == title:
                continue
            end, emptied = k + 1, False
            while end < len(ops) and not (ops[end][0] and (level < 0 or 0 < ops[end][0] <= level)):
                if not ops[end][2]:
                    break
                emptied = emptied or gone[end]
                end += 1
            else:   # nothing under it but what went, and some went: it goes too
                if emptied:
                    gone[k] = True
                    ops[k] = (level, ops[k][1], True)

    # -- a small table of a header row and a few rows: name-value pairs -------
    def _grid_start(self, tag: str, attrs: list) -> None:
        grid = self._grid
        if grid is None:   # a `<table>` just opened (and `_flush`ed what came before it)
            if self._frame is None and self._heading is None and not self._prototype:
                self._grid = _Grid(self._tables, len(self.ops), len(self._zones), len(self._open_zones))
        elif tag == "table" or tag in _HEADINGS or tag == "caption":
            grid.ok = False   # a table inside, a heading or a caption: not a simple grid
        elif self._tables == grid.depth:
            grid.start(tag, attrs)
        elif tag in _PARAGRAPH_BLOCKS or tag == "br":
            grid.space()

    def _grid_end(self, tag: str) -> None:
        grid = self._grid
        if tag != "table" or self._tables >= grid.depth:
            if tag in _CELLS or tag == "tr":
                grid.cell = None
            elif tag in _PARAGRAPH_BLOCKS:
                grid.space()
            return
        self._grid = None
        if not grid.ok or self._frame is not None or len(self._zones) != grid.zones \
                or len(self._open_zones) != grid.open_zones:
            return
        ops = self.ops[grid.first:]
        flags = {in_frame for _, _, in_frame in ops}
        if len(flags) != 1 or any(level for level, _, _ in ops):
            return
        rows = grid.pairs()
        if rows is None:
            return
        in_frame = flags.pop()
        del self.ops[grid.first:]
        self.ops.extend((0, row, in_frame) for row in rows)
        grown = sum(map(len, rows)) - sum(len(text) for _, text, _ in ops)
        if in_frame:
            self._frame_chars += grown
        else:
            self._chars += grown

    # -- a table cell of links only: an old site's menu -----------------------
    def _open_cell(self, start: int) -> None:
        cells = self._cells
        if len(cells) < _MAX_OPEN_CELLS:
            cells.append([self._tables, len(self.ops), self._parts, start,
                          self._data_chars, self._link_chars, self._links])

    def _end_open_cells(self) -> None:
        """Close the cells still open in the innermost open table."""
        cells = self._cells
        while cells and cells[-1][0] >= self._tables:
            self._close_cell()

    def _close_cell(self) -> None:
        """Note whether the cell that closes is a menu: links and little else.

        Pages laid out in tables before CSS (libxml2's and libxslt's web pages)
        put their menus in a side cell: a `Main Menu` caption over a list of
        twenty links, the same on every page, beside the cell of the page's
        text. A cell of at least _MENU_LINKS links whose words are _MENU_SHARE
        of its words is such a menu when a cell of its row holds a sentence of
        words that are not links (`_MENU_BESIDE_CHARS`, see `_end_row`): a table of
        link lists alone (an index page, SQLite's list of its SQL commands) is
        the page's content.
        """
        cells = self._cells
        while cells and cells[-1][0] > self._tables:
            cells.pop()
        if not cells or cells[-1][0] != self._tables:
            return
        _, first_op, parts, parts_at, chars, link_chars, links = cells.pop()
        chars = self._data_chars - chars
        link_chars = self._link_chars - link_chars
        rows = self._rows
        while rows and rows[-1][0] > self._tables:
            rows.pop()
        if not rows or rows[-1][0] != self._tables:
            if len(rows) >= _MAX_OPEN_CELLS:
                return
            rows.append([self._tables, [], 0])
        row = rows[-1]
        if self._links - links >= _MENU_LINKS and link_chars >= _MENU_SHARE * chars \
                and self._frame is None and self._heading is None and not self._open_zones:
            # Its words a paragraph of their own, to leave out whole; words of the cells
            # before it in the row, not yet a paragraph, go on before it.
            if self._parts is parts and 0 < parts_at <= len(parts):
                self._parts = parts[:parts_at]
                self._flush()
                self._parts = parts[parts_at:]
                first_op = len(self.ops)
            elif 0 < parts_at <= len(parts) and first_op < len(self.ops):
                # A block inside the cell made them a paragraph with its first words:
                # that paragraph is theirs alone.
                head = "\n".join(_collapse(line) for line in "".join(parts[:parts_at]).split("\n")
                                 if line.strip())
                if head:
                    self.ops[first_op] = (0, head, self.ops[first_op][2])
                    first_op += 1
            self._flush()
            row[1].append((first_op, len(self.ops)))
        else:
            row[2] = max(row[2], chars - link_chars)

    def _end_row(self) -> None:
        """At the end of a table row: its menu cells are frame if a cell beside them
        holds a sentence or more of words that are not links."""
        rows = self._rows
        while rows and rows[-1][0] > self._tables:
            rows.pop()
        if not rows or rows[-1][0] != self._tables:
            return
        _, menus, prose = rows.pop()
        if not menus or prose < _MENU_BESIDE_CHARS:
            return
        ops = self.ops
        for first, last in menus:
            for k in range(first, min(last, len(ops))):
                if not ops[k][2]:
                    ops[k] = (ops[k][0], ops[k][1], True)

    def _edge(self, tag: str) -> None:
        """A word edge: where a link, button or image starts or ends.

        Elsewhere a link is a word of its own (menus and link lists often have
        no space between their links). In API references whose links sit inside
        code (rustdoc, javadoc) a link's edge separates words only when a word
        character meets a word character there (`ThinBox</a><span>Experimental`),
        so `std::<a>io</a>::<a>Read</a>` reads `std::io::Read` and
        `Vec<a>&lt;T&gt;</a>` `Vec<T>`, not `std :: io :: Read` and `Vec <T>`.
        So it is inside any signature heading (Sphinx's `dt.sig`, whose type
        annotations link each type: `files: ImmutableMultiDict[str, FileStorage]`,
        not `ImmutableMultiDict [ str , FileStorage ]`) and in Sphinx's field
        lists (*Parameters*, *Return type*: `key (Optional[str]) – …`, not
        `key ( Optional [ str ]) – …`)."""
        if tag == "a" and (self._rustdoc or self._javadoc or self._haddock or self._qdoc or (
                self._heading is not None and self._heading[0] == _SIGNATURE_LEVEL)
                or any(self._field_lists)):
            self._soft_edge = True
        else:
            self._space()

    def _after_soft_edge(self, data: str) -> None:
        """A space at the link edge just passed if it falls between two word characters."""
        self._soft_edge = False
        if not (data[:1].isalnum() or data[:1] == "_"):
            return
        for piece in reversed(self._text_target()):
            if piece:
                if piece[-1].isalnum() or piece[-1] == "_":
                    self._space()
                return

    def _space(self) -> None:
        if self._heading is not None:
            self._heading[1].append(" ")
        elif not self._pre_depth:
            self._parts.append(" ")

    def _newline(self) -> None:
        if self._heading is not None:
            self._heading[1].append(" ")
        else:
            self._parts.append("\n")
            self._line_has_text = False

    def _emit(self, level: int, text: str) -> None:
        in_frame = self._frame is not None
        if in_frame:
            if self._frame_chars > self._budget:
                return
            self._frame_chars += len(text)
        else:
            self._chars += len(text)
        self.ops.append((level, text, in_frame))
        if self._chars > self._budget:
            raise _Full()

    def _end_heading(self) -> None:
        if self._heading is None:
            return
        level, parts = self._heading
        self._heading = None
        text = _collapse("".join(parts)).rstrip(_TRAILING_MARKS)
        if len(text) > _MAX_HEADING_CHARS or (
                self._gtkdoc and level == _HEADINGS["h4"] and text.lower() in _GTKDOC_LABELS):
            self._emit(0, text)   # a gtk-doc entry's "Parameters": a label
        elif text:
            if self._first_level is None:
                self._first_level = level
            self._emit(level, text)

    def _flush(self) -> None:
        parts = self._parts
        pre = self._pre_paragraph
        bold, self._bold, self._bold_lead = self._bold, None, False
        if not parts:   # most block edges in tag soup: nothing to emit
            self._parts = []   # a new list all the same: anchors and labels tell by identity
            self._line_has_text = False
            self._pre_paragraph = bool(self._pre_depth)
            return
        joined = "".join(parts)
        if self._pre_paragraph:
            text = joined.strip("\n")
        else:
            text = "\n".join(_collapse(line) for line in joined.split("\n") if line.strip())
        self._parts = []
        self._line_has_text = False
        self._pre_paragraph = bool(self._pre_depth)
        if text.strip():
            if pre and _is_man_page(text):   # a manual page formatted as text
                text = _join_split_words(text)
            heading = bold is not None and 0 <= bold[1] and _bold_heading(text) \
                and not "".join(parts[bold[1]:]).strip()
            self._emit(_BOLD_LEVEL if heading else 0, text)

    def finish(self) -> None:
        if self._title_parts is not None:   # <title> never closed
            self.title = _collapse("".join(self._title_parts))[:_MAX_TITLE_CHARS] or None
        try:
            self._end_heading()
            self._flush()
        except _Full:
            pass


# A manual page formatted by nroff (`man foo | col -b`) and put in a `<pre>`, as Postfix's
# man pages, man2html's and many sites' are: section names at the left margin
# (`NAME`, `SEE ALSO`, `AUTHOR(S)`), subsection names there in mixed case, the text
# indented under them, and the page's header and footer (`POSTQUEUE(1)   …   POSTQUEUE(1)`).
_MAN_SECTION = re.compile(r"[A-Z][A-Z0-9_()/&,.'=-]*(?: [A-Z0-9_()/&,.'=-]+)*")
_MAN_HEADER = re.compile(r"\S+\([0-9][0-9A-Za-z]*\)(?:\s.*)?")
_MAN_NAMES = frozenset({"NAME", "SYNOPSIS", "DESCRIPTION"})
_MAX_MAN_HEADING_CHARS = 80
# A word nroff split at a line's end to justify it: `delet-` / `ing`, `RE-` / `DIRECT`.
# It starts where a word starts: tried inside a long word, the search would rescan the
# rest of it from every letter (a 100 KB word before ` -` cost minutes).
_SPLIT_WORD = re.compile(
    r"(?<![A-Za-z0-9_])([A-Za-z0-9_]*[A-Za-z])-\n([ \t]*)([a-z_][A-Za-z0-9_]*|[A-Z][A-Z0-9_]*)"
    r"([^\S\n]*\n?)")
# A word written with a hyphen inside a line (`built-in`): its two halves.
_HYPHENATED = re.compile(r"(?<![a-z0-9_])([a-z0-9_]+)-(?=([a-z0-9_]+))")


def _is_man_page(text: str) -> bool:
    """Whether a `<pre>` is a formatted manual page: its left margin holds only section
    names (at least two of them, one of NAME, SYNOPSIS or DESCRIPTION), short
    subsection names and header or footer lines, and some line is indented under them.

    Only its split words are joined (`_join_split_words`). Cut into sections under
    those names, Postfix's 76 pages ranked worse for the para4 questions (nDCG@10
    0.587 → 0.540): every passage carried a generic heading such as `CONFIGURATION
    PARAMETERS` that questions match (docs/benchmarks.md, para4)."""
    sections = 0
    known = indented = False
    for line in text.split("\n"):
        if not line.strip():
            continue
        if line[0] in " \t":
            indented = True
            continue
        line = line.rstrip()
        if _MAN_SECTION.fullmatch(line) and len(line) <= _MAX_MAN_HEADING_CHARS:
            sections += 1
            known = known or line in _MAN_NAMES
        elif _MAN_HEADER.fullmatch(line) and "   " in line:
            continue
        elif not (len(line) <= _MAX_MAN_HEADING_CHARS and sections and line[-1:] not in ".,;:"):
            return False   # text at the margin: not a manual page's layout
    return sections >= 2 and known and indented


def _join_split_words(text: str) -> str:
    """The words nroff split at a line's end made whole again: `such as delet-` /
    `ing a message` reads `such as deleting` / `a message`. A split whose hyphenated
    form the page writes elsewhere (`built-in`) keeps its hyphen."""
    if "-\n" not in text:
        return text
    # The page's hyphenated words, found once: looking each split up in the whole text
    # cost a pass over it per split (100,000 of them in 1 MB: 13 CPU s).
    written = set(_HYPHENATED.findall(text.lower()))

    def join(match: "re.Match[str]") -> str:
        head, indent, tail, after = match.groups()
        if head[-1:].isupper() != tail[:1].isupper() and tail[:1] != "_":
            return match.group(0)   # `IPv6-` / `Only`: not one word cut in two
        word = f"{head}-{tail}" if (head.lower(), tail.lower()) in written else head + tail
        # The rest of the next line stays on it; a line that was only the word's end goes.
        return f"{word}\n" if after.endswith("\n") else f"{word}\n{indent}"

    return _SPLIT_WORD.sub(join, text)


def _bold_heading(text: str) -> bool:
    """Whether a paragraph's text, all of it bold, is a question heading its answer."""
    return text.endswith("?") and "\n" not in text and len(text) <= _MAX_BOLD_HEADING_CHARS


def _starts_line(target: List[str], start: int) -> bool:
    """Does nothing but punctuation come before `start` on its line? (A link back to the
    top stands apart; *the note at the <a>top</a> of this page* is a sentence's word.)"""
    for piece in reversed(target[:start]):
        line = piece.rsplit("\n", 1)
        if any(ch.isalnum() for ch in line[-1]):
            return False
        if len(line) > 1:
            return True
    return True


def _classes(attrs: list) -> List[str]:
    """An element's classes as written (`<div class>`, no value: none)."""
    return (dict(attrs).get("class") or "").split()


def _named_as_navigation(values: Dict[str, str]) -> bool:
    """A class or id that names the element navigation or a footer (`_NAV_NAMES`,
    `_NAV_SUFFIX`), as pages written before `<nav>` and `<footer>` do."""
    names = (values.get("class") or "").lower().split()
    ident = (values.get("id") or "").strip().lower()
    if ident:
        names.append(ident)
    for name in names:
        if name in _NAV_NAMES or (name.endswith("-nav") and _NAV_SUFFIX.match(name)):
            return True
    return False


def _docbook_navigation(tag: str, values: Dict[str, str]) -> bool:
    """DocBook XSL's and Publican's previous/up/next links above and below a page."""
    if tag == "table":
        return (values.get("summary") or "").strip().lower() in _DOCBOOK_NAV_SUMMARIES
    classes = (values.get("class") or "").lower().split()
    if tag == "ul":
        return not _DOCBOOK_NAV_LISTS.isdisjoint(classes)
    return tag == "div" and not _DOCBOOK_NAV_CLASSES.isdisjoint(classes)


def _makeinfo_navigation(tag: str, values: Dict[str, str]) -> bool:
    """On a `makeinfo --html` page: a node's navigation line, a menu, the table of
    contents, or an index (`_MAKEINFO_NAV`)."""
    classes = (values.get("class") or "").lower().split()
    if tag == "table" and any(_MAKEINFO_INDEX_TABLE.search(name) for name in classes):
        return True
    names = _MAKEINFO_NAV.get(tag)
    return bool(names) and not names.isdisjoint(classes)


def _httpd_navigation(values: Dict[str, str]) -> bool:
    """On a page of the Apache HTTP Server manual: its header, trail, language
    links, quick-view box or footer (`_HTTPD_NAV_IDS`, `_HTTPD_NAV_CLASSES`)."""
    if (values.get("id") or "").strip().lower() in _HTTPD_NAV_IDS:
        return True
    return not _HTTPD_NAV_CLASSES.isdisjoint((values.get("class") or "").lower().split())


def _haddock_frame(tag: str, values: Dict[str, str]) -> bool:
    """On a Haddock page: a type's or class's list of instances, the module's
    table of copyright, licence and maintainer, or the footer."""
    classes = (values.get("class") or "").split()
    return (tag == "div" and "subs" in classes and "instances" in classes) or (
        tag == "table" and "info" in classes) or (
        tag == "div" and (values.get("id") or "") == "footer")


def _viewcode_link(href: str, classes: str) -> bool:
    """Sphinx viewcode's "[source]" link (into `_modules/`) or its "[docs]" link back."""
    return "viewcode-back" in classes.split() or href.startswith("_modules/") or "/_modules/" in href


def _is_signature(attrs: list) -> bool:
    """A documented API object's signature line (Sphinx `<dt class="sig" id="os.path.join">`)."""
    values = dict(attrs)
    return bool(values.get("id")) and "sig" in (values.get("class") or "").split()


def _zone_kind(tag: str, role: str, values: Dict[str, str], asciidoc: bool,
               rustdoc: bool = False, erldocgen: bool = False) -> Optional[str]:
    """What kind of main-content marker this element is, if any."""
    if tag == "main" or role == "main":
        return "main"
    if tag not in _MARKER_TAGS:
        return None
    classes = (values.get("class") or "").lower().split()   # `<div class>`: None
    ident = (values.get("id") or "").strip().lower()
    if not _GENERATOR_CLASSES.isdisjoint(classes) and "topic" not in classes:
        return "main"
    if ident in _GENERATOR_IDS:
        return "main"
    if tag == "article":
        # erl_docgen puts each function and data type of a reference page in an
        # `<article>` (`article.func`, `article.data-types-body`): one item is not
        # the page, however long its text (its `div#content` is).
        return None if erldocgen else "article"
    if asciidoc and tag == "div" and ident in _ASCIIDOC_COMPANIONS:
        return "companion"
    if rustdoc and tag == "div" and ident in _RUSTDOC_IMPL_LISTS:
        return "impls"   # never main content; only tells `_inherited_docs` where it is
    return None


def _main_ranges(zones: List[List], sizes: List[int], total: int) -> List[Tuple[int, int]]:
    """Op ranges of the main content: the innermost marked container with a fair share.

    A marker counts only if it holds at least a quarter of the page's words,
    so a stray `<div class="body">` in a comment box cannot stand for the
    page. Of those, containers holding another are passed over (Sphinx's
    `div.document` for its `div.body`), and of the rest the largest wins.
    """
    floor = max(1, total * _MIN_SHARE)
    companions = [(start, end) for start, end, kind in zones if kind == "companion"]
    beside = sum(sizes[end] - sizes[start] for start, end in companions)
    spans = sorted({(start, end) for start, end, kind in zones
                    if kind in ("main", "article") and sizes[end] - sizes[start] + beside >= floor})
    inner = [span for span in spans
             if not any(o != span and span[0] <= o[0] and o[1] <= span[1] for o in spans)]
    if not inner:
        return []
    best = max(inner, key=lambda span: (sizes[span[1]] - sizes[span[0]], -span[0]))
    ranges = [best]
    # AsciiDoc puts the page's title and NAME line in div#header, beside div#content.
    ranges += [(start, end) for start, end in companions if end <= best[0] or start >= best[1]]
    return sorted(ranges)


def _squeeze(text: str) -> str:
    """Each run of whitespace made one space."""
    # Every whitespace character but the space is unprintable: prose skips the regex.
    if text.isprintable() and "  " not in text:
        return text
    return _WHITESPACE.sub(" ", text)


def _collapse(text: str) -> str:
    return _squeeze(text).strip()
