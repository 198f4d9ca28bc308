"""User text → a parsed query → an FTS5 expression, with no way for syntax to leak.

Whatever a person types is a valid query. The text is cut into quoted spans
(exact phrases) and bare words; every word goes through the same tokenizer as
the index, so stray quotes, `NEAR(`, unknown `col:`, `^`, NUL and emoji are
only ever text. A bare word that the tokenizer splits (`os.path.join`,
`sparse-checkout`, `src/app.py`, `don't`) becomes a phrase of its pieces, so
it matches what the user meant, plus its informative pieces as plain terms.

A few forms are operators (docs/search.md, "The query language"): `-word` and
`NOT word` exclude, `a OR b` makes two terms alternatives, `word*` is a prefix,
and `type:`, `source:`, `path:` followed by a value are filters. A bare word
matches its stem exactly; only an explicit `*` matches a prefix.
"""
from __future__ import annotations

import functools
import re
from typing import Dict, FrozenSet, List, Optional, Sequence, Set, Tuple

from .analysis import (bigram_chain, has_identifiers, identifier_parts, identifier_phrases,
                       is_stopword, search_tokens, stem, tokenize)
from .patterns import lazy
from .records import Record, field
from .synonyms import synonyms
from .wordforms import other_forms

MAX_QUERY_CHARS = 4000
MAX_TERMS = 32
# Words of one phrase: FTS5 matches a phrase in time that grows with its length
# (a 2,000-word phrase, `a.a.a…` of 4,000 characters, took 4.5 CPU s; 32 take 0.05 s),
# and no one types a longer quotation. A longer phrase is looked up by its first words.
MAX_PHRASE_TOKENS = 32
MIN_PREFIX_LEN = 2   # shortest explicit prefix (`ab*`); `a*` would match a letter's worth
# Words typed plainly that make a question without function words (`undo last commit`):
# one word alone is searched as typed.
QUESTION_WORDS = 2
# A quoted span (or a camelCase name, searched as its phrase too) makes a query
# precise; it is still a question when this many content words are typed around
# it (`why does git keep asking "merge conflict" questions every rebase`), not
# when they only qualify it (`"split a commit" into smaller ones`).
QUOTED_QUESTION_WORDS = 3
SYNONYMS_PER_WORD = 3   # a question word's synonyms from the thesaurus, at most (synonyms.py)
SYNONYMS_PER_QUERY = 8

_QUOTES = str.maketrans({"\u201c": '"', "\u201d": '"', "\u201e": '"', "\u00ab": '"',
                         "\u00bb": '"', "\x00": " "})

FIELDS = ("type", "source", "path")

# A word with a symbol the tokenizer drops (`@{upstream}`, `HEAD~3`, `$GIT_DIR`,
# `**kwargs`, `C++`): its words find the candidates, and a passage holding it as
# written ranks above one that only has the words (search.py, `_literal_lift`).
# Only ASCII symbols count: a typographic apostrophe (`don’t`), CJK stops
# (`、。？`) and the vowel signs of Indic scripts are parts of words or sentences.
_SYMBOL = re.compile(r"""[!"#$%&()*+,:;<=>?@\[\\\]^`{|}~]""")
_EDGE = "?!,;:.`'()\u2019\u3001\u3002\uff0c\uff1f\uff01\uff1a\uff1b"
# A possessive or a contracted "is" on a word of a question ("Tom's phone", "mum’s
# birthday", "what's"): the word alone is searched. Kept, `'s` made the phrase
# "tom s", which a file that says "Tom" never holds, so a plain answer looked weak.
_POSSESSIVE = lazy(r"(?<=[^\W\d_])['\u2019]s$", re.IGNORECASE)

# Words that say what kind of help is wanted, not what it is about ("how do I
# make…", "a way to show…", "find out how many…"): dropped from a query that has at
# least two other content words (docs/search.md gives the figures).
REQUEST_WORDS = frozenset("""
    way ways make makes making show want wants need needs get gets getting use using
    something thing things able possible tell give know like also one many much often
    lot lots kind go see let find figure
    docs doc documentation documented manual manuals mention mentions mentioned
    say says according
    """.split())

