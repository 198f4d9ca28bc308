"""What the facade's methods other than `search` return: reports as plain objects.

Kept apart from api.py so that a search, which returns none of them, does not
pay for defining them; `glean_personal.api` still offers every name here.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, Optional

from .version import __version__


def reason_kind(reason: str) -> str:
    """A skip reason without what names one file's case (the target of a link, the
    detail in brackets), so the reasons of many files group into a few kinds."""
    if reason.startswith("symbolic link to ") and ": not followed" in reason:
        return ("symbolic link to a folder" if reason.startswith("symbolic link to the folder ")
                else "symbolic link to a file") + ": not followed"
    return reason.split(" (")[0].split(":")[0].split(", to ")[0]


def skip_kinds(skipped: List[dict]) -> Dict[str, int]:
    """How many of `skipped` (items with a `reason`) fall under each kind, commonest first."""
    counts: Dict[str, int] = {}
    for item in skipped:
        kind = reason_kind(item["reason"])
        counts[kind] = counts.get(kind, 0) + 1
    return dict(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


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
    reclaimable_bytes: int = 0   # free pages `compact` gives back
    redactions: int = 0          # credential-like strings replaced by markers, in all documents
    read_only: bool = False      # this process cannot write the file

    def to_dict(self) -> dict:
        return {"db": self.db, "store": self.store, "schema_version": self.schema_version,
                "documents": self.documents, "passages": self.passages,
                "sources": self.sources, "db_bytes": self.db_bytes,
                "last_indexed": self.last_indexed, "graph": self.graph,
                "version": self.version, "reclaimable_bytes": self.reclaimable_bytes,
                "redactions": self.redactions, "read_only": self.read_only}


@dataclass
class PurgeReport:
    """What `purge` removed, and whether the freed space is worth a `compact`."""

    sources: List[str]
    documents: int
    roots: List[str] = field(default_factory=list)
    reclaimable_bytes: int = 0
    db_bytes: int = 0
    suggest_compact: bool = False

    def to_dict(self) -> dict:
        return {"sources": list(self.sources), "roots": list(self.roots),
                "documents": self.documents, "reclaimable_bytes": self.reclaimable_bytes,
                "db_bytes": self.db_bytes, "suggest_compact": self.suggest_compact}


@dataclass
class VerifyReport:
    """Integrity findings by area; after a repair, what was rebuilt and what is left."""

    ok: bool
    problems: Dict[str, List[str]]
    repaired: List[str] = field(default_factory=list)
    problems_after: Optional[Dict[str, List[str]]] = None   # set by a repair
    read_only: bool = False          # the file cannot be written here: no write-needing check
    skipped: List[str] = field(default_factory=list)   # checks left out, and why

    def to_dict(self) -> dict:
        out = {"ok": self.ok, "problems": self.problems, "repaired": list(self.repaired),
               "read_only": self.read_only, "skipped": list(self.skipped)}
        if self.problems_after is not None:
            out["problems_after"] = self.problems_after
        return out


@dataclass
class CompactReport:
    """The file's size before and after `compact`."""

    db_bytes_before: int
    db_bytes: int

    @property
    def reclaimed_bytes(self) -> int:
        return self.db_bytes_before - self.db_bytes

    def to_dict(self) -> dict:
        return {"db_bytes_before": self.db_bytes_before, "db_bytes": self.db_bytes,
                "reclaimed_bytes": self.reclaimed_bytes}


@dataclass
class ExportReport:
    """Where the copy was written and how large it is."""

    path: str
    bytes: int

    def to_dict(self) -> dict:
        return {"path": self.path, "bytes": self.bytes}


@dataclass
class EvaluationReport:
    """A golden set's metrics, overall and per category, and each case's ranking."""

    golden: str
    root: str
    store: str
    summary: dict
    cases: List[dict]

    def to_dict(self) -> dict:
        return {"golden": self.golden, "root": self.root, "store": self.store,
                "summary": self.summary, "cases": self.cases}
