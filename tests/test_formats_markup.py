"""Lightweight markup, RTF and configuration files: headings as sections, exact lines."""
from __future__ import annotations

import configparser
from pathlib import Path

import pytest

from glean_personal.errors import SkipFile
from glean_personal.formats import extract, read_document
from helpers.documents import lines_of

ROOT = Path(__file__).resolve().parents[1]
DATA = Path(__file__).resolve().parent / "data"


def sections(doc):
    return [(" › ".join(s.heading), s.first_line) for s in doc.sections]


def assert_lines_exact(doc, src: str) -> None:
    lines = src.split("\n")
    for sec in doc.sections:
        if sec.text == sec.heading[-1:][0] if sec.heading else False:
            continue   # a heading kept as its own text
        for k, line in enumerate(sec.text.split("\n")):
            assert line == lines[sec.first_line - 1 + k].rstrip(), (sec.heading, k)


RST = """\
=============
 Coffee guide
=============

Intro text.

Grinding
========

Use a burr grinder::

    Not a heading
    =============

Fine or *coarse* (:ref:`see <sizes>`)
-------------------------------------

Depends on the brew.

Cleaning
========

Weekly.

.. note::

   A directive body.
"""


def test_rst_underlined_titles():
    doc = read_document(RST.encode(), "guide.rst")
    assert doc.title == "Coffee guide" and doc.format == "rst"
    assert sections(doc) == [("Coffee guide", 5), ("Coffee guide › Grinding", 10),
                             ("Coffee guide › Grinding › Fine or coarse (see)", 18),
                             ("Coffee guide › Cleaning", 23)]
    assert "Not a heading" in doc.sections[1].text
    # each line stays in its place; only markup a reader never sees is gone
    assert_lines_exact(doc, RST.replace("grinder::", "grinder:").replace(".. note::", ""))


ORG = """\
#+TITLE: Garden log
Some preamble.
* TODO Planting                                                  :spring:
Tomatoes.
** Seeds
Bought in March.
#+BEGIN_SRC sh
* not a heading
#+END_SRC
* Harvest [[https://example.org/crops][records]]
Plenty.
"""


def test_org_star_headings():
    doc = read_document(ORG.encode(), "garden.org")
    assert doc.title == "Garden log"
    assert sections(doc) == [("", 2), ("Planting", 4), ("Planting › Seeds", 6), ("Harvest records", 11)]
    # each line stays in its place; keyword lines and block delimiters are not shown
    assert_lines_exact(doc, ORG.replace("#+TITLE: Garden log", "").replace("#+BEGIN_SRC sh", "")
                       .replace("#+END_SRC", ""))


# Written for this test in the style of an Emacs package's Org manual (Magit's,
# which ox-texinfo turns into its Info manual): keywords, a drawer, definition
# items, links of several kinds, code and verbatim over a line break.
ORG_MANUAL = """\
#+title: Tea Maker Manual
#+author: A. Person
#+texinfo_dir_category: Emacs
#+options: broken-links:mark

# A comment nobody sees.
* Brewing
:PROPERTIES:
:CUSTOM_ID: brewing
:END:
#+kindex: C-c b
#+findex: tea-brew

Also see [[man:tea-brew]] and [[*Cleaning the pot]], or [[https://example.org/tea][the /tea/ site]].
Type =C-c b= or run ~tea-brew~; *never* boil it, ~git
commit --amend~ first.

- Key: C-c b (tea-brew) ::

  This command brews tea.

#+begin_src emacs-lisp
  (setq tea-strength 3) ; ~kept~ [[as typed]]
#+end_src

#+begin_export html
<b>only on the web</b>
#+end_export

| Size | Spoons |
|------+--------|
| pot  | 3      |
** Cleaning the pot
Descale monthly, {{{year}}} and after; press {{{kbd(C-c })}}} or {{{kbd(C-x
C-s)}}} to save.
"""


def test_org_text_reads_as_the_exported_page_shows_it():
    doc = read_document(ORG_MANUAL.encode(), "tea.org")
    assert doc.title == "Tea Maker Manual"
    assert [s.heading for s in doc.sections] == [("Brewing",), ("Brewing", "Cleaning the pot")]
    text = doc.text
    for words in ("Also see tea-brew and Cleaning the pot, or the tea site.",
                  "Type C-c b or run tea-brew; never boil it, git\ncommit --amend first.",
                  "- Key: C-c b (tea-brew)\n\n  This command brews tea.",
                  "  (setq tea-strength 3) ; ~kept~ [[as typed]]",
                  "| Size | Spoons |\n\n| pot  | 3      |", "Descale monthly,  and after; press C-c } or C-x\nC-s to save."):
        assert words in text, words
    for junk in ("#+", "author", "Emacs", "broken-links", "comment", "PROPERTIES", "CUSTOM_ID",
                 "kindex", "C-c b ::", "only on the web", "{{{", "|---"):
        assert junk not in text, junk
    lines = ORG_MANUAL.split("\n")
    for sec in doc.sections:   # each section starts on its own first line
        assert lines[sec.first_line - 1].strip().startswith(sec.text.split("\n")[0][:4])


