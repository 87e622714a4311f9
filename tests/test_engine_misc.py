"""Engine conventions not tied to one rule."""

from spades_env import SpadesGame


def test_reset_without_seed_continues_the_generator():
    a, b = SpadesGame(), SpadesGame()
    a.reset(seed=5)
    b.reset(seed=5)
    assert a.start_hands == b.start_hands
    a.reset()
    b.reset()
    assert a.start_hands == b.start_hands  # the same continuation of the same seed
    first = SpadesGame()
    first.reset(seed=5)
    assert a.start_hands != first.start_hands  # a new deal, not the seed's first one again
