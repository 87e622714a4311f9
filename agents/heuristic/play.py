"""Card play for the heuristic: the classic rules of Spades, driven by card counting.

Each decision first settles what this trick is for (:class:`Plan`): a Nil
bidder ducks; the partner of a live Nil covers it; otherwise a side that
still needs tricks tries to win, a side that has made its contract ducks to
avoid bags unless the opponents can still be set, and a live Nil on the other
side is attacked. Then the card follows the usual rules: second hand low,
third hand high, win as cheaply as possible (the lowest of equivalent cards),
do not overtake a partner who is winning safely, trump when the trick is
wanted, cash sure winners, lead to the partner's voids and strength, shed
high cards when ducking. "Safely" and "sure" come from
:class:`~.knowledge.Knowledge`: the chance that the opponents still to play
can beat a card, given the cards out and the known voids.
"""

from __future__ import annotations

from dataclasses import dataclass

from spades_env.cards import (
    KING,
    QUEEN,
    RANK_OF,
    SPADES,
    SUIT_MASK_OF,
    SUIT_MASKS,
    SUIT_OF,
    card_id,
    mask_of,
    trick_winner,
)
from spades_env.view import PlayerView

from .bidding import card_nil_danger
from .knowledge import Knowledge, equivalent_low, lower_mask
from .params import DEFAULT, Params


@dataclass
class Plan:
    mode: str  # "nil" (I duck), "cover" (partner's Nil), or "normal"
    want: bool  # normal and cover modes: try to win this trick
    attack: list[int]  # opponents with a live Nil
    need: int  # tricks my side still needs for its contract
    remaining: int  # tricks left in the hand, this one included


@dataclass(frozen=True)
class Follow:
    """The trick as the player who follows sees it."""

    led: int  # the suit led
    following: bool  # I can follow suit
    winners: list[int]  # my legal cards that would win the trick now
    losers: list[int]  # my other legal cards
    winner_seat: int  # the seat winning the trick so far
    best: int  # its card


def make_plan(view: PlayerView, params: Params = DEFAULT) -> Plan:
    me, partner = view.seat, view.partner
    bids, tricks = view.bids, view.tricks_won
    n = view.num_players

    def live_nil(p: int) -> bool:
        return bids[p] == 0 and tricks[p] == 0

    members = [p for p in range(n) if p % 2 == me % 2]
    others = [p for p in range(n) if p % 2 != me % 2]
    contract = sum(bids[p] for p in members if bids[p])
    counted = sum(tricks[p] for p in members if bids[p])
    opp_contract = sum(bids[p] for p in others if bids[p])
    opp_counted = sum(tricks[p] for p in others if bids[p])
    remaining = 13 - sum(tricks)
    need = contract - counted
    opp_need = opp_contract - opp_counted
    attack = [p for p in others if live_nil(p)]
    if live_nil(me):
        return Plan("nil", False, attack, need, remaining)
    if partner is not None and live_nil(partner):
        return Plan("cover", need > 0, attack, need, remaining)
    if need > 0:
        want = True
    else:
        # Contract made: duck (every extra trick is a bag) unless the opponents can still be set.
        want = 0 < opp_need <= remaining and remaining - opp_need <= params.set_slack
    if bids[me] == 0:  # my own Nil failed: my tricks are only bags now
        want = want and need <= 0
    return Plan("normal", want, attack, need, remaining)


