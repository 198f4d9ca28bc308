"""Plain text and Markdown: decoding, binary refusal, headings, front matter."""
from __future__ import annotations

import codecs
import random

import pytest

from glean_personal.errors import SkipFile
from glean_personal.formats import extract, read_document

PHRASE = "Café crème in Zürich — naïve façade"


@pytest.mark.parametrize("label, data", [
    ("utf-8", PHRASE.encode("utf-8")),
    ("utf-8 with BOM", codecs.BOM_UTF8 + PHRASE.encode("utf-8")),
    ("utf-16 LE with BOM", codecs.BOM_UTF16_LE + PHRASE.encode("utf-16-le")),
    ("utf-16 BE with BOM", codecs.BOM_UTF16_BE + PHRASE.encode("utf-16-be")),
    ("cp1252", PHRASE.encode("cp1252")),
])
def test_encodings_decode_to_the_same_text(label, data):
    doc = read_document(data, "note.txt")
    assert doc.text == PHRASE, label
    assert "\ufeff" not in doc.text


@pytest.mark.parametrize("line", [
    "新宿駅で友達に会いました。東京都の渋谷区に行きました。\n",
    "서울에서 경복궁을 방문했습니다. 명동에서 쇼핑을 했어요.\n",
    "Мы поставили ёлку в гостиной, а потом ели пельмени.\n",
])
@pytest.mark.parametrize("lines", [40, 2000])
@pytest.mark.parametrize("pad", range(4))
def test_long_utf8_text_is_text_wherever_a_sample_cuts_it(line, lines, pad):
    """A .txt reader samples the first 64 KB and the last 2,000 bytes; a cut through
    a character must not turn UTF-8 into cp1252 controls and the file into 'binary'."""
    data = (line * lines + "x" * pad + "\n").encode("utf-8")
    doc = read_document(data, "notes.txt")
    assert line.strip() in doc.text


def test_latin1_bytes_undefined_in_cp1252_still_decode():
    doc = read_document(b"caf\xe9 au lait, tr\xe8s bien \x81 and the rest of a long line", "old.txt")
    assert doc.text.startswith("café")


def test_a_stray_cp1252_byte_in_utf8_text_keeps_the_utf8():
    """A line pasted from an old editor into a UTF-8 note: the stray byte reads as
    cp1252 and the rest stays UTF-8 (decoded whole as cp1252, `é` became `Ã©`)."""
    data = "Mixed: € 5 for the résumé\nutf8 line: café au lait\n".encode() + b"old line: na\xefve\n"
    assert read_document(data, "mixed.txt").text == (
        "Mixed: € 5 for the résumé\nutf8 line: café au lait\nold line: naïve")
    # cp1252 text that one pair of bytes makes look like UTF-8 is still cp1252
    old = "Ã© is what a wrong decoder shows; crème brûlée, déjà vu, à bientôt".encode("cp1252")
    assert read_document(old, "old.txt").text.startswith("Ã© is what")


@pytest.mark.parametrize("codec", ["cp932", "shift_jis", "euc_jp"])
@pytest.mark.parametrize("text", ["東京の会議メモ wombat", "新宿駅で友達に会いました。東京都の渋谷区に行きました。"])
def test_japanese_in_a_legacy_encoding_reads_as_japanese(codec, text):
    """Shift_JIS and EUC-JP notes without a BOM were read as cp1252 soup."""
    assert read_document(text.encode(codec), "memo.txt").text == text


def test_cp1252_text_is_never_read_as_japanese():
    """Western text holds the bytes of a kana lead (0x82 `‚`, 0x83 `ƒ`) seldom and never
    before a byte that completes one; decoded strictly, it would have to be valid too."""
    words = ("café crème naïve résumé déjà Müller Straße £5 ¥3 ½ ° × © « » – — ‘ ’ “ ” "
             "• … € ‚ ƒ „ † ‡ ˆ ‰ Š ‹ Œ Ž the and of").split()
    rng = random.Random(3)
    for _ in range(500):
        text = " ".join(rng.choice(words) for _ in range(rng.randint(2, 30)))
        assert read_document(text.encode("cp1252"), "old.txt").text == text


@pytest.mark.parametrize("name", ["a.txt", "a.md"])
def test_nul_bytes_without_bom_are_binary(name):
    with pytest.raises(SkipFile, match=r"binary content \(NUL bytes\)"):
        read_document(b"looks like text\x00\x00 but is not", name)


def test_png_named_md_is_skipped_as_binary():
    png = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256))
    with pytest.raises(SkipFile, match="binary content"):
        read_document(png, "picture.md")


def test_control_character_soup_without_nul_is_binary():
    noise = bytes(b for b in range(1, 32) if b not in (9, 10, 13)) * 50
    with pytest.raises(SkipFile, match="mostly non-text"):
        read_document(noise, "noise.txt")


@pytest.mark.parametrize("data, reason", [
    (b"", "empty file"),
    (b"   \n\n\t ", "no extractable text"),
    (codecs.BOM_UTF8, "no extractable text"),
])
def test_empty_and_blank(data, reason):
    with pytest.raises(SkipFile, match=reason):
        read_document(data, "x.txt")


def test_txt_paragraphs_and_stem_title():
    doc = read_document(b"First para\nline two\r\n\r\nSecond para\n", "notes/Meeting 2024.txt")
    assert doc.title == "Meeting 2024"
    assert doc.format == "txt"
    assert [s.heading for s in doc.sections] == [()]
    assert doc.sections[0].text == "First para\nline two\n\nSecond para"



# Dovecot's wiki page as Debian ships it (`wiki/Authentication.Penalty.txt`): an underlined
# title, no section titles, the wiki's framed example. The title is the underlined line,
# not the file's name.
DOVECOT_PAGE = """\
Authentication Penalty
======================

Dovecot anvil process tracks authentication penalties for different IPs to slow
down brute force login attempts. The algorithm works by:

 * First auth failure reply will be delayed for 2 seconds (this happens even
   without auth penalty)

Authentication penalty tracking can be disabled completely with:

---%<-------------------------------------------------------------------------
service anvil {
  unix_listener anvil-auth-penalty {
    mode = 0
  }
}
---%<-------------------------------------------------------------------------

(This file was created from the wiki on 2019-06-19 12:42)
"""


def test_an_underlined_first_line_is_a_texts_title():
    doc = read_document(DOVECOT_PAGE.encode(), "wiki/Authentication.Penalty.txt")
    assert doc.title == "Authentication Penalty"
    assert doc.format == "txt"
    assert "Authentication Penalty\n======================" in doc.sections[0].text   # the text keeps it
    dashed = read_document(b"How to build a plugin\n---------------------\n\nRun make.\n", "README")
    assert dashed.title == "How to build a plugin"


@pytest.mark.parametrize("data", [
    b"Authentication Penalty\n===\n\nAn underline much shorter than its line is a rule.\n",
    b"Settings:\n=========\n\nA line ending as a sentence does is no title.\n",
    b"Only a title\n============\n",   # nothing after it
    b"x = 1\n=====\n\nA setting is no title.\n",
])
def test_an_underline_makes_no_title_of_what_is_no_title(data):
    assert read_document(data, "notes/plain.txt").title == "plain"


def test_an_underline_as_wide_as_a_wide_scripts_title_underlines_it():
    # An editor's underline spans the columns the line fills: a Chinese, Japanese or
    # Korean character fills two (six characters, twelve `=`), a combining accent none.
    page = "設定ファイル\n============\n\nメールボックスの設定は次のとおりです。\n"
    assert read_document(page.encode(), "notes/settei.txt").title == "設定ファイル"
    accents = "Cafe\u0301 cre\u0300me bru\u0302le\u0301e"   # 21 characters, 17 columns
    page = accents + "\n" + "-" * 17 + "\n\nThe custard sets overnight in the fridge.\n"
    assert read_document(page.encode(), "notes/dessert.txt").title == accents
    # …and a rule far from both lengths is still no underline
    for rule in ("===", "=" * 20):
        page = "設定ファイル\n" + rule + "\n\nメールボックスの設定は次のとおりです。\n"
        assert read_document(page.encode(), "notes/settei.txt").title == "settei"


