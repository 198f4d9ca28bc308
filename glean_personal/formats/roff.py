"""Manual pages in roff (`git-rm.1.gz`, `ls.1`): sections from `.SH`/`.SS`, text without requests.

Manual pages have no extension of their own (`.1` to `.9`, `.3pm`, `.1ssl`,
most often gzip-compressed), so they reach the text sniff; one that starts
with the page header (`.TH` for man(7), `.Dd`/`.Dt` for mdoc(7)) is read here.
`.TH "GIT-RM" "1"` names the page `git-rm(1)`, the title; `.SH` (`.Sh`) and
`.SS` (`.Ss`) headings make sections below it. Every other line stays on its
own line number: comments, requests and macro definitions become blank lines,
font, size and colour escapes go, character escapes become their characters
(`\\-` -, `\\(em` —, `\\(aq` '), and a macro line keeps its words (`.B --force`,
`.BR git-add (1)` → `git-add(1)`, `.TP` then its tag line, mdoc's `.Fl f` → `-f`,
a bare `.Nm` the page's name, and a macro the page defines its arguments when
its definition prints them: Tcl's `.QW word`).
Tables (`.TS`…`.TE`) keep their rows, cells apart by spaces; text blocks (`T{`…`T}`)
lose their marks, and `.T&`'s format lines go as the first ones do.
"""
from __future__ import annotations

import re
from typing import List, Optional, Sequence, Tuple

from ..config import Limits
from ..document import Document
from .encoding import decode_text, normalise_newlines
from .lines import Heading, headed_sections, split_lines
from .text import LONGEST_INLINE

Mark = Tuple[int, int, Heading]

_HEADER = re.compile(r"^\.(?:TH|Dd|Dt)(?:[ \t]|$)", re.MULTILINE)
_SECTION = re.compile(r"^\.(?:SH|Sh)(?:[ \t]|$)", re.MULTILINE)
# What a stub's `.so` names: a page file with its section (`man7/queue.7`, `git.1`,
# `foo.3pm`), so that a note reading `.so what` is not taken for one.
_SO_TARGET = re.compile(r"(?:[\w.+-]+/)*[\w.+-]+\.[0-9n][\w]*(?:\.gz)?")
# Alternating-font macros: their arguments are joined without spaces.
_ALTERNATING = frozenset({"BR", "RB", "BI", "IB", "IR", "RI"})
# Macros whose arguments are shown as words.
_WORDS = frozenset({"B", "I", "SM", "SB", "OP", "Nm", "Nd", "Ar", "Pa",
                    "Cm", "Ic", "Va", "Ev", "Em", "Sy", "Li", "Ql", "Dq", "Sq", "Pq", "Xr",
                    "Dv", "Er", "Fn", "Fa", "Ft", "Fd", "Vt", "Tn", "Ux", "At", "Bx", "St",
                    "Lk", "Mt", "Ad", "An", "Cd", "Ms", "Ot", "Ap", "It", "Op", "D1", "Dl",
                    "Em", "No", "Ns", "Pf", "Qq", "Aq", "Bq", "Brq", "Ev", "Lb", "In"})
_MDOC_WORD = re.compile(r"^(?:[A-Z][a-z]{1,2}|D1|Dl)$")
# mdoc's delimiters, given as arguments of their own: `.Xr ftp 1 ,`, `.Pq Ar file )`.
_CLOSING = frozenset({".", ",", ":", ";", ")", "]", "?", "!"})
_OPENING = frozenset({"(", "["})
# mdoc requests that lay out lists and displays: nothing of theirs is shown.
_MDOC_LAYOUT = frozenset({"Bl", "El", "Bd", "Ed", "Pp", "Lp", "Bf", "Ef", "Bk", "Ek", "Rs", "Re",
                          "Os", "Dd", "Sx", "Oo", "Oc", "Ns", "Sm", "Db", "Ud"})
