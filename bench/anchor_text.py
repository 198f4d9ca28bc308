"""What link anchor text could add to a golden set's paraphrase questions.

Collects, for every HTML page of a tree, the links that other pages of the
tree make to it: the anchor text, the link's `title` attribute and the
sentence around the link. Links in navigation (nav, header, footer, Sphinx
sidebars and relbars), from link-dense pages (tables of contents and general
indexes, where more than half the words are link text), footnote marks and
generic anchors ("next", "index", "¶" ...) are left out. It then prints, for
each paraphrase question of a golden set, which of its query stems are in a
relevant page's in-link text but not in the page itself: the only words a
field of anchor text can add to the page. docs/search.md ("what was kept and
dropped") gives the measured effect on ranking, also of the field as it was
built for questions in plain words (not kept).

    python bench/anchor_text.py bench/golden/git-doc.json --root /usr/share/doc/git/html --skip index.html
    python bench/anchor_text.py bench/golden/python-doc.json --root /usr/share/doc/python3.11/html \\
        --skip _sources --skip _static
"""
from __future__ import annotations

import argparse
import json
import os
import posixpath
import re
import sys
from collections import defaultdict
from html.parser import HTMLParser
from typing import Dict, List, Set, Tuple
from urllib.parse import unquote, urlsplit

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from glean_personal.analysis import stem, tokenize  # noqa: E402
from glean_personal.formats import extract  # noqa: E402
from glean_personal.query import parse  # noqa: E402

GENERIC = frozenset("""next previous prev index ¶ modules home up top here this back contents
    glossary search source link more python documentation""".split()) | {
    "table of contents", "this page", "show source", "report a bug", "previous topic",
    "next topic", "history and license", "click here", "read more"}
FOOTNOTE = re.compile(r"^\[\d+\]$|^\(in module .*\)$|^\(.*\b(?:method|attribute|function|class|"
                      r"exception|module|variable|option)\)$")
NAV_CLASSES = frozenset({"sphinxsidebar", "sphinxsidebarwrapper", "related", "footer", "mobile-nav",
                         "nav-content", "breadcrumbs"})
NAV_TAGS = frozenset({"nav", "footer", "header"})
BLOCKS = frozenset("p li dd dt td th pre h1 h2 h3 h4 h5 h6 div blockquote caption".split())
VOID = frozenset("area base br col embed hr img input keygen link meta param source track wbr".split())
SENTENCE_GAP = re.compile(r"(?<=[.!?;:])\s+(?=[A-Z(`\"'])")
LINK_DENSE = 0.5

Link = Tuple[str, str, str, str]   # href, title attribute, anchor text, sentence


