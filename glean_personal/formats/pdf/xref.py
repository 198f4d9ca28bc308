"""The file's object table: xref tables and streams, object streams, repair.

`PDFFile` finds every object through the cross-reference sections (classic
tables, PDF 1.5 xref streams, hybrid files, `/Prev` chains of incremental
updates). When they are missing or point at the wrong bytes, it rebuilds the
table by scanning for `N G obj`, as viewers do. Objects are parsed only when
asked for, and cached; references resolve with a depth bound, and a loop of
references resolves to None.
"""
from __future__ import annotations

import re
from typing import Any, Dict, List, Optional, Tuple

from ...config import Limits
from . import filters
from .crypt import Decryptor, NeedsPassword, Unsupported, decrypt_tree
from .lexer import Keyword, Name, PDFSyntaxError, Ref, Stream, or_default, parse_object


class Damaged(Exception):
    """The file's structure cannot be read at all."""


_STARTXREF = re.compile(rb"startxref\s*(\d+)")
_OBJ_HEADER = re.compile(rb"(\d{1,10})[\x00\t\n\x0c\r ]+(\d{1,5})[\x00\t\n\x0c\r ]+obj(?![A-Za-z])")
_OBJ_AT = re.compile(rb"[\x00\t\n\x0c\r ]*(\d{1,10})[\x00\t\n\x0c\r ]+(\d{1,5})[\x00\t\n\x0c\r ]+obj")
_XREF_ROW = re.compile(rb"(\d{10})[\x00\t\n\x0c\r ](\d{5})[\x00\t\n\x0c\r ]([nf])")
_LOOSE_ROW = re.compile(rb"[\x00\t\n\x0c\r ]*(\d+)[\x00\t\n\x0c\r ]+(\d+)[\x00\t\n\x0c\r ]+([nf])")
_SUBSECTION = re.compile(rb"[\x00\t\n\x0c\r ]*(\d+)[\x00\t\n\x0c\r ]+(\d+)[\x00\t\n\x0c\r ]*")
_STREAM_START = re.compile(rb"[\x00\t\n\x0c\r ]*stream(?:\r\n|\n|\r)?")
_ENDSTREAM = re.compile(rb"(?:\r\n|\n|\r)?endstream")
_LOOSE_END = re.compile(rb"[\x00\t\n\x0c\r ]*endstream")
_TRAILER = re.compile(rb"trailer[\x00\t\n\x0c\r ]*<<")


