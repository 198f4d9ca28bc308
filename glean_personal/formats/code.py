"""Source code, cut into one section per definition, with exact line numbers.

Python is read through `ast`: the module's own lines (docstring, imports,
constants) come first, then one section per top-level function and class;
a class's methods are sections of their own, headed `Parser.parse`.
Decorators and the comment lines right above a definition belong to it.

Other languages use a small table each: what starts a definition (a regular
expression on a line), which definitions hold members (classes, `impl`
blocks), and how a definition ends (its braces close, a `;`, or an `end` at
its own indentation). Braces inside strings and comments are not counted.
What no pattern recognises stays in sections of its own, which passages cut
at blank lines and, when long, at line ends. Sections keep the file's lines
one to one, so every section knows its first line.
"""
from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import List, Optional, Pattern, Sequence, Tuple

from ..config import Limits
from ..document import Document
from ..errors import SkipFile
from .encoding import decode_text, normalise_newlines
from .lines import Heading, Span, line_sections, refuse_minified, split_lines
from .pod import pod_lines, pod_sections, split_sections

# A region: (first line, end line) 0-based half-open, its heading, its members.
Region = Tuple[int, int, Heading, list]

_MAX_SIGNATURE_LINES = 12   # a definition's `{` must come this soon after its first line
_MAX_NESTING = 4            # containers inside containers scanned this deep
# A definition's name is cut here: each member's heading repeats its container's name,
# and a class named by 1,000,000 letters over 20,000 methods built 20 GB of headings.
_MAX_NAME_CHARS = 200
_MAX_DEFINITION_LINE = 400  # longer lines are never taken for a definition's first line
_MAX_SCANNED_LINE = 10_000  # longer (minified) lines: braces counted without skipping strings
_MAX_DOC_LINES = 200        # a doc comment a blank line above a definition is looked for this far


def read_code(data: bytes, limits: Limits, fmt: str) -> Document:
    """Any language in LANGUAGES (Python through `ast`, others by table)."""
    text = normalise_newlines(decode_text(data))
    lines = split_lines(text)
    refuse_minified(lines)
    if fmt == "js" and _SEARCH_DATA.match(text):
        raise SkipFile("a documentation generator's search index (Doxygen's search data)")
    if fmt == "js" and _navigation_data(text):
        raise SkipFile("a help viewer's navigation data (the links of its table of contents "
                       "or index, to the pages beside it)")
    warnings: List[str] = []
    spans: Optional[List[Span]] = None
    if fmt == "py":
        spans, why = python_spans(text, lines)
        if spans is None:
            warnings.append(f"Python not parsed ({why}): definitions found by indentation")
    pod = pod_lines(lines) if fmt == "pl" else None
    if pod is not None and any(pod):
        # Perl's documentation inside the code: read as POD; the scanner sees only code.
        code = [("" if in_pod else line) for line, in_pod in zip(lines, pod)]
        sections = split_sections(line_sections(table_spans(code, LANGUAGES["pl"]), code), pod, False)
        title, documented = pod_sections(lines, pod)
        sections = sorted(sections + documented, key=lambda sec: sec.first_line or 0)
        return Document(title=title, format=fmt, sections=sections, warnings=warnings)
    if spans is None:
        lang = LANGUAGES.get(fmt)
        spans = table_spans(lines, lang) if lang else [((), 0, len(lines))]
    return Document(title=header_title(lines), format=fmt, sections=line_sections(spans, lines),
                    warnings=warnings)


# A program's first comment naming it, then what it does, the GNU way (`# wordfreq.awk
# --- print list of word frequencies`, `# shell_quote --- quote an argument`, Emacs
# Lisp's `;;; subr.el --- basic functions`), or a file's name then `--` or a dash
# (`# backup.sh - copy the notes to the disk`; not `# TODO - fix`).
_HEADER = re.compile(r"(?:#+|//+|;+|--|/\*+|%+)\s*(?:([\w.+-]{2,60})\s+---|"
                     r"([\w+-]+\.[A-Za-z]\w{0,5})\s+(?:--|-|\u2014|\u2013))\s+"
                     r"(\w.{2,150}?)\s*(?:\*/)?\s*$")
_MODE_LINE = re.compile(r"-\*-.*?-\*-")
_MAX_HEADER_CHARS = 300    # a longer first line is no header (and is never scanned whole)


