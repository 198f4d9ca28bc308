"""Lightweight markup: reStructuredText, Org and LaTeX, by their headings (AsciiDoc: asciidoc.py).

Each reader finds the headings; the text between them is kept line for line,
so sections know their first line. Org text stays as typed, LaTeX text
reads as its words (latextext.py); reStructuredText text loses the markup a reader never sees (roles,
targets, comments, directive names and options), each line in its place. Heading
levels follow each language's own rule: in reStructuredText the order in
which underline styles first appear, in Org the number of stars, in LaTeX the sectioning command.
"""
from __future__ import annotations

import re
from typing import Dict, List, Optional, Sequence, Tuple

from ..config import Limits
from ..document import Document
from .encoding import decode_text, normalise_newlines
from .lines import Heading, headed_sections, split_lines
from .latextext import heading_text, shown_lines
from .orgtext import org_inline, org_lines, outline_title
from .text import (LONGEST_INLINE as _LONGEST_INLINE, hold, numbered_reference, put_back, role_words,
                   summary_said, version_words)

Mark = Tuple[int, int, Heading]   # heading's first line, line after it, heading path

_RST_ADORN = re.compile(r"([!-/:-@\[-`{-~])\1+\s*$")
# Every pattern here is linear in a line's length, hostile lines included: text up
# to the trailing spaces is `(?:.*\S)?` (greedy), never a lazy `(.*?)\s*$` (which
# retries the spaces from each of their positions), and two `\s*` never meet
# around something optional.
_ORG_HEADING = re.compile(r"(\*+)\s+((?:.*\S)?)\s*$")
_ORG_TODO = re.compile(r"(?:TODO|DONE|NEXT|WAITING|CANCELLED|CANCELED)\s+(?:\[#[A-Z]\]\s+)?")
# A heading's tags `:work:urgent:` at its end, read backwards (from the end, a scan
# that fails costs only the last word, where a search would retry every space).
_ORG_TAGS_REVERSED = re.compile(r"\s*:[\w@#%:]+:\s+")
_ORG_TITLE = re.compile(r"#\+title:\s*((?:.*\S)?)\s*$", re.IGNORECASE)
_ORG_SUBTITLE = re.compile(r"[ \t]*#\+subtitle:[ \t]*((?:.*\S)?)\s*$", re.IGNORECASE)
_TEX_SECTION = re.compile(r"\s*\\(part|chapter|section|subsection|subsubsection|paragraph)\*?"
                          r"\s*(?:\[[^\]]*\]\s*)?\{")
_TEX_TITLE = re.compile(r"\\title\s*")
_SPACES = re.compile(r"\s*")
_TEX_LEVELS = {"part": 1, "chapter": 2, "section": 3, "subsection": 4, "subsubsection": 5,
               "paragraph": 6}


def _lines(data: bytes) -> List[str]:
    return split_lines(normalise_newlines(decode_text(data)))


class _Path:
    """A heading path kept by level."""

    def __init__(self) -> None:
        self.stack: List[Tuple[int, str]] = []

    def push(self, level: int, text: str) -> Heading:
        while self.stack and self.stack[-1][0] >= level:
            self.stack.pop()
        self.stack.append((level, text))
        return tuple(t for _, t in self.stack)


def read_rst(data: bytes, limits: Limits) -> Document:
    """reStructuredText: underlined (and overlined) titles start sections."""
    lines = _lines(data)
    styles: Dict[Tuple[str, bool], int] = {}
    path = _Path()
    marks: List[Mark] = []
    title = ""
    literal_indent: Optional[int] = None
    targets = rst_targets(lines)
    i = 0
    while i < len(lines) - 1:
        line = lines[i]
        if literal_indent is not None:   # inside a `::` literal block or directive body
            if line.strip() and len(line) - len(line.lstrip()) <= literal_indent:
                literal_indent = None
            else:
                i += 1
                continue
        found = _rst_title(lines, i)
        if found is None:
            if line.rstrip().endswith("::") or line.lstrip().startswith(".. "):
                literal_indent = len(line) - len(line.lstrip())
            i += 1
            continue
        text, style, after = found
        text = rst_plain(text, targets) or text
        level = styles.setdefault(style, len(styles) + 1)
        marks.append((i, after, path.push(level, text)))
        title = title or text
        i = after
    return Document(title=title, format="rst", sections=headed_sections(marks, rst_body(lines, targets)))


