"""Every example and ruling of docs/rules.md section 1 (partnership Spades), pinned.

Scoring examples are checked on the pure scorer and, where the rule is about
how a hand is scored in play, through the engine on constructed deals with
scripted actions: :func:`forced_hand` builds a deal and a legal sequence of
plays in which each seat takes exactly the tricks asked for.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pytest

from spades_env import actions as A
from spades_env.cards import SPADE_MASK, SUIT_MASKS, card_to_str, cards_of, str_to_card, suit_of
from spades_env.game import IllegalActionError, Phase, SpadesGame
from spades_env.observations import decode, encode, layout
from spades_env.scoring import score_side
from spades_env.view import player_view

C, D, H, S = 0, 1, 2, 3


def card(suit: int, rank: int) -> int:
    """Card id from suit (C, D, H, S = 0..3) and rank index (2 = 0 .. A = 12)."""
    return suit * 13 + rank


def forced_hand(tricks: Sequence[int], dealer: int) -> tuple[list[list[int]], list[int]]:
    """A deal, and the cards to play in order, under which seat ``p`` takes ``tricks[p]`` tricks.

    Every seat holds three cards of each suit plus one extra. Tricks 1-9 are
    three rounds each of clubs, diamonds and hearts (everyone follows; the
    trick's winner holds its highest card). The winner of trick 9, X, holds
    the extra spade, so it then has only spades and must lead one (breaking
    spades); tricks 10-12 are spade rounds; in trick 13 the others hold only
    their extra deuce of a side suit and X trumps with the ace of spades. So X
    must take at least two tricks (9 and 13); every other trick is free.
    """
    assert len(tricks) == 4 and sum(tricks) == 13 and max(tricks) >= 2
    x = max(range(4), key=lambda p: tricks[p])
    rest = list(tricks)
    rest[x] -= 2
    free = [p for p in range(4) for _ in range(rest[p])]
    winners = free[:8] + [x] + free[8:] + [x]
    per_trick: list[dict[int, int]] = []
    for t in range(12):
        suit, k = (t // 3, t % 3) if t < 9 else (S, t - 9)
        ranks = range(1 + 4 * k, 5 + 4 * k) if suit != S else range(4 * k, 4 + 4 * k)
        ranks = sorted(ranks, reverse=True)
        others = [p for p in range(4) if p != winners[t]]
        per_trick.append({winners[t]: card(suit, ranks[0]), **{p: card(suit, r) for p, r in zip(others, ranks[1:])}})
    non_x = [p for p in range(4) if p != x]
    last = {x: card(S, 12), **{p: card(suit, 0) for suit, p in enumerate(non_x)}}
    per_trick.append(last)
    deal = [sorted(trick[p] for trick in per_trick) for p in range(4)]
    plays, leader = [], (dealer + 1) % 4
    for t, trick in enumerate(per_trick):
        plays += [trick[(leader + i) % 4] for i in range(4)]
        leader = winners[t]
    return deal, plays


def bid_round(game: SpadesGame, bids: Sequence[int], blind: Sequence[int] = ()) -> None:
    """Bid for every seat (``blind`` seats bid Blind Nil; the others look first when asked)."""
    while game.phase in (Phase.BLIND, Phase.BID):
        p = game.current_player
        if game.phase == Phase.BLIND:
            game.apply(A.BLIND_NIL if p in blind else A.LOOK)
        else:
            assert p not in blind, f"seat {p} was not offered Blind Nil"
            game.apply(A.bid_action(bids[p]))


def exchange_back(game: SpadesGame) -> None:
    """Do the Blind Nil exchanges so that every hand ends as it started: the Blind Nil
    bidder passes back exactly the three cards the partner gave."""
    while game.phase == Phase.PASS:
        giver = game.current_player
        received = [c for g, r, c in game.passes if r == giver and g == game.partner(giver)]
        returned = [c for g, r, c in game.passes if g == giver]
        pending = [c for c in received if c not in returned]
        game.apply(pending[0] if pending else cards_of(game.hands[giver])[0])


def play_hand(tricks: Sequence[int], bids: Sequence[int], blind: Sequence[int] = (), dealer: int = 3,
              scores=None, bags=None, **config) -> tuple[SpadesGame, dict]:
    """Play one constructed hand through the engine; returns the game and the hand's record."""
    game = SpadesGame(**config)
    deal, plays = forced_hand(tricks, dealer)
    game.reset(0, deal=deal, dealer=dealer, scores=scores, bags=bags)
    bid_round(game, bids, blind)
    exchange_back(game)
    for c in plays:
        game.apply(c)
    record = game.hand_records[0]
    assert record["tricks"] == list(tricks), "the constructed hand did not play out as designed"
    return game, record


def one_suit_deal(*suits: int) -> list[list[int]]:
    """Seat p holds all thirteen cards of ``suits[p]``."""
    return [[card(s, r) for r in range(13)] for s in suits]


# ------------------------------------------------------------ the constructor


@pytest.mark.parametrize("tricks", [(13, 0, 0, 0), (0, 0, 0, 13), (4, 3, 3, 3), (1, 2, 3, 7), (0, 6, 1, 6),
                                    (2, 2, 2, 7), (5, 0, 8, 0)])
@pytest.mark.parametrize("dealer", range(4))
def test_forced_hand_gives_the_tricks_asked_for(tricks, dealer):
    game, record = play_hand(tricks, bids=(3, 3, 3, 3), dealer=dealer, blind_nil=False)
    assert record["dealer"] == dealer and len(record["plays"]) == 52


# -------------------------------------------------------------- bids, contracts


def test_partnership_contracts_add_the_partners_bids():
    """Alex 4, Beth 3, Charlie 2, David 2: Alex+Charlie must take 6, Beth+David 5."""
    _, record = play_hand((4, 3, 2, 4), bids=(4, 3, 2, 2), blind_nil=False)
    assert [s["bid"] for s in record["sides"]] == [6, 5]
    assert record["sides"][0]["made"] and record["points"][0] == 60  # exactly 6 tricks
    assert record["sides"][1]["made"] and record["points"][1] == 52  # 7 tricks: 50 + 2 bags


def test_bids_run_clockwise_from_left_of_dealer_and_need_not_rise():
    game = SpadesGame(blind_nil=False)
    game.reset(1, dealer=2)
    order = []
    for bid in (5, 1, 0, 13):  # no rising requirement, Nil allowed, 13 allowed
        order.append(game.current_player)
        assert A.bid_action(bid) in game.legal_actions()
        game.apply(A.bid_action(bid))
    assert order == [3, 0, 1, 2]
    assert game.phase == Phase.PLAY and game.current_player == 3  # left of dealer leads
    assert game.bids == [1, 0, 13, 5]


def test_passing_is_not_a_bid():
    game = SpadesGame(blind_nil=False)
    game.reset(0)
    assert game.legal_actions() == list(range(A.BID_BASE, A.BID_BASE + 14))  # 0..13, nothing else


# ---------------------------------------------------------------- scoring


def test_bid_5_took_7_scores_52_and_2_bags():
    result = score_side([5], [False], [7], bags_before=0)
    assert (result.total, result.bags_taken, result.bags_after) == (52, 2, 2)
    _, record = play_hand((4, 3, 3, 3), bids=(3, 3, 2, 3), blind_nil=False)  # side 0: bid 5, took 7
    side = record["sides"][0]
    assert (side["contract"], side["bags_taken"], side["total"], side["bags_after"]) == (50, 2, 52, 2)
    assert record["scores"][0] == 52 and record["bags"][0] == 2


def test_set_costs_10_per_contracted_trick_and_gives_no_bags():
    result = score_side([4, 4], [False, False], [3, 3], bags_before=5)
    assert (result.total, result.bags_taken, result.bags_after, result.made) == (-80, 0, 5, False)
    _, record = play_hand((3, 4, 3, 3), bids=(4, 2, 4, 2), blind_nil=False, bags=[5, 0])
    side = record["sides"][0]
    assert (side["total"], side["bags_taken"], side["bags_after"], side["made"]) == (-80, 0, 5, False)


def test_sandbagging_example_11_bags_then_9_more():
    """Bid 4 took 7, bid 3 took 6, bid 4 took 9: 11 bags, -100 and 1 carried; 9 more: another -100."""
    bags, totals, penalties = 0, [], []
    for bid, took in ((4, 7), (3, 6), (4, 9), (1, 10)):
        result = score_side([bid], [False], [took], bags_before=bags)
        bags = result.bags_after
        totals.append(result.total)
        penalties.append(result.bag_penalty)
    assert totals == [43, 33, 45 - 100, 19 - 100]
    assert penalties == [0, 0, -100, -100] and bags == 0


def test_sandbagging_through_the_engine_chained_hands():
    """The same example, each hand played through the engine from the previous hand's totals."""
    scores, bags = [0, 0], [0, 0]
    # side 0 (seats 0 and 2) bids and takes: (4, 7), (3, 6), (4, 9), then 9 more bags with (2, 11)
    for bid, took, expect_penalty, expect_bags in (((2, 2), (4, 3), 0, 3), ((2, 1), (3, 3), 0, 6),
                                                   ((2, 2), (5, 4), -100, 1), ((1, 1), (6, 5), -100, 0)):
        tricks = (took[0], 13 - sum(took), took[1], 0)
        game, record = play_hand(tricks, bids=(bid[0], 1, bid[1], 1), blind_nil=False, scores=scores, bags=bags)
        side = record["sides"][0]
        assert side["bag_penalty"] == expect_penalty and side["bags_after"] == expect_bags
        assert record["scores"][0] == scores[0] + side["total"]
        scores, bags = record["scores"], record["bags"]
    assert scores[0] == 43 + 33 + (45 - 100) + (29 - 100)


def test_nil_made_and_failed():
    assert score_side([0, 4], [False, False], [0, 4], 0).total == 100 + 40
    failed = score_side([0, 4], [False, False], [1, 4], 0)
    assert (failed.nil, failed.contract, failed.total, failed.bags_taken) == (-100, 40, -100 + 40 + 1, 1)
    _, record = play_hand((0, 5, 6, 2), bids=(0, 3, 4, 3), blind_nil=False)  # Alex Nil, Charlie 4
    side = record["sides"][0]
    assert (side["nil"], side["contract"], side["bags_taken"], side["total"]) == (100, 40, 2, 142)


def test_failed_nil_tricks_never_count_toward_the_partner_but_are_bags():
    """Partner bid 4 and took 3; the Nil bidder took 2: the contract is set, the 2 tricks are bags."""
    _, set_record = play_hand((2, 4, 3, 4), bids=(0, 3, 4, 3), blind_nil=False)
    side = set_record["sides"][0]
    assert (side["counted_tricks"], side["made"], side["contract"]) == (3, False, -40)
    assert (side["nil"], side["bags_taken"], side["total"]) == (-100, 2, -40 - 100 + 2)
    # ... and as bags too when the partner's contract is made.
    _, made_record = play_hand((2, 3, 5, 3), bids=(0, 3, 4, 3), blind_nil=False)
    side = made_record["sides"][0]
    assert (side["counted_tricks"], side["made"], side["contract"]) == (5, True, 40)
    assert (side["nil"], side["bags_taken"], side["total"]) == (-100, 1 + 2, 40 - 100 + 3)


@pytest.mark.parametrize("tricks, nil_points", [((0, 0), 200), ((2, 1), -200), ((0, 3), 0), ((4, 0), 0)])
def test_both_partners_nil(tricks, nil_points):
    """Both succeed +200, both fail -200, one of each 0; contract 0 is made and every trick is a bag."""
    result = score_side([0, 0], [False, False], tricks, 0)
    assert result.nil == nil_points and result.made and result.contract == 0
    assert result.bags_taken == sum(tricks) and result.total == nil_points + sum(tricks)


def test_both_partners_nil_through_the_engine():
    _, record = play_hand((1, 6, 0, 6), bids=(0, 5, 0, 5), blind_nil=False)
    side = record["sides"][0]
    assert (side["bid"], side["made"], side["nil"], side["bags_taken"], side["total"]) == (0, True, 0, 1, 1)


@pytest.mark.parametrize("took, expected", [(0, 200), (1, -200), (3, -200)])
def test_blind_nil_scores_200(took, expected):
    result = score_side([0, 3], [True, False], [took, 3], 0)
    assert result.nil == expected and result.total == expected + 30 + took


@pytest.mark.parametrize("tricks, nil_points", [((0, 0), 400), ((1, 2), -400), ((0, 2), 0), ((1, 0), 0)])
def test_both_partners_blind_nil(tricks, nil_points):
    result = score_side([0, 0], [True, True], tricks, 0)
    assert result.nil == nil_points and result.bags_taken == sum(tricks)


def test_blind_nil_scored_through_the_engine_after_the_exchange():
    _, record = play_hand((0, 6, 2, 5), bids=(0, 3, 2, 3), blind=(0,))
    assert record["blind_nil"] == [True, False, False, False] and record["bids"][0] == 0
    assert len(record["passes"]) == 6
    assert record["sides"][0]["nil"] == 200 and record["points"][0] == 200 + 20
    _, both = play_hand((0, 7, 0, 6), bids=(0, 3, 0, 3), blind=(0, 2))
    assert both["passes"] == [] and both["sides"][0]["nil"] == 400 and both["points"][0] == 400


def test_no_blind_nil_exchange_option():
    """``blind_nil_exchange=False``: a Blind Nil bidder keeps the hand dealt (two players: drawn), the play starts
    after the bidding, and Blind Nil still scores 200."""
    game, record = play_hand((0, 6, 2, 5), bids=(0, 3, 2, 3), blind=(0,), blind_nil_exchange=False)
    assert record["blind_nil"] == [True, False, False, False] and record["passes"] == []
    for seat in range(4):  # every seat plays the hand it was dealt
        assert sorted(card for p, card in record["plays"] if p == seat) == sorted(record["hands"][seat])
    assert record["sides"][0]["nil"] == 200 and record["points"][0] == 200 + 20
    two = SpadesGame(num_players=2, blind_nil_exchange=False)
    two.reset(0, dealer=0)
    two.apply(A.BLIND_NIL)
    two.apply(A.LOOK)
    while two.phase == Phase.DRAW:
        two.apply(A.KEEP)
    two.apply(A.bid_action(5))
    assert two.phase == Phase.PLAY and two.replacements == []  # with the exchange: REPLACE (test_two_player.py)


# ------------------------------------------------------------------ Blind Nil


def test_blind_nil_is_decided_before_looking():
    game = SpadesGame()
    game.reset(3, dealer=0)
    p = game.current_player
    assert game.phase == Phase.BLIND and game.legal_actions() == [A.BLIND_NIL, A.LOOK]
    for seat in range(4):  # nobody has seen their hand yet
        hand = encode(game, seat)[layout()["hand"].start:layout()["hand"].stop]
        assert not hand.any() and decode(encode(game, seat))["hand"] == []
        assert player_view(game, seat).hand == () and not player_view(game, seat).looked
    game.apply(A.LOOK)
    assert game.phase == Phase.BID and game.current_player == p
    assert decode(encode(game, p))["hand"] == [card_to_str(c) for c in cards_of(game.hands[p])]
    assert len(player_view(game, p).hand) == 13
    assert decode(encode(game, (p + 1) % 4))["hand"] == []  # the next seat still has not looked
    game.apply(A.bid_action(3))
    assert game.phase == Phase.BLIND and game.current_player == (p + 1) % 4
    game.apply(A.BLIND_NIL)  # bids without ever having seen the hand before
    assert game.bids[(p + 1) % 4] == 0 and game.blind[(p + 1) % 4]
    assert game.current_player == (p + 2) % 4 and game.phase == Phase.BLIND


def test_blind_nil_exchange_order_partner_first_in_bidding_order():
    """Dealer 3: bidding order 0, 1, 2, 3. Seats 1 and 2 bid Blind Nil (different sides).
    Seat 1's exchange comes first (3 passes from partner 3, then 3 back), then seat 2's (0 then 2)."""
    game = SpadesGame()
    deal, _ = forced_hand((4, 3, 3, 3), dealer=3)
    game.reset(0, deal=deal, dealer=3)
    bid_round(game, bids=(4, 0, 0, 5), blind=(1, 2))
    assert game.phase == Phase.PASS
    givers, before = [], [h for h in game.hands]
    received_by_1 = []
    while game.phase == Phase.PASS:
        giver = game.current_player
        givers.append(giver)
        legal = game.legal_actions()
        assert legal == cards_of(game.hands[giver])  # any card held, including one just received
        if giver == 1:
            back = givers.count(1)
            assert len(cards_of(game.hands[1])) == 17 - back  # holds 16 when it starts passing back
            choice = received_by_1[back - 1]  # give back a card just received
        else:
            choice = legal[-1]
        game.apply(choice)
        if game.passes[-1][1] == 1:
            received_by_1.append(choice)
    assert givers == [3, 3, 3, 1, 1, 1, 0, 0, 0, 2, 2, 2]
    assert [(g, r) for g, r, _ in game.passes] == [(3, 1)] * 3 + [(1, 3)] * 3 + [(0, 2)] * 3 + [(2, 0)] * 3
    assert [len(cards_of(h)) for h in game.hands] == [13] * 4
    assert game.hands[1] == before[1] and game.hands[3] == before[3]  # seat 1 gave back what it got
    assert game.hands[0] | game.hands[2] == before[0] | before[2]  # cards only moved between partners
    assert game.phase == Phase.PLAY and game.current_player == 0


def test_passed_cards_are_seen_by_both_partners_and_no_one_else():
    game = SpadesGame()
    deal, _ = forced_hand((4, 3, 3, 3), dealer=3)
    game.reset(0, deal=deal, dealer=3)
    bid_round(game, bids=(0, 3, 4, 3), blind=(0,))
    while game.phase == Phase.PASS:
        game.apply(game.legal_actions()[0])
    to_0 = sorted(card_to_str(c) for g, r, c in game.passes if r == 0)
    from_0 = sorted(card_to_str(c) for g, r, c in game.passes if g == 0)
    assert len(to_0) == len(from_0) == 3
    seen = [decode(encode(game, p)) for p in range(4)]
    assert (sorted(seen[0]["received"]), sorted(seen[0]["passed"])) == (to_0, from_0)
    assert (sorted(seen[2]["received"]), sorted(seen[2]["passed"])) == (from_0, to_0)
    for p in (1, 3):
        assert seen[p]["received"] == [] and seen[p]["passed"] == []
        view = player_view(game, p)
        assert view.received == () and view.passed == ()


def test_no_exchange_when_both_partners_bid_blind_nil():
    game = SpadesGame()
    game.reset(5, dealer=1)
    bid_round(game, bids=(None, 4, None, 4), blind=(0, 2))  # bidding order 2, 3, 0, 1
    assert game.blind == [True, False, True, False]
    assert game.phase == Phase.PLAY and game.passes == [] and game.current_player == 2


def test_blind_nil_disabled_has_no_decision_step():
    game = SpadesGame(blind_nil=False)
    game.reset(2)
    for _ in range(4):
        assert game.phase == Phase.BID and A.BLIND_NIL not in game.legal_actions()
        assert A.LOOK not in game.legal_actions()
        game.apply(A.bid_action(3))
    for seat in range(4):  # hands visible from the deal
        assert decode(encode(game, seat))["hand"] == [card_to_str(c) for c in cards_of(game.hands[seat])]


def test_blind_nil_min_deficit():
    game = SpadesGame(blind_nil_min_deficit=100)
    game.reset(0, dealer=3, scores=[0, 150])  # side 0 trails by 150: seats 0 and 2 may bid Blind Nil
    phases = []
    while game.phase in (Phase.BLIND, Phase.BID):
        phases.append((game.current_player, game.phase))
        game.apply(A.LOOK if game.phase == Phase.BLIND else A.bid_action(3))
    assert phases == [(0, Phase.BLIND), (0, Phase.BID), (1, Phase.BID), (2, Phase.BLIND), (2, Phase.BID),
                      (3, Phase.BID)]
    game.reset(0, dealer=3, scores=[0, 99])  # trails by 99 < 100: nobody may
    assert game.phase == Phase.BID and A.BLIND_NIL not in game.legal_actions()
    game.reset(0, dealer=3, scores=[0, 100])  # exactly the deficit is enough
    assert game.phase == Phase.BLIND


def test_nil_disabled():
    game = SpadesGame(nil=False, blind_nil=False)
    game.reset(0)
    assert game.legal_actions() == list(range(A.BID_BASE + 1, A.BID_BASE + 14))
    with pytest.raises(IllegalActionError, match="bid 0"):
        game.apply(A.bid_action(0))


# ----------------------------------------------------------------------- play


def test_left_of_dealer_leads_and_must_follow_suit():
    deal, _ = forced_hand((4, 3, 3, 3), dealer=1)
    game = SpadesGame(blind_nil=False)
    game.reset(0, deal=deal, dealer=1)
    bid_round(game, bids=(3, 3, 3, 3))
    assert game.current_player == 2
    game.apply(game.legal_actions()[0])
    led = suit_of(game.trick[0][1])
    follower = game.current_player
    assert follower == 3
    assert game.legal_actions() == cards_of(game.hands[follower] & SUIT_MASKS[led])


def test_void_player_may_trump_or_discard_and_trumping_breaks_spades():
    # seat 0: 13 clubs; seat 1: spades 2-8 and six hearts; seat 2: spades 9-A and seven hearts; seat 3: diamonds.
    deal = [[card(C, r) for r in range(13)],
            [card(S, r) for r in range(7)] + [card(H, r) for r in range(6)],
            [card(S, r) for r in range(7, 13)] + [card(H, r) for r in range(6, 13)],
            [card(D, r) for r in range(13)]]
    for trump in (True, False):
        game = SpadesGame(blind_nil=False)
        game.reset(0, deal=deal, dealer=3)
        bid_round(game, bids=(3, 3, 3, 3))
        game.apply(card(C, 0))
        assert game.legal_actions() == cards_of(game.hands[1])  # void in clubs: anything
        game.apply(card(S, 0) if trump else card(H, 0))
        assert game.spades_broken == trump
        game.apply(card(H, 6))
        game.apply(card(D, 12))
        assert game.trick_winners == [1 if trump else 0]
        if trump:  # seat 1 won the trick and may now lead a spade
            assert game.current_player == 1 and game.legal_actions() == cards_of(game.hands[1])


def test_spades_cannot_be_led_before_broken():
    deal, _ = forced_hand((4, 3, 3, 3), dealer=3)
    game = SpadesGame(blind_nil=False)
    game.reset(0, deal=deal, dealer=3)
    bid_round(game, bids=(3, 3, 3, 3))
    hand = game.hands[0]
    assert hand & SPADE_MASK and not game.spades_broken
    assert game.legal_actions() == cards_of(hand & ~SPADE_MASK)
    with pytest.raises(IllegalActionError, match="PLAY"):
        game.apply(cards_of(hand & SPADE_MASK)[0])


def test_forced_spade_lead_is_allowed_and_breaks_spades():
    game = SpadesGame(blind_nil=False)
    game.reset(0, deal=one_suit_deal(S, H, D, C), dealer=3)
    bid_round(game, bids=(13, 0, 0, 0))
    assert game.current_player == 0 and not game.spades_broken
    assert game.legal_actions() == cards_of(SPADE_MASK)
    game.apply(card(S, 0))
    assert game.spades_broken
    for _ in range(3):
        game.apply(game.legal_actions()[0])
    assert game.trick_winners == [0]  # the deuce of spades wins: no one else has a spade


def test_forced_spade_lead_mid_hand_breaks_spades():
    """In forced_hand, the winner of trick 9 holds only spades and must lead one."""
    deal, plays = forced_hand((4, 3, 3, 3), dealer=3)
    game = SpadesGame(blind_nil=False)
    game.reset(0, deal=deal, dealer=3)
    bid_round(game, bids=(3, 3, 3, 3))
    for c in plays[:36]:
        game.apply(c)
    leader = game.current_player
    assert not game.spades_broken and game.hands[leader] == game.hands[leader] & SPADE_MASK
    assert game.legal_actions() == cards_of(game.hands[leader])
    game.apply(plays[36])
    assert game.spades_broken


@pytest.mark.parametrize("trick, winner", [
    ([(0, "5H"), (1, "KH"), (2, "AD"), (3, "2H")], 1),  # highest of the suit led; an off-suit ace loses
    ([(1, "5H"), (2, "KH"), (3, "2S"), (0, "AH")], 3),  # any spade beats the suit led
    ([(2, "5H"), (3, "3S"), (0, "QS"), (1, "AH")], 0),  # the highest spade wins
    ([(3, "2S"), (0, "AH"), (1, "AD"), (2, "3S")], 2),  # spades led: highest spade
    ([(0, "2C"), (1, "3D"), (2, "4H"), (3, "5D")], 0),  # nobody followed: the leader wins
])
def test_trick_winner(trick, winner):
    assert SpadesGame.trick_winner([(p, str_to_card(c)) for p, c in trick]) == winner


def test_trick_winner_leads_next():
    deal, plays = forced_hand((1, 2, 3, 7), dealer=0)
    game = SpadesGame(blind_nil=False)
    game.reset(0, deal=deal, dealer=0)
    bid_round(game, bids=(1, 2, 3, 7))
    for i, c in enumerate(plays):
        game.apply(c)
        if i % 4 == 3 and i < 51:
            assert game.current_player == game.trick_winners[-1] and game.trick == []


# --------------------------------------------------------- dealer, hands, game


def test_first_dealer_is_drawn_from_the_seed():
    dealers = {}
    for seed in range(40):
        game = SpadesGame()
        game.reset(seed)
        again = SpadesGame()
        again.reset(seed)
        assert (again.dealer, again.hands) == (game.dealer, game.hands)  # same seed, same dealer and deal
        assert game.current_player == (game.dealer + 1) % 4
        dealers[seed] = game.dealer
    assert set(dealers.values()) == {0, 1, 2, 3}
    game = SpadesGame()
    game.reset(0, dealer=2)
    assert game.dealer == 2


def test_deal_passes_to_the_left_after_each_hand():
    game = SpadesGame(max_hands=6)
    rng = np.random.default_rng(0)
    game.reset(11)
    while not game.game_over:
        game.apply(int(rng.choice(game.legal_actions())))
    dealers = [r["dealer"] for r in game.hand_records]
    assert len(dealers) == 6 and all(b == (a + 1) % 4 for a, b in zip(dealers, dealers[1:]))
    assert len({tuple(map(tuple, r["hands"])) for r in game.hand_records}) == 6  # a fresh deal each hand


def test_game_continues_below_the_target():
    game, record = play_hand((4, 3, 3, 3), bids=(3, 3, 3, 3), blind_nil=False, dealer=3)
    assert not record["game_over"] and not game.game_over and game.hand_number == 1
    assert game.dealer == 0 and game.current_player == 1 and game.scores == record["scores"]


def test_first_side_to_reach_the_target_wins():
    game, record = play_hand((4, 3, 3, 3), bids=(3, 3, 3, 3), blind_nil=False, scores=[450, 300])
    assert record["scores"] == [511, 360]
    assert game.game_over and game.terminated and not game.truncated and game.winner == record["winner"]


def test_target_score_option():
    game, record = play_hand((4, 3, 3, 3), bids=(3, 3, 3, 3), blind_nil=False, target_score=60)
    assert record["scores"] == [61, 60] and game.winner == 0  # both reached 60: the higher wins


def test_both_sides_over_the_target_the_higher_wins():
    game, record = play_hand((2, 4, 1, 6), bids=(1, 4, 1, 4), blind_nil=False, scores=[490, 480])
    assert record["scores"] == [490 + 21, 480 + 82]
    assert game.game_over and game.winner == 1 and record["winner"] == 1


def test_tie_over_the_target_plays_another_hand():
    game, record = play_hand((4, 3, 2, 4), bids=(4, 3, 2, 2), blind_nil=False, scores=[442, 450])
    assert record["scores"] == [502, 502]  # 442 + 60; 450 + 52
    assert not game.game_over and game.winner is None and not record["game_over"]
    assert game.hand_number == 1 and game.phase == Phase.BID and game.dealer == 0


def test_max_hands_ends_by_truncation_never_a_win():
    game, record = play_hand((4, 3, 3, 3), bids=(3, 3, 3, 3), blind_nil=False, max_hands=1)
    assert game.game_over and game.truncated and not game.terminated and game.winner is None
    assert record["truncated"] and record["winner"] is None and record["game_over"]


def test_a_win_on_the_last_allowed_hand_is_a_win_not_a_truncation():
    game, _ = play_hand((4, 3, 3, 3), bids=(3, 3, 3, 3), blind_nil=False, max_hands=1, scores=[480, 0])
    assert game.terminated and not game.truncated and game.winner == 0


@pytest.mark.parametrize("start, over", [(-290, True), (-289, False)])
def test_mercy_threshold(start, over):
    """Side 0 bids 6 and takes 1: -60. At -350 (the threshold) it has lost."""
    game, record = play_hand((1, 6, 0, 6), bids=(3, 4, 3, 4), blind_nil=False, scores=[start, 0],
                             mercy_threshold=-350)
    assert record["scores"][0] == start - 60
    assert game.game_over == over and game.winner == (1 if over else None)
    free, _ = play_hand((1, 6, 0, 6), bids=(3, 4, 3, 4), blind_nil=False, scores=[-290, 0])
    assert not free.game_over  # off by default


def test_single_hand_mode():
    game, record = play_hand((4, 3, 3, 3), bids=(3, 3, 3, 3), blind_nil=False, single_hand=True)
    assert game.game_over and game.terminated and not game.truncated and game.winner == 0
    assert record["points"] == [61, 60]
    tie, record = play_hand((3, 4, 3, 3), bids=(4, 4, 4, 4), blind_nil=False, single_hand=True)
    assert record["points"] == [-80, -80] and tie.game_over and tie.terminated and tie.winner is None
