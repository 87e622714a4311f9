"""The search agent: worlds rebuilt from the view alone, legal play in both variants, decisions that depend
only on the view and the seed (never on the hidden cards)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from spades_env import actions as A
from spades_env.agent import ask
from spades_env.agents.heuristic import HeuristicAgent
from spades_env.agents.heuristic.bidding import estimate_tricks, exchange, nil_risk
from spades_env.agents.heuristic.params import V1, V2
from spades_env.agents.heuristic.reading import fits_discards, nil_discards
from spades_env.agents.match import play_game
from spades_env.agents.registry import make_agent
from spades_env.agents.search import SearchAgent
from spades_env.agents.search.bidding import search_bid, search_blind_nil
from spades_env.agents.search.play import PlayBudget, best_card, nil_standing, search_card, tricks_left
from spades_env.agents.search.worlds import (
    _hand_fits,
    ducked_worlds,
    exchanged_worlds,
    fitted_worlds,
    nil_ducks,
    worlds,
)
from spades_env.cards import RANK_OF, SUIT_MASKS, card_id, cards_of
from spades_env.determinize import resample
from spades_env.game import Phase, SpadesConfig, SpadesGame
from spades_env.rebuild import InconsistentView, fill, game_from_view
from spades_env.solver import warm_up
from spades_env.view import player_view

CLUBS, DIAMONDS = SUIT_MASKS[0], SUIT_MASKS[1]


@pytest.fixture(scope="module", autouse=True)
def compiled():
    warm_up()


def decisions(num_players: int, games: int, seed: int):
    """(game, view) at every bid and card play of heuristic games; one side far behind, so that
    Blind Nil bids (the four-player exchange, the two-player replacements) come up."""
    bot = HeuristicAgent(seed=seed)
    for g in range(games):
        game = SpadesGame(num_players=num_players, max_hands=2)
        game.reset(seed=seed + g, scores=[0, 350] if g % 2 else [350, 0])
        while not game.game_over:
            seat = game.current_player
            if game.phase in (Phase.BID, Phase.PLAY) and game.looked[seat]:
                yield game, player_view(game, seat)
            game.apply(ask(bot, game, None))


@pytest.mark.parametrize("num_players", [4, 2])
def test_rebuilt_game_shows_the_same_view(num_players):
    checked = blind_play = 0
    rng = np.random.default_rng(0)
    for _, view in decisions(num_players, 12, seed=100 * num_players):
        rebuilt = game_from_view(view)
        assert player_view(rebuilt, view.seat) == view
        if checked % 7 == 0:  # a world drawn by the engine's resampler from the rebuilt game, too
            assert player_view(next(worlds(view, 1, rng)), view.seat) == view
        checked += 1
        blind_play += view.phase == Phase.PLAY and any(view.blind)
    assert checked > 500
    assert blind_play > 20  # the Blind Nil exchange (four players) or replacements (two) were rebuilt


def test_rebuild_refuses_phases_without_a_hand_to_search():
    game = SpadesGame(num_players=2)
    game.reset(seed=1)
    with pytest.raises(ValueError, match="rebuilt"):
        game_from_view(player_view(game, game.current_player))


def test_fill_moves_cards_along_to_fit_the_voids():
    club, diamond = card_id(0, 5), card_id(1, 5)
    # Greedy would give the club to the first slot and leave the diamond nowhere to go.
    first, second = fill(1 << club | 1 << diamond, [(1, CLUBS | DIAMONDS), (1, CLUBS)])
    assert (first, second) == (1 << diamond, 1 << club)
    with pytest.raises(InconsistentView):
        fill(1 << diamond | 1 << card_id(1, 6), [(1, DIAMONDS), (1, CLUBS)])


def test_best_card_prefers_the_heuristics_card_then_low_cards():
    low_club, high_club, spade = card_id(0, 1), card_id(0, 11), card_id(3, 0)
    means = {low_club: 5.0, high_club: 5.0, spade: 5.0}
    assert best_card(means, high_club) == high_club
    assert best_card({**means, spade: 1.0}, spade) == low_club
    assert best_card({**means, high_club: 9.0}, low_club) == high_club


def _agent(**kwargs) -> SearchAgent:
    return SearchAgent(**{"worlds": 6, "ms": 30, "bid_worlds": 3, "blind_worlds": 3, "seed": 5, **kwargs})


@pytest.mark.parametrize("num_players", [4, 2])
def test_plays_legal_moves_over_whole_games(num_players):
    config = SpadesConfig(num_players=num_players, max_hands=3)
    agents = [_agent(seed=p) for p in range(num_players)]
    for seed in range(2):
        play_game(agents, seed=seed, config=config, scores=[0, 350], ask_forced=True)  # illegal moves raise
    rows = [row for agent in agents for row in agent.timing_table()]
    phases = {row["phase"] for row in rows}
    assert {"BID", "PLAY"} <= phases
    assert any(row["phase"] == "PLAY" and row["searched"] > 0 and row["worlds_solved"] >= 4 for row in rows)
    assert all(row["searched"] == 1 for row in rows if row["phase"] == "BID")
    blind = [row["searched"] for row in rows if row["phase"] == "BLIND"]
    assert blind and all(searched == (num_players == 4) for searched in blind)  # four players: by search


def _blind_choices(games: int, seed: int):
    """Four-player views at the Blind Nil choice, at varied scores and after varied earlier bids."""
    bot = HeuristicAgent(seed=seed)
    for g in range(games):
        game = SpadesGame(num_players=4, max_hands=1)
        game.reset(seed=seed + g, scores=[[0, 0], [0, 200], [300, 100]][g % 3])
        while not game.game_over:
            if game.phase == Phase.BLIND:
                yield player_view(game, game.current_player)
            game.apply(ask(bot, game, None))


def unseen_world(view, rng):
    return next(worlds(view, 1, rng))


def test_unseen_worlds_show_the_same_view_and_deal_uniformly():
    """At a four-player Blind Nil choice the seat has seen no card: worlds from a view with no state bound
    (a game rebuilt from it) deal its own hand uniformly too."""
    rng = np.random.default_rng(4)
    views = list(_blind_choices(6, seed=40))
    assert any(view.bids.count(None) < 4 for view in views) and any(any(view.blind) for view in views)
    for view in views:
        assert player_view(unseen_world(view, rng), view.seat) == view
    # Each card in the seat's own hand in 1/4 of 2,000 worlds of one view (chi-square, 52 cells, 51
    # degrees of freedom: 88 is the 99.9th percentile).
    view, samples = views[0], 2000
    counts = np.zeros(52)
    for _ in range(samples):
        hand = unseen_world(view, rng).hands[view.seat]
        counts += [hand >> card & 1 for card in range(52)]
    assert ((counts - samples / 4) ** 2 / (samples * 3 / 16)).sum() < 88


def test_blind_nil_search_compares_blind_nil_with_looking():
    for view in list(_blind_choices(3, seed=60))[:6]:
        choice = search_blind_nil(view, 4, np.random.default_rng(0))
        assert choice.blind_nil == (choice.blind_mean > choice.look_mean)
        assert choice == search_blind_nil(view, 4, np.random.default_rng(0))  # deterministic for a seed
        heuristic = HeuristicAgent().act(None, None, view)
        assert _agent(blind_worlds=0).act(None, None, view) == heuristic  # 0: the heuristic's rule


def _search_positions(num_players: int):
    """Card plays with few enough tricks left to be searched, one per hand."""
    last = None
    for game, view in decisions(num_players, 6, seed=7):
        if view.phase == Phase.PLAY and tricks_left(view) <= 5 and len(view.legal_actions) > 1 \
                and (view.hand_number, game.dealer) != last:
            last = (view.hand_number, game.dealer)
            yield game, view


@pytest.mark.parametrize("num_players", [4, 2])
def test_same_view_with_other_hidden_hands_gives_the_same_decision(num_players):
    rng = np.random.default_rng(3)
    searched = 0
    for game, view in _search_positions(num_players):
        twin = resample(game, view.seat, rng)  # the same view, the other hands dealt anew
        assert player_view(twin, view.seat) == view
        if twin.hands == game.hands:
            continue
        mine, theirs = _agent(), _agent()
        assert mine.act(None, None, view) == theirs.act(None, None, player_view(twin, view.seat))
        fallback = HeuristicAgent().act(None, None, view)
        searched += search_card(view, fallback, mine.budgets[num_players], np.random.default_rng(0)).solved > 0
    assert searched >= 3


def test_deterministic_for_a_seed():
    config = SpadesConfig(single_hand=True)

    def hand(seed: int) -> list:
        agents = [_agent(seed=seed), HeuristicAgent(), _agent(seed=seed), HeuristicAgent()]
        return play_game(agents, seed=11, config=config).hand_records[0]["actions"]

    assert hand(1) == hand(1)


@pytest.mark.parametrize("num_players", [4, 2])
def test_bid_search_scores_the_heuristics_bid_and_its_neighbours(num_players):
    for _, view in decisions(num_players, 3, seed=21):
        if view.phase != Phase.BID:
            continue
        heuristic_bid = HeuristicAgent().act(None, None, view) - A.BID_BASE
        choice = search_bid(view, heuristic_bid, 4, np.random.default_rng(0))
        assert choice.bid in choice.means and A.bid_action(choice.bid) in view.legal_actions
        nil_open = view.partner is None or view.bids[view.partner] != 0  # no Nil beside a partner's Nil
        assert max(1, heuristic_bid) in choice.means and (0 in choice.means) == nil_open


def test_search_differs_from_the_heuristic_where_it_searches():
    """Not a strength test: the searched card is not always the heuristic's (else the search did nothing)."""
    differ = total = 0
    budget = PlayBudget(worlds=8, nodes=50_000)
    for _, view in _search_positions(4):
        fallback = HeuristicAgent().act(None, None, view)
        choice = search_card(view, fallback, budget, np.random.default_rng(1))
        differ += choice.card != fallback
        total += 1
        assert choice.card in view.legal_actions
    assert total >= 5 and differ >= 1


