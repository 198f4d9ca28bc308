"""Did you mean: for a query word the index does not know, close words it does know.

Read from the index's own vocabulary, so suggestions are words that would find
something here (docs/search.md, "Helpful empties").
"""
from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from .analysis import STOPWORDS, stem, tokenize
from .store.core import Store, passage_text


MAX_SUGGESTIONS = 3
# Stems up to this long are offered words one edit away, longer ones two.
ONE_EDIT_UP_TO = 5
# ... and are near a word one edit away, longer ones two (`near_words`: a looser reach).
NEAR_ONE_EDIT_UP_TO = 4
# Passages read for the words that show a suggested stem (`_surface`).
SURFACE_PASSAGES = 4


def suggest_words(store: Store, words: Sequence[str]) -> Dict[str, List[str]]:
    """For words the index does not know: close words it does know ("did you mean").

    Candidates share the first letter and either the second or (a swap) the
    third, and are within a small edit distance of the word's stem: one edit
    for stems up to ONE_EDIT_UP_TO letters, else two. Only the nearest found
    are offered, the commonest first: a real word the text does not use
    (*decide*) is seldom one slip from a word it does (*deck* is two), and
    bench/spelling.py measures both limits. Each is shown as a word from a
    passage that holds it, not as a bare stem. (Reading a slice of the index's
    vocabulary costs 2-8 ms on a large index, so only those two slices of it
    are read, and a word's candidates are kept on the connection while the
    index is unchanged.)
    """
    offered = {}
    for word, near in _per_word(store, "near", words, _near).items():
        bound = 1 if len(stem(word)) <= ONE_EDIT_UP_TO else 2
        # a stopword finds nothing on its own (`--force` is no slip for *for*)
        near = [(d, shown) for d, shown in near if shown.lower() not in STOPWORDS]
        nearest = [shown for d, shown in near if d == near[0][0] and d <= bound]
        if nearest:
            offered[word] = nearest
    return offered


def near_words(store: Store, words: Sequence[str]) -> List[str]:
    """The words the index does not know that have a word of it near: within one
    edit of their stem for stems up to four letters, else two, a looser reach
    than the suggestions offered. A word with none is no wording of the text's,
    and /chat reads it as a name the index never mentions (`foreign_words`)."""
    return list(_per_word(store, "near", words, _near))


def _per_word(store: Store, name: str, words: Sequence[str],
              answer: Callable[[Store, str], Any]) -> Dict[str, Any]:
    """Each word's non-empty `answer`, kept under `name` while the index is unchanged."""
    found = {word: store.fulltext.remember(name, word, lambda word=word: answer(store, word))
             for word in words}
    return {word: value for word, value in found.items() if value}


# Prefixes and suffixes that make a word of another (*unfinished*, *nonempty*,
# *misconfigured*, *reinstall*; *clickable*, *brownish*, *borderless*): such a
# word missing from an index whose text has the rest is a wording it lacks, not
# a thing it never mentions.
PREFIXES = ("non", "dis", "mis", "pre", "un", "re", "de", "in", "im")
SUFFIXES = ("able", "ible", "ish", "less", "ness", "ful", "ly")


def known_bases(store: Store, words: Sequence[str]) -> Dict[str, str]:
    """For words the index does not know: the word less a prefix (`PREFIXES`) or a
    suffix (`SUFFIXES`), where the index holds that, of four letters or more."""
    return _per_word(store, "bases", words, _base)


def _base(store: Store, word: str) -> Optional[str]:
    rests = ([word[len(p):] for p in PREFIXES if word.startswith(p)]
             + [word[:-len(s)] for s in SUFFIXES if word.endswith(s)])
    return next((rest for rest in rests if len(rest) >= 4 and rest.isalpha()
                 and store.fulltext.a_passage_with(stem(rest)) is not None), None)


def _near(store: Store, word: str) -> Tuple[Tuple[int, str], ...]:
    """Up to MAX_SUGGESTIONS words of the index near `word`, each with its stem's
    distance, nearest first: within one edit for stems up to four letters, else two."""
    if len(word) < 3 or not word[:1].isalpha():
        return ()
    target = stem(word)
    bound = 1 if len(target) <= NEAR_ONE_EDIT_UP_TO else 2
    heads = {target[:2]} | ({target[0] + target[2]} if len(target) > 2 else set())
    vocab = [row for head in sorted(heads)
             for row in store.fulltext.vocabulary(head, head + "\U0010ffff")]
    found = []
    for term, freq in vocab:
        if abs(len(term) - len(target)) > bound or term == target:
            continue
        d = _distance(target, term, bound)
        if d <= bound:
            found.append((d, -freq, term))
    found.sort()
    near: List[Tuple[int, str]] = []
    for d, _, term in found[:MAX_SUGGESTIONS * 2]:
        # A bare stem is shown only if it finds itself (Porter turns *databas*, the
        # stem of *database*, into *databa*, which the index does not hold).
        surface = _surface(store, term, word) or (term if stem(term) == term else None)
        if surface and surface not in (s for _, s in near) and surface != word:
            near.append((d, surface))
        if len(near) >= MAX_SUGGESTIONS:
            break
    return tuple(near)


def _surface(store: Store, stem_: str, typed: str = "") -> Optional[str]:
    """A word of the index's text whose stem is `stem_`: of the words of a few passages
    that hold it, the one nearest the word `typed` (*connection*, not *connectivity*,
    for *conection*), then the commonest."""
    pids = store.fulltext.passages_with(stem_, SURFACE_PASSAGES)
    rows = store.passages(pids) if pids else {}
    counts: Dict[str, int] = {}
    for pid in pids:
        if pid not in rows:
            continue
        for tok in tokenize(passage_text(rows[pid])):
            if tok[:1] == stem_[:1] and stem(tok) == stem_:
                counts[tok] = counts.get(tok, 0) + 1
    if not counts:
        return None
    far = len(typed) + max(map(len, counts))
    return min(sorted(counts), key=lambda t: (_distance(typed, t, far) if typed else 0,
                                               -counts[t]))


def _distance(a: str, b: str, bound: int) -> int:
    """Levenshtein distance with transpositions, or bound + 1 once it must exceed bound.

    Only the cells within `bound` of the diagonal are computed (any other holds
    more than `bound`: a word's length differs from the other's prefix by more),
    and every value is capped at bound + 1, which changes none up to `bound`.
    """
    if abs(len(a) - len(b)) > bound:
        return bound + 1
    # Each letter of one word missing from the other costs an edit of its own.
    if len(set(a).difference(b)) > bound or len(set(b).difference(a)) > bound:
        return bound + 1
    over = bound + 1
    width = len(b)
    prev2: List[int] = []
    prev = [min(j, over) for j in range(width + 1)]
    for i in range(1, len(a) + 1):
        cur = [over] * (width + 1)
        low = cur[0] = min(i, over)
        here = a[i - 1]
        before = a[i - 2] if i > 1 else ""
        for j in range(max(1, i - bound), min(width, i + bound) + 1):
            v = prev[j - 1] + (here != b[j - 1])
            if prev[j] + 1 < v:
                v = prev[j] + 1
            if cur[j - 1] + 1 < v:
                v = cur[j - 1] + 1
            if j > 1 and before and here == b[j - 2] and before == b[j - 1] and prev2[j - 2] + 1 < v:
                v = prev2[j - 2] + 1
            cur[j] = v if v < over else over
            if v < low:
                low = v
        if low > bound:
            return over
        prev2, prev = prev, cur
    return prev[-1]
