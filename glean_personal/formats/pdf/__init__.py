"""PDF documents, read with the standard library alone.

A born-digital PDF is objects, zlib streams and a small drawing language;
this package reads all three. The modules, bottom up: lexer (tokens and
objects), filters (stream decoding), crypt (the standard security handler),
xref (the object table and its repair), glyphs/cmap/fonts (codes to
Unicode), content (the text operators), layout (lines and paragraphs) and
document (pages, labels, bookmarks, title). `read_pdf` puts them together:
one section per page, headed by the bookmark path and `Page <label>`.
"""
from __future__ import annotations

import bisect
import re
from typing import Any, Dict, List, Optional, Set, Tuple

from ...config import Limits
from ...document import Document, Section
from ...errors import SkipFile
from ..titles import is_section_name, usable_title
from . import document as doc_parts
from .content import Chunk, Interpreter
from .glyphs import decode_text_string
from .crypt import NeedsPassword, Unsupported
from .layout import page_text
from .lexer import PDFSyntaxError, Stream, or_default
from .xref import Damaged, PDFFile

__all__ = ["read_pdf"]

_HYPHENATED = re.compile("([^\\W\\d_]+)([-\u2010\u00ad])\n([^\\W\\d_]+)")
_LINE_END_HYPHEN = re.compile("[-\u2010\u00ad]\n")
_WORD = re.compile(r"[^\W\d_]+")
_COMPOUND = re.compile(r"[^\W\d_]+-[^\W\d_]+")
# A first-page line longer than this is a sentence, not a title.
_TITLE_WORDS = 15
# A section number before a title on the page (`2.3 `, `A.1. `) that its bookmark leaves out.
_NUMBERING = re.compile(r"(?:\d+(?:\.\d+)*\.?|[A-Z](?:\.\d+)+\.?|[A-Z]\.)\s+")
_LEADING_WORD = re.compile(r"\S+\s+(?=\w)")


def read_pdf(data: bytes, limits: Limits) -> Document:
    head = data[:1024]
    start = head.find(b"%PDF-")
    if start < 0:
        raise SkipFile("not a PDF")
    try:
        pdf = PDFFile(data, limits)
        if pdf.crypt_error is not None:
            raise pdf.crypt_error
    except Damaged:
        raise SkipFile("damaged beyond repair") from None
    except NeedsPassword:
        raise SkipFile("encrypted: needs a password") from None
    except Unsupported as exc:
        raise SkipFile(f"encrypted with an unsupported method ({exc})") from None
    warnings: Set[str] = set()
    page_list = doc_parts.pages(pdf)
    if not page_list:
        raise SkipFile("damaged beyond repair")
    index = {ref.num: i for i, (ref, _, _) in enumerate(page_list) if ref is not None}
    labels = or_default(lambda: doc_parts.page_labels(pdf, len(page_list)),
                   [str(i + 1) for i in range(len(page_list))])
    marks = or_default(lambda: doc_parts.outline(pdf, index), [])
    headings, on_page = _page_headings(marks, len(page_list))
    fonts: Dict[Any, Any] = {}
    texts: List[str] = []
    first_lines: List[Tuple[str, float]] = []
    first_text = ""
    budget = limits.max_text_chars
    used = 0
    failed = 0
    for i, (_, page, resources) in enumerate(page_list):
        if used > budget:
            texts.append("")
            continue
        try:
            interp = Interpreter(pdf, warnings, fonts)
            for body in _contents(pdf, page):
                interp.run(body, pdf.resolve(resources))
                if interp.ops >= limits.max_pdf_operators:
                    break
            _annotations(pdf, page, interp)
            text, sized = page_text(_on_page(pdf, page, interp.chunks))
        except (PDFSyntaxError, ValueError, IndexError, KeyError, TypeError, AttributeError,
                ZeroDivisionError, OverflowError) as exc:
            failed += 1
            warnings.add(f"page {labels[i]} could not be read ({type(exc).__name__})")
            text, sized = "", []
        if not first_lines and sized:
            first_lines, first_text = sized, text
        texts.append(text)
        used += len(text)
    texts = _dehyphenate(_without_running_lines(texts, labels, headings))
    sections = []
    for i, text in enumerate(texts):
        if text.strip():
            label = labels[i]
            for path, part in _split_at_bookmarks(text, headings[i], on_page.get(i, [])):
                sections.append(Section(path + (f"Page {label}",), part, page=label))
    warnings.update(pdf.warnings)
    if pdf.repaired:
        warnings.add("the cross-reference table was damaged and was rebuilt")
    if not sections:
        reasons = sorted(w for w in warnings if w.startswith(("font ", "page ")))
        if reasons:
            raise SkipFile(f"no extractable text ({reasons[0]})")
        raise SkipFile("no text layer (scanned pages?)")
    title = usable_title(or_default(lambda: doc_parts.title(pdf), None)) or _heading_like(first_lines, first_text)
    return Document(title=title or "", format="pdf", sections=sections, warnings=sorted(warnings))


