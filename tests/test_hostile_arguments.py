"""Arguments an agent or a user may send that int() or the clock cannot take:
digit strings over Python's 4,300-digit conversion limit, JSON integers as
long, and dates before 1970 in local time. Each is refused (or taken) by name,
never an internal error."""
from __future__ import annotations

import json

import pytest

from glean_personal.surfaces import mcp
from glean_personal.surfaces.cli import main
from helpers.corpora import build_index
from pdf_factory import show, text_pdf

BIG = "9" * 5000


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("hostile-args")
    folder = tmp / "files"
    folder.mkdir()
    (folder / "note.md").write_text("# Note\n\nThe heron waits by the weir.\n")
    (folder / "survey.pdf").write_bytes(text_pdf([show(["Page one: heron count 7."]),
                                                  show(["Page two: heron count 9."])]))
    return build_index(folder, tmp / "p.db", "fts5")


def call(db, line: str) -> dict:
    server = mcp.Server(str(db))
    message = mcp.parse(line)
    if isinstance(message, mcp._Unparsed):
        return message.reply
    server.arrived(message)
    return server.handle(message)


def tool_text(reply: dict) -> str:
    result = reply["result"]
    assert result.get("isError"), result
    return result["content"][0]["text"]


@pytest.mark.parametrize("name, arguments, expected", [
    ("local_search", {"query": "heron", "limit": BIG}, "`limit` must be a whole number"),
    ("local_search", {"query": "heron", "offset": BIG}, "`offset` must be a whole number"),
    ("local_fetch", {"id": BIG}, "`id` must be a document id"),
    ("local_fetch", {"doc": BIG}, "no indexed document matches"),
    ("local_fetch", {"around": BIG}, "`around` must be a whole number"),
    ("local_fetch", {"doc": "survey.pdf", "page": BIG}, "no page"),
    ("local_related", {"doc": BIG}, "no indexed document matches"),
])
def test_digit_strings_too_long_for_int_are_refused_by_name(db, name, arguments, expected):
    line = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                       "params": {"name": name, "arguments": arguments}})
    text = tool_text(call(db, line))
    assert expected in text and "internal error" not in text


def test_json_integers_too_long_for_int_are_refused_not_a_parse_error(db):
    line = ('{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"local_search",'
            '"arguments":{"query":"heron","limit":%s}}}' % BIG)
    reply = call(db, line)
    assert reply["id"] == 3
    assert "`limit` must be a whole number" in tool_text(reply)
    reply = call(db, '{"jsonrpc":"2.0","id":%s,"method":"ping"}' % BIG)
    assert reply["error"]["code"] == -32600 and reply["id"] is None
    json.dumps(reply, allow_nan=False)   # nothing infinite is echoed


def test_the_first_dates_are_dates(db, capsys):
    line = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
        "name": "local_search", "arguments": {"query": "heron", "after": "0001-01-01"}}})
    result = call(db, line)["result"]
    assert not result.get("isError"), result
    assert result["structuredContent"]["results"]
    assert main(["search", "heron", "--after", "0001-01-01", "--db", str(db), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["results"]


def test_a_cli_reference_too_long_for_int_is_no_such_document(db, capsys):
    assert main(["fetch", BIG, "--db", str(db)]) == 1
    err = capsys.readouterr().err
    assert "no indexed document matches" in err and "internal error" not in err


def test_a_repl_cursor_too_long_for_int_is_unknown(db):
    from glean_personal.errors import UsageError
    from glean_personal.surfaces.local_backend import LocalBackend
    with pytest.raises(UsageError, match="unknown cursor"):
        LocalBackend(db).search({"query": "heron", "cursor": BIG})


def test_a_message_over_the_size_limit_is_dropped_and_the_next_answered(db, monkeypatch, tmp_path):
    """A client that never ends its line cannot fill the server's memory."""
    import io
    import os
    monkeypatch.setattr(mcp, "MAX_LINE", 1000)
    data = (b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"' + b"x" * 5000 + b'"}}\n'
            + b'{"jsonrpc":"2.0","id":2,"method":"ping"}\n' + b"y" * 3000)
    path = tmp_path / "in.jsonl"
    path.write_bytes(data)
    with open(path, "rb") as stdin:
        assert list(mcp._lines(stdin)) == [None, b'{"jsonrpc":"2.0","id":2,"method":"ping"}', None]
    out = io.BytesIO()
    with open(path, "rb") as stdin:
        mcp.serve(stdin, out, str(db))
    replies = [json.loads(line) for line in out.getvalue().splitlines()]
    assert [r.get("id") for r in replies] == [None, 2, None]
    assert "limited to" in replies[0]["error"]["message"]
    assert replies[1]["result"] == {}
    assert os.path.exists(db)


