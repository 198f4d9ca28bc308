"""The MCP server as a subprocess speaking JSON-RPC lines, plus its stdout discipline."""
from __future__ import annotations

import io
import json
import os
import re
import select
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path

import pytest

import glean_personal
from glean_personal.surfaces import cli, mcp
from helpers.corpora import build_index
from helpers.files import write_tree
from pdf_factory import show, text_pdf

ROOT = Path(__file__).resolve().parents[1]
VERSIONS = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25")


def write_long(folder: Path) -> None:
    """A long Markdown guide, a 940-line log and a 12-page PDF, for reading in parts."""
    (folder / "long").mkdir(parents=True, exist_ok=True)
    guide = ["# Field guide", "", "Read this before the trip.", ""]
    for n in range(1, 6):
        guide += [f"## Chapter {n}", ""]
        for k in range(6):
            guide += [f"Chapter {n} paragraph {k}: the heron waits by the weir while "
                      f"the otter fishes upstream of mill {n}. " * 3, ""]
        guide += [f"### Notes {n}", "", f"Ferry timetable for chapter {n}.", ""]
    (folder / "long" / "guide.md").write_text("\n".join(guide), encoding="utf-8")
    log = [f"{n:04d} kestrel sighting at marker {n} near the quarry" for n in range(1, 941)]
    (folder / "long" / "birds.log.txt").write_text("\n".join(log) + "\n", encoding="utf-8")
    pages = [show([f"Page {n} of the survey: lapwing count {n * 7}."] * 3) for n in range(1, 13)]
    (folder / "long" / "survey.pdf").write_bytes(text_pdf(pages))


def _linked_index(tmp_path_factory, kind: str) -> Path:
    tmp = tmp_path_factory.mktemp(f"mcp-{kind}")
    write_long(tmp / "files")
    path = build_index(tmp / "files", tmp / "p.db", kind)
    with glean_personal.open_index(path) as ix:
        ix.link(top_k=5)
    return path


@pytest.fixture(scope="module", params=["fts5", "plain"])
def db(request, tmp_path_factory):
    """The index, once per store kind: the tools run on both."""
    return _linked_index(tmp_path_factory, request.param)


@pytest.fixture(scope="module")
def one_db(tmp_path_factory):
    """One index, for protocol behaviour that does not depend on the store."""
    return _linked_index(tmp_path_factory, "fts5")


class Server:
    """`python -m glean_personal mcp` with line-at-a-time request/response helpers."""

    def __init__(self, db: Path) -> None:
        env = dict(os.environ, PYTHONPATH=str(ROOT))
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "glean_personal", "mcp", "--db", str(db)],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
            env=env, cwd=ROOT)
        self.next_id = 0

    def send(self, message) -> None:
        line = message if isinstance(message, str) else json.dumps(message)
        self.proc.stdin.write(line.encode("utf-8") + b"\n")
        self.proc.stdin.flush()

    def read(self, timeout: float = 120.0):
        ready, _, _ = select.select([self.proc.stdout], [], [], timeout)
        assert ready, "no reply in time"
        line = self.proc.stdout.readline()
        assert line.endswith(b"\n")
        return json.loads(line)

    def request(self, method, params=None, id=None):
        if id is None:
            self.next_id += 1
            id = self.next_id
        message = {"jsonrpc": "2.0", "id": id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        reply = self.read()
        assert reply["id"] == id and type(reply["id"]) is type(id)
        return reply

    def call(self, name, arguments=None):
        params = {"name": name}
        if arguments is not None:
            params["arguments"] = arguments
        return self.request("tools/call", params)

    def close(self) -> int:
        self.proc.stdin.close()
        code = self.proc.wait(timeout=120)
        self.proc.stdout.close()
        self.proc.stderr.close()
        return code


def _started(db: Path) -> Server:
    s = Server(db)
    s.request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                             "clientInfo": {"name": "pytest", "version": "0"}})
    s.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    return s


@pytest.fixture(scope="module")
def server(db):
    """One server process per store kind, shared by the tool tests (it keeps no state)."""
    s = _started(db)
    yield s
    assert s.close() == 0


@pytest.fixture(scope="module")
def proto(one_db):
    s = _started(one_db)
    yield s
    assert s.close() == 0


def conforms(value, schema) -> bool:
    """A small JSON Schema check: type, required, properties, items, additionalProperties."""
    types = schema.get("type")
    if types is not None:
        names = types if isinstance(types, list) else [types]
        kinds = {"object": dict, "array": list, "string": str, "boolean": bool,
                 "null": type(None), "integer": int, "number": (int, float)}
        if not any(isinstance(value, kinds[n]) and not (isinstance(value, bool) and n in
                                                         ("integer", "number"))
                   for n in names):
            return False
    if isinstance(value, dict):
        props = schema.get("properties", {})
        if any(k not in value for k in schema.get("required", [])):
            return False
        if schema.get("additionalProperties") is False and set(value) - set(props):
            return False
        return all(conforms(v, props[k]) for k, v in value.items() if k in props)
    if isinstance(value, list) and "items" in schema:
        return all(conforms(v, schema["items"]) for v in value)
    return True


def tool(name):
    return next(t for t in mcp.TOOLS if t["name"] == name)


def ok(reply, name):
    result = reply["result"]
    assert result["isError"] is False, result
    assert result["content"][0]["type"] == "text" and result["content"][0]["text"]
    assert conforms(result["structuredContent"], tool(name)["outputSchema"])
    return result["structuredContent"]


def failed(reply) -> str:
    result = reply["result"]
    assert result["isError"] is True and "structuredContent" not in result
    return result["content"][0]["text"]


# -- handshake and protocol -------------------------------------------------------------------
@pytest.mark.parametrize("asked, answered", [(v, v) for v in VERSIONS]
                         + [("1999-01-01", "2025-11-25"), (None, "2025-11-25")])
