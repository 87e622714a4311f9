"""experiments/nil_defence.py: every defence plays the same Nils, a network's included."""

from __future__ import annotations

import re

from spades_env.experiments import nil_defence


def test_a_rule_bot_and_a_network_defend_the_same_nils(capsys):
    nil_defence.main(["--mode", "blind", "--deals", "1-4", "--defences", "heuristic-v2", "ppo-v3"])
    out = capsys.readouterr().out
    counts = re.findall(r"^  (\S+): [\d.]+% \[.*\] of (\d+)", out, re.M)
    assert counts == [("heuristic-v2", "4"), ("ppo-v3", "4")]  # seat 0's Blind Nil on each of the four deals
    assert "ppo-v3 against heuristic-v2, the same Nils" in out
