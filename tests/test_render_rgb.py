"""``render_mode="rgb_array"``: the frames' shape and type, and that each card played, dealt or hidden
changes the picture exactly where the layout puts it (spades_env.render_rgb)."""

from __future__ import annotations

import functools

import numpy as np
import pytest
from pettingzoo.test import render_test

from spades_env import spades_v0
from spades_env.cards import cards_of
from spades_env.game import Phase, SpadesGame
from spades_env.render import SEAT_NAMES
from spades_env.render_rgb import (
    CARD_H,
    CARD_W,
    FAN_STEP,
    HEIGHT,
    PLACES,
    WIDTH,
    back_sprite,
    card_sprite,
    display_order,
    fan_positions,
    render_rgb,
)


def play_until(game: SpadesGame, rng: np.random.Generator, done) -> None:
    while not done(game):
        game.apply(int(rng.choice(game.legal_actions())))


def mid_trick_game(num_players: int = 4, seed: int = 3) -> SpadesGame:
    """A game in the play, one card into its third trick."""
    game = SpadesGame(num_players=num_players)
    game.reset(seed)
    third_trick = 2 * num_players + 1
    play_until(game, np.random.default_rng(seed), lambda g: g.phase == Phase.PLAY and len(g.plays) == third_trick)
    return game


def seat_name(game: SpadesGame, p: int) -> str:
    return SEAT_NAMES[game.num_players][p]


def hand_box(game: SpadesGame, p: int, cards: int) -> tuple[slice, slice]:
    positions = fan_positions(cards, PLACES[seat_name(game, p)].hand_centre)
    (x, y), (last_x, _) = positions[0], positions[-1]
    return slice(y, y + CARD_H), slice(x, last_x + CARD_W)


def label_rows(game: SpadesGame, p: int) -> slice:
    """The rows of a seat's label (its name, bid and tricks; highlighted while it is to act)."""
    y = PLACES[seat_name(game, p)].hand_centre[1] - CARD_H // 2 - 20
    return slice(y - 16, y + 16)


def trick_box(game: SpadesGame, p: int) -> tuple[slice, slice]:
    x, y = PLACES[seat_name(game, p)].trick
    return slice(y - 4, y + CARD_H + 4), slice(x - 4, x + CARD_W + 4)


def shows(frame: np.ndarray, sprite, x: int, y: int, columns: int | None = None) -> bool:
    """Whether the sprite's pixels (its first ``columns`` columns) are in the frame at (x, y)."""
    w = columns or sprite.rgb.shape[1]
    region = frame[y:y + sprite.rgb.shape[0], x:x + w]
    mask = sprite.mask[:, :w]
    return bool(np.array_equal(region[mask], sprite.rgb[:, :w][mask]))


@pytest.mark.parametrize("num_players", [4, 2])
def test_frames_are_rgb_uint8_of_one_size_in_every_phase(num_players):
    env = spades_v0.env(num_players=num_players, render_mode="rgb_array")
    env.reset(seed=1)
    phases = set()
    for _ in env.agent_iter():
        frame = env.render()
        assert isinstance(frame, np.ndarray) and frame.dtype == np.uint8 and frame.shape == (HEIGHT, WIDTH, 3)
        phases.add(env.unwrapped.game.phase)
        obs, _, term, trunc, _ = env.last()
        env.step(None if term or trunc else int(np.flatnonzero(obs["action_mask"])[-1]))
        if len(phases) > 3 and env.unwrapped.game.hand_records:
            break
    assert Phase.PLAY in phases and Phase.BID in phases
    assert env.render() is not env.render()  # a new array each call: a video recorder may keep them


def test_a_card_played_appears_in_its_seat_slot_and_leaves_its_hand_and_nothing_else_changes():
    game = mid_trick_game()
    p = game.current_player
    card = display_order(cards_of(game.legal_mask()))[0]
    held = game.hands[p].bit_count()
    before = render_rgb(game)
    game.apply(card)
    after = render_rgb(game)
    changed = np.any(before != after, axis=2)
    allowed = np.zeros_like(changed)
    allowed[trick_box(game, p)] = True
    allowed[hand_box(game, p, held)] = True
    allowed[label_rows(game, p)] = True  # the highlight moves from p ...
    allowed[label_rows(game, game.current_player)] = True  # ... to the next player
    allowed[:62] = True  # the header: "spades broken" may appear
    assert not np.any(changed & ~allowed), "pixels changed outside the played card's hand, slot and labels"
    rows, cols = trick_box(game, p)
    assert np.any(changed[rows, cols]), "the trick slot did not change"
    x, y = PLACES[seat_name(game, p)].trick
    assert shows(after, card_sprite(card), x, y) and not shows(before, card_sprite(card), x, y)
    # The hand now shows the remaining cards, in order, where the fan puts them.
    remaining = display_order(cards_of(game.hands[p]))
    positions = fan_positions(len(remaining), PLACES[seat_name(game, p)].hand_centre)
    for c, (cx, cy) in zip(remaining, positions):
        assert shows(after, card_sprite(c), cx, cy, columns=FAN_STEP)