def test_initialize_answers_the_clients_version_or_the_newest(one_db, asked, answered):
    s = Server(one_db)
    params = {"capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}
    if asked:
        params["protocolVersion"] = asked
    result = s.request("initialize", params)["result"]
    assert result["protocolVersion"] == answered
    assert result["capabilities"] == {"tools": {"listChanged": False}}
    assert result["serverInfo"]["name"] == "glean-personal" and result["serverInfo"]["version"]
    assert result["instructions"]
    assert s.close() == 0


def test_tools_list_declares_schemas_titles_and_read_only_hints(proto):
    tools = proto.request("tools/list")["result"]["tools"]
    assert [t["name"] for t in tools] == ["local_search", "local_fetch", "local_sources",
                                         "local_related"]
    for t in tools:
        assert t["title"] and t["description"]
        assert t["inputSchema"]["type"] == "object"
        assert t["inputSchema"]["additionalProperties"] is False
        assert t["annotations"]["readOnlyHint"] is True
        assert t["annotations"]["openWorldHint"] is False
        assert t["outputSchema"]["type"] == "object"
    props = {t["name"]: set(t["inputSchema"]["properties"]) for t in tools}
    assert {"query", "q", "limit", "offset", "cursor", "type", "source", "path", "after",
            "before", "max_chars"} == props["local_search"]
    assert {"id", "path", "fragment", "section", "page", "lines", "offset", "around",
            "context", "outline", "max_chars"} <= props["local_fetch"]
    assert props["local_sources"] == {"max_chars"}
    assert {"doc", "document", "limit", "type", "source", "path"} <= props["local_related"]
    for t in tools:   # descriptions say when to call and what strength means
        assert len(t["description"]) > 150
    assert "strength" in tools[0]["description"] and "strength" in tools[3]["description"]


def test_ping_unknown_methods_and_notifications(proto):
    assert proto.request("ping")["result"] == {}
    for method in ("server/discover", "resources/list", "no/such"):
        reply = proto.request(method)
        assert reply["error"]["code"] == -32601
    proto.send({"jsonrpc": "2.0", "method": "notifications/cancelled",
                 "params": {"requestId": 1}})
    proto.send({"jsonrpc": "2.0", "method": "no/such/notification"})
    # notifications get no reply: the next line read answers the ping
    assert proto.request("ping", id="after")["result"] == {}


def test_ids_keep_their_type(proto):
    assert proto.request("ping", id="abc")["id"] == "abc"
    assert proto.request("ping", id=0)["id"] == 0
    assert proto.request("ping", id=12345678901)["id"] == 12345678901


@pytest.mark.parametrize("line, code", [
    ("this is not json", -32700),
    ('{"jsonrpc": "2.0", "id": 1, "method": ', -32700),
    ("[]", -32600),
    ('"just a string"', -32600),
    ('{"jsonrpc": "2.0", "id": 1}', -32600),
    ('{"id": 1, "method": "ping"}', -32600),
    ('{"jsonrpc": "2.0", "id": true, "method": "ping"}', -32600),
    ('{"jsonrpc": "2.0", "id": {"a": 1}, "method": "ping"}', -32600),
    ('{"jsonrpc": "2.0", "id": 7, "method": "ping", "params": [1]}', -32602),
])
def test_malformed_and_invalid_lines_get_errors_and_the_server_carries_on(proto, line, code):
    proto.send(line)
    reply = proto.read()
    assert reply["error"]["code"] == code
    assert reply["id"] == (7 if code == -32602 else 1 if '"id": 1' in line
                           and code == -32600 else None)
    assert proto.request("ping")["result"] == {}


def test_json_nested_too_deeply_is_a_parse_error_not_a_crash(proto):
    proto.send('{"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {"a": '
               + "[" * 200_000 + "]" * 200_000 + "}}")
    assert proto.read()["error"]["code"] == -32700
    assert proto.request("ping")["result"] == {}


def test_invalid_utf8_is_a_parse_error(proto):
    proto.proc.stdin.write(b'{"jsonrpc": "2.0", "id": 1, "method": "\xff"}\n')
    proto.proc.stdin.flush()
    assert proto.read()["error"]["code"] == -32700
    assert proto.request("ping")["result"] == {}


def test_unknown_tool_and_bad_arguments_object_are_invalid_params(proto):
    assert proto.call("local_delete", {})["error"]["code"] == -32602
    assert proto.request("tools/call", {"name": "local_search",
                                         "arguments": ["x"]})["error"]["code"] == -32602


def test_eof_ends_the_server_and_stdout_holds_only_protocol(one_db):
    s = Server(one_db)
    s.send({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "local_search", "arguments": {"query": "espresso"}}})
    s.proc.stdin.close()
    code = s.proc.wait(timeout=120)
    lines = s.proc.stdout.read().splitlines()
    s.proc.stdout.close()
    s.proc.stderr.close()
    assert code == 0 and len(lines) == 1 and json.loads(lines[0])["id"] == 1


def test_a_client_that_hangs_up_mid_line_or_stops_reading_ends_it_quietly(one_db):
    s = Server(one_db)                    # stdin closes in the middle of a request
    s.proc.stdin.write(b'{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"na')
    s.proc.stdin.close()
    assert s.proc.wait(timeout=120) == 0
    lines = s.proc.stdout.read().splitlines()
    assert [json.loads(line)["error"]["code"] for line in lines] == [-32700]
    assert s.proc.stderr.read() == b""
    s.proc.stdout.close()
    s.proc.stderr.close()
    s = Server(one_db)                    # the client stops reading, then hangs up
    s.proc.stdout.close()
    try:                                  # the server may be gone before all are written
        for n in range(20):
            s.send({"jsonrpc": "2.0", "id": n, "method": "tools/call", "params": {
                "name": "local_search", "arguments": {"query": "heron", "limit": 50}}})
        s.proc.stdin.close()
    except BrokenPipeError:
        pass
    assert s.proc.wait(timeout=120) == 0
    assert b"Traceback" not in s.proc.stderr.read()
    s.proc.stderr.close()


# -- tools ----------------------------------------------------------------------------------
def wire_size(reply) -> int:
    return len(json.dumps(reply, ensure_ascii=False, separators=(",", ":")))


def test_instructions_say_what_is_indexed(one_db):
    s = Server(one_db)
    text = s.request("initialize", {"protocolVersion": "2025-06-18"})["result"]["instructions"]
    assert s.close() == 0
    assert "9 documents" in text and "notes:" in text and "local_search" in text
    assert "pdf" in text and "md" in text and "graph: current" in text


def test_the_text_block_is_the_structured_content_serialized(server):
    reply = server.call("local_search", {"query": "descale espresso", "limit": 3})
    result = reply["result"]
    assert json.loads(result["content"][0]["text"]) == result["structuredContent"]


def test_local_search_returns_ranked_passages_with_document_ids(server):
    data = ok(server.call("local_search", {"query": "descale espresso", "limit": 3}),
              "local_search")
    rows = data["results"]
    assert rows and rows[0]["title"] == "Espresso care" and isinstance(rows[0]["id"], int)
    assert "Descale the espresso machine" in "".join(r["passage"] for r in rows)
    assert [r["rank"] for r in rows] == list(range(1, len(rows) + 1))
    top = rows[0]
    assert top["lines"] and top["lines"][0] <= top["lines"][1] and top["page"] is None
    assert set(top["matched_terms"]) == {"descale", "espresso"} and top["missed_terms"] == []
    assert 0 < top["strength"] <= 1 and top["snippet"] and top["passage_id"] > 0
    assert top["passage_chars"] == len(top["passage"]) and data["trimmed"] is False
    alias = ok(server.call("local_search", {"q": "descale espresso", "limit": 3}),
               "local_search")
    assert alias["results"] == rows
    assert rows[0]["strength"] == 1.0       # the passage holds every term of the query
    empty = ok(server.call("local_search", {"query": "zzqxv"}), "local_search")
    assert empty["results"] == [] and empty["has_more"] is False
    assert empty["absent_terms"] == ["zzqxv"]
    assert any("does not prove" in n for n in empty["notices"])


