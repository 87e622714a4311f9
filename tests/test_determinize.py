"""The search API: clone(), resample() and information_state_key() (spades_env.determinize).

Clones never share state with the original; resampled states are valid games that the seat cannot
tell from the real one and that never depend on the hidden cards; hidden cards are dealt with the
exact distribution (checked by enumerating small endings and by chi-square tests of many samples,
with fixed seeds so that every run is the same).
"""

from __future__ import annotations

import copy
import itertools
import math
import random
from collections import Counter
from fractions import Fraction

import numpy as np
import pytest

import spades_env.determinize as D
from spades_env import actions as A
from spades_env.cards import FULL_DECK, SUIT_MASKS, cards_of
from spades_env.game import Phase, SpadesGame
from spades_env.records import replay_hand
from spades_env.view import player_view

# Chi-square critical values at p = 1e-4 by degrees of freedom: a correct sampler fails one card's
# test about once in 10,000 (and the seeds are fixed), a biased one of a few percent fails it.
CHI2_CRITICAL = {1: 15.14, 2: 18.42, 3: 21.11}


# ------------------------------------------------------------------ positions


def play_randomly(game: SpadesGame, r: random.Random, steps: int, blind: float = 0.4) -> SpadesGame:
    """Random legal actions, Blind Nil chosen often so that exchanges and replacements happen."""
    for _ in range(steps):
        if game.game_over:
            break
        legal = game.legal_actions()
        game.apply(A.BLIND_NIL if A.BLIND_NIL in legal and r.random() < blind else r.choice(legal))
    return game


def random_positions(n: int, count: int, seed: int) -> list[SpadesGame]:
    r = random.Random(seed)
    out = []
    while len(out) < count:
        game = SpadesGame(num_players=n)
        game.reset(seed=r.randrange(10**9))
        play_randomly(game, r, r.randrange(0, 130 if n == 4 else 100))
        if not game.game_over:
            out.append(game)
    return out


POSITIONS = {4: random_positions(4, 70, seed=1), 2: random_positions(2, 110, seed=2)}


def finish_hand(game: SpadesGame, r: random.Random) -> dict:
    hands = len(game.hand_records)
    while len(game.hand_records) == hands:
        game.apply(r.choice(game.legal_actions()))
    return game.hand_records[-1]


def snapshot(game: SpadesGame) -> dict:
    """Everything in the engine, deep-copied (the generator by its state)."""
    state = {k: copy.deepcopy(v) for k, v in vars(game).items() if k not in ("_rng", "_rng_shared")}
    state["rng"] = None if game.rng is None else copy.deepcopy(game.rng.bit_generator.state)
    return state


def known_cards(game: SpadesGame, seat: int) -> int:
    """Cards whose identity the seat has seen (its hand, plays, passes, discards, the offer)."""
    mask = game.discards[seat] | game.played[0] | game.played[1]
    if game.num_players == 4:
        mask |= game.played[2] | game.played[3] | D._mask(c for g, r, c in game.passes if seat in (g, r))
    if game.looked[seat]:
        mask |= game.hands[seat]
    if game.current_player == seat and game.offered is not None:
        mask |= 1 << game.offered
    return mask


def opponent_replaced(game: SpadesGame, seat: int) -> bool:
    return game.num_players == 2 and any(p != seat for p, _, _ in game.replacements)


# ------------------------------------------------------------------ clone


@pytest.mark.parametrize("n", [4, 2])
def test_clone_shares_no_mutable_state(n):
    for game in POSITIONS[n][:20]:
        clone, state = game.clone(), vars(game)
        assert snapshot(clone) == snapshot(game)
        for name, value in vars(clone).items():
            if isinstance(value, (list, dict, set, bytearray)):
                assert value is not state[name], f"clone() shares {name}"


def test_clone_of_a_game_not_yet_reset():
    game = SpadesGame()
    clone = game.clone()
    clone.reset(seed=1)
    assert game.phase == Phase.GAME_OVER and game.rng is None


