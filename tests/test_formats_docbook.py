"""DocBook XML sources (Debian ships them beside their HTML, often gzipped) are
read as the HTML they become, not as tags."""
from __future__ import annotations

import gzip

from glean_personal.config import Limits
from glean_personal.formats import extract, read_document

# Shaped like libxslt's `libxslttutorial.xml` and shared-mime-info's spec: a
# DOCTYPE with an internal subset, an info block, sections, a CDATA listing.
TUTORIAL = b"""<?xml version="1.0"?>
<!DOCTYPE article PUBLIC "-//OASIS//DTD DocBook XML V4.1.2//EN"
    "http://www.oasis-open.org/docbook/xml/4.1.2/docbookx.dtd" [
<!ENTITY CODE SYSTEM "seed_tool.c">
<!ENTITY version "0.4">
<!ENTITY author "<firstname>Ann</firstname><surname>Gardener</surname>">
]>
<article>
  <articleinfo>
    <authorgroup><author>&author;</author></authorgroup>
    <title>Seed Swap Tutorial</title>
    <releaseinfo>This is version &version; of the tutorial</releaseinfo>
  </articleinfo>
  <sect1 id="intro">
    <title>Introduction</title>
    <para>The <application>seedswap</application> tool trades
      <acronym>F1</acronym> seeds.<indexterm><primary>seeds</primary></indexterm></para>
  </sect1>
  <sect1 id="functions">
    <title>Primary Functions</title>
    <sect2>
      <title>Opening the Catalogue</title>
      <para>Call <function>seedOpen</function> first.</para>
      <programlisting><![CDATA[if (a < b)
    seedOpen(path);]]></programlisting>
      <table><title>Return codes</title>
        <tgroup cols="2"><tbody>
          <row><entry>0</entry><entry>opened</entry></row>
        </tbody></tgroup></table>
    </sect2>
  </sect1>
</article>
"""


def test_a_docbook_article_reads_as_its_sections():
    doc = read_document(TUTORIAL, "seedswap.xml")
    assert doc.title == "Seed Swap Tutorial"
    heads = [s.heading for s in doc.sections]
    assert heads == [
        (),   # the author, written before the title in the info block
        ("Seed Swap Tutorial",),
        ("Seed Swap Tutorial", "Introduction"),
        ("Seed Swap Tutorial", "Primary Functions", "Opening the Catalogue")]
    text = "\n".join(s.text for s in doc.sections)
    assert "<" not in text.replace("a < b", "")   # no tags; the listing's `<` is its own
    assert doc.sections[0].text == "Ann Gardener"   # an entity of the internal subset
    assert doc.sections[1].text == "This is version 0.4 of the tutorial"
    assert doc.sections[2].text == "The seedswap tool trades F1 seeds."   # no index term
    listing = doc.sections[3].text
    assert "if (a < b)\n    seedOpen(path);" in listing   # CDATA, line breaks kept
    assert "Return codes" in listing and "0 | opened" in listing   # a caption is no heading
    assert "]>" not in text and "SYSTEM" not in text


def test_a_gzipped_docbook_file_is_read_the_same(tmp_path):
    path = tmp_path / "seedswap.xml.gz"
    path.write_bytes(gzip.compress(TUTORIAL))
    doc = extract(path)
    assert doc.title == "Seed Swap Tutorial"
    assert len(doc.sections) == 4


def test_a_docbook_manual_page_with_its_entities():
    # as expat's `xmlwf.xml`: the entities carry the program's name throughout
    page = b"""<!-- a comment first -->
<!DOCTYPE refentry PUBLIC "-//OASIS//DTD DocBook XML V4.2//EN" "docbookx.dtd" [
  <!ENTITY dhpackage "seedwf">
  <!ENTITY dhucpackage "<refentrytitle>SEEDWF</refentrytitle>">
]>
<refentry>
  <refmeta>&dhucpackage; <manvolnum>1</manvolnum></refmeta>
  <refnamediv><refname>&dhpackage;</refname>
    <refpurpose>Checks a seed list</refpurpose></refnamediv>
  <refsect1><title>OPTIONS</title>
    <variablelist><varlistentry><term><option>-v</option></term>
      <listitem><para>Print &dhpackage;'s version.</para></listitem></varlistentry></variablelist>
  </refsect1>
</refentry>"""
    doc = read_document(page, "seedwf.xml")
    assert doc.title == "SEEDWF"
    assert [s.heading for s in doc.sections] == [("SEEDWF",), ("SEEDWF", "OPTIONS")]
    assert "seedwf\n\nChecks a seed list" in doc.sections[0].text
    assert doc.sections[1].text == "-v\n\nPrint seedwf's version."