def test_nil_tricks_searches_the_nil_stakes_early_only_while_a_nil_stands():
    """Beyond ``max_tricks``, ``nil_tricks`` searches (the Nils' stakes) only where a Nil stands; 0 never does."""
    with_nil = PlayBudget(worlds=4, nodes=200_000, max_tricks=9, nil_tricks=12)
    searched = standing = 0
    for game, view in decisions(4, games=4, seed=40):
        if game.phase != Phase.PLAY or not 10 <= tricks_left(view) <= 12:
            continue
        fallback = HeuristicAgent().act(None, None, view)
        choice = search_card(view, fallback, with_nil, np.random.default_rng(2))
        assert choice.card in view.legal_actions
        nil = nil_standing(view)
        standing += nil
        searched += choice.solved > 0
        assert nil or choice.solved == 0
        assert search_card(view, fallback, replace(with_nil, nil_tricks=0), np.random.default_rng(2)).solved == 0
    assert standing >= 5 and searched >= 1


def test_nil_worlds_deal_a_nil_bidder_a_nil_hand_and_show_the_same_view():
    """The heuristic bids Nil at a danger of 1.05 at most, so its true hand fits and rejection finds such worlds."""
    fit = total = 0
    for game, view in decisions(4, games=6, seed=60):
        nils = [s for s in range(4) if s != view.seat and view.bids[s] == 0 and not any(view.blind)]
        if game.phase != Phase.PLAY or not nils or tricks_left(view) < 8:
            continue
        for world in fitted_worlds(view, 6, np.random.default_rng(total), nil_risk=1.05, tries=50):
            assert player_view(world, view.seat) == view
            fit += all(nil_risk(world.start_hands[s]) <= 1.05 for s in nils)
            total += 1
    assert total >= 18 and fit == total


