"""PDF tokens and objects, parsed from bytes with regular expressions.

Objects map to plain Python values: null → None, booleans, ints, floats,
strings → `bytes`, names → `Name` (a `str`), arrays → `list`, dictionaries →
`dict` keyed by name, `Ref` for indirect references and `Stream` for a
dictionary with its raw (still encoded) bytes. Nesting is bounded by an
explicit stack, never recursion.
"""
from __future__ import annotations

import re
from typing import Any, Callable, Dict, List, Optional, Tuple


class PDFSyntaxError(ValueError):
    """Bytes that are not the PDF object the caller expected."""


# What reading a damaged object raises: the lexer's errors, a wrong type where a
# dictionary or an array was expected, a chain of references too deep.
DAMAGED = (ValueError, IndexError, KeyError, TypeError, AttributeError, RecursionError)


def or_default(read: Callable[[], Any], default: Any = None) -> Any:
    """What `read` gives, or `default` when the object it reads is damaged (a file cut
    short or garbled inside it): the caller passes over that one object."""
    try:
        return read()
    except DAMAGED:
        return default


class Name(str):
    """A PDF name (`/Type`), kept apart from strings."""

    __slots__ = ()


class Ref:
    """An indirect reference `num gen R`."""

    __slots__ = ("num", "gen")

    def __init__(self, num: int, gen: int) -> None:
        self.num = num
        self.gen = gen

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Ref) and other.num == self.num and other.gen == self.gen

    def __hash__(self) -> int:
        return hash((self.num, self.gen))

    def __repr__(self) -> str:
        return f"Ref({self.num}, {self.gen})"


class Stream:
    """A stream object: its dictionary and its raw bytes (filters not applied)."""

    __slots__ = ("attrs", "raw", "ref", "decoded")

    def __init__(self, attrs: Dict[str, Any], raw: bytes, ref: Optional[Ref] = None) -> None:
        self.attrs = attrs
        self.raw = raw
        self.ref = ref
        self.decoded: Optional[bytes] = None

    def get(self, key: str, default: Any = None) -> Any:
        return self.attrs.get(key, default)

    def __repr__(self) -> str:
        return f"Stream({self.attrs!r}, {len(self.raw)} bytes)"


class Keyword(str):
    """A bare word: an operator in a content stream, or obj/endobj/R/stream."""

    __slots__ = ()


_DELIM = rb"()<>\[\]{}/%"
_WS = rb"\x00\t\n\x0c\r "
TOKEN = re.compile(
    rb"[\x00\t\n\x0c\r ]+|%[^\r\n]*"
    rb"|(?P<num>[+-]?(?:\d+(?:\.\d*)?|\.\d+))(?![^\x00\t\n\x0c\r ()<>\[\]{}/%])"
    rb"|/(?P<name>[^\x00\t\n\x0c\r ()<>\[\]{}/%]*)"
    rb"|(?P<str>\()"
    rb"|(?P<dopen><<)|(?P<dclose>>>)"
    rb"|(?P<hex><[^>]*>)"
    rb"|(?P<aopen>\[)|(?P<aclose>\])"
    rb"|(?P<kw>[^\x00\t\n\x0c\r ()<>\[\]{}/%]+)"
    rb"|(?P<other>[\s\S])"
)
_PAREN = re.compile(rb"[()\\]")
_ESCAPE = re.compile(rb"\\(?:([0-7]{1,3})|(\r\n|\r|\n)|([\s\S]))")
_ESCAPES = {b"n": b"\n", b"r": b"\r", b"t": b"\t", b"b": b"\b", b"f": b"\f"}
_NAME_HEX = re.compile(rb"#([0-9A-Fa-f]{2})")
_HEX_JUNK = re.compile(rb"[^0-9A-Fa-f]")
_names: Dict[bytes, Name] = {}


def _unescape(m: "re.Match[bytes]") -> bytes:
    if m.group(1) is not None:
        return bytes((int(m.group(1), 8) & 0xFF,))
    if m.group(2) is not None:
        return b""
    c = m.group(3)
    return _ESCAPES.get(c, c)


