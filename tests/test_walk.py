"""The folder walk: what is a candidate, what is skipped and why, what is passed over."""
from __future__ import annotations

import gzip
import os
from pathlib import Path

import pytest

from glean_personal.reports import skip_kinds
from glean_personal.walk import Candidate, Skipped, is_secret, storable, walk, walk_one


def entries(root: Path, **kw):
    out = list(walk(str(root), **kw))
    return ({c.path: c for c in out if isinstance(c, Candidate)},
            {s.path: s.reason for s in out if isinstance(s, Skipped)})


def write(root: Path, rel: str, text: str = "words") -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_supported_files_are_candidates_with_size_and_mtime(tmp_path):
    p = write(tmp_path, "notes/a.md", "hello")
    os.utime(p, ns=(1, 1_600_000_000_123_456_789))
    found, skipped = entries(tmp_path)
    assert list(found) == ["notes/a.md"]
    c = found["notes/a.md"]
    assert (c.size, c.mtime_ns, c.fs_path) == (5, 1_600_000_000_123_456_789, str(p))
    assert skipped == {}


@pytest.mark.parametrize("rel", [
    ".git/config.md", "node_modules/pkg/README.md", "__pycache__/x.txt", ".venv/lib/a.md",
    "venv/a.md", "dist/a.md", "build/a.md", "~$report.docx", "deep/.tox/a.md",
    ".mypy_cache/a.json", ".pytest_cache/README.md", ".DS_Store",
])
def test_default_excludes_are_neither_read_nor_reported(tmp_path, rel):
    write(tmp_path, rel)
    write(tmp_path, "kept.md")
    found, skipped = entries(tmp_path)
    assert list(found) == ["kept.md"] and skipped == {}


def test_user_excludes_and_includes_filter_by_name_or_path(tmp_path):
    for rel in ("a.md", "b.txt", "drafts/c.md", "drafts/deep/d.md", "keep/e.md"):
        write(tmp_path, rel)
    found, _ = entries(tmp_path, excludes=["drafts"])
    assert sorted(found) == ["a.md", "b.txt", "keep/e.md"]
    found, _ = entries(tmp_path, includes=["*.md"], excludes=["keep/**"])
    assert sorted(found) == ["a.md", "drafts/c.md", "drafts/deep/d.md"]
    found, _ = entries(tmp_path, includes=["drafts*"])          # the path matches, not the name
    assert sorted(found) == ["drafts/c.md", "drafts/deep/d.md"]
    found, _ = entries(tmp_path, excludes=["dr*s", "*deep*"])    # a wildcard name prunes a folder
    assert sorted(found) == ["a.md", "b.txt", "keep/e.md"]
    found, _ = entries(tmp_path, excludes=["d*/c.md", "k*e.md"])  # …or matches across folders
    assert sorted(found) == ["a.md", "b.txt", "drafts/deep/d.md"]


@pytest.mark.parametrize("rel", [
    ".env", "prod.env", "server.pem", "tls.key", "cert.p12", "cert.pfx", "id_rsa", "id_ecdsa",
    "id_ed25519", "credentials.json", "secrets.yaml", "secrets.yml", ".netrc", ".pgpass",
    ".ssh/notes.md", ".aws/config.json", ".gnupg/x.txt", "deep/down/.ssh/readme.md",
])
def test_secret_looking_names_are_reported_never_candidates_whatever_the_includes(tmp_path, rel):
    write(tmp_path, rel, "SECRET")
    found, skipped = entries(tmp_path, includes=["*", "**"])
    assert found == {}
    assert len(skipped) == 1
    (path, reason), = skipped.items()
    assert rel.startswith(path) and reason.startswith("secret-looking")
    assert is_secret(rel)


def test_a_secret_folder_is_reported_once_and_never_entered(tmp_path):
    for i in range(3):
        write(tmp_path, f".ssh/key{i}.md")
    _, skipped = entries(tmp_path)
    assert skipped == {".ssh": "secret-looking folder: never read"}


