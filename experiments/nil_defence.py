"""How often a defence sets a Nil or Blind Nil: a perfect-information defence, and agents' defences in play.

Each deal is dealt by the engine (four players, default rules, one hand) and
bid as the mode says; side 0 (seats 0 and 2) is the Nil side, played by the
bidder agent (``heuristic-v1`` by default), side 1 (seats 1 and 3) by each
defence in turn, on the same deals:

- ``--mode blind``: seat 0 bids Blind Nil in every deal (every other seat looks),
  the partners exchange cards by the bidder agent's rule, the rest bid as
  their agents do;
- ``--mode nil``: everyone looks and bids as its agent does; the deals where
  seat 0 or 2 bid Nil count.

**Perfect defence** (``--perfect``): the deal bid by the bidder agent at every
seat; at the first card of the play (after the exchange), the true deal is
solved double dummy as a game with one stake, the Nil: the Nil side plays to
make it, the defenders to set it, every card visible. A Nil set there can be
set by some defence; one made there is made against every defence. It is an
upper bound for any defence, and a lower bound on the Nil side's success only
against perfect defenders who see the cards. A solve that needs more than
``--max-nodes`` is counted as unknown.

**Defences in play** (``--defences``): each deal played out with that agent
on seats 1 and 3. For each Nil set the first trick its bidder won is
classified (won following suit in a side suit, following in spades, ruffing a
side suit it was void in, or on its own lead; who led it), which shows where
sets come from. With ``--leads``, each defender's lead against a lone standing
Nil is judged by the solver on the true deal: the leads that decided the Nil
(some legal leads keep a set, others give it up) and how many of the
defence's own gave it up (hindsight: the defence did not see the cards).

Usage::

    python -m spades_env.experiments.nil_defence --mode blind --deals 1-300 --perfect \\
        --defences heuristic-v1 search-v1 search-v3
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial

from spades_env import actions as A
from spades_env.agent import ask
from spades_env.agents.registry import make_agent
from spades_env.cards import CARD_NAMES, SPADES, SUIT_MASKS, cards_of, suit_of
from spades_env.game import Phase, SpadesGame
from spades_env.observations import encode
from spades_env.solver import NodeLimitReached, position_arrays, position_of, solve_arrays

NIL_SIDE = 0
CARD_ID = {name: card for card, name in enumerate(CARD_NAMES)}


def deal_to_play(seed: int, mode: str, agents: list) -> SpadesGame:
    """The deal of ``seed``, bid (and exchanged) as ``mode`` says, at the first card of the play."""
    game = SpadesGame(num_players=4, single_hand=True)
    game.reset(seed=seed)
    for seat, agent in enumerate(agents):
        agent.reset(seat, seed=seed * 4 + seat)
    observe = _observer(game)
    while game.phase != Phase.PLAY:
        seat = game.current_player
        if game.phase == Phase.BLIND:
            action = A.BLIND_NIL if mode == "blind" and seat == 0 else A.LOOK
        else:
            action = ask(agents[seat], game, observe)
        game.apply(action)
    return game


def _observer(game: SpadesGame):
    """The observations of the player to act, for agents that read one (a network)."""
    return lambda kind: encode(game, game.current_player, kind)


def nil_bidders(game: SpadesGame, mode: str) -> list[int]:
    """The Nil side's seats that bid Blind Nil (mode ``blind``) or Nil (mode ``nil``)."""
    blind = mode == "blind"
    return [seat for seat in (NIL_SIDE, NIL_SIDE + 2) if game.bids[seat] == 0 and bool(game.blind[seat]) == blind]


def perfect_defence_sets(game: SpadesGame, bidder: int, max_nodes: int) -> bool | None:
    """Whether defenders who see every card set ``bidder``'s Nil against a Nil side that sees them too
    (None: not solved within ``max_nodes``)."""
    try:
        value, _, _ = solve_arrays(**position_arrays(position_of(game), [bidder]), every_move=False, one_best=True,
                                   max_nodes=max_nodes)
    except NodeLimitReached:
        return None
    return (value < 0) == (bidder % 2 == 0)  # side 0's stake minus side 1's: negative when side 0's Nil is set


def setting_cards(game: SpadesGame, bidder: int, max_nodes: int) -> dict[int, bool] | None:
    """Each legal card of the seat to move: whether the Nil game on the true deal, after it, is set against every
    play of the Nil side (None when the solve needs more than ``max_nodes``)."""
    pos = position_of(game)
    try:
        _, values, _ = solve_arrays(**position_arrays(pos, [bidder]), every_move=True, max_nodes=max_nodes)
    except NodeLimitReached:
        return None
    setting = (values < 0) if bidder % 2 == 0 else (values > 0)  # side 0's stake minus side 1's
    return {card: bool(setting[card]) for card in cards_of(pos.legal_moves())}


