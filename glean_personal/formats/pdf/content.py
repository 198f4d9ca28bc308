"""The content-stream interpreter: where each piece of text lands on the page.

Only the state that moves text is tracked: the current transformation matrix
(`cm`, `q`/`Q`), the text matrices and text state (`Tf`, `Tc`, `Tw`, `Tz`,
`TL`, `Ts`), the showing operators (`Tj`, `TJ`, `'`, `"`), Form XObjects
through `Do` (bounded depth, no cycles) and `/ActualText` spans. Every shown
string becomes a `Chunk` in page space; layout.py puts them into lines.
"""
from __future__ import annotations

import math
import re
from typing import Any, Dict, List, Optional, Set, Tuple

from .fonts import Font, load_font
from .glyphs import decode_text_string
from .lexer import Name, Ref, Stream, content_operations

Matrix = Tuple[float, float, float, float, float, float]
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
# character spacing (a fraction of the font size) wide enough to part letters into words, as
# layout.SPACE_GAP parts two strings
WIDE_SPACING = 0.1
_SPACES = re.compile(r" {2,}")


def mult(m: Matrix, n: Matrix) -> Matrix:
    """m × n (apply m first, then n)."""
    a, b, c, d, e, f = m
    A, B, C, D, E, F = n
    return (a * A + b * C, a * B + b * D, c * A + d * C, c * B + d * D,
            e * A + f * C + E, e * B + f * D + F)


class Chunk:
    """One shown string: text, start and end of its baseline, size, direction."""

    __slots__ = ("text", "x0", "y0", "x1", "y1", "size", "dirq")

    def __init__(self, text: str, x0: float, y0: float, x1: float, y1: float, size: float, dirq: int) -> None:
        self.text = text
        self.x0 = x0
        self.y0 = y0
        self.x1 = x1
        self.y1 = y1
        self.size = size
        self.dirq = dirq


