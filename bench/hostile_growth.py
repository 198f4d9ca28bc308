"""Grow hostile inputs for the newest readers; print CPU seconds and peak memory per size.

Attacked (nobody had before): reStructuredText read from `.txt` by sniffing
(`#.` lists, `|substitutions|`, literal blocks on list items, directives that
label the title below), Markdown fences under list items and a front matter
`description: >`, Markdown headings with star emphasis, bold questions as
headings (Markdown and HTML), and DocBook SGML (`</>` closers, entities,
cross-references and `xreflabel`s, the fragment sniff).

Each size is read in a forked child under a CPU limit (a quadratic case cannot
hang the run); the child reports its CPU seconds (time.process_time), the
growth of its peak resident memory and the outcome. A linear reader costs about
2x per doubling; more than 2.5x, or more than ~2 s for 1 MB, is a finding.

    PYTHONPATH=$PWD python bench/hostile_growth.py                      # every case
    PYTHONPATH=$PWD python bench/hostile_growth.py 250000,500000,1000000 docbook
"""
from __future__ import annotations

import os
import pickle
import resource
import sys
import time

from glean_personal.errors import SkipFile
from glean_personal.formats import read_document

CPU_LIMIT = 30   # seconds a child may spend on one size


def rep(unit: str, size: int) -> str:
    """`unit` repeated to `size` characters."""
    return (unit * (size // len(unit) + 1))[:size]


def many(unit: str, head: str = "", tail: str = ""):
    """`head`, `unit` repeated to the size, `tail`."""
    return lambda s: (head + rep(unit, s) + tail).encode()


RST = ".. _a:\n.. _b:\n\nTitle\n=====\n\n"        # sniffed as reStructuredText
MD_FRONT = "---\ntitle: T\ndescription: >\n"
DB_SGML = '<!DOCTYPE book PUBLIC "-//OASIS//DTD DocBook V4.2//EN">\n<book><title>T</title><chapter><title>C</title>\n'
DB_FRAG = '<sect1 id="s"><title>T</title>\n'


def rst_cases():
    c = {}
    t = "x.txt"
    c["rst #. list"] = (t, many("#. item\n", RST))
    c["rst #. staircase"] = (t, lambda s: (RST + "".join(" " * i + "#. a\n" for i in range(int((2 * s) ** 0.5)))).encode())
    c["rst #. staircase+deep"] = (t, lambda s: (RST + "".join(" " * i + "#. a\n" for i in range(int(s ** 0.5)))
                                                + rep(" " * int(s ** 0.5) + "   b\n", s // 2)).encode())
    c["rst #. nested lists"] = (t, many("#. a\n\n   #. b\n\n      #. c\n\n", RST))
    c["rst #. literal items"] = (t, many("#. Run this::\n\n      code line\n\n   after\n", RST))
    c["rst item :: long line"] = (t, lambda s: (RST + "* " + " " * s + "x::\n").encode())
    c["rst item :: spaces"] = (t, lambda s: (RST + rep(" ", s) + "::\n").encode())
    c["rst |sub| one line"] = (t, lambda s: (RST + rep("|a| ", s) + "\n").encode())
    c["rst |sub| 19K lines"] = (t, lambda s: (RST + "\n".join([rep("|ab| ", 19_000)] * max(1, s // 19_001)) + "\n").encode())
    c["rst |sub| many lines"] = (t, many("See |django-users| and |name|_ here.\n", RST))
    c["rst |unclosed 19K"] = (t, lambda s: (RST + "\n".join([rep("|a ", 19_000)] * max(1, s // 19_001)) + "\n").encode())
    c["rst |x | 19K"] = (t, lambda s: (RST + "\n".join([rep("|x |", 19_000)] * max(1, s // 19_001)) + "\n").encode())
    c["rst |a|b 19K"] = (t, lambda s: (RST + "\n".join([rep("|a|b", 19_000)] * max(1, s // 19_001)) + "\n").encode())
    c["rst |a  19K para"] = (t, lambda s: (RST + rep("|aaaa aaaa\n", s)).encode())
    c["rst |a|x 19K"] = (t, lambda s: (RST + "\n".join(["|" + rep("a", 18_990) + "|x"] * max(1, s // 19_001)) + "\n").encode())
    c["rst label directives"] = (t, many(".. setting:: DEBUG\n\nDEBUG\n-----\n\nText.\n\n", RST))
    c["rst label long arg"] = (t, lambda s: (RST + ".. setting:: " + rep("ab ", s // 2) + "x\n\n"
                                             + rep("ab ", s // 2) + "x\n" + "-" * (s // 2) + "\n").encode())
    c["rst label no title"] = (t, many(".. foo:: bar\n", RST))
    c["rst label under blank"] = (t, many(".. foo:: bar\n\n\n\nbar\n---\n", RST))
    c["rst label role title"] = (t, lambda s: (RST + "".join(f".. foo:: :ref:`a{i}`\n\n:ref:`a{i}`\n======\n\n"
                                                             for i in range(s // 36))).encode())
    c["rst sniff adorn lines"] = (t, many("=" * 70 + "\n"))
    c["rst sniff titles plain"] = (t, many("Notes\n=====\n\ntext\n"))
    c["rst sniff ..:: long"] = (t, lambda s: (".. " + rep("a:", s) + "\n").encode())
    c["rst sniff role chain"] = (t, lambda s: rep(":a", s).encode())
    c["rst sniff role open"] = (t, lambda s: rep(":a:`", s).encode())
    c["rst sniff _target open"] = (t, lambda s: rep(".. _aaaa\n", s).encode())
    c["rst flip"] = (t, lambda s: (".. note:: x\n.. _a:\n\n" + rep("plain words ==== |a| #. ::\n", s)).encode())
    c["rst flip late"] = (t, lambda s: (rep("plain line\n", 70_000) + ".. _a:\n.. _b:\n" + rep("x\n", s)).encode())
    c["rst overline pairs"] = (t, many("====\nA\n====\n", RST))
    c["rst grid rows"] = (t, many("| a | b | c |\n", RST))
    c["rst many targets"] = (t, lambda s: (RST + "".join(f".. _t{i}:\n" for i in range(s // 12))
                                           + rep("t1_ t2_ x_ ", s // 2)).encode())
    return c


def md_cases():
    c = {}
    m = "x.md"
    c["md deep fence unclosed"] = (m, lambda s: ("* item\n\n    ```\n" + rep("        code line\n", s)).encode())
    c["md deep fence pairs"] = (m, many("* a\n\n    ```\n    x\n    ```\n"))
    c["md deep fence tabs"] = (m, lambda s: ("* a\n\n\t```\n" + rep("\t\t\tx\n", s)).encode())
    c["md deep fence wide indent"] = (m, lambda s: (" " * (s // 2) + "```\n" + rep(" " * 1000 + "x\n", s // 2)).encode())
    c["md deep fence closers"] = (m, lambda s: ("    ```\n" + rep(" " * 40 + "```\n", s)).encode())
    c["md deep fence ticks"] = (m, lambda s: ("    " + "`" * s + "\n").encode())
    c["md deep fence opens"] = (m, many("  ```a\n  ~~~\n"))
    c["md front desc >"] = (m, lambda s: (MD_FRONT + rep("  folded words here\n", s) + "---\n# T\n").encode())
    c["md front desc |"] = (m, lambda s: (MD_FRONT.replace(">", "|") + rep("  kept\n\n", s) + "---\nx\n").encode())
    c["md front desc long"] = (m, lambda s: (MD_FRONT + "  " + rep("w ", s) + "\n---\n").encode())
    c["md front desc blanks"] = (m, lambda s: (MD_FRONT + rep("\n", s) + "---\n").encode())
    c["md front desc unclosed"] = (m, lambda s: (MD_FRONT + rep("  a\n", s)).encode())
    c["md bold questions"] = (m, many("**Q: How do I turn it off?**\n\nAnswer.\n\n", "# T\n"))
    c["md bold q no blank"] = (m, many("**Q?**\n", "# T\n"))
    c["md bold q long line"] = (m, lambda s: ("**" + rep("a", s) + "?**\n").encode())
    c["md bold q spaces"] = (m, lambda s: ("**a?**" + " " * s + "x\n").encode())
    c["md bold q ?** run"] = (m, lambda s: ("**" + rep("?*", s) + "\n").encode())
    c["md bold q ?** lines"] = (m, lambda s: "\n\n".join(["**" + rep("a?*", 158) + "?**" + " " * 5000 + "x"]
                                                         * max(1, s // 5500)).encode())
    c["md heading stars"] = (m, lambda s: "\n".join(["# " + rep("*a ", 19_000)] * max(1, s // 19_003)).encode())
    c["md heading stars2"] = (m, lambda s: "\n".join(["# " + rep("**a*", 19_000)] * max(1, s // 19_003)).encode())
    c["md heading stars ticks"] = (m, lambda s: "\n".join(["# " + rep("`*a", 19_000)] * max(1, s // 19_003)).encode())
    c["md heading star run"] = (m, lambda s: "\n".join(["# a" + "*" * 19_000 + "a"] * max(1, s // 19_003)).encode())
    c["md heading star open"] = (m, lambda s: "\n".join(["# *" + rep("a ", 19_000)] * max(1, s // 19_003)).encode())
    c["md many headings stars"] = (m, many("## potential **on-CPU** gains *why*\n\n"))
    return c


def html_cases():
    c = {}
    h = "x.html"
    c["html bold questions"] = (h, many("<p><b>Is it fast?</b></p><p>Yes.</p>\n", "<h1>T</h1>"))
    c["html bold unclosed"] = (h, lambda s: ("<h1>T</h1><p><b>" + rep("word ", s) + "?").encode())
    c["html bold many spans"] = (h, lambda s: ("<h1>T</h1><p>" + rep("<b>a</b>", s) + "?</p>").encode())
    c["html bold then words"] = (h, lambda s: ("<h1>T</h1><p><b>a?</b>" + rep("<i>x</i>", s) + "</p>").encode())
    c["html bold nested"] = (h, lambda s: ("<h1>T</h1><p>" + rep("<b><strong>", s // 2) + "q?</p>").encode())
    c["html bold in cells"] = (h, many("<table><tr><td><p><b>q?</b></p></td></tr></table>"))
    c["html bold p no close"] = (h, many("<p><b>q?</b>"))
    # Start tags of many attributes that the swarm check missed (html.parser held ~170 and
    # ~250 bytes per input byte): `<a` inside a tag is one more attribute; a quoted `>`.
    c["html swarm of <a"] = (h, lambda s: ("<p>hi</p><x " + rep("<a ", s) + ">").encode())
    c["html swarm quoted >"] = (h, lambda s: ("<p>hi</p><x " + rep("a " * 9000 + 'b=">" ', s) + ">").encode())
    c["html quoted > many tags"] = (h, many('<a b=">">x</a> ', "<p>"))
    c["html quote never closed"] = (h, many('<a b="x>y ', "<p>"))
    c["html = and spaces"] = (h, lambda s: ("<p>x " + "<a " + rep("=" + " " * 50, s) + '">').encode())
    c["html quotes alternate"] = (h, many("""<a b='"' c="'>"> """, "<p>"))
    return c


def docbook_cases():
    c = {}
    x = "x.xml"
    c["db </> flat"] = (x, lambda s: (DB_SGML + rep("<para><literal>a</></para>\n", s)).encode())
    c["db </> deep"] = (x, lambda s: (DB_SGML + "<para>" + rep("<emphasis>", s // 2) + rep("</>", s // 2)).encode())
    c["db </> only"] = (x, lambda s: (DB_SGML + rep("</>", s)).encode())
    c["db </> deep named close"] = (x, lambda s: (DB_SGML + "<para>" + rep("<a><b>", s // 2)
                                                  + rep("</a>", s // 8) + rep("</>", s // 8)).encode())
    c["db </> unclosed <"] = (x, lambda s: (DB_SGML + "</>" + rep("<", s)).encode())
    c["db </> comment open"] = (x, lambda s: (DB_SGML + "</>" + rep("<!-", s)).encode())
    c["db </> marked open"] = (x, lambda s: (DB_SGML + "</>" + rep("<![ ", s)).encode())
    c["db </> gt run"] = (x, lambda s: (DB_SGML + "</>" + rep("<a ", s) + ">").encode())
    c["db entities unknown"] = (x, lambda s: (DB_SGML + "<para>" + rep("&version; ", s)).encode())
    c["db entities long"] = (x, lambda s: (DB_SGML + "<para>" + rep("&" + "a" * 60 + ";", s)).encode())
    c["db entities no ;"] = (x, lambda s: (DB_SGML + "<para>" + rep("&a", s)).encode())
    c["db entities declared"] = (x, lambda s: ('<!DOCTYPE book [\n<!ENTITY legal SYSTEM "l.sgml">\n]>\n<book><title>T</title><para>'
                                               + rep("&legal; &other; ", s)).encode())
    c["db frag entities"] = (x, lambda s: (DB_FRAG + "<para>" + rep("&pgpool; ", s)).encode())
    c["db xref many"] = (x, lambda s: (DB_SGML + "".join(f'<sect1 id="s{i}"><title>S{i}</title><para><xref linkend="s{i}"></para></sect1>'
                                                         for i in range(s // 70))).encode())
    c["db xref unknown"] = (x, lambda s: (DB_SGML + "<para>" + rep('<xref linkend="pcp-detach-node"> ', s)).encode())
    c["db xreflabel many"] = (x, lambda s: (DB_SGML + rep('<varlistentry id="g" xreflabel="max"><term>x</term></varlistentry><xref linkend="g">', s)).encode())
    c["db xreflabel long tag"] = (x, lambda s: (DB_SGML + "<xref linkend=a>" + rep("<a xreflabel=\"x\" " + "b " * 240 + ">", s)).encode())
    c["db TITLED id runs"] = (x, lambda s: (DB_SGML + "<xref linkend=a>" + rep("<a id=" + "x" * 197 + ".id=" + "y" * 196 + ". "
                                                                                + "z" * 90 + " ", s)).encode())
    c["db TITLED ids"] = (x, lambda s: (DB_SGML + "<xref linkend=a>" + rep("<a " + "id=x " * 100, s)).encode())
    c["db LABELLED runs"] = (x, lambda s: (DB_SGML + "<xref linkend=a>" + rep("<a " + "xreflabel=\"" + "q" * 190, s)).encode())
    c["db LABELLED xreflabel="] = (x, lambda s: (DB_SGML + "<xref linkend=a>" + rep("<a " + " xreflabel=" * 45, s)).encode())
    c["db frag comments"] = (x, lambda s: (rep("<!-- c -->", 4000) + "<sect1><title>T</title>" + rep("<para>a</para>", s)).encode())
    c["db frag comment -"] = (x, lambda s: ("<!--" + rep("-", 1990) + rep("<para>a</para><listitem>", s)).encode())
    c["db only-elements"] = (x, lambda s: rep("<para><listitem>", s).encode())
    c["db sgml empties"] = (x, lambda s: (DB_SGML + rep('<colspec colname="c1"><xref linkend="x">', s)).encode())
    return c


INFO = ("This is x.info, produced by makeinfo version 7.0 from x.texi.\n\n\x1f\n"
        "File: x.info,  Node: Top,  Next: A,  Up: (dir)\n\nTop\n***\n\n")


def lines_of(line: str):
    """`line` (about 19 KB, under the inline limit) repeated to the size."""
    return lambda s: "\n".join([line] * max(1, s // (len(line) + 1))).encode()


def round9_cases():
    """Liquid tags in Markdown, GNU Info, Texinfo and Org text (merged while this round ran)."""
    c = {}
    c["md liquid word"] = ("x.md", lines_of("{%" + "a" * 19_000))
    c["md liquid spaces"] = ("x.md", lines_of("x {%" + " " * 19_000 + "x"))
    c["md liquid openers"] = ("x.md", lines_of(rep("{% a ", 19_000)))
    c["md liquid raw open"] = ("x.md", lines_of("{% raw %}" + rep("{%a%}", 19_000)))
    c["info note spaces after :"] = ("x.info", lambda s: (INFO + "*note a:" + " " * s + "x\n").encode())
    c["info note spaces after note"] = ("x.info", lambda s: (INFO + "*note" + " " * s + "x\n").encode())
    c["info note lines"] = ("x.info", many("*note a:" + " " * 2000 + "x\n", INFO))
    c["info note many"] = ("x.info", many("*note " + "a" * 290 + " ", INFO))
    c["info note colon"] = ("x.info", many("*note a: (" + "b" * 99 + " ", INFO))
    c["info markers"] = ("x.info", many("\x00\x08[index\x00\x08]\x00\x08[image src=\"a\" alt=\"w\"", INFO))
    c["info separators"] = ("x.info", many("\x1f\nFile: x.info,  Node: N,  Up: Top\n\nT\n*\n", INFO))
    c["texi nested braces"] = ("x.texi", lines_of("@b{" * 3000 + "x" * 5000 + "}" * 3000))
    c["texi open braces"] = ("x.texi", lines_of("@xref{" * 3000 + "a," * 500))
    c["texi defun braces"] = ("x.texi", lines_of("@defun " + rep("{a {b} ", 19_000)))
    c["texi blocks nested"] = ("x.texi", many("@example\n"))
    c["texi end many"] = ("x.texi", many("@end example\n", "@example\n" * 1000))
    c["texi comment tail"] = ("x.texi", lines_of(rep("@c@comment", 19_000)))
    c["texi sections"] = ("x.texi", many("@chapter C\n@section S\ntext @code{x}\n"))
    c["org emphasis lines"] = ("x.org", many("*a /b _c +d ~e =f\n", "* H\n"))
    c["org emphasis 19K"] = ("x.org", lines_of(rep("*a /b _c +d ~e =f ", 19_000)))
    c["org macros"] = ("x.org", many("{{{kbd(" + "a" * 290 + "\n", "* H\n"))
    c["org links"] = ("x.org", lines_of(rep("[[a][", 19_000)))
    c["org term"] = ("x.org", lines_of("- " + rep("a ::x", 19_000)))
    c["org drawers"] = ("x.org", many(":PROPERTIES:\n:a: b\n", "* H\n"))
    c["org code lines"] = ("x.org", many("~a\n", "* H\n"))
    c["org mode line .txt"] = ("x.txt", many("=a ~b *c\n", "# -*- mode: org -*-\n"))
    return c


def cases():
    c = {}
    for part in (rst_cases, md_cases, html_cases, docbook_cases, round9_cases):
        c.update(part())
    return c


def measure(name: str, data: bytes):
    """(CPU seconds, peak memory growth in MB, outcome) of reading `data` in a child."""
    rfd, wfd = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(rfd)
        resource.setrlimit(resource.RLIMIT_CPU, (CPU_LIMIT, CPU_LIMIT + 5))
        base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        start = time.process_time()
        try:
            doc = read_document(data, name)
            res = f"{doc.format} {sum(len(s.text) for s in doc.sections)} chars {len(doc.sections)} sect"
        except SkipFile as e:
            res = f"skip: {e}"
        except BaseException as e:   # noqa: BLE001 - any other exception is the finding
            res = f"EXC {type(e).__name__}: {e}"
        used = time.process_time() - start
        grown = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - base) / 1024
        with os.fdopen(wfd, "wb") as fh:
            pickle.dump((used, grown, res), fh)
        os._exit(0)
    os.close(wfd)
    with os.fdopen(rfd, "rb") as fh:
        got = fh.read()
    _, status = os.waitpid(pid, 0)
    if not got:
        return CPU_LIMIT, 0.0, f"KILLED (status {status}, CPU limit {CPU_LIMIT} s)"
    return pickle.loads(got)


def main() -> None:
    sizes = [int(x) for x in sys.argv[1].split(",")] if len(sys.argv) > 1 else [250_000, 500_000, 1_000_000]
    only = sys.argv[2] if len(sys.argv) > 2 else ""
    for key, (name, build) in cases().items():
        if only and only not in key:
            continue
        row, res, last = [], "", None
        for size in sizes:
            data = build(size)
            used, grown, res = measure(name, data)
            ratio = f" x{used / last:.1f}" if last and last > 0.05 else ""
            row.append(f"{len(data) // 1000}K:{used:.2f}s{ratio} {grown:.0f}MB")
            last = used
            if used >= CPU_LIMIT or res.startswith("KILLED"):
                break
        print(f"{key:26} {res[:46]:46} " + " | ".join(row), flush=True)


if __name__ == "__main__":
    main()
