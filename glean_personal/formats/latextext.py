"""LaTeX text as the typeset page shows it: words, not commands (the reader is markup.read_latex).

`tex_text` turns a LaTeX source into its words, one shown line for each line
of the source, so passages keep their line numbers:

- comments (`%` to the end of a line) and what a page never shows go:
  `\\label`, `\\index…`, `\\cite`, `\\usepackage`, `\\newcommand` and the other
  definitions, `\\vspace`, `\\includegraphics`, `\\begin{…}`/`\\end{…}` lines'
  names, the preamble of a file with a `\\documentclass`, and the inside of
  `comment` and `tikzpicture` environments;
- a command's braced argument shows its text (`\\emph{word}` → `word`,
  `\\href{url}{words}` → `words`, `\\texorpdfstring{$\\pi_1$}{π₁}` → `π₁`);
- a cross reference (`\\cref{sec:contractibility}`) shows the title of the
  section that label stands under when that section is in the same file, else
  the label's words after its prefix (`contractibility`);
- accents and ligatures read as their character (`na\\"{\\i}ve` → `naïve`,
  ``` ``x'' ``` → `“x”`, `---` → `—`), common math symbols as theirs
  (`\\to` → `→`, `\\alpha` → `α`), `$` and braces as nothing, `~` as a space,
  and any other command as its name (`\\idtoeqv` → `idtoeqv`: a macro of the
  document's own is named for what it stands for);
- `verbatim`, `lstlisting` and `minted` environments and `\\verb|…|` keep
  what they hold as typed.

Every step is linear in the text's length: brace pairs are matched once, up
front, so skipping an argument is a look-up.
"""
from __future__ import annotations

import re
import unicodedata
from typing import Dict, List, Optional, Sequence, Tuple

# Commands whose mandatory arguments a page never shows: name → how many.
_HIDDEN: Dict[str, int] = {
    "label": 1, "index": 1, "cite": 1, "citep": 1, "citet": 1, "nocite": 1, "parencite": 1,
    "autocite": 1, "textcite": 1, "footcite": 1, "usepackage": 1, "RequirePackage": 1,
    "documentclass": 1, "bibliography": 1, "bibliographystyle": 1, "addbibresource": 1,
    "input": 1, "include": 1, "includeonly": 1, "includegraphics": 1, "vspace": 1, "hspace": 1,
    "setcounter": 2, "addtocounter": 2, "setlength": 2, "addtolength": 2, "addcontentsline": 3,
    "pagestyle": 1, "thispagestyle": 1, "pagenumbering": 1, "hypersetup": 1, "graphicspath": 1,
    "newtheorem": 2, "theoremstyle": 1, "newenvironment": 3, "renewenvironment": 3,
    "newcounter": 1, "numberwithin": 2, "crefname": 3, "Crefname": 3, "definecolor": 3,
    "bibitem": 1, "linelabel": 1, "phantomsection": 0, "hyperlink": 1, "hypertarget": 1,
    "indexsee": 2, "indexseealso": 2, "begin": 1, "end": 1, "vskip": 0, "raisebox": 1, "rule": 2, "tag": 1, "nonumber": 0,
}
# Definitions: the command defined and its body are skipped whole.
_DEFINITIONS = frozenset({"newcommand", "renewcommand", "providecommand", "DeclareMathOperator",
                          "DeclareRobustCommand", "def", "gdef", "edef", "xdef", "let", "newcommand*",
                          "renewcommand*", "providecommand*", "DeclareMathOperator*"})
