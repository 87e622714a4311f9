"""The heuristic's tunable constants, in one place so that variants can be compared in a tournament."""

from __future__ import annotations

from dataclasses import dataclass

from spades_env.cards import JACK


@dataclass(frozen=True)
class Params:
    # Added to the trick estimate before rounding the bid. Bidding about one trick under the expected
    # tricks maximises the expected hand score when a side's tricks vary by 1.2-1.4 (a set costs far
    # more than a bag). In self-play the four-player estimate runs about 0.7 tricks per seat under what
    # the seat takes; the two-player one is about right. Both values won duplicate self-play matches
    # against neighbours (4p: 0.1 vs -0.2 and 0.4; 2p: -1.4 vs -1.0 and -2.0).
    bid_shift_4p: float = 0.1
    bid_shift_2p: float = -1.4
    nil_risk_4p: float = 0.75  # bid Nil when the hand's Nil danger (bidding.nil_risk) is at most this (beat 0.5, 1.0)
    nil_risk_2p: float = 0.45  # ... in the two-player game, where nobody covers
    nil_max_tricks: float = 2.6  # ... and the hand is not worth more than this many tricks
    # Blind Nil when this far behind (or half as far with the opponents near the target). With the
    # three-card exchange a four-player Blind Nil succeeds about 94% of the time in self-play, and in
    # duplicate self-play 100 beat 150, 200 and 300 (by 3.5 to 9.5 points per deal); 100 behind is also
    # the usual house-rule minimum. The two-player Blind Nil draws a random hand and rarely succeeds
    # (about 10%): only when the game is otherwise lost.
    blind_nil_deficit_4p: int = 100
    blind_nil_deficit_2p: int = 250
    blind_nil_near_target_4p: int = 120  # "near the target": the opponents within this many points of it
    blind_nil_near_target_2p: int = 80  # two players: Blind Nil only with the opponent this near the target
    nil_cover_bid: int = 4  # a partner who bid at least this many tricks can cover my Nil ...
    nil_cover_risk: float = 0.15  # ... so the Nil danger allowed rises by this
    nil_behind: int = 150  # this many points behind, take more risk ...
    nil_behind_risk: float = 0.15  # ... on a Nil, by this
    # Bid margins (subtracted from the rounded estimate; larger bids less) by the score.
    near_bag_limit: int = 3  # this many bags or fewer from the bag penalty ...
    near_bag_limit_margin: float = 0.2  # ... bid closer to what the hand takes, by this
    winning_margin: float = 0.2  # making a modest bid wins the game: bid this much lower
    losing_distance: int = 100  # the opponents this near the target and ahead ...
    losing_margin: float = 0.25  # ... we need the points: bid this much higher
    overbid_discount: float = 0.3  # each trick the table has promised over 13 lowers my estimate by this
    replace_margin: float = 0.05  # two-player Blind Nil: put a card back when it is this much worse than a draw
    set_slack: int = 1  # after making our contract, play to set the opponents when they can lose at most this many

    # Card play. Probabilities are Knowledge's estimates for the opponents still to play; ranks are
    # card rank indices (cards.JACK = 9).
    safe: float = 0.8  # a card this likely to hold counts as a winner (win cheaply with it, cash it)
    partner_safe: float = 0.7  # do not overtake a partner's winning card this likely to hold
    hopeless: float = 0.25  # when my best winner holds less often than this, play a loser instead
    cover_honour_rank: int = JACK  # second hand plays low, unless covering a led card this high with a winner
    cover_ruff_max_rank: int = JACK  # covering my partner's Nil from void: ruff a trick won by a card this low
    nil_attack_suit: float = 0.5  # attacking a Nil: lead a suit the Nil bidder holds with this probability
    partner_ruff: float = 0.5  # lead a suit my partner is void in when it holds a spade with this probability
    opponent_ruff: float = 0.2  # a low lead avoids a suit an opponent is void in and may ruff (this likely)


DEFAULT = Params()
