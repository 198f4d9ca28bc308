"""The verb handlers: parsed arguments in, the facade called, text or JSON out.

Each handler takes the namespace `args.build_parser` produced and returns an
exit code; the human text comes from `render.text`, the JSON from `render.json`.
The facade is imported when a verb runs, so `--help` pays for none of it.
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import TYPE_CHECKING, Callable, Dict, Optional

from ..errors import UsageError
from . import render
from .render import json as render_json

if TYPE_CHECKING:
    from ..api import Index
    from ..config import Progress


def _out(args: argparse.Namespace, data: object, shown: str) -> int:
    if args.json:
        print(render_json.dumps(data))
    elif shown:
        print(render.text.terminal_safe(shown))
    return 0


def _open(args: argparse.Namespace, readonly: bool = False) -> "Index":
    from ..api import open_index
    ix = open_index(args.db, readonly=readonly)
    if sys.stderr.isatty():   # a person is watching: say why nothing happens yet
        ix.on_writer_wait = lambda text: print(f"glean-personal: {text}", file=sys.stderr,
                                               flush=True)
    return ix


def _progress(label: str) -> "Optional[Progress]":
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


def cmd_index(args: argparse.Namespace) -> int:
    from ..errors import UsageError
    with _open(args) as ix:
        if args.folder is None:
            if any(x is not None for x in (args.label, args.include, args.exclude,
                                           args.max_bytes, args.redact)) or args.move:
                raise UsageError("flags other than --quiet need a FOLDER")
            reports = ix.index_all(progress=None if args.quiet else _progress("reading"))
            if args.quiet and not args.json:
                return 0
            return _out(args, [r.to_dict() for r in reports],
                        "\n".join(render.text.index_report(r) for r in reports)
                        or "No sources yet: `glean-personal index FOLDER` adds one.")
        move = True if args.move else None
        if move is None and sys.stdin.isatty() and sys.stderr.isatty():
            found = ix.moved_candidates(args.folder)
            if args.label:
                found = [c for c in found if c["label"] == args.label] or found
            if len(found) == 1:
                move = _ask(render.text.move_question(found[0]))
        report = ix.index(args.folder, label=args.label, include=args.include,
                          exclude=args.exclude, max_bytes=args.max_bytes,
                          progress=None if args.quiet else _progress("reading"),
                          redact=args.redact, move=move)
    if args.quiet and not args.json:
        return 0
    return _out(args, report.to_dict(), render.text.index_report(report))


def _ask(question: str) -> bool:
    """A yes/no question on the terminal; anything but yes is no."""
    print(question, end="", file=sys.stderr, flush=True)
    try:
        answer = sys.stdin.readline()
    except KeyboardInterrupt:
        return False
    return answer.strip().lower() in ("y", "yes")


def cmd_compact(args: argparse.Namespace) -> int:
    with _open(args) as ix:
        done = ix.compact()
        path = str(ix.path)
    return _out(args, done.to_dict(), render.text.compacted(path, done))


def cmd_watch(args: argparse.Namespace) -> int:
    import signal

    from ..errors import UsageError
    if args.interval <= 0:
        raise UsageError("--interval must be above 0 seconds")
    # Ctrl-C stops the watch even where the shell started it with SIGINT ignored (a
    # background job), and so does a plain `kill`: both end it as Ctrl-C does.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    with _open(args) as ix:
        roots = ix.watch_roots(args.targets)
        if not args.json:
            print(render.text.terminal_safe(render.text.watching(roots)), flush=True)
        try:
            for event in ix.watch(args.targets, interval=args.interval):
                print(json.dumps(event, ensure_ascii=False) if args.json
                      else render.text.terminal_safe(render.text.watch_event(event)), flush=True)
        except KeyboardInterrupt:
            pass
    if not args.json:
        print("Stopped watching; the index is consistent.", flush=True)
    return 0


def cmd_search(args: argparse.Namespace) -> int:
    with _open(args, readonly=True) as ix:
        result = ix.search(" ".join(args.query), limit=args.limit, offset=args.offset,
                           explain=args.explain, passages=args.passages, source=args.source,
                           type=args.type, path=args.path, after=args.after, before=args.before)
        if args.json:   # the text is not made to be thrown away
            return _out(args, result.to_dict(), "")
        return _out(args, None,
                    render.text.search_results(result, render.text.use_color(sys.stdout), args.explain))


def cmd_status(args: argparse.Namespace) -> int:
    with _open(args, readonly=True) as ix:
        st = ix.status()
    return _out(args, render_json.status(st, args.skips), render.text.status(st, args.skips))


def cmd_sources(args: argparse.Namespace) -> int:
    from ..errors import UsageError
    if args.action:
        if args.action[0] != "move" or len(args.action) != 3:
            raise UsageError("use `sources` to list, or `sources move LABEL NEWPATH`")
        with _open(args) as ix:
            done = ix.move_source(args.action[1], args.action[2], force=args.force)
        return _out(args, dict(done.to_dict(), moved=True), render.text.moved(done))
    if args.force:
        raise UsageError("--force goes with `sources move LABEL NEWPATH`")
    with _open(args, readonly=True) as ix:
        items = ix.sources()
    return _out(args, items, render.text.sources(items))


def cmd_fetch(args: argparse.Namespace) -> int:
    if args.doc is None and args.around is None:
        raise UsageError("fetch needs DOC: an id, a path, or part of a path")
    if args.outline and args.doc is None:
        raise UsageError("fetch --outline needs DOC")
    if args.context is not None and args.around is None:
        raise UsageError("--context N counts passages either side of --around PASSAGE")
    parted = (args.section, args.page, args.lines, args.around, args.max_chars)
    with _open(args, readonly=True) as ix:
        if args.outline:
            outline = ix.outline(args.doc)
            return _out(args, outline.to_dict(), render.text.outline(outline))
        if all(v is None for v in parted) and not args.offset:
            doc = ix.fetch(args.doc)
            return _out(args, doc.to_dict(),
                        render.text.fetched(doc.document, doc.text, doc.warnings))
        part = ix.read(args.doc, section=args.section, page=args.page, lines=args.lines,
                       offset=args.offset, max_chars=args.max_chars, around=args.around,
                       context=2 if args.context is None else args.context)
    return _out(args, part.to_dict(), render.text.part(part))


def cmd_extract(args: argparse.Namespace) -> int:
    from dataclasses import replace

    from ..config import DEFAULT_LIMITS
    from ..errors import SkipFile
    from ..formats import extract
    from ..walk import SECRET_REASON, is_secret, link_reason
    from ..workers import clean, redact_document
    limits = DEFAULT_LIMITS if args.max_bytes is None else replace(DEFAULT_LIMITS,
                                                                   max_bytes=args.max_bytes)
    try:
        # What `index` would do with the file: a secret-looking one (by its name, a
        # folder on its path, or a link's target) is never opened.
        full = os.path.abspath(os.path.expanduser(args.file))
        if is_secret(full) or is_secret(os.path.realpath(full)):
            raise SkipFile(SECRET_REASON)
        if os.path.islink(full):
            raise SkipFile(link_reason(full))
        doc, _ = redact_document(clean(extract(args.file, limits)))
    except SkipFile as skip:
        if args.json:
            return _out(args, {"file": args.file, "skipped": skip.reason}, "") or 1
        print(render.text.terminal_safe(render.text.extract_skipped(args.file, skip.reason)))
        return 1
    return _out(args, dict(doc.to_dict(), file=args.file), render.text.extracted(doc, args.file))


def cmd_purge(args: argparse.Namespace) -> int:
    from ..errors import UsageError
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
    return _out(args, done.to_dict(), render.text.purged(done))


def cmd_link(args: argparse.Namespace) -> int:
    with _open(args) as ix:
        report = ix.link(top_k=args.top_k, min_score=args.min_score,
                         progress=_progress("linking"))
    return _out(args, report.to_dict(), render.text.linked(report))


def cmd_related(args: argparse.Namespace) -> int:
    with _open(args, readonly=True) as ix:
        result = ix.related(args.doc, limit=args.limit)
    return _out(args, result.to_dict(), render.text.related(result))


def cmd_verify(args: argparse.Namespace) -> int:
    with _open(args, readonly=not args.repair) as ix:
        report = ix.verify(repair=args.repair)
    _out(args, report.to_dict(), render.text.verified(report, args.repair))
    return 0 if report.ok else 3


def cmd_export(args: argparse.Namespace) -> int:
    with _open(args, readonly=True) as ix:
        done = ix.export(args.path)
    return _out(args, done.to_dict(), render.text.exported(done))


def cmd_evaluate(args: argparse.Namespace) -> int:
    with _open(args, readonly=True) as ix:
        report = ix.evaluate(args.golden, args.root)
    return _out(args, report.to_dict(), render.text.evaluation(report))


Verb = Callable[[argparse.Namespace], int]

VERBS: Dict[str, Verb] = {
    "compact": cmd_compact, "watch": cmd_watch,
    "index": cmd_index, "search": cmd_search, "status": cmd_status, "sources": cmd_sources,
    "fetch": cmd_fetch, "extract": cmd_extract, "purge": cmd_purge, "link": cmd_link,
    "related": cmd_related, "verify": cmd_verify, "export": cmd_export,
    "evaluate": cmd_evaluate}
