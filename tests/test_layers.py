"""Layers with one direction of dependency, and no import cycle anywhere in the package.

Floors, lowest first (a module may import its own floor or below):

    0  version, errors, config, document, docref, porter, unicode61, records
    1  analysis, language, synonyms, wordforms, query, evaluation
    2  formats, passages, phrases, redact
    3  store
    4  walk, workers, indexer, search (with copies, evidence, snippets, kinds), spelling, suggest, graph,
       relocate, reading
    5  api (the facade), reports (what its methods other than search return)
    6  surfaces.render (text, json, client), surfaces.failures
    7  surfaces.args (the parser), surfaces.local_backend (the REPL's backend)
    8  surfaces.verbs (the verb handlers)
    9  surfaces.repl, surfaces.mcp (with mcp_tools, mcp_fit)
   10  surfaces.cli (the entry point: nothing in surfaces/ imports it)
   11  __main__
   12  the package's own __init__
"""
from __future__ import annotations

import ast
from pathlib import Path
from typing import Dict, Iterator, List, Set, Tuple

PACKAGE = Path(__file__).resolve().parents[1] / "glean_personal"

LAYERS = {
    "version": 0, "errors": 0, "config": 0, "document": 0, "docref": 0, "porter": 0, "unicode61": 0,
    "records": 0, "patterns": 0,
    "analysis": 1, "language": 1, "synonyms": 1, "wordforms": 1, "query": 1, "evaluation": 1,
    "formats": 2, "passages": 2, "phrases": 2, "redact": 2,
    "store": 3,
    "walk": 4, "workers": 4, "indexer": 4, "search": 4, "copies": 4, "evidence": 4, "snippets": 4, "kinds": 4,
    "spelling": 4, "suggest": 4, "graph": 4, "relocate": 4,
    "reading": 4,
    "api": 5, "reports": 5,
    "surfaces.render": 6, "surfaces.failures": 6,
    "surfaces.args": 7, "surfaces.local_backend": 7,
    "surfaces.verbs": 8,
    "surfaces.repl": 9, "surfaces.mcp": 9, "surfaces.mcp_tools": 9, "surfaces.mcp_fit": 9,
    "surfaces.cli": 10, "surfaces": 10,
    "__main__": 11, "__init__": 12,
}


def _name(path: Path) -> str:
    """A module's dotted name inside the package ('surfaces.render.text'; '__init__' for the root)."""
    parts = list(path.relative_to(PACKAGE).with_suffix("").parts)
    if parts[-1] == "__init__" and len(parts) > 1:
        parts.pop()
    return ".".join(parts)


MODULES = {_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _layer(name: str) -> int:
    parts = name.split(".")
    for n in range(len(parts), 0, -1):
        key = ".".join(parts[:n])
        if key in LAYERS:
            return LAYERS[key]
    raise AssertionError(f"{name} has no floor in tests/test_layers.py: give it one")


def _package_of(name: str) -> List[str]:
    path = MODULES[name]
    parts = name.split(".") if name != "__init__" else []
    return parts if path.name == "__init__.py" else parts[:-1]


def _known(parts: List[str]) -> str:
    """The package module `parts` names ('' → the root package)."""
    return ".".join(parts) if parts else "__init__"


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or \
        (isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _nodes(tree: ast.AST, type_checking: bool) -> Iterator[ast.AST]:
    """Every node, with or without the bodies of `if TYPE_CHECKING:` (never run)."""
    stack = [tree]
    while stack:
        node = stack.pop()
        yield node
        if not type_checking and isinstance(node, ast.If) and _is_type_checking(node):
            stack.extend(node.orelse)
            continue
        stack.extend(ast.iter_child_nodes(node))


def imports(name: str, type_checking: bool = True) -> Iterator[Tuple[int, str]]:
    """(line, module) for every import of a package module by `name`, lazy ones included."""
    tree = ast.parse(MODULES[name].read_text(encoding="utf-8"))
    for node in _nodes(tree, type_checking):
        if isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if parts[0] == "glean_personal":
                    yield node.lineno, _known(parts[1:])
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                parts = (node.module or "").split(".")
                if parts[0] != "glean_personal":
                    continue
                base = parts[1:]
            else:
                here = _package_of(name)
                base = here[:len(here) - (node.level - 1)] + \
                    (node.module.split(".") if node.module else [])
            for alias in node.names:
                sub = _known(base + [alias.name])
                yield node.lineno, sub if sub in MODULES else _known(base)


def test_every_module_has_a_floor():
    for name in MODULES:
        _layer(name)


def test_no_module_imports_from_a_higher_layer():
    bad = []
    for name in MODULES:
        mine = _layer(name)
        for line, target in imports(name):
            assert target in MODULES, f"{name}:{line} imports {target}, which does not exist"
            if _layer(target) > mine:
                bad.append(f"{name}:{line} imports {target}")
    assert bad == []


def test_nothing_in_surfaces_imports_the_entry_point():
    for name in MODULES:
        if name.startswith("surfaces.") and name != "surfaces.cli":
            assert "surfaces.cli" not in {t for _, t in imports(name)}, name


def _cycle(graph: Dict[str, Set[str]]) -> List[str]:
    """One import cycle in `graph` (as a path that ends where it starts), or []."""
    state: Dict[str, int] = {}   # 1: on the current path, 2: done
    path: List[str] = []

    def visit(node: str) -> List[str]:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return []

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return []


def test_the_cycle_finder_finds_a_cycle():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": set()}) == []


def test_no_import_cycle():
    """Not even through an import inside a function: `if TYPE_CHECKING:` blocks alone are exempt."""
    graph = {name: {t for _, t in imports(name, type_checking=False) if t != name}
             for name in MODULES}
    assert _cycle(graph) == []


def test_only_the_store_speaks_sql():
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).parts
        if rel[0] == "store":
            continue
        text = path.read_text(encoding="utf-8")
        assert ".execute(" not in text and "import sqlite3" not in text, path.name
