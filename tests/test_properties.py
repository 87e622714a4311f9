"""Properties of the rules engine over thousands of random hands (seeded, so failures reproduce).

The checks here are written from docs/rules.md, not from the engine: legal plays,
follow-suit, the spade-lead rule, trick winners and hand scores are
recomputed by small independent oracles and compared with what the engine
did and recorded. Every hand record is also re-played through
:func:`spades_env.records.replay_hand`.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from spades_env import actions as A
from spades_env.cards import FULL_DECK, NUM_CARDS, SPADES, str_to_card, suit_of
from spades_env.game import Phase, SpadesGame
from spades_env.records import game_record, replay_game

MIN_HANDS = 5000

CONFIGS = [  # the defaults, and Options that change scoring and the end of the game
    {},
    {"bag_limit": 5, "bag_penalty": 50, "target_score": 250, "max_hands": 20},
    {"nil": False, "blind_nil": False, "mercy_threshold": -200, "max_hands": 30},
    {"blind_nil_min_deficit": 50, "target_score": 300},
]


def pick(game: SpadesGame, rng: random.Random) -> int:
    """A random legal action, with bids drawn mostly low so that contracts are made, set and over-made."""
    legal = game.legal_actions()
    if game.phase == Phase.BLIND:
        return A.BLIND_NIL if rng.random() < 0.2 else A.LOOK
    if game.phase == Phase.BID:
        return rng.choice([a for a in legal if a <= A.BID_BASE + 5] or legal)
    return rng.choice(legal)


def expected_legal_plays(game: SpadesGame) -> set[int]:
    """Legal cards per docs/rules.md: follow the suit led if you can; lead spades only once broken or when
    holding nothing else."""
    hand = {c for c in range(NUM_CARDS) if game.hands[game.current_player] >> c & 1}
    if game.trick:
        led = suit_of(game.trick[0][1])
        same = {c for c in hand if suit_of(c) == led}
        return same or hand
    non_spades = {c for c in hand if suit_of(c) != SPADES}
    return hand if game.spades_broken or not non_spades else non_spades


def winner_of(trick: list[tuple[int, int]]) -> int:
    led = suit_of(trick[0][1])
    spades = [(c, p) for p, c in trick if suit_of(c) == SPADES]
    return max(spades)[1] if spades else max((c, p) for p, c in trick if suit_of(c) == led)[1]


def expected_side_score(bids, blind, tricks, bags_before: int, bag_limit: int, bag_penalty: int) -> dict:
    """One side's hand per docs/rules.md 'Scoring a hand' and 'Sandbagging'."""
    contract = counted = bags = nil = 0
    for bid, is_blind, took in zip(bids, blind, tricks):
        if bid == 0:  # Nil or Blind Nil: its tricks are bags, never toward the partner's bid
            bonus = 200 if is_blind else 100
            nil += bonus if took == 0 else -bonus
            bags += took
        else:
            contract += bid
            counted += took
    made = counted >= contract
    points = 10 * contract if made else -10 * contract
    if made:
        bags += counted - contract
    penalties = (bags_before + bags) // bag_limit
    return {"contract": points, "bags_taken": bags, "nil": nil, "bag_penalty": -bag_penalty * penalties,
            "bags_after": bags_before + bags - bag_limit * penalties,
            "total": points + bags + nil - bag_penalty * penalties}


