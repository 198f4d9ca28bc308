"""Reading part of a document through the API and `fetch`: the same text as the whole, cut
where asked, always saying where it is and how to read on."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

import glean_personal
from glean_personal.errors import NotFound, UsageError
from glean_personal.surfaces import cli
from test_local_backend import build_index
from test_mcp import write_long
from helpers.files import write_tree


@pytest.fixture(scope="module", params=["fts5", "plain"])
def db(request, tmp_path_factory):
    tmp = tmp_path_factory.mktemp(f"reading-{request.param}")
    write_long(tmp / "files")
    return build_index(tmp / "files", tmp / "p.db", request.param)


def test_the_whole_part_is_the_fetched_text_for_every_document(db):
    with glean_personal.open_index(db) as ix:
        for doc_id in ix.store.document_ids():
            part = ix.read(doc_id)
            assert part.text == ix.fetch(doc_id).text and part.complete and part.next is None


def test_offsets_walk_the_whole_text_without_gaps_or_overlaps(db):
    with glean_personal.open_index(db) as ix:
        whole = ix.fetch("guide.md").text
        text, offset = "", 0
        while True:
            part = ix.read("guide.md", offset=offset, max_chars=700)
            assert len(part.text) <= 700
            text += part.text
            if part.next is None:
                break
            offset = part.next["offset"]
        assert text == whole


def test_an_offset_past_the_end_of_its_part_is_a_usage_error(db, capsys):
    """(review16) It answered an empty text marked cut (`complete` false: MCP's
    `truncated: true`) with no `next`, so an agent could not tell the end from a cut."""
    with glean_personal.open_index(db) as ix:
        size = len(ix.fetch("guide.md").text)
        assert ix.read("guide.md", offset=size - 1).text == ix.fetch("guide.md").text[-1:]
        for offset in (size, size + 1, 10 ** 12):
            with pytest.raises(UsageError, match="past the end of the whole document"):
                ix.read("guide.md", offset=offset)
        chapter = ix.read("guide.md", section="Chapter 2")
        with pytest.raises(UsageError, match="past the end of section"):
            ix.read("guide.md", section="Chapter 2", offset=len(chapter.text))
        assert ix.read("guide.md", section="Chapter 2", offset=len(chapter.text) - 1).text
    assert cli.main(["fetch", "guide.md", "--offset", str(size), "--db", str(db)]) == 2
    assert "past the end" in capsys.readouterr().err


def test_lines_are_the_files_lines(db):
    source = (Path(db).parent / "files" / "long" / "birds.log.txt").read_text().splitlines()
    with glean_personal.open_index(db) as ix:
        part = ix.read("birds.log", lines="1-940")
        assert part.text.split("\n") == source and part.next is None
        cut = ix.read("birds.log", lines=[100, 200], max_chars=500)
        assert cut.lines[0] == 100 and cut.lines[1] < 200 and not cut.complete
        assert cut.next == {"lines": f"{cut.lines[1] + 1}-200", "max_chars": 500}
        assert cut.text.split("\n") == source[99:cut.lines[1]]


def test_an_open_range_of_lines_runs_to_the_last(db):
    """`120-` reads to the end of the file (it read line 120 alone)."""
    source = (Path(db).parent / "files" / "long" / "birds.log.txt").read_text().splitlines()
    with glean_personal.open_index(db) as ix:
        part = ix.read("birds.log", lines="931-")
        assert list(part.lines) == [931, 940] and part.text.split("\n") == source[930:]
        assert ix.read("birds.log", lines="7").text.split("\n") == source[6:7]
        with pytest.raises(UsageError):
            ix.read("birds.log", lines="-5")


@pytest.mark.parametrize("part", [{"section": "Chapter 99"}, {"page": "99"},
                                  {"lines": "941-950"}])
def test_a_part_the_document_does_not_have_is_not_found(db, part, capsys):
    """A section, page or line that does not exist is exit 1 as a missing document
    is (it was a usage error, exit 2); the message says what there is."""
    name = "survey.pdf" if "page" in part else "birds.log" if "lines" in part else "guide.md"
    with glean_personal.open_index(db) as ix:
        with pytest.raises(NotFound):
            ix.read(name, **part)
    (flag, value), = part.items()
    assert cli.main(["fetch", name, f"--{flag}", value, "--db", str(db)]) == 1
    assert capsys.readouterr().err.startswith("glean-personal: no ")


def test_context_without_around_is_a_usage_error(db, capsys):
    assert cli.main(["fetch", "guide.md", "--context", "3", "--db", str(db)]) == 2
    assert "--around" in capsys.readouterr().err


def test_sections_pages_and_the_outline(db):
    with glean_personal.open_index(db) as ix:
        outline = ix.outline("guide.md")
        assert [e.heading[-1] for e in outline.entries][:3] == [
            "Field guide", "Chapter 1", "Notes 1"]
        whole = ix.fetch("guide.md").text
        for e in outline.entries:
            assert whole[e.offset:].startswith("#" * e.level + " " + e.heading[-1])
        part = ix.read("guide.md", section="field guide > chapter 2")
        assert part.section == ["Field guide", "Chapter 2"]
        assert part.text == whole[part.start:part.end] and "### Notes 2" in part.text
        page = ix.read("survey.pdf", page="12")
        assert "lapwing count 84" in page.text and page.next is None
        with pytest.raises(UsageError):
            ix.read("guide.md", section="Chapter 1", page=1)


def test_cli_fetch_reads_parts(db, capsys):
    assert cli.main(["fetch", "birds.log", "--lines", "5-6", "--db", str(db)]) == 0
    out = capsys.readouterr().out
    assert "lines 5-6 of 940" in out and "0005 kestrel" in out and "--lines 7-8" in out
    assert cli.main(["fetch", "guide.md", "--outline", "--json", "--db", str(db)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["sections"][1]["heading"] == ["Field guide", "Chapter 1"]
    assert cli.main(["fetch", "guide.md", "--section", "Notes 4", "--db", str(db)]) == 0
    assert "Ferry timetable for chapter 4." in capsys.readouterr().out
    assert cli.main(["fetch", "survey.pdf", "--page", "2", "--json", "--db", str(db)]) == 0
    assert json.loads(capsys.readouterr().out)["next"] == {"page": "3"}
    assert cli.main(["fetch", "--db", str(db)]) == 2
    assert "fetch needs DOC" in capsys.readouterr().err
    assert cli.main(["fetch", "guide.md", "--lines", "1-2", "--page", "1",
                     "--db", str(db)]) == 2


@pytest.mark.parametrize("asked, span", [("2", "line 2 holds"), ("4-6", "lines 4-6 hold")])
def test_lines_no_passage_holds_have_no_offsets(db, asked, span, capsys):
    """A blank line or a heading between passages: an empty text, offsets None (not -1)
    and a warning saying why, in the API and in `fetch --json` alike (newuser item 20)."""
    first, _, last = asked.partition("-")
    with glean_personal.open_index(db) as ix:
        part = ix.read("guide.md", lines=asked)
        assert part.text == "" and part.start is None and part.end is None
        assert part.lines == [int(first), int(last or first)] and part.complete
        assert any(w.startswith(f"{span} no indexed text") for w in part.warnings)
        held = ix.read("guide.md", lines="3")
        assert held.text == "Read this before the trip." and not held.warnings
        assert 0 <= held.start < held.end
    assert cli.main(["fetch", "guide.md", "--lines", asked, "--json", "--db", str(db)]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["start"] is None and data["end"] is None and data["text"] == ""
    assert cli.main(["fetch", "guide.md", "--lines", asked, "--db", str(db)]) == 0
    assert f"warning: {span} no indexed text" in capsys.readouterr().out


def test_around_one_passage_is_that_passage_as_search_shows_it(tmp_path):
    """Sentence windows of a long paragraph overlap; `around N` with no context gave
    passage N without the sentences it repeats from the one before, and the lines
    of that one (agent trial)."""
    sentences = [f"Sentence {n} tells how the lock keeper opens gate {n} at dawn." for n in range(400)]
    write_tree(tmp_path / "files", {"log.txt": "Gate log\n\n" + "\n".join(sentences) + "\n"})
    db = build_index(tmp_path / "files", tmp_path / "p.db", "fts5")
    with glean_personal.open_index(db) as ix:
        doc = ix.resolve("log.txt")["id"]
        passages = ix.store.passages_of(doc)
        assert any(b["start"] < a["end"] for a, b in zip(passages, passages[1:]))   # overlapping
        for p in passages:
            part = ix.read(doc, around=p["id"], context=0)
            assert part.text == p["text"] and part.passages == [p["id"]]
            assert part.lines == list(p["lines"])


def test_a_file_changed_since_it_was_indexed_is_read_as_indexed_with_a_warning(tmp_path, capsys):
    """`fetch` quoted the indexed text of a file edited since, with no word of it
    (lifecycle trial): every read now says the file has changed."""
    folder = write_tree(tmp_path / "files", {"travel.md": "# Travel\n\nTrain to Porto at nine.\n"})
    db = build_index(folder, tmp_path / "p.db", "plain")
    changed = "the file has changed since it was indexed"
    with glean_personal.open_index(db) as ix:
        assert not ix.fetch("travel.md").warnings and not ix.read("travel.md").warnings
        with open(folder / "travel.md", "a", encoding="utf-8") as f:
            f.write("Ferry to Vigo at noon.\n")
        for read in (ix.fetch("travel.md"), ix.read("travel.md", lines="3")):
            assert "Ferry" not in read.text and any(w.startswith(changed) for w in read.warnings)
    assert cli.main(["fetch", "travel.md", "--db", str(db)]) == 0
    assert f"warning: {changed}" in capsys.readouterr().out
