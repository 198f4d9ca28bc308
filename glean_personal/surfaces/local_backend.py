"""The REPL's backends: one interface, and the local one that answers from the index.

A backend takes Client API requests and returns Client API responses, as
plain dicts with camelCase keys (docs/repl.md, "Response shapes"), so one renderer draws a
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
import time
import uuid
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from ..analysis import fold, is_stopword
from ..config import media_type
from ..docref import MAX_DIGITS
from ..errors import Ambiguous, LocalModeError, NotFound, UnsupportedEndpoint, UsageError
from ..passages import section_markdown
from ..patterns import lazy
from ..query import (REQUEST_WORDS, is_inflected, is_time_word, names_nothing, parse,
                     quoted_words)

from .. import search as search_module

if TYPE_CHECKING:
    from ..api import Index
    from ..reports import FetchedDocument
    from ..search import Hit
    from ..suggest import Completion

COVERED = "/search, /chat, /autocomplete and /getdocuments"
DATASOURCE = "local"
MAX_PAGE = 100
# Documents one /getdocuments names at most: each costs a look-up (a scan of the paths
# for a fragment), and a 16 KB line of 3,000 names took 12 CPU s on 7,800 documents.
MAX_DOCUMENT_SPECS = 100

# /chat (docs/repl.md, "When /chat answers"): it answers when one of its
# candidate passages has the match strength the search layer calls enough
# (`TUNING.answer_strength` in search), and quotes those passages, best first.
CHAT_WORDS = 300
CHAT_PASSAGES = 5
CHAT_CANDIDATES = 8

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
        raise UnsupportedEndpoint(f"/{endpoint} is not an endpoint this backend serves",
                                  endpoint)

    def close(self) -> None:
        """Release whatever the backend holds open."""


def error_response(exc: Union[BaseException, str]) -> dict:
    """The Client API's error body for a failed request (`exc`: the error or its message)."""
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

    def opened(self) -> "Index":
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
                             f"{COVERED}, answered from the personal index", endpoint)

    # -- /search ---------------------------------------------------------------
    def search(self, request: Mapping) -> dict:
        started = time.monotonic()
        query = str(request.get("query") or "")
        size = _bounded(request.get("pageSize"), 10, 1, MAX_PAGE, "pageSize")
        offset = _cursor(request.get("cursor"))
        sources, types = _facets(request.get("requestOptions") or {})
        local = request.get("localFilters") or {}   # the REPL's --path/--after/--before
        ix = self.opened()
        result = ix.search(query, limit=size, offset=offset, source=sources or None,
                           type=types or None, path=local.get("path"),
                           after=local.get("after"), before=local.get("before"))
        out = {"results": [{"url": h.url, "title": h.title,
                            "document": document(h.document, h.section),
                            "snippets": [snippet(s.text, s.ranges, s.ordinal)
                                         for s in h.snippets]}
                           for h in result.results],
               "metadata": {"searchedQuery": query},
               "hasMoreResults": result.has_more}
        if result.has_more:
            out["cursor"] = str(offset + size)
        out.update(search_notes(result))
        return _finish(out, started)

    # -- /chat -----------------------------------------------------------------
    def chat(self, request: Mapping) -> dict:
        started = time.monotonic()
        question = last_user_text(request.get("messages"))
        if not question.strip():
            raise UsageError("ask a question: the last USER message has no text")
        ix = self.opened()
        common = common_words(question)
        if common is not None:
            return _finish({"messages": [nothing_message(names_nothing_reason(common))]},
                           started)
        result = ix.search(question, limit=CHAT_CANDIDATES, passages=True, explain=True)
        unknown = foreign_words(result) if declines_foreign(result) else []
        if unknown:
            chosen, reason = [], (f"the index has no word like {_listed(unknown)}, so no passage "
                                  "is about what it asks")
        else:
            chosen, reason = quotable(result.results, getattr(result, "absent_terms", ()) or ())
        if chosen:
            message = extractive_message(chosen)
        else:
            message = nothing_message(reason or "no passage has text to quote")
        return _finish({"messages": [message]}, started)

    # -- /autocomplete ---------------------------------------------------------
    def autocomplete(self, request: Mapping) -> dict:
        started = time.monotonic()
        limit = _bounded(request.get("resultSizeLimit"), 10, 1, 50, "resultSizeLimit")
        completions = self.opened().suggest(str(request.get("query") or ""), limit)
        return _finish({"results": [completion(c) for c in completions]}, started)

    # -- /getdocuments ---------------------------------------------------------
    def getdocuments(self, request: Mapping) -> dict:
        started = time.monotonic()
        specs = request.get("documentSpecs")
        if not isinstance(specs, list) or not specs:
            raise UsageError("name at least one document: documentSpecs [{id|url|path}]")
        named = {}   # by key: a document named twice is looked up once
        for spec in specs:
            key, value = _spec_value(spec)
            named.setdefault(key, value)
        if len(named) > MAX_DOCUMENT_SPECS:
            raise UsageError(f"name at most {MAX_DOCUMENT_SPECS} documents at once "
                             f"({len(named):,} were named)")
        ix = self.opened()
        found: Dict[str, dict] = {}
        for key, value in named.items():
            if value is None:
                found[key] = {"error": "local mode looks documents up by id, url or path"}
                continue
            try:
                found[key] = fetched_document(ix.fetch(value))
            except (NotFound, Ambiguous) as exc:
                found[key] = {"error": str(exc)}
        return _finish({"documents": found}, started)