# Commands that show only their last argument.
_LAST_ARGUMENT = {"href": 2, "texorpdfstring": 2, "textcolor": 2, "colorbox": 2, "hyperref": 1}
# Quotes and dashes as typeset, the longer mark first.
_TYPOGRAPHY = {"``": "“", "''": "”", "---": "—", "--": "–"}
# Commands standing for nothing on the page (layout and spacing).
_NOTHING = frozenset({
    "noindent", "indent", "centering", "raggedright", "raggedleft", "par", "newline", "linebreak",
    "pagebreak", "newpage", "clearpage", "cleardoublepage", "maketitle", "tableofcontents",
    "listoffigures", "listoftables", "printbibliography", "printindex", "appendix", "frontmatter",
    "mainmatter", "backmatter", "bigskip", "medskip", "smallskip", "hfill", "vfill", "hline", "toprule",
    "midrule", "bottomrule", "cline", "small", "footnotesize", "scriptsize", "tiny", "large", "Large",
    "LARGE", "huge", "Huge", "normalsize", "bfseries", "itshape", "ttfamily", "rmfamily", "sffamily",
    "scshape", "upshape", "mdseries", "normalfont", "em", "bf", "it", "tt", "rm", "sf", "sc", "sl",
    "displaystyle", "textstyle", "scriptstyle", "left", "right", "big", "Big", "bigg", "Bigg",
    "bigl", "bigr", "Bigl", "Bigr", "biggl", "biggr", "middle", "nolimits", "limits", "allowbreak",
    "nobreak", "relax", "protect", "makeatletter", "makeatother", "selectfont", "strut", "mbox",
    "hbox", "null", "xspace", "ensuremath", "mathrm", "mathit", "mathbf", "mathsf", "mathtt",
    "mathcal", "mathbb", "mathfrak", "mathscr", "boldsymbol", "operatorname", "text", "textrm",
    "textnormal", "emph", "textbf", "textit", "texttt", "textsf", "textsc", "textup", "textsl",
    "underline", "uline", "mathstrut", "quad", "qquad", "enspace", "thinspace", "negthinspace",
    "item", "caption", "footnote", "footnotetext", "marginpar", "url", "nolinkurl", "hyphenation",
    "onecolumn", "twocolumn", "@", "part", "chapter", "section", "subsection", "subsubsection",
    "paragraph", "subparagraph", "title", "author", "date", "thanks", "and",
})
_SPACE_COMMANDS = frozenset({"quad", "qquad", "enspace", "thinspace"})
_REFERENCES = frozenset({"ref", "cref", "Cref", "autoref", "Autoref", "eqref", "pageref", "nameref",
                         "vref", "cpageref", "Cpageref", "fullref", "Vref", "crefrange", "Crefrange"})
_SYMBOLS = {
    "LaTeX": "LaTeX", "TeX": "TeX", "ldots": "…", "dots": "…", "cdots": "⋯", "vdots": "⋮",
    "ddots": "⋱", "textendash": "–", "textemdash": "—", "textbullet": "•", "S": "§", "P": "¶",
    "copyright": "©", "dag": "†", "ddag": "‡", "pounds": "£", "euro": "€", "textdegree": "°",
    "ss": "ß", "o": "ø", "O": "Ø", "ae": "æ", "AE": "Æ", "oe": "œ", "OE": "Œ", "aa": "å", "AA": "Å",
    "l": "ł", "L": "Ł", "i": "ı", "j": "ȷ",
    "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε", "varepsilon": "ε",
    "zeta": "ζ", "eta": "η", "theta": "θ", "vartheta": "ϑ", "iota": "ι", "kappa": "κ",
    "lambda": "λ", "mu": "μ", "nu": "ν", "xi": "ξ", "pi": "π", "varpi": "ϖ", "rho": "ρ",
    "varrho": "ϱ", "sigma": "σ", "varsigma": "ς", "tau": "τ", "upsilon": "υ", "phi": "φ",
    "varphi": "φ", "chi": "χ", "psi": "ψ", "omega": "ω", "Gamma": "Γ", "Delta": "Δ", "Theta": "Θ",
    "Lambda": "Λ", "Xi": "Ξ", "Pi": "Π", "Sigma": "Σ", "Upsilon": "Υ", "Phi": "Φ", "Psi": "Ψ",
    "Omega": "Ω", "to": "→", "rightarrow": "→", "leftarrow": "←", "gets": "←", "Rightarrow": "⇒",
    "Leftarrow": "⇐", "leftrightarrow": "↔", "Leftrightarrow": "⇔", "iff": "⟺", "implies": "⟹",
    "mapsto": "↦", "longrightarrow": "⟶", "Longrightarrow": "⟹", "hookrightarrow": "↪",
    "times": "×", "cdot": "·", "circ": "∘", "pm": "±", "mp": "∓", "div": "÷", "le": "≤", "leq": "≤",
    "ge": "≥", "geq": "≥", "neq": "≠", "ne": "≠", "approx": "≈", "equiv": "≡", "simeq": "≃",
    "sim": "∼", "cong": "≅", "infty": "∞", "in": "∈", "notin": "∉", "ni": "∋", "subset": "⊂",
    "subseteq": "⊆", "supset": "⊃", "supseteq": "⊇", "cup": "∪", "cap": "∩", "setminus": "∖",
    "emptyset": "∅", "varnothing": "∅", "forall": "∀", "exists": "∃", "neg": "¬", "lnot": "¬",
    "land": "∧", "wedge": "∧", "lor": "∨", "vee": "∨", "oplus": "⊕", "otimes": "⊗", "sum": "∑",
    "prod": "∏", "coprod": "∐", "int": "∫", "partial": "∂", "nabla": "∇", "sqrt": "√",
    "langle": "⟨", "rangle": "⟩", "lfloor": "⌊", "rfloor": "⌋", "lceil": "⌈", "rceil": "⌉",
    "ell": "ℓ", "vdash": "⊢", "models": "⊨", "top": "⊤", "bot": "⊥", "mid": "∣", "parallel": "∥",
    "perp": "⊥", "star": "⋆", "ast": "∗", "bullet": "•", "prime": "′", "aleph": "ℵ", "hbar": "ℏ",
    "lbrace": "{", "rbrace": "}", "{": "{", "}": "}", "|": "‖", "%": "%", "$": "$", "&": "&",
    "#": "#", "_": "_",
}
_ACCENTS = {'"': "\u0308", "'": "\u0301", "`": "\u0300", "^": "\u0302", "~": "\u0303",
            "=": "\u0304", ".": "\u0307", "u": "\u0306", "v": "\u030c", "H": "\u030b",
            "c": "\u0327", "k": "\u0328", "r": "\u030a", "b": "\u0331", "d": "\u0323"}
