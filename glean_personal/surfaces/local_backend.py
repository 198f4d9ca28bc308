"""The REPL's backends: one interface, and the local one that answers from the index.

A backend takes Client API requests and returns Client API responses, as
plain dicts with camelCase keys (see CLIENT_API.md), so one renderer draws a
local answer and a tenant answer alike. This package ships only
`LocalBackend`; a tenant client would subclass `Backend` and plug in through
`resolve_backend` without the REPL changing.

Local responses carry `"localIndex": true` and only the fields the index can
fill honestly: `datasource` is always "local", ids are document ids as text,
and every `startIndex`/`endIndex` counts Python string characters (code
points) of the text it points into.
"""
from __future__ import annotations

import abc
import json
import os
import re
import time
import uuid
from datetime import datetime, timezone
from typing import Dict, List, Mapping, Optional, Sequence, Tuple, Union

from ..analysis import is_stopword, stem, token_spans, tokenize
from ..errors import Ambiguous, GleanError, LocalModeError, NotFound, UsageError
from ..query import MIN_PREFIX_LEN, Term
from ..search import ANSWER_STRENGTH, doc_summary

COVERED = "/search, /chat, /autocomplete and /getdocuments"
DATASOURCE = "local"
MAX_PAGE = 100

# /chat (docs/repl.md, "When /chat answers"): it answers when one of its
# candidate passages has the match strength the search layer calls enough
# (`ANSWER_STRENGTH`), and quotes those passages, best first.
CHAT_WORDS = 300
CHAT_PASSAGES = 5
CHAT_CANDIDATES = 8

MIME_TYPES = {
    "txt": "text/plain", "md": "text/markdown", "markdown": "text/markdown",
    "html": "text/html", "htm": "text/html", "json": "application/json",
    "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
}

PathLike = Union[str, "os.PathLike[str]"]


class Backend(abc.ABC):
    """Something that answers Client API endpoints: the local index, or (later) a tenant."""

    name = ""

    def call(self, endpoint: str, request: Mapping) -> dict:
        """Dispatch by endpoint name (`search`, `/chat`…); anything else is `unsupported`."""
        key = endpoint.strip().lstrip("/").lower()
        method = {"search": self.search, "chat": self.chat, "autocomplete": self.autocomplete,
                  "getdocuments": self.getdocuments}.get(key)
        if method is None:
            return self.unsupported(key)
        return method(request)

    @abc.abstractmethod
    def search(self, request: Mapping) -> dict:
        """SearchRequest → SearchResponse."""

    @abc.abstractmethod
    def chat(self, request: Mapping) -> dict:
        """ChatRequest → ChatResponse."""

    @abc.abstractmethod
    def autocomplete(self, request: Mapping) -> dict:
        """AutocompleteRequest → AutocompleteResponse."""

    @abc.abstractmethod
    def getdocuments(self, request: Mapping) -> dict:
        """GetDocumentsRequest → GetDocumentsResponse."""

    def unsupported(self, endpoint: str) -> dict:
        raise GleanError(f"/{endpoint} is not an endpoint this backend serves")

    def close(self) -> None:
        """Release whatever the backend holds open."""


def error_response(exc: BaseException) -> dict:
    """The Client API's error body for a failed request."""
    return {"errorInfo": {"errorMessages": [{"source": "glean_personal",
                                             "errorMessage": str(exc)}]}}


def tenant_configured(environ: Mapping[str, str]) -> bool:
    """Are Glean tenant credentials configured? (A token plus an instance or server URL.)"""
    return bool(environ.get("GLEAN_API_TOKEN")
                and (environ.get("GLEAN_INSTANCE") or environ.get("GLEAN_SERVER_URL")))


def resolve_backend(mode: str, db: Optional[PathLike],
                    environ: Mapping[str, str] = os.environ) -> Tuple[Backend, str]:
    """The backend for a REPL mode, and one line saying what was chosen and why.

    `local` is taken at its word. `auto` would pick a tenant when credentials
    are configured, but this package ships no tenant client, so it always
    resolves to the local index, and says which of the two reasons applies.
    Nothing here touches the network.
    """
    if mode == "local":
        return LocalBackend(db), "local: answering from the personal index"
    if mode != "auto":
        raise UsageError(f"unknown mode {mode!r}: use `/mode local` or `/mode auto`")
    if tenant_configured(environ):
        why = ("Glean credentials are configured, but this package ships no tenant client; "
               "answering from the personal index")
    else:
        why = ("no Glean credentials configured (GLEAN_API_TOKEN with GLEAN_INSTANCE or "
               "GLEAN_SERVER_URL); answering from the personal index")
    return LocalBackend(db), f"auto, resolved to local: {why}"