ADOC = """\
= Server manual
:toc:

Preface.

== Install

Run the installer.

----
== not a heading in a listing
----

=== On Linux

Use the package.

== Upgrade

Read the notes.
"""


def test_asciidoc_equals_headings():
    doc = read_document(ADOC.encode(), "manual.adoc")
    assert doc.title == "Server manual"
    assert sections(doc) == [("Server manual", 4), ("Server manual › Install", 8),
                             ("Server manual › Install › On Linux", 16),
                             ("Server manual › Upgrade", 20)]
    install = doc.sections[1]
    assert install.text == "Run the installer.\n\n\n== not a heading in a listing"   # delimiters blank


TEX = r"""\documentclass{article}
\title{A Study of \emph{Espresso}}
\begin{document}
\maketitle
\section{Introduction}
Coffee is brewed. % a comment
\subsection*{Extraction~time}\label{sec:x}
Twenty-five seconds.
% \section{Commented out}
\section[Short]{Results and \textbf{Discussion}}
It works.
\end{document}
"""


def test_latex_sectioning_commands():
    doc = read_document(TEX.encode(), "paper.tex")
    assert doc.title == "A Study of Espresso"
    # the preamble (before \begin{document}) shows nothing, so no section before the first heading
    assert sections(doc) == [("Introduction", 6), ("Introduction › Extraction time", 8),
                             ("Results and Discussion", 11)]
    assert [s.text for s in doc.sections] == ["Coffee is brewed.", "Twenty-five seconds.", "It works."]


THESIS = r"""\chapter{Brewing}\label{cha:brewing}
\index{espresso|(}%
We call a shot \emph{ristretto} when it is \textbf{short}~--- see \cref{sec:grind} % why
and \cite[p.~3]{smith2020}.
A \define{na\"{\i}ve} model: $\alpha \to \beta$ and \idtoeqv\ here, ``quoted'' 10\% of
the time\footnote{In \cref{sec:elsewhere}.}.

\section{\texorpdfstring{$\pi_1$}{π₁} of the grinder}\label{sec:grind}
\begin{thm}[Grind]\label{thm:grind}
  Finer is slower.
\end{thm}
\begin{verbatim}
  \emph{kept} as typed
\end{verbatim}
\newcommand{\brew}[1]{\textbf{#1}}
\begin{tikzpicture}
  \draw (0,0) -- (1,1);
\end{tikzpicture}
See \href{https://example.org/x}{the notes} and \url{https://example.org}.
"""


def test_latex_text_reads_as_words_on_its_own_lines():
    """Commands, comments, labels and index entries show nothing; arguments show their words."""
    doc = read_document(THESIS.encode(), "brewing.tex")
    assert sections(doc) == [("Brewing", 3), ("Brewing › π₁ of the grinder", 10)]
    first, second = doc.sections
    assert first.text.split("\n") == [
        "We call a shot ristretto when it is short — see π₁ of the grinder",
        "and .",
        "A naïve model: α → β and idtoeqv here, “quoted” 10% of",
        "the time In elsewhere..",
    ]
    lines = second.text.split("\n")
    assert lines[:4] == ["Finer is slower.", "", "", "  \\emph{kept} as typed"]   # verbatim as typed
    assert lines[4:] == ["", "", "", "", "", "See the notes and https://example.org."]
    assert "draw" not in second.text and "newcommand" not in second.text and "#1" not in second.text
    assert len(THESIS.split("\n")) >= second.first_line + len(lines) - 1   # lines keep their places


def test_rtf_from_wordpad():
    """A file in the form WordPad (RichEdit 10) writes, made by hand from its output."""
    doc = extract(DATA / "wordpad-notes.rtf")
    assert doc.title == "Café opening notes" and doc.format == "rtf"
    text = doc.text
    assert "The résumé of the week" in text          # \'hh in code page 1252
    assert "€ 2.50" in text                          # \uN with its fallback skipped
    assert "日 is written too" in text and "\\" + "'93" not in text   # \uc2: two fallback bytes
    assert "Monday – the grinder" in text
    assert "Calibri" not in text and "Riched" not in text and "0100090000" not in text
    assert "Order oat milk\n(two crates)" in text
    assert "a literal brace { and a backslash \\." in text
    assert "Renée" not in text                       # author metadata is not body text


def test_rtf_that_is_not_rtf_is_skipped():
    with pytest.raises(SkipFile, match="not an RTF file"):
        read_document(b"just text", "x.rtf")


YAML = """\
# Service settings
name: coffee-bot
version: 3

# Where it listens
server:
  host: 0.0.0.0
  port: 8080

plugins:
  - grinder
  - scale
---
other: document
"""


