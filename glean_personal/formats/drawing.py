"""What Office drawings say in words: alt text, charts, SmartArt, dates.

Shared by the Word, PowerPoint and Excel readers. A chart is read from the
cache its part keeps of the data it plots (`c:strCache`, `c:numCache`), so
its title, series names, categories and values are found without opening
the embedded workbook. SmartArt is read from its data part, where the words
a person typed into the diagram live. Spreadsheet serial numbers become ISO
dates and times when their number format is a date format.

Every part is streamed as XML events with flat state, under the package's
byte caps, like the rest of the Office readers.
"""
from __future__ import annotations

import datetime
import re
import xml.etree.ElementTree as ET
from typing import Dict, List, Optional, Tuple

from .package import Package, PartError, local, visible_events

_MAX_POINTS = 1000          # values kept per series
_MAX_SERIES = 200
# Built-in number formats that show dates or times (ECMA-376 Part 1, 18.8.30);
# 27-36 and 50-58 are the East Asian date formats.
_BUILTIN_DATE_FORMATS = frozenset(
    list(range(14, 23)) + [45, 46, 47] + list(range(27, 37)) + list(range(50, 59)))
_BUILTIN_TIME_ONLY = frozenset({18, 19, 20, 21, 45, 46, 47})
_BUILTIN_ELAPSED = frozenset({46})
# Parts of a format code that never mean a date: quoted text, escaped and
# spacing characters, and bracketed colours, conditions and locales.
_LITERALS = re.compile(r'"[^"]*"|\\.|_.|\*.|\[(?![hms]+\])[^\]]*\]', re.IGNORECASE)
_ELAPSED = re.compile(r"\[[hms]+\]", re.IGNORECASE)
_MAX_SERIAL = 2958465.99999   # 9999-12-31 23:59:59 in the 1900 system


# Office appends these to the alt text it writes itself; they describe no picture.
_GENERATED_NOTE = re.compile(
    r"\s*(?:AI-generated content may be incorrect\.?|Description automatically generated"
    r"(?: with (?:low|medium|high) confidence)?\.?)\s*$", re.IGNORECASE)

# Tools that insert a picture put its file name where the description goes.
_FILE_NAME = re.compile(
    r"^[^\s/\\]+\.(?:png|jpe?g|gif|bmp|tiff?|emf|wmf|svg|webp|heic)$", re.IGNORECASE)
# ... or a word for what it is (openpyxl writes descr="Picture" on every image).
_PLACEHOLDER = re.compile(r"^(?:picture|image|graphic|photo|grafik|bild|imagen)(?: \d+)?$",
                          re.IGNORECASE)


# -- alt text ------------------------------------------------------------------
def alt_text(elem: ET.Element) -> str:
    """The description (or else the title) a person gave a picture or shape."""
    descr = _GENERATED_NOTE.sub("", " ".join((elem.get("descr") or "").split()))
    title = " ".join((elem.get("title") or "").split())
    descr, title = ("" if _FILE_NAME.match(x) or _PLACEHOLDER.match(x) else x
                    for x in (descr, title))
    if descr and title and title not in descr:
        return f"{title}: {descr}"
    return descr or title


def rel_attr(elem: ET.Element, name: str) -> Optional[str]:
    """A relationship-id attribute by local name (`r:id`, `r:dm`), any prefix."""
    suffix = "}" + name
    for key, value in elem.attrib.items():
        if key.startswith("{") and key.endswith(suffix):
            return value
    return None


# -- dates -------------------------------------------------------------------
def date_kind(format_id: Optional[int], format_code: Optional[str]) -> Optional[str]:
    """"date", "time", "datetime" or "elapsed" for a date/time number format, else None."""
    if format_code is None or format_code == "":
        if format_id is None or format_id not in _BUILTIN_DATE_FORMATS:
            return None
        if format_id in _BUILTIN_ELAPSED:
            return "elapsed"
        if format_id in _BUILTIN_TIME_ONLY:
            return "time"
        return "datetime" if format_id == 22 else "date"
    section = _first_section(format_code)
    if _ELAPSED.search(section):
        return "elapsed"
    bare = _LITERALS.sub("", section).lower()
    if "general" in bare or not re.search(r"[dmyhs]", bare):
        return None   # no date letters left (0.00E+00, "km", [Red]0.0)
    has_time = bool(re.search(r"[hs]", bare))
    has_date = bool(re.search(r"[dy]", bare)) or ("m" in bare and not has_time)
    if has_date and has_time:
        return "datetime"
    return "time" if has_time else "date"


