"""Two-player worlds for search that model how the opponent drew: the draw replayed as the engine runs it,
worlds that show the seat's own view, and the weighted sampler's exact distribution."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

from spades_env.agent import ask
from spades_env.agents.heuristic import HeuristicAgent
from spades_env.agents.search.worlds import InconsistentView, drawn_worlds, keep_odds, simulate_draw, weighted_subset
from spades_env.cards import FULL_DECK, card_id, mask_of
from spades_env.game import Phase, SpadesConfig, SpadesGame
from spades_env.view import player_view


def _drawn(seed: int) -> SpadesGame:
    """A two-player single hand after a draw by heuristic players, at the first bid."""
    game = SpadesGame(SpadesConfig(num_players=2, single_hand=True))
    game.reset(seed=seed)
    bot = HeuristicAgent(seed=seed)
    while game.phase != Phase.BID:
        game.apply(ask(bot, game, None))
    return game


@pytest.mark.parametrize("seed", range(8))
def test_simulated_draw_keeps_what_the_engine_deals_a_heuristic_drawer(seed):
    game = _drawn(seed)
    for player in (0, 1):  # each player's turns: the stock's pairs where (dealer + turn) % 2 is the player
        order = [card for turn in range(26) if (game.dealer + turn) % 2 == player
                 for card in game.stock[2 * turn:2 * turn + 2]]
        assert simulate_draw(order) == game.hands[player]


def _decisions(seed: int):
    """Views of heuristic two-player hands at every bid and card play of both seats."""
    game = _drawn(seed)
    bot = HeuristicAgent(seed=seed)
    while game.phase != Phase.GAME_OVER:
        if game.phase in (Phase.BID, Phase.PLAY):
            yield player_view(game, game.current_player)
        game.apply(ask(bot, game, None))


def test_drawn_worlds_show_the_seat_its_own_view():
    rng = np.random.default_rng(0)
    checked = 0
    for seed in range(4):
        for view in _decisions(seed):
            for world in drawn_worlds(view, 2, rng):
                assert player_view(world, view.seat) == view
                assert world.hands[view.seat] == mask_of(view.hand)
                checked += 1
    assert checked > 200


def test_drawn_worlds_give_the_opponent_the_cards_a_drawer_keeps():
    """Over many worlds at the bid, the opponent holds the ace of spades about as often as a heuristic drawer
    keeps it (from the pool of its turns), far more than the uniform half."""
    ace = card_id(3, 12)  # the ace of spades
    for seed in range(20):
        view = player_view(game := _drawn(seed), game.current_player)
        pool = FULL_DECK & ~mask_of(view.hand) & ~mask_of(view.discarded)  # the cards of the opponent's turns
        if pool >> ace & 1:
            break
    worlds = list(drawn_worlds(view, 400, np.random.default_rng(1)))
    held = sum(w.hands[1 - view.seat] >> ace & 1 for w in worlds) / len(worlds)
    odds = keep_odds(pool)[ace]
    assert held > 0.7 and abs(held - odds / (1 + odds)) < 0.08


def test_weighted_subset_draws_each_subset_in_proportion_to_its_weight():
    cards, weights, size = [3, 8, 20, 41, 50], [0.5, 1.0, 2.0, 3.0, 0.25], 2
    rng = np.random.default_rng(5)
    draws = 40_000
    counts: dict[int, int] = {}
    for _ in range(draws):
        subset = weighted_subset(cards, weights, size, rng)
        assert subset.bit_count() == size and subset & ~mask_of(cards) == 0
        counts[subset] = counts.get(subset, 0) + 1
    pairs = list(itertools.combinations(range(len(cards)), size))
    total = sum(math.prod(weights[i] for i in pair) for pair in pairs)
    chi2 = 0.0
    for pair in pairs:
        expected = draws * math.prod(weights[i] for i in pair) / total
        chi2 += (counts.get(mask_of(cards[i] for i in pair), 0) - expected) ** 2 / expected
    assert chi2 < 27.9  # chi-square, 9 degrees of freedom: p = 0.001
    with pytest.raises(InconsistentView, match="only 5 fit"):
        weighted_subset(cards, weights, 6, rng)
