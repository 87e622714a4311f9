"""The ``spades serve`` command line: the agents to offer, where to save the games, where to listen."""

from __future__ import annotations

import sys

from ..cli import ArgumentParser, int_at_least, positive_int
from ..registry import AgentSpecError
from .store import ANALYSIS_NODES

DEFAULT_AGENTS = ["heuristic", "random"]


def build_parser() -> ArgumentParser:
    p = ArgumentParser(prog="spades serve", description="Play against the agents in the browser: a local web "
                                                        "application, every game saved as it goes.")
    p.add_argument("--agents", nargs="+", default=DEFAULT_AGENTS, metavar="SPEC",
                   help="the agents a page may seat (registry names, MODULE:CLASS, FILE.py:CLASS; name=... labels "
                        f"one); default {' '.join(DEFAULT_AGENTS)}")
    p.add_argument("--games-dir", default="spades-games", help="folder of the saved games (made if needed)")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on; other machines reach the server "
                                                        "only if you give 0.0.0.0")
    p.add_argument("--port", type=int_at_least(0, 65535), default=8000, help="port (0: any free one)")
    p.add_argument("--pace-ms", type=int_at_least(0), default=600,
                   help="the page's default pause between the bots' moves, in milliseconds")
    p.add_argument("--analysis-nodes", type=positive_int, default=ANALYSIS_NODES,
                   help="solver nodes per position of a hand's analysis; a position needing more is skipped")
    return p


def main(argv: list[str] | None = None) -> int:
    """``spades serve``: runs until Ctrl-C (0); 2 on bad options or an agent that cannot be built."""
    args = build_parser().parse_args(argv)
    try:
        import uvicorn

        from .app import create_app
    except ImportError as exc:
        print(f"spades serve: needs the serve extra (pip install 'spades-env[serve]'): {exc}", file=sys.stderr)
        return 2
    try:
        app = create_app(args.agents, args.games_dir, args.pace_ms, args.analysis_nodes)
    except (AgentSpecError, ValueError, OSError, ImportError) as exc:
        print(f"spades serve: {exc}", file=sys.stderr)
        return 2
    config = uvicorn.Config(app, host=args.host, port=args.port, log_level="warning")
    server = uvicorn.Server(config)
    _announce_when_started(server, args)
    server.run()
    return 0


def _announce_when_started(server, args) -> None:
    """Print where to point the browser once the socket is bound (the port is known then, even for --port 0)."""
    startup = server.startup

    async def announced_startup(sockets=None) -> None:
        await startup(sockets)
        for bound in server.servers:
            for sock in bound.sockets:
                host, port = sock.getsockname()[:2]
                shown = "127.0.0.1" if host == "0.0.0.0" else host
                print(f"spades serve: open http://{shown}:{port}/ in a browser (games saved in {args.games_dir}; "
                      "Ctrl-C stops)", flush=True)
                return

    server.startup = announced_startup
