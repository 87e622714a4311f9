"""The search agent: PIMC card play and play-out bidding where search pays, the heuristic's rules elsewhere."""

from __future__ import annotations

import json
import time
from collections import defaultdict

import numpy as np

from spades_env import actions as A
from spades_env.agent import BaseAgent
from spades_env.game import Phase, SpadesConfig
from spades_env.view import PlayerView

from ..heuristic import HeuristicAgent
from ..heuristic.params import V1, V2
from ..heuristic.play import choose_card
from .bidding import search_bid, search_blind_nil
from .play import PlayBudget, check_bag_cost, check_nil_play, search_card, tricks_left

# Card play searches once this many tricks are left, by default: four players' 13-trick deals take the solver
# seconds, two players' a millisecond or two (searching all 13 tricks there: +15.6 points per deal against the
# heuristic instead of +13.6, 500 single-hand deals of a tuning seed).
MAX_TRICKS = {4: 9, 2: 13}
NODES_PER_MS = 1000  # the solver's speed on one core, about (spades_env/solver/api.py: ~1-3 million a second)
# The heuristic whose card search plays where it does not search, whose bid it searches around, and which plays out
# its bids: search-v1 was built on heuristic-v1.
BASES = {"heuristic-v1": V1, "heuristic-v2": V2}