_KEPT_ENVIRONMENTS = frozenset({"verbatim", "verbatim*", "lstlisting", "minted", "Verbatim",
                                "alltt", "comment", "tikzpicture", "tikzcd"})
_TABLES = {"tabular": 2, "array": 2, "tabular*": 3, "tabularx": 3, "longtable": 2}
_HIDDEN_ENVIRONMENTS = frozenset({"comment", "tikzpicture", "tikzcd"})
_NAME = re.compile(r"[A-Za-z@]+\*?")
_ENVIRONMENT = re.compile(r"\\begin\s*\{([A-Za-z*]+)\}")
_SECTION = re.compile(r"\\(?:part|chapter|section|subsection|subsubsection|paragraph)\*?\s*"
                      r"(?:\[[^\]\n]*\]\s*)?\{")
_LABEL = re.compile(r"\\label\s*\{([^{}\n]*)\}")
_SPACES = re.compile(r"[ \t]+")
_PLAIN = re.compile(r"[^\\{}$~%`'\-&]+")   # text with nothing to read in it


def _uncommented(text: str) -> str:
    """The text without its comments (`%` to the end of a line, not `\\%`); a
    verbatim environment's lines and a line with `\\verb` keep their `%`."""
    if "%" not in text:
        return text
    out = []
    verbatim = ""   # the `\end{…}` that closes the verbatim environment we are in
    for line in text.split("\n"):
        if verbatim:
            if verbatim in line:
                verbatim = ""
            out.append(line)
            continue
        pos = _comment_start(line)
        line = line if pos < 0 else line[:pos]
        if "\\begin" in line:
            env = _ENVIRONMENT.search(line)
            if env and env.group(1) in _KEPT_ENVIRONMENTS and env.group(1) not in _HIDDEN_ENVIRONMENTS:
                closing = "\\end{" + env.group(1) + "}"
                verbatim = "" if closing in line[env.end():] else closing
        out.append(line)
    return "\n".join(out)


def _comment_start(line: str) -> int:
    """Where the line's comment starts (-1: none): its first `%` that is neither
    escaped (`\\%`) nor inside `\\verb|…|` (each search goes on from the last)."""
    pos = _percent(line, 0)
    start = 0
    while pos >= 0:
        verb = line.find("\\verb", start, pos)
        if verb < 0:
            return pos
        delimiter = verb + 5 + (line[verb + 5:verb + 6] == "*")
        close = line.find(line[delimiter], delimiter + 1) if delimiter < len(line) else -1
        if close < 0:
            return -1
        start = close + 1
        if close >= pos:
            pos = _percent(line, start)
    return -1


def _percent(line: str, start: int) -> int:
    """The first `%` from `start` that no backslash escapes (-1: none)."""
    pos = line.find("%", start)
    while pos > 0 and _escaped(line, pos):
        pos = line.find("%", pos + 1)
    return pos


def _escaped(line: str, pos: int) -> bool:
    """Whether the character at `pos` follows an odd run of backslashes."""
    back = pos
    while back > 0 and line[back - 1] == "\\":
        back -= 1
    return (pos - back) % 2 == 1


