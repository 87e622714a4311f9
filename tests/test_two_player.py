"""Two-player Spades (docs/rules.md section 2): every rule and ruling, through the engine and the env."""

from __future__ import annotations

import random

import numpy as np
import pytest
from pettingzoo.test import api_test, render_test, seed_test

from spades_env import SpadesGame, spades_v0
from spades_env.actions import BID_BASE, BLIND_NIL, DISCARD, DONE, KEEP, LOOK
from spades_env.cards import SPADES, card_to_str, cards_of, str_to_card, suit_of
from spades_env.game import Phase
from spades_env.observations import decode, encode
from spades_env.records import replay_hand

STOCK = list(range(52))  # top of the stock first: 2C, 3C, ... AS


def new_game(stock=STOCK, first: int = 0, **options) -> SpadesGame:
    game = SpadesGame(num_players=2, **options)
    game.reset(seed=0, deal=stock, dealer=first)
    return game


def test_keep_first_sees_and_discards_the_second():
    game = new_game(blind_nil=False)
    assert game.phase == Phase.DRAW and game.current_player == 0
    assert game.offered == 0
    game.apply(KEEP)
    assert cards_of(game.hands[0]) == [0]
    assert cards_of(game.discards[0]) == [1]  # seen, then discarded
    assert cards_of(game.discard_pile) == [1]
    assert game.current_player == 1 and game.offered == 2


def test_discard_first_must_keep_the_second():
    game = new_game(blind_nil=False)
    game.apply(DISCARD)
    assert cards_of(game.hands[0]) == [1]
    assert cards_of(game.discards[0]) == [0]
    # The opponent knows only how many cards were discarded.
    obs = decode(encode(game, 1), num_players=2)
    assert obs["discarded"] == [] and obs["discard_pile"] == pytest.approx(1 / 26)
    assert decode(encode(game, 0), num_players=2)["discarded"] == ["2C"]


def test_draw_gives_13_cards_each_and_26_discards():
    game = new_game(blind_nil=False)
    rng = random.Random(3)
    turns = 0
    while game.phase == Phase.DRAW:
        assert game.legal_actions() == [KEEP, DISCARD]
        assert game.current_player == turns % 2  # alternating turns, first drawer first
        game.apply(rng.choice([KEEP, DISCARD]))
        turns += 1
    assert turns == 26
    assert [h.bit_count() for h in game.hands] == [13, 13]
    assert game.discard_pile.bit_count() == 26
    assert game.hands[0] | game.hands[1] | game.discard_pile == (1 << 52) - 1
    assert game.discards[0] | game.discards[1] == game.discard_pile
    assert game.phase == Phase.BID and game.current_player == 1  # the second player bids first


def test_second_player_bids_first_and_leads():
    game = new_game(first=1, blind_nil=False)
    while game.phase == Phase.DRAW:
        game.apply(KEEP)
    assert game.current_player == 0
    game.apply(BID_BASE + 3)
    assert game.current_player == 1
    game.apply(BID_BASE + 4)
    assert game.phase == Phase.PLAY and game.current_player == 0 and game.leader == 0


def test_blind_nil_decided_before_seeing_any_card():
    game = new_game()
    assert game.phase == Phase.BLIND and game.current_player == 0
    assert not encode(game, 0)[:52].any()
    game.apply(BLIND_NIL)
    # The Blind Nil bidder draws without looking: no decision, keeps the top card, never sees the next.
    assert game.current_player == 1 and game.phase == Phase.BLIND
    assert cards_of(game.hands[0]) == [0] and game.discards[0] == 0
    assert not encode(game, 0)[:52].any()  # still hidden from the player
    game.apply(LOOK)
    decisions = {0: 0, 1: 0}
    while game.phase == Phase.DRAW:
        decisions[game.current_player] += 1
        game.apply(KEEP)
    assert decisions == {0: 0, 1: 13}
    assert game.looked == [True, True] and encode(game, 0)[:52].sum() == 13
    # Only player 1 bids; the Blind Nil bid stands for player 0.
    assert game.phase == Phase.BID and game.current_player == 1
    game.apply(BID_BASE + 5)
    assert game.bids == [0, 5] and game.blind == [True, False]
    assert game.phase == Phase.REPLACE and game.current_player == 0


def blind_nil_hand(first: int = 0) -> SpadesGame:
    game = new_game(first=first)
    game.apply(BLIND_NIL)
    game.apply(LOOK)
    while game.phase == Phase.DRAW:
        game.apply(KEEP)
    game.apply(BID_BASE + 5)
    return game