def header_title(lines: Sequence[str]) -> str:
    """`name — what it does`, from a header comment on the file's first line (after a
    `#!` line), or "": a code file's title is otherwise its name, which says less."""
    first = next((line for line in lines[:2] if line.strip() and not line.startswith("#!")), "")
    if len(first) > _MAX_HEADER_CHARS:
        return ""
    found = _HEADER.match(_MODE_LINE.sub("", first).strip())
    if not found:
        return ""
    return f"{found.group(1) or found.group(2)} \u2014 {found.group(3)}"


# Doxygen's search engine data, one entry a line, so not minified: `search/all_8.js`
# (`var searchData=[['mdb_5fenv_5fopen',['mdb_env_open',['../group__mdb.html#…` per
# symbol, 55 of LMDB's 167 files) and the tree view's `navtreeindex0.js`. Kept,
# they came before the pages for a symbol's name.
_SEARCH_DATA = re.compile(r"\s*var\s+(?:searchData|NAVTREEINDEX[0-9]+)\s*=\s*[\[{]")


# A help viewer's table of contents or keyword index written as a script, one link to a
# page a line: LibreOffice's `bookmarks.js` (`{url:"en-US/text/…/calculate.html?…",
# text:"= -- in Writer tables"}`, 6,700 lines) and `contents.js` (`<li><a href="…html">`),
# Doxygen's `menudata.js` and its tree view's data, one file a page (`blob_8c.js`:
# `[ "AttachBlob", "blob_8c.html#a…", null ]`). They hold the pages' titles and
# links, no sentence, and the keyword index matched many questions. Such a script is
# one whose lines with words (outside comments) name an `.html` page at least half
# the time; a script's code (Doxygen's `navtree.js`, Sphinx's `doctools.js`, jQuery)
# does at most a fifth of the time.
#
# Comments, found in one pass: a pattern of `/\*.*?\*/` looked for the end of every
# unclosed `/*` again, and `^\s*//` rescanned every run of blank lines (100 KB of
# blank lines cost 9 CPU s). Once a `/*` has no end, no later one has, and only
# line comments are left out after it.
_COMMENTS = re.compile(r"/\*.*?(?:\*/|\Z)|^[ \t]*//[^\n]*", re.DOTALL | re.MULTILINE)
_LINE_COMMENTS = re.compile(r"^[ \t]*//[^\n]*", re.MULTILINE)
_WORD = re.compile(r"\w")


def _navigation_data(text: str) -> bool:
    """Whether a script is mostly links to pages (see above)."""
    if ".html" not in text:
        return False
    lines = [line for line in _uncommented(text).split("\n") if _WORD.search(line)]
    return bool(lines) and 2 * sum(".html" in line for line in lines) >= len(lines)


def _uncommented(text: str) -> str:
    """A script less its comments (`_COMMENTS`)."""
    out: List[str] = []
    pos = 0
    for m in _COMMENTS.finditer(text):
        if text[m.start()] == "/" and text[m.start() + 1] == "*" and (
                m.end() - m.start() < 4 or not text.startswith("*/", m.end() - 2)):
            out += [text[pos:m.start()], _LINE_COMMENTS.sub("", text[m.start():])]
            return "".join(out)   # an unclosed `/*`: kept, as the rest after it
        out.append(text[pos:m.start()])
        pos = m.end()
    out.append(text[pos:])
    return "".join(out)


# ---------------------------------------------------------------- Python, by ast

_LEAD_PY = re.compile(r"\s*(?:#|@)")


def python_spans(text: str, lines: Sequence[str]) -> Tuple[Optional[List[Span]], str]:
    """Spans of a Python module from its syntax tree, or (None, why) if it does not parse."""
    try:
        tree = ast.parse(text)
    except SyntaxError as exc:
        return None, f"syntax error at line {exc.lineno}"
    except (ValueError, RecursionError, MemoryError) as exc:
        return None, type(exc).__name__
    regions = _py_regions(tree.body, lines, 0, len(lines), "", 0)
    return _flatten((0, len(lines), (), regions)), ""