# -- shapes --------------------------------------------------------------------
def search_notes(result) -> dict:
    """What the search says about the query beside its results, as local additions
    (docs/repl.md, "Response shapes"): `localNotices` (why a filter or a page found
    nothing: *no source named nope in this index; sources here: files*), `localAbsentTerms`
    (words no document holds) and `localSuggestions` (a word the index lacks → the
    indexed words it may be a misspelling of). Each is present only when not empty."""
    notes = {"localNotices": [str(n) for n in getattr(result, "notices", None) or ()],
             "localAbsentTerms": [str(w) for w in getattr(result, "absent_terms", None) or ()],
             "localSuggestions": {str(w): [str(x) for x in alternatives] for w, alternatives
                                  in (getattr(result, "suggestions", None) or {}).items()
                                  if alternatives}}
    return {key: value for key, value in notes.items() if value}


def document(summary: Mapping, section: Sequence[str] = ()) -> dict:
    """A Client API Document from a result's document summary.

    `sections`, when present, holds the one section a snippet or citation came
    from (its heading path joined by ›), not the document's outline.
    """
    fmt = summary["format"]
    mtime_ns = summary.get("mtime_ns")
    meta = {"datasource": DATASOURCE, "container": summary["source"],
            "path": summary["path"], "mimeType": media_type(fmt)}
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


def fetched_document(doc: "FetchedDocument") -> dict:
    """A Document with `content.fullTextList`: one entry per section, headings as `#` lines."""
    out = document(doc.document)
    out["content"] = {"fullTextList": [section_markdown(s) for s in doc.sections]}
    return out


def iso_time(ns: int) -> str:
    return datetime.fromtimestamp(ns / 1e9, tz=timezone.utc).isoformat(timespec="seconds") \
        .replace("+00:00", "Z")


def _finish(out: dict, started: float) -> dict:
    out["requestID"] = "local-" + uuid.uuid4().hex
    out["backendTimeMillis"] = int((time.monotonic() - started) * 1000)
    out["localIndex"] = True
    return out


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
    if not (text.isascii() and text.isdigit() and len(text) <= MAX_DIGITS):
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


def common_words(question: str) -> Optional[List[str]]:
    """The words of a question that has no word naming something, or None when it has one.

    A word names nothing when it is a stopword (*the*, *how*, *is*), a single letter
    or digit, a request word (*show*, *find*: `query.REQUEST_WORDS`) or a word the
    search reads as naming nothing (*going*, *nobody*: `query.names_nothing`). Every
    passage holds such words, so a question of them alone (*the*, *how do I*, *show
    me*) asks about no subject, and any passage quoted for it is unrelated. A word
    typed in quotes or as a prefix (`word*`) is taken at its word. The words are the
    query's terms as the search reads them (`query.parse`), in order, each once."""
    words: List[str] = []
    for term in parse(question).terms:
        if term.quoted or term.prefix:
            return None
        for token in term.tokens:
            if ((len(token) > 1 or not token.isascii()) and not is_stopword(token)
                    and token not in REQUEST_WORDS and not names_nothing(token)):
                return None
            if token not in words:
                words.append(token)
    return words