def test_a_sphinx_builds_copies_of_its_sources_are_reported_once_and_never_entered(tmp_path):
    # Sphinx's HTML build: pages, its search index and `_sources/` (the pages' sources
    # again, for "Show Source"); the pages hold the text, so the copies are skipped.
    write(tmp_path, "html/library/os.html", "<h1>os</h1>")
    write(tmp_path, "html/searchindex.js", "Search.setIndex({})")
    write(tmp_path, "html/_sources/library/os.rst.txt", "os\n==\n")
    write(tmp_path, "notes/_sources/draft.md", "a folder of my own named so")
    found, skipped = entries(tmp_path)
    assert "html/_sources" in skipped and "Sphinx" in skipped["html/_sources"]
    assert not [p for p in found if p.startswith("html/_sources")]
    assert "notes/_sources/draft.md" in found           # no search index beside it
    assert "html/library/os.html" in found
    # indexed as a folder of its own, the sources are read
    found, _ = entries(tmp_path / "html" / "_sources")
    assert list(found) == ["library/os.rst.txt"]
    # one file asked for by name is judged the same way
    assert isinstance(walk_one(str(tmp_path), "html/_sources/library/os.rst.txt"), Skipped)
    assert isinstance(walk_one(str(tmp_path), "notes/_sources/draft.md"), Candidate)


def test_a_sphinx_builds_theme_files_are_reported_once_and_never_entered(tmp_path):
    # `_static/`: the theme's style sheets and scripts, and data its scripts read;
    # `_modules/`: the documented modules' source code as pages
    write(tmp_path, "html/glossary.html", "<h1>Glossary</h1>")
    write(tmp_path, "html/searchindex.js", "Search.setIndex({})")
    write(tmp_path, "html/_static/basic.css", "div.body { margin: 0 }")
    write(tmp_path, "html/_static/glossary.json", '{"MRO": "method resolution order"}')
    write(tmp_path, "html/_modules/django/db.html", "<pre>class Model: pass</pre>")
    write(tmp_path, "site/_static/notes.md", "a folder of my own named so")
    found, skipped = entries(tmp_path)
    assert "html/_static" in skipped and "theme" in skipped["html/_static"]
    assert not [p for p in found if p.startswith(("html/_static", "html/_modules"))]
    assert "source code" in skipped["html/_modules"]
    assert "site/_static/notes.md" in found and "html/glossary.html" in found
    assert isinstance(walk_one(str(tmp_path), "html/_static/glossary.json"), Skipped)
    assert isinstance(walk_one(str(tmp_path), "site/_static/notes.md"), Candidate)


def test_a_sphinx_build_without_its_search_index_is_told_by_its_index_and_search_pages(tmp_path):
    # Debian's bind9-doc: the BIND manual's `arm/` keeps Sphinx's `genindex.html`,
    # `search.html` and `_static/` (here nested as `_static/_static/`), not its
    # `searchindex.js`; jQuery then came up among the answers to DNS questions.
    write(tmp_path, "arm/chapter3.html", "<h1>3. Configurations and Zone Files</h1>")
    write(tmp_path, "arm/genindex.html", "<h1>Index</h1>")
    write(tmp_path, "arm/search.html", '<div id="search-results"></div>')
    write(tmp_path, "arm/_static/_static/jquery.js", "/*! jQuery v3.6.0 */ function(e){}")
    write(tmp_path, "arm/_static/_static/css/badge_only.css", ".fa { font-family: x }")
    # one of the two pages alone marks nothing
    write(tmp_path, "site/search.html", "<h1>Search my site</h1>")
    write(tmp_path, "site/_static/notes.md", "a folder of my own named so")
    found, skipped = entries(tmp_path)
    assert "arm/_static" in skipped and "theme" in skipped["arm/_static"]
    assert not [p for p in found if p.startswith("arm/_static")]
    assert "arm/chapter3.html" in found and "arm/genindex.html" in found
    assert "site/_static/notes.md" in found
    assert isinstance(walk_one(str(tmp_path), "arm/_static/_static/jquery.js"), Skipped)
    assert isinstance(walk_one(str(tmp_path), "site/_static/notes.md"), Candidate)


def test_walk_and_walk_one_judge_an_odd_searchindex_alike(tmp_path):
    # A folder named searchindex.js marks nothing; a link of that name marks the build
    # (never followed). `index FILE` read `a/_static/n.md` that `index` skipped.
    write(tmp_path, "a/searchindex.js/x.txt", "a folder of that name")
    write(tmp_path, "a/_static/n.md", "notes")
    write(tmp_path, "b/_static/n.md", "notes")
    os.symlink("../missing", tmp_path / "b" / "searchindex.js")
    found, skipped = entries(tmp_path)
    assert "a/_static/n.md" in found and "b/_static" in skipped
    assert isinstance(walk_one(str(tmp_path), "a/_static/n.md"), Candidate)
    assert isinstance(walk_one(str(tmp_path), "b/_static/n.md"), Skipped)