def _py_regions(body: Sequence[ast.stmt], lines: Sequence[str], floor: int, ceiling: int,
                prefix: str, depth: int) -> List[Region]:
    out: List[Region] = []
    for node in _py_definitions(body, depth):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        first = min([node.lineno] + [d.lineno for d in node.decorator_list]) - 1
        end = min(getattr(node, "end_lineno", None) or node.lineno, ceiling)
        first = _lead(lines, first, out[-1][1] if out else floor, _LEAD_PY)
        name = prefix + node.name[:_MAX_NAME_CHARS]
        members: List[Region] = []
        if isinstance(node, ast.ClassDef) and depth < _MAX_NESTING:
            members = _py_regions(node.body, lines, node.lineno, end, name + ".", depth + 1)
        out.append((first, end, (name,), members))
    return out


def _py_definitions(body: Sequence[ast.stmt], depth: int) -> List[ast.stmt]:
    """Definitions of a module or class body, in order, also those under `if`/`try`/`with`.

    `if sys.platform == "win32": def …` and `try: … except ImportError: def …`
    are common at module level; such a definition is a section like any other.
    """
    out: List[ast.stmt] = []
    stack = [iter(body)]
    while stack:
        node = next(stack[-1], None)
        if node is None:
            stack.pop()
            continue
        if isinstance(node, (ast.If, ast.Try, ast.With, ast.AsyncWith)) and len(stack) < 4:
            parts = [node.body, getattr(node, "orelse", []),
                     *[h.body for h in getattr(node, "handlers", [])], getattr(node, "finalbody", [])]
            stack.append(iter([n for part in parts for n in part]))
        else:
            out.append(node)
    out.sort(key=lambda n: n.lineno)   # a try's handlers come before its else
    return out


def _lead(lines: Sequence[str], first: int, floor: int, lead: Optional[Pattern[str]],
          doc_block: bool = False) -> int:
    """Move a definition's start up over the comment and attribute lines right above it.

    With `doc_block`, a `/** … */` doc comment one blank line above is the
    definition's too (`/** Send a response. */`, a blank line, `res.send = …`).
    """
    if lead is None:
        return first
    while first - 1 >= floor and lines[first - 1].strip() and lead.match(lines[first - 1]):
        first -= 1
    if doc_block and first - 2 >= floor and not lines[first - 1].strip() \
            and lines[first - 2].rstrip().endswith("*/"):
        for k in range(first - 2, max(floor, first - 2 - _MAX_DOC_LINES) - 1, -1):
            opening = lines[k].lstrip()
            if "/*" in opening:
                if opening.startswith("/**") and not opening.startswith("/**/") \
                        and (k == first - 2 or "*/" not in opening):
                    return _lead(lines, k, floor, lead)
                break
    return first


def _flatten(region: Region) -> List[Span]:
    """Regions to spans that cover every line once: gaps take the enclosing heading."""
    start, end, heading, members = region
    spans: List[Span] = []
    pos = start
    for member in members:
        if member[0] > pos:
            spans.append((heading, pos, member[0]))
        spans.extend(_flatten(member))
        pos = max(pos, member[1])
    if pos < end:
        spans.append((heading, pos, end))
    return spans


# ---------------------------------------------------------------- languages, by table

@dataclass(frozen=True)
class Language:
    """What starts a definition in one language, and how its end is found.

    `defs` start leaf definitions, `containers` definitions whose members
    (`members`, plus defs and containers) become sections of their own, named
    `Container.member`; `transparent` blocks (namespaces) are scanned without
    adding to the name. Each pattern names the definition in group `name`.
    `ends` is "braces", "end" (a line starting `end` at the definition's own
    indentation), "indent" (the next line indented no deeper) or "semicolon".
    """

    defs: Tuple[Pattern[str], ...] = ()
    containers: Tuple[Pattern[str], ...] = ()
    members: Tuple[Pattern[str], ...] = ()
    transparent: Tuple[Pattern[str], ...] = ()
    ends: str = "braces"
    line_comment: Tuple[str, ...] = ("//",)
    block_comment: Optional[Tuple[str, str]] = ("/*", "*/")
    quotes: str = "\"'`"
    lead: Optional[Pattern[str]] = None
    ignore_case: bool = False
    kind_in_heading: bool = False
    spaced_comments: bool = False   # a line comment must follow white space (CSS `url(//x)`)
    literals: str = ""              # extra literal syntax whose braces do not count (a regex)
    joiner: str = "."
    # (pattern, replacement) applied to a name found; a name left empty takes group `alias`
    rename: Tuple[Tuple[Pattern[str], str], ...] = ()


