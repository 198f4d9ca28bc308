"""The content graph: scoring, top-k from either end, determinism, staleness, related."""
from __future__ import annotations

import hashlib
import json
import math
import os
import random
import subprocess
import sys
from array import array
from typing import Dict, List, Sequence, Tuple

import pytest

from glean_personal import graph
from glean_personal.errors import GleanError
from glean_personal.graph import (DEFAULT_TUNING, GraphTuning, build_links, combine, max_df,
                                  phrase_weight, vocabulary_cap)
from glean_personal.phrases import ID_TYPECODE, document_phrases, unpack
from glean_personal.store.core import Store

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

TOPICS = {
    "espresso-descaling.md": ("Descaling the espresso machine", """
Scale builds up inside the boiler of an espresso machine when you brew with hard water.
Descale every month with a citric acid solution: fill the water tank, run half of it
through the group head and the steam wand, wait twenty minutes, then flush the rest.
Rinse the portafilter basket and the shower screen afterwards, and run two tanks of
clean water before you pull the next shot. A descaling schedule keeps the crema stable."""),
    "espresso-grinder.md": ("Dialing in the burr grinder", """
A flat burr grinder needs dialing in whenever the beans change. Start fine, pull a
shot, and time it: twenty-five to thirty seconds for a double. Tamp evenly in the
portafilter basket; uneven tamping channels the water and the crema turns pale.
Clean the burrs monthly and purge a few grams after adjusting the grind setting.
Citric acid descaling of the espresso machine is a separate monthly chore."""),
    "sourdough-starter.md": ("Feeding a sourdough starter", """
A sourdough starter is flour and water colonised by wild yeast and lactobacilli.
Feed the levain at equal weights of rye flour and water, twice a day at room
temperature. A healthy starter doubles within six hours and smells pleasantly sour.
Before baking, build a fresh levain the night before so it peaks when you mix the
dough. Hydration of the starter changes how fast it ferments."""),
    "sourdough-bake.md": ("Baking sourdough loaves", """
Mix the levain into the dough at seventy-five percent hydration, rest for an hour of
autolyse, then stretch and fold every half hour during bulk fermentation. Shape the
loaves, proof them overnight in a banneton in the fridge, and bake in a preheated
dutch oven. The crumb shows whether the levain was at its peak and whether the bulk
fermentation went long enough. Rye flour in the levain adds flavour."""),
    "git-sparse.md": ("Sparse checkout in git", """
A sparse checkout lets a monorepo clone materialise only the directories you work on.
Run git sparse-checkout init in cone mode, then git sparse-checkout set with the
paths you need. Combined with a partial clone using a blob filter, the working tree
and the object store both stay small. Switching branches keeps the sparse checkout
patterns, and git status only reports files inside the cone."""),
    "git-worktree.md": ("Working with git worktrees", """
A git worktree attaches a second working tree to the same repository, so you can
review a branch without stashing. Each worktree has its own index and HEAD. In a big
monorepo, pair worktrees with a sparse checkout so each working tree materialises only
the cone of directories you need; a partial clone with a blob filter keeps the object
store small. Remove a worktree with git worktree remove when the branch is merged."""),
    "k8s-ingress.md": ("Kubernetes ingress controllers", """
An ingress controller routes external HTTP traffic to services inside a Kubernetes
cluster. Define host and path rules in an Ingress manifest, terminate TLS with a
certificate secret, and let the controller's load balancer expose a single address.
Annotations tune timeouts and rewrites. Deploy the controller itself with a Helm chart
and pin the chart version in the values file."""),
    "k8s-helm.md": ("Helm chart values", """
A Helm chart packages Kubernetes manifests as templates. The values file supplies the
settings: replica counts, image tags, resource limits and the ingress host. Override
values per environment with a second values file, and render the manifests with helm
template before an upgrade. Pin the chart version so a cluster upgrade is repeatable;
the ingress controller chart is a common first install."""),
    "astro-collimation.md": ("Collimating a Newtonian telescope", """
Collimation aligns the primary and secondary mirrors of a Newtonian telescope. Use a
collimation cap or a laser collimator in the focuser, centre the secondary under the
focuser, then tilt the primary until its centre spot sits in the middle. Check the
star test at high magnification: concentric diffraction rings mean the optics are
aligned. Collimate after transporting the telescope to a dark sky site."""),
    "astro-imaging.md": ("Deep sky astrophotography", """
Astrophotography of faint nebulae needs long exposures on a tracking equatorial mount.
Polar align the mount, focus with a Bahtinov mask on a bright star, and capture dozens
of sub-exposures to stack. A well collimated Newtonian telescope gives round stars to
the corners. Take dark frames and flat frames at the same temperature, then stack and
stretch the image to reveal the nebula."""),
    "mortgage-refinance.md": ("Refinancing the mortgage", """
Refinancing replaces the current mortgage with a new loan at a lower interest rate.
Compare the closing costs with the monthly savings to find the break-even point. The
lender orders an appraisal of the house, checks the credit score, and sets up a new
escrow account for property tax and homeowners insurance. Amortization restarts, so a
shorter loan term can save more interest overall."""),
    "mortgage-escrow.md": ("The escrow account", """
The escrow account collects a share of property tax and homeowners insurance with
every mortgage payment. Once a year the lender runs an escrow analysis: a shortage
raises the monthly payment, a surplus above the cushion is refunded. Refinancing with
a new lender closes the old escrow account and opens a new one, and the refund of the
old balance arrives a few weeks after closing."""),
}