def _contents(pdf: PDFFile, page: dict):
    contents = pdf.resolve(page.get("Contents"))
    parts = contents if isinstance(contents, list) else [contents]
    bodies = []
    for part in parts[:10_000]:
        stream = pdf.resolve(part)
        if isinstance(stream, Stream):
            body = pdf.stream_data(stream)
            if body:
                bodies.append(body)
    # streams of one page are one content stream split anywhere: join them
    if len(bodies) > 1:
        return [b"\n".join(bodies)]
    return bodies


def _page_box(pdf: PDFFile, page: dict) -> Optional[Tuple[float, float, float, float]]:
    """The page's crop box (else media box), inherited through /Parent, normalised."""
    node: Any = page
    for key in ("CropBox", "MediaBox"):
        node = page
        for _ in range(32):
            if not isinstance(node, dict):
                break
            box = pdf.resolve(node.get(key))
            if isinstance(box, list) and len(box) == 4:
                vals = [pdf.resolve(v) for v in box]
                if all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in vals):
                    x0, y0, x1, y1 = (float(v) for v in vals)
                    if abs(x1 - x0) > 1 and abs(y1 - y0) > 1:
                        return min(x0, x1), min(y0, y1), max(x0, x1), max(y0, y1)
                break
            node = pdf.resolve(node.get("Parent"))
    return None


def _on_page(pdf: PDFFile, page: dict, chunks: List[Chunk]) -> List[Chunk]:
    """Leave out text placed wholly outside the visible page, as viewers do."""
    box = _page_box(pdf, page)
    if box is None:
        return chunks
    x0, y0, x1, y1 = box
    kept = []
    for c in chunks:
        m = c.size
        a, b = c.x0, c.x1
        # min() and max() written out (this runs once a chunk: 1.5 million on a dense page)
        if (b if b < a else a) > x1 + m or (b if b > a else a) < x0 - m:
            continue
        a, b = c.y0, c.y1
        if (b if b < a else a) > y1 + m or (b if b > a else a) < y0 - m:
            continue
        kept.append(c)
    return kept


def _annotations(pdf: PDFFile, page: dict, interp: Interpreter) -> None:
    """Draw the visible appearance of form fields and text boxes, as viewers show them."""
    annots = pdf.resolve(page.get("Annots"))
    if not isinstance(annots, list):
        return
    for ref in annots[:2000]:
        annot = pdf.resolve(ref)
        if not isinstance(annot, dict) or annot.get("Subtype") in ("Link", "Popup"):
            continue
        flags = pdf.resolve(annot.get("F"))
        if isinstance(flags, int) and flags & 2:   # hidden
            continue
        ap = pdf.resolve(annot.get("AP"))
        normal = pdf.resolve(ap.get("N")) if isinstance(ap, dict) else None
        if isinstance(normal, dict):   # appearance states: pick the current one
            normal = pdf.resolve(normal.get(pdf.resolve(annot.get("AS")) or ""))
        rect = pdf.resolve(annot.get("Rect"))
        if not isinstance(normal, Stream) or not isinstance(rect, list) or len(rect) != 4:
            continue
        box = [pdf.resolve(v) for v in rect]
        if not all(isinstance(v, (int, float)) for v in box):
            continue
        bbox = pdf.resolve(normal.get("BBox"))
        bx, by = 0.0, 0.0
        if isinstance(bbox, list) and len(bbox) == 4 and all(isinstance(v, (int, float)) for v in bbox):
            bx, by = min(bbox[0], bbox[2]), min(bbox[1], bbox[3])
        ctm = (1.0, 0.0, 0.0, 1.0, min(box[0], box[2]) - bx, min(box[1], box[3]) - by)
        before = len(interp.chunks)
        body = pdf.stream_data(normal)
        if body:
            inner = pdf.resolve(normal.get("Resources"))
            interp.run(body, inner if isinstance(inner, dict) else {}, ctm)
        value = _field_value(pdf, annot)
        if value and len(interp.chunks) == before:
            # a filled-in field whose appearance was never generated: show its value
            x, y = min(box[0], box[2]), min(box[1], box[3])
            size = max(1.0, min(abs(box[3] - box[1]), 12.0))
            interp.chunks.append(Chunk(value, x + 2, y + 1, x + 2 + 0.5 * size * len(value), y + 1, size, 0))