def _rx(*patterns: str, flags: int = 0) -> Tuple[Pattern[str], ...]:
    return tuple(re.compile(p, flags) for p in patterns)


_NOT_CONTROL = (r"(?=\S)(?!(?:if|else|for|foreach|while|do|switch|case|catch|return|new|throw|"
                r"sizeof|typeof|delete|using|lock|await|yield|when|try|elif|guard|defer|"
                r"go|match|select)\b)")
_JS_MODS = r"(?:(?:export|default|declare|abstract|public|private|protected|static|readonly|" \
           r"async|override|get|set|accessor)\s+)*"
_JAVA_MODS = r"(?:(?:public|protected|private|internal|static|final|abstract|synchronized|" \
             r"native|default|strictfp|virtual|override|sealed|async|extern|unsafe|partial|" \
             r"new|readonly|open|data|inner|inline|suspend|operator|infix|tailrec|external|" \
             r"enum|annotation|companion|value|lateinit|const|fileprivate|mutating|" \
             r"convenience|required|dynamic|final|class)\s+|@\w+(?:\([^)]*\))?\s+)*"
_C_LEAD = re.compile(r"\s*(?://|/\*|\*|@|\[|#\[|///)")
# C: comments, or a line of only words and `*` (a return type on a line of its own, GNU style)
_C_TYPE_LEAD = re.compile(r"\s*(?://|/\*|\*|[A-Za-z_][\w \t*]*$)")
_HASH_LEAD = re.compile(r"\s*#")
# JavaScript: comments, decorators, or the first of chained assignments (`res.contentType =`)
_JS_LEAD = re.compile(r"\s*(?://|/\*|\*|@|[A-Za-z_$][\w$.]*\s*=\s*$)")