def test_replacement_up_to_three_from_the_discard_pile():
    game = blind_nil_hand()
    hand_before, pile_before = game.hands[0], game.discard_pile
    assert set(game.legal_actions()) == set(cards_of(hand_before)) | {DONE}
    put_back = cards_of(hand_before)[-3:]
    for i, card in enumerate(put_back):
        game.apply(card)
        assert len(game.replacements) == i + 1
        _, back, drawn = game.replacements[-1]
        assert back == card and not game.hands[0] >> card & 1 and game.hands[0] >> drawn & 1
        assert pile_before >> drawn & 1  # drawn from the discard pile
        assert drawn not in put_back  # never a card just put back
    assert game.hands[0].bit_count() == 13 and game.discard_pile.bit_count() == 26
    assert game.phase == Phase.PLAY  # three replacements end the phase
    assert decode(encode(game, 0), num_players=2)["replaced"] == sorted(
        [card_to_str(d) for _, _, d in game.replacements], key=str_to_card)


def test_replacement_done_early_and_draws_are_uniform_over_the_pile():
    game = blind_nil_hand()
    game.apply(DONE)
    assert game.phase == Phase.PLAY and game.replacements == []
    seen = set()
    for seed in range(200):
        g = blind_nil_hand()
        g.rng = np.random.default_rng(seed)
        card = cards_of(g.hands[0])[0]
        pool = set(cards_of(g.discard_pile))
        g.apply(card)
        drawn = g.replacements[-1][2]
        assert drawn in pool and drawn != card
        seen.add(drawn)
    assert len(seen) > 20  # spread over the 26-card pile, not one fixed card


def test_forced_replacement_draw_must_come_from_the_pile():
    game = blind_nil_hand()
    card = cards_of(game.hands[0])[0]
    with pytest.raises(ValueError, match="not in the discard pile"):
        game.apply(card, outcome=cards_of(game.hands[1])[0])  # a card the opponent holds
    assert game.phase == Phase.REPLACE and game.replacements == []


def test_first_drawer_alternates_and_comes_from_the_seed():
    firsts = set()
    for seed in range(20):
        game = SpadesGame(num_players=2)
        game.reset(seed=seed)
        firsts.add(game.dealer)
        rng = random.Random(seed)
        order = [game.dealer]
        while not game.game_over and len(order) < 4:
            hands = game.hand_number
            while game.hand_number == hands and not game.game_over:
                game.apply(rng.choice(game.legal_actions()))
            if not game.game_over:
                order.append(game.dealer)
        assert all(order[i] != order[i + 1] for i in range(len(order) - 1))
    assert firsts == {0, 1}


def scripted_hand(bids: tuple[int, int], scores=(0, 0), bags=(0, 0), **options) -> SpadesGame:
    """A hand that player 0 wins 13-0: the stock is stacked so that, both always keeping the
    top card, player 0 keeps the 13 spades and player 1 thirteen clubs and diamonds."""
    spades = [39 + i for i in range(13)]
    clubs_diamonds = list(range(26))
    hearts = [26 + i for i in range(13)]
    stock = []
    for i in range(13):
        stock += [spades[i], hearts[i], clubs_diamonds[i], clubs_diamonds[13 + i]]
    game = SpadesGame(num_players=2, blind_nil=False, **options)
    game.reset(seed=0, deal=stock, dealer=0, scores=list(scores), bags=list(bags))
    while game.phase == Phase.DRAW:
        game.apply(KEEP)
    assert all(suit_of(c) == SPADES for c in cards_of(game.hands[0]))
    game.apply(BID_BASE + bids[1])  # player 1 bids first
    game.apply(BID_BASE + bids[0])
    # Player 0 holds only trumps, so it wins every trick whoever leads.
    while not game.game_over and game.hand_number == 0:
        game.apply(game.legal_actions()[0])
    return game


def test_individual_scoring_and_sandbagging():
    game = scripted_hand((4, 0), bags=(8, 9))
    rec = game.hand_records[0]
    assert rec["tricks"] == [13, 0]
    side0, side1 = rec["sides"]
    # Player 0 bid 4, took 13: 40 + 9 bags; 8 + 9 = 17 bags -> -100, 7 carried.
    assert (side0["contract"], side0["bags_taken"], side0["bag_penalty"], side0["bags_after"]) == (40, 9, -100, 7)
    # Player 1's Nil made: +100; its own bags (9) untouched by player 0's.
    assert (side1["nil"], side1["bags_after"], side1["total"]) == (100, 9, 100)
    assert rec["scores"] == [-51, 100]