def _field_value(pdf: PDFFile, annot: dict) -> str:
    """The text value of a text or choice field (inherited through /Parent)."""
    node: Any = annot
    kind = value = None
    for _ in range(16):
        if not isinstance(node, dict):
            break
        kind = kind or pdf.resolve(node.get("FT"))
        value = value if value is not None else pdf.resolve(node.get("V"))
        node = pdf.resolve(node.get("Parent"))
    if kind not in ("Tx", "Ch") or not isinstance(value, bytes):
        return ""
    return " ".join(decode_text_string(value).split())


def _page_headings(marks: List[Tuple[int, Tuple[str, ...]]], count: int
                   ) -> Tuple[List[Tuple[str, ...]], Dict[int, List[Tuple[str, ...]]]]:
    """Each page's bookmark path at its top (the last bookmark before it), and the
    bookmarks pointing into each page, in outline order."""
    on_page: Dict[int, List[Tuple[str, ...]]] = {}
    for page, path in marks:
        if 0 <= page < count:
            on_page.setdefault(page, []).append(path)
    out: List[Tuple[str, ...]] = []
    current: Tuple[str, ...] = ()
    for i in range(count):
        out.append(current)
        if i in on_page:
            current = on_page[i][-1]
    return out, on_page


def _split_at_bookmarks(text: str, before: Tuple[str, ...], paths: List[Tuple[str, ...]]
                        ) -> List[Tuple[Tuple[str, ...], str]]:
    """A page's text cut where its bookmarks' titles stand on a line of their own.

    Several sections often start on one page (`2.10 Extended attributes` and
    `2.11 Subclassing` on page 14): each part takes its own bookmark's path (a
    title may be numbered on the page and not in the bookmark), and
    the text above the first title goes on with the section of the page
    before. A bookmark whose title is not found as a line (wrapped, or worded
    differently) cuts nothing; without any title found the whole page takes
    the first bookmark's path, as it always did.
    """
    if not paths:
        return [(before, text)]
    lines = text.split("\n")
    found = _title_lines(lines)
    cuts: List[Tuple[int, Tuple[str, ...]]] = []
    start = 0
    for path in paths:
        title = _letters(path[-1])
        where = found.get(title, []) if title else []
        n = bisect.bisect_left(where, start)
        if n < len(where):
            at = where[n]
            cuts.append((at, path))
            start = at + 1
    if not cuts:
        return [(paths[0], text)]
    parts = []
    above = "\n".join(lines[:cuts[0][0]]).strip()
    if above:
        # The text above the first title found: the section of the page before, unless a
        # bookmark that was not found came earlier on this page.
        unfound = [p for p in paths[:paths.index(cuts[0][1])]]
        parts.append((unfound[-1] if unfound else before, above))
    for n, (at, path) in enumerate(cuts):
        end = cuts[n + 1][0] if n + 1 < len(cuts) else len(lines)
        part = "\n".join(lines[at:end]).strip()
        if part:
            parts.append((path, part))
    return parts


