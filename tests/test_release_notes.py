"""Release notes name every feature in passing: for a search that is not about
versions or changes, they count at half, so the page that explains comes first."""
from __future__ import annotations

import pytest

from glean_personal.kinds import CHANGELOG_TITLE as _CHANGELOG_TITLE

TOPICS = ["routing", "templates", "sessions", "logging", "testing", "deployment", "caching",
          "security", "settings", "databases", "signals", "commands"]
NOTES = "# {title}\n\n" + "".join(
    f"## 1.{n}.0\n\n- Improve {TOPICS[n]} and {TOPICS[n - 1]}.\n"
    + ("- Upload files faster; upload files of any size.\n" if n % 3 == 0 else "")
    + "\n" for n in range(12))
GUIDE = ("# Sending data\n\nThis page shows forms, JSON bodies and other ways to send data. "
         "Read it after the tutorial on paths.\n\n"
         "## Forms and bodies\n\n"
         + "Forms and bodies can be mixed in one request, as later sections show. " * 14
         + "To upload files, declare a parameter of type UploadFile; large ones are spooled "
         "to disk.\n")


def _index(open_ix, tmp_path, title="Release Notes", notes="release-notes.md"):
    folder = tmp_path / "docs"
    (folder / notes).parent.mkdir(parents=True)
    (folder / notes).write_text(NOTES.format(title=title), encoding="utf-8")
    (folder / "sending-data.md").write_text(GUIDE, encoding="utf-8")
    for n, topic in enumerate(TOPICS * 2):
        (folder / f"{topic}-{n}.md").write_text(
            f"# {topic.title()} {n}\n\nHow {topic} works: paths, handlers and options.\n"
            + "Each request passes through the application once. " * 8, encoding="utf-8")
    ix = open_ix()
    ix.index(folder)
    return ix


@pytest.mark.parametrize("title", ["Release Notes", "Changelog", "History", "Version History"])
def test_a_question_finds_the_guide_before_the_release_notes(open_ix, tmp_path, title):
    ix = _index(open_ix, tmp_path, title)
    titles = [h.title for h in ix.search("how do I upload files", limit=2).results]
    assert titles == ["Sending data", title]


@pytest.mark.parametrize("title", ["NEWS", "2. NEWS", "4.1 Release Notes", "Release 3.1.21",
                                   "Pgpool-II Release 4.1.0",
                                   "perl5320delta - what is new for perl v5.32.0",
                                   "E.21. Release 15"])
def test_release_notes_known_by_their_title_alone_a_chapter_number_aside(open_ix, tmp_path, title):
    ix = _index(open_ix, tmp_path, title, notes="dist-files.md")   # no release-notes path
    titles = [h.title for h in ix.search("how do I upload files", limit=2).results]
    assert titles == ["Sending data", title]


def test_pages_about_history_are_not_release_notes():
    for title in ("History and License — Python 3.11 documentation", "History of the Project",
                  "Design and History FAQ", "Historical notes", "History Expansion",
                  "History API", "History Library (GNU Readline)", "1. History Expansion",
                  "What is new here: the index page", "Knowing what is new"):
        assert not _CHANGELOG_TITLE.search(title), title
    for title in ("History — mypkg 1.0 documentation", "HISTORY", "Release History Of SQLite"):
        assert _CHANGELOG_TITLE.search(title), title


def test_a_page_about_releasing_is_not_a_release():
    for title in ("How to release 2.0 builds", "Pre-release 1.0.0 checklist", "Release 2 planning",
                  "Releases"):
        assert not _CHANGELOG_TITLE.search(title), title


def test_a_question_about_changes_keeps_the_release_notes_whole(open_ix, tmp_path):
    ix = _index(open_ix, tmp_path)
    titles = [h.title for h in ix.search("what changed for upload files", limit=2).results]
    assert titles[0] == "Release Notes"


def test_release_notes_filed_in_their_folder_count_half_even_titled_by_version(open_ix, tmp_path):
    # As TypeScript's handbook files them: `release-notes/TypeScript 5.0.md`, titled by version.
    ix = _index(open_ix, tmp_path, "Widget 1.0", "release-notes/Widget 1.0.md")
    guide, notes = ix.search("how do I upload files", limit=2).results
    assert (guide.title, notes.title) == ("Sending data", "Widget 1.0")
    # Undamped, the notes score about as high as the guide (in the plain store still
    # just below it), so the order alone would not show the folder counting.
    assert notes.score < 0.75 * guide.score
    assert "Widget 1.0" in [h.title for h in ix.search("what changed for upload files", limit=2).results]


