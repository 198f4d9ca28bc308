"""Texinfo (`.texi`): the GNU manuals' sources, read as their Info build shows them.

Sectioning commands (`@chapter`, `@section`, `@unnumberedsubsec`, `@heading`…)
head sections; `@settitle` is the title. Every other line stays on its own
line number, what no built manual shows becoming a blank line: comments,
`@node` lines, index entries (`@cindex`, `@kindex`…), menus, the title page,
the other outputs' blocks (`@iftex`, `@ifhtml`, `@html`, `@tex`), `@ignore`,
macro definitions and every other line command (`@noindent`, `@sp 1`).
Brace commands show their text (`@code{magit-status}` → `magit-status`,
`@xref{Staging and Unstaging}` → `See Staging and Unstaging`, `@uref{url,
words}` → `words`, `@dots{}` → `…`), `@@`, `@{`, `@}` their character,
and a definition (`@defun magit-status &optional dir`) the line Info shows
(`Function: magit-status &optional dir`). Examples keep their lines;
`@verbatim` is kept exactly as typed.
"""
from __future__ import annotations

import re
import unicodedata
from typing import Dict, List, Optional, Tuple

from ..config import Limits
from ..document import Document
from .encoding import decode_text, normalise_newlines
from .lines import Heading, headed_sections, split_lines

Mark = Tuple[int, int, Heading]

_LEVELS = {
    "top": 1, "chapter": 1, "unnumbered": 1, "appendix": 1, "chapheading": 1, "majorheading": 1,
    "section": 2, "unnumberedsec": 2, "appendixsec": 2, "appendixsection": 2, "heading": 2,
    "subsection": 3, "unnumberedsubsec": 3, "appendixsubsec": 3, "subheading": 3,
    "subsubsection": 4, "unnumberedsubsubsec": 4, "appendixsubsubsec": 4, "subsubheading": 4,
}
# Blocks no Info reader sees: other outputs, menus, the title page, comments, macros.
_HIDDEN_BLOCKS = frozenset({
    "ignore", "macro", "rmacro", "linemacro", "copying", "titlepage", "menu", "detailmenu",
    "direntry", "documentdescription", "iftex", "ifhtml", "ifdocbook", "ifxml", "iflatex",
    "ifnotinfo", "tex", "html", "docbook", "xml", "latex", "displaymath", "nodedescriptionblock"})
# Blocks that end at `@end NAME`; their lines are read (kept, for examples).
_BLOCKS = frozenset({
    "example", "smallexample", "lisp", "smalllisp", "display", "smalldisplay", "format",
    "smallformat", "quotation", "smallquotation", "cartouche", "group", "table", "ftable",
    "vtable", "itemize", "enumerate", "multitable", "flushleft", "flushright", "raggedright",
    "indentedblock", "smallindentedblock", "float", "ifinfo", "ifnottex", "ifnothtml",
    "ifnotdocbook", "ifnotxml", "ifnotlatex", "ifplaintext", "ifnotplaintext", "ifset", "ifclear",
    "ifcommanddefined", "ifcommandnotdefined", "verbatim"})
