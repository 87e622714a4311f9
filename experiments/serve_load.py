"""Load test of ``spades serve``: many concurrent games played through the HTTP API, on this machine only.

Starts ``spades serve`` on 127.0.0.1 (a free port, a temporary games folder, the fast agents), then runs
``--clients`` games at once: each client creates a game and plays the person's seat by API calls (the
first legal action; the bots play the other seats in the server), waiting for the bots with the API's
long poll. It reports the errors (any answer that is not 2xx, any failed connection) and the latency
percentiles of each kind of request, twice: as the client saw it, and the server's own work (the
``Server-Timing`` header, which leaves out the time a long poll waited for the bots).

    python -m spades_env.experiments.serve_load --clients 50 --games 1

Goal (issue 45): 0 errors, p99 of the server's work under 200 ms with fast agents. Timings depend on the
machine and its load: run it on a quiet one.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from urllib.parse import urlparse

import numpy as np

LOCAL_HOSTS = ("127.0.0.1", "localhost", "::1", "[::1]")
GOAL_P99_MS = 200.0


def start_server(agents: list[str], folder: str) -> tuple[subprocess.Popen, str]:
    """``spades serve`` in a child process on a free port of 127.0.0.1; returns it and its URL."""
    command = [sys.executable, "-m", "spades_env.agents.cli", "serve", "--agents", *agents, "--port", "0",
               "--pace-ms", "0", "--games-dir", folder]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True,
                               env={**os.environ, "PYTHONWARNINGS": "ignore"})
    line = process.stdout.readline()
    if not line.startswith("spades serve: open "):
        process.kill()
        raise SystemExit(f"serve_load: the server did not start: {line!r}")
    return process, line.split()[3]


class Recorder:
    """Latencies (client and server work, ms) per kind of request, and the errors."""

    def __init__(self) -> None:
        self.client: dict[str, list[float]] = defaultdict(list)
        self.server: dict[str, list[float]] = defaultdict(list)
        self.errors: list[str] = []

    async def call(self, http, kind: str, method: str, path: str, **kwargs) -> dict | None:
        started = time.perf_counter()
        try:
            answer = await http.request(method, path, **kwargs)
        except Exception as exc:  # a refused or dropped connection counts as an error
            self.errors.append(f"{kind}: {type(exc).__name__}: {exc}")
            return None
        self.client[kind].append((time.perf_counter() - started) * 1000)
        timing = answer.headers.get("server-timing", "")
        if timing.startswith("app;dur="):
            self.server[kind].append(float(timing.split("=")[1]))
        if not 200 <= answer.status_code < 300:
            self.errors.append(f"{kind}: {answer.status_code} {answer.text[:200]}")
            return None
        return answer.json()


async def play_one(http, record: Recorder, num_players: int, deadline: float) -> bool:
    """One game by API calls; True when it ended."""
    body = {"num_players": num_players, "opponents": "random", "mode": "hand"}
    if num_players == 4:
        body["partner"] = "heuristic"
    created = await record.call(http, "create", "POST", "/api/games", json=body)
    if created is None:
        return False
    game, token, last = created["game"]["id"], created["token"], created["frames"][-1]
    seat = created["game"]["seat"]
    while time.monotonic() < deadline:
        state = await record.call(http, "state", "GET", f"/api/games/{game}?since={last['seq']}&wait=10")
        if state is None:
            return False
        if state["frames"]:
            last = state["frames"][-1]
        if state["over"] and not state["running"]:
            return True
        if state["running"] or last["to_act"] != seat or state["seq"] != last["seq"]:
            continue
        acted = await record.call(http, "act", "POST", f"/api/games/{game}/act",
                                  json={"token": token, "seq": last["seq"], "action": last["legal"][0]})
        if acted is None:
            return False
        if acted["frames"]:
            last = acted["frames"][-1]
    return False


async def run_clients(url: str, clients: int, games: int, num_players: int, seconds: float) -> tuple[Recorder, int]:
    import httpx

    record = Recorder()
    deadline = time.monotonic() + seconds
    limits = httpx.Limits(max_connections=clients + 10)
    async with httpx.AsyncClient(base_url=url, timeout=30, limits=limits) as http:

        async def client() -> int:
            return sum([await play_one(http, record, num_players, deadline) for _ in range(games)])

        finished = sum(await asyncio.gather(*(client() for _ in range(clients))))
    return record, finished


def percentiles(values: list[float]) -> dict:
    if not values:
        return {"n": 0}
    p = np.percentile(values, [50, 90, 99])
    return {"n": len(values), "p50": round(float(p[0]), 2), "p90": round(float(p[1]), 2),
            "p99": round(float(p[2]), 2), "max": round(max(values), 2)}


def report(record: Recorder, finished: int, planned: int, wall: float) -> dict:
    every_server = [v for values in record.server.values() for v in values]
    return {"games_finished": finished, "games_planned": planned, "wall_s": round(wall, 1),
            "requests": sum(len(v) for v in record.client.values()), "errors": len(record.errors),
            "first_errors": record.errors[:5],
            "client_ms": {kind: percentiles(v) for kind, v in record.client.items()},
            "server_work_ms": {kind: percentiles(v) for kind, v in record.server.items()},
            "server_work_p99_ms": percentiles(every_server).get("p99"),
            "goal": f"0 errors and server work p99 < {GOAL_P99_MS:.0f} ms"}


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m spades_env.experiments.serve_load",
                                description=__doc__.split("\n\n")[0])
    p.add_argument("--clients", type=int, default=50, help="games played at once (default 50)")
    p.add_argument("--games", type=int, default=1, help="games each client plays, one after another (default 1)")
    p.add_argument("--num-players", type=int, choices=(4, 2), default=4)
    p.add_argument("--agents", nargs="+", default=["random", "heuristic"], help="the server's agents (fast ones)")
    p.add_argument("--max-seconds", type=float, default=300, help="stop the clients after this long (default 300)")
    p.add_argument("--url", help="an already running server on this machine, instead of starting one")
    p.add_argument("--json", metavar="FILE", help="also write the report there")
    args = p.parse_args(argv)
    if not 1 <= args.clients <= 200 or not 1 <= args.games <= 20:
        p.error("--clients must be in 1..200 and --games in 1..20 (the test is bounded)")
    if args.url and urlparse(args.url).hostname not in LOCAL_HOSTS:
        p.error(f"--url must be a server on this machine (127.0.0.1 or localhost), got {args.url}")
    process = None
    with tempfile.TemporaryDirectory(prefix="serve-load-") as folder:
        url = args.url
        if url is None:
            process, url = start_server(args.agents, folder)
        try:
            started = time.monotonic()
            record, finished = asyncio.run(run_clients(url, args.clients, args.games, args.num_players,
                                                       args.max_seconds))
            result = report(record, finished, args.clients * args.games, time.monotonic() - started)
        finally:
            if process is not None:
                process.terminate()
                process.wait(timeout=30)
    text = json.dumps(result, indent=2)
    print(text)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    met = result["errors"] == 0 and (result["server_work_p99_ms"] or 0) < GOAL_P99_MS
    print(f"goal {'met' if met else 'NOT met'}: {result['errors']} errors, server work p99 "
          f"{result['server_work_p99_ms']} ms (goal < {GOAL_P99_MS:.0f} ms)")
    return 0 if result["errors"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