class LocalBackend(Backend):
    """Client API answers drawn from the personal index (read-only)."""

    name = "local"

    def __init__(self, db: Optional[PathLike] = None) -> None:
        self.db = db
        self._ix = None

    def index(self):
        """The open index, opened on first use (so a REPL may start before any `index`)."""
        if self._ix is None:
            from ..api import open_index
            self._ix = open_index(self.db, readonly=True)
        return self._ix

    def close(self) -> None:
        if self._ix is not None:
            self._ix.close()
            self._ix = None

    def unsupported(self, endpoint: str) -> dict:
        raise LocalModeError(f"/{endpoint} is not available in local mode: local mode covers "
                             f"{COVERED}, answered from the personal index",
                             endpoint=endpoint)

    # -- /search ---------------------------------------------------------------
    def search(self, request: Mapping) -> dict:
        started = time.monotonic()
        query = str(request.get("query") or "")
        size = _bounded(request.get("pageSize"), 10, 1, MAX_PAGE, "pageSize")
        offset = _cursor(request.get("cursor"))
        sources, types = _facets(request.get("requestOptions") or {})
        local = request.get("localFilters") or {}   # the REPL's --path/--after/--before
        ix = self.index()
        result = ix.search(query, limit=size, offset=offset, source=sources or None,
                           type=types or None, path=local.get("path"),
                           after=local.get("after"), before=local.get("before"))
        out = {"results": [{"url": h.url, "title": h.title,
                            "document": document(h.document, _mtime(ix, h.document["id"]),
                                                 h.section),
                            "snippets": [snippet(s.text, s.ranges, s.ordinal)
                                         for s in h.snippets]}
                           for h in result.results],
               "metadata": {"searchedQuery": query},
               "hasMoreResults": result.has_more}
        if result.has_more:
            out["cursor"] = str(offset + size)
        return _finish(out, started)

    # -- /chat -----------------------------------------------------------------
    def chat(self, request: Mapping) -> dict:
        started = time.monotonic()
        question = last_user_text(request.get("messages"))
        if not question.strip():
            raise UsageError("ask a question: the last USER message has no text")
        ix = self.index()
        result = ix.search(question, limit=CHAT_CANDIDATES, passages=True, explain=True)
        chosen, reason = quotable(result.results, getattr(result, "absent_terms", ()) or ())
        if chosen:
            mtimes = {h.document["id"]: _mtime(ix, h.document["id"]) for h in chosen}
            message = extractive_message(chosen, mtimes)
        else:
            message = nothing_message(reason or "no passage has text to quote")
        return _finish({"messages": [message]}, started)

    # -- /autocomplete ---------------------------------------------------------
    def autocomplete(self, request: Mapping) -> dict:
        started = time.monotonic()
        limit = _bounded(request.get("resultSizeLimit"), 10, 1, 50, "resultSizeLimit")
        results = suggest(self.index(), str(request.get("query") or ""), limit)
        return _finish({"results": results}, started)

    # -- /getdocuments ---------------------------------------------------------
    def getdocuments(self, request: Mapping) -> dict:
        started = time.monotonic()
        specs = request.get("documentSpecs")
        if not isinstance(specs, list) or not specs:
            raise UsageError("name at least one document: documentSpecs [{id|url|path}]")
        ix = self.index()
        found: Dict[str, dict] = {}
        for spec in specs:
            key, value = _spec_value(spec)
            if value is None:
                found[key] = {"error": "local mode looks documents up by id, url or path"}
                continue
            try:
                found[key] = fetched_document(ix.fetch(value))
            except (NotFound, Ambiguous) as exc:
                found[key] = {"error": str(exc)}
        return _finish({"documents": found}, started)


