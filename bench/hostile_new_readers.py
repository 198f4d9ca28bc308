"""Grow hostile inputs for the AsciiDoc, roff and Zim readers and the MDX code; print CPU seconds per size.

Usage: PYTHONPATH=$PWD python bench/hostile_new_readers.py [SIZES [NAME-PART]], e.g. `250000,500000,1000000 roff`.
"""
import gzip, sys, time, tracemalloc
from glean_personal.formats import read_document
from glean_personal.errors import SkipFile

def line_of(unit, n):
    return (unit * (n // len(unit) + 1))[:n]

ADOC_HEAD = "= T\n\n"
ROFF_HEAD = ".TH X 1\n.SH NAME\n"
MDOC_HEAD = ".Dd x\n.Dt X 1\n.Sh NAME\n.Nm x\n"
ZIM_HEAD = "Content-Type: text/x-zim-wiki\nWiki-Format: zim 0.4\n\n"

def cases():
    # (name, file name, builder(size) -> bytes)
    L = 19_990
    def lines(prefix, unit, head="", tail=""):
        def b(size):
            ln = prefix + line_of(unit, L - len(prefix))
            n = max(1, size // (len(ln) + 1))
            return (head + "\n".join([ln] * n) + tail + "\n").encode()
        return b
    def single(prefix, unit, head=""):   # one long line (beyond LONGEST_INLINE)
        return lambda size: (head + prefix + line_of(unit, size) + "\n").encode()
    def many(text, head=""):
        return lambda size: (head + text * (size // len(text) + 1)).encode()
    A, R = ADOC_HEAD, ROFF_HEAD
    c = {}
    # AsciiDoc line patterns (lines < LONGEST_INLINE)
    for k, (p, u) in {"attr-spaces": (":a: x", " "), "def-colons": ("a", ":: a"), "def-semis": ("a", ";; "),
                      "preproc": ("include::a[", "] "), "preproc2": ("include::a[", "]  x"),
                      "blockmacro": ("image::a[", "[["), "blocktitle": (".a", " "),
                      "inline-link": ("", "link:"), "inline-link2": ("", "linkgit:a"), "inline-anchor": ("", "[[a,"),
                      "inline-anchor2": ("", "[[[a"), "xref": ("", "<<a,"), "xref2": ("", "<<a"),
                      "attrref": ("", "{a"), "backq": ("", "`+a"), "backq2": ("", "` a"), "emph": ("", "*a "),
                      "emph2": ("", "_a*"), "hardbreak": ("a", " +"), "blockattr": ("[", "[a]"),
                      "blockattr2": ("[a", "\""), "anchorline": ("[[a", ",]"), "anchorline2": ("[#a", " "),
                      "setext-under": ("a", "="), "heading-sp": ("= a", " "), "heading-eq": ("= a", " ="),
                      "compound": ("|", "="), "verbatim": ("-", "- "), "url": ("", "https://a"),
                      }.items():
        c["adoc " + k] = ("x.adoc", lines(p, u, A))
    c["adoc heading-sp-blank"] = ("x.adoc", lambda s: (A + ("\n= a" + " " * 990 + "b\n") * (s // 1000)).encode())
    c["adoc setext-many"] = ("x.adoc", lambda s: (A + ("\nab\n--\n") * (s // 7)).encode())
    c["adoc anchors+titles"] = ("x.adoc", lambda s: (A + ("[[a]]\n== b\n<<a>>\n") * (s // 17)).encode())
    c["adoc attr-storm"] = ("x.adoc", lambda s: (A + (":a: {a}{a}{a}{a}\n") * (s // 17)).encode())
    c["adoc attr-runs"] = ("x.adoc", lambda s: (A + ":a: " + "x" * 1000 + "\n" + ("{a}" * 5000 + "\n") * (s // 15000)).encode())
    c["adoc ifdef-storm"] = ("x.adoc", many("ifdef::a[]\ninclude::b.adoc[]\nendif::a[]\n", A))
    c["adoc table-noend"] = ("x.adoc", many("|===\n|a|b\n", A))
    c["adoc delim-unbal"] = ("x.adoc", many("----\na\n-----\n", A))
    c["adoc comment-noend"] = ("x.adoc", lambda s: (A + "////\n" + "a\n" * (s // 2)).encode())
    c["adoc long-line"] = ("x.adoc", single("", "link:a[", A))
    c["adoc txt-sniff"] = ("x.txt", lambda s: ("T\n=\n\n" + "a::\nb::\n" * (s // 8)).encode())
    c["adoc txt-sniff2"] = ("x.txt", lambda s: ("T\n=\n\n" + ("\n" + "a" * 79 + "\n" + "-" * 81) * (s // 162)).encode())
    c["adoc term-line"] = ("x.txt", lambda s: ("T\n=\n\n" + ("a" + ":: " * 6000 + "b\n") * (s // 18000)).encode())
    # roff
    for k, (p, u) in {"font-open": ("", "\\f["), "char-open": ("", "\\[a"), "reg-open": ("", "\\n["),
                      "str-open": ("", "\\*["), "motion": ("", "\\h'"), "escapes": ("", "\\(em\\fB\\*(Aq\\-"),
                      "backslashes": ("", "\\\\"), "quotes-req": (".B ", "\"a "), "quotes-req2": (".B ", "\"\""),
                      "comment": ("", "\\\""), "ts-opts": ("tab(", "(:"), "tp": (".TP ", "\\fB"),
                      "alt": (".BR ", "a \\fI"), "mdoc": (".Fl ", "Fl Ar "),
                      }.items():
        c["roff " + k] = ("x.1", lines(p, u, R))
    c["roff font-open-1line"] = ("x.1", single("", "\\f[", R))
    c["roff char-open-1line"] = ("x.1", single("", "\\[", R))
    c["roff req-1line"] = ("x.1", single(".B ", "\"a\" ", R))
    c["roff de-noend"] = ("x.1", lambda s: (R + ".de XX\n" + ".if n .XX\n" * (s // 10)).encode())
    c["roff so-loop"] = ("x.1", many(".so x.1\n.if n .so x.1\n", R))
    c["roff ts-noend"] = ("x.1", lambda s: (R + ".TS\n" + "l l l\n" * (s // 6)).encode())
    c["roff sh-storm"] = ("x.1", many(".SH\n.SS\n", R))
    c["roff sh-deep"] = ("x.1", many(".SH a\n.SS b\n.SS c\n", R))
    c["roff gz"] = ("x.1.gz", lambda s: gzip.compress((R + "\\fBa\\fR \\(em b\n" * (s // 16)).encode()))
    c["roff own-macro"] = ("x.1", many(".de QW\n\\\\$1\\\\$2\n.QW \\\\$1\n..\n.QW a ),\n", R))
    c["roff own-macro-if"] = ("x.1", lambda s: (R + ".de XX\n" + ".ie '" + "'" * (s // 2) + " \\\\$1\n..\n.XX a\n").encode())
    c["roff tbl-blocks"] = ("x.1", lines("", "T{\tT}\t", R + ".TS\nl l.\n"))
    c["roff mdoc-xr"] = ("x.1", lines(".Xr ", "a 1 , ( ", MDOC_HEAD))
    c["roff mdoc-nm"] = ("x.1", many(".Nm\n.Nm :\n.It Nm Ar a\n", MDOC_HEAD))
    # Zim wiki pages
    Z = ZIM_HEAD
    for k, (p, u) in {"bold-open": ("", "**a "), "italic-open": ("", "//a "), "under-open": ("", "__a "),
                      "italic-url": ("", "//a://b "), "link-open": ("", "[["), "link-label": ("", "[[a|b "), "image-open": ("", "{{"),
                      "verbatim-open": ("", "''a "), "nested": ("", "**//__"),
                      }.items():
        c["zim " + k] = ("x.txt", lines(p, u, Z))
    c["zim bold-1line"] = ("x.txt", single("", "**a ", Z))
    c["zim heading-storm"] = ("x.txt", many("====== T ======\n== a ==\n", Z))
    c["zim header-only"] = ("x.txt", lambda s: ("Content-Type: text/x-zim-wiki\n" + "X-A: b\n" * (s // 7)).encode())
    # Markdown (new code)
    for k, (p, u) in {"esm-import": ("import ", " "), "esm-import2": ("import a", " a from"),
                      "esm-export": ("export default a", " ; "), "jsx-open": ("<A", " <"),
                      "jsx-tag": ("", "<A b={"), "jsx-tag2": ("", "<A b=\"{"), "jsx-tag3": ("a", " <A a '"),
                      "jsx-label": ("<A ", "label=\"x\" "), "tooltip": ("", "<abbr title=\"a\">"),
                      "htmltag": ("", "<a b=\""), "htmltag2": ("", "<a \"'"), "link": ("", "[a[b]"),
                      "link2": ("", "[[a]"), "include": ("{* ", "* "), "include2": ("{{#a ", "}"),
                      "snippet": ("--8<-- ", "\"a\" "), "colon": (":::", ":"), "colon2": (":::a", "["),
                      "colon3": (":::a{title=\"", "\" "), "colon4": (":::a ", "x "), "slash": ("/// a | ", "x "),
                      "mdx-comment": ("", "{/*"),
                      }.items():
        c["md " + k] = ("x.md", lines(p, u))
    c["md colon-noend"] = ("x.md", many(":::tip Title\na\n"))
    c["md colon-nest"] = ("x.md", lambda s: (":::tip a\n" * (s // 9)).encode())
    c["md jsx-multiline-noend"] = ("x.md", lambda s: ("<Tabs\n" + "a=b\n" * (s // 4)).encode())
    c["md include-fenced"] = ("x.md", lambda s: ("```\n" + "{* a *}\n" * (s // 8)).encode())
    return c

if __name__ == "__main__":
    sizes = [int(x) for x in sys.argv[1].split(",")] if len(sys.argv) > 1 else [250_000, 500_000, 1_000_000]
    only = sys.argv[2] if len(sys.argv) > 2 else ""
    for key, (name, build) in cases().items():
        if only and only not in key:
            continue
        out = []
        for size in sizes:
            data = build(size)
            t = time.process_time()
            try:
                doc = read_document(data, name)
                res = f"{doc.format}"
            except SkipFile as e:
                res = "skip"
            except Exception as e:
                res = f"EXC {type(e).__name__}: {e}"
            out.append(f"{len(data)//1000}K:{time.process_time() - t:.2f}s")
            if time.process_time() - t > 20:
                break
        print(f"{key:28} {res[:40]:10} " + " ".join(out), flush=True)
