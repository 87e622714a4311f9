"""The array forms of scoring (``score_sides``, ``decide_winners``, used by the batched engine) against the
scalar ones (``score_side``, ``decide_winner``, used by ``SpadesGame``), on numpy and torch.

Inputs: every single-player side (each bid, Nil and Blind Nil, each number of tricks, each carried bag
count) and thousands of random partnerships, under several bag limits and penalties; every kind of
game end (target reached, tie at the target, mercy, single hands with and without a winner).
"""

from __future__ import annotations

import itertools
import os

import numpy as np
import pytest

from spades_env.scoring import SideScore, SideScores, decide_winner, decide_winners, score_side, score_sides
from spades_env.vector.state import SIDE_FIELDS

RULES = [(10, 100), (4, 30), (3, 40), (1, 1)]  # (bag_limit, bag_penalty)


def namespaces():
    """numpy, and torch on the CPU (and on SPADES_TEST_DEVICE, e.g. cuda, when set)."""
    yield pytest.param((np, None), id="numpy")
    torch = pytest.importorskip("torch")
    yield pytest.param((torch, "cpu"), id="torch-cpu")
    device = os.environ.get("SPADES_TEST_DEVICE")
    if device and device != "cpu":
        yield pytest.param((torch, device), id=f"torch-{device}")


@pytest.fixture(params=list(namespaces()))
def xp_device(request):
    return request.param


def as_array(xp_device, values, dtype=None):
    xp, device = xp_device
    if device is None:
        return np.asarray(values, dtype)
    return xp.as_tensor(np.asarray(values, dtype), device=device)


def to_list(x) -> list:
    return (x.cpu().numpy() if hasattr(x, "cpu") else np.asarray(x)).tolist()


def single_sides(bag_limit: int):
    """Every one-player side: bid 1..13, Nil or Blind Nil, 0..13 tricks, 0..bag_limit-1 carried bags."""
    kinds = [(b, False) for b in range(14)] + [(0, True)]
    for (bid, blind), took, bags in itertools.product(kinds, range(14), range(bag_limit)):
        yield [bid], [blind], [took], bags


def random_partnerships(rng: np.random.Generator, count: int, bag_limit: int):
    """Two-player sides: each member bids 1..13, Nil or Blind Nil (Nil often); tricks share 13 at most."""
    for _ in range(count):
        bids, blind = [], []
        for _ in range(2):
            kind = rng.integers(4)  # 0 Nil, 1 Blind Nil, 2-3 a number
            bids.append(0 if kind < 2 else int(rng.integers(1, 14)))
            blind.append(bool(kind == 1))
        first = int(rng.integers(14))
        tricks = [first, int(rng.integers(14 - first))]
        yield bids, blind, tricks, int(rng.integers(bag_limit))


def check_sides(xp_device, sides: list, bag_limit: int, bag_penalty: int) -> int:
    """Score ``sides`` both ways and compare every field; returns how many were compared."""
    xp = xp_device[0]
    bids, blind, tricks, bags = zip(*sides)
    got = score_sides(as_array(xp_device, bids, np.int64), as_array(xp_device, blind, bool),
                      as_array(xp_device, tricks, np.int64), as_array(xp_device, bags, np.int64),
                      bag_limit, bag_penalty, xp)
    columns = {name: to_list(value) for name, value in got._asdict().items()} | {"total": to_list(got.total)}
    for i, side in enumerate(sides):
        want = score_side(*side, bag_limit, bag_penalty).to_dict()
        assert {name: column[i] for name, column in columns.items()} == want, side
    return len(sides)


@pytest.mark.parametrize("bag_limit, bag_penalty", RULES)
def test_score_sides_matches_score_side(xp_device, bag_limit, bag_penalty):
    rng = np.random.default_rng(bag_limit * 1000 + bag_penalty)
    checked = check_sides(xp_device, list(single_sides(bag_limit)), bag_limit, bag_penalty)
    checked += check_sides(xp_device, list(random_partnerships(rng, 5000, bag_limit)), bag_limit, bag_penalty)
    assert checked >= 5000 + 15 * 14 * bag_limit


def test_score_sides_takes_any_leading_shape(xp_device):
    """The engine scores (games, side, member) arrays: a batch of both sides of many hands."""
    rng = np.random.default_rng(1)
    sides = list(random_partnerships(rng, 24, 10))
    bids, blind, tricks, bags = (np.asarray(x).reshape(12, 2, *np.asarray(x).shape[1:]) for x in zip(*sides))
    got = score_sides(as_array(xp_device, bids), as_array(xp_device, blind), as_array(xp_device, tricks),
                      as_array(xp_device, bags), xp=xp_device[0])
    assert all(tuple(field.shape) == (12, 2) for field in got)
    flat = [to_list(field.reshape(-1)) for field in got]
    for i, side in enumerate(sides):
        assert [column[i] for column in flat] == list(score_side(*side))


def test_the_array_form_has_the_records_fields():
    assert SideScores._fields == SideScore._fields == SIDE_FIELDS


GAME_RULES = [dict(target_score=500), dict(target_score=500, mercy_threshold=-200),
              dict(target_score=200, single_hand=True), dict(target_score=300, mercy_threshold=-100, single_hand=True)]


@pytest.mark.parametrize("rules", GAME_RULES)
def test_decide_winners_matches_decide_winner(xp_device, rules):
    rng = np.random.default_rng(len(str(rules)))
    target = rules["target_score"]
    # Totals around the target and the mercy line, ties included; hand points often equal.
    scores = rng.integers(-target, target + 60, size=(4000, 2)) // 10 * 10
    scores[::7, 1] = scores[::7, 0]
    points = rng.integers(-60, 60, size=(4000, 2)) // 20 * 20
    got = to_list(decide_winners(as_array(xp_device, scores), as_array(xp_device, points), xp=xp_device[0],
                                 **rules))
    want = [decide_winner(s.tolist(), p.tolist(), **rules) for s, p in zip(scores, points)]
    assert got == [-1 if w is None else w for w in want]
    assert {-1, 0, 1} <= set(got)


@pytest.mark.parametrize("scores, points, rules, winner", [
    ((510, 480), (60, 20), {}, 0),
    ((480, 510), (20, 60), {}, 1),
    ((510, 510), (60, 60), {}, None),  # a tie at or over the target plays another hand
    ((490, 300), (60, 20), {}, None),
    ((100, -200), (-20, -300), {"mercy_threshold": -200}, 0),
    ((100, -200), (-20, -300), {}, None),
    ((50, 20), (50, 20), {"single_hand": True}, 0),
    ((30, 30), (30, 30), {"single_hand": True}, None),  # equal points in a single hand: no winner
    ((520, 500), (-10, 40), {"single_hand": True}, 0),  # the target decides before the hand's points
])
def test_decide_winner_rulings(xp_device, scores, points, rules, winner):
    assert decide_winner(scores, points, 500, **rules) == winner
    got = decide_winners(as_array(xp_device, [scores]), as_array(xp_device, [points]), 500, xp=xp_device[0], **rules)
    assert to_list(got) == [-1 if winner is None else winner]