# -- shapes --------------------------------------------------------------------
def document(summary: Mapping, mtime_ns: Optional[int] = None,
             section: Sequence[str] = ()) -> dict:
    """A Client API Document from a result's document summary.

    `sections`, when present, holds the one section a snippet or citation came
    from (its heading path joined by ›), not the document's outline.
    """
    fmt = summary["format"]
    meta = {"datasource": DATASOURCE, "container": summary["source"],
            "path": summary["path"], "mimeType": MIME_TYPES.get(fmt, "text/plain")}
    if mtime_ns:
        meta["updateTime"] = iso_time(mtime_ns)
    out = {"id": str(summary["id"]), "datasource": DATASOURCE, "docType": fmt,
           "title": summary["title"], "url": summary["url"], "metadata": meta}
    if section:
        out["sections"] = [{"title": " \u203a ".join(section)}]
    return out


def snippet(text: str, ranges: Sequence[Tuple[int, int]], ordinal: int,
            kind: str = "BOLD") -> dict:
    return {"text": text, "snippet": text, "mimeType": "text/plain",
            "snippetTextOrdering": ordinal,
            "ranges": [{"startIndex": a, "endIndex": b, "type": kind} for a, b in ranges]}


def fetched_document(doc) -> dict:
    """A Document with `content.fullTextList`: one entry per section, headings as `#` lines."""
    out = document(doc.document, doc.mtime_ns)
    out["content"] = {"fullTextList": [
        ("#" * len(s["heading"]) + " " + s["heading"][-1] + "\n\n" if s["heading"] else "")
        + s["text"] for s in doc.sections]}
    return out


def iso_time(ns: int) -> str:
    return datetime.fromtimestamp(ns / 1e9, tz=timezone.utc).isoformat(timespec="seconds") \
        .replace("+00:00", "Z")


def _finish(out: dict, started: float) -> dict:
    out["requestID"] = "local-" + uuid.uuid4().hex
    out["backendTimeMillis"] = int((time.monotonic() - started) * 1000)
    out["localIndex"] = True
    return out


def _mtime(ix, doc_id: int) -> Optional[int]:
    try:
        return ix.resolve(doc_id)["mtime_ns"]
    except GleanError:
        return None


def _bounded(value, default: int, low: int, high: int, name: str) -> int:
    if value is None or value == "":
        return default
    if isinstance(value, bool):
        raise UsageError(f"{name} must be a whole number")
    try:
        number = int(value)
    except (TypeError, ValueError):
        raise UsageError(f"{name} must be a whole number, got {value!r}") from None
    return max(low, min(high, number))


def _cursor(value) -> int:
    if value in (None, ""):
        return 0
    text = str(value)
    if not text.isdigit():
        raise UsageError(f"unknown cursor {text!r}: pass back the cursor of a local response")
    return int(text)


def _facets(options: Mapping) -> Tuple[List[str], List[str]]:
    """Source labels and formats from `requestOptions.facetFilters` (container / type)."""
    sources: List[str] = []
    types: List[str] = []
    for f in options.get("facetFilters") or []:
        if not isinstance(f, Mapping):
            continue
        name = str(f.get("fieldName", "")).lower()
        values = [str(v.get("value")) for v in f.get("values") or []
                  if isinstance(v, Mapping) and v.get("value") is not None]
        if name in ("container", "source", "label"):
            sources += values
        elif name in ("type", "doctype", "format"):
            types += values
    return sources, types


def _spec_value(spec) -> Tuple[str, Optional[str]]:
    if isinstance(spec, Mapping):
        for key in ("id", "url", "path"):
            if spec.get(key) not in (None, ""):
                return str(spec[key]), str(spec[key])
    return json.dumps(spec, sort_keys=True), None


# -- /chat -----------------------------------------------------------------------
def last_user_text(messages) -> str:
    """The text of the last USER message (fragments joined), as the question."""
    if not isinstance(messages, list):
        return ""
    for m in reversed(messages):
        if isinstance(m, Mapping) and m.get("author", "USER") == "USER":
            return "".join(str(f.get("text", "")) for f in m.get("fragments") or []
                           if isinstance(f, Mapping))
    return ""


def covers(hit) -> bool:
    """Is the hit's passage a strong enough match to quote (its match strength)?"""
    return getattr(hit, "strength", 0.0) >= ANSWER_STRENGTH


