"""What kind of document a title or a path names: each kind's pattern is tried only for a
text holding one of its words, and that answers as the pattern alone would."""
from __future__ import annotations

import random
import re

from glean_personal import kinds

TITLES = ["What's New In Python 3.8", "What’s new for 2.0", "Release Notes", "release history",
          "Git v2.30.2 Release Notes", "Release History Of SQLite", "Changes", "CHANGELOG (zstd)",
          "Change log", "Recent SQLite News", "Older news", "NEWS", "2. NEWS", "Release 3.1.21",
          "SQLite Release 3.10.0 On 2016-01-06", "E.21. Release 15", "History",
          "History — mypkg 1.0 documentation", "Version History", "Revision history:",
          "perl5320delta - what is new for perl v5.32.0", "Django 4.2: what's new in Django",
          "History and License", "History Expansion", "Releases", "How to release 2.0 builds",
          "Index", "Index — Python 3.11 documentation", "Index (libffi 3.4)", "63. Concept Index",
          "Option Index", "Python Module Index", "perltoc - perl documentation table of contents",
          "Index Of A Parameter", "TABLE OF CONTENTS", "Brakes", "A kettle", "Renewal plans",
          "Indexing rows", "Kelvin scale", "Spec sheet", "Test plan",
          "License — fish-shell 3.6.0 documentation", "The Apache License, Version 2.0",
          "SQLite Copyright", "License keys", "copy — Shallow and deep copy", ""]
PATHS = ["release-notes/TypeScript 5.0.md", "releases/4.2.txt", "releaselog/3_45_0.html",
         "changelog/x.md", "whatsnew/3.12.rst", "What_s-New/a.md", "news/today.md", "History.md",
         "CHANGES.rst", "NEWS", "pigeonhole.NEWS.gz", "fake.news.md", "glib.ChangeLog", "CHANGELOG.txt", "CHANGELOG.2", "debian/changelog.Debian.gz",
         "c3ref/changes.html", "doc/version8.txt", "doc/version8.html", "version-9.md",
         "tests/test_a.py", "src/a_test.go", "web/x.test.js", "web/x.spec.ts", "spec/x.rb",
         "specs/notes.md", "TestSuite/Thing.java", "a/b/c.PY", "a/b/c.Py", "lib/x.c++",
         "lib/x.H++", "notes/plain.md", "x.tar.gz", "noext", "a.", ".bashrc", "Makefile",
         "copyright", "doc/LICENSE", "COPYING.LIB", "LICENSE-MIT.txt", "license.html",
         "licensing.html", "copyright-release.html", "copy.html", "licensee/notes.md",
         "UNLICENSE", "gcc/COPYING3", "COPYING.LESSER", "notes/copying-files-with-rsync.md",
         "app/license.py"]
# The letters a pattern ignoring case takes for ASCII ones.
LOOKALIKES = {"i": "\u0130\u0131", "k": "\u212a", "s": "\u017f"}


def _variants(text: str, rng: random.Random, n: int = 12):
    yield text
    for _ in range(n):
        out = []
        for ch in text:
            r = rng.random()
            if ch.lower() in LOOKALIKES and r < 0.3:
                out.append(rng.choice(LOOKALIKES[ch.lower()]))
            elif r < 0.6:
                out.append(ch.swapcase())
            else:
                out.append(ch)
        yield "".join(out)


def _release_notes_path(path: str) -> bool:
    *folders, name = path.split("/")
    return (any(kinds._CHANGELOG_FOLDER.fullmatch(f) for f in folders)
            or kinds._CHANGELOG_FILE.fullmatch(name) is not None
            or kinds._PART_CHANGELOG_FILE.fullmatch(name) is not None
            or kinds._VERSION_FILE.fullmatch(name) is not None)


def _test_path(path: str) -> bool:
    *folders, name = path.split("/")
    folders = [f.lower() for f in folders]
    return (not kinds._TEST_FOLDERS.isdisjoint(folders) or kinds._TEST_FILE.match(name) is not None
            or (not kinds._SPEC_FOLDERS.isdisjoint(folders) and kinds.is_code_path(path)))


_CODE = re.compile(r"\.(?:py[wi]?|[jt]sx?|[mc][jt]s|go|rs|java|kts?|c|h|cc|cpp|cxx|c\+\+"
                   r"|hh|hpp|hxx|h\+\+|cs|rb|php|swift|sh|bash|zsh|ksh|sql|lua|r|pl|pm)",
                   re.IGNORECASE)


def _code_path(path: str) -> bool:
    name = path.rsplit("/", 1)[-1]
    dot = name.rfind(".")
    return dot >= 0 and _CODE.fullmatch(name, dot) is not None


def test_each_kind_answers_as_its_pattern_alone_whatever_the_case_and_lookalike_letters():
    rng = random.Random(18)
    for title in TITLES:
        for text in _variants(title, rng):
            assert kinds.is_listing_title(text) == (kinds._LISTING_TITLE.match(text) is not None), text
            assert kinds.is_release_notes_title(text) == (
                kinds.CHANGELOG_TITLE.search(text) is not None), text
    for path in PATHS + TITLES:
        for text in _variants(path, rng):
            assert kinds.is_release_notes_path(text) == _release_notes_path(text), text
            assert kinds.is_test_path(text) == _test_path(text), text
            assert kinds.is_code_path(text) == _code_path(text), text
    for title in TITLES:
        for path in PATHS:
            for t, p in zip(_variants(title, rng, 2), _variants(path, rng, 2)):
                name = p.rsplit("/", 1)[-1]
                assert kinds.is_legal_notice(t, p) == (
                    kinds._legal_file_name(name) or kinds._LEGAL_TITLE.match(t) is not None), (t, p)


def test_the_lookalike_letters_are_all_a_pattern_ignoring_case_takes_for_ascii():
    # What `patterns.folded` relies on, asked of this Python's `re` and `str.lower`.
    others = "".join(map(chr, range(0x80, 0x110000)))
    found = {c: "".join(re.findall(c, others, re.IGNORECASE)) for c in "abcdefghijklmnopqrstuvwxyz"}
    assert {c: s for c, s in found.items() if s} == LOOKALIKES
    assert [ch for ch in others if ch.lower()[0] < "\x80"] == ["\u0130", "\u212a"]


def test_a_question_about_versions_is_told_as_by_its_pattern_alone():
    from glean_personal import search
    rng = random.Random(7)
    questions = ["what's new in 3.12", "What has changed since 2.0", "what was removed",
                 "which options were added in git 2.30", "features introduced between releases",
                 "fixed in v1.2", "what is deprecated", "What’s New", "how do I change the editor",
                 "add a remote", "renew my passport", "prefix matching", "a 3.5 inch drive",
                 "WHAT WERE FIXED", "how do I make a plan for travel", ""]
    for question in questions:
        for text in _variants(question, rng):
            assert search._version_phrase(text) == (
                search._VERSION_PHRASE.search(text) is not None), text


def test_a_question_about_licensing_is_told_as_by_its_pattern_alone():
    from glean_personal import search
    rng = random.Random(11)
    questions = ["is sqlite public domain", "an open-source alternative", "Closed Source use",
                 "is it GPLv3 or AGPL", "may I distribute it", "free software", "a distributed lock",
                 "my linux distribution", "the source of the domain name", "public web site", ""]
    for question in questions:
        for text in _variants(question, rng):
            assert search._legal_phrase(text) == (
                search._LEGAL_PHRASE.search(text) is not None), text
