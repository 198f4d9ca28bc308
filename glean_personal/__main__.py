"""`python -m glean_personal`: the command line (no verb: the REPL)."""
from .surfaces.cli import command

command()
