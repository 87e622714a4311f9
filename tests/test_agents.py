"""Baseline agents: always legal in both variants, reproducible from seeds, and the heuristic's main rules."""

from __future__ import annotations

import hashlib
import io
from dataclasses import replace

import numpy as np
import pytest

from spades_env import actions as A
from spades_env.actions import NUM_ACTIONS
from spades_env.agent import ask
from spades_env.agents import make_agent
from spades_env.agents.heuristic import HeuristicAgent
from spades_env.agents.heuristic.bidding import estimate_tricks, nil_risk
from spades_env.agents.heuristic.params import DEFAULT, V2
from spades_env.agents.match import play_game
from spades_env.agents.random_agent import RandomAgent
from spades_env.cards import bits_to_array, mask_of, str_to_card
from spades_env.game import IllegalActionError, Phase, SpadesConfig, SpadesGame
from spades_env.view import player_view


def cards(text: str) -> list[int]:
    return [str_to_card(c) for c in text.split()]


def act(agent, game: SpadesGame) -> int:
    """Ask ``agent`` for the current player's decision, as the match driver does."""
    seat = game.current_player
    if hasattr(agent, "reset"):
        agent.reset(seat, 0)
    mask = bits_to_array(game.legal_mask(), NUM_ACTIONS).view(np.int8)
    return agent.act(None, mask, player_view(game, seat))


def fixed_game(hands: list[str], dealer: int = 3, bids=(3, 3, 3, 3), plays: str = "", **rules) -> SpadesGame:
    """A four-player game with the given hands (seat 0 leads), bids, then ``plays`` (card texts in order)."""
    game = SpadesGame(SpadesConfig(blind_nil=False, **rules))
    game.reset(0, deal=[cards(h) for h in hands], dealer=dealer)
    for bid in bids:
        game.apply(A.bid_action(bid))
    for card in plays.split():
        game.apply(str_to_card(card))
    return game


# Seat 0 leads. Spades are split so that nobody is void in the side suits used below.
HANDS = [
    "AS 2S 3S AH 2H 3H 4H AD 2D 3D AC 2C 3C",
    "KS 4S 5S KH 5H 6H 7H KD 4D 5D KC 4C 5C",
    "QS 6S 7S QH 8H 9H TH QD 6D 7D QC 6C 7C",
    "JS 8S 9S JH TS 9D 8D JD TD 8C 9C TC JC",
]


# ------------------------------------------------------------------ legality


class Spy:
    """Wraps an agent and notes the phases it was asked to decide in."""

    def __init__(self, agent, phases: set) -> None:
        self.agent, self.phases = agent, phases
        self.needs_observation = False

    def reset(self, seat, seed=None):
        self.agent.reset(seat, seed)

    def act(self, observation, mask, view):
        self.phases.add(view.phase)
        action = self.agent.act(observation, mask, view)
        assert mask[action] == 1
        return action


@pytest.mark.parametrize("num_players", [4, 2])
def test_agents_always_legal(num_players):
    """Random and heuristic agents in several seatings finish whole games, every decision legal.

    The driver raises on an illegal action and the spy checks each one
    against the mask. Starting far behind makes the heuristic bid Blind Nil,
    so it also meets the exchange (four players) and the replacements (two
    players); the random agent bids Blind Nil half the time, so the heuristic
    also passes cards to a Blind Nil partner.
    """
    phases: set = set()
    config = SpadesConfig(num_players=num_players)
    # Both heuristics: v2 never bids the two-player Blind Nil (a blind draw), v1 does when far behind.
    layouts = [["heuristic", "random"] * 2, ["random", "heuristic-v1"] * 2,
               ["heuristic-v1", "heuristic", "random", "random"]]
    for seed in range(12):
        specs = layouts[seed % 3][:num_players]
        agents = [Spy(make_agent(s), phases) if s.startswith("heuristic") else make_agent(s) for s in specs]
        scores = [0, 0]
        if seed % 2:
            first = next(i for i, s in enumerate(specs) if s.startswith("heuristic"))
            scores[1 - first % 2] = 450  # the heuristic is far behind
        game = play_game(agents, seed=seed, config=config, agent_seeds=list(range(num_players)), scores=scores,
                         ask_forced=True)
        assert game.terminated or game.truncated
    variant = {Phase.PASS} if num_players == 4 else {Phase.DRAW, Phase.REPLACE}
    expected = {Phase.BLIND, Phase.BID, Phase.PLAY} | variant
    assert expected <= phases