def test_yaml_top_level_blocks():
    doc = read_document(YAML.encode(), "app.yaml")
    assert doc.title == "coffee-bot"
    assert sections(doc) == [("", 1), ("server", 5), ("plugins", 10), ("", 13)]
    assert doc.sections[1].text.startswith("# Where it listens\nserver:")
    assert_lines_exact(doc, YAML)


# An OpenAPI description in the two shapes people keep (written for this test).
SWAGGER = """swagger: "2.0"
info:
  title: "Kiln API"
  version: "1.0"
paths:
  # firing
  /kilns/{id}/fire:
    post:
      summary: "Start firing a kiln"
      parameters:
        - name: "cone"
  /kilns/{id}/cool:
    post:
      summary: "Let a kiln cool slowly"
definitions:
  FiringSchedule:
    type: "object"
    description: "Ramps and holds of one firing."
tags:
  - name: "Kiln"
"""

OPENAPI3 = """openapi: 3.0.0
info:
  title: Kiln API
components:
  schemas:
    Cone:
      type: integer
    Glaze:
      type: string
  responses:
    NotFound:
      description: no such kiln
"""


def test_openapi_paths_and_definitions_are_sections(open_ix, tmp_path):
    doc = read_document(SWAGGER.encode(), "kiln.yaml")
    assert sections(doc) == [
        ("", 1), ("info", 2), ("paths › /kilns/{id}/fire", 5), ("paths › /kilns/{id}/cool", 12),
        ("definitions › FiringSchedule", 15), ("tags", 19)]
    assert doc.sections[2].text.startswith("paths:\n  # firing\n  /kilns/{id}/fire:")
    assert_lines_exact(doc, SWAGGER)
    three = read_document(OPENAPI3.encode(), "kiln.yml")
    assert sections(three) == [("", 1), ("info", 2), ("components › schemas › Cone", 4),
                               ("components › schemas › Glaze", 8),
                               ("components › responses › NotFound", 10)]
    assert_lines_exact(three, OPENAPI3)
    # the same keys in a YAML file that is not OpenAPI stay one block each
    plain = read_document(SWAGGER.replace('swagger: "2.0"', 'kind: "kilns"').encode(), "k.yaml")
    assert [h for h, _ in sections(plain)] == ["", "info", "paths", "definitions", "tags"]
    (tmp_path / "kiln.yaml").write_text(SWAGGER)
    ix = open_ix()
    ix.index(tmp_path)
    hits = ix.search("let a kiln cool slowly", limit=1, passages=True).results
    assert hits and hits[0].section == ["paths", "/kilns/{id}/cool"]


def test_toml_tables_on_this_projects_pyproject():
    path = ROOT / "pyproject.toml"
    doc = extract(path)
    assert doc.format == "toml" and doc.title == "glean-personal"   # [project] name
    heads = [h for h, _ in sections(doc)]
    assert "project" in heads
    assert_lines_exact(doc, path.read_text(encoding="utf-8"))


def test_ini_written_by_configparser(tmp_path):
    config = configparser.ConfigParser()
    config["database"] = {"host": "localhost", "port": "5432"}
    config["mail server"] = {"relay": "smtp.example.org"}
    path = tmp_path / "settings.ini"
    with open(path, "w", encoding="utf-8") as handle:
        config.write(handle)
    doc = extract(path)
    assert sections(doc) == [("database", 1), ("mail server", 5)]
    assert "relay = smtp.example.org" in doc.sections[1].text


def test_css_rules():
    css = ("/* Site styles */\nbody {\n  margin: 0;\n  background: url(//cdn.example/x.png);\n}\n\n"
           "@media (max-width: 600px) {\n  .nav { display: none; }\n}\n\n"
           ".button,\n.link {\n  color: blue;\n}\n")
    doc = read_document(css.encode(), "site.css")
    assert sections(doc) == [("body", 1), ("@media (max-width: 600px)", 7), (".link", 11)]
    assert_lines_exact(doc, css)


def test_makefile_targets():
    make = ("CC = gcc\nCFLAGS := -O2\n\n# Build everything.\nall: app\n\napp: main.o util.o\n"
            "\t$(CC) -o $@ $^\n\n.PHONY: clean\nclean:\n\trm -f *.o app\n")
    doc = read_document(make.encode(), "Makefile")
    assert doc.format == "makefile"
    assert sections(doc) == [("", 1), ("all", 4), ("app", 7), (".PHONY", 10), ("clean", 11)]
    assert_lines_exact(doc, make)


def test_dockerfile_stages():
    docker = ("ARG VERSION=3.12\n\n# Build stage\nFROM python:${VERSION} AS build\nRUN pip wheel .\n\n"
              "FROM python:${VERSION}-slim\nCOPY --from=build /wheels /wheels\nCMD [\"app\"]\n")
    doc = read_document(docker.encode(), "Dockerfile")
    assert sections(doc) == [("", 1), ("FROM python:${VERSION} AS build", 3),
                             ("FROM python:${VERSION}-slim", 7)]
    assert_lines_exact(doc, docker)


