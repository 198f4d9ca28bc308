"""Grow hostile inputs for the Texinfo, GNU Info and Org readers and Markdown's Liquid tags;
print CPU seconds per size (and the reader's answer), to see super-linear growth.

Usage: PYTHONPATH=$PWD python bench/hostile_round5.py [SIZES [NAME-PART]],
e.g. `250000,500000,1000000 info`. A file costing more than 2.5x CPU when its size
doubles, or more than ~2 CPU s at 1 MB, is a bug; so is any exception but SkipFile.
"""
import gzip
import sys
import time
import tracemalloc

from glean_personal.errors import SkipFile
from glean_personal.formats import read_document

L = 19_990   # a line just under the readers' longest inline line


def line_of(unit, n):
    return (unit * (n // len(unit) + 1))[:n]


TEXI = "\\input texinfo\n@settitle T\n@node Top\n@top T\n\n"
INFO = "This is t.info, produced by makeinfo version 7.1 from t.texi.\n\n\x1f\nFile: t.info,  Node: Top,  Next: A,  Up: (dir)\n\nT\n*\n\n"
ORG = "#+title: T\n\n* H\n"
MD = "# T\n\n"


def cases():
    def lines(head, prefix, unit, tail=""):   # many lines just under LONGEST_INLINE
        def build(size):
            ln = prefix + line_of(unit, L - len(prefix))
            n = max(1, size // (len(ln) + 1))
            return (head + "\n".join([ln] * n) + tail + "\n").encode()
        return build

    def single(head, prefix, unit):   # one long line
        return lambda size: (head + prefix + line_of(unit, size) + "\n").encode()

    def many(head, text):
        return lambda size: (head + text * (size // len(text) + 1)).encode()

    c = {}
    # Texinfo
    for k, (p, u) in {"braces-open": ("", "@code{"), "braces-text": ("", "{a"), "braces-text2": ("", "@code{aaaaaaaaa"), "braces-bare": ("", "{"), "braces-close": ("", "}"),
                      "accents": ("", "@'"), "at-at": ("", "@@"), "xref-commas": ("@xref{", ","),
                      "value": ("", "@value{a}"), "def-braces": ("@deffn ", "{a "), "def-braces2": ("@deffn ", "{{a} "),
                      "def-open": ("@deffn ", "{a a a "), "def-open2": ("@defun ", "{"),
                      "comment": ("", "@c "), "comment2": ("a", " @c"), "verb": ("", "@verb{|"),
                      "U": ("", "@U{"), "section": ("@section ", "@code{"), "item": ("@item ", "@emph{a "),
                      "nul": ("", "a\x00"), "line-cmd": ("@", "a"), "line-cmd2": (" ", "@a "),
                      }.items():
        c["texi " + k] = ("x.texi", lines(TEXI, p, u))
    c["texi long-line"] = ("x.texi", single(TEXI, "", "@code{"))
    c["texi long-line2"] = ("x.texi", single(TEXI, "@deffn ", "{a "))
    c["texi blocks-noend"] = ("x.texi", many(TEXI, "@example\n@lisp\na @code{b\n"))
    c["texi hidden-noend"] = ("x.texi", many(TEXI, "@ignore\n@menu\n@example\n"))
    c["texi end-storm"] = ("x.texi", many(TEXI, "@end example\n@end ignore\n"))
    c["texi nest-then-end"] = ("x.texi", lambda s: (TEXI + "@example\n" * (s // 18) + "@end example\n" * (s // 26)).encode())
    c["texi deep-close"] = ("x.texi", lambda s: (TEXI + "@example\n@lisp\n" * (s // 30) + "@end example\n@example\n" * (s // 50)).encode())
    c["texi many-sections"] = ("x.texi", many(TEXI, "@chapter a\n@section b\n@subsection c\n"))
    c["texi set-storm"] = ("x.texi", many(TEXI, "@set a@value{a}@value{a}\n@value{a}\n"))
    c["texi set-distinct"] = ("x.texi", lambda s: (TEXI + "".join(f"@set v{i} {'x' * 40}\n" for i in range(s // 50))).encode())
    c["texi include"] = ("x.texi", many(TEXI, "@include /etc/passwd\n@include ../../x.texi\n"))
    c["texi verbatim-noend"] = ("x.texi", lambda s: (TEXI + "@verbatim\n" + "@end verbatimx\n" * (s // 16)).encode())
    c["texi cr-only"] = ("x.texi", lambda s: (TEXI.replace("\n", "\r") + "@code{a} b\r" * (s // 11)).encode())
    c["texi bad-utf8"] = ("x.texi", lambda s: TEXI.encode() + b"@code{\xff\xfe} \xc3\n" * (s // 12))
    c["texi settitle-long"] = ("x.texi", lambda s: (TEXI + "@settitle " + "a " * (s // 2) + "\n").encode())
    c["texi sniff-txt"] = ("x.txt", many(TEXI, "@code{a} @xref{b,c,d,e,f}\n"))
    # GNU Info
    for k, (p, u) in {"note-spaces": ("*note", " "), "note-many": ("", "*note a"), "note-colon": ("", "*Note a: "),
                      "note-colon2": ("*Note a:", " "), "note-paren": ("", "*Note a: (b"),
                      "note-dbl": ("", "*note a::"), "underline": ("", "*"), "marker": ("", "\x00\x08["),
                      "marker-img": ("", "\x00\x08[image alt=\""), "header": ("File: a,  Node: ", ","),
                      }.items():
        c["info " + k] = ("x.info", lines(INFO, p, u))
    c["info note-paragraph"] = ("x.info", many(INFO, "see *note a\n"))
    c["info note-paragraph2"] = ("x.info", many(INFO, "*Note a:\n b\n"))
    c["info note-per-para"] = ("x.info", many(INFO, "*note a::\n\n"))
    c["info note-spaces-1line"] = ("x.info", single(INFO, "*note", " "))
    c["info many-nodes"] = ("x.info", many(INFO, "\x1f\nFile: t.info,  Node: N,  Up: Top\n\nN\n=\n\n* Menu:\n\n* A::\n"))
    c["info titles-deep"] = ("x.info", many(INFO, "a\n*\nb\n=\nc\n-\nd\n.\n"))
    c["info underline-long"] = ("x.info", lambda s: (INFO + ("a" * 999 + "\n" + "=" * 999 + "\n") * (s // 2000)).encode())
    c["info indirect"] = ("x.info", many(INFO, "\x1f\nIndirect:\n/etc/passwd: 100\n../x.info-1: 200\n"))
    c["info nul-index"] = ("x.info", many(INFO, "\x00\x08[index\x00\x08]\n* Menu:\n* a: b. (line 1)\n\x00\x08[image src=\"x\" alt=\"y\"\x00\x08]\n"))
    c["info nuls"] = ("x.info", lambda s: INFO.encode() + b"\x00" * s)
    c["info sniff-txt"] = ("x-1", many(INFO, "see *note a:: and *Note b: (c)d.\n"))
    c["info cr-only"] = ("x.info", lambda s: (INFO.replace("\n", "\r") + "see *note a::\r" * (s // 14)).encode())
    c["info bad-utf8"] = ("x.info", lambda s: INFO.encode() + b"*note \xff\xfe::\n" * (s // 12))
    c["info gz-bomb"] = ("x.info.gz", lambda s: gzip.compress(INFO.encode() + b"a *note b:: c\n" * (s * 20 // 14)))
    c["info gz-bomb-1line"] = ("x.info.gz", lambda s: gzip.compress(INFO.encode() + b"*note " * (s * 10 // 6)))
    c["info part"] = ("x.info-3", many(INFO, "see *note a::\n"))
    # Org
    for k, (p, u) in {"code-open": ("", "~a "), "code-open2": ("", " =a"), "verb-eq": ("", "= "),
                      "emph": ("", "*a "), "emph2": ("", " /a"), "emph-mix": ("", "*/_+a"),
                      "link-open": ("", "[["), "link-open2": ("", "[[a]["), "link-nested": ("", "[[a][[[b]]"),
                      "macro": ("", "{{{"), "macro2": ("", "{{{a}"), "macro-args": ("", "{{{a("),
                      "macro-args2": ("", "{{{a()"), "macro-args3": ("{{{a(", ")}} "), "macro-args4": ("", "{{{a(x)}}"), "term": ("- ", "a ::b"), "term2": ("- a", " ::x"),
                      "heading-stars": ("", "*"), "heading-sp": ("* a", " "), "heading-tags": ("* a ", ":b:"),
                      "keyword": ("#+", "a"), "drawer": (":", "a"), "table-rule": ("|", "-+"),
                      "placeholder": ("", "\x00123\x00"),
                      }.items():
        c["org " + k] = ("x.org", lines(ORG, p, u))
    c["org paragraph-code"] = ("x.org", many(ORG, "a ~b\n"))
    c["org paragraph-emph"] = ("x.org", many(ORG, "a *b /c _d +e\n"))
    c["org paragraph-link"] = ("x.org", many(ORG, "a [[b\n"))
    c["org paragraph-eq"] = ("x.org", many(ORG, " =a b\n"))
    c["org paragraph-macro"] = ("x.org", many(ORG, "a {{{k(b)\n"))
    c["org paragraph-macro2"] = ("x.org", many(ORG, "{{{k(b) ) )\n"))
    c["org block-noend"] = ("x.org", lambda s: (ORG + "#+begin_src\n" + "#+begin_example\na\n" * (s // 20)).encode())
    c["org drawer-noend"] = ("x.org", lambda s: (ORG + ":PROPERTIES:\n" + ":a: b\n" * (s // 7)).encode())
    c["org deep-headings"] = ("x.org", lambda s: "".join("*" * (i % 3000 + 1) + " h\n" for i in range(s // 1600)).encode())
    c["org many-headings"] = ("x.org", many("", "* a\n** b ~c~ [[d][e]]\n"))
    c["org sniff-txt"] = ("x.txt", many("# -*- mode: org -*-\n", "a ~b~ [[c][d]]\n"))
    c["org cr-only"] = ("x.org", lambda s: (ORG.replace("\n", "\r") + "a ~b~\r" * (s // 6)).encode())
    # Markdown Liquid
    for k, (p, u) in {"liquid-open": ("", "{%"), "liquid-raw": ("", "{% raw %}"), "liquid-raw2": ("", "{% raw %}{%"),
                      "liquid-pct": ("{%", " %"), "liquid-include": ("", "{% include a.html %}"),
                      "liquid-dest": ("", "]({{"), "liquid-dest2": ("", "]({{ a }}"), "liquid-dest3": ("[a]({{ ", "a "),
                      "liquid-raw-end": ("", "{% endraw %}"),
                      }.items():
        c["md " + k] = ("x.md", lines(MD, p, u))
    c["md liquid-raw-noend"] = ("x.md", many(MD, "{% raw %}\na {{ b }}\n"))
    c["md liquid-include-abs"] = ("x.md", many(MD, "{% include /etc/passwd %}\n{% include_relative ../../x %}\n"))
    return c


def run(sizes, only=""):
    bad = []
    for key, (name, build) in cases().items():
        if only and only not in key:
            continue
        out, cpus, res = [], [], ""
        for size in sizes:
            data = build(size)
            t = time.process_time()
            try:
                doc = read_document(data, name)
                res = doc.format
            except SkipFile as exc:
                res = "skip: " + str(exc)[:30]
            except Exception as exc:   # a bug: only SkipFile may leave read_document
                res = f"EXC {type(exc).__name__}: {exc}"
                bad.append(key)
            cpu = time.process_time() - t
            cpus.append(cpu)
            out.append(f"{len(data) // 1000}K:{cpu:.2f}s")
            if cpu > 20:
                break
        ratio = max((b / a for a, b in zip(cpus, cpus[1:]) if a > 0.05), default=0)
        flag = " <<" if ratio > 2.5 or cpus[-1] > 2 else ""
        if flag:
            bad.append(key)
        print(f"{key:26} {res[:36]:36} " + " ".join(out) + flag, flush=True)
    return bad


def peak(name, data):
    """Peak traced memory (MB) reading one file."""
    tracemalloc.start()
    try:
        read_document(data, name)
    except SkipFile:
        pass
    size = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return size / 1e6


if __name__ == "__main__":
    sizes = [int(x) for x in sys.argv[1].split(",")] if len(sys.argv) > 1 else [250_000, 500_000, 1_000_000]
    bad = run(sizes, sys.argv[2] if len(sys.argv) > 2 else "")
    print("suspect:", ", ".join(bad) or "none")