MARKDOWN = """\
---
title: "Workshop handbook"
tags: [bikes]
---
Intro before any heading.

# Tools

Hex keys and tyre levers.

## Truing stand
Spoke keys live here.

Setext Heading
==============

Under setext one.

Second level
------------

Under setext two.

```
# not a heading
Not a heading either
---
```

### Closing hashes ###
Tail text.
"""


def test_markdown_sections_and_front_matter():
    doc = read_document(MARKDOWN.encode(), "handbook.md")
    assert doc.title == "Workshop handbook"
    assert doc.format == "md"
    headings = [s.heading for s in doc.sections]
    assert headings == [
        (),
        ("Tools",),
        ("Tools", "Truing stand"),
        ("Setext Heading",),
        ("Setext Heading", "Second level"),
        ("Setext Heading", "Second level", "Closing hashes"),
    ]
    body = {s.heading: s.text for s in doc.sections}
    assert body[()] == "bikes\n\nIntro before any heading."   # the tags, on their own line
    assert body[("Tools",)] == "Hex keys and tyre levers."
    assert "# not a heading" in body[("Setext Heading", "Second level")]
    assert "Not a heading either\n---" in body[("Setext Heading", "Second level")]
    assert "title:" not in doc.text and "tags:" not in doc.text
    assert "Tools" not in body[("Tools",)]      # heading lines are carried, not repeated


def test_first_h1_is_title_without_front_matter():
    doc = read_document(b"Some intro\n\n# Real Title\n\ntext\n\n# Another\n\nmore", "x.md")
    assert doc.title == "Real Title"


def test_setext_h1_is_title():
    doc = read_document("Hand Book\n=========\n\ntext".encode(), "x.md")
    assert doc.title == "Hand Book"


def test_file_stem_when_no_title():
    doc = read_document(b"## Only second level\n\ntext", "plans.markdown")
    assert doc.title == "plans"
    assert doc.format == "md"


def test_a_page_opening_with_the_heading_all_others_sit_under_is_titled_by_it():
    # An mdBook section file: one second-level heading, then third-level ones only.
    page = (b"## Storing Lists of Values\n\nA list grows.\n\n### Making One\n\nCall new.\n\n"
            b"### Reading Items\n\nIndex it.\n")
    doc = read_document(page, "ch08-01-vectors.md")
    assert doc.title == "Storing Lists of Values"
    assert doc.sections[1].heading == ("Storing Lists of Values", "Making One")


@pytest.mark.parametrize("page", [
    b"## Encryption\n\nKeys.\n\n## Plans\n\nPrices.\n",                      # two outermost
    b"Intro first.\n\n## Usage\n\nRun it.\n\n### Flags\n\nNone.\n",         # text before it
    b"### Colour scheme\n\nDark.\n\n### Themes\n\nMany.\n",                   # siblings
])
def test_a_page_with_no_one_outermost_heading_keeps_its_files_name(page):
    assert read_document(page, "Security and privacy.md").title == "Security and privacy"


def test_thematic_break_after_blank_line_is_not_a_heading():
    doc = read_document(b"para one\n\n---\n\npara two", "x.md")
    assert [s.heading for s in doc.sections] == [()]
    # the break's line is kept as a blank line, so line numbers stay the file's
    assert doc.text == "para one\n\n\n\npara two"
    assert doc.sections[0].first_line == 1


def test_a_bold_question_alone_on_its_line_heads_its_answer():
    """Markdown FAQs head each answer with its question in bold (Go's telemetry page):
    the answer is then cited by its question, one level under the heading before it."""
    doc = read_document(b"# Tool\n\nIntro.\n\n## FAQ\n\n**Q: Where is `data` stored?**\n\n"
                        b"A: In the config directory.\n\n__Can I turn it off?__\n\nYes.\n\n"
                        b"**Wait**, is this **a question?**\n\n**A bold question?**\nwith a line after.\n"
                        b"\n    **in code?**\n", "faq.md")
    sections = {s.heading: s.text for s in doc.sections}
    assert sections[("Tool", "FAQ", "Q: Where is data stored?")] == "A: In the config directory."
    assert sections[("Tool", "FAQ", "Can I turn it off?")].startswith("Yes.\n\n**Wait**, is this")
    assert "**A bold question?**\nwith a line after." in sections[("Tool", "FAQ", "Can I turn it off?")]
    assert len(sections) == 3


def test_list_item_before_dashes_is_not_setext():
    doc = read_document(b"- item\n---\nafter", "x.md")
    assert all(s.heading == () for s in doc.sections)


def test_unclosed_front_matter_is_text():
    doc = read_document(b"---\ntitle: nope\nno closing fence", "x.md")
    assert doc.title == "x"
    assert "title: nope" in doc.text


def test_heading_only_document_keeps_its_words():
    doc = read_document(b"# Lonely heading\n", "x.md")
    assert doc.sections[0].heading == ("Lonely heading",)
    assert "Lonely heading" in doc.text


def test_hash_without_space_is_text():
    doc = read_document(b"#hashtag is not a heading", "x.md")
    assert doc.sections[0].heading == ()


def test_utf16_markdown_with_bom():
    data = codecs.BOM_UTF16_LE + "# Überschrift\n\nGrüße".encode("utf-16-le")
    doc = read_document(data, "de.md")
    assert doc.title == "Überschrift"
    assert doc.text == "Grüße"


@pytest.mark.parametrize("codec", ["utf-16-le", "utf-16-be"])
def test_utf16_without_a_bom_is_read_as_text(codec):
    doc = read_document("Notes written by an old Windows editor, no BOM. Grüße.".encode(codec), "n.txt")
    assert doc.text == "Notes written by an old Windows editor, no BOM. Grüße."


@pytest.mark.parametrize("name", ["notes.md", "notes.txt"])
def test_sections_keep_the_file_lines(name):
    source = ("---\ntitle: T\n---\n\n# Intro\n\nfirst para\nstill first\n\n\n\nsecond para\n"
              "## Deeper\n```\ncode line\n\n\ncode after gap\n```\n\nlast words\n")
    doc = read_document(source.encode(), name)
    lines = source.split("\n")
    for section in doc.sections:
        assert section.first_line is not None
        for k, text_line in enumerate(section.text.split("\n")):
            if text_line.strip():
                assert lines[section.first_line - 1 + k].strip() == text_line.strip(), (section, k)


DOCS_PAGE = """\
---
title: Install from a folder
tags: [pip, local]
---
(local-installs)=
# Local installs

Read the [packaging guide](https://example.org/guide "Guide") or the [glossary] first.
![A diagram](img/flow.png) shows the steps; see {ref}`editable mode <editable-installs>`
and {doc}`topics/caching`. Keep `[not](a link)` and `` {ref}`x` `` in code as typed.

[glossary]: https://example.org/glossary

<p align="center"><img src="logo.png" alt="logo"><b>Bold words</b></p>
<!-- a note to editors,
     over two lines -->
```{note} Mind the cache
:class: dropdown

Old wheels stay in the cache.
```

```{toctree}
:maxdepth: 2

topics/caching
```

!!! warning "Slow networks"
    Raise the timeout.

| Option | Meaning |
|--------|:-------:|
| `-e`   | editable |

```python
print("[kept](as typed)")  # {ref}`kept`
```
"""