RST_DOCS = """\
:orphan:

.. _install-guide:

Installing
==========

.. This comment is for editors
   and never shown.

Use :ref:`a requirements file <requirements>` or :pypi:`Sphinx`, see
`the guide <https://example.org/guide>`_ and `PyPI`_. Run ``pip install -e .``
to get :func:`~pkg.mod.func` from :mod:`!email` and :data:`.session`.
Call `init_db` through |fetch|_ first.

.. note:: Mind the cache.

   Old wheels stay there.

.. code-block:: shell
   :linenos:

   pip install :ref:`kept`

.. toctree::
   :maxdepth: 2

   topics/caching

.. versionadded:: 3.2

.. _PyPI: https://pypi.org

.. [1] A footnote's words.

Example::

    keep `this <as typed>`_
"""


def test_rst_markup_is_read_as_words_lines_in_place():
    doc = read_document(RST_DOCS.encode(), "install.rst")
    assert doc.title == "Installing"
    text = doc.text
    assert "Use a requirements file or Sphinx, see\nthe guide and PyPI. Run pip install -e ." in text
    assert "to get pkg.mod.func from email and session.\nCall init_db through fetch first." in text
    assert "Mind the cache." in text and "Old wheels stay there." in text
    assert "pip install :ref:`kept`" in text and "keep `this <as typed>`_" in text
    assert "Example:" in text and "Example::" not in text
    assert "New in version 3.2" in text and "A footnote's words." in text
    for gone in ("editors", "never shown", "install-guide", "code-block", "linenos", "toctree",
                 "maxdepth", "topics/caching", "note::", "https://", ":orphan:"):
        assert gone not in text, gone
    lines = RST_DOCS.split("\n")
    for sec in doc.sections:
        for k, line in enumerate(sec.text.split("\n")):
            if line.strip():   # every kept line is the words of the file's line there
                assert line.split()[-1].strip(".:")[:3] in lines[sec.first_line - 1 + k], (k, line)


def test_rst_role_and_reference_wrapped_over_two_lines():
    src = ("Title\n=====\n\nSee :ref:`Requirement\nSpecifiers` and `the long\nguide <https://example.org/a>`_ for\n"
           "details `Share it\n<https://example.org/b>`__ now.\n")
    doc = read_document(src.encode(), "wrap.rst")
    assert doc.sections[0].text.split("\n") == [
        "See Requirement", "Specifiers and the long", "guide for", "details Share it", " now."]
    assert doc.sections[0].first_line == 4


def test_rst_conditional_directive_keeps_its_body_and_long_lines_stay_as_typed():
    long_line = "see :ref:`x` " * 2000   # longer than any prose line: left as typed
    src = f"Title\n=====\n\n.. only:: html\n\n   Shown in the web build.\n\n{long_line}\n"
    doc = read_document(src.encode(), "cond.rst")
    text = doc.sections[0].text
    assert "Shown in the web build." in text and "html" not in text
    assert long_line.rstrip() in text


# In the style of NumPy's user guide (written for this test): a named reference to
# a target defined below it, default-role cross-references with `~` in titles, and
# a figure whose alt text wraps over lines before its `:name:` option.
NUMPY_STYLE = """\
Reading and writing files
=========================

Reading text and CSV_ files
---------------------------

.. _CSV: https://en.wikipedia.org/wiki/Comma-separated_values

Use Doxygen_ for the C API; a ``class_`` keyword and my_var_ stay.

.. _Doxygen: https://www.doxygen.nl/

Save/restore using `~numpy.ndarray.tofile` and :func:`~numpy.fromfile`
----------------------------------------------------------------------

.. figure:: broadcasting_4.png
    :alt: A 2-d array of shape (4, 1) and a 1-d array of shape (3) are
          stretched to match their shapes.
    :name: broadcasting.figure-4

    In some cases, broadcasting stretches both arrays.

Prefer numpy.save.
"""


def test_rst_named_references_default_roles_and_figure_options():
    doc = read_document(NUMPY_STYLE.encode(), "how-to-io.rst")
    assert [s.heading for s in doc.sections] == [
        ("Reading and writing files", "Reading text and CSV files"),
        ("Reading and writing files", "Save/restore using numpy.ndarray.tofile and numpy.fromfile")]
    text = doc.text
    for words in ("Use Doxygen for the C API; a class_ keyword and my_var_ stay.",
                  "A 2-d array of shape (4, 1) and a 1-d array of shape (3) are\n"
                  "          stretched to match their shapes.",
                  "    In some cases, broadcasting stretches both arrays.", "Prefer numpy.save."):
        assert words in text, words
    for junk in ("Doxygen_", "CSV_", ":name:", "figure-4", "broadcasting_4.png", "~"):
        assert junk not in text, junk
    first = {s.text.strip().split("\n")[0]: s.first_line for s in doc.sections if s.text.strip()}
    assert first["Use Doxygen for the C API; a class_ keyword and my_var_ stay."] == 9


