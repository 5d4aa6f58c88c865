"""Play in a web browser: serve the app with textual-serve (the ``cescacs-web`` command).

Each browser tab that opens the page gets its own ``cescacs`` process, driven
through a websocket; the game is the same as in the terminal.  Needs the
optional ``web`` extra: ``pip install 'cescacs-tui[web]'``.  (With
textual-dev installed, ``textual serve cescacs`` does the same.)
"""

from __future__ import annotations

import argparse
import shlex
import sys
from collections.abc import Sequence


def app_command(extra: Sequence[str] = ()) -> str:
    """The shell command textual-serve starts for each browser session."""
    return " ".join(shlex.quote(part) for part in (sys.executable, "-m", "cescacs_tui", *extra))


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="cescacs-web", description="Serve C'escacs to a web browser.")
    parser.add_argument("--host", default="localhost", help="interface to listen on (default: localhost)")
    parser.add_argument("--port", type=int, default=8000, help="port (default: 8000)")
    parser.add_argument("--public-url", help="the URL browsers use, when behind a proxy")
    args = parser.parse_args(argv)
    try:
        from textual_serve.server import Server
    except ImportError:
        print("cescacs-web: error: textual-serve is missing; pip install 'cescacs-tui[web]'", file=sys.stderr)
        return 2
    Server(app_command(), host=args.host, port=args.port, title="C'escacs", public_url=args.public_url).serve()
    return 0


if __name__ == "__main__":
    sys.exit(main())
