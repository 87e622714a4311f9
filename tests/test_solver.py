"""The double-dummy solver: the compiled search against plain minimax, and its lines against the engine's scoring.

Endings come from random hands of both variants with Nil and Blind Nil bids
(the two-player draw and the four-player Blind Nil exchange played at
random), bags carried in near the limit, and other bag limits and penalties,
stopped at a random point of the trick (mid-trick positions included).
"""

from __future__ import annotations

import copy
import subprocess
import sys

import numpy as np
import pytest

from spades_env import actions as A
from spades_env.cards import cards_of
from spades_env.game import Phase, SpadesGame
from spades_env.scoring import score_side
from spades_env.solver import (
    NodeLimitReached,
    Position,
    SearchTable,
    WorldSolver,
    kernel,
    legal_plays,
    position_arrays,
    position_of,
    reference_solve,
    side_tables,
    solve,
    solve_arrays,
    solve_position,
    warm_up,
)
from spades_env.solver.position import standing_nils

CONFIGS = ({}, {"bag_limit": 5, "bag_penalty": 50}, {"bag_limit": 3, "bag_penalty": 100})


@pytest.fixture(scope="module", autouse=True)
def compiled():
    warm_up()  # the first session compiles (about 30 s) and caches; later ones load in about a second


def bid_at_random(game: SpadesGame, rng: np.random.Generator) -> None:
    """Bid (Nil often, Blind Nil sometimes) and play the draw and exchanges at random, up to the card play."""
    while game.phase != Phase.PLAY:
        legal = game.legal_actions()
        if game.phase == Phase.BLIND:
            action = A.BLIND_NIL if rng.random() < 0.2 else A.LOOK
        elif game.phase == Phase.BID:
            action = A.bid_action(0 if rng.random() < 0.3 else int(rng.integers(1, 5)))
        else:
            action = legal[int(rng.integers(len(legal)))]
        game.apply(action)


def random_hand(rng: np.random.Generator, num_players: int) -> SpadesGame:
    config = CONFIGS[int(rng.integers(len(CONFIGS)))]
    game = SpadesGame(num_players=num_players, single_hand=True, **config)
    limit = game.config.bag_limit
    game.reset(seed=int(rng.integers(1 << 30)), bags=[int(rng.integers(limit)), limit - 1 - int(rng.integers(2))])
    bid_at_random(game, rng)
    return game


def endings(rng: np.random.Generator, num_players: int, hands: int, most: int):
    """Positions with ``most``, ..., 1 tricks left from each of ``hands`` random hands, each stopped at a random
    point of its trick (the playout goes on from there)."""
    for _ in range(hands):
        game = random_hand(rng, num_players)
        for left in range(most, 0, -1):
            stop = (13 - left) * num_players + int(rng.integers(num_players))
            while len(game.plays) < stop:
                legal = game.legal_actions()
                game.apply(legal[int(rng.integers(len(legal)))])
            yield game


def check_against_minimax(rng: np.random.Generator, num_players: int, hands: int, most: int,
                          nil_only: bool = False, bag_cost: int = 0) -> int:
    count = 0
    for game in endings(rng, num_players, hands, most):
        pos = position_of(game, bag_cost)
        value, moves = reference_solve(pos, nil_only)
        sol = solve_position(pos, nil_only=nil_only)
        assert (sol.value, sol.move_values) == (value, moves), pos
        assert sol.best_moves == sorted(c for c, v in moves.items() if v == value)
        count += 1
    return count


def test_matches_minimax_two_players():
    assert check_against_minimax(np.random.default_rng(1), 2, hands=200, most=4) == 800


def test_matches_minimax_four_players():
    assert check_against_minimax(np.random.default_rng(2), 4, hands=250, most=3) == 750


def test_matches_minimax_four_players_four_tricks():
    assert check_against_minimax(np.random.default_rng(3), 4, hands=20, most=4) == 80


def test_nil_stakes_match_minimax():
    rng = np.random.default_rng(5)
    assert check_against_minimax(rng, 4, hands=100, most=4, nil_only=True) \
        + check_against_minimax(rng, 2, hands=100, most=4, nil_only=True) == 800


def test_priced_bags_match_minimax():
    rng = np.random.default_rng(15)
    assert check_against_minimax(rng, 4, hands=100, most=3, bag_cost=10) \
        + check_against_minimax(rng, 2, hands=100, most=4, bag_cost=25) == 700