def test_rst_autosummary_lists_its_names_and_currentmodule_is_hidden():
    # As NumPy's reference pages list their routines (written for this test).
    page = ("Array creation routines\n=======================\n\n.. currentmodule:: numpy\n\n"
            "From shape or value\n-------------------\n.. autosummary::\n   :toctree: generated/\n\n"
            "   empty\n   zeros\n   zeros_like\n")
    doc = read_document(page.encode(), "routines.array-creation.rst")
    assert [(s.heading[-1], s.text.split()) for s in doc.sections] == [
        ("From shape or value", ["empty", "zeros", "zeros_like"])]
    assert doc.sections[0].first_line == 11


def test_rst_simple_references_in_any_script_and_never_inside_a_literal():
    page = ("Übersicht\n=========\n\nSiehe Straße_ und Doxygen_; ``x = Doxygen_`` bleibt.\n\n"
            ".. _Straße: https://example.org/\n.. _Doxygen: https://www.doxygen.nl/\n")
    text = read_document(page.encode(), "seite.rst").text
    assert "Siehe Straße und Doxygen; x = Doxygen_ bleibt." in text, text


def test_rst_version_notes_read_as_the_built_page_words_them():
    src = ("Retries\n=======\n\n.. versionadded:: 1.4\n\nUse ``until``.\n\n"
           ".. versionchanged:: 2.0 The default is now 3.\n\n.. deprecated:: 2.9\n")
    text = read_document(src.encode(), "loops.rst").text
    assert "New in version 1.4\n\nUse until." in text
    assert "Changed in version 2.0: The default is now 3." in text
    assert "Deprecated since version 2.9" in text


def test_rst_cross_references_without_words_show_their_label_words():
    src = (".. seealso::\n\n   :ref:`intro_adhoc`\n       Examples of basic commands\n"
           "   :doc:`../dev_guide/developing_modules`\n       How to write modules\n\n"
           "See :ref:`ANSIBLE_SSH_RETRIES`, :ref:`the guide <intro_adhoc>` and :class:`pkg.Thing`.\n")
    text = read_document(src.encode(), "intro.rst").text
    assert "intro adhoc\n       Examples of basic commands" in text
    assert "developing modules\n       How to write modules" in text
    assert "See ANSIBLE_SSH_RETRIES, the guide and pkg.Thing." in text


# A page of Django-style documentation under a `.txt` name (written for this test).
RST_AS_TXT = """\
.. _topics-cache:

========================
Django's cache framework
========================

A fundamental trade-off in dynamic websites is, well, they're dynamic.

Setting up the cache
====================

Set :setting:`CACHES` in your settings file:

.. code-block:: python

    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

.. versionadded:: 4.0
"""


def test_restructuredtext_under_a_text_name_is_read_as_restructuredtext(tmp_path):
    path = tmp_path / "cache.txt"
    path.write_text(RST_AS_TXT, encoding="utf-8")
    doc = extract(path)
    assert doc.format == "txt" and doc.title == "Django's cache framework"
    assert [s.heading for s in doc.sections] == [
        ("Django's cache framework",), ("Django's cache framework", "Setting up the cache")]
    text = doc.text
    assert "Set CACHES in your settings file:" in text and "New in version 4.0" in text
    assert 'CACHES = {"default"' in text
    for junk in (".. _topics", ":setting:", "code-block", "=====", "versionadded"):
        assert junk not in text, junk


@pytest.mark.parametrize("text", [
    "Meeting notes\n\n.. and then we left early.\n\nBring snacks:: next time.\n",
    "Notes\n\n.. note:: a lone directive-looking line\n\nand nothing else of the kind.\n",
])
def test_plain_notes_stay_plain_text(text):
    doc = read_document(text.encode(), "notes.txt")
    assert doc.sections[0].heading == () and doc.text.startswith("Meeting notes" if "Meeting" in text else "Notes")


def test_rst_backslash_escapes_read_as_their_character_outside_literals():
    src = ("How do I see all of the ansible\\_ variables?\n"
           "==============================================\n\n"
           "Match \\*.yml files, not ``a\\_b`` nor :ref:`x\\_y <lbl>`; an escaped\\ space joins.\n\n"
           "::\n\n    keep \\* as typed\n")
    doc = read_document(src.encode(), "faq.rst")
    assert doc.title == "How do I see all of the ansible_ variables?"
    assert "Match *.yml files, not a\\_b nor x_y; an escapedspace joins." in doc.text
    assert "keep \\* as typed" in doc.text