def test_a_completed_trick_stays_on_the_table_with_its_winner_until_the_next_lead():
    game = mid_trick_game()
    rng = np.random.default_rng(0)
    play_until(game, rng, lambda g: not g.trick)  # the third trick complete
    frame = render_rgb(game)
    winner = game.trick_winners[-1]
    for p, card in game.plays[-4:]:
        x, y = PLACES[seat_name(game, p)].trick
        assert shows(frame, card_sprite(card), x, y)
        highlighted = tuple(frame[y - 2, x + CARD_W // 2])
        assert (highlighted == (250, 204, 21)) == (p == winner)
    game.apply(int(rng.choice(game.legal_actions())))  # the next lead clears the other slots
    frame = render_rgb(game)
    for p, card in game.plays[-5:-1]:
        if p != game.plays[-1][0]:
            x, y = PLACES[seat_name(game, p)].trick
            assert not shows(frame, card_sprite(card), x, y)


@pytest.mark.parametrize("num_players", [4, 2])
def test_render_seat_hides_the_other_hands(num_players):
    game = mid_trick_game(num_players)
    open_frame, seat_frame = render_rgb(game), render_rgb(game, seat=0)
    for p in range(num_players):
        cards = display_order(cards_of(game.hands[p]))
        x, y = fan_positions(len(cards), PLACES[seat_name(game, p)].hand_centre)[0]
        if p == 0:
            assert shows(seat_frame, card_sprite(cards[0]), x, y, columns=FAN_STEP)
        else:
            assert shows(seat_frame, back_sprite(), x, y, columns=FAN_STEP)
            assert shows(open_frame, card_sprite(cards[0]), x, y, columns=FAN_STEP)
    env = spades_v0.env(num_players=num_players, render_mode="rgb_array", render_seat=0)
    env.reset(seed=3)
    assert env.render().shape == (HEIGHT, WIDTH, 3)


def test_two_player_draw_shows_the_offered_card_to_its_player_only():
    game = SpadesGame(num_players=2)
    game.reset(5)
    play_until(game, np.random.default_rng(5), lambda g: g.phase == Phase.DRAW and g.current_player == 1)
    x, y = WIDTH // 2 + 12, HEIGHT // 2 - CARD_H // 2
    offered = card_sprite(game.offered)
    assert shows(render_rgb(game), offered, x, y)
    assert shows(render_rgb(game, seat=1), offered, x, y)
    assert shows(render_rgb(game, seat=0), back_sprite(), x, y)


def test_an_unreset_game_renders_an_empty_table():
    frame = render_rgb(SpadesGame())
    assert frame.shape == (HEIGHT, WIDTH, 3) and len(np.unique(frame.reshape(-1, 3), axis=0)) == 2


@pytest.mark.parametrize("num_players", [4, 2])
def test_pettingzoo_render_test_with_a_render_seat(num_players):
    render_test(functools.partial(spades_v0.env, num_players=num_players, render_seat=1))


def test_a_hand_of_fifteen_cards_during_a_blind_nil_exchange_stays_on_the_table():
    positions = fan_positions(15, PLACES["East"].hand_centre)
    thirteen = fan_positions(13, PLACES["East"].hand_centre)
    assert thirteen[0][0] <= positions[0][0] and positions[-1][0] <= thirteen[-1][0]  # no wider than 13 cards
    game = SpadesGame(blind_nil=True)
    game.reset(0)
    game.hands[1] |= game.hands[0] & -game.hands[0] | game.hands[2] & -game.hands[2]  # two more cards
    assert game.hands[1].bit_count() == 15 and render_rgb(game).shape == (HEIGHT, WIDTH, 3)


def test_render_seat_must_be_a_seat():
    with pytest.raises(ValueError, match="render_seat"):
        spades_v0.env(num_players=2, render_seat=2)
