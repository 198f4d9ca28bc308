"""Kill, concurrency and MCP-client trials over a mixed folder; prints what broke.

Usage (from the repository, so the worktree's code runs):

    PYTHONPATH=$PWD python bench/robust_round4.py [--seed N] [--kills 40]
        [--stores fts5,plain] [--parts kill,interrupt,concurrent,mcp] [--work DIR]
        [--client-python /path/to/python-with-mcp]

1. kill: a mixed folder (Markdown, HTML, text, code, JSON, CSV, docx, xlsx,
   pptx, PDF) is indexed while SIGKILL lands at seeded random delays, spread
   over `index` (first run and re-runs after edits), `link`, `watch`,
   `sources move`, `purge` and `compact`. After every kill: SQLite's integrity
   check, the full-text index's check, the cross-checks between documents,
   passages, full-text rows and the graph; every document's stored passages
   equal those of a clean index of one of its versions (never half); the index
   file 0600 in a 0700 folder, a journal left behind 0600; `status` and
   `search` answer without a traceback. Each chain ends with a run that
   completes; its documents and search results must equal a clean index's.
   Then `verify --repair` and `export` are killed (the next export leaves no
   temporary file), and `index` of a new file (the next run leaves only the
   index in its folder).
1b. interrupt: Ctrl-C (SIGINT to the process group) or SIGTERM at random
   moments of index, watch, link, verify, verify --repair, compact, purge and
   search: exit 0, 130 (143 for SIGTERM) or by the signal, never a traceback or a false verdict
   of damage, and the checks above.
2. concurrent: two `index` processes on one new index at once; `search`,
   `status` and MCP tool calls while an `index` runs: every command exits 0 or
   with one clear line (never a traceback, never "database is locked" raw).
3. mcp: the official MCP client (`mcp` package; give a Python that has it
   with --client-python) drives the server: initialize, tools/list, each
   tool with normal, empty, 100 KB, unicode, wrong-typed and missing
   arguments; then raw JSON-RPC for cancellation, two requests with one id,
   and a request written just before stdin closes.

Exit status 0 when nothing broke. Stdlib only (the MCP part runs this same
file under --client-python with `--mcp-client DB`).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import shutil
import signal
import sqlite3
import stat
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Dict, List, Optional, Set, Tuple

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))
PROBLEMS: List[str] = []
COUNTS: Dict[str, int] = {}


def note(kind: str, text: str) -> None:
    PROBLEMS.append(f"[{kind}] {text}")
    print(f"  PROBLEM [{kind}] {text}", flush=True)


def count(key: str, n: int = 1) -> None:
    COUNTS[key] = COUNTS.get(key, 0) + n


# ---------------------------------------------------------------- the folder

WORDS = ("harbour lantern quartz meadow cipher velvet orbit thistle marble falcon ember "
         "glacier saffron tundra pylon cobalt willow ferment basalt zephyr nimbus copper "
         "juniper granite mosaic prism quill russet sonnet tapestry umber vortex wicker").split()


def sentence(rng: random.Random, n: int = 12) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(n)).capitalize() + "."


def paragraphs(rng: random.Random, k: int) -> List[str]:
    return [" ".join(sentence(rng, rng.randint(6, 16)) for _ in range(rng.randint(2, 5)))
            for _ in range(k)]


def make_file(rng: random.Random, i: int, kind: str, tag: str) -> Tuple[str, bytes]:
    """One file of the given kind; `tag` marks its version in its text."""
    import office_factory as of
    import pdf_factory as pf
    paras = paragraphs(rng, rng.randint(3, 8))
    paras[0] = f"{tag} {paras[0]}"
    folder = f"d{i % 7}"
    if kind == "md":
        body = f"# Note {i}\n\n" + "\n\n".join(
            (f"## Part {k}\n\n" if k % 2 else "") + p for k, p in enumerate(paras))
        return f"{folder}/note{i}.md", body.encode()
    if kind == "html":
        body = (f"<html><head><title>Page {i}</title></head><body><h1>Page {i}</h1>"
                + "".join(f"<h2>S{k}</h2><p>{p}</p>" for k, p in enumerate(paras)) + "</body></html>")
        return f"{folder}/page{i}.html", body.encode()
    if kind == "txt":
        return f"{folder}/plain{i}.txt", "\n\n".join(paras).encode()
    if kind == "py":
        funcs = "\n\n".join(f"def {rng.choice(WORDS)}_{k}(x):\n    \"\"\"{p}\"\"\"\n    return x + {k}\n"
                            for k, p in enumerate(paras))
        return f"{folder}/mod{i}.py", f'"""Module {i}: {tag}."""\n\n{funcs}'.encode()
    if kind == "json":
        return f"{folder}/data{i}.json", json.dumps(
            {"title": f"Data {i}", "items": [{"id": k, "text": p} for k, p in enumerate(paras)]},
            indent=1).encode()
    if kind == "csv":
        rows = "\n".join(f"{k},{rng.choice(WORDS)},\"{p[:80]}\"" for k, p in enumerate(paras))
        return f"{folder}/table{i}.csv", f"id,name,text\n{rows}\n".encode()
    if kind == "docx":
        body = "".join(of.para(of.run(f"Heading {k}"), style="Heading1") + of.para(of.run(p))
                       for k, p in enumerate(paras))
        return f"{folder}/report{i}.docx", of.docx(body, title=f"Report {i}",
                                                    styles={"Heading1": "heading 1"})
    if kind == "xlsx":
        rows = [["id", "word", "text"]] + [[k, rng.choice(WORDS), p[:120]] for k, p in enumerate(paras)]
        return f"{folder}/book{i}.xlsx", of.xlsx([("Sheet1", rows)], title=f"Book {i}")
    if kind == "pptx":
        slides = [{"title": f"Slide {k}", "body": [p[:200]]} for k, p in enumerate(paras)]
        return f"{folder}/deck{i}.pptx", of.pptx(slides, title=f"Deck {i}")
    if kind == "pdf":
        pages = [pf.show([p[j:j + 80] for j in range(0, min(len(p), 800), 80)]) for p in paras[:4]]
        return f"{folder}/paper{i}.pdf", pf.text_pdf(pages)
    raise ValueError(kind)


KINDS = ("md", "html", "txt", "py", "json", "csv", "docx", "xlsx", "pptx", "pdf")


class Folder:
    """A mixed folder whose every written version is remembered by sha256."""

    def __init__(self, root: Path, n: int, rng: random.Random) -> None:
        self.root, self.rng, self.n = root, rng, n
        self.kinds: Dict[int, str] = {}
        self.versions: Dict[str, Set[str]] = {}   # rel -> every sha256 it had
        for i in range(n):
            self.kinds[i] = KINDS[i % len(KINDS)]
            self.put(i, "v1")

    def put(self, i: int, tag: str) -> str:
        rel, data = make_file(self.rng, i, self.kinds[i], f"{tag}tag{i}")
        path = self.root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        self.versions.setdefault(rel, set()).add(hashlib.sha256(data).hexdigest())
        return rel

    def edit(self, tag: str, share: float = 0.2) -> None:
        """Change a share of the files, delete a few, add a few."""
        for i in list(self.kinds):
            r = self.rng.random()
            if r < share:
                self.put(i, tag)
            elif r < share + 0.03:
                rel, _ = make_file(random.Random(0), i, self.kinds[i], "x")
                (self.root / rel).unlink(missing_ok=True)
                del self.kinds[i]
        for _ in range(max(2, self.n // 30)):
            i = max(self.kinds) + 1 if self.kinds else 0
            self.kinds[i] = self.rng.choice(KINDS)
            self.put(i, tag)


# ---------------------------------------------------------------- running the CLI

def env_for(kind: str) -> Dict[str, str]:
    env = dict(os.environ)
    env.pop("GLEAN_PERSONAL_DB", None)
    env["GLEAN_PERSONAL_STORE"] = kind
    env["PYTHONPATH"] = str(REPO)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    return env


def cli(kind: str, *args: str) -> List[str]:
    return [sys.executable, "-m", "glean_personal", *args]


def run(kind: str, *args: str, timeout: float = 600) -> subprocess.CompletedProcess:
    return subprocess.run(cli(kind, *args), env=env_for(kind), capture_output=True,
                          timeout=timeout, text=True)


def clean_exit(what: str, proc: subprocess.CompletedProcess, ok_codes=(0,)) -> bool:
    """No traceback, an allowed status, and if failing one clear line on stderr."""
    err = proc.stderr or ""
    if "Traceback" in err:
        note("traceback", f"{what}: {err.strip().splitlines()[-1]}")
        return False
    if proc.returncode not in ok_codes:
        lines = [ln for ln in err.strip().splitlines() if ln.strip()]
        if proc.returncode in (1, 3) and len(lines) >= 1 and "database is locked" not in err:
            count(f"clear failure ({what.split()[0]})")
            return False
        note("exit", f"{what}: status {proc.returncode}: {err.strip()[:300]}")
        return False
    return True


def kill_after(kind: str, args: List[str], delay: float, before=None) -> bool:
    """Start a command, SIGKILL its process group after `delay` s. True if the kill landed."""
    proc = subprocess.Popen(cli(kind, *args), env=env_for(kind), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True)
    if before:
        before()
    try:
        out, err = proc.communicate(timeout=delay)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        return True
    clean_exit(" ".join(args[:2]), subprocess.CompletedProcess(args, proc.returncode, out, err))
    return False


# ---------------------------------------------------------------- checking the index

def open_check(db: Path) -> sqlite3.Connection:
    from glean_personal.store.connection import register_functions
    conn = sqlite3.connect(str(db))
    register_functions(conn)
    return conn


def check_index(db: Path, clean: Dict[Tuple[str, str], tuple], where: str) -> None:
    """Integrity, cross-checks, whole documents, permissions."""
    count("checks")
    mode = stat.S_IMODE(db.stat().st_mode)
    if mode != 0o600:
        note("perm", f"{where}: index file mode {oct(mode)}")
    fmode = stat.S_IMODE(db.parent.stat().st_mode)
    if fmode != 0o700:
        note("perm", f"{where}: folder mode {oct(fmode)}")
    journal = Path(str(db) + "-journal")
    if journal.exists() and stat.S_IMODE(journal.stat().st_mode) & 0o077:
        note("perm", f"{where}: journal mode {oct(stat.S_IMODE(journal.stat().st_mode))}")
    for side in ("-wal", "-shm"):
        if Path(str(db) + side).exists():
            note("sidecar", f"{where}: {side} file beside the index")
    conn = open_check(db)   # the first opener rolls a hot journal back
    try:
        rows = [r[0] for r in conn.execute("PRAGMA integrity_check")]
        if rows != ["ok"]:
            note("integrity", f"{where}: {rows[:3]}")
        kind = dict(conn.execute("SELECT key, value FROM meta")).get("store")
        if kind == "fts5":
            try:
                conn.execute("INSERT INTO passage_fts(passage_fts, rank) VALUES ('integrity-check', 1)")
            except sqlite3.DatabaseError as exc:
                note("fts", f"{where}: {exc}")
            n_fts = conn.execute("SELECT count(*) FROM passage_fts").fetchone()[0]
            n_pass = conn.execute("SELECT count(*) FROM passages").fetchone()[0]
            if n_fts != n_pass:
                note("fts", f"{where}: {n_fts} full-text rows, {n_pass} passages")
        else:
            bad = conn.execute("SELECT (SELECT count(*) FROM passages WHERE id NOT IN "
                               "(SELECT passage_id FROM plain_lengths)), (SELECT count(*) FROM "
                               "plain_lengths WHERE passage_id NOT IN (SELECT id FROM passages)), "
                               "(SELECT count(*) FROM plain_postings WHERE passage_id NOT IN "
                               "(SELECT id FROM passages))").fetchone()
            if any(bad):
                note("plain", f"{where}: unindexed/stale lengths/stale postings {bad}")
        from glean_personal.store.maintenance import CROSS_CHECKS
        for label, sql in CROSS_CHECKS.items():
            n = conn.execute(sql).fetchone()[0]
            if n:
                note("cross", f"{where}: {n} {label}")
        docs = conn.execute("SELECT d.id, s.root, d.path, d.sha256 FROM documents d "
                            "JOIN sources s ON s.id = d.source_id").fetchall()
        for doc_id, root, path, sha in docs:
            got = tuple(conn.execute("SELECT heading, text FROM passages WHERE document_id = ? "
                                     "ORDER BY ordinal", (doc_id,)))
            want = clean.get((path, sha))
            if want is None:
                note("version", f"{where}: {path} has sha {sha[:12]}, never a clean version")
            elif got != want:
                note("torn", f"{where}: {path}: {len(got)} passages, clean has {len(want)}")
    finally:
        conn.close()


def passages_by_version(db: Path) -> Dict[Tuple[str, str], tuple]:
    conn = open_check(db)
    try:
        out = {}
        for doc_id, path, sha in conn.execute("SELECT id, path, sha256 FROM documents"):
            out[(path, sha)] = tuple(conn.execute(
                "SELECT heading, text FROM passages WHERE document_id = ? ORDER BY ordinal", (doc_id,)))
        return out
    finally:
        conn.close()


QUERIES = ("v1tag5", "v1tag12", "v1tag16", "v1tag17", "v1tag18", "e0tag33", "e1tag40", "w0tag7",
           "v1tag19 OR v1tag9", "mod23")
"""Selective queries: each matches fewer passages than the search's candidate pool.
A broad query ("def", "quartz") is not compared: where more passages tie than the pool
holds, the ones kept are the lowest passage ids, and ids follow the order the workers
finished in, which differs between two clean indexes of the same files."""
BROAD = ("harbour lantern", "quartz", "def", "slide", "cipher velvet orbit")


def answers(kind: str, db: Path) -> Dict[str, list]:
    out = {}
    for q in QUERIES:
        proc = run(kind, "search", q, "--db", str(db), "--json", "--limit", "10")
        if not clean_exit(f"search {q}", proc):
            out[q] = None
            continue
        data = json.loads(proc.stdout)
        hits = data.get("results", data.get("hits", data)) if isinstance(data, dict) else data
        out[q] = [(h.get("path"), round(float(h.get("score", 0)), 6)) for h in hits] \
            if isinstance(hits, list) else hits
    return out


def readers_work(kind: str, db: Path, where: str) -> None:
    for args in (("status", "--db", str(db), "--json"), ("search", random.choice(BROAD), "--db", str(db))):
        proc = run(kind, *args)
        clean_exit(f"{args[0]} after kill ({where})", proc, ok_codes=(0,))


def mcp_first(kind: str, db: Path, where: str) -> None:
    """The MCP server as the first process to open the index after a kill."""
    proc = subprocess.Popen(cli(kind, "mcp", "--db", str(db)), env=env_for(kind), stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    msgs = [{"jsonrpc": "2.0", "id": 0, "method": "initialize",
             "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                        "clientInfo": {"name": "robust4", "version": "1"}}},
            {"jsonrpc": "2.0", "method": "notifications/initialized"},
            {"jsonrpc": "2.0", "id": 1, "method": "tools/call",
             "params": {"name": "local_search", "arguments": {"query": random.choice(BROAD)}}},
            {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
             "params": {"name": "local_sources", "arguments": {}}}]
    out, err = proc.communicate(b"".join(json.dumps(m).encode() + b"\n" for m in msgs), timeout=120)
    count("mcp first after a kill")
    replies = [json.loads(ln) for ln in out.splitlines()]
    bad = [r for r in replies if "error" in r or r.get("result", {}).get("isError")]
    if "Traceback" in err.decode("utf-8", "replace") or len(replies) != 3 or bad:
        note("mcp-after-kill", f"{where}: {len(replies)} replies, errors {bad}, stderr {err[-200:]!r}")


def clean_index(kind: str, folder: Path, db: Path, label: str) -> None:
    proc = run(kind, "index", str(folder), "--label", label, "--db", str(db))
    if not clean_exit("clean index", proc):
        raise SystemExit("a clean index failed: " + proc.stderr)


def same_documents(kind: str, db: Path, ref: Path, where: str) -> None:
    a, b = passages_by_version(db), passages_by_version(ref)
    if a != b:
        only_a = sorted(set(a) - set(b))[:3]
        only_b = sorted(set(b) - set(a))[:3]
        diff = [k for k in a if k in b and a[k] != b[k]][:3]
        note("final", f"{where}: documents differ from a clean index: extra {only_a} "
                      f"missing {only_b} different {diff}")
    qa, qb = answers(kind, db), answers(kind, ref)
    for q in QUERIES:
        if qa[q] != qb[q]:
            note("final", f"{where}: search {q!r} differs from a clean index")


# ---------------------------------------------------------------- part 1: kills

def part_kill(kind: str, work: Path, rng: random.Random, kills: int) -> None:
    print(f"== kill trials ({kind}) ==", flush=True)
    base = work / f"kill-{kind}"
    shutil.rmtree(base, ignore_errors=True)
    folder = base / "home" / "notes"
    folder.mkdir(parents=True)
    fol = Folder(folder, 400, rng)
    dbdir = base / "private"
    db = dbdir / "personal.db"
    clean: Dict[Tuple[str, str], tuple] = {}

    def learn_clean(tag: str) -> Path:
        ref = base / f"ref-{tag}" / "personal.db"
        clean_index(kind, folder, ref, "notes")
        clean.update(passages_by_version(ref))
        return ref

    t0 = time.monotonic()
    ref = learn_clean("v1")
    full = time.monotonic() - t0
    print(f"  clean index of {fol.n} files: {full:.1f} s wall", flush=True)
    plan = {"index-first": 0.3, "index-edit": 0.25, "link": 0.1, "watch": 0.1,
            "move": 0.08, "purge": 0.07, "compact": 0.1}
    budget = {k: max(1, round(v * kills)) for k, v in plan.items()}

    def timed(*args: str) -> float:
        t = time.monotonic()
        clean_exit(args[0], run(kind, *args))
        return time.monotonic() - t

    def check(where: str) -> None:
        # readers first: they are the first to open the file after the kill
        if COUNTS.get("checks", 0) % 3 == 2:
            mcp_first(kind, db, where)
        else:
            readers_work(kind, db, where)
        check_index(db, clean, where)

    # 1a. first index, killed again and again; each run goes on from what is committed
    landed = 0
    for k in range(budget["index-first"]):
        delay = rng.uniform(0.15, max(0.5, full * 1.1))
        if not db.exists() and k:
            pass
        if kill_after(kind, ["index", str(folder), "--label", "notes", "--db", str(db)], delay):
            landed += 1
            count("kills: index (first)")
        if db.exists():
            check(f"index-first kill {k} at {delay:.2f}s")
    clean_exit("index after kills", run(kind, "index", str(folder), "--label", "notes", "--db", str(db)))
    check("index-first completed")
    same_documents(kind, db, ref, "after first-index kills")

    # 1b. edits, re-index killed
    for round_ in range(budget["index-edit"]):
        fol.edit(f"e{round_}")
        ref = learn_clean(f"e{round_}")
        delay = rng.uniform(0.1, max(0.4, full * 0.6))
        if kill_after(kind, ["index", str(folder), "--db", str(db)], delay):
            count("kills: index (re-index)")
        check(f"re-index kill {round_} at {delay:.2f}s")
    clean_exit("re-index", run(kind, "index", str(folder), "--db", str(db)))
    check("re-index completed")
    same_documents(kind, db, ref, "after re-index kills")

    # 1c. link
    took = timed("link", "--db", str(db))
    for k in range(budget["link"]):
        delay = rng.uniform(0.1, took * 1.1)
        if kill_after(kind, ["link", "--db", str(db)], delay):
            count("kills: link")
        check(f"link kill {k} at {delay:.2f}s")
    clean_exit("link", run(kind, "link", "--db", str(db)))
    check("link completed")

    # 1d. watch: edits land while it runs; killed at a random moment
    for k in range(budget["watch"]):
        tag = f"w{k}"
        delay = rng.uniform(0.5, 4.0)

        def edit_soon() -> None:
            time.sleep(rng.uniform(0.1, 0.5))
            fol.edit(tag, share=0.1)
        if kill_after(kind, ["watch", "--interval", "0.2", "--db", str(db)], delay, before=edit_soon):
            count("kills: watch")
        learn_clean(tag)
        check(f"watch kill {k} at {delay:.2f}s")
    clean_exit("index after watch", run(kind, "index", str(folder), "--db", str(db)))
    ref = learn_clean("after-watch")
    check("after watch")
    same_documents(kind, db, ref, "after watch kills")

    # 1e. sources move: the folder moves; `sources move` killed
    where_now = folder
    for k in range(budget["move"]):
        target = base / "home" / f"moved{k}"
        where_now.rename(target)
        delay = rng.uniform(0.1, 0.8)
        if kill_after(kind, ["sources", "move", "notes", str(target), "--db", str(db)], delay):
            count("kills: sources move")
        check(f"move kill {k} at {delay:.2f}s")
        proc = run(kind, "sources", "move", "notes", str(target), "--db", str(db))
        if proc.returncode != 0:   # it may have been done already by the killed run
            if "Traceback" in proc.stderr:
                note("traceback", "sources move: " + proc.stderr.strip().splitlines()[-1])
        src = run(kind, "sources", "--db", str(db), "--json")
        if str(target) not in src.stdout:
            note("move", f"move {k}: the source does not point at {target} after a completed move")
        where_now = target
    where_now.rename(folder)
    clean_exit("move back", run(kind, "sources", "move", "notes", str(folder), "--db", str(db)))
    check("moves done")

    # 1f. compact
    took = timed("compact", "--db", str(db))
    for k in range(budget["compact"]):
        delay = rng.uniform(0.1, took * 1.1)
        if kill_after(kind, ["compact", "--db", str(db)], delay):
            count("kills: compact")
        check(f"compact kill {k} at {delay:.2f}s")

    # 1g. purge
    took = timed("purge", "notes", "--db", str(db))
    clean_exit("index after purge", run(kind, "index", str(folder), "--label", "notes", "--db", str(db)))
    for k in range(budget["purge"]):
        delay = rng.uniform(0.1, took * 1.1)
        if kill_after(kind, ["purge", "notes", "--db", str(db)], delay):
            count("kills: purge")
        check(f"purge kill {k} at {delay:.2f}s")
        clean_exit("index after purge", run(kind, "index", str(folder), "--label", "notes",
                                            "--db", str(db)))
    check("purges done")

    # 1h. verify --repair and export
    took = timed("verify", "--repair", "--db", str(db))
    for k in range(max(1, kills // 20)):
        delay = rng.uniform(0.1, took * 1.1)
        if kill_after(kind, ["verify", "--repair", "--db", str(db)], delay):
            count("kills: verify --repair")
        check(f"verify --repair kill {k} at {delay:.2f}s")
    copy = base / "copies" / "copy.db"
    took = timed("export", str(copy), "--db", str(db))
    for k in range(max(1, kills // 20)):
        copy.unlink(missing_ok=True)
        delay = rng.uniform(0.1, took * 1.1)
        if kill_after(kind, ["export", str(copy), "--db", str(db)], delay):
            count("kills: export")
        copy.unlink(missing_ok=True)
        clean_exit("export after a kill", run(kind, "export", str(copy), "--db", str(db)))
        left = [p.name for p in copy.parent.iterdir() if p.name != copy.name]
        if left:
            note("leftover", f"export kill {k}: {left} beside the copy after the next export")
    # 1i. a new index killed while it is created: nothing but the index stays
    took = timed("index", str(folder), "--db", str(base / "new-probe" / "p.db"))
    for k in range(max(1, kills // 10)):
        fresh = base / f"new{k}" / "personal.db"
        delay = rng.uniform(0.1, min(took, 1.0))
        if kill_after(kind, ["index", str(folder), "--label", "notes", "--db", str(fresh)], delay):
            count("kills: index (new file)")
        clean_exit("index after a kill of a new file", run(kind, "index", str(folder), "--label",
                                                             "notes", "--db", str(fresh)))
        left = sorted(p.name for p in fresh.parent.iterdir())
        if left != ["personal.db"]:
            note("leftover", f"new-file kill {k} at {delay:.2f}s: {left} after the next index")
    ref = learn_clean("final")
    same_documents(kind, db, ref, "final")
    v = run(kind, "verify", "--db", str(db), "--json")
    clean_exit("verify", v)
    for side in ("-journal", "-wal", "-shm"):
        if Path(str(db) + side).exists():
            note("sidecar", f"{side} left after commands completed")


# ---------------------------------------------------------------- part 1b: Ctrl-C and SIGTERM

def part_interrupt(kind: str, work: Path, rng: random.Random, n: int) -> None:
    """SIGINT (Ctrl-C to the whole process group, as a terminal sends it) or SIGTERM at
    random moments: exit 0, 130 (143 for SIGTERM) or by the signal, one line, never a
    traceback or a verdict of damage; the index stays whole."""
    print(f"== interrupt trials ({kind}) ==", flush=True)
    base = work / f"int-{kind}"
    shutil.rmtree(base, ignore_errors=True)
    folder = base / "notes"
    folder.mkdir(parents=True)
    fol = Folder(folder, 300, rng)
    db = base / "private" / "personal.db"
    clean: Dict[Tuple[str, str], tuple] = {}
    clean_index(kind, folder, db, "notes")
    clean.update(passages_by_version(db))
    verbs = [["index", str(folder)], ["watch", "--interval", "0.2"], ["link"], ["verify"],
             ["verify", "--repair"], ["compact"], ["purge", "notes"], ["search", "quartz harbour"]]
    for k in range(n):
        args = rng.choice(verbs)
        if args[0] in ("index", "watch"):
            fol.edit(f"i{k}", share=0.15)
            ref = base / f"ref-i{k}" / "personal.db"
            clean_index(kind, folder, ref, "notes")
            clean.update(passages_by_version(ref))
        sig = rng.choice((signal.SIGINT, signal.SIGINT, signal.SIGTERM))
        delay = rng.uniform(0.15, 1.5)
        proc = subprocess.Popen(cli(kind, *args, "--db", str(db)), env=env_for(kind),
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                start_new_session=True)
        time.sleep(delay)
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            pass
        out, err = proc.communicate()
        verb = args[0] + (" --repair" if "--repair" in args else "")
        count(f"signals: {signal.Signals(sig).name} {verb}")
        where = f"{signal.Signals(sig).name} {' '.join(args[:2])} at {delay:.2f}s"
        if "Traceback" in err:
            note("traceback", f"{where}: {err.strip().splitlines()[-1]}")
        # SIGTERM stops a verb as Ctrl-C does, with its own code (143; the REPL and
        # the MCP server, and a verb hit before it set its handler, end by the signal)
        if proc.returncode not in (0, 130, -sig) + ((143,) if sig == signal.SIGTERM else ()):
            note("exit", f"{where}: status {proc.returncode}: {err.strip()[-200:]} {out.strip()[-200:]}")
        if "logic error" in err + out or "user-defined function" in err + out:
            note("message", f"{where}: {err.strip()[-200:]}")
        check_index(db, clean, where)
        if args[0] == "purge":
            clean_index(kind, folder, db, "notes")


# ---------------------------------------------------------------- part 2: several processes

def part_concurrent(kind: str, work: Path, rng: random.Random, client: Optional[str]) -> None:
    print(f"== concurrency trials ({kind}) ==", flush=True)
    base = work / f"conc-{kind}"
    shutil.rmtree(base, ignore_errors=True)
    folder = base / "notes"
    folder.mkdir(parents=True)
    Folder(folder, 400, rng)
    db = base / "private" / "personal.db"
    ref = base / "ref" / "personal.db"
    clean_index(kind, folder, ref, "notes")
    for trial in range(3):
        if db.exists():
            shutil.rmtree(db.parent)
        args = ["index", str(folder), "--label", "notes", "--db", str(db)]
        procs = [subprocess.Popen(cli(kind, *args), env=env_for(kind), stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True) for _ in range(2)]
        outs = [p.communicate() for p in procs]
        for p, (out, err) in zip(procs, outs):
            count("two indexers: runs")
            clean_exit(f"two indexers trial {trial}", subprocess.CompletedProcess(args, p.returncode, out, err))
        check_index(db, passages_by_version(ref), f"two indexers trial {trial}")
        same_documents(kind, db, ref, f"two indexers trial {trial}")
    # readers during an index of new edits
    Folder(folder, 200, random.Random(rng.random()))   # rewrites the first 200 files
    clean_index(kind, folder, base / "ref2" / "personal.db", "notes")
    writer = subprocess.Popen(cli(kind, "index", str(folder), "--db", str(db)), env=env_for(kind),
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    mcp_proc = None
    if client:
        mcp_proc = subprocess.Popen([client, __file__, "--mcp-client", str(db), "--mcp-quick"],
                                    env=env_for(kind), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                    text=True)
    n = 0
    while writer.poll() is None or n < 6:
        for args in (("search", rng.choice(QUERIES), "--db", str(db), "--json"),
                     ("status", "--db", str(db)), ("fetch", "d1/note1.md", "--db", str(db))):
            proc = run(kind, *args)
            count(f"reads during index: {args[0]}")
            clean_exit(f"{args[0]} during index", proc, ok_codes=(0, 1))
        n += 1
        if n > 200:
            break
    out, err = writer.communicate()
    clean_exit("the writer", subprocess.CompletedProcess([], writer.returncode, out, err))
    if mcp_proc:
        out, err = mcp_proc.communicate(timeout=600)
        report_client(out, err, mcp_proc.returncode, "mcp during index")
    same_documents(kind, db, base / "ref2" / "personal.db", "after reads during index")


# ---------------------------------------------------------------- part 3: the MCP client

def report_client(out: str, err: str, code: int, where: str) -> None:
    for line in out.splitlines():
        if line.startswith("PROBLEM "):
            note("mcp", f"{where}: {line[8:]}")
        elif line.startswith("COUNT "):
            count(f"mcp: {line[6:]}")
    if code != 0:
        note("mcp", f"{where}: client exited {code}: {err.strip()[-400:]}")


def part_mcp(kind: str, work: Path, client: Optional[str]) -> None:
    print(f"== MCP trials ({kind}) ==", flush=True)
    base = work / f"mcp-{kind}"
    shutil.rmtree(base, ignore_errors=True)
    folder = base / "notes"
    folder.mkdir(parents=True)
    Folder(folder, 60, random.Random(7))
    db = base / "private" / "personal.db"
    clean_index(kind, folder, db, "notes")
    clean_exit("link", run(kind, "link", "--db", str(db)))
    if client:
        proc = subprocess.run([client, __file__, "--mcp-client", str(db)], env=env_for(kind),
                              capture_output=True, text=True, timeout=900)
        report_client(proc.stdout, proc.stderr, proc.returncode, "official client")
    raw_protocol(kind, db)


def raw_protocol(kind: str, db: Path) -> None:
    """What the SDK will not send: cancellation races, a repeated id, a request then EOF."""
    def session(lines: List[dict], close_early: bool = False) -> Tuple[List[dict], str, int]:
        proc = subprocess.Popen(cli(kind, "mcp", "--db", str(db)), env=env_for(kind),
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        data = b"".join(json.dumps(m).encode() + b"\n" for m in lines)
        out, err = proc.communicate(data, timeout=120)
        replies = []
        for ln in out.splitlines():
            try:
                replies.append(json.loads(ln))
            except ValueError:
                note("mcp-raw", f"non-JSON line on stdout: {ln[:100]!r}")
        return replies, err.decode("utf-8", "replace"), proc.returncode

    init = {"jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                       "clientInfo": {"name": "robust4", "version": "1"}}}
    done = {"jsonrpc": "2.0", "method": "notifications/initialized"}

    def call(i, name, args):
        return {"jsonrpc": "2.0", "id": i, "method": "tools/call",
                "params": {"name": name, "arguments": args}}

    # cancellation of a waiting request, of a running one, of an unknown id
    msgs = [init, done, call(1, "local_search", {"query": "quartz " * 3000}),
            call(2, "local_search", {"query": "harbour"}),
            {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 2}},
            {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 99}},
            {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {}},
            {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": [1]}},
            call(3, "local_sources", {})]
    replies, err, code = session(msgs)
    count("mcp raw: sessions")
    ids = [r.get("id") for r in replies]
    if "Traceback" in err:
        note("mcp-raw", "cancellation: traceback on stderr: " + err.strip().splitlines()[-1])
    if 3 not in ids or 0 not in ids:
        note("mcp-raw", f"cancellation: replies {ids}")
    if ids.count(2) > 1:
        note("mcp-raw", "cancellation: request 2 answered twice")
    # two requests with the same id
    msgs = [init, done, call(5, "local_search", {"query": "quartz"}), call(5, "local_sources", {}),
            {"jsonrpc": "2.0", "id": 5, "method": "ping"}]
    replies, err, code = session(msgs)
    count("mcp raw: sessions")
    if "Traceback" in err:
        note("mcp-raw", "same id: traceback: " + err.strip().splitlines()[-1])
    if len([r for r in replies if r.get("id") == 5]) < 1:
        note("mcp-raw", f"same id: no reply at all ({replies})")
    count("mcp raw: same-id replies", len([r for r in replies if r.get("id") == 5]))
    # a request, then stdin closes at once: answered, exit 0
    replies, err, code = session([init, done, call(7, "local_search", {"query": "falcon"})])
    count("mcp raw: sessions")
    if not any(r.get("id") == 7 and "result" in r for r in replies):
        note("mcp-raw", f"request before EOF not answered: {[r.get('id') for r in replies]}")
    if code != 0 or "Traceback" in err:
        note("mcp-raw", f"EOF: exit {code} {err.strip()[-200:]}")
    # hostile frames
    proc = subprocess.Popen(cli(kind, "mcp", "--db", str(db)), env=env_for(kind), stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    frames = (json.dumps(init).encode() + b"\n" + b"\xff\xfe{bad\n" + b"[]\n" + b"[1,2]\n" + b"null\n"
              + b'{"jsonrpc":"2.0","id":{"a":1},"method":"ping"}\n'
              + b'{"jsonrpc":"2.0","id":1e400,"method":"ping"}\n'
              + b'{"jsonrpc":"2.0","id":8,"method":"tools/call","params":"x"}\n'
              + b'{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"local_search","arguments":[]}}\n'
              + b'{"jsonrpc":"2.0","id":10,"method":"tools/call","params":{"name":5}}\n'
              + b'{"jsonrpc":"2.0","id":11,"method":"tools/call","params":{"name":"local_search","arguments":{"query":"\\ud800"}}}\n'
              + b'{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"local_search","arguments":{"query":"a\\u0000b"}}}\n'
              + b" " * 5 + b"\n" + b'{"jsonrpc":"2.0","id":13,"method":"ping"}')   # last line without newline
    out, err = proc.communicate(frames, timeout=120)
    count("mcp raw: sessions")
    err_s = err.decode("utf-8", "replace")
    if "Traceback" in err_s:
        note("mcp-raw", "hostile frames: traceback: " + err_s.strip().splitlines()[-1])
    got = []
    for ln in out.splitlines():
        try:
            got.append(json.loads(ln))
        except ValueError:
            note("mcp-raw", f"hostile frames: non-JSON reply {ln[:80]!r}")
    ids = [r.get("id") for r in got if isinstance(r, dict)]
    for want in (8, 9, 10, 11, 12, 13):
        if want not in ids:
            note("mcp-raw", f"hostile frames: no reply to id {want} (got {ids})")
    if proc.returncode != 0:
        note("mcp-raw", f"hostile frames: exit {proc.returncode}")


def mcp_client(db: str, quick: bool) -> int:
    """Runs under a Python with the `mcp` package: the official client against the server."""
    import anyio
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    def problem(text: str) -> None:
        print("PROBLEM " + text, flush=True)

    async def main() -> None:
        # the server runs under the Python that started this driver (GLEAN_SERVER_PYTHON)
        params = StdioServerParameters(command=os.environ.get("GLEAN_SERVER_PYTHON", "python3"),
                                       args=["-m", "glean_personal", "mcp", "--db", db],
                                       env=dict(os.environ))
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                print("COUNT initialize", flush=True)
                tools = (await session.list_tools()).tools
                names = [t.name for t in tools]
                print(f"COUNT tools listed ({len(names)})", flush=True)
                huge = "quartz harbour " * 7000   # about 100 KB
                uni = "naïve café 東京 Ελληνικά עברית 🙂 \u202e\u200b"
                cases: Dict[str, List[dict]] = {
                    "local_search": [{"query": "harbour lantern"}, {"query": ""}, {"query": huge},
                                     {"query": uni}, {"query": 5}, {"query": ["a"]}, {},
                                     {"query": "quartz", "limit": "ten"}, {"query": "quartz", "limit": -1},
                                     {"query": "quartz", "limit": 10 ** 30}, {"query": "quartz", "offset": 1e308},
                                     {"query": "quartz", "max_chars": 0}, {"query": "quartz", "bogus": 1},
                                     {"query": None}, {"query": "\u0000"}, {"query": "\"unbalanced"},
                                     {"query": "a OR OR NOT ("}, {"query": "quartz", "path": "[" * 1000},
                                     {"query": "quartz", "after": "not a date"},
                                     {"query": "quartz", "source": huge}],
                    "local_fetch": [{"doc": "note1.md"}, {"doc": ""}, {"doc": huge}, {"doc": uni},
                                    {"doc": 5}, {"doc": -1}, {"doc": 10 ** 40}, {"doc": True}, {},
                                    {"doc": ["x"]}, {"doc": "note1.md", "section": huge},
                                    {"doc": "note1.md", "lines": "5-3"}, {"doc": "note1.md", "lines": [1, 2]},
                                    {"doc": "note1.md", "page": "x"}, {"doc": "note1.md", "offset": -5},
                                    {"doc": "note1.md", "max_chars": "big"}, {"doc": "*"}, {"doc": "%"},
                                    {"doc": "note1.md", "outline": "yes"}],
                    "local_sources": [{}, {"x": 1}, {"source": huge}, {"source": uni}, {"source": 5}],
                    "local_related": [{"doc": "note1.md"}, {"doc": ""}, {"doc": huge}, {"doc": uni},
                                      {"doc": 3.5}, {}, {"doc": "note1.md", "limit": 0},
                                      {"doc": "note1.md", "limit": "x"}, {"doc": "note1.md", "path": "[!"}],
                }
                if quick:
                    cases = {k: v[:2] for k, v in cases.items()}
                for name in names:
                    if name not in cases:
                        problem(f"tool {name} has no cases here")
                for name, argsets in cases.items():
                    for args in argsets:
                        label = f"{name} {json.dumps(args)[:60]}"
                        try:
                            with anyio.fail_after(120):
                                res = await session.call_tool(name, args)
                        except Exception as exc:   # the SDK raises on protocol errors
                            text = str(exc)
                            if "Traceback" in text or not text.strip():
                                problem(f"{label}: {type(exc).__name__} {text[:200]}")
                            else:
                                print(f"COUNT protocol error ({type(exc).__name__})", flush=True)
                            continue
                        print("COUNT tool calls", flush=True)
                        body = " ".join(getattr(c, "text", "") for c in res.content)
                        if "Traceback" in body or "File \"/" in body:
                            problem(f"{label}: traceback in the result")
                        if os.environ.get("ROBUST4_VERBOSE"):
                            print(f"  {label} -> {'ERROR ' if res.is_error else ''}{body[:160]!r}",
                                  file=sys.stderr, flush=True)
                        if res.is_error:
                            print("COUNT isError results", flush=True)
                            if not body.strip():
                                problem(f"{label}: an error with no message")
                        elif len(body) > 400_000 * 2:
                            problem(f"{label}: reply of {len(body)} characters")
                await session.send_ping()
                print("COUNT ping", flush=True)
                # cancellation through the SDK: a request abandoned by a short timeout
                try:
                    with anyio.move_on_after(0.001):
                        await session.call_tool("local_search", {"query": huge})
                    print("COUNT cancelled by the client", flush=True)
                except Exception as exc:
                    problem(f"cancel: {type(exc).__name__}: {exc}")
                res = await session.call_tool("local_sources", {})
                if res.is_error:
                    problem("local_sources after a cancel failed")
                print("COUNT call after cancel", flush=True)

    anyio.run(main)
    return 0


# ---------------------------------------------------------------- main

def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=20261202)
    ap.add_argument("--kills", type=int, default=40)
    ap.add_argument("--stores", default="fts5,plain")
    ap.add_argument("--parts", default="kill,interrupt,concurrent,mcp")
    ap.add_argument("--work", default=None)
    ap.add_argument("--client-python", default="/work/refvenv/bin/python")
    ap.add_argument("--mcp-client", default=None, help=argparse.SUPPRESS)
    ap.add_argument("--mcp-quick", action="store_true", help=argparse.SUPPRESS)
    a = ap.parse_args()
    if a.mcp_client:
        return mcp_client(a.mcp_client, a.mcp_quick)
    client = a.client_python if a.client_python and Path(a.client_python).exists() else None
    if client:
        os.environ["GLEAN_SERVER_PYTHON"] = sys.executable
    else:
        print("no --client-python with the mcp package: the official-client checks are skipped")
    work = Path(a.work or tempfile.mkdtemp(prefix="robust4-"))
    work.mkdir(parents=True, exist_ok=True)
    old = os.umask(0o022)   # a usual umask: the index must still come out private
    try:
        for kind in a.stores.split(","):
            rng = random.Random(f"{a.seed}-{kind}")
            if "kill" in a.parts:
                part_kill(kind, work, rng, a.kills)
            if "interrupt" in a.parts:
                part_interrupt(kind, work, rng, a.kills)
            if "concurrent" in a.parts:
                part_concurrent(kind, work, rng, client)
            if "mcp" in a.parts:
                part_mcp(kind, work, client)
    finally:
        os.umask(old)
    print("== counts ==")
    for k, v in sorted(COUNTS.items()):
        print(f"  {k}: {v}")
    print(f"== {len(PROBLEMS)} problem(s) ==")
    for p in PROBLEMS:
        print("  " + p)
    return 1 if PROBLEMS else 0


if __name__ == "__main__":
    sys.exit(main())
