"""The Porter stemmer exactly as SQLite FTS5's ``porter`` tokenizer runs it.

FTS5 (ext/fts5/fts5_tokenize.c) implements Porter's 1980 algorithm with the
later revisions from Porter's own C code (``bli``->``ble``, ``logi``->``log``)
and a few quirks of its own, all reproduced here so the plain store and the
FTS5 store index the same terms:

* it stems every token the base tokenizer emits whose UTF-8 encoding is 3 to
  64 bytes long -- digits and non-Latin letters included -- and passes
  shorter or longer tokens through unchanged;
* it works on bytes: a non-ASCII character counts as one consonant per UTF-8
  byte (this matters to the ``*o`` and doubled-consonant tests);
* a rule fires only if the word is strictly longer than its suffix, and in
  each step the first suffix that matches decides, even when its condition
  then fails;
* ``*v*`` counts ``y`` as a vowel anywhere but the first letter (for that
  test the same as Porter's y-after-a-consonant rule, used here throughout).
"""
from __future__ import annotations

from typing import Callable, Dict, Tuple

__all__ = ["stem", "MIN_BYTES", "MAX_BYTES"]

MIN_BYTES = 3
"""Tokens shorter than this many UTF-8 bytes are not stemmed."""
MAX_BYTES = 64
"""Tokens longer than this many UTF-8 bytes are not stemmed (FTS5_PORTER_MAX_TOKEN)."""

# a, e, i, o, u are vowels, y is decided by its left neighbour, every other
# character (digits, non-ASCII bytes) is a consonant.
_CV = {i: "c" for i in range(256)}
_CV.update({ord(v): "v" for v in "aeiou"})
_CV[ord("y")] = "y"


def _cv(word: str) -> str:
    """'c'/'v' per character: y is a vowel after a consonant, else a consonant."""
    cv = word.translate(_CV)
    if "y" not in cv:
        return cv
    out = []
    prev = "v"  # so that a leading y counts as a consonant
    for ch in cv:
        if ch == "y":
            ch = "v" if prev == "c" else "c"
        out.append(ch)
        prev = ch
    return "".join(out)


def _m(cv: str) -> int:
    """Porter's measure m of a stem: the number of vowel-consonant transitions."""
    return cv.count("vc")


def _m_gt0(w: str, n: int) -> bool:
    return "vc" in _cv(w[:n])


def _m_gt1(w: str, n: int) -> bool:
    return _m(_cv(w[:n])) > 1


def _m_eq1(w: str, n: int) -> bool:
    return _m(_cv(w[:n])) == 1


def _o_star(w: str, n: int) -> bool:
    """*o: the stem ends consonant-vowel-consonant, the last not w, x or y."""
    if n < 3 or w[n - 1] in "wxy":
        return False
    return _cv(w[:n])[-3:] == "cvc"


def _m_gt1_s_or_t(w: str, n: int) -> bool:
    return n > 0 and w[n - 1] in "st" and _m_gt1(w, n)


def _has_vowel(w: str, n: int) -> bool:
    return "v" in _cv(w[:n])


_Cond = Callable[[str, int], bool]
_Step = Dict[str, Tuple[Tuple[str, str, _Cond], ...]]


def _step(cond: _Cond, rules: Dict[str, Tuple[Tuple[str, str], ...]]) -> _Step:
    """Attach the step's condition to each rule; step 4's -ion has its own."""
    return {
        penult: tuple(
            (suffix, repl, _m_gt1_s_or_t if suffix == "ion" else cond) for suffix, repl in group
        )
        for penult, group in rules.items()
    }


