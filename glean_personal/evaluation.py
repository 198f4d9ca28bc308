"""Retrieval metrics over a golden set of questions with known answers.

Pure functions over plain data: the only I/O is reading the golden JSON file.

Golden file format::

    {"cases": [{"id": "os-path-join", "query": "os.path.join",
                "relevant": ["library/os.path.html"], "category": "identifier"},
               {"id": "sourdough", "query": "sourdough starter feeding",
                "relevant": [], "category": "unanswerable"}]}

``relevant`` holds paths relative to the indexed root, with ``/`` separators.
A case with no relevant document is unanswerable and must say so in its
category; the converse holds too. Unanswerable cases are scored only on
whether the search returned nothing (``unanswerable_empty``) and are kept out
of the answerable means.

Metrics (binary relevance, ``k`` counted in documents):

- ``recall@5``, ``recall@10``: share of the relevant documents in the top k;
- ``mrr@10``: 1 / rank of the first relevant document in the top 10, else 0;
- ``ndcg@10``: DCG over the top 10 (gain 1 / log2(rank + 1)) divided by the
  ideal DCG of ``min(len(relevant), 10)`` relevant documents ranked first;
- ``hit@1``: 1 when the first result is relevant.
"""
from __future__ import annotations

import json
import math
from dataclasses import dataclass
from typing import Dict, Iterable, List, Mapping, Optional, Sequence, Tuple

from .errors import UsageError

UNANSWERABLE = "unanswerable"
METRICS = ("ndcg@10", "mrr@10", "recall@5", "recall@10", "hit@1")


@dataclass(frozen=True)
class Case:
    """One golden question: the query and the documents that answer it."""

    id: str
    query: str
    relevant: Tuple[str, ...]
    category: str

    @property
    def answerable(self) -> bool:
        return bool(self.relevant)

    def to_dict(self) -> dict:
        return {"id": self.id, "query": self.query,
                "relevant": list(self.relevant), "category": self.category}


def normalise_path(path: str) -> str:
    """A relative path in the one spelling used for comparison: ``/`` separators, no ``./``."""
    parts = [p for p in path.replace("\\", "/").split("/") if p not in ("", ".")]
    return "/".join(parts)