def test_markdown_docs_markup_is_read_as_words():
    doc = read_document(DOCS_PAGE.encode(), "local.md")
    assert doc.title == "Install from a folder"
    assert [(s.heading, s.text) for s in doc.sections][0] == ((), "pip, local")   # its tags
    assert [s.heading for s in doc.sections][1:] == [("Local installs",)]
    text = doc.text
    assert "Read the packaging guide or the glossary first." in text
    assert "A diagram shows the steps; see editable mode\nand topics/caching." in text
    assert "`[not](a link)` and `` {ref}`x` `` in code" in text
    assert "Bold words" in text and "<p" not in text and "logo.png" not in text
    assert "editors" not in text and "https://example.org" not in text
    assert "(local-installs)=" not in text and "tags:" not in text
    assert "Mind the cache" in text and "Old wheels stay in the cache." in text
    assert ":class:" not in text and "maxdepth" not in text and "topics/caching\n" not in text
    assert "Slow networks" in text and "!!!" not in text and "Raise the timeout." in text
    assert "| Option | Meaning |\n|--------|:-------:|\n| `-e`   | editable |" in text
    assert 'print("[kept](as typed)")  # {ref}`kept`' in text


def test_markdown_lines_stay_in_place_when_markup_is_hidden():
    src = "# Title\n\nfirst [a](b)\n[ref]: https://x.org\nsecond line\n"
    doc = read_document(src.encode(), "x.md")
    sec = doc.sections[0]
    lines = src.split("\n")
    for k, line in enumerate(sec.text.split("\n")):
        if line:
            assert lines[sec.first_line - 1 + k].startswith(line.split()[0]), (k, line)
    assert "second line" in sec.text and "first a" in sec.text


def test_html_heading_in_a_readme_is_a_heading_and_the_title():
    src = '<h1 align="center">Widget</h1>\n\n<p align="center">A <a href="https://x.org">tiny</a> tool.</p>\n'
    doc = read_document(src.encode(), "README.md")
    assert doc.title == "Widget"
    assert doc.sections[0].heading == ("Widget",)
    assert doc.text.strip() == "A tiny tool."


def test_mkdocs_tabs_and_heading_attributes():
    src = '## Setup {#setup .wide}\n\n=== "Linux"\n\n    Use the package manager.\n\n=== "macOS"\n\n    Use brew.\n'
    doc = read_document(src.encode(), "setup.md")
    assert doc.sections[0].heading == ("Setup",)
    assert "Linux" in doc.text and "macOS" in doc.text and "===" not in doc.text
    assert "Use the package manager." in doc.text and "Use brew." in doc.text


# A tutorial page in the style of FastAPI's documentation (written for this test):
# PyMdown blocks, code includes on their own lines, definitions in <dfn>, a bot's link.
PYMDOWN_PAGE = """\
# Upload files

You can receive <dfn title='sometimes called "multipart", or "form data"'>uploaded files</dfn>.

{* ../../docs_src/request_files/tutorial001.py hl[3] *}

/// note | Technical Details

Files arrive as form data, not JSON.

///

/// tip

    {!> ../../docs_src/request_files/tutorial002.py!}

Read [@helper[bot]](https://example.org/apps/helper) for more.
///

{% include "footer.md" %}
{{#include ../listings/upload.rs:2:10}}
--8<-- "includes/abbreviations.md"

```rust
{{#rustdoc_include ../listings/upload.rs:all}}
let kept = "code";
```
Done.
"""


def test_pymdown_blocks_includes_and_definitions_are_read_as_words():
    doc = read_document(PYMDOWN_PAGE.encode(), "request-files.md")
    text = doc.text
    assert 'You can receive uploaded files (sometimes called "multipart", or "form data").' in text
    assert "Technical Details" in text and "Files arrive as form data, not JSON." in text
    assert "Read @helper[bot] for more." in text and "Done." in text
    assert 'let kept = "code";' in text
    for junk in ("///", "{*", "docs_src", "<dfn", "{%", "footer.md", "{{#", "listings", "--8<--", "abbreviations", "note |", "\ntip"):
        assert junk not in text, junk
    first = {s.text.split("\n")[0]: s.first_line for s in doc.sections}
    assert first['You can receive uploaded files (sometimes called "multipart", or "form data").'] == 3


# A Docusaurus page (written for this test): MDX imports, components, comments, admonitions.
MDX_PAGE = """\
---
title: Deploy to the cloud
---

import Tabs from '@theme/Tabs';
import TabItem from '@theme/TabItem';
export const minimum = "1.2";

## Install the CLI

Pick your system. {/* editors: keep this short */}

<Tabs>
<TabItem value="mac" label="macOS">
Use the package manager.
</TabItem>
</Tabs>

<DocCardList
    items={[{ type: "link", label: "AWS" }]}
/>

:::tip[Before you start]
Log in to your account first.
:::

:::warning Costs
Cloud resources cost money.
:::

Then import your project.
"""


def test_mdx_pages_are_markdown_without_imports_components_and_comments(tmp_path):
    path = tmp_path / "deploy.mdx"
    path.write_text(MDX_PAGE, encoding="utf-8")
    doc = extract(path)
    assert doc.format == "md" and doc.title == "Deploy to the cloud"
    assert [s.heading for s in doc.sections] == [("Install the CLI",)]
    text = doc.text
    for words in ("Pick your system.", "macOS\nUse the package manager.", "Before you start",
                  "Log in to your account first.", "Costs\n\nCloud resources cost money.",
                  "Then import your project."):
        assert words in text, words
    for junk in ("import Tabs", "@theme", "export const", "editors", "<Tab", "DocCardList",
                 "items=", ":::", "[Before"):
        assert junk not in text, junk
    first = {s.text.split("\n")[0]: s.first_line for s in doc.sections}
    assert first["Pick your system."] == 11


# A Hugo documentation page (written for this test, in the style of Hugo's and
# Kubernetes' docs): shortcodes around and inside the text, a GitHub alert.
HUGO_PAGE = """\
---
title: Menus
---

{{< new-in 0.139.0 />}}

To add a page to the "main" menu:

{{< code-toggle file=content/about.md fm=true >}}
title = 'About'
menus = 'main'
{{< /code-toggle >}}

> [!NOTE]
> Each {{< glossary_tooltip text="Pod" term_id="pod" >}} gets its own menu {{% param "entry" %}}.

{{% include "/_common/menu-entries.md" %}}

{{< img
  src="images/examples/zion-national-park.jpg"
  filter="Process"
>}}

Menus render in order of weight.
{class="!mt-6" id=weights}

```go-html-template
{{ range site.Menus.main }}{{< not-a-tag-in-code >}}{{ end }}
```
"""


def test_hugo_shortcodes_and_github_alerts_are_read_as_words():
    doc = read_document(HUGO_PAGE.encode(), "menus.md")
    text = doc.text
    assert doc.title == "Menus"
    for words in ('To add a page to the "main" menu:', "title = 'About'\nmenus = 'main'",
                  "> Note\n> Each Pod gets its own menu .",
                  "{{ range site.Menus.main }}{{< not-a-tag-in-code >}}{{ end }}"):
        assert words in text, words
    assert "Menus render in order of weight." in text
    for junk in ("new-in", "code-toggle", "glossary_tooltip", "[!NOTE]", "{{%", "_common", "param",
                 "zion", "Process", "filter=", "mt-6", "weights"):
        assert junk not in text, junk
    first = {s.text.split("\n")[0]: s.first_line for s in doc.sections}
    assert first['To add a page to the "main" menu:'] == 7


# A Jekyll documentation page (written for this test, in the style of Jekyll's own
# docs): Liquid tags inside headings and lines, links whose address Liquid computes.
JEKYLL_PAGE = """\
---
title: Collections
---

## Custom Sorting of Documents {%- include docs_version_badge.html version="4.0" -%}

There are special [permalink variables for collections]({{ '/docs/permalinks/#collections' | relative_url }}) to
help you, and a [link to a document]({% link _collection/name-of-document.md %}).

Since version {% include docs_version_badge.html version="3.2"%}, use
<code>{% raw %}{% include file.ext %}{% endraw %}</code> in a layout.

{% raw %}
```liquid
{% for member in site.staff %}{{ member.name }}{% endfor %}
```
{% endraw %}
"""


