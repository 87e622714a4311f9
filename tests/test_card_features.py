"""The network's card-play features against a plain-Python reading of the same positions."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from spades_env.actions import NUM_ACTIONS
from spades_env.agents.ppo.features import CardFeatures, feature_size
from spades_env.agents.ppo.model import ActorCritic, load_policy, save_policy
from spades_env.cards import NUM_CARDS, SPADES
from spades_env.game import Phase, SpadesConfig, SpadesGame
from spades_env.observations import encode, observation_size


def reference(game: SpadesGame, me: int) -> np.ndarray:
    """The features of ``spades_env.agents.ppo.features``, computed from the engine's state with loops."""
    n = game.config.num_players
    hand = [c for c in range(NUM_CARDS) if game.hands[me] >> c & 1]
    played = {card for _, card in game.plays}
    unseen = [c for c in range(NUM_CARDS) if c not in played and c not in hand]
    suit, rank = (lambda c: c // 13), (lambda c: c % 13)
    led = suit(game.trick[0][1]) if game.trick else None

    def power(c: int) -> int:
        if suit(c) == SPADES:
            return 27 + rank(c)
        return 14 + rank(c) if suit(c) == led else 0

    best = max((power(c) for _, c in game.trick), default=0)
    wins = [c for c in hand if game.trick and power(c) > best]
    per_card = {
        "master": [c for c in hand if not any(suit(u) == suit(c) and rank(u) > rank(c) for u in unseen)],
        "wins": wins,
        "cheapest_winner": [c for c in wins if all(power(d) >= power(c) for d in wins)],
        "lowest": [c for c in hand if not any(suit(d) == suit(c) and rank(d) < rank(c) for d in hand)],
        "highest": [c for c in hand if not any(suit(d) == suit(c) and rank(d) > rank(c) for d in hand)],
        "highest_loser": [c for c in hand if c not in wins and not any(
            suit(d) == suit(c) and rank(d) > rank(c) for d in hand if d not in wins)],
    }
    out = []
    for name in ("master", "wins", "cheapest_winner", "lowest", "highest", "highest_loser"):
        v = np.zeros(NUM_CARDS)
        v[per_card[name]] = 1
        out.append(v)
    out.append(np.array([sum(suit(u) == s for u in unseen) / 13 for s in range(4)]))
    out.append(np.eye(4)[led] if led is not None else np.zeros(4))
    winner = np.zeros(n)
    if game.trick:
        seat = max(game.trick, key=lambda sc: power(sc[1]))[0]
        winner[(seat - me) % n] = 1
    out += [winner, np.array([0.0 if game.trick else 1.0])]
    return np.concatenate(out)


@pytest.mark.parametrize("num_players", [4, 2])
def test_features_match_the_reference_on_random_play(num_players):
    features = CardFeatures(num_players)
    rng = np.random.default_rng(num_players)
    checked = 0
    for seed in range(12):
        game = SpadesGame(SpadesConfig(num_players=num_players, single_hand=True))
        game.reset(seed)
        while not game.game_over:
            me = game.current_player
            if game.phase == Phase.PLAY:
                got = features(torch.from_numpy(encode(game, me)).unsqueeze(0))[0].numpy()
                assert got.shape == (feature_size(num_players),)
                np.testing.assert_allclose(got, reference(game, me), atol=1e-6, err_msg=f"seed {seed}")
                checked += 1
            legal = [a for a in range(NUM_ACTIONS) if game.legal_mask() >> a & 1]
            game.apply(int(rng.choice(legal)))
    assert checked > 12 * 13 * num_players // 2


def test_policy_with_features_round_trips(tmp_path):
    model = ActorCritic(observation_size(4), [32], observation_size(4, "oracle"), card_features=True)
    save_policy(model, tmp_path / "p.pt", 4)
    loaded, data = load_policy(tmp_path / "p.pt")
    assert data["card_features"] and loaded.card_features
    x = torch.rand(5, observation_size(4, "oracle"))
    for a, b in zip(model(x), loaded(x)):
        torch.testing.assert_close(a, b)
    torch.testing.assert_close(loaded.logits(x[:, :observation_size(4)]), model(x)[0])


def test_actor_only_file_plays_the_same_and_is_smaller(tmp_path):
    model = ActorCritic(observation_size(4), [64, 32], observation_size(4, "oracle"), card_features=True)
    save_policy(model, tmp_path / "full.pt", 4)
    save_policy(model, tmp_path / "actor.pt", 4, actor_only=True)
    assert (tmp_path / "actor.pt").stat().st_size < 0.7 * (tmp_path / "full.pt").stat().st_size
    loaded, data = load_policy(tmp_path / "actor.pt")
    assert data["actor_only"] and loaded.critic is None
    x = torch.rand(6, observation_size(4))
    torch.testing.assert_close(loaded.logits(x), model.logits(x))
    assert (loaded(x)[1] == 0).all()