# An arrow function's start: `<T>(a: T): R =>`, `x =>` (not a call given an arrow later
# among its arguments, `app.listen(0, () =>`)
_JS_ARROW = r"(?:<[^>]*>\s*)?(?:\([^;]*?\)|[\w$]+)\s*(?::[^=;]*?)?=>"
_JS = Language(
    defs=_rx(
        r"\s*" + _JS_MODS + r"function\s*\*?\s*(?P<name>[\w$]+)",
        # `const f = (a) => {`, `const f = function`, and a function wrapped at once:
        # `const Button = memo((props) => {`, `forwardRef(function Input(…`
        r"\s*" + _JS_MODS + r"(?:const|let|var)\s+(?P<name>[\w$]+)\s*(?::[^=]*)?=\s*"
        r"(?:[\w$.]+(?:<[^>]*>)?\(\s*)?(?:async\s+)?(?:function\b|" + _JS_ARROW + ")",
        # a function given to a property: `res.send = function send(body) {`,
        # `View.prototype.lookup = function`, `exports.parse = (s) =>`
        r"\s*(?P<name>[A-Za-z_$][\w$]*(?:\.[\w$]+)+)\s*=\s*(?:async\s+)?"
        r"(?:function\b\s*\*?\s*(?P<alias>[\w$]+)?|" + _JS_ARROW + ")",
        r"\s*" + _JS_MODS + r"(?:interface|type|enum)\s+(?P<name>[\w$]+)",
    ),
    containers=_rx(r"\s*" + _JS_MODS + r"class\s+(?P<name>[\w$]+)"),
    transparent=_rx(r"\s*" + _JS_MODS + r"(?:namespace|module)\s+[\w$.\"']+\s*\{",
                    # a wrapper: an IIFE, define(…, function () {, $(function () {, describe(…, () => {
                    r"\s*(?=\S)(?!(?:export\s+)?(?:default\s+)?(?:async\s+)?function\s*\*?\s*[\w$]+\s*\()"
                    r"(?!(?:export\s+)?(?:const|let|var)\b)[^=]*?(?:function\s*[\w$]*\s*\([^)]*\)|"
                    r"\([^)]*\)\s*=>)\s*\{\s*$"),
    members=_rx(r"\s*" + _NOT_CONTROL + _JS_MODS + r"\*?(?P<name>#?[\w$]+)\s*\??\s*(?:<[^>]*>)?\s*\("),
    lead=_JS_LEAD,
    # `exports.parse` is the module's `parse`; `View.prototype.lookup` is `View.lookup`, as
    # in a class; `module.exports = function name (` is that function's name
    rename=((re.compile(r"^(?:module\.)?exports(?:\.|$)"), ""),
            (re.compile(r"\.prototype(?=\.|$)"), "")),
)
_GO = Language(
    defs=_rx(r"func\s+(?:\(\s*(?:\w+\s+)?\*?(?P<recv>\w+)[^)]*\)\s*)?(?P<name>\w+)",
             r"type\s+(?P<name>\w+)"),
    lead=_C_LEAD,
)
_RUST_VIS = r"(?:pub(?:\([^)]*\))?\s+)?"
_RUST = Language(
    defs=_rx(r"\s*" + _RUST_VIS + r"(?:(?:const|async|unsafe|default|extern(?:\s+\"[^\"]*\")?)\s+)*"
             r"fn\s+(?P<name>\w+)",
             r"\s*" + _RUST_VIS + r"(?:struct|enum|union|type|static|const)\s+(?P<name>\w+)",
             r"\s*macro_rules!\s*(?P<name>\w+)"),
    containers=_rx(r"\s*(?:unsafe\s+)?impl\b(?:\s*<[^{]*?>)?\s+(?:[^{]*?\s+for\s+)?&?(?P<name>\w+)",
                   r"\s*" + _RUST_VIS + r"(?:unsafe\s+)?trait\s+(?P<name>\w+)",
                   r"\s*" + _RUST_VIS + r"mod\s+(?P<name>\w+)\s*\{"),
    quotes="\"",
    literals=r"'(?:\\[^']{1,10}|[^\\'])'",   # char literals; a lone ' is a lifetime
    lead=_C_LEAD,
)
_JAVA_LIKE = dict(
    containers=_rx(r"\s*" + _JAVA_MODS + r"(?:class|interface|enum|record|struct|object|@interface|"
                   r"protocol|extension|actor|trait)\s+(?P<name>\w+)"),
    members=_rx(r"\s*" + _NOT_CONTROL + _JAVA_MODS + r"(?:fun\s+|func\s+|def\s+)?(?:<[^>]*>\s*)?"
                r"(?:[\w<>\[\],.?*&:]+(?:<[^>]*>)?\s+)*?(?:[\w.]+\.)?(?P<name>\w+)\s*(?:<[^>]*>)?\s*\(",
                r"\s*" + _JAVA_MODS + r"(?P<name>init|deinit)\b",
                r"\s*" + _JAVA_MODS + r"(?:var|val|let)\s+(?P<name>\w+)[^=]*\{\s*$"),
    lead=_C_LEAD,
)
_JAVA = Language(**_JAVA_LIKE)
_KOTLIN = Language(defs=_rx(r"\s*" + _JAVA_MODS + r"fun\s+(?:<[^>]*>\s*)?(?:[\w.<>]+\.)?(?P<name>\w+)"),
                   **_JAVA_LIKE)
_SWIFT = Language(defs=_rx(r"\s*" + _JAVA_MODS + r"func\s+(?P<name>\w+)"), **_JAVA_LIKE)
_CSHARP = Language(transparent=_rx(r"\s*namespace\b[^;]*$"), **_JAVA_LIKE)
_C_FUNC = (r"(?!(?:if|else|for|while|switch|return|do|case|typedef|struct|enum|union|class)\b)"
           r"[A-Za-z_][\w\s*&:<>,~]*?[\s*&]\**(?P<name>[A-Za-z_][\w:~]*|operator\s*\S+?)\s*\([^;]*$")