# Definition commands: the category Info shows before the name (`-- Function: name args`).
_DEFINITIONS = {
    "defun": "Function", "defmac": "Macro", "defspec": "Special Form", "defvar": "Variable",
    "defopt": "User Option", "deftypefun": "Function", "deftypevar": "Variable",
    "defivar": "Instance Variable", "defmethod": "Method", "deftypemethod": "Method",
    "defcv": "", "deffn": "", "defvr": "", "deftp": "", "deftypefn": "", "deftypevr": "",
    "deftypeop": "", "defop": "", "deftypecv": "",
}
# Brace commands that stand for a character or a word.
_GLYPHS = {
    "dots": "…", "enddots": "...", "result": "⇒", "expansion": "↦", "print": "-|",
    "error": "error→", "equiv": "≡", "point": "∗", "minus": "-", "copyright": "©",
    "registeredsymbol": "®", "bullet": "•", "TeX": "TeX", "LaTeX": "LaTeX", "tie": " ",
    "today": "", "ss": "ß", "o": "ø", "O": "Ø", "l": "ł", "L": "Ł", "ae": "æ", "AE": "Æ",
    "oe": "œ", "OE": "Œ", "aa": "å", "AA": "Å", "exclamdown": "¡", "questiondown": "¿",
    "pounds": "£", "euro": "€", "textdegree": "°", "arrow": "→", "leq": "≤", "geq": "≥",
    "comma": ",", "atchar": "@", "lbracechar": "{", "rbracechar": "}", "backslashchar": "\\",
    "hashchar": "#", "ampchar": "&", "quotedblleft": "“", "quotedblright": "”",
    "quoteleft": "‘", "quoteright": "’", "guillemetleft": "«", "guillemetright": "»",
    "ordf": "ª", "ordm": "º", "click": "→", "dotless": "",
}
# Brace commands whose text is not shown (an anchor, an index entry, an image's file).
_HIDDEN_BRACES = frozenset({"anchor", "image", "indexterm", "sortas", "seeentry", "seealso",
                            "errormsg", "inlineraw"})
_ACCENTS = {"'": "\u0301", "`": "\u0300", "^": "\u0302", '"': "\u0308", "~": "\u0303",
            "=": "\u0304", ",": "\u0327", "u": "\u0306", "v": "\u030c", "H": "\u030b",
            "dotaccent": "\u0307", "ringaccent": "\u030a", "ogonek": "\u0328", "udotaccent": "\u0323",
            "ubaraccent": "\u0331", "tieaccent": "\u0361"}
# A line that starts with a command which takes no braces (`@section Name`, `@end table`);
# the rest of the line (stripped after the match) is its argument.
_LINE_COMMAND = re.compile(r"[ \t]*@([A-Za-z][\w-]*)(?![\w{-])(?:[ \t]+(.*))?$")
_TOKEN = re.compile(r"@([A-Za-z][\w-]*|.)|[{}]")
_COMMENT_TAIL = re.compile(r"@c(?:omment)?(?:[ \t].*)?$")


# What `@value{name}` references may add to a document, beyond its own length: a
# value of 19,000 characters shown 2,000 times on each line made 1.7 GB of a 400 KB file.
_SPARE_EXPANSION = 65_536


