"""Defaults and limits, in one place.

The core takes these as explicit arguments; only surfaces read flags and the
environment and turn them into a `Limits`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Optional


@dataclass(frozen=True)
class Limits:
    """Bounds that keep one hostile or huge file from costing more than itself."""

    max_bytes: int = 5_000_000            # files larger than this are skipped unread
    max_text_chars: int = 4_000_000       # a document's extracted text is cut here
    max_inflated_bytes: int = 64_000_000  # total bytes inflated from one Office file
    max_xml_part_bytes: int = 32_000_000  # one XML part of an Office file
    max_json_depth: int = 64              # deeper JSON is flattened no further
    max_repeat: int = 1_000               # an ODF row or cell repeated more is written this often
    max_mail_messages: int = 10_000       # messages read from one .mbox
    max_mail_parts: int = 1_000           # MIME parts walked in one message
    max_mail_depth: int = 32              # multipart nesting followed in one message
    file_seconds: float = 10.0            # CPU time a reader may spend on one file
    file_wall_seconds: float = 60.0       # a reader waiting this long on one file is abandoned
    worker_memory_bytes: int = 1_500_000_000
    max_pdf_objects: int = 500_000        # objects one PDF may declare or hold
    max_pdf_stream_bytes: int = 32_000_000  # one PDF stream, inflated
    max_pdf_operators: int = 2_000_000    # content-stream operators read per page
    max_pdf_depth: int = 48               # nested arrays/dictionaries and reference chains
    max_pdf_form_depth: int = 12          # Form XObjects drawn inside each other


@dataclass(frozen=True)
class PassageSizes:
    """How documents are cut into passages (docs/passages.md)."""

    window: int = 1200
    overlap: int = 150
    min_tail: int = 200   # a shorter trailing fragment joins its neighbour


# The one progress callback of long runs (indexing, linking): (done, total), where total
# is None while it is still being counted.
Progress = Callable[[int, Optional[int]], None]

MAX_PAUSE = 86_400.0        # the longest pause `watch` takes, in seconds (a day)
DEFAULT_LIMITS = Limits()
DEFAULT_PASSAGES = PassageSizes()

# The file types read, by extension (any case), and the format name each gives.
SUPPORTED = {
    ".txt": "txt", ".md": "md", ".markdown": "md", ".html": "html", ".htm": "html",
    # Markdown under other names: MDX (Docusaurus, Mintlify…), Quarto, R Markdown, old spellings.
    ".mdx": "md", ".qmd": "md", ".rmd": "md", ".mkd": "md", ".mdown": "md", ".markdn": "md",
    ".json": "json", ".docx": "docx", ".xlsx": "xlsx", ".pptx": "pptx",
    ".pdf": "pdf",
    ".odt": "odt", ".ods": "ods", ".odp": "odp", ".ott": "odt", ".ots": "ods", ".otp": "odp",
    ".epub": "epub", ".eml": "eml", ".mbox": "mbox", ".ipynb": "ipynb",
}
# Source code: the format is the language, named by its usual extension.
CODE_EXTENSIONS = {
    ".py": "py", ".pyw": "py", ".pyi": "py",
    ".js": "js", ".jsx": "js", ".mjs": "js", ".cjs": "js",
    ".ts": "ts", ".tsx": "ts", ".mts": "ts", ".cts": "ts",
    ".go": "go", ".rs": "rs", ".java": "java", ".kt": "kt", ".kts": "kt",
    ".c": "c", ".h": "c", ".cc": "cpp", ".cpp": "cpp", ".cxx": "cpp", ".c++": "cpp",
    ".hh": "cpp", ".hpp": "cpp", ".hxx": "cpp", ".h++": "cpp", ".cs": "cs",
    ".rb": "rb", ".php": "php", ".swift": "swift",
    ".sh": "sh", ".bash": "sh", ".zsh": "sh", ".ksh": "sh",
    ".sql": "sql", ".lua": "lua", ".r": "r", ".pl": "pl", ".pm": "pl", ".awk": "awk",
}
# Configuration, tables and lightweight markup, read with their structure.
TEXT_EXTENSIONS = {
    ".yaml": "yaml", ".yml": "yaml", ".toml": "toml", ".ini": "ini", ".cfg": "ini",
    ".conf": "ini", ".css": "css", ".scss": "css", ".less": "css", ".mk": "makefile",
    ".dockerfile": "dockerfile", ".csv": "csv", ".tsv": "tsv", ".tab": "tsv",
    ".rst": "rst", ".rest": "rst", ".org": "org", ".adoc": "adoc", ".asciidoc": "adoc",
    ".tex": "tex", ".latex": "tex", ".rtf": "rtf", ".po": "po", ".pot": "po",
    ".texi": "texinfo", ".texinfo": "texinfo", ".txi": "texinfo", ".info": "info",
    ".pod": "pod",
}
SUPPORTED.update(CODE_EXTENSIONS)
SUPPORTED.update(TEXT_EXTENSIONS)
# Files known by their whole name (lower case) rather than an extension.
SUPPORTED_NAMES = {
    "makefile": "makefile", "gnumakefile": "makefile", "dockerfile": "dockerfile",
    "containerfile": "dockerfile", "rakefile": "rb", "gemfile": "rb", "vagrantfile": "rb",
    ".bashrc": "sh", ".bash_profile": "sh", ".bash_logout": "sh", ".profile": "sh",
    ".zshrc": "sh", ".zprofile": "sh",
}
# Formats whose passages are cut at line ends, never inside a line.
LINE_FORMATS = frozenset(CODE_EXTENSIONS.values()) | {
    "yaml", "toml", "ini", "css", "makefile", "dockerfile", "csv", "tsv"}

# The media type of each format name (the values of SUPPORTED), for answers that carry
# one (the REPL's Client API documents); a format missing here is served as text/plain.
MEDIA_TYPES = {
    "txt": "text/plain", "md": "text/markdown", "html": "text/html",
    "json": "application/json",
    "docx": "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    "pptx": "application/vnd.openxmlformats-officedocument.presentationml.presentation",
    "odt": "application/vnd.oasis.opendocument.text",
    "ods": "application/vnd.oasis.opendocument.spreadsheet",
    "odp": "application/vnd.oasis.opendocument.presentation",
    "pdf": "application/pdf", "epub": "application/epub+zip", "rtf": "application/rtf",
    "eml": "message/rfc822", "mbox": "application/mbox", "csv": "text/csv",
    "tsv": "text/tab-separated-values", "css": "text/css", "ipynb": "application/x-ipynb+json",
}


def media_type(fmt: str) -> str:
    """The media type of a format name; text/plain for any format without an entry."""
    return MEDIA_TYPES.get(fmt, "text/plain")


# Folder and file names never descended into or indexed (docs/security.md).
DEFAULT_EXCLUDES = (
    "~$*", ".git", ".hg", ".svn", "node_modules", "__pycache__", ".venv", "venv",
    "dist", "build", ".tox", ".nox", ".mypy_cache", ".pytest_cache", ".ruff_cache",
    ".DS_Store", ".idea", ".cache",
)

# Never opened, whatever the include filters say (docs/security.md).
SECRET_NAMES = (
    ".env", "*.env", "*.pem", "*.key", "*.p12", "*.pfx", "id_rsa", "id_dsa", "id_ecdsa",
    "id_ed25519", "credentials.json", "secrets.yaml", "secrets.yml", ".netrc", ".pgpass",
    # Text files with no extension or an unknown one are read, so these need naming too.
    ".git-credentials", ".pypirc", ".npmrc", ".htpasswd", "*_history", "*.keystore", "*.jks",
    "*.ovpn",
)
SECRET_DIRS = (".ssh", ".gnupg", ".aws")
