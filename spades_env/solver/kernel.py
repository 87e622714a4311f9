"""The fast double-dummy search, compiled with numba: iterative alpha-beta over the hand's point value.

Why it looks the way it does:

- **Iterative, explicit stack.** numba's on-disk cache (``cache=True``) was
  seen to crash when loading a recursive search; a loop over a stack of
  frames caches cleanly, so a process pays the ~20 s compilation once per
  machine, not once per process (tournament workers, the CLI).
- **Point value, not tricks.** Nil bidders care which seat takes a trick and
  bags make more tricks worth less, so every node's value is side 0's hand
  points minus side 1's, looked up at the leaves in the side tables built by
  :mod:`spades_env.solver.position` from the engine's scoring. The tricks
  taken *during the search* (``d``, per seat) are part of the state.
- **Static bounds.** ``lo[d]`` / ``hi[d]`` are the worst and best values over
  every way the remaining tricks could still fall (a backward pass over the
  trick counts, :func:`bounds_tables`). Most nodes of a settled hand (Nil
  already failed, contract out of reach) are cut by them at once.
- **Transposition table at trick boundaries,** keyed by relative ranks (the
  owner of each card still held, suit by suit, low to high), so positions that
  differ only in which small cards are gone share an entry; plus the leader,
  spades broken and the tricks taken per seat (per side when the side has no
  Nil bidder: then only the sum counts). It stores fail-soft bounds and the
  best lead, and is kept between calls (entries of an earlier solve are told
  apart by a stamp).
- **Equivalent cards are one move:** cards of one hand and suit with no card
  of another hand (or of the current trick) between them.
- **Move ordering:** the table's lead first, then a few trick-taking rules
  (win cheaply, duck as a Nil bidder, let a partner's winner stand) and a
  history table of cut-off moves.

Layout shared with :mod:`spades_env.solver.api`: cards are ids 0..51
(``suit * 13 + rank``, spades = 3); ``hands`` is ``int64[4]`` (seats 2 and 3
empty in the two-player game); values are ``int64`` with ``INF`` beyond every
reachable value.
"""

from __future__ import annotations

import numpy as np
from numba import njit

INF = 1 << 20
STRIDE = 14  # trick counts 0..13 per seat index the bounds tables
SUIT_BITS = (1 << 13) - 1
SPADE_BITS = SUIT_BITS << 39
TT_WAYS = 2
MAX_PLY = 53

# Fields of the search state ``st``.
NT, LEADER, BROKEN, WIN_SEAT, WIN_CARD, LEFT, NODES, CUT_FIRST, CUT_LATER, PROBES, HITS = range(11)
STATE_SIZE = 12
# Fields of a stack frame ``fr[ply]``.
(ALPHA, BETA, A0, B0, BEST, BEST_CARD, IDX, CNT, PLAYER, IS_TT, CARD, U_BROKEN, U_WIN_SEAT, U_WIN_CARD,
 U_LEADER, U_NT, U_TAKER, U_TRICK) = range(18)
FRAME_SIZE = 18
# Fields of a table entry's ``info`` row.
STAMP, MOVE, DEPTH = range(3)

_M0 = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xC2B2AE3D27D4EB4F)
_M2 = np.uint64(0x165667B19E3779F9)


@njit(cache=True)
def popcount(x: int) -> int:
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return (x * 0x0101010101010101 & 0x7FFFFFFFFFFFFFFF) >> 56


@njit(cache=True)
def lowest_card(x: int) -> int:
    return popcount((x & -x) - 1)


