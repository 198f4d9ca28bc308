"""The one argument parser: every verb and flag of the command line, defined once.

The command line, the REPL's `/personal` lines and `glean-personal repl|mcp`
all read their flags through `build_parser`; nothing here runs a verb.
"""
from __future__ import annotations

import argparse
import math
from typing import Callable, Dict, List, Mapping, Optional, Sequence, Tuple

from ..errors import UsageError
from ..version import __version__

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


class _Unused:
    """Stands in for the parser of a verb this command line does not name: every
    flag added to it is dropped (building them all costs more than most searches)."""

    def add_argument(self, *args: object, **kwargs: object) -> None:
        return None

    def add_mutually_exclusive_group(self, *args: object, **kwargs: object) -> "_Unused":
        return self


class _OnlyVerb:
    """The verbs' `add_parser`, building one verb's parser in full and no other."""

    def __init__(self, sub: "argparse._SubParsersAction", verb: str) -> None:
        self.sub = sub
        self.verb = verb
        self.found = False

    def add_parser(self, name: str, **kwargs: object) -> object:
        if name != self.verb:
            return _Unused()
        self.found = True
        return self.sub.add_parser(name, **kwargs)


def search_parser() -> argparse.ArgumentParser:
    """The `search` verb's own parser (its flags and help), as the command line builds it."""
    parser = build_parser("search")
    for action in parser._actions:  # argparse keeps subparsers here; read-only use
        if isinstance(action, argparse._SubParsersAction):
            return action.choices["search"]
    raise AssertionError("the command-line parser has no search verb")


def search_flags(parser: argparse.ArgumentParser) -> Dict[str, bool]:
    """Each option string of a `search` parser (`--limit`, `-h`), with whether it takes a value."""
    return {o: a.nargs != 0 for a in parser._actions for o in a.option_strings}


def part_query(argv: Sequence[str], takes_value: Mapping[str, bool],
               unknown: Callable[[str], str]) -> Tuple[List[str], List[str]]:
    """A `search` line's arguments (the verb left out) as (flags with their values,
    query words in their order).

    A word with one leading dash that is no flag (`git -rebase`) is a query word,
    which excludes; everything after `--` is too. `unknown(name)` is asked what an
    unknown `--flag` (its part before any `=`) stands for: a flag of `takes_value`,
    whose value then follows it as for that flag, or anything else (kept, takes no
    value); it may raise instead."""
    words: List[str] = []
    options: List[str] = []
    i = 0
    while i < len(argv):
        token = argv[i]
        name = token.split("=", 1)[0]
        if token == "--":
            words += argv[i + 1:]
            break
        if name not in takes_value and token.startswith("--"):
            name = unknown(name)
        if name in takes_value:
            options.append(token)
            if takes_value[name] and "=" not in token and i + 1 < len(argv):
                i += 1
                options.append(argv[i])
        elif token.startswith("--"):
            options.append(token)
        else:
            words.append(token)
        i += 1
    return options, words


def search_argv(argv: List[str]) -> List[str]:
    """A `search` command line with its query words last, after `--`, in their order.

    A word with one leading dash that is no flag of `search` (`git -rebase`) is a
    query word, which excludes, as in the REPL's /search; argparse would refuse it
    ("unrecognized arguments: -rebase"). Flags and their values keep their places,
    an abbreviated flag (`--lim 3`, as argparse takes it) with its value; an unknown
    `--flag` is still refused by the parser."""
    takes_value = search_flags(search_parser())

    def abbreviated(name: str) -> str:
        whole = [o for o in takes_value if o.startswith(name)]
        return whole[0] if len(whole) == 1 else name

    options, words = part_query(argv[1:], takes_value, abbreviated)
    return argv[:1] + options + (["--"] + words if words else [])


def build_parser(verb: Optional[str] = None) -> argparse.ArgumentParser:
    """The whole parser; given the verb a command line starts with, one that parses
    that command line the same and builds only that verb (anything but a verb's name
    gets the whole parser)."""
    if verb is not None:
        parser = _build(verb)
        if parser is not None:
            return parser
    parser = _build(None)
    assert parser is not None
    return parser