# Words that name nothing, beyond the stop list and the request words: the request
# words' other forms (*going*, *told*, *shown*) and the function words the stop list
# leaves out (indefinite pronouns, prepositions, determiners, conjunctions). Search
# keeps them as words; match strength does not count one against a passage when the
# index lacks it, and /chat never takes one for a foreign word (docs/search.md,
# "Words that name nothing").
REQUEST_FORMS = frozenset("""
    made shows showing shown showed wanted wanting needed needing got gotten uses used
    tells telling told gives giving gave given knows knowing knew known likes liked liking
    goes going gone went sees seeing saw seen lets letting finds finding found
    figures figured figuring mentioning said saying
    """.split())
FUNCTION_WORDS = frozenset("""
    anybody anyone anything anywhere everybody everyone everything everywhere
    nobody nothing nowhere somebody someone somewhere
    across along alongside amid among amongst around behind beneath beside besides beyond
    despite inside near onto outside past since throughout toward towards underneath unlike via
    every several enough whatever whichever whoever whenever wherever however
    although though unless whether whereas yet till
    """.split())


# Words of the calendar and the clock: months (not *may* or *march*, words of
# their own), weekdays, days and parts of a day. A question's date or hour says
# when, not what: a manual that never writes *tomorrow* or *April* is silent on
# no subject, so /chat never takes one for a foreign word (`SearchTuning.time_words`).
TIME_WORDS = frozenset("""
    january february april june july august september october november december
    monday tuesday wednesday thursday friday saturday sunday weekend
    today tonight tomorrow yesterday morning afternoon evening night midnight noon
    """.split())


# Words that open a subordinate clause or a contrast (*when*, *before*, *so that*,
# *without*, *instead of*): what follows says when, why or in place of what, the
# circumstances of a request, not the request (`main_clause`; docs/search.md,
# "The circumstances of a request").
CLAUSE_WORDS = frozenset("""
    so when whenever while before after once until unless if because although though
    without
    """.split())
CLAUSE_PAIRS = frozenset({("instead", "of"), ("rather", "than"), ("in", "case"),
                          ("as", "soon")})


def main_clause(tokens: Sequence[str]) -> Optional[FrozenSet[str]]:
    """The words (`tokens`, lower-cased, in order) before the first word that opens a
    subordinate clause or a contrast (`CLAUSE_WORDS`, `CLAUSE_PAIRS`: *make responses
    smaller* of *make responses smaller before sending them*), or None when no such
    word follows the first (*at once* is no clause)."""
    for i in range(1, len(tokens)):
        word = tokens[i]
        if (word in CLAUSE_WORDS and not (word == "once" and tokens[i - 1] == "at")) \
                or tuple(tokens[i:i + 2]) in CLAUSE_PAIRS:
            return frozenset(tokens[:i])
    return None


def is_time_word(word: str) -> bool:
    """A word of `TIME_WORDS`, or its plural (*on Saturdays*, *weekends*, *mornings*)."""
    return word in TIME_WORDS or (word.endswith("s") and word[:-1] in TIME_WORDS)


def is_inflected(word: str) -> bool:
    """A word with a verb's ending, -ed or -ing, after four letters or more (*messed*,
    *oriented*, *cluttering*; not *speed* or *string*): a form of an English verb,
    not the name of a thing (a name is not inflected). A word ending in *string*
    (*docstring*, *substring*, *tostring*) is a string, not a verb's form: no verb
    ends in *-str*."""
    return (word.isascii() and word.isalpha() and not word.endswith("string")
            and any(word.endswith(end) and len(word) - len(end) >= 4 for end in ("ed", "ing")))


def quoted_words(text: str) -> frozenset:
    """The words typed inside quotes, lower-cased, as `parse` reads quotes (“ ” „ « »
    are quotes too; a quote left open quotes nothing)."""
    parts = _quote_parts(str(text)[:MAX_QUERY_CHARS].translate(_QUOTES))
    return frozenset(w.lower() for part in parts[1::2] for w in re.findall(r"\w+", part))


def _quote_parts(text: str) -> List[str]:
    """`text` split at its quotes: odd indexes are inside quotes, even ones outside;
    a trailing unmatched quote leaves plain text."""
    parts = text.split('"')
    if len(parts) % 2 == 0:
        parts[-2] = parts[-2] + " " + parts[-1]
        parts.pop()
    return parts


def names_nothing(word: str) -> bool:
    """A request word's other form or a function word the stop list lacks (*going*,
    *nobody*, *alongside*): typed in a question, it names nothing the answer holds."""
    return word in REQUEST_FORMS or word in FUNCTION_WORDS


