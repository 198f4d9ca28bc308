"""The interactive REPL: `/personal …` runs CLI verbs, `/search` and friends ask a backend.

Parsing only: `/personal` lines go through the one parser (args.py) and the
verb handlers (verbs.py), so no flag is defined twice; endpoint lines build a
Client API request for the current backend (local_backend.py), and answers
are drawn by render/client.py. On a terminal it keeps readline history in ~/.gleancode and
completes commands and flags; fed a pipe it reads line by line and prints no
prompt, so scripts and tests can drive it.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import os
import re
import shlex
import sys
import textwrap
from pathlib import Path
from typing import Iterator, List, Optional, TextIO, Tuple

from ..docref import is_digits, is_file_url
from ..errors import Ambiguous, GleanError, UsageError
from ..version import __version__
from .args import build_parser, part_query, search_argv, search_flags, search_parser
from .failures import internal_error
from .local_backend import Backend, error_response, resolve_backend
from .verbs import VERBS
from .render import client as render_client
from .render import json as render_json
from .render import text as render_text

COMMANDS = ("/personal", "/mode", "/search", "/more", "/chat", "/autocomplete",
            "/getdocuments", "/json", "/help", "/quit")
ENDPOINTS = ("search", "chat", "autocomplete", "getdocuments")
# Client API endpoints a tenant serves and local mode does not: these say so, where
# any other name is an unknown command.
TENANT_ENDPOINTS = (
    "activity", "agents", "announcements", "answers", "collections", "documents", "entities",
    "feedback", "governance", "indexing", "insights", "listanswers", "listchats",
    "listcollections", "listentities", "listpins", "listshortcuts", "messages", "people",
    "pins", "policies", "recommendations", "shortcuts", "summarize", "tools", "verification",
    "getchat", "deletechats", "getdocumentpermissions", "getdocumentsbyfacets", "feed")
HISTORY_ENV = "GLEAN_PERSONAL_HISTORY"
MODES = ("local", "auto")


def _personal_verbs() -> Tuple[str, ...]:
    """The verbs `/personal` runs: every command-line verb with a handler (verbs.py), in
    the order `glean-personal --help` lists them; not `repl` or `mcp`, which take over
    the terminal. The one list the help, the refusals and Tab completion give."""
    order = []
    for action in build_parser()._actions:  # argparse keeps subparsers here; read-only use
        if isinstance(action, argparse._SubParsersAction):
            order = list(action.choices)
    return tuple([v for v in order if v in VERBS] + sorted(v for v in VERBS if v not in order))


PERSONAL_VERBS = _personal_verbs()


def _personal_help() -> str:
    """`/personal --help`: the verbs it runs, each with the line `glean-personal --help`
    gives it (not that list, which has `repl` and `mcp`)."""
    lines = {}
    for action in build_parser()._actions:  # argparse keeps subparsers here; read-only use
        if isinstance(action, argparse._SubParsersAction):
            lines = {a.dest: a.help for a in action._choices_actions}
    width = max(map(len, PERSONAL_VERBS))
    return "\n".join(["/personal VERB [ARGS] runs a command-line verb on this session's index",
                      "(--db defaults to this session's):", ""]
                     + [f"  {v:<{width}}  {lines.get(v) or ''}".rstrip() for v in PERSONAL_VERBS]
                     + ["", "`/personal VERB --help` shows a verb's flags."])


def _wrapped(text: str, width: int, indent: str) -> str:
    """`text` in lines of at most `width` characters, each after the first after `indent`."""
    return ("\n" + indent).join(textwrap.wrap(text, width, break_on_hyphens=False))


HELP = """\
Commands
  /personal VERB [ARGS]   """ + _wrapped(
    "run a command-line verb on this session's index, with the flags of `glean-personal "
    "VERB --help` (--db defaults to this session's): " + ", ".join(PERSONAL_VERBS),
    58, " " * 26) + """
  /search QUERY [FLAGS]   ranked documents, Client API shaped; the flags of
                          `glean-personal search`: --limit N, --offset N, --source,
                          --type, --path, --after, --before, --json
  /more                   the next page of the last /search
  /chat QUESTION          matching passages verbatim, with numbered citations
  /autocomplete PREFIX    completions from titles, headings and indexed words
  /getdocuments DOC…      whole documents by id, file:// URL or path
  /mode [local|auto]      show or set where answers come from
  /json [on|off]          print raw response JSON instead of text
  /help                   this list
  /quit                   leave (Ctrl-D too; Ctrl-C cancels the current line or command)
