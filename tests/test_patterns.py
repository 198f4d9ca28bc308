"""Patterns compiled on first use: the same answers as `re.compile`'s, and a search of an
English question compiles none of those that only code, listings or other scripts need."""
from __future__ import annotations

import copy
import os
import re
import subprocess
import sys
from pathlib import Path

import glean_personal
from glean_personal.patterns import lazy
from helpers.files import write_tree


def test_a_lazy_pattern_answers_as_the_compiled_one():
    source, flags = r"(?P<word>[a-z]+)(\d*)", re.IGNORECASE
    pattern, compiled = lazy(source, flags), re.compile(source, flags)
    assert vars(pattern) == {"_source": (source, flags)}   # nothing compiled yet
    text = "Alpha1 beta22 GAMMA"
    assert pattern.search(text).group("word") == compiled.search(text).group("word")
    assert pattern.findall(text) == compiled.findall(text)
    assert pattern.sub("-", text) == compiled.sub("-", text)
    assert [m.span() for m in pattern.finditer(text)] == [m.span() for m in compiled.finditer(text)]
    assert pattern.fullmatch("abc12").groups() == ("abc", "12")
    assert (pattern.pattern, pattern.flags, pattern.groups) == (compiled.pattern, compiled.flags, 2)
    assert pattern.search is pattern.search          # kept: later calls cost what re's do
    assert copy.copy(lazy("a+")).sub("b", "caat") == "cbt"


_CHILD = """
import sys
from glean_personal.surfaces.cli import main
from glean_personal.patterns import lazy
code = main(sys.argv[1:])
sys.stdout.flush()
compiled = sorted(f"{name}.{key}" for name, module in list(sys.modules.items())
                  if name.startswith("glean_personal")
                  for key, value in vars(module).items()
                  if isinstance(value, lazy) and len(vars(value)) > 1)
print("\\n" + " ".join(compiled), file=sys.stderr)
sys.exit(code)
"""


def test_an_english_question_compiles_no_pattern_it_does_not_use(tmp_path, store_kind):
    root = write_tree(tmp_path / "notes", {
        "a.md": "# Brakes\n\nAdjust the brake cable before a long ride.\n",
        "b.md": "# Tyres\n\nPump the tyres to the pressure printed on them.\n"})
    db = tmp_path / "p.db"
    done = subprocess.run([sys.executable, "-m", "glean_personal", "index", str(root), "--db",
                           str(db), "--quiet"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    package = str(Path(glean_personal.__file__).resolve().parents[1])
    child = subprocess.run([sys.executable, "-c", _CHILD, "search",
                            "how do I adjust the brakes before a ride", "--json", "--db", str(db)],
                           capture_output=True, text=True, cwd=str(tmp_path),
                           env=dict(os.environ, PYTHONPATH=package))
    assert child.returncode == 0, child.stderr
    assert '"Brakes"' in child.stdout
    assert child.stderr.split("\n")[-2] == ""   # none of them was compiled
