"""What a tournament's summary looks like on disk and on the console: JSON, CSV, Markdown, HTML, a heat map.

Every report is a function of the summary dict (:func:`.stats.summarize`)
alone, so a folder's reports can be rewritten from its ``summary.json``
without the records, and a new format is one more function here.
"""

from __future__ import annotations

import base64
import csv
import html
import io
import json
import re
import sys
from pathlib import Path

import numpy as np

from spades_env.rules import SpadesConfig, describe


def _fmt(x: float | None, digits: int = 1, pct: bool = False) -> str:
    if x is None:
        return "–"
    return f"{100 * x:.{digits}f}%" if pct else f"{x:.{digits}f}"


def ci_text(ci: dict) -> str:
    """``+1.2 [-0.3, +2.7]``: a mean and its 95% interval, one decimal (``–`` when nothing was played)."""
    if ci["mean"] is None:
        return "–"
    if ci["low"] is None:
        return f"{ci['mean']:+.1f}"
    return f"{ci['mean']:+.1f} [{ci['low']:+.1f}, {ci['high']:+.1f}]"


def _nil_text(s: dict, kind: str) -> str:
    """Success rate and attempts of Nil (``kind="nil"``) or Blind Nil (``"blind_nil"``) bids."""
    return f"{_fmt(s[kind + '_success'], 0, True)} ({s[kind + '_attempts']})"


def _markdown_pairing_row(p: dict) -> str:
    return (f"| {p['a']} | {p['b']} | **{ci_text(p['points_per_deal_diff'])}** | {_fmt(p['win_rate_a'], 1, True)} "
            f"| {p['games']} ({p['wins_a']} / {p['wins_b']} / {p['draws']}) |")


def _markdown_play_row(p: dict) -> str:
    """How each side of a pairing played: A's figure, then B's."""
    sa, sb = p["agent_a"], p["agent_b"]
    return (
        f"| {p['a']} | {p['b']} "
        f"| {_fmt(sa['mean_bid'], 2)} / {_fmt(sa['mean_tricks'], 2)} "
        f"| {_fmt(sb['mean_bid'], 2)} / {_fmt(sb['mean_tricks'], 2)} "
        f"| {_fmt(sa['set_rate'], 1, True)} / {_fmt(sb['set_rate'], 1, True)} "
        f"| {_nil_text(sa, 'nil')} / {_nil_text(sb, 'nil')} "
        f"| {_nil_text(sa, 'blind_nil')} / {_nil_text(sb, 'blind_nil')} "
        f"| {_fmt(sa['bags_per_hand'], 2)} / {_fmt(sb['bags_per_hand'], 2)} |")


def _markdown_agent_row(label: str, a: dict) -> str:
    r, s = a["rating"], a["stats"]
    return (
        f"| {label} | {a['games']} | {r['mu']:.2f} | {r['sigma']:.2f} | {r['ordinal']:.2f} "
        f"| {_fmt(s['points_per_hand'])} | {_fmt(s['set_rate'], 1, True)} "
        f"| {_nil_text(s, 'nil')} | {_nil_text(s, 'blind_nil')} "
        f"| {_fmt(s['bags_per_hand'], 2)} | {_fmt(s['mean_bid'], 2)} | {_fmt(s['mean_tricks'], 2)} |")


def _rules_text(config: dict) -> str:
    """Every rule option of the run (``SpadesConfig`` as saved in ``config.json``): ``on``/``off`` for a switch,
    ``none`` for a threshold that is not set."""
    shown = {True: "on", False: "off", None: "none"}
    return ", ".join(f"{k} {shown.get(v, v) if isinstance(v, bool | None) else v}" for k, v in config.items())


def rules_line(spec: dict) -> str | None:
    """The run's rules in one readable line, its preset named ("house rules (...)"); None without a config."""
    if "config" not in spec:
        return None
    return spec.get("rules_described") or describe(SpadesConfig(**spec["config"]))


def versions_line(spec: dict) -> str | None:
    """Which versioned agent each label played ("heuristic = heuristic-v2"); None when every label says it."""
    pairs = [f"{label} = {version}" for label, version in zip(spec["labels"], spec.get("versions", ()))
             if label.partition("#")[0] != version]
    return "; ".join(pairs) if pairs else None


