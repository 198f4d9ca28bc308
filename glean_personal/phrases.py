"""A document's graph phrases: the single terms and bigrams the content graph links on.

Phrases are normalised with the same analysis as search (unicode61 folding,
FTS5's Porter stems), so "Sparse checkouts" and "sparse checkout" are one
phrase, and what the graph shows agrees with what search matches.

* Single terms: every stem except stopwords, pure numbers and 1-character
  tokens, which carry no subject.
* Bigrams: two adjacent kept tokens.  A token that is dropped (a stopword, a
  number) breaks the chain, so "state of the art" yields no bigram and no
  bigram is ever made of two stopwords.  So do the end of a sentence, a blank
  line, a tab and a table bar: "...the API. Specializing..." is no phrase.

Each phrase is hashed to a stable signed 32-bit id (BLAKE2b, not ``hash()``,
so ids agree across processes and PYTHONHASHSEED; a bigram's id is mixed from
its two terms' ids); the lowest bit says whether it is a bigram.  A document's
phrases are packed sorted and unique as ``array('i')`` bytes: 32 bits keep the
phrase sets, a quarter of the file, half as big, and at a few million distinct
phrases a collision touches well under 0.1% of them.

Bounded work: the phrase set is capped at `MAX_PHRASES`, keeping the phrases
with the smallest ids.  The id is a property of the phrase, not of the
document or of iteration order, so two near-duplicate documents keep the same
shared phrases (a bottom-k sketch) -- a per-document rank would keep disjoint
slices of the phrases that connect them.

This runs in the indexer's worker processes for every document: the stem and
id of each distinct token are cached per process, and set operations do the
per-token work at C speed.
"""
from __future__ import annotations

import re
from array import array
from collections import Counter
from typing import Dict, Iterable, List, Tuple

from .analysis import STOPWORDS, stem, token_spans, tokenize
from .formats.titles import own_title

__all__ = ["MAX_PHRASES", "document_phrases", "is_bigram", "phrase_forms", "phrase_id",
           "phrase_ids", "phrase_texts", "title_terms", "unpack"]

MAX_PHRASES = 20_000
"""Phrases kept per document.  Prose has 3,000-6,000 per 100 KB, so only
documents past about half a megabyte are sampled (a 4 MB one has ~70,000)."""

MAX_TOKEN_CHARS = 48
"""Longer tokens (base64, minified code) are noise, never a subject."""

# Sentence ends, blank lines, tabs and table bars become a stopword: no bigram spans them.
_BREAKS = re.compile(r"[.!?;:]\s|\n\s*\n")
_BREAK = " a "


def _with_breaks(text: str) -> str:
    return _BREAKS.sub(_BREAK, text.replace("\t", _BREAK).replace("|", _BREAK))


_CACHE_LIMIT = 200_000  # cached tokens per process before the caches start over


ID_TYPECODE = "i"
ID_BITS = 32
_MASK = (1 << ID_BITS) - 1


def phrase_id(phrase: str, bigram: bool = False) -> int:
    """The stable id of one normalised phrase ("stem" or "stem stem")."""
    if bigram:
        first, second = phrase.split(" ", 1)
        return _pair_id(phrase_id(first), phrase_id(second))
    from hashlib import blake2b   # here: a search, which only reads ids, never loads hashlib
    digest = blake2b(phrase.encode("utf-8", "surrogatepass"), digest_size=4).digest()
    return int.from_bytes(digest, "little", signed=True) & ~1


_C1, _C2, _C3 = 0x9E3779B1, 0x632BE5AB, 0x85EBCA77


def _pair_id(first: int, second: int) -> int:
    """A bigram's id, mixed from its two terms' ids (cheaper than hashing its text)."""
    h = (((first * _C1) ^ (second + _C2)) * _C3 >> 7) & _MASK
    return (h - ((h >> (ID_BITS - 1)) << ID_BITS)) | 1


def is_bigram(pid: int) -> bool:
    """Is this phrase id a bigram (else a single term)?"""
    return bool(pid & 1)


