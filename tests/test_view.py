"""``player_view`` (every field of the dataclass, the constructor's view, frozen) and the action mask arrays."""

import dataclasses
import random

import pytest

from spades_env import SpadesGame
from spades_env.view import PlayerView, player_view


@pytest.mark.parametrize("num_players", [4, 2])
def test_views_through_a_hand_have_every_field_and_equal_the_constructors(num_players):
    game = SpadesGame(num_players=num_players, single_hand=True)
    game.reset(11)
    rng = random.Random(3)
    names = {f.name for f in dataclasses.fields(PlayerView)}
    while True:
        for seat in range(num_players):
            view = player_view(game, seat)
            assert set(vars(view)) == names
            rebuilt = PlayerView(**vars(view))
            assert rebuilt == view and hash(rebuilt) == hash(view) and repr(rebuilt) == repr(view)
            assert view.voids == tuple(frozenset(s for s in range(4) if game.voids[p] >> s & 1)
                                       for p in range(num_players))
        if game.game_over:
            break
        game.apply(rng.choice(game.legal_actions()))


def test_a_view_is_frozen():
    game = SpadesGame()
    game.reset(1)
    with pytest.raises(dataclasses.FrozenInstanceError):
        player_view(game, 0).seat = 1


def test_mask_array_is_every_legal_set_as_a_fresh_int8_array():
    import numpy as np

    from spades_env.actions import NUM_ACTIONS, mask_array
    from spades_env.cards import bits_to_array

    rng = random.Random(7)
    sets = [0, (1 << NUM_ACTIONS) - 1, 1 << 70, (1 << 52) - 1] + [rng.getrandbits(NUM_ACTIONS) for _ in range(2000)]
    for legal in sets:
        mask = mask_array(legal)
        assert mask.dtype == np.int8 and mask.shape == (NUM_ACTIONS,) and mask.flags.writeable
        assert (mask == bits_to_array(legal, NUM_ACTIONS)).all()
    for legal in (5, 1 << 70):  # with cards, and without (whose arrays are kept)
        first, second = mask_array(legal), mask_array(legal)
        first[:] = 0
        assert (second == bits_to_array(legal, NUM_ACTIONS)).all() and (mask_array(legal) == second).all()