_ESCAPES = {
    "em": "\u2014", "en": "\u2013", "aq": "'", "dq": '"', "lq": "\u201c", "rq": "\u201d",
    "oq": "\u2018", "cq": "\u2019", "bu": "\u2022", "co": "\u00a9", "rg": "\u00ae",
    "tm": "\u2122", "mi": "-", "hy": "-", "pl": "+", "mu": "\u00d7", "di": "\u00f7",
    "de": "\u00b0", "ga": "`", "ha": "^", "ti": "~", "rs": "\\", "sl": "/", "ba": "|",
    "br": "|", "lh": "\u261c", "rh": "\u261e", "->": "\u2192", "<-": "\u2190", "<=": "\u2264",
    ">=": "\u2265", "!=": "\u2260", "==": "\u2261", "Fo": "\u00ab", "Fc": "\u00bb",
    "fo": "\u2039", "fc": "\u203a", "ss": "\u00df", "lB": "[", "rB": "]", "lC": "{", "rC": "}",
    "la": "\u27e8", "ra": "\u27e9", "at": "@", "sh": "#", "Do": "$", "ct": "\u00a2",
    "Eu": "\u20ac", "Po": "\u00a3", "Ye": "\u00a5", "ua": "\u2191", "da": "\u2193",
}
# Strings of the predefined kind (`\*(Aq` in DocBook-made pages, `\*(lq`).
_STRINGS = {"Aq": "'", "lq": "\u201c", "rq": "\u201d", "R": "\u00ae", "Tm": "\u2122"}
# A bracketed name ends at the next backslash too: else every `\f[` of a line
# without `]` would scan the rest of it (time quadratic in the line).
_ESCAPE = re.compile(
    r"\\(?:f(?:\[[^\]\\]*\]|\(..|.)"         # fonts \fB \f(CW \f[B]
    r"|s[-+]?(?:\d|\(\d\d|\[\d+\])"          # sizes \s-1 \s0
    r"|\((..)|\[([^\]\s]{1,20})\]"           # characters \(em \[em]
    r"|\*(?:\((..)|\[([^\]\s]{1,20})\]|(.))"  # strings \*(Aq \*[Aq] \*R
    r"|[nkgmMFVY](?:\(..|\[[^\]\\]*\]|.)"   # registers \n(.g, colours \m[blue] (DocBook's links)
    r"|[hvwlLDxoXZbN]'[^']*'"               # motions and drawing \h'1m'
    r"|(.))")                                # one character: \- \e \& \| \^ \  \~ \c


def source_link(text: str) -> Optional[str]:
    """The page a manual-page stub stands for (`.so man7/queue.7`, the whole of `queue.3`), else None.

    Such a stub only tells `man` to show another page under a second name;
    it has no words of its own, and the page it names is indexed as itself.
    """
    if len(text) > 4096:
        return None
    lines = [line.strip() for line in text.splitlines()]
    requests = [line for line in lines if line and not line.startswith(('.\\"', "'\\\""))]
    if len(requests) != 1:
        return None
    parts = requests[0].split()
    if len(parts) == 2 and parts[0] == ".so" and _SO_TARGET.fullmatch(parts[1]):
        return parts[1]
    return None


def looks_like_roff(text: str) -> bool:
    """A manual page: a page header (`.TH`, mdoc's `.Dd`/`.Dt`) and a `.SH` (`.Sh`) section."""
    head = text[:65_536]
    return bool(_HEADER.search(head[:8192]) and _SECTION.search(head))


def read_roff(data: bytes, limits: Limits) -> Document:
    """A manual page: `.TH` is the title, `.SH`/`.SS` headings make sections under it."""
    lines = split_lines(normalise_newlines(decode_text(data)))
    title, marks, body = _parse(lines)
    spelled = _spelled_as_named(title, marks, body)
    if spelled != title:
        marks = [(start, after, (spelled,) + heading[1:] if heading[:1] == (title,) else heading)
                 for start, after, heading in marks]
        title = spelled
    return Document(title=title, format="txt", sections=headed_sections(marks, body))


def _spelled_as_named(title: str, marks: Sequence[Mark], body: Sequence[str]) -> str:
    """The title with its name spelled as the NAME section spells it.

    `.TH` writes the name in capitals, which `_page_title` lowers (`GIT-RM` →
    `git-rm(1)`), but some names are capitals (`CURLOPT_TIMEOUT`,
    `SSL_CTX_new`): when the NAME section's first name is the title's name in
    other letter case (`CURLOPT_TIMEOUT \\- maximum time …`), it is taken as
    written there if it is an identifier (lower-case letters among the capitals,
    or words joined by `_` or `::`). A lone word in capitals (`AS \\- the
    portable GNU assembler`) is lowered still."""
    name, paren, section = title.partition("(")
    if not paren or name != name.lower():
        return title
    for k, (_, after, heading) in enumerate(marks):
        if heading[-1:] != ("NAME",) or len(heading) > 2:
            continue
        end = marks[k + 1][0] if k + 1 < len(marks) else len(body)
        first = next((line.strip() for line in body[after:end] if line.strip()), "")
        named = first.split(" - ", 1)[0].split(",", 1)[0].split()
        word = named[0] if named else ""
        if (word != name and word.lower() == name
                and (word != word.upper() or "_" in word or "::" in word)):
            return f"{word}({section}"
        return title
    return title


