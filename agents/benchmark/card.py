"""The benchmark's score card: one dict (``scorecard.json``), its Markdown (``scorecard.md``) and a terminal table.

Each cell's row is read from its tournament summary
(:func:`spades_env.agents.tournament.stats.pairing_stats`): the agent's
points per deal minus the opponent's with the 95% CI over boards, the share
of games won, and both sides' decision profile, which is what explains a
margin: the side's mean bid, the share of bids that were Nil and Blind Nil
and how many of them were made, the set rate of the side's contracts and
the bags per hand. The card also records what a reader needs to reproduce
it: the pool's versioned names, the seeds, the package version and commit,
and the machine.
"""

from __future__ import annotations

import os
import platform
import sys
from pathlib import Path

from ..cli import version
from ..ppo.run_folder import git_commit
from ..tournament.reports import ci_text
from .pool import FORMATS, Cell

CARD_VERSION = 1  # the layout of scorecard.json


def machine() -> dict:
    """The platform, the CPU's model name and the number of cores the run saw."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {"platform": platform.platform(), "cpu": cpu, "cores": os.cpu_count()}


def software() -> dict:
    import numpy
    import torch

    return {"spades_env": version(), "commit": git_commit(), "python": platform.python_version(),
            "numpy": numpy.__version__, "torch": torch.__version__}


def profile(side: dict, seats: int) -> dict:
    """A side's decisions from its tournament tally: rates per bid (``seats`` bidders per side and hand)."""
    bids = side["hands"] * seats
    return {"hands": side["hands"], "mean_bid": side["mean_bid"],
            "nil_rate": side["nil_attempts"] / bids if bids else None, "nil_made": side["nil_success"],
            "blind_nil_rate": side["blind_nil_attempts"] / bids if bids else None,
            "blind_nil_made": side["blind_nil_success"], "set_rate": side["set_rate"],
            "bags_per_hand": side["bags_per_hand"]}


def cell_row(cell: Cell, summary: dict, num_players: int) -> dict:
    """A cell's row of the card from its tournament summary (one pairing: the agent against the opponent)."""
    pairing = summary["pairings"][0]
    ci = pairing["points_per_deal_diff"]
    seats = num_players // 2
    return {"rules": cell.preset, "rules_described": summary["spec"].get("rules_described"),
            "format": cell.format, "opponent": cell.opponent, "seed": cell.seed,
            "games_planned": summary["games_planned"], "games_played": summary["games_played"],
            "boards": pairing["boards"], "points_per_deal": {k: ci[k] for k in ("mean", "low", "high")},
            "win_rate": pairing["win_rate_a"], "agent": profile(pairing["agent_a"], seats),
            "opponent_profile": profile(pairing["agent_b"], seats), "folder": cell.folder}


def _pct(x: float | None, digits: int = 0) -> str:
    return "–" if x is None else f"{100 * x:.{digits}f}%"


def _num(x: float | None, digits: int = 2) -> str:
    return "–" if x is None else f"{x:.{digits}f}"


def _games_text(row: dict) -> str:
    done = f"{row['games_played']}" + ("" if row["games_played"] == row["games_planned"]
                                       else f" of {row['games_planned']}")
    return f"{done} ({row['boards']} deals)" if row["format"] == "single" else done


def _profile_cells(p: dict) -> list[str]:
    return [_num(p["mean_bid"]), f"{_pct(p['nil_rate'], 1)} ({_pct(p['nil_made'])})",
            f"{_pct(p['blind_nil_rate'], 1)} ({_pct(p['blind_nil_made'])})", _pct(p["set_rate"], 1),
            _num(p["bags_per_hand"])]


def citation(card: dict) -> str:
    """How the card's figures are cited: the command, the pool, the seeds and the software."""
    b, s = card["benchmark"], card["software"]
    options = [f"--num-players {b['num_players']}", f"--tier {b['tier']}"]
    options += [f"--{k} {b[k]}" for k in ("seed", "deals", "games") if b[k] is not None]
    options += [] if b["standard_pool"] else [f"--pool {' '.join(b['pool'])}"]
    seeds = "published seeds" if b["published_seeds"] else "private seeds"
    return (f"`spades benchmark {b['agent']} {' '.join(options)}` ({seeds} {min(b['seeds'].values())}-"
            f"{max(b['seeds'].values())}), spades-env {s['spades_env']} at commit {s['commit'][:12]}")