def test_a_pages_source_and_data_copy_beside_it_are_skipped(tmp_path):
    # Git's HTML manual: git-reset.txt beside git-reset.html; Node.js's: fs.md and
    # fs.json.gz beside fs.html. The page is read; a source with no page is too.
    write(tmp_path, "git/git-reset.html", "<h1>git-reset</h1>")
    write(tmp_path, "git/git-reset.txt", "git-reset(1)\n============\n")
    write(tmp_path, "git/blame-options.txt", "an included fragment, no page of its own")
    write(tmp_path, "node/fs.html", "<h1>File system</h1>")
    write(tmp_path, "node/fs.md", "# File system")
    (tmp_path / "node" / "fs.json.gz").write_bytes(gzip.compress(b'{"source": "fs.md"}'))
    found, skipped = entries(tmp_path)
    assert sorted(found) == ["git/blame-options.txt", "git/git-reset.html", "node/fs.html"]
    for path, page in (("git/git-reset.txt", "git-reset.html"), ("node/fs.md", "fs.html"),
                       ("node/fs.json.gz", "fs.html")):
        assert f"({page})" in skipped[path], path
        assert isinstance(walk_one(str(tmp_path), path), Skipped)
    assert isinstance(walk_one(str(tmp_path), "git/blame-options.txt"), Candidate)
    # a page the filters leave out does not stand for its source
    found, _ = entries(tmp_path, includes=["*.md"])
    assert list(found) == ["node/fs.md"]
    assert isinstance(walk_one(str(tmp_path), "node/fs.md", includes=["*.md"]), Candidate)


def test_a_manuals_pdf_beside_its_html_is_skipped(tmp_path):
    # Octave's manual as Debian installs it: octave.pdf beside octave.html/, the folder
    # texinfo's `makeinfo --html` writes (it holds index.html); the PDF is the whole
    # manual again. A PDF beside a page of its name is a copy too. A PDF with no HTML
    # of its name, or beside a folder of that name without index.html, is read.
    write(tmp_path, "octave.html/index.html", "<h1>GNU Octave</h1>")
    write(tmp_path, "octave.html/Solvers.html", "<h1>Solvers</h1>")
    write(tmp_path, "octave.pdf", "%PDF-1.5 the whole manual")
    write(tmp_path, "refcard-a4.pdf", "%PDF-1.4 the reference card")
    write(tmp_path, "report.html", "<h1>Report</h1>")
    write(tmp_path, "report.pdf", "%PDF-1.4 the report")
    write(tmp_path, "photos.html/README.txt", "a folder named like a page, not a manual")
    write(tmp_path, "photos.pdf", "%PDF-1.4 an album")
    write(tmp_path, "octave.txt", "a text file beside the folder is read as ever")
    found, skipped = entries(tmp_path)
    assert skipped["octave.pdf"] == "a PDF of the HTML beside it (octave.html/), which is read"
    assert skipped["report.pdf"] == "a PDF of the HTML beside it (report.html), which is read"
    assert {"refcard-a4.pdf", "photos.pdf", "octave.txt", "octave.html/Solvers.html"} <= set(found)
    for path in ("octave.pdf", "report.pdf"):
        assert isinstance(walk_one(str(tmp_path), path), Skipped), path
    for path in ("refcard-a4.pdf", "photos.pdf", "octave.txt"):
        assert isinstance(walk_one(str(tmp_path), path), Candidate), path
    # the HTML left out by the filters does not stand for its PDF
    found, _ = entries(tmp_path, excludes=["octave.html"])
    assert "octave.pdf" in found
    assert isinstance(walk_one(str(tmp_path), "octave.pdf", excludes=["octave.html"]), Candidate)


