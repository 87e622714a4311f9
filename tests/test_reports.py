"""The tournament summary people read: the result first, its notation explained, the rules in words."""

from __future__ import annotations

import json

from spades_env.agents.tournament.reports import html_report, markdown_report
from spades_env.agents.tournament.run import run_tournament
from spades_env.agents.tournament.schedule import TournamentSpec


def _summary(tmp_path, **rules) -> dict:
    spec = TournamentSpec(agents=("heuristic", "random"), games=4, seed=3, single_hand=True, preset="house",
                          rules=rules)
    run_tournament(spec, tmp_path, workers=1, progress=False, plot=False)
    return json.loads((tmp_path / "summary.json").read_text())


def test_the_summary_leads_with_the_points_per_deal_and_explains_its_columns(tmp_path):
    text = markdown_report(_summary(tmp_path, bag_limit=5))
    lines = text.splitlines()
    assert lines[2].startswith("4 of 4 games played. Rules: house rules (Blind Nil only to a side 100 or more "
                               "behind) + bag limit 5.")
    first_table = next(i for i, line in enumerate(lines) if line.startswith("| "))
    assert lines[first_table].startswith("| A | B | A − B points per deal [95% CI] |")
    assert lines[first_table + 2].split(" | ")[2].startswith("**+")  # the result, in bold, third column
    assert len(lines[first_table].split("|")) - 2 <= 5  # a short table; the decisions get their own
    assert "with the number bid in brackets (– when none was bid)" in text
    assert "## How each side played" in text
    assert lines[-1].startswith("Every rule option: num_players 4, target_score 500, bag_limit 5,")
    assert "nil on, blind_nil on, blind_nil_exchange on, blind_nil_min_deficit 100" in lines[-1]


def test_the_html_summary_shows_the_result_in_bold(tmp_path):
    page = html_report(_summary(tmp_path))
    assert "<td><b>+" in page and "**" not in page
