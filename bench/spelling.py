#!/usr/bin/env python3
"""How well "did you mean" guesses: typing slips made in the golden questions'
words, and the real words the index does not hold.

    PYTHONPATH=$PWD python bench/spelling.py GOLDEN=DB [GOLDEN=DB ...] [--seed 7] [--show]

For every content word of five letters or more in the questions that the index
holds, one slip of each kind is made (a letter dropped, doubled, swapped with the
one before it, replaced by its neighbour in the alphabet), at a place chosen by a
generator seeded with SEED; a slip that is itself a word of the index is left
out. A slip is *found* when a suggestion has the original word's stem, *first*
when the first one has. The question words the index lacks as typed are mostly
real words the text does not use: for them the script counts how many get a
suggestion at all, and `--show` prints each word with what it was offered, to
read whether the offer is a near spelling or another word.
"""
from __future__ import annotations

import argparse
import json
import random
import sys

import glean_personal
from glean_personal import spelling
from glean_personal.analysis import stem, tokenize
from glean_personal.query import is_stopword


def slips(word: str, rng: random.Random) -> list:
    out = []
    for kind in ("drop", "double", "swap", "replace"):
        at = rng.randrange(1, len(word) - 1)
        if kind == "drop":
            out.append(word[:at] + word[at + 1:])
        elif kind == "double":
            out.append(word[:at] + word[at] + word[at:])
        elif kind == "swap" and word[at] != word[at - 1]:
            out.append(word[:at - 1] + word[at] + word[at - 1] + word[at + 1:])
        elif kind == "replace" and word[at].isascii() and word[at].isalpha():
            near = chr(ord(word[at]) + 1) if word[at] != "z" else "y"
            out.append(word[:at] + near + word[at + 1:])
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("pairs", nargs="+", metavar="GOLDEN=DB")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--show", action="store_true")
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    made = found = first = 0
    lacked = offered = 0
    for pair in args.pairs:
        golden, db = pair.split("=", 1)
        with open(golden, encoding="utf-8") as f:
            cases = json.load(f)["cases"]
        words = sorted({w for c in cases for w in tokenize(c["query"])
                        if w.isalpha() and not is_stopword(w)})
        with glean_personal.open_index(db) as ix:
            store = ix.store
            known = [w for w in words if store.fulltext.a_passage_with(stem(w)) is not None]
            unknown = [w for w in words if w not in known]
            tries = [(w, s) for w in known if len(w) >= 5 for s in slips(w, rng)
                     if store.fulltext.a_passage_with(stem(s)) is None]
            got = spelling.suggest_words(store, [s for _, s in tries])
            for word, slip in tries:
                offers = got.get(slip, [])
                hit = [stem(o) == stem(word) for o in offers]
                made += 1
                found += any(hit)
                first += bool(hit[:1] and hit[0])
            real = spelling.suggest_words(store, unknown)
            lacked += len(unknown)
            offered += sum(1 for w in unknown if real.get(w))
            if args.show:
                for w in unknown:
                    if real.get(w):
                        print(f"  {golden.rsplit('/', 1)[-1]}: {w} -> {', '.join(real[w])}")
    print(f"slips: {made}, found {found} ({found / max(made, 1):.1%}), "
          f"first {first} ({first / max(made, 1):.1%})")
    print(f"words the index lacks: {lacked}, offered a suggestion: {offered}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
