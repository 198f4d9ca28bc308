"""Source code: one section per definition, with exact line numbers.

Python is tested on real code: modules of the standard library of the
running interpreter and this project's own package. The other languages are
tested on small files written the way their communities write them.
"""
from __future__ import annotations

import ast
import inspect
import json
import json.decoder
import shutil
from pathlib import Path

import pytest

import glean_personal
from glean_personal.config import Limits
from glean_personal.document import Document
from glean_personal.errors import SkipFile
from glean_personal.formats import read_document
from glean_personal.passages import split_document

PACKAGE = Path(glean_personal.__file__).resolve().parent


def sections(doc: Document):
    return [(" › ".join(s.heading), s.first_line) for s in doc.sections]


def assert_lines_exact(doc: Document, source: str) -> None:
    """Every section is the file's own lines, starting at its first_line."""
    lines = source.replace("\r\n", "\n").split("\n")
    for sec in doc.sections:
        assert sec.first_line is not None, sec.heading
        for k, line in enumerate(sec.text.split("\n")):
            assert line == lines[sec.first_line - 1 + k].rstrip(), (sec.heading, k)


def python_definitions(source: str):
    """(qualified name, def/class line) of every top-level definition and method."""
    out = []

    def walk(body, prefix, depth):
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                out.append((prefix + node.name, node.lineno))
                if isinstance(node, ast.ClassDef) and depth < 4:
                    walk(node.body, prefix + node.name + ".", depth + 1)
    walk(ast.parse(source).body, "", 0)
    return out


def check_python_file(path: Path) -> int:
    source = path.read_text(encoding="utf-8")
    doc = read_document(path.read_bytes(), path.name)
    assert doc.format == "py" and doc.warnings == []
    assert_lines_exact(doc, source)
    by_heading = {}
    for sec in doc.sections:
        by_heading.setdefault(sec.heading, []).append(sec)
    defs = python_definitions(source)
    for name, line in defs:
        found = [s for s in by_heading.get((name,), [])
                 if s.first_line <= line < s.first_line + s.text.count("\n") + 1]
        assert found, f"{path.name}: {name} (line {line}) has no section"
        sec = found[0]
        def_line = sec.text.split("\n")[line - sec.first_line].lstrip()
        assert def_line.startswith(("def ", "async def ", "class ")), (name, def_line)
    return len(defs)


def test_python_stdlib_module_is_cut_by_definition():
    path = Path(inspect.getsourcefile(json.decoder))
    doc = read_document(path.read_bytes(), path.name)
    heads = [h for h, _ in sections(doc)]
    assert heads[0] == ""                       # the module docstring and imports first
    assert doc.sections[0].text.startswith('"""')
    assert "JSONDecoder" in heads and "JSONDecoder.decode" in heads
    assert heads.index("JSONDecoder") < heads.index("JSONDecoder.decode")
    assert check_python_file(path) >= 10


@pytest.mark.parametrize("module", ["json.decoder", "json.encoder", "argparse", "dataclasses",
                                    "textwrap", "csv"])
def test_python_stdlib_every_definition_has_its_section(module):
    mod = __import__(module, fromlist=["_"])
    assert check_python_file(Path(inspect.getsourcefile(mod))) > 0


def test_python_this_project_every_definition_has_its_section():
    total = sum(check_python_file(p) for p in sorted(PACKAGE.rglob("*.py")) if p.stat().st_size)
    assert total > 300


def test_python_decorators_and_comments_go_with_their_definition():
    src = ("import x\n\n\n# Helper for the parser.\n@cache\n@other(1)\ndef helper():\n"
           "    return 1\n\n\nclass Parser:\n    \"\"\"Parses.\"\"\"\n\n    limit = 3\n\n"
           "    @property\n    def size(self):\n        return 2\n\n"
           "    async def parse(self):\n        pass\n\n\nif __name__ == '__main__':\n    helper()\n")
    doc = read_document(src.encode(), "p.py")
    assert sections(doc) == [("", 1), ("helper", 4), ("Parser", 11), ("Parser.size", 16),
                             ("Parser.parse", 20), ("", 24)]
    assert doc.sections[1].text.startswith("# Helper for the parser.\n@cache")
    assert_lines_exact(doc, src)


