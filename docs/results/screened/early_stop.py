"""Fewer worlds where the first ones already agree: what stopping a decision's search early would save and change.

    taskset -c 1 python docs/results/screened/early_stop.py --games 4 > docs/results/screened/early_stop.txt

``search-v5`` plays time_agent's house-rule games to 500 against the heuristic as it does; every world its search
solves is recorded (each legal card's value and the nodes it took, or the nodes spent on a world dropped past its
share). Replayed offline, a sequential rule stops a decision after ``n`` solved worlds (``n`` at least ``min``)
when the card the full rule would pick from those worlds (``best_card``, the network's card among equals) leads
every other card by more than ``z`` standard errors of their paired differences (a card tied with it in every
world so far does not hold it up: equivalent cards stay tied). Printed: the share of the decisions whose card the
rule changes and the share of the search's nodes it saves.
"""

import argparse
import math

import spades_env.agents.endgame as endgame
import spades_env.agents.search.play as play
from spades_env.experiments.time_agent import time_agent
from spades_env.solver import NodeLimitReached, WorldSolver

SPEC = "search-v5"
World = tuple[dict[int, int] | None, int]  # each card's value (None: dropped) and the nodes spent


def record(games: int) -> list[dict]:
    """Run the games with the search instrumented: per searched decision, its worlds, fallback and card."""
    decisions: list[dict] = []
    solve_worlds, solve, search_card = play.solve_worlds, WorldSolver.solve, endgame.search_card

    def recorded_worlds(view, worlds, budget, nil_only=False):
        decisions.append({"worlds": [], "nil_only": nil_only})
        return solve_worlds(view, worlds, budget, nil_only)

    def recorded_solve(self, hands, every_move=True, max_nodes=0, one_best=False):
        try:
            solution = solve(self, hands, every_move, max_nodes, one_best)
        except NodeLimitReached:
            decisions[-1]["worlds"].append((None, max_nodes))
            raise
        decisions[-1]["worlds"].append((dict(solution.move_values), solution.nodes))
        return solution

    def recorded_card(view, fallback, budget, rng):
        before = len(decisions)
        choice = search_card(view, fallback, budget, rng)
        if len(decisions) > before:
            decisions[-1].update(fallback=fallback, card=choice.card, solved=choice.solved)
        return choice

    play.solve_worlds, WorldSolver.solve, endgame.search_card = recorded_worlds, recorded_solve, recorded_card
    time_agent(SPEC, 4, games, 31000, None, "house", False)
    return [d for d in decisions if d.get("solved") and not d["nil_only"]]


def stopped(worlds: list[World], fallback: int, z: float, least: int) -> tuple[int | None, int]:
    """(the card the rule stops with, or None when it never stops; the nodes spent until then)."""
    solved, spent = [], 0
    total_solved = sum(values is not None for values, _ in worlds)
    for values, nodes in worlds:
        spent += nodes
        if values is None:
            continue
        solved.append(values)
        n = len(solved)
        if n < least or n == total_solved:
            continue
        lead = play.best_card({c: sum(w[c] for w in solved) / n for c in values}, fallback)
        sure = True
        for card in values:
            diffs = [w[lead] - w[card] for w in solved]
            if card == lead or not any(diffs):
                continue
            mean = sum(diffs) / n
            sd = math.sqrt(sum((x - mean) ** 2 for x in diffs) / (n - 1))
            sure = sure and mean - z * sd / math.sqrt(n) > 0
        if sure:
            return lead, spent
    return None, spent


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=4)
    args = parser.parse_args()
    decisions = record(args.games)
    print(f"# {SPEC}, {args.games} house-rule games to 500 (time_agent, seed 31000): {len(decisions)} searched "
          f"decisions, {sum(len(d['worlds']) for d in decisions)} worlds")
    print("| least worlds | z | decisions changed | nodes saved |")
    print("|---|---|---|---|")
    for least in (4, 8):
        for z in (1.0, 2.0, 3.0, 5.0):
            changed = saved = total = 0
            for d in decisions:
                card, spent = stopped(d["worlds"], d["fallback"], z, least)
                all_nodes = sum(nodes for _, nodes in d["worlds"])
                changed += card is not None and card != d["card"]
                saved += all_nodes - spent if card is not None else 0
                total += all_nodes
            print(f"| {least} | {z:g} | {changed / len(decisions):.1%} | {saved / total:.1%} |")


if __name__ == "__main__":
    main()