def test_liquid_tags_are_not_shown_and_their_raw_pairs_show_what_they_hold():
    doc = read_document(JEKYLL_PAGE.encode(), "collections.md")
    assert [s.heading for s in doc.sections] == [("Custom Sorting of Documents",)]
    text = doc.text
    for words in ("There are special permalink variables for collections to",
                  "help you, and a link to a document.", "Since version , use",
                  "{% include file.ext %} in a layout.",
                  "{% for member in site.staff %}{{ member.name }}{% endfor %}"):
        assert words in text, words
    for junk in ("docs_version_badge", "relative_url", "name-of-document", "{% raw", "endraw"):
        assert junk not in text, junk


def test_shortcode_openers_without_closers_hide_no_more_than_their_paragraph():
    line = "{{< a " * 3000
    doc = read_document(("# T\n\n" + line + "\nstill hidden\n\nNext paragraph.\n"
                         + "Text {{< a " * 3000 + "\n").encode(), "many.md")
    assert "Next paragraph.\nText {{< a" in doc.text and "still hidden" not in doc.text


def test_code_spans_in_headings_read_without_backquotes():
    # As TypeScript's handbook heads its sections; the text keeps its code spans.
    page = ("# Narrowing\n\n## `typeof` type guards\n\nUse `typeof x` here.\n\n"
            "### Other Types: ``a `b` c``\n\nMore.\n")
    doc = read_document(page.encode(), "Narrowing.md")
    assert [s.heading for s in doc.sections] == [
        ("Narrowing", "typeof type guards"), ("Narrowing", "typeof type guards", "Other Types: a `b` c")]
    assert "Use `typeof x` here." in doc.text


def test_a_page_of_front_matter_only_is_read_as_its_description():
    # A Hugo section's landing page, and a page whose body is one include.
    landing = "---\ntitle: Cast functions\nlinkTitle: cast\ndescription: Use these functions to cast a value.\n---\n"
    doc = read_document(landing.encode(), "_index.md")
    assert (doc.title, [(s.text, s.first_line) for s in doc.sections]) == (
        "Cast functions", [("Use these functions to cast a value.", 4)])
    include = "+++\ntitle = 'Next'\ndescription = \"Returns the next page.\"\n+++\n\n{{% include \"/_common/next.md\" %}}\n"
    assert read_document(include.encode(), "Next.md").text == "Returns the next page."
    # A block scalar, as Redis's documentation writes its landing pages' descriptions.
    folded = ("---\ntitle: \"Interact with data\"\nweight: 40\n\ndescription: >\n"
              "    How to interact with data,\n    including pub/sub.\n---\n")
    doc = read_document(folded.encode(), "_index.md")
    assert [(s.text, s.first_line) for s in doc.sections] == [
        ("How to interact with data, including pub/sub.", 6)]
    literal = "---\ntitle: T\ndescription: |-\n  line one\n  line two\nweight: 3\n---\n"
    assert read_document(literal.encode(), "l.md").text == "line one\nline two"
    with pytest.raises(SkipFile):
        read_document(b"---\ntitle: T\ndescription: >-\nweight: 3\n---\n", "f.md")


def test_front_matter_names_summary_and_tags_are_read_before_the_body():
    # As an Obsidian note keeps its other names (one of them a moved note's old place),
    # and a Hugo page its description and a web path that is no name (written for this test).
    note = ("---\naliases:\n  - Doggo\n  - How to/Pet names\ncssclasses:\n  - soft-embed\n"
            "tags: [pets, \"#dogs\"]\n---\nA note about the dog.\n")
    doc = read_document(note.encode(), "Rex.md")
    assert doc.title == "Rex"
    assert [(s.text, s.first_line) for s in doc.sections] == [
        ("Doggo, Pet names\n\n\n\n\npets, dogs\n\nA note about the dog.", 2)]
    page = ("+++\ntitle = 'Privacy'\ndescription = \"Help your site comply with privacy laws.\"\n"
            "aliases = ['/about/privacy/']\n+++\n\n## Responsibility\n\nYours.\n")
    doc = read_document(page.encode(), "privacy.md")
    assert [(s.heading, s.text) for s in doc.sections] == [
        ((), "Help your site comply with privacy laws."), (("Responsibility",), "Yours.")]


def test_a_summary_the_opening_already_says_is_not_read_twice():
    said = ("---\ndescription: Learn how to format your notes in Rex, using Markdown.\n---\n"
            "Learn how to format your notes, using [Markdown](https://example.org/md).\n")
    assert read_document(said.encode(), "Format.md").text == "Learn how to format your notes, using Markdown."
    unsaid = "---\ntitle: T\ndescription: What the body never says.\n---\n\nThe body.\n"
    assert read_document(unsaid.encode(), "t.md").text == "What the body never says.\n\n\nThe body."


def test_twoslash_compiler_lines_are_hidden_in_twoslash_blocks_only():
    # As TypeScript's handbook writes its examples (written for this test).
    page = ("# Narrowing\n\n```ts twoslash\n// @errors: 2345\n// @filename: a.ts\ndeclare const x: string;\n"
            "// ---cut---\nlet n = x.length;\n//  ^?\n```\n\n```ts\n// @errors: kept in a plain block\n```\n")
    doc = read_document(page.encode(), "Narrowing.md")
    text = doc.text
    assert "declare const x: string;" in text and "let n = x.length;" in text
    assert "// @errors: kept in a plain block" in text
    for junk in ("2345", "@filename", "---cut---", "^?"):
        assert junk not in text, junk
    first = {s.text.split("\n")[0]: s.first_line for s in doc.sections}
    assert first["declare const x: string;"] == 6


def test_a_shortcode_over_lines_shows_its_caption():
    page = ("# Parks\n\nBefore.\n\n{{< figure\n  src=\"images/zion.jpg\"\n  caption=\"Zion National Park\"\n"
            ">}}\n\nAfter.\n")
    doc = read_document(page.encode(), "parks.md")
    assert "Zion National Park" in doc.text and "After." in doc.text
    assert "zion.jpg" not in doc.text and "figure" not in doc.text


# A VitePress page (written for this test, in the style of Vue's and Go's docs):
# escapes and entities in the text, a script and a style block for a live example,
# an example's own <h1>, a site's `\*\*` badge after a heading.
VITEPRESS_PAGE = r"""# Conditional Rendering {#conditional}

<script setup>
import { ref } from 'vue'
const awesome = ref(true)
</script>

## `v-else` \*\* {#v-else}

Goroutines multiplex functions&mdash;coroutines&mdash;onto threads&nbsp;&amp; more.
Tests live in \*\_test.go files; this is the same problem as \#1.\
Keep `a\*b &amp; c` as typed.

<div class="demo">
  <button @click="awesome = !awesome">Toggle</button>
  <h1 v-if="awesome">Vue is awesome!</h1>
  <h1 v-else>Oh no</h1>
</div>

<style>
.demo { color: red; }
</style>

## `v-show`

Shown with display.

    escaped = "a\*b" + "&amp;"

```js
const s = "\#not unescaped &amp;"
```
"""


