"""Grow hostile inputs for DocBook XML, wrapped Markdown reference links, HTML menu cells,
PDF running heads, bookmarks and page labels, :pep:/:rfc: roles, the code reader's closing
lines, and long titles, headings and names;
print CPU seconds (time.process_time) per size and the outcome.

Usage: PYTHONPATH=$PWD python bench/hostile_round3.py [SIZES [NAME-PART]],
e.g. `100000,200000,400000,1000000 docbook`. A size past 20 CPU s ends its case.
"""
import gzip
import os
import signal
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests"))

from glean_personal.errors import SkipFile  # noqa: E402
from glean_personal.formats import read_document  # noqa: E402

DB_HEAD = ('<?xml version="1.0"?>\n<!DOCTYPE article PUBLIC "-//OASIS//DTD DocBook XML V4.1.2//EN" '
           '"http://www.oasis-open.org/docbook/xml/4.1.2/docbookx.dtd"')


def rep(text, size):
    return (text * (size // len(text) + 1))[:size]


def lines(line, size):
    """Lines `line` to about `size` characters, blank lines between paragraphs of 20."""
    n = max(1, size // (len(line) + 1))
    return "\n".join(line if k % 20 else "" for k in range(n)) + "\n"


def docbook_cases():
    c = {}
    art = lambda body: (DB_HEAD + ">\n<article><title>T</title><para>" + body + "</para></article>\n")  # noqa: E731
    sub = lambda subset, body: (DB_HEAD + " [\n" + subset + "\n]>\n<article><title>T</title><para>"  # noqa: E731
                                + body + "</para></article>\n")
    c["docbook laughs"] = lambda s: sub("".join(f'<!ENTITY l{i} "&l{i - 1};&l{i - 1};">' for i in range(1, 12))
                                        + '<!ENTITY l0 "lol">', rep("&l11;", s)).encode()
    c["docbook long-values"] = lambda s: sub('<!ENTITY a "' + "x" * 200 + '">', rep("&a;", s)).encode()
    c["docbook many-entities"] = lambda s: sub("".join(f'<!ENTITY e{i} "v{i}">' for i in range(3000)),
                                               rep("&e1; &e2999; ", s)).encode()
    c["docbook lt-values"] = lambda s: sub('<!ENTITY a "<para>"><!ENTITY b "<!--"><!ENTITY c "<![CDATA[">',
                                           rep("&a;&b;&c;", s)).encode()
    c["docbook system"] = lambda s: sub('<!ENTITY p SYSTEM "/etc/passwd"><!ENTITY % q SYSTEM "file:///etc/hostname">'
                                        '%q;', rep("&p; ", s)).encode()
    c["docbook param"] = lambda s: sub(rep('<!ENTITY % p "<!ENTITY a \'b\'>">%p;', min(s, 60000)),
                                       rep("&a; ", s)).encode()
    c["docbook doctype-noend"] = lambda s: (DB_HEAD + " [\n" + rep('<!ENTITY a "b">', s)).encode()
    c["docbook doctype-noend2"] = lambda s: (DB_HEAD + " [" + rep("] >", 3) + rep("[", s)).encode()
    c["docbook doctypes"] = lambda s: (DB_HEAD + ">" + rep("<!DOCTYPE a [", s)).encode()
    c["docbook subset-brackets"] = lambda s: (DB_HEAD + " [" + rep("]", s)).encode()
    c["docbook nest-section"] = lambda s: art("</para>" + "<section><title>t</title>" * (s // 25) + "<para>x").encode()
    c["docbook nest-para"] = lambda s: art("<para>" * (s // 6)).encode()
    c["docbook nest-inline"] = lambda s: art("<emphasis>" * (s // 10)).encode()
    c["docbook nest-info"] = lambda s: art("<info>" * (s // 6) + "<title>x</title>").encode()
    c["docbook nest-table"] = lambda s: art("<table><tgroup><row><entry>" * (s // 27)).encode()
    c["docbook cdata-noend"] = lambda s: art(rep("<![CDATA[a", s)).encode()
    c["docbook cdata-many"] = lambda s: art(rep("<![CDATA[a]]>", s)).encode()
    c["docbook comment-noend"] = lambda s: art(rep("<!--a", s)).encode()
    c["docbook pi-noend"] = lambda s: art(rep("<?a", s)).encode()
    c["docbook decl-noend"] = lambda s: art(rep("<!a", s)).encode()
    c["docbook attr-huge"] = lambda s: art('<ulink url="' + "a" * s + '">x</ulink>').encode()
    c["docbook attr-noend"] = lambda s: art('<ulink url="' + rep("a<", s)).encode()
    c["docbook tag-noend"] = lambda s: art(rep("<a ", s)).encode()
    c["docbook ampersands"] = lambda s: sub('<!ENTITY a "b">', rep("&a", s)).encode()
    c["docbook amp-long"] = lambda s: sub('<!ENTITY a "b">', "&" + "a" * s + ";").encode()
    c["docbook bad-utf8"] = lambda s: art("x").encode() + rep("\udcff", 1).encode("utf-8", "surrogateescape") * (s // 2) + b"\xc3(" * (s // 4)
    c["docbook titles"] = lambda s: art("</para>" + "<section><title>t</title><para>x</para></section>" * (s // 50) + "<para>").encode()
    c["docbook ns5"] = lambda s: ('<article xmlns="http://docbook.org/ns/docbook">' + rep("<db:para>a</db:para>", s)).encode()
    c["docbook sniff-lt"] = lambda s: ("<" + rep("<article", 4000) + rep("a", s)).encode()
    c["docbook sniff-word"] = lambda s: ("<" + "a" * 4000 + "<!DOCTYPE article PUBLIC \"-//OASIS//DTD DocBook\">" + rep("a", s)).encode()
    out = {k: ("x.xml", v) for k, v in c.items()}
    out["docbook gz-bomb"] = ("x.xml.gz", lambda s: gzip.compress(art(rep("<para>a</para>", s * 50)).encode(), 9))
    return out


def md_cases():
    c = {}
    refs = "[a]: /x\n[b c]: /y\n\n"
    c["md ref-wrapped"] = lambda s: (refs + rep("[a\nb][a] ", s) + "\n").encode()
    c["md ref-open"] = lambda s: (refs + rep("[a\n", s)).encode()
    c["md ref-close"] = lambda s: (refs + "x\n" + rep("]\n", s)).encode()
    c["md ref-ticks"] = lambda s: (refs + "[a\n" + rep("`", s) + "]").encode()
    c["md ref-ticks2"] = lambda s: (refs + rep("[`a\n", s)).encode()
    c["md ref-ticks3"] = lambda s: (refs + rep("[a`\n`", s)).encode()
    c["md ref-label-open"] = lambda s: (refs + rep("[a\nb][", s)).encode()
    c["md ref-label-ticks"] = lambda s: (refs + "[a\nb][" + rep("`x", s)).encode()
    c["md link-wrapped"] = lambda s: (rep("[a\nb](/x) ", s) + "\n").encode()
    c["md link-open"] = lambda s: ("x](y\n" + rep("[a\n", s)).encode()
    c["md link-paren"] = lambda s: ("x](y\n[a\nb](" + rep("(a", s)).encode()
    c["md link-paren2"] = lambda s: ("x](y\n" + rep("[a\nb](", s)).encode()
    c["md link-ticks"] = lambda s: ("x](y\n[" + rep("`a\n", s)).encode()
    c["md link-title"] = lambda s: ("[a\nb](/x " + rep("\"a", s)).encode()
    c["md shortcut"] = lambda s: (refs + rep("][a]", s)).encode()
    c["md many-defs"] = lambda s: (rep("[a\nb]: /x\n", s // 2) + rep("[a\nb] ", s // 2)).encode()
    c["md role-pep"] = lambda s: lines(rep("{pep}`8` {rfc}`2119#x` ", 79), s).encode()
    c["md role-open"] = lambda s: lines(rep("{pep", 79), s).encode()
    c["md role-open2"] = lambda s: lines(rep("{pep}`", 79), s).encode()
    c["md role-long"] = lambda s: lines("{pep}`" + "1" * 3000 + "`", s).encode()
    return {k: ("x.md", v) for k, v in c.items()}


def rst_cases():
    c = {}
    c["rst role-pep"] = lambda s: ("T\n=\n\n" + lines(rep(":pep:`8` :rfc:`2119#a` ", 79), s)).encode()
    c["rst role-open"] = lambda s: ("T\n=\n\n" + lines(rep(":pep:`", 79), s)).encode()
    c["rst role-long"] = lambda s: ("T\n=\n\n" + lines(":pep:`" + "1" * 3000 + "`", s)).encode()
    c["rst role-hash"] = lambda s: ("T\n=\n\n" + lines(":rfc:`" + "#" * 3000 + "`", s)).encode()
    c["rst role-colons"] = lambda s: ("T\n=\n\n" + lines(rep(":a", 70) + ":pep:`8`", s)).encode()
    c["rst role-para"] = lambda s: ("T\n=\n\n" + lines(rep(":pep:`", 70), s).replace("\n\n", "\n")).encode()
    return {k: ("x.rst", v) for k, v in c.items()}


def code_cases():
    c = {}
    c["code braces"] = lambda s: rep("}\n", s).encode()
    c["code open-close"] = lambda s: ("class A {\n" + rep("  void f() {\n  }\n", s // 2) + rep("}\n", s // 2)).encode()
    c["code closers-long"] = lambda s: ("class A {\n void f() {\n }\n" + "}" * s + " x\n").encode()
    c["code closers-sp"] = lambda s: ("class A {\n void f() {\n }\n" + rep("} ", s) + "x\n").encode()
    c["code closers-comment"] = lambda s: ("class A {\n void f() {\n }\n" + rep("} //", s) + "\n").encode()
    c["code nested"] = lambda s: (rep("class A {\n", s // 2) + rep("}\n", s // 2)).encode()
    c["code members"] = lambda s: ("class A {\n" + rep("  int f() { return 1; }\n}\n", s)).encode()
    out = {k: ("x.java", v) for k, v in c.items()}
    out["code lua-end"] = ("x.lua", lambda s: rep("function f()\nend\nend\n", s).encode())
    out["code ruby-end"] = ("x.rb", lambda s: ("class A\n" + rep("  def f\n  end\nend\n", s)).encode())
    out["code py-only"] = ("x.py", lambda s: rep(")\n", s).encode())
    return out


def html_cases():
    c = {}
    menu = "<td>Menu " + "".join(f'<a href="/{i}">link {i}</a> ' for i in range(12)) + "</td>"
    prose = "<td>" + "words that are not links at all, a sentence of them here " * 2 + "</td>"
    c["html menu-cells"] = lambda s: ("<table><tr>" + rep(menu + prose, s) + "</tr></table>").encode()
    c["html menu-open-cells"] = lambda s: ("<table><tr>" + rep(menu.replace("</td>", ""), s) + prose).encode()
    c["html menu-rows"] = lambda s: ("<table>" + rep("<tr>" + menu + prose, s)).encode()
    c["html prose-then-menus"] = lambda s: ("<table><tr>" + rep("<td>word", s // 2) + rep(menu, s // 2)).encode()
    c["html prose-then-menus2"] = lambda s: ("<table><tr>" + rep("<td>word</td>", s // 2) + rep(menu, s // 2) + prose).encode()
    c["html nest-tables"] = lambda s: (rep("<table><tr>" + menu[:-5], s) + prose).encode()
    c["html nest-cells"] = lambda s: ("<table><tr>" + rep("<td><table><tr>", s) + menu + prose).encode()
    c["html menu-blocks"] = lambda s: ("<table><tr>" + rep("<td><p>x</p>" + menu[4:], s) + prose).encode()
    c["html cells-100k"] = lambda s: ("<table>" + rep("<tr><td><a href=x>a</a></td><td>b</td></tr>", s) + "</table>").encode()
    c["html td-only"] = lambda s: ("<table><tr>" + rep("<td>", s)).encode()
    c["html tr-only"] = lambda s: ("<table>" + rep("<tr>", s)).encode()
    c["html table-only"] = lambda s: rep("<table>", s).encode()
    c["html close-only"] = lambda s: ("<table><tr><td>" + rep("</td></tr></table>", s)).encode()
    return {k: ("x.html", v) for k, v in c.items()}


def pdf_cases():
    from pdf_factory import document, show
    import pdf_factory

    def small(lines, **kw):
        return show(lines, size=2, leading=0.19, y=790)

    def many_pages(s):   # pages of one line each, one bookmark over them all, a long title
        n = max(2, s // 60)
        return document("T", [[f"Chapter title", f"line {i} words"] for i in range(n)],
                        [("Chapter title", 0)])

    def long_title(s):   # a bookmark title of s/2 letters over many small pages
        n = 2000
        title = "T" * (s // 2)
        return document("T", [[title[:50], f"line {i}"] for i in range(n)], [(title, 0)])

    def many_marks(s):   # a bookmark per page, each page with the same first line
        n = max(2, s // 80)
        return document("T", [["Same head", f"line {i} words"] for i in range(n)],
                        [(f"Same head", i) for i in range(n)])

    def deep_marks(s):
        n = max(2, s // 80)
        return document("T", [["Head", f"line {i}"] for i in range(n)], [("Head", 0)] * min(n, 20000))

    from pdf_factory import text_pdf

    def plain_pages(n):
        return [show([f"line {i} words"]) for i in range(n)]

    def shared_title(s):   # 1,000 bookmarks naming one title object of s/10 letters
        n, first = 1000, 100_000
        objs = {7: b"(" + b"T" * (s // 10) + b")",
                5: b"<< /Type /Outlines /First %d 0 R /Last %d 0 R /Count %d >>" % (first, first + n - 1, n)}
        for k in range(n):
            links = (b" /Prev %d 0 R" % (first + k - 1) if k else b"") + (
                b" /Next %d 0 R" % (first + k + 1) if k + 1 < n else b"")
            objs[first + k] = b"<< /Title 7 0 R /Parent 5 0 R /Dest [11 0 R /XYZ 0 842 0]" + links + b" >>"
        return text_pdf(plain_pages(20), objs, "/Outlines 5 0 R")

    def label_prefix(s):   # a page-label prefix of s/10 letters over 1,000 pages
        return text_pdf(plain_pages(1000), {7: b"(" + b"P" * (s // 10) + b")"},
                        "/PageLabels << /Nums [0 << /S /D /P 7 0 R >>] >>")

    def label_letters(s):   # /S /A from a large start: letters repeated start/26 times
        return text_pdf(plain_pages(100), {}, "/PageLabels << /Nums [0 << /S /A /St %d >>] >>" % (s * 10))

    def info_title(s):   # an /Info title of s letters over 2,000 pages
        return document("Word " * (s // 5), [[f"line {i} words"] for i in range(2000)], [])

    c = {"pdf many-pages": many_pages, "pdf long-title": long_title, "pdf many-marks": many_marks,
         "pdf same-marks": deep_marks, "pdf shared-title": shared_title, "pdf label-prefix": label_prefix,
         "pdf label-letters": label_letters, "pdf info-title": info_title}
    return {k: ("x.pdf", v) for k, v in c.items()}


def name_cases():
    """A title, heading or definition name of `size` characters over many sections."""
    c = {}
    c["names md-heading"] = ("x.md", lambda s: ("# " + "Word " * (s // 5) + "\n\n"
                                                + "".join(f"## s{i}\n\npara.\n\n" for i in range(5000))).encode())
    c["names py-class"] = ("x.py", lambda s: ("class " + "A" * s + ":\n" + "".join(
        f"    def f{i}(self):\n        return 1\n" for i in range(5000))).encode())
    return c


def cases():
    c = name_cases()
    for part in (docbook_cases, md_cases, rst_cases, code_cases, html_cases, pdf_cases):
        c.update(part())
    return c


class _Late(Exception):
    pass


def _late(*_):
    raise _Late()


if __name__ == "__main__":
    sizes = [int(x) for x in sys.argv[1].split(",")] if len(sys.argv) > 1 else [100_000, 200_000, 400_000, 1_000_000]
    only = sys.argv[2] if len(sys.argv) > 2 else ""
    signal.signal(signal.SIGALRM, _late)
    for key, (name, build) in cases().items():
        if only and only not in key:
            continue
        out = []
        res = ""
        for size in sizes:
            data = build(size)
            t = time.process_time()
            signal.alarm(60)
            try:
                doc = read_document(data, name)
                res = f"{doc.format} {sum(len(s.text) for s in doc.sections)}"
            except SkipFile as e:
                res = f"skip: {e}"
            except _Late:
                res = "LATE >60s"
            except Exception as e:
                res = f"EXC {type(e).__name__}: {e}"
            finally:
                signal.alarm(0)
            used = time.process_time() - t
            out.append(f"{len(data) // 1000}K:{used:.2f}s")
            if used > 20 or res.startswith("LATE"):
                break
        print(f"{key:26} {res[:44]:44} " + " ".join(out), flush=True)