def _parse(lines: Sequence[str]) -> Tuple[str, List[Mark], List[str]]:
    title = ""
    marks: List[Mark] = []
    body: List[str] = []
    path: List[str] = []
    skip_to: Optional[str] = None     # inside a macro definition: the line that ends it
    table = 0                         # 1: a table's options and format lines, 2: its rows
    cell = "\t"                       # what parts a table's cells (tbl's `tab(:)` option)
    page = ""                         # mdoc: the name the first `.Nm` gives, which a bare `.Nm` shows
    defining = ""                     # the macro whose definition is being skipped
    showing: set = set()              # the page's own macros that print their arguments
    i = 0
    while i < len(lines):
        line = lines[i]
        if skip_to is not None:
            skip_to = None if "".join(line.split()) == skip_to else skip_to   # `.  .` ends too
            if defining and skip_to is not None and _prints_argument(line):
                showing.add(defining)
            body.append("")
            i += 1
            continue
        if table == 1:   # options and format lines end with a line ending in "."
            sep = re.search(r"tab\s*\((.)\)", line)
            cell = sep.group(1) if sep else cell
            table = 2 if line.rstrip().endswith(".") else 1
            body.append("")
            i += 1
            continue
        if line[:1] not in (".", "'") or len(line) > LONGEST_INLINE:
            if table and line.strip() in ("T{", "T}", "_", "=") :
                body.append("")
            elif table:
                body.append(_table_row(_inline(line), cell))
            else:
                body.append(_inline(line))
            i += 1
            continue
        name, args = _request(line)
        if name in ("TH", "Dt") and not title:
            title = _page_title(args)
            body.append("")
        elif name in ("SH", "Sh", "SS", "Ss"):
            level = 1 if name in ("SH", "Sh") else 2
            after = i + 1
            if not args and i + 1 < len(lines):   # `.SH` alone: the title is the next line
                args, after = [_inline(lines[i + 1]).strip()], i + 2
            text = " ".join(" ".join(_inline(a) for a in args).split())
            if text:
                del path[level - 1:]
                path.append(text)
                marks.append((i, after, ((title,) if title else ()) + tuple(path)))
            body.extend([""] * (after - i))
            i = after
            continue
        elif name in ("de", "de1", "am", "ig"):
            skip_to = ".." if name != "ig" or not args else "." + args[0]
            defining = args[0] if args and name != "ig" else ""
            body.append("")
        elif name == "TS":
            table, cell = 1, "\t"
            body.append("")
        elif name == "TE":
            table = 0
            body.append("")
        elif name == "T&" and table:   # new format lines for the rows below, up to one ending in "."
            table = 1
            body.append("")
        elif name == "IP":   # an indented paragraph's tag is its first argument
            body.append(_inline(args[0]) if args else "")
        elif name in _MDOC_LAYOUT:
            body.append("")
        elif name in _ALTERNATING:
            body.append("".join(_inline(a) for a in args))
        elif name in _WORDS or _MDOC_WORD.match(name or ""):
            if name == "Nm" and not page and args and not _MDOC_WORD.match(args[0]):
                page = _inline(args[0]) if any(c.isalnum() for c in args[0]) else ""
            body.append(_mdoc_words(name, args, page))
        elif name in showing and args:   # the page's own macro that prints what it is given
            body.append(_own_macro_words(args))
        else:   # any other request (.PP .TP .sp .nf .RS .if .ds .so …) shows nothing
            body.append("")
        i += 1
    return title, marks, body


# A conditional's head in a macro's body: `.ie '\\*(lq'"' `, `.if !"\\$2"" `, `.el \{\`.
_CONDITION = re.compile(r"""[.'][ \t]*(?:(?:ie|if)[ \t]+!?(?:(['"]).*?\1.*?\1|\S+)|el)[ \t]*(?:\\\{\\?)?[ \t]*""")


def _prints_argument(line: str) -> bool:
    """Whether a line of a macro's definition prints one of the macro's arguments:
    a text line (or a conditional's text) with `\\$1`…`\\$9`, `\\$*` or `\\$@`
    in it. Tcl's pages define `.QW` (`\\*(lq\\$1\\*(rq\\$2`, a quoted word)
    and `.AP` (`\\$1 \\fI\\$2\\fP (\\$3)`, a C argument) so; a request
    that only uses one (`.mc \\$1`, `.nr )A \\w'\\$1'u`) prints nothing."""
    if "\\$" not in line:
        return False
    head = _CONDITION.match(line)
    rest = line[head.end():] if head else line
    return bool(rest) and rest[0] not in ".'" and bool(re.search(r"\\\\\$[1-9*@]", rest))


