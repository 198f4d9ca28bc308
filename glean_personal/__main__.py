"""`python -m glean_personal`: the command line (no verb: the REPL)."""
import sys

from .surfaces.cli import main

sys.exit(main())