def test_a_heuristic_nil_bidder_never_holds_a_card_its_ducks_rule_out():
    """The heuristic's Nil bidder ducks with its highest card under the winner, so what nil_ducks rules out is
    never in its true hand; ducked worlds deal it none of those cards and show the seat its own view."""
    ruled_out = checked = 0
    dealt = {0.5: 0, 0.0: 0}  # ruled-out cards dealt to the bidder at half trust, and with none
    for game, view in decisions(4, games=16, seed=70):
        if game.phase != Phase.PLAY:
            continue
        for seat, cards in nil_ducks(view).items():
            assert view.bids[seat] == 0 and view.tricks_won[seat] == 0 and seat % 2 != view.seat % 2
            assert not cards & game.hands[seat]
            ruled_out += cards.bit_count()
            for world in ducked_worlds(view, 2, np.random.default_rng(checked)):
                assert player_view(world, view.seat) == view
                assert not cards & world.hands[seat]
                checked += 1
            for trust in dealt:
                for world in ducked_worlds(view, 2, np.random.default_rng(checked), trust=trust):
                    assert player_view(world, view.seat) == view
                    dealt[trust] += (cards & world.hands[seat]).bit_count()
    assert ruled_out >= 100 and checked >= 40
    assert 0 < dealt[0.5] < 0.8 * dealt[0.0]


