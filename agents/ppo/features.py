"""Card-play features the network computes from the observation vector (compiled with numba).

Why: the observation is one-hot blocks (my hand, the current trick by seat,
the cards played by seat, the leader). Card play turns on *relations*
between them -- does this card beat the trick so far? is it the highest card
of its suit still out? which is my cheapest winner? -- and a plain MLP learns
such comparisons slowly and imperfectly from one-hots (behaviour cloning of
the heuristic plateaued near 88% agreement on card plays without them).
These features are pure functions of the observation, computed inside the
network (a module without weights, on the observation's bits), so the agent
still needs nothing but the environment's ``"default"`` vector, and nothing is
hidden from the reader: every feature is listed here.

Per card (52 each): ``master`` (a card of mine with no higher card of its suit
still unseen), ``wins`` (a card of mine that would take the current trick if
played now; 0 when I lead), ``cheapest_winner`` (the lowest of those by trick
power), ``lowest`` / ``highest`` (my lowest / highest card of each suit),
``highest_loser`` (my highest card of each suit that would not take the
trick). Then ``unseen`` cards per suit (4, / 13), the led suit (4), the seat
now winning the trick (one per seat, relative) and whether the trick is empty.
"""

from __future__ import annotations

import numpy as np
import torch
from numba import njit
from torch import nn

from spades_env.bitscan import popcount
from spades_env.cards import FULL_DECK, FULL_SUIT, NUM_CARDS, TRICK_POWER
from spades_env.observations import layout

_PER_CARD = ("master", "wins", "cheapest_winner", "lowest", "highest", "highest_loser")


def feature_size(num_players: int) -> int:
    return len(_PER_CARD) * NUM_CARDS + 4 + 4 + num_players + 1


class CardFeatures(nn.Module):
    """``forward(obs)`` maps ``(B, >= obs_size)`` observations to ``(B, feature_size)`` float32 features.

    A module without weights, so that a network carries its features with it; the work is one compiled
    loop over the rows (:func:`card_features`) on the observations' bits. In torch, as some fifty
    tensor operations, it took a fifth of a training rollout: play-time batches are a few dozen rows,
    and each operation cost its fixed overhead (1.1 ms for 36 rows, against about 0.05 ms now).
    """

    def __init__(self, num_players: int) -> None:
        super().__init__()
        self.num_players = num_players
        blocks = layout(num_players)
        self.starts = tuple(blocks[name].start for name in ("hand", "trick", "played", "leader"))
        self.power = np.array(TRICK_POWER)  # writable: numba compiles read-only arrays separately

    @property
    def size(self) -> int:
        return feature_size(self.num_players)

    def forward(self, obs: torch.Tensor) -> torch.Tensor:
        rows = obs.detach().to("cpu", torch.float32).numpy()
        out = np.empty((len(rows), self.size), np.float32)
        card_features(rows, self.num_players, *self.starts, self.power, out)
        return torch.from_numpy(out).to(obs.device)


@njit(cache=True)
def card_features(obs, n, hand_at, trick_at, played_at, leader_at, power, out):
    """Fill ``out[b]`` with the features of observation row ``obs[b]`` (blocks at the given offsets)."""
    trick_cards = np.empty(n, np.int64)
    for b in range(obs.shape[0]):
        hand, unseen, led = _read_row(obs[b], n, hand_at, trick_at, played_at, leader_at, trick_cards)
        best, winner = 0, -1  # the trick's highest power so far and its seat (none before a card is led)
        wins, least = 0, 1 << 30
        if led >= 0:
            for s in range(n):
                if trick_cards[s] >= 0 and power[led, trick_cards[s]] > best:
                    best, winner = power[led, trick_cards[s]], s
            for c in range(NUM_CARDS):
                if hand >> c & 1 and power[led, c] > best:
                    wins |= 1 << c
                    least = min(least, power[led, c])
        losers = hand & ~wins
        out[b, :] = 0.0
        for c in range(NUM_CARDS):
            above = (FULL_SUIT << (13 * (c // 13))) & ~((2 << c) - 1)
            below = (FULL_SUIT << (13 * (c // 13))) & ((1 << c) - 1)
            if hand >> c & 1:
                out[b, c] = unseen & above == 0  # master
                out[b, 3 * NUM_CARDS + c] = hand & below == 0  # lowest
                out[b, 4 * NUM_CARDS + c] = hand & above == 0  # highest
            if wins >> c & 1:
                out[b, NUM_CARDS + c] = 1.0
                out[b, 2 * NUM_CARDS + c] = power[led, c] == least  # cheapest winner (winners' powers differ)
            if losers >> c & 1:
                out[b, 5 * NUM_CARDS + c] = losers & above == 0  # highest loser
        at = 6 * NUM_CARDS
        for suit in range(4):
            out[b, at + suit] = np.float32(popcount(unseen >> (13 * suit) & FULL_SUIT)) / np.float32(13)
        if led >= 0:
            out[b, at + 4 + led] = 1.0
            out[b, at + 8 + winner] = 1.0
        else:
            out[b, at + 8 + n] = 1.0


@njit(cache=True)
def _read_row(row, n, hand_at, trick_at, played_at, leader_at, trick_cards):
    """A row's cards as masks: (my hand, the cards unseen, the led suit or -1); ``trick_cards[s]``: seat s's
    card in the trick, or -1."""
    hand, played, led = 0, 0, -1
    trick_cards[:] = -1
    for c in range(NUM_CARDS):
        if row[hand_at + c] > 0.5:
            hand |= 1 << c
        for s in range(n):
            if row[played_at + s * NUM_CARDS + c] > 0.5:
                played |= 1 << c
            if row[trick_at + s * NUM_CARDS + c] > 0.5:
                trick_cards[s] = c
                if row[leader_at + s] > 0.5:
                    led = c // 13
    return hand, FULL_DECK & ~hand & ~played, led
