"""User text → a parsed query → an FTS5 expression, with no way for syntax to leak.

Whatever a person types is a valid query. The text is cut into quoted spans
(exact phrases) and bare words; every word goes through the same tokenizer as
the index, so operators, stray quotes, `NEAR(`, `col:`, `*`, `^`, NUL and emoji
are only ever text. A bare word that the tokenizer splits (`os.path.join`,
`sparse-checkout`, `src/app.py`, `don't`) becomes a phrase of its pieces, so
it matches what the user meant, plus its informative pieces as plain terms.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import List, Optional, Tuple

from .analysis import bigram_chain, identifier_phrases, is_stopword, search_tokens, stem

MAX_QUERY_CHARS = 4000
MAX_TERMS = 32
MIN_PREFIX_LEN = 3

_QUOTES = str.maketrans({"\u201c": '"', "\u201d": '"', "\u201e": '"', "\u00ab": '"',
                         "\u00bb": '"', "\x00": " "})


@dataclass(frozen=True)
class Term:
    """One query term: a token sequence, matched as a phrase when longer than one."""

    tokens: Tuple[str, ...]
    prefix: bool = False
    quoted: bool = False

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
        return tuple(stem(t) for t in self.tokens)


@dataclass
class Query:
    """A parsed query: the text as typed and its terms, in order of appearance."""

    text: str
    terms: List[Term] = field(default_factory=list)

    @property
    def empty(self) -> bool:
        return not self.terms

    def fts5(self) -> str:
        """The FTS5 MATCH expression: every term ORed (ranking rewards covering more)."""
        return " OR ".join(t.fts5() for t in self.terms)

    def labels(self) -> List[str]:
        """How each term is shown to a person (`--explain`)."""
        return [_label(t) for t in self.terms]


def _label(term: Term) -> str:
    if not term.is_phrase:
        return term.tokens[0]
    return bigram_chain(term.tokens) or "\"%s\"" % " ".join(term.tokens)


def parse(text: str) -> Query:
    """Parse any string into a Query; never raises."""
    text = str(text)[:MAX_QUERY_CHARS].translate(_QUOTES)
    terms: List[Term] = []
    parts = text.split('"')
    # Even indexes are outside quotes; a trailing unmatched quote leaves plain text.
    if len(parts) % 2 == 0:
        parts[-2] = parts[-2] + " " + parts[-1]
        parts.pop()
    for i, part in enumerate(parts):
        if i % 2:
            tokens = tuple(search_tokens(part))
            if tokens:
                terms.append(Term(tokens, quoted=True))
        else:
            terms.extend(_bare_terms(part))
    informative = [t for t in terms if t.quoted or t.is_phrase or _informative(t.tokens[0])]
    if informative:
        terms = informative
    elif len(terms) > 1:
        # Nothing but common words: a quotation or a fixed expression ("to be or
        # not to be", "let it be"), so the words in their order, as a phrase.
        terms = [Term(tuple(tok for t in terms for tok in t.tokens))]
    else:  # one common word or letter (`the`, `C++`): that word, exactly
        terms = [Term(t.tokens) for t in terms]
    return Query(text, _dedupe(terms)[:MAX_TERMS])


def _bare_terms(text: str) -> List[Term]:
    out: List[Term] = []
    for word in text.split():
        tokens = tuple(search_tokens(word))
        if not tokens:
            continue
        if len(tokens) == 1:
            out.append(_single(tokens[0]))
        else:
            out.append(Term(tokens))
            out.extend(_single(t) for t in tokens if _informative(t) and not _joined(t))
        out.extend(_identifier_terms(word))
    return out


def _joined(token: str) -> bool:
    """Is the token a CJK bigram, which means nothing apart from its phrase?"""
    return bigram_chain((token,)) is not None


def _identifier_terms(word: str) -> List[Term]:
    """`parseArgs` is also `parse_args`: the phrase of its parts, for each token
    of the word (`merge.conflictStyle` gives "conflict style")."""
    return [Term(parts) for parts in identifier_phrases(word)]


def _single(token: str) -> Term:
    return Term((token,), prefix=len(token) >= MIN_PREFIX_LEN and not token.isdigit())


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



@dataclass(frozen=True)
class Filters:
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
