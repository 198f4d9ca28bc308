"""The one Python API every surface is a skin over (SPEC §10).

    with glean_personal.open_index() as ix:
        ix.index("~/Documents", label="docs")
        for hit in ix.search("salary bands"):
            print(hit.title, hit.url)
"""
from __future__ import annotations

import contextlib
import fcntl
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Iterator, List, Optional, Sequence, Union

from .version import __version__
from .config import DEFAULT_LIMITS, DEFAULT_PASSAGES, Limits, PassageSizes
from .document import SECTION_SEPARATOR
from .errors import Ambiguous, GleanError, LockedError, NotFound
from .store.connection import default_db_path
from .store.core import Store

if TYPE_CHECKING:
    from .indexer import IndexReport
    from .reading import Outline, Part
    from .search import SearchResult

# The search, indexing and graph machinery is imported by the methods that use
# it, so a command loads only what its verb needs.

PathLike = Union[str, os.PathLike]
WRITER_WAIT_SECONDS = 30.0


@dataclass
class FetchedDocument:
    """One document reassembled from its passages."""

    document: dict
    sections: List[dict]
    text: str
    warnings: List[str]
    indexed_at: float
    size: int
    mtime_ns: int

    def to_dict(self) -> dict:
        return {"document": self.document, "sections": self.sections, "text": self.text,
                "warnings": self.warnings, "indexed_at": self.indexed_at, "size": self.size,
                "mtime_ns": self.mtime_ns}


@dataclass
class Status:
    db: str
    store: str
    schema_version: int
    documents: int
    passages: int
    sources: List[dict]
    db_bytes: int
    last_indexed: Optional[float]
    graph: dict = field(default_factory=dict)
    version: str = __version__

    def to_dict(self) -> dict:
        return {"db": self.db, "store": self.store, "schema_version": self.schema_version,
                "documents": self.documents, "passages": self.passages,
                "sources": self.sources, "db_bytes": self.db_bytes,
                "last_indexed": self.last_indexed, "graph": self.graph,
                "version": self.version}


def resolve_db(db: Optional[PathLike]) -> Path:
    return Path(db).expanduser() if db else default_db_path()


def open_index(db: Optional[PathLike] = None, store: Optional[str] = None,
               limits: Limits = DEFAULT_LIMITS, passages: PassageSizes = DEFAULT_PASSAGES,
               readonly: bool = False) -> "Index":
    """Open (creating if needed) the index file; `store` forces 'fts5' or 'plain' at creation."""
    if store is None:
        store = os.environ.get("GLEAN_PERSONAL_STORE") or None
    if store not in (None, "fts5", "plain"):
        raise GleanError(f"unknown store kind {store!r}: use 'fts5' or 'plain'")
    return Index(Store.open(resolve_db(db), force_kind=store, readonly=readonly),
                 limits, passages)


