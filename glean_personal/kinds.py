"""What kind of document or section a search candidate is, by its title, path or heading:
release notes, tests, code, legal notices, style sheets. Search weighs them for the question asked (search.py)."""
from __future__ import annotations

import functools
import re
from typing import Sequence

from .patterns import folded, holds_any, lazy

# Every pattern below ignores case. Each needs one of a few words (lower-case ASCII,
# beside its pattern) and is tried, and compiled, only for a title or a path that
# holds one (`holds_any`): most candidates' titles and paths hold none, and compiling
# them all was a millisecond of every fresh search.

# A web page's file extensions: a builder's page made from a source beside it, which
# the walk skips, and which search shows before any other copy of the page's text.
PAGE_EXTS = (".html", ".htm", ".xhtml")

# Release notes by their titles, a chapter number aside ("2. NEWS", Valgrind's manual):
# "What's New In Python 3.8", "Release Notes", "Git v2.30.2 Release Notes",
# "Release History Of SQLite", "Changes", "CHANGELOG (zstd)", "Recent SQLite News",
# a release's own page ("Release 3.1.21", pgpool's manual; "SQLite Release 3.10.0 On 2016-01-06";
# PostgreSQL's "E.21. Release 15"),
# Perl's "perl5320delta - what is new for perl v5.32.0", Django's "Django 4.2: what's new in…",
# a package's HISTORY file ("History", "History — mypkg 1.0 documentation", "Version History";
# not "History and License", nor a page about a history feature, "History Expansion").
CHANGELOG_TITLE = lazy(r"^(?:[0-9]+(?:\.[0-9]+)*\.?\s+)?"   # a chapter number
                       r"(?:what[\u2019']?s new|changes\b|change ?log|release (?:notes|history)|"
                       r"history of .* releases|recent .*news|.*older news|news\b|"
                       r"(?:version |revision )?history(?=\s*(?:$|[\u2014\u2013:|-])))"
                       r"|release notes\b|\bchangelog\b|\bwhat(?:[\u2019']?s| is) new (?:in|for)\b"
                       r"|^(?:[\w.+-]+\s+)?release v?[0-9]+(?:(?:\.[0-9]+)+\b|\s*$)",
                       re.IGNORECASE)
_CHANGELOG_TITLE_WORDS = ("new", "change", "release", "history")
# …and by their folder: `release-notes/TypeScript 5.0.md`, `releases/4.2.txt`,
# `releaselog/3_45_0.html`, `changelog/`, `whatsnew/3.12.rst`. Not `news/`: a person's folder
# of saved articles is no release notes (a NEWS file is caught by its title).
_CHANGELOG_FOLDER = lazy(r"rel(?:ease)?[-_ ]?(?:notes?|logs?)|releases|change[-_ ]?logs?"
                         r"|what[-_]?s[-_]?new", re.IGNORECASE)
_CHANGELOG_FOLDER_WORDS = ("rel", "change", "what")
# …and by their file name, in a project's top folder or any: `History.md`, `CHANGES.rst`,
# `NEWS`, `CHANGELOG.txt`, `CHANGELOG.2`, gzipped as Debian keeps them (`changelog.Debian.gz`)
# (a page such as SQLite's `c3ref/changes.html` is the API's).
_CHANGELOG_FILE = lazy(r"(?:change[-_ ]?log|changes|history|news|release[-_ ]?notes)"
                       r"(?:\.debian|\.[0-9]+)?(?:\.(?:md|markdown|rst|txt|adoc))?(?:\.gz)?",
                       re.IGNORECASE)
_CHANGELOG_FILE_WORDS = ("change", "history", "news", "release")
# …or such a name in its upstream capitals after the name of the part of a package it
# belongs to: Debian's dovecot-core ships Pigeonhole's release notes as
# `pigeonhole.NEWS.gz` beside Dovecot's `NEWS.gz` (not `fake.news.md`, a note's name).
_PART_CHANGELOG_FILE = lazy(r"[\w+-]+\.(?:NEWS|CHANGES|CHANGELOG|ChangeLog|HISTORY|RELEASE[-_]?NOTES)"
                            r"(?:\.[0-9]+)?(?:\.(?:md|markdown|rst|txt|adoc))?(?:\.gz)?")
