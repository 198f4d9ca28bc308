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
import queue
import re
import sys
import threading
from typing import TYPE_CHECKING, Any, BinaryIO, Callable, Dict, Iterator, Mapping, Optional

from ..docref import MAX_DIGITS, disk_path, is_digits, is_file_url, path_from_url
from ..errors import Ambiguous, GleanError, NotFound
from ..reports import skip_kinds
from ..version import __version__
from .args import timestamp_of
from .mcp_fit import (fit_outline, fit_related, fit_search, fit_text, result_size,
                      tool_result)
from .mcp_tools import (DEFAULT_BUDGET, DEFAULT_LIMIT, DOC_ARGS, MAX_BUDGET, MAX_CANDIDATES,
                        MAX_LIMIT, MAX_OFFSET, MIN_BUDGET, TOOL_NAMES, TOOLS)
from .render import text as render_text

if TYPE_CHECKING:
    from ..api import Index

PROTOCOL_VERSIONS = ("2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05")  # newest first
SERVER_NAME = "glean-personal"
INSTRUCTIONS = (
    "Read-only access to the user's personal local index: the folders they indexed with "
    "glean-personal (notes, documents, code, exports). Nothing here calls the network or a "
    "model: passages are quoted as stored.\n"
    "When to use each tool: local_search first, for any question the user's own files may "
    "answer; read each result's `strength` (0-1) and `missed_terms` before trusting it. "
    "local_fetch to read more of a hit: pass `around` (the hit's passage_id) for its "
    "neighbourhood, `section` or `lines` for a part, `outline: true` to see a long document's "
    "headings first; follow `next` to read on. local_related for documents that share rare "
    "phrases with one document. local_sources to see which folders are indexed, whether they "
    "are still on disk, and what formats they hold.\n"
    "Every response stays under `max_chars` characters (default 32000, about 8k tokens).")

PARSE_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND, INVALID_PARAMS, INTERNAL_ERROR = (
    -32700, -32600, -32601, -32602, -32603)


class ToolError(GleanError):
    """Bad arguments or a failed lookup: a tool result with isError, not a protocol error."""