def _own_macro_words(args: List[str]) -> str:
    """A call of the page's own macro as its arguments' words; a mark of punctuation
    given apart (`.QW a ),`) follows the word before it."""
    out: List[str] = []
    for arg in args:
        word = _inline(arg)
        if out and word and not any(c.isalnum() for c in word):
            out[-1] += word
        elif word:
            out.append(word)
    return " ".join(out)


def _table_row(text: str, cell: str) -> str:
    """A table's line, its cells apart by two spaces, without the marks of tbl's text
    blocks: a cell written over several lines opens with `T{` and closes on a line
    that starts with `T}`, so DocBook's tables read `T}:T{` between two cells. That
    line becomes ` | `, so that a row's cells stay one paragraph."""
    parts = text.split(cell)
    if not ("T{" in text or "T}" in text):
        return "  ".join(parts)
    marks = [p.strip() in ("T{", "T}") for p in parts]
    kept = [p for p, mark in zip(parts, marks) if not mark]
    if not kept:
        return "|" if len(parts) > 1 else ""
    return ("| " if marks[0] else "") + " | ".join(kept) + (" |" if marks[-1] else "")


def _request(line: str) -> Tuple[str, List[str]]:
    """A control line's request name and arguments (quoted arguments kept whole)."""
    rest = line[1:].lstrip(" \t")
    cut = rest.find('\\"')
    if cut >= 0:
        rest = rest[:cut]
    parts = rest.split(None, 1)
    if not parts:
        return "", []
    name = parts[0]
    args: List[str] = []
    text = parts[1] if len(parts) > 1 else ""
    for quoted, plain in re.findall(r'"((?:[^"]|"")*)"?|(\S+)', text):
        args.append(quoted.replace('""', '"') if quoted or not plain else plain)
    return name, args


def _page_title(args: List[str]) -> str:
    """`.TH GIT-RM 1` → `git-rm(1)` (a name in capitals is lowered, as `man` lists it)."""
    if not args:
        return ""
    name = _inline(args[0]).strip()
    if name.isupper():
        name = name.lower()
    section = _inline(args[1]).strip() if len(args) > 1 else ""
    return f"{name}({section})" if section else name


def _mdoc_words(name: str, args: List[str], page: str = "") -> str:
    """A macro line's words: `.B --force`, mdoc's `.Fl f Ar file` → `-f file`.

    In mdoc, `.Nm` with no name of its own shows the page's (the one the first
    `.Nm` gave: `.Nm` then *is a file transfer program* reads *sftp is a …*),
    `.Xr ftp 1` is `ftp(1)`, and a closing delimiter given apart (`.Xr ftp 1 ,`)
    follows the word before it, an opening one the word after it."""
    out: List[str] = []
    mdoc = bool(_MDOC_WORD.match(name))
    macro = name
    dash = name == "Fl"
    glue = False                      # an opening delimiter: the next word follows it
    words: List[str] = []             # the current macro's words (for `.Xr`)

    def emit(word: str) -> None:
        nonlocal glue
        if mdoc and word in _CLOSING and out:
            out[-1] += word
        elif glue and out:
            out[-1] += word
        else:
            out.append(word)
        glue = mdoc and word in _OPENING

    def end_macro() -> None:
        if macro == "Nm" and not words and page:
            emit(page)
        elif macro == "Xr" and len(words) == 2 and words[1][:1].isdigit():
            out[-2:] = [f"{words[0]}({words[1]})"]

    for arg in args:
        if _MDOC_WORD.match(arg) and name[:1].isupper() and name not in ("B", "I"):
            end_macro()
            macro, words = arg, []
            dash = arg == "Fl"
            continue
        word = _inline(arg)
        if mdoc and word in _CLOSING:
            end_macro()
            macro, words = "", []
            emit(word)
            continue
        word = ("-" + word) if dash else word
        words.append(word)
        emit(word)
        dash = False
    end_macro()
    if name == "Fl" and not args:
        out.append("-")
    return " ".join(out)


def _inline(text: str) -> str:
    """A text line without font escapes and comments; character escapes as characters."""
    if "\\" not in text:
        return text
    cut = text.find('\\"')
    if cut >= 0:
        text = text[:cut]
    return _ESCAPE.sub(_escape, text)


def _escape(match: "re.Match[str]") -> str:
    glyph = match.group(1) or match.group(2)
    if glyph:
        return _ESCAPES.get(glyph, "")
    string = match.group(3) or match.group(4) or match.group(5)
    if string:
        return _STRINGS.get(string, "")
    char = match.group(6)
    if char is None:
        return ""
    if char in "-e\\":
        return "-" if char == "-" else "\\"
    if char in " ~0":
        return " "
    return ""   # \& \| \^ \c \% \: and the like print nothing