def opening_leads(game: SpadesGame, bidder: int, max_nodes: int) -> Counter | None:
    """Where a defender leads the first trick: each legal lead by kind (see :func:`lead_kind`), counted twice,
    as ``(kind, "all")`` and, when it keeps the set against every play of the Nil side, ``(kind, "sets")``
    (None where the leader is not a defender or the solve needs more than ``max_nodes``)."""
    if game.current_player % 2 == bidder % 2 or (setting := setting_cards(game, bidder, max_nodes)) is None:
        return None
    counts: Counter = Counter()
    for card, sets in setting.items():
        kind = lead_kind(game.hands[bidder], card)
        counts[kind, "all"] += 1
        counts[kind, "sets"] += sets
    return counts


def lead_kind(nil_hand: int, card: int) -> str:
    """A lead as the Nil bidder holds its suit: void, shortest of its suits, or other; and the card under all of
    the Nil bidder's cards of the suit or not."""
    suit = suit_of(card)
    lengths = [(nil_hand & SUIT_MASKS[s]).bit_count() for s in range(4)]
    held = nil_hand & SUIT_MASKS[suit]
    if not held:
        return f"{'spade' if suit == SPADES else 'side suit'} it is void in"
    shortest = lengths[suit] == min(n for n in lengths if n)
    under = card < (held & -held).bit_length() - 1
    return f"{'its shortest suit' if shortest else 'a longer suit'}, {'under its cards' if under else 'not under'}"


def hand_kind(hand: int) -> str:
    """The Nil bidder's hand at the first card, as what most decides a Nil: its spades."""
    spades = (hand & SUIT_MASKS[SPADES]).bit_count()
    return f"{min(spades, 3)}{'+' if spades >= 3 else ''} spades"


def play_out(game: SpadesGame, agents: list, judge: Callable[[SpadesGame, int], None] | None = None) -> dict:
    """Play the hand to its end (``judge(game, action)`` sees each action before it is played); its record."""
    observe = _observer(game)
    while game.phase != Phase.GAME_OVER:
        action = ask(agents[game.current_player], game, observe)
        if judge is not None:
            judge(game, action)
        game.apply(action)
    return game.hand_records[-1]


def how_set(record: dict, bidder: int) -> str:
    """How the Nil bidder took its first trick: by ruffing, following in a side suit or in spades, or on its own
    lead; and which side led that trick."""
    plays = record["plays"]
    for trick, winner in enumerate(record["trick_winners"]):
        if winner != bidder:
            continue
        cards = plays[4 * trick:4 * trick + 4]
        leader, led = cards[0][0], suit_of(CARD_ID[cards[0][1]])
        if leader == bidder:
            return "its own lead"
        played = suit_of(CARD_ID[next(card for seat, card in cards if seat == bidder)])
        by = "partner" if leader == (bidder + 2) % 4 else "defender"
        if played != led:
            return f"ruff, {by} led"
        return f"{'spades' if led == SPADES else 'side suit'} followed, {by} led"
    return "not set"


@dataclass
class Tally:
    """Nil outcomes of one defence."""

    made: int = 0
    bids: int = 0
    ways: Counter = field(default_factory=Counter)
    outcomes: dict[tuple[int, int], bool] = field(default_factory=dict)  # (deal, seat) -> made
    decided_leads: int = 0  # --leads: a defender's leads against a lone Nil where the lead decided its fate
    lost_leads: int = 0  # ... and those where the defence's own lead gave up the set

    def judge_lead(self, game: SpadesGame, action: int, bidder: int, max_nodes: int) -> None:
        """At a defender's lead against ``bidder``'s standing Nil, whether the lead decides the Nil on the true
        deal (some legal leads keep a set, others give it up) and whether ``action`` gave it up."""
        if game.trick or game.current_player % 2 == bidder % 2 or game.tricks[bidder]:
            return
        setting = setting_cards(game, bidder, max_nodes)
        if setting is None or len(set(setting.values())) < 2:
            return
        self.decided_leads += 1
        self.lost_leads += not setting[action]

    def rate(self) -> str:
        if not self.bids:
            return "-"
        p, n, z = self.made / self.bids, self.bids, 1.96  # Wilson's interval
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return f"{p:.1%} [{centre - half:.1%}, {centre + half:.1%}] of {n}"


