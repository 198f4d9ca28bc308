"""Docs that cannot drift: every verb and flag is documented, and quoted help is live help.

`python tests/test_docs.py --write` regenerates docs/cli.md from the parser.
"""
from __future__ import annotations

import argparse
import contextlib
import io
import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from glean_personal.surfaces.args import build_parser  # noqa: E402

CLI_DOC = ROOT / "docs" / "cli.md"
HELP_BLOCK = re.compile(r"```text\n\$ glean-personal ((?:[a-z]+ )?)--help\n(.*?)```", re.S)


def live_help(verb: str = "") -> str:
    os.environ["COLUMNS"] = "80"
    parser = build_parser()
    out = io.StringIO()
    with contextlib.redirect_stdout(out), _exits():
        parser.parse_args(([verb] if verb else []) + ["--help"])
    # Python 3.9 says "optional arguments:" where later versions say "options:".
    return out.getvalue().replace("optional arguments:", "options:")


@contextlib.contextmanager
def _exits():
    try:
        yield
    except SystemExit:
        pass


def verbs() -> dict:
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(sub.choices)


def render_cli_doc() -> str:
    parts = ["# Command-line reference\n",
             "Every verb, with its live `--help` (a test keeps this page equal to the "
             "program's own output; regenerate it with `python tests/test_docs.py --write`).\n",
             "```text\n$ glean-personal --help\n" + live_help() + "```\n"]
    for verb in verbs():
        parts.append(f"## {verb}\n")
        parts.append(f"```text\n$ glean-personal {verb} --help\n" + live_help(verb) + "```\n")
    return "\n".join(parts)


def same_help(a: str, b: str) -> bool:
    """Equal up to line wrapping: argparse wraps long usage lines differently by version."""
    return a.split() == b.split()


def test_cli_reference_is_the_live_help():
    assert same_help(CLI_DOC.read_text(encoding="utf-8"), render_cli_doc()), \
        "docs/cli.md is stale: run `python tests/test_docs.py --write`"


def test_every_help_block_quoted_in_the_docs_is_live():
    found = 0
    for page in (ROOT / "docs").glob("*.md"):
        for verb, body in HELP_BLOCK.findall(page.read_text(encoding="utf-8")):
            assert same_help(body, live_help(verb.strip())), f"{page.name}: help of '{verb.strip() or '(top)'}' drifted"
            found += 1
    assert found >= len(verbs()) + 1


def test_every_verb_and_flag_is_documented_with_help():
    text = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "docs").glob("*.md"))
    for verb, parser in verbs().items():
        assert f"glean-personal {verb}" in text
        for action in parser._actions:
            for flag in action.option_strings:
                assert flag in text, f"{verb} {flag} is not in docs/"
            if action.option_strings and action.dest != "help":
                assert action.help, f"{verb} {action.option_strings} has no help text"


def test_readme_points_at_pages_that_exist():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    for target in re.findall(r"\]\((docs/[^)]+)\)", readme):
        assert (ROOT / target).exists(), target


if __name__ == "__main__":
    if sys.argv[1:] == ["--write"]:
        CLI_DOC.write_text(render_cli_doc(), encoding="utf-8")
        print(f"wrote {CLI_DOC}")