A line without a leading slash is a /search. Lines starting with # are ignored.
In local mode only /search, /chat, /autocomplete and /getdocuments are served."""


def history_path(db: Optional[str] = None) -> Optional[Path]:
    """Where readline history goes: $GLEAN_PERSONAL_HISTORY if set (empty: nowhere), else
    beside the index: ~/.gleancode/repl_history for the default one, `INDEX.history` for an
    index elsewhere, so a session on another index writes nothing into the home folder."""
    env = os.environ.get(HISTORY_ENV)
    if env is not None:
        return Path(env).expanduser() if env.strip() else None
    from ..api import resolve_db
    path = resolve_db(db)
    if path == resolve_db(None) and path.parent == Path.home() / ".gleancode":
        return path.parent / "repl_history"
    return path.with_name(path.name + ".history")


class Session:
    """One REPL session: its mode, backend, output settings and the index it points at."""

    def __init__(self, db: Optional[str], mode: str = "auto", as_json: bool = False,
                 out: Optional[TextIO] = None, err: Optional[TextIO] = None) -> None:
        self.db = db
        self.as_json = as_json
        self.out = out or sys.stdout
        self.err = err or sys.stderr
        self.mode = mode
        self.backend: Backend
        self.backend, self.mode_note = resolve_backend(mode, db)
        self.last_search: Optional[dict] = None   # the request /more repeats, next page

    @property
    def prompt(self) -> str:
        name = self.backend.name
        return f"glean[{name if self.mode == name else self.mode + ':' + name}]> "

    def close(self) -> None:
        self.backend.close()

    def say(self, text: str, raw: bool = False) -> None:
        """Text for the terminal, escape sequences from names shown escaped (`raw`: JSON,
        which escapes what it must itself)."""
        print(text if raw else render_text.terminal_safe(text), file=self.out, flush=True)

    def fail(self, message: str) -> None:
        print(f"error: {render_text.terminal_safe(repl_advice(message))}", file=self.err,
              flush=True)

    # -- dispatch ----------------------------------------------------------------
    def handle(self, line: str) -> bool:
        """Run one line; False when the session should end. Never raises for bad input."""
        line = line.strip()
        if not line or line.startswith("#"):
            return True
        if line in ("quit", "exit"):
            return False
        if not line.startswith("/"):
            line = "/search " + line
        name, rest = (line[1:].split(None, 1) + ["", ""])[:2]   # "/" alone: name ""
        name, rest = name.lower(), rest.strip()
        try:
            return self._run(name, rest)
        except GleanError as exc:
            if self.as_json and name not in _SESSION_COMMANDS and not isinstance(exc, Ambiguous):
                self.say(render_json.dumps(error_response(repl_advice(str(exc)))), raw=True)
            else:
                self.fail(render_text.failure(exc))
        except BrokenPipeError:
            return False
        except Exception as exc:  # a bug: one line, and the session carries on
            self.fail(internal_error(exc))
        return True

    def _run(self, name: str, rest: str) -> bool:
        if name in ("quit", "exit", "q"):
            return False
        if name in ("help", "?"):
            self.say(HELP)
        elif name == "personal":
            self.personal(rest)
        elif name == "mode":
            self.set_mode(rest)
        elif name == "json":
            self.set_json(rest)
        elif name == "more":
            self.more(rest)
        elif name in ENDPOINTS or name in TENANT_ENDPOINTS:
            self.endpoint(name, rest)
        else:
            raise UsageError(unknown_command(name))
        return True

    def personal(self, rest: str) -> None:
        """`/personal VERB …`: the CLI's parser and verb function, with this session's --db."""
        argv = _split(rest)
        if not argv:
            raise UsageError("/personal needs a verb: " + ", ".join(PERSONAL_VERBS))
        if argv[0] in ("-h", "--help", "help"):
            self.out.write(_personal_help() + "\n")
            return
        if not argv[0].startswith("-") and argv[0] not in PERSONAL_VERBS:
            raise UsageError(not_a_verb(argv[0]))
        elif argv[0] == "search":
            argv = search_argv(argv)   # `-word` excludes, as on the command line
        try:
            with _stdout(self.out):
                args = build_parser().parse_args(argv)
        except SystemExit:  # --help or --version printed; the session goes on
            return
        except UsageError as exc:   # the parser's list of verbs has `repl` and `mcp`
            choice = _NOT_A_CHOICE.match(str(exc))
            raise UsageError(not_a_verb(choice.group(1)) if choice else str(exc)) from None
        if args.verb not in PERSONAL_VERBS:
            raise UsageError(not_a_verb(args.verb or ""))
        if getattr(args, "db", None) is None:
            args.db = self.db
        if self.as_json and hasattr(args, "json"):
            args.json = True
        with _stdout(_Advised(self.out)):
            VERBS[args.verb](args)

    def set_mode(self, rest: str) -> None:
        if not rest:
            self.say(f"mode {self.mode_note}")
            return
        if rest not in MODES:
            raise UsageError(f"unknown mode {rest!r}: use /mode local or /mode auto")
        backend, note = resolve_backend(rest, self.db)
        self.backend.close()
        self.backend, self.mode, self.mode_note = backend, rest, note
        self.say(f"mode {note}")

    def set_json(self, rest: str) -> None:
        if rest not in ("", "on", "off"):
            raise UsageError("use /json on or /json off")
        self.as_json = (not self.as_json) if not rest else rest == "on"
        self.say(f"json {'on' if self.as_json else 'off'}")

    def endpoint(self, name: str, rest: str) -> None:
        """A Client API endpoint: build the request, ask the backend, render the answer."""
        as_json = self.as_json
        if name == "search":
            if {"-h", "--help"} & set(query_split(rest)):
                self.say(search_parser().format_help().replace(
                    "glean-personal search", "/search", 1))
                return
            request, flagged_json = search_request(rest)
            self.ask(name, request, as_json or flagged_json)
            return
        if rest == "--json" or rest.startswith("--json "):
            as_json, rest = True, rest[len("--json"):].strip()
        self.ask(name, _request(name, rest), as_json)

    def ask(self, name: str, request: dict, as_json: bool) -> None:
        response = self.backend.call(name, request)
        start = 1
        if name == "search":
            start = int(request.get("cursor") or 0) + 1
            self.last_search = (dict(request, cursor=response["cursor"])
                                if response.get("hasMoreResults") and response.get("cursor")
                                else dict(request, cursor=None))
        if as_json:
            self.say(render_json.dumps(response), raw=True)
        else:
            self.say(render_client.render(name, response, _color(self.out), start=start))

    def more(self, rest: str) -> None:
        """`/more`: the next page of the last /search, with its flags."""
        if rest:
            raise UsageError("/more takes nothing: it shows the next page of the last /search")
        if self.last_search is None:
            raise UsageError("nothing to page yet: /search first, then /more")
        if self.last_search.get("cursor") is None:
            raise UsageError(f"no more results for {self.last_search['query']!r}")
        self.ask("search", dict(self.last_search), self.as_json)

    def banner(self) -> str:
        """The first line of an interactive session: local facts, credentials only if set."""
        from .local_backend import tenant_configured
        head = f"glean-personal {__version__} REPL"
        if tenant_configured(os.environ):
            return f"{head}, mode {self.mode_note}."
        from ..api import resolve_db
        path = resolve_db(self.db)
        try:
            status = self.backend.opened().status()
        except GleanError:
            return (f"{head}: no index yet at {path}; "
                    "`/personal index FOLDER` makes one.")
        labels = ", ".join(s["label"] for s in status.sources[:6])
        more = ", …" if len(status.sources) > 6 else ""
        return (f"{head}: the personal index at {path}, {status.documents} documents in "
                f"{len(status.sources)} source(s)" + (f" ({labels}{more})" if labels else "")
                + ".")


_SESSION_COMMANDS = ("personal", "mode", "json", "help", "?", "quit", "exit", "q", "more")

# Advice that names a command line to run (`glean-personal index FOLDER`, `glean-personal
# link`): in the REPL, the `/personal` line that runs it.
_CLI_ADVICE = re.compile(r"`glean-personal (--help|[a-z]+)\b")


def repl_advice(text: str) -> str:
    """`text` with each command line it advises (`glean-personal index FOLDER`) named as
    the REPL runs it (`/personal index FOLDER`), for the verbs `/personal` runs."""
    return _CLI_ADVICE.sub(lambda m: f"`/personal {m.group(1)}"
                           if m.group(1) in PERSONAL_VERBS or m.group(1) == "--help"
                           else m.group(0), text)


class _Advised:
    """The session's output as a `/personal` verb prints to it: what it advises to run
    is named as the REPL runs it (`repl_advice`)."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream.write(repl_advice(text))
        return len(text)

    def __getattr__(self, name: str):
        return getattr(self._stream, name)