def test_local_search_default_limit_pages_and_missed_terms(server):
    first = ok(server.call("local_search", {"query": "kestrel quarry"}), "local_search")
    assert len(first["results"]) == 8 and first["has_more"] is True
    assert first["next_offset"] == 8
    second = ok(server.call("local_search", {"query": "kestrel quarry",
                                             "offset": first["next_offset"]}), "local_search")
    assert second["offset"] == 8 and second["results"][0]["rank"] == 9
    seen = {r["passage_id"] for r in first["results"]}
    assert not seen & {r["passage_id"] for r in second["results"]}
    by_cursor = ok(server.call("local_search", {"query": "kestrel quarry", "cursor": "8"}),
                   "local_search")
    assert by_cursor["results"] == second["results"]
    weak = ok(server.call("local_search", {"query": "kestrel zebra"}), "local_search")
    assert weak["results"][0]["missed_terms"] == ["zebra"] and "zebra" in weak["absent_terms"]
    assert weak["results"][0]["strength"] < 0.7


def test_local_search_filters(server):
    def paths(arguments):
        data = ok(server.call("local_search", dict(arguments, limit=50, max_chars=400_000)),
                  "local_search")
        return {r["path"] for r in data["results"]}, data

    everything, _ = paths({"query": "lapwing OR kestrel OR heron OR espresso"})
    assert {"long/survey.pdf", "long/birds.log.txt", "long/guide.md"} <= everything
    only_pdf, _ = paths({"query": "lapwing OR kestrel OR heron", "type": "pdf"})
    assert only_pdf == {"long/survey.pdf"}
    two, _ = paths({"query": "lapwing OR kestrel OR heron", "type": ["pdf", "md"]})
    assert two == {"long/survey.pdf", "long/guide.md"}
    under, _ = paths({"query": "lapwing OR kestrel OR heron OR espresso", "path": "long/*"})
    assert under and all(p.startswith("long/") for p in under)
    none, data = paths({"query": "kestrel", "after": "2999-01-01"})
    assert none == set() and data["notices"]
    some, _ = paths({"query": "kestrel", "before": "2999-01-01", "source": "notes"})
    assert some == {"long/birds.log.txt"}


def test_local_search_pdf_hits_carry_the_page(server):
    data = ok(server.call("local_search", {"query": "lapwing", "type": "pdf"}), "local_search")
    assert data["results"][0]["page"] in {str(n) for n in range(1, 13)}
    assert data["results"][0]["lines"] is None


@pytest.mark.parametrize("budget", [2000, 5000, 12000])
def test_local_search_keeps_under_its_budget_by_trimming_passages(server, budget):
    reply = server.call("local_search", {"query": "heron otter weir kestrel lapwing",
                                         "limit": 50, "max_chars": budget})
    assert wire_size(reply) <= budget
    data = ok(reply, "local_search")
    assert data["trimmed"] is True and data["max_chars"] == budget
    for r in data["results"]:   # every field is still there; passages are cut, not dropped
        assert r["passage_chars"] >= len(r["passage"].strip("…"))
        assert r["id"] and r["path"] and r["passage_id"] and "strength" in r
    big = server.call("local_search", {"query": "heron otter weir kestrel lapwing",
                                       "limit": 50})
    assert wire_size(big) <= 32_000


@pytest.mark.parametrize("arguments, message", [
    ({}, "needs `query`"),
    ({"query": "  "}, "needs `query`"),
    ({"query": "x", "limit": 0}, "`limit`"),
    ({"query": "x", "limit": "lots"}, "`limit`"),
    ({"query": "x", "limit": True}, "`limit`"),
    ({"query": "x", "offset": -1}, "`offset`"),
    ({"query": "x", "offset": 5, "cursor": "5"}, "not both"),
    ({"query": "x", "cursor": "abc"}, "`cursor`"),
    ({"query": "x", "max_chars": 10}, "`max_chars`"),
    ({"query": "x", "after": "last tuesday"}, "`after` must be a date"),
    ({"query": "x", "type": 3}, "`type`"),
    ({"query": "x", "source": "elsewhere"}, "no indexed source"),
    ({"query": "x", "bogus": 1}, "does not take bogus; it takes query, q, limit"),
    ({"query": ["x"]}, "must be text"),
    ({"query": "x", "path": "a" * 60_000}, "too long to look up"),
])
def test_local_search_bad_arguments_are_tool_errors(server, arguments, message):
    assert message in failed(server.call("local_search", arguments))


@pytest.mark.parametrize("query", [
    "kestrel " * 100_000,                                  # matches, 800,000 characters
    "zzyzx " * 100_000,                                    # matches nothing
    "q" * 1_000_000,                                       # one enormous word
    "heron " + " ".join(f"w{n}x" for n in range(5000)),    # thousands of absent words
], ids=["matching", "unmatched", "one-word", "absent-words"])   # short ids: they go in env
@pytest.mark.parametrize("budget", [2000, 32_000])
def test_a_huge_query_is_echoed_cut_and_the_reply_keeps_its_budget(server, query, budget):
    reply = server.call("local_search", {"query": query, "max_chars": budget})
    assert wire_size(reply) <= budget
    data = ok(reply, "local_search")
    assert data["query"].endswith("…") and query.startswith(data["query"][:-1])
    assert any("is echoed cut" in n for n in data["notices"])
    if query.startswith(("kestrel", "heron")) and budget > 2000:
        assert data["results"], "the echo must not crowd out the results"


def test_local_fetch_by_id_path_url_and_fragment(server, db):
    hit = ok(server.call("local_search", {"query": "Lisbon"}), "local_search")["results"][0]
    by_id = ok(server.call("local_fetch", {"id": hit["id"]}), "local_fetch")
    assert by_id["document"]["title"] == "Lisbon trip" and "Tram 28" in by_id["text"]
    assert by_id["truncated"] is False and by_id["complete"] is True
    assert by_id["chars"] == len(by_id["text"]) and by_id["next"] is None
    assert by_id["where"].startswith("the whole document")
    for arguments in ({"path": "web/lisbon.html"}, {"path": "lisbon.html"}, {"path": hit["url"]},
                      {"url": hit["url"]}, {"fragment": "lisbon"}, {"doc": "lisbon.html"},
                      {"id": str(hit["id"])}):
        assert ok(server.call("local_fetch", arguments), "local_fetch") == by_id
    absolute = str(Path(db).parent / "files" / "web" / "lisbon.html")
    assert ok(server.call("local_fetch", {"path": absolute}), "local_fetch") == by_id


def test_local_fetch_a_long_document_in_budgeted_pieces(server):
    reply = server.call("local_fetch", {"path": "long/birds.log.txt", "max_chars": 8000})
    assert wire_size(reply) <= 8000
    data = ok(reply, "local_fetch")
    assert data["truncated"] is True and data["selector"] == "offset"
    assert data["where"].startswith("chars 0-") and " of 940" in data["where"]
    assert data["next"] == {"offset": data["end"], "max_chars": 8000}
    text = data["text"]
    while data["next"]:
        reply = server.call("local_fetch", dict(data["next"], path="long/birds.log.txt"))
        assert wire_size(reply) <= 8000
        data = ok(reply, "local_fetch")
        text += data["text"]
    whole = ok(server.call("local_fetch", {"path": "long/birds.log.txt",
                                           "max_chars": 400_000}), "local_fetch")
    assert whole["complete"] is True and text == whole["text"]


