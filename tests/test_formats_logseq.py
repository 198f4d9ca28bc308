"""Logseq pages (outliner Markdown) read as the page shows them (formats/logseq.py).

Every page here is written for these tests, in the shapes a Logseq graph keeps.
"""
from __future__ import annotations

import pytest

from glean_personal.formats import read_document
from glean_personal.formats.logseq import logseq_page, looks_like_logseq, page_name

# A feature page: page properties, bullet headings, a block id, a nested heading.
FEATURE = """\
type:: [[Feature]]
alias:: Todos, [[Task list]]
platforms:: [[All Platforms]]
collapsed:: true

- ## Usage
  id:: 62c8421b-d22e-40ce-aead-0b7e9e2951f7
\t- Mark a block as a task with `Ctrl+Enter`.
\t- Some examples:
\t\t- TODO water the ferns
\t\t- DONE repot the basil
\t\t  collapsed:: true
\t\t- LATER [#A] order compost
\t\t  SCHEDULED: <2023-04-01 Sat>
\t\t  :LOGBOOK:
\t\t  CLOCK: [2023-03-30 Thu 10:00:00]--[2023-03-30 Thu 10:05:00] =>  00:05:00
\t\t  :END:
- ## Functionality
\t- ### Priorities
\t\t- Three priorities, A to C.
\t- ## Shortcuts
\t\t- See ((62c8421b-d22e-40ce-aead-0b7e9e2951f7)) for the keys.
"""


def _sections(doc):
    return {s.heading: s.text for s in doc.sections}


def test_page_properties_bullet_headings_and_tasks():
    doc = read_document(FEATURE.encode(), "Tasks.md")
    assert doc.title == "Tasks" and doc.format == "md"
    sections = _sections(doc)
    assert list(sections) == [(), ("Usage",), ("Functionality", "Priorities"),
                              ("Functionality", "Shortcuts")]
    # shown properties as Logseq shows them; `collapsed::` and the block's `id::` hidden
    assert sections[()] == "type: Feature\nalias: Todos, Task list\nplatforms: All Platforms"
    usage = sections[("Usage",)]
    assert "water the ferns" in usage and "repot the basil" in usage and "order compost" in usage
    for gone in ("TODO", "DONE", "LATER", "[#A]", "SCHEDULED", "LOGBOOK", "CLOCK", "::", "- "):
        assert gone not in usage, gone
    assert "`Ctrl+Enter`" in usage   # code kept as typed
    # a `## ` block under a `## ` heading block sits a level below it; a block
    # reference shows the referenced block's words
    assert sections[("Functionality", "Shortcuts")] == "See Usage for the keys."


def test_title_property_and_file_names_decoded():
    page = "title:: Logseq/Features\ndescription:: what it does\n\n- Body.\n"
    assert read_document(page.encode(), "Logseq%2FFeatures.md").title == "Logseq/Features"
    assert _sections(read_document(page.encode(), "x.md"))[()] == "description: what it does\n\nBody."
    outline = b"- A namespace page.\n"
    assert read_document(outline, "term___alias.md").title == "term/alias"
    assert read_document(outline, "New to Logseq%3F.md").title == "New to Logseq?"
    assert read_document(outline, "custom.css.md").title == "custom.css"   # a dot stays
    # the name of an ordinary Markdown file is never decoded
    assert read_document(b"Some notes.\n", "term___alias.md").title == "term___alias"
    assert page_name("a___b___c") == "a/b/c" and page_name("100%") == "100%"


def test_first_heading_is_no_title_and_a_bullet_fence_is_code():
    page = """\
type:: [[Command]]

- The calculator is opened by `/Calculator`.
- ## Examples
- ```calc
  # Basic arithmetic
  6 * 7
    indented 2
  ```
- After the code.
"""
    doc = read_document(page.encode(), "Calculator.md")
    assert doc.title == "Calculator"
    sections = _sections(doc)
    assert list(sections) == [(), ("Examples",)]
    # the code as typed, dedented to its fence (the fence lines are no text)
    assert sections[("Examples",)] == "# Basic arithmetic\n6 * 7\n  indented 2\n\nAfter the code."


def test_macros_references_and_org_blocks():
    page = """\
- Intro block with a picture ![map.png](../assets/map.png){:height 167, :width 312}
  id:: 64a1b2c3-0000-4000-8000-000000000001
- {{embed [[Daily review]]}}
- {{embed ((64a1b2c3-0000-4000-8000-000000000001))}}
- {{query (and [[project]] (task TODO))}}
- {{renderer :todomaster}} and {{video https://example.com/v}} gone
- Read [the intro](((64a1b2c3-0000-4000-8000-000000000001))) and [this page]([[Daily review]]).
- The {{cloze capital of France}} is Paris; ((64a1b2c3-0000-4000-8000-00000000ffff)) is elsewhere.
- Write `{{query (todo now)}}` to list tasks.
- #+BEGIN_TIP
  Keep the review short.
  #+END_TIP
- #+BEGIN_SRC python
  print("hi")
  #+END_SRC
- #+BEGIN_QUERY
  {:title "All open tasks"
   :query [:find (pull ?b [*]) :where [?b :block/marker "TODO"]]}
  #+END_QUERY
"""
    doc = read_document(page.encode(), "Review.md")
    text = doc.text
    assert "Daily review" in text
    assert text.count("Intro block with a picture") == 2   # the block and its embed
    for gone in ("{{", "}}", "((", "{:height", "todomaster", "example.com", "#+BEGIN", "#+END",
                 ":query", "block/marker"):
        assert gone not in text.replace("`{{query (todo now)}}`", ""), gone
    assert "Read the intro and this page." in text
    assert "The capital of France is Paris;  is elsewhere." in text
    assert "`{{query (todo now)}}`" in text   # code spans as typed
    assert "Keep the review short." in text
    assert '\nprint("hi")\n' in text
    assert "All open tasks" in text


