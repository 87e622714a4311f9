"""The engine's declared state and its chance outcomes (docs/architecture.md#the-engines-state).

A game holds exactly the fields ``SpadesGame`` declares, in every phase of both variants; the
lists among them are the ones ``clone()`` copies; chance (a deal, a two-player replacement draw)
is an outcome a caller may pass to ``apply`` instead of the generator drawing it.
"""

from __future__ import annotations

import copy
import inspect
import random

import pytest

from spades_env import actions as A
from spades_env.cards import cards_of, mask_of
from spades_env.game import Phase, SpadesGame
from spades_env.records import replay_hand

DECLARED = inspect.get_annotations(SpadesGame)


def games_in_every_phase(num_players: int, seed: int):
    """Random games (Blind Nil offered at any score) yielding the game before every action."""
    r = random.Random(seed)
    for g in range(6):
        game = SpadesGame(num_players=num_players, target_score=200, max_hands=4)
        yield game  # constructed, not reset
        game.reset(seed=seed * 100 + g)
        while not game.game_over:
            yield game
            legal = game.legal_actions()
            game.apply(A.BLIND_NIL if A.BLIND_NIL in legal and r.random() < 0.5 else r.choice(legal))
        yield game


@pytest.mark.parametrize("n", [4, 2])
def test_a_game_holds_exactly_its_declared_fields_in_every_phase(n):
    phases = set()
    for game in games_in_every_phase(n, seed=n):
        state = vars(game)
        assert set(state) == set(DECLARED), f"undeclared: {set(state) ^ set(DECLARED)}"
        for name, value in state.items():
            assert isinstance(value, list) == DECLARED[name].startswith("list["), f"{name} is {type(value).__name__}"
        phases.add(game.phase)
    variant_phases = {Phase.PASS} if n == 4 else {Phase.DRAW, Phase.REPLACE}
    assert phases >= {Phase.BLIND, Phase.BID, Phase.PLAY, Phase.GAME_OVER} | variant_phases


def test_the_next_deal_is_an_outcome_of_the_hands_last_card():
    game = SpadesGame(num_players=4, target_score=500)
    game.reset(seed=3)
    r = random.Random(3)
    deal = [list(range(s, 52, 4)) for s in range(4)]
    while game.hand_number == 0:
        if game.phase == Phase.PLAY and len(game.trick_winners) == 12 and len(game.trick) == 3:
            with pytest.raises(ValueError, match="deal repeats cards"):
                game.apply(game.legal_actions()[0], outcome=[deal[0]] * 4)
            game.apply(game.legal_actions()[0], outcome=deal)
        else:
            game.apply(r.choice(game.legal_actions()))
    assert game.start_hands == tuple(mask_of(hand) for hand in deal)


def test_an_outcome_where_chance_has_no_move_is_refused_and_changes_nothing():
    game = SpadesGame(num_players=4)
    game.reset(seed=1)
    before = state_of(game)
    with pytest.raises(ValueError, match="brings about no chance outcome"):
        game.apply(game.legal_actions()[0], outcome=5)
    assert state_of(game) == before


def state_of(game: SpadesGame) -> dict:
    """The declared state, deep-copied, the generator by its state (the legal-action cache left out)."""
    state = {k: copy.deepcopy(v) for k, v in vars(game).items() if k not in ("_rng", "_legal")}
    state["_rng"] = game.rng.bit_generator.state
    return state


def replacement_turn(seed: int) -> SpadesGame:
    r = random.Random(seed)
    while True:
        game = SpadesGame(num_players=2)
        game.reset(seed=r.randrange(10**9))
        while game.phase not in (Phase.REPLACE, Phase.PLAY, Phase.GAME_OVER):
            legal = game.legal_actions()
            game.apply(A.BLIND_NIL if A.BLIND_NIL in legal else r.choice(legal))
        if game.phase == Phase.REPLACE:
            return game


def test_replacement_draws_are_the_pile_uniformly_and_a_given_draw_is_taken():
    game = replacement_turn(7)
    outcomes = game.chance_outcomes()
    pile = [card for card, _ in outcomes]
    assert pile == cards_of(game.discard_pile & ~game.returned)
    assert sum(p for _, p in outcomes) == pytest.approx(1)
    put = cards_of(game.hands[game.current_player])[0]
    game.apply(put, outcome=pile[-1])
    assert game.replacements[-1] == (game.replacements[-1][0], put, pile[-1])
    assert SpadesGame(num_players=4).chance_outcomes() == []


def test_a_recorded_two_player_hand_replays_its_draws():
    for seed in range(20):
        game = replacement_turn(seed)
        r = random.Random(seed)
        while not game.hand_records:
            game.apply(r.choice(game.legal_actions()))
        if game.hand_records[0]["replacements"]:
            assert replay_hand(game.hand_records[0], game.config) == game.hand_records[0]
            return
    pytest.fail("no hand with a replacement")
