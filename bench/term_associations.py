"""Measure query expansion by term associations learned from an index's own passages.

An experiment, not a feature (docs/search.md, "Questions in plain words: what
was kept and dropped", has the figures and why it was dropped). It learns, for
each content word, the words that occur with it in the same passages more often
than chance, then expands a query with a few of them: a second store query
over the added words, whose passage scores join the first pass's at a fraction
(`--alpha`), optionally only when the first pass is weak (its top hit's match
strength below `--weak`). It scores a golden set with `evaluate` each way.

    PYTHONPATH=. python bench/term_associations.py bench/golden/git-doc.json \
        --root /usr/share/doc/git/html --db /tmp/copy-of-git-index.db \
        --kind llr --alpha 0.2 --weak 0.5

Kinds of association (all over passages: heading and text, words of 3 to 30
letters, not stopwords, in 3 passages to 5% of them; pairs seen in 3 passages
or more, with positive PMI):

* `lmi`: word-word co-occurrence in a passage, ranked by count × PMI;
* `llr`: the same pairs ranked by Dunning's log-likelihood ratio;
* `document`: as `llr`, with whole documents as the unit (as the graph's
  phrase sets are kept), the 200 most telling words of each;
* `title`: a word of a passage with the words of its document's title, by
  log-likelihood ratio (which pages is a word about).

`--learn-only` prints the cost of learning (CPU seconds, peak memory) and
stops; `--limit N` learns from the first N passages only.
"""
from __future__ import annotations

import argparse
import itertools
import json
import math
import resource
import sqlite3
import sys
import time
from collections import Counter
from typing import Dict, List, Tuple

import glean_personal.search as search_module
import glean_personal.store.fulltext as fulltext
from glean_personal.analysis import STOPWORDS, stem, tokenize
from glean_personal.api import open_index
from glean_personal.query import Query, Term

Assoc = Dict[str, List[Tuple[str, float, float, int]]]   # stem -> (stem, rank score, pmi, count)


def _xlx(k: float) -> float:
    return k * math.log(k) if k > 0 else 0.0


def llr(k11: int, fa: int, fb: int, n: int) -> float:
    """Dunning's G² for a pair seen together k11 times, alone fa and fb times, of n."""
    k12, k21 = fa - k11, fb - k11
    k22 = n - fa - fb + k11
    return 2 * (_xlx(k11) + _xlx(k12) + _xlx(k21) + _xlx(k22) - _xlx(k11 + k12)
                - _xlx(k21 + k22) - _xlx(k11 + k21) - _xlx(k12 + k22) + _xlx(n))


def _words(text: str, forms: Dict[str, Counter], cache: Dict[str, str]) -> Counter:
    out: Counter = Counter()
    for t in tokenize(text):
        if len(t) < 3 or len(t) > 30 or t in STOPWORDS or not t.isalpha():
            continue
        s = cache.get(t)
        if s is None:
            s = cache[t] = stem(t)
        out[s] += 1
        forms.setdefault(s, Counter())[t] += 1
    return out


def learn(db: str, kind: str, limit: int = -1, cap: int = 60, min_df: int = 3,
          max_share: float = 0.05, min_pair: int = 3, keep: int = 8) -> dict:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    rows = conn.execute("SELECT d.title, p.heading, p.text, p.document_id FROM passages p "
                        "JOIN documents d ON d.id = p.document_id ORDER BY p.id LIMIT ?",
                        (limit,)).fetchall()
    forms: Dict[str, Counter] = {}
    cache: Dict[str, str] = {}
    bodies = [_words(heading + "\n" + text, forms, cache) for _, heading, text, _ in rows]
    titles = [set(_words(title, forms, cache)) for title, _, _, _ in rows]
    if kind == "document":   # whole documents as the unit, as the graph's phrase sets are
        merged: Dict[int, Counter] = {}
        for (_, _, _, doc), tf in zip(rows, bodies):
            merged.setdefault(doc, Counter()).update(tf)
        bodies = list(merged.values())
        rows = [None] * len(bodies)
        cap = max(cap, 200)
    n = len(rows)
    df: Counter = Counter()
    for tf in bodies:
        df.update(tf.keys())
    high = max(min_df, int(max_share * n))
    pairs: Counter = Counter()
    if kind == "title":
        tdf: Counter = Counter()
        for t in titles:
            tdf.update(t)
        for tf, title in zip(bodies, titles):
            kept = [x for x in title if tdf[x] <= high]
            for a in tf:
                if min_df <= df[a] <= high:
                    pairs.update((a, x) for x in kept if x != a)
        other = tdf
    else:
        for tf in bodies:
            ks = [s for s in tf if min_df <= df[s] <= high]
            if len(ks) > cap:   # the passage's most telling words
                ks.sort(key=lambda s: (-tf[s] * math.log(n / df[s]), s))
                ks = ks[:cap]
            pairs.update(itertools.combinations(sorted(ks), 2))
        other = df
    near: Dict[str, list] = {}
    for (a, b), count in pairs.items():
        if count < min_pair:
            continue
        pmi = math.log(n * count / (df[a] * other[b]))
        if pmi <= 0:
            continue
        score = count * pmi if kind == "lmi" else llr(count, df[a], other[b], n)
        near.setdefault(a, []).append((score, pmi, count, b))
        if kind != "title":
            near.setdefault(b, []).append((score, pmi, count, a))
    assoc: Assoc = {a: [(b, s, p, c) for s, p, c, b in sorted(lst, reverse=True)[:keep]]
                    for a, lst in near.items()}
    return {"assoc": assoc, "df": df, "n": n, "pairs": len(pairs),
            "form": {s: f.most_common(1)[0][0] for s, f in forms.items()}}