def _build(verb: Optional[str]) -> Optional[argparse.ArgumentParser]:
    parser = _Parser(prog="glean-personal", description=DESCRIPTION, epilog=(
        "Every verb takes --db PATH and --json; `glean-personal VERB --help` shows its "
        "flags. Exit codes: 0 success, 1 failure, 2 usage error, 3 database problem."))
    parser.add_argument("--version", action="version", version=f"glean-personal {__version__}")
    sub = parser.add_subparsers(dest="verb", metavar="VERB", parser_class=_Parser)
    if verb is not None:
        only = sub = _OnlyVerb(sub, verb)  # type: ignore[assignment]

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
        "Search the index. Quoted spans are exact phrases; other words are ORed and "
        "match by stem (`word*` by prefix); a word with one leading dash (`-word`) "
        "excludes. Use `search -- --text` for a query word that starts with two dashes."))
    p.add_argument("query", nargs="+", metavar="QUERY")
    p.add_argument("--limit", type=_positive_int, default=10, metavar="N",
                   help="how many results (default 10)")
    p.add_argument("--offset", type=_nonneg_int, default=0, metavar="N",
                   help="skip the first N results")
    p.add_argument("--source", action="append", type=_named, metavar="LABEL",
                   help="only this source (repeatable)")
    p.add_argument("--type", action="append", type=_named, metavar="FORMAT",
                   help="only this format, e.g. docx or md (repeatable)")
    p.add_argument("--path", type=_named, metavar="GLOB",
                   help="only documents whose path matches GLOB")
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
    p.add_argument("--min-score", type=_number, default=0.0, metavar="X",
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

    p = sub.add_parser("fetch", help="one document, reassembled, or part of it", description=(
        "Print one indexed document, or one part of it. DOC is an id, a path, or a unique "
        "part of a path (it may be left out with --around). A part says where it is and "
        "which flags read on."))
    p.add_argument("doc", metavar="DOC", nargs="?")
    part = p.add_mutually_exclusive_group()
    part.add_argument("--section", metavar="HEADING",
                      help='one section and its subsections: "Install > Linux", or the last '
                           "heading alone")
    part.add_argument("--page", metavar="PAGE", help="one page (PDF): its label or number")
    part.add_argument("--lines", metavar="A-B", help="file lines A to B (text and code; `A-` to the end)")
    part.add_argument("--around", type=_nonneg_int, metavar="PASSAGE",
                      help="a passage id (search --passages --json) and its neighbours")
    part.add_argument("--outline", action="store_true",
                      help="the headings with their lines or pages, not the text")
    p.add_argument("--context", type=_nonneg_int, metavar="N",
                   help="passages either side of --around (default 2; only with --around)")
    p.add_argument("--offset", type=_nonneg_int, default=0, metavar="N",
                   help="skip N characters into the part")
    p.add_argument("--max-chars", type=_positive_int, metavar="N",
                   help="print at most N characters of text")
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
    p.add_argument("--interval", type=_seconds, default=2.0, metavar="SECONDS",
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
    if verb is not None and not only.found:
        return None
    return parser


def _named(text: str) -> str:
    """A filter's value: `--source ''` (an empty shell variable) names nothing, and is
    refused rather than searched as a source of that name."""
    if not text.strip():
        raise argparse.ArgumentTypeError("expected a name, got an empty one")
    return text


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


def _number(text: str) -> float:
    """A finite number (`nan` and `inf` are words float() takes, not scores)."""
    try:
        value = float(text.replace("_", ""))
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f"expected a number, got {text!r}")
    return value


def _seconds(text: str) -> float:
    """A pause: above 0 and at most a day (a longer sleep overflows the clock)."""
    from ..config import MAX_PAUSE   # here: `--help` and a bare parse load no config
    value = _number(text)
    if not 0 < value <= MAX_PAUSE:
        raise argparse.ArgumentTypeError(
            f"expected seconds above 0 and at most {MAX_PAUSE:,.0f}, got {text!r}")
    return value


def _date(text: str) -> float:
    try:
        return timestamp_of(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a date like 2024-05-31, got {text!r}") from None


def timestamp_of(text: str) -> float:
    """Seconds since the epoch of an ISO date or time, as `--after`/`--before` and MCP's
    `after`/`before` take it: a naive one in local time, or in UTC where local time
    cannot express it (0001-01-01: before year 1). ValueError if it is no date."""
    from datetime import datetime, timezone
    when = datetime.fromisoformat(text.strip())
    try:
        return when.timestamp()
    except (ValueError, OverflowError, OSError):
        return when.replace(tzinfo=when.tzinfo or timezone.utc).timestamp()
