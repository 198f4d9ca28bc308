"""The transcripts in the docs are what the commands print (both stores).

The README's tour and docs/repl.md's "Paging and flags, as run" are run as
written, over a copy of examples/, and their output compared with the block
line by line. A block may leave things out where it says so: `…` alone on a
line stands for any lines, a line ending in ` …` for the rest of that line,
`/…/` for the folders above examples/, and a timing (`in 0.06 s`) for any.
The docs show the default store (FTS5); the plain store ranks by its own
BM25, so for the one README search where its order differs only the top hit
is held to the block, its score aside.
"""
from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "examples"


def blocks(page: str, first: str) -> list:
    """The ```text blocks of `page` whose first line starts with `first`."""
    text = (ROOT / page).read_text(encoding="utf-8")
    found = [b for b in re.findall(r"```text\n(.*?)```", text, re.S) if b.startswith(first)]
    assert found, f"{page}: no block starting {first!r}"
    return found


def pattern(lines: list) -> "re.Pattern":
    """A regex for the output a block shows, with the block's own elisions."""
    parts = []
    for line in lines:
        if line == "…":
            parts.append(r"(?:.*\n)*?")
            continue
        rest = line.endswith(" …")
        body = re.escape(line[:-2] if rest else line)
        body = body.replace(re.escape("/…/"), "/.*/")
        body = re.sub(r"in\\ 0\\\.\d+\\ s", r"in [0-9.]+ s", body)
        parts.append(body + (r" .*" if rest else "") + r"\n")
    return re.compile("".join(parts))


def run(args: list, cwd: Path, stdin: str = None) -> str:
    env = dict(os.environ, PYTHONPATH=str(ROOT), COLUMNS="80")
    env.pop("NO_COLOR", None)
    done = subprocess.run([sys.executable, "-m", "glean_personal", *args], cwd=cwd, env=env,
                          input=stdin, capture_output=True, text=True, encoding="utf-8")
    assert done.returncode == 0, done.stderr
    return done.stdout + done.stderr


def transcript(block: str) -> list:
    """[(argv, stdin, expected lines)] for each `$ glean-personal …` of a block.

    Lines typed into a piped REPL (`/…` right after `$ glean-personal repl`) are
    its input, not its output.
    """
    steps = []
    for line in block.rstrip("\n").split("\n"):
        if line.startswith("$ glean-personal "):
            steps.append([shlex.split(line[2:])[1:], [], []])
        elif steps and line.startswith("/") and steps[-1][0][0] == "repl" and not steps[-1][2]:
            steps[-1][1].append(line)
        else:
            steps[-1][2].append(line)
    return [(argv, "".join(l + "\n" for l in typed) or None, out) for argv, typed, out in steps]


@pytest.fixture(scope="module", params=["fts5", "plain"])
def folder(request, tmp_path_factory):
    """A folder holding a copy of examples/, and the store kind to build."""
    tmp = tmp_path_factory.mktemp(f"docs-{request.param}")
    shutil.copytree(EXAMPLES, tmp / "examples")
    return tmp, request.param


def test_the_readme_tour_prints_what_the_readme_shows(folder, monkeypatch):
    tmp, kind = folder
    monkeypatch.setenv("GLEAN_PERSONAL_STORE", kind)
    db = tmp / "readme.db"
    if db.exists():
        db.unlink()
    steps = [s for b in blocks("README.md", "$ glean-personal ") for s in transcript(b)]
    assert [argv[0] for argv, _, _ in steps] == ["index", "search", "link", "related", "repl"]
    for argv, stdin, expected in steps:
        argv = [str(db) if argv[i - 1] == "--db" else a for i, a in enumerate(argv)]
        out = run(argv, tmp, stdin)
        if kind == "plain" and argv[0] == "search":
            # the plain store's BM25 scores on its own scale and puts another
            # document second: the top hit only, its score left out
            expected = ["   › score …" if l.startswith("   › score ") else l
                        for l in expected[:expected.index("")]] + ["…"]
        assert pattern(expected).fullmatch(out), \
            f"README's `glean-personal {' '.join(argv[:2])}` block is stale; it prints:\n{out}"


def test_the_repl_paging_transcript_prints_what_repl_md_shows(folder, monkeypatch):
    tmp, kind = folder
    monkeypatch.setenv("GLEAN_PERSONAL_STORE", kind)
    demo = tmp / "demo"
    if demo.exists():
        shutil.rmtree(demo)
    shutil.copytree(EXAMPLES, demo / "examples")
    db = demo / "personal.db"
    run(["index", str(demo / "examples"), "--label", "workshop", "--db", str(db)], tmp)
    block, = blocks("docs/repl.md", "$ printf '%s\\n' '/search brakes OR puncture")
    command, _, output = block.partition("\n[LOCAL INDEX]\n")
    words = shlex.split(command.replace("\\\n", " "))
    pipe = words.index("|")
    assert words[:2] == ["$", "printf"] and words[pipe + 1:-1] == ["glean-personal", "repl", "--db"]
    typed = "".join(w + "\n" for w in words[3:pipe])
    # the block's folder (where its index sits) is this test's `demo`
    shown_at = Path(words[-1]).parent.as_uri() + "/"
    expected = ("[LOCAL INDEX]\n" + output).replace(shown_at, demo.as_uri() + "/")
    # stdout and stderr come apart in a pipe: compare each stream's lines in order
    errors = [l for l in expected.split("\n") if l.startswith("error: ")]
    shown = [l for l in expected.rstrip("\n").split("\n") if not l.startswith("error: ")]
    env = dict(os.environ, PYTHONPATH=str(ROOT), COLUMNS="80")
    done = subprocess.run([sys.executable, "-m", "glean_personal", "repl", "--db", str(db)], cwd=tmp,
                          env=env, input=typed, capture_output=True, text=True, encoding="utf-8")
    assert done.returncode == 0
    assert done.stderr.split("\n")[:-1] == errors
    assert pattern(shown).fullmatch(done.stdout), \
        f"docs/repl.md's paging transcript is stale; it prints:\n{done.stdout}"