# Tables as Ansible's and Sphinx's pages write them (written for this test).
RST_TABLES = """\
Committee
=========

+------------------+---------------+
| Name             | Start year    |
+==================+===============+
| Alexei Znamensky | 2022          |
+------------------+---------------+

=================  ====================
Server             Collections accepted
=================  ====================
Ansible Galaxy     All collections
=================  ====================

| a line block
| stays as typed
"""


def test_rst_tables_read_as_rows_without_their_rules():
    doc = read_document(RST_TABLES.encode(), "committee.rst")
    text = doc.text
    assert "Name | Start year\n\nAlexei Znamensky | 2022" in text
    assert "Server             Collections accepted\n\nAnsible Galaxy     All collections" in text
    assert "| a line block\n| stays as typed" in text
    assert "+--" not in text and "====" not in text
    first = {s.text.split("\n")[0]: s.first_line for s in doc.sections}
    assert first["Name | Start year"] == 5


def test_rst_footnote_references_read_as_the_page_marks_them():
    src = ("Precedence\n==========\n\n#. role defaults [1]_\n"
           "#. group vars [#]_ and [#note]_, see [CIT2002]_; list[0]_x stays.\n\n"
           ".. [1] Tasks in each role see their own defaults.\n")
    text = read_document(src.encode(), "vars.rst").text
    assert "1. role defaults [1]\n2. group vars and, see [CIT2002]; list[0]_x stays." in text
    assert "Tasks in each role see their own defaults." in text


def test_a_placeholder_look_alike_in_the_text_stays_as_it_is():
    # Escapes are held apart behind NUL-number-NUL placeholders while the inline
    # patterns run; text that already looks like one is not a placeholder.
    from glean_personal.formats.markup import rst_plain
    from glean_personal.formats.text import hold, put_back
    assert "\x009\x00 kept" in rst_plain("snake\\_case and \x009\x00 kept")
    spans = []
    assert put_back(hold(spans, "x") + " \x007\x00", spans) == "x \x007\x00"


def test_a_pep_or_rfc_role_shows_as_sphinx_shows_it():
    # pip's `pyproject-toml.md` cites {pep}`518`: the built page says "PEP 518"
    src = ("Title\n=====\n\nFirst in :pep:`518`, then :pep:`517#hooks`; see :rfc:`2119` and\n"
           ":pep:`the style guide <8>`.\n")
    assert read_document(src.encode(), "cite.rst").sections[0].text == (
        "First in PEP 518, then PEP 517; see RFC 2119 and\nthe style guide.")
    md = "# Build\n\nIntroduced in {pep}`518`, expanded in {pep}`621`; {rfc}`7231` too.\n"
    assert read_document(md.encode(), "cite.md").sections[0].text == (
        "Introduced in PEP 518, expanded in PEP 621; RFC 7231 too.")


# Django's documentation is reStructuredText in `.txt` files; a page of its release
# notes or a FAQ often has no directive at all, only its titles and a role or two.
DJANGO_LIKE_FAQ = """\
=================
FAQ: Using Django
=================

Why do I get an error about importing DJANGO_SETTINGS_MODULE?
=============================================================

Make sure that:

#. The environment variable is set to a fully-qualified module.
#. Said module is on ``sys.path``:

   #. check the path;
   #. check the name.

#. The module doesn't contain syntax errors.

Ask on the |django-users| mailing list (or |list|_) if in doubt.

How do I use image fields?
==========================

Set :setting:`MEDIA_ROOT` first.
"""

DJANGO_LIKE_RELEASE = """\
==========================
Django 1.3.7 release notes
==========================

*February 20, 2013*

Django 1.3.7 corrects a packaging problem.
"""


def test_a_txt_file_with_rst_titles_is_read_as_rst():
    doc = read_document(DJANGO_LIKE_FAQ.encode(), "usage.txt")
    assert doc.title == "FAQ: Using Django"
    assert [s for s, _ in sections(doc)] == [
        "FAQ: Using Django › Why do I get an error about importing DJANGO_SETTINGS_MODULE?",
        "FAQ: Using Django › How do I use image fields?"]
    text = "\n".join(s.text for s in doc.sections)
    assert "Set MEDIA_ROOT first." in text and ":setting:" not in text
    release = read_document(DJANGO_LIKE_RELEASE.encode(), "1.3.7.txt")
    assert release.title == "Django 1.3.7 release notes"
    assert sections(release) == [("Django 1.3.7 release notes", 5)]


def test_a_plain_note_with_one_underlined_title_stays_plain_text():
    note = "Shopping\n========\n\nmilk, eggs_ and *bread*\n\nsee you | later |\n"
    doc = read_document(note.encode(), "list.txt")
    assert doc.format == "txt" and "eggs_ and *bread*" in doc.sections[0].text
    two = "Shopping\n========\n\nmilk\n\nChores\n------\n\nfloors\n"
    assert sections(read_document(two.encode(), "list.txt")) == [("Shopping", 4), ("Shopping › Chores", 9)]


