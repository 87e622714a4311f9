"""Policy-based inference: worlds weighted by how likely a policy makes the other seats' card plays in them.

Why: the worlds the search solves are deals consistent with what the seat saw (voids, and the opponent models
of :mod:`.worlds`), but a seat's card play says more about its hand than the voids it shows: a defender that
led a low club and followed low to a king holds other cards than one that cashed its aces. Rebstock, Solinas
and Buro weighted Skat worlds by a policy network's probability of the moves observed in them and found large
gains; this is that inference on Spades, with the shipped four-player network as the model of every seat.

How: the hand is replayed once from the view (:func:`spades_env.rebuild.game_from_view`), and before each card
another seat played, that seat's observation is encoded with its hand left out (:class:`PlayEvidence`). In a
world, the seat's hand at that play is the cards it holds there now plus those it played since; put into the
observation, it gives the network's probability of the card that was played among the cards that hand could
play. A world's log-likelihood is the sum over the plays. Seats in a Blind Nil exchange are left out (what they
passed and received is part of their observation and differs from world to world), as are bids (a bid is
read by the opponent models of :mod:`.worlds`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
import torch
from torch import nn

from spades_env.cards import NUM_CARDS, mask_of, masks_to_rows
from spades_env.game import SpadesGame
from spades_env.observations import encode, layout, observation_size
from spades_env.rebuild import exchanges, game_from_view
from spades_env.solver.position import legal_plays
from spades_env.view import PlayerView

from ..ppo.model import ActorCritic, shared_policy
from ..registry import make_agent

__all__ = ["PlayEvidence", "PolicyLikelihood", "exchange_seats", "likely_worlds", "play_evidence", "weighted_choice"]


@dataclass(frozen=True)
class PlayEvidence:
    """The other seats' card plays of this hand, as a policy saw them (one row a play)."""

    seats: np.ndarray  # int64 [P]: who played
    cards: np.ndarray  # int64 [P]: what it played
    later: list[int]  # [P]: the cards that seat played from this play on (its hand then: its hand now | these)
    tricks: list[tuple[tuple[int, int], ...]]  # [P]: the trick so far when it played
    broken: list[bool]  # [P]: spades broken before the play
    observations: np.ndarray  # float32 [P, D]: its observation then, hand block zeroed

    def __len__(self) -> int:
        return len(self.cards)


def exchange_seats(view: PlayerView) -> set[int]:
    """The seats of a Blind Nil exchange in this hand (bidder and partner; four players, after the bids)."""
    return {seat for pair in exchanges(view) for seat in pair} if view.num_players == 4 else set()


def play_evidence(view: PlayerView, seats: Sequence[int] | None = None) -> PlayEvidence:
    """The card plays of ``seats`` (default: every other seat not in a Blind Nil exchange) in this hand so far."""
    skip = exchange_seats(view) | {view.seat}
    wanted = {p for p in (range(view.num_players) if seats is None else seats) if p not in skip}
    hand = layout(view.num_players)["hand"]
    plays = iter(enumerate(view.plays))
    rows: list[tuple[int, int, int, tuple[tuple[int, int], ...], bool, np.ndarray]] = []

    def at_play(game: SpadesGame) -> None:
        i, (seat, card) = next(plays)
        if seat in wanted:
            obs = encode(game, seat)
            obs[hand.start:hand.stop] = 0
            rows.append((i, seat, card, tuple(game.trick), game.spades_broken, obs))

    game_from_view(view, at_play=at_play)
    later = [mask_of(c for p, c in view.plays[i:] if p == seat) for i, seat, *_ in rows]
    observations = (np.stack([r[5] for r in rows]) if rows
                    else np.zeros((0, observation_size(view.num_players)), np.float32))
    return PlayEvidence(np.array([r[1] for r in rows], np.int64), np.array([r[2] for r in rows], np.int64), later,
                        [r[3] for r in rows], [r[4] for r in rows], observations)