PARTNER = {
    "espresso-descaling.md": "espresso-grinder.md", "sourdough-starter.md": "sourdough-bake.md",
    "git-sparse.md": "git-worktree.md", "k8s-ingress.md": "k8s-helm.md",
    "astro-collimation.md": "astro-imaging.md", "mortgage-refinance.md": "mortgage-escrow.md",
}
PARTNER.update({b: a for a, b in list(PARTNER.items())})


@pytest.fixture(params=["fts5", "plain"])
def kind(request):
    return request.param


def open_store(path, kind: str) -> Store:
    return Store.open(path, force_kind=kind)


def add_docs(st: Store, root: str, docs: Sequence[Tuple[str, str, str]]) -> Dict[str, int]:
    """Write documents as the indexer would: passages plus their phrase set."""
    ids = {}
    with st.transaction():
        sid = st.save_source(root, os.path.basename(root), [], [], 5_000_000)
        for path, title, text in docs:
            sha = hashlib.sha256(text.encode()).hexdigest()
            ids[path] = st.put_document(sid, path, title, "md", len(text), 1, sha, [],
                                        [((), text, 0, len(text), None, None, None)],
                                        document_phrases(title, text))
        st.bump_generation()
    return ids


def topic_docs() -> List[Tuple[str, str, str]]:
    return [(path, title, text.strip()) for path, (title, text) in TOPICS.items()]


def links_by_path(st: Store) -> List[Tuple[str, str, float, list]]:
    rows = st.conn.execute("SELECT a, b, score, evidence FROM links").fetchall()
    docs = st.documents({r[0] for r in rows} | {r[1] for r in rows})
    out = []
    for a, b, score, evidence in rows:
        pa, pb = sorted([docs[a]["path"], docs[b]["path"]])
        out.append((pa, pb, score, json.loads(evidence)))
    return sorted(out)


def neighbour_paths(result) -> List[str]:
    return [n.document["path"] for n in result.neighbours]


# -- pure scoring ---------------------------------------------------------------
@pytest.mark.parametrize("n, cap", [(1, 2), (2, 2), (3, 2), (4, 3), (5, 3), (10, 3), (20, 4),
                                    (100, 20), (1350, 270)])
def test_vocabulary_cap(n, cap):
    assert vocabulary_cap(n) == cap


def test_max_df_lowers_the_cap_to_fit_the_work():
    hist = {2: 1000, 3: 100, 10: 50, 50: 10}
    assert max_df(1000, hist) == 200                     # everything fits: the vocabulary cap
    small = GraphTuning(pair_budget=4000 + 900 + 50 * 100)
    assert max_df(1000, hist, small) == 49               # df 50 would overrun
    assert max_df(1000, hist, GraphTuning(pair_budget=10)) == 2   # df 2 is always kept


def test_weights_favour_rare_phrases_and_bigrams():
    assert phrase_weight(2, 100, False) > phrase_weight(10, 100, False) > 0
    assert phrase_weight(2, 2, False) > 0                # two-file folder still scores
    assert phrase_weight(5, 100, True) > phrase_weight(5, 100, False)


def test_title_bonus_is_bounded():
    assert combine(0.0, 0.0) == 0.0
    assert combine(0.5, 1.0) == pytest.approx(0.5 + DEFAULT_TUNING.title_bonus * 0.5)
    assert combine(1.0, 1.0) == 1.0
    assert combine(0.3, 0.5) > 0.3


