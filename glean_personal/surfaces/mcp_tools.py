"""The MCP tools' definitions: names, descriptions, argument and result schemas.

What an agent reads in `tools/list` (docs/mcp.md describes each tool); the
limits here bound the arguments the server accepts.
"""
from __future__ import annotations

from typing import List

MAX_LIMIT = 50
DEFAULT_LIMIT = 8
DEFAULT_BUDGET = 32_000          # characters of one whole JSON-RPC reply (~8k tokens)
MIN_BUDGET = 2_000
MAX_BUDGET = 400_000
MAX_OFFSET = 1_000
MAX_CANDIDATES = 10


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
_NULLABLE_INT = {"type": ["integer", "null"]}
_STRS = {"type": "array", "items": _STR}
_LINES = {"type": ["array", "null"], "items": _INT}
_DOC = {"type": "object", "required": ["id", "title", "url", "path", "source", "format"],
        "properties": {"id": _INT, "title": _STR, "url": _STR, "path": _STR, "source": _STR,
                       "format": _STR}}
_NEXT = {"type": ["object", "null"],
         "description": "the arguments (besides the document) that read what follows"}
DOC_ARGS = {
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
         "Search the user's indexed files; call it first for anything their own files may "
         "answer. Each result is one passage: `passage` (its text, cut around the match when "
         "the budget is tight), `snippet` (the part around the match), the document's `id`, "
         "`path` and `section` (headings), `lines` (files read line for line: plain text, "
         "Markdown and other text markup, code, configuration; not CSV, JSON, HTML, Office or "
         "mail) or `page` (PDF), and `passage_id` (give it to local_fetch `around` to read "
         "on).\n"
         "Judging a result: `strength` (0-1) is the share of the query's rarity-weighted "
         "words the passage holds, halved when it holds fewer than three of them. Below "
         "about 0.33 (where the REPL's /chat declines), or with `scattered: true` (its words "
         "far apart), it is weak evidence: say the files may not answer. `rare_together: "
         "true` means three or more of the query's rarer words together, a strong sign. "
         "`missed_terms` are query words the passage lacks. A query of two or three words "
         "reaches strength 1.0 easily: check that the passage is about the question. "
         "`absent_terms` are words no indexed passage holds; a name among them that is no "
         "misspelling (`suggestions` gives near words) usually means the files do not cover "
         "the subject. When no result is strong, search again in the words the documents "
         "would use (a command, function, option or term of the field).\n"
         "Asking: the question itself, in the words of its subject, without framing about "
         "the asker (`in my project`): every content word weighs in the ranking. Common "
         "words (how, the, of, only, out, up...) are dropped unless quoted, so quote a phrase "
         "that needs them (\"out of sync\", \"read only\"). Plain words also search a few "
         "synonyms and other forms (`expansions`; a result's `matched_synonyms`). When the "
         "question names one of the indexed sources (local_sources), pass it as `source`. "
         "Quoted spans are exact phrases; other words are ORed and match by stem; `word*` "
         "is a prefix; `-word` or `NOT word` excludes; `type:`, `source:` and `path:` "
         "filter. Page with `offset` (`next_offset` when `has_more`). `query` is required "
         "(`q` is accepted too)."),
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
                     "available": {"type": "boolean"}, "also_at": _STRS, "language": _STR,
                     "matched_synonyms": _STRS, "matched_forms": _STRS,
                     "scattered": {"type": "boolean"},
                     "rare_together": {"type": "boolean"}}}},
             "absent_terms": _STRS, "suggestions": {"type": "object"}, "notices": _STRS,
             "expansions": {"type": "object"},
             "max_chars": _INT, "trimmed": {"type": "boolean"}}}},
    {"name": "local_fetch", "title": "Read one indexed document, or part of it",
     "description": (
         "Read an indexed document found with local_search. Name it by `id`, `path` or "
         "`fragment` (a unique part of a path), then choose at most one part: `around` (a "
         "passage_id from local_search; `context` passages either side, default 2, and no "
         "document needed), `section` (a heading path such as \"Install > Linux\", or just "
         "the last heading), `page` (PDF page label or number), or `lines` (\"120-158\", "
         "in a document whose search results carry `lines`; lines no passage holds, such as "
         "blank lines and headings, come back empty). `offset` skips characters into the "
         "part. `outline: true` lists the headings with their lines or pages instead of "
         "text: use it first on long documents. Every answer says `where` it is (\"lines "
         "120-158 of 940\") and gives `next`, the arguments that read what follows (null at "
         "the end). Only indexed documents can be read; text longer than the budget is "
         "cut, never silently."),
     "inputSchema": {"type": "object", "additionalProperties": False, "properties": dict(
         DOC_ARGS, **{
             "section": {"type": ["string", "array"], "items": {"type": "string"},
                         "description": "a heading path: \"A > B\" or [\"A\", \"B\"]"},
             "page": {"type": ["string", "integer"], "description": "a page label or number"},
             "lines": {"type": ["string", "array"], "items": {"type": "integer"},
                       "description": "a line range such as \"120-158\""},
             "around": {"type": "integer", "description": "a passage_id from local_search"},
             "passage_id": {"type": "integer", "description": "alias of around"},
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
                          "selector": _STR, "text": _STR, "chars": _INT,
                          "start": _NULLABLE_INT, "end": _NULLABLE_INT,
                          "complete": {"type": "boolean"},
                          "truncated": {"type": "boolean"}, "lines": _LINES,
                          "total_lines": _INT, "page": _STR, "pages": _INT,
                          "section": _STRS, "passages": {"type": "array", "items": _INT},
                          "sections": {"type": "array"}, "sections_total": _INT,
                          "warnings": _STRS}}},
    {"name": "local_sources", "title": "List indexed folders",
     "description": ("The folders in the personal index: label, root, whether the root is "
                     "still on disk, documents by format, last indexed time, how many files "
                     "the last run skipped and why (`skipped_why`: kinds of reason with their "
                     "counts), and whether the related-documents graph is current. Call it to "
                     "learn what the index covers before concluding that something is not "
                     "there."),
     "inputSchema": {"type": "object", "additionalProperties": False,
                     "properties": {"max_chars": _BUDGET}},
     "outputSchema": {"type": "object", "required": ["sources", "documents", "graph"],
                      "properties": {
                          "documents": _INT, "graph": {"type": "object"},
                          "sources": {"type": "array", "items": {
                              "type": "object",
                              "required": ["label", "root", "present", "documents",
                                           "passages", "bytes", "formats", "last_indexed",
                                           "includes", "excludes", "skipped", "skipped_why",
                                           "graph_current"],
                              "properties": {
                                  "label": _STR, "root": _STR, "present": {"type": "boolean"},
                                  "missing_since": {"type": ["number", "null"]},
                                  "documents": _INT, "passages": _INT, "bytes": _INT,
                                  "formats": {"type": "object"},
                                  "last_indexed": {"type": ["string", "null"]},
                                  "includes": _STRS, "excludes": _STRS,
                                  "skipped": _INT, "skipped_why": {"type": "object"},
                                  "graph_current": {"type": "boolean"}}}}}}},
    {"name": "local_related", "title": "Documents related to one document",
     "description": (
         "Documents linked to one document in the content graph, strongest first, with the "
         "rare phrases the two share as evidence. `strength` (0-1) compares a link's score "
         "with the index's median link: 0.5 is a typical link, above 0.7 a strong one. `doc` "
         "is an id, path or unique part of a path; `type`, `source` and `path` filter the "
         "neighbours. Needs `glean-personal link` to have been run; `stale` says the index "
         "changed since. When `max_chars` is tight, phrases are cut and then the weakest "
         "neighbours left out: `trimmed` is true and a notice says what and how to see all."),
     "inputSchema": {"type": "object", "additionalProperties": False, "properties": dict({
         "doc": {"type": ["string", "integer"],
                 "description": "an id, path or unique part of a path"},
         "document": {"type": ["string", "integer"], "description": "alias of doc"},
         "id": {"type": ["integer", "string"], "description": "alias of doc: a document id"},
         "limit": dict(_LIMIT, description="how many neighbours (default 10)"),
         "max_chars": _BUDGET}, **_FILTERS)},
     "outputSchema": {"type": "object", "required": ["document", "neighbours", "stale",
                                                     "notices"],
                      "properties": {
                          "document": _DOC, "stale": {"type": "boolean"}, "notices": _STRS,
                          "trimmed": {"type": "boolean"},
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
