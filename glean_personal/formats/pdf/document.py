"""A PDF's pages, page labels, bookmarks and title."""
from __future__ import annotations

import re
from typing import Any, Dict, List, Optional, Tuple

from .glyphs import decode_text_string
from .lexer import Name, Ref, Stream, or_default

_MAX_OUTLINE = 20_000
# A bookmark title or a page label longer than these is no heading or label a person
# wrote, and each is repeated in every passage of the pages it covers: a file's one
# title object of 100,000 letters under 2,000 bookmarks, or a label prefix of as many
# under 2,000 pages, made hundreds of megabytes of headings from a 1 MB file.
_MAX_TITLE_BYTES = 2_000
_MAX_TITLE_CHARS = 300
_MAX_LABEL_CHARS = 40


def pages(pdf: Any) -> List[Tuple[Optional[Ref], dict, Any]]:
    """(reference, page dictionary, inherited resources) in display order."""
    resolve = pdf.resolve
    root = resolve(pdf.trailer.get("Root"))
    out: List[Tuple[Optional[Ref], dict, Any]] = []
    if not isinstance(root, dict):
        return out
    top = root.get("Pages")
    seen = set()
    stack: List[Tuple[Any, Any, int]] = [(top, None, 0)]
    while stack and len(out) < pdf.limits.max_pdf_objects:
        ref, inherited, depth = stack.pop()
        node = or_default(lambda: resolve(ref))   # a damaged page or branch is passed over
        if not isinstance(node, dict):
            continue
        if isinstance(ref, Ref):
            if ref.num in seen:
                continue
            seen.add(ref.num)
        elif id(node) in seen:
            continue
        else:
            seen.add(id(node))
        resources = node.get("Resources", inherited)
        kids = or_default(lambda: resolve(node.get("Kids")))
        kind = node.get("Type")
        if kind == "Page" or (kind != "Pages" and not isinstance(kids, list)):
            out.append((ref if isinstance(ref, Ref) else None, node, resources))
            continue
        if isinstance(kids, list) and depth < pdf.limits.max_pdf_depth:
            for kid in reversed(kids):
                stack.append((kid, resources, depth + 1))
    return out


def page_labels(pdf: Any, count: int) -> List[str]:
    """Labels per page index from /PageLabels; plain numbers where none is given."""
    resolve = pdf.resolve
    root = resolve(pdf.trailer.get("Root"))
    labels = [str(i + 1) for i in range(count)]
    tree = resolve(root.get("PageLabels")) if isinstance(root, dict) else None
    if not isinstance(tree, dict):
        return labels
    ranges: List[Tuple[int, dict]] = []
    for key, value in _number_tree(pdf, tree):
        value = resolve(value)
        if isinstance(key, int) and isinstance(value, dict):
            ranges.append((key, value))
    ranges.sort(key=lambda kv: kv[0])
    for n, (start, spec) in enumerate(ranges):
        end = ranges[n + 1][0] if n + 1 < len(ranges) else count
        style = resolve(spec.get("S"))
        prefix = resolve(spec.get("P"))
        prefix = decode_text_string(prefix[:4 * _MAX_LABEL_CHARS])[:_MAX_LABEL_CHARS] \
            if isinstance(prefix, bytes) else ""
        first = resolve(spec.get("St"))
        first = first if isinstance(first, int) and first > 0 else 1
        for i in range(max(start, 0), min(end, count)):
            labels[i] = prefix + _label(style, first + i - start)
    return labels