# Words that set the subjects on either side of them against each other ("list vs
# tuple", "merge versus rebase"): dropped as request words are, but only between two
# other words; first or last, the word may be part of a name ("VS Code settings").
COMPARISON_WORDS = frozenset({"vs", "versus"})

# Every format the readers produce, and the names people give it (`--type markdown`).
TYPE_ALIASES: Dict[str, str] = {
    "markdown": "md", "mdown": "md", "mkd": "md", "mkdn": "md", "md": "md",
    "htm": "html", "xhtml": "html", "web": "html", "html": "html",
    "text": "txt", "plain": "txt", "plaintext": "txt", "txt": "txt",
    "word": "docx", "doc": "docx", "docx": "docx",
    "excel": "xlsx", "spreadsheet": "xlsx", "xls": "xlsx", "xlsx": "xlsx",
    "powerpoint": "pptx", "slides": "pptx", "ppt": "pptx", "pptx": "pptx",
    "json": "json", "pdf": "pdf", "acrobat": "pdf",
    "csv": "csv", "tsv": "tsv", "rst": "rst", "restructuredtext": "rst",
    "python": "py", "javascript": "js", "typescript": "ts", "shell": "sh", "bash": "sh",
    "c++": "cpp", "csharp": "cs", "c#": "cs", "rust": "rs", "ruby": "rb", "golang": "go",
    "kotlin": "kt", "latex": "tex", "asciidoc": "adoc", "email": "eml", "mail": "eml",
    "notebook": "ipynb", "jupyter": "ipynb", "yml": "yaml", "writer": "odt", "calc": "ods",
    "impress": "odp", "orgmode": "org",
}


def canonical_type(name: str, extensions: Optional[Dict[str, str]] = None) -> str:
    """The stored format for a name a person types: `markdown`, `.MD` and `md` are `md`.

    With `extensions` (the readers' `.ext` → format table), every file
    extension names its format too (`yml` is `yaml`).
    """
    key = str(name).strip().lower().lstrip(".")
    if key in TYPE_ALIASES:
        return TYPE_ALIASES[key]
    return (extensions or {}).get("." + key, key)


class Term(Record, frozen=True):
    """One query term: a token sequence, matched as a phrase when longer than one.

    Terms with the same `slot` are alternatives (`a OR b`): a passage covers
    the slot when it has any of them.
    """

    tokens: Tuple[str, ...]
    prefix: bool = False
    quoted: bool = False
    slot: int = -1

    @property
    def text(self) -> str:
        return " ".join(self.tokens) + ("*" if self.prefix else "")

    @property
    def is_phrase(self) -> bool:
        return len(self.tokens) > 1

    def fts5(self) -> str:
        """This term as an FTS5 string literal (a phrase), quoted so it is never syntax."""
        body = " ".join(t.replace('"', '""') for t in self.tokens)
        return f'"{body}"' + ("*" if self.prefix else "")

    def stems(self) -> Tuple[str, ...]:
        return _stems(self.tokens)

    @property
    def label(self) -> str:
        if self.is_phrase:
            chain = bigram_chain(self.tokens)
            if chain:
                return chain
            return "\"%s\"" % " ".join(self.tokens) + ("*" if self.prefix else "")
        return self.tokens[0] + ("*" if self.prefix else "")


_STEM_CACHE: Dict[Tuple[str, ...], Tuple[str, ...]] = {}


def _stems(tokens: Tuple[str, ...]) -> Tuple[str, ...]:
    out = _STEM_CACHE.get(tokens)
    if out is None:
        if len(_STEM_CACHE) > 20000:
            _STEM_CACHE.clear()
        out = _STEM_CACHE[tokens] = tuple(stem(t) for t in tokens)
    return out