_NOT_A_CHOICE = re.compile(r"argument VERB: invalid choice: '(.*)' \(choose from ")


def not_a_verb(verb: str) -> str:
    """Why `/personal VERB` is refused, with the verbs it runs (and the nearest one)."""
    import difflib
    if verb in ("repl", "mcp"):
        why = f"/personal {verb} is not a verb the REPL runs"
    else:
        near = difflib.get_close_matches(verb, PERSONAL_VERBS, n=1, cutoff=0.6)
        why = f"/personal {verb}: no such verb" + (f" (did you mean {near[0]}?)" if near else "")
    return why + "; /personal runs " + ", ".join(PERSONAL_VERBS)


def unknown_command(name: str) -> str:
    """`unknown command /foo`, with the nearest command when one is close."""
    import difflib
    known = [c[1:] for c in COMMANDS]
    near = difflib.get_close_matches(name, known, n=1, cutoff=0.5)
    hint = f"; did you mean /{near[0]}?" if near else ""
    return f"unknown command /{name}{hint} (/help lists the commands)"


def search_request(rest: str) -> Tuple[dict, bool]:
    """A /search line read with the command-line `search` parser: (request, --json given).

    Words that start with one dash and are not flags (`-milk`) stay in the query,
    where they exclude; an unknown `--flag` is an error that lists the real ones."""
    argv = query_split(rest)
    if not argv:
        raise UsageError("search for something: /search QUERY")
    parser = search_parser()
    takes_value = search_flags(parser)
    flags = sorted(o for o in takes_value if o.startswith("--"))

    def refused(name: str) -> str:
        raise UsageError(f"/search does not take {name}; it takes "
                         + ", ".join(f for f in flags if f not in _NOT_IN_REPL))

    options, words = part_query(argv, takes_value, refused)
    options = [_unquoted(token) for token in options]
    if not words:
        raise UsageError("search for something: /search QUERY [FLAGS]")
    caught = io.StringIO()
    try:
        with contextlib.redirect_stderr(caught), _stdout(caught):
            args = parser.parse_args(options + ["--"] + words)
    except SystemExit:
        said = [line for line in caught.getvalue().splitlines() if "error:" in line]
        raise UsageError(said[-1].split("error:", 1)[1].strip() if said else
                         "/search QUERY [--limit N] [--offset N] [--source LABEL] "
                         "[--type FORMAT] [--path GLOB] [--after DATE] [--before DATE]") \
            from None
    for flag in _NOT_IN_REPL:
        if getattr(args, flag.lstrip("-").replace("-", "_"), None):
            raise UsageError(f"{flag} is for `/personal search`; /search shows documents")
    request: dict = {"query": " ".join(args.query), "pageSize": args.limit}
    if args.offset:
        request["cursor"] = str(args.offset)
    facets = ([{"fieldName": "container", "values": [{"value": v} for v in args.source]}]
              if args.source else [])
    if args.type:
        facets.append({"fieldName": "type", "values": [{"value": v} for v in args.type]})
    if facets:
        request["requestOptions"] = {"facetFilters": facets}
    local = {k: getattr(args, k) for k in ("path", "after", "before")
             if getattr(args, k) is not None}
    if local:
        request["localFilters"] = local
    return request, bool(args.json)


