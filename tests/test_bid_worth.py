"""The bids' paired play-outs (experiments/bid_worth.py) replay on the reference engine."""

import numpy as np
import pytest

from spades_env import actions as A
from spades_env.agents.match import play_game
from spades_env.agents.ppo.model import SHIPPED, PPOAgent
from spades_env.experiments.bid_worth import ARMS, collect_chunk
from spades_env.game import Phase, SpadesConfig


class ForcedBid(PPOAgent):
    """The greedy policy, its first bid replaced by ``bid``."""

    needs_view = True

    def __init__(self, bid: int) -> None:
        super().__init__(SHIPPED[4])
        self.bid = bid

    def act(self, observation, action_mask, view=None):
        if view.phase == Phase.BID and action_mask[self.bid]:
            return self.bid
        return super().act(observation, action_mask, view)


@pytest.fixture(scope="module")
def labels():
    return collect_chunk(SHIPPED[4], pairs=12, seed=5, rules="house", share=0.5)


def test_every_arm_of_a_deal_replays_on_the_reference_engine(labels):
    assert len(labels["result"]) >= 6  # most deals reach the probed seat's bid with Nil open
    config = SpadesConfig.from_preset("house", single_hand=True)
    for i in range(3):
        other = int(labels["other_bid"][i])
        for arm, bid in enumerate((A.bid_action(0), other, other - 1, other + 1)):
            if np.isnan(labels["points"][i, arm]):
                continue
            agents = [ForcedBid(bid) if seat == labels["probe"][i] else PPOAgent(SHIPPED[4]) for seat in range(4)]
            game = play_game(agents, config=config, deal=labels["deal"][i].tolist(),
                             dealer=int(labels["dealer"][i]), scores=labels["scores"][i].tolist(),
                             bags=labels["bags"][i].tolist())
            record = game.hand_records[0]
            side = int(labels["probe"][i]) % 2
            assert record["bids"][labels["probe"][i]] == bid - A.BID_BASE, ARMS[arm]
            assert record["points"][side] - record["points"][1 - side] == labels["points"][i, arm], ARMS[arm]


def test_the_other_bid_is_never_nil_and_every_deal_has_both_nil_and_it(labels):
    assert (labels["other_bid"] != A.bid_action(0)).all()
    assert np.isfinite(labels["result"][:, :2]).all()
    assert np.isnan(labels["result"][labels["other_bid"] == A.bid_action(1), 2]).all()  # one under 1 is Nil