def brute_force(n: int, sets: List[List[int]], titles: List[List[int]], top_k: int,
                min_score: float = 0.0, tuning: GraphTuning = DEFAULT_TUNING):
    """Every pair scored, each end's top k, union: what build_links must equal."""
    df: Dict[int, int] = {}
    for s in sets:
        for p in s:
            df[p] = df.get(p, 0) + 1
    hist: Dict[int, int] = {}
    for f in df.values():
        if f > 1:
            hist[f] = hist.get(f, 0) + 1
    cap = max_df(n, hist, tuning)
    w = {p: phrase_weight(f, n, bool(p & 1), tuning) for p, f in df.items() if 2 <= f <= cap}
    def strongest_first(ids, weights):   # the order sums run in: weight, then phrase id
        return sorted(ids, key=lambda p: (-weights[p], p))

    gated = [strongest_first({p for p in s if p in w}, w) for s in sets]
    norm = [math.sqrt(math.fsum(w[p] for p in g)) for g in gated]
    tdf: Dict[int, int] = {}
    for t in titles:
        for x in set(t):
            tdf[x] = tdf.get(x, 0) + 1
    tw = {x: phrase_weight(f, n, False, tuning) for x, f in tdf.items() if 2 <= f <= cap}
    tg = [strongest_first({x for x in t if x in tw}, tw) for t in titles]
    tnorm = [math.sqrt(math.fsum(tw[x] for x in g)) for g in tg]
    score = {}
    for i in range(n):
        for j in range(i + 1, n):
            shared = [p for p in gated[i] if p in set(gated[j])]
            s = 0.0
            for p in shared:
                s += w[p]
            s = s * (1.0 / norm[i]) * (1.0 / norm[j]) if shared else 0.0
            tshared = [x for x in tg[i] if x in set(tg[j])]
            if tshared:
                t = 0.0
                for x in tshared:
                    t += tw[x]
                s = combine(s, t * (1.0 / tnorm[i]) * (1.0 / tnorm[j]), tuning)
            if s > 0 and s >= min_score:
                score[(i, j)] = s
    chosen = {}
    for i in range(n):
        mine = sorted(((s, -(b if a == i else a)) for (a, b), s in score.items() if i in (a, b)),
                      reverse=True)[:top_k]
        for s, j in mine:
            chosen[tuple(sorted((i, -j)))] = s
    vocab = vocabulary_cap(n, tuning)
    if any(cap < f <= vocab for f in df.values()):
        # Documents left without a link are scored over every non-vocabulary phrase.
        linked = {x for pair in chosen for x in pair}
        wide = {p: phrase_weight(f, n, bool(p & 1), tuning)
                for p, f in df.items() if 2 <= f <= vocab}
        ext = [strongest_first({p for p in s if p in wide}, wide) for s in sets]
        visits: Dict[int, int] = {}     # the budget again, over the starved documents
        for i in range(n):
            if i not in linked:
                for p in ext[i]:
                    if p not in w:
                        visits[df[p]] = visits.get(df[p], 0) + 1
        limit = work = 0
        for f in sorted(visits):
            work += f * visits[f]
            if work > tuning.pair_budget:
                break
            limit = f
        wide = {p: x for p, x in wide.items() if p in w or df[p] <= limit}
        ext = [[p for p in e if p in wide] for e in ext]
        dropped = {p: x for p, x in wide.items() if p not in w}
        ext_norm = [math.sqrt(math.fsum(w[p] for p in g)
                              + math.fsum(dropped[p] for p in strongest_first(
                                  {p for p in s if p in dropped}, dropped)))
                    for g, s in zip(gated, sets)]
        for i in range(n):
            if i in linked:
                continue
            scored = []
            for j in range(n):
                shared = [p for p in ext[i] if p in set(ext[j])]
                if j == i or not shared:
                    continue
                a, b = min(i, j), max(i, j)
                s = 0.0
                for p in shared:
                    s += wide[p]
                s = s * (1.0 / ext_norm[a]) * (1.0 / ext_norm[b])
                tshared = [x for x in tg[a] if x in set(tg[b])]
                if tshared:
                    t = 0.0
                    for x in tshared:
                        t += tw[x]
                    s = combine(s, t * (1.0 / tnorm[a]) * (1.0 / tnorm[b]), tuning)
                if s >= min_score:
                    scored.append((s, -j))
            for s, j in sorted(scored, reverse=True)[:top_k]:
                chosen[tuple(sorted((i, -j)))] = s
    return sorted(chosen.items())


def random_corpus(seed: int, n: int = 40, vocab: int = 300):
    rnd = random.Random(seed)
    sets, titles = [], []
    for _ in range(n):
        size = rnd.randint(0, 60)
        ids = sorted({(rnd.randint(0, vocab) * 2654435761) % (1 << 30) - (1 << 29)
                      for _ in range(size)})
        sets.append(ids)
        titles.append([rnd.randint(0, 40) for _ in range(rnd.randint(0, 3))])
    return sets, titles