def replacement_position(seed: int) -> SpadesGame:
    """A two-player hand at its Blind Nil replacements (each one draws from the generator)."""
    r = random.Random(seed)
    while True:
        game = SpadesGame(num_players=2)
        game.reset(seed=r.randrange(10**9))
        while not game.game_over and game.phase not in (Phase.REPLACE, Phase.PLAY):
            play_randomly(game, r, 1, blind=0.7)
        if game.phase == Phase.REPLACE:
            return game


MAKERS = pytest.mark.parametrize(
    "make", [lambda s: copy.deepcopy(POSITIONS[4][s]), lambda s: copy.deepcopy(POSITIONS[2][s]), replacement_position],
    ids=["four", "two", "two-replacements"])


@MAKERS
def test_a_change_to_the_clone_never_shows_in_the_original_and_back(make):
    r = random.Random(0)
    for seed in range(4):
        game = make(seed)
        before = snapshot(game)
        clone = game.clone()
        finish_hand(clone, r)  # past the end of the hand: the clone deals the next one
        play_randomly(clone, r, 30)
        assert snapshot(game) == before
        clone = game.clone()
        before = snapshot(clone)
        finish_hand(game, r)
        play_randomly(game, r, 30)
        assert snapshot(clone) == before


@MAKERS
def test_original_and_clone_each_continue_as_an_uncloned_twin(make):
    for seed in range(4):
        game, twin, twin_of_clone = make(seed), copy.deepcopy(make(seed)), copy.deepcopy(make(seed))
        clone = game.clone()
        pairs = [(clone, twin_of_clone), (game, twin)]
        for first, second in pairs if seed % 2 else pairs[::-1]:  # either draws from the generator first
            r1, r2 = random.Random(seed), random.Random(seed)
            finish_hand(first, r1), finish_hand(second, r2)
            play_randomly(first, r1, 40), play_randomly(second, r2, 40)
            assert snapshot(first) == snapshot(second)


def test_setting_the_generator_still_works_and_stays_private():
    game = POSITIONS[4][3]
    clone = game.clone()
    clone.rng = np.random.default_rng(5)
    before = snapshot(game)
    finish_hand(clone, random.Random(0))
    assert snapshot(game) == before
    assert clone.rng is not game.rng


# ------------------------------------------------------------------ resample: consistency


@pytest.mark.parametrize("n", [4, 2])
def test_every_sample_is_a_valid_state_the_seat_cannot_tell_apart(n):
    """View and information key equal, hand sizes equal, and the resampled hand plays to its end
    with a record that replays through the engine (so the rebuilt hidden past is consistent)."""
    r, seen = random.Random(n), Counter()
    for i, game in enumerate(POSITIONS[n]):
        for seat in range(n):
            sample = game.resample(seat, np.random.default_rng(i))
            assert player_view(sample, seat) == player_view(game, seat)
            assert sample.information_state_key(seat) == game.information_state_key(seat)
            assert [h.bit_count() for h in sample.hands] == [h.bit_count() for h in game.hands]
            assert sample.stock_pos == game.stock_pos and sample.current_player == game.current_player
            replay_hand(finish_hand(sample, r), game.config)
            seen.update(features(game, seat))
    wanted = {4: {"mid-trick", "voids", "exchange", "passing", "hand unseen", "later hand"},
              2: {"mid-trick", "voids", "drawing", "replacing", "drawn back?", "hand unseen", "later hand"}}[n]
    assert wanted <= set(seen), f"the positions miss {wanted - set(seen)}"


@pytest.mark.parametrize("n", [4, 2])
def test_a_resampler_draws_what_resample_draws(n):
    """Many draws from one Resampler equal resample's, draw by draw, with the same generator."""
    for game in POSITIONS[n][::7]:
        seat = game.current_player
        resampler = D.Resampler(game, seat)
        a, b = np.random.default_rng(5), np.random.default_rng(5)
        for _ in range(4):
            assert snapshot(resampler(a)) == snapshot(D.resample(game, seat, b))


