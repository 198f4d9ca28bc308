"""Dense PDF pages: one page whose Flate content stream holds OPS text operators.

    PYTHONPATH=$PWD python bench/pdf_dense.py [OPS] [--write DIR] [--repeat N] [--profile SHAPE]

Real pages like this are maps, CAD drawings, vector charts and tables set glyph
by glyph: a 78 KB PDF can hold 1.5 million text-show operators. Each shape
below is one way generators write such a page (a font of WinAnsi Helvetica):

- glyphs: each glyph placed on its own, `1 0 0 1 x y Tm (a) Tj` (a table or
  a map label typeset glyph by glyph);
- td: `x y Td (a) Tj`, moved from the last glyph;
- tj-array: a word at a time, `[(Wo) -20 (rd)] TJ` after a `Td`;
- mixed: a line of vector drawing (`x y m x y l S`, a colour) between words,
  and `q ... cm ... Q` around each label, as a chart or a map's legend.

For each shape: operators, the PDF's size, CPU seconds to read it (best of
--repeat, `time.process_time`), operators a second, and a hash of the text, so
a change to the reader can be shown to extract the same text. `--write DIR`
keeps the PDFs; `--profile SHAPE` prints cProfile's top functions.
"""
from __future__ import annotations

import argparse
import cProfile
import hashlib
import pstats
import sys
import time
import zlib
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from glean_personal.config import Limits  # noqa: E402
from glean_personal.formats import read_document  # noqa: E402

FONT = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>"
WORDS = ("north ridge trail culvert bearing station elevation contour survey marker "
         "drainage easement parcel boundary fence gate well pump valve meter").split()


def _pdf(content: bytes) -> bytes:
    body = zlib.compress(content, 9)
    objects = {
        1: b"<< /Type /Catalog /Pages 2 0 R >>",
        2: b"<< /Type /Pages /Kids [4 0 R] /Count 1 >>",
        3: FONT,
        4: b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 2384 1684] "
           b"/Resources << /Font << /F1 3 0 R >> >> /Contents 5 0 R >>",
        5: b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(body) + body + b"\nendstream",
    }
    out = bytearray(b"%PDF-1.4\n")
    offsets = {}
    for num in sorted(objects):
        offsets[num] = len(out)
        out += b"%d 0 obj\n" % num + objects[num] + b"\nendobj\n"
    start = len(out)
    out += b"xref\n0 6\n0000000000 65535 f \n"
    for num in range(1, 6):
        out += b"%010d 00000 n \n" % offsets[num]
    out += b"trailer\n<< /Size 6 /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % start
    return bytes(out)


def _lines():
    """Endless (word, x, y): words across a 2384 x 1684 sheet, 40 lines of 8 pt."""
    n = 0
    while True:
        for y in range(1650, 30, -9):
            x = 20.0
            while x < 2340:
                word = WORDS[n % len(WORDS)]
                n += 1
                yield word, x, y
                x += len(word) * 4.6 + 3.0


def shape_glyphs(ops: int) -> bytes:
    out = [b"BT /F1 8 Tf"]
    count = 1
    for word, x, y in _lines():
        for i, ch in enumerate(word):
            out.append(b"1 0 0 1 %.2f %d Tm (%s) Tj" % (x + i * 4.6, y, ch.encode()))
            count += 2
        if count >= ops:
            break
    out.append(b"ET")
    return b"\n".join(out)


def shape_td(ops: int) -> bytes:
    out = [b"BT /F1 8 Tf"]
    count = 1
    lx = ly = 0.0
    for word, x, y in _lines():
        for i, ch in enumerate(word):
            gx = x + i * 4.6
            out.append(b"%.2f %.2f Td (%s) Tj" % (gx - lx, y - ly, ch.encode()))
            lx, ly = gx, y
            count += 2
        if count >= ops:
            break
    out.append(b"ET")
    return b"\n".join(out)


def shape_tj_array(ops: int) -> bytes:
    out = [b"BT /F1 8 Tf"]
    count = 1
    lx = ly = 0.0
    for word, x, y in _lines():
        half = len(word) // 2
        out.append(b"%.2f %.2f Td [(%s) -20 (%s)] TJ" % (
            x - lx, y - ly, word[:half].encode(), word[half:].encode()))
        lx, ly = x, y
        count += 2
        if count >= ops:
            break
    out.append(b"ET")
    return b"\n".join(out)


def shape_mixed(ops: int) -> bytes:
    out = []
    count = 0
    for word, x, y in _lines():
        out.append(b"0.2 0.4 0.6 RG 0.5 w %.1f %d m %.1f %d l S" % (x, y - 2, x + 30, y - 2))
        out.append(b"q 1 0 0 1 %.2f %d cm BT /F1 8 Tf 0 0 Td (%s) Tj ET Q" % (x, y, word.encode()))
        count += 12
        if count >= ops:
            break
    return b"\n".join(out)


SHAPES = {"glyphs": shape_glyphs, "td": shape_td, "tj-array": shape_tj_array, "mixed": shape_mixed}


def _count_ops(content: bytes) -> int:
    from glean_personal.formats.pdf.lexer import content_operations
    return sum(1 for _ in content_operations(content, 10 ** 9))


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("ops", nargs="?", type=int, default=1_500_000)
    ap.add_argument("--write")
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--profile")
    ap.add_argument("--shapes", default=",".join(SHAPES))
    args = ap.parse_args()
    limits = Limits()
    for name in args.shapes.split(","):
        content = SHAPES[name](args.ops)
        data = _pdf(content)
        ops = _count_ops(content)
        if args.write:
            Path(args.write).mkdir(parents=True, exist_ok=True)
            (Path(args.write) / f"dense-{name}.pdf").write_bytes(data)
        if args.profile == name:
            prof = cProfile.Profile()
            prof.enable()
            read_document(data, f"dense-{name}.pdf", limits)
            prof.disable()
            pstats.Stats(prof).sort_stats("tottime").print_stats(14)
        best = None
        for _ in range(args.repeat):
            start = time.process_time()
            doc = read_document(data, f"dense-{name}.pdf", limits)
            spent = time.process_time() - start
            best = spent if best is None else min(best, spent)
        text = doc.text
        digest = hashlib.sha256(text.encode()).hexdigest()[:12]
        print(f"{name:9} {ops:>9,} ops  {len(data) / 1024:7.0f} KB  {best:6.2f} CPU s  "
              f"{ops / best:>9,.0f} ops/s  text {len(text):>9,} chars sha {digest}  "
              f"warnings {len(doc.warnings)}", flush=True)


if __name__ == "__main__":
    main()