class PDFFile:
    """Lazy access to the objects of one PDF held in memory."""

    def __init__(self, data: bytes, limits: Limits) -> None:
        self.data = data
        self.limits = limits
        self.offsets: Dict[int, Tuple[int, int, int]] = {}   # num -> (kind, a, b)
        self.trailer: Dict[str, Any] = {}
        self.cache: Dict[int, Any] = {}
        self.crypt: Optional[Decryptor] = None
        self.inflated = 0
        self.repaired = False
        self._scanned: Optional[Dict[int, int]] = None
        self._objstm_cache: Dict[int, List[Tuple[int, int]]] = {}
        self._busy: set = set()
        self.warnings: List[str] = []
        try:
            self._read_xref()
        except (PDFSyntaxError, ValueError, IndexError, KeyError, TypeError):
            self.offsets.clear()
            self.trailer = {}
        self.crypt_error: Optional[Exception] = None
        self._encryption()
        if not self._root_ok():
            self._rebuild()
            self._encryption()
            if not self._root_ok():
                if self.crypt_error is not None:
                    raise self.crypt_error
                kids = self.orphan_pages()
                if not kids:
                    raise Damaged("damaged beyond repair")
                # no page tree left: the page objects found, in file order
                self.trailer["Root"] = {"Type": Name("Catalog"),
                                        "Pages": {"Type": Name("Pages"), "Kids": kids}}
                self.warnings.append("the page tree was missing; pages were taken in file order")

    def orphan_pages(self) -> List[Ref]:
        """Every object that is a page dictionary, in object-number order."""
        found = []
        for num in sorted(self.offsets):
            try:
                obj = self.get(num)
            except (PDFSyntaxError, ValueError, IndexError, KeyError, TypeError):
                continue
            if isinstance(obj, dict) and obj.get("Type") == "Page":
                found.append(Ref(num, 0))
        return found

    def _encryption(self) -> None:
        self.crypt = None
        self.crypt_error = None
        try:
            self.setup_encryption()
        except (NeedsPassword, Unsupported) as exc:
            self.crypt_error = exc
        except (PDFSyntaxError, ValueError, IndexError, KeyError, TypeError) as exc:
            self.crypt_error = Unsupported(f"unreadable encryption dictionary ({type(exc).__name__})")

    # --- cross-reference sections ---------------------------------------

    def _read_xref(self) -> None:
        data = self.data
        tail = data.rfind(b"startxref")
        if tail < 0:
            raise ValueError("no startxref")
        m = _STARTXREF.match(data, tail)
        if m is None:
            raise ValueError("bad startxref")
        pos = int(m.group(1))
        seen = set()
        while pos is not None and pos not in seen and len(seen) < 1000:
            seen.add(pos)
            if not 0 <= pos < len(data):
                raise ValueError("xref offset outside the file")
            trailer = self._read_section(pos)
            for key, value in trailer.items():
                if key not in self.trailer:
                    self.trailer[key] = value
            hybrid = trailer.get("XRefStm")
            if isinstance(hybrid, int) and hybrid not in seen:
                seen.add(hybrid)
                try:
                    self._read_section(hybrid)
                except (PDFSyntaxError, ValueError, IndexError):
                    pass
            prev = trailer.get("Prev")
            pos = prev if isinstance(prev, int) else None
        self.trailer.pop("Prev", None)

    def _read_section(self, pos: int) -> Dict[str, Any]:
        data = self.data
        start = pos
        while start < len(data) and data[start] in b"\x00\t\n\x0c\r ":
            start += 1
        if data.startswith(b"xref", start):
            return self._read_table(start + 4)
        m = _OBJ_AT.match(data, pos)
        if m is None:
            raise ValueError("xref offset points at neither a table nor a stream")
        obj = self._parse_at(m.end(), None)
        if not isinstance(obj, Stream):
            raise ValueError("xref offset points at an object that is not a stream")
        self._read_stream(obj)
        return obj.attrs

    def _read_table(self, pos: int) -> Dict[str, Any]:
        data = self.data
        offsets = self.offsets
        while True:
            m = _SUBSECTION.match(data, pos)
            if m is None or data.startswith(b"trailer", m.start(1)):
                break
            first, count = int(m.group(1)), int(m.group(2))
            pos = m.end()
            if count > self.limits.max_pdf_objects:
                raise ValueError("xref subsection too large")
            for i in range(count):
                row = _XREF_ROW.match(data, pos)
                if row is None:
                    # tolerate rows with odd whitespace
                    row = _LOOSE_ROW.match(data, pos)
                    if row is None:
                        break
                pos = row.end()
                while pos < len(data) and data[pos] in b"\r\n ":
                    pos += 1
                num = first + i
                if num not in offsets:
                    if row.group(3) == b"n":
                        offsets[num] = (1, int(row.group(1)), int(row.group(2)))
                    else:
                        offsets[num] = (0, 0, 0)
        t = _TRAILER.search(data, pos)
        if t is None:
            raise ValueError("no trailer")
        trailer, _ = parse_object(data, t.end() - 2)
        if not isinstance(trailer, dict):
            raise ValueError("bad trailer")
        return trailer

    def _read_stream(self, stream: Stream) -> None:
        attrs = stream.attrs
        widths = attrs.get("W")
        size = attrs.get("Size")
        if not isinstance(widths, list) or len(widths) < 3 or not all(isinstance(w, int) and 0 <= w <= 8 for w in widths):
            raise ValueError("bad xref stream /W")
        index = attrs.get("Index")
        if not isinstance(index, list) or len(index) % 2:
            index = [0, size if isinstance(size, int) else 0]
        body = filters.decode(stream.raw, attrs.get("Filter"), attrs.get("DecodeParms"),
                              self.limits.max_pdf_stream_bytes)
        if body is None:
            raise ValueError("xref stream with an unknown filter")
        w0, w1, w2 = widths[:3]
        row = w0 + w1 + w2
        pos = 0
        offsets = self.offsets
        for j in range(0, len(index), 2):
            first, count = index[j], index[j + 1]
            if not isinstance(first, int) or not isinstance(count, int):
                continue
            for i in range(min(count, self.limits.max_pdf_objects)):
                if pos + row > len(body):
                    return
                kind = int.from_bytes(body[pos:pos + w0], "big") if w0 else 1
                a = int.from_bytes(body[pos + w0:pos + w0 + w1], "big")
                b = int.from_bytes(body[pos + w0 + w1:pos + row], "big")
                pos += row
                num = first + i
                if num not in offsets:
                    offsets[num] = (kind, a, b) if kind in (1, 2) else (0, 0, 0)

    def _root_ok(self) -> bool:
        try:
            root = self.resolve(self.trailer.get("Root"))
            if not isinstance(root, dict):
                return False
            pages = self.resolve(root.get("Pages"))
            return isinstance(pages, dict)
        except (PDFSyntaxError, ValueError, IndexError, KeyError, TypeError):
            return False

    # --- repair ----------------------------------------------------------

    def _scan(self) -> Dict[int, int]:
        if self._scanned is None:
            found: Dict[int, int] = {}
            for m in _OBJ_HEADER.finditer(self.data):
                found[int(m.group(1))] = m.start()
                if len(found) > self.limits.max_pdf_objects:
                    break
            self._scanned = found
        return self._scanned

    def _rebuild(self) -> None:
        self.repaired = True
        self.cache.clear()
        old = self.offsets
        self.offsets = {num: (1, off, 0) for num, off in self._scan().items()}
        for num, entry in old.items():   # objects inside object streams
            if entry[0] == 2 and num not in self.offsets:
                self.offsets[num] = entry
        trailer: Dict[str, Any] = {}
        for m in _TRAILER.finditer(self.data):
            try:
                t, _ = parse_object(self.data, m.end() - 2)
            except PDFSyntaxError:
                continue
            if isinstance(t, dict):
                trailer.update(t)
        # xref streams carry the trailer keys too; object streams hold objects
        for num in list(self.offsets):
            try:
                obj = self.get(num)
            except (PDFSyntaxError, ValueError, IndexError, KeyError, TypeError):
                continue
            if isinstance(obj, Stream):
                kind = obj.attrs.get("Type")
                if kind == "XRef":
                    for key in ("Root", "Info", "Encrypt", "ID"):
                        if key in obj.attrs and key not in trailer:
                            trailer[key] = obj.attrs[key]
                elif kind == "ObjStm":
                    try:
                        for inner, _ in self._objstm_index(num):
                            self.offsets.setdefault(inner, (2, num, 0))
                    except (PDFSyntaxError, ValueError, IndexError, filters.FilterLimit):
                        pass
            elif isinstance(obj, dict) and obj.get("Type") == "Catalog" and "Root" not in trailer:
                trailer["Root"] = Ref(num, 0)
        if not isinstance(or_default(lambda: self.resolve(trailer.get("Root"))), dict):
            for num in list(self.offsets):
                obj = or_default(lambda: self.get(num))   # noqa: B023 - called at once
                if isinstance(obj, dict) and obj.get("Type") == "Catalog":
                    trailer["Root"] = Ref(num, 0)
                    break
        self.trailer = trailer
        self.cache.clear()

    # --- objects ---------------------------------------------------------

    def _parse_at(self, pos: int, ref: Optional[Ref]) -> Any:
        data = self.data
        obj, end = parse_object(data, pos, self.limits.max_pdf_depth)
        if isinstance(obj, dict):
            m = _STREAM_START.match(data, end)
            if m is not None:
                start = m.end()
                length = obj.get("Length")
                if isinstance(length, Ref):
                    length = self._length(length)
                raw = None
                if isinstance(length, int) and 0 <= length <= len(data) - start:
                    e = _ENDSTREAM.match(data, start + length)
                    if e is None:
                        e = _LOOSE_END.match(data, start + length)
                    if e is not None:
                        raw = data[start:start + length]
                if raw is None:
                    stop = data.find(b"endstream", start)
                    if stop < 0:
                        stop = len(data)
                    raw = data[start:stop]
                    if raw.endswith(b"\r\n"):
                        raw = raw[:-2]
                    elif raw.endswith((b"\n", b"\r")):
                        raw = raw[:-1]
                return Stream(obj, raw, ref)
        if isinstance(obj, Keyword):
            return None
        return obj

    def _length(self, ref: Ref) -> Any:
        if ref.num in self._busy:
            return None
        try:
            value = self.get(ref.num)
        except (PDFSyntaxError, ValueError, IndexError):
            return None
        return value if isinstance(value, int) else None

    def get(self, num: int) -> Any:
        """The object numbered `num` (None when absent or unreadable)."""
        if num in self.cache:
            return self.cache[num]
        if num in self._busy or len(self._busy) > self.limits.max_pdf_depth:
            return None
        self._busy.add(num)
        try:
            obj = self._load(num)
        finally:
            self._busy.discard(num)
        if len(self.cache) < self.limits.max_pdf_objects:
            self.cache[num] = obj
        return obj

    def _load(self, num: int) -> Any:
        entry = self.offsets.get(num)
        if entry is None:
            return None
        kind, a, b = entry
        if kind == 2:
            return self._from_objstm(num, a, b)
        if kind != 1:
            return None
        m = _OBJ_AT.match(self.data, a) if 0 <= a < len(self.data) else None
        if m is None or int(m.group(1)) != num:
            if self.repaired:
                return None
            # a wrong offset: look where the object really is
            where = self._scan().get(num)
            if where is None:
                return None
            m = _OBJ_AT.match(self.data, where)
            if m is None:
                return None
        gen = int(m.group(2))
        obj = self._parse_at(m.end(), Ref(num, gen))
        if self.crypt is not None:
            obj = self._decrypt(obj, num, gen)
        return obj

    def _decrypt(self, obj: Any, num: int, gen: int) -> Any:
        crypt = self.crypt
        assert crypt is not None
        if isinstance(obj, Stream):
            kind = obj.attrs.get("Type")
            if kind == "XRef":
                return obj
            obj.attrs = decrypt_tree(obj.attrs, lambda s: crypt.string(s, num, gen))
            if not (kind == "Metadata" and not crypt.encrypt_metadata):
                obj.raw = crypt.stream(obj.raw, num, gen)
            return obj
        return decrypt_tree(obj, lambda s: crypt.string(s, num, gen))

    def _objstm_index(self, stm_num: int) -> List[Tuple[int, int]]:
        cached = self._objstm_cache.get(stm_num)
        if cached is not None:
            return cached
        stream = self.get(stm_num)
        if not isinstance(stream, Stream):
            raise ValueError("object stream missing")
        body = self.stream_data(stream)
        if body is None:
            raise ValueError("object stream unreadable")
        n = stream.attrs.get("N")
        first = stream.attrs.get("First")
        if not isinstance(n, int) or not isinstance(first, int):
            raise ValueError("object stream without /N or /First")
        nums = re.findall(rb"\d+", body[:first])
        index = []
        for i in range(0, min(len(nums) - 1, 2 * n), 2):
            index.append((int(nums[i]), first + int(nums[i + 1])))
        self._objstm_cache[stm_num] = index
        return index

    def _from_objstm(self, num: int, stm_num: int, idx: int) -> Any:
        try:
            index = self._objstm_index(stm_num)
        except (PDFSyntaxError, ValueError, IndexError, filters.FilterLimit):
            return None
        stream = self.get(stm_num)
        body = stream.decoded if isinstance(stream, Stream) else None
        if body is None:
            return None
        pos = None
        if idx < len(index) and index[idx][0] == num:
            pos = index[idx][1]
        else:
            for inner, off in index:
                if inner == num:
                    pos = off
                    break
        if pos is None:
            return None
        obj, _ = parse_object(body, pos, self.limits.max_pdf_depth)
        return None if isinstance(obj, Keyword) else obj

    def resolve(self, obj: Any) -> Any:
        """Follow references (a chain is bounded) to a direct object."""
        hops = 0
        while isinstance(obj, Ref):
            hops += 1
            if hops > 32:
                return None
            obj = self.get(obj.num)
        return obj

    def stream_data(self, stream: Stream) -> Optional[bytes]:
        """The decoded bytes of a stream; None for image data or unknown filters."""
        if stream.decoded is not None:
            return stream.decoded
        attrs = stream.attrs
        fl = self.resolve(attrs.get("Filter", attrs.get("F")))
        parms = self.resolve(attrs.get("DecodeParms", attrs.get("DP")))
        if isinstance(fl, list):
            fl = [self.resolve(x) for x in fl]
            if any(str(x) in filters.IMAGE_FILTERS for x in fl):
                return None
        elif fl is not None and str(fl) in filters.IMAGE_FILTERS:
            return None
        if isinstance(parms, list):
            parms = [self.resolve(x) for x in parms]
        room = self.limits.max_inflated_bytes - self.inflated
        cap = min(self.limits.max_pdf_stream_bytes, max(room, 0))
        try:
            body = filters.decode(stream.raw, fl, parms, cap)
        except filters.FilterLimit:
            self.warnings.append("a stream inflated past the size limit was left out")
            body = b""
        if body is None:
            return None
        self.inflated += len(body)
        stream.decoded = body
        return body

    def setup_encryption(self) -> None:
        enc = self.resolve(self.trailer.get("Encrypt"))
        if not isinstance(enc, dict):
            return
        ids = self.resolve(self.trailer.get("ID"))
        first = self.resolve(ids[0]) if isinstance(ids, list) and ids else b""
        self.crypt = Decryptor(enc, first if isinstance(first, bytes) else b"", self.resolve)
        # objects read so far (the catalog, say) were read before the key existed
        enc_ref = self.trailer.get("Encrypt")
        keep = {enc_ref.num: self.cache.get(enc_ref.num)} if isinstance(enc_ref, Ref) else {}
        self.cache = {k: v for k, v in keep.items() if v is not None}
        self._objstm_cache.clear()


__all__ = ["PDFFile", "Damaged", "Name", "Ref", "Stream"]