@dataclass
class PerfectDefence:
    """The perfect-information defence's outcomes, by the Nil bidder's hand, and the opening leads that set."""

    max_nodes: int
    made: Tally = field(default_factory=Tally)
    by_hand: dict[str, Tally] = field(default_factory=dict)
    leads: Counter = field(default_factory=Counter)
    unknown: int = 0
    seconds: float = 0.0

    def add(self, game: SpadesGame, bidder: int) -> None:
        start = time.perf_counter()
        sets = perfect_defence_sets(game, bidder, self.max_nodes)
        if sets is None:
            self.unknown += 1
        else:
            for tally in (self.made, self.by_hand.setdefault(hand_kind(game.hands[bidder]), Tally())):
                tally.bids += 1
                tally.made += not sets
            if sets and (counts := opening_leads(game, bidder, self.max_nodes)):
                self.leads.update(counts)
        self.seconds += time.perf_counter() - start

    def report(self) -> list[str]:
        lines = [f"  perfect-information defence: {self.made.rate()}; {self.unknown} not solved within "
                 f"{self.max_nodes:,} nodes; {self.seconds:.0f} s solving"]
        lines += [f"    the Nil bidder with {kind}: {tally.rate()}" for kind, tally in sorted(self.by_hand.items())]
        lines.append("    where it is set and a defender leads the first trick, the leads that keep the set:")
        lines += [f"      {kind}: {self.leads[kind, 'sets']} of {self.leads[kind, 'all']} legal leads"
                  for kind in sorted({k for k, _ in self.leads})]
        return lines


def parse_deals(text: str) -> range:
    try:
        first, _, last = text.partition("-")
        deals = range(int(first), int(last or first) + 1)
    except ValueError:
        deals = range(0)
    if not deals:
        raise argparse.ArgumentTypeError(f"deals are a range of seeds like 1-300, got {text!r}")
    return deals


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--mode", choices=("blind", "nil"), default="blind")
    parser.add_argument("--deals", type=parse_deals, default=parse_deals("1-300"), help="deal seeds, e.g. 1-300")
    parser.add_argument("--bidder", default="heuristic-v1", help="the agent of the Nil side (seats 0 and 2)")
    parser.add_argument("--defences", nargs="*", default=["heuristic-v1"], help="agents for seats 1 and 3")
    parser.add_argument("--perfect", action="store_true", help="also the perfect-information defence")
    parser.add_argument("--leads", action="store_true",
                        help="judge each defence's leads against a lone Nil by the solver on the true deal")
    parser.add_argument("--max-nodes", type=int, default=20_000_000, help="per solve of the true deal")
    args = parser.parse_args(argv)
    try:
        all_bidders = [make_agent(args.bidder) for _ in range(4)]  # bid every seat for the perfect defence's deals
        bidders = all_bidders[0::2]
        defences = {name: [make_agent(name) for _ in (1, 3)] for name in args.defences}
    except Exception as exc:  # an unknown or malformed agent spec
        parser.error(f"{exc}")
    tallies = {name: Tally() for name in args.defences}
    perfect = PerfectDefence(args.max_nodes)
    start = time.perf_counter()
    for count, seed in enumerate(args.deals, 1):
        if args.perfect:
            game = deal_to_play(seed, args.mode, all_bidders)
            for bidder in nil_bidders(game, args.mode):
                perfect.add(game, bidder)
        for name, (first, second) in defences.items():
            agents = [bidders[0], first, bidders[1], second]
            game = deal_to_play(seed, args.mode, agents)
            seats = nil_bidders(game, args.mode)
            tally = tallies[name]
            judge = (partial(tally.judge_lead, bidder=seats[0], max_nodes=args.max_nodes)
                     if args.leads and len(seats) == 1 else None)
            record = play_out(game, agents, judge)
            for bidder in seats:
                tally.bids += 1
                tally.made += record["tricks"][bidder] == 0
                tally.outcomes[seed, bidder] = record["tricks"][bidder] == 0
                tally.ways[how_set(record, bidder)] += 1
        if count % 25 == 0:
            print(f"{count} deals, {time.perf_counter() - start:.0f} s", file=sys.stderr, flush=True)
    kind = "Blind Nil" if args.mode == "blind" else "Nil"
    print(f"{kind} of {args.bidder} (seats 0, 2), deals {args.deals.start}-{args.deals.stop - 1}: made "
          "(95% Wilson interval)")
    if args.perfect:
        print("\n".join(perfect.report()))
    for name, tally in tallies.items():
        ways = ", ".join(f"{way} {n}" for way, n in tally.ways.most_common() if way != "not set")
        print(f"  {name}: {tally.rate()}; sets: {ways or 'none'}")
        if args.leads:
            print(f"    its leads against a lone Nil that decided it on the true deal: {tally.decided_leads}, of which "
                  f"{tally.lost_leads} gave up the set")
    first = args.defences[0] if args.defences else None
    for name in args.defences[1:]:  # paired on the same deals: the discordant Nils
        a, b = tallies[first].outcomes, tallies[name].outcomes
        both = a.keys() & b.keys()
        print(f"  {name} against {first}, the same Nils: set only by {name} {sum(a[k] and not b[k] for k in both)}, "
              f"only by {first} {sum(b[k] and not a[k] for k in both)}, of {len(both)}")


if __name__ == "__main__":
    main()
