"""The catch-up model keeps a single-hand lead whole without a catch-up and compresses it with one."""

from spades_env.experiments.catch_up_model import games_lead


def test_without_catch_up_a_game_keeps_the_single_hand_lead():
    assert abs(games_lead(25, 3000, catch_up=0) - 25) < 2.5


def test_the_house_catch_up_keeps_about_a_quarter_of_the_lead():
    lead = games_lead(25, 3000)
    assert 3 < lead < 10
    assert abs(games_lead(0, 3000)) < 1.5


def test_the_catch_up_is_paid_to_whichever_side_is_behind():
    assert abs(games_lead(-25, 3000, seed=1) + games_lead(25, 3000, seed=1)) < 1.5


def test_a_leader_that_stays_under_the_deficit_keeps_more_of_its_lead():
    plain, shaved = games_lead(25, 3000), games_lead(25, 3000, shave=40)
    assert shaved > plain + 1.5  # the same draws: only the shaved hands differ