def _first_section(code: str) -> str:
    """The part of a format code before its first unquoted `;`."""
    quoted = False
    escaped = False
    for i, ch in enumerate(code):
        if escaped:
            escaped = False
        elif ch == "\\":
            escaped = True
        elif ch == '"':
            quoted = not quoted
        elif ch == ";" and not quoted:
            return code[:i]
    return code


def serial_text(value: str, kind: str, date1904: bool = False) -> Optional[str]:
    """A spreadsheet serial number as an ISO date/time, or None if it is no date."""
    try:
        serial = float(value)
    except ValueError:
        return None
    if serial != serial or serial < 0 or serial > _MAX_SERIAL:
        return None
    if kind == "elapsed":
        seconds = int(round(serial * 86400))
        hours, rest = divmod(seconds, 3600)
        return f"{hours}:{rest // 60:02d}:{rest % 60:02d}"
    days = int(serial)
    seconds = int(round((serial - days) * 86400))
    if seconds >= 86400:
        days, seconds = days + 1, 0
    clock = f"{seconds // 3600:02d}:{seconds % 3600 // 60:02d}"
    if seconds % 60:
        clock += f":{seconds % 60:02d}"
    if kind == "time":
        return clock
    if date1904:
        day = datetime.date(1904, 1, 1) + datetime.timedelta(days=days)
        text = day.isoformat()
    elif days == 60:
        text = "1900-02-29"   # the day Lotus 1-2-3 invented and Excel kept
    elif days == 0:
        text = "1900-01-00"   # what Excel itself shows for serial 0
    else:
        base = datetime.date(1899, 12, 31) if days < 60 else datetime.date(1899, 12, 30)
        text = (base + datetime.timedelta(days=days)).isoformat()
    return f"{text} {clock}" if kind == "datetime" else text


def number_text(value: str) -> str:
    """A numeric cell as Excel's General format would show it (15 significant digits)."""
    try:
        number = float(value)
    except ValueError:
        return value
    if number != number or number in (float("inf"), float("-inf")):
        return value
    if number.is_integer() and abs(number) < 1e15:
        return str(int(number))
    return format(number, ".15g")


# -- charts --------------------------------------------------------------------
_SERIES_PARTS = {"tx": "name", "cat": "cat", "xVal": "cat", "val": "val", "yVal": "val"}


def chart_paragraphs(pkg: Package, part: str) -> List[str]:
    """A chart's title, axis titles and each series as 'name: category = value; ...'."""
    titles: List[str] = []
    series: List[Dict[str, List]] = []
    date1904 = False
    holder: List[str] = []          # open c:title / c:ser / series child names
    texts: List[str] = []           # text of the title being read
    points: Dict[int, str] = {}
    point_idx: Optional[int] = None
    format_code = ""
    depth = 0
    ser_depth = -1                  # depth of the open c:ser, -1 if none
    for event, elem in pkg.events(part):
        tag = local(elem.tag)
        if event == "start":
            depth += 1
            if tag == "title" and ser_depth < 0:
                holder.append("title")
                texts = []
            elif tag == "ser" and ser_depth < 0 and len(series) < _MAX_SERIES:
                holder.append("ser")
                ser_depth = depth
                series.append({"name": [], "cat": [], "val": []})
            elif tag in _SERIES_PARTS and depth == ser_depth + 1:
                holder.append(_SERIES_PARTS[tag])
                points, format_code = {}, ""
            elif tag == "pt":
                point_idx = _int(elem.get("idx"))
            continue
        depth -= 1
        if tag == "date1904":
            date1904 = elem.get("val", "1").lower() in ("1", "true")
        elif tag in ("t", "v") and holder[-1:] == ["title"]:
            texts.append(elem.text or "")
        elif tag == "formatCode":
            format_code = elem.text or ""
        elif tag == "v" and holder and holder[-1] in ("name", "cat", "val"):
            if point_idx is not None and len(points) < _MAX_POINTS:
                points[point_idx] = elem.text or ""
            elif point_idx is None and holder[-1] == "name":
                points[0] = elem.text or ""
        elif tag == "pt":
            point_idx = None
        elif tag == "title" and holder[-1:] == ["title"]:
            holder.pop()
            text = " ".join(" ".join(texts).split())
            if text and text not in titles:
                titles.append(text)
        elif tag in _SERIES_PARTS and depth == ser_depth and holder[-1:] == [_SERIES_PARTS[tag]]:
            kind = holder.pop()
            values = [points[i] for i in sorted(points)]
            dates = date_kind(None, format_code) if format_code else None
            if dates and kind != "name":
                values = [serial_text(v, dates, date1904) or v for v in values]
            elif kind == "val" or (kind == "cat" and format_code):
                values = [number_text(v) for v in values]
            if values:
                series[-1][kind] = values
        elif tag == "ser" and depth + 1 == ser_depth:
            holder.pop()
            ser_depth = -1
            elem.clear()
    out = ["Chart: " + " — ".join(titles) if titles else "Chart"]
    for number, one in enumerate(series, start=1):
        line = _series_line(number, one)
        if line:
            out.append(line)
    return out if len(out) > 1 or titles else []


