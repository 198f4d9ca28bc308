"""Which language a document or a question is written in (ISO 639-1 codes: `en`, `de`, `ja`).

A document says so itself where its format has a field for it (`<html lang="de">`,
`xml:lang`, a Content-Language meta: `declared_in_markup`); where it is silent, its
text tells (`text_language`): a script of its own decides alone (kana → `ja`, hangul →
`ko`, Han without kana → `zh`, Cyrillic, Greek, Arabic, Hebrew), and a Latin text is
counted against each language's commonest function words (small tables below). A
file-name or folder mark (`.html.fr`, `/de/`, `-de/`: `path_hint`) decides only where
the text does not; search reads it beside the document's own (a page left in English
in a German manual's folder). A question is judged by the same tables
(`query_language`): most questions asked in words hold a few function words; a bare
keyword query holds none and stays undecided. Search weighs documents in another
language than the question's less (search.py, docs/search.md "Languages").
"""
from __future__ import annotations

import functools
import re
from collections import Counter
from typing import Any, Dict, Iterable, List, Optional, Tuple

from .patterns import lazy

# The commonest function words of each language, lower-case. A word shared by several
# languages counts for each of them; single letters (`a`, `e`, `y`, `i`) are left out:
# they are in too many languages and in code.
_WORDS: Dict[str, str] = {
    "en": """the and of to is that for with are this be it by not or from which can you your have
             has was will an if when how what do does these there their they should would into its
             than also but only other more been were where why my me about any all in on as at
             we so""",
    "de": """der die das und ist nicht mit den dem des ein eine einen einer eines auf für von zu im
             sich auch wird werden sie ich wie oder aber wenn kann können bei nach aus noch nur sind
             hat diese dieser dieses man über wir mein meine wo um zum zur durch dass daß muss kein
             keine welche vom ob in""",
    "fr": """le la les des du et est une un que qui dans pour pas sur ce cette ces avec par il elle
             sont vous nous mais ou au aux être peut comment je mon ma mes quel quelle où plus
             leur se ne sans faire votre vos fait""",
    "es": """el la los las del y que en un una es por con para no se lo su sus como más pero está
             son este esta esto cómo qué mi mis hay puede cuando donde también al sobre entre
             usted hacer""",
    "it": """il lo la gli le di che è un una per non con del della delle dei degli nel nella sono
             come anche più ma questo questa si da al alla ci mio mia cosa quando dove può essere
             ogni sul sulla in""",
    "pt": """os as do da dos das em no na nos nas um uma que é não para com por se como mais mas ao
             seu sua este esta isso isto meu minha você pode quando onde são também pelo pela""",
    "nl": """de het een en van in is dat op te zijn niet met voor die er als aan ook om door bij naar
             kan wordt worden maar hoe wat mijn ik je uw deze dit zal""",
    "sv": """och att det som en är av för med till den på inte har de om ett jag kan vad hur eller
             men från sig så min mitt var när också denna detta""",
    "da": """og at det som en er af for med til den på ikke har de om et jeg kan hvad hvordan eller
             men fra sig så min mit hvor når også denne dette""",
    "no": """og å det som en er av for med til den på ikke har de om et jeg kan hva hvordan eller
             men fra seg så min mitt hvor når også denne dette""",
    "pl": """się nie do to że jest jak co ale po od przez dla jego są czy tak może być ten ta te tym
             mój moja gdzie kiedy jeśli który która które""",
    "tr": """ve bir bu da için ile çok ne olarak daha gibi ama nasıl nedir olan var yok mi mı ben
             benim şu kadar her sonra""",
}
# Each language's words, and each word's languages.
_WORDS_OF: Dict[str, Tuple[str, ...]] = {lang: tuple(dict.fromkeys(words.split()))
                                         for lang, words in _WORDS.items()}