def test_a_page_much_smaller_than_the_pdf_of_its_name_does_not_stand_for_it(tmp_path):
    # A redirect stub (which its reader then skips) or a landing page that links to the
    # PDF is not the PDF again: the PDF is read. A page that is the PDF's text again is
    # not much smaller than it (the copies in /usr/share/doc: 0.34 to 1.4 of its size,
    # bzip2's manual.html 127 KB beside manual.pdf.gz 180 KB).
    pdf = "%PDF-1.4 " + "the thesis, every chapter " * 400          # 10 KB
    write(tmp_path, "thesis.html", '<meta http-equiv="refresh" content="0; url=thesis.pdf">')
    write(tmp_path, "thesis.pdf", pdf)
    write(tmp_path, "paper.html", "<h1>Paper</h1><p>Published 2024. <a href=paper.pdf>PDF</a></p>")
    (tmp_path / "paper.pdf.gz").write_bytes(gzip.compress(pdf.encode(), 0))
    write(tmp_path, "manual.html", "<p>" + "every chapter again " * 60 + "</p>")  # 1.2 KB
    write(tmp_path, "manual.pdf", pdf)
    found, skipped = entries(tmp_path)
    assert {"thesis.pdf", "paper.pdf.gz", "thesis.html", "paper.html"} <= set(found)
    assert skipped["manual.pdf"] == "a PDF of the HTML beside it (manual.html), which is read"
    for path in ("thesis.pdf", "paper.pdf.gz"):
        assert isinstance(walk_one(str(tmp_path), path), Candidate), path
    assert isinstance(walk_one(str(tmp_path), "manual.pdf"), Skipped)


def test_a_page_much_smaller_than_its_text_source_does_not_stand_for_it(tmp_path):
    # A page rendered from a source holds the source's text and its markup, so it is
    # larger; a redirect stub or a landing page of the source's name is not its copy,
    # and the note beside it is read. A data copy is skipped beside any page.
    notes = "the only copy of these notes, every line of them " * 40     # 2 KB
    write(tmp_path, "notes.html", '<meta http-equiv="refresh" content="0; url=notes/">')
    write(tmp_path, "notes.md", notes)
    write(tmp_path, "todo.html", "<p>todo</p>")
    (tmp_path / "todo.txt.gz").write_bytes(gzip.compress(notes.encode(), 0))
    write(tmp_path, "data.html", "<p>data</p>")
    write(tmp_path, "data.json", '{"text": "%s"}' % notes)
    write(tmp_path, "guide.html", "<h1>Guide</h1><p>" + notes + "</p>")
    write(tmp_path, "guide.md", notes)
    found, skipped = entries(tmp_path)
    assert {"notes.md", "notes.html", "todo.txt.gz", "todo.html"} <= set(found)
    assert "(data.html)" in skipped["data.json"] and "(guide.html)" in skipped["guide.md"]
    for path in ("notes.md", "todo.txt.gz"):
        assert isinstance(walk_one(str(tmp_path), path), Candidate), path
    for path in ("data.json", "guide.md"):
        assert isinstance(walk_one(str(tmp_path), path), Skipped), path


def test_a_note_beside_a_redirect_page_of_its_name_is_found(tmp_path, open_ix):
    root = tmp_path / "site"
    write(root, "plans.html", '<meta http-equiv="refresh" content="0; url=plans/index.html">'
                              "<p>Redirecting to plans/index.html</p>")
    write(root, "plans.md", "# Plans\n\nThe quokka survey starts in March; "
                            "we count them on Rottnest Island. " * 20)
    ix = open_ix()
    ix.index(root)
    assert [r.document["path"] for r in ix.search("quokka survey").results] == ["plans.md"]


def test_a_gzipped_pdf_beside_a_folder_of_its_pages_is_skipped(tmp_path):
    # GnuCash's manuals as Debian installs them: DocBook's chunked HTML in
    # gnucash-help-en/ (it holds index.html) beside gnucash-help-en.pdf.gz, the whole
    # manual again, gzipped. A folder of that name without index.html stands for
    # nothing, and the folder stands for no text file of its name.
    write(tmp_path, "gnucash-help-en/index.html", "<h1>GnuCash Manual</h1>")
    write(tmp_path, "gnucash-help-en/tool-calc.html", "<h1>Loan Repayment Calculator</h1>")
    (tmp_path / "gnucash-help-en.pdf.gz").write_bytes(gzip.compress(b"%PDF-1.5 the whole manual"))
    write(tmp_path, "photos/README.txt", "a folder without index.html")
    (tmp_path / "photos.pdf.gz").write_bytes(gzip.compress(b"%PDF-1.4 an album"))
    write(tmp_path, "gnucash-help-en.txt", "a text file beside the folder is read as ever")
    found, skipped = entries(tmp_path)
    assert skipped["gnucash-help-en.pdf.gz"] == \
        "a PDF of the HTML beside it (gnucash-help-en/), which is read"
    assert {"photos.pdf.gz", "gnucash-help-en.txt", "gnucash-help-en/tool-calc.html"} <= set(found)
    assert isinstance(walk_one(str(tmp_path), "gnucash-help-en.pdf.gz"), Skipped)
    for path in ("photos.pdf.gz", "gnucash-help-en.txt"):
        assert isinstance(walk_one(str(tmp_path), path), Candidate), path
    # the folder left out by the filters does not stand for its PDF
    found, _ = entries(tmp_path, excludes=["gnucash-help-en"])
    assert "gnucash-help-en.pdf.gz" in found


