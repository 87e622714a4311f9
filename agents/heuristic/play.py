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

from spades_env.cards import SPADES, SUIT_MASKS
from spades_env.game import SpadesGame
from spades_env.view import PlayerView

from .bidding import card_nil_danger
from .knowledge import Knowledge, equivalent_low, lower_mask, mask_of
from .params import DEFAULT, Params

SAFE = 0.8  # a card this likely to hold is treated as a winner


@dataclass
class Plan:
    mode: str  # "nil" (I duck), "cover" (partner's Nil), or "normal"
    want: bool  # normal and cover modes: try to win this trick
    attack: list[int]  # opponents with a live Nil
    need: int  # tricks my side still needs for its contract
    remaining: int  # tricks left in the hand, this one included


def make_plan(view: PlayerView, params: Params = DEFAULT) -> Plan:
    me, partner = view.seat, view.partner
    bids, tricks = view.bids, view.tricks
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
        return SpadesGame.trick_winner(self.trick + [(self.me, card)]) == self.me

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
        return self.low_of(min(cards, key=lambda c: (c // 13 == SPADES, c % 13)))

    def highest(self, cards: list[int]) -> int:
        return max(cards, key=lambda c: (c // 13 == SPADES, c % 13))

    def discard_junk(self, cards: list[int]) -> int:
        """A card worth nothing: low, from a short side suit (to make a void), never a boss if avoidable."""
        def key(c: int) -> tuple:
            suit_len = (self.hand & SUIT_MASKS[c // 13]).bit_count()
            return (c // 13 == SPADES, self.k.is_boss(c), c % 13, suit_len)
        return self.low_of(min(cards, key=key))

    def discard_winner(self, cards: list[int]) -> int:
        """Ducking: throw the card most likely to win a later trick (side-suit honours before spades)."""
        return max(cards, key=lambda c: (c // 13 != SPADES, self.k.is_boss(c), c % 13))

    # ------------------------------------------------------------------ entry

    def choose(self) -> int:
        if not self.trick:
            return self.lead()
        return self.follow()

    # ---------------------------------------------------------------- follow

    def follow(self) -> int:
        plan = self.plan
        led = self.trick[0][1] // 13
        following = any(c // 13 == led for c in self.legal)
        winners = [c for c in self.legal if self.wins_now(c)]
        losers = [c for c in self.legal if c not in winners]
        winner_seat = SpadesGame.trick_winner(self.trick)
        best = next(c for p, c in self.trick if p == winner_seat)

        if plan.mode == "nil":
            if losers:
                if following:
                    return max(losers)
                return max(losers, key=lambda c: card_nil_danger(c, self.hand))
            return min(winners) if self.after else max(winners)

        if plan.mode == "cover":
            played = [p for p, _ in self.trick]
            if self.partner in played:
                if winner_seat == self.partner and winners:
                    return self.cheapest(winners)  # take my partner's Nil off the hook
            elif following:
                if winners:
                    return self.highest([c for c in self.legal if c // 13 == led])
            elif led != SPADES and best % 13 <= 9 and best // 13 != SPADES:
                spades = [c for c in winners if c // 13 == SPADES]
                if spades:
                    return self.cheapest(spades)  # ruff a low trick so my partner can duck anything

        if winner_seat in plan.attack and losers and plan.need < plan.remaining:
            # A live Nil on the other side is winning: let it (highest card that stays under). Busting
            # it is worth 100 points and a bag, more than the trick costs unless we need every trick.
            return max(losers) if following else self.discard_winner(losers)
        if plan.attack and self._can_attack():
            target = next((p for p in self.after if p in plan.attack), None)
            if target is not None and self._cover_is_done(target):
                # The Nil plays after me and nobody will lift the trick for it: keep the card to beat low.
                if losers:
                    return max(losers) if following else self.discard_winner(losers)
                return self.cheapest(winners)

        if winner_seat == self.partner:
            safe = self._partner_holds(best, led)
            if not plan.want:
                if losers:
                    return max(losers) if following else self.discard_winner(losers)
                return min(winners) if self.after else max(winners)
            if safe >= 0.7 or not self.opp_after or not winners:
                if losers:
                    return self.cheapest(losers) if following else self.discard_junk(losers)
                return self.cheapest(winners)
            return self.win_safely(winners, losers, following)

        # An opponent is winning (or nobody has played a winner yet).
        if plan.want:
            if winners:
                return self.win_safely(winners, losers, following)
            return self.cheapest(losers) if following else self.discard_junk(losers)
        if losers:
            return max(losers) if following else self.discard_winner(losers)
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
        ranked = sorted(winners, key=lambda c: (c // 13 == SPADES, c % 13))
        chances = {c: self.survival(c) for c in ranked}
        if not self.opp_after:
            return self.cheapest(ranked)
        safe = [c for c in ranked if chances[c] >= SAFE]
        if n == 4 and position == 1 and following:
            # Second hand low (my partner plays last), unless covering an honour with a card that holds.
            led = self.trick[0][1]
            if not (led % 13 >= 9 and safe):
                return self.cheapest([c for c in self.legal if c // 13 == led // 13])
        if safe:
            return self.low_of(safe[0])
        top = max(ranked, key=lambda c: chances[c])
        if chances[top] < 0.25 and losers:
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
                keep *= 1.0 - k.p_beats(p, card, card // 13)
            return 1.0 - keep

        if plan.mode == "nil":
            return min(legal, key=lambda c: (1.0 - p_taken_by(c, others), c // 13 == SPADES, c % 13))

        if plan.mode == "cover":
            # Lead high so my partner can play anything under it; suits my partner is out of are safest.
            pv = self.view.voids[self.partner]
            return max(legal, key=lambda c: (c // 13 in pv and c // 13 != SPADES,
                                             k.p_survives(c, [], k.opponents), c // 13 != SPADES, c % 13))

        opponents = k.opponents
        if plan.attack and self._can_attack():
            target = plan.attack[0]
            cands = [c for c in legal if k.p_has_any(target, SUIT_MASKS[c // 13] & k.unseen) > 0.5]
            if cands:
                return self.cheapest(cands)

        if not plan.want:
            # Duck: lead what an opponent most likely beats; among equals the highest such card (shed it).
            return max(legal, key=lambda c: (round(p_taken_by(c, opponents), 2), c // 13 != SPADES, c % 13))

        # Want tricks: cash a winner that should not be ruffed.
        cash = [(k.p_survives(c, [], opponents), c) for c in legal if k.is_boss(c)]
        cash = [(p, c) for p, c in cash if p >= SAFE]
        side_cash = [(p, c) for p, c in cash if c // 13 != SPADES]
        if side_cash:
            return max(side_cash, key=lambda pc: (pc[0], -((self.hand & SUIT_MASKS[pc[1] // 13]).bit_count())))[1]
        spade_cash = [c for p, c in cash if c // 13 == SPADES]
        if spade_cash and k.opponents_out(SPADES):
            return spade_cash[0]  # draw trumps with a boss spade

        side = [c for c in legal if c // 13 != SPADES]
        if not side:
            return self.cheapest(legal)
        partner = self.partner
        if partner is not None:
            ruff_suits = [s for s in self.view.voids[partner] if s != SPADES
                          and k.p_has_any(partner, SUIT_MASKS[SPADES]) > 0.5]
            ruff = [c for c in side if c // 13 in ruff_suits]
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
        suit = card // 13
        mine = self.hand & SUIT_MASKS[suit]
        k = self.k
        score = 0.0
        partner_led = any(p == self.partner and i % self.view.num_players == 0
                          for i, (p, c) in enumerate(self.view.plays) if c // 13 == suit)
        if partner_led:
            score -= 2.0
        for p in k.opponents:
            if suit in self.view.voids[p] and k.p_has_any(p, SUIT_MASKS[SPADES]) > 0.2:
                score += 3.0
        for honour_rank, guards in ((11, 1), (10, 2)):  # K needs one card under it, Q two
            honour = suit * 13 + honour_rank
            if mine >> honour & 1 and not k.is_boss(honour) and (mine & lower_mask(honour)).bit_count() <= guards:
                score += 2.0
        length = mine.bit_count()
        if length == 1 and (self.hand & SUIT_MASKS[SPADES]):
            score -= 1.0  # lead a singleton to ruff the suit later
        score -= 0.2 * length
        return (score, card % 13)


def choose_card(view: PlayerView, hand: int | None = None, params: Params = DEFAULT) -> int:
    """The heuristic's card for ``view`` (which must be a PLAY decision of this seat)."""
    hand = mask_of(view.hand) if hand is None else hand
    return CardChooser(view, hand, params).choose()