def names_nothing_reason(words: Sequence[str]) -> str:
    """Why /chat declines a question of `words` that name nothing (`common_words`)."""
    if not words:
        return "the question has no word to search for"
    quoted = [f"'{w}'" for w in words]
    if len(quoted) == 1:
        return f"{quoted[0]} names no subject (any passage may hold it), so no passage is about it"
    listed = ", ".join(quoted[:-1]) + " and " + quoted[-1]
    return (f"{listed} name no subject (any passage may hold them), so no passage is about "
            "what they ask")


def foreign_words(result) -> List[str]:
    """The question's words that no document holds, nor any word close to them.

    A word the index does not know, with no word near it (`near_words`, a
    little looser than the did-you-mean's `suggestions`) and no synonym the
    index holds, is foreign to the index: the name of something it never
    mentions (*vscode*, *arraylist*, *bitbucket*), not a wording it happens to
    lack (*unguessable* is near *unless*: a large vocabulary has a word near
    most English words). The
    question is about that thing, so no passage answers it, however many of
    its other words a passage holds. Words the did-you-mean never judges (of
    fewer than three letters, or starting with a digit), request words that
    name nothing (*show* of *show me the budget*) and phrases are not counted, nor is a
    word that names nothing (*nobody*: `query.names_nothing`) unless typed as a name or
    in quotes.

    A word typed as a name (`typed_names`: *Venmo*, *PayPal*, *OpenRC*) is
    foreign even with a word near it (*vendor*, *payable*, *open*): a name is
    not a misspelling, and the near word is no wording of it (`foreign_names`
    in `SearchTuning`).

    A word of the calendar or the clock (*tomorrow*, *April*, *Saturdays*:
    `query.is_time_word`) is never foreign: it says when, not what the question is
    about, and a manual may well never write it (`time_words` in `SearchTuning`).
    Nor is a word with a verb's ending, -ed or -ing (*messed*, *oriented*:
    `query.is_inflected`), unless typed as a name or in quotes (*Beijing* mid-sentence,
    *"syncthing"*), or typed with a diacritic (*jönköping*, which the index folds to
    *jonkoping*): a name is not inflected, and English verbs have no diacritics
    (`inflected_words` in `SearchTuning`). Names and quoted words are folded as the
    index folds its words, so *Linköping* typed as a name is the absent *linkoping*.
    """
    near = frozenset(getattr(result, "near_words", None) or ())
    fillers = search_module.TUNING.unheld_fillers
    times = search_module.TUNING.time_words
    inflected = search_module.TUNING.inflected_words
    synonyms = getattr(result, "expansions", None) or {}
    bases = getattr(result, "bases", None) or {}
    text = getattr(result, "query", "") or ""
    names = frozenset(map(fold, typed_names(text))) if search_module.TUNING.foreign_names \
        else frozenset()
    meant = names | frozenset(map(fold, quoted_words(text)))   # typed so, a word names something
    literal = meant | _accented(text) if inflected else meant   # never a verb's form
    return [w for w in getattr(result, "absent_terms", ()) or ()
            if w.isalnum() and len(w) >= 3 and w[:1].isalpha()
            and w not in REQUEST_WORDS and not (fillers and names_nothing(w) and w not in meant)
            and (w not in near or w in names)
            and not synonyms.get(w) and w not in bases
            and not (times and is_time_word(w))
            and not (inflected and is_inflected(w) and w not in literal)]


_LETTER_RUNS = lazy(r"[^\W\d_]+")


def _accented(text: str) -> frozenset:
    """The words of the text typed with a letter outside ASCII (*Jönköping*), folded as
    the index folds its words (*jonkoping*): no English verb's form."""
    if text.isascii():
        return frozenset()
    return frozenset(fold(word) for word in _LETTER_RUNS.findall(text) if not word.isascii())


# A word and what comes before it: the start, a sentence's end, or a space; an opening
# quote or bracket may stand between (*'Kunming'*, *“Nanjing”*, *(Venmo)*).
_SENTENCE_WORDS = lazy(r"(^|[.!?:;]\s*|\s)[\"'\u2018\u201c\u201e\u00ab(\[]*([^\W\d_]\w*)")