def _title_lines(lines: List[str]) -> Dict[str, List[int]]:
    """The letters of each title a line could be → the lines it stands on, in order:
    the line's own letters, and those after a section number (`2.3 `, `A.1. `).

    Made once per page, so that each bookmark is a look-up: looking for each
    bookmark's title line by line costs bookmarks × lines (20,000 bookmarks
    into a page of as many lines would take minutes)."""
    found: Dict[str, List[int]] = {}
    for k, line in enumerate(lines):
        folded = _letters(line)
        if not folded:
            continue
        found.setdefault(folded, []).append(k)
        stripped = line.lstrip()
        number = _LEADING_WORD.match(stripped)
        if number is None or not _NUMBERING.fullmatch(number.group(0)):
            continue
        # as many folded letters as the line has letters after the number (`_cut` counts them)
        count = sum(ch.isalnum() for ch in stripped[number.end():])
        title = folded[len(folded) - count:] if 0 < count <= len(folded) else ""
        if title and title != folded \
                and _NUMBERING.fullmatch(stripped[:_cut(line, title)]):
            found.setdefault(title, []).append(k)
    return found


def _letters(text: str) -> str:
    """Letters and digits only, folded: a bookmark `2.13. Nonregular files` is the
    page's `2.13. Non-regular files`."""
    return "".join(ch for ch in text.casefold() if ch.isalnum())


def _cut(line: str, title: str) -> int:
    """Where in `line` (stripped of leading spaces) the letters of `title` begin."""
    line = line.lstrip()
    need = len(title)
    for pos in range(len(line) - 1, -1, -1):
        if line[pos].isalnum():
            need -= 1
            if need == 0:
                return pos
    return 0


def _without_running_lines(texts: List[str], labels: List[str],
                           paths: Optional[List[Tuple[str, ...]]] = None) -> List[str]:
    """Page texts without their running heads and feet: the page number, and a
    first or last line that recurs on other pages.

    A top or bottom line goes when it is only the page's number (`12`, `iv`,
    `Page 3 of 9`, `- 7 -`); when it holds the page's number at one end and the
    rest of it recurs at the same end of another page (a running head such
    as `12 2.1. INSTALLING`); when it recurs at the same end of another page
    and is the title of a bookmark the page lies in, begun on an earlier page
    (`Memcheck: a memory error detector` atop the pages of the chapter
    bookmarked `4. Memcheck: a memory error detector`, its number left out or
    not); or when it recurs, numbers aside, at the same end
    of at least half the pages and three of them (`Company confidential`).
    The heading path and the page label already say where a passage is. A
    page's only line stays.
    """
    edges = {i: t for i, t in enumerate(texts) if t.strip()}
    # Pages under one bookmark share its path, and paths share their titles: each
    # title's letters are taken once, not once a page (a bookmark of 100,000 letters
    # over 2,000 pages took a minute).
    by_path: Dict[Tuple[str, ...], frozenset] = {}
    by_title: Dict[str, Tuple[str, ...]] = {}

    def running(i: int) -> frozenset:
        path = paths[i] if paths and i < len(paths) else ()
        got = by_path.get(path)
        if got is None:
            got = by_path[path] = _running_titles(path, by_title)
        return got

    out = list(texts)
    for top in (True, False):
        found = {}
        for i, text in edges.items():
            line = _edge_line(text, top)
            found[i] = (line, _line_key(line, labels[i], i), _numbered(line, labels[i], i))
        counts: Dict[str, int] = {}
        for _, key, _ in found.values():
            counts[key] = counts.get(key, 0) + 1
        for i, (line, key, numbered) in found.items():
            seen = counts[key]
            if line.strip() == edges[i].strip() and not _page_number_only(line, labels[i], i):
                continue   # the page's only line is its text, however often it recurs
            if _page_number_only(line, labels[i], i) or (numbered and seen >= 2) or (
                    seen >= 2 and _letters(line) in running(i)) or (
                    seen >= 3 and 2 * seen >= len(edges)):
                out[i] = _drop_edge_line(out[i], top)
                edges[i] = out[i]
    return out


def _running_titles(path: Tuple[str, ...], known: Dict[str, Tuple[str, ...]]) -> frozenset:
    """The letters of each bookmark title in `path`, with and without its section
    number (a running head often leaves the number out); `known` keeps each
    title's forms for the next path that holds it."""
    titles = set()
    for title in path:
        forms = known.get(title)
        if forms is None:
            forms = (_letters(title),)
            number = _NUMBERING.match(title.lstrip())
            if number:
                forms += (_letters(title.lstrip()[number.end():]),)
            known[title] = forms
        titles.update(forms)
    titles.discard("")
    return frozenset(titles)