def quotable(hits: Sequence, absent: Sequence[str] = ()) -> Tuple[list, str]:
    """The passages /chat may quote, best first, or [] and why there are none."""
    if not hits:
        return [], "no passage matches any of its words"
    if not any(covers(h) for h in hits):
        best = max(hits, key=lambda h: h.strength)
        why = (f"the best passage matches {best.strength:.0%} of its weighted terms "
               f"(matched: {', '.join(best.matched_terms or []) or '-'}; "
               f"missing: {', '.join(best.missed_terms or []) or '-'})")
        if absent:
            why += f"; not in the index at all: {', '.join(absent)}"
        return [], why
    chosen, seen, words = [], set(), 0
    for hit in hits:
        text = hit.passage_text.strip()
        if not text or text in seen or not covers(hit):
            continue
        n = len(text.split())
        if chosen and words + n > CHAT_WORDS:
            continue
        seen.add(text)
        chosen.append(hit)
        words += n
        if words >= CHAT_WORDS or len(chosen) >= CHAT_PASSAGES:
            break
    return chosen, ""


def _clip(text: str, words: int) -> str:
    """At most `words` words of `text`, verbatim, with an ellipsis where it was cut."""
    parts = text.split()
    if len(parts) <= words:
        return text
    cut, seen = 0, 0
    for i, ch in enumerate(text):
        if ch.isspace() and i and not text[i - 1].isspace():
            seen += 1
            if seen == words:
                cut = i
                break
    return text[:cut] + " \u2026"


def extractive_message(hits: Sequence,
                       mtimes: Optional[Mapping[int, Optional[int]]] = None) -> dict:
    """Verbatim passages, each followed by its citation; ranges point into the message text.

    The message text is the text fragments joined in order; passages after the
    first begin with a blank line, which their CITATION range does not cover.
    """
    fragments: List[dict] = []
    citations: List[dict] = []
    cited = set()
    pos = 0
    for i, hit in enumerate(hits):
        body = _clip(hit.passage_text.strip(), CHAT_WORDS)
        lead = "\n\n" if i else ""
        fragments.append({"text": lead + body})
        start = pos + len(lead)
        pos = start + len(body)
        mtime = (mtimes or {}).get(hit.document["id"])
        source = document(hit.document, mtime, hit.section)
        ranged = {"textRange": {"startIndex": start, "endIndex": pos, "type": "CITATION"},
                  "snippets": [snippet(s.text, s.ranges, s.ordinal) for s in hit.snippets]}
        fragments.append({"citation": {"sourceDocument": source, "referenceRanges": [ranged]}})
        if hit.document["id"] not in cited:
            cited.add(hit.document["id"])
            citations.append({"sourceDocument": document(hit.document, mtime)})
    return {"author": "GLEAN_AI", "messageType": "CONTENT", "fragments": fragments,
            "citations": citations}


def nothing_message(reason: str) -> dict:
    return {"author": "GLEAN_AI", "messageType": "CONTENT",
            "fragments": [{"text": f"The personal index has nothing on that: {reason}."}]}


# -- /autocomplete -----------------------------------------------------------------
TITLE_SCORE, TITLE_WORD_SCORE, HEADING_SCORE, TERM_SCORE = 1.0, 0.8, 0.6, 0.4
SAMPLE = 25

# A candidate before it is shaped: (score, text, DocRow or None). Shaping (URLs,
# dates) is left to the few that are returned, because a common prefix matches
# hundreds of titles and a keystroke cannot pay for all of them.
Candidate = Tuple[float, str, Optional[tuple]]


