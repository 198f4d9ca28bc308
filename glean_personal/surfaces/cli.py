"""The command line's entry point: parse argv once, run one verb, turn errors into exit codes.

Exit codes (docs/reference.md): 0 success, 1 runtime failure, 2 usage error,
3 database problem. Expected failures print one line to stderr (an ambiguous
document reference adds its candidates), never a traceback.
"""
from __future__ import annotations

import argparse
import contextlib
import gc
import signal
import sys
import threading
from typing import Iterator, Optional, Sequence

from ..errors import GleanError
from . import render
from .args import build_parser, search_argv


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the command line on `argv` (default: sys.argv); returns the exit code."""
    argv = list(sys.argv[1:] if argv is None else argv) or ["repl"]
    try:
        if argv[0] == "search":
            argv = search_argv(argv)
        args = build_parser(argv[0]).parse_args(argv)
        return run(args)
    except GleanError as exc:
        print(f"glean-personal: {render.text.terminal_safe(render.text.failure(exc))}",
              file=sys.stderr)
        return exc.exit_code
    except Terminated:
        print("glean-personal: terminated", file=sys.stderr)
        return 143
    except KeyboardInterrupt:
        print("glean-personal: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as exc:  # a bug: still one line, unless asked for the traceback
        from .failures import internal_error
        print(f"glean-personal: {internal_error(exc)}", file=sys.stderr)
        return 1


def command() -> int:
    """The program (`glean-personal`, `python -m glean_personal`): `main`, whose exit code
    the process then exits with.

    At exit the interpreter's collector walks every object still alive looking
    for reference cycles to free, though the process is about to end anyway:
    some 4-9 ms of a `search`, more where site packages imported much. The
    command has closed its index by then, so everything alive is frozen
    (`gc.freeze`) and the collector leaves it alone; the output streams are
    still flushed and `atexit` handlers still run (docs/benchmarks.md).
    """
    code = main()
    gc.freeze()
    return code


def run(args: argparse.Namespace) -> int:
    """Run the verb `args` names: the REPL, the MCP server, or one of `verbs.VERBS`."""
    if args.verb == "repl":
        from .repl import run_repl
        return run_repl(args)
    if args.verb == "mcp":
        from .mcp import run_mcp
        return run_mcp(args)
    if not args.verb:
        build_parser().print_help()
        return 0
    from .verbs import VERBS
    with _stopped_by_sigterm():
        return VERBS[args.verb](args)


class Terminated(KeyboardInterrupt):
    """SIGTERM (a plain `kill`), raised where the verb is, so it stops as Ctrl-C does:
    what was not committed is rolled back, and the journal is gone when it exits."""


@contextlib.contextmanager
def _stopped_by_sigterm() -> Iterator[None]:
    """While a verb runs, SIGTERM stops it as Ctrl-C does (the REPL and the MCP server
    keep the default: the process ends; `watch` sets its own handler, to stop cleanly)."""
    def stop(signum, frame):
        raise Terminated()

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)