def literal_string(data: bytes, pos: int) -> Tuple[bytes, int]:
    """The string whose `(` is just before `pos`; returns (bytes, position after `)`)."""
    depth = 1
    start = pos
    escaped = False
    search = _PAREN.search
    while True:
        m = search(data, pos)
        if m is None:   # unterminated: take the rest
            body, pos = data[start:], len(data)
            break
        c = m.group()
        pos = m.end()
        if c == b"\\":
            escaped = True
            pos += 1
            continue
        if c == b"(":
            depth += 1
        else:
            depth -= 1
            if depth == 0:
                body = data[start:pos - 1]
                break
    if escaped:
        body = _ESCAPE.sub(_unescape, body)
    return body, pos


def hex_string(token: bytes) -> bytes:
    digits = _HEX_JUNK.sub(b"", token[1:-1])
    if len(digits) % 2:
        digits += b"0"
    return bytes.fromhex(digits.decode("ascii"))


def name(raw: bytes) -> Name:
    found = _names.get(raw)
    if found is None:
        text = raw
        if b"#" in raw:
            text = _NAME_HEX.sub(lambda m: bytes((int(m.group(1), 16),)), raw)
        found = Name(text.decode("latin-1"))
        if len(_names) < 20000:
            _names[raw] = found
    return found


def number(raw: bytes) -> Any:
    if b"." in raw:
        try:
            return float(raw)
        except ValueError:
            return 0.0
    return int(raw)


_CONSTANTS = {b"true": True, b"false": False, b"null": None}


def parse_object(data: bytes, pos: int, max_depth: int = 64) -> Tuple[Any, int]:
    """Parse one object starting at or after `pos`; returns (object, end position).

    Stops before `stream`/`endobj`/other keywords at the outermost level; a
    `Keyword` is returned for a bare operator. References `N G R` are folded.
    """
    stack: List[list] = []          # open containers: [kind, items]
    match = TOKEN.match
    end = len(data)
    while True:
        m = match(data, pos)
        if m is None:
            if stack:
                # unterminated container at end of data: close what is open
                value = _close(stack.pop())
                if stack:
                    stack[-1][1].append(value)
                    continue
                return value, pos
            raise PDFSyntaxError("unexpected end of data")
        pos = m.end()
        kind = m.lastgroup
        if kind is None:
            continue
        if kind == "num":
            value: Any = number(m.group(kind))
        elif kind == "name":
            value = name(m.group(kind))
        elif kind == "str":
            value, pos = literal_string(data, pos)
        elif kind == "hex":
            value = hex_string(m.group(kind))
        elif kind == "aopen" or kind == "dopen":
            if len(stack) >= max_depth:
                raise PDFSyntaxError("objects nested too deeply")
            stack.append([kind, []])
            continue
        elif kind == "aclose" or kind == "dclose":
            if not stack:
                if kind == "dclose":
                    continue
                raise PDFSyntaxError("unbalanced ]")
            value = _close(stack.pop())
        elif kind == "kw":
            word = m.group(kind)
            if word in _CONSTANTS:
                value = _CONSTANTS[word]
            elif word == b"R" and stack:
                items = stack[-1][1]
                if len(items) >= 2 and type(items[-1]) is int and type(items[-2]) is int:
                    gen = items.pop()
                    items[-1] = Ref(items[-1], gen)
                continue
            elif stack and word not in (b"endobj", b"stream", b"obj", b"endstream"):
                continue    # junk inside a container: ignore it
            else:
                if stack:   # a keyword that ends an object: close everything
                    pos = m.start()
                    while len(stack) > 1:
                        inner = _close(stack.pop())
                        stack[-1][1].append(inner)
                    return _close(stack.pop()), pos
                return Keyword(word.decode("latin-1")), pos
        else:
            continue
        if not stack:
            if kind == "num" and type(value) is int:
                # could be the start of `N G R`
                m2 = _REF.match(data, pos)
                if m2 is not None:
                    return Ref(value, int(m2.group(1))), m2.end()
            return value, pos
        stack[-1][1].append(value)
        if pos >= end and stack:
            continue