def test_local_fetch_lines(server):
    data = ok(server.call("local_fetch", {"fragment": "birds.log", "lines": "120-158"}),
              "local_fetch")
    lines = data["text"].split("\n")
    assert len(lines) == 39 and lines[0].startswith("0120 ") and lines[-1].startswith("0158 ")
    assert data["where"] == "lines 120-158 of 940" and data["lines"] == [120, 158]
    assert data["next"] == {"lines": "159-197"} and data["total_lines"] == 940
    same = ok(server.call("local_fetch", {"fragment": "birds.log", "lines": [120, 158]}),
              "local_fetch")
    assert same["text"] == data["text"]
    end = ok(server.call("local_fetch", {"fragment": "birds.log", "lines": "930-2000"}),
             "local_fetch")
    assert end["lines"] == [930, 940] and end["next"] is None


def test_local_fetch_section_and_outline(server):
    outline = ok(server.call("local_fetch", {"fragment": "guide.md", "outline": True}),
                 "local_fetch")
    headings = [s["heading"] for s in outline["sections"]]
    assert ["Field guide", "Chapter 3"] in headings
    assert ["Field guide", "Chapter 3", "Notes 3"] in headings
    three = next(s for s in outline["sections"] if s["heading"][-1] == "Chapter 3")
    assert three["lines"][0] < three["lines"][1] and outline["total_lines"] > 50
    assert "text" not in outline and outline["where"].startswith("outline:")
    data = ok(server.call("local_fetch", {"fragment": "guide.md", "section": "Chapter 3"}),
              "local_fetch")
    assert data["text"].startswith("## Chapter 3\n") and "Ferry timetable for chapter 3" \
        in data["text"] and "Chapter 4" not in data["text"]
    assert data["section"] == ["Field guide", "Chapter 3"] and data["complete"] is True
    assert data["where"].startswith("section 'Field guide > Chapter 3'")
    assert data["next"] == {"section": "Field guide > Chapter 4"}
    assert data["lines"][0] == three["lines"][0]
    nested = ok(server.call("local_fetch", {"fragment": "guide.md",
                                            "section": ["Chapter 3", "Notes 3"]}),
                "local_fetch")
    assert nested["text"] == "### Notes 3\n\nFerry timetable for chapter 3."
    cut = ok(server.call("local_fetch", {"fragment": "guide.md", "section": "Chapter 3",
                                         "max_chars": 2000}), "local_fetch")
    assert cut["complete"] is False and cut["next"]["section"] == "Field guide > Chapter 3"
    rest = ok(server.call("local_fetch", dict(cut["next"], fragment="guide.md")),
              "local_fetch")
    assert rest["text"] and rest["where"].startswith("section 'Field guide > Chapter 3', chars")


def test_local_fetch_page(server):
    data = ok(server.call("local_fetch", {"fragment": "survey.pdf", "page": 3}), "local_fetch")
    assert "lapwing count 21" in data["text"] and "count 28" not in data["text"]
    assert data["where"].startswith("page 3 of 12") and data["next"] == {"page": "4"}
    assert data["pages"] == 12
    last = ok(server.call("local_fetch", {"fragment": "survey.pdf", "page": "12"}),
              "local_fetch")
    assert last["next"] is None


def test_local_fetch_around_a_search_hit(server):
    hit = ok(server.call("local_search", {"query": "kestrel marker 500"}),
             "local_search")["results"][0]
    data = ok(server.call("local_fetch", {"around": hit["passage_id"], "context": 1}),
              "local_fetch")
    assert data["document"]["id"] == hit["id"] and hit["passage_id"] in data["passages"]
    assert len(data["passages"]) == 3 and data["where"].startswith("passages ")
    assert data["next"]["around"] > hit["passage_id"] and data["next"]["context"] == 1
    assert ok(server.call("local_fetch", {"around": hit["passage_id"], "context": 1,
                                          "id": hit["id"]}), "local_fetch") == data


@pytest.mark.parametrize("arguments, message", [
    ({}, "exactly one"),
    ({"id": 1, "path": "notes/espresso.md"}, "exactly one"),
    ({"id": 99999}, "no indexed document has id"),
    ({"id": "twelve"}, "`id` must be"),
    ({"path": "/etc/passwd"}, "no indexed document"),
    ({"path": "../../../../etc/passwd"}, "no indexed document"),
    ({"path": "espresso"}, "no indexed document at"),     # a fragment is not a path
    ({"path": "spresso.md"}, "no indexed document at"),   # nor part of a file's name
    ({"path": "notes"}, "matches"),                       # a folder: candidates listed
    ({"fragment": "notes/"}, "matches"),                   # ambiguous: candidates listed
    ({"fragment": "x", "extra": True}, "does not take extra; it takes id, path"),
    ({"fragment": "guide.md", "section": "Chapter 9"}, "no section 'chapter 9'"),
    ({"fragment": "guide.md", "section": 3}, "`section` must be"),
    ({"fragment": "guide.md", "section": "Chapter 1", "lines": "1-2"}, "choose one of"),
    ({"fragment": "guide.md", "page": 1}, "has no pages"),
    ({"fragment": "survey.pdf", "page": 13}, "no page '13'"),
    ({"fragment": "survey.pdf", "lines": "1-5"}, "has no line numbers"),
    ({"fragment": "birds.log", "lines": "abc"}, "lines must look like"),
    ({"fragment": "birds.log", "lines": "50-10"}, 'first line before the last: got \'50-10\' (did you mean "10-50"?)'),
    ({"fragment": "birds.log", "lines": "5000-5010"}, "no line 5000"),
    ({"fragment": "birds.log", "offset": -3}, "`offset`"),
    ({"fragment": "birds.log", "max_chars": 100}, "`max_chars`"),
    ({"fragment": "birds.log", "outline": "yes"}, "`outline` must be"),
    ({"fragment": "birds.log", "outline": True, "lines": "1-2"}, "leave out"),
    ({"around": 99999999}, "new passage ids: search again"),
    ({"around": 10 ** 20}, "no indexed passage"),          # past SQLite's integers
    ({"around": -10 ** 20}, "no indexed passage"),
    ({"around": "²"}, "`around` must be"),                 # str.isdigit says yes; int() no
    ({"id": 10 ** 20}, "no indexed document has id"),
    ({"id": "²"}, "`id` must be"),
    ({"fragment": "²"}, "no indexed document"),
    ({"fragment": "\x00"}, "no indexed document"),        # LIKE would stop at NUL: all match
    ({"fragment": "a" * 60_000}, "too long to look up"),    # past SQLite's LIKE pattern cap
    ({"fragment": "birds.log", "offset": "³"}, "`offset`"),
    ({"fragment": "survey.pdf", "page": "²"}, "no page"),
    ({"around": "x"}, "`around` must be"),
    ({"fragment": "guide.md", "around": 1}, "is not in"),
    ({"fragment": "guide.md", "context": 50, "around": 1}, "`context`"),
])
def test_local_fetch_failures_are_tool_errors(server, arguments, message):
    assert message in failed(server.call("local_fetch", arguments))


def test_an_ambiguous_reference_lists_ten_candidates_with_ids(tmp_path):
    folder = tmp_path / "files"
    for n in range(14):
        (folder / f"d{n:02d}").mkdir(parents=True)
        (folder / f"d{n:02d}" / "README.md").write_text(f"# Read me {n}\n\nText {n}.\n")
    with glean_personal.open_index(tmp_path / "p.db") as ix:
        ix.index(folder, label="many")
    s = _started(tmp_path / "p.db")
    message = failed(s.call("local_fetch", {"fragment": "README"}))
    assert s.close() == 0
    assert "'README' matches 14 documents" in message
    listed = [line for line in message.splitlines() if line.startswith("  id ")]
    assert len(listed) == 10 and "… and 4 more" in message