# Explicit markup only reStructuredText writes at a line's start: a directive
# (`.. code-block:: bash`, `.. note::`), a hyperlink target (`.. _label:`).
_RST_EXPLICIT_MARKUP = re.compile(r"^\.\.[ \t]+(?:[\w:.+-]+::|_[^:\n`]+:|_`[^`\n]+`:)", re.MULTILINE)
_RST_ROLE_USE = re.compile(r":[a-z]+(?::[a-z]+)?:`[^`\n]+`")
_RST_SNIFF_CHARS = 65_536
# Words set apart in columns (three spaces or a tab between two of them): the header
# row of a program's output or a table pasted into plain text, whose rule of `=`
# under it is the table's, as chrony's FAQ shows `chronyc sources` (`MS Name/IP
# address         Stratum Poll Reach…` over 79 `=`). A title has its words one
# space apart, so for the sniff such a line over a rule is no title.
_COLUMN_GAP = re.compile(r"\S(?: {3,}|\t)\S")


def looks_like_rst(text: str) -> bool:
    """Whether text that came as `.txt` (or with no extension) is reStructuredText, as
    Django's documentation and the snippets other Sphinx sites include are. Two
    marks make it so: a line of explicit markup (`.. code-block:: bash`, `.. _label:`)
    is one, a role (``:ref:`label` ``) one, a title underlined as wide as its words
    one, and a title both overlined and underlined two (a page of Django's release
    notes has that title and nothing else of the language). Plain notes hardly ever
    start a line with `.. word::` or put a title between two rules; one title
    underlined (`Notes` over `=====`) alone stays plain text, two are headings
    a reader of plain text would lose."""
    text = text[:_RST_SNIFF_CHARS]
    marks = 0
    for _ in _RST_EXPLICIT_MARKUP.finditer(text):
        marks += 1
        if marks >= 2:
            return True
    if _RST_ROLE_USE.search(text) is not None:
        marks += 1
    return marks + _rst_title_marks(text, 2 - marks) >= 2


def _rst_title_marks(text: str, wanted: int) -> int:
    """Up to `wanted` marks from titles (an overlined one counts two): for the sniff, a
    title's rules are at least as wide as its words (docutils' own rule)."""
    if wanted <= 0:
        return 0
    lines = text.split("\n")
    marks = 0
    for i in range(1, len(lines) - 1):
        if not _RST_ADORN.match(lines[i]):
            continue
        words = lines[i - 1].strip()
        if not words or _RST_ADORN.match(lines[i - 1]) or len(lines[i].rstrip()) < len(words):
            continue
        if _COLUMN_GAP.search(words):
            continue     # a table's header row over its rule, not a title
        if i >= 2 and lines[i - 2].strip() and lines[i - 2].rstrip() == lines[i].rstrip():
            marks += 2   # overlined: the same rule above and below
        elif lines[i - 1][0] in " \t" or (i >= 2 and lines[i - 2].strip()):
            continue     # indented, or a paragraph's last line over a rule
        else:
            marks += 1
        if marks >= wanted:
            break
    return marks


def _rst_title(lines: Sequence[str], i: int) -> Optional[Tuple[str, Tuple[str, bool], int]]:
    """(title, (adornment character, overlined), line after) for a title at line i."""
    line = lines[i]
    over = _RST_ADORN.match(line)
    if over and i + 2 < len(lines) and lines[i + 1].strip():
        under = _RST_ADORN.match(lines[i + 2])
        text = lines[i + 1].strip()
        if under and under.group(1) == over.group(1) and len(line.rstrip()) >= len(text) \
                and not _RST_ADORN.match(lines[i + 1]):
            return text, (over.group(1), True), i + 3
    if not line.strip() or line[0] in " \t" or _RST_ADORN.match(line):
        return None
    if i > 0 and lines[i - 1].strip():
        return None   # a title follows a blank line (or starts the file)
    under = _RST_ADORN.match(lines[i + 1])
    text = line.strip()
    width = len(lines[i + 1].rstrip())
    if under and width >= 3 and width >= len(text) // 2:   # docutils wants >= len(text)
        return text, (under.group(1), False), i + 2
    return None


