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
import fnmatch
import json
import os
import sys
from typing import TYPE_CHECKING, Any, BinaryIO, Callable, Dict, List, Mapping, Optional

from ..docref import is_digits, is_file_url, path_from_url
from ..errors import Ambiguous, GleanError, NotFound
from ..version import __version__
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
MAX_LIMIT = 50
DEFAULT_LIMIT = 8
DEFAULT_BUDGET = 32_000          # characters of one whole JSON-RPC reply (~8k tokens)
MIN_BUDGET = 2_000
MAX_BUDGET = 400_000
MAX_OFFSET = 1_000
MAX_CANDIDATES = 10
ENVELOPE = 80                    # {"jsonrpc":"2.0","id":…,"result":…} around the result


class ToolError(GleanError):
    """Bad arguments or a failed lookup: a tool result with isError, not a protocol error."""


# -- tool definitions --------------------------------------------------------------------
_READ_ONLY = {"readOnlyHint": True, "openWorldHint": False}
_LIMIT = {"type": "integer", "minimum": 1, "maximum": MAX_LIMIT}
_BUDGET = {"type": "integer", "minimum": MIN_BUDGET, "maximum": MAX_BUDGET,
           "description": f"the most characters this whole response may take (default "
                          f"{DEFAULT_BUDGET}, about 8k tokens); text is trimmed to fit, "
                          f"fields are never dropped"}
_TYPES = {"type": ["string", "array"], "items": {"type": "string"},
          "description": "only these formats: md, pdf, py, docx… (one or a list)"}
_FILTERS = {
    "type": _TYPES,
    "source": {"type": "string", "description": "only this source label (see local_sources)"},
    "path": {"type": "string", "description": "only paths matching this glob, e.g. notes/*"},
}
_DATES = {
    "after": {"type": "string", "description": "only files modified on or after (YYYY-MM-DD)"},
    "before": {"type": "string", "description": "only files modified before (YYYY-MM-DD)"},
}
_STR = {"type": "string"}
_INT = {"type": "integer"}
_NUM = {"type": "number"}
_NULLABLE_STR = {"type": ["string", "null"]}
_STRS = {"type": "array", "items": _STR}
_LINES = {"type": ["array", "null"], "items": _INT}
_DOC = {"type": "object", "required": ["id", "title", "url", "path", "source", "format"],
        "properties": {"id": _INT, "title": _STR, "url": _STR, "path": _STR, "source": _STR,
                       "format": _STR}}
_NEXT = {"type": ["object", "null"],
         "description": "the arguments (besides the document) that read what follows"}
_DOC_ARGS = {
    "id": {"type": ["integer", "string"], "description": "document id from local_search"},
    "path": {"type": "string", "description": "the document's path as indexed, absolute, "
                                              "or a file:// URL"},
    "fragment": {"type": "string", "description": "a unique part of the path"},
    "url": {"type": "string", "description": "alias of path (a file:// URL)"},
    "doc": {"type": ["string", "integer"], "description": "alias: an id, path or fragment"},
    "document": {"type": ["string", "integer"], "description": "alias of doc"},
}

