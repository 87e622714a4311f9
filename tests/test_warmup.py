"""No silent waits: the first compile of a kernel group is announced (only on a cold cache), ``spades warmup``
compiles what play needs so that nothing compiles mid-hand, and ``spades play`` warms up before its first prompt."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap

from spades_env import SpadesConfig
from spades_env.agents import warmup
from spades_env.agents.match import play_game
from spades_env.agents.registry import make_agent
from spades_env.compiling import NOTICE, group_of

PROBE = '''
import sys
import spades_env.compiling as compiling
compiling.KERNEL_GROUPS += (("probe_kernels", "the probe", 3),)
compiling.install()
sys.path.insert(0, sys.argv[1])
import probe_kernels
print(probe_kernels.twice(21))
'''


def run_probe(folder, cache) -> subprocess.CompletedProcess:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache), "SPADES_COMPILE_NOTICE": "1"}
    return subprocess.run([sys.executable, "-c", PROBE, str(folder)], env=env, capture_output=True, text=True,
                          timeout=120)


def test_the_notice_comes_once_on_a_cold_cache_and_never_on_a_warm_one(tmp_path):
    (tmp_path / "probe_kernels.py").write_text(textwrap.dedent("""
        from numba import njit

        @njit(cache=True)
        def twice(x):
            return 2 * x
    """))
    cold = run_probe(tmp_path, tmp_path / "cache")
    assert cold.returncode == 0, cold.stderr
    assert cold.stdout.strip() == "42"
    assert cold.stderr.count("compiling the probe (about 3 s, once per install") == 1
    warm = run_probe(tmp_path, tmp_path / "cache")  # numba loads it from its cache: no compile, no notice
    assert warm.returncode == 0 and warm.stdout.strip() == "42"
    assert "compiling" not in warm.stderr


def test_kernel_groups_cover_the_compiled_modules():
    assert group_of("spades_env.solver.kernel") == ("the solver", 60)
    assert group_of("spades_env.agents.heuristic.play")[0] == "the heuristic"
    assert group_of("spades_env.vector.kernels")[0] == "the batched engine"
    assert group_of("spades_env.solverx") is None and group_of("spades_env.game") is None


def test_after_the_warmup_nothing_compiles_mid_hand():
    warmup.warm(["heuristic", "solver"])
    before = NOTICE.total()
    play_game([make_agent("search"), make_agent("heuristic")], seed=5,
              config=SpadesConfig(num_players=2, single_hand=True))
    play_game([make_agent("heuristic") for _ in range(4)], seed=6, config=SpadesConfig(single_hand=True))
    assert NOTICE.total() == before, NOTICE.compiled


def test_play_warms_up_the_parts_its_agents_use_before_the_first_prompt(tmp_path, monkeypatch):
    from spades_env.agents.play import cli

    calls = []
    monkeypatch.setattr("spades_env.agents.play.session.warm", lambda parts: calls.append(list(parts)))

    def read(prompt: str) -> str:
        assert calls, "a prompt came before the warm-up"
        raise EOFError

    cli.main(["--opponents", "search", "--seed", "1", "--save", str(tmp_path / "g.jsonl")], read=read,
             write=lambda text: None)
    assert calls == [["heuristic", "solver", "ppo"]]  # search is search-v6, which plays on the network
    assert warmup.parts_for(["heuristic", "ppo", "heuristic"]) == ["heuristic", "ppo"]
    assert warmup.parts_for(["search-v1"]) == ["heuristic", "solver"]
    assert warmup.parts_for(["search", "heuristic"]) == ["heuristic", "solver", "ppo"]  # search-v6: on the network
    assert warmup.parts_for(["search-v12"]) == ["heuristic", "solver", "ppo"]  # every version from search-v3 on
    assert warmup.parts_for(["search-v3"]) == ["heuristic", "solver", "ppo"]


def test_warmup_command_reports_each_part(capsys):
    assert warmup.main(["heuristic"]) == 0
    out = capsys.readouterr().out
    assert "the heuristic: " in out and "ready in" in out
    assert warmup.build_parser().parse_args([]).parts == []  # no part named: all of them
    try:
        warmup.main(["heuristics"])
    except SystemExit as exc:
        assert exc.code == 2
    assert "unknown part 'heuristics'; the parts are heuristic, solver, engine, ppo" in capsys.readouterr().err