class Query(Record):
    """A parsed query: the text as typed, its terms in order, what it excludes and filters."""

    text: str
    terms: List[Term] = field(default_factory=list)
    excluded: List[Term] = field(default_factory=list)
    fields: Dict[str, List[str]] = field(default_factory=dict)
    # A question in plain words, as people and agents ask: function words of its
    # own ("how do I undo the last commit") or at least two words typed plainly
    # ("undo last commit"); with a quoted span, three content words around it.
    # Its plain words take their synonyms and other forms (docs/search.md).
    question: bool = False
    # The question has function words of its own: a sentence, not a list of words.
    # Ranking weighs a document's further passages differently for it.
    sentence: bool = False
    # Words typed with symbols the index does not keep, lower-cased as written.
    literals: Tuple[str, ...] = ()
    # Prefixes typed too short to search as one (`c*`), as typed: searched as words.
    short_prefixes: Tuple[str, ...] = ()
    # Code names typed (`add_patterns`, `json.loads`, `parseArgs`, or a query of
    # one word), lower-cased: a passage headed by one of them is its definition.
    names: Tuple[str, ...] = ()
    # Every word typed is a code name by its form (`res.sendFile`, `send_file`,
    # `Parser.parse tokens`... not a word typed alone): search is for definitions.
    names_only: bool = False
    # The one name is a plain word typed alone (`tokens`, `insurance`): it names a
    # definition in code files only, where sections are definitions.
    bare_name: bool = False
    # For a question: (index of a term, a synonym of it) from the thesaurus, for a
    # bare word typed as a word (not quoted, not a prefix, not part of an
    # identifier, not excluded, not in an `OR`). Search counts a word held only
    # by a synonym below the word itself (docs/search.md, "Synonyms").
    expansions: List[Tuple[int, Term]] = field(default_factory=list)
    # Which of those are another form of the word itself (*hidden* of *hide*:
    # wordforms.py), held as the word is.
    forms: FrozenSet[Tuple[str, ...]] = frozenset()

    @property
    def empty(self) -> bool:
        return not self.terms

    def fts5(self) -> str:
        """The FTS5 MATCH expression: every term ORed (ranking rewards covering more)."""
        expr = " OR ".join(t.fts5() for t in self.terms)
        if self.excluded and expr:
            expr = f"({expr}) NOT ({' OR '.join(t.fts5() for t in self.excluded)})"
        return expr

    def labels(self) -> List[str]:
        """How each term is shown to a person (`--explain`)."""
        return [t.label for t in self.terms]

    def slots(self) -> List[List[int]]:
        """Term indexes grouped by slot: each group is one thing the query asks for."""
        groups: Dict[int, List[int]] = {}
        out: List[List[int]] = []
        for i, t in enumerate(self.terms):
            if t.slot < 0:
                out.append([i])
            elif t.slot in groups:
                groups[t.slot].append(i)
            else:
                groups[t.slot] = [i]
                out.append(groups[t.slot])
        return out

    def filters(self, base: "Filters") -> "Filters":
        """`base` narrowed by the query's own `type:`, `source:` and `path:` filters."""
        if not self.fields:
            return base
        formats = tuple(canonical_type(v) for v in self.fields.get("type", ()))
        sources = tuple(self.fields.get("source", ()))
        paths = self.fields.get("path", ())
        return Filters(sources=base.sources + sources, formats=base.formats + formats,
                       path_glob=(paths[-1] if paths else base.path_glob),
                       after_ns=base.after_ns, before_ns=base.before_ns)


# A piece of the query before the terms are made: (tokens, quoted, prefix, excluded, or_before)
_Piece = Tuple[Tuple[str, ...], bool, bool, bool, bool]


def parse(text: str) -> Query:
    """Parse any string into a Query; never raises."""
    try:
        return _parse(text)
    except Exception:   # pragma: no cover - a last resort: the words, plainly
        words = tuple(tokenize(str(text)[:MAX_QUERY_CHARS]))[:MAX_TERMS]
        return Query(str(text), [Term((w,)) for w in words])