# Steps 2-4 of fts5_tokenize.c (generated there by mkportersteps.tcl): FTS5
# switches on the next-to-last letter, then tries the suffixes in this order.
_STEP2 = _step(_m_gt0, {
    "a": (("ational", "ate"), ("tional", "tion")),
    "c": (("enci", "ence"), ("anci", "ance")),
    "e": (("izer", "ize"),),
    "g": (("logi", "log"),),
    "l": (("bli", "ble"), ("alli", "al"), ("entli", "ent"), ("eli", "e"), ("ousli", "ous")),
    "o": (("ization", "ize"), ("ation", "ate"), ("ator", "ate")),
    "s": (("alism", "al"), ("iveness", "ive"), ("fulness", "ful"), ("ousness", "ous")),
    "t": (("aliti", "al"), ("iviti", "ive"), ("biliti", "ble")),
})
_STEP3 = _step(_m_gt0, {
    "a": (("ical", "ic"),),
    "s": (("ness", ""),),
    "t": (("icate", "ic"), ("iciti", "ic")),
    "u": (("ful", ""),),
    "v": (("ative", ""),),
    "z": (("alize", "al"),),
})
_STEP4 = _step(_m_gt1, {
    "a": (("al", ""),),
    "c": (("ance", ""), ("ence", "")),
    "e": (("er", ""),),
    "i": (("ic", ""),),
    "l": (("able", ""), ("ible", "")),
    "n": (("ant", ""), ("ement", ""), ("ment", ""), ("ent", "")),
    "o": (("ion", ""), ("ou", "")),
    "s": (("ism", ""),),
    "t": (("ate", ""), ("iti", "")),
    "u": (("ous", ""),),
    "v": (("ive", ""),),
    "z": (("ize", ""),),
})


def _apply(w: str, step: _Step) -> str:
    """Replace the first matching suffix of the step if its condition holds."""
    for suffix, repl, cond in step.get(w[-2:-1], ()):
        if len(w) > len(suffix) and w.endswith(suffix):
            n = len(w) - len(suffix)
            return w[:n] + repl if cond(w, n) else w
    return w


def _step1ab(w: str) -> str:
    # Step 1a: plurals.
    if w[-1] == "s":
        if w[-2] == "e":
            n = len(w)
            if (n > 4 and w[-4:-2] == "ss") or (n > 3 and w[-3] == "i"):
                w = w[:-2]
            else:
                w = w[:-1]
        elif w[-2] != "s":
            w = w[:-1]
    # Step 1b: -eed, -ed, -ing.
    n = len(w)
    if n > 3 and w.endswith("eed"):
        if _m_gt0(w, n - 3):
            w = w[:-1]
        return w
    if n > 2 and w.endswith("ed"):
        if not _has_vowel(w, n - 2):
            return w
        w = w[:-2]
    elif n > 3 and w.endswith("ing"):
        if not _has_vowel(w, n - 3):
            return w
        w = w[:-3]
    else:
        return w
    # Step 1b, second part, after -ed or -ing was removed.
    if len(w) > 2 and w[-2:] in ("at", "bl", "iz"):
        return w + "e"
    c = w[-1]
    if len(w) > 1 and c == w[-2] and c not in "aeioulsz":
        return w[:-1]
    if _m_eq1(w, len(w)) and _o_star(w, len(w)):
        return w + "e"
    return w


def _stem_str(w: str) -> str:
    """The algorithm on a str of 3 to 64 characters, one per byte."""
    w = _step1ab(w)
    # Step 1c: y -> i after a vowel.
    if w[-1] == "y" and _has_vowel(w, len(w) - 1):
        w = w[:-1] + "i"
    w = _apply(w, _STEP2)
    w = _apply(w, _STEP3)
    w = _apply(w, _STEP4)
    # Step 5a: drop a final e.
    if w[-1] == "e":
        n = len(w) - 1
        if _m_gt1(w, n) or (_m_eq1(w, n) and not _o_star(w, n)):
            w = w[:-1]
    # Step 5b: -ll -> -l.
    if len(w) > 1 and w[-2:] == "ll" and _m_gt1(w, len(w) - 1):
        w = w[:-1]
    return w


def stem(token: str) -> str:
    """Stem one folded token the way FTS5's porter tokenizer does.

    ``token`` is what unicode61 emits (lower case, diacritics removed).
    Non-ASCII tokens are stemmed byte-wise like FTS5 does; if that ever
    splits a UTF-8 sequence (only possible for a doubled trailing byte, as in
    ``U+2082``) the broken byte becomes U+FFFD, where FTS5 would store it raw.
    """
    if token.isascii():
        if MIN_BYTES <= len(token) <= MAX_BYTES:
            return _stem_str(token)
        return token
    raw = token.encode("utf-8", "surrogatepass")
    if not MIN_BYTES <= len(raw) <= MAX_BYTES:
        return token
    out = _stem_str(raw.decode("latin-1"))
    return out.encode("latin-1").decode("utf-8", "replace")