class Index:
    """An open personal index."""

    def __init__(self, store: Store, limits: Limits, passages: PassageSizes) -> None:
        self.store = store
        self.limits = limits
        self.passage_sizes = passages

    def __enter__(self) -> "Index":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def close(self) -> None:
        self.store.close()

    @property
    def path(self) -> Path:
        return self.store.path

    # -- writing -------------------------------------------------------------
    @contextlib.contextmanager
    def _writer(self) -> Iterator[None]:
        """One writer at a time: a second waits, then gives up with a clear message."""
        fd = os.open(self.store.path, os.O_RDONLY)
        try:
            deadline = time.monotonic() + WRITER_WAIT_SECONDS
            while True:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    break
                except OSError:
                    if time.monotonic() > deadline:
                        raise LockedError(
                            f"another glean-personal process is writing {self.store.path}; "
                            "try again when it finishes") from None
                    time.sleep(0.1)
            yield
        finally:
            os.close(fd)  # also releases the flock; SQLite holds no lock here

    def index(self, folder: PathLike, label: Optional[str] = None,
              include: Optional[Sequence[str]] = None, exclude: Optional[Sequence[str]] = None,
              max_bytes: Optional[int] = None, progress=None) -> "IndexReport":
        """Add or refresh a folder; filters left as None repeat the stored ones."""
        from .indexer import index_source  # worker machinery only when indexing
        with self._writer():
            return index_source(self.store, str(folder), label,
                                None if include is None else list(include),
                                None if exclude is None else list(exclude),
                                max_bytes, self.limits, self.passage_sizes, progress)

    def purge(self, source: Optional[str] = None) -> dict:
        """Delete index rows (one source, or all); files on disk are never touched."""
        with self._writer(), self.store.transaction():
            targets = self.store.sources()
            if source is not None:
                targets = [s for s in targets if source in (s["label"], s["root"],
                                                            _abs(source))]
                if not targets:
                    raise NotFound(f"no indexed source named {source!r}; "
                                   "`sources` lists them")
            removed = sum(self.store.delete_source(s["id"]) for s in targets)
            self.store.bump_generation()
        return {"sources": [s["label"] for s in targets], "documents": removed}

    # -- reading -------------------------------------------------------------
    def search(self, query: str, limit: int = 10, offset: int = 0, explain: bool = False,
               passages: bool = False, source: Union[None, str, Sequence[str]] = None,
               type: Union[None, str, Sequence[str]] = None, path: Optional[str] = None,
               after: Optional[float] = None, before: Optional[float] = None) -> "SearchResult":
        """Ranked results; `after`/`before` are POSIX timestamps on modification time."""
        from .query import Filters, canonical_type
        from .search import search
        filters = Filters(
            sources=_tuple(source), formats=tuple(canonical_type(f) for f in _tuple(type)),
            path_glob=path or None,
            after_ns=None if after is None else _ns(after),
            before_ns=None if before is None else _ns(before))
        return search(self.store, query, max(0, int(limit)), max(0, int(offset)), filters,
                      explain=explain, passages=passages)

    def resolve(self, doc: Union[int, str]) -> dict:
        """A document row from an id, a path, or a unique path fragment."""
        with self.store.reading():
            return self._resolve(doc)

    def _resolve(self, doc: Union[int, str]) -> dict:
        text = str(doc).strip()
        if text.startswith("file://"):
            from urllib.parse import unquote, urlparse
            text = unquote(urlparse(text).path)
        if text.isdigit():
            row = self.store.document(int(text))
            if row:
                return row
        if not text:
            raise NotFound("name a document: an id, a path, or part of a path")
        candidates = self.store.find_documents(text)
        exact = [c for c in candidates
                 if text in (c["path"], os.path.join(c["root"], c["path"]), c["title"])
                 or _abs(text) == os.path.join(c["root"], c["path"])]
        if len(exact) == 1:
            return exact[0]
        if len(candidates) == 1:
            return candidates[0]
        if not candidates:
            raise NotFound(f"no indexed document matches {text!r}")
        from .search import doc_summary
        listed = exact + [c for c in candidates if c not in exact]
        raise Ambiguous(f"{text!r} matches {len(candidates)} documents; give more of the path",
                        [doc_summary(c) for c in listed])

    def fetch(self, doc: Union[int, str]) -> FetchedDocument:
        from .passages import regroup
        from .search import doc_summary
        with self.store.reading():
            row = self._resolve(doc)
            passages = self.store.passages_of(row["id"])
        sections = regroup(passages)
        return FetchedDocument(doc_summary(row), sections, _reassemble(sections),
                               row["warnings"], row["indexed_at"], row["size"], row["mtime_ns"])

    def read(self, doc: Union[int, str, None] = None, *, section=None, page=None, lines=None,
             offset: int = 0, max_chars: Optional[int] = None, around: Optional[int] = None,
             context: int = 2) -> "Part":
        """Part of a document: a `section` (heading path), a `page`, `lines` ("120-158"),
        `offset`/`max_chars` characters, or the passages `around` a passage id (`context`
        either side; `doc` may then be left out). The part says where it is and what
        arguments read on (`Part.next`)."""
        from .reading import layout, read
        from .search import doc_summary
        with self.store.reading():
            if doc is None:
                if around is None:
                    raise NotFound("name a document: an id, a path, or part of a path")
                found = self.store.passages([int(around)]).get(int(around))
                if found is None:
                    raise NotFound(f"no indexed passage has id {around}")
                doc = found["document_id"]
            row = self._resolve(doc)
            passages = self.store.passages_of(row["id"])
        part = read(doc_summary(row), layout(passages), section=section, page=page,
                    lines=lines, offset=offset, max_chars=max_chars, around=around,
                    context=context)
        part.warnings = list(row["warnings"])
        return part

    def outline(self, doc: Union[int, str]) -> "Outline":
        """A document's headings with their character offsets, lines or pages and sizes."""
        from .reading import layout, outline
        from .search import doc_summary
        with self.store.reading():
            row = self._resolve(doc)
            passages = self.store.passages_of(row["id"])
        return outline(doc_summary(row), layout(passages))

    def sources(self) -> List[dict]:
        with self.store.reading():
            formats = self.store.format_counts()
            return [dict(_public_source(s), formats=formats.get(s["id"], {}))
                    for s in self.store.sources()]

    def status(self) -> Status:
        from .graph import graph_status
        with self.store.reading():
            counts = self.store.counts()
            return Status(str(self.store.path), self.store.kind, self.store.schema_version(),
                          counts["documents"], counts["passages"], self.sources(),
                          self.store.db_bytes(), self.store.last_indexed(),
                          graph_status(self.store))

    def verify(self, repair: bool = False) -> dict:
        """Integrity checks; with `repair`, rebuild what is derived from the passages."""
        from .phrases import document_phrases
        from .store import maintenance
        found = maintenance.problems(self.store)
        report = {"ok": not any(found.values()), "problems": found, "repaired": []}
        if repair:
            with self._writer():
                report["repaired"] = maintenance.repair(self.store, document_phrases)
            after = maintenance.problems(self.store)
            report.update(ok=not any(after.values()), problems_after=after)
        return report

    def export(self, dest: PathLike) -> dict:
        """A consistent single-file copy, safe while another process writes."""
        from .store import maintenance
        size = maintenance.export(self.store, Path(dest))
        return {"path": str(Path(dest).expanduser().absolute()), "bytes": size}

    def evaluate(self, golden: PathLike, root: PathLike, limit: int = 10) -> dict:
        """Run a golden set's questions; metrics overall and per category."""
        from .evaluation import load_golden, score_cases, summarize
        cases = load_golden(golden)
        base = _abs(str(root))
        roots = {s["label"]: s["root"] for s in self.store.sources()}
        ranked = {}
        for case in cases:
            ranked[case.id] = [
                os.path.relpath(os.path.join(roots[h.document["source"]], h.document["path"]),
                                base).replace(os.sep, "/")
                for h in self.search(case.query, limit=limit).results]
        per_case = score_cases(cases, ranked)
        return {"golden": str(golden), "root": base, "store": self.store.kind,
                "summary": summarize(per_case), "cases": per_case}

    # -- graph ---------------------------------------------------------------
    def link(self, top_k: int = 10, min_score: float = 0.0, progress=None):
        from .graph import link
        with self._writer():
            return link(self.store, top_k=top_k, min_score=min_score, progress=progress)

    def related(self, doc: Union[int, str], limit: int = 10):
        from .graph import related
        row = self.resolve(doc)
        return related(self.store, row["id"], limit=limit)


def _ns(stamp: float) -> int:
    """Seconds as nanoseconds, held to SQLite's integer range (years past 2262 clamp)."""
    return max(-(1 << 63), min((1 << 63) - 1, int(stamp * 1e9)))


def _tuple(value: Union[None, str, Sequence[str]]) -> tuple:
    if value is None:
        return ()
    if isinstance(value, str):
        return (value,)
    return tuple(value)


def _abs(text: str) -> str:
    return os.path.abspath(os.path.expanduser(text))


def _public_source(s: dict) -> dict:
    return {"label": s["label"], "root": s["root"], "includes": s["includes"],
            "excludes": s["excludes"], "max_bytes": s["max_bytes"],
            "documents": s["documents"], "passages": s["passages"], "bytes": s["bytes"],
            "last_indexed": s["last_indexed"],
            "last_skipped": (s["last_report"] or {}).get("skipped", [])}


def _reassemble(sections: List[dict]) -> str:
    """The sections as readable text, each under a Markdown-style heading line."""
    return SECTION_SEPARATOR.join(
        ("#" * len(s["heading"]) + " " + s["heading"][-1] + "\n\n" if s["heading"] else "")
        + s["text"] for s in sections)