class _Links(HTMLParser):
    """The links of one page outside its navigation, each with the sentence around it."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: List[Tuple[str, bool]] = []
        self.nav = self.skip = 0
        self.blocks: List[Tuple[List[str], list]] = []
        self.link = None
        self.links: List[Link] = []
        self.words = self.linked = 0

    def _offset(self) -> int:
        return sum(len(x) for x in self.blocks[-1][0]) if self.blocks else 0

    def handle_starttag(self, tag, attrs):
        if tag in VOID:
            return
        a = dict(attrs)
        nav = (tag in NAV_TAGS or bool(set((a.get("class") or "").split()) & NAV_CLASSES)
               or a.get("role") in ("navigation", "search") or a.get("id") in ("header", "footer"))
        self.stack.append((tag, nav))
        self.nav += nav
        self.skip += tag in ("script", "style")
        if tag in BLOCKS:
            self.blocks.append(([], []))
        if tag == "a" and a.get("href") is not None and not self.nav:
            self.link = [a["href"], a.get("title") or "", [], self._offset()]

    def handle_endtag(self, tag):
        if tag in VOID or tag not in (t for t, _ in self.stack):
            return
        while True:
            t, nav = self.stack.pop()
            self.nav -= nav
            self.skip -= t in ("script", "style")
            if t == "a" and self.link is not None:
                href, title, parts, start = self.link
                self.link = None
                anchor = " ".join("".join(parts).split())
                if self.blocks:
                    self.blocks[-1][1].append((href, title, anchor, start, self._offset()))
                else:
                    self.links.append((href, title, anchor, ""))
            if t in BLOCKS and self.blocks:
                parts, links = self.blocks.pop()
                text = "".join(parts)
                gaps = [m.span() for m in SENTENCE_GAP.finditer(text)]
                for href, title, anchor, start, end in links:
                    lo = max([e for s, e in gaps if e <= start] or [0])
                    hi = min([s for s, e in gaps if s >= end] or [len(text)])
                    self.links.append((href, title, anchor, " ".join(text[lo:hi].split())))
                if self.blocks:
                    self.blocks[-1][0].append(" " + text + " ")
            if t == tag:
                return

    def handle_data(self, data):
        if self.skip or self.nav:
            return
        if self.blocks:
            self.blocks[-1][0].append(data)
        self.words += len(data.split())
        if self.link is not None:
            self.link[2].append(data)
            self.linked += len(data.split())


def pages(root: str, skip: Set[str]) -> List[str]:
    out = []
    for folder, dirs, files in os.walk(root, followlinks=True):
        dirs[:] = sorted(d for d in dirs if d not in skip)
        rel = os.path.relpath(folder, root).replace(os.sep, "/")
        out += [posixpath.normpath(posixpath.join(rel, f)) for f in files
                if f.endswith(".html") and f not in skip]
    return sorted(out)


def in_links(root: str, skip: Set[str]) -> Dict[str, List[Link]]:
    """Each page's links from the other pages of the tree (source, title, anchor, sentence)."""
    indexed = pages(root, skip)
    known = set(indexed)
    out: Dict[str, List[Link]] = defaultdict(list)
    for src in indexed:
        parser = _Links()
        with open(os.path.join(root, src), "rb") as fh:
            parser.feed(fh.read().decode("utf-8", "replace"))
        if parser.linked > LINK_DENSE * max(1, parser.words):
            continue   # a table of contents or an index page: its links are navigation
        for href, title, anchor, sentence in parser.links:
            url = urlsplit(href)
            if url.scheme or url.netloc or not url.path:
                continue
            target = posixpath.normpath(posixpath.join(posixpath.dirname(src), unquote(url.path)))
            if target == src or target not in known or len(anchor) < 2:
                continue
            if anchor.lower() in GENERIC or FOOTNOTE.match(anchor):
                continue
            out[target].append((src, title, anchor, sentence))
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("golden")
    ap.add_argument("--root", required=True)
    ap.add_argument("--skip", action="append", default=[],
                    help="a folder or file name left out of the tree (repeatable)")
    ap.add_argument("--json", action="store_true", help="print every page's in-links instead")
    args = ap.parse_args(argv)
    links = in_links(args.root, set(args.skip))
    if args.json:
        json.dump(links, sys.stdout, indent=1)
        return 0
    print(f"{sum(map(len, links.values()))} links into {len(links)} pages")
    cases = [c for c in json.load(open(args.golden, encoding="utf-8"))["cases"]
             if c["category"] == "paraphrase"]
    gaining = total = 0
    for case in cases:
        wanted = {s for term in parse(case["query"]).terms for s in term.stems()}
        for rel in case["relevant"]:
            doc = extract(os.path.join(args.root, rel))
            own = {stem(w) for w in tokenize(doc.title + " " + doc.text)}
            text = " ".join(" ".join(link[1:]) for link in links.get(rel, ()))
            new = sorted((wanted & {stem(w) for w in tokenize(text)}) - own)
            missing = sorted(wanted - own)
            total += 1
            gaining += bool(new)
            print(f"{case['id']:28s} {rel:36s} {len(links.get(rel, ())):4d} in-links; "
                  f"page lacks {missing}; in-links add {new}")
    print(f"{gaining} of {total} relevant pages gain a query word from their in-links")
    return 0


if __name__ == "__main__":
    sys.exit(main())