def _closers(text: str) -> Dict[int, int]:
    """Each `{` → the position of its `}` (unescaped, matched once over the text)."""
    stack: List[int] = []
    pairs: Dict[int, int] = {}
    pos, end = 0, len(text)
    while pos < end:
        ch = text[pos]
        if ch == "\\":
            pos += 2
            continue
        if ch == "{":
            stack.append(pos)
        elif ch == "}" and stack:
            pairs[stack.pop()] = pos
        pos += 1
    return pairs


def section_labels(lines: Sequence[str], titles: Dict[int, str]) -> Dict[str, str]:
    """Labels that stand under a heading (its line or the next two) → the heading's title.

    `titles`: a heading's line (0-based) → its title.
    """
    labels: Dict[str, str] = {}
    for i, title in titles.items():
        for near in lines[i:i + 3]:
            if "\\label" in near and not near.lstrip().startswith("%"):
                for label in _LABEL.finditer(near):
                    labels.setdefault(label.group(1).strip(), title)
    return labels


def label_words(key: str) -> str:
    """A label's words: after its prefix (`sec:`, `thm:`), dashes and underscores as spaces."""
    key = key.strip()
    if ":" in key:
        key = key.split(":", 1)[1]
    return " ".join(re.split(r"[-_:.\s]+", key)).strip()