_REF = re.compile(rb"[\x00\t\n\x0c\r ]+(\d+)[\x00\t\n\x0c\r ]+R(?![^\x00\t\n\x0c\r ()<>\[\]{}/%])")


def _close(entry: list) -> Any:
    kind, items = entry
    if kind == "aopen":
        return items
    out: Dict[str, Any] = {}
    it = iter(items)
    for key in it:
        value = next(it, None)
        if isinstance(key, Name):
            out[key] = value
    return out


def content_operations(data: bytes, max_ops: int, max_depth: int = 32):
    """Yield (operator, operands) for a content stream, inline images skipped.

    Malformed bytes are skipped rather than fatal; at most `max_ops` operators.
    """
    match = TOKEN.match
    operands: List[Any] = []
    stack: List[list] = []
    pos = 0
    count = 0
    end = len(data)
    fast = _FAST.match
    drawing = _DRAWING
    words = _OPERATORS
    to_name = name
    while pos < end:
        if not operands and not stack:
            # the fast path: one whole operation at a time, when its operands are numbers
            # and names (a drawing operator is passed over uncounted), or a TJ/Tj of strings
            m = fast(data, pos)
            if m is not None:
                word = m.group(2)
                if word is not None:
                    if word in drawing:
                        pos = m.end()
                        continue
                    if word not in _CONSTANTS and word != b"BI":
                        pos = m.end()
                        count += 1
                        if count > max_ops:
                            return
                        op = words.get(word)
                        if op is None:
                            op = word.decode("latin-1")
                            if len(words) < 512:
                                words[word] = op
                        raw = m.group(1)
                        if not raw:
                            yield op, []
                            continue
                        if 0 in raw or 11 in raw:
                            # NUL is whitespace in PDF, and a vertical tab is not (a name may
                            # hold one): bytes.split() has it the other way round (`5\x00Tz`
                            # cost the whole page, as did `/\x0bF1 Tf`)
                            toks = _SPACES.split(raw.strip(b"\x00\t\n\x0c\r "))
                        else:
                            toks = raw.split()
                        try:
                            if 47 in raw:   # "/": a name among them
                                yield op, [to_name(tok[1:]) if tok[0] == 47 else
                                           float(tok) if 46 in tok else int(tok) for tok in toks]
                            else:
                                yield op, [float(tok) if 46 in tok else int(tok) for tok in toks]
                        except ValueError:   # an integer of thousands of digits (`_number`)
                            yield op, [to_name(tok[1:]) if tok[0] == 47 else _number(tok)
                                       for tok in toks]
                        continue
                else:
                    pos = m.end()
                    count += 1
                    if count > max_ops:
                        return
                    body = m.group(3)
                    if body is not None:
                        yield "TJ", [_tj_items(body)]
                    else:
                        body = m.group(4)
                        yield "Tj", [_ESCAPE.sub(_unescape, body) if b"\\" in body else body]
                    continue
        m = match(data, pos)
        if m is None:
            break
        pos = m.end()
        kind = m.lastgroup
        if kind is None:
            continue
        if kind == "num":
            value: Any = _number(m.group(kind))
        elif kind == "str":
            value, pos = literal_string(data, pos)
        elif kind == "kw":
            word = m.group(kind)
            if word in _CONSTANTS:
                value = _CONSTANTS[word]
            elif stack:
                continue
            else:
                count += 1
                if count > max_ops:
                    return
                op = word.decode("latin-1")
                if op == "BI":
                    pos = _skip_inline_image(data, pos)
                    operands = []
                    continue
                yield op, operands
                operands = []
                continue
        elif kind == "name":
            value = name(m.group(kind))
        elif kind == "hex":
            value = hex_string(m.group(kind))
        elif kind == "aopen" or kind == "dopen":
            if len(stack) >= max_depth:
                return
            stack.append([kind, []])
            continue
        elif kind == "aclose" or kind == "dclose":
            if not stack:
                continue
            value = _close(stack.pop())
        else:
            continue
        if stack:
            stack[-1][1].append(value)
        else:
            operands.append(value)
            if len(operands) > 64:
                del operands[:32]