_RST_REF = re.compile(r"`([^`<]*)(?:<[^>`]*>`_{0,2}|`_{1,2})")


def rst_plain(text: str, targets: frozenset = frozenset()) -> str:
    """A title's words without roles, references, backquotes and emphasis markers."""
    text = _rst_inline(_simple_references(text, targets))
    text = re.sub(r"(?<!\w)[*`]+|[*`]+(?!\w)", "", text)
    return " ".join(text.split())


_RST_DIRECTIVE = re.compile(r"^(\s*)\.\.[ \t]+(?:\|[^|]+\|[ \t]+)?([\w:.+-]+)[ \t]*::"
                            r"(?:[ \t]+((?:.*[^ \t])?))?[ \t]*$")
_RST_EXPLICIT = re.compile(r"^(\s*)\.\.(?:[ \t]+(.*))?$")
_RST_FOOTNOTE = re.compile(r"\[(?:#?[\w-]*|\*|\d+)\][ \t]+(.*)$")
_RST_OPTION = re.compile(r"^[ \t]+:([\w -]+):(?:[ \t]+((?:.*[^ \t])?))?[ \t]*$")
_RST_ANONYMOUS_TARGET = re.compile(r"^\s*__[ \t]+\S+\s*$")
# Directives whose argument and body are not text a reader sees (code is kept).
_RST_HIDDEN = frozenset({"toctree", "contents", "include", "image", "raw", "index", "meta",
                         "highlight", "sectnum", "tabularcolumns", "role", "default-role",
                         "title", "header", "footer", "currentmodule", "module"})
_RST_CODE = frozenset({"code", "code-block", "sourcecode", "literalinclude", "doctest",
                       "testcode", "testoutput", "parsed-literal", "productionlist", "math", "prompt",
                       "code-tab", "ipython", "jupyter-execute", "console"})
_RST_SHOWN_OPTIONS = frozenset({"caption", "alt"})
# Directives whose argument is no words (a build tag, a class name, a figure's image file)
# but whose body is text (a figure's caption and legend, the names an autosummary
# table lists: `zeros`, `zeros_like`, which the built page shows).
_RST_BARE = frozenset({"figure", "autosummary", "only", "ifconfig", "container", "class", "rst-class", "cssclass"})
# Sphinx page metadata (never shown): `:orphan:`, `:tocdepth: 2`, `:og:title: …`.
_RST_METADATA = re.compile(r"^:(?:orphan|tocdepth|nocomments|nosearch|hide-toc|og:[\w:-]+):(?:[ \t].*)?$")
_RST_LITERAL = re.compile(r"``([^`]+)``")


# A table's rules: a grid table's `+-----+----+` (`+=====+` under its header) and a
# simple table's `=====  =====` (`-----  -----` spanning columns): never shown as typed.
_RST_TABLE_RULE = re.compile(r"[ \t]*(?:\+(?:-+\+)+|\+(?:=+\+)+|={2,}(?:[ \t]+={2,})+|-{2,}(?:[ \t]+-{2,})+)[ \t]*$")
# A grid table's row `| cell | cell |`; a line block (`| words`) has no closing bar.
_RST_GRID_ROW = re.compile(r"[ \t]*\|.*\|$")
# A hyperlink target's name: `.. _CSV: https://…`, `.. _`Two words`: …`.
_RST_TARGET_NAME = re.compile(r"[ \t]*\.\.[ \t]+_(?:`([^`]+)`|([^:`\s][^:`]*)):")
# A simple reference `Doxygen_` (`name__` when anonymous): one word, no backquotes,
# any script (`Übersicht_`); an inline literal (``x = Doxygen_``) is matched first and kept.
_RST_SIMPLE_REF = re.compile(r"(``[^`]+``)|(?<![\w`.+-])([^\W_](?:[\w.+-]*[^\W_])?)__?(?!\w)")


# A list item's marker and the spaces after it (`* `, `#. `, `3) `, `(a) `): its text,
# and a literal block it introduces, start in the column after.
_RST_LIST_ITEM = re.compile(r"[ \t]*(?:[-*+•]|(?:\d{1,9}|#|[A-Za-z])[.)]|\((?:\d{1,9}|#|[A-Za-z])\))[ \t]+(?=\S)")