def markdown_report(summary: dict) -> str:
    """The summary as Markdown: the result first (points per deal and its interval), then how each side
    played, the ratings, and every rule option last."""
    spec = summary["spec"]
    variant = f"{spec['num_players']} players, " + ("single-hand boards" if spec["single_hand"]
                                                    else f"games to {spec['target_score']}")
    versions = versions_line(spec)
    out = [f"# Duplicate tournament ({variant}, seed {spec['seed']})", "",
           f"{summary['games_played']} of {summary['games_planned']} games played."
           + (f" Rules: {rules_line(spec)}." if "config" in spec else ""), "",
           *([f"Agents: {versions}.", ""] if versions else []),
           "## Results", "",
           "Points per deal: A's side minus B's side in a hand, averaged over the two games of each board (the "
           "same deals, the sides swapped, so the cards' luck cancels), with its 95% confidence interval over "
           "boards; positive favours A. Games: played (A's wins / B's wins / draws).", "",
           "| A | B | A − B points per deal [95% CI] | A's win rate | games (A / B / draws) |",
           "|---|---|---|---:|---|"]
    out += [_markdown_pairing_row(p) for p in summary["pairings"]]
    out += ["", "## How each side played", "",
            "Per hand, over the pairing's games, A's figure / B's. Bid / tricks: the side's bid and tricks "
            "taken. Set rate: the share of the side's contracts it missed. Nil and Blind Nil: the share made, "
            "with the number bid in brackets (– when none was bid). Bags: overtricks.", "",
            "| A | B | A's bid / tricks | B's bid / tricks | set rate | Nil made (bids) | Blind Nil made (bids) "
            "| bags |",
            "|---|---|---|---|---|---|---|---|"]
    out += [_markdown_play_row(p) for p in summary["pairings"]]
    out += ["", "## Agents", "",
            "OpenSkill (Plackett–Luce) ratings from game results; ordinal = mu − 3 sigma. "
            "Per-hand statistics over every hand the agent's side played.", "",
            "| agent | games | mu | sigma | ordinal | points/hand | set rate | Nil made (bids) "
            "| Blind Nil made (bids) | bags/hand | bid | tricks |",
            "|---|---:|---:|---:|---:|---:|---:|---|---|---:|---:|---:|"]
    out += [_markdown_agent_row(label, a) for label, a in summary["agents"].items()]
    if "config" in spec:
        out += ["", f"Every rule option: {_rules_text(spec['config'])}."]
    return "\n".join(out) + "\n"


def csv_report(summary: dict) -> str:
    buf = io.StringIO()
    rows = []
    for p in summary["pairings"]:
        ci = p["points_per_deal_diff"]
        row = {k: p[k] for k in ("a", "b", "games", "boards", "wins_a", "wins_b", "draws", "truncated",
                                 "win_rate_a")}
        row.update(ppd_diff=ci["mean"], ppd_low=ci["low"], ppd_high=ci["high"])
        for who in ("a", "b"):
            row.update({f"{k}_{who}": v for k, v in p[f"agent_{who}"].items()})
        rows.append(row)
    if rows:
        writer = csv.DictWriter(buf, fieldnames=list(rows[0]))
        writer.writeheader()
        writer.writerows(rows)
    return buf.getvalue()


def pairwise_grid(summary: dict) -> tuple[np.ndarray, list[list[str]]]:
    """Row agent minus column agent points per deal (NaN where unplayed) and each cell's text.

    A pairing fills its mirror cell with the negated mean and the complementary win rate.
    """
    labels = summary["spec"]["labels"]
    n = len(labels)
    grid = np.full((n, n), np.nan)
    text = [[""] * n for _ in range(n)]
    index = {label: i for i, label in enumerate(labels)}
    for p in summary["pairings"]:
        ci, i, j = p["points_per_deal_diff"], index[p["a"]], index[p["b"]]
        if ci["mean"] is None:
            continue
        half = "" if ci["low"] is None else f"\n±{(ci['high'] - ci['low']) / 2:.1f}"
        win = p["win_rate_a"]
        grid[i, j] = ci["mean"]
        text[i][j] = f"{ci['mean']:+.1f}{half}\nwin {100 * win:.1f}%"
        if i != j:
            grid[j, i] = -ci["mean"]
            text[j][i] = f"{-ci['mean']:+.1f}{half}\nwin {100 * (1 - win):.1f}%"
    return grid, text


