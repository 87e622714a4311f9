"""Fast end-to-end checks that the package imports and a game runs."""

import random

from spades_env import SpadesGame, spades_v0


def test_random_games_finish():
    game = SpadesGame()
    rng = random.Random(0)
    for seed in range(5):
        game.reset(seed)
        while not game.game_over:
            game.apply(rng.choice(game.legal_actions()))
        assert game.terminated or game.truncated
        assert len(game.hand_records) == game.hand_number


def test_env_runs():
    env = spades_v0.env()
    env.reset(seed=1)
    for _agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(obs["action_mask"].nonzero()[0][0]))