_LANGUAGES_OF: Dict[str, Tuple[str, ...]] = {}
for _lang, _own in _WORDS_OF.items():
    for _word in _own:
        _LANGUAGES_OF[_word] = _LANGUAGES_OF.get(_word, ()) + (_lang,)
LANGUAGES = frozenset(_WORDS) | {"ja", "ko", "zh", "ru", "uk", "el", "ar", "he"}

_WORD = lazy(r"[^\W\d_]+")
# What `_WORD` splits an ASCII text at, as a table for `str.translate` (no pattern to compile).
_ASCII_GAPS = str.maketrans({c: " " for c in map(chr, range(128)) if not c.isalpha()})


def _words(text: str) -> List[str]:
    """The lower-case words of a text (runs of letters)."""
    text = text.lower()
    return text.translate(_ASCII_GAPS).split() if text.isascii() else _WORD.findall(text)


# Scripts that name their language by themselves (counted over a sample's letters).
_KANA = lazy(r"[\u3040-\u30ff]")
_HANGUL = lazy(r"[\uac00-\ud7af\u1100-\u11ff\u3130-\u318f]")
_HAN = lazy(r"[\u4e00-\u9fff\u3400-\u4dbf]")
_CYRILLIC = lazy(r"[\u0400-\u04ff]")
_UKRAINIAN = lazy(r"[іїєґІЇЄҐ]")
_GREEK = lazy(r"[\u0370-\u03ff\u1f00-\u1fff]")
_ARABIC = lazy(r"[\u0600-\u06ff]")
_HEBREW = lazy(r"[\u0590-\u05ff]")
_LETTER = lazy(r"[^\W\d_]")
# Any letter of those scripts: a text with few of them is Latin (or has no letters).
_OWN_SCRIPTS = lazy(r"[\u0370-\u06ff\u1100-\u11ff\u1f00-\u1fff\u3040-\u30ff\u3130-\u318f"
                    r"\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af]")

SAMPLE_CHARS = 6000    # a document's language is judged on its first this many characters
                       # (about a thousand words of prose)
MIN_HITS = 8           # a text's language needs at least this many function words…
MARGIN = 1.5           # …and this many times those of the next language
PROSE_SHARE = 0.15     # (a short text: function words at least this share of its words)
LEAST_SHARE = 0.08     # any text: its language's function words at least this share of its words…
LEAST_DISTINCT = 4     # …and this many different ones


def normalise(tag: Optional[str]) -> Optional[str]:
    """A language tag as a code of `LANGUAGES` (`en-US` → `en`, `pt_BR` → `pt`, `nb` → `no`),
    or None for a tag naming none of them (`C`, `x-klingon`, `und`)."""
    if not tag:
        return None
    code = tag.strip().lower()
    for mark in "-_.@":
        code = code.partition(mark)[0]
    code = {"nb": "no", "nn": "no", "iw": "he"}.get(code, code)
    return code if code in LANGUAGES else None


def _script_language(sample: str, share: float) -> Optional[str]:
    """The language a script names alone, when its letters are at least `share` of the
    sample's letters; None for a Latin text (or a mixed one). A text in ASCII, or with
    few letters of those scripts, is Latin without counting each script."""
    if sample.isascii():
        return None
    own = len(_OWN_SCRIPTS.findall(sample))
    if not own:
        return None
    letters = len(_LETTER.findall(sample))
    if own < share * letters:
        return None
    kana, hangul, han = (len(p.findall(sample)) for p in (_KANA, _HANGUL, _HAN))
    if kana + hangul + han >= share * letters:
        if hangul > kana:
            return "ko"
        return "ja" if kana >= 0.05 * (kana + han) else "zh"
    for pattern, lang in ((_CYRILLIC, "ru"), (_GREEK, "el"), (_ARABIC, "ar"), (_HEBREW, "he")):
        if len(pattern.findall(sample)) >= share * letters:
            if lang == "ru" and len(_UKRAINIAN.findall(sample)) * 100 >= letters:
                return "uk"
            return lang
    return None