def plot_pairwise(summary: dict, path: Path) -> None:
    """Heat map of A-minus-B points per deal (row agent vs column agent), CI and win rate in each cell."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    labels = summary["spec"]["labels"]
    n = len(labels)
    grid, text = pairwise_grid(summary)
    fig, ax = plt.subplots(figsize=(2.2 + 1.6 * n, 1.6 + 1.4 * n))
    bound = max(1.0, float(np.nanmax(np.abs(grid)))) if not np.all(np.isnan(grid)) else 1.0
    im = ax.imshow(grid, cmap="RdBu", vmin=-bound, vmax=bound)
    for i in range(n):
        for j in range(n):
            if text[i][j]:
                dark = abs(grid[i, j]) > 0.6 * bound
                ax.text(j, i, text[i][j], ha="center", va="center", fontsize=8, color="white" if dark else "black")
    ax.set_xticks(range(n), labels, rotation=30, ha="right")
    ax.set_yticks(range(n), labels)
    ax.set_xlabel("opponent")
    ax.set_ylabel("agent")
    spec = summary["spec"]
    ax.set_title(f"points per deal vs opponent (duplicate, {spec['num_players']}p, "
                 f"{summary['games_played']} games)", fontsize=9)
    fig.colorbar(im, ax=ax, shrink=0.8, label="points per deal (row − column)")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def _bold(text: str) -> str:
    """Markdown's ``**strong**`` as HTML (``text`` already escaped)."""
    return re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", text)


def markdown_to_html(markdown: str) -> str:
    """The Markdown that :func:`markdown_report` writes (headings, paragraphs, tables) as HTML."""
    out, table = [], False
    for line in markdown.splitlines():
        cells = [html.escape(c.strip()) for c in line.strip().strip("|").split("|")]
        is_row = line.startswith("|")
        if table and not is_row:
            out.append("</table>")
        if is_row and all(c and set(c) <= set("-:") for c in cells):
            continue  # the line under a table's header
        if is_row:
            tag = "td" if table else "th"
            out.append(("" if table else "<table>") + "<tr>" + "".join(f"<{tag}>{_bold(c)}</{tag}>" for c in cells)
                       + "</tr>")
        elif line.startswith("#"):
            level = len(line) - len(line.lstrip("#"))
            out.append(f"<h{level}>{html.escape(line.lstrip('#').strip())}</h{level}>")
        elif line.strip():
            out.append(f"<p>{_bold(html.escape(line))}</p>")
        table = is_row
    return "\n".join(out + (["</table>"] if table else []))


HTML_STYLE = ("body{font-family:system-ui,'DejaVu Sans',sans-serif;margin:18px;color:#1b1b1b}"
              "table{border-collapse:collapse;font-size:13px;margin:8px 0}"
              "td,th{border:1px solid #ccc;padding:3px 7px;text-align:right}td:first-child,th{text-align:left}"
              "img{max-width:100%}")


def html_report(summary: dict, plot_png: bytes | None = None) -> str:
    """The Markdown report as one self-contained page, the heat map embedded in it (no file beside it)."""
    body = markdown_to_html(markdown_report(summary))
    if plot_png:
        data = base64.b64encode(plot_png).decode("ascii")
        body += ('\n<h2>Points per deal</h2>\n'
                 f'<img id="pairwise" alt="pairwise heat map" src="data:image/png;base64,{data}">')
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>Duplicate tournament</title>'
            f"<style>{HTML_STYLE}</style></head><body>\n{body}\n</body></html>\n")


def write_reports(out: Path, summary: dict, plot: bool = True) -> None:
    (out / "summary.json").write_text(json.dumps(summary, indent=2) + "\n")
    (out / "pairings.csv").write_text(csv_report(summary))
    (out / "summary.md").write_text(markdown_report(summary))
    plot_path = out / "pairwise.png"
    if plot:
        try:
            plot_pairwise(summary, plot_path)
        except ImportError:
            print("matplotlib is not installed: no pairwise.png (pip install matplotlib)", file=sys.stderr)
    plot_png = plot_path.read_bytes() if plot and plot_path.exists() else None
    (out / "summary.html").write_text(html_report(summary, plot_png), encoding="utf-8")


def print_summary(summary: dict, file=None) -> None:
    file = file or sys.stdout  # looked up when called, so that a redirected stdout gets the summary
    rules, versions = rules_line(summary["spec"]), versions_line(summary["spec"])
    if rules:
        print(f"rules: {rules}", file=file)
    if versions:
        print(f"agents: {versions}", file=file)
    for p in summary["pairings"]:
        ci = p["points_per_deal_diff"]
        print(f"{p['a']} vs {p['b']}: {p['games']} games, {p['a']} wins {_fmt(p['win_rate_a'], 1, True)}, "
              f"points/deal {ci_text(ci)}", file=file)
    for label, a in summary["agents"].items():
        r = a["rating"]
        print(f"  {label}: OpenSkill mu {r['mu']:.2f} sigma {r['sigma']:.2f}", file=file)