# …and a release's own notes named by its number: Vim's `version8.txt` and its HTML
# `version8.html` (1,528 passages of what changed in 8.0 to 8.2).
_VERSION_FILE = lazy(r"version[-_]?[0-9]+(?:\.(?:html?|md|rst|txt))?(?:\.gz)?", re.IGNORECASE)
# Tests, by folder (`tests/`, `test/`, `__tests__/`, `testsuite/`) or by the file
# names test runners look for (`test_x.py`, `x_test.go`, `x.test.js`, `x.spec.ts`).
_TEST_FOLDERS = frozenset({"test", "tests", "__tests__", "testsuite"})
_TEST_FILE = lazy(r"test_.*\.py$|.*(?:_test\.(?:py|go|rb|c|cc|cpp|exs?)"
                  r"|\.(?:test|spec)\.[cm]?[jt]sx?)$", re.IGNORECASE | re.DOTALL)
_TEST_FILE_WORDS = ("test", "spec")
# A `spec/` folder holds tests in a Ruby or JavaScript project, and specifications in
# a person's files: only its code counts as tests.
_SPEC_FOLDERS = frozenset({"spec", "specs"})
# …and the code reader's sections of tests: a member of a `tests` module or class,
# a `test_…` function, a `TestSomething` class (not a prose heading *Tests*).
_TEST_SECTION = lazy(r"(?:tests?|\w+_tests?)\.\w|test_\w|Test[A-Z_]\w*(?:\.\w+)*$")


# A whole page that is an index or a table of contents: "Index", "Index — Python 3.11
# documentation", "Index (libffi …)", a manual's indexes of its kind ("63. Concept Index",
# "Option Index", Exim's and Texinfo's), "perltoc - perl documentation table of contents"
# (not "Index Of A Parameter", nor a section's "TABLE OF CONTENTS" line in a text).
_LISTING_TITLE = lazy(r"(?:[0-9]+(?:\.[0-9]+)*\.?\s+)?"   # a chapter number
                      r"(?:(?:general|module|python module|concept|option|function|variable"
                      r"|command|keyword|program)s?\s+)?index(?:\s*$|\s+[\u2014|(-])"
                      r"|.+\btable of contents$", re.IGNORECASE)
_LISTING_TITLE_WORDS = ("index", "table of contents")


@functools.lru_cache(maxsize=8192)
def is_listing_title(title: str) -> bool:
    """Whether a title names an index or a table of contents of a collection."""
    return holds_any(title, _LISTING_TITLE_WORDS) and _LISTING_TITLE.match(title) is not None


@functools.lru_cache(maxsize=8192)
def is_release_notes_title(title: str) -> bool:
    """Whether a title names release notes (kept: a long-lived process sees the same titles)."""
    return (holds_any(title, _CHANGELOG_TITLE_WORDS)
            and CHANGELOG_TITLE.search(title) is not None)


@functools.lru_cache(maxsize=8192)
def is_release_notes_path(path: str) -> bool:
    """Filed in a release-notes folder, or a file named as release notes are (kept, as titles are)."""
    *folders, name = path.split("/")
    return (any(holds_any(f, _CHANGELOG_FOLDER_WORDS) and _CHANGELOG_FOLDER.fullmatch(f)
                for f in folders)
            or holds_any(name, _CHANGELOG_FILE_WORDS) and (_CHANGELOG_FILE.fullmatch(name) is not None
                                                         or _PART_CHANGELOG_FILE.fullmatch(name) is not None)
            or holds_any(name, ("version",)) and _VERSION_FILE.fullmatch(name) is not None)


# Legal notices: a licence or copyright page, by its file name (Debian's `copyright`
# in every package's documentation folder, `LICENSE`, `COPYING.LIB`, `LICENSE-MIT.txt`,
# a manual's `license.html`, rsyslog's `licensing.html`, SQLite's `copyright-release.html`):
# the name, then at most one mark of which licence or part (`_LEGAL_MARK`), then a text
# extension. A note named by its subject (`copying-files-with-rsync.md`,
# `license-plate-renewal.md`) or a program (`license.py`) is no notice…
_LEGAL_FILE = lazy(r"(?:un)?(?:licen[cs]es?|licensing|copying|copyright)[0-9]*"
                   r"(?:[-_.](?P<mark>[^-_.].*))?", re.IGNORECASE)
