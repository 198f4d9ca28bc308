"""Did you mean: for a query word the index does not know, close words it does know.

Read from the index's own vocabulary, so suggestions are words that would find
something here (docs/search.md, "Helpful empties").
"""
from __future__ import annotations

from typing import Dict, List, Optional, Sequence

from .analysis import stem, tokenize
from .store.core import Store, passage_text


MAX_SUGGESTIONS = 3


def suggest_words(store: Store, words: Sequence[str]) -> Dict[str, List[str]]:
    """For words the index does not know: close words it does know ("did you mean").

    Candidates share the first letter and either the second or (a swap) the
    third, are within a small edit distance of the word's stem (1 for stems up
    to 4 letters, else 2), and are ranked by distance, then by how many
    passages hold them. Each is shown as a word from a passage that holds it,
    not as a bare stem. (Reading the index's vocabulary costs about a
    microsecond a posting, so only those two slices of it are read.)
    """
    out: Dict[str, List[str]] = {}
    for word in words:
        if len(word) < 3 or not word[:1].isalpha():
            continue
        target = stem(word)
        bound = 1 if len(target) <= 4 else 2
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
        shown: List[str] = []
        for _, _, term in found[:MAX_SUGGESTIONS * 2]:
            surface = _surface(store, term) or term
            if surface not in shown and surface != word:
                shown.append(surface)
            if len(shown) >= MAX_SUGGESTIONS:
                break
        if shown:
            out[word] = shown
    return out


def _surface(store: Store, stem_: str) -> Optional[str]:
    """A word of the index's text whose stem is `stem_` (the commonest in one passage)."""
    pid = store.fulltext.a_passage_with(stem_)
    if pid is None:
        return None
    rows = store.passages([pid])
    if pid not in rows:
        return None
    counts: Dict[str, int] = {}
    for tok in tokenize(passage_text(rows[pid])):
        if tok[:1] == stem_[:1] and stem(tok) == stem_:
            counts[tok] = counts.get(tok, 0) + 1
    return max(sorted(counts), key=lambda t: counts[t]) if counts else None


def _distance(a: str, b: str, bound: int) -> int:
    """Levenshtein distance with transpositions, or bound + 1 once it must exceed bound."""
    if abs(len(a) - len(b)) > bound:
        return bound + 1
    # Each letter of one word missing from the other costs an edit of its own.
    if len(set(a).difference(b)) > bound or len(set(b).difference(a)) > bound:
        return bound + 1
    prev2: List[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        low = cur[0]
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            v = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if (i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]):
                v = min(v, prev2[j - 2] + 1)
            cur[j] = v
            low = min(low, v)
        if low > bound:
            return bound + 1
        prev2, prev = prev, cur
    return prev[-1]
