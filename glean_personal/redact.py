"""Credentials inside documents, replaced by a marker before anything is stored.

Secret-looking *files* are never read (see walk.py); this is for secrets
pasted *into* ordinary notes: a private key block, an access key, a token in
a shell history or a URL with a password. Each match is replaced by a short
marker such as ``[redacted private key]``, so the surrounding text still reads
and a search for the marker finds where secrets were. The patterns are shapes
with fixed prefixes or framing, chosen to be specific rather than clever:
high-entropy guessing would redact hashes, ids and test data. docs/security.md
lists them; a source indexed with redaction off stores the text as it is.
"""
from __future__ import annotations

import bisect
import re
from typing import Dict, List, Optional, Pattern, Tuple

_B64 = r"[A-Za-z0-9+/=]"

# (name, pattern, replacement). A replacement may keep a group (the key name of
# `aws_secret_access_key = …`, the user of a URL) around the marker.
PATTERNS: List[Tuple[str, Pattern[str], str]] = [
    ("PEM private key block",
     re.compile(r"-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY((?: BLOCK)?)-----"
                r"(?:.*?-----END \1PRIVATE KEY\2-----"
                r"|(?:[ \t]*(?:\r?\n|\\n)[ \t]*(?:[A-Za-z-]+:[^\n]*|[A-Za-z0-9+/=]{8,}))*)",
                re.DOTALL),
     "[redacted private key]"),
    ("AWS access key id",
     re.compile(r"(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|APKA|AROA|ASCA)"
                r"[0-9A-Z]{16}\b"),
     "[redacted AWS access key]"),
    ("AWS secret access key after its name",
     re.compile(r"(?i)(aws_?secret_?access_?key\W{0,3}\s*[:=]\s*[\"']?)" + _B64 + r"{40}(?!" + _B64 + r")"),
     r"\1[redacted AWS secret key]"),
    ("Google API key",
     re.compile(r"AIza[0-9A-Za-z_\-]{35}(?![0-9A-Za-z_\-])"),
     "[redacted Google API key]"),
    ("GitHub token",
     re.compile(r"g(?:h[pousr]_[A-Za-z0-9]{36,255}|ithub_pat_[A-Za-z0-9_]{22,255})\b"),
     "[redacted GitHub token]"),
    ("GitLab token",
     re.compile(r"gl(?:pat|dt|rt|ptt|cbt|oas)-[A-Za-z0-9_\-]{20,}"),
     "[redacted GitLab token]"),
    ("Slack token",   # `miss`: see MISSES
     re.compile(r"xox[abposr]-(?:(?:[A-Za-z0-9]+-)*[A-Za-z0-9]{8,}\b|(?P<miss>(?:[A-Za-z0-9]+-)*))"),
     "[redacted Slack token]"),
    ("Slack webhook URL",
     re.compile(r"https://hooks\.slack\.com/(?:services|workflows)/[A-Za-z0-9_/\-]{20,}"),
     "[redacted Slack webhook]"),
    ("npm token",
     re.compile(r"npm_[A-Za-z0-9]{36}\b"),
     "[redacted npm token]"),
    ("PyPI token",
     re.compile(r"pypi-AgE[A-Za-z0-9_\-]{50,}"),
     "[redacted PyPI token]"),
    ("OpenAI or Anthropic API key",
     re.compile(r"sk-(?:ant-[A-Za-z0-9]+-|proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{32,}"),
     "[redacted API key]"),
    ("SendGrid API key",
     re.compile(r"SG\.[A-Za-z0-9_\-]{22}\.[A-Za-z0-9_\-]{43}\b"),
     "[redacted SendGrid key]"),
    ("Azure storage account key",
     re.compile(r"(?i)(AccountKey\s*=\s*)[A-Za-z0-9+/]{86}=="),
     r"\1[redacted Azure key]"),
    ("Stripe secret key",
     re.compile(r"[sr]k_live_[0-9A-Za-z]{20,}\b"),
     "[redacted Stripe key]"),
    ("bearer token",
     re.compile(r"(?i)(bearer\s+)[A-Za-z0-9\-._~+/]{16,}=*"),
     r"\1[redacted token]"),
    ("basic authorization header",
     re.compile(r"(?i)(authorization\s*:\s*basic\s+)[A-Za-z0-9+/]{8,}=*"),
     r"\1[redacted credentials]"),
    ("JSON web token",
     re.compile(r"eyJ(?:[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}"
                r"|(?P<miss>[A-Za-z0-9_\-]*))"),
     "[redacted token]"),
    ("password in a URL",
     # Starts at the literal "://" (fast to find); the scheme before it is checked by
     # `_url_password`, so the pattern is not tried at every position of the text.
     re.compile(r"://([^\s:/@\"'<>]{0,128}):[^\s/@\"'<>]{1,256}@"),
     "://\\1:[redacted password]@"),
]

