"""experiments/nil_defence.py: every defence plays the same Nils, a network's included."""

from __future__ import annotations

import re

from spades_env.agents.registry import make_agent
from spades_env.experiments import nil_defence


def test_a_rule_bot_and_a_network_defend_the_same_nils(capsys):
    nil_defence.main(["--mode", "blind", "--deals", "1-4", "--defences", "heuristic-v2", "ppo-v3"])
    out = capsys.readouterr().out
    counts = re.findall(r"^  (\S+): [\d.]+% \[.*\] of (\d+)", out, re.M)
    assert counts == [("heuristic-v2", "4"), ("ppo-v3", "4")]  # seat 0's Blind Nil on each of the four deals
    assert "ppo-v3 against heuristic-v2, the same Nils" in out


def test_a_lead_counts_where_some_leads_keep_the_set_and_others_give_it_up():
    agents = [make_agent(f"heuristic-v{1 + seat % 2}") for seat in range(4)]  # the Nil side v1, the defence v2
    for seed in range(1, 100):  # a lone Nil, a defender on lead at the first trick, the lead deciding its fate
        game = nil_defence.deal_to_play(seed, "nil", agents)
        bidders = nil_defence.nil_bidders(game, "nil")
        if len(bidders) == 1 and game.current_player % 2 == 1:
            setting = nil_defence.setting_cards(game, bidders[0], 2_000_000)
            if setting is not None and len(set(setting.values())) == 2:
                break
    for card, sets in setting.items():
        tally = nil_defence.Tally()
        tally.judge_lead(game, card, bidders[0], 2_000_000)
        assert (tally.decided_leads, tally.lost_leads) == (1, int(not sets))
    game.apply(next(iter(setting)))  # not a lead any more: nothing is judged
    tally = nil_defence.Tally()
    tally.judge_lead(game, int(game.legal_actions()[0]), bidders[0], 2_000_000)
    assert tally.decided_leads == 0


def test_leads_are_reported_for_each_defence(capsys):
    nil_defence.main(["--mode", "nil", "--deals", "1-12", "--leads", "--max-nodes", "50000",
                      "--defences", "heuristic-v2"])
    assert re.search(r"decided it on the true deal: \d+, of which \d+ gave up the set", capsys.readouterr().out)