def test_priced_bags_match_minimax_four_tricks_left():
    """Priced, a made contract's overtricks cost its side: the table keys on the tricks taken (not on trick bounds)."""
    assert check_against_minimax(np.random.default_rng(17), 4, hands=20, most=4, bag_cost=10) == 80


def test_trick_bounds_only_where_the_value_rises_with_the_tricks_but_for_the_penalty():
    from spades_env.solver.kernel import trick_ordered
    from spades_env.solver.position import side_tables

    def dealt(bid: int) -> SpadesGame:
        game = SpadesGame(num_players=4, single_hand=False)
        game.reset(seed=3)
        while game.phase != Phase.PLAY:
            legal = game.legal_actions()
            game.apply(A.LOOK if A.LOOK in legal else A.BID_BASE + bid)
        return game

    def rises(bid: int, cost: int) -> bool:
        return bool(trick_ordered(side_tables(position_of(dealt(bid), cost)), 13))

    assert rises(4, 0)  # contracts of 8: at most 5 bags, every trick worth as much or more
    assert rises(1, 0)  # contracts of 2: ten bags within reach of either side, a fall (the penalty) at each end
    assert not rises(4, 10)  # priced: every trick past a made contract costs its side


def test_priced_bags_can_give_a_trick_away():
    """With every carried bag priced at its eventual cost, some endings are played otherwise: a side whose contract
    is made gives the opponents a trick it would take for the point."""
    rng = np.random.default_rng(16)
    changed = 0
    for game in endings(rng, 4, hands=60, most=3):
        if len(game.legal_actions()) > 1:
            free, priced = (solve_position(position_of(game, cost)) for cost in (0, 10))
            changed += not set(free.best_moves) & set(priced.best_moves)
    assert changed > 0


def test_a_nil_bidder_may_take_a_trick_on_purpose():
    """A Nil bidder that cannot be made to take a trick may still take one: here leading its lone heart sets the
    opponents' contract of 12 (a 240-point swing against the Nil's 200). The Nil side's bound from the Nil's
    outcomes alone must not cap its value."""
    def card(name: str) -> int:
        return 1 << (13 * "CDHS".index(name[1]) + "23456789TJQKA".index(name[0]))
    hands = (card("3H") | card("2C"), card("KC") | card("KD"), card("4C") | card("2D"), card("QC") | card("QD"))
    pos = Position(4, hands, (), 0, True, (0, 5, 1, 5), (0, 6, 1, 6), (False,) * 4, (0, 0))
    value, moves = reference_solve(pos)
    assert (value, moves[card("3H").bit_length() - 1]) == (31, 31)
    for every_move, one_best in ((True, False), (False, False), (False, True)):
        sol = solve_position(pos, every_move=every_move, one_best=one_best)
        assert sol.value == value and sol.best_moves == [card("3H").bit_length() - 1]


def card_of(name: str) -> int:
    """The card id of a name such as ``"QH"``."""
    return 13 * "CDHS".index(name[1]) + "23456789TJQKA".index(name[0])


def cards_mask(*names: str) -> int:
    return sum(1 << card_of(name) for name in names)


SPLITS = kernel.compact_index()


def kernel_state(hands, leader: int, broken: bool = True) -> np.ndarray:
    """The compiled search's state for a four-player position at a trick's start."""
    return kernel.start_state(np.array(hands, np.int64), np.zeros(4, np.int64), 0, leader, int(broken), 4, SPLITS)


def test_a_partner_covering_a_nil_is_seen_safe():
    """The sealed-Nil rule (``kernel.nil_safe``) with a partner's covers: the Nil bidder (seat 2) holds the queen
    and five of hearts over the defenders' two and three, so each could be led under; its partner's ace and king
    beat them place by place, so the Nil stands whatever the defenders do (minimax says so too), and the solver's
    values with the rule firing match minimax."""
    hands = (cards_mask("AH", "KH", "9C"), cards_mask("2H", "AC", "KC"), cards_mask("QH", "5H", "2D"),
             cards_mask("3H", "QC", "JC"))
    hearts = kernel.SUIT_BITS << 26
    assert kernel.nil_suit_need(hands[2] & hearts, (hands[0] | hands[1] | hands[3]) & hearts) == 2
    assert kernel.nil_safe(kernel_state(hands, 1), 2)
    assert not kernel.nil_safe(kernel_state((cards_mask("4C", "5C", "9C"),) + hands[1:], 1), 2)  # no covers...
    assert not kernel.nil_safe(kernel_state((cards_mask("AH", "4H", "9C"),) + hands[1:], 1), 2)  # ...or one short
    pos = Position(4, hands, (), 1, True, (3, 3, 0, 4), (3, 4, 0, 4), (False,) * 4, (0, 0))
    assert reference_solve(pos, nil_only=True)[0] == -1  # the defenders, on lead, cannot set it
    for nil_only in (False, True):
        value, moves = reference_solve(pos, nil_only)
        for every_move in (True, False):
            sol = solve_position(pos, every_move=every_move, nil_only=nil_only)
            assert sol.value == value and sol.best_moves == sorted(c for c, v in moves.items() if v == value)