class SearchAgent(BaseAgent):
    """Perfect-information Monte Carlo search over sampled worlds, solved double dummy.

    - **Card play**: PIMC (:mod:`.play`) once at most ``max_tricks`` tricks are
      left (by default 9 with four players, all 13 with two): up to ``worlds``
      deals consistent with the view (:mod:`.worlds`, the engine's resampler;
      with two players weighted by how the opponent draws, :func:`.worlds.drawn_worlds`),
      each solved exactly for every legal card
      (:func:`spades_env.solver.solve`), the best mean played. Earlier, and
      wherever fewer than four worlds solve within the budget, the heuristic's
      card (a four-player 13-trick deal takes the solver seconds, a budget far
      beyond a decision's share).
    - **Against and beside a Nil** (``nil_tricks``, 0 by default): with more
      tricks left than ``max_tricks`` but at most ``nil_tricks``, while a Nil
      stands, the worlds are solved for the Nils' stakes alone (made or set;
      far cheaper to solve than the hand's points), the heuristic's card
      among the equal best. ``nil_risk`` and ``bid_sigma`` (None by default:
      uniform worlds): card play samples worlds in which the other seats'
      Nil bids, and their other bids, fit their dealt hands
      (:func:`.worlds.fitted_worlds`); ``exchange_fit`` (False by default):
      against a Blind Nil, worlds in which the bidder and its partner hold
      what the heuristic's exchange leaves them (:func:`.worlds.exchanged_worlds`);
      ``nil_play`` (0 by default): against a standing Nil, worlds in which its
      bidder holds no card its ducks so far rule out (1 or true), or holds one
      with weight ``1 - nil_play`` (:func:`.worlds.ducked_worlds`). ``bag_cost``
      (0 by default): in a game to a target, each bag a side carries out of
      the hand counts that many points against it in the solved values.
    - **Bids, Nil included**: by play-outs (:mod:`.bidding`): over ``bid_worlds``
      deals consistent with the view (two players: the opponent's hand drawn as
      the heuristic draws), each played to the end by the heuristic,
      the bid near the heuristic's (or Nil) of the best mean points difference
      (``bid_worlds=0``: the heuristic's bid). Solving the deals double dummy
      instead would take the solver seconds per four-player deal (with two
      players, where it is fast, it scored no better: +18.9 against +19.5 points
      per deal, 500 single-hand deals of a tuning seed).
    - **Blind Nil** (four players): by play-outs as well, over ``blind_worlds``
      uniform deals (the seat has seen no card), Blind Nil against looking
      and the heuristic's bid (``blind_worlds=0``: the heuristic's rule, only
      when far behind).
    - ``base`` (``heuristic-v1`` by default): the heuristic of the fallback
      cards, of the bid searched around and of every play-out.
    - **The Blind Nil exchange, the two-player Blind Nil, draw and
      replacements**: the heuristic's rules
      (:class:`~spades_env.agents.heuristic.HeuristicAgent`); the two-player
      Blind Nil draws a random hand and rarely succeeds, and the others are
      one card among few.

    ``ms`` is the search budget per card decision in milliseconds, spent as
    solver nodes (``NODES_PER_MS`` each), so that decisions depend only on the
    view and ``seed``, never on the machine's speed: the same seed, view and
    settings always give the same action. It reads only the
    :class:`~spades_env.view.PlayerView`.

    ``timings``: a file to which :meth:`close` appends one JSON line of the
    time per decision by phase and tricks left (what :meth:`timing_table` returns).
    """

    needs_observation = False
    needs_infostate = True  # uniform worlds are resampled from it (.worlds)

    def __init__(self, worlds: int = 24, ms: float = 250.0, seed: int | None = None, max_tricks: int | None = None,
                 bid_worlds: int = 24, blind_worlds: int = 24, timings: str | None = None,
                 nil_tricks: int = 0, nil_risk: float | None = None, bid_sigma: float | None = None,
                 exchange_fit: bool = False, nil_play: float = 0.0, base: str = "heuristic-v1",
                 bag_cost: int = 0) -> None:
        if worlds < 0 or ms < 0 or nil_tricks < 0:
            raise ValueError(f"worlds, ms and nil_tricks must be >= 0, got worlds={worlds!r}, ms={ms!r}, "
                             f"nil_tricks={nil_tricks!r}")
        check_nil_play(nil_play)
        if base not in BASES:
            raise ValueError(f"base must be one of {', '.join(BASES)} (the heuristic search falls back on and "
                             f"plays out with), got {base!r}")
        if bid_sigma is not None and not bid_sigma > 0:
            raise ValueError(f"bid_sigma must be > 0 (or none: worlds that ignore the bids), got {bid_sigma!r}")
        self.budgets = {n: PlayBudget(worlds=int(worlds), nodes=int(ms * NODES_PER_MS),
                                      max_tricks=MAX_TRICKS[n] if max_tricks is None else int(max_tricks),
                                      nil_tricks=int(nil_tricks),
                                      nil_risk=None if nil_risk is None else float(nil_risk),
                                      bid_sigma=None if bid_sigma is None else float(bid_sigma),
                                      exchange_fit=bool(exchange_fit), nil_play=float(nil_play),
                                      bag_cost=check_bag_cost(bag_cost))
                        for n in MAX_TRICKS}
        self.bid_worlds = int(bid_worlds)
        self.blind_worlds = int(blind_worlds)
        self.seed = 0 if seed is None else int(seed)
        self.heuristic = HeuristicAgent(seed=seed, params=BASES[base])
        self.timings_path = timings
        # (phase name, tricks left) -> [decisions, CPU seconds, wall seconds, searched decisions, worlds solved]
        self._times: dict[tuple[str, int], list[float]] = defaultdict(lambda: [0, 0.0, 0.0, 0, 0])

    def reset(self, seat: int, seed: int | None = None, config: SpadesConfig | None = None) -> None:
        if seed is not None:
            self.seed = int(seed)
        self.heuristic.reset(seat, seed)

    def act(self, observation: np.ndarray | None, action_mask: np.ndarray, view: PlayerView) -> int:
        start, cpu = time.perf_counter(), time.process_time()
        searched = solved = 0
        if view.phase == Phase.PLAY:
            fallback = choose_card(view, None, self.heuristic.params)
            choice = search_card(view, fallback, self.budgets[view.num_players], self._rng(view))
            action, searched, solved = choice.card, int(choice.solved > 0), choice.solved
        elif view.phase == Phase.BID and self.bid_worlds > 0:
            heuristic_bid = self.heuristic.act(observation, action_mask, view) - A.BID_BASE
            choice = search_bid(view, heuristic_bid, self.bid_worlds, self._rng(view), self.heuristic.params)
            action = A.bid_action(choice.bid)
            searched, solved = 1, self.bid_worlds
        elif view.phase == Phase.BLIND and view.num_players == 4 and self.blind_worlds > 0:
            blind = search_blind_nil(view, self.blind_worlds, self._rng(view), self.heuristic.params).blind_nil
            action = A.BLIND_NIL if blind else A.LOOK
            searched, solved = 1, self.blind_worlds
        else:
            action = self.heuristic.act(observation, action_mask, view)
        row = self._times[(view.phase.name, tricks_left(view))]
        row[0] += 1
        row[1] += time.process_time() - cpu
        row[2] += time.perf_counter() - start
        row[3] += searched
        row[4] += solved
        return action

    def _rng(self, view: PlayerView) -> np.random.Generator:
        """The decision's own generator: from the seed and the position only (not from earlier calls), so
        that a decision never depends on which moves were forced or replayed before it."""
        return np.random.default_rng([self.seed & (2**63 - 1), view.hand_number, len(view.plays), int(view.phase)])

    def timing_table(self) -> list[dict]:
        """Per phase and tricks left: decisions, mean CPU and wall milliseconds (CPU time is the process's
        own, what one core spends; wall time also counts waiting on a loaded machine), the share of
        decisions searched and the mean worlds solved when searched."""
        rows = []
        for (phase, left), (count, cpu, wall, searched, solved) in sorted(self._times.items()):
            rows.append({"phase": phase, "tricks_left": left, "decisions": int(count),
                         "cpu_ms": round(1000 * cpu / count, 2), "wall_ms": round(1000 * wall / count, 2),
                         "searched": round(searched / count, 3), "worlds_solved": round(solved / max(1, searched), 2)})
        return rows

    def close(self) -> None:
        if self.timings_path and self._times:
            with open(self.timings_path, "a") as fh:
                budget = self.budgets[4]
                fh.write(json.dumps({"worlds": budget.worlds, "nodes": budget.nodes,
                                     "max_tricks": {n: b.max_tricks for n, b in self.budgets.items()},
                                     "rows": self.timing_table()}) + "\n")