def test_docbook_5_in_its_namespace():
    doc = read_document(b"""<?xml version="1.0"?>
<article xmlns="http://docbook.org/ns/docbook" version="5.0">
  <info><title>Compost</title></info>
  <section><title>Turning</title><para>Turn it weekly.</para></section>
</article>""", "compost.xml")
    assert [s.heading for s in doc.sections] == [("Compost", "Turning")]


def test_other_xml_stays_plain_text():
    doc = read_document(b'<?xml version="1.0"?>\n<plots><plot id="9">Leeks</plot></plots>\n', "plots.xml")
    assert doc.format == "txt" and "<plot id=\"9\">Leeks</plot>" in doc.sections[0].text


def test_entities_expand_once_and_within_the_budget():
    # each reference expands to at most 200 characters, never to another reference
    subset = b'<!ENTITY a "' + b"x" * 200 + b'"><!ENTITY b "&a;&a;">'
    body = b"<para>&b;</para><para>" + b"&a;" * 100_000 + b"</para>"
    data = (b'<!DOCTYPE article PUBLIC "-//OASIS//DTD DocBook XML V4.5//EN" "d" [' + subset
            + b"]><article><title>T</title>" + body + b"</article>")
    limits = Limits(max_text_chars=1_000_000)
    doc = read_document(data, "bomb.xml", limits)
    text = "".join(s.text for s in doc.sections)
    assert len(text) <= 1_100_000
    assert "&b;" in text   # `b` holds references: not expanded


def test_an_unclosed_cdata_section_is_text():
    data = (b'<!DOCTYPE article PUBLIC "-//OASIS//DTD DocBook XML V4.5//EN" "d">'
            b"<article><title>T</title><para>a <![CDATA[ b" + b" <![CDATA[" * 20_000 + b"</para></article>")
    doc = read_document(data, "open.xml")   # a rescan from each opener would take minutes
    assert doc.title == "T"


def test_deep_nesting_and_unclosed_declarations_cost_no_recursion():
    head = b'<!DOCTYPE article PUBLIC "-//OASIS//DTD DocBook XML V4.5//EN" "d">'
    deep = head + b"<article>" + b"<section>" * 50_000 + b"<title>Deep</title><para>Down here.</para>"
    doc = read_document(deep, "deep.xml")
    assert doc.sections[-1].heading[-1] == "Deep" and doc.sections[-1].text == "Down here."
    # a second DOCTYPE with an internal subset that never closes, thousands of times
    doc = read_document(head + b"<article><title>T</title><para>Kept.</para>" + b"<!DOCTYPE a [" * 20_000,
                        "open.xml")
    assert doc.title == "T" and "Kept." in doc.sections[0].text


# A part of a manual in DocBook SGML, as PostgreSQL and pgpool-II keep theirs under
# doc/src/sgml/ (written for this test): no DOCTYPE, `</>` ending the element
# last opened, `<xref>` with no end tag, an entity the book's own file defines.
SGML_FRAGMENT = """\
<!-- doc/src/sgml/pooling.sgml -->

<sect1 id="runtime-config-pooling">
 <title>Connection Pooling</title>

 <para>
  <productname>Pool</productname> &version; reuses connections.
 </para>

 <sect2 id="pooling-settings">
  <title>Pooling <acronym>Settings</></title>
  <variablelist>
   <varlistentry id="guc-max-pool" xreflabel="max_pool">
    <term><varname>max_pool</varname> (<type>integer</>)</term>
    <listitem>
     <para>
      Connections cached in each child; see <xref linkend="guc-max-pool">
      and <xref linkend="guc-elsewhere">, with <literal>template0</> skipped.
     </para>
    </listitem>
   </varlistentry>
  </variablelist>
 </sect2>
</sect1>
"""


def test_a_docbook_sgml_fragment_is_read_as_docbook():
    doc = read_document(SGML_FRAGMENT.encode(), "pooling.sgml")
    assert doc.title == "Connection Pooling"
    assert [s.heading for s in doc.sections] == [
        ("Connection Pooling",), ("Connection Pooling", "Pooling Settings")]
    assert doc.sections[0].text == "Pool version reuses connections."   # `&version;`: set elsewhere
    text = doc.sections[1].text
    assert "max_pool (integer)" in text and "<" not in text and "&" not in text
    assert "see max_pool and guc elsewhere, with template0 skipped." in " ".join(text.split())


