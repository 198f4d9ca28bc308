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

Each phrase is hashed to a stable signed 64-bit id (BLAKE2b, not ``hash()``,
so ids agree across processes and PYTHONHASHSEED); the lowest bit says
whether it is a bigram.  A document's phrases are packed sorted and unique as
``array('q')`` bytes.

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

import heapq
import re
from array import array
from collections import Counter
from hashlib import blake2b
from typing import Dict, Iterable, List, Tuple

from .analysis import STOPWORDS, stem, token_spans, tokenize

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


def phrase_id(phrase: str, bigram: bool = False) -> int:
    """The stable id of one normalised phrase ("stem" or "stem stem")."""
    digest = blake2b(phrase.encode("utf-8", "surrogatepass"), digest_size=8).digest()
    return (int.from_bytes(digest, "little", signed=True) & ~1) | bigram


def is_bigram(pid: int) -> bool:
    """Is this phrase id a bigram (else a single term)?"""
    return bool(pid & 1)


def unpack(blob: bytes) -> array:
    """A packed phrase set back into a sorted ``array('q')``."""
    arr = array("q")
    arr.frombytes(blob)
    return arr


class _StemCache(Dict[str, str]):
    """token -> stem, or "" for a token that is not a phrase on its own."""

    def __missing__(self, token: str) -> str:
        if (len(token) < 2 or len(token) > MAX_TOKEN_CHARS or token in STOPWORDS
                or token.isdigit()):
            value = ""
        else:
            value = stem(token)
        self[token] = value
        return value


class _IdCache(Dict[str, int]):
    """stem -> single-term phrase id."""

    def __missing__(self, key: str) -> int:
        value = self[key] = phrase_id(key)
        return value


_STEMS = _StemCache()
_IDS = _IdCache()


def _bigram_id(pair: Tuple[str, str]) -> int:
    return phrase_id(pair[0] + " " + pair[1], True)


def _stems(text: str) -> List[str]:
    """The stem of each token, "" where the token is no phrase (or a break was)."""
    if len(_STEMS) > _CACHE_LIMIT:
        _STEMS.clear()
        _IDS.clear()
    return list(map(_STEMS.__getitem__, tokenize(_with_breaks(text))))


def phrase_ids(title: str, text: str) -> List[int]:
    """Unsorted unique phrase ids of a document (before the budget)."""
    title_stems, body_stems = _stems(title), _stems(text)
    singles = set(title_stems)
    singles.update(body_stems)
    singles.discard("")
    pairs = set(zip(title_stems, title_stems[1:]))
    pairs.update(zip(body_stems, body_stems[1:]))
    ids = list(map(_IDS.__getitem__, singles))
    ids.extend(map(_bigram_id, filter(all, pairs)))  # all(): neither stem dropped
    return ids


def title_terms(title: str) -> List[int]:
    """Sorted single-term phrase ids of a title (for the graph's title bonus)."""
    return sorted(set(map(_IDS.__getitem__, filter(None, _stems(title)))))


def document_phrases(title: str, text: str) -> bytes:
    """The document's graph phrases, as sorted unique ``array('q')`` bytes."""
    ids = phrase_ids(title, text)
    if len(ids) > MAX_PHRASES:
        ids = heapq.nsmallest(MAX_PHRASES, ids)
    ids.sort()
    return array("q", ids).tobytes()


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
        prev_stem, prev_word = "", ""
        for start, end, token in token_spans(part):
            word = part[start:end].lower()
            s = _STEMS[token]
            if s:
                pid = _IDS[s]
                if pid in wanted:
                    seen.setdefault(pid, Counter())[word] += 1
                if prev_stem:
                    pid = _bigram_id((prev_stem, s))
                    if pid in wanted:
                        seen.setdefault(pid, Counter())[prev_word + " " + word] += 1
            prev_stem, prev_word = s, word
    out = {}
    for pid, forms in seen.items():
        form = min(forms.items(), key=lambda kv: (-kv[1], kv[0]))[0]
        out[pid] = (form, sum(forms.values()))
    return out
