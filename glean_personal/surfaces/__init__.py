"""What people and agents touch: the command line, the REPL, the MCP server.

    args.py           the one argument parser (every verb and flag)
    verbs.py          the verb handlers: facade call, then render
    cli.py            the entry point: parse argv once, dispatch, exit codes
    repl.py           the interactive REPL (`/personal VERB`, Client API endpoints)
    mcp.py            the MCP server (JSON-RPC on stdin/stdout)
    local_backend.py  the REPL's local backend: Client API shapes from the index
    failures.py       the one handler for unexpected exceptions
    render/           one module per output over the same result objects:
                      text.py (people), json.py (--json), client.py (Client API answers)

No module here imports `cli`; `cli.main` parses argv once and hands the parsed
arguments on.
"""