def _series_line(number: int, series: Dict[str, List]) -> str:
    name = " ".join(" ".join(series["name"]).split()) or f"Series {number}"
    cats, vals = series["cat"], series["val"]
    if not cats and not vals:
        return ""
    if cats and vals:
        pairs = [f"{' '.join(c.split())} = {v}" if c.strip() else v for c, v in zip(cats, vals)]
    else:
        pairs = [" ".join(x.split()) for x in (cats or vals)]
    return f"{name}: " + "; ".join(p for p in pairs if p)


# -- SmartArt ------------------------------------------------------------------
_DIAGRAM_NOISE = frozenset({"parTrans", "sibTrans", "pres", "doc"})


def diagram_paragraphs(pkg: Package, part: str) -> List[str]:
    """The words typed into a SmartArt diagram, one node per paragraph."""
    out: List[str] = []
    node_kind: Optional[str] = None
    paragraph: List[str] = []
    in_text = 0
    for event, elem in pkg.events(part):
        tag = local(elem.tag)
        if event == "start":
            if tag == "pt":
                node_kind = elem.get("type", "node")
            elif tag == "t" and node_kind is not None and elem.tag.endswith("diagram}t"):
                in_text += 1
            elif tag == "p" and in_text:
                paragraph = []
            continue
        if tag == "t" and in_text and not elem.tag.endswith("diagram}t"):
            paragraph.append(elem.text or "")
        elif tag == "p" and in_text:
            text = " ".join("".join(paragraph).split())
            if text and node_kind not in _DIAGRAM_NOISE:
                out.append(text)
            paragraph = []
        elif tag == "t" and in_text:
            in_text -= 1
        elif tag == "pt":
            node_kind = None
            elem.clear()
    return out


def related_paragraphs(pkg: Package, rels: Dict[str, str], elem: ET.Element,
                       warnings: List[str]) -> Tuple[str, List[str]]:
    """For a `c:chart` or `dgm:relIds` element: ("chart"/"diagram", its paragraphs)."""
    tag = local(elem.tag)
    if tag == "chart":
        rid, kind, reader = rel_attr(elem, "id"), "chart", chart_paragraphs
    elif tag == "relIds":
        rid, kind, reader = rel_attr(elem, "dm"), "diagram", diagram_paragraphs
    else:
        return "", []
    part = rels.get(rid or "")
    if not part or not pkg.has(part):
        return kind, []
    try:
        return kind, reader(pkg, part)
    except PartError as exc:
        warnings.append(f"{kind} {part} not read: {exc}")
        return kind, []


def drawing_paragraphs(pkg: Package, part: str, warnings: List[str]) -> List[str]:
    """A spreadsheet drawing's words: picture alt text, charts, SmartArt, text boxes."""
    rels: Optional[Dict[str, str]] = None
    out: List[str] = []
    paragraph: Optional[List[str]] = None
    in_picture = 0
    for event, elem, tag in visible_events(pkg.events(part)):
        if event == "start":
            if tag == "pic":
                in_picture += 1
            elif tag == "cNvPr":
                described = alt_text(elem)
                if described:
                    out.append(("Image: " if in_picture else "") + described)
            elif tag in ("chart", "relIds"):
                if rels is None:
                    rels = rel_map(pkg, part)
                out.extend(related_paragraphs(pkg, rels, elem, warnings)[1])
            elif tag == "p":
                paragraph = []
            continue
        if tag == "t" and paragraph is not None:
            paragraph.append(elem.text or "")
        elif tag == "p" and paragraph is not None:
            text = " ".join("".join(paragraph).split())
            if text:
                out.append(text)
            paragraph = None
        elif tag == "pic":
            in_picture = max(0, in_picture - 1)
        elif tag in ("twoCellAnchor", "oneCellAnchor", "absoluteAnchor"):
            elem.clear()
    return out


def rel_map(pkg: Package, part: str) -> Dict[str, str]:
    """Relationship id -> in-package part, for one part (empty if it has none)."""
    try:
        rels = pkg.rels(part) or []
    except PartError:
        return {}
    return {rel.id: rel.part for rel in rels if rel.part}


def _int(value: Optional[str]) -> Optional[int]:
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None
