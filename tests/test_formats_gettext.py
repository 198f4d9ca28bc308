"""GNU gettext catalogs: translations by source file; templates as their messages."""
from __future__ import annotations

from glean_personal.formats import extract, read_document

# A catalog of a translated documentation site (written for this test, in the
# shape Sphinx and Babel write them): a header, references, a multi-line
# message, a plural, a fuzzy entry, an untranslated one and an obsolete one.
CATALOG = r'''# Japanese translation of the install guide.
# Copyright (C) 2021 Example, Inc.
#
msgid ""
msgstr ""
"Project-Id-Version: Example devel\n"
"Language: ja\n"
"Content-Type: text/plain; charset=utf-8\n"

#: ../../rst/install/index.rst:3
msgid "Installation Guide"
msgstr "インストールガイド"

#: ../../rst/install/index.rst:5 ../../rst/other.rst:9
msgid ""
"Welcome to the installation guide. It explains how to install "
"the tool with \"pip\"."
msgstr ""
"インストールガイドへようこそ。"
"\"pip\" でインストールする方法を説明します。"

#: ../../rst/install/upgrade.rst:12
msgid "One file"
msgid_plural "%d files"
msgstr[0] "%d 個のファイル"

#: ../../rst/install/upgrade.rst:20
#, fuzzy
msgid "Upgrade with ``pip``, see :ref:`the guide <upgrading>`"
msgstr "``pip`` でアップグレード (:ref:`ガイド <upgrading>`、`PyPI <https://pypi.org>`_)"

#: ../../rst/install/upgrade.rst:30
msgid "Untranslated English sentence"
msgstr ""

#~ msgid "An obsolete message"
#~ msgstr "古いメッセージ"
'''


def test_a_catalog_reads_as_its_translations_by_source_file(tmp_path):
    path = tmp_path / "locales" / "ja" / "install.po"
    path.parent.mkdir(parents=True)
    path.write_text(CATALOG, encoding="utf-8")
    doc = extract(path)
    assert doc.format == "po" and doc.title == "install"
    assert [s.heading for s in doc.sections] == [("rst/install/index.rst",), ("rst/install/upgrade.rst",)]
    text = doc.text
    for words in ("インストールガイド", 'インストールガイドへようこそ。"pip" でインストールする方法を説明します。',
                  "%d 個のファイル", "pip でアップグレード (ガイド、PyPI)"):
        assert words in text, words
    for gone in ("Welcome", "Installation Guide", "Untranslated", "Project-Id-Version", "msgid",
                 "古いメッセージ", "obsolete", "Copyright", "fuzzy", "``", ":ref:", "https"):
        assert gone not in text, gone
    first = {s.text.split("\n")[0]: s.first_line for s in doc.sections}
    assert first["インストールガイド"] == 12


TEMPLATE = r'''msgid ""
msgstr ""
"Project-Id-Version: Example devel\n"
"Content-Type: text/plain; charset=utf-8\n"

#: ../../rst/install/index.rst:5
msgid ""
"Welcome to the installation guide. It explains how to install "
"the tool with \"pip\"."
msgstr ""

#: ../../rst/install/upgrade.rst:12
msgctxt "count"
msgid "One file"
msgid_plural "%d files"
msgstr[0] ""
msgstr[1] ""
'''


def test_a_template_reads_as_its_source_messages():
    doc = read_document(TEMPLATE.encode(), "install.pot")
    assert doc.format == "po"
    assert [s.heading for s in doc.sections] == [("rst/install/index.rst",), ("rst/install/upgrade.rst",)]
    assert doc.sections[0].text == 'Welcome to the installation guide. It explains how to install the tool with "pip".'
    assert doc.sections[1].text == "One file"
    assert "Project-Id-Version" not in doc.text and "count" not in doc.text


def test_a_quoted_line_after_a_blank_line_belongs_to_no_message():
    # A continuation string is part of the message above it only while no blank
    # line ends that entry.
    catalog = 'msgid "Open"\nmsgstr "Ouvrir"\n\n"stray words"\nmsgid "Close"\nmsgstr "Fermer"\n'
    doc = read_document(catalog.encode(), "ui.po")
    assert doc.text.split() == ["Ouvrir", "Fermer"]