_C = Language(
    defs=_rx(_C_FUNC, r"(?:typedef\s+)?(?:struct|enum|union)\s+(?P<name>\w+)\s*\{?\s*$",
             r"(?!(?:if|else|for|while|switch|return|do|case|sizeof)\b)(?P<name>[A-Za-z_][\w:~]*)"
             r"\s*\([^;]*$"),
    containers=_rx(r"\s*(?:template\s*<[^>]*>\s*)?(?:class|struct)\s+(?:\w+\s+)?(?P<name>\w+)"
                   r"(?:\s*final)?\s*(?::[^;{]*)?\{?\s*$"),
    transparent=_rx(r"\s*(?:inline\s+)?namespace\b[^;]*$", r"\s*extern\s+\"C\"\s*\{"),
    members=_rx(r"\s*" + _NOT_CONTROL + r"(?:(?:virtual|static|inline|explicit|constexpr|friend)\s+)*"
                r"(?:[\w:<>,*&]+\s+)*?[*&]*(?P<name>~?\w+|operator\s*\S+?)\s*\([^;]*(?:\)\s*"
                r"(?:const\s*)?(?:override\s*)?(?:noexcept\s*)?)?\{?\s*$"),
    quotes="\"",
    lead=_C_TYPE_LEAD,
)
_PHP = Language(
    defs=_rx(r"\s*(?:(?:abstract|final|public|private|protected|static)\s+)*function\s+&?(?P<name>\w+)"),
    containers=_rx(r"\s*(?:(?:abstract|final|readonly)\s+)*(?:class|interface|trait|enum)\s+(?P<name>\w+)"),
    line_comment=("//", "#"),
    lead=_C_LEAD,
)
_SHELL = Language(
    defs=_rx(r"\s*(?:function\s+)?(?P<name>[\w.:-]+)\s*\(\s*\)", r"\s*function\s+(?P<name>[\w.:-]+)"),
    line_comment=("#",), block_comment=None, quotes="\"'", lead=_HASH_LEAD,
)
_AWK = Language(
    defs=_rx(r"\s*func(?:tion)?\s+(?P<name>[\w:]+)\s*\("),
    line_comment=("#",), block_comment=None, quotes="\"", lead=_HASH_LEAD,
)
_PERL = Language(
    defs=_rx(r"\s*sub\s+(?P<name>[\w:]+)"),
    line_comment=("#",), block_comment=None, quotes="\"'", lead=_HASH_LEAD,
)
_R = Language(
    defs=_rx(r"(?P<name>[\w.]+)\s*(?:<-|=)\s*function\b"),
    line_comment=("#",), block_comment=None, quotes="\"'", lead=_HASH_LEAD,
)
_SQL = Language(
    defs=_rx(r"\s*(?:create|alter)\s+(?:or\s+replace\s+)?(?:(?:temp|temporary|unique|materialized|"
             r"virtual|global|local)\s+)*(?P<kind>table|view|function|procedure|index|trigger|type|"
             r"sequence|schema|domain|extension)\s+(?:if\s+not\s+exists\s+)?(?P<name>[\w.\"`\[\]]+)",
             flags=re.IGNORECASE),
    ends="semicolon", line_comment=("--",), quotes="'", lead=re.compile(r"\s*--"),
    kind_in_heading=True,
)
_RUBY = Language(
    defs=_rx(r"\s*(?:private\s+|protected\s+|public\s+)?def\s+(?:self\.)?(?P<name>[\w?!=]+|\[\]=?|[<>=+*/%-]+)"),
    containers=_rx(r"\s*(?:class|module)\s+(?!<<)(?P<name>[\w:]+)"),
    ends="end", line_comment=("#",), block_comment=None, quotes="\"'", lead=_HASH_LEAD,
)
_LUA = Language(
    defs=_rx(r"\s*(?:local\s+)?function\s+(?P<name>[\w.:]+)",
             r"\s*(?:local\s+)?(?P<name>[\w.]+)\s*=\s*function\b"),
    ends="end", line_comment=("--",), block_comment=None, quotes="\"'", lead=re.compile(r"\s*--"),
)
_PYTHON_FALLBACK = Language(
    defs=_rx(r"\s*(?:async\s+)?def\s+(?P<name>\w+)"),
    containers=_rx(r"\s*class\s+(?P<name>\w+)"),
    ends="indent", line_comment=("#",), block_comment=None, quotes="\"'", lead=_LEAD_PY,
)

LANGUAGES = {
    "py": _PYTHON_FALLBACK, "js": _JS, "ts": _JS, "go": _GO, "rs": _RUST, "java": _JAVA,
    "kt": _KOTLIN, "c": _C, "cpp": _C, "cs": _CSHARP, "rb": _RUBY, "php": _PHP,
    "swift": _SWIFT, "sh": _SHELL, "sql": _SQL, "lua": _LUA, "r": _R, "pl": _PERL,
    "awk": _AWK,
}