class Expander:
    """Adds associated words' passage scores to the store's first pass."""

    def __init__(self, learned: dict, alpha: float, per: int, most: int,
                 weak: float = -1.0, confident: float = 0.0) -> None:
        self.learned, self.alpha, self.per, self.most, self.weak = learned, alpha, per, most, weak
        self.confident = confident
        self.on = weak < 0
        self.log: List[Tuple[str, List[str]]] = []

    def words(self, query: Query) -> List[str]:
        have = {s for t in query.terms for s in t.stems()}
        votes: Dict[str, float] = {}
        for t in query.terms:
            if t.is_phrase:
                continue
            a = t.stems()[0]
            for b, _, pmi, count in self.learned["assoc"].get(a, [])[:self.per]:
                if b not in have and count >= self.confident * self.learned["df"][a]:
                    votes[b] = votes.get(b, 0.0) + pmi
        best = sorted(votes, key=lambda b: (-votes[b], b))[:self.most]
        return [self.learned["form"][b] for b in best]

    def install(self) -> None:
        for cls in (fulltext.Fts5Text, fulltext.PlainText):
            self._wrap(cls)
        first = search_module.search

        def search(store, text, *args, **kwargs):
            if self.weak < 0:
                return first(store, text, *args, **kwargs)
            self.on = False
            result = first(store, text, *args, **kwargs)
            if result.results and result.strength >= self.weak:
                return result
            self.on = True   # weak: search again, expanded
            try:
                return first(store, text, *args, **kwargs)
            finally:
                self.on = False
        search_module.search = search

    def _wrap(self, cls) -> None:
        plain = cls.search
        expander = self

        def search(store_text, query, limit, filters):
            hits = plain(store_text, query, limit, filters)
            words = expander.words(query) if expander.on else []
            if not words:
                return hits
            expander.log.append((query.text, words))
            more = plain(store_text, Query(query.text, [Term((w,)) for w in words]),
                         limit, filters)
            scores = dict(hits)
            for pid, score in more:
                scores[pid] = scores.get(pid, 0.0) + expander.alpha * score
            return sorted(scores.items(), key=lambda t: (-t[1], t[0]))[:limit]
        cls.search = search


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("golden")
    ap.add_argument("--root", required=True)
    ap.add_argument("--db", required=True, help="a copy of an index (read only here)")
    ap.add_argument("--kind", choices=("lmi", "llr", "title", "document"), default="llr")
    ap.add_argument("--alpha", type=float, default=0.2, help="weight of the added words' scores")
    ap.add_argument("--per", type=int, default=3, help="associates taken per query word")
    ap.add_argument("--most", type=int, default=4, help="words added at most")
    ap.add_argument("--weak", type=float, default=-1.0,
                    help="expand only when the top hit's strength is below this (default: always)")
    ap.add_argument("--confident", type=float, default=0.0,
                    help="only associates in at least this share of the query word's passages")
    ap.add_argument("--limit", type=int, default=-1, help="learn from the first N passages")
    ap.add_argument("--learn-only", action="store_true")
    ap.add_argument("--show", action="store_true", help="print each expansion")
    args = ap.parse_args(argv)
    started = time.process_time()
    learned = learn(args.db, args.kind, args.limit)
    cost = {"passages": learned["n"], "pairs": learned["pairs"],
            "learn_cpu_s": round(time.process_time() - started, 1),
            "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024}
    print(json.dumps(cost))
    if args.learn_only:
        return 0
    index = open_index(args.db)
    before = index.evaluate(args.golden, args.root).to_dict()["summary"]
    expander = Expander(learned, args.alpha, args.per, args.most, args.weak,
                        args.confident)
    expander.install()
    after = index.evaluate(args.golden, args.root).to_dict()["summary"]
    for name, summary in (("before", before), ("after", after)):
        cats = dict(summary["by_category"], overall=summary["overall"])
        print(name, " ".join(f"{k}={v['ndcg@10']:.3f}" for k, v in sorted(cats.items())
                             if v["ndcg@10"] is not None))
    print("expanded", len(expander.log), "queries")
    if args.show:
        for text, words in expander.log:
            print("  ", text, "+", ", ".join(words))
    return 0


if __name__ == "__main__":
    sys.exit(main())