@pytest.mark.parametrize("seed, top_k, min_score, budget", [
    (1, 10, 0.0, DEFAULT_TUNING.pair_budget), (2, 3, 0.0, DEFAULT_TUNING.pair_budget),
    (3, 1, 0.0, DEFAULT_TUNING.pair_budget), (4, 5, 0.2, DEFAULT_TUNING.pair_budget),
    (5, 10, 0.0, 3000), (6, 2, 0.05, 500), (8, 4, 0.0, 300), (9, 10, 0.0, 60),
])
def test_build_links_equals_brute_force(seed, top_k, min_score, budget):
    sets, titles = random_corpus(seed)
    tuning = GraphTuning(pair_budget=budget, postings_per_pass=97)   # several df passes too
    n = len(sets)

    def phrase_sets():
        for i in reversed(range(n)):      # any order of documents
            yield i, array(ID_TYPECODE, sets[i])

    got = build_links(n, phrase_sets, titles, top_k, min_score, tuning,
                      total_postings=sum(map(len, sets)))
    assert [((lk.a, lk.b), lk.score) for lk in got] == brute_force(n, sets, titles, top_k,
                                                                   min_score, tuning)
    for lk in got:       # evidence: shared phrases, strongest first, shares sum to at most 1
        assert lk.a < lk.b
        assert all(p in sets[lk.a] and p in sets[lk.b] for p, _ in lk.phrases)
        shares = [share for _, share in lk.phrases]
        assert shares == sorted(shares, reverse=True)
        assert sum(shares) <= lk.score + 1e-9


def test_progress_reaches_the_end():
    sets, titles = random_corpus(7, n=300)
    seen = []
    build_links(300, lambda: enumerate(array(ID_TYPECODE, s) for s in sets), titles,
                progress=lambda done, total: seen.append((done, total)))
    assert seen[-1] == (300, 300) and seen == sorted(seen)


# -- through a store --------------------------------------------------------------
def test_near_duplicates_link_strongly(tmp_path, kind):
    st = open_store(tmp_path / "p.db", kind)
    docs = topic_docs()
    title, text = TOPICS["git-sparse.md"]
    revised = text.strip().replace("stay small", "stay compact") + " Review the cone often."
    docs.append(("git-sparse-v2.md", title + " (revised)", revised))
    add_docs(st, str(tmp_path / "notes"), docs)
    graph.link(st)
    ids = {d["path"]: d["id"] for d in st.documents(st.document_ids()).values()}
    result = graph.related(st, ids["git-sparse.md"])
    top = result.neighbours[0]
    assert top.document["path"] == "git-sparse-v2.md"
    assert top.score > 0.8
    assert result.neighbours[1].score < top.score - 0.3
    assert len(top.phrases) >= 5
    def words(s):
        return " ".join(s.lower().replace("-", " ").split())
    for phrase in top.phrases:          # readable text found in both documents
        assert phrase in words(text) and phrase in words(revised)


def test_topic_partners_are_each_others_best(tmp_path, kind):
    st = open_store(tmp_path / "p.db", kind)
    ids = add_docs(st, str(tmp_path / "notes"), topic_docs())
    report = graph.link(st)
    assert report.documents == len(TOPICS) and report.links >= len(TOPICS) // 2
    for path, doc_id in ids.items():
        assert neighbour_paths(graph.related(st, doc_id))[0] == PARTNER[path]


def test_hub_does_not_monopolise(tmp_path, kind):
    # A weekly digest quotes a sentence of every note: it touches everything,
    # but each note's best neighbour stays the note on its own subject.
    st = open_store(tmp_path / "p.db", kind)
    docs = topic_docs()
    digest = "\n\n".join(text.split(".")[0] + "." for _, _, text in docs)
    docs.append(("digest.md", "Weekly digest", digest))
    ids = add_docs(st, str(tmp_path / "notes"), docs)
    graph.link(st, top_k=3)
    firsts = []
    for path in TOPICS:
        result = graph.related(st, ids[path])
        firsts.append(neighbour_paths(result)[0])
        assert firsts[-1] == PARTNER[path], path
    assert "digest.md" not in firsts


