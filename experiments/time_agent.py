"""CPU milliseconds per decision of any registry agent, on one thread, over single-hand games (or games to 500).

The agent plays seat 0 (and its partner's seat in the four-player game)
against the heuristic, hands dealt from seeds ``--seed``, ``--seed + 1``, ...
after one untimed game (``--seed + --games``: the compiled code's loading is start-up);
only the agent's own ``act`` calls are timed, by process CPU time, with
torch on one thread (a forced move, the only legal one, is played without
asking, as in a tournament). Issue 14's goal for a distilled network is under 1 ms. ``--phases`` splits
the time by the decision's phase, card plays by tricks left (an agent that reads no view: one row).
``--rules`` picks the preset: under ``house`` the heuristic bids Nil where under the game's rules it bids
Blind Nil, so an agent's work against a Nil is timed there. ``--to-500`` times whole games to the target, where
bags carry from hand to hand (what ``bag_cost`` prices). Several agents are timed side by side: round by round
(``--rounds``), each over the same games in a fresh process (no agent warms another's caches), so that a change of
the host's speed (on a shared machine, tens of percent from hour to hour) reaches them alike; each line gives the
median of its rounds and its ratio to the first agent's::

    python -m spades_env.experiments.time_agent ppo-2p --num-players 2
    python -m spades_env.experiments.time_agent endgame:ppo-v3:tricks=4,bag_cost=10 ppo-v3 --games 50 --rounds 4
    python -m spades_env.experiments.time_agent search --games 50 --phases --rules house
    python -m spades_env.experiments.time_agent search --games 10 --rules house --to-500
"""

from __future__ import annotations

import argparse
import multiprocessing
import statistics
import time
from collections import defaultdict

import torch

from spades_env.agents.cli import int_at_least
from spades_env.agents.match import play_game
from spades_env.agents.registry import agent_spec_argument, make_agent
from spades_env.agents.search.play import tricks_left
from spades_env.game import Phase, SpadesConfig
from spades_env.rules import PRESETS
from spades_env.view import PlayerView


class Timed:
    """An agent seen through a stopwatch: ``act`` is timed into ``phases`` (:func:`phase_of` -> [decisions,
    seconds]), everything else (``reset``, the observation kind it reads, the variants it plays) is the agent's own."""

    def __init__(self, agent, phases: defaultdict[str, list[float]]) -> None:
        self.agent, self.phases = agent, phases

    def __getattr__(self, name: str):
        return getattr(self.agent, name)

    def act(self, observation, action_mask, view) -> int:
        start = time.process_time()
        action = self.agent.act(observation, action_mask, view)
        spent = time.process_time() - start
        row = self.phases[phase_of(view)]
        row[0] += 1
        row[1] += spent
        return action


def phase_of(view: PlayerView | None) -> str:
    """The row a decision is timed in: its phase, a card play by the tricks left (the current one included)."""
    if view is None:
        return "any (no view)"
    if view.phase == Phase.PLAY:
        return f"card, {tricks_left(view):2d} tricks left"
    return view.phase.name.lower().replace("_", " ")