@pytest.mark.parametrize("n", [4, 2])
def test_a_hand_given_to_the_resampler_is_kept_and_the_rest_is_drawn_around_it(n):
    """``hands=`` (an opponent model's choice) fixes that hand: the sample holds it, still looks the same
    to the seat and plays to the end; a hand the seat knows is impossible is refused."""
    r, given = random.Random(n), 0
    for i, game in enumerate(POSITIONS[n]):
        seat = game.current_player
        other = (seat + 1) % n
        if opponent_replaced(game, seat) or not game.looked[seat]:
            continue
        sample = D.resample(game, seat, np.random.default_rng(i), hands={other: game.hands[other]})
        assert sample.hands[other] == game.hands[other]
        assert player_view(sample, seat) == player_view(game, seat)
        replay_hand(finish_hand(sample, r), game.config)
        given += 1
        if game.hands[other]:
            lowest = game.hands[other] & -game.hands[other]
            with pytest.raises(D.NoConsistentDeal, match="do not fit"):
                D.resample(game, seat, np.random.default_rng(i), hands={other: game.hands[other] & ~lowest})
        with pytest.raises(ValueError, match="no hidden cards to give"):
            D.resample(game, seat, np.random.default_rng(i), hands={seat: game.hands[seat]})
    assert given > 20