def suggest(ix, text: str, limit: int = 10) -> List[dict]:
    """Ranked completions of `text`: titles, then headings, then words of the index.

    Titles are DOCUMENT results; headings and words are SUGGESTION results that
    keep what was typed before the last word. Every query is bounded (see
    store/suggest.py), so this is cheap enough to call per keystroke.
    """
    from ..store import suggest as sql
    typed = text.lstrip()
    tokens = tokenize(typed)
    if not tokens:
        return []
    last = tokens[-1]
    head = typed[:_last_token_start(typed)]
    found: Dict[str, Candidate] = {}
    with ix.store.reading():
        conn = ix.store.conn
        folded = typed.casefold()
        for row in sql.titles(conn, max(tokens, key=len)):
            title = row[1]
            if title.casefold().startswith(folded):
                _offer(found, (TITLE_SCORE, title, row))
            elif _has_words(title, tokens):
                _offer(found, (TITLE_WORD_SCORE, title, row))
        anchor = _anchor(tokens)
        if anchor:
            expr, key = anchor
            kind = ix.store.kind
            sample = sql.passages(conn, kind, expr, key, SAMPLE)
            heads = sql.passages(conn, kind, expr, key, SAMPLE, "heading") \
                if kind == "fts5" else sample
            for heading in {h for _, path, _ in heads for h in path}:
                if _has_words(heading, tokens):
                    _offer(found, (HEADING_SCORE, heading.rstrip(" \u00b6"), None))
            counts: Dict[str, int] = {}
            starts = _word_start(last, tokens[-2] if len(tokens) > 1 else "")
            for _, _, body in sample:
                for match in starts.finditer(body.lower()):
                    word = tokenize(match.group(1))
                    if word and word[0].startswith(last):
                        counts[word[0]] = counts.get(word[0], 0) + 1
            for word, n in counts.items():
                _offer(found, (round(TERM_SCORE + 0.2 * min(n, 20) / 20, 3), head + word, None))
    ranked = sorted(found.values(), key=lambda c: (-c[0], len(c[1]), c[1]))
    return [_shape(c, typed, last) for c in ranked[:limit]]


def _anchor(tokens: Sequence[str]) -> Optional[Tuple[str, str]]:
    """What to sample passages by: (FTS5 expression, plain-store term prefix), or None.

    The word being typed joins as a prefix once it is long enough, and not a
    stopword, for its prefix query to stay cheap (FTS5 expands a prefix into
    every matching term before the LIMIT applies); otherwise the sample comes
    from the words before it, and the caller filters by the prefix.
    """
    *before, last = tokens
    terms = [Term((t,)) for t in before]
    if len(last) >= MIN_PREFIX_LEN and not is_stopword(last):
        terms.append(Term((last,), prefix=True))
    if not terms:
        return None
    rarest = max(terms, key=lambda t: len(t.tokens[0]))
    word = rarest.tokens[0]
    key = _common_prefix(word, stem(word)) if rarest.prefix else stem(word)
    return " AND ".join(t.fts5() for t in terms), key


def _offer(found: Dict[str, Candidate], candidate: Candidate) -> None:
    key = candidate[1].casefold()
    if candidate[1].strip() and (key not in found or found[key][0] < candidate[0]):
        found[key] = candidate


def _shape(candidate: Candidate, typed: str, last: str) -> dict:
    score, text, row = candidate
    if score == TITLE_SCORE:
        start, end = 0, len(typed.rstrip())
    else:
        start, end = _word_range(text, last)
    out = {"result": text, "resultType": "SUGGESTION" if row is None else "DOCUMENT",
           "score": score, "ranges": [{"startIndex": start, "endIndex": end, "type": "BOLD"}]}
    if row is not None:
        doc_id, title, path, fmt, mtime_ns, root, label = row
        summary = doc_summary({"id": doc_id, "title": title, "root": root, "path": path,
                               "source": label, "format": fmt})
        out["document"] = document(summary, mtime_ns)
        out["url"] = summary["url"]
    return out


def _has_words(text: str, tokens: Sequence[str]) -> bool:
    """Every typed token begins some word of `text` (the last one may be partial)."""
    words = tokenize(text)
    return all(any(w.startswith(t) for w in words) for t in tokens)


def _word_start(prefix: str, before: str = "") -> "re.Pattern[str]":
    """Words of lower-cased text that begin with `prefix`, right after `before` if given.

    Group 1 is the word (then folded by `tokenize`). Only the few matching words
    are tokenized, not the whole sample: per keystroke, tokenizing every word of
    every sampled passage cost more than the queries. Requiring the word typed
    before keeps "brake p" to "brake pads", not every p-word near a brake.
    """
    lead = (re.escape(before) + r"[^\w]{1,3}") if before else ""
    return re.compile(r"(?<![^\W_])" + lead + "(" + re.escape(prefix) + r"[^\W_]*)")


def _word_range(text: str, prefix: str) -> Tuple[int, int]:
    for start, end, tok in token_spans(text):
        if tok.startswith(prefix):
            return start, min(end, start + len(prefix))
    return 0, 0


def _last_token_start(text: str) -> int:
    spans = token_spans(text)
    return spans[-1][0] if spans else len(text)


def _common_prefix(a: str, b: str) -> str:
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return a[:n]