def test_markdown_escapes_entities_and_page_scripts_read_as_the_page_shows_them():
    doc = read_document(VITEPRESS_PAGE.encode(), "conditional.md")
    assert doc.title == "Conditional Rendering"
    assert [s.heading for s in doc.sections] == [
        ("Conditional Rendering", "v-else"), ("Conditional Rendering", "v-show")]
    text = doc.text
    for words in ("functions—coroutines—onto threads & more.",
                  "Tests live in *_test.go files; this is the same problem as #1.\n",
                  "Keep `a\\*b &amp; c` as typed.", "Toggle", "Vue is awesome!", "Oh no",
                  'escaped = "a\\*b" + "&amp;"', 'const s = "\\#not unescaped &amp;"'):
        assert words in text, words
    for junk in ("&mdash;", "\\#1", "#1.\\", "import", "const awesome", "<script", ".demo {", "</style>"):
        assert junk not in text, junk
    first = {s.text.split("\n")[0]: s.first_line for s in doc.sections}
    assert first["Goroutines multiplex functions—coroutines—onto threads & more."] == 10


def test_a_script_block_that_never_closes_hides_the_rest_and_a_one_line_script_only_itself():
    doc = read_document(b"# T\n\nbefore\n\n<script>let a = 1</script>\n\nafter\n\n"
                        b"<script>track()</script> Then read the manual.\n\n<style>\nx {}\n", "s.md")
    assert "before" in doc.text and "after" in doc.text and "Then read the manual." in doc.text
    assert "let a" not in doc.text and "x {}" not in doc.text and "track" not in doc.text


def test_lines_of_template_actions_are_hidden_outside_code():
    src = ('# Generics\n\nIntro words.\n\n{{image "intro-generics/fig1.png"}}\n'
           '{{code "/doc/progs/go1.go" `/STOP/`}}\n\n{{raw `\n\tfunc GMin[T any](x, y T) T\n`}}\n\n'
           "The {{ site.title }} stays, as does a line with words.\n\n```\n{{ item }}\n```\n")
    doc = read_document(src.encode(), "generics.md")
    text = doc.text
    assert "Intro words." in text and "func GMin[T any](x, y T) T" in text
    assert "The {{ site.title }} stays" in text and "{{ item }}" in text
    for junk in ("{{image", "fig1", "{{code", "/STOP/", "{{raw", "`}}"):
        assert junk not in text, junk


def test_a_link_whose_words_run_over_lines_reads_as_its_words():
    src = ("# News\n\nWe celebrated the anniversary of [the Go open source\n"
           "release](https://opensource.googleblog.com/2009/11/hey-ho-lets-go.html) and [the `map`\n"
           "type](/blog/maps) and\n"
           "a ![diagram of the\ncycle](gc/fig1.png \"GC\") too.\n\n```\n[kept\nas typed](x)\n```\n")
    doc = read_document(src.encode(), "news.md")
    text = doc.text
    assert "the anniversary of the Go open source\nrelease and the `map`\ntype and\na diagram of the\ncycle too." in text
    assert "[kept\nas typed](x)" in text
    assert "googleblog" not in text and "fig1" not in text and "/blog/maps" not in text
    assert doc.sections[0].first_line == 3


def test_a_link_whose_line_break_is_inside_a_code_span_reads_as_its_words():
    # npm's docs: "See [`npm\nfund`](/commands/npm-fund)"; Rust's release notes wrap
    # a code span inside a reference link's words the same way.
    src = ("# Config\n\nSee [`npm\nfund`](/commands/npm-fund) for details, and\n"
           "[`Extend<&T>` where `T:\n  Copy`][ext] too.\nKept: `[a](b)`, `[c][ext]`.\n\n"
           "[ext]: https://example.org/pull/28094\n")
    text = read_document(src.encode(), "config.md").text
    assert "See `npm\nfund` for details, and\n`Extend<&T>` where `T:\n  Copy` too.\n" in text
    assert "Kept: `[a](b)`, `[c][ext]`." in text
    assert "/commands/npm-fund" not in text and "28094" not in text


# A page written the way Node.js's API docs are: version history in YAML comments,
# a stability note, `type=` comments, headings that are code, and reference links
# (some of whose words wrap onto the next line) defined at the end of the page.
NODE_STYLE_PAGE = """# Timers

<!--introduced_in=v0.10.0-->

> Stability: 2 - Stable

<!-- source_link=lib/timers.js -->

The `timer` functions are global, see [`setImmediate()`][] and the
[scheduling of
callbacks][event loop] guide; a [`Timeout`
object][] is returned, as the [Cyclic Module
Record] explains. An [undefined
label][nowhere] stays as typed.

## `setImmediate(callback[, ...args])`

<!-- YAML
added: v0.9.1
changes:
  - version: v18.0.0
    pr-url: https://github.com/nodejs/node/pull/41678
    description: Passing an invalid callback now throws.
-->

<!-- type=global -->

* `callback` {Function} The function to call at the end of this turn of
  the [Node.js Event Loop][event loop].

[`Timeout` object]: #class-timeout
[`setImmediate()`]: #setimmediatecallback-args
[Cyclic Module Record]: https://tc39.es/ecma262/#sec-cyclic-module-records
[event loop]: https://nodejs.org/en/docs/guides/event-loop-timers-and-nexttick
"""


def test_a_node_style_page_reads_as_its_shown_words():
    doc = read_document(NODE_STYLE_PAGE.encode(), "timers.md")
    assert doc.title == "Timers"
    assert [s.heading for s in doc.sections] == [("Timers",), ("Timers", "setImmediate(callback[, ...args])")]
    intro, entry = doc.sections[0].text, doc.sections[1].text
    assert "see `setImmediate()` and the\nscheduling of\ncallbacks guide; a `Timeout`\nobject is returned" in intro
    assert "as the Cyclic Module\nRecord explains." in intro
    assert "An [undefined\nlabel][nowhere] stays as typed." in intro
    assert "the Node.js Event Loop." in entry
    text = doc.text
    for junk in ("introduced_in", "source_link", "pr-url", "added: v0.9.1", "type=global",
                 "#class-timeout", "tc39", "nodejs.org", "event loop]"):
        assert junk not in text, junk
    assert doc.sections[1].first_line == 28   # the first line of text, after the hidden YAML


@pytest.mark.parametrize("line, title", [
    ('title: "Two Go Talks: \\"Lexical Scanning in Go\\" and more"', 'Two Go Talks: "Lexical Scanning in Go" and more'),
    ("title: 'It''s a title'", "It's a title"),
    ('title: "C:\\\\Users"', "C:\\Users"),
])
def test_front_matter_titles_read_as_yaml_quotes_them(line, title):
    doc = read_document(f"---\n{line}\n---\n\nBody words.\n".encode(), "talk.md")
    assert doc.title == title


@pytest.mark.parametrize("text, title", [
    ("Red lentil soup\n\nFry the onion, add the lentils and stock.\n", "Red lentil soup"),
    ("\ufeff\n  Trip to Porto, May  \r\n\r\nFly out on Tuesday.\n", "Trip to Porto, May"),
    ("What to pack?\n\nSocks, a jumper.\n", "What to pack?"),
    ("Dear Sam,\n\nThanks for the tea.\n", "notes"),                 # a letter's greeting
    ("The bus was late again.\n\nSo I walked.\n", "notes"),          # a sentence
    ("Shopping list\n", "notes"),                                    # nothing after it
    ("milk\neggs\n\nbread\n", "notes"),                              # a paragraph of lines
    ("pkg (1.2-1) unstable; urgency=low\n\n  * New release.\n", "notes"),   # a record
    ("https://example.org/recipe\n\nTo try.\n", "notes"),
    ("- buy milk\n\n- call mum\n", "notes"),
])
def test_a_notes_first_line_standing_alone_is_its_title(text, title):
    assert read_document(text.encode("utf-8"), "notes.txt").title == title


def test_a_reference_link_whose_label_runs_over_lines_reads_as_its_words():
    src = ("# T\n\nSee the [guide][event\nloop] and the [other][no\nsuch] one.\n\n"
           "[event loop]: https://example.org/event-loop\n")
    text = read_document(src.encode(), "t.md").text
    assert "See the guide and the [other][no\nsuch] one." in text
    assert "example.org" not in text