def test_driver_reports_illegal_agent():
    class Bad:
        needs_observation = False

        def act(self, observation, mask, view):
            return 70  # "done": never legal in the four-player game

    with pytest.raises(IllegalActionError, match="Bad at seat"):
        play_game([Bad(), RandomAgent(), RandomAgent(), RandomAgent()], seed=0)


def test_driver_gives_env_observations_when_asked():
    """An agent that wants the vector gets exactly what spades_v0 shows the same seat at the same point."""
    from spades_env import spades_v0

    class Recorder(RandomAgent):
        needs_observation = True
        needs_view = True

        def __init__(self):
            super().__init__(0)
            self.seen = []

        def act(self, observation, mask, view):
            self.seen.append((observation.copy(), mask.copy(), view.seat))
            return super().act(observation, mask, view)

    agents = [Recorder() for _ in range(4)]
    game = play_game(agents, seed=5, config=SpadesConfig(single_hand=True), agent_seeds=[1, 2, 3, 4], ask_forced=True)
    env = spades_v0.raw_env(single_hand=True)
    env.reset(seed=5)
    steps = [iter(a.seen) for a in agents]
    for player, action in game.hand_records[0]["actions"]:
        observation, mask, seat = next(steps[player])
        got = env.observe(f"player_{player}")
        assert seat == player
        np.testing.assert_array_equal(observation, got["observation"])
        np.testing.assert_array_equal(mask, got["action_mask"])
        env.step(action)


# ------------------------------------------------------------- reproducible