def test_a_legal_notice_fragment_is_docbook_and_other_markup_is_not():
    legal = ("<!-- legal.sgml -->\n<date>2023</date>\n<legalnotice id=\"legalnotice\">\n <title>Legal Notice</title>\n"
             " <para>\n  <productname>Pool</productname> is free software.\n </para>\n</legalnotice>\n")
    assert "Pool is free software." in read_document(legal.encode(), "legal.sgml").text
    feed = "<entry><title>Leeks</title><para>one</para></entry>\n"
    assert "<para>one</para>" in read_document(feed.encode(), "feed.sgml").text


def test_a_cross_reference_shows_its_targets_title_or_name():
    src = ('<!DOCTYPE article PUBLIC "-//OASIS//DTD DocBook XML V4.5//EN" "d">\n<article><title>T</title>\n'
           '<sect1 id="ssl-setup"><title>Setting up SSL</title><para>See <xref linkend="ssl-setup"/> and'
           ' <xref linkend="PCP-DETACH-NODE"/>.</para></sect1></article>\n')
    text = read_document(src.encode(), "t.xml").text
    assert "See Setting up SSL and pcp detach node." in text


# Shaped like a KDE handbook (KMyMoney's, as Debian's kmymoney-common installs it in
# /usr/share/doc/HTML/en/kmymoney): the book file declares KDE's variant of the DocBook
# DTD, and each chapter is a file of its own, `*.docbook`, that opens with an XML
# declaration and an info block, here a chapter of questions and answers.
KDE_BOOK = b"""<?xml version="1.0" ?>
<!DOCTYPE book PUBLIC "-//KDE//DTD DocBook XML V4.5-Based Variant V1.1//EN" "dtd/kdedbx45.dtd" [
  <!ENTITY package "office">
  <!ENTITY faq SYSTEM "faq.docbook">
]>
<book id="seedbank" lang="&language;">
<bookinfo>
<title>The Seed Bank Handbook</title>
<abstract><para>Seed Bank keeps a record of the seeds you swap.</para></abstract>
</bookinfo>
&faq;
</book>
"""
KDE_CHAPTER = b"""<?xml version="1.0" encoding="UTF-8"?>
<chapter id="faq">
<chapterinfo>
  <authorgroup><author> &Ann.Gardener; &Ann.Gardener.mail; </author></authorgroup>
  <date>2014-08-30</date>
</chapterinfo>

<title>Questions and Answers</title>

<para>
  This chapter answers what new users often ask.
</para>
<para>&seedbank; saves with &Ctrl;<keycap>S</keycap>; click with the &RMB; on a seed (&eg; a
  &Agr; strain) to swap it, as in any &kde; program.</para>

<qandaset>
<qandadiv><title>Startup Questions</title>
<qandaentry>
 <question><para>The program stops as soon as I open my file.</para></question>
 <answer><para>Start it without your file, then open a copy of the file.</para></answer>
</qandaentry>
</qandadiv>
</qandaset>
</chapter>
"""


def test_a_kde_handbook_and_its_chapter_files_are_read_as_docbook():
    book = read_document(KDE_BOOK, "index.docbook")
    assert book.title == "The Seed Bank Handbook"
    assert "Seed Bank keeps a record of the seeds you swap." in book.text
    assert "<!DOCTYPE" not in book.text and "<para>" not in book.text
    chapter = read_document(KDE_CHAPTER, "faq.docbook")
    assert chapter.title == "Questions and Answers"
    text = " ".join(chapter.text.split())
    assert "The program stops as soon as I open my file." in text
    assert "Start it without your file, then open a copy of the file." in text
    assert "<" not in chapter.text and "qandaentry" not in chapter.text


def test_entities_kdes_dtd_defines_show_their_words():
    # The chapter's `&seedbank;`, `&Ctrl;`, `&kde;` come from kdoctools' entity files, not
    # in the tree; kdoctools names an entity as its text reads, so the name is the word.
    chapter = read_document(KDE_CHAPTER, "faq.docbook")
    text = " ".join(chapter.text.split())
    assert ("seedbank saves with Ctrl S ; click with the right mouse button on a seed "
            "(e.g. a \u0391 strain) to swap it, as in any kde program.") in text
    assert chapter.sections[0].text.split() == ["Ann", "Gardener", "2014-08-30"]   # no address
    assert "&" not in chapter.text