def deal_against_a_nil(rng: np.random.Generator, tricks: int, partner_void: bool) -> tuple[int, list[int]]:
    """(the Nil bidder's seat, hands) of a random ending with ``tricks`` cards a hand in which the Nil bidder holds
    no spade and, with ``partner_void``, its partner none of one side suit."""
    seat = int(rng.integers(4))
    deck = [int(c) for c in rng.permutation(52)]
    mine = [c for c in deck if c < 39][:tricks]
    void = int(rng.integers(3)) if partner_void else -1
    theirs = [c for c in deck if c not in mine and c // 13 != void][:tricks]
    rest = [c for c in deck if c not in mine and c not in theirs][:2 * tricks]
    hands = [0] * 4
    hands[seat], hands[(seat + 2) % 4] = sum(1 << c for c in mine), sum(1 << c for c in theirs)
    for k, other in enumerate(((seat + 1) % 4, (seat + 3) % 4)):
        hands[other] = sum(1 << c for c in rest[tricks * k:tricks * (k + 1)])
    return seat, hands


def test_the_sealed_nil_rule_holds_against_minimax():
    """Wherever ``kernel.nil_safe`` says a Nil bidder cannot be made to take a trick, minimax on the Nil's stake
    alone says its side keeps it: random four-trick endings with the Nil bidder void in spades, many of them
    safe only through its partner's covers, high cards or ruffs."""
    rng = np.random.default_rng(13)
    safe = covered = ruffed = 0
    for k in range(600):
        seat, hands = deal_against_a_nil(rng, 4, k % 2 == 1)
        leader = (seat + 1 + int(rng.integers(3))) % 4
        if not kernel.nil_safe(kernel_state(hands, leader), seat):
            continue
        bids = tuple(0 if s == seat else 1 + int(rng.integers(4)) for s in range(4))
        taken = tuple(0 if s == seat else 3 for s in range(4))
        pos = Position(4, tuple(hands), (), leader, bool(rng.integers(2)), taken, bids, (False,) * 4, (0, 0))
        assert reference_solve(pos, nil_only=True)[0] == (1 if leader % 2 == seat % 2 else -1), pos
        safe += 1
        others = sum(hands) - hands[seat]
        needs = [kernel.nil_suit_need(hands[seat] & (kernel.SUIT_BITS << 13 * s), others & (kernel.SUIT_BITS << 13 * s))
                 for s in range(3)]
        covered += any(needs)
        ruffed += any(need and not hands[(seat + 2) % 4] & (kernel.SUIT_BITS << 13 * s) for s, need in enumerate(needs))
    assert safe > 200 and covered > 150 and ruffed > 120, (safe, covered, ruffed)


def test_the_sealed_nil_rule_rests_on_the_cards_it_marks():
    """A table entry the sealed-Nil rule settles fixes each of the Nil bidder's suits only from the top down to
    its lowest card (``kernel.nil_cut_table``'s relevant cards): every position with the same suit lengths per
    hand and those cards in the same hands, the lower cards and the other suits dealt anew among the other
    seats, is sealed too. (Dealing the marked cards anew as well unseals some, so the check has teeth.)"""
    rng = np.random.default_rng(15)
    sealed = unsealed = 0
    for k in range(3000):
        seat, hands = deal_against_a_nil(rng, 6, k % 2 == 1)
        leader = (seat + 1 + int(rng.integers(3))) % 4
        if not kernel.nil_safe(kernel_state(hands, leader), seat):
            continue
        for marked_too in (False, True):
            dealt = list(hands)
            for suit in range(4):
                cards = sum(dealt) & (kernel.SUIT_BITS << 13 * suit)
                nil_cards = hands[seat] & cards
                free = cards & ~hands[seat]
                if nil_cards and not marked_too:
                    free &= (nil_cards & -nil_cards) - 1  # below the Nil bidder's lowest card
                pool = [c for c in range(52) if free >> c & 1]
                order = [int(c) for c in rng.permutation(pool)]
                for other in range(4):
                    if other == seat:
                        continue
                    count = bin(dealt[other] & free).count("1")
                    dealt[other] = dealt[other] & ~free | sum(1 << c for c in order[:count])
                    order = order[count:]
            still = kernel.nil_safe(kernel_state(dealt, leader), seat)
            if marked_too:
                unsealed += not still
            else:
                assert still, (hands, dealt)
                sealed += 1
    assert sealed > 400 and unsealed > 50, (sealed, unsealed)


@pytest.mark.slow
def test_endings_against_a_nil_bidder_without_spades_match_minimax():
    """Five-trick endings in which a Nil bidder holds no spade (half of them its partner void in a suit), where
    the sealed-Nil rule and its covers fire inside the search and their table entries (which fix each suit only
    down to the Nil bidder's lowest card) are read by other positions: every card's value matches minimax, the
    Nil's stake alone too."""
    rng = np.random.default_rng(14)
    for k in range(16):
        seat, hands = deal_against_a_nil(rng, 5, k % 2 == 1)
        bids = tuple(0 if s == seat else 1 + int(rng.integers(4)) for s in range(4))
        taken = tuple(0 if s == seat else 3 - (s == (seat + 1) % 4) for s in range(4))
        pos = Position(4, tuple(hands), (), int(rng.integers(4)), bool(rng.integers(2)), taken, bids,
                       (False,) * 4, (0, 0))
        for nil_only in (False, True):
            value, moves = reference_solve(pos, nil_only)
            sol = solve_position(pos, nil_only=nil_only)
            assert (sol.value, sol.move_values) == (value, moves), pos


def test_past_classes_match_minimax():
    """Table entries keyed on classes of the tricks taken (used from ``kernel.CLASS_TRICKS`` tricks left, where
    minimax is out of reach) hold the exact values on short endings too: the class path forced on."""
    rng = np.random.default_rng(6)
    count = 0
    for num_players, hands, most in ((4, 150, 4), (2, 50, 4)):
        for game in endings(rng, num_players, hands, most):
            pos = position_of(game)
            for nil_only in (False, True):
                if nil_only and not standing_nils(pos):
                    continue
                value, moves = reference_solve(pos, nil_only)
                arrays = position_arrays(pos, standing_nils(pos) if nil_only else None)
                _, values, _ = solve_arrays(**arrays, class_tricks=0)
                sign = 1 if pos.to_move % 2 == 0 else -1
                assert {c: sign * int(values[c]) for c in moves} == moves, pos
                count += 1
    assert count > 800


def test_values_do_not_depend_on_the_table():
    """A table of two buckets overflows all the time on 7-trick endings: entries go on to the buckets of the top
    cards' holders (kernel.table_store) and are replaced; every card's value stays the one a roomy table gives."""
    rng = np.random.default_rng(7)
    small, large = SearchTable(bits=8), SearchTable(bits=16)
    count = 0
    for num_players in (4, 2):
        for _ in range(15):
            game = random_hand(rng, num_players)
            while sum(game.tricks) < 6:
                legal = game.legal_actions()
                game.apply(legal[int(rng.integers(len(legal)))])
            pos = position_of(game)
            cramped = solve_position(pos, table=small)
            assert cramped.move_values == solve_position(pos, table=large).move_values, pos
            count += cramped.nodes
    assert count > 10_000


def test_the_stamps_last_values_and_their_wrap_keep_solves_apart():
    """An entry packs the stamp of its solve in its high bits: a solve at the largest stamp writes entries that read
    back with it, the next one starts the stamps again with every entry cleared, and each gives the values of a
    fresh table; the bounds packed beside read back within the values' range."""
    rng = np.random.default_rng(11)
    games = [random_hand(rng, 4) for _ in range(3)]
    for game in games:
        while sum(game.tricks) < 6:
            legal = game.legal_actions()
            game.apply(legal[int(rng.integers(len(legal)))])
    fresh = [solve_position(position_of(game), table=SearchTable(bits=12)).move_values for game in games]
    table = SearchTable(bits=12)

    def stamped(stamp: int) -> np.ndarray:
        return table.entries[table.entries[:, kernel.W_INFO] >> 32 == stamp]

    table.stamp = kernel.MAX_STAMP - 1
    assert solve_position(position_of(games[0]), table=table).move_values == fresh[0]
    assert table.stamp == kernel.MAX_STAMP and len(stamped(kernel.MAX_STAMP))
    assert solve_position(position_of(games[1]), table=table).move_values == fresh[1]
    assert table.stamp == 1 and not len(stamped(kernel.MAX_STAMP)) and len(stamped(1))
    assert solve_position(position_of(games[2]), table=table).move_values == fresh[2]
    bounds = stamped(2)[:, kernel.W_BOUNDS]
    low, high = bounds >> 32, (bounds << 32) >> 32
    assert ((low <= high) & (low >= -kernel.INF) & (high <= kernel.INF)).all()


@pytest.mark.slow
def test_matches_minimax_many_endings():
    rng = np.random.default_rng(4)
    assert check_against_minimax(rng, 2, hands=1000, most=4) + check_against_minimax(rng, 4, hands=150, most=4) \
        == 4600


def hand_points(game: SpadesGame, side: int) -> int:
    points = game.hand_records[-1]["points"]
    return points[side] - points[1 - side]


def test_the_solved_line_scores_its_value_on_the_engine():
    """Play the solver's choices out on the engine, in endings too long for minimax: the hand's points are the
    value, every move's value is the value of the position it leads to, and every line keeps to the rules."""
    rng = np.random.default_rng(5)
    for num_players, most in ((4, 6), (2, 8)):
        for game in endings(rng, num_players, hands=12, most=most):
            game = copy.deepcopy(game)
            side = game.side_of[game.current_player]
            sol = solve(game)
            for card, value in sol.move_values.items():
                child = copy.deepcopy(game)
                child.apply(card)
                if child.phase == Phase.PLAY:
                    mover = child.side_of[child.current_player]
                    assert value == (1 if mover == side else -1) * solve(child).value
            while game.phase == Phase.PLAY:
                best = solve(game, every_move=False).best_moves
                game.apply(best[int(rng.integers(len(best)))])
            assert hand_points(game, side) == sol.value


def test_legal_plays_are_the_engines():
    rng = np.random.default_rng(6)
    for num_players in (2, 4):
        for _ in range(30):
            game = random_hand(rng, num_players)
            while game.phase == Phase.PLAY:
                pos = position_of(game)
                assert pos.legal_moves() == game.legal_mask() == legal_plays(
                    game.hands[game.current_player], tuple(game.trick), game.spades_broken)
                assert pos.to_move == game.current_player
                legal = game.legal_actions()
                game.apply(legal[int(rng.integers(len(legal)))])


def test_side_tables_are_the_scoring():
    rng = np.random.default_rng(7)
    for num_players in (2, 4):
        for game in endings(rng, num_players, hands=10, most=5):
            pos = position_of(game, bag_cost=int(rng.integers(3)) * 5)
            tables = side_tables(pos)
            for side in (0, 1):
                seats = pos.members(side)
                for a in range(pos.tricks_left + 1):
                    for b in range(pos.tricks_left + 1 - a if num_players == 4 else 1):
                        more = (a, b)[:len(seats)]
                        expected = score_side([pos.bids[s] for s in seats], [pos.blind[s] for s in seats],
                                              [pos.tricks[s] + m for s, m in zip(seats, more)], pos.bags[side],
                                              pos.bag_limit, pos.bag_penalty).priced(pos.bag_cost)
                        assert tables[side, a, b] == expected


def test_best_moves_only_match_every_move():
    rng = np.random.default_rng(8)
    for game in endings(rng, 4, hands=15, most=5):
        full, quick = solve(game), solve(game, every_move=False)
        assert quick.value == full.value and quick.best_moves == full.best_moves
        assert all(quick.move_values[c] < full.value for c in full.move_values if c not in full.best_moves)


def test_one_best_is_an_optimal_card():
    rng = np.random.default_rng(12)
    for players in (4, 2):
        for game in endings(rng, players, hands=15, most=6):
            full, one = solve(game), solve(game, every_move=False, one_best=True)
            assert one.value == full.value and one.best_moves
            assert set(one.best_moves) <= set(full.best_moves), (one.move_values, full.move_values)
            assert all(one.move_values[c] == full.value for c in one.move_values)


def test_a_world_solver_solves_each_world_as_solve_does():
    """One decision's sampled worlds through one WorldSolver: the same values and nodes as solving each alone."""
    rng = np.random.default_rng(14)
    for players in (4, 2):
        for game in endings(rng, players, hands=6, most=5):
            mover, nil_only = game.current_player, bool(standing_nils(position_of(game)))
            solver = WorldSolver(position_of(game), nil_only)
            for world in (game.resample(mover, rng) for _ in range(3)):
                assert solver.solve(world.hands) == solve(world, nil_only=nil_only)
            swapped, overlapping = list(game.hands), list(game.hands)
            nxt = (mover + 1) % players
            swapped[mover], swapped[nxt] = game.hands[nxt], game.hands[mover]
            lowest = game.hands[nxt] & -game.hands[nxt]  # the next seat's lowest card swapped for one of the mover's
            overlapping[nxt] = game.hands[nxt] & ~lowest | game.hands[mover] & -game.hands[mover]
            for hands in (swapped, overlapping):
                with pytest.raises(ValueError, match="disjoint hands"):
                    solver.solve(hands)


def test_node_limit():
    game = SpadesGame(single_hand=True)
    game.reset(seed=11)
    bid_at_random(game, np.random.default_rng(0))
    with pytest.raises(NodeLimitReached):
        solve(game, max_nodes=50)
    small = next(endings(np.random.default_rng(9), 4, hands=1, most=2))
    assert solve(small).value == reference_solve(position_of(small))[0]  # the table is still sound


def test_only_card_play_positions():
    game = SpadesGame()
    game.reset(seed=1)
    with pytest.raises(ValueError, match="card-play phase"):
        solve(game)
    bad = Position(4, (1, 2, 4, 8), (), 0, False, (2, 3, 3, 3), (1, 1, 1, 1), (False,) * 4, (0, 0))
    with pytest.raises(ValueError, match="one card per trick"):
        solve_position(bad)


@pytest.mark.slow
def test_a_new_process_loads_the_compiled_search_from_the_cache():
    script = ("from spades_env.solver import kernel, warm_up; warm_up(); "
              "print(sum(kernel.solve_root.stats.cache_hits.values()))")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=600, check=True)
    assert int(out.stdout.split()[-1]) >= 1