def test_a_parts_release_notes_named_after_it_count_half(open_ix, tmp_path):
    # Debian's dovecot-core ships Pigeonhole's NEWS as `pigeonhole.NEWS.gz` beside Dovecot's
    # own `NEWS.gz`: entries under a version line, no title.
    ix = _index(open_ix, tmp_path, "v0.5.19  2022-05-10  Aki Tuomi", "pigeonhole.NEWS")
    hits = ix.search("how do I upload files", limit=2).results
    guide, notes = sorted(hits, key=lambda h: -h.score)
    assert guide.title == "Sending data" and notes.document["path"] == "pigeonhole.NEWS"
    assert notes.score < 0.75 * guide.score   # undamped, about level (below)
    # …while a note named in lower case by its subject is no release notes.
    ix = _index(lambda: open_ix("b.db"), tmp_path / "b", "v0.5.19  2022-05-10  Aki Tuomi", "fake.news")
    score = {h.document["path"]: h.score for h in ix.search("how do I upload files", limit=2).results}
    assert score["fake.news"] >= 0.75 * score["sending-data.md"]


def test_a_folder_of_saved_news_articles_is_not_release_notes(open_ix, tmp_path):
    ix = _index(open_ix, tmp_path, "Widget 1.0", "news/Widget 1.0.md")
    score = {h.title: h.score for h in ix.search("how do I upload files", limit=2).results}
    assert score["Widget 1.0"] >= 0.75 * score["Sending data"]   # undamped: about level



def test_a_keyword_search_finds_the_page_before_the_release_notes(open_ix, tmp_path):
    # Names and quoted phrases too: the notes repeat `upload files` release after
    # release, in short sections that outscore the page about it when undamped.
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "release-notes.md").write_text("# Release Notes\n\n" + "".join(
        f"## 1.{n}.0\n\n- Improve the handlers.\n"
        + ("- Upload files faster; upload files of any size.\n" if n % 3 == 0 else "") + "\n"
        for n in range(12)), encoding="utf-8")
    (folder / "uploads.md").write_text(
        "# Uploads\n\nTo upload files, declare a parameter of type UploadFile: upload files "
        "larger than a megabyte are spooled to disk.\n", encoding="utf-8")
    for n in range(20):
        (folder / f"page-{n}.md").write_text(
            f"# Page {n}\n\nHow requests work: paths, handlers and options.\n"
            + "Each request passes through the application once. " * 8, encoding="utf-8")
    ix = open_ix()
    ix.index(folder)
    for query in ('"upload files"', "UploadFile"):
        assert [h.title for h in ix.search(query, limit=2).results] == ["Uploads", "Release Notes"]
    # …unless the search names a version
    assert ix.search('"upload files" 1.3.0', limit=1).results[0].title == "Release Notes"


def _index_with_shortlog(open_ix, tmp_path, versions=150):
    """A manual's few pages beside a shortlog that is most of the index (as Git's is)."""
    folder = tmp_path / "manual"
    folder.mkdir()
    (folder / "changelog.md").write_text("# Changelog\n\n" + "".join(
        f"## Version 2.{n}\n\n- blame: fix a crash with {TOPICS[n % 12]}\n"
        f"- blame: speed up the {TOPICS[(n + 5) % 12]} output\n\n" for n in range(versions)),
        encoding="utf-8")
    (folder / "git-blame.md").write_text(
        "# git-blame\n\nShow what revision and author last modified each line of a file.\n",
        encoding="utf-8")
    (folder / "records.md").write_text(
        "# Records\n\nEach row of the file is a record: a line with the source it came from.\n",
        encoding="utf-8")
    for n, topic in enumerate(TOPICS):
        (folder / f"{topic}.md").write_text(
            f"# {topic.title()}\n\nHow {topic} works, with its options and a row of examples.\n",
            encoding="utf-8")
    ix = open_ix()
    ix.index(folder)
    return ix


def test_bulky_release_notes_count_as_one_passage_when_words_are_weighed(open_ix, tmp_path):
    from glean_personal import search as search_module
    from glean_personal.evidence import Weights
    from glean_personal.query import parse
    ix = _index_with_shortlog(open_ix, tmp_path)
    notes = ix.resolve("changelog.md")["passages"]
    total = ix.store.passage_count()
    assert notes > total / 2
    with ix.store.reading():
        weights = Weights(ix.store, parse("blame row"), search_module.TUNING)
        assert weights.counts[:2] == [2, 13]   # git-blame.md and the notes once; no row in them
        assert weights.passages == total - notes + 1
        plain = Weights(ix.store, parse("blame row"),
                        search_module.TUNING.replace(bulky_notes=0.0))
        assert plain.counts[0] == notes + 1 and plain.passages == total
        assert weights.term[0] > weights.term[1] and plain.term[0] < plain.term[1]


def _changelog(folder, word, versions):
    """A shortlog of `versions` releases, each fixing a crash in `word`."""
    (folder / "changelog.md").write_text("# Changelog\n\n" + "".join(
        f"## Version 2.{n}\n\n- {word}: fix a crash with {TOPICS[n % 12]}\n\n"
        for n in range(versions)), encoding="utf-8")


