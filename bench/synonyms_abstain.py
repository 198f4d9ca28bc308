#!/usr/bin/env python3
"""/chat abstention counts only (no question is printed), with search knobs set.

    PYTHONPATH=$PWD python bench/synonyms_abstain.py GOLDEN=DB [GOLDEN=DB ...] [--set knob=value ...]

The same run as bench/chat_abstain.py (every question of each set asked of the
real /chat), reporting per set and in total the unanswerable questions
declined and the answerable ones answered, and nothing per question: the
synonym table (glean_personal/synonyms.py) was written and judged blind, by
aggregate figures only (docs/search.md, "Synonyms"). `--set synonyms=0` turns
the thesaurus off, for the figures before.
"""
from __future__ import annotations

import argparse
import dataclasses
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.dirname(HERE))

import glean_personal.search as search_module  # noqa: E402
import chat_abstain  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("pairs", nargs="+", metavar="GOLDEN=DB")
    ap.add_argument("--set", action="append", default=[], metavar="KNOB=VALUE",
                    help="a SearchTuning field, e.g. synonyms=0")
    args = ap.parse_args(argv)
    knobs = {}
    for item in args.set:
        key, _, value = item.partition("=")
        knobs[key] = type(getattr(search_module.TUNING, key))(value)
    search_module.TUNING = dataclasses.replace(search_module.TUNING, **knobs)
    total = {}
    for pair in args.pairs:
        golden, _, db = pair.partition("=")
        r = chat_abstain.run_set(golden, db)
        t = total.setdefault(r["store"], [0, 0, 0, 0])
        for k, key in enumerate(("declined", "unanswerable", "answered", "answerable")):
            t[k] += r[key]
        print(f"{r['set']:28} {r['store']:5}  unanswerable declined {r['declined']}/{r['unanswerable']}"
              f"  answerable answered {r['answered']}/{r['answerable']}", flush=True)
    for store, (dec, una, ans, able) in sorted(total.items()):
        print(f"{'all sets':28} {store:5}  unanswerable declined {dec}/{una}"
              f"  answerable answered {ans}/{able}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