def test_a_page_not_read_stands_for_no_source_beside_it(tmp_path):
    # An empty page or one over --max-bytes is skipped: its source is then the only
    # copy of the text read, and was skipped too, as "the page beside it, which is read"
    # (a note exported with its pictures inlined is larger than the note).
    write(tmp_path, "a.html", "")
    write(tmp_path, "a.txt", "the only copy of these words")
    (tmp_path / "a.json.gz").write_bytes(gzip.compress(b'{"text": "the only copy"}'))
    write(tmp_path, "all.html", "<p>" + "x " * 100 + "</p>")
    write(tmp_path, "all.md", "# the whole manual again")
    write(tmp_path, "all.json", '{"text": "the whole manual as data"}')   # stands aside
    (tmp_path / "all.pdf").write_bytes(b"%PDF-1.4 " + b"x" * 90)
    write(tmp_path, "c.html", "<h1>small page</h1>")
    write(tmp_path, "c.txt", "its source")
    found, skipped = entries(tmp_path, max_bytes=100)
    assert sorted(found) == ["a.json.gz", "a.txt", "all.md", "all.pdf", "c.html"]
    assert skipped["a.html"] == "empty file" and "--max-bytes" in skipped["all.html"]
    assert skipped["all.json"] == ("a data copy of the page beside it (all.html), which is "
                                   "over --max-bytes: neither is read")
    assert "(c.html)" in skipped["c.txt"]
    for path in ("a.txt", "a.json.gz", "all.md", "all.pdf"):
        assert isinstance(walk_one(str(tmp_path), path, max_bytes=100), Candidate), path
    for path in ("all.json", "c.txt"):
        assert isinstance(walk_one(str(tmp_path), path, max_bytes=100), Skipped), path


def test_a_source_beside_a_skipped_page_is_indexed_and_found(tmp_path, open_ix):
    root = tmp_path / "site"
    write(root, "guide.html", "")
    write(root, "guide.txt", "the quokka guide, kept only in its source")
    ix = open_ix()
    ix.index(root)
    assert [r.document["path"] for r in ix.search("quokka guide").results] == ["guide.txt"]


def test_unsupported_empty_and_oversized_files_are_reported(tmp_path):
    write(tmp_path, "photo.jpg")
    write(tmp_path, "Makefile")
    write(tmp_path, "backup.tar.gz")
    write(tmp_path, "empty.md", "")
    write(tmp_path, "exact.md", "x" * 100)
    write(tmp_path, "over.md", "x" * 101)
    found, skipped = entries(tmp_path, max_bytes=100)
    # A name no reader claims (README, Makefile) is a candidate: the reader sniffs it.
    assert list(found) == ["Makefile", "exact.md"]
    assert skipped == {"photo.jpg": "unsupported file type .jpg",
                       "backup.tar.gz": "tar archive (.tar.gz): archives are not read",
                       "empty.md": "empty file",
                       "over.md": "larger than --max-bytes (101 > 100 bytes)"}


def test_an_include_filter_hides_what_it_does_not_match_even_from_the_report(tmp_path):
    write(tmp_path, "photo.jpg")
    write(tmp_path, "a.md")
    found, skipped = entries(tmp_path, includes=["*.md"])
    assert list(found) == ["a.md"] and skipped == {}