def test_a_heuristic_nil_bidders_hand_fits_its_discards_and_discard_worlds_read_them():
    """Void in the suit led, the heuristic's Nil bidder throws its most dangerous card that stays under, so its
    true hand fits every discard nil_discards reads; worlds drawn with discards fit them too (and show the seat its
    own view) but where no such hand came within HAND_TRIES draws, where uniform worlds often do not."""
    read = fitting = unfit = 0
    for game, view in decisions(4, games=8, seed=80):
        if game.phase != Phase.PLAY:
            continue
        for seat, thrown in nil_discards(view).items():
            assert view.bids[seat] == 0 and view.tricks_won[seat] == 0 and seat % 2 != view.seat % 2
            assert fits_discards(thrown, game.hands[seat])
            read += 1
            for world in ducked_worlds(view, 2, np.random.default_rng(read), discards=True):
                assert player_view(world, view.seat) == view
                fitting += fits_discards(thrown, world.hands[seat])
            unfit += sum(not fits_discards(thrown, w.hands[seat]) for w in worlds(view, 2, np.random.default_rng(read)))
    assert read >= 40 and fitting >= 0.9 * 2 * read and unfit >= 0.3 * 2 * read


def test_nil_bid_worlds_deal_a_heuristic_nil_bidder_a_hand_it_bids_nil_with_in_its_seat():
    """The heuristic bids Nil by bidding.bids_nil (its partner's bid before it and the score set the threshold), so
    the true hand of every Nil bidder it reads fits; worlds drawn with bid_fit fit too, uniform worlds far less."""
    read = fitting = uniform = 0
    for game, view in decisions(4, games=16, seed=90):
        if game.phase != Phase.PLAY:
            continue
        for seat, fits in _hand_fits(view, discards=False, bid_fit=True).items():
            assert view.bids[seat] == 0 and not view.blind[seat] and seat % 2 != view.seat % 2
            assert fits(game.hands[seat])
            read += 1
            for world in ducked_worlds(view, 2, np.random.default_rng(read), bid_fit=True):
                assert player_view(world, view.seat) == view
                fitting += fits(world.hands[seat])
            uniform += sum(fits(w.hands[seat]) for w in worlds(view, 2, np.random.default_rng(read)))
    assert read >= 40 and fitting >= 0.9 * 2 * read and uniform <= 0.7 * 2 * read


def test_fits_discards_reads_the_most_dangerous_card_thrown():
    """Seat 1's Nil, void in clubs, throws the jack of hearts: it held no more dangerous card that stayed under
    (an unguarded king of diamonds is; the four of diamonds is not); a spade that would have won is not a discard
    it could make instead."""
    clubs = ((0, card_id(0, 12)), (1, card_id(2, 9)), (2, card_id(0, 0)), (3, card_id(0, 1)))
    _, view = next(d for d in decisions(4, games=1, seed=5) if d[0].phase == Phase.PLAY)
    view = replace(view, seat=0, bids=(3, 0, 4, 3), blind=(False,) * 4, tricks_won=(1, 0, 0, 0), plays=clubs)
    (thrown,) = nil_discards(view).values()
    assert thrown == [(card_id(2, 9), 1 << card_id(2, 9), int(SUIT_MASKS[3]))]
    assert fits_discards(thrown, 1 << card_id(1, 2) | 1 << card_id(3, 12))
    assert not fits_discards(thrown, 1 << card_id(1, 11))