TOOLS: List[dict] = [
    {"name": "local_search", "title": "Search the personal index",
     "description": (
         "Call first for anything the user's own files may answer. Returns ranked passages, "
         "each with its document id, path, section headings, line range (text and code) or "
         "page (PDF), a snippet centred on the match, its passage_id (give it to local_fetch "
         "`around` to read the neighbourhood), the query terms it holds and misses, and "
         "`strength`: the share (0-1) of the query's rarity-weighted terms the passage holds, "
         "halved when it holds fewer than three of the query's words. Below about 0.33 "
         "(where the REPL's /chat declines) treat it as weak evidence and say the index "
         "may not answer. `absent_terms` are words no indexed "
         "passage holds. A question in plain words also searches a few synonyms of its "
         "words (`expansions`; a passage's `matched_synonyms`), at reduced strength. "
         "Quoted spans are exact phrases; other words are ORed and match by "
         "stem (`word*` prefix, `-word` excludes, `type:md` filters). Page with `offset` "
         "(`next_offset` when `has_more`). `query` is required (`q` is accepted too)."),
     "inputSchema": {"type": "object", "additionalProperties": False, "properties": dict({
         "query": {"type": "string", "description": "what to look for (required)"},
         "q": {"type": "string", "description": "alias of query"},
         "limit": dict(_LIMIT, description=f"how many passages (default {DEFAULT_LIMIT})"),
         "offset": {"type": "integer", "minimum": 0, "maximum": MAX_OFFSET,
                    "description": "skip this many results (paging; see next_offset)"},
         "cursor": {"type": ["string", "integer"],
                    "description": "alias of offset: the next_offset of a previous call"},
         "max_chars": _BUDGET}, **_FILTERS, **_DATES)},
     "outputSchema": {"type": "object", "required": [
         "query", "store", "offset", "results", "has_more", "next_offset", "absent_terms",
         "suggestions", "notices", "max_chars", "trimmed"],
         "properties": {
             "query": _STR, "store": _STR, "offset": _INT, "has_more": {"type": "boolean"},
             "next_offset": {"type": ["integer", "null"]},
             "results": {"type": "array", "items": {
                 "type": "object",
                 "required": ["rank", "id", "title", "path", "source", "url", "format",
                              "section", "lines", "page", "passage_id", "snippet", "passage",
                              "passage_chars", "matched_terms", "missed_terms", "strength",
                              "score"],
                 "properties": {
                     "rank": _INT, "id": _INT, "title": _STR, "path": _STR, "source": _STR,
                     "url": _STR, "format": _STR, "section": _STRS, "lines": _LINES,
                     "page": _NULLABLE_STR, "passage_id": _INT, "snippet": _STR,
                     "passage": _STR, "passage_chars": _INT, "matched_terms": _STRS,
                     "missed_terms": _STRS, "strength": _NUM, "score": _NUM,
                     "available": {"type": "boolean"}, "also_at": _STRS,
                     "matched_synonyms": _STRS}}},
             "absent_terms": _STRS, "suggestions": {"type": "object"}, "notices": _STRS,
             "expansions": {"type": "object"},
             "max_chars": _INT, "trimmed": {"type": "boolean"}}}},
    {"name": "local_fetch", "title": "Read one indexed document, or part of it",
     "description": (
         "Read an indexed document found with local_search. Name it by `id`, `path` or "
         "`fragment` (a unique part of a path), then choose at most one part: `around` (a "
         "passage_id from local_search; `context` passages either side, default 2, and no "
         "document needed), `section` (a heading path such as \"Install > Linux\", or just "
         "the last heading), `page` (PDF page label or number), or `lines` (\"120-158\", text "
         "and code). `offset` skips characters into the part. `outline: true` lists the "
         "headings with their lines or pages instead of text: use it first on long documents. "
         "Every answer says `where` it is (\"lines 120-158 of 940\") and gives `next`, the "
         "arguments that read what follows (null at the end). Only indexed documents can be "
         "read; text longer than the budget is cut, never silently."),
     "inputSchema": {"type": "object", "additionalProperties": False, "properties": dict(
         _DOC_ARGS, **{
             "section": {"type": ["string", "array"], "items": {"type": "string"},
                         "description": "a heading path: \"A > B\" or [\"A\", \"B\"]"},
             "page": {"type": ["string", "integer"], "description": "a page label or number"},
             "lines": {"type": ["string", "array"], "items": {"type": "integer"},
                       "description": "a line range such as \"120-158\""},
             "around": {"type": "integer", "description": "a passage_id from local_search"},
             "context": {"type": "integer", "minimum": 0, "maximum": 20,
                         "description": "passages either side of `around` (default 2)"},
             "offset": {"type": "integer", "minimum": 0,
                        "description": "characters to skip into the part (see `next`)"},
             "outline": {"type": "boolean",
                         "description": "list the headings with lines/pages, not the text"},
             "max_chars": _BUDGET})},
     "outputSchema": {"type": "object", "required": ["document", "where", "next", "warnings"],
                      "properties": {
                          "document": _DOC, "where": _STR, "next": _NEXT,
                          "selector": _STR, "text": _STR, "chars": _INT, "start": _INT,
                          "end": _INT, "complete": {"type": "boolean"},
                          "truncated": {"type": "boolean"}, "lines": _LINES,
                          "total_lines": _INT, "page": _STR, "pages": _INT,
                          "section": _STRS, "passages": {"type": "array", "items": _INT},
                          "sections": {"type": "array"}, "sections_total": _INT,
                          "warnings": _STRS}}},
    {"name": "local_sources", "title": "List indexed folders",
     "description": ("The folders in the personal index: label, root, whether the root is "
                     "still on disk, documents by format, last indexed time, and whether the "
                     "related-documents graph is current. Call it to learn what the index "
                     "covers before concluding that something is not there."),
     "inputSchema": {"type": "object", "additionalProperties": False,
                     "properties": {"max_chars": _BUDGET}},
     "outputSchema": {"type": "object", "required": ["sources", "documents", "graph"],
                      "properties": {
                          "documents": _INT, "graph": {"type": "object"},
                          "sources": {"type": "array", "items": {
                              "type": "object",
                              "required": ["label", "root", "present", "documents",
                                           "passages", "bytes", "formats", "last_indexed",
                                           "includes", "excludes", "graph_current"],
                              "properties": {
                                  "label": _STR, "root": _STR, "present": {"type": "boolean"},
                                  "missing_since": {"type": ["number", "null"]},
                                  "documents": _INT, "passages": _INT, "bytes": _INT,
                                  "formats": {"type": "object"},
                                  "last_indexed": {"type": ["string", "null"]},
                                  "includes": _STRS, "excludes": _STRS,
                                  "graph_current": {"type": "boolean"}}}}}}},
    {"name": "local_related", "title": "Documents related to one document",
     "description": (
         "Documents linked to one document in the content graph, strongest first, with the "
         "rare phrases the two share as evidence. `strength` (0-1) compares a link's score "
         "with the index's median link: 0.5 is a typical link, above 0.7 a strong one. `doc` "
         "is an id, path or unique part of a path; `type`, `source` and `path` filter the "
         "neighbours. Needs `glean-personal link` to have been run; `stale` says the index "
         "changed since."),
     "inputSchema": {"type": "object", "additionalProperties": False, "properties": dict({
         "doc": {"type": ["string", "integer"],
                 "description": "an id, path or unique part of a path"},
         "document": {"type": ["string", "integer"], "description": "alias of doc"},
         "id": {"type": ["integer", "string"], "description": "alias of doc: a document id"},
         "limit": dict(_LIMIT, description="how many neighbours (default 10)"),
         "max_chars": _BUDGET}, **_FILTERS)},
     "outputSchema": {"type": "object", "required": ["document", "neighbours", "stale"],
                      "properties": {
                          "document": _DOC, "stale": {"type": "boolean"},
                          "neighbours": {"type": "array", "items": {
                              "type": "object",
                              "required": ["document", "score", "strength", "phrases"],
                              "properties": {
                                  "document": _DOC, "score": _NUM, "strength": _NUM,
                                  "phrases": _STRS}}}}}},
]
for _tool in TOOLS:
    _tool["annotations"] = dict(_READ_ONLY, title=_tool["title"])