def rst_targets(lines: Sequence[str]) -> frozenset:
    """The names of the document's hyperlink targets, lower case."""
    names = set()
    for line in lines:
        if line.lstrip(" \t").startswith(".. _"):
            found = _RST_TARGET_NAME.match(line)
            if found:
                names.add(" ".join((found.group(1) or found.group(2)).lower().split()))
    return frozenset(names)


def _simple_references(text: str, targets: frozenset) -> str:
    """`Doxygen_` as `Doxygen` where the document defines that target: a word that
    merely ends in an underscore (`class_`) stays."""
    if not targets or "_" not in text:
        return text
    return _RST_SIMPLE_REF.sub(lambda m: m.group(2) if m.group(2) and m.group(2).lower() in targets
                               else m.group(0), text)


def rst_body(lines: Sequence[str], targets: frozenset = frozenset()) -> List[str]:
    """The lines as a reader sees them: same count, markup reduced to words.

    Comments, hyperlink targets, substitution definitions and the bodies of
    table-of-contents, raw and include-like directives become blank lines; a
    directive line keeps only its argument when that is words (`.. note::`
    becomes blank, `.. versionadded:: 3.2` becomes `New in version 3.2`, `.. code-block::
    python` becomes blank) and its options vanish. Literal blocks are kept as
    typed; elsewhere roles, references and ``literal`` markers are dropped.
    """
    out: List[str] = []
    hide_above: Optional[int] = None    # lines indented more than this are hidden
    keep_above: Optional[int] = None    # … are kept as typed (literal blocks, code)
    options = False                     # just after a directive line: its options
    option_indent: Optional[int] = None # an option's indent: deeper lines continue its value
    option_shown = False                # … and whether that value is shown
    prose: List[int] = []               # indexes of plain text lines, cleaned at the end
    numbers: Dict[int, int] = {}        # an auto-numbered list's count so far, by indent
    for k, line in enumerate(lines):
        indent = len(line) - len(line.lstrip())
        if line.strip():
            if hide_above is not None and indent > hide_above:
                out.append("")
                continue
            option = _shown_option(line, indent) if options else None
            if option is not None:
                out.append(option)
                option_indent, option_shown = indent, bool(option)
                continue
            if options and option_indent is not None and indent > option_indent:
                out.append(line.rstrip() if option_shown else "")   # a value that wraps
                continue
            option_indent = None
            options = False
            if keep_above is not None and indent > keep_above:
                out.append(line)
                continue
            hide_above = keep_above = None
        elif options:
            options, option_indent = False, None
        if not line.strip():
            out.append(line)
            continue
        for deeper in [k for k in numbers if k >= indent]:   # a line as far left ends a list
            if not (deeper == indent and line[indent:indent + 2] == "#."):
                del numbers[deeper]
        directive = _RST_DIRECTIVE.match(line)
        if directive:
            name = directive.group(2).lower().split(":")[-1]
            argument = directive.group(3) or ""
            options = True
            if name in _RST_HIDDEN or line.lstrip().startswith(".. |"):
                hide_above, argument = indent, ""
            elif name in _RST_CODE:
                keep_above = indent
                argument = ""
            elif name in _RST_BARE or argument and _titles_next(lines, k, argument):
                argument = ""   # a label for the title below (`.. setting:: DEBUG` over `DEBUG`)
            else:
                argument = version_words(name, argument)
            if argument:   # read with the lines below it: a role may run onto them
                prose.append(len(out))
            out.append(" " * indent + argument if argument else "")
            continue
        explicit = _RST_EXPLICIT.match(line)
        if explicit:
            rest = explicit.group(2) or ""
            footnote = _RST_FOOTNOTE.match(rest)
            if footnote:
                out.append(" " * indent + _rst_inline(footnote.group(1)))
                continue
            hide_above = indent   # a comment, a target or a substitution: never shown
            out.append("")
            continue
        if _RST_ANONYMOUS_TARGET.match(line) or _RST_METADATA.match(line) or _RST_TABLE_RULE.match(line):
            out.append("")
            continue
        text = line.rstrip()
        if text[indent:indent + 2] == "#." and text[indent + 2:indent + 3] in (" ", "\t", ""):
            numbers[indent] = numbers.get(indent, 0) + 1   # an auto-numbered item: `#.` is `3.` shown
            text = f"{text[:indent]}{numbers[indent]}.{text[indent + 2:]}"
        if text.endswith("|") and _RST_GRID_ROW.match(text):   # a grid table's row: its cells
            cells = [cell.strip() for cell in text.strip()[1:-1].split("|")]
            text = " " * indent + " | ".join(cell for cell in cells if cell)
        if text.endswith("::"):
            item = _RST_LIST_ITEM.match(line)   # `#. Run the command::`: the block is the item's
            keep_above = item.end() if item else indent
            text = text[:-2].rstrip()
            text = text + ":" if text and not text.endswith(" ") and text[-1:].isalnum() else text
        prose.append(len(out))
        out.append(text)
    return _clean_prose(out, prose, targets)