def _parse(text: str) -> Query:
    text = str(text)[:MAX_QUERY_CHARS].translate(_QUOTES)
    fields: Dict[str, List[str]] = {}
    pieces: List[_Piece] = []
    parts = _quote_parts(text)
    negate_next = or_next = False
    literals: List[str] = []
    names: List[str] = []
    short: List[str] = []   # `c*`: too short for a prefix, searched as the word
    for i, part in enumerate(parts):
        if i % 2:
            tokens = tuple(search_tokens(part))
            if tokens:
                pieces.append((tokens, True, False, negate_next, or_next))
                if not negate_next:
                    literals.extend(_literal(w) for w in part.split())
            negate_next = or_next = False
            continue
        words = part.split()
        # `-"a phrase"` and `NOT "a phrase"`: the operator is the last word before the quote.
        trailing_op = None
        if i + 1 < len(parts) and words and (words[-1] in ("-", "NOT", "OR")):
            trailing_op = words.pop()
        elif i + 1 < len(parts) and part and not part[-1].isspace() and words and words[-1] == "-":
            trailing_op = words.pop()
        for w in words:
            count = len(pieces)
            negate_next, or_next = _word(w, pieces, fields, negate_next, or_next)
            if len(pieces) > count and not pieces[count][3]:
                literals.append(_literal(w))
                names.append(code_name(w) or option_name(w))
                if w.rstrip("?!,;:.").endswith("*") and len(pieces[count][0][-1]) < MIN_PREFIX_LEN:
                    short.append(w)
        if trailing_op == "OR" and pieces:
            or_next = True
        elif trailing_op in ("-", "NOT"):
            negate_next = True
    query = _build(text, pieces, fields)
    # Bounded like the terms: search scans each candidate's text for each of them.
    query.literals = tuple(dict.fromkeys(w for w in literals if w))[:MAX_TERMS]
    query.short_prefixes = tuple(dict.fromkeys(short))[:MAX_TERMS]
    if (len(pieces) == 1 and not pieces[0][1] and not pieces[0][3] and len(text.split()) == 1
            and not any(names)):
        names = [code_name(text, bare=True)]   # one word alone may name a definition…
        query.bare_name = bool(names[0])        # …in code only: in prose it is a word
    query.names_only = bool(names) and all(names) and len(parts) == 1
    query.names = tuple(dict.fromkeys(w for w in names if w))[:MAX_TERMS]
    return query


_CODE_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(?:(?:\.|::|->)[A-Za-z_][A-Za-z0-9_]*)*")
_NAME_PARTS = re.compile(r"\.|::|->")
_NUMBERING = lazy(r"[(\[§]?[0-9]+(?:\.[0-9]+)*[.):\]]*")


# Words that may come before a name in a declaration or a documented signature.
_DECLARERS = frozenset(
    "abstract abstractmethod async attribute await char class classmethod const coroutine "
    "data def double enum exception extern final float fn func function impl inline int "
    "interface let long macro method module namespace object package private property "
    "protected public short signed static staticmethod struct trait type typedef union "
    "unsigned var virtual void".split())


def code_name(word: str, bare: bool = False) -> str:
    """A word or heading as a code name, lower-cased (`@json.loads(s)` -> `json.loads`), or ''.

    A name has a `_`, a `.`, `::` or `->` inside, or a change of case
    (`parseArgs`): `json` alone is a word like any other, unless `bare`. Of a
    heading of several words, the name is the last one before a `(`, or after
    declaration words (`class json.JSONDecoder`) or a section number (`(5)
    SQLITE_BUSY`); `Rim brakes` names nothing.
    """
    head, paren, _ = word.strip(_EDGE).partition("(")
    words = head.split()
    numbers = 0
    while numbers < len(words) - 1 and _NUMBERING.fullmatch(words[numbers]):   # `4.4.`, `(5)`, `§3`
        numbers += 1
    words = words[numbers:]
    if not words or (len(words) > 1 and not paren
                     and not all(w.lower() in _DECLARERS for w in words[:-1])):
        return ""
    word = words[-1].lstrip("@~*&")
    if not _CODE_NAME.fullmatch(word):
        return ""
    dunder = len(word) > 4 and word.startswith("__") and word.endswith("__")
    if (bare or dunder or "_" in word.strip("_") or _NAME_PARTS.search(word)
            or has_identifiers(word)):
        return word.lower()
    return ""


def names_heading(heading: str, names: Sequence[str]) -> bool:
    """Is a heading one of the names, or (for a name of one part) a member of that name,
    or one of the options it documents (`-e, --eval "script"`)?"""
    name = code_name(heading, bare=True)
    if name:
        return name in names or _NAME_PARTS.split(name)[-1] in names
    return any(option in names for option in heading_options(heading))


# A command-line option as typed: `-X`, `--inspect-brk`, `--max-old-space-size=4096`.
_OPTION = re.compile(r"--?[A-Za-z][A-Za-z0-9_-]*")


def option_name(word: str) -> str:
    """The option a word is (`--depth=1` -> `--depth`), as typed, or ''. Case is kept:
    `-x` and `-X` are different options."""
    word = word.strip(_EDGE)
    m = _OPTION.match(word)
    if not m or (m.end() < len(word) and word[m.end()] not in "=["):
        return ""
    return m.group().rstrip("-")


