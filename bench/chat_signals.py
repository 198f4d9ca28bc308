#!/usr/bin/env python3
"""Signals that might tell /chat's chance matches from answers, measured on golden sets.

    PYTHONPATH=$PWD python bench/chat_signals.py GOLDEN=DB [GOLDEN=DB ...]

For every question, the /chat candidates (eight passages, as
glean_personal/surfaces/local_backend.py asks for them) are judged as /chat
judges them today: a passage may be quoted when its match strength is at
least `TUNING.answer_strength`, and the question is answered when one may be.
Each signal below is then tried as an extra condition on the passage, and the
script prints how many unanswerable questions would be declined and how many
answerable ones still answered (and answered with a page the golden set lists
as relevant), per store. docs/search.md ("Match strength") quotes these
figures for the tuning sets:

    python-doc.json, git-doc.json, chat-tuning2-python.json, chat-tuning2-git.json

The signals are computed here from the passages' text, with the same term
evidence as match strength (`Weights` in glean_personal/evidence.py); the one
kept, "no two of three or more words within N", is the hit's `scattered`
(`scatter_window`), which the script also reads off the hits at the current
setting. Indexes are opened read-only.
"""
from __future__ import annotations

import argparse
import json
import os
import re
import sys
from typing import Callable, Dict, List

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))

import glean_personal.search as search_module  # noqa: E402
from glean_personal.analysis import stem, tokenize  # noqa: E402
from glean_personal.api import open_index  # noqa: E402
from glean_personal.evidence import Weights  # noqa: E402
from glean_personal.query import parse  # noqa: E402
from glean_personal.surfaces.local_backend import CHAT_CANDIDATES  # noqa: E402

WINDOWS = (16, 20, 24, 28, 32, 44, 48, 64, 80)
SENTENCE = re.compile(r"(?<=[.!?;:])\s+|\n")


def passage_signals(w: Weights, heads: List[str], text: str) -> Dict[str, float]:
    """Window, sentence, heaviest-word and nearness signals of one passage."""
    toks = tokenize(text)
    wanted = {s for t in w.terms for s in t.stems()}
    at = [i for i, tok in enumerate(toks) if stem(tok) in wanted or any(w.present(tok))]
    base = w.strength("\n".join(heads), heads)[0] if heads else 0.0
    out: Dict[str, float] = {}
    own = len(w.query.terms)
    for size in WINDOWS:
        best, near = base, 0
        for p in [0] + at:
            lines = heads + [" ".join(toks[p:p + size]) if at else ""]
            best = max(best, w.strength("\n".join(lines), lines)[0])
            have = w.present_in(lines)[:own]
            near = max(near, sum(1 for group in w.slots if any(have[i] for i in group
                                                               if i < own)))
        out[f"w{size}"] = best
        out[f"near{size}"] = near
    sentences = [x for x in SENTENCE.split(text) if x.strip()]
    for span in (1, 2, 3):
        best = base
        for i in range(len(sentences)):
            lines = heads + [" ".join(sentences[i:i + span])]
            best = max(best, w.strength("\n".join(lines), lines)[0])
        out[f"sent{span}"] = best
    have = w.present_in(heads + [text])
    top = max(range(len(w.slot)), key=w.slot.__getitem__) if w.slot else 0
    out["top"] = float(any(have[i] for i in w.slots[top])) if w.slot else 0.0
    out["held"] = sum(1 for group in w.slots if any(have[i] for i in group if i < own))
    out.update(lone_weightiest(w, heads, text, toks))
    return out