@lru_cache(maxsize=4)
def _model(policy: str) -> ActorCritic:
    agent = make_agent(policy)
    return shared_policy(agent.path)[0]


class PolicyLikelihood:
    """Log-likelihood of :class:`PlayEvidence` in worlds under a policy network (``ppo-v3`` by default)."""

    def __init__(self, policy: str = "ppo-v3") -> None:
        self.model = _model(policy)

    @torch.no_grad()
    def log_likelihoods(self, evidence: PlayEvidence, hands: np.ndarray) -> np.ndarray:
        """``hands``: int64 [W, num_players], each world's hands now; returns float64 [W].

        A play with one legal card in a world is certain there (log-probability 0) and is not evaluated.
        """
        worlds, plays = len(hands), len(evidence)
        held = (hands[:, evidence.seats] | np.array(evidence.later, np.int64)[None, :]).reshape(-1)  # [W * P]
        legal = np.array([legal_plays(int(h), evidence.tricks[i % plays], evidence.broken[i % plays])
                          for i, h in enumerate(held)], np.int64)
        rows = np.flatnonzero(legal & (legal - 1))  # more than one legal card
        total = np.zeros(worlds * plays)
        if len(rows):
            play = rows % plays
            bits = masks_to_rows(held[rows]).view(bool)
            logits = self._logits(evidence.observations, play, bits)[:, :NUM_CARDS]  # a card play's logits
            playable = torch.from_numpy(masks_to_rows(legal[rows]).view(bool))
            norm = logits.masked_fill(~playable, float("-inf")).logsumexp(1)
            chosen = logits.gather(1, torch.from_numpy(evidence.cards[play])[:, None])[:, 0]
            total[rows] = (chosen - norm).double().numpy()
        return total.reshape(worlds, plays).sum(1)

    def _logits(self, observations: np.ndarray, play: np.ndarray, bits: np.ndarray) -> torch.Tensor:
        """``model.logits`` of ``observations[play]`` with the hand block ``bits``. The first layer is linear, so
        its product with each play's observation (hand left out) is taken once, and per row only the hand's
        columns and the card features (half the time of the plain product)."""
        model = self.model
        first, width = model.torso[0], model.obs_size
        base = nn.functional.linear(torch.from_numpy(observations), first.weight[:, :width], first.bias)
        hand = torch.from_numpy(bits.astype(np.float32))
        h = base[torch.from_numpy(play)] + hand @ first.weight[:, :NUM_CARDS].T
        if model.features is not None:
            x = observations[play]
            x[:, :NUM_CARDS] = bits
            h = h + nn.functional.linear(model.features_of(torch.from_numpy(x)), first.weight[:, width:])
        for layer in model.torso[1:]:
            h = layer(h)
        return model.policy(h)


def weighted_choice(log_weights: np.ndarray, count: int, tau: float, rng: np.random.Generator) -> np.ndarray:
    """``count`` indices drawn without replacement with probabilities proportional to ``exp(tau * log_weights)``
    (Gumbel top-k), most probable first; ``tau`` = inf: the ``count`` largest, 0: uniformly."""
    if np.isinf(tau):
        keys = log_weights.astype(float)
    else:
        keys = tau * log_weights + rng.gumbel(size=len(log_weights))
    return np.argsort(-keys, kind="stable")[:count]


def likely_worlds(view: PlayerView, worlds: list[SpadesGame], count: int, tau: float,
                  rng: np.random.Generator, policy: str = "ppo-v3") -> list[SpadesGame]:
    """``count`` of ``worlds`` chosen by :func:`weighted_choice` on their log-likelihoods (:class:`PolicyLikelihood`
    of :func:`play_evidence`), most probable first."""
    if len(worlds) <= count:
        return worlds
    evidence = play_evidence(view)
    hands = np.array([w.hands for w in worlds], np.int64)
    log_weights = PolicyLikelihood(policy).log_likelihoods(evidence, hands)
    return [worlds[i] for i in weighted_choice(log_weights, count, tau, rng)]
