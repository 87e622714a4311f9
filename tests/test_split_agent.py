"""SplitAgent: bids from one agent, card play from another."""

from __future__ import annotations

import numpy as np
import pytest

from spades_env.agents import make_agent
from spades_env.agents.match import play_game
from spades_env.agents.split_agent import SplitAgent
from spades_env.game import Phase, SpadesConfig


class Tally:
    """Plays the last legal action (look, not Blind Nil) and remembers the phases it was asked about."""

    needs_observation = False

    def __init__(self) -> None:
        self.phases: set[Phase] = set()
        self.seats: list[int] = []

    def reset(self, seat: int, seed: int | None = None) -> None:
        self.seats.append(seat)

    def act(self, observation, action_mask, view) -> int:
        self.phases.add(view.phase)
        return int(np.flatnonzero(action_mask)[-1])


def test_bids_and_card_plays_go_to_their_agents():
    for num_players in (4, 2):
        bidder, player = Tally(), Tally()
        split = SplitAgent(bidder, player)
        assert not split.needs_observation
        game = play_game([split] * num_players, seed=3, config=SpadesConfig(num_players=num_players,
                                                                            single_hand=True))
        assert game.game_over
        assert player.phases == {Phase.PLAY}
        assert Phase.PLAY not in bidder.phases and Phase.BID in bidder.phases
        assert bidder.seats == player.seats == list(range(num_players))


def test_split_specs_from_the_registry():
    ppo_bids = make_agent("ppo-bids")
    assert ppo_bids.bidder.path.name == "ppo-4p-gen1.pt" and type(ppo_bids.player).__name__ == "HeuristicAgent"
    reverse = make_agent("split:heuristic+ppo-gen1")
    assert type(reverse.bidder).__name__ == "HeuristicAgent" and reverse.player.path.name == "ppo-4p-gen1.pt"
    game = play_game([ppo_bids, reverse] * 2, seed=1, config=SpadesConfig(single_hand=True))
    assert game.game_over and len(game.hand_records) == 1
    with pytest.raises(ValueError, match="BIDDER\\+PLAYER"):
        make_agent("split:heuristic")