def heading_options(heading: str) -> List[str]:
    """The options a heading documents, when it starts with one: `--inspect-brk[=[host:]port]`,
    `-e, --eval "script"`, `-m <mode>`."""
    if not heading.lstrip(_EDGE).startswith("-"):
        return []
    options = (option_name(piece.split()[0]) for piece in heading.split(",") if piece.split())
    return [option for option in options if option]


_WORD_SEPARATORS = lazy(r"_+")


@functools.lru_cache(maxsize=8192)
def heading_words(heading: str) -> Tuple[str, ...]:
    """The stems of the words of a heading's code name, when it is made of two or more
    (`Flask.test_client` -> ('test', 'client'), `renderPrintPage` -> three); else ()."""
    name = code_name(heading, bare=True)
    if not name:
        return ()
    head = heading.strip(_EDGE).partition("(")[0].split()
    if head and head[-1].lstrip("@~*&").lower() == name:
        name = head[-1].lstrip("@~*&")   # as written: its case changes count
    name = _NAME_PARTS.split(name)[-1]
    parts: List[str] = []
    for piece in _WORD_SEPARATORS.split(name):
        parts.extend(identifier_parts(piece) or search_tokens(piece))
    return _stems(tuple(parts)) if len(parts) > 1 else ()


def word_runs(query: "Query") -> FrozenSet[Tuple[str, ...]]:
    """Runs of two to four words typed one after another (stems), which a code name
    may join: *the test client* is `test_client`."""
    words = [t.stems()[0] for t in query.terms if len(t.tokens) == 1 and not t.prefix]
    return frozenset(tuple(words[i:j]) for i in range(len(words))
                     for j in range(i + 2, min(i + 4, len(words)) + 1))


def _literal(word: str) -> str:
    """The word as written, lower-cased, when it holds a symbol the index drops; else ''."""
    word = word.strip(_EDGE).lower()
    if len(word) > 2 and not word.endswith("*") and _SYMBOL.search(word) and any(c.isalnum() for c in word):
        return word
    return ""


def _word(w: str, pieces: List[_Piece], fields: Dict[str, List[str]],
          negate: bool, or_before: bool) -> Tuple[bool, bool]:
    """Add one whitespace-separated word; returns (negate the next, OR with the next)."""
    if w == "NOT":
        return True, or_before
    if w == "OR" and pieces and not negate:
        return False, True
    key, sep, value = w.partition(":")
    if sep and key.lower() in FIELDS and value.strip("*"):
        fields.setdefault(key.lower(), []).append(value)
        return negate, or_before
    if len(w) > 2 and w[0] == "-" and w[1] != "-" and tokenize(w[1:]):
        # `-word` excludes; `-X` (one letter) and `--flag` stay literal options.
        w, negate = w[1:], True
    bare = w.rstrip("?!,;:.")
    if "'" in bare or "\u2019" in bare:   # a possessive is written with an apostrophe
        bare = _POSSESSIVE.sub("", bare)
    w = bare or w
    prefix = w.endswith("*") and len(w.rstrip("*")) > 0
    tokens = tuple(search_tokens(w))
    if not tokens:
        return negate, or_before
    if prefix and len(tokens[-1]) < MIN_PREFIX_LEN:
        prefix = False
    pieces.append((tokens, False, prefix, negate, or_before and not negate))
    if not negate:   # `parseArgs` is also `parse_args`: its parts, as an alternative
        pieces.extend((parts, True, False, False, True) for parts in identifier_phrases(w))
    return False, False


