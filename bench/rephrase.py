#!/usr/bin/env python3
"""A golden set's questions asked another way, to see how search takes the change.

    PYTHONPATH=$PWD python bench/rephrase.py GOLDEN OUT --lists [--category paraphrase]
    PYTHONPATH=$PWD python bench/rephrase.py GOLDEN OUT --template "according to the documentation, {q}"
    PYTHONPATH=$PWD python bench/rephrase.py GOLDEN OUT --typo SEED
    PYTHONPATH=$PWD python bench/rephrase.py GOLDEN OUT --quote

`--lists`: each question loses the words the parser calls function words
(`glean_personal.query.is_stopword`, tested with the punctuation around a word
stripped), as agents often send a question. `--template`: each question is put
into the template at `{q}`. `--typo`: the longest content word of five letters or
more (the last of equal length) gets one typing slip, a letter dropped, doubled or
swapped with the one before it, chosen by a random generator seeded with SEED.
`--quote`: that same word is put in double quotes, as agents quote a term.
Only the questions of the category are kept, and no question is edited by hand.
OUT is a golden set of the same shape, for `python -m glean_personal evaluate OUT
--root ROOT`.
"""
from __future__ import annotations

import argparse
import json
import random

from glean_personal.query import is_stopword

_PUNCT = "\"'’‘“”.,;:!?()[]"


def as_list(question: str) -> str:
    words = [w for w in question.split() if not is_stopword(w.strip(_PUNCT).lower())]
    return " ".join(words) or question


def _longest(words: list) -> int:
    """The index of the longest content word of five letters or more (the last of
    equal length), or -1."""
    content = [i for i, w in enumerate(words)
               if w.isalpha() and len(w) >= 5 and not is_stopword(w.lower())]
    return max(content, key=lambda i: (len(words[i]), i)) if content else -1


def quoted(question: str) -> str:
    words = question.split()
    i = _longest(words)
    if i >= 0:
        words[i] = f'"{words[i]}"'
    return " ".join(words)


def with_typo(question: str, rng: random.Random) -> str:
    words = question.split()
    i = _longest(words)
    if i < 0:
        return question
    word, at = words[i], rng.randrange(1, len(words[i]) - 1)
    slip = rng.choice(["drop", "swap", "double"])
    if slip == "drop" or (slip == "swap" and word[at] == word[at - 1]):
        words[i] = word[:at] + word[at + 1:]
    elif slip == "swap":
        words[i] = word[:at - 1] + word[at] + word[at - 1] + word[at + 1:]
    else:
        words[i] = word[:at] + word[at] + word[at:]
    return " ".join(words)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("golden")
    ap.add_argument("out")
    ap.add_argument("--category", default="paraphrase")
    how = ap.add_mutually_exclusive_group(required=True)
    how.add_argument("--lists", action="store_true", help="function words left out")
    how.add_argument("--template", help="a template holding {q}")
    how.add_argument("--typo", type=int, metavar="SEED", help="one typing slip a question")
    how.add_argument("--quote", action="store_true", help="the longest content word quoted")
    args = ap.parse_args(argv)
    with open(args.golden, encoding="utf-8") as f:
        data = json.load(f)
    rng = random.Random(args.typo)
    if args.lists:
        change, said = as_list, "as lists of words"
    elif args.quote:
        change, said = quoted, "with their longest content word quoted"
    elif args.template is not None:
        change, said = (lambda q: args.template.replace("{q}", q)), f"as {args.template!r}"
    else:
        change, said = (lambda q: with_typo(q, rng)), f"with a typing slip (seed {args.typo})"
    data["cases"] = [dict(c, query=change(c["query"])) for c in data["cases"]
                     if c.get("category") == args.category]
    data["description"] = f"{args.golden}'s {args.category} questions {said} (bench/rephrase.py)"
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump(data, f, indent=1, ensure_ascii=False)
    print(f"{len(data['cases'])} questions -> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