def test_individual_set_and_failed_nil():
    game = scripted_hand((0, 3))
    side0, side1 = game.hand_records[0]["sides"]
    assert side0["nil"] == -100 and side0["bags_taken"] == 13  # failed Nil: every trick a bag
    assert side1["contract"] == -30  # player 1 bid 3 and took nothing: set


def test_both_over_target_higher_wins_and_tie_plays_on():
    game = scripted_hand((4, 1), scores=(460, 495))
    # Player 0: +49 -> 509; player 1 bid 1 took 0: -10 -> 485: player 0 wins.
    assert game.game_over and game.winner == 0
    game = scripted_hand((4, 0), scores=(451, 400))
    # Player 0: 40 + 9 = 49 -> 500; player 1 Nil: +100 -> 500: a tie over the target: another hand.
    assert game.scores == [500, 500] and not game.game_over and game.hand_number == 1


def test_replay_of_a_two_player_hand_with_replacements():
    game = blind_nil_hand()
    for card in cards_of(game.hands[0])[:2]:
        game.apply(card)
    game.apply(DONE)
    rng = random.Random(0)
    while game.hand_number == 0:
        game.apply(rng.choice(game.legal_actions()))
    record = game.hand_records[0]
    assert len(record["replacements"]) == 2
    assert replay_hand(record, game.config)["scores"] == record["scores"]


@pytest.mark.parametrize("observation", ["default", "history", "oracle"])
def test_pettingzoo_api(observation):
    api_test(spades_v0.env(num_players=2, observation=observation), num_cycles=2000)


def test_seed_and_render():
    seed_test(lambda: spades_v0.env(num_players=2))
    render_test(lambda render_mode=None: spades_v0.env(num_players=2, render_mode=render_mode))


def test_random_two_player_hands_keep_the_rules():
    """5,000 random hands: conservation, follow suit, spade leads, 13 tricks, scores = breakdowns."""
    game = SpadesGame(num_players=2, single_hand=True)
    plays_checked = 0
    for seed in range(5000):
        rng = random.Random(seed)
        game.reset(seed=seed)
        while not game.game_over:
            legal = game.legal_actions()
            assert legal, "a live game always has a legal action"
            phase, player = game.phase, game.current_player
            action = rng.choice(legal)
            if phase == Phase.BLIND:
                action = BLIND_NIL if rng.random() < 0.2 else LOOK
            if phase == Phase.PLAY:
                hand = game.hands[player]
                if game.trick:
                    led = suit_of(game.trick[0][1])
                    if any(suit_of(c) == led for c in cards_of(hand)):
                        assert all(suit_of(c) == led for c in legal)
                elif not game.spades_broken and any(suit_of(c) != SPADES for c in cards_of(hand)):
                    assert all(suit_of(c) != SPADES for c in legal)
                plays_checked += 1
            game.apply(action)
            if game.phase == Phase.PLAY or game.phase == Phase.GAME_OVER:
                in_play = game.hands[0] | game.hands[1] | game.played[0] | game.played[1]
                assert in_play & game.discard_pile == 0
                assert in_play | game.discard_pile == (1 << 52) - 1
        rec = game.hand_records[-1]
        assert sum(rec["tricks"]) == 13 and len(rec["trick_winners"]) == 13
        for side in (0, 1):
            assert rec["scores"][side] - rec["scores_before"][side] == rec["sides"][side]["total"]
    assert plays_checked == 5000 * 26


@pytest.mark.parametrize("kind", ["default", "history", "oracle"])
def test_incremental_observations_equal_the_reference_encoding(kind):
    from spades_env.observations import ObservationTracker

    game = SpadesGame(num_players=2, target_score=200)
    tracker = ObservationTracker(game, kind)
    for seed in range(4):
        rng = random.Random(seed)
        game.reset(seed=seed)
        tracker.rebuild()
        while not game.game_over:
            player, phase = game.current_player, game.phase
            action = rng.choice(game.legal_actions())
            game.apply(action)
            tracker.update(player, action, phase)
            for observer in (0, 1):
                np.testing.assert_array_equal(tracker.vectors[observer], encode(game, observer, kind))


def test_a_player_who_looked_sees_the_cards_drawn_so_far():
    game = new_game()  # Blind Nil offered: the first draw turn starts with the choice
    game.apply(LOOK)
    game.apply(KEEP)
    assert decode(encode(game, 0), num_players=2)["hand"] == ["2C"]
    assert decode(encode(game, 1), num_players=2)["hand"] == []