def _build(text: str, pieces: List[_Piece], fields: Dict[str, List[str]]) -> Query:
    terms: List[Term] = []
    excluded: List[Term] = []
    typed = [(tokens, prefix) for tokens, quoted, prefix, negate, _ in pieces
             if not negate and not quoted]
    sentence = any(len(tokens) == 1 and is_stopword(tokens[0]) for tokens, _ in typed)
    words = [tokens for tokens, prefix in typed if not prefix]
    precise = any(quoted for _, quoted, _, _, _ in pieces)
    question = ((not precise or sum(1 for t in words if len(t) == 1 and _informative(t[0]))
                 >= QUOTED_QUESTION_WORDS)
                and (sentence or len(words) >= QUESTION_WORDS))
    slot = 0
    prev_slot = -1
    for tokens, quoted, prefix, negate, or_before in pieces:
        if negate:
            excluded.append(Term(tokens, prefix=prefix, quoted=quoted))
            continue
        if or_before and terms:
            if terms[-1].slot < 0:
                slot += 1
                terms[-1] = _with_slot(terms[-1], slot)
            this_slot = terms[-1].slot
        else:
            this_slot = -1
        made = _terms_of(tokens, quoted, prefix)
        terms.extend(_with_slot(t, this_slot) if this_slot >= 0 else t for t in made)
        prev_slot = this_slot
    del prev_slot
    informative = [t for t in terms if t.quoted or t.is_phrase or t.prefix
                   or _informative(t.tokens[0]) or t.slot >= 0]
    if informative:
        content = [t for i, t in enumerate(informative)
                   if not (is_request(t) or _function_phrase(t) or _compares(informative, i))]
        terms = content if len(content) >= 2 else informative
    elif len(terms) > 1:
        # Nothing but common words: a quotation or a fixed expression ("to be or
        # not to be", "let it be"), so the words in their order, as a phrase.
        terms = [Term(tuple(tok for t in terms for tok in t.tokens))]
    else:  # one common word or letter (`the`, `C++`): that word, exactly
        terms = [Term(t.tokens) for t in terms]
    terms = _dedupe([_shortened(t) for t in terms])[:MAX_TERMS]
    excluded = _dedupe([_shortened(t) for t in excluded])[:MAX_TERMS]
    expansions, forms = _expansions(terms, pieces) if question else ([], frozenset())
    return Query(text, terms, excluded, fields, question, question and sentence,
                 expansions=expansions, forms=forms)


def _expansions(terms: List[Term], pieces: List[_Piece]
                ) -> Tuple[List[Tuple[int, Term]], FrozenSet[Tuple[str, ...]]]:
    """The thesaurus's synonyms of the question's words typed as plain words, and
    the forms of them the stemmer does not join (which of those the second value
    names: wordforms.py)."""
    plain = [tokens[0] if len(tokens) == 1 and not quoted and not prefix and not negate else None
             for tokens, quoted, prefix, negate, _ in pieces]
    typed = set(plain)
    have = {t.stems() for t in terms}
    out: List[Tuple[int, Term]] = []
    forms: List[Tuple[str, ...]] = []

    def add(i: int, found: List[Tuple[str, ...]]) -> None:
        for words in found[:SYNONYMS_PER_WORD]:
            term = Term(words)
            if term.stems() not in have and len(out) < SYNONYMS_PER_QUERY:
                have.add(term.stems())
                out.append((i, term))

    at = {t.tokens[0]: i for i, t in enumerate(terms)
          if not (t.is_phrase or t.prefix or t.quoted or t.slot >= 0)}
    # Two or three words typed one after the other may be one entry (`log in`,
    # `out of memory`): its synonyms go with the first of them the question kept, and
    # the entry says which sense its words have, so theirs are not searched (*broken
    # into* is compromised, not corrupt).
    paired: Set[str] = set()
    for n in (3, 2):
        for k in range(len(plain) - n + 1):
            words = plain[k:k + n]
            kept = [w for w in words if w in at]
            if kept and None not in words:
                found = synonyms(" ".join(words))   # type: ignore[arg-type]
                if found:
                    paired.update(words)   # type: ignore[arg-type]
                    add(at[kept[0]], found)
    # Words a hyphen joins are searched as their phrase (`see-through`, `built-in`), and
    # may be one entry too.
    joined = {t.tokens: i for i, t in enumerate(terms)
              if t.is_phrase and not (t.prefix or t.quoted or t.slot >= 0)}
    for tokens, quoted, prefix, negate, _ in pieces:
        i = joined.get(tokens) if 1 < len(tokens) <= 3 and not (quoted or prefix or negate) else None
        if i is not None:
            add(i, synonyms(" ".join(tokens)))
    for word, i in at.items():
        if word in typed:
            for form in other_forms(word) if not is_request(terms[i]) else ():
                if (stem(form),) not in have and len(forms) < SYNONYMS_PER_QUERY:
                    have.add((stem(form),))
                    forms.append((form,))
                    out.append((i, Term((form,))))
            if word not in paired:
                add(i, synonyms(word))
    return out, frozenset(forms)