def _label(style: Any, n: int) -> str:
    if style == "D":
        return str(n)
    if style in ("R", "r"):
        text = _roman(n)
        return text if style == "R" else text.lower()
    if style in ("A", "a"):
        if n > 26 * _MAX_LABEL_CHARS:
            return str(n)   # not `ZZZZ…` thousands of letters long
        letter = chr(ord("A") + (n - 1) % 26) * ((n - 1) // 26 + 1)
        return letter if style == "A" else letter.lower()
    return ""


def _roman(n: int) -> str:
    if n <= 0 or n >= 5000:
        return str(n)
    out = []
    for value, digits in ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
                          (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")):
        while n >= value:
            out.append(digits)
            n -= value
    return "".join(out)


def _number_tree(pdf: Any, node: dict, key: str = "Nums"):
    resolve = pdf.resolve
    stack = [(node, 0)]
    seen = set()
    steps = 0
    while stack and steps < 10_000:
        steps += 1
        node, depth = stack.pop()
        if id(node) in seen or depth > 32:
            continue
        seen.add(id(node))
        items = resolve(node.get(key))
        if isinstance(items, list):
            for i in range(0, len(items) - 1, 2):
                k = resolve(items[i])
                yield (decode_text_string(k) if isinstance(k, bytes) else k), items[i + 1]
        kids = resolve(node.get("Kids"))
        if isinstance(kids, list):
            for kid in reversed(kids):
                kid = resolve(kid)
                if isinstance(kid, dict):
                    stack.append((kid, depth + 1))


def outline(pdf: Any, page_index: Dict[int, int]) -> List[Tuple[int, Tuple[str, ...]]]:
    """(page index, heading path) for every bookmark that points at a page, in outline order."""
    resolve = pdf.resolve
    root = resolve(pdf.trailer.get("Root"))
    if not isinstance(root, dict):
        return []
    top = resolve(root.get("Outlines"))
    if not isinstance(top, dict):
        return []
    names = _named_destinations(pdf, root)
    out: List[Tuple[int, Tuple[str, ...]]] = []
    seen = set()
    # depth-first, iterative: (item reference, parent path)
    stack: List[Tuple[Any, Tuple[str, ...]]] = [(top.get("First"), ())]
    while stack and len(seen) < _MAX_OUTLINE:
        ref, path = stack.pop()
        while ref is not None and len(seen) < _MAX_OUTLINE:
            key = ref.num if isinstance(ref, Ref) else id(ref)
            if key in seen:
                break
            seen.add(key)
            item = resolve(ref)
            if not isinstance(item, dict):
                break
            title = resolve(item.get("Title"))
            title = " ".join(decode_text_string(title[:_MAX_TITLE_BYTES]).split())[:_MAX_TITLE_CHARS] \
                if isinstance(title, bytes) else ""
            here = path + ((title,) if title else ())
            page = _destination_page(pdf, item, names, page_index)
            if page is not None and here:
                out.append((page, here))
            nxt = item.get("Next")
            first = item.get("First")
            if first is not None and len(path) < 16:
                stack.append((nxt, path))
                ref, path = first, here
                continue
            ref = nxt
    return out


def _named_destinations(pdf: Any, root: dict) -> Dict[Any, Any]:
    resolve = pdf.resolve
    out: Dict[Any, Any] = {}
    dests = resolve(root.get("Dests"))
    if isinstance(dests, dict):
        for k, v in dests.items():
            out[str(k)] = v
    names = resolve(root.get("Names"))
    tree = resolve(names.get("Dests")) if isinstance(names, dict) else None
    if isinstance(tree, dict):
        for k, v in _number_tree(pdf, tree, "Names"):
            if len(out) > 100_000:
                break
            out[k if isinstance(k, str) else str(k)] = v
    return out


def _destination_page(pdf: Any, item: dict, names: Dict[Any, Any], page_index: Dict[int, int]) -> Optional[int]:
    resolve = pdf.resolve
    dest = resolve(item.get("Dest"))
    if dest is None:
        action = resolve(item.get("A"))
        if isinstance(action, dict) and resolve(action.get("S")) == "GoTo":
            dest = resolve(action.get("D"))
    for _ in range(3):
        if isinstance(dest, (bytes, Name)):
            key = decode_text_string(dest) if isinstance(dest, bytes) else str(dest)
            dest = resolve(names.get(key))
        if isinstance(dest, dict):
            dest = resolve(dest.get("D"))
    if isinstance(dest, list) and dest:
        target = dest[0]
        if isinstance(target, Ref):
            return page_index.get(target.num)
        if isinstance(target, int) and 0 <= target < len(page_index) + 1:
            return target
    return None


_DC_TITLE = re.compile(rb"<dc:title>([\s\S]*?)</dc:title>")
_LI = re.compile(rb"<rdf:li[^>]*>([\s\S]*?)</rdf:li>")
_TAG = re.compile(rb"<[^>]+>")


def title(pdf: Any) -> Optional[str]:
    """The document title from /Info, else from the XMP metadata."""
    resolve = pdf.resolve
    info = resolve(pdf.trailer.get("Info"))
    if isinstance(info, dict):
        raw = resolve(info.get("Title"))
        if isinstance(raw, bytes):
            text = " ".join(decode_text_string(raw).replace("\x00", "").split())
            if text:
                return text
    root = resolve(pdf.trailer.get("Root"))
    meta = resolve(root.get("Metadata")) if isinstance(root, dict) else None
    if isinstance(meta, Stream):
        body = pdf.stream_data(meta)
        if body:
            m = _DC_TITLE.search(body)
            if m:
                li = _LI.search(m.group(1))
                raw = li.group(1) if li else _TAG.sub(b"", m.group(1))
                import html
                text = " ".join(html.unescape(raw.decode("utf-8", "replace")).split())
                if text:
                    return text
    return None