def test_a_fence_indented_under_a_list_item_is_code():
    # As Redis's install guide writes its steps (written for this test).
    page = ("# Install\n\n* Create a directory:\n\n    ```\n    sudo mkdir /etc/redis\n"
            "        # deeper\n    ```\n\n* Edit the script.\n\n   ```bash\n   sudo vi /etc/init.d/redis\n"
            "   ```\n\n## Next\n\nDone.\n")
    doc = read_document(page.encode(), "install.md")
    assert [s.heading for s in doc.sections] == [("Install",), ("Install", "Next")]
    text = doc.sections[0].text
    assert "```" not in text
    assert "sudo mkdir /etc/redis\n    # deeper" in text and "sudo vi /etc/init.d/redis" in text
    # a fence's close deeper than its opening (by four columns or more) is code
    nested = "# A\n\n```\nouter\n    ```\nstill code\n```\n\n# B\n"
    assert "    ```\nstill code" in read_document(nested.encode(), "n.md").sections[0].text


def test_star_emphasis_in_a_heading_reads_as_its_words():
    # As Redis's docs head two sections (written for this test).
    page = ("# Profiling\n\n## potential **on-CPU performance** improvements\n\nx\n\n"
            "## Ok, but *why* nine characters?\n\ny\n\n## The `a *b* c` span, 2 * 3 * 4, __init__\n\nz\n")
    doc = read_document(page.encode(), "cpu.md")
    assert [s.heading[-1] for s in doc.sections] == [
        "potential on-CPU performance improvements", "Ok, but why nine characters?",
        "The a *b* c span, 2 * 3 * 4, __init__"]


VAULT_NOTE = """---
aliases:
  - Linking
tags: [howto]
---
# Links between notes

Link to a heading with [[Internal links#Link to a heading|anchor links]], or to
[[Internal links#Headings#Deeper]] and [[#Aliases]] in this note. ^b15695
Whole notes: [[Daily notes]], [[Plugins/Graph view.md]], a block [[Embed files#^a1b2c3]].

![[Internal links]]
![[Engelbart.jpg|100x145]] ![[diagram.png]] ![[scan.pdf#page=3]]

> [!tip]- Folded by default
> Add a minus after the type to fold the callout.

> [!warning]
> Keep a backup. %%not shown on the page%%

^standalone-id
Keep `[[as typed]]` and `%%as typed%%` in code. Stop it with ^C
%%
A comment over lines,
hidden too.
%%
Last words.
"""


def test_obsidian_links_embeds_callouts_and_block_ids_read_as_the_page_shows_them():
    doc = read_document(VAULT_NOTE.encode(), "Links.md")
    assert doc.sections[0].text == "Linking\n\nhowto"    # its other name and its tag
    text = doc.sections[1].text
    assert text.split("\n") == [
        "Link to a heading with anchor links, or to",
        "Internal links › Headings › Deeper and Aliases in this note.",
        "Whole notes: Daily notes, Plugins/Graph view, a block Embed files.",
        "",
        "Internal links",
        "",
        "",
        "> Folded by default",
        "> Add a minus after the type to fold the callout.",
        "",
        "> Warning",
        "> Keep a backup.",
        "",
        "",
        "Keep `[[as typed]]` and `%%as typed%%` in code. Stop it with ^C",   # a key, no block id
        "",
        "",
        "",
        "",
        "Last words.",
    ]


def test_search_shows_obsidian_wikilinks_as_their_words(open_ix, tmp_path):
    """Both stores: the passage shown carries the link's words, not its brackets."""
    folder = tmp_path / "vault"
    folder.mkdir()
    (folder / "Links.md").write_text(VAULT_NOTE, encoding="utf-8")
    ix = open_ix()
    ix.index(folder)
    hit = ix.search("anchor links heading", limit=1, passages=True).results[0]
    assert "Link to a heading with anchor links" in hit.passage_text
    shown = hit.passage_text.split("Keep `")[0]
    assert "[[" not in shown and "^b15695" not in shown and "%%" not in shown


# A plain-text FAQ in the way curl's and sed's are kept: a table of contents, then each
# part headed by its number on a line of its own (written for this test).
NUMBERED_FAQ = """Kiln FAQ

 1. Firing
  1.1 How hot is cone 6?
  1.2 Why did my glaze crawl?
 2. Loading

==============================================================

1. Firing

  1.1 How hot is cone 6?

  About 1220 degrees, held for ten minutes at the top.


  1.2 Why did my glaze crawl?

  Dust on the bisque keeps the glaze from wetting it. Steps that help:

  1. Wipe each pot with a damp sponge

  3. Let it dry overnight

2. Loading

  2.3 Where do the tallest pots go?

  Tallest pots go on the top shelf, nearest the lid.
"""


def test_a_numbered_plain_text_faq_has_its_parts_as_sections(open_ix, tmp_path):
    doc = read_document(NUMBERED_FAQ.encode(), "FAQ")
    assert [s.heading for s in doc.sections] == [
        (), ("1 Firing", "1.1 How hot is cone 6?"), ("1 Firing", "1.2 Why did my glaze crawl?"),
        ("2 Loading", "2.3 Where do the tallest pots go?")]
    crawl = doc.sections[2].text
    assert "1. Wipe each pot" in crawl and "3. Let it dry overnight" in crawl
    # a list of steps alone is not an outline
    steps = "Glazing\n\n1. Mix the glaze\n\n2. Dip the pot\n\n3. Fire it\n"
    assert [s.heading for s in read_document(steps.encode(), "steps.txt").sections] == [()]
    (tmp_path / "FAQ").write_text(NUMBERED_FAQ)
    ix = open_ix()
    ix.index(tmp_path)
    hits = ix.search("glaze crawl dust bisque", limit=1, passages=True).results
    assert hits and hits[0].section == ["1 Firing", "1.2 Why did my glaze crawl?"]


# -- a word list, one word a line (KeePassXC's diceware list, a spelling dictionary) -------
# Word stems of the shape of the EFF's long list that KeePassXC ships as
# `/usr/share/keepassxc/wordlists/eff_large.wordlist`: 7,776 lines, one lower-case word
# each, in alphabetical order; a diceware list puts the dice number first.
_STEMS = ("abacus abdomen abide ability ablaze able abnormal abrasion absently absolute "
          "acorn acquire acrobat activity actress adapter addicted affair agenda agony "
          "backer backfield backhand backlash backpack badge badland bagel baggage bakery "
          "cabbage cabin cable cactus cadet cage cake calcium calendar calf calm camera "
          "canal candle canister cannon canopy canteen canyon capable capital captive").split()
_ENDS = ("", "s", "ed", "ing", "er")


def _word_list(prefix: str = "", suffix: str = "") -> str:
    words = sorted(f"{stem}{end}" for stem in _STEMS for end in _ENDS)
    return "".join(f"{prefix}{word}{suffix}\n" for word in words)