def _titles_next(lines: Sequence[str], k: int, argument: str) -> bool:
    """Whether the first line after line k that is not blank starts a title of the
    directive's argument: a directive that only labels a section (Django's
    `.. setting:: DEBUG`, `.. templatetag:: for`, which index and link to the
    title and show nothing), whose argument read as a line would end the
    section before."""
    j = k + 1
    while j < len(lines) and j <= k + 3 and not lines[j].strip():
        j += 1
    found = _rst_title(lines, j) if j < len(lines) - 1 else None
    return found is not None and rst_plain(found[0]) == rst_plain(argument)


def _shown_option(line: str, indent: int) -> Optional[str]:
    """A directive's option line as shown (a caption's or alt text's words, else
    blank), or None when the line is no option."""
    option = _RST_OPTION.match(line)
    if not option:
        return None
    shown = option.group(1).strip() in _RST_SHOWN_OPTIONS and option.group(2)
    return " " * indent + option.group(2) if shown else ""


def _clean_prose(out: List[str], prose: List[int], targets: frozenset = frozenset()) -> List[str]:
    """Clean each run of consecutive prose lines as one text: a role may wrap."""
    start = 0
    while start < len(prose):
        end = start + 1
        while end < len(prose) and prose[end] == prose[end - 1] + 1:
            end += 1
        first, last = prose[start], prose[end - 1]
        run = _simple_references("\n".join(out[first:last + 1]), targets)
        cleaned = _rst_inline(run).split("\n") if len(run) <= _LONGEST_INLINE else []
        if len(cleaned) == last + 1 - first:   # always, as the substitutions keep line breaks
            out[first:last + 1] = cleaned
        else:   # a huge run: line by line (a role wrapped in it stays as typed)
            out[first:last + 1] = [_rst_inline(_simple_references(line, targets))
                                   for line in out[first:last + 1]]
        start = end
    return out


def rst_inline(text: str) -> str:
    """One line of reStructuredText as a reader sees it (roles, references and
    ``literal`` markers dropped): for reStructuredText held elsewhere, such as
    the messages of a Sphinx site's translation catalogs."""
    return _rst_inline(text)


def _rst_inline(text: str) -> str:
    """A line's words without roles, references, interpreted text and ``literal`` markers;
    a backslash escape (`ansible\\_`, `\\*.yml`) reads as its character, outside literals."""
    if len(text) > _LONGEST_INLINE:   # a huge line is no prose: as typed
        return text
    held: List[str] = []
    if "\\" in text:   # held apart, so that an escaped character is never markup
        text = _RST_ESCAPE.sub(lambda m: m.group(0) if m.group(1) is None
                            else hold(held, "" if m.group(1) == " " else m.group(1)), text)
    if "|" in text:   # a substitution (`|django-users|`, `|name|_`): the page shows its
        text = _RST_SUBSTITUTION.sub(r"\1", text)   # replacement, known elsewhere: its name
    if "]_" in text:   # a footnote or citation reference `[1]_` shows as `[1]`; an auto-numbered one as nothing
        text = _RST_FOOTNOTE_REF.sub(r"[\1]", _RST_AUTO_FOOTNOTE_REF.sub("", text))
    if "`" in text:
        text = _RST_LITERAL.sub(r"\1", text)
        text = _RST_ROLE_FULL.sub(lambda m: m.group(0) if m.group(1) is None
                                  else _keep_breaks(m, _role_shown(m)), text)
        text = _RST_REF.sub(lambda m: _keep_breaks(m, m.group(1).rstrip()), text)
        text = _RST_INTERPRETED.sub(lambda m: role_words(m.group(1)), text)   # Sphinx's default role
    return put_back(text, held)