def table_spans(lines: Sequence[str], lang: Language) -> List[Span]:
    """Spans of a file in a language described by a table."""
    depths = _brace_depths(lines, lang) if lang.ends in ("braces", "semicolon") else None
    scanner = _Scanner(lines, lang, depths)
    regions = scanner.scan(0, len(lines), 0, "", top=True, nesting=0)
    return _join_scraps(_flatten((0, len(lines), (), regions)), lines)


# A line that only closes blocks (`}`, `};`, `})();`, `end`), a trailing comment allowed.
_CLOSER = re.compile(r"\s*(?:[()\[\]{};,]+|end\b[;.]?)\s*(?://.*|--.*|#.*)?|\s*")


def _join_scraps(spans: List[Span], lines: Sequence[str]) -> List[Span]:
    """Join a span of closing lines only to the span before it.

    After its last member a container leaves its closing `}` (or `end`); as
    a passage of its own, headed by the container's name and short, it led
    a search for that name with nothing to show. Every line stays in
    exactly one span.
    """
    out: List[Span] = []
    for heading, start, end in spans:
        if out and out[-1][2] == start and all(map(_CLOSER.fullmatch, lines[start:end])):
            out[-1] = (out[-1][0], out[-1][1], end)
        else:
            out.append((heading, start, end))
    return out


class _Scanner:
    def __init__(self, lines: Sequence[str], lang: Language, depths: Optional[List[Tuple[int, int]]]):
        self.lines, self.lang, self.depths = lines, lang, depths

    def level(self, i: int) -> int:
        """Nesting of line i: brace depth at its start, or its indentation."""
        if self.depths is not None:
            return self.depths[i][0]
        line = self.lines[i]
        return len(line) - len(line.lstrip(" \t"))

    def scan(self, start: int, end: int, level: int, prefix: str, top: bool, nesting: int) -> List[Region]:
        lang, lines = self.lang, self.lines
        out: List[Region] = []
        i = start
        inner_level: Optional[int] = None if self.depths is None and not top else level
        while i < end:
            line = lines[i]
            if not line.strip():
                i += 1
                continue
            lvl = self.level(i)
            if inner_level is None:
                inner_level = lvl   # indentation of a body: its first line's
            if lvl != inner_level:
                i += 1
                continue
            found = self.match(line, top)
            if found is None:
                i += 1
                continue
            kind, name, role = found
            stop = min(self.end_of(i, lvl, end), end)
            first = _lead(lines, i, out[-1][1] if out else start, lang.lead,
                          lang.block_comment == ("/*", "*/"))
            name = name[:_MAX_NAME_CHARS]
            title = prefix + name if name else prefix.rstrip(lang.joiner) or kind
            if lang.kind_in_heading and kind:
                title = f"{kind.upper()} {title}"
            members: List[Region] = []
            if role in ("container", "transparent") and nesting < _MAX_NESTING and stop - i > 1:
                inner = self.level(i) + 1 if self.depths is not None else None
                members = self.scan(i + 1, stop, inner if inner is not None else 0,
                                    prefix if role == "transparent" else title + lang.joiner,
                                    top=(role == "transparent"), nesting=nesting + 1)
            if role == "transparent":
                out.extend(members)
            else:
                out.append((first, stop, (title,), members))
            i = max(stop, i + 1)
        return out

    def match(self, line: str, top: bool) -> Optional[Tuple[str, str, str]]:
        lang = self.lang
        if len(line) > _MAX_DEFINITION_LINE:
            return None
        groups = [("transparent", lang.transparent), ("container", lang.containers), ("def", lang.defs)]
        if not top:
            groups.append(("def", lang.members))
        for role, patterns in groups:
            for pattern in patterns:
                m = pattern.match(line)
                if m:
                    gd = m.groupdict()
                    name = (gd.get("name") or "").strip("\"`[]")
                    for rx, repl in lang.rename:
                        name = rx.sub(repl, name)
                    name = name or gd.get("alias") or ""
                    if gd.get("recv"):
                        name = f"{gd['recv']}.{name}"
                    if role != "transparent" and not name:
                        continue
                    return gd.get("kind") or "", name, role
        return None

    def end_of(self, i: int, lvl: int, end: int) -> int:
        """The line after the definition that starts at line i."""
        lines, ends = self.lines, self.lang.ends
        if ends == "semicolon":
            return self._semicolon_end(i, end)
        if ends == "end":
            return self._end_keyword(i, lvl, end)
        if ends == "indent":
            return self._indent_end(i, lvl, end)
        depths = self.depths
        assert depths is not None
        for k in range(i, min(end, i + _MAX_SIGNATURE_LINES)):
            if k > i and (not lines[k].strip() or lines[k].lstrip().startswith("}")
                          or self.match(lines[k], True)):
                return k
            if depths[k][1] > lvl:   # a brace opened: the definition ends when it closes
                for m in range(k, end):
                    after = depths[m + 1][0] if m + 1 < len(depths) else 0
                    if after <= lvl:
                        return m + 1
                return end
            if lines[k].rstrip().endswith(";") or depths[k + 1 if k + 1 < len(depths) else k][0] < lvl:
                return k + 1
        return i + 1

    def _semicolon_end(self, i: int, end: int) -> int:
        dollar = False
        for k in range(i, end):
            text = self.lines[k]
            if text.count("$$") % 2:
                dollar = not dollar
            if not dollar and text.split("--", 1)[0].rstrip().endswith(";"):
                return k + 1
        return end

    def _end_keyword(self, i: int, lvl: int, end: int) -> int:
        head = self.lines[i]
        if re.search(r"(?:;|\s)end\s*$", head) or re.match(r"\s*def\s+[^(=]*(?:\([^)]*\))?\s*=", head):
            return i + 1   # a one-line definition
        for k in range(i + 1, end):
            text = self.lines[k]
            if not text.strip():
                continue
            indent = len(text) - len(text.lstrip(" \t"))
            if indent == lvl and re.match(r"\s*end\b", text):
                return k + 1
            if indent < lvl:
                return k
        return end

    def _indent_end(self, i: int, lvl: int, end: int) -> int:
        k = i + 1
        while k < end and self.lines[k - 1].rstrip().endswith((",", "(", "\\")):
            k += 1   # a signature over several lines
        for k in range(k, end):
            text = self.lines[k]
            if text.strip() and len(text) - len(text.lstrip(" \t")) <= lvl \
                    and not text.lstrip().startswith((")", "]", "}")):
                return k
        return end