def test_heading_property_and_lines_stay_in_place():
    page = "- Reading list\n  heading:: 2\n\t- Dune\n- Other\n"
    doc = read_document(page.encode(), "Books.md")
    assert [s.heading for s in doc.sections] == [("Reading list",)]
    assert doc.sections[0].text == "Dune\nOther"
    assert doc.sections[0].first_line == 3   # the file's own line numbers


def test_a_block_line_is_no_heading_or_underline():
    page = "- First block\n  # not a heading inside a block\n- Some words\n- ---\n- ==\n"
    doc = read_document(page.encode(), "Notes.md")
    assert [s.heading for s in doc.sections] == [()]
    assert doc.text == "First block\n# not a heading inside a block\nSome words\n\n=="


def test_journal_page_with_front_matter_and_column_headings():
    page = "---\ntitle: Standup notes\n---\n\n- Met the team\n## Decisions\n\t- Ship on Friday\n"
    doc = read_document(page.encode(), "2024_03_14.md")
    assert doc.title == "Standup notes"
    assert _sections(doc) == {(): "Met the team", ("Decisions",): "Ship on Friday"}


README = """\
# Seed library

A small tool to track seeds.

- Sort by **season**
- Print labels
  - with QR codes
\t- tab-indented item

## Install

    pip install seeds
"""


@pytest.mark.parametrize("text", [
    README,
    "Intro line.\n\n- one\n- two\n",
    "- a list\n\nthen a paragraph at the margin\n",
    "# Title\n\nsee:: not a property: the line under the title is blank\n",
    "std::vector holds it.\n",
    "Usage::\n\n    code\n",
])
def test_ordinary_markdown_is_no_logseq_page(text):
    assert not looks_like_logseq(text) and logseq_page(text) is None


def test_an_ordinary_readme_reads_exactly_as_before():
    doc = read_document(README.encode(), "README.md")
    assert doc.title == "Seed library"
    assert [s.heading for s in doc.sections] == [("Seed library",), ("Seed library", "Install")]
    assert doc.sections[0].text == ("A small tool to track seeds.\n\n- Sort by **season**\n- Print labels\n"
                                    "  - with QR codes\n\t- tab-indented item")


@pytest.mark.parametrize("text", [
    "alias:: Other name\n\n- Body\n",
    "## Beta 0.10 [[Dec 1st, 2025]]\nid:: 692d8283-7f1d-44cf-81b0-bb25c469a64e\nNotes\n",
    "- Only bullets\n  continued\n\t- nested\n## A heading block\n- more\n",
    "-\n",
])
def test_logseq_pages_are_recognised(text):
    assert looks_like_logseq(text)


@pytest.mark.parametrize("line", [
    "- " + "{{" * 20_000 + "\n",
    "- [" + " " * 40_000 + "\n",
    "key::" + " " * 40_000 + "x\n",
    "- " + "`" * 5_000 + "a" + "``" * 5_000 + "\n",
    "- " + "((" * 20_000 + "\n",
])
def test_hostile_lines_read_quickly(line):
    """Each pattern is linear in a line's length (a time bound here would be a
    wall-clock assertion: the size is one that quadratic work would not finish)."""
    doc = read_document(line.encode(), "x.md")
    assert doc.text


def test_search_finds_a_page_by_its_alias_and_shows_its_words(open_ix, tmp_path):
    """Both stores: an alias is searchable, the title is the page's name, and the
    passage shown carries the page's words without Logseq's syntax."""
    graph = tmp_path / "graph" / "pages"
    graph.mkdir(parents=True)
    (graph / "Tasks.md").write_text(FEATURE, encoding="utf-8")
    (graph / "term___page title.md").write_text(
        "- description:\n\t- the words at the top of a page, which name it\n", encoding="utf-8")
    ix = open_ix()
    ix.index(tmp_path / "graph")
    hit = ix.search("task list", limit=1, passages=True).results[0]
    assert hit.title == "Tasks"
    assert "alias: Todos, Task list" in hit.passage_text and "::" not in hit.passage_text
    hit = ix.search("words at the top of a page", limit=1, passages=True).results[0]
    assert hit.title == "term/page title"
    hit = ix.search("repot basil", limit=1, passages=True).results[0]
    assert hit.section == ["Usage"] and "DONE" not in hit.passage_text