def test_a_word_list_is_skipped_as_no_text_to_search(open_ix, tmp_path):
    for name, text in [
            ("eff_large.wordlist", _word_list()),                     # KeePassXC's list
            ("diceware.txt", "".join(f"{11111 + k}\t{line}\n"           # dice numbers first
                                     for k, line in enumerate(_word_list().splitlines()))),
            ("en_GB.dic", "250\n" + _word_list(suffix="/MS")),          # Hunspell: count, flags
            ("words", _word_list().replace("abacus\n", "O'Brien\nwell-known\n"))]:
        with pytest.raises(SkipFile, match="a word list"):
            read_document(text.encode(), name)
    # the count is of words, whether or not the file ends with a line end
    shortest = _word_list().splitlines()[:200]
    for text in ("\n".join(shortest), "\n".join(shortest) + "\n"):
        with pytest.raises(SkipFile, match="a word list"):
            read_document(text.encode(), "words")
        assert "cactus" in read_document(text.replace("abacus\n", "").encode(), "words").text
    # a long column of short lines that are not all single words is read: a packing list
    packing = "".join(f"{word} x{k % 3 + 1}\n" if k % 4 else f"{word}\n"
                      for k, word in enumerate(_word_list().splitlines()))
    assert "cactus" in read_document(packing.encode(), "packing.txt").text
    # … and so are a short list and a note in sentences
    assert "cactus" in read_document("".join(f"{stem}\n" for stem in _STEMS).encode(),
                                     "shopping.txt").text
    note = "".join(f"The {word} went into the store room on Monday.\n"
                   for word in _word_list().splitlines())
    assert "cactus" in read_document(note.encode(), "inventory.txt").text
    root = tmp_path / "share"
    (root / "wordlists").mkdir(parents=True)
    (root / "wordlists" / "eff_large.wordlist").write_text(_word_list())
    (root / "guide.txt").write_text("Water the cactus on the windowsill once a fortnight.\n")
    ix = open_ix()
    ix.index(root)
    assert [h.document["path"] for h in ix.search("how often should I water a cactus",
                                                   limit=5).results] == ["guide.txt"]


def _greek_words() -> list:
    return [f"{stem}{end}" for stem in ("λογ", "δρομ", "ανθρωπ", "ποταμ", "ουραν", "φιλ", "κηπ",
                                        "χρον")
            for end in ("ος", "ου", "ο", "ε", "οι", "ων", "οις", "ους", "ικος", "ικη", "ικο",
                        "ισμος", "ιστης", "ακι", "ιδιο", "αριο", "ωνας", "ιτης", "ουλα",
                        "ουλης", "ιας", "ιτσα", "ουδι", "ινος", "ινη", "ινο")]


def test_a_persons_own_list_of_single_words_is_read(open_ix, tmp_path):
    # A list of single words a person keeps is in the order it was written, not
    # alphabetical as a dictionary or a diceware list is: it is read, in any script,
    # with any line ends or encoding, and a word searched finds it.
    learnt = _word_list().splitlines()
    random.Random(7).shuffle(learnt)    # a vocabulary list, word by word as it was learnt
    greek = _greek_words()
    random.Random(7).shuffle(greek)
    lists = {
        "vocabulary.txt": "\n".join(learnt) + "\n",
        "λέξεις.txt": "\n".join(greek[:100] + ["Αθήνα"] + greek[100:]) + "\n",
        "guests.txt": "\n".join(word.capitalize() for word in learnt) + "\n",
        "todo.txt": "\r\n".join(learnt) + "\r\n",                            # Windows line ends
        "poem.txt": "\n\n".join(learnt) + "\n",                              # a blank line between
    }
    for name, text in lists.items():
        assert ("ποταμος" if name == "λέξεις.txt" else "cactus") in \
            read_document(text.encode(), name).text.lower(), name
    assert "cactus" in read_document(lists["vocabulary.txt"].encode("utf-16"), "names.txt").text
    root = tmp_path / "notes"
    root.mkdir()
    (root / "vocabulary.txt").write_text(lists["vocabulary.txt"])
    (root / "λέξεις.txt").write_text(lists["λέξεις.txt"])
    ix = open_ix()
    report = ix.index(root)
    assert not report.skipped
    assert [h.document["path"] for h in ix.search("canteen", limit=5).results] == \
        ["vocabulary.txt"]
    assert [h.document["path"] for h in ix.search("αθηνα", limit=5).results] == ["λέξεις.txt"]


def test_a_word_list_in_alphabetical_order_is_skipped_in_any_script_and_line_end():
    words = _word_list().splitlines()
    # a dictionary's order: case and accents folded (`Apfel`, `Äpfel`, `apfelbaum`) …
    german = "\n".join(sorted({w for s in words for w in (s, s.capitalize(), s.replace("a", "ä"))},
                              key=lambda w: (w.lower().replace("ä", "a"), w))) + "\n"
    greek = "\n".join(sorted(_greek_words())) + "\n"
    for name, data in [("de_DE.dic", german.encode()), ("el.dic", greek.encode()),
                       ("words.txt", "\r\n".join(words).encode() + b"\r\n"),
                       ("spaced.txt", "\n\n".join(words).encode() + b"\n"),
                       ("utf16.txt", ("\n".join(words) + "\n").encode("utf-16"))]:
        with pytest.raises(SkipFile, match="a word list in alphabetical order"):
            read_document(data, name)


# A plain-text FAQ as chrony's (Debian's /usr/share/doc/chrony/FAQ.gz) is laid out: HTML
# dumped as text at 79 columns, so a long question wraps onto a second line, and a
# program's output pasted in with its header row over a rule of `=` (written for this
# test; the columns are chronyc's).
DUMPED_FAQ = """Frequently Asked Questions

Table of Contents

  o 1. Setting up
      ? 1.1. How do I serve the time to my other machines?
      ? 1.2. Must I give the servers by address if the names cannot be looked up
        when the service starts?
  o 2. Not synchronising
      ? 2.1. Behind a firewall?

1. Setting up

1.1. How do I serve the time to my other machines?

Add an allow line with the subnet of the machines that may ask.

1.2. Must I give the servers by address if the names cannot be looked up when
the service starts?

No, the names are tried again at longer and longer intervals until they resolve.

2. Not synchronising

2.1. Behind a firewall?

When answers come back, the list of sources looks like this:

MS Name/IP address         Stratum Poll Reach LastRx Last sample
===============================================================================
^* foo.example.net               2   6   377    34   +484us[ -157us] +/-   30ms

and the statistics like this:

Name/IP Address            NP  NR  Span  Frequency  Freq Skew  Offset  Std Dev
==============================================================================
foo.example.net             7   3   200     -2.991     16.141   -107us   492us

If nothing comes back, open the port on the firewall.
"""


def test_a_dumped_faq_with_pasted_tables_and_wrapped_questions_has_its_parts_as_sections():
    doc = read_document(DUMPED_FAQ.encode(), "FAQ")
    # the two table headers over their rules are no titles: not reStructuredText
    assert doc.title == "Frequently Asked Questions"
    assert [s.heading for s in doc.sections] == [
        (), ("1 Setting up", "1.1 How do I serve the time to my other machines?"),
        ("1 Setting up", "1.2 Must I give the servers by address if the names cannot be "
                         "looked up when the service starts?"),
        ("2 Not synchronising", "2.1 Behind a firewall?")]
    assert doc.sections[2].text.startswith("No, the names are tried again")
    firewall = doc.sections[3].text
    assert "MS Name/IP address         Stratum" in firewall and "open the port" in firewall


@pytest.mark.parametrize("para", [
    # a sentence, not a heading: it ends as one does
    "1.2. The names are tried again at longer and longer intervals until they\nresolve.",
    # a short first line was not cut for its width
    "1.2. Names\nare tried again",
    # three lines are a paragraph
    "1.2. Must I give the servers by address if the names cannot be looked up\n"
    "when the service starts, or when the network comes up later, or when the\nresolver is down?",
])
def test_a_numbered_paragraph_of_lines_that_is_no_wrapped_heading_stays_text(para):
    text = DUMPED_FAQ.replace(
        "1.2. Must I give the servers by address if the names cannot be looked up when\n"
        "the service starts?", para)
    headings = [s.heading[-1:] for s in read_document(text.encode(), "FAQ").sections]
    assert all(not h or not h[0].startswith("1.2") for h in headings)
    assert ("2.1 Behind a firewall?",) in headings