def test_python_definitions_under_if_and_try_are_sections():
    src = ("import os\n\ntry:\n    from _fast import norm\nexcept ImportError:\n"
           "    def norm(p):\n        return p\nelse:\n    def other(p):\n        return p\n\n"
           "if os.name == 'nt':\n    def sep():\n        return '\\\\'\nelse:\n    def sep():\n"
           "        return '/'\n")
    doc = read_document(src.encode(), "paths.py")
    assert sections(doc) == [("", 1), ("norm", 6), ("", 8), ("other", 9), ("", 12), ("sep", 13),
                             ("", 15), ("sep", 16)]
    assert_lines_exact(doc, src)
    path = Path(inspect.getsourcefile(__import__("posixpath")))   # `def normpath` under try/else
    heads = [s.heading for s in read_document(path.read_bytes(), path.name).sections]
    assert heads.count(("normpath",)) >= 1


def test_python_that_does_not_parse_is_cut_by_indentation():
    src = "def ok():\n    return 1\n\n\nclass Broken:\n    def m(self):\n        return (\n"
    doc = read_document(src.encode(), "broken.py")
    assert [h for h, _ in sections(doc)] == ["ok", "Broken", "Broken.m"]
    assert doc.warnings and "syntax error at line" in doc.warnings[0]
    assert_lines_exact(doc, src)