class _Reader:
    """The line-by-line state: open blocks, values set with `@set`, and how many
    characters `@value` references may still add (past that, one shows its name)."""

    def __init__(self, budget: int = _SPARE_EXPANSION) -> None:
        self.blocks: List[str] = []
        self.open: Dict[str, int] = {}   # how many of each block are open (a cheap `in`)
        self.hidden = 0          # how many hidden blocks are open
        self.values: Dict[str, str] = {}
        self.verbatim = False
        self.budget = budget
        self.chapters: set = set()   # the titles given at the first level

    def push(self, name: str) -> None:
        self.blocks.append(name)
        self.open[name] = self.open.get(name, 0) + 1

    def inline(self, text: str) -> str:
        """A line's text with its brace commands as Info shows them (linear: one scan,
        a flat stack of open commands; one left open at the line's end shows its text)."""
        if "@" not in text and "{" not in text and "}" not in text:
            return text
        text = _COMMENT_TAIL.sub("", text) if "@c" in text else text
        frames: List[Tuple[str, List[str]]] = [("", [])]
        pos = 0
        while True:
            match = _TOKEN.search(text, pos)
            if match is None:
                break
            frames[-1][1].append(text[pos:match.start()])
            pos = match.end()
            token = match.group(0)
            if token == "{":
                frames.append(("", []))
            elif token == "}":
                if len(frames) > 1:
                    name, parts = frames.pop()
                    frames[-1][1].append(self._shown(name, "".join(parts)))
            else:
                name = match.group(1)
                if text.startswith("{", pos):
                    frames.append((name, []))
                    pos += 1
                elif name in "@{}.?!":
                    frames[-1][1].append(name)
                elif name in ("*", "-", "/", ":", "\n"):
                    pass
                elif name == "tab":
                    frames[-1][1].append(" | ")
                elif name in (" ", "\t"):
                    frames[-1][1].append(" ")
                elif name in _ACCENTS and len(name) == 1 and pos < len(text) and text[pos].isalpha():
                    frames[-1][1].append(unicodedata.normalize("NFC", text[pos] + _ACCENTS[name]))
                    pos += 1
                elif name in _GLYPHS:
                    frames[-1][1].append(_GLYPHS[name])
                # any other command without braces (`@tab`, `@item` mid-line) shows nothing
        frames[-1][1].append(text[pos:])
        while len(frames) > 1:   # left open: its text, the command unknown
            _, parts = frames.pop()
            frames[-1][1].append("".join(parts))
        return "".join(frames[0][1])

    def _shown(self, name: str, arg: str) -> str:
        if not name or name in ("code", "kbd", "key", "samp", "var", "env", "file", "command",
                                "option", "emph", "strong", "cite", "dfn", "t", "r", "i", "b",
                                "sc", "w", "asis", "indicateurl", "math", "sup", "sub", "slanted",
                                "sansserif", "titlefont", "headitemfont", "clicksequence",
                                "footnote", "verb", "U", "hyphenation", "clear"):
            if name == "verb" and len(arg) >= 2:
                return arg[1:-1]
            if name == "U":   # a code point; a surrogate half or a control (`@U{D800}`,
                try:          # `@U{000A}`, which would break the line) stays as typed
                    char = chr(int(arg.strip(), 16))
                    return arg if unicodedata.category(char) in ("Cs", "Cc") else char
                except (ValueError, OverflowError):
                    return arg
            return arg
        if name in _GLYPHS:
            return _GLYPHS[name] + arg
        if name in _ACCENTS:
            return unicodedata.normalize("NFC", arg + _ACCENTS[name]) if arg else ""
        if name in _HIDDEN_BRACES:
            return ""
        if name == "value":
            value = self.values.get(arg.strip(), arg.strip())
            if len(value) > self.budget:
                return arg.strip()
            self.budget -= len(value)
            return value
        parts = [part.strip() for part in arg.split(",")]
        if name in ("ref", "xref", "pxref", "inforef", "link"):
            shown = next((p for p in parts[1:3] if p), parts[0]) if name != "link" else parts[-1]
            manual = parts[4] if len(parts) > 4 and parts[4] else (parts[3] if len(parts) > 3 else "")
            if manual and name != "link":
                shown = f"{shown} in {manual}"
            return {"xref": "See ", "pxref": "see "}.get(name, "") + shown
        if name in ("uref", "url", "email"):
            return next((p for p in reversed(parts[1:3]) if p), parts[0])
        if name in ("acronym", "abbr"):
            return f"{parts[0]} ({', '.join(parts[1:])})" if len(parts) > 1 and parts[1] else parts[0]
        return arg   # an unknown or user-defined command: its text


def read_texinfo(data: bytes, limits: Limits) -> Document:
    """A Texinfo source as its Info build reads: sections, then plain lines."""
    lines = split_lines(normalise_newlines(decode_text(data)))
    state = _Reader(len(data) + _SPARE_EXPANSION)
    out: List[str] = []
    marks: List[Mark] = []
    path: List[Tuple[int, str]] = []
    title = ""
    for i, line in enumerate(lines):
        out.append(_line(state, line, i, marks, path) if len(line) <= 20_000 else line)
        if not title and state.values.get("\x00title"):
            title = state.values["\x00title"]
    chapters = state.chapters
    if not title:   # a chapter of a manual in many files: its chapter; a fragment: its name
        title = next((heading[0] for _, _, heading in marks if len(heading) == 1
                      and heading[0] in chapters), "")
    return Document(title=title, format="texinfo", sections=headed_sections(marks, out))


