"""Builds small PDFs byte by byte, for tests of hand-made and hostile files."""
from __future__ import annotations

import zlib
from typing import Dict, List, Optional


def stream(body: bytes, extra: str = "", compress: bool = False) -> bytes:
    if compress:
        body = zlib.compress(body)
        extra += " /Filter /FlateDecode"
    return b"<< /Length %d %s >>\nstream\n" % (len(body), extra.encode()) + body + b"\nendstream"


def build(objects: Dict[int, bytes], root: int = 1, trailer_extra: str = "",
          xref: bool = True) -> bytes:
    """A PDF with the numbered objects, a classic xref table and a trailer."""
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = {}
    for num in sorted(objects):
        offsets[num] = len(out)
        out += b"%d 0 obj\n" % num + objects[num] + b"\nendobj\n"
    size = max(objects) + 1
    start = len(out)
    if xref:
        out += b"xref\n0 %d\n0000000000 65535 f \n" % size
        for num in range(1, size):
            if num in offsets:
                out += b"%010d 00000 n \n" % offsets[num]
            else:
                out += b"0000000000 65535 f \n"
    out += b"trailer\n<< /Size %d /Root %d 0 R %s >>\nstartxref\n%d\n%%%%EOF\n" % (
        size, root, trailer_extra.encode(), start)
    return bytes(out)


FONT = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"


def text_pdf(pages: List[bytes], extra_objects: Optional[Dict[int, bytes]] = None,
             catalog_extra: str = "", trailer_extra: str = "", font: bytes = FONT) -> bytes:
    """A PDF whose pages have the given content streams, all with font /F1 (Helvetica)."""
    objects: Dict[int, bytes] = {3: font}
    kids = []
    num = 10
    for content in pages:
        objects[num] = stream(content)
        objects[num + 1] = (b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
                            b"/Resources << /Font << /F1 3 0 R >> >> /Contents %d 0 R >>" % num)
        kids.append(b"%d 0 R" % (num + 1))
        num += 2
    objects[2] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (b" ".join(kids), len(pages))
    objects[1] = b"<< /Type /Catalog /Pages 2 0 R %s >>" % catalog_extra.encode()
    objects.update(extra_objects or {})
    return build(objects, trailer_extra=trailer_extra)


def show(lines: List[str], x: float = 72, y: float = 720, size: float = 12, leading: float = 14) -> bytes:
    """A content stream writing each line below the previous one."""
    out = [b"BT /F1 %g Tf %g TL %g %g Td" % (size, leading, x, y)]
    for line in lines:
        escaped = line.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
        out.append(b"(" + escaped.encode("cp1252") + b") Tj T*")
    out.append(b"ET")
    return b"\n".join(out)


def document(title: str, pages: List[List[str]], bookmarks: List[tuple]) -> bytes:
    """A small finished PDF: pages of Helvetica lines, an /Info title and bookmarks (title, page index)."""
    def pdf_string(text: str) -> bytes:
        return b"(" + text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)").encode("cp1252") + b")"

    objects: Dict[int, bytes] = {3: FONT}
    page_nums = []
    num = 10
    for lines in pages:
        objects[num] = stream(show(lines, size=11, leading=15), compress=True)
        objects[num + 1] = (b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] "
                            b"/Resources << /Font << /F1 3 0 R >> >> /Contents %d 0 R >>" % num)
        page_nums.append(num + 1)
        num += 2
    objects[2] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (
        b" ".join(b"%d 0 R" % n for n in page_nums), len(pages))
    first_mark = num
    for i, (text, page) in enumerate(bookmarks):
        links = b""
        if i > 0:
            links += b" /Prev %d 0 R" % (num - 1)
        if i + 1 < len(bookmarks):
            links += b" /Next %d 0 R" % (num + 1)
        objects[num] = (b"<< /Title " + pdf_string(text) + b" /Parent 5 0 R /Dest [%d 0 R /XYZ 0 842 0]"
                        % page_nums[page] + links + b" >>")
        num += 1
    objects[5] = b"<< /Type /Outlines /First %d 0 R /Last %d 0 R /Count %d >>" % (
        first_mark, num - 1, len(bookmarks))
    objects[6] = b"<< /Title " + pdf_string(title) + b" /Producer (glean_personal tests) >>"
    objects[1] = b"<< /Type /Catalog /Pages 2 0 R /Outlines 5 0 R /PageMode /UseOutlines >>"
    return build(objects, trailer_extra="/Info 6 0 R")