def test_a_verbatim_hub_cannot_crowd_out_a_partner(tmp_path, kind):
    # A file that concatenates every note is every note's closest match (cosine
    # says so), yet with top-k from either end each note keeps its partner.
    st = open_store(tmp_path / "p.db", kind)
    docs = topic_docs()
    docs.append(("everything.md", "Everything", "\n\n".join(t for _, _, t in docs)))
    ids = add_docs(st, str(tmp_path / "notes"), docs)
    graph.link(st, top_k=2)
    for path in TOPICS:
        assert PARTNER[path] in neighbour_paths(graph.related(st, ids[path])), path


def test_two_file_folder_links_on_a_shared_rare_phrase(tmp_path, kind):
    st = open_store(tmp_path / "p.db", kind)
    ids = add_docs(st, str(tmp_path / "two"), [
        ("a.md", "Monday", "Ordered a new portafilter basket for the office machine."),
        ("b.md", "Friday", "Returned the portafilter basket because it did not fit."),
    ])
    report = graph.link(st)
    assert report.links == 1 and report.max_degree == 1
    result = graph.related(st, ids["a.md"])
    assert neighbour_paths(result) == ["b.md"]
    assert "portafilter basket" in result.neighbours[0].phrases


def test_a_phrase_in_every_document_links_nothing(tmp_path, kind):
    st = open_store(tmp_path / "p.db", kind)
    add_docs(st, str(tmp_path / "q"), [
        (f"{i}.md", f"Report {word}", f"Quarterly report. {word} {other}.")
        for i, (word, other) in enumerate([("espresso", "grinder"), ("sourdough", "levain"),
                                           ("kubernetes", "ingress"), ("telescope", "mirror")])
    ])
    report = graph.link(st)
    assert report.links == 0 and report.median_score == 0.0 and report.max_degree == 0


def test_documents_the_budget_starves_still_link(tmp_path, kind):
    # Six stubs from one template share only phrases the pair budget drops.
    st = open_store(tmp_path / "p.db", kind)
    stubs = [(f"relnotes/2.{k}.md", f"Release 2.{k}",
              f"Release notes for maintenance version 2.{k}. This release merges up the "
              "fixes that appear in the maintenance track of the previous release.")
             for k in range(6)]
    ids = add_docs(st, str(tmp_path / "notes"), topic_docs() + stubs)
    tight = GraphTuning(vocabulary_share=0.5, pair_budget=600)
    df: Dict[int, int] = {}
    for path, title, text in topic_docs() + stubs:
        for p in unpack(document_phrases(title, text)):
            df[p] = df.get(p, 0) + 1
    histogram: Dict[int, int] = {}
    for f in df.values():
        histogram[f] = histogram.get(f, 0) + 1
    assert graph.max_df(len(ids), histogram, tight) < 6 < graph.vocabulary_cap(len(ids), tight)
    graph.link(st, tuning=tight)
    for path, _, _ in stubs:
        result = graph.related(st, ids[path])
        assert sorted(neighbour_paths(result)[:5]) == sorted(p for p, _, _ in stubs if p != path)
        assert "maintenance track" in result.neighbours[0].phrases
    assert neighbour_paths(graph.related(st, ids["git-sparse.md"]))[0] == "git-worktree.md"


def test_min_score_and_top_k(tmp_path, kind):
    st = open_store(tmp_path / "p.db", kind)
    add_docs(st, str(tmp_path / "notes"), topic_docs())
    loose = graph.link(st, top_k=10)
    strict = graph.link(st, top_k=10, min_score=0.3)
    assert strict.links < loose.links
    assert all(score >= 0.3 for _, _, score, _ in links_by_path(st))
    one = graph.link(st, top_k=1)
    assert one.links >= len(TOPICS) // 2 and one.max_degree <= 2
    with pytest.raises(GleanError):
        graph.link(st, top_k=0)


def test_same_links_whatever_the_indexing_order(tmp_path, kind):
    docs = topic_docs()
    first = open_store(tmp_path / "a.db", kind)
    add_docs(first, str(tmp_path / "notes"), docs)
    second = open_store(tmp_path / "b.db", kind)
    add_docs(second, str(tmp_path / "notes"), docs[5:])
    add_docs(second, str(tmp_path / "notes"), list(reversed(docs[:5])))
    graph.link(first)
    graph.link(second)
    assert links_by_path(first) == links_by_path(second)
    assert links_by_path(first)


def dump_links(db: str, folder: str, kind: str) -> str:
    """Index TOPICS into a fresh store, link, and print the links by path (a subprocess)."""
    st = open_store(db, kind)
    add_docs(st, folder, topic_docs())
    graph.link(st)
    return json.dumps(links_by_path(st))