# A footnote reference `[1]_` or a citation reference `[CIT2002]_`; an auto-numbered one
# (`[#]_`, `[#note]_`, `[*]_`), whose number only the built page knows, with the space before it.
_RST_FOOTNOTE_REF = re.compile(r"(?<![\w\]])\[(\d+|[A-Za-z][\w.-]*)\]_(?!\w)")
_RST_AUTO_FOOTNOTE_REF = re.compile(r"(?:(?<![ \t])[ \t]+|^)\[(?:#[\w-]*|\*)\]_(?!\w)", re.MULTILINE)
# A backslash escape (an escaped space is nothing), after any ``literal`` it is not in.
_RST_ESCAPE = re.compile(r"``[^`]+``|\\([^\n])")


# `words` with no role (the default role: emphasis, or code in many Sphinx projects).
_RST_INTERPRETED = re.compile(r"(?<![\w`])`([^`\s](?:[^`]*[^`\s])?)`(?![\w`_])")
# |name| (|name|_ when also a link): a substitution, shown as its name. No space
# inside either bar, none of the name's own characters around it (`a|b|c`, `| x |`).
_RST_SUBSTITUTION = re.compile(r"(?<![\w|])\|([^|\s](?:[^|\n]*[^|\s])?)\|(?:_{1,2})?(?![\w|])")


def _role_shown(match: "re.Match[str]") -> str:
    """What a role shows. A cross-reference with no words of its own (`:ref:`intro_adhoc``,
    `:doc:`../guide/first_steps``) shows its target's title, which only the built site
    knows: its label's words stand in (`intro adhoc`, `first steps`); a label
    in capitals (`ANSIBLE_SSH_RETRIES`, a setting's name) stays as typed."""
    content = match.group(1)
    words = role_words(content)
    name = match.group(0)[1:match.group(0).find(":`")].rsplit(":", 1)[-1]
    cited = numbered_reference(name, content)
    if cited:
        return cited   # `:pep:`8`` shows as PEP 8
    if name not in ("ref", "doc") or words != content.lstrip("~!."):
        return words
    label = content.strip().rstrip("/").rsplit("/", 1)[-1] if name == "doc" else content.strip()
    if not label or label != label.lower() or " " in label:
        return words
    shown = " ".join(label.replace("_", " ").replace("-", " ").split())
    return shown or words


def _keep_breaks(match: "re.Match[str]", words: str) -> str:
    """`words` for the matched markup, with as many line breaks as it spanned."""
    return words + "\n" * (match.group(0).count("\n") - words.count("\n"))


# A role; the second alternative takes a chain of `:name` that is none whole, as every
# later `:` of the chain would fail the same way (trying each is quadratic in it).
_RST_ROLE_FULL = re.compile(r":[\w.+-]+(?::[\w.+-]+)*:`([^`]+)`|:[\w.+-]+(?::[\w.+-]+)*")


def read_org(data: bytes, limits: Limits) -> Document:
    """Org: `*` headings (their level is the number of stars); `#+TITLE:` is the title."""
    lines = _lines(data)
    path = _Path()
    marks: List[Mark] = []
    title = ""
    subtitle: Optional[Tuple[int, str]] = None
    in_block = False
    for i, line in enumerate(lines):
        low = line.lstrip().lower()
        if low.startswith("#+begin_"):
            in_block = True
        elif low.startswith("#+end_"):
            in_block = False
        if in_block:
            continue
        m = _ORG_TITLE.match(line)
        if m and not title:
            title = m.group(1)
            continue
        m = _ORG_SUBTITLE.match(line) if subtitle is None and low.startswith("#+subtitle:") else None
        if m:   # the summary the exported page shows under its title
            subtitle = (i, m.group(1))
            continue
        m = _ORG_HEADING.match(line)
        if m and m.group(2):
            text = _org_untagged(_ORG_TODO.sub("", m.group(2), count=1)).strip()
            text = org_inline(text).strip()
            if text:
                marks.append((i, i + 1, path.push(len(m.group(1)), text)))
    shown = org_lines(lines)
    if subtitle is not None:
        shown[subtitle[0]] = org_inline(subtitle[1])
        if summary_said(shown, subtitle[0], title):
            shown[subtitle[0]] = ""
    return Document(title=title, format="org", sections=headed_sections(marks, shown))


