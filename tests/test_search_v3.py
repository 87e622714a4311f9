"""search-v3 plays four players as the network with its last nine tricks searched, two players as search-v1; search-v4
reads an opposing Nil bidder's hand on top, search-v5 prices carried bags on top of that, search-v6 in two players
too."""

import pytest

from spades_env.agents import make_agent
from spades_env.agents.match import play_game
from spades_env.game import SpadesConfig

BUDGET = "worlds=4,ms=20"  # small, so that a hand takes a second; the agents' defaults are 24 and 250


def _plays(spec: str, num_players: int, seed: int, single_hand: bool = True) -> list:
    """The actions of a hand: a single hand, or (``single_hand=False``) the first of a game, whose bags carry."""
    config = SpadesConfig(num_players=num_players, single_hand=True) if single_hand \
        else SpadesConfig(num_players=num_players, max_hands=1)
    game = play_game([make_agent(spec) for _ in range(num_players)], seed=seed, agent_seeds=list(range(num_players)),
                     config=config)
    return game.hand_records[-1]["actions"]


@pytest.mark.parametrize("num_players, same_as", [
    (4, f"endgame:ppo-v3:tricks=9,{BUDGET}"),
    (2, f"search-v1:{BUDGET}"),
])
def test_search_v3_plays_as_the_agent_it_is_made_of(num_players, same_as):
    assert _plays(f"search-v3:{BUDGET}", num_players, seed=11) == _plays(same_as, num_players, seed=11)


def test_search_v3_takes_the_search_budget_and_names_what_it_takes():
    agent = make_agent("search-v3:worlds=8,ms=50,seed=2")
    assert agent.four.budget.worlds == 8 and agent.four.budget.max_tricks == 9
    with pytest.raises(ValueError, match="search_v3 takes"):
        make_agent("search-v3:tricks=3")



def test_search_v3_takes_the_nil_bidders_inference_options():
    """``search-v3:nil_play=true,nil_risk=1.05`` is the endgame spec docs/results/search_v4 measured."""
    same = f"endgame:ppo-v3:tricks=9,{BUDGET},nil_risk=1.05,nil_play=true,nil_discards=true"
    spec = f"search-v3:{BUDGET},nil_play=true,nil_risk=1.05,nil_discards=true"
    assert _plays(spec, 4, seed=12) == _plays(same, 4, seed=12)
    budget = make_agent("search-v3:nil_play=true,nil_risk=1.05").four.budget
    assert (budget.nil_risk, budget.nil_play, budget.nil_discards) == (1.05, 1.0, False)


def test_search_v4_is_search_v3_with_the_nil_bidders_hand_read():
    """``search-v4`` plays as the spec its evaluation measured (docs/results/search_v4/)."""
    same = f"endgame:ppo-v3:tricks=9,{BUDGET},nil_risk=1.05,nil_play=true"
    assert _plays(f"search-v4:{BUDGET}", 4, seed=12) == _plays(same, 4, seed=12)
    assert _plays(f"search-v4:{BUDGET}", 2, seed=11) == _plays(f"search-v1:{BUDGET}", 2, seed=11)
    budget = make_agent("search-v4").four.budget
    assert (budget.nil_risk, budget.nil_play, budget.worlds, budget.nodes, budget.bag_cost) == (1.05, 1.0, 24,
                                                                                                250_000, 0)


def test_search_v5_is_search_v4_with_bags_priced_in_games():
    """``search-v5`` plays as the spec its evaluation measured (docs/results/bags/), two players as ``search-v1``,
    and ``search`` names it."""
    same = f"endgame:ppo-v3:tricks=9,{BUDGET},nil_risk=1.05,nil_play=true,bag_cost=10"
    assert _plays(f"search-v5:{BUDGET}", 4, seed=12, single_hand=False) \
        == _plays(same, 4, seed=12, single_hand=False)
    assert _plays(f"search-v5:{BUDGET}", 2, seed=11, single_hand=False) \
        == _plays(f"search-v1:{BUDGET}", 2, seed=11, single_hand=False)
    budget = make_agent("search-v5").four.budget
    assert (budget.nil_risk, budget.nil_play, budget.worlds, budget.nodes, budget.bag_cost) == (1.05, 1.0, 24,
                                                                                                250_000, 10)
    assert make_agent("search-v5").two.budgets[2].bag_cost == 0


def test_search_v6_prices_the_bags_in_two_players_too():
    """``search-v6`` plays four players as ``search-v5``, two players as ``search-v1:bag_cost=10`` (the two-player
    cells of docs/results/bags/), and ``search`` names it."""
    assert _plays(f"search-v6:{BUDGET}", 4, seed=12, single_hand=False) \
        == _plays(f"search-v5:{BUDGET}", 4, seed=12, single_hand=False)
    assert _plays(f"search-v6:{BUDGET}", 2, seed=11, single_hand=False) \
        == _plays(f"search-v1:{BUDGET},bag_cost=10", 2, seed=11, single_hand=False)
    agent = make_agent("search")
    assert (agent.four.budget.bag_cost, agent.two.budgets[2].bag_cost) == (10, 10)
    assert make_agent("search-v6:bag_cost=5").two.budgets[2].bag_cost == 5


def test_the_nil_bidders_readings_need_nil_play():
    with pytest.raises(ValueError, match="add nil_play=true"):
        make_agent("search-v3:nil_fit=true")
    with pytest.raises(ValueError, match="add nil_play=true"):
        make_agent("endgame:ppo-v3:nil_discards=true")
