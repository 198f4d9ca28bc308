"""CPU cost of the readers on hostile inputs that grow: is any of them super-linear?

Each case is a function of a size in bytes that builds one file; the script reads it
with `read_document` in a forked child (CPU-limited, so a quadratic case cannot hang
the run) and prints the child's CPU seconds (time.process_time) per size and the
ratio between consecutive sizes. A linear reader costs about 2x per doubling.

    PYTHONPATH=$PWD python bench/hostile_readers.py                  # every case
    PYTHONPATH=$PWD python bench/hostile_readers.py md- --sizes 16000,32000,1000000
"""
from __future__ import annotations

import argparse
import multiprocessing
import resource
import sys
import time
from typing import Callable, Dict, Tuple

sys.setrecursionlimit(10_000)

from glean_personal.errors import SkipFile            # noqa: E402
from glean_personal.formats import read_document      # noqa: E402

Maker = Callable[[int], bytes]


def fill(unit: str, size: int) -> bytes:
    """`unit` repeated to `size` characters, on one line."""
    return (unit * (size // len(unit) + 1))[:size].encode()


def lines(unit: str, width: int = 19_000) -> Maker:
    """Lines of `width` characters of `unit`, as many as fit in the size."""
    def make(size: int) -> bytes:
        line = fill(unit, min(width, size))
        return b"\n".join([line] * max(1, size // (len(line) + 1)))
    return make


def one_line(unit: str) -> Maker:
    return lambda size: fill(unit, size)


def many_lines(unit: str) -> Maker:
    """`unit` on lines of its own (the unit may hold its own newlines)."""
    return lambda size: fill(unit if unit.endswith("\n") else unit + "\n", size)


def nested(open_: str, close: str, middle: str = "words") -> Maker:
    def make(size: int) -> bytes:
        n = size // (len(open_) + len(close))
        return (open_ * n + middle + close * n).encode()
    return make


CASES: Dict[str, Tuple[str, Maker]] = {}


def case(name: str, ext: str, maker: Maker) -> None:
    CASES[name] = (ext, maker)


for label, unit in [("brackets", "["), ("link-open", "]("), ("bracket-link", "[a]("),
                    ("lt", "<"), ("tag-open", "<a "), ("comment-open", "<!--"),
                    ("backticks", "`"), ("backtick-a", "``a"), ("role", "{r}`"),
                    ("role-colon", ":a:"), ("brace", "{"), ("image", "!["),
                    ("links", "[a](b) "), ("link-title", '[a](b "'), ("paren-link", "[a](b(c"),
                    ("html-tags", "<b>x</b>"), ("tag-attrs", "<span a='1' "),
                    ("bracket-space", "[ "), ("ref-link", "[a][b] "), ("brace-role", "{a}`b <"),
                    ("heading-tag", "<h1>a"), ("lt-bracket", "<[")]:
    case(f"md-line-{label}", ".md", lines(unit))
    case(f"md-1mb-{label}", ".md", one_line(unit))
for label, unit in [("atx", "# " + "a " * 5000 + "#"), ("atx-spaces", "#" + " \t" * 9000 + "x"),
                    ("hidden", "[" + "a" * 100 + "]: <" + "b" * 100), ("target", "(" + "a)" * 5000),
                    ("admonition", "!!! " + "a " * 9000 + '"'), ("tab", '=== "' + '"' * 9000),
                    ("attrs", "## a {#" + "{" * 9000), ("colon-fence", ":::{" + "a" * 9000),
                    ("fence-info", "```{" + "}" * 9000), ("option", ":a:" * 6000),
                    ("heading-tag-line", "<h1 " + "a" * 9000),
                    ("setext", "-" * 19000), ("break", "- " * 9000 + "x"),
                    ("front", "title: " + " " * 19000)]:
    case(f"md-{label}", ".md", many_lines(unit))
case("md-comment-lines", ".md", many_lines("<!--"))
case("md-fences", ".md", many_lines("```"))
case("md-colon-fences", ".md", many_lines(":::{note}"))
case("md-nested-admonitions", ".md", lambda n: "".join(
    "    " * (i % 200) + "!!! note\n" for i in range(n // 400)).encode())
case("md-front-unclosed", ".md", lambda n: ("---\n" + "a: b\n" * (n // 5)).encode())
case("md-ref-definitions", ".md", lambda n: "".join(
    f"[l{i}]: u\n[l{i}] " for i in range(n // 20)).encode())
case("md-shortcut-many", ".md", lambda n: ("[a]: u\n" + "[a] " * (n // 4)).encode())
# Markdown of note vaults and documentation sites: front matter's names, summary and
# tags; Logseq pages (properties, outlines, macros, block references); footnote labels,
# icon names, attribute lists, Hugo's escaped shortcodes.
case("md-front-aliases", ".md", lambda n: ("---\naliases:\n" + "  - a/b c\n" * (n // 10) + "---\nx\n").encode())
case("md-front-flow", ".md", lambda n: ("---\ntags: [" + "'a, " * (n // 4) + "]\n---\nx\n").encode())
case("md-front-quotes", ".md", lambda n: ("---\nkeywords: [" + '"' * n + "]\n---\nx\n").encode())
case("md-front-summary", ".md", lambda n: ("---\ndescription: " + "word " * (n // 5) + "\n---\n"
                                           + "word " * (n // 5)).encode())
case("md-front-scalars", ".md", lambda n: ("---\n" + "".join(f"k{i}: >\n  v\n" for i in range(n // 14))
                                           + "---\nx\n").encode())
case("md-front-spaces", ".md", lambda n: ("---\ndescription: a" + " " * n + "b\ntags: " + " \t" * (n // 2)
                                          + "\naliases:\n  - a" + " " * n + "b\n---\nx\n").encode())
case("md-front-keys", ".md", lambda n: ("---\n" + "".join(f"k{i}:\n  - v\n" for i in range(n // 12))
                                        + "---\nx\n").encode())
for label, unit in [("property", "a:: b "), ("embed", "{{embed [["), ("block-ref", "(("),
                    ("uuid-ref", "((62c8421b-d22e-40ce-aead-0b7e9e2951f7)) "), ("macro", "{{"),
                    ("footnote", "[^"), ("footnote-ref", "[^a]"), ("icon", ":a-b-"),
                    ("attr-list", "[a](b){ ."), ("shortcode-escaped", "{{</* "), ("cloze", "{{cloze ")]:
    case(f"md-line-{label}", ".md", lines(unit))
    case(f"md-1mb-{label}", ".md", one_line(unit))
case("md-logseq-outline", ".md", lambda n: "".join(
    "\t" * (i % 300) + "- ## a\n" for i in range(n // 160)).encode())
case("md-logseq-properties", ".md", lambda n: ("title:: t\n" + "a:: b\n" * (n // 6)).encode())
case("md-logseq-fence", ".md", lambda n: ("- ```\n" + "  a\n" * (n // 4)).encode())
case("md-logseq-drawer", ".md", lambda n: ("- TODO a\n  :LOGBOOK:\n" + "  CLOCK: x\n" * (n // 11)).encode())
case("md-footnote-defs", ".md", lambda n: "".join(f"[^{i}]: note\n" for i in range(n // 12)).encode())
# reStructuredText
for label, unit in [("backticks", "`"), ("role", ":a:"), ("role-bt", ":a:`"), ("ref", "`a <"),
                    ("ref-open", "`a"), ("literal", "``"), ("under", "_"), ("roles-full", ":a:`b` "),
                    ("role-chain", ":a" * 3), ("lt", "<"), ("pipe", "|a| "), ("star", "*")]:
    case(f"rst-line-{label}", ".rst", lines(unit))
    case(f"rst-1mb-{label}", ".rst", one_line(unit))
for label, unit in [("dots", ".."), ("dot-lines", ".. "), ("directive", ".. a" + ":" * 9000),
                    ("directive-sub", ".. |" + "|" * 9000), ("directive-sp", ".. a::" + " \t" * 9000 + "x"),
                    ("sub", ".. |" + "a|" * 5000), ("option", "   :" + "a " * 9000),
                    ("option-colon", "   :" + ":" * 9000), ("footnote", ".. [" + "#" * 9000),
                    ("adorn", "=" * 19000), ("adorn-sp", "=" * 100 + " " * 19000 + "x"),
                    ("metadata", ":og:" + "a:" * 9000), ("anonymous", "__ " + " " * 9000 + "x y"),
                    ("title-roles", ":a:`" * 4000)]:
    case(f"rst-{label}", ".rst", many_lines(unit))
case("rst-titles", ".rst", many_lines("\nTitle\n=====\n"))
case("rst-nested-directives", ".rst", lambda n: "".join(
    "   " * (i % 300) + ".. note::\n" for i in range(n // 500)).encode())
case("rst-literal-blocks", ".rst", many_lines("a::\n\n  b\n"))
# AsciiDoc, Org and reStructuredText as their pages show them (round 27): table cells
# and their specifiers, spans, `cols`, attribute references in prose, code spans and
# listings, callouts, inline macros whose text holds brackets, `:description:`; Org links
# whose words hold brackets, escaping commas, `#+subtitle:`; a role run on from a directive.
ADOC_TABLE = '[cols="2a,1"]\n|===\n'
for label, unit in [("cells", "| a "), ("cell-specs", "2+a| b "), ("cell-digits", " 12345678|"),
                    ("cell-dots", " .2+^.>s|"), ("escaped-bars", "\\| "), ("bangs", "! a ")]:
    case(f"adoc-table-line-{label}", ".adoc", lambda n, u=unit: (ADOC_TABLE + fill(u, n).decode()).encode())
case("adoc-table-rows", ".adoc", lambda n: (ADOC_TABLE + "| a | b\n" * (n // 8) + "|===\n").encode())
case("adoc-table-cell-lines", ".adoc", lambda n: (ADOC_TABLE + "a| x\n\n* y\n" * (n // 12)).encode())
case("adoc-table-rowspans", ".adoc", lambda n: ("|===\n" + ".999+| a | b\n" * (n // 13)).encode())
case("adoc-table-dups", ".adoc", lambda n: ('[cols="999*"]\n|===\n' + "999*| a\n" * (n // 8)).encode())
case("adoc-table-cols", ".adoc", lambda n: ('[cols="' + "1," * (n // 2) + '"]\n|===\n| a\n').encode())
case("adoc-table-listings", ".adoc", lambda n: (ADOC_TABLE + "a|\n----\nx\n----\n" * (n // 16)).encode())
case("adoc-nested-tables", ".adoc", lambda n: ("|===\n" + "a|\n!===\n! a ! b\n!===\n" * (n // 24)).encode())
for label, unit in [("macro-heads", "link:"), ("macro-open", "xref:a["), ("macro-escaped", "link:a[\\]"),
                    ("macro-nested", "footnote:[link:u["), ("attr-refs", "{a-b} "), ("attr-code", "`{a}` "),
                    ("attr-escaped", "\\{a}"), ("emphasis-xref", "_xref:a[b]_ "), ("bare-link", "link:https://a "),
                    ("passthrough", "+++a"), ("plus-runs", "a+++ +"), ("escaped-url", "\\https://a")]:
    case(f"adoc-line-{label}", ".adoc", lines(unit))
    case(f"adoc-1mb-{label}", ".adoc", one_line(unit))
for label, unit in [("callouts", "x <1>"), ("callout-comments", " # <1>"), ("xml-callouts", "<!--1-->"),
                    ("callout-angles", "<<1>"), ("attrs", "{a}")]:
    case(f"adoc-listing-{label}", ".adoc", lambda n, u=unit: ('[source,subs="attributes+"]\n----\n'
                                                          + fill(u, n).decode() + "\n----\n").encode())
case("adoc-callout-items", ".adoc", many_lines("<1> " + "a " * 50))
case("adoc-block-attributes", ".adoc", many_lines('[source,subs="' + "a," * 400 + '"]\n----\nx\n----'))
case("adoc-description", ".adoc", lambda n: (":description: " + "word " * (n // 5) + "\n= T\n\n"
                                             + "word " * (n // 5)).encode())
for label, unit in [("link-words", "[[a]["), ("link-brackets", "[[kbd:][M-[]] "), ("link-close", "[[a][]"),
                    ("link-single", "[[a][b] [c ")]:
    case(f"org-line-{label}", ".org", lines(unit))
    case(f"org-1mb-{label}", ".org", one_line(unit))
case("org-src-commas", ".org", lambda n: ("#+begin_src org\n" + ",* a\n" * (n // 5)).encode())
case("org-subtitle-spaces", ".org", lambda n: ("#+subtitle: a" + " " * n + "b\n* H\nx\n").encode())
case("rst-directive-roles", ".rst", many_lines(".. seealso:: :ref:`a <b>`, :ref:`c\n  d <e>`"))
# HTML
case("html-nested", ".html", nested("<div>", "</div>"))
case("html-nested-zones", ".html", nested('<div class="body">', "</div>", "words " * 100))
case("html-nested-sections", ".html", nested("<section><h2>a</h2><p>b</p>", "</section>"))
case("html-nested-a", ".html", nested('<a href="#">', "</a>"))
case("html-nested-rustdoc", ".html", lambda n: b'<meta name="generator" content="rustdoc">' + nested(
    '<span class="rightside">', "</span>")(n))
case("html-muted-nested", ".html", lambda n: b'<meta name="generator" content="rustdoc">' + nested(
    '<span class="rightside"><span>', "</span>")(n))
case("html-huge-attr", ".html", lambda n: b'<meta name="generator" content="rustdoc"><div class="'
     + b"impl-items " * (n // 11) + b'">words</div>')
case("html-huge-id", ".html", lambda n: b'<meta name="generator" content="rustdoc"><div id="deref-methods-'
     + b"a" * n + b'">words</div>')
case("html-refresh-spaces", ".html", lambda n: b'<meta http-equiv="refresh" content="'
     + b" " * n + b'x"><p>words</p>')
case("html-refresh-zeros", ".html", lambda n: b'<meta http-equiv="refresh" content="'
     + b"0" * n + b'"><p>words</p>')
case("html-refresh-tabs", ".html", lambda n: b'<meta http-equiv="refresh" content="0'
     + b" \t" * (n // 2) + b'"><p>words</p>')
case("html-refresh-url", ".html", lambda n: b'<meta http-equiv="refresh" content="0; url='
     + b"a" * n + b'">')
case("html-charset", ".html", lambda n: b"<meta " * (n // 6))
case("html-conditional", ".html", lambda n: b"<![if " * (n // 6))
case("html-comments-open", ".html", lambda n: b"<p>x</p>" + b"<!--" * (n // 4))
case("html-marked-open", ".html", lambda n: b"<p>x</p>" + b"<![" * (n // 3))
case("html-tags-open", ".html", lambda n: b"<a" * (n // 2))
case("html-quoted-gt", ".html", lambda n: b"<a b='>'" * (n // 8))
case("html-lt-slash", ".html", lambda n: b"</" * (n // 2) + b">")
case("html-bang", ".html", lambda n: b"<!" * (n // 2) + b">")
case("html-pi", ".html", lambda n: b"<?" * (n // 2) + b">")
case("html-entity", ".html", lambda n: b"&" * n)
case("html-entity-x", ".html", lambda n: b"&#x" * (n // 3))
case("html-anchors", ".html", lambda n: b'<a href="#">x</a>' * (n // 17))
case("html-headings-unclosed", ".html", lambda n: b"<h1>" * (n // 4))
case("html-dt-sig", ".html", lambda n: b'<dt class="sig" id="a">x' * (n // 24))
case("html-zones", ".html", lambda n: b'<div class="body">x</div>' * (n // 25))
case("html-zone-main", ".html", lambda n: b'<main>x ' * (n // 8))
case("html-frames", ".html", lambda n: b"<nav>x</nav><p>y</p>" * (n // 20))
case("html-breadcrumb", ".html", lambda n: b'<div class="breadcrumb">' * (n // 24))
case("html-docbook-nav", ".html", lambda n: b'<table summary="navigation header">' * (n // 36))
case("html-buttons", ".html", lambda n: b"<button>" * (n // 8) + b"x")
case("html-whitespace", ".html", lambda n: b"<p>" + b" \t\n" * (n // 3) + b"x</p>")
case("html-pre-lines", ".html", lambda n: b"<pre>" + b"\n" * n + b"</pre>")
case("html-title-long", ".html", lambda n: b"<title>" + b"a " * (n // 2))
case("html-script-open", ".html", lambda n: b"<script>" + b"</scrip" * (n // 7))
case("html-cells", ".html", lambda n: b"<tr>" + b"<td>x" * (n // 5))
case("html-skip-link", ".html", lambda n: b'<a href="#">skip' + b" " * n + b"to</a>")
case("html-link-lists", ".html", lambda n: b"<h1>t</h1><p>" + b"words " * (n // 12) + b"</p>"
     + b'<ul><li><a href="a.html">a</a></li><li><a href="b.html">b</a></li><li><a href="c.html">c</a></li></ul>'
     * (n // 200))
case("html-link-list-long", ".html", lambda n: b"<h1>t</h1><ul>" + b'<li><a href="p.html">page</a></li>' * (n // 33))
case("html-attrs-many", ".html", lambda n: b"<div " + b"a=1 " * (n // 4) + b">x</div>")


def _child(conn, ext: str, data: bytes) -> None:
    resource.setrlimit(resource.RLIMIT_CPU, (20, 21))
    start = time.process_time()
    try:
        doc = read_document(data, "hostile" + ext)
        outcome = f"ok {len(doc.text)} chars"
    except SkipFile as skip:
        outcome = f"skip: {skip}"
    except BaseException as exc:   # the finding itself: a reader raising
        outcome = f"RAISED {type(exc).__name__}: {str(exc)[:80]}"
    conn.send((time.process_time() - start, outcome,
               resource.getrusage(resource.RUSAGE_SELF).ru_maxrss))


def measure(ext: str, data: bytes) -> Tuple[float, str, int]:
    ctx = multiprocessing.get_context("fork")
    parent, child = ctx.Pipe(duplex=False)
    proc = ctx.Process(target=_child, args=(child, ext, data))
    proc.start()
    child.close()
    try:
        result = parent.recv()
    except EOFError:
        result = (20.0, "KILLED (CPU limit)", 0)
    proc.join()
    return result


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("prefix", nargs="*", help="run only the cases whose name starts so")
    ap.add_argument("--sizes", default="125000,250000,500000,1000000")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    for name, (ext, maker) in CASES.items():
        if args.prefix and not name.startswith(tuple(args.prefix)):
            continue
        figures, previous, outcome = [], None, ""
        for size in sizes:
            seconds, outcome, rss = measure(ext, maker(size))
            ratio = f" x{seconds / previous:.1f}" if previous and previous > 0.02 else ""
            figures.append(f"{seconds:.3f}s{ratio}")
            previous = seconds
            if seconds > 10:
                break
        flag = "  <-- SLOW" if previous > 1.0 else ""
        print(f"{name:28} {' '.join(figures):60} {rss // 1024}MB {outcome[:50]}{flag}", flush=True)


if __name__ == "__main__":
    main()