def _shortened(term: Term) -> Term:
    """The term, a phrase cut to its first MAX_PHRASE_TOKENS words (no longer a prefix)."""
    if len(term.tokens) <= MAX_PHRASE_TOKENS:
        return term
    return Term(term.tokens[:MAX_PHRASE_TOKENS], False, term.quoted, term.slot)


def _with_slot(term: Term, slot: int) -> Term:
    return Term(term.tokens, term.prefix, term.quoted, slot)


def _terms_of(tokens: Tuple[str, ...], quoted: bool, prefix: bool) -> List[Term]:
    if quoted or len(tokens) == 1:
        return [Term(tokens, prefix=prefix, quoted=quoted)]
    out = [Term(tokens, prefix=prefix)]
    if all(t.isdigit() for t in tokens):   # `3.11`, `1,000,000`, `2024-01-15`: one number
        return out
    if _contraction(tokens):   # `won't`: not the word *won*
        return out
    out.extend(Term((t,)) for t in tokens if _informative(t) and not _joined(t))
    return out


def is_request(term: Term) -> bool:
    """A request word typed alone (*need*, *show*, *make*): it asks, it names nothing."""
    return (len(term.tokens) == 1 and not term.quoted and not term.prefix and term.slot < 0
            and term.tokens[0] in REQUEST_WORDS)


def is_filler(term: Term) -> bool:
    """A word typed alone that names nothing (`names_nothing`: *going*, *nobody*)."""
    return (len(term.tokens) == 1 and not term.quoted and not term.prefix and term.slot < 0
            and names_nothing(term.tokens[0]))


def _compares(terms: List[Term], i: int) -> bool:
    """Is `terms[i]` a *vs* or *versus* typed bare between two other terms?"""
    term = terms[i]
    return (0 < i < len(terms) - 1 and len(term.tokens) == 1 and not term.quoted
            and not term.prefix and term.slot < 0 and term.tokens[0] in COMPARISON_WORDS)


# Latin abbreviations a sentence is written with, as the tokenizer splits them.
_ABBREVIATIONS = frozenset({("e", "g"), ("i", "e")})
# The endings a contraction of function words leaves after the tokenizer splits it at
# the apostrophe (`'s` is left off before: `_POSSESSIVE`).
_CONTRACTED = frozenset({"ll", "re", "ve", "d"})


def _contraction(tokens: Tuple[str, ...]) -> bool:
    """Are these the pieces of a contraction of function words? Any *n't* (*doesn't*,
    *can't*, and *won't*, *shan't*, *mustn't*, whose *won*, *shan*, *mustn* are no
    common words), *I'm*, or *'ll*, *'re*, *'ve*, *'d* after a common word (*I'll*,
    *you're*, *should've*, *we'd*). Not any two common words a hyphen or a dot joins:
    *to-do*, *do-while*, *what-if*, *a.m.* name something."""
    if len(tokens) != 2:
        return False
    word, tail = tokens
    return ((tail == "t" and word.endswith("n")) or (tail == "m" and word == "i")
            or (tail in _CONTRACTED and (len(word) > 1 or word == "i") and is_stopword(word)))


def _function_phrase(term: Term) -> bool:
    """A contraction of function words or an *e.g.* typed bare (*doesn't*, *I'm*): it names nothing."""
    return (term.is_phrase and not term.quoted and term.slot < 0
            and (_contraction(term.tokens) or term.tokens in _ABBREVIATIONS))


def _joined(token: str) -> bool:
    """Is the token a CJK bigram, which means nothing apart from its phrase?"""
    return bigram_chain((token,)) is not None



def _informative(token: str) -> bool:
    return len(token) > 1 and not is_stopword(token)


def _dedupe(terms: List[Term]) -> List[Term]:
    seen = set()
    out = []
    for t in terms:
        key = (t.stems(), t.prefix)
        if key not in seen:
            seen.add(key)
            out.append(t)
    return out


class Filters(Record, frozen=True):
    """Restrictions a search applies to documents (all optional)."""

    sources: Tuple[str, ...] = ()
    formats: Tuple[str, ...] = ()
    path_glob: Optional[str] = None
    after_ns: Optional[int] = None
    before_ns: Optional[int] = None

    @property
    def any(self) -> bool:
        return bool(self.sources or self.formats or self.path_glob
                    or self.after_ns is not None or self.before_ns is not None)
