"""Every example of examples/ at the smoke size docs/rl_libraries.md gives for it: it trains, saves, scores the
saved file, sends no illegal action, and prints none of the library noise that spades_env/wrappers/quiet.py
silences. Each is skipped, with the reason, when its extra is not installed."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from rl_guard import EXAMPLES, engine_actions, example, one_torch_thread

ROOT = Path(__file__).resolve().parents[1]
LIBRARY = {"sb3_maskable_ppo": "sb3_contrib", "torchrl_ppo": "torchrl", "tianshou_ppo": "tianshou",
           "rllib_ppo": "ray.rllib", "rlcard_dqn": "rlcard"}
# --save given, and what is written: the sb3 example adds ".zip" to a name without a suffix, as model.save() does
SAVE_AS = {"sb3_maskable_ppo": ("policy", "policy.zip"), "torchrl_ppo": ("policy.ckpt", "policy.ckpt"),
           "tianshou_ppo": ("policy.pt", "policy.pt"), "rllib_ppo": ("checkpoint", "checkpoint"),
           "rlcard_dqn": ("dqn.pt", "dqn.pt")}
NOISE = ("tested using version", "Sequence has shape", "DeprecationWarning", "new API stack", "Install gputil",
         "Token authentication", "rl-loss", "Restoring model")


def smoke_commands() -> dict[str, list[str]]:
    """The arguments of each ``python examples/NAME.py ...`` line in docs/rl_libraries.md's smoke-size block."""
    text = (ROOT / "docs" / "rl_libraries.md").read_text()
    block = text.split("these smoke-size runs", 1)[1].split("```bash\n", 1)[1].split("```", 1)[0]
    commands = {}
    for line in block.splitlines():
        words = shlex.split(line)
        commands[Path(words[1]).stem] = words[2:]
    return commands


def test_every_example_has_a_smoke_command():
    assert set(smoke_commands()) == {p.stem for p in EXAMPLES.glob("*.py")} == set(LIBRARY)


@pytest.mark.parametrize("name", sorted(LIBRARY))
def test_example_runs_at_its_smoke_size(name, tmp_path, capfd):
    pytest.importorskip(LIBRARY[name], reason=f"the extra for {name} is not installed (docs/rl_libraries.md)")
    argv = [*smoke_commands()[name], "--save", str(tmp_path / SAVE_AS[name][0])]
    main = example(name)["main"]
    with one_torch_thread(), engine_actions() as counts:
        main(argv)
    out, err = capfd.readouterr()
    assert counts["illegal"] == 0 and counts["actions"] > 0
    assert (tmp_path / SAVE_AS[name][1]).exists()
    scored = re.findall(r"^policy vs (\w+): [-+]\d+\.\d points per deal \[.*\] over 10 duplicate boards \(20 games\)",
                        out, re.M)
    assert scored == ["heuristic", "random"]
    if name == "sb3_maskable_ppo":
        assert re.search(r"^updates: 1, last loss -?\d", out, re.M)  # 512 steps: one update, and its loss
    for noise in NOISE:
        assert noise not in out + err, f"{name} printed {noise!r}:\n{err[-2000:]}"


def test_the_score_lines_of_a_single_board():
    """--eval-games 2 scores one board, which has no interval: the examples' last lines still print."""
    from spades_env.agents.library import score_lines

    stats = {"points_per_deal_diff": {"mean": 12.5, "low": None, "high": None}, "boards": 1, "games": 2,
             "win_rate_a": 0.5}
    assert score_lines({"random": stats}) == ["policy vs random: +12.5 points per deal (one board: no interval) "
                                              "over 1 duplicate boards (2 games), win rate 50.0%"]
