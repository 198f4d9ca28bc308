"""Human-readable text: the one home for what people read, from every surface.

The command line, the REPL and the MCP server's text content all draw here,
over the facade's result objects (JSON comes from their `to_dict`, see
`render.json`; Client API answers are drawn by `render.client`).
"""
from __future__ import annotations

import os
import re
import time
from typing import TYPE_CHECKING, List, Mapping, Optional, Sequence, TextIO, Tuple

if TYPE_CHECKING:
    from ...reports import CompactReport, EvaluationReport, ExportReport, PurgeReport, VerifyReport
    from ...graph import LinkReport, Related
    from ...relocate import MoveCheck

BOLD, DIM, RESET = "\x1b[1m", "\x1b[2m", "\x1b[0m"


def printable(text: str) -> str:
    """One line per entry: control characters in file names shown escaped."""
    return "".join(ch if ch.isprintable() else repr(ch)[1:-1] for ch in text)


_UNSAFE = re.compile("\x1b\\[[0-9;]*m|[\x00-\x08\x0b-\x1f\x7f-\x9f"
                     "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def terminal_safe(text: str) -> str:
    """Text for a terminal: control characters (escape sequences that would set the
    window title, write the clipboard or move the cursor, carriage returns…) and bidi
    controls (U+202E would print the rest of a folder's or file's name reversed)
    shown escaped; newlines, tabs and plain colour codes (ESC [ … m) stay. Stored
    text has no bidi controls (extraction drops them): only names can. For text
    output only: JSON escapes what it must itself."""
    return _UNSAFE.sub(lambda m: m.group() if len(m.group()) > 1 else repr(m.group())[1:-1],
                       text)


def use_color(stream: TextIO) -> bool:
    """Colour only on a terminal, and never when NO_COLOR is set."""
    return stream.isatty() and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"


def highlight(text: str, ranges: Sequence[Tuple[int, int]], color: bool) -> str:
    if not color or not ranges:
        return text
    out, pos = [], 0
    for a, b in sorted(ranges):
        if a < pos:
            continue
        out += [text[pos:a], BOLD, text[a:b], RESET]
        pos = b
    out.append(text[pos:])
    return "".join(out)


def size(n: float) -> str:
    for unit in ("B", "KB", "MB", "GB"):
        if n < 1000 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1000
    return f"{n:.1f} GB"


def when(ts: Optional[float]) -> str:
    return time.strftime("%Y-%m-%d %H:%M", time.localtime(ts)) if ts else "never"


def index_report(r, verbose_skips: int = 20, verbose_changes: int = 20) -> str:
    if getattr(r, "missing", False):
        why = getattr(r, "missing_reason", None)
        return (f"Skipped '{r.label}': {r.root} is not on this machine (missing since "
                f"{when(r.missing_since)}){': ' + why if why else ''}; its documents are kept. "
                "Plug it in and index again, or `sources move` it; if it is gone for good, or "
                f"its files were all replaced on purpose, `purge {printable(r.label)}` drops it.")
    lines = []
    if getattr(r, "moved_from", None):
        lines.append(f"Moved source '{r.label}': {r.moved_from} → {r.root} (document ids kept)")
    lines += [f"Indexed {r.root} as '{r.label}' in {r.seconds:.2f} s",
             f"  added {r.added} · updated {r.updated} · touched (same bytes) {r.touched} · "
             f"unchanged {r.unchanged} · removed {r.removed} · skipped {len(r.skipped)}"
             + (f" · moved (same bytes, new path) {r.moved}" if getattr(r, "moved", 0) else "")]
    for o in getattr(r, "overlaps", None) or []:
        where = "holds this folder" if o["relation"] == "holds it" else "lies inside this folder"
        lines.append(f"  warning: the source '{printable(o['label'])}' ({printable(o['root'])}) "
                     f"{where}: the files they share are indexed and found twice "
                     f"(`purge {printable(r.label)}` undoes this run)")
    changes = [] if getattr(r, "new_source", False) else getattr(r, "changes", [])
    for kind, path in changes[:verbose_changes]:
        lines.append(f"    {kind:<8} {printable(path)}")
    if len(changes) > verbose_changes:
        lines.append(f"    … and {len(changes) - verbose_changes} more changes")
    if getattr(r, "redacted", 0):
        lines.append(f"  redacted {r.redacted} credential-like string"
                     f"{'s' if r.redacted != 1 else ''} (replaced by markers before storing)")
    graph = getattr(r, "graph", None)
    if graph:
        lines.append(f"  graph: {_graph_change(graph)} in {graph['seconds']:.2f} s")
    if r.text_chars > 1_000_000 and r.seconds > 0:
        lines.append(f"  read {size(r.text_chars)} of text ({r.text_chars / r.seconds / 1e6:.1f} MB/s)")
    if r.skipped:
        from ...reports import skip_kinds
        lines.append("  skipped:")
        for kind, count in skip_kinds(r.skipped).items():
            lines.append(f"    {count:>5}  {printable(kind)}")
        lines.append("  skipped files:" if len(r.skipped) <= verbose_skips else
                     f"  first {verbose_skips} skipped files (all of them: --json, or `status --skips`):")
        for s in r.skipped[:verbose_skips]:
            lines.append(f"    {printable(s['path'])}: {printable(s['reason'])}")
    return "\n".join(lines)


def _did_you_mean(result) -> List[str]:
    return [f"Did you mean {' or '.join(repr(w) for w in words)} for {word!r}?"
            for word, words in (getattr(result, "suggestions", None) or {}).items()]


def search_results(result, color: bool, explain: bool = False) -> str:
    if not result.results and getattr(result, "past_end", False):
        return "\n".join(n[:1].upper() + n[1:] + "." for n in result.notices)
    if not result.results:
        terms = ", ".join(result.terms) or "(no searchable words)"
        excluded = getattr(result, "excluded_terms", None)
        if excluded:
            terms += f"; excluding: {', '.join(excluded)}"
        lines = [f"No results for {result.query!r} (searched for: {terms})."]
        lines += [n[:1].upper() + n[1:] + "." for n in getattr(result, "notices", None) or []]
        if result.absent_terms:
            lines.append(f"Not in any indexed document: {', '.join(result.absent_terms)}.")
        return "\n".join(lines + _did_you_mean(result))
    lines = [n[:1].upper() + n[1:] + "." for n in getattr(result, "notices", None) or []]
    if result.absent_terms:
        lines += [f"Not in any indexed document: {', '.join(result.absent_terms)}."]
        lines += _did_you_mean(result)
    lines += [""] if lines else []
    if explain and result.expansions:
        lines += ["Also searched (synonyms and other forms): " + "; ".join(
            f"{word} \u2192 {', '.join(words)}" for word, words in result.expansions.items())
            + ".", ""]
    for n, hit in enumerate(result.results, start=1):
        head = f"{n}. {hit.title}"
        if hit.tied_with_previous and explain:
            head += "  (tied with the one above)"
        lines.append(f"{BOLD}{head}{RESET}" if color else head)
        where = hit.document["source"] + ": " + printable(hit.document["path"])
        if hit.lines:
            first, last = hit.lines
            where += f":{first}" if first == last else f":{first}-{last}"
        elif hit.page is not None:
            where += f" (page {hit.page})"
        if hit.section:
            where += "  \u203a " + " \u203a ".join(hit.section)
        lines.append("   " + (f"{DIM}{where}{RESET}" if color else where))
        for s in hit.snippets:
            lines.append("   " + highlight(*collapse(s.text, s.ranges), color))
        lines.append(f"   {hit.url}" if hit.document.get("available", True) else
                     f"   {hit.document['source']}: {printable(hit.document['path'])} "
                     "(not on this machine)")
        if hit.also_at:
            lines.append("   also at: " + ", ".join(printable(d["path"]) for d in hit.also_at))
        if explain:
            lines.append(f"   \u203a {hit.passages_matched} of {hit.passages_total} passages matched")
            lines.append(f"   \u203a matched: {', '.join(hit.matched_terms or []) or '-'}"
                         f"   missed: {', '.join(hit.missed_terms or []) or '-'}")
            for label, pairs in (("by form", hit.matched_forms),
                                 ("by synonym", hit.matched_synonyms)):
                if pairs:
                    lines.append(f"   \u203a {label}: " + ", ".join(
                        f"{word} \u2192 {other}" for word, other in pairs))
            from ...search import bar
            lines.append(f"   \u203a score {hit.score:.3f} {bar(hit.relative)}"
                         f"   match strength {hit.strength:.2f}"
                         + ("" if hit.rare_matched else " (not every rare term)")
                         + (" (its words far apart)" if hit.scattered else "")
                         + (" (rare words together)" if hit.rare_together else ""))
        lines.append("")
    if result.has_more:
        lines.append("More results: use --offset or a larger --limit.")
    return "\n".join(lines).rstrip()


def collapse(text: str, ranges: Sequence[Tuple[int, int]]) -> Tuple[str, List[Tuple[int, int]]]:
    """White space folded to single spaces, with the highlight ranges moved along."""
    out: List[str] = []
    where = [0] * (len(text) + 1)
    space = False
    for i, ch in enumerate(text):
        where[i] = len(out)
        if ch.isspace():
            if not space:
                out.append(" ")
            space = True
        else:
            out.append(ch)
            space = False
    where[len(text)] = len(out)
    return "".join(out), [(where[a], where[b]) for a, b in ranges]


def counted(n: int, noun: str) -> str:
    """`1 source`, `2 sources`: a count with its noun."""
    return f"{n:,} {noun}" if n == 1 else f"{n:,} {noun}s"


def status(st, skips: bool = False) -> str:
    """`status`; with `skips`, the last run's skipped files of every source too."""
    store = "fts5 (SQLite full-text search)" if st.store == "fts5" else "plain + Python scorer"
    lines = [f"Index      {st.db}", f"Store      {store}, schema {st.schema_version}",
             f"Contents   {counted(st.documents, 'document')}, {counted(st.passages, 'passage')}, "
             f"{counted(len(st.sources), 'source')}, {size(st.db_bytes)}",
             f"Indexed    {when(st.last_indexed)}"]
    g = st.graph or {}
    if g.get("linked"):
        stale = " (older than the index: run `link`)" if g.get("stale") else ""
        lines.append(f"Graph      {g.get('links', 0)} links, median score "
                     f"{g.get('median_score', 0):.3f}, max degree {g.get('max_degree', 0)}{stale}")
    else:
        lines.append("Graph      not built yet (run `link`)")
    if getattr(st, "reclaimable_bytes", 0):
        lines.append(f"Free       {size(st.reclaimable_bytes)} reclaimable (`compact` gives it back)")
    if getattr(st, "redactions", 0):
        lines.append(f"Redacted   {st.redactions} credential-like strings replaced by markers")
    if getattr(st, "read_only", False):
        lines.append("Access     read-only here (this process cannot write the file)")
    for s in st.sources:
        lines.append(f"  {s['label']:<16} {s['documents']:>6} docs  {s['root']}" + _missing(s))
    if skips:
        lines.append("\n".join(f"  skipped {s['label']}: {printable(k['path'])}: {printable(k['reason'])}"
                               for s in st.sources for k in s["last_skipped"]))
    return "\n".join(lines)


def sources(items: Sequence[dict]) -> str:
    if not items:
        return "No sources yet: `glean-personal index FOLDER` adds one."
    lines = []
    for s in items:
        lines.append(f"{s['label']}  {s['root']}" + _missing(s))
        lines.append(f"    {counted(s['documents'], 'document')}, {counted(s['passages'], 'passage')}, "
                     f"{size(s['bytes'])}; last indexed {when(s['last_indexed'])}")
        if s["includes"] or s["excludes"]:
            lines.append(f"    include {s['includes'] or '-'}  exclude {s['excludes'] or '-'}")
        lines.append(f"    max bytes {s['max_bytes']:,}; skipped last run: {len(s['last_skipped'])}")
        if not s.get("redact", True):
            lines.append("    redaction off: credential-like text is stored as it is")
        elif s.get("redactions"):
            lines.append(f"    {s['redactions']} credential-like strings redacted")
    return "\n".join(lines)


def _missing(s: Mapping) -> str:
    if s.get("available", True):
        return ""
    since = s.get("missing_since")
    return f"  (missing since {when(since)})" if since else "  (not on this machine)"


def _graph_change(g: Mapping) -> str:
    parts = []
    if g.get("documents"):
        parts.append(f"{g['documents']} document{'s' if g['documents'] != 1 else ''} linked "
                     f"again ({g['mode']}, {g['links']} links written)")
    if g.get("removed"):
        parts.append(f"links of {g['removed']} removed document{'s' if g['removed'] != 1 else ''} "
                     "dropped")
    return "; ".join(parts) or "nothing to change"


def watching(roots: Sequence[str]) -> str:
    return (f"Watching {len(roots)} folder{'s' if len(roots) != 1 else ''} "
            f"({', '.join(roots)}); Ctrl-C stops.")


def watch_event(e: Mapping) -> str:
    """One line per change `watch` saw."""
    stamp = time.strftime("%H:%M:%S", time.localtime(e["time"]))
    if e["event"] == "graph":
        return f"{stamp} graph    {e['source']}: {_graph_change(e)}"
    if e["event"] == "missing":
        why = f" ({e['reason']})" if e.get("reason") else ""
        return (f"{stamp} missing  {e['source']}: {printable(e['path'])} is not on this "
                f"machine{why}; kept as it is (`purge {e['source']}` if it is gone for good)")
    if e["event"] == "back":
        return f"{stamp} back     {e['source']}: {printable(e['path'])}"
    if e["event"] == "waiting":
        return (f"{stamp} waiting  another process held {printable(e['path'])} too long; "
                "trying again at the next pass")
    return f"{stamp} {e['event']:<8} {e['source']}: {printable(e['path'])}"


def moved(done: "MoveCheck") -> str:
    return (f"Moved source '{done.label}': {done.old_root} → {done.new_root} "
            f"({done.matched} of {done.checked} sampled files matched by size and hash; "
            f"{done.documents} documents kept their ids, nothing was read again).")


def move_question(c: Mapping) -> str:
    return (f"{c['new_root']} holds the files of source '{c['label']}', whose folder "
            f"{c['old_root']} is gone ({c['matched']} of {c['checked']} sampled files match by "
            "size and hash). Move the source here instead of adding a new one? [y/N] ")


def compacted(path: str, done: "CompactReport") -> str:
    return (f"Compacted {path}: {size(done.db_bytes_before)} → {size(done.db_bytes)} "
            f"({size(done.reclaimed_bytes)} given back).")


def _document_head(d: Mapping) -> List[str]:
    """A document's title, and where it is (source, path, format, id): the first two
    lines of `fetched`, `part` and `outline`."""
    return [f"{d['title']}", f"{d['source']}: {printable(d['path'])}  ({d['format']}, id {d['id']})"]


def fetched(document: Mapping, body: str, warnings: Sequence[str],
            chars: Optional[int] = None) -> str:
    """One fetched document: a head (title, where, URL, warnings), then its text.

    `chars` is the whole text's length when `body` was cut (MCP's max_chars).
    """
    d = document
    head = [*_document_head(d),
            d["url"] if d.get("available", True) else "(not on this machine: shown from the index)"]
    head += [f"warning: {w}" for w in warnings]
    tail = (f"\n\n[cut at {len(body):,} of {chars:,} characters; "
            "pass a larger max_chars to read more]" if chars is not None else "")
    return "\n".join(head) + "\n\n" + body + tail


def part(p) -> str:
    """Part of a document: the head, where the part is, its text, and how to read on."""
    d = p.document
    head = [*_document_head(d), d["url"], p.where]
    head += [f"warning: {w}" for w in p.warnings]
    tail = ""
    if p.next:
        flags = " ".join(f"--{k.replace('_', '-')} {_quoted(str(v))}"
                         for k, v in p.next.items())
        tail = f"\n\n[more: fetch {_quoted(str(d['id']))} {flags}]" if "around" not in \
            p.next else f"\n\n[more: fetch {flags}]"
    return "\n".join(head) + "\n\n" + p.text + tail


def outline(o) -> str:
    """A document's headings, indented by level, with lines or pages and sizes."""
    d = o.document
    lines = [*_document_head(d),
             f"{len(o.entries)} sections, {o.chars:,} characters"
             + (f", {o.total_lines} lines" if o.total_lines else "")
             + (f", {len(o.pages)} pages" if o.pages else ""), ""]
    for e in o.entries:
        where = (f"lines {e.lines[0]}-{e.lines[1]}" if e.lines else
                 f"page {e.page}" + (f"-{e.last_page}" if e.last_page not in (None, e.page)
                                     else "") if e.page else f"offset {e.offset}")
        title = e.heading[-1] if e.heading else "(before any heading)"
        lines.append(f"{'  ' * max(0, e.level - 1)}{title}  [{where}, {e.chars:,} chars]")
    return "\n".join(lines)


def _quoted(text: str) -> str:
    import shlex
    return shlex.quote(text)


def extracted(doc, name: str) -> str:
    lines = [f"Title: {doc.title}", f"Format: {doc.format}", f"Sections: {len(doc.sections)}"]
    for w in doc.warnings:
        lines.append(f"Warning: {w}")
    for s in doc.sections:
        lines.append("")
        lines.append("## " + (" \u203a ".join(s.heading) if s.heading else "(before any heading)"))
        lines.append(s.text)
    return "\n".join(lines)


def evaluation(report: "EvaluationReport") -> str:
    metrics = ("ndcg@10", "mrr@10", "recall@5", "recall@10", "hit@1")
    lines = [f"Golden set {report.golden} over {report.root} ({report.store} store)",
             f"{'':<16}{'cases':>6}" + "".join(f"{m:>11}" for m in metrics) + f"{'unans. empty':>14}"]
    groups = [("overall", report.summary["overall"])]
    groups += sorted(report.summary["by_category"].items())
    for name, g in groups:
        cells = "".join(f"{g[m]:>11.3f}" if g.get(m) is not None else f"{'-':>11}"
                        for m in metrics)
        empty = g.get("unanswerable_empty")
        lines.append(f"{name:<16}{g['cases']:>6}{cells}"
                     + (f"{empty:>14.2f}" if empty is not None else f"{'-':>14}"))
    return "\n".join(lines)



def extract_skipped(name: str, reason: str) -> str:
    return f"{name}: skipped: {reason}"


def purged(done: "PurgeReport") -> str:
    n = len(done.sources)
    lines = [f"Removed {done.documents} documents of {n} source{'s' if n != 1 else ''} "
             "from the index; no file on disk was touched."]
    lines += [f"  {label}: {root}" for label, root in zip(done.sources, done.roots)]
    if done.suggest_compact:
        lines.append(f"{size(done.reclaimable_bytes)} of the {size(done.db_bytes)} file "
                     "is now free: `glean-personal compact` gives it back.")
    return "\n".join(lines)


def linked(report: "LinkReport") -> str:
    d = report.to_dict()
    return (f"Linked {d['documents']} documents: {d['links']} links, median score "
            f"{d['median_score']:.3f}, highest degree {d['max_degree']}, "
            f"in {d['seconds']:.2f} s")


def related(result: "Related", ids: bool = False) -> str:
    """A document's neighbours and the phrases they share; `ids` adds document ids (MCP)."""
    def where(doc: Mapping) -> str:
        return f"{printable(doc['path'])}, id {doc['id']}" if ids else printable(doc["path"])

    d = result.document
    lines = [f"Related to {d['title']} ({where(d)}):"]
    if result.stale:
        lines.append("  (the graph is older than the index: run `glean-personal link` to refresh)")
    if not result.neighbours:
        lines.append("  no linked documents")
    for n in result.neighbours:
        lines.append(f"  {n.score:6.3f}  {n.document['title']}  ({where(n.document)})")
        if n.phrases:
            lines.append("          shares: " + ", ".join(n.phrases))
    return "\n".join(lines)


def verified(report: "VerifyReport", repair: bool) -> str:
    lines = []
    if report.read_only:
        lines.append("The index file is read-only here: checked what can be checked "
                     "without writing.")
        lines += [f"skipped: {note}" for note in report.skipped]
    for area, items in report.problems.items():
        lines += [f"problem ({area}): {p}" for p in items]
    lines += [f"repaired: {r}" for r in report.repaired]
    if report.ok:
        lines.append("The index is consistent." if not report.repaired else
                     "The index is consistent after repair.")
    elif not repair and not report.read_only:
        lines.append("Run `glean-personal verify --repair` to rebuild what can be rebuilt.")
    elif not repair:
        lines.append("Copy the file somewhere writable and run `verify --repair` on the copy.")
    return "\n".join(lines)


def exported(done: "ExportReport") -> str:
    return f"Copied the index to {done.path} ({done.bytes:,} bytes)."


def search_passages(query: str, rows: Sequence[Mapping], has_more: bool) -> str:
    """Ranked passages, each quoted in full under its document (MCP's local_search)."""
    if not rows:
        return (f"No passages match {query!r}. Try other or fewer words; "
                "local_sources shows what is indexed.")
    lines = [f"{len(rows)} passage{'s' if len(rows) != 1 else ''} for {query!r}"
             + (" (more available: raise limit)" if has_more else "") + ":"]
    for r in rows:
        where = f"{r['source']}: {printable(r['path'])}"
        if r["section"]:
            where += " \u203a " + " \u203a ".join(r["section"])
        lines += ["", f"{r['rank']}. {r['title']}  [document id {r['id']}]", f"   {where}",
                  f"   {r['url']}" if r.get("available", True) else
                  "   (not on this machine: the passage is from the index)",
                  "", r["passage"].strip()]
    return "\n".join(lines)


def candidates(items: Sequence[Mapping], limit: int = 20) -> List[str]:
    """The documents an ambiguous reference could mean, one line each."""
    return [f"  {c['id']}: {c['source']}: {printable(c['path'])}" for c in items[:limit]]


def failure(exc: BaseException) -> str:
    """An expected failure's message, on one line (a path in it with a line break shown
    escaped); an ambiguous reference lists its candidates below it, one line each."""
    lines = [printable(str(exc))] + candidates(getattr(exc, "candidates", None) or [])
    return "\n".join(lines)


def internal_error(exc: BaseException) -> str:
    return (f"internal error ({type(exc).__name__}: {printable(str(exc))}); "
            "set GLEAN_PERSONAL_DEBUG=1 to see where")
