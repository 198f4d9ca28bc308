"""Perl's POD (`.pod`): the documentation format of Perl and its modules, read as
`perldoc` shows it.

`=head1`…`=head6` head sections, and the title is the line under `=head1 NAME`
(`perlfaq4 - Data Manipulation`), as a manual page's is. An `=item` with words
(not `*` nor a number) in the first list under a heading, with text of its own
below it, heads a section one level down: each function of `perlfunc`
(`sort SUBNAME LIST`), each message of `perldiag`, each variable of `perlvar`;
the items just before it with no text of their own (`sort BLOCK LIST`) are its
first lines. Other items show their words, `• ` or their number.

Formatting codes show their text: `C<keys>`, `B<…>`, `I<…>`, `F<…>`, `S<…>`,
also with more angle brackets (`C<< $a->[0] >>`) and nested; `E<gt>` its
character; `L<text|perlfunc/sort>` its text, `L<perlfunc/sort>` `sort in
perlfunc`, `L<perlop>` `perlop`. Index entries (`X<…>`), `Z<>`, `=pod`,
`=over`, `=back`, `=encoding`, blocks for other outputs (`=begin html` …
`=end html`, `=for comment …`) and code outside POD (before a command, after
`=cut`) show nothing. Verbatim paragraphs (indented) keep their lines as
typed. Every shown line keeps its place in the file, so passages name their
lines; a line that shows nothing inside a paragraph (`X<sort>` alone) moves
the paragraph's later lines up by one.

The POD inside Perl code (`.pm`, `.pl`) is read the same way (`pod_lines`,
`pod_sections`), beside the code reader's sections of the code around it.
"""
from __future__ import annotations

import html.entities
import re
from typing import List, Sequence, Tuple

from ..config import Limits
from ..document import Document, Section
from .encoding import decode_text, normalise_newlines
from .lines import Heading, headed_sections, line_section, split_lines

Mark = Tuple[int, int, Heading]

_COMMAND = re.compile(r"=([A-Za-z][A-Za-z0-9_]*)(?=\s|$)")
_HEAD = re.compile(r"head([1-6])")
_NUMBERED = re.compile(r"([0-9]{1,9})\.?(?:\s+|$)")
# A formatting code's start (`C<`, `L<<`) or a run of closing brackets.
_TOKEN = re.compile(r"([A-Z])(<+)|(>+)")
_URL = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*:[^:\s]")
# Codes nested deeper than this are text: each level copies what it holds once.
_MAX_DEPTH = 16
_ENTITIES = {"lt": "<", "gt": ">", "verbar": "|", "sol": "/"}


def read_pod(data: bytes, limits: Limits) -> Document:
    """A POD document as `perldoc` shows it: sections, then its lines."""
    lines = split_lines(normalise_newlines(decode_text(data)))
    return _Reader(lines).read()