_NOT_IN_REPL = ("--explain", "--passages", "--db")


def _request(name: str, rest: str) -> dict:
    """The Client API request body for a REPL endpoint line."""
    if name == "search":
        if not rest:
            raise UsageError("search for something: /search QUERY")
        return {"query": rest, "pageSize": 10}
    if name == "chat":
        if not rest:
            raise UsageError("ask something: /chat QUESTION")
        return {"messages": [{"author": "USER", "messageType": "CONTENT",
                              "fragments": [{"text": rest}]}]}
    if name == "autocomplete":
        return {"query": rest, "resultSizeLimit": 10}
    if name == "getdocuments":
        specs = []
        for value in _split(rest):
            key = "id" if is_digits(value) else "url" if is_file_url(value) else "path"
            specs.append({key: value})
        if not specs:
            raise UsageError("name a document: /getdocuments ID|PATH|file://URL")
        return {"documentSpecs": specs}
    return {"query": rest} if rest else {}


def query_split(text: str) -> List[str]:
    """A /search line's words, split at spaces as a user types a query, not as a shell:
    a double-quoted span stays one word, quotes and all (a phrase), and one left open
    runs to the end; an apostrophe is a letter (`what's`); a word that starts with a
    single quote closed before a space is that span without its quotes (`--source 'my
    notes'`, `'"exact phrase"'`). Never fails: any text is a query."""
    words: List[str] = []
    i, n = 0, len(text)
    while i < n:
        if text[i].isspace():
            i += 1
            continue
        start, parts = i, []
        while i < n and not text[i].isspace():
            ch = text[i]
            if ch == '"':
                end = text.find('"', i + 1)
                end = n if end < 0 else end + 1
                parts.append(text[i:end])
                i = end
                continue
            if ch == "'" and i == start:
                end = text.find("'", i + 1)
                if end > 0 and (end + 1 == n or text[end + 1].isspace()):
                    parts.append(text[i + 1:end])
                    i = end + 1
                    continue
            parts.append(ch)
            i += 1
        words.append("".join(parts))
    return words