_OUTLINE_HEADING = re.compile(r"(\*+)[ \t]+(\S(?:.*\S)?)[ \t]*$")


def read_outline(data: bytes, limits: Limits) -> Document:
    """Emacs Outline mode, as GNU's NEWS files are written: a line of `*` at its
    start heads a section (its level the number of stars), the rest is plain text
    kept as typed. The first line's words before its mode line are the title, held
    apart from the text, and the mode line itself (`-*- outline -*-`) is no text."""
    lines = _lines(data)
    title = (outline_title(lines[0]) or "") if lines else ""
    shown = ["", *lines[1:]] if lines else lines   # the first line: the title, held apart
    path = _Path()
    marks: List[Mark] = []
    for i, line in enumerate(shown):
        m = _OUTLINE_HEADING.match(line) if line.startswith("*") else None
        if m:
            marks.append((i, i + 1, path.push(len(m.group(1)), m.group(2))))
    return Document(title=title, format="txt", sections=headed_sections(marks, shown))


def _org_untagged(text: str) -> str:
    """A heading's text without its tags (`Plan :work:urgent:`)."""
    tags = _ORG_TAGS_REVERSED.match(text[::-1]) if text.rstrip().endswith(":") else None
    return text[:len(text) - tags.end()] if tags else text


def read_latex(data: bytes, limits: Limits) -> Document:
    """LaTeX: `\\part` to `\\paragraph` start sections; `\\title{…}` is the title."""
    lines = _lines(data)
    path = _Path()
    marks: List[Mark] = []
    titles: Dict[int, str] = {}
    title = ""
    for i, line in enumerate(lines):
        if line.lstrip().startswith("%"):
            continue
        if not title and "\\title" in line:
            start = _tex_title(line)
            if start is not None:
                title = tex_plain(_braced(lines, i, start))
        m = _TEX_SECTION.match(line)
        if m:
            text = tex_plain(_braced(lines, i, m.end()))
            if text:
                marks.append((i, i + 1, path.push(_TEX_LEVELS[m.group(1)], text)))
                titles[i] = text
    return Document(title=title, format="tex", sections=headed_sections(marks, shown_lines(lines, titles)))


def _tex_title(line: str) -> Optional[int]:
    """Where the text of the line's first `\\title{…}` or `\\title[short]{…}` starts.

    Every `\\title[` up to a `]` that no `{` follows fails the same way, so the
    `]` is looked for once, not once per `\\title[` (quadratic on a run of them).
    """
    failed_until = -1   # a `[` before this `]` opens no title
    pos = line.find("\\title")
    while pos >= 0:
        after = _TEX_TITLE.match(line, pos).end()
        if line.startswith("{", after):
            return after + 1
        if line.startswith("[", after) and after > failed_until:
            close = line.find("]", after)
            if close < 0:
                failed_until = len(line)
            else:
                brace = _SPACES.match(line, close + 1).end()
                if line.startswith("{", brace):
                    return brace + 1
                failed_until = close
        pos = line.find("\\title", pos + 1)
    return None


def _braced(lines: Sequence[str], i: int, pos: int) -> str:
    """The text up to the brace that closes the one before `pos` (at most 5 lines on)."""
    depth, out = 1, []
    for line in lines[i:i + 5]:
        while pos < len(line):
            ch = line[pos]
            if ch == "\\" and pos + 1 < len(line):
                out.append(line[pos:pos + 2])
                pos += 2
                continue
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
                if depth == 0:
                    return "".join(out)
            out.append(ch)
            pos += 1
        out.append(" ")
        pos = 0
    return "".join(out)


def tex_plain(text: str) -> str:
    """A heading's words as the page shows them (latextext.tex_text), on one line."""
    return heading_text(text)
