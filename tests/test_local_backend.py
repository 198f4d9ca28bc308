"""The local backend: Client API shapes from the personal index, on both stores."""
from __future__ import annotations

import socket

import pytest

import glean_personal
from glean_personal.errors import GleanError, LocalModeError, UsageError
from helpers.corpora import build_index
from glean_personal.surfaces.local_backend import (Backend, LocalBackend, error_response,
                                                   resolve_backend)

@pytest.fixture(scope="module", params=["fts5", "plain"])
def db(request, tmp_path_factory):
    tmp = tmp_path_factory.mktemp(f"backend-{request.param}")
    return build_index(tmp / "files", tmp / "p.db", request.param)


@pytest.fixture
def backend(db):
    b = LocalBackend(db)
    yield b
    b.close()


def test_search_response_has_the_client_api_shape(backend):
    r = backend.search({"query": "espresso descale"})
    assert r["localIndex"] is True
    assert r["metadata"]["searchedQuery"] == "espresso descale"
    assert r["hasMoreResults"] is False and "cursor" not in r
    assert r["requestID"].startswith("local-") and isinstance(r["backendTimeMillis"], int)
    top = r["results"][0]
    assert top["title"] == "Espresso care" and top["url"].startswith("file://")
    doc = top["document"]
    assert doc["id"].isdigit() and doc["datasource"] == "local" and doc["docType"] == "md"
    meta = doc["metadata"]
    assert meta["container"] == "notes" and meta["path"] == "notes/espresso.md"
    assert meta["mimeType"] == "text/markdown" and meta["updateTime"].endswith("Z")
    for s in top["snippets"]:
        assert s["text"] == s["snippet"] and s["mimeType"] == "text/plain"
        assert isinstance(s["snippetTextOrdering"], int)
        for rg in s["ranges"]:
            assert rg["type"] == "BOLD"
            word = s["text"][rg["startIndex"]:rg["endIndex"]].lower()
            assert word.startswith(("espresso", "descale"))


def test_search_pages_with_a_cursor(backend):
    first = backend.search({"query": "goals quarter espresso compost", "pageSize": 1})
    assert first["hasMoreResults"] is True and first["cursor"] == "1"
    second = backend.search({"query": "goals quarter espresso compost", "pageSize": 1,
                             "cursor": first["cursor"]})
    assert second["results"][0]["url"] != first["results"][0]["url"]
    with pytest.raises(UsageError):
        backend.search({"query": "x", "cursor": "abc"})


def test_search_facet_filters_by_container_and_type(backend):
    r = backend.search({"query": "Lisbon compost espresso", "requestOptions": {"facetFilters": [
        {"fieldName": "type", "values": [{"value": "html", "relationType": "EQUALS"}]}]}})
    assert [x["document"]["docType"] for x in r["results"]] == ["html"]
    r = backend.search({"query": "espresso", "requestOptions": {"facetFilters": [
        {"fieldName": "container", "values": [{"value": "elsewhere"}]}]}})
    assert r["results"] == []


def _chat(backend, text):
    return backend.chat({"messages": [{"author": "USER", "messageType": "CONTENT",
                                       "fragments": [{"text": text}]}]})


def _facet(name, value):
    return {"requestOptions": {"facetFilters": [{"fieldName": name, "values": [{"value": value}]}]}}


@pytest.mark.parametrize("request_, kwargs, notes", [
    (dict(query="espresso", **_facet("container", "nope")), {"source": ["nope"]},
     {"localNotices": ["no source named nope in this index; sources here: notes"]}),
    (dict(query="espresso", **_facet("type", "nosuch")), {"type": ["nosuch"]},
     {"localNotices": ["no documents of type nosuch in this index; "
                       "types here: md, html, json, txt"]}),
    ({"query": "espreso"}, {},
     {"localAbsentTerms": ["espreso"], "localSuggestions": {"espreso": ["espresso"]}}),
    ({"query": "espresso"}, {}, {}),
])
def test_search_carries_what_the_search_says_of_the_query(backend, db, request_, kwargs, notes):
    r = backend.search(request_)
    assert {k: v for k, v in r.items() if k.startswith("local") and k != "localIndex"} == notes
    with glean_personal.open_index(db, readonly=True) as ix:
        result = ix.search(request_["query"], **kwargs)
    assert r.get("localNotices", []) == result.notices
    assert r.get("localAbsentTerms", []) == result.absent_terms
    assert r.get("localSuggestions", {}) == result.suggestions


