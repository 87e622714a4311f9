"""Where the batched engine's deals come from: one generator per game (replays ``SpadesGame.reset(seed)``)
or one for the whole batch (vectorised draws), and fixed first deals given to ``reset``."""

from __future__ import annotations

import numpy as np

from ..cards import NUM_CARDS, to_card


class DealSource:
    """Where deals (and two-player replacement draws) come from; see the module docstring.

    ``per_game``: game ``b`` owns ``default_rng(seed)`` and draws from it as ``SpadesGame`` does (the first
    dealer unless given, one permutation per hand, one ``integers`` per replacement). Otherwise one
    generator serves every slot, with vectorised draws. Host-side numpy either way.
    """

    def __init__(self, num_envs: int, num_players: int, per_game: bool, seed: int | None) -> None:
        self.per_game, self.num_players = per_game, num_players
        self.master = np.random.default_rng(seed)
        self.rngs: list[np.random.Generator | None] = [None] * num_envs
        self.seeds = np.zeros(num_envs, np.int64)

    def new_games(self, slots: np.ndarray, seeds: np.ndarray | None, dealers: np.ndarray | None) -> np.ndarray:
        """Start games in ``slots``; returns their first dealers."""
        if not self.per_game:
            if seeds is not None:
                raise ValueError("seeds need per_game_seeds=True (each game then owns a generator)")
            return self.master.integers(self.num_players, size=len(slots)) if dealers is None else dealers
        if seeds is None:
            seeds = self.master.integers(2**63, size=len(slots))
        for b, s in zip(slots.tolist(), seeds.tolist()):
            self.rngs[b] = np.random.default_rng(s)
            self.seeds[b] = s
        if dealers is not None:
            return dealers
        return np.array([self.rngs[b].integers(self.num_players) for b in slots.tolist()], np.int64)

    def permutations(self, slots: np.ndarray) -> np.ndarray:
        """One shuffled deck (k, 52) per slot."""
        if not self.per_game:
            return self.master.permuted(np.broadcast_to(np.arange(NUM_CARDS), (len(slots), NUM_CARDS)), axis=1)
        return np.array([self.rngs[b].permutation(NUM_CARDS) for b in slots.tolist()],
                        np.int64).reshape(len(slots), NUM_CARDS)

    def indices(self, slots: np.ndarray, counts: np.ndarray) -> np.ndarray:
        """A uniform index in ``0..counts[i]-1`` per slot."""
        if not self.per_game:
            return self.master.integers(counts)
        return np.array([self.rngs[b].integers(c) for b, c in zip(slots.tolist(), counts.tolist())], np.int64)


def check_deals(deals, num_envs: int, num_players: int) -> np.ndarray:
    """Fixed first deals as (B, 52) decks: seat p holds [13p, 13p + 13) (four players), or the stock."""
    B, n = num_envs, num_players
    if len(deals) != B:
        raise ValueError(f"deals must give one deal per game ({B}), got {len(deals)}")
    decks = np.zeros((B, NUM_CARDS), np.int64)
    for b, deal in enumerate(deals):
        cards = [to_card(c) for c in deal] if n == 2 else [to_card(c) for hand in deal for c in hand]
        if (n == 4 and (len(deal) != n or any(len(hand) != 13 for hand in deal))) or len(cards) != NUM_CARDS:
            raise ValueError(f"deal {b} must be {'the 52-card stock' if n == 2 else '4 hands of 13 cards'}")
        if len(set(cards)) != NUM_CARDS:
            raise ValueError(f"deal {b} repeats cards")
        decks[b] = cards
    return decks