# -- tools --------------------------------------------------------------------------------
class Tools:
    """The four tools over one index path; each call opens the index read-only."""

    def __init__(self, db: Optional[str]) -> None:
        self.db = db

    def _open(self) -> "Index":
        from ..api import open_index
        return open_index(self.db, readonly=True)

    def call(self, name: str, arguments: Mapping) -> dict:
        """The structured content of one tool call; ToolError/GleanError on failure."""
        allowed = TOOLS[TOOL_NAMES.index(name)]["inputSchema"]["properties"]
        unknown = sorted(set(arguments) - set(allowed))
        if unknown:
            raise ToolError(f"{name} does not take {', '.join(unknown)}; it takes "
                            f"{', '.join(allowed) or 'no arguments'}")
        return getattr(self, name)(arguments)

    def describe(self) -> str:
        """What is indexed, for the server's instructions (the static text if unreadable)."""
        try:
            with self._open() as ix:
                items = ix.sources()
                graph = ix.status().graph
        except Exception:  # no index yet, or unreadable: the tools will say why
            return INSTRUCTIONS
        if not items:
            return INSTRUCTIONS + "\nThe index is empty: nothing has been indexed yet."
        lines = []
        for s in items:
            formats = _format_counts(s.get("formats", {}))
            gone = "" if _present(s) else " (folder missing on disk)"
            lines.append(f"- {s['label']}: {s['root']}{gone}: {s['documents']} documents"
                         + (f" ({formats})" if formats else ""))
        total = sum(s["documents"] for s in items)
        state = ("current" if graph.get("linked") and not graph.get("stale") else
                 "stale (run `glean-personal link`)" if graph.get("linked") else "not built")
        return (INSTRUCTIONS + f"\nIndexed now: {total} documents in {len(items)} "
                f"source(s):\n" + "\n".join(lines) + f"\nRelated-documents graph: {state}.")

    # -- local_search ---------------------------------------------------------------------
    def local_search(self, args: Mapping) -> dict:
        if (args.get("query") is not None and args.get("q") is not None
                and args["query"] != args["q"]):
            raise ToolError("give `query` or its alias `q`, not both")
        query = _text(args, "query", "q")
        if not query or not query.strip():
            raise ToolError("local_search needs `query`: the words to look for")
        limit = _int(args, "limit", DEFAULT_LIMIT, 1, MAX_LIMIT)
        if args.get("offset") is not None and args.get("cursor") is not None:
            raise ToolError("give `offset` or `cursor`, not both")
        offset = _int(args, "cursor" if args.get("cursor") is not None else "offset", 0, 0,
                      MAX_OFFSET)
        budget = _int(args, "max_chars", DEFAULT_BUDGET, MIN_BUDGET, MAX_BUDGET)
        source, types, path, after, before = _filters(args)
        with self._open() as ix:
            _known_source(ix, source)
            result = ix.search(query, limit=limit, offset=offset, passages=True, explain=True,
                               source=source, type=types, path=path, after=after,
                               before=before)
        rows = [{"rank": offset + n, "id": h.document["id"], "title": h.title,
                 "path": h.document["path"], "source": h.document["source"], "url": h.url,
                 "format": h.document["format"], "section": list(h.section),
                 "lines": list(h.lines) if h.lines else None, "page": h.page,
                 "passage_id": h.passage_id,
                 "snippet": h.snippets[0].text if h.snippets else "",
                 "passage": h.passage_text, "passage_chars": len(h.passage_text),
                 "matched_terms": list(h.matched_terms or []),
                 "missed_terms": list(h.missed_terms or []),
                 "strength": round(float(h.strength), 3), "score": round(float(h.score), 6),
                 "available": bool(h.document.get("available", True)),
                 **({"language": h.document["language"]} if h.document.get("language") else {}),
                 **({"also_at": [d["path"] for d in h.also_at]} if h.also_at else {}),
                 **({"scattered": True} if h.scattered else {}),
                 **({"rare_together": True} if h.rare_together else {}),
                 **_expanded_by(h)}
                for n, h in enumerate(result.results, start=1)]
        data = {"query": query, "store": result.store, "offset": offset, "results": rows,
                "has_more": bool(result.has_more),
                "next_offset": offset + len(rows) if result.has_more else None,
                "absent_terms": list(result.absent_terms),
                "suggestions": dict(result.suggestions), "notices": list(result.notices),
                "max_chars": budget, "trimmed": False}
        if result.expansions:   # a question's words and the synonyms also searched
            data["expansions"] = {k: list(v) for k, v in result.expansions.items()}
        if not rows and not result.past_end:   # past the end, the search's notice says so
            data["notices"].append(
                "No passage matches. That does not prove the user has nothing on this: "
                "try other words, or check local_sources for what is indexed.")
        return fit_search(data, budget)

    # -- local_fetch ----------------------------------------------------------------------
    def local_fetch(self, args: Mapping) -> dict:
        given = [k for k in DOC_ARGS if args.get(k) not in (None, "")]
        if args.get("around") is not None and args.get("passage_id") is not None:
            raise ToolError("give `around` or its alias `passage_id`, not both")
        around = args["around"] if args.get("around") is not None else args.get("passage_id")
        if around is not None:
            around = _whole(around, "around")
        if len(given) > 1 or (not given and around is None):
            raise ToolError("local_fetch needs exactly one of `id`, `path` or `fragment` "
                            "(or `around` with a passage_id)"
                            + (f" (got {', '.join(given)})" if given else ""))
        budget = _int(args, "max_chars", DEFAULT_BUDGET, MIN_BUDGET, MAX_BUDGET)
        offset = _int(args, "offset", 0, 0, 1 << 62)
        context = _int(args, "context", 2, 0, 20)
        section = args.get("section")
        if section is not None and not (isinstance(section, str) or (
                isinstance(section, list) and all(isinstance(s, str) for s in section))):
            raise ToolError("`section` must be a heading path: \"A > B\" or [\"A\", \"B\"]")
        page = args.get("page")
        if page is not None and (isinstance(page, bool) or not isinstance(page, (str, int))):
            raise ToolError("`page` must be a page label or number")
        lines = args.get("lines")
        if lines is not None and not (isinstance(lines, str) or (
                isinstance(lines, list) and len(lines) == 2
                and all(isinstance(n, int) and not isinstance(n, bool) for n in lines))):
            raise ToolError("`lines` must be a range such as \"120-158\" or [120, 158]")
        outline = args.get("outline", False)
        if not isinstance(outline, bool):
            raise ToolError("`outline` must be true or false")
        with self._open() as ix:
            doc = self._document(ix, args, given[0]) if given else None
            if outline:
                if any(v is not None for v in (section, page, lines, around)):
                    raise ToolError("`outline` lists the headings of a whole document: "
                                    "leave out section, page, lines and around")
                if doc is None:
                    raise ToolError("`outline` needs a document: `id`, `path` or `fragment`")
                return fit_outline(ix.outline(doc).to_dict(), budget)

            def read(max_chars: int) -> dict:
                part = ix.read(doc, section=section, page=page, lines=lines, offset=offset,
                               max_chars=max_chars, around=around, context=context)
                data = part.to_dict()
                data["truncated"] = not part.complete
                return data

            data = fit_text(read, budget)
            if data.get("next") is not None:   # the budget, not the internal text allowance
                data["next"].pop("max_chars", None)
                if args.get("max_chars") is not None:
                    data["next"]["max_chars"] = budget
            return data

    def _document(self, ix: "Index", args: Mapping, key: str) -> int:
        value = args[key]
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
        return int(row["id"])

    # -- local_sources --------------------------------------------------------------------
    def local_sources(self, args: Mapping) -> dict:
        budget = _int(args, "max_chars", DEFAULT_BUDGET, MIN_BUDGET, MAX_BUDGET)
        with self._open() as ix:
            items = ix.sources()
            graph = ix.status().graph
        current = bool(graph.get("linked")) and not graph.get("stale")
        rows = [{"label": s["label"], "root": s["root"], "present": _present(s),
                 "missing_since": s.get("missing_since"),
                 "documents": s["documents"], "passages": s["passages"], "bytes": s["bytes"],
                 "formats": dict(s.get("formats", {})),
                 "last_indexed": _iso(s["last_indexed"]),
                 "includes": list(s["includes"]), "excludes": list(s["excludes"]),
                 "skipped": len(s["last_skipped"]),
                 "skipped_why": skip_kinds(s["last_skipped"]),
                 "graph_current": current} for s in items]
        data = {"sources": rows, "documents": sum(s["documents"] for s in items),
                "graph": {"linked": bool(graph.get("linked")),
                          "stale": bool(graph.get("stale")), "current": current,
                          "links": graph.get("links", 0)}}
        while result_size(data) > budget and any(len(r["skipped_why"]) > 1 for r in rows):
            for r in rows:   # many kinds of skip: keep the commonest
                kinds = list(r["skipped_why"].items())
                r["skipped_why"] = dict(kinds[:len(kinds) // 2 or 1])
        while result_size(data) > budget and any(r["formats"] for r in rows):
            for r in rows:   # many formats: keep the commonest
                keep = list(r["formats"].items())[:max(0, len(r["formats"]) // 2)]
                r["formats"] = dict(keep)
        while result_size(data) > budget and len(rows) > 1:
            rows.pop()
            data["sources_omitted"] = data.get("sources_omitted", 0) + 1
        return data

    # -- local_related --------------------------------------------------------------------
    def local_related(self, args: Mapping) -> dict:
        given = [k for k in ("doc", "document", "id") if args.get(k) not in (None, "")]
        if len(given) > 1:
            raise ToolError("give one of `doc`, `document` or `id`, not both "
                            f"(got {', '.join(given)})")
        if not given:
            raise ToolError("local_related needs `doc`: an id, path or unique part of a path")
        value = args[given[0]]
        doc = _doc_id(value) if given[0] == "id" else _text(args, given[0])
        limit = _int(args, "limit", 10, 1, MAX_LIMIT)
        budget = _int(args, "max_chars", DEFAULT_BUDGET, MIN_BUDGET, MAX_BUDGET)
        source, types, path, _, _ = _filters(args, dates=False)
        with self._open() as ix:
            _known_source(ix, source)
            result = ix.related(doc, limit=limit, source=source, type=types, path=path)
            median = float(ix.status().graph.get("median_score") or 0.0)
        data = {"document": _brief(result.document),
                "stale": bool(getattr(result, "stale", False)),
                "neighbours": [{"document": _brief(n.document), "score": round(float(n.score), 4),
                                "strength": _link_strength(float(n.score), median),
                                "phrases": [str(p) for p in n.phrases]}
                               for n in result.neighbours],
                "notices": list(result.notices)}
        return fit_related(data, budget)


SHOWN_FORMATS = 8   # formats named in the instructions per source; the rest are counted


def _format_counts(formats: Mapping[str, int]) -> str:
    """A source's documents by format, the commonest first: the first SHOWN_FORMATS
    named, the rest summed (`and 5 more in 5 other formats`), so the counts add up."""
    items = list(formats.items())
    shown = ", ".join(f"{n} {f}" for f, n in items[:SHOWN_FORMATS])
    rest = items[SHOWN_FORMATS:]
    if rest:
        kinds = "1 other format" if len(rest) == 1 else f"{len(rest)} other formats"
        shown += f", and {sum(n for _, n in rest)} more in {kinds}"
    return shown


def _known_source(ix: "Index", source: Optional[str]) -> None:
    """A `source` argument names an indexed source, or the call is a tool error."""
    if source is not None and source not in {s["label"] for s in ix.sources()}:
        raise ToolError(f"no indexed source labelled {source!r}; local_sources lists them")


def _expanded_by(hit) -> dict:
    """A hit's synonyms and other forms found, as `word → other`, where it has any."""
    return {key: [f"{a} \u2192 {b}" for a, b in pairs]
            for key, pairs in (("matched_synonyms", hit.matched_synonyms),
                               ("matched_forms", hit.matched_forms)) if pairs}


def _present(source: Mapping) -> bool:
    """Is the source's folder there? (The index's own answer when it has one.)"""
    if "available" in source:
        return bool(source["available"])
    return os.path.isdir(disk_path(source["root"]))


def _link_strength(score: float, median: float) -> float:
    if median <= 0:
        return 1.0 if score > 0 else 0.0
    return round(score / (score + median), 3)


def _filters(args: Mapping, dates: bool = True):
    source = _text(args, "source")
    types = args.get("type")
    if types is not None:
        if isinstance(types, str):
            types = [t for t in types.replace(",", " ").split() if t]
        elif not (isinstance(types, list) and all(isinstance(t, str) for t in types)):
            raise ToolError("`type` must be a format name or a list of them, such as \"md\"")
    path = _text(args, "path")
    after = _date(args, "after") if dates else None
    before = _date(args, "before") if dates else None
    return source, types or None, path or None, after, before


def _date(args: Mapping, name: str) -> Optional[float]:
    value = args.get(name)
    if value is None:
        return None
    try:
        return timestamp_of(str(value).strip().replace("Z", "+00:00"))
    except ValueError:
        raise ToolError(f"`{name}` must be a date like 2024-05-31, got {value!r}") from None


def _iso(stamp: Optional[float]) -> Optional[str]:
    if stamp is None:
        return None
    from datetime import datetime, timezone
    return datetime.fromtimestamp(stamp, timezone.utc).isoformat(timespec="seconds")


def _whole(value: Any, name: str) -> int:
    if isinstance(value, bool) or not (isinstance(value, int) or is_digits(value)):
        raise ToolError(f"`{name}` must be a whole number, got {value!r}")
    return int(value)


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
    if isinstance(value, str) and is_digits(value):
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        bound = f"{low}–{high}" if high < 1 << 62 else f"at least {low}"
        raise ToolError(f"`{name}` must be a whole number, {bound}; got {value!r}")
    return value


def _doc_id(value: Any) -> int:
    if isinstance(value, bool) or not (isinstance(value, int) or is_digits(value)):
        raise ToolError(f"`id` must be a document id (a whole number), got {value!r}")
    return int(value)


def _same_path(text: str, row: Mapping) -> bool:
    """Does `text` name this row (relative path, absolute path or file:// URL; links
    resolved, for a source indexed through a link: `Index.resolve`)? A relative path
    may leave out leading folders (`reverse_proxy.md` for `caddyfile/reverse_proxy.md`):
    `Index.resolve` has found it the one document so named."""
    if is_file_url(text):
        text = path_from_url(text)
    full = os.path.join(row["root"], row["path"])
    whole = os.path.abspath(os.path.expanduser(text))
    tail = os.path.normpath(text)
    return (text in (row["path"], full) or tail == row["path"]
            or (not os.path.isabs(tail) and not tail.startswith("..")
                and row["path"].endswith(os.sep + tail))
            or whole == full or os.path.realpath(whole) == os.path.realpath(full))


def _brief(doc: Mapping) -> dict:
    return {"id": int(doc["id"]), "title": str(doc["title"]), "url": str(doc["url"]),
            "path": str(doc["path"]), "source": str(doc.get("source", "")),
            "format": str(doc.get("format", ""))}


def ambiguous(exc: Ambiguous) -> str:
    """An ambiguous reference: up to ten candidates, each with the id that names it."""
    shown = exc.candidates[:MAX_CANDIDATES]
    lines = [str(exc)] + [f"  id {c['id']}: {c['path']} ({c['title']}, source {c['source']})"
                          for c in shown]
    if len(exc.candidates) > len(shown):
        lines.append(f"  … and {len(exc.candidates) - len(shown)} more; pass `id`, or more "
                     "of the path")
    else:
        lines.append("Pass `id` with one of these.")
    return "\n".join(lines)


# -- JSON-RPC -------------------------------------------------------------------------------
class Server:
    """Turns one incoming message into at most one outgoing message; holds no I/O.

    Messages are read ahead of their handling (`serve`), and `arrived` sees each
    one as it is read: a `notifications/cancelled` for a request still waiting
    or running means that request gets no reply (and, still waiting, is never
    run), as MCP asks. Cancelling `initialize`, a request already answered or an
    unknown id changes nothing.
    """

    def __init__(self, db: Optional[str]) -> None:
        self.tools = Tools(db)
        self._lock = threading.Lock()
        self._pending: set = set()     # (type, id) of requests read and not yet answered
        self._cancelled: set = set()   # the subset whose reply is no longer wanted
        self.methods: Dict[str, Callable[[Mapping], dict]] = {
            "initialize": self.initialize, "ping": lambda params: {},
            "tools/list": lambda params: {"tools": TOOLS}, "tools/call": self.call_tool}

    def arrived(self, message: Any) -> None:
        """Note a message as it is read: a request now pending, or a cancellation."""
        for m in message if isinstance(message, list) else (message,):
            if not isinstance(m, dict):
                continue
            if m.get("method") == "notifications/cancelled":
                params = m.get("params")
                key = _key(params.get("requestId") if isinstance(params, dict) else None)
                with self._lock:
                    if key is not None and key in self._pending:
                        self._cancelled.add(key)
            elif m.get("method") != "initialize" and _key(m.get("id")) is not None:
                with self._lock:
                    self._pending.add(_key(m["id"]))

    def handle_message(self, message: Any) -> Optional[Any]:
        """The reply to one parsed message or batch (None when nothing is owed)."""
        if isinstance(message, _Unparsed):
            return message.reply
        if isinstance(message, list):
            if not message:
                return _error(None, INVALID_REQUEST, "Invalid Request: empty batch")
            replies = [r for r in (self.handle(m) for m in message) if r is not None]
            return replies or None
        return self.handle(message)

    def handle(self, message: Any) -> Optional[dict]:
        """The reply to one message, unless its request was cancelled meanwhile."""
        reply = self._reply(message)
        if isinstance(message, dict) and self._settled(message.get("id"), answered=True):
            return None
        return reply

    def _reply(self, message: Any) -> Optional[dict]:
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
        if self._settled(msg_id):
            return None  # cancelled before it ran
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

    def _settled(self, msg_id: Any, answered: bool = False) -> bool:
        """Whether the request was cancelled; a cancelled or answered one is no longer pending."""
        key = _key(msg_id)
        if key is None:
            return False
        with self._lock:
            cancelled = key in self._cancelled
            if cancelled or answered:
                self._cancelled.discard(key)
                self._pending.discard(key)
        return cancelled

    def initialize(self, params: Mapping) -> dict:
        asked = params.get("protocolVersion")
        version = asked if asked in PROTOCOL_VERSIONS else PROTOCOL_VERSIONS[0]
        info = {"name": SERVER_NAME, "version": __version__}
        if version >= "2025-06-18":
            info["title"] = "Glean Personal (local index)"
        return {"protocolVersion": version, "capabilities": {"tools": {"listChanged": False}},
                "serverInfo": info, "instructions": self.tools.describe()}

    def call_tool(self, params: Mapping) -> dict:
        name = params.get("name")
        if not isinstance(name, str):
            raise _ParamsError(f"tools/call needs `name`: one of {', '.join(TOOL_NAMES)}"
                               + ("" if name is None else f" (got {repr(name)[:60]})"))
        if name not in TOOL_NAMES:
            raise _ParamsError(f"Unknown tool: {name!r}; tools are {', '.join(TOOL_NAMES)}")
        arguments = params.get("arguments")
        if arguments is None:
            arguments = {}
        if not isinstance(arguments, dict):
            raise _ParamsError("Invalid params: tool arguments must be an object")
        try:
            data = self.tools.call(name, arguments)
        except Ambiguous as exc:
            return _tool_error(ambiguous(exc))
        except GleanError as exc:
            return _tool_error(render_text.failure(exc))
        except Exception as exc:  # a bug in a tool is still a tool result, not a crash
            _log(f"internal error in {name}: {type(exc).__name__}: {exc}")
            return _tool_error(f"internal error in {name} ({type(exc).__name__}: {exc})")
        return tool_result(data)


class _ParamsError(Exception):
    pass


class _Unparsed:
    """A line that is not JSON: the error reply it gets."""

    def __init__(self, reply: dict) -> None:
        self.reply = reply


def parse(line: str) -> Any:
    """One line as a JSON value, or an _Unparsed holding its parse error."""
    try:
        return json.loads(line, parse_int=_json_int)
    except ValueError as exc:
        return _Unparsed(_error(None, PARSE_ERROR, f"Parse error: {exc}"))
    except RecursionError:   # nested deeper than the parser's stack allows
        return _Unparsed(_error(None, PARSE_ERROR, "Parse error: nested too deeply"))


def _json_int(text: str) -> Any:
    """A JSON integer; one too long for int() (over 4,300 digits) is read as a float
    (infinite), which every argument check and the id check then refuse by name,
    instead of the whole request failing to parse."""
    return int(text) if len(text) <= MAX_DIGITS else float(text)


def _key(msg_id: Any) -> Optional[tuple]:
    """A request id as a set key (1 and "1" are different ids); None for no valid id."""
    if isinstance(msg_id, bool) or not isinstance(msg_id, (str, int)):
        return None
    return (type(msg_id).__name__, msg_id)


def _tool_error(message: str) -> dict:
    return {"content": [{"type": "text", "text": message}], "isError": True}


def _error(msg_id: Any, code: int, message: str) -> dict:
    return {"jsonrpc": "2.0", "id": msg_id, "error": {"code": code, "message": message}}


def _log(message: str) -> None:
    print(f"glean-personal mcp: {message}", file=sys.stderr, flush=True)


def encode(reply: Any) -> bytes:
    """One reply as one line of UTF-8 (JSON escapes every newline inside strings).

    A lone surrogate (a request's `"\\ud800"` escape, echoed in a query or an error
    message) becomes U+FFFD: written as `\\ud800` it makes a line strict parsers refuse
    whole (pydantic-core's, the official Python SDK's, says "unexpected end of hex
    escape"). A pair of surrogates is already one character once parsed."""
    text = json.dumps(reply, ensure_ascii=False, separators=(",", ":"))
    try:
        return (text + "\n").encode("utf-8")
    except UnicodeEncodeError:
        return (_LONE_SURROGATE.sub("\ufffd", text) + "\n").encode("utf-8")


_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


def serve(stdin: BinaryIO, stdout: BinaryIO, db: Optional[str]) -> None:
    """Answer each line of `stdin` on `stdout`, in order, until stdin closes.

    A thread reads ahead, so a cancellation is seen while the request it names
    waits or runs; the answers are made one at a time on this thread.
    """
    server = Server(db)
    inbox: "queue.Queue[Any]" = queue.Queue(maxsize=READ_AHEAD)
    reader = threading.Thread(target=_read_ahead, args=(stdin, server, inbox),
                              name="mcp-reader", daemon=True)
    reader.start()
    for message in iter(inbox.get, _END):
        reply = server.handle_message(message)
        if reply is not None:
            stdout.write(encode(reply))
            stdout.flush()


_END = object()
READ_AHEAD = 64   # messages read and not yet answered, at most: a flood waits in the pipe


def _read_ahead(stdin: BinaryIO, server: Server, inbox: "queue.Queue[Any]") -> None:
    """Parse each line as it comes, tell the server, and queue it for answering."""
    try:
        for raw in _lines(stdin):
            if raw is None:
                inbox.put(_Unparsed(_error(None, INVALID_REQUEST, "Invalid Request: a message "
                                           f"is limited to {MAX_LINE >> 20} MiB; this one "
                                           "was skipped")))
                continue
            try:
                # a byte-order mark (some Windows pipes write one before the first
                # message) is not JSON: RFC 8259 lets a parser ignore it, and does
                line = raw.decode("utf-8").strip().lstrip("\ufeff")
            except UnicodeDecodeError as exc:
                inbox.put(_Unparsed(_error(None, PARSE_ERROR,
                                           f"Parse error: not UTF-8 ({exc.reason})")))
                continue
            if line:
                message = parse(line)
                server.arrived(message)
                inbox.put(message)
    except (OSError, ValueError) as exc:   # stdin closed under us: stop as at its end
        _log(f"stdin: {exc}")
    finally:
        inbox.put(_END)


MAX_LINE = 64 << 20
"""The longest message kept; a longer one is read through and dropped (None), so a
client that never sends a newline cannot fill the memory."""


def _lines(stdin: BinaryIO) -> Iterator[Optional[bytes]]:
    """The lines of `stdin` as they come; None for one longer than MAX_LINE.

    A stream with a file descriptor is read with os.read, not its buffered
    reader: a thread blocked in that reader holds its lock, and Python aborts
    ("could not acquire lock ... at interpreter shutdown") when it finds the
    lock held as it exits early (Ctrl-C, or a client that closed our stdout).
    """
    try:
        fd = stdin.fileno()
    except (OSError, ValueError):   # an in-memory stream (io.UnsupportedOperation)
        yield from iter(stdin.readline, b"")
        return
    line = bytearray()
    too_long = False
    while True:
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            break
        *ends, rest = chunk.split(b"\n")
        for end in ends:
            line += end
            yield None if too_long or len(line) > MAX_LINE else bytes(line)
            line.clear()
            too_long = False
        line += rest
        if len(line) > MAX_LINE:
            too_long = True
            line.clear()
    if too_long or line:
        yield None if too_long else bytes(line)


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