def load_golden(path) -> List[Case]:
    """Read and validate a golden file; any problem is a one-line `UsageError`."""
    try:
        with open(path, "r", encoding="utf-8-sig") as handle:   # a BOM (Notepad) is no error
            data = json.load(handle)
    except FileNotFoundError:
        raise UsageError(f"golden file not found: {path}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise UsageError(f"cannot read golden file {path}: {exc}") from None
    except json.JSONDecodeError as exc:
        raise UsageError(
            f"golden file {path} is not valid JSON (line {exc.lineno}, column {exc.colno}: {exc.msg})"
        ) from None
    return parse_golden(data, source=str(path))


def parse_golden(data: object, source: str = "golden set") -> List[Case]:
    """Validate already-decoded golden JSON; see the module docstring for the format."""
    def bad(message: str) -> UsageError:
        return UsageError(f"{source}: {message}")

    if not isinstance(data, dict) or not isinstance(data.get("cases"), list):
        raise bad('expected an object with a "cases" list')
    if not data["cases"]:
        raise bad('"cases" is empty')
    cases: List[Case] = []
    seen = set()
    for index, raw in enumerate(data["cases"]):
        where = f"case {index + 1}"
        if not isinstance(raw, dict):
            raise bad(f"{where} is not an object")
        for key in ("id", "query", "category"):
            value = raw.get(key)
            if not isinstance(value, str) or not value.strip():
                raise bad(f'{where}: "{key}" must be a non-empty string')
        case_id = raw["id"]
        where = f"case {case_id!r}"
        if case_id in seen:
            raise bad(f"{where}: duplicate id")
        seen.add(case_id)
        relevant = raw.get("relevant")
        if not isinstance(relevant, list) or not all(isinstance(p, str) and p.strip() for p in relevant):
            raise bad(f'{where}: "relevant" must be a list of paths (empty for an unanswerable case)')
        paths: List[str] = []
        for p in relevant:
            norm = normalise_path(p)
            if p.startswith(("/", "\\")) or (len(p) > 1 and p[1] == ":") or ".." in norm.split("/") or not norm:
                raise bad(f"{where}: relevant path {p!r} must be relative to the root, without '..'")
            if norm not in paths:
                paths.append(norm)
        category = raw["category"].strip()
        if not paths and category != UNANSWERABLE:
            raise bad(f'{where}: no relevant paths, so its category must be "{UNANSWERABLE}"')
        if paths and category == UNANSWERABLE:
            raise bad(f'{where}: category "{UNANSWERABLE}" but it lists relevant paths')
        cases.append(Case(id=case_id, query=raw["query"], relevant=tuple(paths), category=category))
    return cases


def _dedupe(paths: Iterable[str]) -> List[str]:
    seen = set()
    out = []
    for p in paths:
        norm = normalise_path(p)
        if norm not in seen:
            seen.add(norm)
            out.append(norm)
    return out


def score_case(ranked_paths: Sequence[str], relevant: Sequence[str]) -> Dict[str, object]:
    """Metrics for one query: its ranked result paths against its relevant paths.

    Repeated result paths count once, at their first rank. For an unanswerable
    case (``relevant`` empty) the metrics are None and ``empty`` says whether
    nothing came back.
    """
    ranked = _dedupe(ranked_paths)
    wanted = set(_dedupe(relevant))
    result: Dict[str, object] = {"returned": len(ranked), "empty": not ranked,
                                 "answerable": bool(wanted)}
    if not wanted:
        result.update({m: None for m in METRICS})
        result["first_relevant_rank"] = None
        return result
    hits = [p in wanted for p in ranked[:10]]
    first = next((i + 1 for i, h in enumerate(hits) if h), None)
    dcg = sum(1.0 / math.log2(i + 2) for i, h in enumerate(hits) if h)
    ideal = sum(1.0 / math.log2(i + 2) for i in range(min(len(wanted), 10)))
    result.update({
        "recall@5": sum(hits[:5]) / len(wanted),
        "recall@10": sum(hits) / len(wanted),
        "mrr@10": 1.0 / first if first else 0.0,
        "ndcg@10": dcg / ideal,
        "hit@1": 1.0 if hits and hits[0] else 0.0,
        "first_relevant_rank": first,
    })
    return result


def score_cases(cases: Sequence[Case], ranked: Mapping[str, Sequence[str]]) -> List[Dict[str, object]]:
    """Score every case against ``ranked[case.id]`` (missing ids count as no results)."""
    return [dict(score_case(ranked.get(c.id, ()), c.relevant),
                 id=c.id, query=c.query, category=c.category)
            for c in cases]


def _means(rows: Sequence[Mapping[str, object]]) -> Dict[str, Optional[float]]:
    out: Dict[str, Optional[float]] = {}
    for metric in METRICS:
        values = [float(r[metric]) for r in rows]  # type: ignore[arg-type]
        out[metric] = sum(values) / len(values) if values else None
    return out


def _is_answerable(row: Mapping[str, object]) -> bool:
    return bool(row.get("answerable", row.get("ndcg@10") is not None))


def _group(rows: Sequence[Mapping[str, object]]) -> Dict[str, object]:
    answerable = [r for r in rows if _is_answerable(r)]
    unanswerable = [r for r in rows if not _is_answerable(r)]
    group: Dict[str, object] = {"cases": len(answerable)}
    group.update(_means(answerable))
    group["unanswerable_cases"] = len(unanswerable)
    group["unanswerable_empty"] = (
        sum(1 for r in unanswerable if r["empty"]) / len(unanswerable) if unanswerable else None)
    return group


def summarize(per_case: Sequence[Mapping[str, object]]) -> Dict[str, object]:
    """Means overall and per category.

    ``per_case`` holds `score_case` results, each with a ``category`` key (as
    `score_cases` returns them). Answerable cases give the metric means;
    unanswerable ones give ``unanswerable_empty``, the share that returned
    nothing. A mean over no cases is None.
    """
    categories: Dict[str, List[Mapping[str, object]]] = {}
    for row in per_case:
        categories.setdefault(str(row.get("category", "")), []).append(row)
    return {
        "overall": _group(per_case),
        "by_category": {name: _group(rows) for name, rows in sorted(categories.items())},
    }