class Interpreter:
    """Runs the content streams of one page and collects its chunks."""

    def __init__(self, pdf: Any, warnings: Set[str], font_cache: Dict[Any, Font]) -> None:
        self.pdf = pdf
        self.limits = pdf.limits
        self.warnings = warnings
        self.font_cache = font_cache
        self.chunks: List[Chunk] = []
        self.ops = 0
        self.forms: List[Any] = []

    # --- resources -------------------------------------------------------

    def _font(self, resources: dict, name: Any) -> Optional[Font]:
        fonts = self.pdf.resolve(resources.get("Font")) if isinstance(resources, dict) else None
        if not isinstance(fonts, dict):
            return None
        ref = fonts.get(name)
        key = (ref.num, ref.gen) if isinstance(ref, Ref) else id(ref)
        font = self.font_cache.get(key)
        if font is None:
            font = load_font(self.pdf.resolve(ref), self.pdf.resolve, self.pdf.stream_data)
            if isinstance(ref, Ref):
                self.font_cache[key] = font
            if font.unmapped:
                label = font.name.split("+")[-1] or str(name)
                self.warnings.add(f"font {label} has no map to Unicode; its text was left out")
        return font

    # --- the interpreter ---------------------------------------------------

    def run(self, data: bytes, resources: Any, ctm: Matrix = IDENTITY) -> None:
        pdf = self.pdf
        resolve = pdf.resolve
        if not isinstance(resources, dict):
            resources = {}
        stack: List[tuple] = []
        font: Optional[Font] = None
        fs = 1.0
        tc = tw = ts = 0.0
        th = 1.0
        tl = 0.0
        tm: Matrix = IDENTITY
        tlm: Matrix = IDENTITY
        actual: List[list] = []     # [text or None, emitted?]
        chunks = self.chunks
        max_ops = self.limits.max_pdf_operators - self.ops
        count = 0

        def show(raw: Any, kern: float = 0.0) -> None:
            nonlocal tm
            if font is None or not isinstance(raw, bytes):
                return
            text, width, n, spaces = font.decode(raw)
            tx = (((width - kern) / 1000.0) * fs + tc * n + tw * spaces) * th
            # The visible text ends at its last glyph, before the character spacing that
            # follows it: the next string may be placed from there (groff's justified lines
            # set a tight pair with a negative spacing, then place the rest of the word).
            seen = tx - tc * th if n else tx
            if n > 1 and tc > WIDE_SPACING * abs(fs) and not (actual and actual[-1][0] is not None):
                # spacing as wide as a word space parts every glyph from the next: a justified
                # line sets two words' touching letters in one string (`(se)` for "removes edges")
                text = _SPACES.sub(" ", " ".join(text)).strip()
            ta, tb, tc_, td, te, tf = tm
            ca, cb, cc, cd, ce, cf = ctm
            a = ta * ca + tb * cc
            b = ta * cb + tb * cd
            c = tc_ * ca + td * cc
            d = tc_ * cb + td * cd
            x0 = ts * c + te * ca + tf * cc + ce
            y0 = ts * d + te * cb + tf * cd + cf
            x1 = seen * a + x0
            y1 = seen * b + y0
            if actual:
                top = actual[-1]
                if top[0] is not None:
                    if top[1]:
                        text = ""
                    else:
                        text = top[0]
                        top[1] = True
            if text:
                size = abs(fs) * math.hypot(c, d)
                if abs(a) >= abs(b):
                    dirq = 0 if a >= 0 else 2
                else:
                    dirq = 1 if b > 0 else 3
                chunks.append(Chunk(text, x0, y0, x1, y1, size, dirq))
            tm = (tm[0], tm[1], tm[2], tm[3], tx * tm[0] + tm[4], tx * tm[1] + tm[5])

        for op, args in content_operations(data, max_ops):
            count += 1
            if op == "Tj":
                if args:
                    show(args[-1])
            elif op == "TJ":
                if args and isinstance(args[-1], list):
                    # strings apart by less than a tenth of an em are one piece (kerning)
                    run = b""
                    kern = 0.0
                    for item in args[-1]:
                        if isinstance(item, bytes):
                            run += item
                        elif isinstance(item, (int, float)):
                            if -100 < item < 100 and run:
                                kern += item
                                continue
                            if run:
                                show(run, kern)
                                run = b""
                                kern = 0.0
                            tx = -item / 1000.0 * fs * th
                            tm = (tm[0], tm[1], tm[2], tm[3], tx * tm[0] + tm[4], tx * tm[1] + tm[5])
                    if run:
                        show(run, kern)
            elif op == "Td" or op == "TD":
                if len(args) >= 2 and _nums(args[-2:]):
                    x, y = args[-2], args[-1]
                    tlm = (tlm[0], tlm[1], tlm[2], tlm[3], x * tlm[0] + y * tlm[2] + tlm[4],
                           x * tlm[1] + y * tlm[3] + tlm[5])
                    tm = tlm
                    if op == "TD":
                        tl = -y
            elif op == "Tf":
                if len(args) >= 2:
                    font = self._font(resources, args[-2])
                    fs = args[-1] if isinstance(args[-1], (int, float)) else fs
            elif op == "Tm":
                if len(args) >= 6 and _nums(args[-6:]):
                    tlm = tm = tuple(map(float, args[-6:]))  # type: ignore[assignment]
            elif op == "T*":
                tlm = (tlm[0], tlm[1], tlm[2], tlm[3], -tl * tlm[2] + tlm[4], -tl * tlm[3] + tlm[5])
                tm = tlm
            elif op == "'" or op == '"':
                if op == '"' and len(args) >= 3 and _nums(args[-3:-1]):
                    tw, tc = args[-3], args[-2]
                tlm = (tlm[0], tlm[1], tlm[2], tlm[3], -tl * tlm[2] + tlm[4], -tl * tlm[3] + tlm[5])
                tm = tlm
                if args:
                    show(args[-1])
            elif op == "BT":
                tm = tlm = IDENTITY
            elif op == "cm":
                if len(args) >= 6 and _nums(args[-6:]):
                    ctm = mult(tuple(float(v) for v in args[-6:]), ctm)  # type: ignore[arg-type]
            elif op == "q":
                if len(stack) < 256:
                    stack.append((ctm, font, fs, tc, tw, th, tl, ts))
            elif op == "Q":
                if stack:
                    ctm, font, fs, tc, tw, th, tl, ts = stack.pop()
            elif op == "Tc":
                if args and _nums(args[-1:]):
                    tc = args[-1]
            elif op == "Tw":
                if args and _nums(args[-1:]):
                    tw = args[-1]
            elif op == "TL":
                if args and _nums(args[-1:]):
                    tl = args[-1]
            elif op == "Tz":
                if args and _nums(args[-1:]):
                    th = args[-1] / 100.0
            elif op == "Ts":
                if args and _nums(args[-1:]):
                    ts = args[-1]
            elif op == "Do":
                if args and isinstance(args[-1], Name):
                    self.ops += count
                    count = 0
                    self._do(resources, args[-1], ctm)
                    if self.ops >= self.limits.max_pdf_operators:
                        break
            elif op == "BDC" or op == "BMC":
                text = None
                if op == "BDC" and len(args) >= 2:
                    props = args[-1]
                    if isinstance(props, Name):
                        named = resolve(resources.get("Properties"))
                        props = resolve(named.get(props)) if isinstance(named, dict) else None
                    if isinstance(props, dict):
                        at = resolve(props.get("ActualText"))
                        if isinstance(at, bytes):
                            text = decode_text_string(at)
                if len(actual) < 64:
                    actual.append([text, False])
            elif op == "EMC":
                if actual:
                    top = actual.pop()
                    if top[0] and not top[1]:
                        m = mult(tm, ctm)
                        chunks.append(Chunk(top[0], m[4], m[5], m[4], m[5],
                                            abs(fs) * math.hypot(m[2], m[3]), 0))
        self.ops += count
        if count >= max_ops:
            self.warnings.add("a page has more drawing operators than the limit; the rest was not read")

    def _do(self, resources: dict, name: Name, ctm: Matrix) -> None:
        resolve = self.pdf.resolve
        xobjects = resolve(resources.get("XObject"))
        if not isinstance(xobjects, dict):
            return
        ref = xobjects.get(name)
        xobj = resolve(ref)
        if not isinstance(xobj, Stream) or resolve(xobj.get("Subtype")) != "Form":
            return
        key = (ref.num, ref.gen) if isinstance(ref, Ref) else id(xobj)
        if key in self.forms or len(self.forms) >= self.limits.max_pdf_form_depth:
            return
        data = self.pdf.stream_data(xobj)
        if not data:
            return
        matrix = resolve(xobj.get("Matrix"))
        m = IDENTITY
        if isinstance(matrix, list) and len(matrix) == 6 and _nums(matrix):
            m = tuple(float(v) for v in matrix)  # type: ignore[assignment]
        inner = resolve(xobj.get("Resources"))
        self.forms.append(key)
        try:
            self.run(data, inner if isinstance(inner, dict) else resources, mult(m, ctm))
        finally:
            self.forms.pop()


def _nums(values: list) -> bool:
    """Whether every value is a number (an int or a float; not a bool, not a name)."""
    for v in values:
        t = type(v)   # operands are the lexer's: int, float, bool, bytes, Name, list, dict, None
        if t is not float and t is not int:
            return False
    return True

