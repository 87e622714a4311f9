"""Playing a tournament's games: game ``index`` in any process, and the backends that run many of them.

:func:`play_index` is the unit of work: it needs only the spec and the index
(the schedule derives the rest), so the local process pool and Ray tasks run
the same function and return the same records, in whatever order they finish.

Each process builds its agents once (one object per spec and seat) and the
driver resets them every game; when the run ends, every agent object a
process built gets its ``close()`` (the end-of-run hook of
:class:`spades_env.agent.Agent`) in that process: at once in this process,
and as each pool worker exits (the pool is closed, not terminated, after the
last game). Ray workers outlive the run and are not told.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from functools import partial

from spades_env import records
from spades_env.agent import close_agent

from ..match import play_game
from ..registry import Agent, make_agent
from .schedule import GamePlan, TournamentSpec

BACKENDS = ("local", "ray")


def game_record(spec: TournamentSpec, plan: GamePlan, game) -> dict:
    """One finished game: the project's game record (:mod:`spades_env.records`, replayable by
    ``spades replay`` and ``records.replay_game``) plus where it sits in the tournament."""
    a, b = spec.pairings[plan.pairing]
    return {
        **records.game_record(game, seed=plan.deal_seed),
        "index": plan.index,
        "board": plan.board,
        "pairing": plan.pairing,
        "swap": plan.swap,
        "agents": [spec.labels[a], spec.labels[b]],
        "sides": [spec.labels[i] for i in plan.side_agents],
        "seats": [spec.labels[i] for i in plan.seat_agents],
        "agent_seeds": list(plan.agent_seeds),
    }


def play_planned(spec: TournamentSpec, plan: GamePlan, agents: Sequence[Agent]) -> dict:
    """Play ``plan`` with ``agents`` (one per seat) and return its record: the one way a tournament game is played."""
    game = play_game(agents, seed=plan.deal_seed, config=spec.config(), agent_seeds=plan.agent_seeds)
    return game_record(spec, plan, game)


_AGENT_CACHE: dict[tuple[str, int], Agent] = {}


def _cached_agent(agent_spec: str, seat: int) -> Agent:
    """One agent object per (spec, seat) per process: built once, ``reset`` by the driver every game."""
    key = (agent_spec, seat)
    if key not in _AGENT_CACHE:
        _AGENT_CACHE[key] = make_agent(agent_spec)
    return _AGENT_CACHE[key]


def play_index(spec: TournamentSpec, index: int) -> dict:
    """Play game ``index`` of the tournament and return its record (runs in any worker)."""
    plan = spec.plan(index)
    agents = [_cached_agent(spec.agents[i], seat) for seat, i in enumerate(plan.seat_agents)]
    return play_planned(spec, plan, agents)


def play_indices(spec: TournamentSpec, indices: Sequence[int]) -> list[dict]:
    return [play_index(spec, i) for i in indices]


def close_agents() -> None:
    """``close()`` every agent this process built for the run, and forget them (a next run builds anew)."""
    agents = list(_AGENT_CACHE.values())
    _AGENT_CACHE.clear()
    for agent in agents:
        close_agent(agent)


def _init_worker() -> None:
    from multiprocessing import util

    # One BLAS/torch thread per process: the processes already use every core.
    os.environ.setdefault("OMP_NUM_THREADS", "1")
    os.environ.setdefault("MKL_NUM_THREADS", "1")
    util.Finalize(None, close_agents, exitpriority=0)  # runs when the worker exits after pool.close()


def run_local(spec: TournamentSpec, indices: Sequence[int], workers: int) -> Iterator[dict]:
    """Records of ``indices`` as they finish, over ``workers`` processes (in this process when 1)."""
    if workers <= 1 or len(indices) <= 1:
        try:
            for i in indices:
                yield play_index(spec, i)
        finally:
            close_agents()
        return
    import multiprocessing

    # spawn: safe with torch and threads, and the same on every platform.
    ctx = multiprocessing.get_context("spawn")
    pool = ctx.Pool(min(workers, len(indices)), initializer=_init_worker)
    try:
        yield from pool.imap_unordered(partial(play_index, spec), indices, chunksize=1)
        pool.close()  # the workers exit normally, running close_agents
    except BaseException:
        pool.terminate()
        raise
    finally:
        pool.join()


@contextmanager
def ray_session(address: str | None = None, wanted: bool = True) -> Iterator[None]:
    """Ray started here unless it runs already (a local instance unless ``address``), shut down at the end; the
    runs inside reuse it (``spades benchmark`` plays one tournament per cell). Nothing when not ``wanted``."""
    if not wanted:
        yield
        return
    try:
        import ray
    except ImportError:
        raise SystemExit("--backend ray needs Ray: pip install -e '.[ray]'") from None
    started = not ray.is_initialized()
    if started:
        ray.init(address=address, include_dashboard=False, log_to_driver=False,
                 runtime_env={"env_vars": {"OMP_NUM_THREADS": "1"}})
    try:
        yield
    finally:
        if started:
            ray.shutdown()


def run_ray(spec: TournamentSpec, indices: Sequence[int], address: str | None = None,
            chunk: int = 2) -> Iterator[dict]:
    """Records of ``indices`` as they finish, from Ray tasks (a local Ray instance unless ``address``)."""
    with ray_session(address):
        import ray

        task = ray.remote(play_indices)
        chunks = iter([list(indices[k:k + chunk]) for k in range(0, len(indices), chunk)])
        spec_ref = ray.put(spec)
        limit = 4 * max(1, int(ray.cluster_resources().get("CPU", 1)))  # tasks in flight
        pending = [task.remote(spec_ref, c) for c in itertools.islice(chunks, limit)]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            pending += [task.remote(spec_ref, c) for c in itertools.islice(chunks, 1)]
            yield from ray.get(done[0])


def check_backend(backend: str) -> None:
    if backend not in BACKENDS:
        raise ValueError(f"backend must be {' or '.join(map(repr, BACKENDS))}, got {backend!r}")


def run_games(spec: TournamentSpec, indices: Sequence[int], *, backend: str = "local", workers: int = 1,
              ray_address: str | None = None) -> Iterator[dict]:
    """Records of ``indices`` as they finish, from the chosen backend."""
    check_backend(backend)
    return run_ray(spec, indices, ray_address) if backend == "ray" else run_local(spec, indices, workers)
