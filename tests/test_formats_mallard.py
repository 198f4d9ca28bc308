"""Mallard help pages (GNOME's `/usr/share/help/C/APP/*.page`) are read as the page
Yelp shows, not as their tags and credits."""
from __future__ import annotations

import gzip

from glean_personal.formats import read_document

# Shaped like gnome-user-docs' topic pages: an info block of guide links, revisions,
# credits with e-mail addresses, a licence include and the page's description, then
# the title, steps with GUI labels and keys, a tip, an editor's comment, a section,
# a block of code and conditional text.
PAGE = """<?xml version="1.0" encoding="utf-8"?>
<page xmlns="http://projectmallard.org/1.0/"
      xmlns:if="http://projectmallard.org/if/1.0/"
      type="topic" style="task" id="garden-watering">
  <info>
    <link type="guide" xref="garden#water"/>
    <revision pkgversion="3.38" date="2020-10-01" status="final"/>
    <include href="legal.xml" xmlns="http://www.w3.org/2001/XInclude"/>
    <credit type="author">
      <name>Ann Gardener</name>
      <email>ann@example.org</email>
    </credit>
    <desc>Let the sprinkler skip a day after rain.</desc>
  </info>

  <title>Skip watering after rain</title>

  <p>The sprinkler can wait a day when the soil is still wet.</p>

  <steps>
    <item><p>Open the <gui>Activities</gui> overview and start typing
      <gui>Sprinkler</gui>.</p></item>
    <item><p>Press <keyseq><key>Ctrl</key><key>R</key></keyseq> to open
      <guiseq><gui>Schedule</gui><gui>Rain delay</gui></guiseq>.</p></item>
  </steps>

  <note style="tip"><title>Quickly pause it</title>
    <p>See <link xref="garden-pause"/> to stop it for a week.</p></note>

  <comment><cite>ann</cite><p>Does this work with two valves?</p></comment>

  <section id="config">
    <title>For every garden</title>
    <p>Write the delay in the schedule file:</p>
<code>[Schedule]
RainDelay=<var>24</var></code>
    <if:choose>
      <if:when test="platform:classic"><p>Use the <gui>Garden</gui> menu.</p></if:when>
      <if:else><p>Use the system menu.</p></if:else>
    </if:choose>
  </section>
</page>
"""


def test_a_mallard_page_reads_as_yelp_shows_it():
    doc = read_document(PAGE.encode("utf-8"), "gnome-help/garden-watering.page")
    assert doc.title == "Skip watering after rain"   # not the file's name
    heads = [s.heading for s in doc.sections]
    assert heads == [("Skip watering after rain",),
                     ("Skip watering after rain", "For every garden")]
    first, second = (s.text for s in doc.sections)
    paragraphs = first.split("\n\n")
    # the page's description under its title, then its text
    assert paragraphs[:2] == ["Let the sprinkler skip a day after rain.",
                              "The sprinkler can wait a day when the soil is still wet."]
    assert "Open the Activities overview and start typing Sprinkler." in paragraphs
    assert "Press Ctrl R to open Schedule Rain delay." in paragraphs
    assert "Quickly pause it" in paragraphs   # the tip's caption is text, not a section
    text = first + second
    assert "<" not in text
    for hidden in ("Ann Gardener", "ann@example.org", "3.38", "two valves", "legal.xml"):
        assert hidden not in text   # credits, revisions, an editor's comment
    assert "[Schedule]\nRainDelay=24" in second   # a block of code keeps its lines
    assert "Use the Garden menu." in second and "Use the system menu." in second


def test_a_gzipped_mallard_page_and_other_xml_of_that_name():
    doc = read_document(gzip.compress(PAGE.encode("utf-8")), "garden-watering.page.gz")
    assert doc.title == "Skip watering after rain"
    # a `.page` file that is not Mallard is read as text, as before
    other = read_document(b"<page><title>Not Mallard</title></page>\n", "notes.page")
    assert "<title>" in other.sections[0].text


def test_an_empty_info_block_hides_nothing():
    """`<info/>` was read as an info block's start, which ran to the next `</info>` (a
    section's): the page's title and first paragraph were lost, the section's
    description shown."""
    page = (b'<page xmlns="http://projectmallard.org/1.0/" id="p"><info/>\n'
            b'<title>Printing</title><p>Choose a printer first.</p>\n'
            b'<section id="s"><info><desc>About trays.</desc></info><title>Paper</title>'
            b'<p>Load the tray.</p></section></page>')
    doc = read_document(page, "printing.page")
    assert doc.title == "Printing"
    assert [(s.heading, s.text) for s in doc.sections] == [
        (("Printing",), "Choose a printer first."), (("Printing", "Paper"), "Load the tray.")]