def test_nil_ducks_reads_a_duck_and_drops_a_bidder_that_ducks_otherwise():
    """Seat 1's Nil ducks the five of hearts under the king: it holds no heart from the six to the queen (but the
    two and three, which fell). Leading the nine later shows it ducks otherwise: nothing is read for it."""
    _, view = next(d for d in decisions(4, games=1, seed=5) if d[0].phase == Phase.PLAY)
    h = lambda rank: card_id(2, rank)  # noqa: E731 (hearts by rank: 0 the two .. 12 the ace)
    duck = ((0, h(11)), (1, h(3)), (2, h(0)), (3, h(1)))
    view = replace(view, seat=0, bids=(3, 0, 4, 3), blind=(False,) * 4, tricks_won=(1, 0, 0, 0), plays=duck)
    assert nil_ducks(view) == {1: sum(1 << h(r) for r in range(4, 11))}
    view = replace(view, plays=(*duck, (0, card_id(0, 5)), (1, card_id(0, 2))), tricks_won=(1, 0, 0, 0))
    clubs = (1 << card_id(0, 3)) | (1 << card_id(0, 4))  # and, ducking the four under the seven, the five and six
    assert nil_ducks(view) == {1: sum(1 << h(r) for r in range(4, 11)) | clubs}
    view = replace(view, plays=(*duck, (1, h(7))))
    assert nil_ducks(view) == {}
    assert nil_ducks(replace(view, plays=duck, seat=1)) == {}  # my own Nil, or my partner's: not modelled


def test_bid_fitted_worlds_deal_hands_near_the_bids_and_show_the_same_view():
    """Worlds fitted to the bids (sigma 0.5) deal the other bidders hands whose trick estimate lies nearer
    their bids than uniform worlds do, and every world is consistent with the view."""
    gaps = {None: [], 0.5: []}
    bot = HeuristicAgent(seed=1)
    for seed in range(12):
        game = SpadesGame(single_hand=True)
        game.reset(seed=seed)
        while game.phase != Phase.PLAY or len(game.plays) < 2:
            game.apply(ask(bot, game, None))
        view = player_view(game, game.current_player)
        seats = [s for s in range(4) if s != view.seat and view.bids[s] > 0 and not any(view.blind)]
        for sigma in gaps:
            for world in fitted_worlds(view, 4, np.random.default_rng(len(gaps[sigma])), bid_sigma=sigma, tries=30):
                assert player_view(world, view.seat) == view
                gaps[sigma] += [abs(estimate_tricks(world.start_hands[s]) - view.bids[s]) for s in seats]
    assert len(gaps[None]) >= 60
    assert np.mean(gaps[0.5]) < 0.7 * np.mean(gaps[None])


def _blind_nil_play(seed: int, tricks: int) -> SpadesGame:
    """Seat 0 in Blind Nil, the other seats looking; the heuristic bids, exchanges and plays ``tricks`` tricks."""
    game, bot = SpadesGame(single_hand=True), HeuristicAgent(seed=seed)
    game.reset(seed=seed)
    while game.phase != Phase.PLAY or len(game.plays) < 4 * tricks:
        if game.phase == Phase.BLIND:
            game.apply(A.BLIND_NIL if game.current_player == 0 else A.LOOK)
        else:
            game.apply(ask(bot, game, None))
    return game


def test_the_heuristics_exchange_is_what_exchange_computes():
    for seed in range(8):
        game = _blind_nil_play(seed, 0)
        dealt = game.start_hands
        assert exchange(dealt[0], dealt[2], 3) == (game.hands[0], game.hands[2])


def test_exchanged_worlds_give_the_blind_nil_bidder_fewer_honours_and_show_the_same_view():
    """Against a Blind Nil the heuristic exchanged, the bidder's hand in the worlds holds fewer cards of ten or
    above than in uniform worlds, its partner's more, as in the true deals; every world fits the view."""
    def honours(hand: int) -> int:
        return sum(RANK_OF[c] >= 8 for c in cards_of(hand))

    counts = {"true": [], "exchanged": [], "uniform": []}
    for seed in range(10):
        game = _blind_nil_play(seed, 1 + seed % 3)
        while game.current_player not in (1, 3):
            game.apply(ask(HeuristicAgent(), game, None))
        view = player_view(game, game.current_player)
        counts["true"].append(honours(game.hands[0]) - honours(game.hands[2]))
        for name, draw in (("exchanged", exchanged_worlds), ("uniform", worlds)):
            for world in draw(view, 8, np.random.default_rng(seed)):
                assert player_view(world, view.seat) == view
                counts[name].append(honours(world.hands[0]) - honours(world.hands[2]))
    true, fitted, uniform = (np.mean(counts[k]) for k in ("true", "exchanged", "uniform"))
    assert true < -1.5 and abs(uniform) < 1.0
    assert fitted < uniform - 1.5 and abs(fitted - true) < abs(uniform - true) / 2