class CardChooser:
    """One card decision; the helpers read the shared state set up here."""

    def __init__(self, view: PlayerView, hand: int, params: Params = DEFAULT) -> None:
        self.view = view
        self.hand = hand
        self.params = params
        self.k = Knowledge(view, hand)
        self.plan = make_plan(view, params)
        self.legal = list(view.legal_actions)
        self.me = view.seat
        self.partner = view.partner
        self.trick = list(view.trick)
        self.trick_mask = mask_of(c for _, c in self.trick)
        n = view.num_players
        self.after = [(self.me + i) % n for i in range(1, n - len(self.trick))]
        self.opp_after = [p for p in self.after if p % 2 != self.me % 2]

    # ---------------------------------------------------------------- helpers

    def wins_now(self, card: int) -> bool:
        return trick_winner(self.trick + [(self.me, card)]) == self.me

    def survival(self, card: int) -> float:
        return self.k.p_survives(card, self.trick, self.after)

    def low_of(self, card: int) -> int:
        """The lowest card of my hand equivalent to ``card``: same power, cheaper.

        Cards are equivalent when no card still out, nor one in the current
        trick, lies between them.
        """
        return equivalent_low(card, self.hand, self.k.unseen | self.trick_mask)

    def cheapest(self, cards: list[int]) -> int:
        """The lowest card, preferring a side-suit card to a spade of the same use."""
        return self.low_of(min(cards, key=lambda c: (SUIT_OF[c] == SPADES, RANK_OF[c])))

    def highest(self, cards: list[int]) -> int:
        return max(cards, key=lambda c: (SUIT_OF[c] == SPADES, RANK_OF[c]))

    def discard_junk(self, cards: list[int]) -> int:
        """A card worth nothing: low, from a short side suit (to make a void), never a boss if avoidable."""
        def key(c: int) -> tuple:
            suit_len = (self.hand & SUIT_MASK_OF[c]).bit_count()
            return (SUIT_OF[c] == SPADES, self.k.is_boss(c), RANK_OF[c], suit_len)
        return self.low_of(min(cards, key=key))

    def discard_winner(self, cards: list[int]) -> int:
        """Ducking: throw the card most likely to win a later trick (side-suit honours before spades)."""
        return max(cards, key=lambda c: (SUIT_OF[c] != SPADES, self.k.is_boss(c), RANK_OF[c]))

    # ------------------------------------------------------------------ entry

    def choose(self) -> int:
        if not self.trick:
            return self.lead()
        return self.follow()

    # ---------------------------------------------------------------- follow

    def follow(self) -> int:
        f = self._follow_state()
        if self.plan.mode == "nil":
            return self._follow_nil(f)
        card = self._follow_cover(f) if self.plan.mode == "cover" else None
        if card is None:
            card = self._follow_attack(f)
        if card is not None:
            return card
        if f.winner_seat == self.partner:
            return self._follow_partner_winning(f)
        # An opponent is winning (or nobody has played a winner yet).
        if not self.plan.want:
            return self._duck(f)
        if f.winners:
            return self.win_safely(f.winners, f.losers, f.following)
        return self._shed_low(f)

    def _follow_state(self) -> Follow:
        led = SUIT_OF[self.trick[0][1]]
        winners = [c for c in self.legal if self.wins_now(c)]
        winner_seat = trick_winner(self.trick)
        return Follow(led=led, following=any(SUIT_OF[c] == led for c in self.legal), winners=winners,
                      losers=[c for c in self.legal if c not in winners], winner_seat=winner_seat,
                      best=next(c for p, c in self.trick if p == winner_seat))

    def _follow_nil(self, f: Follow) -> int:
        """My Nil: the highest card that stays under; void, the most dangerous one."""
        if f.losers:
            return max(f.losers) if f.following else max(f.losers, key=lambda c: card_nil_danger(c, self.hand))
        return self._win_anyway(f.winners)

    def _follow_cover(self, f: Follow) -> int | None:
        """My partner's Nil: overtake its winning card, or win before it plays; None when neither applies."""
        if self.partner in (p for p, _ in self.trick):
            if f.winner_seat == self.partner and f.winners:
                return self.cheapest(f.winners)  # take my partner's Nil off the hook
        elif f.following:
            if f.winners:
                return self.highest([c for c in self.legal if SUIT_OF[c] == f.led])
        elif f.led != SPADES and SUIT_OF[f.best] != SPADES and RANK_OF[f.best] <= self.params.cover_ruff_max_rank:
            spades = [c for c in f.winners if SUIT_OF[c] == SPADES]
            if spades:
                return self.cheapest(spades)  # ruff a low trick so my partner can duck anything
        return None

    def _follow_attack(self, f: Follow) -> int | None:
        """A live Nil on the other side: let it win, or keep a card to beat it low; None when not attacking."""
        plan = self.plan
        if f.winner_seat in plan.attack and f.losers and plan.need < plan.remaining:
            # The Nil is winning: let it (highest card that stays under). Busting it is worth 100 points
            # and a bag, more than the trick costs unless we need every trick.
            return self._under(f)
        if plan.attack and self._can_attack():
            target = next((p for p in self.after if p in plan.attack), None)
            if target is not None and self._cover_is_done(target):
                # The Nil plays after me and nobody will lift the trick for it: keep the card to beat low.
                return self._under(f) if f.losers else self.cheapest(f.winners)
        return None

    def _follow_partner_winning(self, f: Follow) -> int:
        """Do not overtake a partner whose card should hold; overtake one likely to be beaten."""
        if not self.plan.want:
            return self._duck(f)
        if not self.opp_after or not f.winners or self._partner_holds(f.best, f.led) >= self.params.partner_safe:
            return self._shed_low(f) if f.losers else self.cheapest(f.winners)
        return self.win_safely(f.winners, f.losers, f.following)

    def _under(self, f: Follow) -> int:
        """Stay under the trick with the card most worth getting rid of (``f.losers`` is not empty)."""
        return max(f.losers) if f.following else self.discard_winner(f.losers)

    def _duck(self, f: Follow) -> int:
        return self._under(f) if f.losers else self._win_anyway(f.winners)

    def _shed_low(self, f: Follow) -> int:
        """A trick I do not contest: my cheapest card of the suit, or junk when void."""
        return self.cheapest(f.losers) if f.following else self.discard_junk(f.losers)

    def _win_anyway(self, winners: list[int]) -> int:
        """Every card wins: the lowest while others still play (one may overtake it), else the highest (shed it)."""
        return min(winners) if self.after else max(winners)

    def _partner_holds(self, best: int, led: int) -> float:
        """Chance that my partner's winning card is not beaten by the opponents still to play."""
        prob = 1.0
        for p in self.opp_after:
            prob *= 1.0 - self.k.p_beats(p, best, led)
        return prob

    def win_safely(self, winners: list[int], losers: list[int], following: bool) -> int:
        """Second hand low, third hand high, otherwise the cheapest card likely to hold."""
        n = self.view.num_players
        position = len(self.trick)  # 1 = second hand
        ranked = sorted(winners, key=lambda c: (SUIT_OF[c] == SPADES, RANK_OF[c]))
        chances = {c: self.survival(c) for c in ranked}
        if not self.opp_after:
            return self.cheapest(ranked)
        safe = [c for c in ranked if chances[c] >= self.params.safe]
        if n == 4 and position == 1 and following:
            # Second hand low (my partner plays last), unless covering an honour with a card that holds.
            led = self.trick[0][1]
            if not (RANK_OF[led] >= self.params.cover_honour_rank and safe):
                return self.cheapest([c for c in self.legal if SUIT_OF[c] == SUIT_OF[led]])
        if safe:
            return self.low_of(safe[0])
        top = max(ranked, key=lambda c: chances[c])
        if chances[top] < self.params.hopeless and losers:
            return self.cheapest(losers) if following else self.discard_junk(losers)
        return self.low_of(top)

    # ------------------------------------------------------------------ lead

    def lead(self) -> int:
        plan, k = self.plan, self.k
        others = k.others
        legal = self.legal

        def p_taken_by(card: int, players: list[int]) -> float:
            keep = 1.0
            for p in players:
                keep *= 1.0 - k.p_beats(p, card, SUIT_OF[card])
            return 1.0 - keep

        if plan.mode == "nil":
            return min(legal, key=lambda c: (1.0 - p_taken_by(c, others), SUIT_OF[c] == SPADES, RANK_OF[c]))

        if plan.mode == "cover":
            # Lead high so my partner can play anything under it; suits my partner is out of are safest.
            pv = self.view.voids[self.partner]
            return max(legal, key=lambda c: (SUIT_OF[c] in pv and SUIT_OF[c] != SPADES,
                                             k.p_survives(c, [], k.opponents), SUIT_OF[c] != SPADES, RANK_OF[c]))

        opponents = k.opponents
        if plan.attack and self._can_attack():
            target = plan.attack[0]
            cands = [c for c in legal if k.p_has_any(target, SUIT_MASK_OF[c] & k.unseen) > self.params.nil_attack_suit]
            if cands:
                return self.cheapest(cands)

        if not plan.want:
            # Duck: lead what an opponent most likely beats; among equals the highest such card (shed it).
            return max(legal, key=lambda c: (round(p_taken_by(c, opponents), 2), SUIT_OF[c] != SPADES, RANK_OF[c]))

        # Want tricks: cash a winner that should not be ruffed.
        cash = [(k.p_survives(c, [], opponents), c) for c in legal if k.is_boss(c)]
        cash = [(p, c) for p, c in cash if p >= self.params.safe]
        side_cash = [(p, c) for p, c in cash if SUIT_OF[c] != SPADES]
        if side_cash:
            return max(side_cash, key=lambda pc: (pc[0], -((self.hand & SUIT_MASK_OF[pc[1]]).bit_count())))[1]
        spade_cash = [c for p, c in cash if SUIT_OF[c] == SPADES]
        if spade_cash and k.opponents_out(SPADES):
            return spade_cash[0]  # draw trumps with a boss spade

        side = [c for c in legal if SUIT_OF[c] != SPADES]
        if not side:
            return self.cheapest(legal)
        partner = self.partner
        if partner is not None:
            ruff_suits = [s for s in self.view.voids[partner] if s != SPADES
                          and k.p_has_any(partner, SUIT_MASKS[SPADES]) > self.params.partner_ruff]
            ruff = [c for c in side if SUIT_OF[c] in ruff_suits]
            if ruff:
                return self.cheapest(ruff)
        return self.low_of(min(side, key=self._lead_key))

    def _can_attack(self) -> bool:
        """Attacking a Nil gives up tricks: only while our own contract looks safe."""
        return self.plan.need <= 0 or self.plan.need < self._likely_winners()

    def _cover_is_done(self, target: int) -> bool:
        """The Nil bidder's partner has played to this trick, or plays after the Nil bidder."""
        n = self.view.num_players
        if n == 2:
            return True
        cover = (target + 2) % n
        return cover not in self.after[:self.after.index(target)]

    def _likely_winners(self) -> int:
        return sum(1 for c in self.legal if self.k.is_boss(c)) + (self.hand & SUIT_MASKS[SPADES]).bit_count() // 2

    def _lead_key(self, card: int) -> tuple:
        """Lower is a better low lead: partner's suits, no exposed honours, no suit an opponent ruffs."""
        suit = SUIT_OF[card]
        mine = self.hand & SUIT_MASKS[suit]
        k = self.k
        score = 0.0
        partner_led = any(p == self.partner and i % self.view.num_players == 0
                          for i, (p, c) in enumerate(self.view.plays) if SUIT_OF[c] == suit)
        if partner_led:
            score -= 2.0
        for p in k.opponents:
            if suit in self.view.voids[p] and k.p_has_any(p, SUIT_MASKS[SPADES]) > self.params.opponent_ruff:
                score += 3.0
        for honour_rank, guards in ((KING, 1), (QUEEN, 2)):  # K needs one card under it, Q two
            honour = card_id(suit, honour_rank)
            if mine >> honour & 1 and not k.is_boss(honour) and (mine & lower_mask(honour)).bit_count() <= guards:
                score += 2.0
        length = mine.bit_count()
        if length == 1 and (self.hand & SUIT_MASKS[SPADES]):
            score -= 1.0  # lead a singleton to ruff the suit later
        score -= 0.2 * length
        return (score, RANK_OF[card])


def choose_card(view: PlayerView, hand: int | None = None, params: Params = DEFAULT) -> int:
    """The heuristic's card for ``view`` (which must be a PLAY decision of this seat)."""
    hand = mask_of(view.hand) if hand is None else hand
    return CardChooser(view, hand, params).choose()
