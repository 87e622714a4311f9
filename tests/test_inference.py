"""Policy-based inference: the other seats' card plays, as the network saw them, weigh the search's worlds."""

import numpy as np
import pytest
import torch

from spades_env.agents import make_agent
from spades_env.agents.ppo.model import masked_log_probs
from spades_env.agents.search.inference import (
    PolicyLikelihood,
    exchange_seats,
    likely_worlds,
    play_evidence,
    weighted_choice,
)
from spades_env.game import Phase, SpadesConfig, SpadesGame
from spades_env.observations import encode, layout
from spades_env.view import player_view

HAND = layout(4)["hand"]


def _played(seed: int, plays: int, **rules):
    """A four-player hand played by the heuristic to ``plays`` cards, each seat's observation before each card."""
    game = SpadesGame(SpadesConfig(single_hand=True, **rules))
    game.reset(seed=seed)
    agent = make_agent("heuristic-v2")
    seen = []
    while not (game.phase == Phase.PLAY and len(game.plays) == plays):
        seat = game.current_player
        if game.phase == Phase.PLAY:
            seen.append((seat, encode(game, seat), game.legal_mask()))
        game.apply(agent.act(None, None, player_view(game, seat)))
    return game, seen


HOUSE = {"blind_nil_min_deficit": 100}


@pytest.mark.parametrize("seed, rules, exchanged",
                         [(3, HOUSE, 0), (4, HOUSE, 0), (5, {}, 4), (9, {"blind_nil": False}, 0)])
def test_the_evidence_is_what_each_other_seat_saw_before_its_card(seed, rules, exchanged):
    """Under the game's own rule the heuristic's sides both bid Blind Nil: every seat is in an exchange, whose
    passes are part of what it saw and differ from world to world, so none of their plays is read."""
    game, seen = _played(seed, 23, **rules)
    view = player_view(game, game.current_player, infostate=True)
    evidence = play_evidence(view)
    skip = exchange_seats(view) | {view.seat}
    assert len(exchange_seats(view)) == exchanged
    expected = [(seat, obs, card) for (seat, obs, _), (_, card) in zip(seen, game.plays) if seat not in skip]
    assert len(evidence) == len(expected) and (len(expected) == 0) == (exchanged == 4)
    for row, (seat, obs, card) in enumerate(expected):
        obs = obs.copy()
        obs[HAND.start:HAND.stop] = 0
        assert evidence.seats[row] == seat and evidence.cards[row] == card
        np.testing.assert_array_equal(evidence.observations[row], obs)


def test_the_true_deals_likelihood_is_the_networks_probability_of_the_plays():
    game, seen = _played(7, 30, **HOUSE)
    view = player_view(game, game.current_player, infostate=True)
    likelihood = PolicyLikelihood()
    expected = 0.0
    for (seat, obs, legal), (_, card) in zip(seen, game.plays):
        if seat == view.seat or legal & (legal - 1) == 0:
            continue
        mask = torch.tensor([[bool(legal >> a & 1) for a in range(71)]])
        with torch.no_grad():
            expected += float(masked_log_probs(likelihood.model.logits(torch.from_numpy(obs[None])), mask)[0, card])
    hands = np.array([game.hands], np.int64)
    assert likelihood.log_likelihoods(play_evidence(view), hands)[0] == pytest.approx(expected, abs=1e-3)


def test_worlds_kept_are_consistent_and_the_true_deal_is_more_likely_than_most():
    game, _ = _played(8, 28, **HOUSE)
    view = player_view(game, game.current_player, infostate=True)
    rng = np.random.default_rng(0)
    worlds = [view.infostate.resample(rng) for _ in range(64)]
    kept = likely_worlds(view, worlds, 8, float("inf"), rng)
    assert len(kept) == 8 and all(any(w is k for w in worlds) for k in kept)
    assert all(player_view(k, view.seat) == view for k in kept)
    evidence, likelihood = play_evidence(view), PolicyLikelihood()
    scores = likelihood.log_likelihoods(evidence, np.array([w.hands for w in worlds + [game]], np.int64))
    assert (scores[:-1] > scores[-1]).mean() < 0.5
    assert min(scores[[worlds.index(k) for k in kept]]) >= np.sort(scores[:-1])[-8]


def test_weighted_choice_spans_the_temperatures():
    rng = np.random.default_rng(1)
    log_weights = np.array([0.0, -1.0, -50.0, -2.0, -100.0])
    assert list(weighted_choice(log_weights, 3, float("inf"), rng)) == [0, 1, 3]
    picks = [tuple(sorted(weighted_choice(log_weights, 2, 0.0, rng))) for _ in range(400)]
    assert len(set(picks)) == 10  # tau 0: every pair of the five
    assert all(len(set(weighted_choice(log_weights, 4, 1.0, rng))) == 4 for _ in range(20))


def test_infer_is_an_option_of_the_search_and_bad_values_are_refused():
    budget = make_agent("search-v3:nil_play=true,infer=4,infer_tau=inf").four.budget
    assert (budget.infer, budget.infer_tau, budget.worlds) == (4, float("inf"), 24)
    with pytest.raises(ValueError, match="infer_tau a temperature >= 0"):
        make_agent("endgame:ppo-v3:infer=4,infer_tau=-1")