def test_same_links_whatever_the_hash_seed(tmp_path, kind):
    code = ("import sys, test_graph; "
            "print(test_graph.dump_links(sys.argv[1], sys.argv[2], sys.argv[3]))")
    outputs = set()
    for seed in ("0", "123"):
        env = dict(os.environ, PYTHONHASHSEED=seed,
                   PYTHONPATH=os.pathsep.join([ROOT, HERE]))
        out = subprocess.run([sys.executable, "-c", code, str(tmp_path / f"s{seed}.db"),
                              str(tmp_path / "notes"), kind],
                             env=env, check=True, capture_output=True, text=True).stdout
        outputs.add(out.strip())
    outputs.add(dump_links(str(tmp_path / "here.db"), str(tmp_path / "notes"), kind))
    assert len(outputs) == 1


def test_related_before_link_says_to_run_link(tmp_path, kind):
    st = open_store(tmp_path / "p.db", kind)
    ids = add_docs(st, str(tmp_path / "notes"), topic_docs())
    with pytest.raises(GleanError, match="run `glean-personal link`"):
        graph.related(st, ids["git-sparse.md"])
    status = graph.graph_status(st)
    assert status["linked"] is False and status["stale"] is False and status["links"] == 0


def test_stale_after_a_change(tmp_path, kind):
    st = open_store(tmp_path / "p.db", kind)
    ids = add_docs(st, str(tmp_path / "notes"), topic_docs())
    graph.link(st)
    assert graph.graph_status(st)["stale"] is False
    assert graph.related(st, ids["git-sparse.md"]).stale is False
    add_docs(st, str(tmp_path / "notes"), [("new.md", "New", "A brand new note on kayaks.")])
    assert graph.graph_status(st)["stale"] is True
    result = graph.related(st, ids["git-sparse.md"])
    assert result.stale is True and result.neighbours        # still answers
    assert result.to_dict()["stale"] is True
    graph.link(st)
    assert graph.graph_status(st)["stale"] is False


def test_removed_document_drops_its_links(tmp_path, kind):
    st = open_store(tmp_path / "p.db", kind)
    ids = add_docs(st, str(tmp_path / "notes"), topic_docs())
    graph.link(st)
    with st.transaction():
        st.remove_documents([ids["git-worktree.md"]])
        st.bump_generation()
    result = graph.related(st, ids["git-sparse.md"])
    assert "git-worktree.md" not in neighbour_paths(result) and result.stale


def test_json_shapes(tmp_path, kind):
    st = open_store(tmp_path / "p.db", kind)
    ids = add_docs(st, str(tmp_path / "notes"), topic_docs())
    report = graph.link(st).to_dict()
    assert set(report) == {"documents", "links", "median_score", "max_degree", "seconds"}
    status = graph.graph_status(st)
    assert status["links"] == report["links"] and status["max_degree"] == report["max_degree"]
    assert status["median_score"] == pytest.approx(report["median_score"], abs=1e-4)
    assert status["linked"] is True and status["documents"] <= len(TOPICS)
    data = graph.related(st, ids["k8s-helm.md"], limit=3).to_dict()
    assert data["document"]["path"] == "k8s-helm.md"
    assert 1 <= len(data["neighbours"]) <= 3
    first = data["neighbours"][0]
    assert {"id", "title", "url", "path"} <= set(first["document"])
    assert first["document"]["url"] == (tmp_path / "notes" / "k8s-ingress.md").as_uri()
    assert first["score"] > 0 and all(isinstance(p, str) and p for p in first["phrases"])
    assert json.loads(json.dumps(data)) == data
    scores = [n["score"] for n in data["neighbours"]]
    assert scores == sorted(scores, reverse=True)


def test_empty_index_links_nothing(tmp_path, kind):
    st = open_store(tmp_path / "p.db", kind)
    report = graph.link(st)
    assert (report.documents, report.links, report.max_degree) == (0, 0, 0)
    assert graph.graph_status(st)["linked"] is True


def test_through_the_facade(tmp_path, kind):
    import glean_personal
    folder = tmp_path / "folder"
    folder.mkdir()
    for path, (title, text) in TOPICS.items():
        (folder / path).write_text(f"# {title}\n\n{text.strip()}\n", encoding="utf-8")
    with glean_personal.open_index(tmp_path / "p.db", store=kind) as ix:
        ix.index(folder)
        report = ix.link()
        assert report.links >= len(TOPICS) // 2
        result = ix.related("git-sparse.md")
        assert result.neighbours[0].document["path"] == "git-worktree.md"
        assert any("sparse checkout" in p for p in result.neighbours[0].phrases)