# A pattern runs only on text holding one of its literals (most text holds none, and a
# substring test costs far less than a regular-expression scan). Lower-case literals
# are looked for in the lower-cased text.
TRIGGERS = {
    "PEM private key block": ("PRIVATE KEY",),
    "AWS access key id": ("AKIA", "ASIA", "ABIA", "ACCA", "AGPA", "AIDA", "AIPA", "ANPA",
                          "ANVA", "APKA", "AROA", "ASCA"),
    "AWS secret access key after its name": ("secret",),
    "Google API key": ("AIza",),
    "GitHub token": ("ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"),
    "GitLab token": ("glpat-", "gldt-", "glrt-", "glptt-", "glcbt-", "gloas-"),
    "Slack token": ("xox",),
    "Slack webhook URL": ("hooks.slack.com",),
    "npm token": ("npm_",),
    "PyPI token": ("pypi-AgE",),
    "OpenAI or Anthropic API key": ("sk-",),
    "SendGrid API key": ("SG.",),
    "Azure storage account key": ("accountkey",),
    "Stripe secret key": ("_live_",),
    "bearer token": ("bearer",),
    "basic authorization header": ("authorization",),
    "JSON web token": ("eyJ",),
    "password in a URL": ("://",),
}
# Patterns whose last alternative, the group `miss`, takes what is not a credential
# from where it starts to where any later start inside it would fail the same way
# (`xoxb-xoxb-xoxb-…`, `eyJeyJeyJ…`, each tried alone, cost time quadratic in the
# run): such a match is kept as typed. The PEM pattern is run by `_private_keys`.
MISSES = {"Slack token", "JSON web token"}
# Patterns written without a leading \\b, so that they start with a literal, which the
# regular-expression engine finds fast; the word boundary before the match is checked
# on each match instead.
BOUNDARY = {"AWS access key id", "Google API key", "GitHub token", "GitLab token", "Slack token",
            "npm token", "PyPI token", "OpenAI or Anthropic API key", "SendGrid API key",
            "Stripe secret key", "bearer token", "basic authorization header", "JSON web token"}
_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]{1,20}\Z")

MARKER_PREFIX = "[redacted "


Pattern_ = Tuple[str, Pattern[str], str]


def patterns_in(text: str) -> List[Pattern_]:
    """The patterns whose triggers `text` holds: only they can match in it, or in any part
    of it. A document's sections are checked against these alone, so a file of 400,000
    tiny sections costs one pass per trigger, not a test of every trigger per section
    (which took 20 of the 39 CPU seconds of such a file, profiled)."""
    lowered = text.lower()
    return [p for p in PATTERNS
            if any((t in lowered) if t.islower() else (t in text) for t in TRIGGERS[p[0]])]


def redact(text: str, patterns: Optional[List[Pattern_]] = None) -> Tuple[str, int]:
    """The text with every credential-shaped span replaced by a marker, and how many.
    `patterns` narrows the search to those (`patterns_in` of a text that holds this one)."""
    if not text:
        return text, 0
    total = 0
    lowered = text.lower()
    for name, pattern, replacement in (PATTERNS if patterns is None else patterns):
        if not any((t in lowered) if t.islower() else (t in text) for t in TRIGGERS[name]):
            continue
        if name == "password in a URL":
            text, n = _url_password(pattern, text)
        elif name == "PEM private key block":
            text, n = _private_keys(text, replacement)
        elif name in BOUNDARY:
            text, n = _at_word_start(pattern, replacement, text)
        else:
            text, n = pattern.subn(replacement, text)
        if n:
            total += n
            lowered = text.lower()
    return text, total


def _at_word_start(pattern: Pattern[str], replacement: str, text: str) -> Tuple[str, int]:
    """`pattern.subn`, counting only matches not preceded by a letter, digit or `_`."""
    count = 0

    def swap(m: "re.Match[str]") -> str:
        nonlocal count
        start = m.start()
        if start and (m.string[start - 1].isalnum() or m.string[start - 1] == "_"):
            return m.group(0)
        if "miss" in m.re.groupindex and m.group("miss") is not None:
            return m.group(0)
        count += 1
        return m.expand(replacement)
    return pattern.sub(swap, text), count


_PEM_HEADER = re.compile(r"-----BEGIN ((?:[A-Z0-9]+ )*)PRIVATE KEY((?: BLOCK)?)-----")
_PEM_ENDS = re.compile(r"(?=(-----END (?:[A-Z0-9]+ )*PRIVATE KEY(?: BLOCK)?-----))")
_PEM_LINES = re.compile(r"(?:[ \t]*(?:\r?\n|\\n)[ \t]*(?:[A-Za-z-]+:[^\n]*|[A-Za-z0-9+/=]{8,}))*")


def _private_keys(text: str, replacement: str) -> Tuple[str, int]:
    """The PEM pattern's `subn`: a key block from its BEGIN line to the END line of the
    same kind, or, with none after it, through the header and base64 lines that follow.

    The END lines are found once, in one pass (the pattern would look for one from
    every BEGIN line to the end of the text: quadratic in a run of BEGIN lines).
    """
    ends: Dict[str, List[int]] = {}
    for m in _PEM_ENDS.finditer(text):
        ends.setdefault(m.group(1), []).append(m.start())
    out: List[str] = []
    pos = count = 0
    while True:
        head = _PEM_HEADER.search(text, pos)
        if head is None:
            break
        marker = f"-----END {head.group(1)}PRIVATE KEY{head.group(2)}-----"
        places = ends.get(marker, ())
        k = bisect.bisect_left(places, head.end())
        end = places[k] + len(marker) if k < len(places) else _PEM_LINES.match(text, head.end()).end()
        out += [text[pos:head.start()], replacement]
        count += 1
        pos = end
    out.append(text[pos:])
    return "".join(out), count


def _url_password(pattern: Pattern[str], text: str) -> Tuple[str, int]:
    """`scheme://user:password@` with the password replaced, where a scheme comes first."""
    count = 0

    def swap(m: "re.Match[str]") -> str:
        nonlocal count
        if not _SCHEME.search(m.string, max(0, m.start() - 21), m.start()):
            return m.group(0)
        count += 1
        return f"://{m.group(1)}:[redacted password]@"
    return pattern.sub(swap, text), count
