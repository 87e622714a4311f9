"""Observations (four players): the incremental tracker equals the reference encoder, vectors stay
inside the declared Box bounds, nothing hidden leaks, and ``decode`` reads a vector back."""

from __future__ import annotations

import random

import numpy as np
import pytest

from spades_env import actions as A
from spades_env import spades_v0
from spades_env.cards import SUITS, card_to_str, cards_of
from spades_env.game import Phase, SpadesGame
from spades_env.observations import (
    FRACTIONAL_BLOCKS,
    KINDS,
    SCORE_CLIP,
    ObservationTracker,
    bounds,
    decode,
    encode,
    layout,
    observation_size,
    to_uint8,
)


def pick(game: SpadesGame, rng: random.Random) -> int:
    """Random legal play, with Blind Nil often enough to exercise the exchange."""
    if game.phase == Phase.BLIND:
        return A.BLIND_NIL if rng.random() < 0.3 else A.LOOK
    return rng.choice(game.legal_actions())


@pytest.mark.parametrize("kind", KINDS)
def test_tracker_equals_encode_for_every_player_after_every_action(kind):
    """Through the env (whose observe() reads the tracker) over several multi-hand games."""
    env = spades_v0.raw_env(observation=kind, max_hands=4)
    space = env.observation_space("player_0")["observation"]
    rng = random.Random(7)
    steps = 0
    for seed in range(10):
        env.reset(seed=seed)
        game = env.game
        while True:
            for p, agent in enumerate(env.possible_agents):
                obs = env.observe(agent)["observation"]
                np.testing.assert_array_equal(obs, encode(game, p, kind), err_msg=f"seat {p}, step {steps}")
                assert obs.dtype == np.float32 and space.contains(obs)
            if game.game_over:
                break
            env.step(pick(game, rng))
            steps += 1
    assert steps > 10 * 4 * 52


@pytest.mark.parametrize("kind", KINDS)
def test_standalone_tracker_follows_the_engine(kind):
    """The tracker on a bare engine, over games with exchanges and several hands."""
    game = SpadesGame(max_hands=3)
    tracker = ObservationTracker(game, kind)
    rng = random.Random(3)
    for seed in range(2):
        game.reset(seed)
        tracker.rebuild()
        while not game.game_over:
            player, phase = game.current_player, game.phase
            action = pick(game, rng)
            game.apply(action)
            tracker.update(player, action, phase)
            for p in range(4):
                np.testing.assert_array_equal(tracker.vectors[p], encode(game, p, kind))


def test_trackers_share_their_write_tables_but_not_their_rows():
    """Trackers of one variant and kind share the precomputed writes (built once: a tournament builds a
    tracker per game), and two games followed side by side each keep their own vectors."""
    games = [SpadesGame(), SpadesGame()]
    trackers = [ObservationTracker(g, "default") for g in games]
    assert trackers[0]._play_writes is trackers[1]._play_writes
    assert not trackers[0]._play_writes[0][0][0].flags.writeable
    rng = random.Random(5)
    for seed, (game, tracker) in enumerate(zip(games, trackers)):
        game.reset(seed)
        tracker.rebuild()
    for _ in range(60):
        for game, tracker in zip(games, trackers):
            player, phase = game.current_player, game.phase
            action = pick(game, rng)
            game.apply(action)
            tracker.update(player, action, phase)
    for game, tracker in zip(games, trackers):
        for p in range(4):
            np.testing.assert_array_equal(tracker.vectors[p], encode(game, p, "default"))


def test_observations_stay_in_bounds_with_extreme_scores():
    for scores, bags in (([100_000, -100_000], [9, 0]), ([-5_000, 499], [0, 9])):
        env = spades_v0.raw_env(observation="oracle")
        env.reset(seed=0, options={"scores": scores, "bags": bags})
        for agent in env.possible_agents:
            obs = env.observe(agent)["observation"]
            assert env.observation_space(agent)["observation"].contains(obs)
        clipped = decode(env.observe("player_0")["observation"], kind="oracle")["scores"]
        assert clipped == pytest.approx([np.clip(s / 500, -SCORE_CLIP, SCORE_CLIP) for s in scores])


@pytest.mark.parametrize("num_players", [4, 2])
def test_uint8_form_keeps_the_0_1_entries_and_the_counts(num_players):
    """``to_uint8`` (the batched engine's uint8 observations): 0/1 entries unchanged, every count read back
    exactly from its code, scores to within 1/255 of their range."""
    game = SpadesGame(num_players=num_players, max_hands=3, target_score=300)
    rng = random.Random(5)
    game.reset(seed=5, scores=[-140, 270], bags=[2, 7])
    low, high = bounds(num_players)
    fractional = np.zeros(observation_size(num_players), bool)
    for name in FRACTIONAL_BLOCKS:
        if name in layout(num_players):
            fractional[layout(num_players)[name].start:layout(num_players)[name].stop] = True
    for _ in range(40 if num_players == 4 else 70):
        x = encode(game, game.current_player)
        code = to_uint8(x, num_players)
        assert code.dtype == np.uint8
        np.testing.assert_array_equal(code[~fractional], x[~fractional])
        back = low + code * (high - low) / 255
        for name, count in (("tricks", 13), ("bags", game.config.bag_limit), ("stock", 52), ("discard_pile", 26)):
            if name in layout(num_players):
                b = layout(num_players)[name]
                part = slice(b.start, b.stop)
                np.testing.assert_array_equal(np.round(back[part] * count), np.round(x[part] * count))
        assert np.abs(back - x)[fractional].max() <= (high - low).max() / 255 / 2 + 1e-6
        game.apply(pick(game, rng))