def test_evidence_column_is_json():
    lk = graph.Link(0, 1, 0.5, ((-(2 ** 63), 1.5e-07), (2 ** 63 - 2, 0.25)), (42, -7))
    assert json.loads(graph._evidence_json(lk)) == {
        "phrases": [[-(2 ** 63), 1.5e-07], [2 ** 63 - 2, 0.25]], "title": [42, -7]}
    assert json.loads(graph._evidence_json(graph.Link(0, 1, 0.1, ()))) == {"phrases": [],
                                                                         "title": []}


def test_related_filters_its_neighbours_as_a_search_filters(tmp_path, kind, monkeypatch):
    """Index.related(source=, type=, path=) (review16): the formats' aliases and file
    extensions, the path glob at any folder's start, and notices when a filter matches
    nothing in the index, as search has them."""
    import glean_personal
    monkeypatch.setenv("GLEAN_PERSONAL_STORE", kind)
    notes = tmp_path / "notes"
    (notes / "sub").mkdir(parents=True)
    for n, (name, (title, text)) in enumerate(sorted(TOPICS.items())):
        where = notes / "sub" if n % 2 else notes
        suffix = ".txt" if n % 3 == 0 else ".md"
        (where / name.replace(".md", suffix)).write_text(f"# {title}\n\n{text}\n")
    with glean_personal.open_index(tmp_path / "p.db") as ix:
        ix.index(notes, label="notes")
        ix.link()
        doc = ix.search("espresso descaling citric").results[0].document["path"]
        everything = ix.related(doc, limit=50).neighbours
        assert {n.document["format"] for n in everything} == {"md", "txt"}
        md = [n.document["id"] for n in everything if n.document["format"] == "md"]
        for name in ("md", "markdown", "mdx", "MD"):
            assert [n.document["id"] for n in ix.related(doc, limit=50, type=name).neighbours] \
                == md, name
        for n in everything:
            base = n.document["path"].rsplit("/", 1)[-1]
            assert n.document["id"] in [m.document["id"] for m in
                                        ix.related(doc, limit=50, path=base).neighbours]
        under = ix.related(doc, limit=50, path="sub/*").neighbours
        assert under and all(n.document["path"].startswith("sub/") for n in under)
        assert len(ix.related(doc, limit=2, type="md").neighbours) == min(2, len(md))
        assert ix.related(doc, limit=50, source="notes").neighbours == everything
        assert ix.related(doc).notices == []
        gone = ix.related(doc, source="elsewhere")
        assert gone.neighbours == [] and gone.notices == [
            "no source named elsewhere in this index; sources here: notes"]
        assert gone.to_dict()["notices"] == gone.notices
        assert ix.related(doc, type="pdf").notices[0].startswith(
            "no documents of type pdf in this index; types here:")
        assert "notices" not in ix.related(doc).to_dict()


def test_the_folder_a_generic_name_is_told_apart_by_links_nothing(tmp_path, open_ix):
    """`todo.txt` in `notes/` is titled *todo (notes)* so that lists tell it from another
    todo; the folder's name is where the file is kept, not what it says, and a deck
    titled *Notes* shares nothing with it."""
    from glean_personal.formats.titles import own_title
    from glean_personal.phrases import title_terms
    from helpers.files import write_tree
    assert own_title("todo (notes)") == "todo" and own_title("Paris (2024)") == "Paris (2024)"
    assert title_terms("README (zstd)") == title_terms("README")
    root = write_tree(tmp_path / "files", {
        "notes/todo.txt": "Renew the passport before March.\nBook the chimney sweep.\n",
        "slides/notes.md": "# Notes\n\nTulip bulbs go in after the first frost.\n",
        "trip.md": "# Trip\n\nThe passport photo booth is by the station.\n",
        "garden.md": "# Garden\n\nTulip bulbs and a chimney pot planter.\n"})
    ix = open_ix()
    ix.index(root)
    ix.link()
    assert "todo (notes)" in [h.title for h in ix.search("passport").results]
    related = ix.related("notes/todo.txt")
    for n in related.neighbours:
        assert "notes" not in n.phrases, (n.document["path"], n.phrases)
    assert "slides/notes.md" not in [n.document["path"] for n in related.neighbours]


# -- the incremental update ---------------------------------------------------------
def _word(rng: random.Random) -> str:
    return "".join(rng.choice("bdfgklmnprstvz") + rng.choice("aeiou") for _ in range(4))