_PAGE_NUMBER_ONLY = re.compile(r"(?:page\s+|p\.\s*|-\s*)?(\S+)(?:\s*-|\s+(?:of|/)\s+\d+)?", re.IGNORECASE)


def _edge_line(text: str, top: bool) -> str:
    lines = [l for l in text.split("\n") if l.strip()]
    if not lines:
        return ""
    return lines[0] if top else lines[-1]


def _page_tokens(label: str, index: int) -> Set[str]:
    return {label.lower(), str(index + 1)}


def _page_number_only(line: str, label: str, index: int) -> bool:
    m = _PAGE_NUMBER_ONLY.fullmatch(line.strip())
    return bool(m) and m.group(1).lower() in _page_tokens(label, index)


def _numbered(line: str, label: str, index: int) -> bool:
    """The line starts or ends with the page's number (a running head's usual place)."""
    words = line.split()
    return len(words) > 1 and bool({words[0].lower(), words[-1].lower()} & _page_tokens(label, index))


def _line_key(line: str, label: str, index: int) -> str:
    """The line without the page number at either end (left on even pages, right on odd
    ones, in a book) and with other digits blurred, for comparing across pages."""
    words = line.lower().split()
    pages = _page_tokens(label, index)
    if len(words) > 1 and words[0] in pages:
        words = words[1:]
    elif len(words) > 1 and words[-1] in pages:
        words = words[:-1]
    return re.sub(r"\d+", "#", " ".join(words))


def _drop_edge_line(text: str, top: bool) -> str:
    lines = text.split("\n")
    order = range(len(lines)) if top else range(len(lines) - 1, -1, -1)
    for k in order:
        if lines[k].strip():
            del lines[k]
            break
    return "\n".join(lines).strip("\n")


def _dehyphenate(texts: List[str]) -> List[str]:
    """Join a word hyphenated at a line end (`exam-\\nple` → `example`).

    The hyphen stays (and the line break goes) when the hyphenated form is
    written elsewhere in the document on one line and the joined form is not,
    as for compounds like `well-known`; a capital after the break also keeps
    the hyphen (`Baden-\\nWürttemberg`).
    """
    if not any(_LINE_END_HYPHEN.search(t) for t in texts):
        return texts
    words = set()
    compounds = set()
    for t in texts:
        words.update(w.lower() for w in _WORD.findall(t))
        if "-" in t:
            compounds.update(c.lower() for c in _COMPOUND.findall(t))

    def join(m: "re.Match[str]") -> str:
        left, mark, right = m.group(1), m.group(2), m.group(3)
        joined = (left + right).lower()
        if mark == "\u00ad" or right[0].islower() and (
                joined in words or f"{left}-{right}".lower() not in compounds):
            return left + right
        return f"{left}-{right}"

    return [_HYPHENATED.sub(join, t) for t in texts]


def _heading_like(lines: List[Tuple[str, float]], text: str) -> Optional[str]:
    """A title from the first page with text, for a PDF whose metadata has none.

    The largest-type line near the top when it is larger than the body and
    is not a heading every document has ("Contents"), with the next line or
    two in the same type (a title set on several lines); else the first line
    of two words or more when it is a paragraph of its own, short enough to
    be a title. A line that a paragraph goes on from is body text, not a
    title: such a file is known by its name.
    """
    if not lines:
        return None
    head = [k for k, (t, _) in enumerate(lines[:20]) if not is_section_name(t)]
    sizes = sorted(size for _, size in lines)
    body = sizes[len(sizes) // 2]
    if head:
        k = max(head, key=lambda n: lines[n][1])
        title, size = lines[k]
        if size > 1.15 * body and 3 <= len(title) <= 200:
            # a title set on two or three lines of the same type: all of them
            last = title
            for more, other in lines[k + 1:k + 3]:
                if abs(other - size) > 0.02 * size or len(title) + len(more) > 200 \
                        or is_section_name(more) or f"{last}\n{more}" not in text:
                    break   # another size, too long, or a paragraph of its own
                title, last = f"{title} {more}", more
            return title
    for paragraph in text.split("\n\n")[:20]:
        words = paragraph.split()
        if len(words) < 2 or is_section_name(paragraph):
            continue
        if "\n" not in paragraph.strip() and len(words) <= _TITLE_WORDS and len(paragraph) <= 200:
            return " ".join(words)
        return None
    return None