TOOL_NAMES = tuple(t["name"] for t in TOOLS)


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def tool_result(data: dict) -> dict:
    """A successful result: the JSON in structuredContent and, serialized, in a text block."""
    return {"content": [{"type": "text", "text": dumps(data)}], "structuredContent": data,
            "isError": False}


def result_size(data: dict) -> int:
    """Characters the reply carrying `data` takes on the wire, envelope included."""
    return len(dumps(tool_result(data))) + ENVELOPE


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
            formats = ", ".join(f"{n} {f}" for f, n in list(s.get("formats", {}).items())[:8])
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
            if source is not None and source not in {s["label"] for s in ix.sources()}:
                raise ToolError(f"no indexed source labelled {source!r}; local_sources "
                                "lists them")
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
                 **({"also_at": [d["path"] for d in h.also_at]} if h.also_at else {}),
                 **({"matched_synonyms": [f"{a} \u2192 {b}" for a, b in h.matched_synonyms]}
                    if h.matched_synonyms else {})}
                for n, h in enumerate(result.results, start=1)]
        data = {"query": query, "store": result.store, "offset": offset, "results": rows,
                "has_more": bool(result.has_more),
                "next_offset": offset + len(rows) if result.has_more else None,
                "absent_terms": list(result.absent_terms),
                "suggestions": dict(result.suggestions), "notices": list(result.notices),
                "max_chars": budget, "trimmed": False}
        if result.expansions:   # a question's words and the synonyms also searched
            data["expansions"] = {k: list(v) for k, v in result.expansions.items()}
        if not rows:
            data["notices"].append(
                "No passage matches. That does not prove the user has nothing on this: "
                "try other words, or check local_sources for what is indexed.")
        return fit_search(data, budget)

    # -- local_fetch ----------------------------------------------------------------------
    def local_fetch(self, args: Mapping) -> dict:
        given = [k for k in _DOC_ARGS if args.get(k) not in (None, "")]
        around = args.get("around")
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
                 "graph_current": current} for s in items]
        data = {"sources": rows, "documents": sum(s["documents"] for s in items),
                "graph": {"linked": bool(graph.get("linked")),
                          "stale": bool(graph.get("stale")), "current": current,
                          "links": graph.get("links", 0)}}
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
        if len(given) != 1:
            raise ToolError("local_related needs `doc`: an id, path or unique part of a path")
        value = args[given[0]]
        doc = _doc_id(value) if given[0] == "id" else _text(args, given[0])
        limit = _int(args, "limit", 10, 1, MAX_LIMIT)
        budget = _int(args, "max_chars", DEFAULT_BUDGET, MIN_BUDGET, MAX_BUDGET)
        source, types, path, _, _ = _filters(args, dates=False)
        with self._open() as ix:
            from ..query import canonical_type
            formats = {canonical_type(t) for t in types or ()}
            filtered = bool(source or formats or path)
            result = ix.related(doc, limit=200 if filtered else limit)
            median = float(ix.status().graph.get("median_score") or 0.0)
        kept = [n for n in result.neighbours
                if (not source or n.document["source"] == source)
                and (not formats or n.document["format"] in formats)
                and (not path or fnmatch.fnmatchcase(n.document["path"], path))][:limit]
        data = {"document": _brief(result.document),
                "stale": bool(getattr(result, "stale", False)),
                "neighbours": [{"document": _brief(n.document), "score": round(float(n.score), 4),
                                "strength": _link_strength(float(n.score), median),
                                "phrases": [str(p) for p in n.phrases]}
                               for n in kept]}
        while result_size(data) > budget and any(len(n["phrases"]) > 3
                                                 for n in data["neighbours"]):
            for n in data["neighbours"]:
                n["phrases"] = n["phrases"][:max(3, len(n["phrases"]) // 2)]
        while result_size(data) > budget and data["neighbours"]:
            data["neighbours"].pop()
        return data


# -- fitting a response into its budget ------------------------------------------------------
def fit_search(data: dict, budget: int) -> dict:
    """Trim passages (around their match) until the reply fits; then snippets; then, only if
    still too large, leave later results for the next page (has_more, next_offset)."""
    rows = data["results"]
    full = [r["passage"] for r in rows]
    centres = [_centre(r["passage"], r["snippet"]) for r in rows]
    snippets = [r["snippet"] for r in rows]
    if result_size(data) <= budget:
        return data
    data["trimmed"] = True
    _fit_echoes(data, budget // 8)

    def passages(cap: int) -> None:
        for r, text, c in zip(rows, full, centres):
            r["passage"] = _window(text, c, cap)

    lo, hi = 0, max((len(t) for t in full), default=0)
    while lo < hi:      # the largest cap that fits
        mid = (lo + hi + 1) // 2
        passages(mid)
        if result_size(data) <= budget:
            lo = mid
        else:
            hi = mid - 1
    passages(lo)
    if result_size(data) <= budget:
        return data
    for r, snip in zip(rows, snippets):
        r["snippet"] = _window(snip, len(snip) // 2, 80)
    if result_size(data) > budget:   # did-you-mean lists: the first word for each
        data["suggestions"] = {k: v[:1] for k, v in data["suggestions"].items()}
    while result_size(data) > budget and len(rows) > 1:
        rows.pop()
        data["has_more"] = True
        data["next_offset"] = data["offset"] + len(rows)
    if result_size(data) > budget and rows:
        rows[0]["snippet"] = ""
    if result_size(data) > budget and rows:
        rows.pop()
        data["has_more"] = True
        data["next_offset"] = data["offset"]
        data["notices"].append("max_chars is too small for one result: raise it")
    if result_size(data) > budget:
        data["suggestions"] = {}
    if result_size(data) > budget:
        data.pop("expansions", None)
    return data


def _fit_echoes(data: dict, cap: int) -> None:
    """A query longer than `cap` characters is echoed cut (marked with …), and its absent
    terms listed up to `cap` characters, so what the reply repeats back never crowds out
    the results; `notices` says so."""
    query = data["query"]
    if len(query) > cap:
        data["query"] = query[:max(0, cap - 1)] + "…"
        data["notices"].append(f"the query ({len(query)} characters) is echoed cut")
    absent, kept, used = data["absent_terms"], [], 0
    for term in absent:
        used += len(term) + 3
        if used > cap:
            break
        kept.append(term)
    if len(kept) < len(absent):
        data["absent_terms"] = kept
        data["notices"].append(f"{len(absent) - len(kept)} more absent terms not listed")
    if len(dumps(data["suggestions"])) > cap:
        data["suggestions"] = {k: v[:1] for k, v in data["suggestions"].items()}
        while data["suggestions"] and len(dumps(data["suggestions"])) > cap:
            data["suggestions"].pop(next(reversed(data["suggestions"])))
    if "expansions" in data and len(dumps(data["expansions"])) > cap:
        data.pop("expansions")


def fit_text(read: Callable[[int], dict], budget: int) -> dict:
    """A part whose text leaves the reply under `budget` (the text counts twice: in the
    structured content and in the serialized text block)."""
    empty = read(1)
    overhead = result_size(dict(empty, text=""))
    allowance = max(1, (budget - overhead) // 2)
    for _ in range(8):
        data = read(allowance)
        size = result_size(data)
        if size <= budget:
            return data
        allowance = max(1, int(allowance * (budget - overhead) / max(1, size - overhead)) - 16)
    data = read(1)
    return data


def fit_outline(data: dict, budget: int) -> dict:
    sections = data["sections"]
    data["sections_total"] = len(sections)
    data["where"] = f"outline: {len(sections)} sections"
    data["next"] = None
    data.setdefault("warnings", [])
    if result_size(data) <= budget:
        return data
    top = min((s["level"] for s in sections), default=0)
    shallow = [s for s in sections if s["level"] <= top + 1]

    def show(count: int) -> None:
        data["sections"] = shallow[:count]
        data["where"] = (f"outline: {count} of {len(sections)} sections (the top levels "
                         "first); read one with `section` to see its subsections")
        data["next"] = ({"offset": shallow[count]["offset"]} if count < len(shallow)
                        else None)

    count = len(shallow)
    show(count)
    while result_size(data) > budget and count:
        count = count * 3 // 4
        show(count)
    return data


def _centre(passage: str, snippet: str) -> int:
    core = snippet.strip(" .…")
    at = passage.find(core[:60]) if core else -1
    return at + len(core) // 2 if at >= 0 else 0


def _window(text: str, centre: int, cap: int) -> str:
    """At most `cap` characters of `text` around `centre`, marked with … where cut."""
    if len(text) <= cap:
        return text
    if cap <= 2:
        return ""
    room = cap - 2
    start = max(0, min(centre - room // 2, len(text) - room))
    out = text[start:start + room]
    return ("…" if start > 0 else "") + out + ("…" if start + room < len(text) else "")


def _present(source: Mapping) -> bool:
    """Is the source's folder there? (The index's own answer when it has one.)"""
    if "available" in source:
        return bool(source["available"])
    return os.path.isdir(source["root"])


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
    from datetime import datetime
    try:
        return datetime.fromisoformat(str(value).strip().replace("Z", "+00:00")).timestamp()
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
    """Does `text` name this row exactly (relative path, absolute path or file:// URL)?"""
    if is_file_url(text):
        text = path_from_url(text)
    full = os.path.join(row["root"], row["path"])
    return text in (row["path"], full) or os.path.abspath(os.path.expanduser(text)) == full


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
        except RecursionError:   # nested deeper than the parser's stack allows
            return _error(None, PARSE_ERROR, "Parse error: nested too deeply")
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
                "serverInfo": info, "instructions": self.tools.describe()}

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