def test_rst_auto_numbered_items_and_substitutions_read_as_shown():
    doc = read_document(DJANGO_LIKE_FAQ.encode(), "usage.txt")
    text = doc.sections[0].text
    assert "1. The environment variable" in text and "2. Said module is on sys.path:" in text
    assert "   1. check the path;\n   2. check the name." in text
    assert "3. The module doesn't" in text and "#." not in text
    assert "Ask on the django-users mailing list (or list) if in doubt." in text
    assert doc.sections[0].first_line == 8 and text.split("\n")[10].startswith("Ask on")   # line 18


def test_rst_auto_numbering_starts_again_after_the_list_ends():
    src = ("Steps\n=====\n\n#. Fetch.\n#. Build.\n\nThen, later:\n\n#. Test.\n#. Ship.\n")
    text = read_document(src.encode(), "steps.rst").text
    assert "1. Fetch.\n2. Build." in text and "1. Test.\n2. Ship." in text


def test_a_literal_block_in_a_list_item_ends_with_the_item_s_indent():
    # As Django's static files how-to writes a step (written for this test).
    src = ("Deploy\n======\n\n#. Run the :djadmin:`collectstatic` command::\n\n       $ python manage.py collectstatic\n\n"
           "   This copies the files into the\n   :setting:`STATIC_ROOT` directory.\n\n#. Serve them.\n")
    text = read_document(src.encode(), "deploy.txt").text
    assert "1. Run the collectstatic command:" in text
    assert "       $ python manage.py collectstatic" in text   # code as typed
    assert "   STATIC_ROOT directory." in text and "2. Serve them." in text


def test_a_directive_that_labels_the_title_below_shows_nothing():
    # As Django's settings reference writes each setting (written for this test).
    src = (".. module:: django.conf\n   :synopsis: Settings.\n\nSettings\n========\n\n"
           ".. setting:: DEBUG\n\n``DEBUG``\n---------\n\nDefault: ``False``\n\n"
           ".. setting:: DATABASES\n\n``DATABASES``\n-------------\n\nA dictionary.\n\n"
           ".. django-admin-option:: --deploy\n\nChecks for deployment.\n\n"
           ".. console::\n\n    $ python -m pip install *Django* ``--pre``\n")
    doc = read_document(src.encode(), "settings.txt")
    assert [(s.heading[-1], s.text) for s in doc.sections] == [
        ("DEBUG", "Default: False"),
        ("DATABASES", "A dictionary.\n\n--deploy\n\nChecks for deployment.\n\n\n\n    $ python -m pip install *Django* ``--pre``")]   # code: as typed
    assert "django.conf" not in doc.text


def test_org_and_texinfo_without_their_names_are_known_by_their_first_line():
    # Magit's docs/CHANGELOG.2 starts so: a release per heading, Org markup in the items
    notes = b"# -*- mode: org -*-\n* v2.90.1   2018-11-16\n\n- Added ~bug-reference-mode~ to the hook.\n"
    doc = read_document(notes, "CHANGELOG.2")
    assert [s.heading for s in doc.sections] == [("v2.90.1   2018-11-16",)]
    assert doc.text == "- Added bug-reference-mode to the hook."
    texi = b"\\input texinfo\n@settitle Tea\n@chapter Brewing\nUse @code{tea-brew}.\n"
    doc = read_document(texi, "tea.texi.in")
    assert doc.title == "Tea" and doc.text == "Use tea-brew."
    plain = read_document(b"A note about -*- org -*- in passing.\n\nMore text.\n", "note.txt")
    assert plain.text.startswith("A note about -*- org -*-")


def test_gnu_news_in_emacs_outline_mode_is_read_by_its_star_headings():
    # GNU sed 4.9's NEWS starts so (as do many GNU packages'): its title, then the mode line
    news = (b"GNU sed NEWS                                    -*- outline -*-\n\n"
            b"* Noteworthy changes in release 4.9 (2022-11-06) [stable]\n\n** Bug fixes\n\n"
            b"  'sed --follow-symlinks -i' no longer loops forever when its operand\n"
            b"  is a symbolic link cycle.\n  [bug introduced in sed 4.2]\n\n"
            b"** New Features\n\n  'sed --debug' now prints the program.\n\n"
            b"* Noteworthy changes in release 4.8 (2020-01-14) [stable]\n\n** Bug fixes\n\n"
            b"  \"sed -i\" now creates temporary files with correct umask.\n")
    doc = read_document(news, "NEWS")
    assert doc.title == "GNU sed NEWS"
    assert [s.heading for s in doc.sections] == [
        ("Noteworthy changes in release 4.9 (2022-11-06) [stable]", "Bug fixes"),
        ("Noteworthy changes in release 4.9 (2022-11-06) [stable]", "New Features"),
        ("Noteworthy changes in release 4.8 (2020-01-14) [stable]", "Bug fixes")]
    assert doc.sections[0].text.startswith("  'sed --follow-symlinks -i' no longer loops")
    assert "-*-" not in doc.text
    plain = read_document(b"A note about -*- outline -*- in passing.\n\n* not a heading\n", "note.txt")
    assert plain.text.startswith("A note about -*- outline -*-") and len(plain.sections) == 1