def test_local_sources(server, db):
    data = ok(server.call("local_sources", {}), "local_sources")
    (source,) = data["sources"]
    assert source["label"] == "notes" and source["documents"] == 9 and data["documents"] == 9
    assert source["root"] == str(Path(db).parent / "files") and source["present"] is True
    assert source["formats"]["pdf"] == 1 and source["formats"]["md"] >= 2
    assert sum(source["formats"].values()) == 9
    assert source["last_indexed"].endswith("+00:00") and source["graph_current"] is True
    assert data["graph"]["current"] is True
    assert ok(server.call("local_sources"), "local_sources") == data  # arguments omitted
    assert "does not take x" in failed(server.call("local_sources", {"x": 1}))


@pytest.mark.parametrize("kind", ["fts5", "plain"])
def test_local_sources_says_how_many_files_were_skipped_and_why(tmp_path, kind, monkeypatch):
    """An agent that finds nothing can see what the walk left out (review20)."""
    folder = tmp_path / "files"
    folder.mkdir()
    (folder / "notes.md").write_text("# Notes\n\nThe heron waits by the weir.\n")
    for name in ("a.png", "b.png", "c.wav"):
        (folder / name).write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(64))
    (folder / "report.docx").write_bytes(b"PK\x03\x04 not really a zip")
    monkeypatch.setenv("GLEAN_PERSONAL_STORE", kind)
    with glean_personal.open_index(tmp_path / "p.db") as ix:
        ix.index(folder, label="files")
    s = _started(tmp_path / "p.db")
    data = ok(s.call("local_sources", {}), "local_sources")
    assert s.close() == 0
    (source,) = data["sources"]
    assert source["documents"] == 1 and source["skipped"] == 4
    why = source["skipped_why"]
    assert sum(why.values()) == 4 and why["unsupported file type .png"] == 2
    assert list(why)[0] == "unsupported file type .png"       # commonest first
    assert any("docx" in reason or "zip" in reason for reason in why), why

def test_local_related(server):
    data = ok(server.call("local_related", {"doc": "notes/espresso.md", "limit": 3}),
              "local_related")
    assert data["document"]["title"] == "Espresso care"
    assert len(data["neighbours"]) <= 3
    for n in data["neighbours"]:
        assert 0 < n["strength"] <= 1 and n["score"] > 0
    assert ok(server.call("local_related", {"document": "notes/espresso.md", "limit": 3}),
              "local_related") == data
    everything = ok(server.call("local_related", {"doc": "notes/espresso.md"}),
                    "local_related")["neighbours"]
    md = ok(server.call("local_related", {"doc": "notes/espresso.md", "type": "md"}),
            "local_related")["neighbours"]
    assert md == [n for n in everything if n["document"]["format"] == "md"]
    under = ok(server.call("local_related", {"doc": "notes/espresso.md", "path": "web/*"}),
               "local_related")["neighbours"]
    assert all(n["document"]["path"].startswith("web/") for n in under)
    assert "needs `doc`" in failed(server.call("local_related", {}))
    assert "not both" in failed(server.call("local_related", {"doc": "notes/espresso.md",
                                                              "document": "roadmap"}))
    assert "no indexed document" in failed(server.call("local_related", {"doc": "nowhere"}))
    assert "does not take since" in failed(server.call("local_related", {"doc": "x",
                                                                         "since": 1}))
    for doc in (10 ** 20, -10 ** 20, "²", "\x00"):   # never an internal error
        assert "no indexed document" in failed(server.call("local_related", {"doc": doc}))


def test_local_related_filters_as_local_search_does(server):
    """`type`, `source` and `path` keep the neighbours a search's filters would keep
    (review16): a file extension names its format (`mdx`: md), a path glob matches at a
    folder's start (`roadmap.md` is notes/roadmap.md), an unknown source is an error,
    and a filter that matches nothing in the index says so."""
    everything = ok(server.call("local_related", {"doc": "notes/espresso.md", "limit": 50}),
                    "local_related")
    assert everything["notices"] == [] and everything["neighbours"]
    md = [n for n in everything["neighbours"] if n["document"]["format"] == "md"]
    assert md
    for name in ("md", "markdown", "mdx", ".MD"):
        got = ok(server.call("local_related", {"doc": "notes/espresso.md", "type": name,
                                               "limit": 50}), "local_related")
        assert got["neighbours"] == md, name
    for n in everything["neighbours"]:
        base = n["document"]["path"].rsplit("/", 1)[-1]
        got = ok(server.call("local_related", {"doc": "notes/espresso.md", "path": base}),
                 "local_related")["neighbours"]
        assert n["document"]["id"] in [m["document"]["id"] for m in got], base
    assert "no indexed source labelled 'elsewhere'" in failed(server.call(
        "local_related", {"doc": "notes/espresso.md", "source": "elsewhere"}))
    none = ok(server.call("local_related", {"doc": "notes/espresso.md", "type": "pptx"}),
              "local_related")
    assert none["neighbours"] == []
    assert none["notices"] and none["notices"][0].startswith("no documents of type pptx")


def test_a_path_filter_written_from_the_root_is_read_below_it(server, db):
    """Paths a tool receives are resolved against the indexed roots (review16). `path: "/home/me/notes/long/*"`, as local_sources shows the root,
    matched no document ("no document path matches")."""
    root = str(db.parent / "files")
    below = ok(server.call("local_search", {"query": "heron kestrel lapwing",
                                            "path": "long/*"}), "local_search")
    assert below["results"]
    for written in (root + "/long/*", "file://" + root + "/long/*"):
        got = ok(server.call("local_search", {"query": "heron kestrel lapwing",
                                              "path": written}), "local_search")
        assert got["results"] == below["results"] and got["notices"] == [], written
    whole = ok(server.call("local_search", {"query": "heron", "path": root}), "local_search")
    assert whole["results"] and whole["notices"] == []
    elsewhere = ok(server.call("local_search", {"query": "heron", "path": "/nowhere/*"}),
                   "local_search")
    assert elsewhere["results"] == [] and "no document path matches /nowhere/*" in \
        elsewhere["notices"]
    near = ok(server.call("local_related", {"doc": "notes/espresso.md", "limit": 50,
                                            "path": root + "/notes/*"}), "local_related")
    assert near["neighbours"] == ok(server.call("local_related", {
        "doc": "notes/espresso.md", "limit": 50, "path": "notes/*"}),
        "local_related")["neighbours"]
    with glean_personal.open_index(db) as ix:
        assert [h.passage_id for h in ix.search("kestrel", path=root + "/long/*")] == \
            [h.passage_id for h in ix.search("kestrel", path="long/*")]


def test_local_search_refuses_query_and_q_that_differ(server):
    assert "not both" in failed(server.call("local_search", {"query": "espresso",
                                                             "q": "roadmap"}))
    same = ok(server.call("local_search", {"query": "espresso", "q": "espresso"}),
              "local_search")
    assert same == ok(server.call("local_search", {"query": "espresso"}), "local_search")


