"""Compiled forms of the batched engine's two hottest calls, for numpy arrays: card play and the live view
(the observations, either kind, and legal masks of the seats to act); and a uniform legal action per game
(:meth:`VectorSpades.random_actions`).

Why: on a CPU a step of card play is about forty whole-array numpy calls (gathers and scatters of a few
entries per game: hands, the observation entries a card touches, the trick), and reading the seats' to
act observations and masks a dozen more; each call costs microseconds of dispatch however few entries
it moves. Compiled by numba, each is one pass over the games that reads and writes the same arrays,
entry by entry, with the same index tables (:mod:`spades_env.vector.observe`), so the two forms cannot
drift apart unnoticed: ``tests/test_vector.py`` plays the numpy engine (these kernels) against
``SpadesGame``, and the torch engine (the array form in :mod:`spades_env.vector.play`,
:meth:`VectorSpades._legal_mask` and :meth:`ObservationWriter._observations`) against the numpy one,
step by step.

Two builds of the one source: :data:`SERIAL`, the default, and :data:`PARALLEL`
(``VectorSpades(threads=k)``), whose loops over the games (``prange``) numba's threading layer splits
over ``k`` threads. Each game touches only its own entries, so the split changes no result. Kernels are
compiled on first use and cached on disk (``cache=True``).
"""

from __future__ import annotations

from collections.abc import Callable
from types import FunctionType, SimpleNamespace

import numba
import numpy as np
from numba import njit, prange

from ..bitscan import popcount
from ..cards import NUM_CARDS, SPADES


def play_cards(games, cards, n, no_trick, hands, current_player, trick_len, led, broken, trick_cards, tricks,
               leader, tricks_done, flat, rflat, keep_codes, keep_reals, hand_at, played_at, voids_at, broken_at,
               tricks_flags_at, tricks_reals_at, trick_values, trick_codes, leader_at, trick_power,
               suit_of) -> None:
    """Seat ``current_player[g]`` of game ``g = games[i]`` plays ``cards[i]`` (legal): the card leaves its
    hand, joins the trick and shows in every observer's row (played, a void shown, spades broken); a
    complete trick goes to the card of highest ``trick_power`` (cards.TRICK_POWER), whose seat leads next."""
    for i in prange(games.shape[0]):
        g, card = games[i], cards[i]
        player = current_player[g]
        seat = g * n + player
        hands[seat] ^= np.int64(1) << card
        flat[hand_at[seat] + card] = 0
        for o in range(n):
            flat[played_at[seat, o] + card] = 1
        suit = suit_of[card]
        size = trick_len[g]
        suit_led = suit if size == 0 else led[g]
        led[g] = suit_led
        if suit != suit_led:  # a void is shown (written again later: harmless)
            for o in range(n):
                flat[voids_at[seat, o] + suit_led] = 1
        if suit == SPADES and not broken[g]:
            broken[g] = True
            for o in range(n):
                flat[broken_at[g, o]] = 1
        trick_cards[seat] = card
        size += 1
        trick_len[g] = size
        current_player[g] = (player + 1) % n
        if size < n:
            continue
        winner, best = 0, -1
        for s in range(n):
            power = trick_power[suit_led * NUM_CARDS + trick_cards[g * n + s]]
            if power > best:
                winner, best = s, power
        won = g * n + winner
        count = tricks[won] + 1
        tricks[won] = count
        for o in range(n):
            if keep_reals:
                rflat[tricks_reals_at[won, o]] = trick_values[count]
            if keep_codes:
                flat[tricks_flags_at[won, o]] = trick_codes[count]
            flat[leader_at[g * n + leader[g], o]] = 0
        for o in range(n):
            flat[leader_at[won, o]] = 1
            trick_cards[g * n + o] = -1
        leader[g] = winner
        current_player[g] = winner
        trick_len[g] = 0
        led[g] = no_trick + (1 if broken[g] else 0)
        tricks_done[g] += 1