class _Converter:
    def __init__(self, text: str, labels: Dict[str, str]) -> None:
        self.text = text
        self.labels = labels
        self.closers = _closers(text)
        self.out: List[str] = []

    def newlines(self, start: int, end: int) -> None:
        """Keep the line breaks of a stretch that shows nothing."""
        count = self.text.count("\n", start, end)
        if count:
            self.out.append("\n" * count)

    def skip_spaces(self, pos: int) -> int:
        text = self.text
        while pos < len(text) and text[pos] in " \t":
            pos += 1
        return pos

    def skip_optional(self, pos: int) -> int:
        """Past `[…]` arguments (on the same line) after `pos`."""
        text = self.text
        while True:
            at = self.skip_spaces(pos)
            if at < len(text) and text[at] == "[":
                close = text.find("]", at, min(len(text), at + 300))
                if close < 0 or "\n" in text[at:close]:
                    return pos
                pos = close + 1
                continue
            return pos

    def group(self, pos: int) -> Optional[Tuple[int, int]]:
        """The braced argument at `pos` (spaces before it allowed): (inside start, end after `}`)."""
        at = self.skip_spaces(pos)
        if at < len(self.text) and self.text[at] == "{" and at in self.closers:
            return at + 1, self.closers[at] + 1
        return None

    def skip_arguments(self, pos: int, count: int) -> int:
        """Past optional arguments and `count` braced ones, their line breaks kept."""
        start = pos
        pos = self.skip_optional(pos)
        for _ in range(count):
            g = self.group(pos)
            if g is None:
                break
            pos = self.skip_optional(g[1])
        self.newlines(start, pos)
        return pos

    def run(self, start: int, end: int) -> None:
        text, out = self.text, self.out
        pos = start
        while pos < end:
            m = _PLAIN.match(text, pos, end)
            if m:
                out.append(m.group(0))
                pos = m.end()
                continue
            ch = text[pos]
            if ch == "\\":
                pos = self.command(pos, end)
            elif ch == "}" and text.startswith("{", pos + 1):
                out.append(" ")   # `\id{a}{b}`: a macro's arguments apart
                pos += 1
            elif ch in "{}$":
                pos += 1
            elif ch in "~&":   # a tie, a table's cell break
                out.append(" ")
                pos += 1
            else:
                mark = next((m for m in _TYPOGRAPHY if text.startswith(m, pos)), None)
                out.append(_TYPOGRAPHY[mark] if mark else ch)
                pos += len(mark) if mark else 1

    def command(self, pos: int, end: int) -> int:
        text, out = self.text, self.out
        m = _NAME.match(text, pos + 1, end)
        if not m:   # a control symbol: `\%`, `\\`, `\,`, an accent
            sym = text[pos + 1:pos + 2]
            if sym in _ACCENTS:
                return self.accent(sym, pos + 2, end)
            if sym == "\\":
                out.append(" ")
                return self.skip_optional(pos + 2)
            if sym in "()[]":
                return pos + 2
            if sym in ",;:! \n\t/-":
                out.append("\n" if sym == "\n" else (" " if sym in ",;: \t" else ""))
                return pos + 2
            out.append(_SYMBOLS.get(sym, sym))
            return pos + 2
        name = m.group(0)
        after = m.end()
        bare = name.rstrip("*")
        if bare in _ACCENTS and len(bare) == 1:
            return self.accent(bare, after, end)
        if bare == "begin":
            env = _ENVIRONMENT.match(text, pos)
            if env and env.group(1) in _KEPT_ENVIRONMENTS:
                return self.kept_environment(env, end)
            if env and env.group(1) in _TABLES:   # its column specification goes too
                return self.skip_arguments(after, _TABLES[env.group(1)])
        if name in _DEFINITIONS or bare in _DEFINITIONS:
            return self.definition(after, end)
        if bare == "verb" and after < end:
            close = text.find(text[after], after + 1, min(end, after + 500))
            if close > 0 and "\n" not in text[after:close]:
                out.append(text[after + 1:close])
                return close + 1
        if bare in _REFERENCES:
            return self.reference(bare, after)
        if bare in _HIDDEN or bare.startswith("index"):
            return self.skip_arguments(after, _HIDDEN.get(bare, 1))
        if bare in _LAST_ARGUMENT:
            count = _LAST_ARGUMENT[bare]
            pos = self.skip_optional(after)
            shown = None
            for _ in range(count):
                g = self.group(pos)
                if g is None:
                    break
                shown, pos = g, g[1]
            if shown is not None:
                self.newlines(after, shown[0])
                self.run(shown[0], shown[1] - 1)
                return pos
            return after
        if bare in _SPACE_COMMANDS:
            out.append(" ")
            return after
        if bare == "item":
            at = self.skip_spaces(after)
            close = text.find("]", at, min(end, at + 300)) if text.startswith("[", at) else -1
            if close > 0 and "\n" not in text[at:close]:   # `\item[Term:]` shows its term
                self.run(at + 1, close)
                return close + 1
            out.append("•")
            return after
        if bare in _NOTHING:
            if bare in ("footnote", "footnotetext", "marginpar"):
                out.append(" ")   # its text follows the word it hangs on, apart
            return after
        if bare in _SYMBOLS:
            self.word(_SYMBOLS[bare], after)
            return after
        if self.group(after) is not None and not text[after:after + 1].isspace():
            return after   # `\define{word}`: a macro of the document's own shows its argument
        self.word(bare, after)   # … and with none, its name, named for what it stands for (`\idtoeqv`)
        return after

    def word(self, shown: str, after: int) -> None:
        """A command's word or symbol, kept apart from letters and digits next to it (`a\\jdeq b`)."""
        out = self.out
        if out and out[-1][-1:].isalnum() and shown[:1].isalnum():
            out.append(" ")
        out.append(shown)
        nxt = self.text[after:after + 1]
        if nxt.isalnum() or nxt == "\\" and shown[-1:].isalnum():
            out.append(" ")

    def accent(self, sym: str, pos: int, end: int) -> int:
        text = self.text
        base = ""
        g = self.group(pos) if pos < end and text[pos] in " {" else None
        if g is not None:
            inner = text[g[0]:g[1] - 1].strip()
            base = {"\\i": "i", "\\j": "j"}.get(inner, inner)
            pos = g[1]
        elif text.startswith("\\i", pos) and not text[pos + 2:pos + 3].isalpha():
            base, pos = "i", pos + 2
        elif pos < end:
            base, pos = text[pos], pos + 1
        if len(base) == 1:
            self.out.append(unicodedata.normalize("NFC", base + _ACCENTS[sym]))
        else:
            self.out.append(base)
        return pos

    def kept_environment(self, env: "re.Match[str]", end: int) -> int:
        text = self.text
        name = env.group(1)
        closing = "\\end{" + name + "}"
        stop = text.find(closing, env.end(), end)
        stop = end if stop < 0 else stop
        body_start = env.end()
        if name in _HIDDEN_ENVIRONMENTS:
            self.newlines(env.start(), stop)
        else:
            line_end = text.find("\n", body_start, stop)
            body_start = stop if line_end < 0 else line_end   # options on the \begin line go
            self.out.append(text[body_start:stop])
        return min(end, stop + len(closing))

    def definition(self, pos: int, end: int) -> int:
        """Past `\\newcommand{\\name}[n]{body}`, `\\def\\name#1{body}`, `\\let\\a\\b`."""
        text = self.text
        start = pos
        at = self.skip_spaces(pos)
        g = self.group(at)
        if g is not None:
            at = g[1]
        elif at < end and text[at] == "\\":
            m = _NAME.match(text, at + 1, end)
            at = m.end() if m else at + 2
        stop = min(end, at + 200)
        while at < stop and text[at] not in "{\n":
            if text[at] == "\\":   # `\let\a\b`, `\def\a\b`
                m = _NAME.match(text, at + 1, end)
                at = m.end() if m else at + 2
                break
            at += 1
        at = self.skip_arguments(at, 1) if at < end and text[at] in "{[ " else at
        self.newlines(start, at)
        return at

    def reference(self, name: str, pos: int) -> int:
        pos = self.skip_optional(pos)
        keys = []
        for _ in range(2 if name in ("crefrange", "Crefrange") else 1):
            g = self.group(pos)
            if g is None:
                break
            keys.append(self.text[g[0]:g[1] - 1])
            pos = g[1]
        shown = []
        for group in keys:
            shown.append(", ".join(self.labels.get(k.strip()) or label_words(k)
                                   for k in group.split(",") if k.strip()))
        self.out.append(" to ".join(shown))
        return pos


