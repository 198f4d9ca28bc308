"""One renderer for Client API responses, local or (later) from a tenant.

It reads the Client API's own fields, so it draws any backend's answer, and
the local additions where present: `"localIndex": true` adds the `[LOCAL INDEX]`
banner, and a search's `localNotices`, `localAbsentTerms` and `localSuggestions`
are said above its results as the command line says them.
"""
from __future__ import annotations

from typing import List, Mapping, Sequence, Tuple

from .json import dumps
from .text import BOLD, DIM, RESET, collapse, highlight, printable

BANNER = "[LOCAL INDEX]"


def render(endpoint: str, response: Mapping, color: bool = False, start: int = 1) -> str:
    """Human text for one response of `endpoint` (search, chat, autocomplete, getdocuments);
    search results are numbered from `start` (a later page continues the count)."""
    key = endpoint.strip().lstrip("/").lower()
    lines: List[str] = []
    if response.get("localIndex") is True:
        lines.append(f"{BOLD}{BANNER}{RESET}" if color else BANNER)
    if "errorInfo" in response:
        lines += error_lines(response)
    else:
        draw = {"search": lambda r, c: _search(r, c, start), "chat": _chat, "autocomplete": _autocomplete,
                "getdocuments": _getdocuments}.get(key, _raw)
        lines += draw(response, color)
    return "\n".join(lines).rstrip()


def error_lines(response: Mapping) -> List[str]:
    messages = (response.get("errorInfo") or {}).get("errorMessages") or []
    return [f"error: {m.get('errorMessage', '')}" for m in messages] or ["error"]


def _ranges(items: Sequence[Mapping]) -> List[Tuple[int, int]]:
    return [(int(r.get("startIndex", 0)), int(r.get("endIndex", r.get("startIndex", 0))))
            for r in items or [] if r.get("type", "BOLD") == "BOLD"]


def _where(doc: Mapping) -> str:
    meta = doc.get("metadata") or {}
    where = ": ".join(printable(x) for x in (meta.get("container"), meta.get("path")) if x)
    sections = [s.get("title") for s in doc.get("sections") or [] if s.get("title")]
    if sections:
        where += "  \u203a " + sections[0]
    return where


def _search(response: Mapping, color: bool, start: int = 1) -> List[str]:
    results = response.get("results") or []
    query = (response.get("metadata") or {}).get("searchedQuery", "")
    notes = _search_notes(response)
    if not results:   # a later page's notes say why it is empty (past the last result)
        return notes if start > 1 and notes else [f"No results for {query!r}."] + notes
    lines: List[str] = notes + [""] if notes else []
    for n, r in enumerate(results, start=start):
        doc = r.get("document") or {}
        title = r.get("title") or doc.get("title") or r.get("url", "")
        head = f"{n}. {title}"
        lines.append(f"{BOLD}{head}{RESET}" if color else head)
        where = _where(doc)
        if where:
            lines.append("   " + (f"{DIM}{where}{RESET}" if color else where))
        for s in r.get("snippets") or []:
            text = s.get("text", s.get("snippet", ""))
            lines.append("   " + highlight(*collapse(text, _ranges(s.get("ranges"))), color))
        lines.append(f"   {r.get('url', '')}")
        lines.append("")
    if response.get("hasMoreResults"):
        lines.append(f"More results: /more shows the next page "
                     f"(or /search … --offset {response.get('cursor', '?')}).")
    else:
        lines.append(f"End of results ({start + len(results) - 1} in all).")
    return lines


def _search_notes(response: Mapping) -> List[str]:
    """A search's local notes, in the command line's words: notices (why a filter or
    a page found nothing), the words no document holds, and did-you-mean."""
    lines = [_sentence(str(n)) for n in response.get("localNotices") or [] if str(n).strip()]
    absent = [str(w) for w in response.get("localAbsentTerms") or []]
    if absent:
        lines.append(f"Not in any indexed document: {', '.join(absent)}.")
    for word, words in (response.get("localSuggestions") or {}).items():
        if words:
            lines.append(f"Did you mean {' or '.join(repr(str(w)) for w in words)} "
                         f"for {str(word)!r}?")
    return lines


def _sentence(text: str) -> str:
    text = text.strip()
    text = text[:1].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


def _chat(response: Mapping, color: bool) -> List[str]:
    lines: List[str] = []
    for message in response.get("messages") or []:
        body: List[str] = []
        sources: List[str] = []
        for fragment in message.get("fragments") or []:
            if "text" in fragment:
                body.append(fragment["text"])
            citation = fragment.get("citation")
            if citation:
                doc = citation.get("sourceDocument") or {}
                sources.append(_citation(len(sources) + 1, doc))
                body.append(f" [{len(sources)}]")
        lines.append("".join(body).strip())
        if sources:
            lines.append("")
            lines += sources
    return lines


def _citation(n: int, doc: Mapping) -> str:
    sections = [s.get("title") for s in doc.get("sections") or [] if s.get("title")]
    title = doc.get("title", "")
    section = sections[0] if sections else ""
    if title and section.startswith(title) and section[len(title):len(title) + 3] in ("", " \u203a "):
        section = section[len(title) + 3:]   # a heading path that starts with the title names it once
    if section:
        title += " \u203a " + section
    return f"[{n}] {title}\n    {doc.get('url', '')}"


def _autocomplete(response: Mapping, color: bool) -> List[str]:
    results = response.get("results") or []
    if not results:
        return ["No completions."]
    width = max(len(r.get("result", "")) for r in results)
    lines = []
    for r in results:
        text = r.get("result", "")
        shown = highlight(text, _ranges(r.get("ranges")), color)
        kind = (r.get("resultType") or "").lower()
        lines.append(f"  {shown}{' ' * (width - len(text))}  {kind}")
    return lines


def _getdocuments(response: Mapping, color: bool) -> List[str]:
    lines: List[str] = []
    for key, doc in (response.get("documents") or {}).items():
        if "error" in doc:
            lines.append(f"{key}: {doc['error']}")
            lines.append("")
            continue
        head = doc.get("title", key)
        lines.append(f"{BOLD}{head}{RESET}" if color else head)
        meta = doc.get("metadata") or {}
        where = f"{printable(meta.get('container', ''))}: {printable(meta.get('path', ''))}"
        lines.append(f"{where}  ({doc.get('docType', '')}, id {doc.get('id', '')})")
        lines.append(doc.get("url", ""))
        lines.append("")
        lines.append("\n\n".join((doc.get("content") or {}).get("fullTextList") or []))
        lines.append("")
    return lines


def _raw(response: Mapping, color: bool) -> List[str]:
    return [dumps({k: v for k, v in response.items() if k != "localIndex"})]