def live_view(n, phase, current_player, hands, led, trick_cards, rows, reals, real_spans, phase_at, to_act_at,
              trick_at, rel, allowed, card_source, other_actions, others, out, mask, words) -> int:
    """The observation (``out``, (B, D) uint8 or float32) and legal mask (``mask``, (B, 71) bool) of the
    seat to act in every game: its stored row (``rows``; with ``real_spans`` (start, stop, start in
    ``reals``), the fractional blocks from the float32 rows ``reals``: given for float32 observations),
    the phase, itself to act and the current trick; with ``others`` (the oracle kind: n - 1, else 0) the
    hands of the next ``others`` seats from its left after the row; the legal actions of its phase (card
    source 2: the legal plays, 1: the whole hand, 0: none; plus the phase's other ids), also as two words of
    bits (``words``, (B, 2) int64: ids 0..63, 64..70). Returns the phase of every game when they are all in
    one (most steps), else -1."""
    width = rows.shape[1]
    common = phase[0]
    for g in range(out.shape[0]):
        if phase[g] != common:
            common = -1
            break
    for g in prange(out.shape[0]):
        player = current_player[g]
        seat = g * n + player
        for j in range(width):  # an explicit loop: numba vectorises it, not a slice assignment
            out[g, j] = rows[seat, j]
        for k in range(real_spans.shape[0]):
            start, rstart = real_spans[k, 0], real_spans[k, 2]
            for j in range(real_spans[k, 1] - start):
                out[g, start + j] = reals[seat, rstart + j]
        ph = phase[g]
        out[g, phase_at + ph] = 1
        out[g, to_act_at] = 1
        for s in range(n):
            card = trick_cards[g * n + s]
            if card >= 0:
                out[g, trick_at + rel[s, player] * NUM_CARDS + card] = 1
        for k in range(others):
            other = hands[g * n + (player + 1 + k) % n]
            for c in range(NUM_CARDS):
                out[g, width + k * NUM_CARDS + c] = (other >> c) & 1
        hand = hands[seat]
        source = card_source[ph]
        if source == 2:
            restricted = hand & allowed[led[g]]
            hand = restricted if restricted != 0 else hand
        elif source == 0:
            hand = 0
        low, high = other_actions[ph, 0] | hand, other_actions[ph, 1]
        words[g, 0], words[g, 1] = low, high
        for i in range(64):
            mask[g, i] = (low >> i) & 1 == 1
        for i in range(mask.shape[1] - 64):
            mask[g, 64 + i] = (high >> i) & 1 == 1
    return common


@njit(cache=True, nogil=True)
def sample_legal(words, u, out) -> None:
    """``out[g]``: of the legal ids in the bits of ``words[g]`` (ids 0..63, 64..), the one at position
    ``floor(u[g] * count)`` in ascending order: a uniform choice for ``u`` uniform in [0, 1). One thread:
    at 15 ns a game, splitting it costs more than it saves."""
    for g in range(words.shape[0]):
        low, high = words[g, 0], words[g, 1]
        in_low = popcount(low)
        count = in_low + popcount(high)
        k = min(int(u[g] * count), count - 1)
        if k < in_low:
            out[g] = select_bit(low, k)
        else:
            out[g] = 64 + select_bit(high, k - in_low)


@njit(cache=True, nogil=True)
def select_bit(x, k) -> int:
    """The index of the ``k``-th lowest set bit (from 0) of ``x``: halving the word six times without a
    branch (a loop clearing ``k`` bits costs a mispredicted branch or more per call)."""
    x, k, pos = np.uint64(x), np.uint64(k), np.uint64(0)
    for width in (32, 16, 8, 4, 2, 1):
        below = np.uint64(popcount(x & np.uint64((1 << width) - 1)))
        skip = np.uint64(k >= below)
        shift = skip * np.uint64(width)
        x >>= shift
        k -= skip * below
        pos += shift
    return int(pos)


def _renamed(function: Callable, suffix: str) -> Callable:
    """``function`` under another name: numba names its cache files after the function, so the parallel
    build of a kernel is cached apart from the serial one."""
    copy = FunctionType(function.__code__, function.__globals__, function.__name__ + suffix, function.__defaults__,
                        function.__closure__)
    copy.__qualname__, copy.__doc__ = function.__qualname__ + suffix, function.__doc__
    return copy


@njit(cache=True, nogil=True)
def first_illegal(mask, actions) -> int:
    """The first game whose action is not a legal id of its row of ``mask``, or -1."""
    for g in range(actions.shape[0]):
        a = actions[g]
        if a < 0 or a >= mask.shape[1] or not mask[g, a]:
            return g
    return -1


def check_threads(threads) -> int:
    """``threads`` checked: a positive integer, at most numba's thread count."""
    most = numba.config.NUMBA_NUM_THREADS
    if isinstance(threads, bool) or not isinstance(threads, int) or not 1 <= threads <= most:
        raise ValueError(f"threads must be an integer in 1..{most} (numba's NUMBA_NUM_THREADS), got {threads!r}")
    return threads


def use_threads(threads: int) -> None:
    """Run the next parallel kernel on ``threads`` threads (numba's setting is per calling thread)."""
    if numba.get_num_threads() != threads:
        numba.set_num_threads(threads)


# The loops over the games are ``prange`` loops: plain loops in the serial build. ``threads(k)`` readies
# the build for a call on ``k`` threads.
KERNELS = (play_cards, live_view)
SERIAL = SimpleNamespace(**{kernel.__name__: njit(cache=True, nogil=True)(kernel) for kernel in KERNELS},
                         first_illegal=first_illegal, sample_legal=sample_legal,
                         threads=lambda threads: None)
PARALLEL = SimpleNamespace(**{kernel.__name__: njit(cache=True, nogil=True, parallel=True)(_renamed(kernel, "_par"))
                              for kernel in KERNELS}, first_illegal=first_illegal, sample_legal=sample_legal,
                           threads=use_threads)
