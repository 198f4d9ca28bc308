"""Renderers: one module per output, over the same result objects.

`text` is the one home for human-readable text, `json` for the command line's
`--json` output, and `client` draws Client API responses (any backend's).
"""
