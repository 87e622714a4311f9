"""Cross-check against OpenSpiel's ``spades``: hands it generates, replayed through our engine.

OpenSpiel deals and plays each hand (seeded random legal play); our engine
(``blind_nil=False``) replays the same deal, bids and cards in lockstep.
At every decision OpenSpiel's legal set must be legal here and must equal
our legal set narrowed by its two legality deviations (partners' bids capped
at 13, spades never broken). At the end of the hand every partnership is
classified by which scoring deviation of OpenSpiel (docs/rules.md) applies, and:

- where the rules agree, our hand points equal OpenSpiel's returns;
- where a failed Nil bidder's tricks would count toward a partner who fell
  short of their own bid, the scores differ and OpenSpiel's equals its own
  rule recomputed (:func:`openspiel_side_points`);
- where OpenSpiel reads the bags of a negative running score from its last
  digit, only the bag penalty differs, ours being the larger.

OpenSpiel's returns must equal that recomputed rule on every hand, so a
trick winner or a bid that differed between the two engines would show.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from openspiel_compat import (
    OPENSPIEL_DEALER,
    deal_from_history,
    openspiel_legal_mask,
    openspiel_side_points,
)

from spades_env.actions import BID_BASE
from spades_env.cards import SPADE_MASK, mask_of
from spades_env.game import Phase, SpadesGame

pyspiel = pytest.importorskip("pyspiel", reason="open-spiel (the dev extra) is needed for the OpenSpiel cross-check")

NUM_HANDS = 2000
MIN_AGREEING_HANDS = 1000  # hands where no scoring deviation changes either side's points
LOW_BID_MAX = 4  # in "low" hands bids are drawn from 0..4 so contracts are made and bags taken
AGREEING = ("agree", "failed_nil_no_effect", "negative_score_no_effect")


def _start_score(rng: random.Random) -> int:
    """A running score before the hand: zero half the time, else positive or negative."""
    return rng.choice([0, 0, rng.randint(1, 499), rng.randint(-300, -1)])


def _our_bags(score: int) -> int:
    """The bags we carry into the hand: the score's last digit as written (OpenSpiel's reading when score >= 0)."""
    return abs(score) % 10


def classify_side(bids: list[int], tricks: list[int], score_before: int) -> str:
    """Which deviation of OpenSpiel's scoring applies to one partnership's hand (from the hand's facts alone).

    ``failed_nil``: a Nil bidder took tricks and the partner fell short of
    their own bid, so OpenSpiel's counting them toward the partner changes
    the result (if the partner made their bid both rules give the same
    points: ``failed_nil_no_effect``). ``negative_bags``: the running score
    is negative with a non-zero last digit, which OpenSpiel reads as negative
    bags, and this hand's bags reach the limit from our count.
    """
    failed_nil = any(b == 0 and t > 0 for b, t in zip(bids, tricks))
    partner_short = any(b > 0 and t < b for b, t in zip(bids, tricks))
    if failed_nil and partner_short:
        return "failed_nil"
    contract, taken = sum(bids), sum(tricks)
    bags = taken - contract if taken >= contract else 0
    digit = -score_before % 10 if score_before < 0 else 0
    if digit and digit + bags >= 10:
        return "negative_bags"
    if digit:
        return "negative_score_no_effect"
    return "failed_nil_no_effect" if failed_nil else "agree"


def _choose(rng: random.Random, state, low_bids: bool) -> int:
    """Uniform among OpenSpiel's legal actions (bids limited to 0..4 in a low-bid hand)."""
    legal = state.legal_actions()
    if low_bids and legal[0] >= BID_BASE:
        legal = [a for a in legal if a <= BID_BASE + LOW_BID_MAX]
    return rng.choice(legal)


def _play_hand(rng: random.Random, os_game, game: SpadesGame) -> tuple:
    """Deal and play one OpenSpiel hand, replaying every action through ``game``.

    Returns OpenSpiel's terminal state, the start scores and a count of the
    decisions where its legal set was narrower than ours, by deviation.
    """
    legality: Counter = Counter()
    state = os_game.new_initial_state()
    while state.is_chance_node():
        state.apply_action(rng.choice(state.chance_outcomes())[0])
    scores = [_start_score(rng), _start_score(rng)]
    state.set_current_scores(scores)
    game.reset(deal=deal_from_history(state.history()), dealer=OPENSPIEL_DEALER, scores=scores,
               bags=[_our_bags(s) for s in scores])
    low_bids = rng.random() < 0.5
    while not state.is_terminal():
        assert state.current_player() == game.current_player  # same bidding order, leads and trick winners
        os_legal = mask_of(state.legal_actions())
        ours = game.legal_mask()
        assert os_legal & ~ours == 0, f"OpenSpiel allows actions illegal here: {state.legal_actions()}"
        assert os_legal == openspiel_legal_mask(game)  # the difference is exactly its two legality deviations
        if os_legal != ours and game.phase == Phase.BID:
            legality["bid_capped"] += 1
        elif os_legal != ours:  # only a lead once spades are broken, by a player holding spades and more
            assert not game.trick and game.spades_broken
            assert ours == os_legal | game.hands[game.current_player] & SPADE_MASK
            legality["spade_lead_forbidden"] += 1
        action = _choose(rng, state, low_bids)
        game.apply(action)  # raises if illegal here
        state.apply_action(action)
    assert game.game_over and len(game.hand_records) == 1
    return state, scores, legality


def _check_side(record: dict, side: int, os_points: float, score_before: int) -> str:
    """Assert what the side's class predicts; returns the class."""
    members = (side, side + 2)
    bids = [record["bids"][m] for m in members]
    tricks = [record["tricks"][m] for m in members]
    ours = record["sides"][side]
    peer = openspiel_side_points(bids, tricks, score_before)
    assert os_points == peer.total, (record, side, peer)  # OpenSpiel's own rule explains its score
    assert ours["nil"] == peer.nil  # Nil bonuses never differ
    cls = classify_side(bids, tricks, score_before)
    if cls in AGREEING:
        assert ours["total"] == os_points, (cls, record, side, peer)
        assert (ours["contract"], ours["bags_taken"], ours["bag_penalty"]) == (
            peer.contract, peer.overtricks, peer.bag_penalty)
    elif cls == "failed_nil":
        # We count only the partner's tricks (short: set), OpenSpiel adds the Nil bidder's.
        assert ours["total"] != os_points
        assert not ours["made"]
        assert ours["counted_tricks"] == sum(t for b, t in zip(bids, tricks) if b > 0)
        assert peer.counted_tricks == sum(tricks)
    else:  # negative_bags: only the bag penalty differs, ours reaching the limit where OpenSpiel's -digit does not
        assert (ours["contract"], ours["bags_taken"]) == (peer.contract, peer.overtricks)
        assert ours["bag_penalty"] < peer.bag_penalty
        assert ours["total"] - ours["bag_penalty"] == os_points - peer.bag_penalty
    return cls


def test_openspiel_hands_replay_with_matching_scores():
    rng = random.Random(20240611)
    os_game = pyspiel.load_game("spades")
    game = SpadesGame(blind_nil=False, single_hand=True)
    hand_classes: Counter = Counter()
    side_classes: Counter = Counter()
    legality: Counter = Counter()
    hands_with: Counter = Counter()
    for _ in range(NUM_HANDS):
        state, scores, hand_legality = _play_hand(rng, os_game, game)
        legality.update(hand_legality)
        hands_with.update(hand_legality.keys())
        record = game.hand_records[0]
        returns = state.returns()
        classes = [_check_side(record, side, returns[side], scores[side]) for side in (0, 1)]
        assert returns[2:] == returns[:2]  # partners share the return
        side_classes.update(classes)
        deviations = sorted({c for c in classes if c not in AGREEING})
        hand_classes["+".join(deviations) or "agree"] += 1
    print(f"\nhand classes: {dict(hand_classes)}\nside classes: {dict(side_classes)}"
          f"\nlegality deviations (decisions): {dict(legality)}; hands with them: {dict(hands_with)}")
    assert sum(hand_classes.values()) == NUM_HANDS
    assert hand_classes["agree"] >= MIN_AGREEING_HANDS
    # Every deviation and near-miss is exercised, so no branch above is dead.
    for cls in ("failed_nil", "negative_bags", *AGREEING):
        assert side_classes[cls] > 0, cls
    assert legality["bid_capped"] > 0 and legality["spade_lead_forbidden"] > 0


@pytest.mark.parametrize(("bids", "tricks", "score", "expected"), [
    # OpenSpiel's own ScoringTests (spades_test.cc), one partnership each.
    ((4, 5), (5, 5), 0, 91),
    ((13, 0), (4, 1), 0, -230),
    ((3, 3), (4, 5), 99, -37),  # 9 bags read from the score + 3 -> -100
    # Its rules on the deviations, worked by hand.
    ((4, 0), (2, 3), 0, 40 + 1 - 100),  # the Nil bidder's 3 tricks make the partner's 4
    ((3, 3), (4, 5), -37, 63),  # -37 reads as -7 bags: no penalty
])
def test_openspiel_scoring_model(bids, tricks, score, expected):
    assert openspiel_side_points(bids, tricks, score).total == expected
