"""The command line: parse argv, call the facade, render text or JSON.

Exit codes (SPEC §3): 0 success, 1 runtime failure, 2 usage error, 3 database
problem. Expected failures print one line to stderr, never a traceback.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import Optional, Sequence, Union

from . import __version__
from .errors import Ambiguous, GleanError, UsageError

DESCRIPTION = ("A portable, local content index: point it at folders, then search them, "
               "see related documents, and serve them to agents over MCP. One SQLite file, "
               "no network, no model.")


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:  # one line, exit 2
        raise UsageError(f"{message} (see `{self.prog} --help`)")


def _common(p: argparse.ArgumentParser) -> None:
    p.add_argument("--db", metavar="PATH",
                   help="index file (default: $GLEAN_PERSONAL_DB or ~/.gleancode/personal.db)")
    p.add_argument("--json", action="store_true", help="print machine-readable JSON on stdout")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="glean-personal", description=DESCRIPTION, epilog=(
        "Every verb takes --db PATH and --json; `glean-personal VERB --help` shows its "
        "flags. Exit codes: 0 success, 1 failure, 2 usage error, 3 database problem."))
    parser.add_argument("--version", action="version", version=f"glean-personal {__version__}")
    sub = parser.add_subparsers(dest="verb", metavar="VERB", parser_class=_Parser)

    p = sub.add_parser("index", help="add or refresh a folder (or one file)", description=(
        "Add a folder to the index, or bring it up to date. Filters are stored with the "
        "folder, so a bare `index FOLDER` later repeats them. With no FOLDER, every source "
        "is refreshed; a FILE inside an indexed folder is indexed alone. A folder holding "
        "the files of a source whose folder is gone is offered as that source, moved."))
    p.add_argument("folder", metavar="FOLDER", nargs="?",
                   help="a folder, or one file of an indexed folder (default: every source)")
    p.add_argument("--label", help="a short name for this folder (default: its name)")
    p.add_argument("--include", action="append", metavar="GLOB",
                   help="index only files matching GLOB (repeatable)")
    p.add_argument("--exclude", action="append", metavar="GLOB",
                   help="skip files and folders matching GLOB (repeatable)")
    p.add_argument("--max-bytes", type=_positive_int, metavar="N",
                   help="skip files larger than N bytes (default 5000000)")
    p.add_argument("--no-redact", dest="redact", action="store_false", default=None,
                   help="store credential-like text as it is in this source (default: "
                        "replace it by a marker); remembered for the source")
    p.add_argument("--redact", dest="redact", action="store_true",
                   help="turn redaction back on for this source")
    p.add_argument("--move", action="store_true",
                   help="if FOLDER holds the files of a source whose folder is gone, "
                        "re-point that source here without asking")
    p.add_argument("--quiet", action="store_true", help="print nothing on success")
    _common(p)

    p = sub.add_parser("search", help="ranked documents for a query", description=(
        "Search the index. Quoted spans are exact phrases; other words are ORed prefix "
        "matches. Use `search -- --text` for a query that starts with a dash."))
    p.add_argument("query", nargs="+", metavar="QUERY")
    p.add_argument("--limit", type=_positive_int, default=10, metavar="N",
                   help="how many results (default 10)")
    p.add_argument("--offset", type=_nonneg_int, default=0, metavar="N",
                   help="skip the first N results")
    p.add_argument("--source", action="append", metavar="LABEL",
                   help="only this source (repeatable)")
    p.add_argument("--type", action="append", metavar="FORMAT",
                   help="only this format, e.g. docx or md (repeatable)")
    p.add_argument("--path", metavar="GLOB", help="only documents whose path matches GLOB")
    p.add_argument("--after", type=_date, metavar="DATE",
                   help="only files modified on or after DATE (YYYY-MM-DD)")
    p.add_argument("--before", type=_date, metavar="DATE",
                   help="only files modified before DATE (YYYY-MM-DD)")
    p.add_argument("--explain", action="store_true",
                   help="show why each result matched: terms, passages, score")
    p.add_argument("--passages", action="store_true",
                   help="list passages instead of documents")
    _common(p)

    p = sub.add_parser("link", help="build the content graph", description=(
        "Link documents that share rare phrases, keeping each document's strongest "
        "neighbours."))
    p.add_argument("--top-k", type=_positive_int, default=10, metavar="N",
                   help="neighbours kept per document (default 10)")
    p.add_argument("--min-score", type=float, default=0.0, metavar="X",
                   help="drop links scoring below X (default 0)")
    _common(p)

    p = sub.add_parser("related", help="a document's neighbours and what connects them",
                       description="List the documents linked to DOC, with the shared phrases.")
    p.add_argument("doc", metavar="DOC", help="a document id, path, or unique part of a path")
    p.add_argument("--limit", type=_positive_int, default=10, metavar="N",
                   help="how many neighbours (default 10)")
    _common(p)

    p = sub.add_parser("status", help="what the index holds", description=(
        "Store kind, sources, counts, graph figures, file size and schema version."))
    p.add_argument("--skips", action="store_true", help="also list the last run's skipped files")
    _common(p)

    p = sub.add_parser("sources", help="indexed folders; `sources move LABEL NEWPATH`",
                       description=(
                           "List the indexed folders with their filters and counts. "
                           "`sources move LABEL NEWPATH` re-points a source whose folder "
                           "moved, after checking a sample of its files by size and hash; "
                           "document ids are kept and nothing is read again."))
    p.add_argument("action", nargs="*", metavar="move LABEL NEWPATH",
                   help="re-point source LABEL at NEWPATH")
    p.add_argument("--force", action="store_true",
                   help="move even if the sampled files do not match")
    _common(p)

    p = sub.add_parser("fetch", help="one document, reassembled", description=(
        "Print one indexed document. DOC is an id, a path, or a unique part of a path."))
    p.add_argument("doc", metavar="DOC")
    _common(p)

    p = sub.add_parser("extract", help="what the reader gets from one file (index untouched)",
                       description=("Show the title, sections and warnings a reader extracts "
                                    "from FILE, or why it is skipped. The index is not opened."))
    p.add_argument("file", metavar="FILE")
    p.add_argument("--max-bytes", type=_positive_int, metavar="N",
                   help="treat files larger than N bytes as too large (default 5000000)")
    _common(p)

    p = sub.add_parser("purge", help="delete index rows (never files on disk)", description=(
        "Delete the index rows of one source, or of all sources with --all (on a "
        "terminal it asks first, unless --yes). Files on disk are never touched."))
    p.add_argument("source", nargs="?", metavar="SOURCE", help="a source label or folder")
    p.add_argument("--all", action="store_true", help="purge every source")
    p.add_argument("--yes", action="store_true", help="do not ask before purging every source")
    _common(p)

    p = sub.add_parser("compact", help="reclaim free space and optimise the full-text index",
                       description=("Optimise the full-text index and give the file's free "
                                    "pages back (VACUUM). Waits for other writers, like "
                                    "every write; searches may run meanwhile."))
    _common(p)

    p = sub.add_parser("watch", help="stay in the foreground and keep the index current",
                       description=(
                           "Re-check the named sources (labels or folders; default: all) "
                           "every few seconds, index what changed, keep the graph current, "
                           "and print one line per change. The pause grows with what a "
                           "re-check costs. Ctrl-C stops it cleanly; nothing keeps running."))
    p.add_argument("targets", nargs="*", metavar="LABEL|FOLDER")
    p.add_argument("--interval", type=float, default=2.0, metavar="SECONDS",
                   help="shortest pause between re-checks (default 2)")
    _common(p)

    p = sub.add_parser("verify", help="check the index file; --repair rebuilds derived data",
                       description=("Run SQLite's integrity check, the full-text index's own "
                                    "check and cross-checks between tables. With --repair, "
                                    "rebuild the full-text index and graph data from the "
                                    "stored passages, without reading any file again."))
    p.add_argument("--repair", action="store_true",
                   help="rebuild the derived structures from the passages")
    _common(p)

    p = sub.add_parser("export", help="copy the index to a new file, safely", description=(
        "Write a consistent copy of the index to PATH (created 0600), safe while another "
        "process is writing the index."))
    p.add_argument("path", metavar="PATH")
    _common(p)

    p = sub.add_parser("evaluate", help="retrieval metrics for a golden set", description=(
        "Run every question of a golden set and report Recall@5, Recall@10, MRR@10, nDCG@10 "
        "and Hit@1, overall and per category."))
    p.add_argument("golden", metavar="GOLDEN.json")
    p.add_argument("--root", required=True, metavar="DIR",
                   help="the folder the golden set's paths are relative to")
    _common(p)
    p = sub.add_parser("repl", help="the interactive REPL (also: no verb at all)", description=(
        "An interactive prompt: /personal VERB … runs any verb above, /search, /chat, "
        "/autocomplete and /getdocuments answer from the index, /help lists the rest."))
    _common(p)

    p = sub.add_parser("mcp", help="serve the index to agents over MCP (stdio)", description=(
        "Speak the Model Context Protocol on stdin/stdout, offering the read-only tools "
        "local_search, local_fetch, local_sources and local_related. Logs go to stderr."))
    _common(p)
    return parser


def verb_args(verb: str, argv: Sequence[str]) -> Union[argparse.Namespace, int]:
    """One verb's flags, read by the one parser (the REPL and the MCP server use it too),
    or the exit code when they are bad (one line printed) or --help was shown."""
    try:
        return build_parser().parse_args([verb, *argv])
    except UsageError as exc:
        _fail(exc)
        return exc.exit_code
    except SystemExit as exc:  # --help
        return int(exc.code or 0)


def _positive_int(text: str) -> int:
    value = _nonneg_int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number above 0, got {text!r}")
    return value


def _nonneg_int(text: str) -> int:
    try:
        value = int(text.replace("_", ""))
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}")
    return value


def _date(text: str) -> float:
    try:
        from datetime import datetime
        return datetime.fromisoformat(text.strip()).timestamp()
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a date like 2024-05-31, got {text!r}") from None


def main(argv: Optional[Sequence[str]] = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        if not argv:
            from .repl import run_repl
            return run_repl([])
        args = build_parser().parse_args(argv)
        if args.verb in ("repl", "mcp"):  # they read their own flags from the rest
            if args.verb == "repl":
                from .repl import run_repl
                return run_repl(argv[1:])
            from .mcp import run_mcp
            return run_mcp(argv[1:])
        if not args.verb:
            build_parser().print_help()
            return 0
        return VERBS[args.verb](args)
    except Ambiguous as exc:
        _fail(exc)
        for c in exc.candidates[:20]:
            print(f"  {c['id']}: {c['source']}: {c['path']}", file=sys.stderr)
        return exc.exit_code
    except GleanError as exc:
        _fail(exc)
        return exc.exit_code
    except KeyboardInterrupt:
        print("glean-personal: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:  # a bug: still one line, unless asked for the traceback
        if os.environ.get("GLEAN_PERSONAL_DEBUG"):
            raise
        print(f"glean-personal: internal error ({type(exc).__name__}: {exc}); "
              "set GLEAN_PERSONAL_DEBUG=1 to see where", file=sys.stderr)
        return 1


def _fail(exc: GleanError) -> None:
    print(f"glean-personal: {exc}", file=sys.stderr)


def _out(args, data, text: str) -> int:
    if args.json:
        json.dump(data, sys.stdout, ensure_ascii=False, indent=2)
        sys.stdout.write("\n")
    elif text:
        print(text)
    return 0


def _open(args, readonly: bool = False):
    from .api import open_index
    return open_index(args.db, readonly=readonly)


def _progress(label: str):
    if not sys.stderr.isatty():
        return None
    last = [0.0]

    def show(done: int, total: Optional[int]) -> None:
        now = time.monotonic()
        if now - last[0] > 0.1 or done == total:
            last[0] = now
            end = "\n" if done == total else ""
            of = "…" if total is None else total   # still walking the folder
            print(f"\r{label} {done}/{of}", end=end, file=sys.stderr, flush=True)
    return show


def cmd_index(args) -> int:
    from . import render
    with _open(args) as ix:
        if args.folder is None:
            if any(x is not None for x in (args.label, args.include, args.exclude,
                                           args.max_bytes, args.redact)) or args.move:
                raise UsageError("flags other than --quiet need a FOLDER")
            reports = ix.index_all(progress=None if args.quiet else _progress("reading"))
            if args.quiet and not args.json:
                return 0
            return _out(args, [r.to_dict() for r in reports],
                        "\n".join(render.index_report(r) for r in reports)
                        or "No sources yet: `glean-personal index FOLDER` adds one.")
        move = True if args.move else None
        if move is None and sys.stdin.isatty() and sys.stderr.isatty():
            found = ix.moved_candidates(args.folder)
            if args.label:
                found = [c for c in found if c["label"] == args.label] or found
            if len(found) == 1:
                c = found[0]
                move = _ask(f"{c['new_root']} holds the files of source '{c['label']}', whose "
                            f"folder {c['old_root']} is gone ({c['matched']} of {c['checked']} "
                            "sampled files match by size and hash). Move the source here "
                            "instead of adding a new one? [y/N] ")
        report = ix.index(args.folder, label=args.label, include=args.include,
                          exclude=args.exclude, max_bytes=args.max_bytes,
                          progress=None if args.quiet else _progress("reading"),
                          redact=args.redact, move=move)
    if args.quiet and not args.json:
        return 0
    return _out(args, report.to_dict(), render.index_report(report))


def _ask(question: str) -> bool:
    print(question, end="", file=sys.stderr, flush=True)
    try:
        answer = sys.stdin.readline()
    except KeyboardInterrupt:
        return False
    return answer.strip().lower() in ("y", "yes")


def cmd_compact(args) -> int:
    from . import render
    with _open(args) as ix:
        done = ix.compact()
    return _out(args, done, f"Compacted {ix.path}: {render.size(done['db_bytes_before'])} → "
                            f"{render.size(done['db_bytes'])} "
                            f"({render.size(done['reclaimed_bytes'])} given back).")


def cmd_watch(args) -> int:
    from . import render
    if args.interval <= 0:
        raise UsageError("--interval must be above 0 seconds")
    import signal
    # Ctrl-C stops the watch even where the shell started it with SIGINT ignored (a
    # background job), and so does a plain `kill`: both end it as Ctrl-C does.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    with _open(args) as ix:
        roots = ix.watch_roots(args.targets)
        if not args.json:
            print(f"Watching {len(roots)} folder{'s' if len(roots) != 1 else ''} "
                  f"({', '.join(roots)}); Ctrl-C stops.", flush=True)
        try:
            for event in ix.watch(args.targets, interval=args.interval):
                if args.json:
                    print(json.dumps(event, ensure_ascii=False), flush=True)
                else:
                    print(render.watch_event(event), flush=True)
        except KeyboardInterrupt:
            pass
    if not args.json:
        print("Stopped watching; the index is consistent.", flush=True)
    return 0


def cmd_search(args) -> int:
    from . import render
    with _open(args, readonly=True) as ix:
        result = ix.search(" ".join(args.query), limit=args.limit, offset=args.offset,
                           explain=args.explain, passages=args.passages, source=args.source,
                           type=args.type, path=args.path, after=args.after, before=args.before)
        return _out(args, result.to_dict(),
                    render.search_results(result, render.use_color(sys.stdout), args.explain))


def cmd_status(args) -> int:
    from . import render
    with _open(args, readonly=True) as ix:
        st = ix.status()
    text = render.status(st)
    if args.skips:
        text += "\n" + "\n".join(
            f"  skipped {s['label']}: {render.printable(k['path'])}: {k['reason']}"
            for s in st.sources for k in s["last_skipped"])
    data = st.to_dict()
    if not args.skips:
        for s in data["sources"]:
            s.pop("last_skipped", None)
    return _out(args, data, text)


def cmd_sources(args) -> int:
    from . import render
    if args.action:
        if args.action[0] != "move" or len(args.action) != 3:
            raise UsageError("use `sources` to list, or `sources move LABEL NEWPATH`")
        with _open(args) as ix:
            done = ix.move_source(args.action[1], args.action[2], force=args.force)
        return _out(args, done, (
            f"Moved source '{done['label']}': {done['old_root']} → {done['new_root']} "
            f"({done['matched']} of {done['checked']} sampled files matched by size and hash; "
            f"{done['documents']} documents kept their ids, nothing was read again)."))
    if args.force:
        raise UsageError("--force goes with `sources move LABEL NEWPATH`")
    with _open(args, readonly=True) as ix:
        items = ix.sources()
    return _out(args, items, render.sources(items))


def cmd_fetch(args) -> int:
    from . import render
    with _open(args, readonly=True) as ix:
        doc = ix.fetch(args.doc)
    return _out(args, doc.to_dict(), render.fetched(doc))


def cmd_extract(args) -> int:
    from dataclasses import replace

    from . import render
    from .config import DEFAULT_LIMITS
    from .formats import extract
    from .workers import clean, redact_document
    limits = DEFAULT_LIMITS if args.max_bytes is None else replace(DEFAULT_LIMITS,
                                                                   max_bytes=args.max_bytes)
    from .errors import SkipFile
    try:
        doc, _ = redact_document(clean(extract(args.file, limits)))
    except SkipFile as skip:
        if args.json:
            return _out(args, {"file": args.file, "skipped": skip.reason}, "") or 1
        print(f"{args.file}: skipped: {skip.reason}")
        return 1
    return _out(args, dict(doc.to_dict(), file=args.file), render.extracted(doc, args.file))


def cmd_purge(args) -> int:
    from . import render
    if args.source is not None and args.all:
        raise UsageError("name one source or give --all, not both")
    if args.source is None and not args.all:
        raise UsageError("purge needs a source label (see `sources`), or --all for every source")
    with _open(args) as ix:
        if args.all and not args.yes and sys.stdin.isatty():
            items = ix.sources()
            total = sum(s["documents"] for s in items)
            if not _ask(f"Remove all {len(items)} sources ({total} documents) from the index "
                        f"{ix.path}? Files on disk are not touched. [y/N] "):
                print("Nothing was removed.", file=sys.stderr)
                return 1
        done = ix.purge(args.source, all=args.all)
    lines = [f"Removed {done['documents']} documents of "
             f"{len(done['sources'])} source{'s' if len(done['sources']) != 1 else ''} from the "
             "index; no file on disk was touched."]
    lines += [f"  {label}: {root}" for label, root in zip(done["sources"], done["roots"])]
    if done["suggest_compact"]:
        lines.append(f"{render.size(done['reclaimable_bytes'])} of the "
                     f"{render.size(done['db_bytes'])} file is now free: "
                     "`glean-personal compact` gives it back.")
    return _out(args, done, "\n".join(lines))


def cmd_link(args) -> int:
    with _open(args) as ix:
        report = ix.link(top_k=args.top_k, min_score=args.min_score,
                         progress=_progress("linking"))
    d = report.to_dict()
    text = (f"Linked {d['documents']} documents: {d['links']} links, median score "
            f"{d['median_score']:.3f}, highest degree {d['max_degree']}, "
            f"in {d['seconds']:.2f} s")
    return _out(args, d, text)


def cmd_related(args) -> int:
    with _open(args, readonly=True) as ix:
        result = ix.related(args.doc, limit=args.limit)
    return _out(args, result.to_dict(), _related_text(result))


def _related_text(result) -> str:
    d = result.document
    lines = [f"Related to {d['title']} ({d['path']}):"]
    if getattr(result, "stale", False):
        lines.append("  (the graph is older than the index: run `glean-personal link` to refresh)")
    if not result.neighbours:
        lines.append("  no linked documents")
    for n in result.neighbours:
        lines.append(f"  {n.score:6.3f}  {n.document['title']}  ({n.document['path']})")
        if n.phrases:
            lines.append("          shares: " + ", ".join(n.phrases))
    return "\n".join(lines)


def cmd_verify(args) -> int:
    with _open(args, readonly=not args.repair) as ix:
        report = ix.verify(repair=args.repair)
    lines = []
    if report.get("read_only"):
        lines.append(f"The index file is read-only here: checked what can be checked "
                     "without writing.")
        lines += [f"skipped: {note}" for note in report.get("skipped", [])]
    for area, items in report["problems"].items():
        lines += [f"problem ({area}): {p}" for p in items]
    lines += [f"repaired: {r}" for r in report["repaired"]]
    if report["ok"]:
        lines.append("The index is consistent." if not report["repaired"] else
                     "The index is consistent after repair.")
    elif not args.repair and not report.get("read_only"):
        lines.append("Run `glean-personal verify --repair` to rebuild what can be rebuilt.")
    elif not args.repair:
        lines.append("Copy the file somewhere writable and run `verify --repair` on the copy.")
    _out(args, report, "\n".join(lines))
    return 0 if report["ok"] else 3


def cmd_export(args) -> int:
    with _open(args, readonly=True) as ix:
        done = ix.export(args.path)
    return _out(args, done, f"Copied the index to {done['path']} ({done['bytes']:,} bytes).")


def cmd_evaluate(args) -> int:
    from . import render
    with _open(args, readonly=True) as ix:
        report = ix.evaluate(args.golden, args.root)
    return _out(args, report, render.evaluation(report))


VERBS = {"compact": cmd_compact, "watch": cmd_watch, "index": cmd_index, "search": cmd_search, "status": cmd_status, "sources": cmd_sources,
         "fetch": cmd_fetch, "extract": cmd_extract, "purge": cmd_purge, "link": cmd_link,
         "related": cmd_related, "verify": cmd_verify, "export": cmd_export,
         "evaluate": cmd_evaluate}