def tex_text(text: str, labels: Optional[Dict[str, str]] = None) -> str:
    """The words of a LaTeX source, with as many lines as it has (see the module's docstring)."""
    text = _uncommented(text)
    count = text.count("\n")
    begin = text.find("\\begin{document}")
    head = ""
    if begin >= 0 and "\\documentclass" in text[:begin]:
        head = "\n" * text.count("\n", 0, begin)
        text = text[begin:]
    converter = _Converter(text, labels or {})
    converter.run(0, len(text))
    shown = (head + "".join(converter.out)).split("\n")
    kept = _verbatim_lines(text, len(head))
    lines = [line.rstrip() if i in kept else _SPACES.sub(" ", line).strip()
             for i, line in enumerate(shown)]
    if len(lines) != count + 1:   # never: each step keeps the line breaks it passes over
        lines = (lines + [""] * (count + 1))[:count + 1]
    return "\n".join(lines)


def _verbatim_lines(text: str, offset_lines: int) -> frozenset:
    """The shown lines (by number) inside verbatim-like environments, kept as typed."""
    kept = set()
    pos, line = 0, offset_lines   # line: the number of the line pos is on
    while True:
        env = _ENVIRONMENT.search(text, pos)
        if env is None:
            break
        if env.group(1) not in _KEPT_ENVIRONMENTS:
            line += text.count("\n", pos, env.end())
            pos = env.end()
            continue
        stop = text.find("\\end{" + env.group(1) + "}", env.end())
        stop = len(text) if stop < 0 else stop
        line += text.count("\n", pos, env.start())
        last = line + text.count("\n", env.start(), stop)
        if env.group(1) not in _HIDDEN_ENVIRONMENTS:
            kept.update(range(line + 1, last))
        pos, line = stop, last
    return frozenset(kept)


def shown_lines(lines: Sequence[str], titles: Dict[int, str]) -> List[str]:
    """`lines` of a LaTeX file as shown, one for each (what `read_latex` keeps as text);
    `titles`: each heading's line (0-based) → its title, for the references to its label.

    A line inside a paragraph that shows nothing (a comment, `\\index{…}%`, `\\label{…}`
    on a line of its own, after a line that shows words) does not end the paragraph,
    as it does not in TeX: the paragraph's later lines move up one, and the
    paragraph's end gets the blank line.
    """
    shown = tex_text("\n".join(lines), section_labels(lines, titles)).split("\n")
    out: List[str] = []
    moved = 0          # lines of the paragraph so far that showed nothing
    in_paragraph = False
    for i, line in enumerate(shown):
        if line.strip():
            if i in titles:   # a heading keeps its line: its section starts there
                out.extend([""] * moved)
                moved = 0
            out.append(line)
            in_paragraph = i not in titles
        elif in_paragraph and lines[i].strip() and not _BLOCK_LINE.match(lines[i]) \
                and i not in titles:
            moved += 1
        else:   # a paragraph ends here (a blank line, an environment's edge, display math)
            out.extend([""] * moved)
            moved = 0
            out.append(line)
            in_paragraph = False
    out.extend([""] * moved)
    return out


# A source line that shows nothing but ends a paragraph: an environment's edge,
# display math's, `\item`, `\par`.
_BLOCK_LINE = re.compile(r"[ \t]*(?:\\(?:begin|end|item|par\b|\[|\])|\$\$)")


_MARKUP = re.compile(r"[\\{}$~%`'&-]")


def heading_text(text: str) -> str:
    """A heading's words as the page shows them, on one line."""
    if not _MARKUP.search(text):
        return " ".join(text.split())
    return " ".join(tex_text(text).split())
