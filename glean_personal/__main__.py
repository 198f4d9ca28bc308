"""`python -m glean_personal`: the command line (no verb: the REPL)."""
import sys

from .surfaces.cli import command

sys.exit(command())
