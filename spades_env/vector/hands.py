"""The end of a hand (scoring, the game's decision, rewards) and the start of the next one, batched.

The rules themselves are :func:`spades_env.scoring.score_sides` and
:func:`spades_env.scoring.decide_winners`, the array forms of what ``SpadesGame`` calls after a hand;
this module only gathers their inputs from the state arrays and writes the results back.
"""

from __future__ import annotations

import numpy as np

from ..cards import NUM_CARDS
from ..scoring import POINTS_PER_REWARD, decide_winners, score_sides
from .state import BID, BLIND, DRAW, NO_TRICK


class HandCycle:
    """Deals, scores and restarts hands (a mixin of :class:`~spades_env.vector.VectorSpades`)."""

    def _end_hands(self, games) -> None:
        """Score the hands that just ended, decide the games, pay rewards, and start the next hand or, in
        slots whose game ended, a new game."""
        be, n = self._be, self.num_players
        over = self._score_hands(games)
        ended = be.compress(over, games)
        if len(ended):
            self._store_final_observations(ended)
            be.put(self.scores, ended, 0)
            be.put(self.bags, ended, 0)
            be.put(self.hand_number, ended, 0)
            slots = be.to_numpy(ended)
            self._start_hands(slots, self._deals.new_games(slots, None, None), self._deals.permutations(slots))
        going_on = be.compress(~over, games)
        if len(going_on):
            slots = be.to_numpy(going_on)
            dealers = (be.to_numpy(be.take(self.dealer, going_on)) + 1) % n
            self._start_hands(slots, dealers, self._deals.permutations(slots))

    def _score_hands(self, games):
        """Score the hands of ``games``, update the totals, flag the games that end and keep the hand
        records; returns which games are over."""
        be, xp, cfg, n = self._be, self._be.xp, self.config, self.num_players
        k = len(games)
        seats = be.take(self._game_seats, games)
        bids, blind, tricks = be.take(self.bids, seats), be.take(self.blind, seats), be.take(self.tricks, seats)
        # (k, side, member): seat = member * 2 + side (partners 0 & 2 and 1 & 3; or one player per side).
        by_side = [x.reshape(k, n // 2, 2).swapaxes(1, 2) for x in (bids, blind, tricks)]
        sides = score_sides(*by_side, be.take(self.bags, games), cfg.bag_limit, cfg.bag_penalty, xp)
        points = sides.total
        scores = be.take(self.scores, games) + points
        be.put(self.scores, games, scores)
        be.put(self.bags, games, sides.bags_after)
        hand_number = be.take(self.hand_number, games) + 1
        be.put(self.hand_number, games, hand_number)
        winner = decide_winners(scores, points, cfg.target_score, cfg.mercy_threshold, cfg.single_hand, xp)
        terminated = (winner >= 0) | cfg.single_hand
        truncated = ~terminated & (hand_number >= cfg.max_hands)
        over = terminated | truncated
        self._pay(games, points, winner)
        be.put(self._hand_done, games, True)
        be.put(self._terminated, games, terminated)
        be.put(self._truncated, games, truncated)
        last = self._last
        for key, value in (("hand", hand_number), ("dealer", be.take(self.dealer, games)), ("bids", bids),
                           ("blind_nil", blind), ("tricks", tricks),
                           ("scores_before", be.take(self.scores_before, games)),
                           ("bags_before", be.take(self.bags_before, games)),
                           ("sides", xp.stack([be.astype(field, be.i64) for field in sides], axis=2)),
                           ("scores", scores), ("bags", sides.bags_after), ("game_over", over), ("winner", winner),
                           ("truncated", truncated)):
            be.put(last[key], games, value)
        return over

    def _pay(self, games, points, winner) -> None:
        """The rewards of every seat of ``games`` for the hand that ended: the hand's points for the seat's
        side minus the other side's / 100, or +1 / -1 when the game is won."""
        be, xp = self._be, self._be.xp
        side = self._side_of
        if self.reward_mode == "score":
            rewards = be.astype(points[:, side] - points[:, 1 - side], be.f64) / POINTS_PER_REWARD
        else:
            won = xp.where(winner[:, None] == side[None, :], 1.0, -1.0)
            rewards = xp.where((winner >= 0)[:, None], won, 0.0)
        be.put(self._rewards, games, be.astype(rewards, be.f32))

    def _start_hands(self, slots: np.ndarray, dealers: np.ndarray, decks: np.ndarray) -> None:
        """Start a hand in ``slots`` (host indices) from shuffled ``decks`` (k, 52): four players get
        ``deck[13p:13p + 13]`` as in SpadesGame, two players draw from the deck as the stock. The rows
        of these games' observations are rebuilt from scratch."""
        be, xp, n = self._be, self._be.xp, self.num_players
        k = len(slots)
        # Every slot (single hands end together): the whole arrays are written in place.
        games = self._ar if k == self.num_envs else be.asarray(slots, be.i64)
        dealer = be.asarray(dealers, be.i64)
        seats = self._of(self._game_seats, games)
        if n == 4:
            hands = np.bitwise_or.reduce(np.left_shift(1, decks.reshape(k, n, 13)), axis=2)
            be.put(self.hands, seats, be.asarray(hands, be.i64))
            first = (dealer + 1) % n
        else:
            be.put(self.hands, seats, 0)
            be.put(self.stock, games[:, None] * NUM_CARDS + self._card_ids, be.asarray(decks, be.i64))
            first = dealer  # the first drawer
        for per_game in (self.stock_pos, self.pile, self.returned, self.replaced, self.trick_len, self.tricks_done,
                         self.num_passes, self.passes_done):
            self._set(per_game, games, 0)
        self._set(self.broken, games, False)
        self._set(self.led, games, NO_TRICK)
        be.put(self.exchanges, games[:, None] * 2 + be.arange(2), -1)
        self._set(self.dealer, games, dealer)
        self._set(self.leader, games, (dealer + 1) % n)
        self._set(self.current_player, games, first)
        scores = be.take(self.scores, games)
        self._set(self.scores_before, games, scores)
        self._set(self.bags_before, games, be.take(self.bags, games))
        be.put(self.bids, seats, -1)
        be.put(self.blind, seats, False)
        be.put(self.tricks, seats, 0)
        be.put(self.trick_cards, seats, -1)
        may_blind = self._may_blind(scores)
        be.put(self.decided, seats, ~may_blind)  # and so sees the hand from the start
        first_decided = be.take(self.decided, games * n + first)
        phase = xp.where(first_decided, BID if n == 4 else DRAW, BLIND)
        self._set(self.phase, games, phase)
        self._write_new_hand_rows(games, seats, dealer, may_blind, phase)

    def _may_blind(self, scores):
        """(k, n) bool: who may choose Blind Nil this hand (and so starts with the hand hidden), given the
        totals ``scores`` (k, 2) at its start."""
        be, cfg, shape = self._be, self.config, (len(scores), self.num_players)
        if not cfg.blind_nil_offered:
            return be.zeros(shape, be.bool)
        if cfg.blind_nil_min_deficit is None:
            return be.full(shape, True, be.bool)
        side = self._side_of
        return scores[:, 1 - side] - scores[:, side] >= cfg.blind_nil_min_deficit