def test_chat_quotes_passages_verbatim_with_citations(backend, db):
    r = _chat(backend, "how often should I descale the espresso machine")
    assert r["localIndex"] is True
    message = r["messages"][0]
    assert message["author"] == "GLEAN_AI" and message["messageType"] == "CONTENT"
    frags = message["fragments"]
    texts = [f["text"] for f in frags if "text" in f]
    cites = [f["citation"] for f in frags if "citation" in f]
    assert len(texts) == len(cites) >= 1
    assert all("text" in a and "citation" in b for a, b in zip(frags[::2], frags[1::2]))
    joined = "".join(texts)
    with glean_personal.open_index(db, readonly=True) as ix:
        for c in cites:
            rng = c["referenceRanges"][0]["textRange"]
            assert rng["type"] == "CITATION"
            quoted = joined[rng["startIndex"]:rng["endIndex"]]
            full = ix.fetch(int(c["sourceDocument"]["id"])).text
            assert quoted and quoted in full  # verbatim
    assert "Descale the espresso machine" in joined
    assert cites[0]["sourceDocument"]["url"].startswith("file://")
    assert message["citations"][0]["sourceDocument"]["title"] == "Espresso care"


def test_chat_stays_within_the_word_budget(backend):
    r = _chat(backend, "compost heap moist")
    text = "".join(f.get("text", "") for f in r["messages"][0]["fragments"])
    assert 0 < len(text.split()) <= 301


@pytest.mark.parametrize("question", [
    "sourdough starter feeding schedule",
    "espresso kubernetes mortgage",       # one of three terms: not enough
    "lisbon salary",                      # one of two words in each passage: chance
])
def test_chat_says_plainly_when_the_index_has_nothing(backend, question):
    message = _chat(backend, question)["messages"][0]
    assert len(message["fragments"]) == 1
    assert "has nothing on that" in message["fragments"][0]["text"]
    assert "citations" not in message
    assert "citation" not in message["fragments"][0]


@pytest.mark.parametrize("question, words", [
    ("the", "'the' names no subject"),
    ("a", "'a' names no subject"),
    ("How do I?", "'how', 'do' and 'i' name no subject"),
    ("show me", "'show' names no subject"),          # a request word names nothing
    ("nobody going", "'nobody' and 'going' name no subject"),
])
def test_chat_declines_a_question_with_no_word_that_names_something(backend, question, words):
    message = _chat(backend, question)["messages"][0]
    assert [f.get("text") for f in message["fragments"]] == [
        f"The personal index has nothing on that: {words} (any passage may hold "
        f"{'it' if ' names ' in words else 'them'}), so no passage is about "
        f"{'it' if ' names ' in words else 'what they ask'}."]
    assert "citations" not in message


@pytest.mark.parametrize("question", ["espresso", "the espresso", "descale it", "espr*"])
def test_a_question_with_one_word_that_names_something_is_searched(backend, question):
    message = _chat(backend, question)["messages"][0]
    assert message.get("citations"), question


def test_chat_needs_a_question(backend):
    with pytest.raises(UsageError):
        backend.chat({"messages": []})


@pytest.mark.parametrize("prefix, kind, expected", [
    ("Espr", "DOCUMENT", "Espresso care"),
    ("lisb", "DOCUMENT", "Lisbon trip"),
    ("grind", "SUGGESTION", "Grinder"),
    ("quarter o", "SUGGESTION", "Quarter one goals"),
    ("citr", "SUGGESTION", "citric"),
    ("salary ba", "SUGGESTION", "salary bands"),
])
def test_autocomplete_completes_titles_headings_and_words(backend, prefix, kind, expected):
    r = backend.autocomplete({"query": prefix})
    assert r["localIndex"] is True
    found = {(x["result"], x["resultType"]) for x in r["results"]}
    assert (expected, kind) in found, r["results"]
    for x in r["results"]:
        assert isinstance(x["score"], float)
        for rg in x["ranges"]:
            assert 0 <= rg["startIndex"] < rg["endIndex"] <= len(x["result"])
        if x["resultType"] == "DOCUMENT":
            assert x["document"]["url"].startswith("file://")
    scores = [x["score"] for x in r["results"]]
    assert scores == sorted(scores, reverse=True)


def test_autocomplete_of_nothing_is_empty(backend):
    assert backend.autocomplete({"query": "  "})["results"] == []
    assert backend.autocomplete({"query": "zzqxv"})["results"] == []