LANGUAGE_CASES = {
    "parser.ts": ('import { x } from "y";\n\n/** Parses things. */\nexport class Parser<T> {\n'
                  '  private pos = 0;\n\n  constructor(private src: string) {}\n\n'
                  '  /** Parse it. */\n  parse(): T {\n    if (this.pos > 0) {\n'
                  '      return null as any;\n    }\n    const s = "{ not a brace";\n'
                  '    return s as any;\n  }\n}\n\nexport function parseArgs(argv: string[]): string[] {\n'
                  '  return argv.filter(a => a !== "{");\n}\n\n'
                  'export const helper = async (a: number) => {\n  return a + 1;\n};\n',
                  [("", 1), ("Parser", 3), ("Parser.constructor", 7), ("Parser.parse", 9),
                   ("parseArgs", 19), ("helper", 23)]),
    "widget.js": ("'use strict';\n\n(function () {\n    const state = {};\n\n"
                  "    // Draw it.\n    function draw(el) {\n        el.textContent = '{';\n    }\n\n"
                  "    const reset = () => {\n        state.n = 0;\n    };\n})();\n",
                  [("", 1), ("draw", 6), ("reset", 11)]),
    # CommonJS, as Express writes it: functions given to properties, a doc comment a blank
    # line above its definition, chained assignments; a call given an arrow is no definition
    "response.js": ("'use strict';\n\nvar res = Object.create(http.ServerResponse.prototype);\n\n"
                    "module.exports = res;\n\n/**\n * Set status `code`.\n *\n * @public\n */\n\n"
                    "res.status = function status(code) {\n  this.statusCode = code;\n  return this;\n"
                    "};\n\n/**\n * Set Content-Type.\n */\n\nres.contentType =\n"
                    "res.type = function contentType(type) {\n  return this.set('Content-Type', type);\n"
                    "};\n\nView.prototype.lookup = function lookup(name) {\n  return name;\n};\n\n"
                    "exports.compileETag = (val) => {\n  return val;\n};\n\n"
                    "module.exports.helper = async function () {\n  return 1;\n};\n\n"
                    "module.exports = function serveStatic(root) {\n  return root;\n};\n\n"
                    "const server = app.listen(0, () => {\n  console.log('{');\n});\n\n"
                    "const Button = memo((props) => {\n  return props.label;\n});\n",
                    [("", 1), ("res.status", 7), ("res.type", 18), ("View.lookup", 27),
                     ("compileETag", 31), ("helper", 35), ("serveStatic", 39), ("", 43),
                     ("Button", 47)]),
    "server.go": ('package main\n\nimport "fmt"\n\n// Server serves.\ntype Server struct {\n'
                  '\taddr string\n}\n\n// Start starts it.\nfunc (s *Server) Start() error {\n'
                  '\tfmt.Println("{")\n\treturn nil\n}\n\nfunc main() {\n\ts := &Server{}\n'
                  '\ts.Start()\n}\n',
                  [("", 1), ("Server", 5), ("Server.Start", 10), ("main", 16)]),
    "point.rs": ("use std::fmt;\n\n/// A point.\n#[derive(Debug)]\npub struct Point { x: i32 }\n\n"
                 "impl Point {\n    pub fn new(x: i32) -> Self {\n        let c = '{';\n"
                 "        Point { x }\n    }\n}\n\nimpl<'a> fmt::Display for Point {\n"
                 "    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {\n"
                 "        write!(f, \"{}\", self.x)\n    }\n}\n\npub fn main() {}\n",
                 [("", 1), ("Point", 3), ("Point", 7), ("Point.new", 8),
                  ("Point", 14), ("Point.fmt", 15), ("main", 20)]),
    "Thing.java": ("package x;\n\n/**\n * A thing.\n */\npublic class Thing implements Runnable {\n"
                   "    private final int n;\n\n    public Thing(int n) {\n        this.n = n;\n    }\n\n"
                   "    @Override\n    public void run() {\n        System.out.println(\"}\");\n    }\n}\n",
                   [("", 1), ("Thing", 3), ("Thing.Thing", 9), ("Thing.run", 13)]),
    "repo.kt": ("package x\n\nclass Repo {\n    fun find(id: Int): String? {\n        return null\n"
                "    }\n\n    fun one() = 1\n}\n\nfun main() {\n    println(\"x\")\n}\n",
                [("", 1), ("Repo", 3), ("Repo.find", 4), ("Repo.one", 8), ("main", 11)]),
    "add.c": ("#include <stdio.h>\n\nstruct point {\n    int x, y;\n};\n\n/* Add two. */\nstatic int\n"
              "add(int a, int b)\n{\n    return a + b;\n}\n\nint main(int argc, char **argv) {\n"
              "    printf(\"%d {\\n\", add(1, 2));\n    return 0;\n}\n",
              [("", 1), ("point", 3), ("add", 7), ("main", 14)]),
    "shape.hpp": ("namespace geo {\n\nclass Shape {\npublic:\n    virtual ~Shape() {}\n"
                  "    double area() const {\n        return 0;\n    }\n};\n\n}  // namespace geo\n",
                  [("", 1), ("Shape", 3), ("Shape.~Shape", 5), ("Shape.area", 6)]),
    "Parser.cs": ("using System;\n\nnamespace App.Core\n{\n    public class Parser\n    {\n"
                  "        public int Parse(string s)\n        {\n            return 1;\n        }\n"
                  "    }\n}\n",
                  [("", 1), ("Parser", 5), ("Parser.Parse", 7)]),
    "tools.rb": ('require "json"\n\nmodule Tools\n  # Parses.\n  class Parser\n'
                 "    def initialize(src)\n      @src = src\n    end\n\n    def parse\n"
                 "      if @src\n        1\n      end\n    end\n  end\nend\n",
                 [("", 1), ("Tools", 3), ("Tools.Parser", 4), ("Tools.Parser.initialize", 6),
                  ("Tools.Parser.parse", 10)]),
    "greeter.php": ("<?php\nnamespace App;\n\nclass Greeter {\n"
                    "    public function hello(string $name): string {\n"
                    "        return \"Hello {$name}\";\n    }\n}\n\nfunction helper() {\n    return 1;\n}\n",
                    [("", 1), ("Greeter", 4), ("Greeter.hello", 5), ("helper", 10)]),
    "point.swift": ("import Foundation\n\nstruct Point {\n    var x: Int\n\n    init(x: Int) {\n"
                    "        self.x = x\n    }\n\n    func moved(by d: Int) -> Point {\n"
                    "        return Point(x: x + d)\n    }\n}\n",
                    [("", 1), ("Point", 3), ("Point.init", 6), ("Point.moved", 10)]),
    "deploy.sh": ('#!/bin/sh\nset -e\n\n# Say hi.\ngreet() {\n  echo "hi ${#1}"\n}\n\n'
                  "function bye {\n  echo bye\n}\n\ngreet x\n",
                  [("", 1), ("greet", 4), ("bye", 9), ("", 13)]),
    "schema.sql": ("-- users\nCREATE TABLE users (\n  id integer primary key,\n  name text\n);\n\n"
                   "CREATE INDEX users_name ON users(name);\n\n"
                   "CREATE OR REPLACE FUNCTION add(a int, b int) RETURNS int AS $$\nBEGIN\n"
                   "  RETURN a + b;\nEND;\n$$ LANGUAGE plpgsql;\n",
                   [("TABLE users", 1), ("INDEX users_name", 7), ("FUNCTION add", 9)]),
    "mod.lua": ("local M = {}\n\nfunction M.add(a, b)\n  if a then\n    return a + b\n  end\nend\n\n"
                "local function helper()\n  return 1\nend\n\nreturn M\n",
                [("", 1), ("M.add", 3), ("helper", 9), ("", 13)]),
    "Util.pm": ("package Util;\nuse strict;\n\n# Trim it.\nsub trim {\n    my ($s) = @_;\n"
                "    $s =~ s{^\\s+}{};\n    return $#ARGV;\n}\n\n1;\n",
                [("", 1), ("trim", 4), ("", 11)]),
    "stats.R": ("library(x)\n\nadd <- function(a, b) {\n  a + b\n}\n\nmul = function(a, b) {\n"
                "  a * b\n}\n",
                [("", 1), ("add", 3), ("mul", 7)]),
    # as gawk's library files are written: a header comment, functions, a braced regex
    "round.awk": ("# round.awk --- do normal rounding\n#\n# Public Domain\n\n"
                  "function round(x,   ival, aval, fraction)\n{\n   ival = int(x)    # it's {\n"
                  "   if (ival == x)\n       return ival\n   return ival + 1\n}\n\n"
                  "func half(x) { return x / 2 }\n\n{ print round($1) }\n",
                  [("", 1), ("round", 5), ("half", 13), ("", 15)]),
}


