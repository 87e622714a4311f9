"""The variant description (``spades_env/variant.py``) is what the engine plays: sides and partners,
dealt or drawn hands, and the Blind Nil exchange or replacement with its card count."""

from __future__ import annotations

import pytest

from spades_env import actions as A
from spades_env.game import Phase, SpadesGame
from spades_env.render import SEAT_NAMES
from spades_env.variant import VARIANTS, variant_of


def test_variant_of_names_the_choices():
    assert variant_of(4) is VARIANTS[4]
    with pytest.raises(ValueError, match=r"num_players must be one of \[2, 4\], got 3"):
        variant_of(3)


def test_partners_and_sides():
    assert VARIANTS[4].partner == (2, 3, 0, 1) and VARIANTS[4].partnership
    assert VARIANTS[2].partner == (None, None) and not VARIANTS[2].partnership
    assert {v.blind_nil_cards for v in VARIANTS.values()} == {3}  # rules.md: three each way, at most three replaced
    for n, variant in VARIANTS.items():
        game = SpadesGame(num_players=n)
        assert game.members == variant.sides
        assert [game.partner(p) for p in range(n)] == list(variant.partner)
        assert all(p in variant.sides[variant.side_of[p]] for p in range(n))
        assert SEAT_NAMES[n] == variant.seat_names


def _play_to_the_card_play(game: SpadesGame, blind_seat: int) -> None:
    """Bid Blind Nil at ``blind_seat`` only; every other choice is the lowest legal action (no DONE while a
    replacement is allowed)."""
    while game.phase is not Phase.PLAY:
        legal = game.legal_actions()
        if game.phase is Phase.BLIND:
            action = A.BLIND_NIL if game.current_player == blind_seat else A.LOOK
        else:
            action = min(a for a in legal if a != A.DONE) if len(legal) > 1 else legal[0]
        game.apply(action)


@pytest.mark.parametrize("n", [4, 2])
def test_the_engine_deals_or_draws_and_exchanges_as_the_variant_says(n):
    variant = VARIANTS[n]
    game = SpadesGame(num_players=n)
    game.reset(seed=5, dealer=0)
    assert (game.phase is Phase.DRAW or game.phase is Phase.BLIND) if variant.drawn else game.phase is Phase.BLIND
    assert [h.bit_count() for h in game.hands] == ([0] * n if variant.drawn else [13] * n)
    blind_seat = 1  # the seat after the dealer: the first to bid
    _play_to_the_card_play(game, blind_seat)
    assert game.blind[blind_seat]
    if variant.blind_nil_exchange == "pass":
        assert len(game.passes) == 2 * variant.blind_nil_cards and not game.replacements
    else:
        assert len(game.replacements) == variant.blind_nil_cards and not game.passes
    assert all(h.bit_count() == 13 for h in game.hands)
