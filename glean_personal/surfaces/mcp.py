"""The MCP server: four read-only tools over the personal index, on stdin/stdout.

JSON-RPC 2.0, one message per line, written with the standard library only
(the wire rules: docs/mcp.md). stdout carries protocol and nothing
else: while the server runs, `sys.stdout` points at stderr, so a stray print
anywhere cannot corrupt the stream. The index is opened read-only per tool
call, so a concurrent `index` in another process is simply seen or waited for
(the store's busy timeout); nothing is ever read from disk except the index,
so a path a tool receives can only name an indexed document.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
from typing import TYPE_CHECKING, Any, BinaryIO, Callable, Dict, List, Mapping, Optional, Tuple

from ..errors import Ambiguous, GleanError, NotFound
from ..version import __version__
from .render import text as render_text

if TYPE_CHECKING:
    from ..api import Index

PROTOCOL_VERSIONS = ("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05")  # newest first
SERVER_NAME = "glean-personal"
INSTRUCTIONS = (
    "Read-only access to the user's personal local index: the folders they indexed with "
    "glean-personal (notes, documents, exports). local_search returns ranked passages with "
    "document ids; local_fetch returns one document in full; local_sources lists what is "
    "indexed; local_related lists documents that share rare phrases with one document. "
    "Nothing here calls the network or a model: passages are quoted as stored.")

PARSE_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND, INVALID_PARAMS, INTERNAL_ERROR = (
    -32700, -32600, -32601, -32602, -32603)
MAX_LIMIT = 50
DEFAULT_FETCH_CHARS = 100_000


class ToolError(GleanError):
    """Bad arguments or a failed lookup: a tool result with isError, not a protocol error."""


# -- tool definitions --------------------------------------------------------------------
def _doc_schema(*extra: str) -> dict:
    props = {"id": {"type": "integer"}, "title": {"type": "string"},
             "url": {"type": "string"}, "path": {"type": "string"}}
    for name in extra:
        props[name] = {"type": "string"}
    return {"type": "object", "properties": props, "required": sorted(props)}


_READ_ONLY = {"readOnlyHint": True, "openWorldHint": False}
_LIMIT = {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT}

TOOLS: List[dict] = [
    {"name": "local_search", "title": "Search the personal index",
     "description": ("Ranked passages from the user's indexed local files for a query, each "
                     "with its document id (pass it to local_fetch for the whole document). "
                     "Quoted spans are exact phrases; other words are ORed and match by stem "
                     "(`word*` is a prefix, `-word` or `NOT word` excludes, `type:md` filters). "
                     "Each result's `strength` (0-1) is the share of the query's rarity-weighted "
                     "terms its passage holds: judge from it whether the index answers the query. "
                     "`query` is required (`q` is accepted too)."),
     "inputSchema": {"type": "object", "additionalProperties": False, "properties": {
         "query": {"type": "string", "description": "what to look for (required)"},
         "q": {"type": "string", "description": "alias of query"},
         "limit": dict(_LIMIT, description="how many passages (default 10)"),
         "source": {"type": "string",
                    "description": "only this indexed source label (see local_sources)"}}},
     "outputSchema": {"type": "object", "required": ["query", "store", "results", "has_more"],
                      "properties": {
                          "query": {"type": "string"}, "store": {"type": "string"},
                          "has_more": {"type": "boolean"},
                          "results": {"type": "array", "items": {
                              "type": "object",
                              "required": ["rank", "id", "title", "path", "source", "url",
                                           "format", "section", "score", "passage_id",
                                           "passage"],
                              "properties": {
                                  "rank": {"type": "integer"}, "id": {"type": "integer"},
                                  "title": {"type": "string"}, "path": {"type": "string"},
                                  "source": {"type": "string"}, "url": {"type": "string"},
                                  "format": {"type": "string"},
                                  "section": {"type": "array", "items": {"type": "string"}},
                                  "score": {"type": "number"},
                                  "passage_id": {"type": "integer"},
                                  "passage": {"type": "string"},
                                  "strength": {"type": "number"}}}},
                          "absent_terms": {"type": "array", "items": {"type": "string"}},
                          "suggestions": {"type": "object"},
                          "notices": {"type": "array", "items": {"type": "string"}}}}},
    {"name": "local_fetch", "title": "Read one indexed document",
     "description": ("One indexed document in full, reassembled from the index (headings as "
                     "Markdown `#` lines). Give exactly one of: `id` (from local_search), "
                     "`path` (as indexed, or absolute, or a file:// URL) or `fragment` (a "
                     "unique part of a path). Only indexed documents can be read."),
     "inputSchema": {"type": "object", "additionalProperties": False, "properties": {
         "id": {"type": "integer", "description": "document id from local_search"},
         "path": {"type": "string", "description": "the document's path or file:// URL"},
         "fragment": {"type": "string", "description": "a unique part of the path"},
         "url": {"type": "string", "description": "alias of path (a file:// URL)"},
         "doc": {"type": "string", "description": "alias: an id, path or fragment"},
         "document": {"type": "string", "description": "alias of doc"},
         "max_chars": {"type": "integer", "minimum": 1,
                       "description": f"cut the text after this many characters "
                                      f"(default {DEFAULT_FETCH_CHARS:,})"}}},
     "outputSchema": {"type": "object",
                      "required": ["document", "text", "chars", "truncated", "warnings"],
                      "properties": {
                          "document": _doc_schema("source", "format"),
                          "text": {"type": "string"}, "chars": {"type": "integer"},
                          "truncated": {"type": "boolean"},
                          "warnings": {"type": "array", "items": {"type": "string"}}}}},
    {"name": "local_sources", "title": "List indexed folders",
     "description": "The folders in the personal index, with labels, filters and counts.",
     "inputSchema": {"type": "object", "additionalProperties": False, "properties": {}},
     "outputSchema": {"type": "object", "required": ["sources"], "properties": {
         "sources": {"type": "array", "items": {
             "type": "object",
             "required": ["label", "root", "documents", "passages", "bytes", "last_indexed",
                          "includes", "excludes"],
             "properties": {
                 "label": {"type": "string"}, "root": {"type": "string"},
                 "documents": {"type": "integer"}, "passages": {"type": "integer"},
                 "bytes": {"type": "integer"},
                 "last_indexed": {"type": ["number", "null"]},
                 "includes": {"type": "array", "items": {"type": "string"}},
                 "excludes": {"type": "array", "items": {"type": "string"}}}}}}}},
    {"name": "local_related", "title": "Documents related to one document",
     "description": ("Documents linked to one document in the content graph, strongest "
                     "first, with the shared phrases that connect them as evidence. `doc` is "
                     "an id, path or unique part of a path (`document` is accepted too). "
                     "Needs `glean-personal link` to have been run."),
     "inputSchema": {"type": "object", "additionalProperties": False, "properties": {
         "doc": {"type": "string", "description": "an id, path or unique part of a path"},
         "document": {"type": "string", "description": "alias of doc"},
         "id": {"type": "integer", "description": "alias of doc: a document id"},
         "limit": dict(_LIMIT, description="how many neighbours (default 10)")}},
     "outputSchema": {"type": "object", "required": ["document", "neighbours", "stale"],
                      "properties": {
                          "document": _doc_schema(), "stale": {"type": "boolean"},
                          "neighbours": {"type": "array", "items": {
                              "type": "object", "required": ["document", "score", "phrases"],
                              "properties": {
                                  "document": _doc_schema(), "score": {"type": "number"},
                                  "phrases": {"type": "array",
                                              "items": {"type": "string"}}}}}}}},
]
for _tool in TOOLS:
    _tool["annotations"] = dict(_READ_ONLY, title=_tool["title"])
TOOL_NAMES = tuple(t["name"] for t in TOOLS)


# -- tools --------------------------------------------------------------------------------
class Tools:
    """The four tools over one index path; each call opens the index read-only."""

    def __init__(self, db: Optional[str]) -> None:
        self.db = db

    def _open(self) -> "Index":
        from ..api import open_index
        return open_index(self.db, readonly=True)

    def call(self, name: str, arguments: Mapping) -> Tuple[str, dict]:
        """(text, structured content) of one tool call; ToolError/GleanError on failure."""
        allowed = TOOLS[TOOL_NAMES.index(name)]["inputSchema"]["properties"]
        unknown = sorted(set(arguments) - set(allowed))
        if unknown:
            raise ToolError(f"{name} takes {', '.join(allowed) or 'no arguments'}; "
                            f"unknown: {', '.join(unknown)}")
        return getattr(self, name)(arguments)

    def local_search(self, args: Mapping) -> Tuple[str, dict]:
        query = _text(args, "query", "q")
        if not query or not query.strip():
            raise ToolError("local_search needs `query`: the words to look for")
        limit = _int(args, "limit", 10, 1, MAX_LIMIT)
        source = _text(args, "source")
        with self._open() as ix:
            if source is not None and source not in {s["label"] for s in ix.sources()}:
                raise ToolError(f"no indexed source labelled {source!r}; local_sources "
                                "lists them")
            result = ix.search(query, limit=limit, passages=True, source=source)
        rows = [{"rank": n, "id": h.document["id"], "title": h.title,
                 "path": h.document["path"], "source": h.document["source"], "url": h.url,
                 "format": h.document["format"], "section": list(h.section),
                 "score": round(float(h.score), 6), "passage_id": h.passage_id,
                 "passage": h.passage_text, "strength": round(float(h.strength), 3)}
                for n, h in enumerate(result.results, start=1)]
        data = {"query": query, "store": result.store, "results": rows,
                "has_more": bool(result.has_more),
                "absent_terms": list(result.absent_terms),
                "suggestions": dict(result.suggestions), "notices": list(result.notices)}
        return render_text.search_passages(query, rows, data["has_more"]), data

    def local_fetch(self, args: Mapping) -> Tuple[str, dict]:
        given = [k for k in ("id", "path", "url", "fragment", "doc", "document")
                 if args.get(k) not in (None, "")]
        if len(given) != 1:
            raise ToolError("local_fetch needs exactly one of `id`, `path` or `fragment`"
                            + (f" (got {', '.join(given)})" if given else ""))
        key = given[0]
        value = args[key]
        limit = _int(args, "max_chars", DEFAULT_FETCH_CHARS, 1, 1 << 62)
        with self._open() as ix:
            if key == "id":
                doc_id = _doc_id(value)
                try:
                    row = ix.resolve(doc_id)
                except (Ambiguous, NotFound):
                    row = {"id": None}
                if row["id"] != doc_id:
                    raise NotFound(f"no indexed document has id {doc_id}")
            elif key in ("path", "url"):
                row = ix.resolve(_text(args, key))
                if not _same_path(str(value), row):
                    raise NotFound(f"no indexed document at {value!r}; pass `fragment` to "
                                   "match part of a path")
            else:
                row = ix.resolve(_text(args, key))
            doc = ix.fetch(row["id"])
        whole = doc.text
        data = {"document": doc.document, "text": whole[:limit], "chars": len(whole),
                "truncated": len(whole) > limit, "warnings": list(doc.warnings)}
        shown = render_text.fetched(doc.document, data["text"], data["warnings"],
                             len(whole) if data["truncated"] else None)
        return shown, data

    def local_sources(self, args: Mapping) -> Tuple[str, dict]:
        with self._open() as ix:
            items = ix.sources()
        data = {"sources": [{"label": s["label"], "root": s["root"],
                             "documents": s["documents"], "passages": s["passages"],
                             "bytes": s["bytes"], "last_indexed": s["last_indexed"],
                             "includes": list(s["includes"]), "excludes": list(s["excludes"])}
                            for s in items]}
        return render_text.sources(items), data

    def local_related(self, args: Mapping) -> Tuple[str, dict]:
        given = [k for k in ("doc", "document", "id") if args.get(k) not in (None, "")]
        if len(given) != 1:
            raise ToolError("local_related needs `doc`: an id, path or unique part of a path")
        value = args[given[0]]
        doc = _doc_id(value) if given[0] == "id" else _text(args, given[0])
        limit = _int(args, "limit", 10, 1, MAX_LIMIT)
        with self._open() as ix:
            result = ix.related(doc, limit=limit)
        data = {"document": _brief(result.document), "stale": bool(getattr(result, "stale", False)),
                "neighbours": [{"document": _brief(n.document), "score": float(n.score),
                                "phrases": [str(p) for p in n.phrases]}
                               for n in result.neighbours]}
        return render_text.related(result, ids=True), data


def _text(args: Mapping, *names: str) -> Optional[str]:
    for name in names:
        value = args.get(name)
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, (str, int)):
            raise ToolError(f"`{name}` must be text")
        return str(value)
    return None


def _int(args: Mapping, name: str, default: int, low: int, high: int) -> int:
    value = args.get(name)
    if value is None:
        return default
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if isinstance(value, str) and value.strip().isdigit():
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        bound = f"{low}–{high}" if high < 1 << 62 else f"at least {low}"
        raise ToolError(f"`{name}` must be a whole number, {bound}; got {value!r}")
    return value


def _doc_id(value: Any) -> int:
    if isinstance(value, bool) or not (isinstance(value, int) or str(value).strip().isdigit()):
        raise ToolError(f"`id` must be a document id (a whole number), got {value!r}")
    return int(value)


def _same_path(text: str, row: Mapping) -> bool:
    """Does `text` name this row exactly (relative path, absolute path or file:// URL)?"""
    if text.startswith("file://"):
        from urllib.parse import unquote, urlparse
        text = unquote(urlparse(text).path)
    full = os.path.join(row["root"], row["path"])
    return text in (row["path"], full) or os.path.abspath(os.path.expanduser(text)) == full


def _brief(doc: Mapping) -> dict:
    return {"id": int(doc["id"]), "title": str(doc["title"]), "url": str(doc["url"]),
            "path": str(doc["path"])}


# -- JSON-RPC -------------------------------------------------------------------------------
class Server:
    """Turns one incoming message into at most one outgoing message; holds no I/O."""

    def __init__(self, db: Optional[str]) -> None:
        self.tools = Tools(db)
        self.methods: Dict[str, Callable[[Mapping], dict]] = {
            "initialize": self.initialize, "ping": lambda params: {},
            "tools/list": lambda params: {"tools": TOOLS}, "tools/call": self.call_tool}

    def handle_line(self, line: str) -> Optional[Any]:
        """The reply to one line of input (None when nothing is owed)."""
        try:
            message = json.loads(line)
        except ValueError as exc:
            return _error(None, PARSE_ERROR, f"Parse error: {exc}")
        if isinstance(message, list):
            if not message:
                return _error(None, INVALID_REQUEST, "Invalid Request: empty batch")
            replies = [r for r in (self.handle(m) for m in message) if r is not None]
            return replies or None
        return self.handle(message)

    def handle(self, message: Any) -> Optional[dict]:
        if not isinstance(message, dict):
            return _error(None, INVALID_REQUEST, "Invalid Request: expected a JSON object")
        has_id = "id" in message
        msg_id = message.get("id")
        if has_id and (isinstance(msg_id, bool) or not isinstance(msg_id, (str, int))):
            return _error(None, INVALID_REQUEST, "Invalid Request: id must be a string or integer")
        method = message.get("method")
        if method is None and ("result" in message or "error" in message):
            return None  # a response to a request we never send: nothing to say
        if message.get("jsonrpc") != "2.0" or not isinstance(method, str):
            return _error(msg_id, INVALID_REQUEST,
                          "Invalid Request: needs jsonrpc \"2.0\" and a method name")
        params = message.get("params", {})
        if params is None:
            params = {}
        if not isinstance(params, dict):
            return None if not has_id else _error(msg_id, INVALID_PARAMS,
                                                  "Invalid params: expected an object")
        if not has_id:
            return None  # notifications (initialized, cancelled, …) never get a reply
        handler = self.methods.get(method)
        if handler is None:
            return _error(msg_id, METHOD_NOT_FOUND, f"Method not found: {method}")
        try:
            return {"jsonrpc": "2.0", "id": msg_id, "result": handler(params)}
        except _ParamsError as exc:
            return _error(msg_id, INVALID_PARAMS, str(exc))
        except Exception as exc:  # a bug: report it, keep serving
            _log(f"internal error in {method}: {type(exc).__name__}: {exc}")
            return _error(msg_id, INTERNAL_ERROR, f"Internal error: {type(exc).__name__}")

    def initialize(self, params: Mapping) -> dict:
        asked = params.get("protocolVersion")
        version = asked if asked in PROTOCOL_VERSIONS else PROTOCOL_VERSIONS[0]
        info = {"name": SERVER_NAME, "version": __version__}
        if version >= "2025-06-18":
            info["title"] = "Glean Personal (local index)"
        return {"protocolVersion": version, "capabilities": {"tools": {"listChanged": False}},
                "serverInfo": info, "instructions": INSTRUCTIONS}

    def call_tool(self, params: Mapping) -> dict:
        name = params.get("name")
        if name not in TOOL_NAMES:
            raise _ParamsError(f"Unknown tool: {name!r}; tools are {', '.join(TOOL_NAMES)}")
        arguments = params.get("arguments")
        if arguments is None:
            arguments = {}
        if not isinstance(arguments, dict):
            raise _ParamsError("Invalid params: tool arguments must be an object")
        try:
            text, data = self.tools.call(name, arguments)
        except GleanError as exc:
            return _tool_error(render_text.failure(exc))
        except Exception as exc:  # a bug in a tool is still a tool result, not a crash
            _log(f"internal error in {name}: {type(exc).__name__}: {exc}")
            return _tool_error(f"internal error in {name} ({type(exc).__name__}: {exc})")
        return {"content": [{"type": "text", "text": text}], "structuredContent": data,
                "isError": False}


class _ParamsError(Exception):
    pass


def _tool_error(message: str) -> dict:
    return {"content": [{"type": "text", "text": message}], "isError": True}


def _error(msg_id: Any, code: int, message: str) -> dict:
    return {"jsonrpc": "2.0", "id": msg_id, "error": {"code": code, "message": message}}


def _log(message: str) -> None:
    print(f"glean-personal mcp: {message}", file=sys.stderr, flush=True)


def encode(reply: Any) -> bytes:
    """One reply as one line of UTF-8 (JSON escapes every newline inside strings)."""
    try:
        text = json.dumps(reply, ensure_ascii=False, separators=(",", ":"))
        return (text + "\n").encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate (an undecodable file name): escape it
        return (json.dumps(reply, ensure_ascii=True, separators=(",", ":")) + "\n").encode()


def serve(stdin: BinaryIO, stdout: BinaryIO, db: Optional[str]) -> None:
    """Answer each line of `stdin` on `stdout` until stdin closes."""
    server = Server(db)
    for raw in iter(stdin.readline, b""):
        try:
            line = raw.decode("utf-8").strip()
        except UnicodeDecodeError as exc:
            reply: Any = _error(None, PARSE_ERROR, f"Parse error: not UTF-8 ({exc.reason})")
        else:
            if not line:
                continue
            reply = server.handle_line(line)
        if reply is not None:
            stdout.write(encode(reply))
            stdout.flush()


def run_mcp(args: argparse.Namespace) -> int:
    """Serve MCP on stdin/stdout (`args`: the parsed `mcp` verb); returns when stdin closes."""
    real_stdout = sys.stdout
    out = getattr(real_stdout, "buffer", None) or real_stdout
    sys.stdout = sys.stderr  # nothing but protocol may reach the real stdout
    try:
        serve(sys.stdin.buffer, out, args.db)
    except KeyboardInterrupt:
        pass
    except BrokenPipeError:
        pass
    finally:
        sys.stdout = real_stdout
    return 0