@njit(cache=True)
def suit_bits(card: int) -> int:
    return SUIT_BITS << (13 * (card // 13))


@njit(cache=True)
def beats(card: int, best: int) -> bool:
    """``card`` takes the trick from ``best``: higher in the same suit, or a spade on another suit."""
    s, t = card // 13, best // 13
    return (s == t and card > best) or (s == 3 and t != 3)


@njit(cache=True)
def bounds_index(d) -> int:
    return ((d[0] * STRIDE + d[1]) * STRIDE + d[2]) * STRIDE + d[3]


@njit(cache=True)
def leaf_value(tables, d) -> int:
    return tables[0, d[0], d[2]] - tables[1, d[1], d[3]]


@njit(cache=True)
def bounds_tables(tables, left, n, lo, hi):
    """Fill ``lo`` / ``hi`` (flat, ``STRIDE**4``) for every split ``d`` of at most ``left`` more tricks."""
    d = np.zeros(4, np.int64)
    strides = np.array([STRIDE ** 3, STRIDE ** 2, STRIDE, 1])
    for total in range(left, -1, -1):
        for d0 in range(total + 1):
            for d1 in range(total - d0 + 1):
                top2 = total - d0 - d1 if n == 4 else 0
                for d2 in range(top2 + 1):
                    if n == 2 and d0 + d1 != total:
                        continue
                    d[0], d[1], d[2] = d0, d1, d2
                    d[3] = total - d0 - d1 - d2 if n == 4 else 0
                    i = bounds_index(d)
                    if total == left:
                        lo[i] = hi[i] = leaf_value(tables, d)
                        continue
                    low, high = INF, -INF
                    for seat in range(n):
                        j = i + strides[seat]
                        low = min(low, lo[j])
                        high = max(high, hi[j])
                    lo[i], hi[i] = low, high


# ---------------------------------------------------------------- the table


@njit(cache=True)
def suit_code(live, m0, m1, suit) -> int:
    """The owners of a suit's live cards, low to high, 2 bits each, under a sentinel bit."""
    x = live & (SUIT_BITS << (13 * suit))
    code, shift = 0, 0
    while x:
        b = x & -x
        x ^= b
        owner = (1 if b & m0 else 0) | (2 if b & m1 else 0)
        code |= owner << shift
        shift += 2
    return code | (1 << shift)


@njit(cache=True)
def table_key(hands, st, d, merge, key):
    """Fill ``key`` (``uint64[3]``) for the trick-boundary position: relative ranks, leader, broken, tricks."""
    live = hands[0] | hands[1] | hands[2] | hands[3]
    m0, m1 = hands[1] | hands[3], hands[2] | hands[3]
    w0 = suit_code(live, m0, m1, 0) | suit_code(live, m0, m1, 1) << 27
    w1 = suit_code(live, m0, m1, 2) | suit_code(live, m0, m1, 3) << 27
    side0 = d[0] + d[2] if merge[0] else d[0] | d[2] << 4
    side1 = d[1] + d[3] if merge[1] else d[1] | d[3] << 4
    w2 = side0 | side1 << 8 | st[LEADER] << 16 | st[BROKEN] << 18
    key[0], key[1], key[2] = np.uint64(w0), np.uint64(w1), np.uint64(w2)


@njit(cache=True)
def table_slot(key, size) -> int:
    h = key[0] * _M0 ^ key[1] * _M1 ^ key[2] * _M2
    h ^= h >> np.uint64(31)
    return int(h & np.uint64(size - 1)) & ~(TT_WAYS - 1)


@njit(cache=True)
def table_find(tt_key, tt_info, key, stamp) -> int:
    """The entry holding ``key`` in this solve, or -1."""
    base = table_slot(key, tt_key.shape[0])
    for i in range(base, base + TT_WAYS):
        if (tt_info[i, STAMP] == stamp and tt_key[i, 0] == key[0] and tt_key[i, 1] == key[1]
                and tt_key[i, 2] == key[2]):
            return i
    return -1


@njit(cache=True)
def table_store(tt_key, tt_val, tt_info, key, stamp, low, high, move, depth):
    """Record bounds ``[low, high]`` (merged with what the entry knew) and the best lead."""
    i = table_find(tt_key, tt_info, key, stamp)
    if i >= 0:
        low, high = max(low, tt_val[i, 0]), min(high, tt_val[i, 1])
    else:
        base = table_slot(key, tt_key.shape[0])
        i = base
        for j in range(base, base + TT_WAYS):
            if tt_info[j, STAMP] != stamp:
                i = j
                break
            if tt_info[j, DEPTH] < tt_info[i, DEPTH]:
                i = j
        tt_key[i, 0], tt_key[i, 1], tt_key[i, 2] = key[0], key[1], key[2]
        tt_info[i, STAMP], tt_info[i, DEPTH] = stamp, depth
    tt_val[i, 0], tt_val[i, 1] = low, high
    if move >= 0:
        tt_info[i, MOVE] = move


@njit(cache=True)
def relative_move(live, card) -> int:
    """``card`` as its suit and the number of live cards above it (what the table stores)."""
    above = live & suit_bits(card) & ~((2 << card) - 1)
    return (card // 13) << 4 | popcount(above)


@njit(cache=True)
def absolute_move(live, move) -> int:
    """The card a stored move names in this position (the inverse of :func:`relative_move`)."""
    suit, above = move >> 4, move & 15
    x = live & (SUIT_BITS << (13 * suit))
    k = popcount(x) - 1 - above
    for _ in range(k):
        x &= x - 1
    return lowest_card(x) if x else -1


# ------------------------------------------------------------ making moves


@njit(cache=True)
def play(hands, trick, d, st, fr, ply, card, n):
    """Play ``card`` for the frame's player, saving what :func:`unplay` needs; a full trick goes to its winner."""
    f = fr[ply]
    seat = f[PLAYER]
    f[CARD], f[U_BROKEN], f[U_WIN_SEAT], f[U_WIN_CARD] = card, st[BROKEN], st[WIN_SEAT], st[WIN_CARD]
    f[U_LEADER], f[U_NT], f[U_TAKER] = st[LEADER], st[NT], -1
    hands[seat] ^= 1 << card
    st[LEFT] -= 1
    nt = st[NT]
    if card // 13 == 3 and (nt == 0 or trick[0] // 13 != 3):
        st[BROKEN] = 1  # a spade led (only when allowed) or played on another suit
    if nt == 0 or beats(card, st[WIN_CARD]):
        st[WIN_SEAT], st[WIN_CARD] = seat, card
    f[U_TRICK], trick[nt] = trick[nt], card  # the slot may hold a card of the trick a later unplay returns to
    if nt + 1 < n:
        st[NT] = nt + 1
        return
    winner = st[WIN_SEAT]
    d[winner] += 1
    st[LEADER], st[NT] = winner, 0
    f[U_TAKER] = winner


@njit(cache=True)
def unplay(hands, trick, d, st, fr, ply):
    f = fr[ply]
    trick[f[U_NT]] = f[U_TRICK]
    if f[U_TAKER] >= 0:
        d[f[U_TAKER]] -= 1
    st[LEADER], st[NT], st[BROKEN] = f[U_LEADER], f[U_NT], f[U_BROKEN]
    st[WIN_SEAT], st[WIN_CARD] = f[U_WIN_SEAT], f[U_WIN_CARD]
    hands[f[PLAYER]] |= 1 << f[CARD]
    st[LEFT] += 1


# ------------------------------------------------------------ move choice


@njit(cache=True)
def legal_cards(hands, trick, st, seat) -> int:
    """The engine's rule: follow suit if you can; lead spades once broken or when holding nothing else."""
    hand = hands[seat]
    if st[NT]:
        follow = hand & suit_bits(trick[0])
        return follow if follow else hand
    if st[BROKEN]:
        return hand
    rest = hand & ~SPADE_BITS
    return rest if rest else hand


@njit(cache=True)
def run_top(hand, live, card) -> int:
    """The highest card of ``card``'s run: the cards of ``hand`` above it with no other live card between."""
    while True:
        above = live & suit_bits(card) & ~((2 << card) - 1)
        nxt = above & -above
        if not nxt & hand:
            return card
        card = lowest_card(nxt)


@njit(cache=True)
def distinct_moves(hand, legal, live) -> int:
    """One card of each run of equivalent cards, the highest."""
    out = 0
    x = legal
    while x:
        b = x & -x
        x ^= b
        above = live & suit_bits(lowest_card(b)) & ~((b << 1) - 1)
        if not (above & -above) & hand:
            out |= b
    return out


@njit(cache=True)
def nil_standing(nil_bid, d, seat) -> bool:
    """``seat`` bid Nil (or Blind Nil) and has taken no trick yet."""
    return nil_bid[seat] == 1 and d[seat] == 0


@njit(cache=True)
def follow_rank(card, seat, st, d, nil_bid, n) -> int:
    """How promising a card is for a seat following to the trick (higher first): a few trick-taking rules."""
    wins = beats(card, st[WIN_CARD])
    low_first, high_first = 13 - card % 13, card % 13
    leader_seat = st[WIN_SEAT]
    partner_winning = n == 4 and leader_seat != seat and (leader_seat & 1) == (seat & 1)
    if nil_standing(nil_bid, d, seat):  # duck with the highest card that loses; win as cheaply as possible
        return 64 + high_first if not wins else low_first
    if nil_standing(nil_bid, d, leader_seat):  # a partner's Nil: cover it; an opponent's: let it win
        if partner_winning:
            return 64 + low_first if wins else low_first
        return 64 + low_first if not wins else low_first
    if partner_winning:
        return 64 + low_first if not wins else 32 + low_first
    return 64 + low_first if wins else 32 + low_first


@njit(cache=True)
def order_moves(moves, seat, st, d, nil_bid, hist, first, n, row, scores) -> int:
    """Write ``moves`` into ``row``, most promising first; return how many."""
    cnt = 0
    x = moves
    while x:
        b = x & -x
        x ^= b
        card = lowest_card(b)
        if card == first:
            score = 1 << 62
        elif st[NT] == 0:
            score = hist[seat, card]
        else:
            score = follow_rank(card, seat, st, d, nil_bid, n) << 40 | min(hist[seat, card], (1 << 40) - 1)
        j = cnt
        while j > 0 and scores[j - 1] < score:
            scores[j], row[j] = scores[j - 1], row[j - 1]
            j -= 1
        scores[j], row[j] = score, card
        cnt += 1
    return cnt


# ------------------------------------------------------------ the search


@njit(cache=True)
def last_trick(hands, st, d, tables, n) -> int:
    """The value when each seat holds one card and the trick is about to start: nothing is left to choose."""
    seat = st[LEADER]
    taker, best = seat, lowest_card(hands[seat])
    for k in range(1, n):
        other = (seat + k) % n
        card = lowest_card(hands[other])
        if beats(card, best):
            taker, best = other, card
    d[taker] += 1
    value = leaf_value(tables, d)
    d[taker] -= 1
    return value


@njit(cache=True)
def probe(hands, st, d, f, ctx, key):
    """Look the trick-boundary position up; narrow the window. Returns (done, value, the stored lead or -1)."""
    tables, lo, hi, merge, nil_bid, tt_key, tt_val, tt_info, stamp, hist = ctx
    table_key(hands, st, d, merge, key)
    e = table_find(tt_key, tt_info, key, stamp)
    st[PROBES] += 1
    if e < 0:
        return False, 0, -1
    st[HITS] += 1
    low, high = tt_val[e, 0], tt_val[e, 1]
    if low >= f[BETA] or low == high:
        return True, low, -1
    if high <= f[ALPHA]:
        return True, high, -1
    f[ALPHA], f[BETA] = max(f[ALPHA], low), min(f[BETA], high)
    move = tt_info[e, MOVE]
    live = hands[0] | hands[1] | hands[2] | hands[3]
    return False, 0, absolute_move(live, move) if move >= 0 else -1


@njit(cache=True)
def enter(hands, trick, d, st, fr, ply, n, ctx, keys, mv, scores):
    """Start the node at ``ply``: settle it at once (leaf, bounds, table) or list its moves. Returns (done, value)."""
    tables, lo, hi, merge, nil_bid, tt_key, tt_val, tt_info, stamp, hist = ctx
    f = fr[ply]
    st[NODES] += 1
    if st[LEFT] == 0:
        return True, leaf_value(tables, d)
    i = bounds_index(d)
    if lo[i] >= f[BETA]:
        return True, lo[i]
    if hi[i] <= f[ALPHA]:
        return True, hi[i]
    seat = (st[LEADER] + st[NT]) % n
    f[PLAYER], f[IS_TT] = seat, 0
    first = -1
    live = hands[0] | hands[1] | hands[2] | hands[3]
    if st[NT] == 0:
        if st[LEFT] == n:
            return True, last_trick(hands, st, d, tables, n)
        done, value, first = probe(hands, st, d, f, ctx, keys[ply])
        if done:
            return True, value
        f[IS_TT] = 1
    for k in range(st[NT]):
        live |= 1 << trick[k]
    f[A0], f[B0] = f[ALPHA], f[BETA]
    moves = distinct_moves(hands[seat], legal_cards(hands, trick, st, seat), live)
    f[CNT] = order_moves(moves, seat, st, d, nil_bid, hist, first, n, mv[ply], scores)
    f[IDX], f[BEST_CARD] = 0, -1
    f[BEST] = -INF if seat & 1 == 0 else INF
    return False, 0


@njit(cache=True)
def child_returned(fr, ply, value, hist, left, st) -> bool:
    """Take a child's value into the frame; True on a cut-off."""
    f = fr[ply]
    if f[PLAYER] & 1 == 0:
        if value > f[BEST]:
            f[BEST], f[BEST_CARD] = value, f[CARD]
        f[ALPHA] = max(f[ALPHA], value)
    else:
        if value < f[BEST]:
            f[BEST], f[BEST_CARD] = value, f[CARD]
        f[BETA] = min(f[BETA], value)
    if f[ALPHA] >= f[BETA]:
        hist[f[PLAYER], f[CARD]] += left * left
        if f[IDX] == 1:
            st[CUT_FIRST] += 1
        else:
            st[CUT_LATER] += 1
        return True
    return False


@njit(cache=True)
def finish(hands, st, fr, ply, ctx, keys) -> int:
    """The node's value; at a trick boundary, record it in the table (fail-soft bounds)."""
    tables, lo, hi, merge, nil_bid, tt_key, tt_val, tt_info, stamp, hist = ctx
    f = fr[ply]
    value = f[BEST]
    if f[IS_TT]:
        low = value if value > f[A0] else -INF
        high = value if value < f[B0] else INF
        live = hands[0] | hands[1] | hands[2] | hands[3]
        move = relative_move(live, f[BEST_CARD]) if f[BEST_CARD] >= 0 else -1
        table_store(tt_key, tt_val, tt_info, keys[ply], stamp, low, high, move, st[LEFT])
    return value


@njit(cache=True)
def search(hands, trick, d, st, n, ctx, alpha, beta):
    """Fail-soft alpha-beta from the position in ``hands`` / ``trick`` / ``d`` / ``st`` (restored on return).

    Returns (value, best card or -1): side 0's hand points minus side 1's
    under perfect play, exact when strictly inside ``(alpha, beta)``, else a
    bound on the side it fell.
    """
    hist = ctx[9]
    fr = np.empty((MAX_PLY, FRAME_SIZE), np.int64)
    mv = np.empty((MAX_PLY, 13), np.int64)
    keys = np.empty((MAX_PLY, 3), np.uint64)
    scores = np.empty(13, np.int64)
    ply = 0
    fr[0, ALPHA], fr[0, BETA] = alpha, beta
    done, value = enter(hands, trick, d, st, fr, 0, n, ctx, keys, mv, scores)
    if done:
        return value, -1
    while True:
        f = fr[ply]
        if f[IDX] < f[CNT]:
            card = mv[ply, f[IDX]]
            f[IDX] += 1
            play(hands, trick, d, st, fr, ply, card, n)
            ply += 1
            fr[ply, ALPHA], fr[ply, BETA] = f[ALPHA], f[BETA]
            done, value = enter(hands, trick, d, st, fr, ply, n, ctx, keys, mv, scores)
            if not done:
                continue
        else:
            value = finish(hands, st, fr, ply, ctx, keys)
        while True:  # hand the value up until a frame has moves left to try
            if ply == 0:
                return value, fr[0, BEST_CARD]
            ply -= 1
            unplay(hands, trick, d, st, fr, ply)
            if not child_returned(fr, ply, value, hist, st[LEFT], st):
                break
            value = finish(hands, st, fr, ply, ctx, keys)


@njit(cache=True)
def exact_value(hands, trick, d, st, n, ctx, guess) -> int:
    """The exact value by zero-window searches converging on it (MTD(f)), starting at ``guess``."""
    lo, hi = ctx[1], ctx[2]
    i = bounds_index(d)
    lower, upper = lo[i], hi[i]
    g = min(max(guess, lower), upper)
    while lower < upper:
        beta = g + 1 if g == lower else g
        g, _ = search(hands, trick, d, st, n, ctx, beta - 1, beta)
        if g < beta:
            upper = g
        else:
            lower = g
    return g


@njit(cache=True)
def start_state(hands, trick, nt, leader, broken, n):
    """The search state ``st`` for a position (the winner so far of a trick in progress included)."""
    st = np.zeros(STATE_SIZE, np.int64)
    st[NT], st[LEADER], st[BROKEN] = nt, leader, broken
    st[LEFT] = popcount(hands[0]) + popcount(hands[1]) + popcount(hands[2]) + popcount(hands[3])
    for k in range(nt):
        if k == 0 or beats(trick[k], st[WIN_CARD]):
            st[WIN_SEAT], st[WIN_CARD] = (leader + k) % n, trick[k]
    return st


@njit(cache=True)
def solve_root(hands, trick, nt, leader, broken, n, tables, merge, nil_bid, tt_key, tt_val, tt_info, stamp, hist,
               values, every_move):
    """Solve a position: ``values[card]`` gets the exact value of each legal card (side 0 minus side 1).

    With ``every_move`` false only the best value is exact: the other cards
    get an upper bound (side 0 to move) or lower bound (side 1) that shows
    they are worse, or the exact value when they tie the best. Returns
    (the position's value, nodes searched).
    """
    left = popcount(hands[0]) + popcount(hands[1]) + popcount(hands[2]) + popcount(hands[3])
    remaining = (left + nt) // n
    size = STRIDE ** 4
    lo, hi = np.empty(size, np.int64), np.empty(size, np.int64)
    bounds_tables(tables, remaining, n, lo, hi)
    ctx = (tables, lo, hi, merge, nil_bid, tt_key, tt_val, tt_info, stamp, hist)
    st = start_state(hands, trick, nt, leader, broken, n)
    d = np.zeros(4, np.int64)
    seat = (leader + nt) % n
    maximizing = seat & 1 == 0
    live = hands[0] | hands[1] | hands[2] | hands[3]
    for k in range(nt):
        live |= 1 << trick[k]
    legal = legal_cards(hands, trick, st, seat)
    moves = distinct_moves(hands[seat], legal, live)
    fr = np.zeros((1, FRAME_SIZE), np.int64)
    fr[0, PLAYER] = seat
    best = -INF if maximizing else INF
    guess = (lo[0] + hi[0]) // 2
    x = moves
    while x:
        card = lowest_card(x)
        x &= x - 1
        play(hands, trick, d, st, fr, 0, card, n)
        if every_move or best in (-INF, INF):
            value = exact_value(hands, trick, d, st, n, ctx, guess)
        else:  # only whether it ties or beats the best so far, and if so its exact value
            edge = best if maximizing else best + 1
            value, _ = search(hands, trick, d, st, n, ctx, edge - 1, edge)
            if (value >= edge) if maximizing else (value < edge):
                value = exact_value(hands, trick, d, st, n, ctx, value)
        unplay(hands, trick, d, st, fr, 0)
        values[card] = value
        best = max(best, value) if maximizing else min(best, value)
        guess = value
    x = legal & ~moves
    while x:
        card = lowest_card(x)
        x &= x - 1
        values[card] = values[run_top(hands[seat], live, card)]
    return best, st[NODES]