# A note of a vault in the style of Obsidian's help (written for this test): no H1, front
# matter without a title, and the six heading levels shown as HTML after a Markdown
# heading, one line each, so that the outline is not cluttered with them.
HEADING_LEVELS_NOTE = """---
aliases:
  - Formatting
---

How to format a note.

## Headings

```md
# Heading 1
```

%% HTML keeps these out of the outline %%
<h1>Heading one shown</h1>
<h2>Heading two shown</h2>
<h3>Heading three shown</h3>

## Bold

Use two stars.
"""


def test_html_headings_shown_as_an_example_are_text_and_the_file_name_the_title():
    doc = read_document(HEADING_LEVELS_NOTE.encode(), "Vault/Formatting syntax.md")
    assert doc.title == "Formatting syntax"
    assert [s.heading for s in doc.sections] == [(), ("Headings",), ("Bold",)]
    headings = doc.sections[1].text
    for words in ("Heading one shown", "Heading two shown", "Heading three shown"):
        assert words in headings and "<h" not in headings


# A Jekyll page in the style of its own docs (written for this test): a note box, an HTML
# block whose caption is an <h5>, between paragraphs; later a heading alone on its line.
NOTE_BOX_PAGE = """---
layout: docs
---

Layouts wrap the content.

<div class="note">
  <h5>Where layouts live</h5>
  <p>In the layouts folder.</p>
</div>

Text after the note.

<h2>Using a layout</h2>

Name it in front matter.
"""


def test_an_html_heading_in_a_note_box_is_its_caption_and_one_alone_heads_a_section():
    doc = read_document(NOTE_BOX_PAGE.encode(), "layouts.md")
    assert doc.title == "layouts"
    assert [s.heading for s in doc.sections] == [(), ("Using a layout",)]
    first = doc.sections[0].text
    assert "Where layouts live" in first and "Text after the note." in first
    assert doc.sections[1].text == "Name it in front matter."


def test_a_readme_banner_in_a_div_still_gives_the_title_and_its_tagline_is_text():
    src = ('<div align="center">\n  <h1>Widget</h1>\n  <h4>A tiny tool</h4>\n</div>\n\n'
           '## Install\n\nRun make.\n')
    doc = read_document(src.encode(), "README.md")
    assert doc.title == "Widget"
    assert [s.heading for s in doc.sections] == [("Widget",), ("Widget", "Install")]
    assert "A tiny tool" in doc.sections[0].text


# A page in the style of MkDocs Material's docs (written for this test): icon shortcodes
# and attribute lists after a link or an icon; in code they stay as typed.
ICONS_PAGE = """# Publishing

:octicons-file-code-16: `mkdocs.yml`

- :simple-netlify: Netlify
- :material-airballoon-outline:{ .lg .middle } Fly.io

[Get started](#){ .md-button .md-button--primary }

At 10:30-11:00: a meeting, see :ref: and `:material-check:`.

```yaml
icon: :material-check:{ .green }
```
"""


def test_mkdocs_icon_shortcodes_and_inline_attribute_lists_are_not_text():
    doc = read_document(ICONS_PAGE.encode(), "publishing.md")
    text = doc.text
    for words in ("`mkdocs.yml`", "- Netlify", "Fly.io", "Get started",
                  "At 10:30-11:00: a meeting, see :ref: and `:material-check:`.",
                  "icon: :material-check:{ .green }"):
        assert words in text, words
    for junk in (":octicons", ":simple-netlify:", "airballoon", ".md-button", "{ .lg"):
        assert junk not in text.replace("icon: :material-check:{ .green }", ""), junk


def test_a_math_subscript_is_no_attribute_list():
    doc = read_document(b"# M\n\n$$\\sum_{c=1}^{M} x_c$$ and [a](b){.x}\n", "m.md")
    assert "\\sum_{c=1}^{M} x_c" in doc.text and "{.x}" not in doc.text


# Footnotes as GitHub, Obsidian, MkDocs and mdBook write them (written for this test).
FOOTNOTES_PAGE = """# Hashing

The map uses SipHash[^siphash] by default.[^1] A class `[^a-z]` and [^x-y] stay.

!!! note "Speed"

    Faster hashers exist.[^1]

[^siphash]: A keyed hash function.
[^1]: See the docs.
"""


def test_footnote_references_and_labels_are_not_text_but_the_notes_are():
    doc = read_document(FOOTNOTES_PAGE.encode(), "hashing.md")
    text = doc.text
    for words in ("The map uses SipHash by default. A class `[^a-z]` and [^x-y] stay.",
                  "Faster hashers exist.", "A keyed hash function.", "See the docs."):
        assert words in text, words
    assert "[^1]" not in text and "[^siphash]" not in text


# A page in the style of MkDocs Material's docs (written for this test): an admonition
# and content tabs nested in another's body, cards whose rule is indented in a list item,
# an icon inside emphasis.
NESTED_PAGE = """# Setup

!!! tip "Editor support"

    Set up your editor:

    === "Visual Studio Code"

        Install the YAML extension.

    === "Other"

        Use any editor.

        !!! note "Inner note"

            Nothing more.

-   __:octicons-goal-16: Fast__

    ---

    Up and running in minutes.
"""


def test_nested_mkdocs_tabs_admonitions_and_a_cards_rule_show_only_their_words():
    doc = read_document(NESTED_PAGE.encode(), "setup.md")
    text = doc.text
    for words in ("Editor support", "Visual Studio Code", "Install the YAML extension.", "Other",
                  "Use any editor.", "Inner note", "Nothing more.", "__Fast__",
                  "Up and running in minutes."):
        assert words in text, words
    for junk in ("===", "!!!", "---", "octicons"):
        assert junk not in text, junk


def test_an_indented_rule_in_a_code_block_with_text_after_it_stays():
    src = "# Y\n\nA YAML stream:\n\n    a: 1\n    ---\n    b: 2\n"
    doc = read_document(src.encode(), "y.md")
    assert "    ---" in doc.text or "---" in doc.text


def test_a_line_of_several_imports_is_no_text_and_a_sentence_about_importing_is():
    src = ("---\ntitle: Hermes\n---\n\nimport Tabs from '@theme/Tabs'; import TabItem from '@theme/TabItem';\n\n"
           "Hermes is an engine.\n\nimport the file; import it again.\n")
    doc = read_document(src.encode(), "hermes.md")
    assert "@theme" not in doc.text and "Hermes is an engine." in doc.text
    assert "import the file; import it again." in doc.text


# A page in the style of Hugo's docs (written for this test): shortcodes shown as typed,
# escaped with `/* … */`, in a code block, a code span and a sentence; a live one hidden.
ESCAPED_SHORTCODES_PAGE = """---
title: Figures
---

Call it so:

```text
{{</* figure src="/images/kitten.jpg" alt="A kitten" */>}}
```

In a table: `{{%/* note */%}}`. Or write {{</* qr */>}} in a sentence.

{{< new-in 0.140.0 />}}
"""


def test_hugo_escaped_shortcodes_read_as_the_page_shows_them():
    doc = read_document(ESCAPED_SHORTCODES_PAGE.encode(), "figures.md")
    text = doc.text
    for words in ('{{< figure src="/images/kitten.jpg" alt="A kitten" >}}', "`{{% note %}}`",
                  "Or write {{< qr >}} in a sentence."):
        assert words in text, words
    assert "/*" not in text and "new-in" not in text


def test_entities_on_indented_lines_of_a_block_of_html_read_as_the_browser_shows_them():
    src = ('# Posts\n\n<div class="note">\n  <p>\n    Put <code>&lt;meta charset=&quot;utf-8&quot;&gt;</code> in\n'
           '    the <code>&lt;head&gt;</code>.\n  </p>\n</div>\n\nAn indented block:\n\n    a &lt; b\n')
    doc = read_document(src.encode(), "posts.md")
    assert 'Put <meta charset="utf-8"> in' in doc.text and "the <head>." in doc.text
    assert "a &lt; b" in doc.text