@pytest.mark.parametrize("num_players", [4, 2])
def test_same_seeds_same_game(num_players):
    config = SpadesConfig(num_players=num_players)

    def run(agent_seed: int):
        agents = [HeuristicAgent(), RandomAgent()] * (num_players // 2)
        return play_game(agents, seed=11, config=config,
                         agent_seeds=[agent_seed + s for s in range(num_players)]).hand_records

    assert run(1) == run(1)
    assert run(1) != run(2)  # the random agent follows its seed


def test_random_agent_is_uniform_over_legal_actions():
    agent = RandomAgent(3)
    mask = np.zeros(NUM_ACTIONS, np.int8)
    mask[[5, 17, 60]] = 1
    picks = [agent.act(None, mask, None) for _ in range(3000)]
    counts = np.bincount(picks, minlength=NUM_ACTIONS)
    assert set(np.flatnonzero(counts)) == {5, 17, 60}
    assert counts[[5, 17, 60]].min() > 900


# --------------------------------------------------------- heuristic rules


def test_trick_estimates_order_hands():
    strong = mask_of(cards("AS KS QS JS 5S AH KH AD KD AC 2C 3C 4C"))
    weak = mask_of(cards("2S 3H 4H 5H 2D 3D 4D 6D 2C 3C 5C 6C 7C"))
    assert estimate_tricks(strong) >= 8
    assert estimate_tricks(weak) <= 1
    assert nil_risk(weak) < 0.5 < nil_risk(strong)


def test_heuristic_bids_nil_with_a_ducking_hand_and_counts_a_strong_one():
    weak = "2S 3H 4H 5H 2D 3D 4D 6D 2C 3C 5C 6C 7C"
    strong = "AS KS QS JS 5S AH KH AD KD AC 8C 9C TC"
    rest = [c for c in map(str_to_card, (HANDS[0] + " " + HANDS[1] + " " + HANDS[2] + " " + HANDS[3]).split())
            if c not in cards(weak) + cards(strong)]
    deal = [cards(weak), cards(strong), rest[:13], rest[13:]]
    game = SpadesGame(SpadesConfig(blind_nil=False))
    game.reset(0, deal=deal, dealer=3)
    agent = HeuristicAgent(0)
    assert act(agent, game) == A.bid_action(0)
    game.apply(A.bid_action(0))
    assert act(agent, game) >= A.bid_action(7)


def test_second_hand_low_third_hand_high():
    game = fixed_game(HANDS, plays="2H")
    assert act(HeuristicAgent(0), game) == str_to_card("5H")  # second hand low, although it holds the KH
    game.apply(str_to_card("5H"))
    assert act(HeuristicAgent(0), game) == str_to_card("QH")  # third hand high (nothing makes a lower card safe)


def test_overtakes_a_partner_whose_card_may_be_beaten():
    game = fixed_game(HANDS, plays="2D 4D QD 8D")  # seat 2 wins the first trick and leads
    game.apply(str_to_card("QC"))
    game.apply(str_to_card("8C"))
    # Seat 0 holds AC 2C 3C; the KC is out and seat 1 plays last: partner's QC may lose, so take it with the AC.
    assert act(HeuristicAgent(0), game) == str_to_card("AC")


def test_partner_safe_is_the_threshold_for_overtaking_a_partner():
    game = fixed_game(HANDS, plays="2D 4D QD 8D QC 8C")  # the position above
    trusting = HeuristicAgent(0, params=replace(DEFAULT, partner_safe=0.0))  # any chance of holding will do
    assert act(trusting, game) == str_to_card("2C")


def test_the_params_sweeps_measure_each_threshold_around_its_default():
    from spades_env.experiments.heuristic_params import HIGH, LOW, SWEEPS_V1, SWEEPS_V2, V2, run

    for sweeps in (SWEEPS_V1, SWEEPS_V2):
        assert len({s.name for s in sweeps}) == len({s.seed for s in sweeps}) == len(sweeps)
    assert len({s.seed for s in SWEEPS_V1 + SWEEPS_V2}) == len(SWEEPS_V1) + len(SWEEPS_V2)
    for sweep in SWEEPS_V1:  # v1's neighbours of each default
        lower, higher = sweep.values
        assert lower < getattr(DEFAULT, sweep.name) < higher, sweep
    for sweep in SWEEPS_V2:  # v2's grids: never the base value itself, and the extremes where a decision has them
        assert getattr(V2, sweep.name) not in sweep.values, sweep
    extremes = {s.name: s.values for s in SWEEPS_V2}
    assert LOW in extremes["blind_nil_margin"] and None in extremes["blind_nil_margin"]  # always, never
    assert LOW in extremes["nil_risk_4p"] and HIGH in extremes["nil_risk_4p"]  # never, always
    first = SWEEPS_V1[0]
    out = io.StringIO()
    rows = run([first], deals=3, out=out, noise=True)
    assert [(r["name"], r["value"], r["n"]) for r in rows] == [(first.name, v, 3) for v in first.values]
    assert "(base vs own-luck copy)" in out.getvalue()


def test_does_not_overtake_a_partner_winning_with_the_boss():
    game = fixed_game(HANDS, plays="AC 4C")
    assert act(HeuristicAgent(0), game) == str_to_card("6C")


def test_fourth_hand_wins_as_cheaply_as_possible():
    game = fixed_game(HANDS, plays="2C 4C 6C")  # seat 3 holds 8C 9C TC JC
    assert act(HeuristicAgent(0), game) == str_to_card("8C")


def test_ducks_when_the_contract_is_made():
    # Seats 0 and 2 bid 1 each and seat 0 already took two tricks: seat 2 now ducks under seat 1's KD.
    game = fixed_game(HANDS, bids=(1, 3, 1, 3), plays="AD 4D 6D 8D AH 5H 8H JH 2D KD")
    assert game.tricks[0] == 2
    assert act(HeuristicAgent(0), game) == str_to_card("QD")  # shed the high card under the winner


NIL_HANDS = [
    "AS 2S 3S AH 2H 3H AD 2D 3D 4D AC 2C 3C",
    "KS 4S 5S 9H 5H 6H KD 5D 6D 7D KC 4C 5C",
    "QS 6S 7S QH 8H 4H QD 8D 9D TD QC 6C 7C",
    "JS 8S 9S TS JH KH TH 7H JD 8C 9C TC JC",
]


def test_nil_bidder_sheds_its_highest_card_under_the_winner():
    game = fixed_game(HANDS, bids=(3, 0, 3, 3), plays="AH")
    assert act(HeuristicAgent(0), game) == str_to_card("KH")


def test_opponent_of_a_nil_bidder_stays_under_it():
    game = fixed_game(NIL_HANDS, bids=(3, 0, 3, 3), plays="2H 9H")  # seat 1 (Nil) is winning with the 9H
    assert act(HeuristicAgent(0), game) == str_to_card("8H")


def test_the_attack_on_a_nil_can_leave_following_to_the_contract():
    # Seat 3 (the Nil bidder's partner) led the 8C; the Nil (seat 1) plays after seat 0. The attack's follow rule
    # keeps seat 0's lowest club to stay under the Nil later (the 3C under the 8C); without it, second hand low.
    game = fixed_game(NIL_HANDS, bids=(3, 0, 3, 3), plays="4D 5D 8D JD 8C")
    assert game.current_player == 0
    attacking = replace(V2, attack_slack=float("inf"))  # whatever its own contract needs
    assert act(HeuristicAgent(0, params=attacking), game) == str_to_card("3C")
    assert act(HeuristicAgent(0, params=replace(attacking, attack_follow=False)), game) == str_to_card("2C")


def test_the_attack_on_a_nil_lets_the_nil_bidder_beat_my_partner():
    # Seat 2 led the 8H, the Nil bidder's partner played under it; the Nil (seat 1) plays last. Counting the Nil
    # bidder as a threat to my partner's card, the heuristic overtakes with the ace and lets the Nil off.
    game = fixed_game(NIL_HANDS, bids=(3, 0, 3, 3), plays="4D 5D QD JD 8H 7H")
    assert act(HeuristicAgent(0, params=V2), game) == str_to_card("AH")
    attacking = replace(V2, attack_slack=float("inf"), attack_follow=False)
    assert act(HeuristicAgent(0, params=attacking), game) == str_to_card("2H")


def test_partner_of_a_nil_bidder_overtakes_it_cheaply():
    game = fixed_game(NIL_HANDS, bids=(3, 0, 3, 3), plays="2H 9H 8H")
    assert act(HeuristicAgent(0), game) == str_to_card("TH")


def _self_play_digest(num_players: int, hands: int) -> tuple[int, str]:
    """Every decision of heuristic self-play over ``hands`` single hands dealt at scattered scores and bags
    (far behind: Blind Nil and its exchange; near the target or the bag limit: the score margins), hashed."""
    rng = np.random.default_rng(num_players)
    agents = [HeuristicAgent(seat) for seat in range(num_players)]
    digest, count = hashlib.sha256(), 0
    for hand in range(hands):
        game = SpadesGame(SpadesConfig(num_players=num_players, single_hand=True))
        game.reset(hand, scores=tuple(int(s) for s in rng.integers(-20, 48, 2) * 10),
                   bags=tuple(int(b) for b in rng.integers(0, 10, 2)))
        for seat, agent in enumerate(agents):
            agent.reset(seat, hand * 4 + seat)
        while not game.game_over:
            action = ask(agents[game.current_player], game, None)
            digest.update(action.to_bytes(1, "little"))
            count += 1
            game.apply(action)
    return count, digest.hexdigest()[:16]


@pytest.mark.parametrize("num_players, expected", [(4, (3820, "a8629213ac5e38c9")), (2, (3261, "224d17b96a09fc56"))])
def test_the_heuristics_decisions_are_pinned(num_players, expected):
    """The heuristic's every decision in 60 hands of self-play, both variants, as recorded from the pure-Python
    card play (commit e917f4f): its compiled card play must keep each rule exactly, and a
    change of any rule shows here (update the digest with the change, saying why)."""
    assert _self_play_digest(num_players, 60) == expected


def test_compiled_card_play_rounds_probabilities_as_python_does():
    """The duck lead compares chances rounded to two decimals: ``_round2`` must be ``round(x, 2)`` exactly,
    halves included (0.125 is 0.12, 0.375 is 0.38: half to even on the exact binary value)."""
    from spades_env.agents.heuristic.play import _round2

    rng = np.random.default_rng(5)
    values = [0.0, 1.0, 0.125, 0.375, 0.625, 0.005, 0.015, 0.995, 1e-300, 0.5 ** 40, -0.125]
    values += list(rng.random(2000)) + [k / 200 for k in range(201)] + [k / 1024 for k in range(1025)]
    for x in values:
        assert _round2(x) == round(round(x, 2) * 100), x