def lone_weightiest(w: Weights, heads: List[str], text: str, toks: List[str]) -> Dict[str, float]:
    """For each window: does the weightiest query word the passage holds stand apart,
    no other held word within the window (and none in the headings)? Computed here
    independently of `Weights.scattered`, which implements the kept rule."""
    own = len(w.query.terms)
    slot_of = {i: k for k, group in enumerate(w.slots) for i in group if i < own}
    have = w.present_in(heads + [text])[:own]
    held = {slot_of[i] for i, h in enumerate(have) if h}
    in_heads = heads and any(w.present_in(heads)[:own])
    where: Dict[int, List[int]] = {k: [] for k in held}
    for i, h in enumerate(have):
        if not h:
            continue
        want = w.terms[i].stems()
        for p in range(len(toks) - len(want) + 1):
            if all(stem(toks[p + j]) == want[j] for j in range(len(want))):
                where[slot_of[i]].append(p)
    out = {}
    for size in WINDOWS:
        lone = False
        if held and not in_heads and all(where.values()):
            top = max(held, key=lambda k: (w.slot[k], -k))
            others = [p for k in held if k != top for p in where[k]]
            lone = bool(others) and all(abs(a - b) >= size for a in where[top] for b in others)
        out[f"lone{size}"] = float(lone)
    return out


def collect(golden: str, db: str) -> dict:
    with open(golden, encoding="utf-8") as f:
        cases = json.load(f)["cases"]
    ix = open_index(db, readonly=True)
    try:
        rows = []
        for case in cases:
            q = case["query"]
            result = ix.search(q, limit=CHAT_CANDIDATES, passages=True)
            with ix.store.reading():
                w = Weights(ix.store, parse(q), search_module.TUNING)
            hits = []
            for h in result.results:
                sig = passage_signals(w, list(h.section), h.passage_text)
                sig.update(s=h.strength, scattered=float(h.scattered),
                           relevant=float(any(h.document["path"].endswith(r)
                                              for r in case.get("relevant", []))))
                hits.append(sig)
            rows.append({"id": case["id"], "answerable": case["category"] != "unanswerable",
                         "hits": hits})
        return {"store": ix.store.kind, "rows": rows}
    finally:
        ix.close()


def tally(rows: List[dict], keep: Callable[[dict], bool]) -> tuple:
    bar = search_module.TUNING.answer_strength
    declined = answered = right = 0
    for r in rows:
        quoted = [h for h in r["hits"] if h["s"] >= bar and keep(h)][:5]
        if r["answerable"]:
            answered += bool(quoted)
            right += any(h["relevant"] for h in quoted)
        else:
            declined += not quoted
    return declined, answered, right


RULES: List[tuple] = [("none (the strength rule)", lambda h: True),
                      ("not scattered (the hit's own field)", lambda h: not h["scattered"])]
RULES += [(f"no two of 3+ words within {n}", (lambda n: lambda h: h["held"] < 3
                                              or h[f"near{n}"] >= 2)(n)) for n in WINDOWS]
RULES += [(f"weightiest of 3+ words not alone within {n}",
           (lambda n: lambda h: h["held"] < 3 or not h[f"lone{n}"])(n)) for n in WINDOWS]
RULES += [(f"best {n}-word window's strength >= 0.3", (lambda n: lambda h: h[f"w{n}"] >= 0.3)(n))
          for n in WINDOWS]
RULES += [(f"best {n}-word window >= 0.4 of the passage's strength",
           (lambda n: lambda h: h[f"w{n}"] >= 0.4 * h["s"])(n)) for n in WINDOWS]
RULES += [(f"best run of {k} sentence(s) >= 0.25", (lambda k: lambda h: h[f"sent{k}"] >= 0.25)(k))
          for k in (1, 2, 3)]
RULES += [("the query's heaviest word held", lambda h: h["top"] > 0)]


def main(argv: List[str] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("pairs", nargs="+", metavar="GOLDEN=DB")
    args = ap.parse_args(argv)
    by_store: Dict[str, List[dict]] = {}
    for pair in args.pairs:
        golden, sep, db = pair.partition("=")
        if not sep or not os.path.exists(golden) or not os.path.exists(db):
            ap.error(f"want GOLDEN=DB with both files present, got {pair!r}")
        got = collect(golden, db)
        by_store.setdefault(got["store"], []).extend(got["rows"])
    for store, rows in sorted(by_store.items()):
        una = sum(not r["answerable"] for r in rows)
        ans = len(rows) - una
        print(f"{store}: {una} unanswerable, {ans} answerable questions")
        print(f"  {'extra condition for quoting a passage':58} declined  answered  (relevant)")
        for name, keep in RULES:
            d, a, r = tally(rows, keep)
            print(f"  {name:58} {d:8}  {a:8}  ({r})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