def word_counts(words) -> Dict[str, int]:
    """How many of the (lower-case) words are each language's function words."""
    seen = words if isinstance(words, Counter) else Counter(words)
    counts: Dict[str, int] = {}
    for w in _LANGUAGES_OF.keys() & seen.keys():
        for lang in _LANGUAGES_OF[w]:
            counts[lang] = counts.get(lang, 0) + seen[w]
    return counts


def _leader(counts: Dict[str, int], least: int, margin: float) -> Optional[str]:
    """The language counted most, when it has `least` words and `margin` times the next's."""
    if not counts:
        return None
    ranked = sorted(counts.items(), key=lambda kv: -kv[1])
    best, n = ranked[0]
    runner = ranked[1][1] if len(ranked) > 1 else 0
    return best if n >= least and n > runner * margin else None


def text_language(text: str) -> Optional[str]:
    """A text's language from its first `SAMPLE_CHARS` characters, or None when they do
    not tell (too few function words, or two languages alike: code, a table of names).
    A short text needs fewer function words, but as large a share of its words as
    prose holds (a third to a half of an English text's words are function words)."""
    sample = text[:SAMPLE_CHARS]
    by_script = _script_language(sample, 0.3)
    if by_script:
        return by_script
    words = _words(sample)
    # a short note decides on fewer: a few function words, as many as a prose text holds
    least = min(MIN_HITS, max(3, int(PROSE_SHARE * len(words)) + 1))
    seen = Counter(words)
    best = _leader(word_counts(seen), least, MARGIN)
    if best is None:
        return None
    own = [w for w in _WORDS_OF[best] if w in seen]
    # prose: a share of its words, and several of them (`load 'all.dem'` twenty times
    # holds the German *dem*; a list of names holds a stray *no* or *de*)
    if sum(seen[w] for w in own) < LEAST_SHARE * len(words) or len(own) < LEAST_DISTINCT:
        return None
    return best


def query_language(text: str) -> Optional[str]:
    """A question's language: a script of its own, or more function words of one language
    than of any other (*how do I …* → `en`; *wie kann ich …* → `de`); None for a bare
    keyword query (*mod_rewrite redirect*) or a tie."""
    by_script = _script_language(text, 0.5)
    if by_script:
        return by_script
    return _leader(word_counts(_words(text)), 1, 1.0)


# `<html lang="de">`, `<html xml:lang="fr" …>`, DocBook's `<book lang="it">`, the first
# `xml:lang` of any XML, and `<meta http-equiv="Content-Language" content="pt-BR">`: in a
# file's first bytes (an element's own `lang` deeper in a page marks a quotation).
_TAG = rb"[\"']?\s*([A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{1,8})*)"
_ROOT_LANG = lazy(
    rb"<(?:html|book|article|chapter|part|set|refentry|reference|appendix|preface)\b[^>]*?"
    rb"\blang\s*=\s*" + _TAG + rb"|\bxml:lang\s*=\s*" + _TAG, re.IGNORECASE)
_META_LANG = lazy(
    rb"<meta\b[^>]*?http-equiv\s*=\s*[\"']?content-language[\"']?[^>]*?content\s*=\s*" + _TAG,
    re.IGNORECASE)
HEAD_BYTES = 4096


def declared_in_markup(head: bytes) -> Optional[str]:
    """The language an HTML or XML file declares in its first `HEAD_BYTES` bytes, or None."""
    head = head[:HEAD_BYTES]
    if b"lang" not in head and b"LANG" not in head and b"Lang" not in head:
        return None
    for pattern in (_ROOT_LANG, _META_LANG):
        found = pattern.search(head)
        if found:
            return normalise((found.group(1) or found.group(found.lastindex)).decode("ascii"))
    return None


