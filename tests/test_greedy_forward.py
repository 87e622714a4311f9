"""The numpy forward a greedy PPOAgent plays by (agents/ppo/greedy.py) decides as the torch forward does."""

import numpy as np
import pytest
import torch

from spades_env.agents.match import play_game
from spades_env.agents.ppo.greedy import TIE, GreedyForward
from spades_env.agents.ppo.model import ActorCritic, PPOAgent, masked_log_probs
from spades_env.agents.registry import make_agent
from spades_env.observations import observation_size


class Recording(PPOAgent):
    def __init__(self, seen: list) -> None:
        super().__init__()
        self.seen = seen

    def act(self, observation, action_mask, view=None):
        self.seen.append((np.array(observation, np.float32), np.array(action_mask, bool)))
        return super().act(observation, action_mask, view)


@pytest.fixture(scope="module")
def positions() -> list:
    seen: list = []
    for seed in range(3):
        play_game([Recording(seen), make_agent("heuristic-v2"), Recording(seen), make_agent("heuristic-v2")],
                  seed=seed)
    return seen


def torch_choice(model: ActorCritic, observation: np.ndarray, mask: np.ndarray) -> int:
    with torch.no_grad():
        logits = model.logits(torch.as_tensor(observation).unsqueeze(0))
        return int(masked_log_probs(logits, torch.as_tensor(mask).unsqueeze(0)).argmax(-1))


def test_the_shipped_network_plays_the_same_actions_as_its_torch_forward(positions):
    agent = PPOAgent()
    assert len(positions) > 100
    for observation, mask in positions:
        with torch.no_grad():
            expected = agent.model.logits(torch.as_tensor(observation).unsqueeze(0))[0].numpy()
        assert np.abs(agent.fast.logits(observation) - expected).max() < 1e-4
        assert agent.act(observation, mask) == torch_choice(agent.model, observation, mask)


@pytest.mark.parametrize("card_features", [False, True])
def test_any_actor_without_or_with_card_features(card_features):
    torch.manual_seed(1)
    model = ActorCritic(observation_size(4), [64, 32, 16], card_features=card_features).eval()
    fast = GreedyForward(model)
    rng = np.random.default_rng(2)
    for _ in range(50):
        observation = (rng.random(observation_size(4)) < 0.05).astype(np.float32)
        mask = rng.random(71) < 0.3
        mask[rng.integers(71)] = True
        action = fast.act(observation, mask)
        assert action is None or action == torch_choice(model, observation, mask)
        assert action is None or mask[action]


def test_a_near_tie_is_left_to_torch():
    torch.manual_seed(1)
    model = ActorCritic(observation_size(4), [8]).eval()
    with torch.no_grad():
        model.policy.weight.zero_()
        model.policy.bias.zero_()
        model.policy.bias[5] = TIE / 2  # 5 and 6 closer than TIE; 7 far below
        model.policy.bias[7] = -1.0
    fast = GreedyForward(model)
    observation = np.zeros(observation_size(4), np.float32)
    mask = np.zeros(71, bool)
    assert fast.act(observation, mask | (np.arange(71) == 5)) == 5  # one legal action: no tie to call
    mask[[5, 6, 7]] = True
    assert fast.act(observation, mask) is None
    mask[6] = False
    assert fast.act(observation, mask) == 5