@pytest.mark.parametrize("name", sorted(LANGUAGE_CASES))
def test_languages_by_table(name):
    src, expected = LANGUAGE_CASES[name][0], LANGUAGE_CASES[name][1]
    doc = read_document(src.encode(), name)
    assert sections(doc) == expected
    assert_lines_exact(doc, src)


@pytest.mark.parametrize("name, fmt", [("a.tsx", "ts"), ("a.jsx", "js"), ("a.h", "c"),
                                       ("a.cc", "cpp"), ("a.kts", "kt"), ("a.bash", "sh"),
                                       ("Rakefile", "rb"), ("a.pyi", "py"), ("a.awk", "awk")])
def test_format_is_the_language(name, fmt):
    assert read_document(b"x = 1\n", name).format == fmt


@pytest.mark.parametrize("name, head, title", [
    ("wordfreq.awk", "# wordfreq.awk --- print list of word frequencies\n#\n",
     "wordfreq.awk \u2014 print list of word frequencies"),
    ("shellquote.awk", "# shell_quote --- quote an argument for passing to the shell\n",
     "shell_quote \u2014 quote an argument for passing to the shell"),
    ("subr.el.sh", ";;; subr.el --- basic Lisp subroutines  -*- lexical-binding:t -*-\n",
     "subr.el \u2014 basic Lisp subroutines"),
    ("backup.sh", "#!/bin/sh\n# backup.sh - copy the notes to the disk\n",
     "backup.sh \u2014 copy the notes to the disk"),
    ("add.c", "/* add.c -- add two numbers */\n", "add.c \u2014 add two numbers"),
    ("todo.sh", "# TODO - fix the paths\n", None),        # no program's name: the file's
    ("ver.sh", "# v1.2 - fixes\n", None),
    ("later.sh", "\n\n# later.sh --- a header below the top\n", None),
    ("mode.py", "# -*- coding: utf-8 -*-\n", None),
])
def test_a_header_comment_naming_the_program_is_its_title(name, head, title):
    """A program's first comment often names it and says what it does (GNU's
    `# name --- what it does`); that says more than the file's name."""
    doc = read_document((head + "x = 1\n").encode(), name)
    assert doc.title == (title or read_document(b"x = 1\n", name).title)
    assert "\u2014" not in read_document(b"x = 1\n", name).title


def test_unrecognised_code_is_one_section_cut_at_line_ends():
    src = "".join(f"value_{i} = compute({i}, {i + 1}); other_{i} = 2; more: {i}.\n" for i in range(120))
    doc = read_document(src.encode(), "data.go")
    assert sections(doc) == [("", 1)]
    passages = split_document(doc)
    assert len(passages) > 3
    for p in passages:
        assert p.text.startswith("value_") and p.text.endswith(".")   # whole lines only
        first, last = p.lines
        assert p.text.split("\n")[0] == src.split("\n")[first - 1]
        assert p.text.split("\n")[-1] == src.split("\n")[last - 1]


def test_a_short_definition_is_one_passage_and_a_long_one_is_cut_at_blank_lines():
    short = "def short():\n    a = 1\n\n    b = 2\n\n    return a + b\n"
    body = "\n\n".join(f"    step_{i} = work({i})\n    check(step_{i})" for i in range(60))
    long = f"def long():\n{body}\n"
    src = short + "\n\n" + long
    doc = read_document(src.encode(), "m.py")
    passages = split_document(doc)
    assert [p.heading for p in passages].count(("short",)) == 1
    longs = [p for p in passages if p.heading == ("long",)]
    assert len(longs) > 1
    lines = src.split("\n")
    for p in longs:   # cut at blank lines; a passage starts at its first non-blank character
        assert p.text.startswith(("def long", "step_"))
        assert p.text.split("\n")[0] == lines[p.lines[0] - 1].lstrip()
        assert p.text.split("\n")[-1] == lines[p.lines[1] - 1]
    assert longs[0].lines[0] == src.split("\n").index("def long():") + 1