class _Reader:
    """The paragraph-by-paragraph state: inside POD or code, open `=begin` blocks,
    open lists, the heading path, and the lines shown so far."""

    def __init__(self, lines: List[str]) -> None:
        self.lines = lines
        self.out: List[str] = [""] * len(lines)
        self.marks: List[Mark] = []
        self.path: List[Tuple[int, str]] = []   # (level, words); items are heads too
        self.head_level = 0      # the level of the last =headN
        self.head_depth = 0      # how many lists were open at that =headN
        self.lists = 0           # =over left open
        self.blocks: List[Tuple[str, bool]] = []   # (=begin name, shown)
        self.hidden = 0          # how many hidden =begin blocks are open
        self.item_heading = False   # the path ends in an item heading
        self.restore = False     # a list of item headings closed: the next text is the head's
        self.bullet = ""         # `• ` or `2. ` for the next ordinary paragraph
        self.in_name = False
        self.title = ""

    def read(self) -> Document:
        lines = self.lines
        pod = False   # what comes before the first command is not POD (perldoc skips it)
        i, count = 0, len(lines)
        while i < count:
            line = lines[i]
            if not pod:
                if not _COMMAND.match(line):
                    i += 1
                    continue
                pod = True
            if not line.strip():
                i += 1
                continue
            end = i + 1
            while end < count and lines[end].strip():
                end += 1
            pod = self.paragraph(i, end)
            i = end
        return Document(title=self.title, format="pod",
                        sections=headed_sections(self.marks, self.out))

    def paragraph(self, start: int, end: int) -> bool:
        """Read lines [start, end); False when `=cut` leaves POD."""
        first = self.lines[start]
        command = _COMMAND.match(first)
        if command is None:
            if not self.hidden:
                self.text(start, end, verbatim=first[:1] in " \t")
            return True
        name = command.group(1)
        arg = "\n".join([first[command.end():]] + self.lines[start + 1:end]).strip()
        if self.hidden:
            if name in ("begin", "end"):
                self.block(name, arg)
            return True
        if name == "cut":
            return False
        if name in ("begin", "end"):
            self.block(name, arg)
        elif _HEAD.fullmatch(name):
            self.heading(start, end, int(name[-1]), arg)
        elif name == "over":
            self.lists += 1
        elif name == "back":
            if self.lists == self.head_depth + 1 and self.item_heading:
                self.restore = True
            self.lists = max(0, self.lists - 1)
        elif name == "item":
            self.item(start, end, arg)
        elif name == "for":
            target, _, rest = arg.partition(" ") if " " in arg else arg.partition("\n")
            if target.startswith(":"):
                self.show(start, end, _inline(rest))
            elif target.lower() == "text":
                self.show(start, end, rest)
        # =pod, =encoding and commands no formatter knows show nothing
        return True

    def block(self, name: str, arg: str) -> None:
        target = arg.split()[0] if arg.split() else ""
        if name == "begin":
            shown = not self.hidden and (target.startswith(":") or target.lower() == "text")
            self.blocks.append((target, shown))
            if not shown:
                self.hidden += 1
            return
        if any(open_name == target for open_name, _ in self.blocks):   # closes it and any inside
            while self.blocks:
                open_name, shown = self.blocks.pop()
                if not shown:
                    self.hidden -= 1
                if open_name == target:
                    break

    def heading(self, start: int, end: int, level: int, arg: str) -> None:
        words = " ".join(_inline(arg).split())
        self.in_name = level == 1 and words.upper() == "NAME"
        if not words:
            return
        self.head_level, self.head_depth = level, self.lists
        self.item_heading = self.restore = False
        self.push(level, words)
        self.mark(start, end)

    def mark(self, start: int, end: int) -> None:
        """A section starts at lines [start, end), under the heading path as it stands."""
        self.marks.append((start, end, tuple(w for _, w in self.path)))

    def push(self, level: int, words: str) -> None:
        while self.path and self.path[-1][0] >= level:
            self.path.pop()
        self.path.append((level, words))

    def item(self, start: int, end: int, arg: str) -> None:
        self.bullet = ""
        if not arg or arg[0] == "*" and (len(arg) == 1 or arg[1].isspace()):
            rest = arg[1:].strip()
            if rest:
                self.show(start, end, "• " + _inline(rest))
            else:
                self.bullet = "• "
            return
        number = _NUMBERED.match(arg)
        if number:
            rest = arg[number.end():]
            if rest:
                self.show(start, end, f"{number.group(1)}. " + _inline(rest))
            else:
                self.bullet = f"{number.group(1)}. "
            return
        words = " ".join(_inline(arg).split())
        heads = (self.lists == self.head_depth + 1 and words
                 and not self.follows_item(start) and self.has_text(end))
        if not heads:
            self.show(start, end, _inline(arg))
            return
        self.push(self.head_level + 1, words)
        self.item_heading, self.restore = True, False
        self.mark(start, end)

    def follows_item(self, start: int) -> bool:
        """Whether the paragraph before line `start` is an `=item` (one of a run)."""
        i = start - 1
        while i >= 0 and not self.lines[i].strip():
            i -= 1
        while i > 0 and self.lines[i - 1].strip():
            i -= 1
        return i >= 0 and self.lines[i].startswith("=item")

    def has_text(self, end: int) -> bool:
        """Whether text of its own follows a run of items ending before line `end`."""
        lines, count = self.lines, len(self.lines)
        i = end
        while i < count:
            while i < count and not lines[i].strip():
                i += 1
            if i >= count:
                return False
            command = _COMMAND.match(lines[i])
            if command is None:
                return True
            if command.group(1) != "item":
                return command.group(1) not in ("back", "cut") and not _HEAD.fullmatch(command.group(1))
            while i < count and lines[i].strip():
                i += 1
        return False

    def text(self, start: int, end: int, verbatim: bool) -> None:
        if self.restore:   # the text after a list of item headings is the heading's again
            while self.path and self.path[-1][0] > self.head_level:
                self.path.pop()
            self.mark(start, start)
            self.restore = self.item_heading = False
        if verbatim:
            for i in range(start, end):
                self.out[i] = self.lines[i].rstrip()
            self.bullet = ""
            return
        shown = _inline("\n".join(self.lines[start:end]))
        if self.bullet:
            shown, self.bullet = self.bullet + shown.lstrip(), ""
        if self.in_name and not self.title:
            self.title = " ".join(shown.split())
        self.show(start, end, shown)

    def show(self, start: int, end: int, shown: str) -> None:
        """Lines [start, end) show `shown`'s lines, at the top, lines left empty dropped."""
        rows = [row.rstrip() for row in shown.split("\n") if row.strip()]
        room = end - start
        if len(rows) > room:
            rows[room - 1:] = [" ".join(rows[room - 1:])]
        for k, row in enumerate(rows):
            self.out[start + k] = row