def test_symbolic_links_are_never_followed(tmp_path):
    root, outside = tmp_path / "root", tmp_path / "outside"
    write(root, "real/a.md")
    write(outside, "o.md")
    os.symlink("real", root / "alias")
    os.symlink("real/a.md", root / "link.md")
    os.symlink(outside, root / "out")
    os.symlink(outside / "o.md", root / "out.md")
    os.symlink(".", root / "real" / "self")
    os.symlink("nowhere.md", root / "dangling.md")
    found, skipped = entries(root)
    assert list(found) == ["real/a.md"]
    assert skipped == {
        "alias": "symbolic link to the folder real: not followed "
                 "(its files are read at their own paths)",
        "link.md": "symbolic link to real/a.md: not followed (files are read at their own paths)",
        "out": f"symbolic link leads outside the folder, to {outside}: never followed "
               "(index that folder to search its files)",
        "out.md": f"symbolic link leads outside the folder, to {outside / 'o.md'}: never followed",
        "real/self": "symbolic link loop: leads back to real",
        "dangling.md": "broken symbolic link: its target does not exist",
    }
    # Grouped by kind in the index report and MCP's local_sources, not one kind a target.
    assert skip_kinds([{"reason": r} for r in skipped.values()]) == {
        "broken symbolic link": 1, "symbolic link leads outside the folder": 2,
        "symbolic link loop": 1, "symbolic link to a file: not followed": 1,
        "symbolic link to a folder: not followed": 1}



def test_a_link_out_to_a_secret_folder_does_not_name_it(tmp_path):
    # A link to a file in `.ssh` never named it; one to `.ssh` itself named it, and
    # said to index it (its files would be skipped as secret).
    root, outside = tmp_path / "root", tmp_path / "home"
    write(root, "a.md")
    write(outside, ".ssh/id_ed25519")
    write(outside, ".gnupg/pubring.kbx")
    os.symlink(outside / ".ssh", root / "keys")
    os.symlink(outside / ".gnupg", root / "gpg")
    os.symlink(outside / ".ssh" / "id_ed25519", root / "key")
    _, skipped = entries(root)
    for name in ("keys", "gpg", "key"):
        assert skipped[name] == "symbolic link leads outside the folder: never followed"

def test_a_root_reached_through_a_link_is_walked_at_its_real_path(tmp_path):
    write(tmp_path, "real/a.md")
    os.symlink("real", tmp_path / "via")
    found, _ = entries(tmp_path / "via")
    assert found["a.md"].fs_path == str(tmp_path / "real" / "a.md")


def test_a_fifo_and_a_socket_are_reported_without_being_opened(tmp_path):
    import socket
    os.mkfifo(tmp_path / "notes.txt")
    server = socket.socket(socket.AF_UNIX)
    try:
        server.bind(str(tmp_path / "sock.md"))
        _, skipped = entries(tmp_path)
    finally:
        server.close()
    assert skipped == {"notes.txt": "not a regular file (a FIFO): never opened",
                       "sock.md": "not a regular file (a socket): never opened"}


def test_names_that_are_not_utf8_are_escaped_and_still_openable(tmp_path):
    raw = os.path.join(os.fsencode(tmp_path), b"caf\xe9 \xff.md")
    with open(raw, "wb") as fh:
        fh.write(b"words")
    write(tmp_path, "new\nline.md")
    write(tmp_path, "emoji \U0001F600.md")
    found, _ = entries(tmp_path)
    assert sorted(found) == ["caf\\xe9 \\xff.md", "emoji \U0001F600.md", "new\nline.md"]
    with open(found["caf\\xe9 \\xff.md"].fs_path, "rb") as fh:
        assert fh.read() == b"words"
    for path in found:
        path.encode("utf-8")   # storable: no lone surrogates


def test_storable_escapes_every_kind_of_lone_surrogate():
    assert storable("plain") == "plain"
    assert storable("caf\udce9") == "caf\\xe9"
    assert storable("lone \ud800 high") == "lone \\ud800 high"
    for text in ("caf\udce9", "lone \ud800 high", "\udfff"):
        storable(text).encode("utf-8")


def test_a_deep_tree_is_walked_without_recursion_in_a_stable_order(tmp_path):
    rel = "/".join(["d"] * 200)
    write(tmp_path, rel + "/bottom.md")
    write(tmp_path, "b.md")
    write(tmp_path, "a.md")
    write(tmp_path, "d/c.md")
    order = [e.path for e in walk(str(tmp_path))]
    assert order == ["a.md", "b.md", "d/c.md", rel + "/bottom.md"]
    assert order == [e.path for e in walk(str(tmp_path))]


@pytest.mark.parametrize("root", [".ssh", ".aws/profiles", ".gnupg"])
def test_a_root_inside_a_secret_folder_reads_nothing(tmp_path, root):
    write(tmp_path, f"{root}/notes.md")
    found, skipped = entries(tmp_path / root)
    assert found == {} and skipped == {".": "secret-looking folder: never read"}