def test_cards_and_positions_round_trip():
    rng = np.random.default_rng(10)
    game = next(endings(rng, 4, hands=1, most=3))
    pos = position_of(game)
    assert pos.tricks_left == 13 - sum(game.tricks)
    assert sorted(cards_of(pos.legal_moves())) == game.legal_actions()


def _mask_bits(mask: int) -> list[int]:
    return [b for b in range(64) if mask >> b & 1]


def _extract(x: int, mask: int) -> int:
    return sum(1 << i for i, b in enumerate(_mask_bits(mask)) if x >> b & 1)


def _deposit(x: int, mask: int) -> int:
    return sum(1 << b for i, b in enumerate(_mask_bits(mask)) if x >> i & 1)


def test_bit_gather_and_scatter_agree_with_their_definition_on_every_path():
    """The solver reads suits through ``extract_bits`` / ``deposit_bits`` (BMI2 where the CPU has it fast, loops
    elsewhere): both paths must give what the definitions give, signed 64-bit words included."""
    from spades_env import bitscan

    rng = np.random.default_rng(11)
    words = [int(v) for v in rng.integers(-2**63, 2**63, size=400, dtype=np.int64)] + [0, -1, 1, -2**63]
    for x, mask in zip(words, words[::-1]):
        unsigned_x, unsigned_mask = x % 2**64, mask % 2**64
        expect_e, expect_d = _extract(unsigned_x, unsigned_mask), _deposit(unsigned_x, unsigned_mask)
        for extract, deposit in ((bitscan.extract_bits, bitscan.deposit_bits),
                                 (bitscan.extract_bits_loop, bitscan.deposit_bits_loop)):
            assert extract(x, mask) % 2**64 == expect_e
            assert deposit(x, mask) % 2**64 == expect_d
    for x in range(1 << 16):
        if x % 97 == 0 or x < 64:
            assert bitscan.spread_pairs(x) == bitscan.spread_pairs_shifts(x) == _deposit(x, 0x55555555)
