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

import re
from typing import List, Pattern, Tuple

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
     re.compile(r"\b(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AIPA|ANPA|ANVA|APKA|AROA|ASCA)"
                r"[0-9A-Z]{16}\b"),
     "[redacted AWS access key]"),
    ("AWS secret access key after its name",
     re.compile(r"(?i)(aws_?secret_?access_?key\W{0,3}\s*[:=]\s*[\"']?)" + _B64 + r"{40}(?!" + _B64 + r")"),
     r"\1[redacted AWS secret key]"),
    ("Google API key",
     re.compile(r"\bAIza[0-9A-Za-z_\-]{35}(?![0-9A-Za-z_\-])"),
     "[redacted Google API key]"),
    ("GitHub token",
     re.compile(r"\b(?:gh[pousr]_[A-Za-z0-9]{36,255}|github_pat_[A-Za-z0-9_]{22,255})\b"),
     "[redacted GitHub token]"),
    ("GitLab token",
     re.compile(r"\bgl(?:pat|dt|rt|ptt|cbt|oas)-[A-Za-z0-9_\-]{20,}"),
     "[redacted GitLab token]"),
    ("Slack token",
     re.compile(r"\bxox[abposr]-(?:[A-Za-z0-9]+-)*[A-Za-z0-9]{8,}\b"),
     "[redacted Slack token]"),
    ("Slack webhook URL",
     re.compile(r"https://hooks\.slack\.com/(?:services|workflows)/[A-Za-z0-9_/\-]{20,}"),
     "[redacted Slack webhook]"),
    ("npm token",
     re.compile(r"\bnpm_[A-Za-z0-9]{36}\b"),
     "[redacted npm token]"),
    ("PyPI token",
     re.compile(r"\bpypi-AgE[A-Za-z0-9_\-]{50,}"),
     "[redacted PyPI token]"),
    ("OpenAI or Anthropic API key",
     re.compile(r"\bsk-(?:ant-[A-Za-z0-9]+-|proj-|svcacct-|admin-)?[A-Za-z0-9_\-]{32,}"),
     "[redacted API key]"),
    ("SendGrid API key",
     re.compile(r"\bSG\.[A-Za-z0-9_\-]{22}\.[A-Za-z0-9_\-]{43}\b"),
     "[redacted SendGrid key]"),
    ("Azure storage account key",
     re.compile(r"(?i)(AccountKey\s*=\s*)[A-Za-z0-9+/]{86}=="),
     r"\1[redacted Azure key]"),
    ("Stripe secret key",
     re.compile(r"\b(?:sk|rk)_live_[0-9A-Za-z]{20,}\b"),
     "[redacted Stripe key]"),
    ("bearer token",
     re.compile(r"(?i)\b(bearer\s+)[A-Za-z0-9\-._~+/]{16,}=*"),
     r"\1[redacted token]"),
    ("basic authorization header",
     re.compile(r"(?i)(\bauthorization\s*:\s*basic\s+)[A-Za-z0-9+/]{8,}=*"),
     r"\1[redacted credentials]"),
    ("JSON web token",
     re.compile(r"\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}"),
     "[redacted token]"),
    ("password in a URL",
     re.compile(r"(?i)\b([a-z][a-z0-9+.\-]{1,20}://[^\s:/@\"'<>]{0,128}:)[^\s/@\"'<>]{1,256}(@)"),
     r"\1[redacted password]\2"),
]

MARKER_PREFIX = "[redacted "


def redact(text: str) -> Tuple[str, int]:
    """The text with every credential-shaped span replaced by a marker, and how many."""
    if not text:
        return text, 0
    total = 0
    for _, pattern, replacement in PATTERNS:
        text, n = pattern.subn(replacement, text)
        total += n
    return text, total