_NUM = rb"[-+]?(?:\d+(?:\.\d*)?|\.\d+)"
_AFTER = rb"(?=[\x00\t\n\x0c\r /\[<(%]|$)"
_STR = rb"\(((?:[^()\\]|\\[\s\S])*)\)"
# Operators that move no text and draw only: passed over by the fast path (paths,
# colours, graphics state), as they were by one regex of runs of them before.
_DRAWING = frozenset(b"re f* B* b* W* m l c v y h f F S s B b n W w J j M i G g K k rg RG sc SC "
                     b"scn SCN cs CS gs ri sh d0 d1".split())
_OPERATORS: Dict[bytes, str] = {}
# One operation: numbers and names then an operator (group 1, 2); a TJ array of
# strings and numbers (3); a string and Tj (4). Whitespace before it is passed over.
_FAST = re.compile(
    rb"[\x00\t\n\x0c\r ]*(?:((?:(?:" + _NUM + rb"|/[^\x00\t\n\x0c\r ()<>\[\]{}/%]+)[\x00\t\n\x0c\r ]+)*)"
    rb"([A-Za-z'\"][A-Za-z0-9*'\"]*)" + _AFTER
    + rb"|\[((?:[\x00\t\n\x0c\r ]*(?:\((?:[^()\\]|\\[\s\S])*\)|<[0-9A-Fa-f\s]*>|" + _NUM + rb"(?![0-9.])))*)"
    rb"[\x00\t\n\x0c\r ]*\][\x00\t\n\x0c\r ]*TJ" + _AFTER
    + rb"|" + _STR + rb"[\x00\t\n\x0c\r ]*Tj" + _AFTER + rb")")
_TJ_ITEM = re.compile(rb"(\((?:[^()\\]|\\[\s\S])*\))|<([0-9A-Fa-f\s]*)>|(" + _NUM + rb")")


# A TJ array of plain strings and numbers (no `<`, no backslash: the fast path's strings
# then hold no parenthesis either): a string's group is its text, a number's is never empty.
_TJ_PLAIN = re.compile(rb"\(([^()]*)\)|(" + _NUM + rb")")


def _tj_items(body: bytes) -> list:
    if 60 not in body and 92 not in body:   # "<", "\\"
        try:
            return [(float(n) if 46 in n else int(n)) if n else s
                    for s, n in _TJ_PLAIN.findall(body)]
        except ValueError:   # an integer of thousands of digits
            return [_number(n) if n else s for s, n in _TJ_PLAIN.findall(body)]
    out: list = []
    append = out.append
    for s, h, n in _TJ_ITEM.findall(body):
        if s:
            s = s[1:-1]
            append(_ESCAPE.sub(_unescape, s) if b"\\" in s else s)
        elif n:
            append(_number(n))
        else:
            append(hex_string(b"<" + h + b">"))
    return out


_SPACES = re.compile(rb"[\x00\t\n\x0c\r ]+")
# Python refuses int() of more digits than this (`sys.get_int_max_str_digits`, 4300 by
# default); such a number in a content stream is garbage, read as a float (infinite).
_INT_DIGITS = 4000


def _number(raw: bytes):
    """A number token of a content stream: a float if it has a point, else an int; one
    of thousands of digits (int() raises on it, and the page was lost) is a float."""
    if b"." in raw or len(raw) > _INT_DIGITS:
        return float(raw)
    return int(raw)


_EI = re.compile(rb"[\x00\t\n\x0c\r ]EI(?=[\x00\t\n\x0c\r ]|$)")
_ID = re.compile(rb"[\x00\t\n\x0c\r \]>)]ID[\x00\t\n\x0c\r ]")


def _skip_inline_image(data: bytes, pos: int) -> int:
    m = _ID.search(data, pos - 1)
    if m is None:
        return len(data)
    m2 = _EI.search(data, m.end())
    return len(data) if m2 is None else m2.end()