def test_exchanged_worlds_are_drawn_worlds_on_the_blind_nil_side_and_without_one():
    game = _blind_nil_play(3, 1)
    while game.current_player != 2:
        game.apply(ask(HeuristicAgent(), game, None))
    view = player_view(game, 2)  # the bidder's partner knows the exchange
    a = [w.hands for w in exchanged_worlds(view, 4, np.random.default_rng(1))]
    b = [w.hands for w in fitted_worlds(view, 4, np.random.default_rng(1))]
    assert a == b


@pytest.mark.parametrize("base", ["heuristic-v1", "heuristic-v2"])
def test_search_without_a_budget_plays_its_base_heuristic(base):
    """With no worlds anywhere every decision is the base heuristic's: the same games, Blind Nils and exchanges
    included."""
    for seed in range(3):
        games = []
        for agent in (SearchAgent(worlds=0, bid_worlds=0, blind_worlds=0, base=base), make_agent(base)):
            games.append(play_game([agent, make_agent("heuristic-v2")] * 2, seed=seed,
                                   config=SpadesConfig(target_score=300), agent_seeds=(1, 2, 3, 4)).hand_records)
        assert games[0] == games[1]
    with pytest.raises(ValueError, match="base must be one of heuristic-v1, heuristic-v2"):
        SearchAgent(base="heuristic-v3")


def test_the_nil_settings_as_options_and_v1_keeps_its_defaults():
    v1, v2 = SearchAgent(), make_agent("search-v1:nil_tricks=13,nil_risk=1.05,worlds=8")
    assert (v1.budgets[4].nil_tricks, v1.budgets[4].nil_risk, v1.heuristic.params) == (0, None, V1)
    assert (v2.budgets[4].nil_tricks, v2.budgets[4].nil_risk, v2.budgets[4].worlds) == (13, 1.05, 8)
    assert make_agent("search-v1:base=heuristic-v2").heuristic.params == V2


def test_registered_with_keyword_arguments(tmp_path):
    agent = make_agent(f"search-v1:worlds=3,ms=5,seed=2,timings={tmp_path / 't.jsonl'}")
    assert (agent.budgets[4].worlds, agent.budgets[4].nodes, agent.seed) == (3, 5000, 2)
    assert (agent.budgets[4].max_tricks, agent.budgets[2].max_tricks) == (9, 13)  # two players search every trick
    assert make_agent("search-v1:max_tricks=5").budgets[2].max_tricks == 5
    play_game([agent, HeuristicAgent()] * 2, seed=1, config=SpadesConfig(single_hand=True))
    agent.close()
    assert '"rows"' in (tmp_path / "t.jsonl").read_text()


def test_the_evaluations_run_the_tournament_with_the_given_settings_and_workers(tmp_path):
    from spades_env.experiments.eval_search import tournament_args

    args = tournament_args("ppo-single", tmp_path, 31337, None, {"worlds": 8, "ms": None}, workers=2)
    assert args[args.index("--agents") + 1] == f"search-v1:worlds=8,timings={tmp_path / 'timings.jsonl'},name=search"
    assert args[args.index("--agents") + 2] == "ppo"
    assert [args[args.index(flag) + 1] for flag in ("--games", "--seed", "--workers")] == ["1000", "31337", "2"]
    assert "--single-hand" in args


def test_bag_cost_prices_the_bags_of_games_only():
    """``bag_cost`` reaches the solved values in a game to a target and changes nothing in a single hand, whose bags
    go nowhere."""
    budget = PlayBudget(worlds=4, nodes=50_000)
    priced = replace(budget, bag_cost=10)

    def means(view, b):
        return search_card(view, HeuristicAgent().act(None, None, view), b, np.random.default_rng(0)).means

    assert sum(means(view, budget) != means(view, priced) for _, view in _search_positions(4)) >= 3
    bot, single = HeuristicAgent(), 0
    for seed in range(3):
        game = SpadesGame(num_players=4, single_hand=True)
        game.reset(seed=seed, bags=[8, 9])
        while game.phase != Phase.PLAY or 13 - len(game.completed_tricks) > 4:
            game.apply(ask(bot, game, None))
        view = player_view(game, game.current_player)
        assert means(view, budget) == means(view, priced) != {}
        single += 1
    assert single == 3