def test_a_concurrent_writer_is_waited_for_not_fatal(proto, one_db):
    server = proto
    conn = sqlite3.connect(str(one_db), isolation_level=None, check_same_thread=False)
    conn.execute("BEGIN EXCLUSIVE")  # what an index's commit holds, here for a while
    releasing = threading.Event()

    def commit() -> None:
        releasing.set()                  # before the COMMIT the search waits for
        conn.execute("COMMIT")
    release = threading.Timer(0.7, commit)
    release.start()
    data = ok(server.call("local_search", {"query": "Lisbon"}), "local_search")
    assert data["results"] and releasing.is_set()   # answered, after the writer let go
    release.join()
    conn.close()


# -- stdout discipline, in process -------------------------------------------------------------
class _Stdio(io.TextIOWrapper):
    def isatty(self) -> bool:
        return False


def test_stray_prints_never_reach_stdout(one_db, monkeypatch):
    def noisy(self, args):
        print("noise from a tool")
        return "text", {"sources": []}

    monkeypatch.setattr(mcp.Tools, "local_sources", noisy)
    requests = [{"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                 "params": {"name": "local_sources", "arguments": {}}},
                {"jsonrpc": "2.0", "id": 2, "method": "ping"}]
    stdin = _Stdio(io.BytesIO(b"".join(json.dumps(r).encode() + b"\n" for r in requests)))
    stdout = _Stdio(io.BytesIO())
    stderr = io.StringIO()
    monkeypatch.setattr(sys, "stdin", stdin)
    monkeypatch.setattr(sys, "stdout", stdout)
    monkeypatch.setattr(sys, "stderr", stderr)
    assert cli.main(["mcp", "--db", str(one_db)]) == 0
    assert sys.stdout is stdout  # restored
    lines = stdout.buffer.getvalue().decode().splitlines()
    assert [json.loads(x)["id"] for x in lines] == [1, 2]
    assert "noise from a tool" in stderr.getvalue()


def test_a_tool_that_crashes_is_a_tool_error(monkeypatch, one_db):
    def broken(self, args):
        raise RuntimeError("boom")

    monkeypatch.setattr(mcp.Tools, "local_sources", broken)
    server = mcp.Server(str(one_db))
    reply = server.handle({"jsonrpc": "2.0", "id": 3, "method": "tools/call",
                           "params": {"name": "local_sources"}})
    assert reply["result"]["isError"] is True and "boom" in reply["result"]["content"][0]["text"]


def test_replies_are_single_lines_even_with_newlines_and_odd_text():
    line = mcp.encode({"jsonrpc": "2.0", "id": 1, "result": {"t": "a\nb\u2028c\udcff"}})
    assert line.count(b"\n") == 1 and line.endswith(b"\n")
    assert json.loads(line)["result"]["t"].startswith("a\nb")


def test_a_failing_protocol_handler_is_an_internal_error(monkeypatch, one_db):
    server = mcp.Server(str(one_db))

    def broken(params):
        raise RuntimeError("boom")

    server.methods["ping"] = broken
    reply = server.handle({"jsonrpc": "2.0", "id": "p", "method": "ping"})
    assert reply == {"jsonrpc": "2.0", "id": "p",
                     "error": {"code": -32603, "message": "Internal error: RuntimeError"}}


def test_no_tool_opens_a_socket(monkeypatch, one_db):
    import socket

    def refuse(*args, **kwargs):
        raise AssertionError("a socket was opened")

    monkeypatch.setattr(socket, "socket", refuse)
    monkeypatch.setattr(socket, "create_connection", refuse)
    server = mcp.Server(str(one_db))
    for name, arguments in [("local_search", {"query": "espresso"}), ("local_sources", {}),
                            ("local_fetch", {"fragment": "lisbon"}),
                            ("local_related", {"doc": "notes/espresso.md"})]:
        reply = server.handle({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
                               "params": {"name": name, "arguments": arguments}})
        assert reply["result"]["isError"] is False, reply


def _request(msg_id, method="ping", **params):
    return {"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params}


def _cancel(msg_id):
    return {"jsonrpc": "2.0", "method": "notifications/cancelled",
            "params": {"requestId": msg_id, "reason": "the user gave up"}}


def test_a_request_cancelled_while_waiting_is_never_run(one_db):
    server = mcp.Server(str(one_db))
    ran = []
    server.methods["tools/call"] = lambda params: ran.append(params) or {}
    waiting = _request(7, "tools/call", name="local_sources")
    for message in (waiting, _cancel(7)):   # both read before the answer is made
        server.arrived(message)
    assert server.handle(waiting) is None and ran == []
    assert server.handle(_cancel(7)) is None
    assert server.handle(_request(8))["result"] == {}


def test_a_request_cancelled_while_running_gets_no_reply(one_db):
    server = mcp.Server(str(one_db))

    def slow_ping(params):
        server.arrived(_cancel("r"))   # the reader sees the cancellation mid-run
        return {}

    server.methods["ping"] = slow_ping
    server.arrived(_request("r"))
    assert server.handle(_request("r")) is None


def test_cancellations_that_name_nothing_pending_change_nothing(one_db):
    server = mcp.Server(str(one_db))
    init = _request(1, "initialize", protocolVersion="2025-06-18")
    for message in (init, _cancel(1)):      # initialize cannot be cancelled
        server.arrived(message)
    assert server.handle(init)["result"]["protocolVersion"] == "2025-06-18"
    server.arrived(_request(2))
    server.arrived(_cancel("2"))            # "2" is not the id 2
    server.arrived(_cancel(99))             # never asked
    server.arrived({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": [2]})
    assert server.handle(_request(2))["id"] == 2
    server.arrived(_cancel(2))              # already answered
    assert server.handle(_request(3))["id"] == 3
    assert not server._pending and not server._cancelled   # nothing kept for later


def test_serve_reads_ahead_and_answers_in_order(one_db):
    lines = [_request(1, "tools/call", name="local_search", arguments={"query": "heron"}),
             _cancel(1), "not json", _request(2)]
    stdin = io.BytesIO(b"".join((x if isinstance(x, str) else json.dumps(x)).encode() + b"\n"
                                for x in lines) + b"\xff\xfe\n")
    stdout = io.BytesIO()
    mcp.serve(stdin, stdout, str(one_db))
    replies = [json.loads(x) for x in stdout.getvalue().splitlines()]
    # Request 1 may be answered before its cancellation is read, or not at all;
    # every other line gets its one reply, in order.
    if replies and replies[0].get("id") == 1:
        replies = replies[1:]
    assert [(r["id"], "error" in r) for r in replies] == [(None, True), (2, False), (None, True)]
    assert [r["error"]["code"] for r in replies if "error" in r] == [-32700, -32700]


def test_a_client_that_stops_reading_ends_the_server_cleanly(one_db):
    # stdin stays open, so the reader thread is blocked in a read when the
    # answer finds the pipe broken: the server must still exit 0, not abort.
    s = Server(one_db)
    s.proc.stdout.close()
    s.send({"jsonrpc": "2.0", "id": 1, "method": "ping"})
    code = s.proc.wait(timeout=120)
    err = s.proc.stderr.read().decode("utf-8", "replace")
    s.proc.stdin.close()
    s.proc.stderr.close()
    assert code == 0 and "Fatal" not in err, err


def test_lines_from_a_pipe_come_whole_across_reads():
    read_end, write_end = os.pipe()

    def write():   # more than a pipe holds, so it is read in several parts
        with os.fdopen(write_end, "wb") as w:
            w.write(b'{"a": 1}\r\n' + b"x" * 200_000 + b"\n\ntail")

    writer = threading.Thread(target=write)
    writer.start()
    with os.fdopen(read_end, "rb") as r:
        lines = list(mcp._lines(r))
    writer.join()
    assert lines == [b'{"a": 1}\r', b"x" * 200_000, b"", b"tail"]


def test_a_lone_surrogate_a_request_sends_comes_back_as_u_fffd(proto):
    """`\\ud800` in a query is echoed; written back as that escape, the reply is a line
    strict JSON parsers (the official Python SDK's) refuse whole."""
    proto.send('{"jsonrpc":"2.0","id":"s1","method":"tools/call","params":{"name":'
               '"local_search","arguments":{"query":"\\ud800 heron \\ud83d\\ude00"}}}')
    ready, _, _ = select.select([proto.proc.stdout], [], [], 120)
    assert ready, "no reply in time"
    line = proto.proc.stdout.readline()
    assert not re.search(rb"\\u[dD][89abAB]", line) and not re.search(rb"\\u[dD][c-fC-F]", line)
    reply = json.loads(line.decode("utf-8", "strict"))
    text = reply["result"]["content"][0]["text"]
    assert "\ufffd heron \U0001F600" in json.loads(text)["query"]
    assert reply["result"]["structuredContent"]["query"] == "\ufffd heron \U0001F600"


def test_a_path_with_dot_parts_is_the_same_path():
    row = {"root": "/r/notes", "path": "trips/lisbon.md"}
    for text in ("trips/lisbon.md", "./trips/lisbon.md", "trips//lisbon.md",
                 "/r/notes/trips/../trips/lisbon.md", "file:///r/notes/trips/lisbon.md"):
        assert mcp._same_path(text, row), text
    # leading folders left out name it too (Index.resolve found it the one so named)
    assert mcp._same_path("lisbon.md", row) and mcp._same_path("./lisbon.md", row)
    for text in ("../lisbon.md", "isbon.md", "/lisbon.md", "notes/lisbon.md", "trips"):
        assert not mcp._same_path(text, row), text


def test_passage_id_is_an_alias_of_around(one_db):
    """local_search gives each hit a `passage_id`; an agent passing it back under that
    name was told "local_fetch does not take passage_id"."""
    server = mcp.Server(str(one_db))
    found = server.handle({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {
        "name": "local_search", "arguments": {"query": "espresso", "limit": 1}}})
    passage = found["result"]["structuredContent"]["results"][0]["passage_id"]
    read = {}
    for n, arguments in enumerate(({"around": passage}, {"passage_id": passage})):
        reply = server.handle({"jsonrpc": "2.0", "id": 2 + n, "method": "tools/call",
                               "params": {"name": "local_fetch", "arguments": arguments}})
        assert not reply["result"].get("isError"), reply
        read[n] = reply["result"]["structuredContent"]
    assert read[0] == read[1] and read[0]["selector"] == "around"
    both = server.handle({"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {
        "name": "local_fetch", "arguments": {"around": passage, "passage_id": passage}}})
    assert both["result"]["isError"] is True


def test_a_byte_order_mark_before_the_first_message_is_ignored(one_db):
    """Some Windows pipes write a UTF-8 BOM before the first line: it was a parse
    error with id null, so the client's `initialize` never got its answer."""
    stdin = io.BytesIO(
        b'\xef\xbb\xbf{"jsonrpc":"2.0","id":1,"method":"initialize","params":{'
        b'"protocolVersion":"2025-06-18","capabilities":{},'
        b'"clientInfo":{"name":"pytest","version":"0"}}}\r\n'
        b'{"jsonrpc":"2.0","id":2,"method":"ping"}\r\n')
    stdout = io.BytesIO()
    mcp.serve(stdin, stdout, str(one_db))
    replies = [json.loads(x) for x in stdout.getvalue().decode().splitlines()]
    assert [r["id"] for r in replies] == [1, 2]
    assert replies[0]["result"]["protocolVersion"] == "2025-06-18" and replies[1]["result"] == {}


# -- the new-user trial's items (round 27) ------------------------------------------------------
SURVEY = ("grey heron", "weir pool", "otter holt", "kingfisher perch", "alder carr",
          "reed warbler", "water vole", "sand martin", "mill leat", "flood meadow",
          "osier bed", "withy stand", "snipe bog", "teal scrape", "dipper ledge",
          "marsh harrier", "lapwing field", "curlew moss", "barn owl", "pike shallows",
          "eel pass", "toad tunnel", "newt pond", "bittern reeds")


def write_mixed(folder: Path) -> Path:
    """Nine survey notes, the first sharing three rare phrases with each of the others (a
    dense related-documents graph), and one file each of nine other formats: ten
    formats, so the instructions must sum the rest."""
    folder.mkdir(parents=True)
    for n in range(9):
        held = SURVEY if n == 0 else SURVEY[3 * (n - 1):3 * n]
        walk = ". ".join(f"The {p} was checked on visit {k}" for k, p in enumerate(held))
        (folder / f"survey-{n}.md").write_text(
            f"---\ntitle: Survey {n}\n---\n\n# Survey {n}\n\n## Walk\n\n{walk}.\n\n"
            f"## Notes\n\nPlot {n} lies beyond stile {n * 11}.\n", encoding="utf-8")
    return write_tree(folder, {
        "walk.txt": "Walk notes\n\nThe grey heron stood in the weir pool; the otter holt "
                    "was dry.\n",
        "counts.csv": "species,count\ngrey heron,3\nwater vole,2\n",
        "counts.json": '{"grey heron": 3, "water vole": 2}\n',
        "tally.py": 'def tally():\n    """Count the grey heron and the water vole."""\n'
                    "    return 5\n",
        "sites.yaml": "weir pool:\n  species: grey heron\n",
        "map.html": "<html><head><title>Map</title></head><body><p>The sand martin bank by "
                    "the mill leat.</p></body></html>",
        "kit.toml": '[kit]\nnote = "sand martin and reed warbler"\n',
        "route.ini": "[route]\nstart = flood meadow by the alder carr\n",
        "map.css": "/* kingfisher perch */\nbody { color: teal; }\n"})


@pytest.fixture(scope="module", params=["fts5", "plain"])
def mixed(request, tmp_path_factory):
    """A linked index of `write_mixed`, once per store kind, with a server over it."""
    tmp = tmp_path_factory.mktemp(f"mixed-{request.param}")
    write_mixed(tmp / "files")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("GLEAN_PERSONAL_STORE", request.param)
        with glean_personal.open_index(tmp / "m.db") as ix:
            ix.index(tmp / "files", label="survey")
            ix.link()
            assert ix.store.kind == request.param
    s = _started(tmp / "m.db")
    yield s, tmp / "m.db"
    assert s.close() == 0


def test_local_related_says_what_a_tight_budget_cut(mixed):
    """Neighbours left out to fit max_chars are never dropped silently (newuser item 1):
    `trimmed` and a notice say how many and the max_chars that shows them all."""
    s, _ = mixed
    whole = ok(s.call("local_related", {"doc": "survey-0.md", "limit": 50}), "local_related")
    assert len(whole["neighbours"]) >= 6 and "trimmed" not in whole and not whole["notices"]
    reply = s.call("local_related", {"doc": "survey-0.md", "limit": 50, "max_chars": 2000})
    assert wire_size(reply) <= 2000
    cut = ok(reply, "local_related")
    kept, found = len(cut["neighbours"]), len(whole["neighbours"])
    assert cut["trimmed"] is True and kept < found
    assert [n["document"]["id"] for n in cut["neighbours"]] == [
        n["document"]["id"] for n in whole["neighbours"]][:kept]   # the weakest go
    (notice,) = cut["notices"]
    assert f"{found - kept} of the {found} neighbours left out" in notice
    asked = int(re.search(r"call again with max_chars ([\d,]+)", notice)[1].replace(",", ""))
    again = ok(s.call("local_related", {"doc": "survey-0.md", "limit": 50,
                                        "max_chars": max(2000, asked)}), "local_related")
    assert again == whole


def test_instructions_name_eight_formats_and_sum_the_rest(mixed):
    """The documents-by-format list adds up (newuser item 5)."""
    s, db = mixed
    formats = ok(s.call("local_sources", {}), "local_sources")["sources"][0]["formats"]
    assert len(formats) == 10 and sum(formats.values()) == 18
    fresh = Server(db)
    text = fresh.request("initialize", {"protocolVersion": "2025-06-18"})["result"][
        "instructions"]
    assert fresh.close() == 0
    line = next(x for x in text.splitlines() if x.startswith("- survey:"))
    named = ", ".join(f"{n} {f}" for f, n in list(formats.items())[:8])
    rest = sum(list(formats.values())[8:])
    assert line.endswith(f"18 documents ({named}, and {rest} more in 2 other formats)")
    named = re.search(r"\((.*), and (\d+) more", line)
    assert sum(int(x.split()[0]) for x in named[1].split(", ")) + int(named[2]) == 18


def test_line_numbers_are_where_the_docs_say(mixed):
    """Documents read line for line carry `lines`; CSV, JSON and HTML do not, and asking
    one for lines is an error (newuser item 4: docs/mcp.md listed CSV among them)."""
    s, _ = mixed
    lines = {}
    for query in ("grey heron", "sand martin", "kingfisher perch", "flood meadow"):
        for r in ok(s.call("local_search", {"query": query, "limit": 50}),
                    "local_search")["results"]:
            lines.setdefault(r["format"], set()).add(r["lines"] is not None)
    for fmt in ("md", "txt", "py", "yaml", "toml", "ini", "css"):
        assert lines.get(fmt) == {True}, fmt
    for fmt in ("csv", "json", "html"):
        assert lines.get(fmt) == {False}, fmt
    assert "no line numbers" in failed(s.call("local_fetch", {"fragment": "counts.csv",
                                                              "lines": "1-2"}))
    docs = (ROOT / "docs" / "mcp.md").read_text(encoding="utf-8")
    have = docs[docs.index("Which documents have line numbers"):]
    have = have[:have.index("have none")]
    assert "CSV" not in have and "JSON" not in have and "HTML" not in have
    assert "not CSV, JSON, HTML" in tool("local_search")["description"]


@pytest.mark.parametrize("asked, span, following", [
    ("5", "line 5 holds", {"lines": "6-6"}), ([5, 6], "lines 5-6 hold", {"lines": "7-8"})])
def test_a_line_range_no_passage_holds_has_no_offsets(mixed, asked, span, following):
    """Front matter's closing rule and a heading (lines 4-6 of a survey note): an empty
    text with null offsets and a warning, never -1 (newuser item 20)."""
    s, _ = mixed
    data = ok(s.call("local_fetch", {"fragment": "survey-3.md", "lines": asked}),
              "local_fetch")
    first, last = (int(asked), int(asked)) if isinstance(asked, str) else asked
    assert data["text"] == "" and data["start"] is None and data["end"] is None
    assert data["lines"] == [first, last] and data["where"].startswith(f"lines {first}-{last}")
    assert data["next"] == following and data["complete"] is True
    assert any(w.startswith(f"{span} no indexed text") for w in data["warnings"])
    read = ok(s.call("local_fetch", {"fragment": "survey-3.md", "lines": "4-9"}),
              "local_fetch")
    assert read["start"] >= 0 and read["end"] > read["start"] and "visit" in read["text"]
    assert not read["warnings"]


@pytest.mark.parametrize("params", [{"arguments": {}}, {}, {"name": None}, {"name": 7},
                                    {"name": ["local_search"]}])
def test_tools_call_without_a_name_says_what_it_needs(proto, params):
    """`tools/call` with no `name`, or one that is not text (newuser item 19)."""
    reply = proto.request("tools/call", params)
    assert reply["error"]["code"] == -32602
    assert reply["error"]["message"].startswith(
        "tools/call needs `name`: one of local_search, local_fetch, local_sources, "
        "local_related")
    assert "None" not in reply["error"]["message"]


def test_a_page_past_the_last_result_is_not_nothing_matches(mixed):
    """An offset past the end says so; "No passage matches … try other words" would send
    the agent away from a query that does match (newuser item 2)."""
    s, _ = mixed
    first = ok(s.call("local_search", {"query": "grey heron"}), "local_search")
    assert first["results"]
    past = ok(s.call("local_search", {"query": "grey heron", "offset": 900}), "local_search")
    assert past["results"] == [] and past["has_more"] is False
    assert not any(n.startswith("No passage matches") for n in past["notices"])
    assert any(n.startswith("the offset is past the last result: this search has ")
               for n in past["notices"])
    nothing = ok(s.call("local_search", {"query": "zzqxv", "offset": 20}), "local_search")
    assert any(n.startswith("No passage matches") for n in nothing["notices"])


def test_a_tight_budget_shows_fewer_results_with_readable_passages(server):
    """At max_chars 12,000 eight results came back with empty passages and 80-character
    snippets (agent trial); passages are now cut to no less than PASSAGE_FLOOR
    characters, later results left for the next page."""
    from glean_personal.surfaces.mcp_fit import PASSAGE_FLOOR, result_size
    query = {"query": "kestrel sighting at marker near the quarry", "limit": 20}
    roomy = ok(server.call("local_search", dict(query, max_chars=400_000)), "local_search")
    assert len(roomy["results"]) == 20
    tight = ok(server.call("local_search", dict(query, max_chars=12_000)), "local_search")
    rows = tight["results"]
    assert 1 < len(rows) < 20 and tight["has_more"] and tight["next_offset"] == len(rows)
    assert tight["trimmed"] and result_size(tight) <= 12_000
    for row in rows:
        assert len(row["passage"]) >= min(PASSAGE_FLOOR, row["passage_chars"])
    rest = ok(server.call("local_search", dict(query, max_chars=12_000,
                                               offset=tight["next_offset"])), "local_search")
    assert rest["results"][0]["passage_id"] == roomy["results"][len(rows)]["passage_id"]