def _inline(text: str) -> str:
    """Text with its formatting codes as `perldoc` shows them (one scan, a flat stack
    of open codes; a code left open at the end shows its text)."""
    if "<" not in text:
        return text
    frames: List[Tuple[str, int, List[str]]] = [("", 0, [])]
    pos = 0
    while True:
        match = _TOKEN.search(text, pos)
        if match is None:
            break
        parts = frames[-1][2]
        if match.group(1):
            angles = len(match.group(2))
            after = match.end()
            if len(frames) > _MAX_DEPTH:
                parts.append(text[pos:after])
                pos = after
                continue
            parts.append(text[pos:match.start()])
            if angles > 1 and after < len(text) and text[after].isspace():
                frames.append((match.group(1), angles, []))
                pos = after + 1
            else:   # `C<<x` without a space: one bracket opens, the rest is text
                frames.append((match.group(1), 1, []))
                pos = match.start() + 2
            continue
        closers = match.group(3)
        if len(frames) == 1:
            parts.append(text[pos:match.end()])
            pos = match.end()
            continue
        letter, angles, _ = frames[-1]
        if angles == 1:
            parts.append(text[pos:match.start()])
            pos = match.start() + 1
        elif len(closers) >= angles and text[match.start() - 1:match.start()].isspace():
            parts.append(text[pos:match.start()])
            pos = match.start() + angles
        else:   # `->` inside `C<< … >>`
            parts.append(text[pos:match.end()])
            pos = match.end()
            continue
        frames.pop()
        held = "".join(parts)
        frames[-1][2].append(_shown(letter, held.strip() if angles > 1 else held))
    frames[-1][2].append(text[pos:])
    while len(frames) > 1:   # left open: its text
        _, _, parts = frames.pop()
        frames[-1][2].append("".join(parts))
    return "".join(frames[0][2])


def _shown(letter: str, arg: str) -> str:
    if letter in ("X", "Z"):
        return ""
    if letter == "E":
        return _entity(arg.strip())
    if letter == "L":
        return _link(arg)
    return arg   # B, I, C, F, S and letters no formatter knows: their text


def _entity(name: str) -> str:
    if name in _ENTITIES:
        return _ENTITIES[name]
    try:
        if name[:2].lower() == "0x":
            code = int(name[2:], 16)
        elif name[:1] == "0" and len(name) > 1:
            code = int(name[1:], 8)
        elif name.isdigit():
            code = int(name)
        else:
            code = html.entities.name2codepoint.get(name, -1)
        if code < 32 or 0xD800 <= code <= 0xDFFF or code > 0x10FFFF:
            return name
        return chr(code)
    except ValueError:
        return name


def _link(arg: str) -> str:
    """`L<…>`: its text if it has one, else what it points at, in words."""
    text, bar, _ = arg.partition("|")
    if bar:
        return text.strip()
    target = " ".join(arg.split())
    if _URL.match(target):
        return target
    name, slash, section = target.partition("/")
    section = section.strip().strip('"')
    if slash and section:
        return f"{section} in {name.strip()}" if name.strip() else section
    return name.strip().strip('"')


def pod_lines(lines: Sequence[str]) -> List[bool]:
    """Which lines of Perl code are POD, as perl skips them: from a line that starts
    with a command (`=head1`, `=pod`, `=item`) to the next `=cut` line, included."""
    inside = False
    mask = [False] * len(lines)
    for i, line in enumerate(lines):
        if line[:1] != "=":
            mask[i] = inside
            continue
        command = _COMMAND.match(line)
        if command is not None:
            inside = command.group(1) != "cut"   # `=cut` ends POD (a stray one is one line)
            mask[i] = True
        else:
            mask[i] = inside
    return mask


def pod_sections(lines: Sequence[str], mask: Sequence[bool]) -> Tuple[str, List[Section]]:
    """The title (its `NAME` line) and sections of the POD in Perl code (`mask` from
    `pod_lines`), as `perldoc` shows them, each cut where code comes between its lines."""
    doc = _Reader(list(lines)).read()
    return doc.title, split_sections(doc.sections, mask, True)


def split_sections(sections: Sequence[Section], mask: Sequence[bool], keep: bool) -> List[Section]:
    """`sections` (whose text lines are the file's, from `first_line` on) cut into the
    runs of lines whose `mask` is `keep`; blank lines at a run's ends dropped."""
    out: List[Section] = []
    for sec in sections:
        rows = sec.text.split("\n")
        base = (sec.first_line or 1) - 1
        start = 0
        for k in range(len(rows) + 1):
            if k < len(rows) and 0 <= base + k < len(mask) and mask[base + k] == keep:
                continue
            if k > start:
                part = line_section(sec.heading, rows, start, k)
                if part is not None:
                    out.append(Section(part.heading, part.text, base + part.first_line, sec.page))
            start = k + 1
    return out


__all__ = ["read_pod", "pod_lines", "pod_sections", "split_sections"]