def _unquoted(token: str) -> str:
    """A flag's value as the shell would pass it: `"my notes"` -> `my notes`."""
    name, eq, value = token.partition("=") if token.startswith("--") else ("", "", token)
    if len(value) >= 2 and value[0] == value[-1] == '"':
        value = value[1:-1]
    return name + eq + value


def _split(text: str) -> List[str]:
    try:
        return shlex.split(text)
    except ValueError as exc:
        raise UsageError(f"cannot read that line ({exc})") from None


def _color(stream: TextIO) -> bool:
    try:
        return render_text.use_color(stream)
    except (AttributeError, ValueError):
        return False


@contextlib.contextmanager
def _stdout(stream: TextIO) -> Iterator[None]:
    """Point sys.stdout at the session's output while a CLI verb prints."""
    saved = sys.stdout
    sys.stdout = stream
    try:
        yield
    finally:
        sys.stdout = saved


# -- terminal niceties ---------------------------------------------------------------
def _flags_by_verb() -> dict:
    parser = build_parser()
    out = {}
    for action in parser._actions:  # argparse keeps subparsers here; read-only use
        if isinstance(action, argparse._SubParsersAction):
            for verb, sub in action.choices.items():
                out[verb] = sorted(o for a in sub._actions for o in a.option_strings
                                   if o.startswith("--"))
    return out