def markdown_card(card: dict) -> str:
    b, m, s = card["benchmark"], card["machine"], card["software"]
    out = [f"# Benchmark score card: {b['agent_versioned']} ({b['num_players']} players)", "",
           f"Cite as: {citation(card)}.", "",
           f"Pool: {', '.join(f'`{p}`' for p in b['pool'])}"
           + ("" if b["standard_pool"] else " (not the standard pool)") + f". Tier: {b['tier']} ({b['sizes_text']}).",
           "",
           f"Software: spades-env {s['spades_env']}, commit {s['commit']}, Python {s['python']}, numpy {s['numpy']}, "
           f"torch {s['torch']}. Machine: {m['cpu']}, {m['cores']} cores, {m['platform']}.", "",
           "Points per deal: the agent's side minus the opponent's per hand, in duplicate (every deal played twice, "
           "the sides swapped), 95% CI over deals. Decision profile, agent / opponent: the side's mean bid, the "
           "share of bids that were Nil and Blind Nil (made), the set rate of the side's contracts, bags per hand.",
           "",
           "| rules | format | opponent | games | points per deal [95% CI] | won | bid | Nil (made) "
           "| Blind Nil (made) | set | bags |",
           "|---|---|---|---:|---|---:|---|---|---|---|---|"]
    for row in card["cells"]:
        mine, theirs = _profile_cells(row["agent"]), _profile_cells(row["opponent_profile"])
        out.append(f"| {row['rules']} | {FORMATS[row['format']]} | `{row['opponent']}` | {_games_text(row)} "
                   f"| {ci_text(row['points_per_deal'])} | {_pct(row['win_rate'], 1)} | "
                   + " | ".join(f"{a} / {t}" for a, t in zip(mine, theirs)) + " |")
    copied = [row for row in card["cells"] if row.get("mirrored_from")]
    if copied:
        out += ["", "Copied from the other side's card (`--mirror`: the same games, the agents' order swapped): "
                + "; ".join(f"{row['rules']} {FORMATS[row['format']]} against `{row['opponent']}` from "
                            f"`{row['mirrored_from']}`" for row in copied) + "."]
    if not card["complete"]:
        out += ["", f"Incomplete: {card['cells_done']} of {card['cells_planned']} cells finished."]
    return "\n".join(out) + "\n"


def print_card(card: dict, file=None) -> None:
    """The card as a terminal table: a line for the agent's cell and one under it for the opponent's profile."""
    file = file or sys.stdout
    b = card["benchmark"]
    print(f"{b['agent_versioned']}, {b['num_players']} players, {b['tier']} tier; {citation(card)}", file=file)
    m = card["machine"]
    print(f"machine: {m['cpu']}, {m['cores']} cores, {m['platform']}", file=file)
    head = (f"{'rules':<8} {'format':<13} {'opponent':<14} {'games':>16} {'points/deal [95% CI]':<25} {'won':>6}  "
            f"{'bid':>5} {'Nil (made)':>13} {'BNil (made)':>13} {'set':>6} {'bags':>5}")
    print(head, file=file)
    print("-" * len(head), file=file)
    for row in card["cells"]:
        for who, p in (("", row["agent"]), ("  opponent", row["opponent_profile"])):
            bid, nil, blind, sets, bags = _profile_cells(p)
            first = (f"{row['rules']:<8} {FORMATS[row['format']]:<13} {row['opponent']:<14} {_games_text(row):>16} "
                     f"{ci_text(row['points_per_deal']):<25} {_pct(row['win_rate'], 1):>6}") if not who else \
                f"{'':<8} {'':<13} {who:<14} {'':>16} {'':<25} {'':>6}"
            print(f"{first}  {bid:>5} {nil:>13} {blind:>13} {sets:>6} {bags:>5}", file=file)