def _line(state: _Reader, line: str, i: int, marks: List[Mark], path: List[Tuple[int, str]]) -> str:
    """What one line shows ("" when nothing), after noting headings and blocks."""
    if state.verbatim:
        if line.strip() == "@end verbatim":
            state.verbatim = False
            # counted closed too (left open, a stray `@end verbatim` closed every block)
            state.open[state.blocks.pop()] -= 1
            return ""
        return line
    command = _LINE_COMMAND.match(line) if "@" in line[:1] or line.lstrip(" \t")[:1] == "@" else None
    if command is None:
        if state.hidden or line.startswith("\\input"):
            return ""
        return state.inline(line)
    name, arg = command.group(1), (command.group(2) or "").strip()
    if name == "end":
        block = arg.split()[0] if arg.split() else ""
        if state.open.get(block):   # closes it and any block left open inside it
            while state.blocks:
                top = state.blocks.pop()
                state.open[top] -= 1
                if top in _HIDDEN_BLOCKS:
                    state.hidden -= 1
                if top == block:
                    break
        return ""
    if name in _HIDDEN_BLOCKS or name == "bye":   # nothing after `@bye` is read
        state.push(name)
        state.hidden += 1
        return ""
    if state.hidden:
        if name in _BLOCKS:
            state.push(name)
        return ""
    if name in _BLOCKS:
        state.push(name)
        if name == "verbatim":
            state.verbatim = True
        if name in ("quotation", "smallquotation") and arg:
            return state.inline(arg) + ":"
        return ""
    if name in _LEVELS:
        words = " ".join(state.inline(arg).split())
        if words:
            level = _LEVELS[name]
            if level == 1:
                state.chapters.add(words)
            while path and path[-1][0] >= level:
                path.pop()
            path.append((level, words))
            marks.append((i, i + 1, tuple(words for _, words in path)))
        return ""
    if name in ("item", "itemx", "tab", "headitem", "center", "exdent", "centerchap", "indent"):
        return state.inline(arg)
    if name in _DEFINITIONS or name.endswith("x") and name[:-1] in _DEFINITIONS:
        return _definition(state, name.rstrip("x") if name not in _DEFINITIONS else name, arg)
    if name == "settitle":
        state.values["\x00title"] = " ".join(state.inline(arg).split())
    elif name == "set":
        key, _, value = arg.partition(" ")
        state.values[key] = value.strip()
    return ""   # any other line command (`@node`, `@cindex`, `@noindent`, `@sp 1`) shows nothing


def _definition(state: _Reader, name: str, arg: str) -> str:
    """`@deffn Command magit-status` → `Command: magit-status`, as Info heads a definition."""
    words = _definition_words(arg)
    category = _DEFINITIONS[name]
    if not category and words:
        category, words = words[0], words[1:]
        if name in ("defop", "deftypeop", "defcv", "deftypecv") and words:
            category, words = f"{category} on {words[0]}", words[1:]
    elif name in ("defmethod", "deftypemethod", "defivar") and words:
        category, words = f"{category} on {words[0]}", words[1:]
    return f"{state.inline(category)}: {state.inline(' '.join(words))}".rstrip(": ")


_DEFINITION_WORD = re.compile(r"\{((?:[^{}]|\{[^{}]*\})*)\}|(\S+)")


def _definition_words(arg: str) -> List[str]:
    """A definition line's words; a braced group (`{Special Form}`) is one word."""
    return [m.group(1) if m.group(1) is not None else m.group(2) for m in _DEFINITION_WORD.finditer(arg)]


def looks_like_texinfo(head: str) -> bool:
    """Whether a text starts as a Texinfo source does (`\\input texinfo`)."""
    return head.lstrip().startswith("\\input texinfo")


__all__ = ["read_texinfo", "looks_like_texinfo"]