def test_binary_with_a_code_name_is_skipped():
    with pytest.raises(SkipFile, match="binary"):
        read_document(b"\x7fELF\x02\x01\x01" + bytes(200), "tool.sh")


def test_text_cap_applies_to_code():
    src = "".join(f"def f{i}():\n    return {i}\n\n\n" for i in range(500))
    doc = read_document(src.encode(), "many.py", Limits(max_text_chars=2000))
    assert len(doc.text) <= 2000 and doc.warnings == ["text cut at 2,000 characters"]


# ---- search over a real package, indexed as a folder

def test_every_definition_of_a_real_package_is_found_by_name(tmp_path, open_ix):
    """Copy the standard library's json package, index it, search each name.

    Each function, class and method is found in its own file. For most the
    best passage is the definition itself, with lines that hold its def or
    class line; the others lose to a shorter passage that calls them.
    """
    src = Path(inspect.getsourcefile(json)).parent
    root = tmp_path / "json"
    shutil.copytree(src, root, ignore=shutil.ignore_patterns("__pycache__", "tests"))
    ix = open_ix()
    report = ix.index(root, label="json")
    assert report.skipped == []
    defs = [(p.relative_to(root).as_posix(), name, line)
            for p in sorted(root.glob("*.py"))
            for name, line in python_definitions(p.read_text(encoding="utf-8"))]
    assert len(defs) > 20
    exact = 0
    for rel, name, line in defs:
        hits = [h for h in ix.search(name, limit=50).results if h.document["path"] == rel]
        assert hits, f"{name} not found in {rel}"
        hit = hits[0]
        assert hit.lines is not None and hit.document["format"] == "py"
        if hit.section == [name] and hit.lines[0] <= line <= hit.lines[1]:
            exact += 1
    assert exact >= 0.5 * len(defs), f"{exact} of {len(defs)}"   # 15 of 26 when written


def test_type_filter_is_the_language(tmp_path, open_ix):
    root = tmp_path / "mixed"
    root.mkdir()
    (root / "parse.py").write_text("def parse_args(argv):\n    return argv\n")
    (root / "parse.go").write_text("package main\n\nfunc parseArgs(argv []string) {}\n")
    (root / "notes.md").write_text("# Notes\n\nparse_args is in parse.py\n")
    ix = open_ix()
    ix.index(root, label="mixed")
    hits = ix.search("parse_args", type="py").results
    assert [h.document["path"] for h in hits] == ["parse.py"]
    assert hits[0].section == ["parse_args"] and hits[0].lines == [1, 2]
    assert [h.document["path"] for h in ix.search("parseArgs", type=".go").results] == ["parse.go"]


def test_every_definition_starts_a_passage_headed_by_its_name():
    """At the passage level, on this whole package: the def line's passage is the definition's."""
    for path in sorted(PACKAGE.rglob("*.py")):
        if not path.stat().st_size:
            continue
        source = path.read_text(encoding="utf-8")
        passages = split_document(read_document(path.read_bytes(), path.name))
        for name, line in python_definitions(source):
            holding = [p for p in passages if p.lines[0] <= line <= p.lines[1]]
            assert holding and holding[0].heading == (name,), (path.name, name)


def test_minified_or_generated_code_is_skipped_with_a_reason():
    # A search index written as one line of JavaScript (as documentation builders
    # write searchindex.js), and a minified stylesheet.
    entries = ",".join(f'"term{i}":[{i},{i + 1}]' for i in range(800))
    bundle = "Search.setIndex({" + entries + "})\n"
    css = "".join(f".c{i}{{margin:{i}px;padding:{i}px}}" for i in range(400)) + "\n"
    for data, name in ((bundle, "searchindex.js"), (css, "site.min.css")):
        with pytest.raises(SkipFile, match="minified or generated code"):
            read_document(data.encode(), name)


def test_code_with_some_long_lines_is_still_read():
    # Hand-written code may hold a long line (a data literal, a URL): lines are
    # judged by their average, not by the longest.
    src = "const TABLE = [" + ", ".join(str(i) for i in range(1500)) + "];\n" + \
        "".join(f"function f{i}(a) {{\n  return a + {i};\n}}\n" for i in range(60))
    doc = read_document(src.encode(), "table.js")
    assert len(doc.sections) > 50