@pytest.mark.parametrize("kind", KINDS)
def test_layout_covers_the_vector_and_the_bounds(kind):
    blocks = list(layout(4, kind).values())
    assert blocks[0].start == 0 and all(a.stop == b.start for a, b in zip(blocks, blocks[1:]))
    assert blocks[-1].stop == observation_size(4, kind)
    low, high = bounds(4, kind)
    assert low.shape == high.shape == (observation_size(4, kind),) and (low <= high).all()
    space = spades_v0.raw_env(observation=kind).observation_space("player_0")["observation"]
    np.testing.assert_array_equal(space.low, low)
    np.testing.assert_array_equal(space.high, high)


def expected_decoded(game: SpadesGame, seat: int, kind: str) -> dict:
    """What decode() should read for ``seat``, from the game state (seats relative to ``seat``)."""
    def rel(seq):
        return [seq[(seat + k) % 4] for k in range(4)]

    def names(mask: int) -> list[str]:
        return [card_to_str(c) for c in cards_of(mask)]

    def bid(p: int):
        return None if game.bids[p] is None else "blind nil" if game.blind[p] else game.bids[p]

    own = game.side_of[seat]
    over = game.phase == Phase.GAME_OVER
    out = {
        "hand": names(game.hands[seat]) if game.looked[seat] else [],
        "bids": rel([bid(p) for p in range(4)]),
        "tricks": rel(game.tricks),
        "trick": rel([names(sum(1 << c for q, c in game.trick if q == p)) for p in range(4)]),
        "leader": (game.leader - seat) % 4,
        "played": rel([names(m) for m in game.played]),
        "voids": rel([[SUITS[s] for s in range(4) if game.voids[p] >> s & 1] for p in range(4)]),
        "spades_broken": game.spades_broken,
        "phase": game.phase.name,
        "to_act": None if over else (game.current_player - seat) % 4,
        "dealer": (game.dealer - seat) % 4,
        "passed": sorted(card_to_str(c) for g, _, c in game.passes if g == seat),
        "received": sorted(card_to_str(c) for _, r, c in game.passes if r == seat),
        "scores": [float(np.float32(game.scores[s] / 500)) for s in (own, 1 - own)],
        "bags": [float(np.float32(game.bags[s] / 10)) for s in (own, 1 - own)],
        "target": float(np.float32(0.5)),
    }
    if kind == "history":
        plays = [(card_to_str(c), (p - seat) % 4) for p, c in game.plays]
        out["history"] = [plays[i:i + 4] for i in range(0, len(plays), 4)]
    if kind == "oracle":
        out["other_hands"] = [names(game.hands[(seat + k) % 4]) for k in (1, 2, 3)]
    return out


@pytest.mark.parametrize("kind", KINDS)
def test_decode_reads_back_the_game_state(kind):
    game = SpadesGame()
    rng = random.Random(11)
    checked = 0
    for seed in range(4):
        game.reset(seed, scores=[rng.randrange(-400, 400), rng.randrange(-400, 400)], bags=[3, 7])
        while not game.game_over and game.hand_number < 1:
            if rng.random() < 0.3:
                for seat in range(4):
                    got = decode(encode(game, seat, kind), kind=kind)
                    got["passed"], got["received"] = sorted(got["passed"]), sorted(got["received"])
                    assert got == expected_decoded(game, seat, kind)
                    checked += 1
            game.apply(pick(game, rng))
    assert checked > 100


def test_decode_rejects_a_vector_of_the_wrong_size():
    with pytest.raises(ValueError, match="shape"):
        decode(np.zeros(10, np.float32))


def test_default_observation_does_not_show_other_hands():
    """Two deals that differ only in the other seats' hands give seat 0 the same observation."""
    rng = random.Random(5)
    cards = list(range(52))
    rng.shuffle(cards)
    deal = [sorted(cards[13 * p:13 * p + 13]) for p in range(4)]
    others = deal[1] + deal[2] + deal[3]
    rng.shuffle(others)
    shuffled = [deal[0]] + [sorted(others[13 * k:13 * k + 13]) for k in range(3)]
    vectors = {}
    for name, d in (("a", deal), ("b", shuffled)):
        game = SpadesGame(blind_nil=False)
        game.reset(0, deal=d, dealer=3)
        for _ in range(4):
            game.apply(A.bid_action(3))
        vectors[name] = {kind: encode(game, 0, kind) for kind in KINDS}
    for kind in ("default", "history"):
        np.testing.assert_array_equal(vectors["a"][kind], vectors["b"][kind])
    assert not np.array_equal(vectors["a"]["oracle"], vectors["b"]["oracle"])


def test_oracle_shows_every_other_hand_in_seat_order():
    game = SpadesGame(blind_nil=False)
    game.reset(9)
    for seat in range(4):
        other = decode(encode(game, seat, "oracle"), kind="oracle")["other_hands"]
        assert other == [[card_to_str(c) for c in cards_of(game.hands[(seat + k) % 4])] for k in (1, 2, 3)]
