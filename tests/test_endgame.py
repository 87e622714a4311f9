"""endgame:AGENT: the wrapped agent's decisions, its last tricks' card play searched."""

from __future__ import annotations

import numpy as np
import pytest

from spades_env.agent import ask
from spades_env.agents.endgame import EndgameAgent
from spades_env.agents.match import play_game
from spades_env.agents.registry import AgentSpecError, make_agent
from spades_env.agents.search.play import PlayBudget, search_card, tricks_left
from spades_env.game import Phase, SpadesConfig, SpadesGame
from spades_env.view import player_view


def decisions(num_players: int, hands: int, seed: int):
    """(game, seat) at every decision of ``hands`` single hands played by the heuristic."""
    base = make_agent("heuristic-v2")
    for h in range(hands):
        game = SpadesGame(SpadesConfig(num_players=num_players, single_hand=True))
        game.reset(seed=seed + h)
        for seat in range(num_players):
            base.reset(seat, seed + h, game.config)
        while not game.game_over:
            yield game
            game.apply(ask(base, game, None))


@pytest.mark.parametrize("n", [4, 2])
def test_outside_the_endgame_it_is_the_wrapped_agent_and_inside_the_search_with_its_card_among_equals(n):
    wrapped = EndgameAgent("heuristic-v2", tricks=3, worlds=8, seed=5)
    base = make_agent("heuristic-v2")
    changed = searched = 0
    for game in decisions(n, 6, seed=100 * n):
        seat = game.current_player
        for agent in (wrapped, base):
            agent.reset(seat, 7, game.config)
        view = player_view(game, seat, infostate=True)
        mask = game.legal_mask()
        own = base.act(None, mask, view)
        action = wrapped.act(None, mask, view)
        if game.phase != Phase.PLAY or tricks_left(view) > 3 or len(view.legal_actions) < 2:
            assert action == own
            continue
        rng = np.random.default_rng([5, view.hand_number, len(view.plays)])
        choice = search_card(view, own, PlayBudget(worlds=8, nodes=20_000, max_tricks=3), rng)
        assert action == choice.card and choice.solved >= 4
        top = max(choice.means.values())
        assert choice.means[action] == top and (choice.means[own] < top or action == own)
        searched += 1
        changed += action != own
    assert searched > 20 and changed > 0


def test_the_spec_builds_any_agent_and_bad_input_is_one_line():
    agent = make_agent("endgame:random-v1:tricks=2,worlds=4")
    assert agent.budget.max_tricks == 2 and agent.budget.worlds == 4 and agent.needs_infostate
    ppo = make_agent("endgame:ppo-v1")
    assert ppo.needs_observation and ppo.observation_kind == make_agent("ppo-v1").observation_kind
    nil = make_agent("endgame:random-v1:tricks=2,nil_tricks=13,nil_risk=1.05,nil_play=true").budget
    assert (nil.nil_tricks, nil.nil_risk, nil.nil_play) == (13, 1.05, True)
    for spec, message in (("endgame", "expected 'endgame:AGENT'"), ("endgame:heuristic:tricks=0", "1 <= tricks"),
                          ("endgame:heuristic:nil_tricks=14", "0 <= nil_tricks <= 13")):
        with pytest.raises((ValueError, AgentSpecError), match=message):
            make_agent(spec)


@pytest.mark.parametrize("n", [4, 2])
def test_it_plays_whole_games_with_a_network_inside(n):
    inner = "ppo-v1" if n == 4 else "ppo-2p-v1"
    game = play_game([make_agent(f"endgame:{inner}:worlds=4"), make_agent("heuristic-v2")] * (n // 2),
                     seed=3, config=SpadesConfig(num_players=n, single_hand=True), agent_seeds=[1] * n)
    assert game.game_over


def _view_at(scores: tuple[int, int], **rules) -> object:
    game = SpadesGame(SpadesConfig(**rules))
    game.reset(seed=3, scores=scores)
    return player_view(game, 0)


def test_catch_up_counts_the_blind_nil_a_hand_leaves_to_either_side():
    from spades_env.agents.search.play import catch_up_priced

    house = {"blind_nil_min_deficit": 100}
    priced = catch_up_priced(_view_at((200, 150), **house), 145)  # seat 0's side leads by 50
    assert priced(40) == 40  # ends 90 ahead: no Blind Nil for anyone
    assert priced(50) == 50 - 145  # 100 ahead: the other side may bid Blind Nil next hand
    assert priced(-140) == -140  # 90 behind
    assert priced(-150) == -150 + 145  # 100 behind: my side may
    assert catch_up_priced(_view_at((200, 150), **house), 0) is None
    assert catch_up_priced(_view_at((200, 150)), 145) is None  # Blind Nil at any score: no option at stake
    assert catch_up_priced(_view_at((200, 150), **house, single_hand=True), 145) is None
    assert catch_up_priced(_view_at((200, 150), **house, blind_nil=False), 145) is None
    assert catch_up_priced(_view_at((100, 249), **house), 145) is not None
    assert catch_up_priced(_view_at((100, 250), **house), 145) is None  # this hand may end the game at 500


def test_catch_up_is_whole_points_and_a_wrong_one_says_so():
    assert EndgameAgent("heuristic-v2", catch_up=145).budget.catch_up == 145
    with pytest.raises(ValueError, match="catch_up is what the Blind Nil"):
        EndgameAgent("heuristic-v2", catch_up=-1)