# A language mark in a path: beside a document's extension (`index.html.fr`, Apache's
# `foo.html.ja.utf8`, `guide.de.md`), or a folder named by a code (`de/`, `pt-br/`,
# `zh_CN/`) or ending in one (`gnucash-guide-de/`, `manual_fr/`). Told by string
# methods, no pattern: search asks for every candidate's path.
_DOC_EXTS = frozenset("html htm xhtml md txt rst xml pdf docx odt epub".split())
# Codes that are also words or common folder names (`it/`, `no/`, `uk/`, Perl's `pl/`,
# Emacs Lisp's `el/`, `ar/` archives): a folder of that name alone is no mark (one
# ending in it is: `gnucash-guide-it/`).
_AMBIGUOUS_FOLDERS = frozenset({"it", "no", "uk", "pl", "el", "ar", "he"})


def _code(part: str) -> Optional[str]:
    """`de`, `pt-br`, `zh_cn` as a code of `LANGUAGES`, or None."""
    if len(part) == 2 or (len(part) == 5 and part[2] in "-_"):
        if part[:2].isalpha() and part[-2:].isalpha() and part.isascii():
            return normalise(part)
    return None


def _name_mark(name: str) -> Optional[str]:
    parts = name.split(".")
    for i in range(1, len(parts) - 1):
        if parts[i] in _DOC_EXTS and _code(parts[i + 1]):      # index.html.fr, .html.ja.utf8
            return _code(parts[i + 1])
        if parts[i + 1] in _DOC_EXTS and _code(parts[i]):      # guide.de.md
            return _code(parts[i])
    return None


# Languages documentation is translated into that the word tables cannot tell, as a
# file's name marks them beside a document extension (`api.sr.html`, `guide.cs.html`):
# ISO 639-1 codes, less those that are English words too (`to`, `is`, `my`, `am`).
_NAME_ONLY = frozenset("bg bn bs ca cs cy eo et eu fa fi ga gl hr hu hy ka kk lt lv mk ml mr "
                       "ro sk sl sq sr ta te th ur vi".split())


@functools.lru_cache(maxsize=8192)
def named_language(path: str) -> Optional[str]:
    """The language a file's own name marks (`api.sr.html`, `index.html.fr`), a code of
    `LANGUAGES` or of `_NAME_ONLY`; None when it marks none. Search reads it for a
    document whose text's language is not told (Serbian in Cyrillic, Czech)."""
    name = path.rsplit("/", 1)[-1].lower()
    if name.count(".") < 2:
        return None
    parts = name.split(".")
    for i in range(1, len(parts) - 1):
        for ext, mark in ((parts[i], parts[i + 1]), (parts[i + 1], parts[i])):
            if ext in _DOC_EXTS:
                code = _code(mark) or (mark if mark in _NAME_ONLY else None)
                if code:
                    return code
    return None


def _folder_mark(folder: str) -> Optional[str]:
    if folder in _AMBIGUOUS_FOLDERS:
        return None
    for n in (5, 2):   # `pt-br`, `de`, alone or after `-` or `_`
        if len(folder) == n or len(folder) > n and folder[-n - 1] in "-_":
            code = _code(folder[-n:])
            if code:
                return code
    return None


@functools.lru_cache(maxsize=8192)
def path_hint(path: str) -> Optional[str]:
    """The language a file's name or folders name, nearest first; None when none does
    (kept: search asks for its candidates' paths)."""
    return path_mark(path)[0]


def path_mark(path: str) -> Tuple[Optional[str], Optional[str]]:
    """`path_hint`'s language and the folder that names it, lower-cased, from the root
    (`travel/de`); no folder for a file's name (`index.html.fr`) or no mark."""
    *folders, name = path.lower().split("/")
    found = _name_mark(name) if name.count(".") >= 2 else None
    if found:
        return found, None
    for i in range(len(folders) - 1, -1, -1):
        found = _folder_mark(folders[i])
        if found:
            return found, "/".join(folders[:i + 1])
    return None, None