_LEGAL_FILE_WORDS = ("licen", "copying", "copyright")
_TEXT_EXTENSION = lazy(r"(?:\.(?:txt|md|markdown|rst|html?|xhtml))?(?:\.gz)?$", re.IGNORECASE)
# …a mark in capitals (`MIT`, `LIB`, `LESSER`, `GPL3`), a version (`2.0`), or a licence's
# or a part's name written small (`license_gpl3.txt`, `copyright-release.html`).
_LEGAL_MARK = lazy(r"v?[0-9][0-9.]*|(?:[al]?gpl|mpl|apache|bsd|mit|isc|cc|lib|lesser"
                   r"|release|runtime|exception)[a-z0-9.]*", re.IGNORECASE)
# …or by its title: "License — fish-shell 3.6.0 documentation", "The Apache License,
# Version 2.0 - Apache HTTP Server Version 2.4", "SQLite Copyright", "History and License"
# (not "License keys", "Copyright notices in the source", "copy — Shallow and deep copy").
_LEGAL_TITLE = lazy(r"(?:history and |the )?(?:[\w.+-]+\s+)?(?:licen[cs]e|licensing|copyright)"
                    r"(?:,?\s+version\s+[0-9.]+)?(?:\s*$|\s+[\u2014\u2013|(-])", re.IGNORECASE)
_LEGAL_TITLE_WORDS = ("licen", "copyright")


@functools.lru_cache(maxsize=8192)
def is_legal_notice(title: str, path: str) -> bool:
    """Whether a document is a licence or copyright notice, by its file name or its
    title (kept, as titles are)."""
    name = path.rsplit("/", 1)[-1]
    return (holds_any(name, _LEGAL_FILE_WORDS) and _legal_file_name(name)
            or holds_any(title, _LEGAL_TITLE_WORDS) and _LEGAL_TITLE.match(title) is not None)


def _legal_file_name(name: str) -> bool:
    """Is a file named as a licence or copyright notice (`_LEGAL_FILE`), by the patterns alone?"""
    found = _LEGAL_FILE.fullmatch(_TEXT_EXTENSION.sub("", name, count=1))
    if found is None:
        return False
    mark = found.group("mark")
    return mark is None or mark.isupper() or _LEGAL_MARK.fullmatch(mark) is not None


def is_test_section(heading: Sequence[str]) -> bool:
    """A section of tests the code reader named (`tests.parses_title`, `test_parse`)."""
    return bool(heading) and _TEST_SECTION.match(heading[0]) is not None


# The extensions the code reader takes (config.CODE_EXTENSIONS, which search does not
# import: it would bring `dataclasses` into every search; a test keeps the two equal),
# told apart as a pattern ignoring case would (`folded`).
_CODE_EXTENSIONS = frozenset(
    ".py .pyw .pyi .js .jsx .ts .tsx .mjs .mts .cjs .cts .go .rs .java .kt .kts .c .h .cc .cpp "
    ".cxx .c++ .hh .hpp .hxx .h++ .cs .rb .php .swift .sh .bash .zsh .ksh .sql .lua .r .pl .pm .awk"
    .split())


@functools.lru_cache(maxsize=8192)
def is_code_path(path: str) -> bool:
    """A source file, by its extension (as the code reader takes it; kept)."""
    name = path.rsplit("/", 1)[-1]
    dot = name.rfind(".")
    return dot >= 0 and folded(name[dot:]) in _CODE_EXTENSIONS


_STYLE_EXTENSIONS = (".css", ".scss", ".less", ".css.gz")


def is_style_sheet(path: str) -> bool:
    """A style sheet, by its extension (as the CSS reader takes it)."""
    return folded(path).endswith(_STYLE_EXTENSIONS)


@functools.lru_cache(maxsize=8192)
def is_test_path(path: str) -> bool:
    """Under a tests folder, named as a test file, or code under a `spec/` folder (kept)."""
    *folders, name = path.split("/")
    folders = [f.lower() for f in folders]
    return (not _TEST_FOLDERS.isdisjoint(folders)
            or holds_any(name, _TEST_FILE_WORDS) and _TEST_FILE.match(name) is not None
            or (not _SPEC_FOLDERS.isdisjoint(folders) and is_code_path(path)))