def typed_names(text: str) -> frozenset:
    """The words of the text typed as names, lower-cased: with a capital letter and a
    small one (*Venmo*, *PayPal*, *iPhone*; not an acronym such as *USB*, often a
    common noun), and not the first word of a sentence. A word of a script without
    capitals (Arabic, Hebrew, Thai, Chinese) is never one: it has neither."""
    return frozenset(word.lower() for i, (lead, word) in enumerate(_SENTENCE_WORDS.findall(text))
                     if i and not lead.strip() and word.lower() != word != word.upper())


def declines_foreign(result) -> bool:
    """Does /chat decline a question for a word foreign to the index it searched (the
    search `result`)? Not in a small index (`SearchTuning.small_index` passages): one
    that lacks most everyday words has no word near most of them either, so a missing
    word says little there. The search has counted the passages already."""
    return search_module.TUNING.decline_foreign and not getattr(result, "small_index", False)


def _below(strength: float) -> str:
    """A strength under the answer threshold, with the digits that show it under
    (0.329 is not "0.33, below 0.33")."""
    limit = search_module.TUNING.answer_strength
    for digits in (2, 3, 4):
        shown = f"{strength:.{digits}f}"
        if float(shown) < limit:
            return shown
    return f"{strength:.2f}"


def _listed(words: Sequence[str]) -> str:
    quoted = [f"'{w}'" for w in words]
    return quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " or " + quoted[-1]


def strong(hit) -> bool:
    """Has the hit's passage the match strength the search layer calls enough, or three
    or more of the question's words that seldom meet (`rare_together`)?"""
    return (hit.strength >= search_module.TUNING.answer_strength
            or getattr(hit, "rare_together", False))


def covers(hit) -> bool:
    """Is the hit's passage a match to quote: strong enough, and not `scattered` (the
    question's words in it only far apart)?"""
    return strong(hit) and not hit.scattered


def quotable(hits: Sequence, absent: Sequence[str] = ()) -> Tuple[list, str]:
    """The passages /chat may quote, best first, or [] and why there are none."""
    if not hits:
        return [], "no passage matches any of its words"
    if not any(covers(h) for h in hits):
        if any(strong(h) for h in hits):
            return [], ("the passages that hold enough of its words hold them far apart "
                        f"(no two within {search_module.TUNING.scatter_window} words), "
                        "which is chance, not an answer")
        best = max(hits, key=lambda h: h.strength)
        why = (f"the best passage has a match strength of {_below(best.strength)}, "
               f"below {search_module.TUNING.answer_strength:.2f} "
               f"(matched: {', '.join(best.matched_terms or []) or '-'}; "
               f"missing: {', '.join(best.missed_terms or []) or '-'})")
        if absent:
            why += f"; not in the index at all: {', '.join(absent)}"
        return [], why
    quoted = [h for h in hits if covers(h)]
    least = search_module.TUNING.quote_share * max(h.strength for h in quoted)
    quoted = [h for h in quoted if h.strength >= least]   # not what holds much less of it
    chosen, seen, words = [], set(), 0
    for hit in quoted:
        text = hit.passage_text.strip()
        if not text or text in seen:
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


def extractive_message(hits: Sequence["Hit"]) -> dict:
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
        source = document(hit.document, hit.section)
        ranged = {"textRange": {"startIndex": start, "endIndex": pos, "type": "CITATION"},
                  "snippets": [snippet(s.text, s.ranges, s.ordinal) for s in hit.snippets]}
        fragments.append({"citation": {"sourceDocument": source, "referenceRanges": [ranged]}})
        if hit.document["id"] not in cited:
            cited.add(hit.document["id"])
            citations.append({"sourceDocument": document(hit.document)})
    return {"author": "GLEAN_AI", "messageType": "CONTENT", "fragments": fragments,
            "citations": citations}


def nothing_message(reason: str) -> dict:
    return {"author": "GLEAN_AI", "messageType": "CONTENT",
            "fragments": [{"text": f"The personal index has nothing on that: {reason}."}]}


# -- /autocomplete -----------------------------------------------------------------
def completion(c: "Completion") -> dict:
    """A Client API autocomplete result: titles are DOCUMENT results, the rest SUGGESTION."""
    out = {"result": c.text, "resultType": "SUGGESTION" if c.document is None else "DOCUMENT",
           "score": c.score,
           "ranges": [{"startIndex": c.start, "endIndex": c.end, "type": "BOLD"}]}
    if c.document is not None:
        out["document"] = document(c.document)
        out["url"] = c.document["url"]
    return out