def test_latex_line_that_shows_nothing_does_not_end_a_paragraph():
    """As in TeX: an index entry or a comment on its own line inside a paragraph
    moves the paragraph's later lines up one; the next paragraph keeps its line."""
    src = ("\\section{Grind}\nFine grounds\n\\index{grind}%\n% a remark\nbrew slowly.\n\n"
           "Next paragraph.\n\\begin{thm}\nA theorem.\n\\end{thm}\n")
    doc = read_document(src.encode(), "grind.tex")
    (section,) = doc.sections
    assert section.first_line == 2
    assert section.text.split("\n") == ["Fine grounds", "brew slowly.", "", "", "",
                                         "Next paragraph.", "", "A theorem."]


def test_latex_lists_tables_and_figures_read_as_their_words():
    src = ("\\section{Method}\n\\begin{description}\n\\item[Grind size:] the particle size.\n"
           "\\item Temperature.\n\\end{description}\n\\begin{tabular}{l|r}\nDose & 18\\,g \\\\\n"
           "\\end{tabular}\n\\caption{The setup, see Table~\\ref{tab:params}.}\n")
    text = read_document(src.encode(), "method.tex").sections[0].text
    assert text.split("\n") == ["Grind size: the particle size.", "• Temperature.", "", "",
                                 "Dose 18 g", "", "The setup, see Table params."]


def test_latex_verbatim_keeps_its_percent_signs():
    src = ("\\section{Code}\nPrint it with \\verb|printf(\"%d\")|. % not shown\n"
           "\\begin{lstlisting}[language=C]\nprintf(\"%d\\n\", n); % kept\n\\end{lstlisting}\nAfter.\n")
    text = read_document(src.encode(), "code.tex").sections[0].text
    assert text.split("\n") == ['Print it with printf("%d").', "", 'printf("%d\\n", n); % kept', "", "After."]


def test_search_shows_latex_passages_as_words(open_ix, tmp_path):
    """Both stores: a LaTeX chapter's passage is found by its words and shown without commands."""
    folder = tmp_path / "thesis"
    folder.mkdir()
    (folder / "brewing.tex").write_text(THESIS, encoding="utf-8")
    ix = open_ix()
    ix.index(folder)
    hit = ix.search("naive model quoted", limit=1, passages=True).results[0]
    assert list(hit.section) == ["Brewing"]
    assert "A naïve model: α → β" in hit.passage_text
    assert "\\" not in hit.passage_text and "$" not in hit.passage_text and "%" not in hit.passage_text.replace("10%", "")


def test_rst_role_wrapped_from_a_directive_line_onto_its_body():
    # A `seealso` whose argument's last role runs onto the next line, as Syncthing's docs write it.
    src = ("Autostart\n=========\n\n.. seealso:: :ref:`Tray Wrappers <contrib-tray>`, :ref:`Cross-platform\n"
           "  Wrappers <contrib-all>`, :ref:`Packages <contrib-packages>`.\n\nDone.\n")
    doc = read_document(src.encode(), "autostart.rst")
    assert doc.sections[0].text.split("\n")[:2] == ["Tray Wrappers, Cross-platform",
                                                    "  Wrappers, Packages."]
    assert ":ref:" not in doc.text


ORG_KEYS = """\
#+title: :editor lispy
#+subtitle: Parentheses that balance themselves
#+created: May 2, 2018

* Description
This module binds [[kbd:][M-[]] to wrap, [[kbd:][]t]] and [[kbd:][[t]] to move, and
[[kbd:][b ( ) { } [ ] < >]] to the brackets; see [[doom-module::editor evil][evil]].

#+begin_src org
,* Not a heading
,#+title: kept as typed
#+end_src
"""


def test_org_link_words_may_hold_brackets_and_the_subtitle_is_the_summary():
    doc = read_document(ORG_KEYS.encode(), "README.org")
    assert doc.title == ":editor lispy"
    text = lines_of(doc)
    assert text[2] == "Parentheses that balance themselves"
    assert text[6] == "This module binds M-[ to wrap, ]t and [t to move, and"
    assert text[7] == "b ( ) { } [ ] < > to the brackets; see evil."
    assert (text[10], text[11]) == ("* Not a heading", "#+title: kept as typed")   # the escaping comma goes
    said = "#+title: Tea\n#+subtitle: Brewing tea\n\nBrewing tea takes time.\n"
    assert read_document(said.encode(), "tea.org").text.count("Brewing tea") == 1   # not read twice