def _clusters(prefix: str, topics: int, rng: random.Random, shared: str = "") -> Dict[str, str]:
    """Three notes a topic: eight words the three share, six of each note's own."""
    files = {}
    for t in range(topics):
        common = " ".join(_word(rng) for _ in range(8))
        for k in range(3):
            own = " ".join(_word(rng) for _ in range(6))
            files[f"{prefix}t{t}n{k}.md"] = (f"# {_word(rng)}\n\n{common}.\n\n{own}.\n"
                                             + (f"\n{shared}.\n" if shared else ""))
    return files


def _pairs(ix) -> set:
    return {(a, b) for a, b, _, _ in links_by_path(ix.store)}


def test_added_documents_link_as_a_fresh_link_would(tmp_path, open_ix):
    """Added documents keep their own top k and what the other end would rank, no more:
    each added note had linked to every note, added with it or short of top_k links,
    that shared any phrase with it (a moved-back folder of 269 files wrote 104,012
    links where `link` builds 3,346)."""
    from helpers.files import write_tree
    rng = random.Random(28)
    base = _clusters("", 10, rng)
    lonely_words = " ".join(_word(rng) for _ in range(6))
    base["lonely.md"] = f"# Lonely\n\n{lonely_words}.\n"
    # Six notes in two topics, all six sharing two words; one also shares words with the
    # lonely note, whose only neighbour it is: kept from the lonely note's end.
    extra = _clusters("", 2, rng, shared="ledger quarterly")
    extra["t0n0.md"] += f"\n{lonely_words.split()[0]} {lonely_words.split()[1]}.\n"
    root = write_tree(tmp_path / "notes", base)
    ix = open_ix()
    ix.index(root)
    ix.link(top_k=2)
    moved = write_tree(tmp_path / "outside" / "extra", extra)
    for step in ("add", "out", "back"):
        if step == "add":
            moved.rename(root / "extra")
        elif step == "out":
            (root / "extra").rename(moved)
        else:
            moved.rename(root / "extra")
        report = ix.index(root)
        assert report.graph["mode"] == "incremental", (step, report.graph)
        if step == "out":
            assert not any("extra/" in a + b for a, b in _pairs(ix))
            continue
        incremental = _pairs(ix)
        ix.link(top_k=2)
        fresh = _pairs(ix)
        assert incremental == fresh, (step, sorted(incremental ^ fresh))
        assert ("extra/t0n0.md", "lonely.md") in fresh
        assert len([p for p in fresh if "extra/" in p[0] + p[1]]) == 7


@pytest.mark.parametrize("nothing_changed", [False, True])
def test_documents_a_stopped_update_left_are_linked_by_the_next(tmp_path, open_ix, monkeypatch,
                                                               nothing_changed):
    """Stopped between writing the documents and linking them (a kill), the graph missed
    them; the next run links them too, added or rewritten, whether or not it changes
    anything, and the graph is the one a fresh `link` builds. (It had linked that run's
    documents alone and called the graph current, or left it stale.)"""
    from helpers.files import write_tree
    rng = random.Random(29)
    files = _clusters("", 14, rng)
    late = _clusters("late/", 2, rng)
    root = write_tree(tmp_path / "notes", files)
    ix = open_ix()
    ix.index(root)
    ix.link(top_k=2)
    before = _pairs(ix)
    write_tree(root, late)                                    # added
    (root / "t0n0.md").write_text(files["t0n0.md"] + "\nsome more words.\n")   # rewritten

    def killed(*args, **kwargs):
        raise KeyboardInterrupt
    monkeypatch.setattr(graph, "refresh", killed)
    with pytest.raises(KeyboardInterrupt):
        ix.index(root)
    monkeypatch.undo()
    assert _pairs(ix) == before
    assert ix.status().graph["stale"]
    if nothing_changed:   # the next run finds no change to the files, and links them still
        report = ix.index(root)
        assert not report.changes
        assert report.graph["mode"] == "incremental" and report.graph["documents"] == 7, \
            report.graph
    else:
        (root / "t7n2.md").write_text(files["t7n2.md"] + "\nand one line.\n")
        report = ix.index(root)
        assert report.graph["mode"] == "incremental" and report.graph["documents"] == 8, \
            report.graph
    assert not ix.status().graph["stale"]
    incremental = _pairs(ix)
    ix.link(top_k=2)
    assert incremental == _pairs(ix), sorted(incremental ^ _pairs(ix))
    assert {("t0n0.md", "t0n1.md"), ("t0n0.md", "t0n2.md")} <= incremental
    assert {p for p in incremental if "late/" in p[0]} == {
        (f"late/t{t}n{a}.md", f"late/t{t}n{b}.md") for t in (0, 1) for a, b in ((0, 1), (0, 2), (1, 2))}
