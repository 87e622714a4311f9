"""Card-play features the network computes from the observation vector, in torch.

Why: the observation is one-hot blocks (my hand, the current trick by seat,
the cards played by seat, the leader). Card play turns on *relations*
between them -- does this card beat the trick so far? is it the highest card
of its suit still out? which is my cheapest winner? -- and a plain MLP learns
such comparisons slowly and imperfectly from one-hots (behaviour cloning of
the heuristic plateaued near 88% agreement on card plays without them).
These features are pure functions of the observation, computed inside the
network, so the agent still needs nothing but the environment's ``"default"``
vector, and nothing is hidden from the reader: every feature is listed here.

Per card (52 each): ``master`` (a card of mine with no higher card of its suit
still unseen), ``wins`` (a card of mine that would take the current trick if
played now; 0 when I lead), ``cheapest_winner`` (the lowest of those by trick
power), ``lowest`` / ``highest`` (my lowest / highest card of each suit),
``highest_loser`` (my highest card of each suit that would not take the
trick). Then ``unseen`` cards per suit (4, / 13), the led suit (4), the seat
now winning the trick (one per seat, relative) and whether the trick is empty.
"""

from __future__ import annotations

import torch
from torch import nn

from spades_env.cards import NUM_CARDS, RANK_OF, SUIT_OF, TRICK_POWER
from spades_env.observations import layout

_PER_CARD = ("master", "wins", "cheapest_winner", "lowest", "highest", "highest_loser")


def feature_size(num_players: int) -> int:
    return len(_PER_CARD) * NUM_CARDS + 4 + 4 + num_players + 1


class CardFeatures(nn.Module):
    """``forward(obs)`` maps ``(B, >= obs_size)`` observations to ``(B, feature_size)`` features."""

    def __init__(self, num_players: int) -> None:
        super().__init__()
        self.num_players = num_players
        blocks = layout(num_players)
        self.at = {name: (blocks[name].start, blocks[name].stop) for name in ("hand", "trick", "played", "leader")}
        rank, suit = torch.tensor(RANK_OF), torch.tensor(SUIT_OF)
        # Trick power of each card by led suit (cards.TRICK_POWER: spades beat the led suit, which beats the
        # rest; power 0: cannot win).
        self.register_buffer("trick_power", torch.tensor(TRICK_POWER, dtype=torch.float32), persistent=False)
        self.register_buffer("suit_onehot", nn.functional.one_hot(suit, 4).float(), persistent=False)  # (52, 4)
        # lower[c, d] = 1 when d is of c's suit and ranks below it
        same = suit[:, None] == suit[None, :]
        self.register_buffer("lower", (same & (rank[None, :] < rank[:, None])).float(), persistent=False)

    @property
    def size(self) -> int:
        return feature_size(self.num_players)

    def _block(self, obs: torch.Tensor, name: str) -> torch.Tensor:
        start, stop = self.at[name]
        return obs[:, start:stop]

    def _above(self, cards: torch.Tensor) -> torch.Tensor:
        """Per card: how many of ``cards`` (B, 52) are of its suit and rank above it."""
        return cards @ self.lower

    def _below(self, cards: torch.Tensor) -> torch.Tensor:
        """Per card: how many of ``cards`` (B, 52) are of its suit and rank below it."""
        return cards @ self.lower.T

    def forward(self, obs: torch.Tensor) -> torch.Tensor:
        n = self.num_players
        batch = obs.shape[0]
        hand = self._block(obs, "hand")
        trick = self._block(obs, "trick").reshape(batch, n, NUM_CARDS)
        played = self._block(obs, "played").reshape(batch, n, NUM_CARDS).sum(1)
        leader = self._block(obs, "leader")
        unseen = (1 - hand - played).clamp(min=0)  # cards neither mine nor played: in someone's hand (or the stock)

        master = hand * (self._above(unseen) == 0).float()

        led = ((leader.unsqueeze(2) * trick).sum(1) @ self.suit_onehot).clamp(max=1)  # (B, 4) led suit
        power = led @ self.trick_power  # (B, 52); all 0 before a card is led
        seat_best = (trick * power.unsqueeze(1)).amax(2)  # (B, n)
        best = seat_best.amax(1, keepdim=True)
        started = (best > 0).float()
        winner = (seat_best == best).float() * started
        wins = hand * (power > best).float() * started

        # Winning cards all have distinct powers (spades 14.., the led suit 1..), so the cheapest is unique.
        least = torch.where(wins > 0, power, torch.inf).amin(1, keepdim=True)
        cheapest = wins * (power == least).float()
        lowest = hand * (self._below(hand) == 0).float()
        highest = hand * (self._above(hand) == 0).float()
        losers = hand * (1 - wins)
        highest_loser = losers * (self._above(losers) == 0).float()
        return torch.cat([master, wins, cheapest, lowest, highest, highest_loser, unseen @ self.suit_onehot / 13,
                          led, winner, 1 - started], dim=1)
