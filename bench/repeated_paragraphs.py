"""Survey: text repeated word for word across the documents of one indexed folder.

    python bench/repeated_paragraphs.py DB [DB ...] [--top 15] [--min-docs 10] [--share 0.05]

Reads an index's own passages (SQL: a bench script may) and, per source, counts
the documents that hold each passage's exact text and each paragraph's (a
passage's text cut at blank lines, whitespace collapsed). Prints, per index:
passages whose whole text is in 2+/5+/10+ documents, paragraphs likewise, the
passages made only of paragraphs held by at least --min-docs documents and
--share of the source's documents (what a rule over repeated paragraphs would
mark), and the --top most repeated paragraphs with their document counts.
"""
import argparse
import re
import sqlite3
from collections import Counter, defaultdict

BREAK = re.compile(r"\n[ \t\r\f\v]*\n\s*")
SPACE = re.compile(r"\s+")


def paragraphs(text):
    return [p for p in (SPACE.sub(" ", x).strip() for x in BREAK.split(text)) if p]


def survey(db, top, min_docs, share):
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    src_docs = dict(con.execute("SELECT source_id, count(*) FROM documents GROUP BY source_id"))
    doc_src = dict(con.execute("SELECT id, source_id FROM documents"))
    whole = defaultdict(set)
    paras = defaultdict(set)
    rows = []
    for pid, did, text in con.execute("SELECT id, document_id, text FROM passages"):
        s = doc_src[did]
        whole[(s, SPACE.sub(" ", text).strip())].add(did)
        ps = paragraphs(text)
        for p in ps:
            paras[(s, p)].add(did)
        rows.append((did, s, ps))
    print(f"== {db}: {sum(src_docs.values())} documents, {len(rows)} passages")
    for n in (2, 5, 10):
        w = sum(1 for k, v in whole.items() if len(v) >= n)
        p = sum(1 for k, v in paras.items() if len(v) >= n)
        print(f"  texts in >= {n:2d} docs: passages {w}, paragraphs {p}")

    def repeated(s, p):
        n = len(paras[(s, p)])
        return n >= min_docs and n >= share * src_docs[s]

    only = [r for r in rows if r[2] and all(repeated(r[1], p) for p in r[2])]
    part = [r for r in rows if r[2] and any(repeated(r[1], p) for p in r[2]) and r not in only]
    print(f"  passages made only of paragraphs in >= {min_docs} docs and >= {share:.0%} of the "
          f"source: {len(only)} ({len({r[0] for r in only})} documents); partly: {len(part)}")
    counts = Counter({k: len(v) for k, v in paras.items()})
    for (s, p), n in counts.most_common(top):
        if n < 2:
            break
        print(f"  {n:5d} docs ({n / src_docs[s]:.0%})  {p[:110]!r}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dbs", nargs="+")
    ap.add_argument("--top", type=int, default=15)
    ap.add_argument("--min-docs", type=int, default=10)
    ap.add_argument("--share", type=float, default=0.05)
    a = ap.parse_args()
    for db in a.dbs:
        survey(db, a.top, a.min_docs, a.share)


if __name__ == "__main__":
    main()