def test_hands_given_that_leave_a_card_to_a_seat_void_in_its_suit_are_refused():
    """Each given hand fits, but together they leave a card only a seat void in its suit could hold."""
    refused = 0
    for i, game in enumerate(POSITIONS[4]):
        seat = game.current_player
        if not game.looked[seat] or game.passes:
            continue
        voids = D._shown_voids(game)
        others = [p for p in range(4) if p != seat]
        for void_seat, giver, third in itertools.permutations(others):
            void_cards = [c for c in cards_of(game.hands[giver]) if voids[void_seat] >> (c // 13) & 1]
            swaps = [d for d in cards_of(game.hands[void_seat]) if not voids[giver] >> (d // 13) & 1]
            if not void_cards or not swaps:
                continue
            moved = game.hands[giver] & ~(1 << void_cards[0]) | 1 << swaps[0]
            with pytest.raises(D.NoConsistentDeal):
                D.resample(game, seat, np.random.default_rng(i), hands={giver: moved, third: game.hands[third]})
            refused += 1
            break
    assert refused >= 3


def test_a_finished_game_resamples_too():
    for n in (4, 2):
        game = SpadesGame(num_players=n, single_hand=True)
        game.reset(seed=n)
        play_randomly(game, random.Random(n), 500)
        assert game.game_over
        for seat in range(n):
            sample = game.resample(seat, 0)
            assert player_view(sample, seat) == player_view(game, seat)
            assert sample.information_state_key(seat) == game.information_state_key(seat)


def features(game: SpadesGame, seat: int) -> set[str]:
    out = {"mid-trick"} if game.trick else set()
    if any(game.voids):
        out.add("voids")
    if game.passes and game.phase == Phase.PLAY:
        out.add("exchange")
    if game.hand_number:
        out.add("later hand")
    if not game.looked[seat]:
        out.add("hand unseen")
    out |= {Phase.PASS: {"passing"}, Phase.DRAW: {"drawing"}, Phase.REPLACE: {"replacing"}}.get(game.phase, set())
    if opponent_replaced(game, seat) and not game.blind[seat]:
        out.add("drawn back?")
    return out


def test_a_sample_keeps_the_cards_the_seat_passed_to_its_partner():
    games = [g for g in POSITIONS[4] if g.passes and g.phase == Phase.PLAY]
    assert games
    for game in games:
        for giver, receiver, card in game.passes:
            sample = game.resample(giver, np.random.default_rng(0))
            if game.hands[receiver] >> card & 1:
                assert sample.hands[receiver] >> card & 1


def relabelled(game: SpadesGame, seat: int, r: random.Random) -> SpadesGame:
    """The same game with the cards ``seat`` has not seen permuted within each suit, everywhere."""
    hidden = FULL_DECK & ~known_cards(game, seat)
    perm = {}
    for suit in SUIT_MASKS:
        cards = cards_of(hidden & suit)
        perm.update(zip(cards, r.sample(cards, len(cards))))

    def card(c: int) -> int:
        return perm.get(c, c)

    def mask(m: int) -> int:
        return D._mask(card(c) for c in cards_of(m))

    other = game.clone()
    other.hands, other.played = [mask(m) for m in game.hands], [mask(m) for m in game.played]
    other.discards = [mask(m) for m in game.discards]
    other.start_hands = tuple(mask(m) for m in game.start_hands)
    other.discard_pile, other.returned = mask(game.discard_pile), mask(game.returned)
    other.stock = [card(c) for c in game.stock]
    other.passes = [(g, r_, card(c)) for g, r_, c in game.passes]
    other.replacements = [(p, card(c), card(d)) for p, c, d in game.replacements]
    other.actions = [(p, card(a) if A.is_card(a) else a) for p, a in game.actions]
    other.plays = [(p, card(c)) for p, c in game.plays]
    other.trick = [(p, card(c)) for p, c in game.trick]
    return other


@pytest.mark.parametrize("n", [4, 2])
def test_samples_never_depend_on_the_hidden_cards(n):
    """The same information with other hidden cards (and so another hidden past) gives exactly the
    same samples for the same generator: resample() reads nothing the seat has not seen."""
    r, moved = random.Random(n), 0
    for i, game in enumerate(POSITIONS[n][::2]):
        seat = i % n
        other = relabelled(game, seat, r)
        assert player_view(other, seat) == player_view(game, seat)
        assert other.information_state_key(seat) == game.information_state_key(seat)
        moved += other.hands != game.hands
        assert snapshot(D.resample(other, seat, 7)) == snapshot(D.resample(game, seat, 7))
    assert moved > 10


def test_the_same_seed_gives_the_same_sample_whatever_was_cached():
    game = next(g for g in POSITIONS[4] if sum(v.bit_count() for v in g.voids) >= 2)
    first = snapshot(D.resample(game, 0, 3))
    D._WAYS.clear()
    D._Problem.of.cache_clear()
    assert snapshot(D.resample(game, 0, 3)) == first
    assert snapshot(D.resample(game, 0, 4)) != first


# ------------------------------------------------------------------ resample: the distribution


def exact_by_enumeration(game: SpadesGame, seat: int) -> dict[int, dict[int, Fraction]]:
    """Every consistent deal of a small four-player ending, counted one by one."""
    deal, _ = D._four_player_deal(game, seat)
    (_, slots), = deal.layouts
    slots = [s for s in slots if s.size]
    hidden = cards_of(deal.unknown)
    counts: dict[int, Counter] = {c: Counter() for c in hidden}
    total = 0

    def place(k: int, left: tuple[int, ...], chosen: list[tuple[int, tuple[int, ...]]]):
        nonlocal total
        if k == len(slots):
            total += 1
            for where, cards in chosen:
                for c in cards:
                    counts[c][where] += 1
            return
        for cards in itertools.combinations(left, slots[k].size):
            if all(slots[k].allowed >> c & 1 for c in cards):
                place(k + 1, tuple(c for c in left if c not in cards), chosen + [(slots[k].where, cards)])

    place(0, tuple(hidden), [])
    return {c: {w: Fraction(k, total) for w, k in counts[c].items()} for c in hidden}


def endings(tricks_left: int, count: int, seed: int) -> list[SpadesGame]:
    """First hands with ``tricks_left`` tricks to play (and maybe part of a trick), showing voids."""
    r, out = random.Random(seed), []
    while len(out) < count:
        game = SpadesGame()
        game.reset(seed=r.randrange(10**9))
        while game.hand_number == 0 and len(game.trick_winners) < 13 - tricks_left:
            play_randomly(game, r, 1, blind=0.2)
        play_randomly(game, r, r.randrange(4), blind=0.0)  # into the trick
        if game.hand_number == 0 and game.phase == Phase.PLAY and sum(v.bit_count() for v in game.voids) >= 2:
            out.append(game)
    return out


ENDINGS = endings(3, 12, seed=5)


def test_exact_probabilities_match_an_enumeration_of_every_consistent_deal():
    for game in ENDINGS:
        for seat in range(4):
            assert D.hidden_card_probabilities(game, seat) == exact_by_enumeration(game, seat)


def chi_square_failures(samples: list[dict[int, object]], exact: dict[int, dict[object, Fraction]]) -> list:
    """Cards whose observed places differ from the exact distribution (p < 1e-4)."""
    bad = []
    for card, places in exact.items():
        observed = Counter(s[card] for s in samples)
        assert set(observed) <= set(places), f"card {card} seen where it cannot be"
        live = {w: p for w, p in places.items() if p}
        if len(live) < 2:
            continue
        stat = sum((observed[w] - len(samples) * p) ** 2 / (len(samples) * p) for w, p in live.items())
        if stat > CHI2_CRITICAL[len(live) - 1]:
            bad.append((card, stat, dict(observed), {w: float(p) for w, p in live.items()}))
    return bad


def places_of(sample: SpadesGame, seat: int, hidden: int) -> dict[int, object]:
    where: dict[int, object] = {}
    for p, hand in enumerate(sample.hands):
        for c in cards_of(hand & hidden):
            where[c] = p
    if sample.num_players == 2:
        for c in cards_of(sample.discard_pile & hidden):
            where[c] = D.PILE
        for c in sample.stock[sample.stock_pos:]:
            if hidden >> c & 1:
                where[c] = D.STOCK
    return where


def hidden_deal(game: SpadesGame, seat: int) -> D.HiddenDeal:
    return (D._four_player_deal if game.num_players == 4 else D._two_player_deal)(game, seat)[0]


def sample_places(game: SpadesGame, seat: int, count: int, seed: int, full: bool) -> list[dict[int, object]]:
    """Where each hidden card lands in ``count`` samples: read from whole resampled games
    (``full``; the rebuilt stock and pile too) or from the hidden-card sampler alone (faster)."""
    rng, deal = np.random.default_rng(seed), hidden_deal(game, seat)
    if full:
        return [places_of(D.resample(game, seat, rng), seat, deal.unknown) for _ in range(count)]
    return [{c: where for where, mask in deal.sample(rng).items() for c in cards_of(mask)} for _ in range(count)]


@pytest.fixture
def fresh_problems():
    """Problems are cached with the sampling path chosen; start and end with an empty cache."""
    D._Problem.of.cache_clear()
    yield
    D._Problem.of.cache_clear()


@pytest.mark.parametrize("exact_only", [False, True], ids=["shuffle-first", "exact-sampler"])
def test_sampled_places_follow_the_exact_distribution_four_players(exact_only, monkeypatch, fresh_problems):
    if exact_only:
        monkeypatch.setattr(D, "MIN_ACCEPTANCE", 2.0)  # never shuffle first
    games = [ENDINGS[0], next(g for g in POSITIONS[4] if sum(v.bit_count() for v in g.voids) >= 2
                              and len(g.plays) < 30)]
    for i, game in enumerate(games):
        deal = hidden_deal(game, 0)
        assert D._Problem.of(deal.unknown, deal.layouts[0][1]).shuffle_first is not exact_only
        exact = D.hidden_card_probabilities(game, 0)
        assert not chi_square_failures(sample_places(game, 0, 3000, seed=i, full=False), exact)


def test_sampled_places_follow_the_exact_distribution_two_players():
    """Read from whole resampled games, so the rebuilt stock and discard pile are checked too."""
    playing = next(g for g in POSITIONS[2] if g.voids[1] and g.phase == Phase.PLAY and len(g.plays) <= 16)
    drawing = next(g for g in POSITIONS[2] if g.phase == Phase.DRAW and 10 <= g.stock_pos <= 40)
    for i, game in enumerate((playing, drawing)):
        exact = D.hidden_card_probabilities(game, 0)
        assert not chi_square_failures(sample_places(game, 0, 1500, seed=i, full=True), exact)


def naive_places(game: SpadesGame, seat: int, count: int, seed: int) -> list[dict[int, object]]:
    """A plausible but biased sampler: deal the seats with voids first, each from the cards it may
    hold, then the others from what is left."""
    r = random.Random(seed)
    (_, slots), = D._four_player_deal(game, seat)[0].layouts
    unknown = D._four_player_deal(game, seat)[0].unknown
    out = []
    while len(out) < count:
        left, where = unknown, {}
        for slot in sorted(slots, key=lambda s: s.allowed == FULL_DECK):
            options = cards_of(left & slot.allowed)
            if len(options) < slot.size:
                break
            for c in r.sample(options, slot.size):
                where[c] = slot.where
                left &= ~(1 << c)
        else:
            out.append(where)
    return out


def test_the_chi_square_test_catches_a_biased_sampler():
    """The test has power: dealing the void-constrained seats first (a common shortcut) is caught."""
    caught = 0
    for game in ENDINGS[:4]:
        exact = D.hidden_card_probabilities(game, 0)
        caught += bool(chi_square_failures(naive_places(game, 0, 3000, seed=2), exact))
    assert caught >= 3


# ------------------------------------------------------------------ two players: cards drawn back


def drawn_back_position(r: random.Random, replacements: int, play: int = 0) -> tuple[SpadesGame, int]:
    """A two-player hand where the opponent bid Blind Nil and made ``replacements`` replacements,
    each putting back a card chosen at random; the seat looked. Returns (game, seat)."""
    game = SpadesGame(num_players=2)
    game.reset(seed=r.randrange(10**9))
    opp = game.dealer  # the first drawer decides first
    while game.phase != Phase.PLAY:
        legal = game.legal_actions()
        if game.phase == Phase.BLIND:
            action = A.BLIND_NIL if game.current_player == opp else A.LOOK
        elif game.phase == Phase.REPLACE:
            action = A.DONE if len(game.replacements) == replacements else r.choice(cards_of(game.hands[opp]))
        else:
            action = r.choice(legal)
        game.apply(action)
    play_randomly(game, r, play)
    return game, 1 - opp


def exact_drawn_back(replacements: int) -> list[Fraction]:
    """P(j of my discards are in the opponent's hand) from determinize's model."""
    odds = D._draw_back_odds(replacements, 13)
    return [w * math.comb(13, j) * math.comb(26, 13 - j) for j, w in enumerate(odds)]


def chi_square(observed: Counter, expected: list[Fraction], n: int) -> float:
    return sum((observed[j] - n * p) ** 2 / (n * p) for j, p in enumerate(expected) if p)


def test_the_drawn_back_model_matches_the_engine():
    """The engine's own replacement draws (put-backs at random) leave j of my discards in the
    opponent's hand as often as the model says."""
    r = random.Random(11)
    expected = exact_drawn_back(3)
    assert sum(expected) == 1
    observed = Counter()
    for _ in range(600):
        game, seat = drawn_back_position(r, 3)
        observed[(game.hands[1 - seat] & game.discards[seat]).bit_count()] += 1
    assert chi_square(observed, expected, 600) < CHI2_CRITICAL[3]


def test_samples_draw_back_my_discards_as_often_as_the_engine_does():
    game, seat = drawn_back_position(random.Random(3), 3)
    expected = exact_drawn_back(3)
    rng, deal = np.random.default_rng(0), hidden_deal(game, seat)
    observed = Counter((deal.sample(rng)[1 - seat] & game.discards[seat]).bit_count() for _ in range(2000))
    assert chi_square(observed, expected, 2000) < CHI2_CRITICAL[3]
    assert observed[0] < 2000 * 0.5  # the opponent does hold my discards in most samples
    sample = D.resample(game, seat, rng)
    assert sample.hands[1 - seat] & game.discards[seat]


def test_drawn_back_places_follow_the_exact_distribution_with_voids():
    r = random.Random(4)
    game, seat = next(gs for gs in (drawn_back_position(r, 2, play=r.randrange(8, 16)) for _ in range(200))
                      if gs[0].voids[1 - gs[1]] and gs[0].phase == Phase.PLAY)
    exact = D.hidden_card_probabilities(game, seat)
    assert sum(exact[c].get(1 - seat, 0) for c in cards_of(game.discards[seat]) if c in exact) > 0
    assert not chi_square_failures(sample_places(game, seat, 2000, seed=3, full=False), exact)


def test_a_layout_with_no_consistent_deal_gets_no_weight():
    """Found by a two-player tournament: the opponent bid Blind Nil, drew one of my discards back (10D), played
    it, and later led a spade before spades were broken (so it holds only spades). The layouts that leave
    more of my discards (none a spade) in its hand have no deal; they weigh nothing, and the others sample."""
    stock = ("JC 3C 2C 5C QC 7C 4C 8C 9D 9C 6C KC KD TC 4D AC 4H 3D 5D 2D 5H TD QD 6D 6H JD 8H 7D TH AD KH 8D 4S 2H "
             "2S QH 6S 3H 3S AH 7S 7H 5S QS 8S 9H 9S KS JS JH TS AS").split()
    game = SpadesGame(num_players=2)
    game.reset(deal=stock, dealer=1, scores=[96, 433], bags=[6, 3])
    draws = {0: 21, 2: 3, 4: 6}  # the replacements drew 10D (my discard), 5C and 8C
    for action in (A.LOOK, A.KEEP, A.BLIND_NIL, *[A.KEEP] * 12, A.bid_action(5), 0, 2, 4,
                   3, 9, 24, 23, 20, 16, 10, 6, 28, 37, 15, 29, 21, 34, 32, 30, 40):
        game.apply(action, draws.pop(action) if game.phase == Phase.REPLACE else None)
    seat = 1
    assert game.blind[0] and game.hands[0] & ~SUIT_MASKS[3] == 0  # the Blind Nil bidder holds only spades
    rng = np.random.default_rng(0)
    for _ in range(20):
        assert player_view(D.resample(game, seat, rng), seat) == player_view(game, seat)
    assert D.hidden_card_probabilities(game, seat)


# ------------------------------------------------------------------ information state key


def test_the_key_changes_with_a_card_the_seat_can_see():
    game = next(g for g in POSITIONS[4] if g.phase == Phase.PLAY and not g.passes)
    seat, other = 0, 1
    swap = (1 << cards_of(game.hands[seat])[0]) | (1 << cards_of(game.hands[other])[0])
    swapped = game.clone()
    for name in ("hands", "start_hands"):
        hands = list(getattr(swapped, name))
        hands[seat] ^= swap
        hands[other] ^= swap
        setattr(swapped, name, type(getattr(game, name))(hands))
    assert swapped.information_state_key(seat) != game.information_state_key(seat)
    assert swapped.information_state_key(2) == game.information_state_key(2)  # hidden from seat 2
    assert game.information_state_key(seat) != game.information_state_key(other)


def test_the_key_remembers_the_seats_own_draws_and_hides_the_opponents():
    """Two-player draw: which of my two cards was offered first is mine to remember (the view
    alone does not show it); whether the opponent kept or discarded its first card is hidden."""
    game = next(g for g in POSITIONS[2] if g.phase == Phase.DRAW and g.stock_pos >= 8
                and not any(g.blind))
    for seat in range(2):
        turn = next(t for t in range(game.stock_pos // 2) if (game.dealer + t) % 2 == seat)
        flipped = game.clone()
        flipped.stock[2 * turn], flipped.stock[2 * turn + 1] = game.stock[2 * turn + 1], game.stock[2 * turn]
        draws = [i for i, (p, a) in enumerate(game.actions) if a in (A.KEEP, A.DISCARD) and p == seat]
        p, a = game.actions[draws[0]]
        flipped.actions[draws[0]] = (p, A.DISCARD if a == A.KEEP else A.KEEP)
        assert player_view(flipped, seat) == player_view(game, seat)
        assert player_view(flipped, 1 - seat) == player_view(game, 1 - seat)
        assert flipped.information_state_key(seat) != game.information_state_key(seat)
        assert flipped.information_state_key(1 - seat) == game.information_state_key(1 - seat)