def test_a_word_the_release_notes_repeat_still_weighs_as_rare(open_ix, tmp_path, monkeypatch):
    # Counted in the shortlog's passages, *blame* weighs less than *row*, and the
    # pages holding *row* lead; counted once for the notes, it is as rare as *row*,
    # and the page that holds it where it is rarer, short and titled by it, leads.
    from glean_personal import search as search_module
    folder = tmp_path / "manual"
    folder.mkdir()
    _changelog(folder, "blame", 40)
    (folder / "git-blame.md").write_text(
        "# git-blame\n\nBlame a file: show what revision and author last modified each line.\n",
        encoding="utf-8")
    for n in range(100):
        (folder / f"page{n}.md").write_text(
            f"# Page {n}\n\nHow {TOPICS[n % 12]} works"
            + (", row by row, " + "with its options and settings " * 10 if n % 20 == 0 else "")
            + ".\n", encoding="utf-8")
    ix = open_ix()
    ix.index(folder)
    assert [h.document["path"] for h in ix.search("blame row", limit=6).results][0] == (
        "git-blame.md")
    monkeypatch.setattr(search_module, "TUNING", search_module.TUNING.replace(bulky_notes=0.0))
    assert [h.document["path"] for h in ix.search("blame row", limit=6).results][-1] == (
        "git-blame.md")


@pytest.mark.parametrize("question, share", [
    ("a crash to report with my version", 0.5),        # a version, not a release
    ("the blame crash in my history", 0.5),             # a commit history, not a release
    ("what changed in version 2.40", 1.0), ("crash fixed in the last release", 1.0)])
def test_bulky_release_notes_count_half_unless_the_question_asks_about_releases(
        open_ix, tmp_path, monkeypatch, question, share):
    # Every passage of the shortlog is headed by its version, so *version* alone
    # matches them all; it names a version to pin or to report as often as a release.
    from glean_personal import search as search_module
    ix = _index_with_shortlog(open_ix, tmp_path)

    def notes_score():
        hits = ix.search(question, limit=20).results
        return next(h.score for h in hits if h.document["path"] == "changelog.md")
    damped = notes_score()
    monkeypatch.setattr(search_module, "TUNING", search_module.TUNING.replace(changelog=1.0))
    assert damped == pytest.approx(share * notes_score(), rel=1e-6)


def test_bulky_release_notes_leave_the_index_its_size(open_ix, tmp_path):
    # Counted as one passage for rarity, the notes still count whole for whether the
    # index is small (fewer than `small_index` passages): that is the index's size,
    # the same for every search, whether its words are in the notes or not.
    from glean_personal import search as search_module
    ix = _index_with_shortlog(open_ix, tmp_path, versions=220)
    total = ix.store.passage_count()
    assert total >= search_module.TUNING.small_index
    assert ix.search("blame row").small_index is False
    assert ix.search("zzqx wwqy").small_index is False


def test_bulky_release_notes_are_known_by_their_title_too(open_ix, tmp_path):
    # a file not named as notes, titled as them
    from glean_personal import search as search_module
    from glean_personal.evidence import Weights
    from glean_personal.query import parse
    folder = tmp_path / "manual"
    folder.mkdir()
    (folder / "updates.md").write_text("# Release Notes\n\n" + "".join(
        f"## Version 2.{n}\n\n- blame: fix a crash with {TOPICS[n % 12]}\n\n" for n in range(60)),
        encoding="utf-8")
    (folder / "git-blame.md").write_text("# git-blame\n\nShow who last changed each line.\n",
                                         encoding="utf-8")
    ix = open_ix()
    ix.index(folder)
    notes = ix.resolve("updates.md")["passages"]
    with ix.store.reading():
        weights = Weights(ix.store, parse("blame"), search_module.TUNING)
    assert weights.notes and weights.counts == [2]
    assert weights.passages == ix.store.passage_count() - notes + 1


def test_bulky_release_notes_lend_themselves_no_support(open_ix, tmp_path, monkeypatch):
    # Counted as one passage, the shortlog's further passages naming a setting add
    # nothing to its score: as many passages as it has, twenty of them tripled
    # its best one's score for a search of words, and it came before the page
    # that explains the setting (Git's changelog.gz, second for `core.autocrlf`).
    from glean_personal import search as search_module
    folder = tmp_path / "manual"
    folder.mkdir()
    _changelog(folder, "autocrlf", 150)
    (folder / "config.md").write_text(
        "# Configuration\n\nThe autocrlf setting converts the line endings of text files "
        "when they are added, and back when they are checked out.\n", encoding="utf-8")
    for topic in TOPICS:
        (folder / f"{topic}.md").write_text(
            f"# {topic.title()}\n\nHow {topic} works, with its options.\n", encoding="utf-8")
    ix = open_ix()
    ix.index(folder)
    assert [h.title for h in ix.search("autocrlf", limit=2).results] == [
        "Configuration", "Changelog"]
    # A search about releases still counts the notes passage by passage.
    assert ix.search("autocrlf release", limit=1).results[0].title == "Changelog"
    monkeypatch.setattr(search_module, "TUNING", search_module.TUNING.replace(bulky_notes=0.0))
    assert ix.search("autocrlf", limit=1).results[0].title == "Changelog"
