"""Records behave as the dataclasses they replace, and `search --json` and /chat stay light.

The import check runs the real command in a child process and lists the
modules it loaded: a change that brings `dataclasses` (or the facade's other
reports, or the format readers) back into every search would otherwise only
show as a slower command.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Tuple

import pytest

import glean_personal
from glean_personal.query import Filters, Query, Term
from glean_personal.records import Record, field
from glean_personal.search import TUNING, Hit, SearchResult, SearchTuning, Snippet
from helpers.files import write_tree


class Point(Record, frozen=True):
    x: int
    y: int = 0
    tags: Tuple[str, ...] = ()


class Bag(Record):
    name: str
    items: List[str] = field(default_factory=list)
    extra: Dict[str, int] = field(default_factory=dict)


def test_a_record_is_made_by_position_or_keyword_with_defaults():
    assert Point(1) == Point(x=1) == Point(1, 0, ())
    assert Point(1, y=2).y == 2
    assert repr(Point(1, 2)) == "Point(x=1, y=2, tags=())"
    assert Point(1) != Point(2) and Point(1) != (1, 0, ())


@pytest.mark.parametrize("make", [
    lambda: Point(), lambda: Point(1, 2, (), 4), lambda: Point(1, x=1), lambda: Point(1, z=3)])
def test_wrong_arguments_raise_type_error(make):
    with pytest.raises(TypeError):
        make()


def test_frozen_records_refuse_assignment_and_hash_by_value():
    p = Point(1, 2)
    with pytest.raises(AttributeError):
        p.x = 3
    with pytest.raises(AttributeError):
        del p.y
    assert hash(p) == hash(Point(1, 2)) and len({p, Point(1, 2), Point(2)}) == 2
    assert p.replace(y=5) == Point(1, 5) and p == Point(1, 2)


def test_mutable_records_get_fresh_defaults_and_are_unhashable():
    a, b = Bag("a"), Bag("b")
    a.items.append("x")
    a.extra["k"] = 1
    assert b.items == [] and b.extra == {} and "items" not in vars(Bag)
    a.name = "c"
    assert a == Bag("c", ["x"], {"k": 1})
    with pytest.raises(TypeError):
        hash(a)


def test_a_field_without_default_cannot_follow_one_with_default():
    with pytest.raises(TypeError):
        class Bad(Record):  # noqa: F841
            a: int = 1
            b: int


def test_the_search_types_keep_their_fields_and_defaults():
    assert Term(("a",)) == Term(("a",), False, False, -1) and hash(Term(("a",)))
    assert Query("q").terms == [] and Query("q").terms is not Query("q").terms
    assert Filters().replace(formats=("md",)) == Filters(formats=("md",))
    assert not Filters().any and Filters(path_glob="*.md").any
    assert TUNING == SearchTuning() and TUNING.replace(rare=0.4).rare == 0.4
    assert Snippet("t", [(0, 1)]).ordinal == 0
    assert SearchResult("q", "fts5").results == []
    hit = Hit({"title": "T", "url": "u"}, 1.0, [], 1, 2, [])
    assert hit.also_at == [] and hit.title == "T" and hit.strength == 0.0


# Modules a `search --json` must not load: `dataclasses` (about 10 ms, with
# `inspect`), the reports of the facade's other methods, the format readers,
# the graph, the indexer and its workers (`multiprocessing`, `zipfile` and
# `tempfile` with them), the graph's phrases (near-duplicate folding reads its
# sketches without them), did-you-mean for a query of known words, the writers'
# lock, the other surfaces, and the text renderer and error handler (JSON out, no
# error). (`heapq` is left to indexing too, but Python 3.9's `collections` imports it.)
NOT_IMPORTED = ("dataclasses", "inspect", "glean_personal.reports",
                "glean_personal.formats", "glean_personal.graph", "glean_personal.indexer",
                "glean_personal.workers", "glean_personal.walk", "glean_personal.config",
                "glean_personal.passages", "glean_personal.phrases", "glean_personal.spelling",
                "multiprocessing",
                "concurrent", "zipfile", "tempfile", "fcntl",
                "glean_personal.surfaces.repl", "glean_personal.surfaces.mcp",
                "glean_personal.surfaces.render.text", "glean_personal.surfaces.failures")

_CHILD = """
import sys
from glean_personal.surfaces.cli import main
code = main(sys.argv[1:])
sys.stdout.flush()
print("\\n" + " ".join(sorted(sys.modules)), file=sys.stderr)
sys.exit(code)
"""


def test_search_json_imports_only_what_it_needs(tmp_path, store_kind):
    root = write_tree(tmp_path / "notes", {"a.md": "# Brakes\n\nAdjust the brake cable.\n"})
    db = tmp_path / "p.db"
    done = subprocess.run([sys.executable, "-m", "glean_personal", "index", str(root), "--db",
                           str(db), "--quiet"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    # -S: no site-packages, so nothing but the command itself imports anything (a .pth
    # file may import what it likes); the package comes from where this test found it.
    package = str(Path(glean_personal.__file__).resolve().parents[1])
    child = subprocess.run([sys.executable, "-S", "-c", _CHILD, "search",
                            "how do I adjust the brakes", "--json", "--db", str(db)],
                           capture_output=True, text=True, cwd=str(tmp_path),
                           env=dict(os.environ, PYTHONPATH=package))
    assert child.returncode == 0, child.stderr
    assert json.loads(child.stdout)["results"][0]["title"] == "Brakes"
    loaded = set(child.stderr.split())
    assert "glean_personal.search" in loaded
    assert not [m for m in loaded if m in NOT_IMPORTED or m.startswith(
        tuple(n + "." for n in NOT_IMPORTED))]


def test_a_type_filter_does_not_import_the_readers(tmp_path, store_kind):
    """`--type markdown` is resolved from the extension table alone (config), not by
    importing every format reader: that cost a search command 0.13 s of CPU."""
    root = write_tree(tmp_path / "notes", {"a.md": "# Brakes\n\nAdjust the brake cable.\n",
                                           "b.txt": "Brake pads wear.\n"})
    db = tmp_path / "p.db"
    with glean_personal.open_index(db) as ix:
        ix.index(root)
    package = str(Path(glean_personal.__file__).resolve().parents[1])
    child = subprocess.run([sys.executable, "-S", "-c", _CHILD, "search", "brake", "--type",
                            "markdown", "--json", "--db", str(db)],
                           capture_output=True, text=True, cwd=str(tmp_path),
                           env=dict(os.environ, PYTHONPATH=package))
    assert child.returncode == 0, child.stderr
    assert [r["document"]["path"] for r in json.loads(child.stdout)["results"]] == ["a.md"]
    loaded = set(child.stderr.split())
    assert not [m for m in loaded if m.startswith("glean_personal.formats")]


# What a /chat question needs none of: the code that indexes, reads formats and
# reports on the index (`Index.status()` brings it all in: a third of a second
# before the first answer).
INDEX_CODE = ("glean_personal.indexer", "glean_personal.walk", "glean_personal.formats",
              "glean_personal.workers", "glean_personal.graph", "glean_personal.reports",
              "multiprocessing", "concurrent", "zipfile")

_CHAT_CHILD = """
import sys
from glean_personal.surfaces.local_backend import LocalBackend
backend = LocalBackend(sys.argv[1])
answer = backend.call("chat", {"messages": [{"author": "USER",
                                             "fragments": [{"text": sys.argv[2]}]}]})