def language_folders(rows: Iterable[Tuple[str, str]]) -> frozenset:
    """The folders (as `path_mark` gives them) that hold a document in the language
    their name names, of `rows` (a document's path, its language): a translation's
    folder (`gnucash-guide-de/`, most of its pages German), not English notes filed
    by country (`travel/de/`, every page English)."""
    found = set()
    for path, lang in rows:
        folders = path.lower().split("/")[:-1]
        for i, folder in enumerate(folders):
            if _folder_mark(folder) == lang:
                found.add("/".join(folders[:i + 1]))
    return frozenset(found)


# A folder named by a locale, as translation trees name them: `de`, `pt_BR`, `sr@latin`,
# `zh-CN`, and `C` for the untranslated original (GNOME's help, gettext's catalogues).
_LOCALE = r"(?:[a-z]{2}(?:[_-](?:[A-Za-z]{2}|[A-Za-z]{4}))?(?:@[a-z]+)?|C)"
_LOCALE_FOLDER = lazy(_LOCALE)
# One of them as a folder anywhere in paths written one a line, each after a `/`.
_LOCALE_FOLDER_IN = lazy(r"/%s(?=/)" % _LOCALE)
TREE_LOCALES = 3   # a file under at least this many locale folders at one place of its path…
TREE_KNOWN = 2     # …of which this many are `C` or name a language of `LANGUAGES`, one of
                   # them the original: `C` or English (`en`, `en_US`)


def tree_languages(paths: Dict[Any, str], original: bool = True) -> Dict[Any, str]:
    """The language each of `paths` has by its place in a translation tree: where one
    file sits under several folders named by locales at the same place of its path
    (`C/aisleriot/gaps.xml`, `hu/aisleriot/gaps.xml`, `de/aisleriot/gaps.xml`), each
    folder names its file's language (`hu`, `de`; `en` for `en_GB`; `C`, the
    original, names none). Codes `path_hint` leaves alone, being words or folder names
    too (`uk/`, `id/`, `ca/`) or lacking a word table (`hu/`, `gl/`), count here, where
    their siblings show what they are: at least `TREE_LOCALES` locale folders, of which
    `TREE_KNOWN` are `C` or a language of `LANGUAGES`, one of them the original (`C`,
    `en`, `en_US`): a translation is made from the original, kept beside it. Folders
    named by countries hold no such original (`offices/us/`, `offices/uk/`,
    `offices/ca/`, `offices/de/`, `travel/de/`, `travel/fr/`, `travel/it/`: English
    notes, filed by country), and make no tree. Without `original`, a tree needs none
    (search asks so of its candidates, a few of a tree's pages, before reading the
    whole index's)."""
    joined = "\n".join(paths.values())
    if "/" not in joined or _LOCALE_FOLDER_IN.search(
            "/" + joined.replace("\n", "\n/")) is None:
        return {}   # no folder named by a locale (most searches' candidates): one scan
    groups: Dict[Tuple[int, Tuple[str, ...]], Dict[Any, str]] = {}
    for doc, path in paths.items():
        parts = path.split("/")
        for i, folder in enumerate(parts[:-1]):
            if len(folder) <= 10 and _LOCALE_FOLDER.fullmatch(folder):
                groups.setdefault((i, tuple(parts[:i] + parts[i + 1:])), {})[doc] = folder
    found: Dict[Any, str] = {}
    for members in groups.values():
        folders = set(members.values())
        if len(folders) < TREE_LOCALES:
            continue
        if sum(1 for f in folders if f == "C" or normalise(f)) < TREE_KNOWN:
            continue
        if original and not any(f == "C" or normalise(f) == "en" for f in folders):
            continue
        for doc, folder in members.items():
            if folder != "C":
                found[doc] = folder[:2].lower()
    return found


def document_language(text: str, declared: Optional[str] = None,
                      path: str = "") -> Optional[str]:
    """A document's language: what it declares, else what its text says, else what its
    path names (None: unknown, and never weighed)."""
    return declared or text_language(text) or (path_hint(path) if path else None)