def _brace_depths(lines: Sequence[str], lang: Language) -> List[Tuple[int, int]]:
    """Per line: brace depth at its start and the deepest it reaches on it.

    Braces inside strings (closed on the same line) and comments are skipped.
    One extra entry gives the depth after the last line.
    """
    parts = [re.escape(c) for c in lang.line_comment]
    if lang.block_comment:
        parts.append(re.escape(lang.block_comment[0]))
    for q in lang.quotes:
        parts.append(f"{re.escape(q)}(?:\\\\.|[^{re.escape(q)}\\\\])*{re.escape(q)}")
    if lang.literals:
        parts.append(lang.literals)
    parts.append(r"[{}]")
    token = re.compile("|".join(parts))
    close = lang.block_comment[1] if lang.block_comment else ""
    out: List[Tuple[int, int]] = []
    depth, in_block = 0, False
    for line in lines:
        start, peak, pos = depth, depth, 0
        if len(line) > _MAX_SCANNED_LINE and not in_block:   # minified: count braces, no lexing
            depth = max(0, depth + line.count("{") - line.count("}"))
            out.append((start, max(start, depth)))
            continue
        while True:
            if in_block:
                at = line.find(close, pos)
                if at < 0:
                    break
                in_block, pos = False, at + len(close)
            m = token.search(line, pos)
            if m is None:
                break
            tok = m.group(0)
            pos = m.end()
            if tok == "{":
                depth += 1
                peak = max(peak, depth)
            elif tok == "}":
                depth = max(0, depth - 1)
            elif tok in lang.line_comment:
                if (tok != "#" and not lang.spaced_comments) or m.start() == 0 \
                        or line[m.start() - 1].isspace():
                    break
            elif lang.block_comment and tok == lang.block_comment[0]:
                in_block = True
        out.append((start, peak))
    out.append((depth, depth))
    return out
