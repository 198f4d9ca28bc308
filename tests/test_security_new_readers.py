"""Hostile files against the AsciiDoc, roff, Texinfo, GNU Info and Org readers, gzip members, PDF bookmarks and running heads.

(MDX import lines, measured here too, are tested in test_security_readers.py.)

Each case was measured super-linear before its fix (the figure is in the
test's docstring); the inputs are generated here and kept small enough that
linear work costs a few hundredths of a second, under a CPU budget (never a
wall-clock one) with a wide margin for a busy machine.
"""
from __future__ import annotations

import gzip

import pytest

from glean_personal.config import Limits
from glean_personal.errors import SkipFile
from glean_personal.formats import extract, read_document
from helpers.cost import cpu_budget
from pdf_factory import document as pdf_document
from pdf_factory import FONT, show, text_pdf
from pdf_factory import build as pdf_build
from pdf_factory import stream as pdf_stream

BUDGET = 2.0   # CPU seconds; each case costs under 0.3 s after its fix


def _text(doc) -> str:
    return "\n".join(section.text for section in doc.sections)


def _lines(unit: str, width: int, count: int, prefix: str = "") -> str:
    line = prefix + (unit * (width // len(unit) + 1))[:width - len(prefix)]
    return "\n".join([line] * count) + "\n"


def test_asciidoc_inline_anchor_without_end():
    """`[[a,` repeated on a line with no `]`: 240 KB cost 7.7 CPU s."""
    data = ("= T\n\n" + _lines("[[a,", 19_990, 12)).encode()
    with cpu_budget(BUDGET):
        doc = read_document(data, "anchors.adoc")
    assert "[[a,[[a," in _text(doc)


def test_asciidoc_anchor_still_removed():
    doc = read_document(b"= T\n\nSee [[here,the place]]the place and [[[ref]]] it.\n", "a.adoc")
    assert "See the place and  it." in _text(doc)


def test_asciidoc_attribute_chain_is_held_to_the_document_length():
    """Each entry doubling the one before (`:a1: {a0}{a0}`): 250 KB of such lines ran
    26 CPU s and out of memory."""
    entries = [":a0: xxxxxxxxxx"] + [f":a{n}: {{a{n - 1}}}{{a{n - 1}}}" for n in range(1, 21)]
    data = ("= T\n\n" + "\n".join(entries) + "\n\n" + "{a20}\n" * 3).encode()
    with cpu_budget(BUDGET):
        doc = read_document(data, "chain.adoc")
    assert len(_text(doc)) < len(data) + 70_000   # not 31 MB


def test_asciidoc_attributes_still_expand():
    doc = read_document(b"= T\n:tool: glean\n\nUse {tool}{litdd}help and {unknown}, not x:{unknown}.\n", "a.adoc")
    # one defined nowhere in the file shows its name as words, as typed when glued to text
    assert "Use glean--help and unknown, not x:{unknown}." in _text(doc)


def test_asciidoc_title_with_spaces_before_its_end():
    """`= a`, 990 blanks, `b` as titles: 1 MB cost 4 CPU s (the closing marks were cut by a
    pattern that rescans every run of blanks)."""
    data = ("= T\n" + ("\n= a" + " " * 990 + "b\n") * 600).encode()
    with cpu_budget(BUDGET):
        read_document(data, "titles.adoc")
    doc = read_document(b"= Guide\n\n== Install ==\n\ntext\n\n== Use  a == b ==\n\nmore\n", "g.adoc")
    assert [s.heading for s in doc.sections if s.text.strip()] == [
        ("Guide", "Install"), ("Guide", "Use a == b")]


def test_asciidoc_definition_with_a_long_indent():
    """A line of 6,000 blanks then 6,000 letters: 200 KB of them cost 10 CPU s."""
    data = ("= T\n\n" + (" " * 6000 + "a" * 6000 + "\n") * 16).encode()
    with cpu_budget(BUDGET):
        read_document(data, "indent.adoc")
    doc = read_document(b"= T\n\n  --force::\n\tRemove it.\n", "d.adoc")
    assert "  --force" in _text(doc)


def test_roff_font_escape_without_end():
    """`\\f[` over and over on one line with no `]`: 250 KB cost 12.7 CPU s, 500 KB 51 s."""
    data = (".TH X 1\n.SH NAME\n" + "\\f[" * 50_000 + "\n" + _lines("\\n[", 19_990, 8)).encode()
    with cpu_budget(BUDGET):
        read_document(data, "fonts.1")
    doc = read_document(b".TH X 1\n.SH NAME\nx \\f[CB]bold\\f[] \\n[.g]reg \\fBb\\fR\n", "x.1")
    assert "x bold reg b" in _text(doc)


def test_roff_gzip_bomb_is_cut():
    """50 MB of a manual page's lines in a small .gz: read up to --max-bytes."""
    body = b".TH X 1\n.SH NAME\n" + b"\\fBword\\fR \\(em text\n" * 2_000_000
    data = gzip.compress(body, 9)
    limits = Limits(max_bytes=500_000)
    with cpu_budget(BUDGET + 2):
        doc = read_document(data, "bomb.1.gz", limits)
    assert doc.warnings and "only the first" in doc.warnings[0]
    assert "word \u2014 text" in _text(doc)


def test_pdf_many_bookmarks_into_one_page():
    """4,000 bookmarks whose titles are not on a 4,000-line page: 7.2 CPU s (bookmarks × lines)."""
    import pdf_factory
    small = lambda lines, size=11, leading=15, **kw: show(lines, size=2, leading=0.19, y=790)   # noqa: E731
    pdf_factory.show, keep = small, pdf_factory.show
    try:
        data = pdf_document("T", [[f"line {i} words" for i in range(4000)]],
                            [(f"Missing title {i}", 0) for i in range(4000)])
    finally:
        pdf_factory.show = keep
    with cpu_budget(BUDGET + 1):
        doc = read_document(data, "marks.pdf")
    assert "line 3999 words" in _text(doc)


def test_pdf_bookmarks_still_cut_a_page():
    data = pdf_document("T", [["Intro text", "2.1 First part", "one", "A.1. Second", "two"]],
                        [("First part", 0), ("Second", 0)])
    doc = read_document(data, "parts.pdf")
    assert [(s.heading[0], s.text.split("\n")[0]) for s in doc.sections] == [
        ("Page 1", "Intro text"), ("First part", "2.1 First part"), ("Second", "A.1. Second")]


def test_gzip_of_many_members_is_read_whole():
    """Members after the first 64 KB chunk were lost (`damaged gzip file (ends early)`)."""
    members = [gzip.compress(b".TH X 1\n.SH NAME\n")]
    members += [gzip.compress(b"line %d of the page\n" % i) for i in range(5000)]
    data = b"".join(members) + b"\x00" * 64
    with cpu_budget(BUDGET):
        doc = read_document(data, "many.1.gz")
    assert "line 0 of the page" in _text(doc) and "line 4999 of the page" in _text(doc)


def test_pdf_long_bookmark_title_over_many_pages():
    """A bookmark of 100,000 letters over 2,000 pages: 12 CPU s (its letters were taken
    again for every page it runs over, looking for running heads)."""
    title = "Title" * 20_000
    pages = [[f"Head {i // 2}", f"line {i} words"] for i in range(2000)]
    data = pdf_document("T", pages, [(title, 0)])
    with cpu_budget(BUDGET + 1):
        doc = read_document(data, "long-mark.pdf")
    assert "line 1999 words" in _text(doc)


def test_pdf_running_head_by_bookmark_still_goes():
    pages = [["Intro", "first words"], ["Memcheck", "page 1 words"], ["Memcheck", "page 2 words"],
             ["Other", "page 3 words"], ["Last", "page 4 words"]]
    data = pdf_document("T", pages, [("Intro", 0), ("4. Memcheck", 1)])
    text = _text(read_document(data, "heads.pdf"))
    assert "page 2 words" in text and text.count("Memcheck") == 1


def _pages(count: int) -> list:
    return [show([f"line {i} words"]) for i in range(count)]


def test_pdf_bookmarks_sharing_one_long_title():
    """1,000 bookmarks naming one title object of 100,000 letters: 11 CPU s, and that
    title in the heading of every passage."""
    marks = {7: b"(" + b"T" * 100_000 + b")",
             5: b"<< /Type /Outlines /First 100 0 R /Last 1099 0 R /Count 1000 >>"}
    for k in range(1000):
        links = (b" /Prev %d 0 R" % (99 + k) if k else b"") + (b" /Next %d 0 R" % (101 + k) if k < 999 else b"")
        marks[100 + k] = b"<< /Title 7 0 R /Parent 5 0 R /Dest [11 0 R /XYZ 0 842 0]" + links + b" >>"
    data = text_pdf(_pages(20), marks, "/Outlines 5 0 R")
    with cpu_budget(BUDGET):
        doc = read_document(data, "shared-title.pdf")
    assert "line 19 words" in _text(doc)
    assert max(len(part) for s in doc.sections for part in s.heading) <= 300


def test_pdf_page_labels_stay_short():
    """A label prefix of 100,000 letters over 1,000 pages made 100 MB of headings from a
    387 KB file; `/S /A /St 10000000` a label of 384,616 letters on every page."""
    prefix = text_pdf(_pages(1000), {7: b"(" + b"P" * 100_000 + b")"},
                      "/PageLabels << /Nums [0 << /S /D /P 7 0 R >>] >>")
    letters = text_pdf(_pages(100), {}, "/PageLabels << /Nums [0 << /S /A /St 10000000 >>] >>")
    with cpu_budget(BUDGET):
        docs = [read_document(prefix, "prefix.pdf"), read_document(letters, "letters.pdf")]
    for doc in docs:
        assert "line 99 words" in _text(doc)
        assert max(len(s.page or "") for s in doc.sections) <= 50
    plain = read_document(text_pdf(_pages(30), {}, "/PageLabels << /Nums [0 << /S /r >> 2 << /S /A /P (A-) >>] >>"),
                          "labels.pdf")
    assert [s.page for s in plain.sections][:3] + [plain.sections[-1].page] == ["i", "ii", "A-A", "A-BB"]


def test_docbook_gzip_bomb_of_one_line_says_it_was_cut():
    """15 MB of DocBook on one line in a small .xml.gz: the cut at a line end left only
    its first line, skipped as if the file had no text at all."""
    body = (b'<?xml version="1.0"?>\n<!DOCTYPE article PUBLIC "-//OASIS//DTD DocBook XML V4.1.2//EN">\n'
            b"<article><title>T</title>" + b"<para>words</para>" * 800_000 + b"</article>\n")
    data = gzip.compress(body, 9)
    with cpu_budget(BUDGET):
        try:
            read_document(data, "bomb.xml.gz", Limits(max_bytes=500_000))
        except SkipFile as exc:
            reason = str(exc)
    assert reason.startswith("no extractable text in the first ") and "--max-bytes is 500,000" in reason
    lines = gzip.compress(body.replace(b"</para>", b"</para>\n"), 9)
    doc = read_document(lines, "bomb.xml.gz", Limits(max_bytes=500_000))
    assert doc.warnings and "only the first" in doc.warnings[0] and "words" in _text(doc)


_DOCBOOK_HEAD = ('<?xml version="1.0"?>\n<!DOCTYPE article PUBLIC "-//OASIS//DTD DocBook XML V4.1.2//EN" '
                 '"http://www.oasis-open.org/docbook/xml/4.1.2/docbookx.dtd"')


def test_docbook_entities_add_no_more_than_the_document_holds():
    """A 200-character value of tags named 330,000 times: a 1 MB file cost 5.4 CPU s, its
    replacements running on to the 4,000,000-character text budget."""
    value = "<para>x</para>" * 14
    data = (_DOCBOOK_HEAD + f' [<!ENTITY a "{value}"> <!ENTITY b "{"y" * 200}">]>\n<article><title>T</title>'
            "<para>" + "&b;" * 100_000 + "</para></article>\n").encode()
    doc = read_document(data, "entities.xml")
    assert not doc.warnings and len(_text(doc)) <= 2 * len(data)
    tags = (_DOCBOOK_HEAD + f' [<!ENTITY a "{value}">]>\n<article><title>T</title><para>'
            + "&a;" * 30_000 + "</para></article>\n").encode()
    with cpu_budget(BUDGET):
        read_document(tags, "tags.xml")
    doc = read_document((_DOCBOOK_HEAD + ' [<!ENTITY v "0.21">]>\n<article><title>T</title>'
                         "<para>version &v; and &w;</para></article>\n").encode(), "v.xml")
    # `&w;` is declared nowhere (nor is it HTML's): it stands for text set elsewhere, shown as nothing
    assert "version 0.21 and" in _text(doc) and "&w;" not in _text(doc)


def test_docbook_long_ids_that_title_nothing_cost_little():
    """Tags of long ids (`<a id=xxx….id=yyy…. zzz…`) before a cross-reference: each
    shorter part of an id was tried against the rest of the tag, 1.7 CPU s a MB."""
    tag = "<a id=" + "x" * 197 + ".id=" + "y" * 196 + ". " + "z" * 90 + " "
    data = (_DOCBOOK_HEAD + '>\n<article><title>T</title><sect1 id="intro"><title>Intro words</title>'
            '<para>see <xref linkend="intro"/> here</para>' + tag * 4_000 + "</sect1></article>\n").encode()
    with cpu_budget(1.5):
        doc = read_document(data, "ids.xml")
    assert "see Intro words here" in _text(doc)


def test_docbook_external_entities_are_never_read(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("SECRETWORDqzx\n")
    data = (_DOCBOOK_HEAD + f' [<!ENTITY s SYSTEM "{secret}"> <!ENTITY % p SYSTEM "file://{secret}"> %p;'
            f' <!ENTITY t PUBLIC "-//X//Y" "{secret}">]>\n<article><title>T</title>'
            "<para>see &s; and &t;</para></article>\n").encode()
    text = _text(read_document(data, "external.xml"))
    assert "SECRETWORDqzx" not in text and "see &s; and &t;" in text


def _longest_heading(doc) -> int:
    return max([len(part) for s in doc.sections for part in s.heading] + [len(doc.title)])


def test_titles_and_headings_are_bounded():
    """A title or heading is stored again with every passage under it: a 3.6 MB PDF whose
    /Info title held 3 MB made a 2.4 GB index in 82 s; a 1 MB `# heading` line likewise."""
    words = "Word " * 200_000
    docs = [read_document(("# " + words + "\n\n" + "para words here.\n\n" * 2000).encode(), "h.md"),
            read_document((words + "\n" + "=" * 1_000_000 + "\n\npara words here.\n").encode(), "h.rst"),
            read_document(pdf_document(words, [["line one words"], ["line two words"]], []), "t.pdf")]
    for doc in docs:
        assert _longest_heading(doc) <= 500 and "Word Word" in doc.title
    doc = read_document(b"# Install Guide\n\ntext\n", "guide.md")
    assert doc.title == "Install Guide" and doc.sections[0].heading == ("Install Guide",)


def test_code_definition_names_are_bounded():
    """A class named by 1,000,000 letters over 20,000 methods: 24 CPU s, each method's
    heading a new copy of the name (20 GB)."""
    data = ("class " + "A" * 50_000 + ":\n"
            + "".join(f"    def f{i}(self):\n        return {i}\n" for i in range(2000))).encode()
    with cpu_budget(BUDGET):
        doc = read_document(data, "long.py")
    assert _longest_heading(doc) <= 500 and "return 1999" in _text(doc)
    doc = read_document(b"class Store:\n    def put(self):\n        return 1\n", "s.py")
    assert ("Store.put",) in [s.heading[-1:] for s in doc.sections]


def test_heading_paths_are_bounded_in_depth():
    """Org's `*` × 2,000, each with a heading of 500 characters: a path of 1 MB stored
    with every passage under it (a 3.8 MB file made a 985 MB index)."""
    data = "".join("*" * (k + 1) + f" level {k} words\n" for k in range(200)) + "para words.\n\n" * 50
    doc = read_document(data.encode(), "deep.org")
    path = doc.sections[-1].heading
    assert len(path) <= 20 and path[0] == "level 0 words" and path[-1] == "level 199 words"
    doc = read_document(b"* a\n** b\n*** c\ntext\n", "shallow.org")
    assert doc.sections[-1].heading == ("a", "b", "c")


def test_a_pdf_page_too_deeply_nested_to_parse_leaves_the_other_pages():
    """Found by flipping bytes of real PDFs: a page object the lexer refuses ("objects
    nested too deeply") ended the page tree's walk, and the file was skipped as
    "could not read .pdf file (PDFSyntaxError: …)"."""
    page = (b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >>"
            b" /Contents %d 0 R %s>>")
    objects = {1: b"<< /Type /Catalog /Pages 2 0 R >>", 2: b"<< /Type /Pages /Kids [11 0 R 13 0 R] /Count 2 >>",
               3: FONT, 10: pdf_stream(show(["Good page words"])), 11: page % (10, b""),
               12: pdf_stream(show(["Deep page words"])), 13: page % (12, b"/X " + b"[" * 60 + b"]" * 60)}
    doc = read_document(pdf_build(objects), "deep.pdf")
    assert "Good page words" in _text(doc)


_DEEP = b"[" * 60 + b"]" * 60   # more nesting than the PDF lexer accepts
_ONE_PAGE = (b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >>"
             b" /Contents 10 0 R >>")


def test_pdf_page_labels_too_deeply_nested_leave_plain_page_numbers():
    # The page labels are read whole: a /PageLabels the lexer refuses skipped the file.
    objects = {1: b"<< /Type /Catalog /Pages 2 0 R /PageLabels 20 0 R >>",
               2: b"<< /Type /Pages /Kids [11 0 R] /Count 1 >>", 3: FONT,
               10: pdf_stream(show(["Labelled page words"])), 11: _ONE_PAGE,
               20: b"<< /Nums " + _DEEP + b" >>"}
    doc = read_document(pdf_build(objects), "labels.pdf")
    assert "Labelled page words" in _text(doc)


def test_pdf_catalog_is_found_past_a_damaged_root():
    # The trailer's /Root is an object the lexer refuses: the catalog is looked for among
    # the other objects, past that damaged one, not the file skipped.
    objects = {1: b"<< /X " + _DEEP + b" >>", 5: b"<< /Type /Catalog /Pages 2 0 R >>",
               2: b"<< /Type /Pages /Kids [11 0 R] /Count 1 >>", 3: FONT,
               10: pdf_stream(show(["Catalog page words"])), 11: _ONE_PAGE}
    doc = read_document(pdf_build(objects, root=1), "root.pdf")
    assert "Catalog page words" in _text(doc)


@pytest.mark.parametrize("page", ["<div class><p>hi there</p></div>", "<div id><p>hi there</p></div>",
                                  "<article class id><p>hi there</p></article>"])
def test_an_html_attribute_without_a_value_is_read(page):
    """Found by flipping bytes of real pages: `<div class>` (a class with no value) made
    the main-content check fail and the page was skipped as "could not read .html
    file (AttributeError: …)"."""
    assert read_document(page.encode(), "a.html").text == "hi there"


# The Texinfo, GNU Info and Org readers and Markdown's Liquid tags (bench/hostile_round5.py).

_TEXI = "\\input texinfo\n@settitle T\n@node Top\n@top T\n\n"
_INFO = ("This is t.info, produced by makeinfo version 7.1 from t.texi.\n\n"
         "\x1f\nFile: t.info,  Node: Top,  Next: A,  Up: (dir)\n\nT\n*\n\n")


def test_texinfo_values_add_no_more_than_the_document_holds():
    """`@set a` of 19,000 characters, then lines of `@value{a}` × 2,200: a 415 KB file
    held 1.7 GB at its peak (each line 42 MB), its text then cut at the cap."""
    data = (_TEXI + "@set a " + "x" * 19_000 + "\n" + ("@value{a}" * 2_200 + "\n") * 10).encode()
    with cpu_budget(BUDGET):
        doc = read_document(data, "values.texi")
    text = _text(doc)
    assert len(text) < 2 * len(data) + 70_000 and "xxxxx" in text and not doc.warnings   # not 4 MB


def test_texinfo_values_still_shown():
    data = (_TEXI + "@set VERSION 4.1\n@set name glean\n\nThis is @value{name} @value{VERSION}; "
            "@value{unset} stays.\n").encode()
    assert "This is glean 4.1; unset stays." in _text(read_document(data, "v.texi"))


def test_info_reference_before_a_run_of_spaces():
    """`*note` (or `*Note a:`) before a long run of white space, the run given back a space
    at a time and a name rescanned after each: 500 KB cost 4.7 CPU s (1 MB 9.4 s)."""
    for unit in ("*note", "*Note a:"):
        data = (_INFO + _lines(" ", 19_990, 30, prefix=unit)).encode()
        with cpu_budget(BUDGET):
            doc = read_document(data, "spaces.info")
        assert unit.strip() in _text(doc)


def test_info_references_still_read_as_their_words():
    data = (_INFO + "For details, *note Invoking grep::, and\n*Note the\nsummary: (coreutils)Top. "
            "Then *note   Usage::.\n").encode()
    text = _text(read_document(data, "refs.info"))
    assert "For details, Invoking grep, and\nSee the\nsummary. Then Usage." in text


def test_no_reader_opens_the_files_a_document_names(tmp_path):
    """`@include`, an Info indirect table, Liquid's `{% include %}`: a reader reads the
    file it is given, never one that file names (absolute, or outside its folder)."""
    secret = tmp_path / "secret.txt"
    secret.write_text("SECRETWORDqzx\n")
    folder = tmp_path / "docs"
    folder.mkdir()
    files = {
        "m.texi": _TEXI + f"@include {secret}\n@include ../secret.txt\nBody words.\n",
        "m.info": _INFO + f"Body words.\n\x1f\nIndirect:\n{secret}: 100\n../secret.txt: 200\n\x1f\nTag Table:\n",
        "m.md": f"# T\n\nBody words {{% include {secret} %}} {{% include_relative ../secret.txt %}}\n",
        "m.org": f"#+title: T\n#+include: \"{secret}\"\n#+setupfile: ../secret.txt\n\nBody words.\n",
    }
    for name, content in files.items():
        (folder / name).write_text(content)
        text = _text(extract(folder / name))
        assert "Body words" in text and "SECRETWORDqzx" not in text, name


def test_info_in_utf16_is_read_not_its_nuls_dropped():
    """An Info file saved as UTF-16 with a BOM: its NULs were dropped as index markers'
    and the rest decoded as UTF-16, so nothing was found ("no extractable text")."""
    data = (_INFO + "Café words here.\n").encode("utf-16")
    doc = read_document(data, "wide.info")
    assert doc.title == "T" and "Café words here." in _text(doc)


def test_texinfo_stray_end_verbatim_closes_nothing():
    """A `@verbatim` block closed, then a stray `@end verbatim` inside `@ignore`: the
    first was still counted open, so the stray one closed every block, `@ignore` too,
    and the ignored lines were shown."""
    data = (_TEXI + "@verbatim\nkept as typed\n@end verbatim\nA words.\n@ignore\n@end verbatim\n"
            "IGNOREDqzx\n@end ignore\nB words.\n").encode()
    text = _text(read_document(data, "stray.texi"))
    assert "kept as typed" in text and "B words." in text and "IGNOREDqzx" not in text


def test_texinfo_unicode_command_makes_no_surrogate_nor_control():
    """`@U{D800}` made a lone surrogate, which no UTF-8 text holds; `@U{000A}` a line
    break, moving the lines after it in its section from their places; `@U{0}` a NUL."""
    data = (_TEXI + "Half @U{D800} and @U{dfff}, out of range @U{110000}, an e @U{00e9}.\n"
            "Break @U{000A} and NUL @U{0}.\n@chapter Later\nlast line\n").encode()
    doc = read_document(data, "u.texi")
    text = _text(doc)
    assert "Half D800 and dfff, out of range 110000, an e é.\nBreak 000A and NUL 0." in text
    text.encode("utf-8")
    assert doc.sections[-1].heading[-1] == "Later" and doc.sections[-1].first_line == 9   # its own line


def test_info_name_on_a_binary_file_with_nuls_is_skipped():
    """Every NUL was dropped before the binary check, so records of ASCII padded with
    NULs, named `.info`, were indexed as text; an index's NUL markers are still read."""
    records = (b"\x00" * 40 + b"SOMEWORDS here\n") * 200
    for data in (records, _INFO.encode() + records):
        try:
            read_document(data, "records.info")
        except SkipFile as skip:
            assert "binary" in str(skip)
        else:
            raise AssertionError("a file of NUL-padded records was read as Info")
    data = _INFO.encode() + b"\x00\x08[index\x00\x08]\nIndex words.\n\x00\x08[image src=\"a.png\" alt=\"A box\"\x00\x08]\n"
    text = _text(read_document(data, "index.info"))
    assert "Index words." in text and "A box" in text and "\x00" not in text


def test_org_link_target_over_a_line_break_keeps_the_lines_in_place():
    """`[[*Structure of Code\\nBlocks][header arguments]]` (the Org manual, Magit's): the
    link read as its words lost the target's line break, so every later line of the
    paragraph moved up one and its last line was shown twice, the link's markup in it."""
    data = (b"#+title: T\n* H\nSee [[*Structure of Code\nBlocks][header arguments]], to get\n"
            b"the ~numbered~ lines.\nLast line.\n")
    doc = read_document(data, "link.org")
    assert _text(doc) == "See header arguments\n, to get\nthe numbered lines.\nLast line."


def test_held_text_inside_held_text_is_put_back():
    """A link inside Org verbatim (`=[[ads:Dominik,C]]=`), a Liquid tag in a code span
    inside `{% raw %}`: what one rule held held another's placeholder, which was put
    back as the NULs and number it is made of (17 files of the Org manuals and Jekyll's
    docs lost those words so)."""
    org = read_document(b"#+title: T\n* H\nSee =[[ads:Dominik,C]]= and =[[*Some\nsection]]= there.\n", "n.org")
    md = read_document(b"# T\n\nTags start with {% raw %}`{%`{% endraw %}, as in "
                       b"{% raw %}`{% seo %}`{% endraw %}.\n", "n.md")
    for doc in (org, md):
        assert "\x00" not in _text(doc)
    assert _text(org) == "See ads:Dominik,C and Some\nsection there."
    assert "Tags start with `{%`, as in `{% seo %}`." in _text(md)


MALLARD_HEAD = '<page xmlns="http://projectmallard.org/1.0/" id="p"><title>Printing</title>'


@pytest.mark.parametrize("unclosed", ["<info>", "<code>", "<info><desc>"])
def test_mallard_elements_without_end_cost_one_pass(unclosed):
    """20,000 `<info>` with no `</info>` cost 17 CPU s (a pattern of `<info>.*?</info>`
    looked for the end after each); `<code>` and a description's `<desc>` 11 s."""
    if unclosed == "<info><desc>":   # the page's description, in its info block
        data = ('<page xmlns="http://projectmallard.org/1.0/"><info>' + "<desc>" * 20_000
                + "</info><title>Printing</title><p>Choose a printer.</p></page>")
    else:
        data = MALLARD_HEAD + unclosed * 20_000 + "<p>Choose a printer.</p></page>"
    with cpu_budget(BUDGET):
        doc = read_document(data.encode(), "printing.page")
    assert doc.title == "Printing" and "Choose a printer." in _text(doc)


def test_navigation_script_check_costs_one_pass():
    """A `.js` that names a page after 100 KB of blank lines cost 9 CPU s (`^\\s*//`
    rescanned the blank lines from each), and 20,000 unclosed `/*` 7 s."""
    code = "function goHome() {\n  window.location.href = 'index.html';\n}\nvar pages = 2;\n"
    for data in ("\n" * 100_000 + code, "var a = 1; /* a\n" * 20_000 + code):
        with cpu_budget(BUDGET):
            doc = read_document(data.encode(), "help.js")
        assert "goHome" in _text(doc)   # code, not navigation data