def completions(line: str, text: str) -> List[str]:
    """What Tab may complete `text` to, given the whole `line` so far."""
    words = line.split()
    if len(words) == 0 or (len(words) == 1 and not line.endswith(" ")):
        return [c + " " for c in COMMANDS if c.startswith(text)]
    head = words[0]
    if head == "/mode":
        return [m for m in MODES if m.startswith(text)]
    if head == "/json":
        return [m for m in ("on", "off") if m.startswith(text)]
    if head == "/personal":
        position = len(words) - (0 if line.endswith(" ") else 1)
        if position == 1:
            return [v + " " for v in PERSONAL_VERBS if v.startswith(text)]
        flags = _flags_by_verb().get(words[1], [])
        return [f for f in flags if f.startswith(text)] if text.startswith("-") else []
    return []


def _setup_readline(db: Optional[str] = None) -> Optional[object]:
    """History (0600, beside the index; see history_path) and Tab completion, where readline
    exists. Only the default index's private folder is ever created."""
    try:
        import readline
    except ImportError:
        return None
    path = history_path(db)
    try:
        if path is not None:
            if path.parent == Path.home() / ".gleancode":
                path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            if not path.exists():
                os.close(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600))
            os.chmod(path, 0o600)
            readline.read_history_file(str(path))
    except OSError:
        pass
    readline.set_history_length(1000)

    def complete(text: str, state: int) -> Optional[str]:
        options = completions(readline.get_line_buffer()[:readline.get_endidx()], text)
        return options[state] if state < len(options) else None

    readline.set_completer_delims(" \t\n")
    readline.set_completer(complete)
    if "libedit" in (readline.__doc__ or ""):
        readline.parse_and_bind("bind ^I rl_complete")
    else:
        readline.parse_and_bind("tab: complete")
    return readline


def _save_history(readline, db: Optional[str] = None) -> None:
    path = history_path(db)
    if readline is None or path is None or not path.parent.is_dir():
        return
    try:
        readline.write_history_file(str(path))
        os.chmod(path, 0o600)
    except OSError:
        pass


def _lines(stream: TextIO) -> Iterator[str]:
    """Lines of a non-terminal input; Ctrl-C while waiting ends nothing but the wait."""
    while True:
        try:
            line = stream.readline()
        except KeyboardInterrupt:
            continue
        if not line:
            return
        yield line


def run_repl(args: argparse.Namespace) -> int:
    """Run the REPL until /quit, Ctrl-D or the end of input (`args`: the parsed `repl` verb)."""
    session = Session(args.db, "auto", args.json)
    interactive = sys.stdin.isatty() and sys.stdout.isatty()
    try:
        if interactive:
            return _interactive(session)
        for line in _lines(sys.stdin):
            if not _guarded(session, line):
                break
        return 0
    finally:
        session.close()


def _guarded(session: Session, line: str) -> bool:
    """One line, where Ctrl-C cancels the command (an index, say) but not the session."""
    try:
        return session.handle(line)
    except KeyboardInterrupt:
        print("\ninterrupted", file=session.err, flush=True)
        return True


def _interactive(session: Session) -> int:
    readline = _setup_readline(session.db)
    session.say(session.banner() + "\n/help lists commands; /quit or Ctrl-D leaves.")
    try:
        while True:
            try:
                line = input(session.prompt)
            except KeyboardInterrupt:  # cancel the line being typed
                print(file=session.out)
                continue
            except EOFError:
                print(file=session.out)
                return 0
            if not _guarded(session, line):
                return 0
    finally:
        _save_history(readline, session.db)