def check_hand_record(record: dict, game: SpadesGame) -> None:
    """Re-derive a hand from its record: cards, exchange, every trick, and the score."""
    cfg = game.config
    hands = [{str_to_card(c) for c in h} for h in record["hands"]]
    assert all(len(h) == 13 for h in hands) and len(set().union(*hands)) == NUM_CARDS
    for giver, receiver, text in record["passes"]:  # passes move cards between partners only
        c = str_to_card(text)
        assert receiver == (giver + 2) % 4 and c in hands[giver]
        hands[giver].remove(c)
        hands[receiver].add(c)
    assert all(len(h) == 13 for h in hands)
    plays = [(p, str_to_card(c)) for p, c in record["plays"]]
    assert len(plays) == 52 and len({c for _, c in plays}) == 52
    leader, broken, winners = (record["dealer"] + 1) % 4, False, []
    for t in range(13):
        trick = plays[4 * t: 4 * t + 4]
        assert [p for p, _ in trick] == [(leader + i) % 4 for i in range(4)]
        lead = trick[0][1]
        if suit_of(lead) == SPADES and not broken:  # a spade led before broken: only when holding nothing else
            assert all(suit_of(c) == SPADES for c in hands[leader])
        for p, c in trick:
            assert c in hands[p]
            if suit_of(c) != suit_of(lead):  # not following: only when void in the suit led
                assert not any(suit_of(x) == suit_of(lead) for x in hands[p])
            hands[p].remove(c)
            if suit_of(c) == SPADES:  # a spade led (legally) or played off-suit breaks spades
                broken = True
        leader = winner_of(trick)
        winners.append(leader)
    assert record["trick_winners"] == winners
    assert record["tricks"] == [winners.count(p) for p in range(4)] and sum(record["tricks"]) == 13
    for side, members in enumerate(((0, 2), (1, 3))):
        got = record["sides"][side]
        want = expected_side_score([record["bids"][m] for m in members], [record["blind_nil"][m] for m in members],
                                   [record["tricks"][m] for m in members], record["bags_before"][side],
                                   cfg.bag_limit, cfg.bag_penalty)
        assert {k: got[k] for k in want} == want
        assert got["total"] == got["contract"] + got["bags_taken"] + got["nil"] + got["bag_penalty"]
        assert record["points"][side] == got["total"]
        assert record["scores"][side] == record["scores_before"][side] + got["total"]
        assert record["bags"][side] == got["bags_after"]


def play_checked_game(game: SpadesGame, seed: int, rng: random.Random, start_scores=None) -> None:
    """Play one random game, checking the engine's state after every action."""
    game.reset(seed, scores=start_scores)
    while not game.game_over:
        if game.phase == Phase.PLAY:
            assert set(game.legal_actions()) == expected_legal_plays(game)
        assert game.legal_mask() == sum(1 << a for a in game.legal_actions())
        game.apply(pick(game, rng))
        # card conservation: hands are disjoint and, with the cards played this hand, make the full deck
        held = game.hands[0] | game.hands[1] | game.hands[2] | game.hands[3]
        played = game.played[0] | game.played[1] | game.played[2] | game.played[3]
        sizes = sum(h.bit_count() for h in game.hands) + sum(p.bit_count() for p in game.played)
        assert sizes == NUM_CARDS and held | played == FULL_DECK and held & played == 0
        if game.phase == Phase.PLAY:
            counts = [h.bit_count() for h in game.hands]
            tricks_done = len(game.trick_winners)
            assert all(13 - tricks_done - (p in [q for q, _ in game.trick]) == counts[p] for p in range(4))


@pytest.mark.slow
def test_engine_properties_over_random_hands():
    rng = random.Random(2024)
    hands = games = 0
    seed = 0
    while hands < MIN_HANDS:
        cfg = CONFIGS[seed % len(CONFIGS)]
        game = SpadesGame(**cfg)
        start = [rng.randrange(-300, 300), rng.randrange(-300, 300)] if seed % 3 == 0 else None
        if start and cfg.get("mercy_threshold") is not None:
            start = [max(s, cfg["mercy_threshold"] + 1) for s in start]
        play_checked_game(game, seed, rng, start)
        records = game.hand_records
        assert len(records) == game.hand_number >= 1
        for i, record in enumerate(records):
            check_hand_record(record, game)
            assert record["hand"] == i + 1 and record["game_over"] == (i == len(records) - 1)
            if i:  # scores and bags chain from hand to hand, and the deal passes left
                assert record["scores_before"] == records[i - 1]["scores"]
                assert record["bags_before"] == records[i - 1]["bags"]
                assert record["dealer"] == (records[i - 1]["dealer"] + 1) % 4
        first = records[0]["scores_before"]
        assert first == (start or [0, 0])
        assert game.scores == [first[s] + sum(r["points"][s] for r in records) for s in range(2)]
        assert game.truncated == (game.winner is None and not game.config.single_hand)
        assert game.truncated == (len(records) == game.config.max_hands and game.winner is None)
        if games % 10 == 0:  # and the engine re-scores a sample of them from the records alone
            replay_game(game_record(game, seed))
        hands += len(records)
        games += 1
        seed += 1
    assert hands >= MIN_HANDS


def test_dealt_hands_are_uniform_enough():
    """A coarse check that deals are shuffled: each seat gets each card about a quarter of the time."""
    counts = np.zeros((4, NUM_CARDS))
    game = SpadesGame()
    for seed in range(400):
        game.reset(seed, dealer=0)
        for p in range(4):
            counts[p] += [game.hands[p] >> c & 1 for c in range(NUM_CARDS)]
    assert counts.sum() == 400 * 52 and counts.min() > 60 and counts.max() < 140  # expected 100 each