def test_index_takes_one_glob_as_a_string_and_refuses_a_size_below_one(open_ix, tmp_path):
    """`ix.index(folder, include="*.md")` (review16): the string was read as the globs
    `*`, `.`, `m`, `d`, so every file was indexed, and `exclude="*.pdf"` removed every
    document; `max_bytes=0` (or -1), which the command line refuses, was stored and
    skipped every file at each bare re-index."""
    from glean_personal.errors import UsageError
    folder = tmp_path / "files"
    folder.mkdir()
    (folder / "note.md").write_text("# Note\n\nThe heron waits by the weir.\n")
    (folder / "memo.txt").write_text("The otter fishes upstream of the mill.\n")
    (folder / "data.json").write_text('{"title": "Counts", "heron": 7}\n')
    ix = open_ix()
    report = ix.index(folder, include="*.md")
    assert report.added == 1 and ix.sources()[0]["includes"] == ["*.md"]
    report = ix.index(folder, include=[], exclude="*.json")
    assert (report.added, report.removed) == (1, 0)
    assert ix.sources()[0]["excludes"] == ["*.json"] and ix.status().documents == 2
    for bad in (0, -1, True, 2.5, "100"):
        with pytest.raises(UsageError, match="max_bytes"):
            ix.index(folder, max_bytes=bad)
    with pytest.raises(UsageError, match="glob patterns"):
        ix.index(folder, include=[3])
    assert ix.sources()[0]["max_bytes"] == 5_000_000
    assert ix.index(folder).unchanged == 2 and ix.status().documents == 2


def test_the_api_takes_a_query_as_text(open_ix, tmp_path):
    """`ix.search(None)` searched for the word *none* (and found "None" in a note), and
    `ix.search(b"heron")` for *b heron* (review16); `ix.suggest(None)` raised
    AttributeError. Each is a UsageError; text, even empty, is searched as before."""
    from glean_personal.errors import UsageError
    folder = tmp_path / "files"
    folder.mkdir()
    (folder / "note.md").write_text("# Note\n\nThe heron waits by the weir. None left.\n")
    ix = open_ix()
    ix.index(folder)
    for bad in (None, b"heron", 5, ["heron"]):
        with pytest.raises(UsageError, match="as text"):
            ix.search(bad)
        with pytest.raises(UsageError, match="as text"):
            ix.suggest(bad)
    assert len(ix.search("heron")) == 1 and len(ix.search("")) == 0
    assert ix.suggest("hero")


def test_the_api_refuses_filters_that_are_not_names(open_ix, tmp_path):
    """`ix.search("heron", source=["notes", None])` raised AttributeError from the
    store, `type=5` and `source=5` TypeError, `path=5` AttributeError (review21); each
    is a UsageError naming the argument, for `related` too. Names, one or several (a
    list, a tuple, a set, a generator), filter as before."""
    from glean_personal.errors import UsageError
    folder = tmp_path / "files"
    folder.mkdir()
    (folder / "note.md").write_text("# Note\n\nThe heron waits by the weir.\n")
    (folder / "memo.txt").write_text("The heron fishes upstream of the mill.\n")
    ix = open_ix()
    ix.index(folder, label="notes")
    for bad, name in ((dict(source=["notes", None]), "source"), (dict(source=5), "source"),
                      (dict(source=b"notes"), "source"), (dict(type=5), "type"),
                      (dict(type=[None]), "type"), (dict(path=5), "path"),
                      (dict(path=["*.md"]), "path")):
        with pytest.raises(UsageError, match=name):
            ix.search("heron", **bad)
        with pytest.raises(UsageError, match=name):
            ix.related("note.md", **bad)
    for good in (dict(source="notes"), dict(source=["notes"]), dict(source=("notes",))):
        assert len(ix.search("heron", **good).results) == 2
    for good in (dict(type={"md"}), dict(type=(t for t in ["markdown"])), dict(path="*.md")):
        assert [h.document["path"] for h in ix.search("heron", **good).results] == ["note.md"]


def test_the_api_refuses_a_limit_or_offset_that_is_no_number(open_ix, tmp_path):
    """`ix.search("heron", limit=None)` raised TypeError, `limit=float("nan")` and
    `offset="ten"` ValueError, `limit=float("inf")` OverflowError, and `suggest` and
    `related` the same (review22); each is a UsageError naming the argument. A whole
    number, or one written as text, pages as before; an infinite limit is every result."""
    from glean_personal.errors import UsageError
    folder = tmp_path / "files"
    folder.mkdir()
    (folder / "note.md").write_text("# Note\n\nThe heron waits by the weir.\n")
    (folder / "memo.txt").write_text("The heron fishes upstream of the mill.\n")
    ix = open_ix()
    ix.index(folder)
    for bad in (None, float("nan"), "ten", [1]):
        with pytest.raises(UsageError, match="limit"):
            ix.search("heron", limit=bad)
        with pytest.raises(UsageError, match="offset"):
            ix.search("heron", offset=bad)
        with pytest.raises(UsageError, match="limit"):
            ix.suggest("hero", limit=bad)
        with pytest.raises(UsageError, match="limit"):
            ix.related("note.md", limit=bad)
    assert len(ix.search("heron", limit=float("inf")).results) == 2
    assert len(ix.search("heron", limit="1").results) == 1
    assert len(ix.search("heron", offset=float("inf")).results) == 0
    assert len(ix.search("heron", limit=10**30, offset=-4).results) == 2