def time_agent(spec: str, num_players: int, games: int, seed: int,
               phases: dict[str, list[float]] | None = None, rules: str = "default",
               single_hand: bool = True) -> tuple[int, float]:
    """(decisions, CPU ms per decision) of ``spec`` over ``games`` single hands (``single_hand=False``: games to the
    target) under the preset ``rules`` (forced moves are not asked); ``phases``, when given, is filled with
    [decisions, seconds] by :func:`phase_of`."""
    config = SpadesConfig.from_preset(rules, num_players=num_players, single_hand=single_hand)
    rows: defaultdict[str, list[float]] = defaultdict(lambda: [0, 0.0])  # both of the agent's seats
    timed = [Timed(make_agent(spec), rows) for _ in range(num_players // 2)]
    seats = [seat for agent in timed for seat in (agent, make_agent("heuristic"))]
    # One game first, untimed: loading compiled code (numba's cache, torch's kernels) on the first call is the
    # process's start-up, not a decision's (it added about 0.06 ms a decision to a network over 200 games).
    play_game([seat.agent if isinstance(seat, Timed) else seat for seat in seats], seed=seed + games,
              config=config, agent_seeds=[seed + games] * num_players)
    for game in range(games):
        # a seeded agent replays its choices: the same decisions
        play_game(seats, seed=seed + game, config=config, agent_seeds=[seed + game] * num_players)
    if phases is not None:
        phases.update(rows)
    decisions = int(sum(count for count, _ in rows.values()))
    return decisions, 1000 * sum(spent for _, spent in rows.values()) / max(decisions, 1)


def timed_with_phases(spec: str, num_players: int, games: int, seed: int, rules: str,
                      single_hand: bool) -> tuple[int, float, dict[str, list[float]]]:
    rows: dict[str, list[float]] = {}
    decisions, ms = time_agent(spec, num_players, games, seed, rows, rules, single_hand)
    return decisions, ms, rows


def fresh_process(task: tuple) -> tuple[int, float, dict[str, list[float]]]:
    """:func:`timed_with_phases` in a new process: agents timed side by side share no process's caches (the
    solver's tables, a search's model of the draw), so none is timed on another's warm ones."""
    with multiprocessing.get_context("spawn").Pool(1, initializer=torch.set_num_threads, initargs=(1,)) as pool:
        return pool.apply(timed_with_phases, task)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0],
                                     formatter_class=argparse.ArgumentDefaultsHelpFormatter)
    parser.add_argument("agents", nargs="+", metavar="agent", type=agent_spec_argument,
                        help="registry agent specs, e.g. ppo-2p or search:worlds=8 (several: side by side)")
    parser.add_argument("--num-players", type=int, choices=(4, 2), default=4, help="the variant")
    parser.add_argument("--games", type=int_at_least(1), default=200,
                        help="games to time (single hands unless --to-500)")
    parser.add_argument("--rounds", type=int_at_least(1), default=1,
                        help="rounds of the same games, the agents alternating")
    parser.add_argument("--seed", type=int, default=10_000, help="the first game's deal seed")
    parser.add_argument("--phases", action="store_true", help="also the time by phase and tricks left")
    parser.add_argument("--rules", choices=sorted(PRESETS), default="default", help="the rule preset")
    parser.add_argument("--to-500", action="store_true", help="games to the target, not single hands")
    args = parser.parse_args(argv)
    torch.set_num_threads(1)
    phases: dict[str, dict[str, list[float]]] = {spec: defaultdict(lambda: [0, 0.0]) for spec in args.agents}
    times: dict[str, list[float]] = {spec: [] for spec in args.agents}
    decisions: dict[str, int] = {}
    isolated = len(args.agents) > 1 or args.rounds > 1
    for _ in range(args.rounds):
        for spec in args.agents:
            task = (spec, args.num_players, args.games, args.seed, args.rules, not args.to_500)
            decisions[spec], ms, rows = fresh_process(task) if isolated else timed_with_phases(*task)
            times[spec].append(ms)
            for phase, (count, spent) in rows.items():
                phases[spec][phase][0] += count
                phases[spec][phase][1] += spent
    games = "games to 500" if args.to_500 else "single hands"
    first = statistics.median(times[args.agents[0]])
    for spec in args.agents:
        ms = statistics.median(times[spec])
        rounds = "" if args.rounds == 1 else (f", median of {args.rounds} rounds: "
                                              + " ".join(f"{t:.3f}" for t in times[spec]))
        ratio = "" if len(args.agents) == 1 else f", {ms / first:.2f}x the first"
        print(f"{spec}: {decisions[spec]} decisions, {ms:.3f} CPU ms per decision "
              f"({args.num_players} players, {args.rules} rules, {games}, one thread{rounds}{ratio})")
        if args.phases:
            print("| decision | decisions | CPU ms per decision |")
            print("|---|---:|---:|")
            for phase, (count, spent) in sorted(phases[spec].items()):
                print(f"| {phase} | {int(count)} | {1000 * spent / count:.2f} |")


if __name__ == "__main__":
    main()
