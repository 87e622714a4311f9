"""The fast double-dummy search, compiled with numba: iterative alpha-beta over the hand's point value.

Why it looks the way it does:

- **Iterative, explicit stack.** numba's on-disk cache (``cache=True``) was
  seen to crash when loading a recursive search; a loop over a stack of
  frames caches cleanly, so a machine pays the compilation (about a minute)
  once, not every process (tournament workers, the CLI). State lives in a
  few flat ``int64`` arrays indexed by named constants, allocated by the
  caller, and the hot functions are compiled without numba's runtime
  (``_nrt=False``): with it, passing arrays between functions cost atomic
  reference counts that took 70% of the time.
- **The per-node helpers are inlined** (``inline="always"``): LLVM left the
  larger ones as calls, and numba passes an array as all its fields (data,
  sizes, strides, ...), so a call to :func:`enter` moved about 95 words per
  node. Inlining what runs at every node or table probe into
  :func:`search` took the time per node from about 200 to 125 ns on the
  benchmark's 10-trick positions (same nodes), for 20 s more compilation;
  the rarer helpers (quick tricks, the Nil rules) stay calls, as inlining
  them doubled the compilation for nothing measurable (the table's small
  helpers too: 1% for 40 s more).
- **Suits are read as sequences** through the bit gather and scatter of
  BMI2 (:func:`~spades_env.bitscan.extract_bits`): whose hand holds the
  1st, 2nd, ... live card of a suit is one instruction, not a loop over
  the cards (the table key took 43 ns that way, 5 ns now). With the move
  loop inlined as well, about 105-115 ns per node (docs/search.md).
- **Point value, not tricks.** Nil bidders care which seat takes a trick and
  bags make more tricks worth less, so a node's value is side 0's hand points
  minus side 1's, looked up in the side tables that
  :mod:`spades_env.solver.position` builds from the engine's scoring. The
  tricks each seat took since the root (``d``) are part of the state.
- **Bounds by trick counts.** :func:`fill_bounds` tabulates, for every ``d``
  and every number ``k`` of the remaining tricks side 0 could still take, the
  worst and best value over the ways they can fall (and the same over the
  outcomes where a given Nil bidder takes no more tricks). A node is cut at
  once when every outcome is on one side of the window (a settled hand: Nil
  failed, contract out of reach), and at trick boundaries when the *sure
  trump tricks* (the top spades must win), a Nil bidder's sealed fate (it
  holds the top spade; or it holds no spade and, in each suit, its i-th
  lowest card has at most i others' cards below it, but for top cards its
  partner's cards beat place by place or its partner ruffs (covers): then
  its side *can* keep it from tricks, a bound of that side's result only,
  since a trick of the Nil bidder's may set a contract worth more than the
  Nil) or the *quick tricks* of the leader (top cards cashable without a
  ruff) confine the outcomes enough. Quick tricks can be declined (fewer tricks can be
  worth more), so they bound only the leader's side's result, from its own
  side. Each cut is tried on the fewest facts first, as the cards it rests
  on become relevant (:func:`trick_count_cut`).
- **Transposition table with partition search** (as in the bridge solver
  DDS; buckets by aggregate, with overflow buckets by top-card holders,
  :func:`table_store`): an entry stores, besides bounds and the best lead, only the cards
  whose ranks decided the result (the *relevant* cards: winners of tricks in
  which another card of their suit fell, and the cards behind trick-count
  cuts). It matches every position with the same suit lengths in every hand,
  the same leader, spades broken and trick counts, whose top cards of each
  suit down to the lowest relevant one sit in the same hands: small cards
  that never mattered may lie anywhere. Without a Nil bid a hand's value is
  set by each side's trick total, and where it rises with side 0's tricks
  (but for the bag penalties: :func:`trick_ordered`) entries hold bounds on
  side 0's tricks from there on instead of values, which hold whatever tricks
  were taken before (:func:`trick_range`): trick counts leave the key. With
  carried bags priced the value falls past a made contract and such bounds
  say little: those hands key on the classes below, as with a Nil. With a Nil bid,
  from ``CLASS_TRICKS`` tricks left, the key holds the *class* of the tricks
  taken since the root (:func:`past_classes`): splits after which every
  ending scores alike up to a constant (a made contract's side taking one
  more trick is one bag more whatever follows) share entries, which hold
  values less that constant (3.5% fewer nodes at the benchmark's 10 tricks,
  a quarter fewer in the ``nil_only`` game, whose values ignore the Nil
  bidder's partner's tricks altogether).
- **Equivalent cards are one move:** cards of one hand and suit with no card
  of another hand (or of the current trick) between them; and once a card
  below every relevant card of its suit was tried, the lower cards of that
  suit are skipped (DDS's "one small card per suit").
- **Move ordering:** the table's lead first, then trick-taking rules (cash
  winners (the top cards themselves), lead to a partner's winner or ruff,
  leads an opponent can ruff last, suits the opponents hold few cards of
  first; win cheaply, duck as a Nil bidder, cover a partner's Nil, let a
  partner's winner stand), and a history table of cut-off moves, which alone
  orders the plain leads within those rules (leads are where the ordering is
  weakest: the first one cuts in about 82% of lead cut-offs without a Nil,
  against 99% of the other seats').
- **Zero-window searches** converge on the exact value (MTD(f), the step
  doubling while tests fail the same way); each one reuses the table's bounds.

What is slow: a Nil bidder still standing with many tricks left. Proving it
safe (or not) takes every defence, and the winners that decide such tricks
are low cards, so table entries fix most of each suit and generalise little
(a 10-trick ending can take millions of nodes). The static rule above only
fires for a Nil bidder without spades; one holding low spades can be made
to ruff, which no cheap rule settles. Tried and dropped (node counts on the
benchmark's positions): settling windows that only ask "does the Nil stand"
by a separate +1/-1 game with its own table entries (that game alone took
as many nodes as the whole solve: the proof is the hard part, not the
trick counts); second-hand-low and protect-the-Nil follow rules (more
nodes); 128 table ways without the overflow levels (10% fewer nodes, no
faster); the bound a Nil the defenders on lead can set at once gives, a
partner's winners among the quick tricks (no fewer nodes: see
docs/results/search/solver_tried.md). ``max_nodes`` bounds the cost.

Layout shared with :mod:`spades_env.solver.api`: cards are ids 0..51
(``suit * 13 + rank``, spades = 3); seats 2 and 3 are empty in the
two-player game; values are ``int64`` with ``INF`` beyond every reachable
value.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..bitscan import deposit_bits, extract_bits, highest_card, lowest_card, popcount, spread_pairs

INF = 1 << 20
MAX_TRICKS = 13
K_RANGE = MAX_TRICKS + 2  # bounds[.., ci, k] for k = 0..13, then the overall bound at index 14
OVERALL = MAX_TRICKS + 1
SUIT_BITS = (1 << 13) - 1
SPADE_BITS = SUIT_BITS << 39
TT_WAYS = 128  # entries of one aggregate (suit lengths, leader, ...) share a bucket (see table_store): 64 ways
# halved the nodes of 16; with the levels, 128 solve one more 13-trick position than 64 within 5M nodes
MAX_PLY = 53
CLASS_TRICKS = 10  # past_classes compares endings from this many tricks left; fewer: the tricks per side

# The search state ``st``: hands, the current trick's cards, tricks taken per seat since the root, then scalars.
HAND, TRICK, TAKEN = 0, 4, 8
(NT, LEADER, BROKEN, WIN_SEAT, WIN_CARD, LEFT, PLAYERS, CI, NODES, NODE_LIMIT, ABORTED, CUTS_FIRST, CUTS_LATER,
 PROBES, HITS, WINDOWS, BY_TRICKS) = range(12, 29)
STATE_SIZE = 29
STATS = (NODES, CUTS_FIRST, CUTS_LATER, PROBES, HITS, WINDOWS)  # what solve_root reports in ``stats``
# A stack frame ``fr[ply]``.
(ALPHA, BETA, A0, B0, BEST, BEST_CARD, IDX, CNT, PLAYER, IS_TT, CARD, U_BROKEN, U_WIN_SEAT, U_WIN_CARD,
 U_LEADER, U_NT, U_TAKER, U_TRICK, U_CI, REL_ALL, REL_BEST, REL_TT, WORK0, LOW) = range(24)
FRAME_SIZE = LOW + 4  # LOW + suit: the suit's cards below it are skipped (see next_move)
# The key of a trick-boundary node ``kk[ply]``: suit lengths per hand, leader/broken/tricks, and the owner codes
# left-aligned (see ALIGNED).
K_LENGTHS, K_STATE, K_ALIGNED, K_OFFSET = 0, 1, 2, 4  # K_OFFSET: the split's offset (see past_classes)
KEY_SIZE = 5
# Owner codes left-aligned: a suit's live cards high to low, two bits each, from bit 25 of its 32-bit half of a word
# (suits 0-1 in one word, 2-3 in the other), so that "the top k cards sit in the same hands" is one mask and compare.
ALIGNED = 2 * MAX_TRICKS
LEVELS = 3  # the table's bucket levels (see table_store)
# A table entry ``tt[e]``, one 64-byte row (a cache line: a probe reads a bucket's entries in turn): lengths, state,
# the aligned owner codes of the fixed top cards (suits 0-1, 2-3) and their masks, then the bounds (low in the high
# 32 bits, high in the low 32: values stay within +-INF), then the stamp of the solve that wrote it (bits 32-62), its
# best lead + 1 (bits 26-31) and its work (bits 0-25: the nodes its search took, capped; the entry that saved the
# least work is replaced first).
W_LENGTHS, W_STATE, W_PATTERN, W_MASK, W_BOUNDS, W_INFO = 0, 1, 2, 4, 6, 7
ENTRY_WORDS = 8
MAX_WORK = (1 << 26) - 1
MAX_STAMP = (1 << 31) - 1

_M0 = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xC2B2AE3D27D4EB4F)


def compact_index() -> np.ndarray:
    """``didx[d0, d1, d2, d3]``: a dense index for every split of at most 13 tricks among four seats."""
    didx = np.full((MAX_TRICKS + 1,) * 4, -1, np.int64)
    i = 0
    for d0 in range(MAX_TRICKS + 1):
        for d1 in range(MAX_TRICKS + 1 - d0):
            for d2 in range(MAX_TRICKS + 1 - d0 - d1):
                for d3 in range(MAX_TRICKS + 1 - d0 - d1 - d2):
                    didx[d0, d1, d2, d3] = i
                    i += 1
    return didx


COMPACT = 2380  # splits counted by compact_index(): C(17, 4)


# ---------------------------------------------------------------- bits


@njit(cache=True, _nrt=False, inline="always")
def suit_of(card: int) -> int:
    """``card // 13`` for a card id (0..63) by a multiply and a shift: numba's ``//`` on signed integers rounds
    towards minus infinity, a few instructions more on every move."""
    return (card * 5042) >> 16


@njit(cache=True, _nrt=False, inline="always")
def rank_of(card: int) -> int:
    """``card % 13``, the rank within the suit (0 = 2, 12 = ace), without a signed modulo (see :func:`suit_of`)."""
    return card - 13 * suit_of(card)


@njit(cache=True, _nrt=False)
def suit_bits(card: int) -> int:
    return SUIT_BITS << (13 * suit_of(card))


@njit(cache=True, _nrt=False)
def beats(card: int, best: int) -> bool:
    """``card`` takes the trick from ``best``: higher in the same suit, or a spade on another suit."""
    s, t = suit_of(card), suit_of(best)
    return (s == t and card > best) or (s == 3 and t != 3)


@njit(cache=True, _nrt=False)
def live_cards(st) -> int:
    return st[HAND] | st[HAND + 1] | st[HAND + 2] | st[HAND + 3]


@njit(cache=True, _nrt=False, inline="always")
def top_cards(x, k) -> int:
    """The ``k`` highest cards of ``x`` (one suit's cards)."""
    return deposit_bits(((1 << k) - 1) << (popcount(x) - k), x)


@njit(cache=True, _nrt=False, inline="always")
def top_run(holders, x) -> int:
    """How many of the highest cards of ``x`` (one suit's live cards) ``holders`` hold in a row from the top."""
    others = x & ~holders
    return popcount(x & ~((2 << highest_card(others)) - 1)) if others else popcount(x)


# ------------------------------------------------------- bounds by tricks


@njit(cache=True)
def fill_one(tables, bounds, didx, n, d0, d1, d2, d3, left, base, excluded):
    """Bounds of one split ``d`` with ``left`` tricks still to fall, from the splits one trick later
    (in the table at ``base``, where seat ``excluded`` takes no more tricks)."""
    ci = base + didx[d0, d1, d2, d3]
    for k in range(K_RANGE):
        bounds[0, ci, k], bounds[1, ci, k] = INF, -INF
    if left == 0:
        v = tables[0, d0, d2] - tables[1, d1, d3]
        bounds[0, ci, 0] = bounds[1, ci, 0] = bounds[0, ci, OVERALL] = bounds[1, ci, OVERALL] = v
        return
    for seat in range(n):
        if seat == excluded:
            continue
        cj = base + didx[d0 + (seat == 0), d1 + (seat == 1), d2 + (seat == 2), d3 + (seat == 3)]
        own = 1 if seat % 2 == 0 else 0
        for k in range(own, left + 1):
            bounds[0, ci, k] = min(bounds[0, ci, k], bounds[0, cj, k - own])
            bounds[1, ci, k] = max(bounds[1, ci, k], bounds[1, cj, k - own])
    for k in range(left + 1):
        bounds[0, ci, OVERALL] = min(bounds[0, ci, OVERALL], bounds[0, ci, k])
        bounds[1, ci, OVERALL] = max(bounds[1, ci, OVERALL], bounds[1, ci, k])


@njit(cache=True)
def fill_table(tables, tricks, n, didx, bounds, base, excluded):
    for total in range(tricks, -1, -1):
        for d0 in range(total + 1):
            for d1 in range(total - d0 + 1):
                if n == 2:
                    if d0 + d1 == total:
                        fill_one(tables, bounds, didx, n, d0, d1, 0, 0, tricks - total, base, excluded)
                    continue
                for d2 in range(total - d0 - d1 + 1):
                    fill_one(tables, bounds, didx, n, d0, d1, d2, total - d0 - d1 - d2, tricks - total, base,
                             excluded)


@njit(cache=True)
def fill_bounds(tables, tricks, n, didx, bounds, nil_bid):
    """``bounds[0 / 1, didx[d], k]``: the least / greatest value when side 0 takes ``k`` of the tricks left
    after the split ``d`` of the first ones; index ``OVERALL`` over every ``k``. The same at
    ``(1 + j) * COMPACT + didx[d]`` over the outcomes where the Nil bidder ``j`` takes no more tricks."""
    fill_table(tables, tricks, n, didx, bounds, 0, -1)
    for seat in range(n):
        if nil_bid[seat]:
            fill_table(tables, tricks, n, didx, bounds, (1 + seat) * COMPACT, seat)


@njit(cache=True)
def splits_of(total, n):
    """Every split ``(d0, d1, d2, d3)`` of ``total`` tricks among the ``n`` seats, one per row."""
    out = np.zeros(((total + 1) * (total + 2) * (total + 3) // 6, 4), np.int64)
    count = 0
    for d0 in range(total + 1):
        for d1 in range(total - d0 + 1):
            for d2 in range(total - d0 - d1 + 1 if n == 4 else 1):
                d3 = total - d0 - d1 - d2
                if n == 4 or d3 == 0:
                    out[count, 0], out[count, 1], out[count, 2], out[count, 3] = d0, d1, d2, d3
                    count += 1
    return out[:count]


@njit(cache=True)
def side_classes(tricks, didx, merge, classes):
    """The classes with fewer than ``CLASS_TRICKS`` tricks left: each side's trick total, or each seat's where its
    members' tricks count apart (a Nil bid). Comparing the endings there saved 0.7% of the nodes at 7 tricks,
    less than its own cost."""
    for d0 in range(tricks + 1):
        for d1 in range(tricks + 1 - d0):
            for d2 in range(tricks + 1 - d0 - d1):
                for d3 in range(tricks + 1 - d0 - d1 - d2):
                    side0 = d0 + d2 if merge[0] else d0 | d2 << 4
                    side1 = d1 + d3 if merge[1] else d1 | d3 << 4
                    classes[didx[d0, d1, d2, d3], 0], classes[didx[d0, d1, d2, d3], 1] = side0 | side1 << 8, 0


@njit(cache=True)
def past_classes(tables, tricks, n, didx, nil_bid, merge, class_tricks):
    """``classes[didx[d]]`` = (class, offset) for every split ``d`` of the tricks taken since the root: splits
    of as many tricks after which the hand ends alike up to a constant share a class, the offset that constant.

    Alike: for every way the remaining tricks can fall, the values differ by
    the same amount (and the same Nils stand). Once a contract is made (or
    out of reach), one more trick for its side is one bag more either way,
    so such splits are alike. Table entries key on the class and hold values
    less the offset: positions reached by such splits share them, as the
    trick bounds of ``BY_TRICKS`` (hands without a Nil bid) do for any split.
    """
    classes = np.empty((COMPACT, 2), np.int64)  # (only the splits of at most ``tricks`` tricks are read)
    if tricks < class_tricks:
        side_classes(tricks, didx, merge, classes)
        return classes
    count = 0
    for total in range(tricks + 1):
        splits, futures = splits_of(total, n), splits_of(tricks - total, n)
        nf = len(futures)
        vec = np.empty((len(splits), nf + 1), np.int64)  # a split's values over the futures, less the first
        digest = np.empty(len(splits), np.uint64)
        for i in range(len(splits)):
            d0, d1, d2, d3 = splits[i, 0], splits[i, 1], splits[i, 2], splits[i, 3]
            offset = (tables[0, d0 + futures[0, 0], d2 + futures[0, 2]]
                      - tables[1, d1 + futures[0, 1], d3 + futures[0, 3]])
            h = np.uint64(0)
            for j in range(nf):
                v = (tables[0, d0 + futures[j, 0], d2 + futures[j, 2]]
                     - tables[1, d1 + futures[j, 1], d3 + futures[j, 3]] - offset)
                vec[i, j] = v
                h = (h ^ np.uint64(v & 0xFFFFFFFF)) * _M0
            standing = 0
            for seat in range(n):
                if nil_bid[seat] and splits[i, seat] == 0:
                    standing |= 1 << seat
            vec[i, nf] = standing
            digest[i] = (h ^ np.uint64(standing)) * _M1
            ci = didx[d0, d1, d2, d3]
            classes[ci, 0], classes[ci, 1] = count, offset
            for k in range(i):  # an earlier split alike
                if digest[k] != digest[i]:
                    continue
                same = True
                for j in range(nf + 1):
                    same = same and vec[k, j] == vec[i, j]
                if same:
                    classes[ci, 0] = classes[didx[splits[k, 0], splits[k, 1], splits[k, 2], splits[k, 3]], 0]
                    break
            if classes[ci, 0] == count:
                count += 1
    return classes


@njit(cache=True, _nrt=False)
def range_bounds(bounds, ci, low_k, high_k):
    """The least and greatest value when side 0 takes between ``low_k`` and ``high_k`` of the tricks left."""
    low, high = INF, -INF
    for k in range(low_k, high_k + 1):
        low = min(low, bounds[0, ci, k])
        high = max(high, bounds[1, ci, k])
    return low, high


# ------------------------------------------------------ quick-trick bounds


@njit(cache=True, _nrt=False)
def quick_tricks(st, seat):
    """Tricks the leader ``seat`` can cash from the top, suit by suit, before an opponent could ruff.

    Returns (tricks, the cards they use). A side suit is cashed only while
    every opponent holding a spade still follows; spades only when they may
    be led. Partners' winners are not counted (no entry is assumed).
    """
    n = st[PLAYERS]
    me = st[HAND + seat]
    live = live_cards(st)
    total, used = 0, 0
    for suit in range(4):
        mask = SUIT_BITS << (13 * suit)
        if not me & mask or (suit == 3 and not st[BROKEN] and me & ~SPADE_BITS):
            continue
        x = live & mask
        run = top_run(me, x)
        if suit != 3:
            for other in range(n):
                if (other - seat) % 2 and st[HAND + other] & SPADE_BITS:
                    run = min(run, popcount(st[HAND + other] & mask))
        used |= top_cards(x, run)
        total += run
    return total, used


@njit(cache=True, _nrt=False)
def sure_trumps(st):
    """The side holding the top spade, the tricks its run of top spades must win, and those spades.

    Every spade of the run wins the trick it falls in or falls with a
    partner's higher one, so the side wins at least as many tricks as one of
    its seats holds spades of the run.
    """
    x = live_cards(st) & SPADE_BITS
    if not x:
        return -1, 0, 0
    side = (st[HAND + 1] | st[HAND + 3]) >> highest_card(x) & 1
    used = top_cards(x, top_run(st[HAND + side] | st[HAND + side + 2], x))
    return side, max(popcount(used & st[HAND + side]), popcount(used & st[HAND + side + 2])), used


@njit(cache=True, _nrt=False)
def nil_suit_need(mine, theirs) -> int:
    """How many of the Nil bidder's top cards ``mine`` of a suit need a partner's cover: all but its lowest ones,
    its ``i``-th lowest (from 0) safe while it has at most ``i`` of the others' cards ``theirs`` below it.

    Why: it plays its highest card under the trick's best (its highest when the suit is ruffed), or its
    highest of a suit it discards. The lowest card is below all of theirs, so it always has one under the
    led card, and each trick takes one of its cards and, for its cards above the one played, one of their
    cards below (the led card): the condition holds on."""
    i = 0
    x = mine
    while x:
        b = x & -x
        x ^= b
        if popcount(theirs & (b - 1)) > i:
            return popcount(mine) - i
        i += 1
    return 0


@njit(cache=True, _nrt=False)
def nil_covered(mine, partner, need) -> bool:
    """The partner's cards ``partner`` of a suit cover the Nil bidder's ``need`` top cards ``mine`` of it: its
    ``i``-th highest beats the Nil bidder's ``i``-th highest, for each ``i`` up to ``need``."""
    for _ in range(need):
        if not partner or highest_card(partner) < highest_card(mine):
            return False
        partner ^= 1 << highest_card(partner)
        mine ^= 1 << highest_card(mine)
    return True


@njit(cache=True, _nrt=False)
def nil_safe(st, seat) -> bool:
    """The Nil bidder ``seat``, not on lead, cannot take a trick whatever anyone plays (on lead: False).

    It holds no spade (so it never wins a ruff and never has to ruff), and
    in each of its suits all but its top cards are safe (:func:`nil_suit_need`),
    for which its partner holds *covers*: in a suit the partner holds, as
    many of its top cards, each above the Nil bidder's card of the same place
    from the top (:func:`nil_covered`); for the suits the partner is void in,
    together, as many spades (ruffs). No partner in the two-player game. So
    it never wins a trick and never gets the lead. (On lead its side's quick
    tricks would be its own: :func:`nil_cut_table` does not ask.)

    Why the covers suffice: in a trick of a suit with a need the partner
    plays its highest card of the suit (or ruffs) and the Nil bidder its
    highest under it, so a cover and a card needing one go together, and
    its lower cards keep the condition (no card of it below them left, fewer
    of theirs below); with no need left its cards are safe as
    :func:`nil_suit_need` says. On a spade lead the partner may have to
    spend a spade, and the Nil bidder, void, sheds a top card that needs a
    ruff. The partner, on lead, leads a cover, or with no need left
    anything. It gives up a cover otherwise only when void in the led suit
    with nothing but covers: with none to spare its hand is then exactly the
    needs, and so is the Nil bidder's (the hands are as long), which
    therefore holds no card of the led suit that needs no cover, so it sheds
    the matching top card or, in a suit its partner ruffs, plays it under the
    ruff.
    """
    hand = st[HAND + seat]
    if hand & SPADE_BITS or st[LEADER] == seat:
        return False
    partner = st[HAND + (seat + 2) % 4] if st[PLAYERS] == 4 else 0
    others = live_cards(st) & ~hand
    ruffs = 0
    for suit in range(3):
        mine = hand & (SUIT_BITS << (13 * suit))
        if not mine:
            continue
        theirs = others & (SUIT_BITS << (13 * suit))
        need = nil_suit_need(mine, theirs)
        if need and not partner & theirs:
            ruffs += need
        elif need and not nil_covered(mine, partner & theirs, need):
            return False
    return ruffs <= popcount(partner & SPADE_BITS)


@njit(cache=True, _nrt=False)
def nil_cut_table(st, nil_bid, didx):
    """Where a standing Nil's fate is already sealed, the bounds table that only holds those outcomes.

    Returns (bounds row, tricks of side 0 the row leaves out, tricks its ``k`` counts, relevant cards, the
    side whose bound alone it gives or -1 for both): a Nil bidder holding the top spade will take the trick
    it falls in (the row of the split one trick later, that trick counted: both sides' bounds); one that
    :func:`nil_safe` says cannot be made to take a trick restricts the outcomes to those where it takes
    none, but only for its own side's bound: its side *can* keep it from tricks, and may prefer not to (a
    trick of the Nil bidder can set a contract of 11 or more), so the other side's bound is over every
    outcome. Not while the Nil bidder is on lead: its side's quick tricks would be its own. The latter rule
    rests on the holders of each of the Nil bidder's suits from the top down to its lowest card: the cards
    below are the other seats', as many as the suit lengths say, which settles every count the rule reads.
    """
    n = st[PLAYERS]
    for seat in range(n):
        if not nil_standing(st, nil_bid, seat):
            continue
        spades = live_cards(st) & SPADE_BITS
        top = highest_card(spades) if spades else -1
        if top >= 0 and st[HAND + seat] >> top & 1:
            st[TAKEN + seat] += 1
            ci = didx[st[TAKEN], st[TAKEN + 1], st[TAKEN + 2], st[TAKEN + 3]]
            st[TAKEN + seat] -= 1
            return ci, 1 - seat % 2, st[LEFT] // n - 1, 1 << top, -1
        if nil_safe(st, seat):
            rel = 0  # its lowest card of each suit: every card below is another seat's, as many as the lengths say
            for suit in range(3):
                mine = st[HAND + seat] & (SUIT_BITS << (13 * suit))
                rel |= mine & -mine
            return (1 + seat) * COMPACT + st[CI], 0, st[LEFT] // n, rel, seat % 2
    return st[CI], 0, st[LEFT] // n, 0, -1


@njit(cache=True, _nrt=False)
def count_cut(st, fr, ply, bounds, low_k, high_k, rows, quick):
    """Cut by side 0's tricks from here lying in ``[low_k, high_k]`` (and, when ``quick`` > 0, the leader's side
    taking at least ``quick``), each bound read from its row of ``rows`` = (row, shift, span) for side 0's lower
    bound, then for its upper bound (see :func:`nil_cut_table`). Returns (done, value, whether the quick tricks
    were needed)."""
    tricks = st[LEFT] // st[PLAYERS]
    ci_lo, shift_lo, span_lo, ci_hi, shift_hi, span_hi = rows
    lo_from, lo_to = max(low_k - shift_lo, 0), min(high_k - shift_lo, span_lo)
    hi_from, hi_to = max(low_k - shift_hi, 0), min(high_k - shift_hi, span_hi)
    if lo_from > lo_to or hi_from > hi_to:
        return False, 0, False  # (cannot happen: every bound holds at once)
    low, _ = range_bounds(bounds, ci_lo, lo_from, lo_to)
    _, high = range_bounds(bounds, ci_hi, hi_from, hi_to)
    if low >= fr[ply, BETA]:
        return True, low, False
    if high <= fr[ply, ALPHA]:
        return True, high, False
    if quick <= 0:
        return False, 0, False
    if st[LEADER] & 1 == 0:
        low, _ = range_bounds(bounds, ci_lo, min(max(lo_from, quick - shift_lo), lo_to), lo_to)
        return low >= fr[ply, BETA], low, True
    _, high = range_bounds(bounds, ci_hi, hi_from, max(min(hi_to, tricks - quick - shift_hi), hi_from))
    return high <= fr[ply, ALPHA], high, True


@njit(cache=True, _nrt=False)
def trick_count_cut(st, fr, ply, bounds, nil_bid, didx):
    """Cut a trick-boundary node by the sure trump tricks and the leader's quick tricks.

    The sure trump tricks must fall to their side: they bound the value both
    ways. The quick tricks the leader's side *can* take but may decline (a
    Nil, or bags, can make fewer tricks better), so they bound only that
    side's result: from below for side 0, from above for side 1. The cards
    a cut rests on become relevant, and one that rests on fewer generalises
    further in the table, so each bound is tried on the fewest facts first:
    the sure trumps over every outcome; a sealed Nil's outcomes
    (:func:`nil_cut_table`, whose rule fixes the Nil bidder's suits down to
    its lowest cards) without, then with the sure trumps; the quick tricks
    the same way, then over the sealed
    Nil's outcomes (at 10 tricks 10% fewer nodes than the rule's outcomes and
    the sure trumps always together). Returns (done, value, relevant cards).
    """
    tricks = st[LEFT] // st[PLAYERS]
    low_k, high_k = 0, tricks  # side 0's tricks from here on
    side, sure, trumps = sure_trumps(st)
    if side == 0:
        low_k = sure
    elif side == 1:
        high_k = tricks - sure
    seat = st[LEADER]
    mine = seat & 1 == 0
    every = (st[CI], 0, tricks, st[CI], 0, tricks)
    done, value, _ = count_cut(st, fr, ply, bounds, low_k, high_k, every, 0)
    if done:
        return True, value, trumps
    ci, shift, span, rel, only = nil_cut_table(st, nil_bid, didx)
    sealed = (ci, shift, span) if only != 1 else (st[CI], 0, tricks)
    sealed = sealed + ((ci, shift, span) if only != 0 else (st[CI], 0, tricks))
    if rel:
        if low_k > 0 or high_k < tricks:
            done, value, _ = count_cut(st, fr, ply, bounds, 0, tricks, sealed, 0)
            if done:
                return True, value, rel
        done, value, _ = count_cut(st, fr, ply, bounds, low_k, high_k, sealed, 0)
        if done:
            return True, value, trumps | rel
    rows = sealed if rel else every
    if (bounds[0, rows[0], min(high_k - rows[1], rows[2])] < fr[ply, BETA]) if mine else \
            (bounds[1, rows[3], max(low_k - rows[4], 0)] > fr[ply, ALPHA]):
        return False, 0, 0  # not even every trick (or none) for the leader's side would settle it
    quick, used = quick_tricks(st, seat)
    if quick <= 0:
        return False, 0, 0
    if low_k > 0 or high_k < tricks:  # the quick tricks alone, and then with the sure trump tricks
        done, value, _ = count_cut(st, fr, ply, bounds, 0, tricks, every, quick)
        if done:
            return True, value, used
    done, value, _ = count_cut(st, fr, ply, bounds, low_k, high_k, every, quick)
    if done:
        return True, value, trumps | used
    if rel:
        done, value, _ = count_cut(st, fr, ply, bounds, low_k, high_k, sealed, quick)
        if done:
            return True, value, trumps | used | rel
    return False, 0, 0


# ---------------------------------------------------------------- the table


@njit(cache=True, _nrt=False, inline="always")
def boundary_key(st, classes, kk, ply):
    """Fill ``kk[ply]`` for the trick-boundary position: lengths per hand and suit, the leader, spades broken,
    the class of the tricks taken (:func:`past_classes`; none with ``BY_TRICKS``) and its offset, and each
    suit's owners high to low."""
    lengths = 0
    for suit in range(4):
        for seat in range(4):
            lengths |= popcount(st[HAND + seat] & (SUIT_BITS << (13 * suit))) << (4 * (4 * suit + seat))
    past, offset = 0, 0  # with BY_TRICKS entries hold trick bounds: good for any tricks taken so far
    if not st[BY_TRICKS]:
        past, offset = classes[st[CI], 0], classes[st[CI], 1]
    kk[ply, K_LENGTHS] = lengths
    kk[ply, K_STATE] = past | st[LEADER] << 16 | st[BROKEN] << 18
    kk[ply, K_OFFSET] = offset
    m0, m1 = st[HAND + 1] | st[HAND + 3], st[HAND + 2] | st[HAND + 3]
    live = m0 | m1 | st[HAND]
    kk[ply, K_ALIGNED], kk[ply, K_ALIGNED + 1] = 0, 0
    for suit in range(4):
        x = live & (SUIT_BITS << (13 * suit))
        # the owner bits of the suit's live cards in their order, interleaved: two bits per card, the lowest first
        code = spread_pairs(extract_bits(m0, x)) | spread_pairs(extract_bits(m1, x)) << 1
        kk[ply, K_ALIGNED + suit // 2] |= code << (ALIGNED - 2 * popcount(x) + 32 * (suit % 2))


@njit(cache=True, _nrt=False)
def table_slot(kk, ply, size, level) -> int:
    """The first entry of the position's bucket of ``level``: its aggregate's (suit lengths, leader, ...) and
    the holders of the top ``level`` cards of each suit (see :func:`table_store`)."""
    h = np.uint64(kk[ply, K_LENGTHS]) * _M0 ^ np.uint64(kk[ply, K_STATE]) * _M1
    if level:
        tops = ((1 << (2 * level)) - 1) << (ALIGNED - 2 * level)
        tops |= tops << 32
        h ^= (np.uint64(kk[ply, K_ALIGNED] & tops) * _M1 ^ np.uint64(kk[ply, K_ALIGNED + 1] & tops)) * _M0 + _M1
        h ^= h >> np.uint64(31)
    h ^= h >> np.uint64(29)
    return int(h & np.uint64(size - 1)) & ~(TT_WAYS - 1)


@njit(cache=True, _nrt=False)
def fixed_cards(tt, e, suit) -> int:
    """How many top cards of ``suit`` entry ``e`` fixes."""
    return popcount((tt[e, W_MASK + suit // 2] >> (32 * (suit % 2))) & 0xFFFFFFFF) >> 1


@njit(cache=True, _nrt=False)
def pattern_cards(st, tt, e) -> int:
    """The cards an entry's pattern fixes, in this position: the top ones of each suit."""
    live = live_cards(st)
    out = 0
    for suit in range(4):
        out |= top_cards(live & (SUIT_BITS << (13 * suit)), fixed_cards(tt, e, suit))
    return out


@njit(cache=True, _nrt=False)
def relative_move(live, card) -> int:
    """``card`` as its suit and the number of live cards above it (what the table stores)."""
    above = live & suit_bits(card) & ~((2 << card) - 1)
    return suit_of(card) << 4 | popcount(above)


@njit(cache=True, _nrt=False)
def absolute_move(live, move) -> int:
    """The card a stored move names in this position (the inverse of :func:`relative_move`)."""
    if move < 0:
        return -1
    x = live & (SUIT_BITS << (13 * (move >> 4)))
    for _ in range(move & 15):
        if x:
            x ^= 1 << highest_card(x)
    return highest_card(x) if x else -1


@njit(cache=True, _nrt=False)
def trick_values(st, bounds, low, high, has_low, has_high):
    """The values here when side 0 takes from ``low`` to ``high`` of the tricks left (see :func:`trick_range`)."""
    if has_low:
        low, _ = range_bounds(bounds, st[CI], low, st[LEFT] // st[PLAYERS])
    if has_high:
        _, high = range_bounds(bounds, st[CI], 0, high)
    return low, high


@njit(cache=True, _nrt=False, inline="always")
def shifted(low, high, offset):
    """Bounds ``[low, high]`` moved by ``offset`` (an infinite end stays infinite)."""
    return low + offset if low > -INF else low, high + offset if high < INF else high


@njit(cache=True, _nrt=False, inline="always")
def trick_cuts(st, bounds, alpha, beta):
    """With ``BY_TRICKS``: the fewest tricks side 0 may be sure of for a value of at least ``beta`` whatever the
    rest, and the most it may be held to for at most ``alpha`` (past the ends when none)."""
    tricks, ci = st[LEFT] // st[PLAYERS], st[CI]
    cut_low, least = tricks + 1, INF
    for k in range(tricks, -1, -1):
        least = min(least, bounds[0, ci, k])
        if least < beta:
            break
        cut_low = k
    cut_high, most = -1, -INF
    for k in range(tricks + 1):
        most = max(most, bounds[1, ci, k])
        if most > alpha:
            break
        cut_high = k
    return cut_low, cut_high


@njit(cache=True, _nrt=False, inline="always")
def entry_stamp(tt, e) -> int:
    """The stamp of the solve that wrote entry ``e`` (-1: never written)."""
    return tt[e, W_INFO] >> 32


@njit(cache=True, _nrt=False, inline="always")
def entry_low(tt, e) -> int:
    return tt[e, W_BOUNDS] >> 32


@njit(cache=True, _nrt=False, inline="always")
def entry_high(tt, e) -> int:
    return ((tt[e, W_BOUNDS] & 0xFFFFFFFF) ^ 0x80000000) - 0x80000000  # the low 32 bits, sign extended


@njit(cache=True, _nrt=False, inline="always")
def entry_move(tt, e) -> int:
    """The best lead stored with entry ``e`` (-1: none)."""
    return ((tt[e, W_INFO] >> 26) & 63) - 1


@njit(cache=True, _nrt=False, inline="always")
def entry_work(tt, e) -> int:
    return tt[e, W_INFO] & MAX_WORK


@njit(cache=True, _nrt=False, inline="always")
def scan_bucket(st, fr, kk, ply, tt, stamp, bounds):
    """The bounds the matching entries give the position at ``ply`` (in tricks with ``BY_TRICKS``), the entries
    they came from (-1: none) and the stored lead: (low, high, low entry, high entry, move).

    The scan stops at the first entry whose bound settles the node: a probe
    reads about 13 entries of its own aggregate on the benchmark's 10-trick
    positions, and reading on past a cut-off took 3-7% of the time.
    """
    low, high, low_e, high_e, move = -INF, INF, -1, -1, -1
    lengths, state, code01, code23 = kk[ply, K_LENGTHS], kk[ply, K_STATE], kk[ply, K_ALIGNED], kk[ply, K_ALIGNED + 1]
    # a bound beyond these settles the node (entries hold values less the offset of the tricks taken)
    cut_low, cut_high = fr[ply, BETA] - kk[ply, K_OFFSET], fr[ply, ALPHA] - kk[ply, K_OFFSET]
    if st[BY_TRICKS]:  # the same in side 0's tricks from here (what the entries hold)
        cut_low, cut_high = trick_cuts(st, bounds, fr[ply, ALPHA], fr[ply, BETA])
    for level in range(LEVELS):
        base = table_slot(kk, ply, tt.shape[0], level)
        for e in range(base, base + TT_WAYS):
            if entry_stamp(tt, e) != stamp:  # the rest of the bucket is of other solves, and the bucket had room
                return low, high, low_e, high_e, move  # for every entry on this path (see table_store)
            if (tt[e, W_LENGTHS] != lengths or tt[e, W_STATE] != state
                    or (code01 & tt[e, W_MASK]) != tt[e, W_PATTERN]
                    or (code23 & tt[e, W_MASK + 1]) != tt[e, W_PATTERN + 1]):
                continue
            if entry_low(tt, e) > low:
                low, low_e = entry_low(tt, e), e
            if entry_high(tt, e) < high:
                high, high_e = entry_high(tt, e), e
            if entry_move(tt, e) >= 0:
                move = entry_move(tt, e)
            if low >= cut_low or high <= cut_high:
                return low, high, low_e, high_e, move
    return low, high, low_e, high_e, move


@njit(cache=True, _nrt=False, inline="always")
def probe(st, fr, kk, ply, tt, stamp, bounds):
    """Look the trick-boundary position up (``kk[ply]`` filled) and narrow the window.

    Returns (done, value, relevant cards, the stored lead or -1).
    """
    st[PROBES] += 1
    low, high, low_e, high_e, move = scan_bucket(st, fr, kk, ply, tt, stamp, bounds)
    if low_e < 0 and high_e < 0 and move < 0:
        return False, 0, 0, -1
    st[HITS] += 1
    if st[BY_TRICKS]:
        low, high = trick_values(st, bounds, low, high, low_e >= 0, high_e >= 0)
    else:
        low, high = shifted(low, high, kk[ply, K_OFFSET])
    if low >= fr[ply, BETA]:
        return True, low, pattern_cards(st, tt, low_e), -1
    if high <= fr[ply, ALPHA]:
        return True, high, pattern_cards(st, tt, high_e), -1
    if low == high:
        return True, low, pattern_cards(st, tt, low_e) | pattern_cards(st, tt, high_e), -1
    if low > fr[ply, ALPHA]:
        fr[ply, ALPHA] = low
        fr[ply, REL_TT] |= pattern_cards(st, tt, low_e)
    if high < fr[ply, BETA]:
        fr[ply, BETA] = high
        fr[ply, REL_TT] |= pattern_cards(st, tt, high_e)
    return False, 0, 0, absolute_move(live_cards(st), move)


@njit(cache=True, _nrt=False)
def pattern_level(st, m0, m1) -> int:
    """The highest bucket level (below ``LEVELS``) whose top cards the pattern masks ``m0``, ``m1`` fix in every
    suit (all of a suit's cards where it has fewer)."""
    live = live_cards(st)
    level = LEVELS - 1
    for suit in range(4):
        count = popcount(live & (SUIT_BITS << (13 * suit)))
        fixed = popcount(((m0 if suit < 2 else m1) >> (32 * (suit % 2))) & 0xFFFFFFFF) >> 1
        if fixed < count:
            level = min(level, fixed)
    return level


@njit(cache=True, _nrt=False)
def store_pattern(st, kk, ply, relevant):
    """The pattern and mask words of the position at ``ply``: per suit, the top cards down to the lowest relevant
    one."""
    live = live_cards(st)
    m01, m23 = 0, 0
    for suit in range(4):
        suit_cards = SUIT_BITS << (13 * suit)
        rel = relevant & suit_cards
        k = popcount(live & suit_cards & ~((rel & -rel) - 1)) if rel else 0
        mask = ((1 << (2 * k)) - 1) << (ALIGNED - 2 * k + 32 * (suit % 2))
        if suit < 2:
            m01 |= mask
        else:
            m23 |= mask
    return kk[ply, K_ALIGNED] & m01, kk[ply, K_ALIGNED + 1] & m23, m01, m23


@njit(cache=True, _nrt=False)
def trick_range(st, bounds, low, high):
    """The tricks of those left that side 0 must take (at least, at most) for values in ``[low, high]``.

    With ``BY_TRICKS`` (no Nil: a hand's value is set by each side's trick total) the table holds these
    instead of values, as the bridge solver DDS does: whether a side can force a number of the remaining
    tricks depends on the cards, not on the tricks taken before, so one entry serves every way here.
    """
    tricks = st[LEFT] // st[PLAYERS]
    k_low, k_high = 0, tricks
    if low > -INF:
        k_low = tricks
        for k in range(tricks, -1, -1):
            if bounds[1, st[CI], k] >= low:
                k_low = k
    if high < INF:
        k_high = 0
        for k in range(tricks + 1):
            if bounds[0, st[CI], k] <= high:
                k_high = k
    return k_low, k_high


@njit(cache=True, _nrt=False, inline="always")
def table_store(st, kk, ply, tt, stamp, low, high, move, relevant, work, bounds):
    """Record bounds ``[low, high]`` and the best lead for every position sharing the relevant cards.

    ``work`` is the nodes the result took. A new entry takes the bucket's first one of another solve, so a
    solve's entries are a prefix of the bucket and a scan stops at the first stale one. The entries of one
    aggregate share a bucket (level 0); when it is full, an entry whose pattern fixes the top card of every
    suit goes on to the bucket of its aggregate *and* those cards' holders (level 1), and one that fixes the
    top two to level 2 when that is full too: every position it can match reaches those buckets, and a probe
    reads on to the next level only past a full bucket. The buckets of one aggregate alone overflowed on
    the benchmark's 13-trick positions (a table four times larger left the nodes as they were, 512 ways
    solved 4 more of the 30 within 5M nodes). A full last bucket gives up the entry that took the least
    work (a policy by depth, all alike within an aggregate, would churn one slot).
    """
    if st[BY_TRICKS]:
        low, high = trick_range(st, bounds, low, high)
    else:
        low, high = shifted(low, high, -kk[ply, K_OFFSET])
    p0, p1, m0, m1 = store_pattern(st, kk, ply, relevant)
    slot = -1
    top = pattern_level(st, m0, m1)
    for level in range(top + 1):  # the first bucket with room (or this entry) on the entry's path
        base = table_slot(kk, ply, tt.shape[0], level)
        slot, placed = base, False
        for e in range(base, base + TT_WAYS):
            if entry_stamp(tt, e) != stamp:
                slot, placed = e, True
                break
            if (tt[e, W_LENGTHS] == kk[ply, K_LENGTHS] and tt[e, W_STATE] == kk[ply, K_STATE]
                    and tt[e, W_PATTERN] == p0 and tt[e, W_PATTERN + 1] == p1
                    and tt[e, W_MASK] == m0 and tt[e, W_MASK + 1] == m1):
                low, high = max(low, entry_low(tt, e)), min(high, entry_high(tt, e))
                move = move if move >= 0 else entry_move(tt, e)
                work += entry_work(tt, e)
                slot, placed = e, True
                break
            if entry_work(tt, e) < entry_work(tt, slot):
                slot = e
        if placed:
            break
    tt[slot, W_LENGTHS], tt[slot, W_STATE] = kk[ply, K_LENGTHS], kk[ply, K_STATE]
    tt[slot, W_PATTERN], tt[slot, W_PATTERN + 1] = p0, p1
    tt[slot, W_MASK], tt[slot, W_MASK + 1] = m0, m1
    tt[slot, W_BOUNDS] = (low << 32) | (high & 0xFFFFFFFF)
    tt[slot, W_INFO] = (stamp << 32) | ((move + 1) << 26) | min(work, MAX_WORK)


# ------------------------------------------------------------ making moves


@njit(cache=True, _nrt=False, inline="always")
def play(st, fr, ply, card, didx):
    """Play ``card`` for the frame's player, saving what :func:`unplay` needs; a full trick goes to its winner."""
    seat = fr[ply, PLAYER]
    nt = st[NT]
    fr[ply, CARD], fr[ply, U_BROKEN], fr[ply, U_WIN_SEAT] = card, st[BROKEN], st[WIN_SEAT]
    fr[ply, U_WIN_CARD], fr[ply, U_LEADER], fr[ply, U_NT] = st[WIN_CARD], st[LEADER], nt
    fr[ply, U_TAKER], fr[ply, U_TRICK], fr[ply, U_CI] = -1, st[TRICK + nt], st[CI]
    st[HAND + seat] ^= 1 << card
    st[LEFT] -= 1
    if suit_of(card) == 3 and (nt == 0 or suit_of(st[TRICK]) != 3):
        st[BROKEN] = 1  # a spade led (only when allowed) or played on another suit
    if nt == 0 or beats(card, st[WIN_CARD]):
        st[WIN_SEAT], st[WIN_CARD] = seat, card
    st[TRICK + nt] = card  # the slot may hold a card of the trick a later unplay returns to: saved above
    if nt + 1 < st[PLAYERS]:
        st[NT] = nt + 1
        return
    winner = st[WIN_SEAT]
    st[TAKEN + winner] += 1
    st[LEADER], st[NT], fr[ply, U_TAKER] = winner, 0, winner
    st[CI] = didx[st[TAKEN], st[TAKEN + 1], st[TAKEN + 2], st[TAKEN + 3]]


@njit(cache=True, _nrt=False, inline="always")
def unplay(st, fr, ply):
    if fr[ply, U_TAKER] >= 0:
        st[TAKEN + fr[ply, U_TAKER]] -= 1
    st[TRICK + fr[ply, U_NT]] = fr[ply, U_TRICK]
    st[LEADER], st[NT], st[BROKEN] = fr[ply, U_LEADER], fr[ply, U_NT], fr[ply, U_BROKEN]
    st[WIN_SEAT], st[WIN_CARD], st[CI] = fr[ply, U_WIN_SEAT], fr[ply, U_WIN_CARD], fr[ply, U_CI]
    st[HAND + fr[ply, PLAYER]] |= 1 << fr[ply, CARD]
    st[LEFT] += 1


@njit(cache=True, _nrt=False, inline="always")
def trick_relevance(cards, count) -> int:
    """The card that won the trick ``cards[:count]`` when its rank decided it (another card of its suit
    fell in the trick), else nothing: whoever holds the other cards, the trick goes the same way."""
    best = cards[0]
    for k in range(1, count):
        if beats(cards[k], best):
            best = cards[k]
    same = 0
    for k in range(count):
        same += suit_of(cards[k]) == suit_of(best)
    return 1 << best if same > 1 else 0


# ------------------------------------------------------------ move choice


@njit(cache=True, _nrt=False, inline="always")
def legal_cards(st, seat) -> int:
    """The engine's rule: follow suit if you can; lead spades once broken or when holding nothing else."""
    hand = st[HAND + seat]
    if st[NT]:
        follow = hand & suit_bits(st[TRICK])
        return follow if follow else hand
    if st[BROKEN]:
        return hand
    rest = hand & ~SPADE_BITS
    return rest if rest else hand


@njit(cache=True, _nrt=False)
def run_top(hand, live, card) -> int:
    """The highest card of ``card``'s run: the cards of ``hand`` above it with no other live card between."""
    while True:
        above = live & suit_bits(card) & ~((2 << card) - 1)
        nxt = above & -above
        if not nxt & hand:
            return card
        card = lowest_card(nxt)


@njit(cache=True, _nrt=False, inline="always")
def run_below(hand, live, card) -> int:
    """The cards of ``hand`` under ``card`` with no other live card between: the moves it stood for."""
    x = live & suit_bits(card)
    under = (1 << popcount(x & ((1 << card) - 1))) - 1  # the live cards below it, in their order
    gaps = under & ~extract_bits(hand, x)
    return deposit_bits(under & ~((2 << highest_card(gaps)) - 1) if gaps else under, x)


@njit(cache=True, _nrt=False, inline="always")
def distinct_moves(hand, legal, live) -> int:
    """One card of each run of equivalent cards, the highest."""
    out = 0
    for suit in range(4):
        x = live & (SUIT_BITS << (13 * suit))
        if legal & x:
            mine = extract_bits(hand, x)  # my cards among the suit's live ones, in their order
            out |= deposit_bits(mine & ~(mine >> 1), x)  # those with no card of mine next above
    return out & legal


@njit(cache=True, _nrt=False)
def nil_standing(st, nil_bid, seat) -> bool:
    """``seat`` bid Nil (or Blind Nil) and has taken no trick yet."""
    return nil_bid[seat] == 1 and st[TAKEN + seat] == 0


@njit(cache=True, _nrt=False, inline="always")
def lead_rank(st, card, seat, live, nil_bid) -> int:
    """How promising a lead is (higher first)."""
    n = st[PLAYERS]
    mask = suit_bits(card)
    low_first = 13 - rank_of(card)
    side_suit = suit_of(card) != 3
    if nil_standing(st, nil_bid, seat):
        return 64 + popcount(live & mask & ~((2 << card) - 1) & ~st[HAND + seat])
    for other in range(1, n, 2):  # attack an opponent's Nil: lead under all its cards of the suit, first where
        nil_hand = st[HAND + (seat + other) % n] & mask  # its lowest card is highest (the hardest to stay under)
        if nil_standing(st, nil_bid, (seat + other) % n) and nil_hand and card < lowest_card(nil_hand):
            return 90 + rank_of(lowest_card(nil_hand)) // 2
    # The opponents' holdings of the suit: whether one can ruff it, how many cards they must follow with, and how
    # many cards they could choose among (a void counts as a hand of choices).
    opponent_ruffs, follow, choices = False, 0, 0
    for other in range(1, n, 2):
        hand = st[HAND + (seat + other) % n]
        count = popcount(hand & mask)
        follow += count
        choices += count if count else st[LEFT] // n + 1
        if not count and hand & SPADE_BITS and side_suit:
            opponent_ruffs = True
    x = live & mask
    top = 1 << highest_card(x)
    if top & st[HAND + seat] and not opponent_ruffs and card >= lowest_card(top_cards(x, top_run(st[HAND + seat], x))):
        # cash a winner: a card of the run of top cards itself (a lower card of the suit is a plain lead), first
        # where the opponents hold the most cards of the suit (they must follow: nothing to ruff or discard)
        return 80 + min(follow, 9)
    if n == 4 and not opponent_ruffs:
        partner = st[HAND + (seat + 2) % 4]
        if top & partner and not nil_standing(st, nil_bid, (seat + 2) % 4):
            return 60 + low_first
        if not partner & mask and partner & SPADE_BITS and side_suit:
            return 50 + low_first
    # Any other lead: those an opponent can ruff last, and the suits the opponents have fewest choices in first:
    # fewer cards for them to choose among, a smaller tree, as the bridge solver DDS weighs its leads. Then the
    # history of cut-offs. (The order before, low cards first, the ruffable leads among the others and every card
    # of a suit headed by the leader's top card as a winner, took 58% more nodes at the benchmark's 10-trick median.)
    return (10 if opponent_ruffs else 20) + max(0, 9 - choices // 2)


@njit(cache=True, _nrt=False, inline="always")
def follow_rank(st, card, seat, nil_bid) -> int:
    """How promising a card is for a seat following to the trick (higher first)."""
    wins = beats(card, st[WIN_CARD])
    low_first, high_first = 13 - rank_of(card), rank_of(card)
    winner = st[WIN_SEAT]
    partner_winning = st[PLAYERS] == 4 and winner != seat and (winner & 1) == (seat & 1)
    if nil_standing(st, nil_bid, seat):  # duck with the highest card that loses; win as cheaply as possible
        return 64 + high_first if not wins else low_first
    if nil_standing(st, nil_bid, winner):  # a partner's Nil: cover it; an opponent's: let it win
        if partner_winning:
            return 64 + low_first if wins else low_first
        return 64 + low_first if not wins else low_first
    if partner_winning:
        return 64 + low_first if not wins else 32 + low_first
    return 64 + low_first if wins else 32 + low_first


@njit(cache=True, _nrt=False, inline="always")
def order_moves(st, seat, moves, live, nil_bid, hist, first, mv, ply, scores) -> int:
    """Write ``moves`` into ``mv[ply]``, most promising first (the table's move, then by rules and history);
    return how many. (A killer move per ply, tried too, cost nodes.)"""
    cnt = 0
    x = moves
    while x:
        card = lowest_card(x)
        x &= x - 1
        if card == first:
            score = 1 << 62
        else:
            rank = lead_rank(st, card, seat, live, nil_bid) if st[NT] == 0 else follow_rank(st, card, seat, nil_bid)
            score = rank << 40 | min(hist[seat, card], (1 << 40) - 1)
        j = cnt
        while j > 0 and scores[j - 1] < score:
            scores[j], mv[ply, j] = scores[j - 1], mv[ply, j - 1]
            j -= 1
        scores[j], mv[ply, j] = score, card
        cnt += 1
    return cnt


# ------------------------------------------------------------ the search


@njit(cache=True, _nrt=False, inline="always")
def last_trick(st, bounds, didx, cards):
    """(value, relevant cards) when each seat holds one card and a trick is about to start: nothing to choose."""
    n = st[PLAYERS]
    seat = st[LEADER]
    taker, best = seat, -1
    for k in range(n):
        other = (seat + k) % n
        cards[k] = lowest_card(st[HAND + other])
        if k == 0 or beats(cards[k], best):
            taker, best = other, cards[k]
    st[TAKEN + taker] += 1
    ci = didx[st[TAKEN], st[TAKEN + 1], st[TAKEN + 2], st[TAKEN + 3]]
    st[TAKEN + taker] -= 1
    return bounds[0, ci, OVERALL], trick_relevance(cards, n)


@njit(cache=True, _nrt=False, inline="always")
def enter(st, fr, mv, kk, ply, bounds, didx, classes, nil_bid, tt, stamp, hist, scores):
    """Start the node at ``ply``: settle it at once (bounds, table, quick tricks) or list its moves.

    Returns (done, value, relevant cards).
    """
    st[NODES] += 1
    if st[NODES] > st[NODE_LIMIT] > 0:
        st[ABORTED] = 1
        return True, 0, 0
    ci = st[CI]
    if st[LEFT] == 0:
        return True, bounds[0, ci, OVERALL], 0
    if bounds[0, ci, OVERALL] >= fr[ply, BETA]:
        return True, bounds[0, ci, OVERALL], 0
    if bounds[1, ci, OVERALL] <= fr[ply, ALPHA]:
        return True, bounds[1, ci, OVERALL], 0
    seat = (st[LEADER] + st[NT]) % st[PLAYERS]
    fr[ply, PLAYER], fr[ply, IS_TT], fr[ply, REL_TT] = seat, 0, 0
    first = -1
    if st[NT] == 0:
        if st[LEFT] == st[PLAYERS]:
            value, rel = last_trick(st, bounds, didx, scores)
            return True, value, rel
        boundary_key(st, classes, kk, ply)
        done, value, rel, first = probe(st, fr, kk, ply, tt, stamp, bounds)
        if not done:
            done, value, rel = trick_count_cut(st, fr, ply, bounds, nil_bid, didx)
        if done:
            return True, value, rel
        fr[ply, IS_TT], fr[ply, WORK0] = 1, st[NODES]
    live = live_cards(st)
    for k in range(st[NT]):
        live |= 1 << st[TRICK + k]
    fr[ply, A0], fr[ply, B0] = fr[ply, ALPHA], fr[ply, BETA]
    moves = distinct_moves(st[HAND + seat], legal_cards(st, seat), live)
    fr[ply, CNT] = order_moves(st, seat, moves, live, nil_bid, hist, first, mv, ply, scores)
    fr[ply, IDX], fr[ply, BEST_CARD], fr[ply, REL_ALL], fr[ply, REL_BEST] = 0, -1, 0, 0
    for suit in range(4):
        fr[ply, LOW + suit] = -1
    fr[ply, BEST] = -INF if seat & 1 == 0 else INF
    return False, 0, 0


@njit(cache=True, _nrt=False, inline="always")
def child_returned(st, fr, ply, value, rel, hist, cards) -> bool:
    """Take a child's value and relevant cards into the frame (after :func:`unplay`); True on a cut-off."""
    if fr[ply, U_TAKER] >= 0:  # the move closed a trick: its first cards are still in the slots
        n = st[PLAYERS]
        for k in range(n - 1):
            cards[k] = st[TRICK + k]
        cards[n - 1] = fr[ply, CARD]
        rel |= trick_relevance(cards, n)
    card = fr[ply, CARD]
    if rel >> card & 1:  # its rank mattered: so do those of the equivalent cards it was played for
        live = live_cards(st)
        for k in range(st[NT]):
            live |= 1 << st[TRICK + k]
        rel |= run_below(st[HAND + fr[ply, PLAYER]], live, card)
    fr[ply, REL_ALL] |= rel
    if fr[ply, PLAYER] & 1 == 0:
        if value > fr[ply, BEST]:
            fr[ply, BEST], fr[ply, BEST_CARD], fr[ply, REL_BEST] = value, fr[ply, CARD], rel
        fr[ply, ALPHA] = max(fr[ply, ALPHA], value)
    else:
        if value < fr[ply, BEST]:
            fr[ply, BEST], fr[ply, BEST_CARD], fr[ply, REL_BEST] = value, fr[ply, CARD], rel
        fr[ply, BETA] = min(fr[ply, BETA], value)
    if fr[ply, ALPHA] < fr[ply, BETA]:
        suit = suit_of(card)
        if fr[ply, LOW + suit] < 0:  # see next_move
            rel_suit = fr[ply, REL_ALL] & (SUIT_BITS << (13 * suit))
            low = lowest_card(rel_suit) if rel_suit else 13 * suit + 13
            if card < low:
                fr[ply, LOW + suit] = low
        return False
    hist[fr[ply, PLAYER], fr[ply, CARD]] += st[LEFT] * st[LEFT]
    if fr[ply, IDX] == 1:
        st[CUTS_FIRST] += 1
    else:
        st[CUTS_LATER] += 1
    return True


@njit(cache=True, _nrt=False, inline="always")
def finish(st, fr, kk, ply, tt, stamp, bounds):
    """(value, relevant cards) of the node at ``ply``; at a trick boundary, recorded in the table.

    A bound that one child proved (a max node failing high, a min node
    failing low) rests on that child's cards; any other result on every child's.
    """
    value = fr[ply, BEST]
    if st[ABORTED]:
        return value, 0
    one_child = value >= fr[ply, B0] if fr[ply, PLAYER] & 1 == 0 else value <= fr[ply, A0]
    rel = (fr[ply, REL_BEST] if one_child else fr[ply, REL_ALL]) | fr[ply, REL_TT]
    if fr[ply, IS_TT]:
        low = value if value > fr[ply, A0] else -INF
        high = value if value < fr[ply, B0] else INF
        card = fr[ply, BEST_CARD]
        move = relative_move(live_cards(st), card) if card >= 0 else -1
        table_store(st, kk, ply, tt, stamp, low, high, move, rel, st[NODES] - fr[ply, WORK0],
                    bounds)
    return value, rel


@njit(cache=True)
def workspace():
    """The stack frames, move lists, node keys and scratch row one search uses."""
    return (np.zeros((MAX_PLY, FRAME_SIZE), np.int64), np.zeros((MAX_PLY, MAX_TRICKS), np.int64),
            np.zeros((MAX_PLY, KEY_SIZE), np.int64), np.zeros(MAX_TRICKS, np.int64))


@njit(cache=True, _nrt=False, inline="always")
def next_move(st, fr, mv, ply) -> int:
    """The next card to try at ``ply``, or -1.

    A card below every relevant card of its suit (none of the cards whose
    ranks decided the results so far) stands for every lower card of that
    suit: once one such card was tried, the others would give the same
    result (the partition argument of the table), so they are skipped, as
    DDS does.
    """
    while fr[ply, IDX] < fr[ply, CNT]:
        card = mv[ply, fr[ply, IDX]]
        fr[ply, IDX] += 1
        low = fr[ply, LOW + suit_of(card)]
        if low < 0 or card >= low:
            return card
    return -1


@njit(cache=True, _nrt=False)
def search(st, alpha, beta, bounds, didx, classes, nil_bid, tt, stamp, hist, fr, mv, kk, scores):
    """Fail-soft alpha-beta from the position in ``st`` (restored on return).

    Returns (value, best card or -1): side 0's hand points minus side 1's
    under perfect play, exact when strictly inside ``(alpha, beta)``, else a
    bound on the side it fell.
    """
    ply = 0
    fr[0, ALPHA], fr[0, BETA] = alpha, beta
    done, value, rel = enter(st, fr, mv, kk, 0, bounds, didx, classes, nil_bid, tt, stamp, hist, scores)
    if done:
        return value, -1
    while True:
        card = next_move(st, fr, mv, ply)
        if card >= 0:
            play(st, fr, ply, card, didx)
            ply += 1
            fr[ply, ALPHA], fr[ply, BETA] = fr[ply - 1, ALPHA], fr[ply - 1, BETA]
            done, value, rel = enter(st, fr, mv, kk, ply, bounds, didx, classes, nil_bid, tt, stamp, hist,
                                     scores)
            if st[ABORTED]:  # out of nodes: restore the position and give up
                for back in range(ply - 1, -1, -1):
                    unplay(st, fr, back)
                return 0, -1
            if not done:
                continue
        else:
            value, rel = finish(st, fr, kk, ply, tt, stamp, bounds)
        while True:  # hand the value up until a frame has moves left to try
            if ply == 0:
                return value, fr[0, BEST_CARD]
            ply -= 1
            unplay(st, fr, ply)
            if not child_returned(st, fr, ply, value, rel, hist, scores):
                break
            value, rel = finish(st, fr, kk, ply, tt, stamp, bounds)


@njit(cache=True)
def leaf_values(tables, tricks, n):
    """Every value the hand can end with from the root (side 0's points minus side 1's), ascending, distinct."""
    out = np.empty((tricks + 1) ** 3, np.int64)
    count = 0
    for d0 in range(tricks + 1):
        for d1 in range(tricks + 1 - d0):
            for d2 in range(tricks + 1 - d0 - d1 if n == 4 else 1):
                d3 = tricks - d0 - d1 - d2 if n == 4 else 0
                if n == 2 and d0 + d1 != tricks:
                    continue
                out[count] = tables[0, d0, d2] - tables[1, d1, d3]
                count += 1
    return np.unique(out[:count])


@njit(cache=True, _nrt=False)
def first_above(cand, value) -> int:
    """The index of the first candidate value above ``value`` (``len(cand)`` when none)."""
    lo, hi = 0, len(cand)
    while lo < hi:
        mid = (lo + hi) // 2
        if cand[mid] > value:
            hi = mid
        else:
            lo = mid + 1
    return lo


@njit(cache=True, _nrt=False)
def exact_value(st, guess, cand, bounds, didx, classes, nil_bid, tt, stamp, hist, fr, mv, kk, scores):
    """The exact value by zero-window searches converging on it, the first at ``guess``.

    As MTD(f), each test is placed at the bound the last one returned; but
    when tests keep failing the same way, the step (counted in ``cand``, the
    values the hand can end with) doubles: bags move values one point at a
    time, and stepping through them one test each cost whole searches.
    Returns (value, an optimal card of the player to move, or -1 when a
    bound settled the last test it needed without trying a card).
    """
    lower, upper = bounds[0, st[CI], OVERALL], bounds[1, st[CI], OVERALL]
    maximizing = (st[LEADER] + st[NT]) % st[PLAYERS] & 1 == 0
    g, best = min(max(guess, lower), upper), -1
    beta = g + 1 if g == lower else g
    step, rising = 1, True
    while lower < upper:
        st[WINDOWS] += 1
        g, card = search(st, beta - 1, beta, bounds, didx, classes, nil_bid, tt, stamp, hist, fr, mv, kk,
                         scores)
        if st[ABORTED]:
            return 0, -1
        up = g >= beta
        step = step * 2 if up == rising else 1
        rising = up
        if up:  # the card a maximizing player proved its lower bound with (a minimizing one: its upper)
            lower = g
        else:
            upper = g
        if up == maximizing:
            best = card
        if lower >= upper:
            break
        low_i, high_i = first_above(cand, lower), first_above(cand, upper) - 1  # tests at cand[low_i..high_i]
        if low_i > high_i:  # (cannot happen: every bound is a value the hand can end with)
            beta = lower + 1
        else:
            beta = cand[min(low_i + step - 1, high_i)] if up else cand[max(high_i - step + 1, low_i)]
    return lower, best


@njit(cache=True)
def start_state(hands, trick, nt, leader, broken, n, didx):
    """The search state for a position (the winner so far of a trick in progress included)."""
    st = np.zeros(STATE_SIZE, np.int64)
    st[HAND:HAND + 4] = hands
    st[TRICK:TRICK + 4] = trick
    st[NT], st[LEADER], st[BROKEN], st[PLAYERS], st[CI] = nt, leader, broken, n, didx[0, 0, 0, 0]
    st[LEFT] = popcount(hands[0]) + popcount(hands[1]) + popcount(hands[2]) + popcount(hands[3])
    for k in range(nt):
        if k == 0 or beats(trick[k], st[WIN_CARD]):
            st[WIN_SEAT], st[WIN_CARD] = (leader + k) % n, trick[k]
    return st


@njit(cache=True, _nrt=False)
def middle_value(st, bounds) -> int:
    """The middle of the values the hand can still end with from ``st``: the first guess of a search for the
    exact value when nothing better is known."""
    return (bounds[0, st[CI], OVERALL] + bounds[1, st[CI], OVERALL]) // 2


@njit(cache=True)
def move_value(st, root, card, best, maximizing, every_move, cand, didx, args) -> int:
    """The value after the root player plays ``card``: exact, or only whether it ties ``best``.

    The first card's tests start from the middle of the bounds after it (nothing better is known yet;
    starting from the player's worst value took 6% more nodes for every card's value, 10 tricks); the
    others' from the best value so far.
    """
    play(st, root, 0, card, didx)
    if every_move or best in (-INF, INF):
        value, _ = exact_value(st, middle_value(st, args[0]) if best in (-INF, INF) else best, cand, *args)
    else:  # whether it ties the best: then its value is the best, else the bound shows it is worse
        edge = best if maximizing else best + 1
        value, _ = search(st, edge - 1, edge, *args)
        if (value >= edge) if maximizing else (value < edge):
            value = best
    unplay(st, root, 0)
    return value


@njit(cache=True)
def trick_ordered(tables, tricks) -> bool:
    """Without a Nil: whether trick bounds in the table (``BY_TRICKS``) can stand for value bounds, the hand's value
    rising with side 0's share of the ``tricks`` left but for at most two falls (a side's tricks reaching its bag
    penalty, at either end). With carried bags priced every trick past a made contract costs its side: the value
    rises to the contract and falls after it, and the bounds read back say little (in ``search-v5``'s games, 9
    tricks left and no Nil, a median 654,908 nodes a world with trick bounds, 23,338 keyed on the tricks taken)."""
    falls = 0
    for k in range(tricks):
        falls += tables[0, k + 1, 0] - tables[1, tricks - k - 1, 0] < tables[0, k, 0] - tables[1, tricks - k, 0]
    return falls <= 2


@njit(cache=True)
def solve_root(hands, trick, nt, leader, broken, n, tables, merge, nil_bid, didx, bounds, tt, stamp,
               hist, values, every_move, one_best, node_limit, stats, class_tricks=CLASS_TRICKS):
    """Solve a position: ``values[card]`` gets the value of each legal card (side 0 minus side 1).

    Every value is exact with ``every_move``; without, only the optimal cards'
    are, and each other card gets a bound showing it is worse (an upper bound
    when side 0 is to move, a lower bound when side 1 is). With ``one_best``
    (and not ``every_move``) only an optimal card (and the cards equivalent
    to it) gets its value and the others stay ``INF``: the value's own
    searches found that card, and the tests of the other cards, a third to
    half of a solve, are skipped (when a bound settled the value without
    trying a card, every card is tested as without ``one_best``). ``node_limit`` > 0
    stops the search after that many nodes; ``stats[i]`` gets the counter ``STATS[i]``. From
    ``class_tricks`` tricks left on, the table keys on :func:`past_classes` (tests lower it to check that
    path against minimax on short endings). Returns (the position's value, nodes searched, whether the
    search finished).
    """
    st = start_state(hands, trick, nt, leader, broken, n, didx)
    st[NODE_LIMIT] = node_limit
    tricks = (st[LEFT] + nt) // n  # left at the root, the current one included
    st[BY_TRICKS] = merge[0] & merge[1] and trick_ordered(tables, tricks)
    fill_bounds(tables, tricks, n, didx, bounds, nil_bid)
    classes = np.empty((1, 2), np.int64)  # (unread with BY_TRICKS)
    if not st[BY_TRICKS]:
        classes = past_classes(tables, tricks, n, didx, nil_bid, merge, class_tricks)
    fr, mv, kk, scores = workspace()
    cand = leaf_values(tables, tricks, n)
    args = (bounds, didx, classes, nil_bid, tt, stamp, hist, fr, mv, kk, scores)
    seat = (leader + nt) % n
    maximizing = seat & 1 == 0
    best = -INF if maximizing else INF
    top = -1
    if not every_move:
        best, top = exact_value(st, middle_value(st, bounds), cand, *args)
    live = live_cards(st)
    for k in range(nt):
        live |= 1 << trick[k]
    legal = legal_cards(st, seat)
    moves = distinct_moves(hands[seat], legal, live)
    root = np.zeros((1, FRAME_SIZE), np.int64)
    root[0, PLAYER] = seat
    x = moves
    if one_best and not every_move and top >= 0:  # the value's own searches proved ``top`` optimal
        values[top], x, moves = best, 0, 1 << top
    while x and not st[ABORTED]:
        card = lowest_card(x)
        x &= x - 1
        values[card] = move_value(st, root, card, best, maximizing, every_move, cand, didx, args)
        if every_move:
            best = max(best, values[card]) if maximizing else min(best, values[card])
    x = legal & ~moves
    while x:
        card = lowest_card(x)
        x &= x - 1
        values[card] = values[run_top(hands[seat], live, card)]
    for i in range(len(STATS)):
        stats[i] = st[STATS[i]]
    return best, st[NODES], not st[ABORTED]
