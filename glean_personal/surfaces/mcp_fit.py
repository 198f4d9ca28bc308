"""Fitting a tool's reply into the characters the agent allows (`max_chars`).

Text is trimmed around its match, never a field dropped: passages first, down to
`PASSAGE_FLOOR` characters; then later results are left for the next page rather
than cut below it; then snippets.
"""
from __future__ import annotations

import json
from typing import Any, Callable

from .mcp_tools import MAX_BUDGET

ENVELOPE = 80                    # {"jsonrpc":"2.0","id":…,"result":…} around the result
PASSAGE_FLOOR = 400              # a passage cut shorter leaves later results for the next page


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def tool_result(data: dict) -> dict:
    """A successful result: the JSON in structuredContent and, serialized, in a text block."""
    return {"content": [{"type": "text", "text": dumps(data)}], "structuredContent": data,
            "isError": False}


def result_size(data: dict) -> int:
    """Characters the reply carrying `data` takes on the wire, envelope included."""
    return len(dumps(tool_result(data))) + ENVELOPE


# -- fitting a response into its budget ------------------------------------------------------
def fit_search(data: dict, budget: int) -> dict:
    """Trim passages (around their match) until the reply fits, to PASSAGE_FLOOR; then
    leave later results for the next page (has_more, next_offset); then snippets."""
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

    def largest_cap() -> int:
        lo, hi = 0, max((len(t) for t in full[:len(rows)]), default=0)
        while lo < hi:
            mid = (lo + hi + 1) // 2
            passages(mid)
            if result_size(data) <= budget:
                lo = mid
            else:
                hi = mid - 1
        passages(lo)
        return lo

    if largest_cap() < PASSAGE_FLOOR and len(rows) > 1:
        # fewer results whose passages can be read beat many whose passages are gone
        while len(rows) > 1:
            passages(PASSAGE_FLOOR)
            if result_size(data) <= budget:
                break
            _to_next_page(data, rows)
        largest_cap()
    if result_size(data) <= budget:
        return data
    for r, snip in zip(rows, snippets):
        r["snippet"] = _window(snip, len(snip) // 2, 80)
    if result_size(data) > budget:   # did-you-mean lists: the first word for each
        data["suggestions"] = {k: v[:1] for k, v in data["suggestions"].items()}
    while result_size(data) > budget and len(rows) > 1:
        _to_next_page(data, rows)
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


def _to_next_page(data: dict, rows: list) -> None:
    """Leave the last result shown for the next page."""
    rows.pop()
    data["has_more"] = True
    data["next_offset"] = data["offset"] + len(rows)


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


def fit_related(data: dict, budget: int) -> dict:
    """Cut each neighbour's phrases to its weightiest (three at least), then, only if still
    too large, leave out the weakest neighbours, until the reply fits. What was cut is
    never silent: `trimmed` is true and a notice says what went and how large the whole
    reply is, the max_chars that shows it all."""
    full = result_size(data)
    if full <= budget:
        return data
    rows = data["neighbours"]
    found = len(rows)
    phrases = [len(n["phrases"]) for n in rows]
    notices = list(data["notices"])

    def say() -> None:
        cut = []
        if len(rows) < found:
            cut.append(f"{found - len(rows)} of the {found} neighbours left out (the weakest)")
        if any(len(n["phrases"]) < count for n, count in zip(rows, phrases)):
            cut.append("phrases cut to each one's weightiest")
        remedy = (f"call again with max_chars {full} for the whole reply, or a smaller "
                  "limit" if full <= MAX_BUDGET else "call again with a smaller limit")
        data["trimmed"] = True
        data["notices"] = notices + [f"{' and '.join(cut)}, to fit max_chars {budget}: "
                                     + remedy]

    while result_size(data) > budget and any(len(n["phrases"]) > 3 for n in rows):
        for n in rows:
            n["phrases"] = n["phrases"][:max(3, len(n["phrases"]) // 2)]
        say()
    while result_size(data) > budget and rows:
        rows.pop()
        say()
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