def test_getdocuments_by_id_url_and_path(backend):
    found = backend.search({"query": "Lisbon"})["results"][0]
    doc_id, url = found["document"]["id"], found["url"]
    r = backend.getdocuments({"documentSpecs": [{"id": doc_id}, {"url": url},
                                                {"path": "notes/roadmap.md"},
                                                {"id": "99999"}, {"path": "notes"},
                                                {"ugcType": "CHATS", "ugcId": "x"}]})
    docs = r["documents"]
    assert r["localIndex"] is True
    assert docs[doc_id]["title"] == "Lisbon trip" == docs[url]["title"]
    assert "Tram 28" in "\n".join(docs[doc_id]["content"]["fullTextList"])
    roadmap = docs["notes/roadmap.md"]["content"]["fullTextList"]
    assert any(entry.startswith("## Quarter one goals") for entry in roadmap)
    assert "error" in docs["99999"] and "error" in docs["notes"]  # missing, ambiguous
    assert any("error" in v for k, v in docs.items() if "ugcType" in k)
    with pytest.raises(UsageError):
        backend.getdocuments({"documentSpecs": []})


def test_getdocuments_looks_each_document_up_once_and_at_most_a_hundred(backend, monkeypatch):
    # Each name costs a scan of the paths: a 16 KB REPL line of 3,000 names took 12 CPU s.
    ix = backend.opened()
    calls = []
    fetch = ix.fetch
    monkeypatch.setattr(ix, "fetch", lambda value: calls.append(value) or fetch(value))
    r = backend.getdocuments({"documentSpecs": [{"path": "notes/roadmap.md"}] * 5_000})
    assert list(r["documents"]) == ["notes/roadmap.md"] and calls == ["notes/roadmap.md"]
    specs = [{"path": f"w{i}"} for i in range(3_000)]
    with pytest.raises(UsageError, match="at most 100 documents"):
        backend.getdocuments({"documentSpecs": specs})
    assert len(calls) == 1
    r = backend.getdocuments({"documentSpecs": specs[:100]})
    assert len(r["documents"]) == 100 and all("error" in d for d in r["documents"].values())


@pytest.mark.parametrize("endpoint", ["people", "/answers", "indexing", "listentities"])
def test_other_endpoints_raise_a_local_mode_error_naming_the_coverage(backend, endpoint):
    with pytest.raises(LocalModeError) as info:
        backend.call(endpoint, {})
    assert isinstance(info.value, GleanError)
    for covered in ("/search", "/chat", "/autocomplete", "/getdocuments"):
        assert covered in str(info.value)
    body = error_response(info.value)
    assert body["errorInfo"]["errorMessages"][0]["errorMessage"] == str(info.value)


def test_call_dispatches_the_four_endpoints(backend):
    assert backend.call("/search", {"query": "Lisbon"})["results"]
    assert backend.call("AUTOCOMPLETE", {"query": "Lis"})["results"]


def test_resolve_backend_modes_never_touch_the_network(monkeypatch, db):
    def refuse(*a, **k):
        raise AssertionError("network use")
    monkeypatch.setattr(socket.socket, "connect", refuse)
    for var in ("GLEAN_API_TOKEN", "GLEAN_INSTANCE", "GLEAN_SERVER_URL"):
        monkeypatch.delenv(var, raising=False)
    b, note = resolve_backend("local", db)
    assert isinstance(b, LocalBackend) and note.startswith("local")
    b, note = resolve_backend("auto", db)
    assert isinstance(b, LocalBackend) and "no Glean credentials" in note
    b.search({"query": "espresso"})
    b.close()
    b, note = resolve_backend("auto", db, {"GLEAN_API_TOKEN": "t", "GLEAN_INSTANCE": "acme"})
    assert isinstance(b, LocalBackend) and "no tenant client" in note
    with pytest.raises(UsageError):
        resolve_backend("cloud", db)


def test_a_tenant_backend_plugs_into_the_same_interface():
    class Echo(Backend):
        name = "echo"

        def search(self, request):
            return {"results": [], "metadata": {"searchedQuery": request["query"]}}

        chat = autocomplete = getdocuments = search

    assert Echo().call("search", {"query": "q"})["metadata"]["searchedQuery"] == "q"
    with pytest.raises(GleanError):
        Echo().call("people", {})
    with pytest.raises(TypeError):
        type("Half", (Backend,), {"search": lambda self, r: {}})()


def test_missing_index_is_one_clear_error(tmp_path):
    with pytest.raises(GleanError, match="no index"):
        LocalBackend(tmp_path / "none.db").search({"query": "x"})


def test_suggest_is_bounded_by_limit(db):
    with glean_personal.open_index(db, readonly=True) as ix:
        assert len(ix.suggest("co", 2)) <= 2


def test_media_types_are_keyed_by_the_format_names_the_readers_give():
    from glean_personal.config import MEDIA_TYPES, SUPPORTED, media_type
    assert set(MEDIA_TYPES) <= set(SUPPORTED.values())
    assert media_type("md") == "text/markdown"
    assert media_type("a-format-added-later") == "text/plain"