def unpack(blob: bytes) -> array:
    """A packed phrase set back into a sorted array of ids."""
    arr = array(ID_TYPECODE)
    arr.frombytes(blob)
    return arr


class _TokenIds(Dict[str, int]):
    """token -> its single-term phrase id, or 0 for a token that is no phrase."""

    def __missing__(self, token: str) -> int:
        if (len(token) < 2 or len(token) > MAX_TOKEN_CHARS or token in STOPWORDS
                or token.isdigit()):
            value = 0
        else:
            value = phrase_id(stem(token))
        self[token] = value
        return value


_IDS = _TokenIds()


def _token_ids(text: str) -> List[int]:
    """The phrase id of each token, 0 where the token is no phrase (or a break was)."""
    if len(_IDS) > _CACHE_LIMIT:
        _IDS.clear()
    return list(map(_IDS.__getitem__, tokenize(_with_breaks(text))))


def _pair_ids(pairs: Iterable[Tuple[int, int]]) -> array:
    """`_pair_id` of each pair of kept tokens, inlined: it runs once per distinct pair."""
    unsigned = array("I", [((a * _C1) ^ (b + _C2)) * _C3 >> 7 & _MASK | 1
                           for a, b in pairs if a and b])   # neither token dropped
    return array(ID_TYPECODE, unsigned.tobytes())   # the same bits, read as signed


def phrase_ids(title: str, text: str) -> List[int]:
    """Unsorted unique phrase ids of a document (before the budget)."""
    title_ids, body_ids = _token_ids(title), _token_ids(text)
    singles = set(title_ids)
    singles.update(body_ids)
    singles.discard(0)
    pairs = set(zip(title_ids, title_ids[1:]))
    pairs.update(zip(body_ids, body_ids[1:]))
    ids = list(singles)
    ids.extend(_pair_ids(pairs))
    return ids


def title_terms(title: str) -> List[int]:
    """Sorted single-term phrase ids of a title (for the graph's title bonus), less the
    folder a generic file name is told apart by (`todo (notes)`)."""
    return sorted(set(filter(None, _token_ids(own_title(title)))))


def document_phrases(title: str, text: str) -> bytes:
    """The document's graph phrases, as sorted unique ``array('i')`` bytes."""
    ids = phrase_ids(title, text)
    if len(ids) > MAX_PHRASES:
        import heapq   # only here: a search, which just unpacks phrase sets, never needs it
        ids = heapq.nsmallest(MAX_PHRASES, ids)
    ids.sort()
    return array(ID_TYPECODE, ids).tobytes()


def phrase_texts(title: str, text: str, ids: Iterable[int]) -> Dict[int, str]:
    """Readable text of the given phrase ids, as they are written in the document.

    Each id maps to its most frequent surface form ("sparse checkouts", not the
    stems "spars checkout"), lower-cased, ties broken alphabetically.  Ids the
    document does not contain are left out.
    """
    return {pid: form for pid, (form, _) in phrase_forms(title, text, ids).items()}


def phrase_forms(title: str, text: str, ids: Iterable[int]) -> Dict[int, Tuple[str, int]]:
    """Like `phrase_texts`, with how often each phrase occurs in the document."""
    wanted = set(ids)
    if not wanted:
        return {}
    seen: Dict[int, Counter] = {}
    for part in (title, text):
        part = _with_breaks(part)
        prev_id, prev_word = 0, ""
        for start, end, token in token_spans(part):
            word = part[start:end].lower()
            single = _IDS[token]
            if single:
                if single in wanted:
                    seen.setdefault(single, Counter())[word] += 1
                if prev_id:
                    pid = _pair_id(prev_id, single)
                    if pid in wanted:
                        seen.setdefault(pid, Counter())[prev_word + " " + word] += 1
            prev_id, prev_word = single, word
    out = {}
    for pid, forms in seen.items():
        form = min(forms.items(), key=lambda kv: (-kv[1], kv[0]))[0]
        out[pid] = (form, sum(forms.values()))
    return out