print(answer["messages"][0]["citations"][0]["sourceDocument"]["title"])
print(" ".join(sorted(sys.modules)), file=sys.stderr)
"""


def test_a_chat_question_imports_no_index_code(tmp_path, store_kind):
    root = write_tree(tmp_path / "notes", {"a.md": "# Brakes\n\nAdjust the brake cable.\n"})
    with glean_personal.open_index(tmp_path / "p.db") as ix:
        ix.index(root)
    package = str(Path(glean_personal.__file__).resolve().parents[1])
    child = subprocess.run([sys.executable, "-S", "-c", _CHAT_CHILD, str(tmp_path / "p.db"),
                            "how do I adjust the brakes"],
                           capture_output=True, text=True, cwd=str(tmp_path),
                           env=dict(os.environ, PYTHONPATH=package))
    assert child.returncode == 0, child.stderr
    assert child.stdout.split("\n")[0] == "Brakes"
    loaded = set(child.stderr.split())
    assert not [m for m in loaded if m in INDEX_CODE or m.startswith(
        tuple(n + "." for n in INDEX_CODE))]


def test_the_command_line_alone_imports_no_index_code():
    # `glean-personal --help`, `--version` and a usage error need the parser only.
    package = str(Path(glean_personal.__file__).resolve().parents[1])
    child = subprocess.run([sys.executable, "-S", "-c", "import sys, glean_personal.surfaces.cli; "
                            "print(' '.join(sorted(sys.modules)))"],
                           capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=package))
    assert child.returncode == 0, child.stderr
    loaded = set(child.stdout.split())
    assert "glean_personal.surfaces.cli" in loaded
    heavy = NOT_IMPORTED + ("sqlite3", "json", "glean_personal.api", "glean_personal.store",
                            "glean_personal.search", "glean_personal.query")
    assert not [m for m in loaded if m in heavy or m.startswith(tuple(n + "." for n in heavy))]


def test_the_thesaurus_is_read_only_for_a_question_in_plain_words():
    # ...and then only the lines holding its words: the whole table is never parsed.
    from glean_personal import synonyms as thesaurus
    from glean_personal.query import parse
    thesaurus._table.cache_clear()
    thesaurus._entry.cache_clear()
    thesaurus._key.cache_clear()
    parse("rmtree -force")
    assert thesaurus._entry.cache_info().currsize == 0
    assert parse("how do I delete a folder").expansions
    assert thesaurus._entry.cache_info().currsize > 0
    assert thesaurus._table.cache_info().currsize == 0
