"""The README is a front page: its three commands are the ones CI runs, its quick start runs as
written, it stays short, and its headline figures are the ones the docs give in full."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text()
SETUP = ('python3 -m venv .venv && . .venv/bin/activate && pip install torch==2.13.0 && pip install -e ".[dev]" '
         '&& spades warmup')
MAIN_JOB = "spades tournament --agents heuristic random --games 200 --seed 1 --out results/quickstart"
TESTS = "python -m pytest -q -x"


def test_the_three_commands_come_first_and_ci_runs_the_same():
    first_block = re.search(r"```bash\n(.*?)```", README, re.S).group(1)
    commands = [line for line in first_block.splitlines() if line and not line.startswith("#")]
    assert commands == [SETUP, MAIN_JOB, TESTS]
    assert README.index("```bash") < README.index("## ")  # before any section
    ci = (ROOT / ".ci" / "run").read_text()
    for step in ("python3 -m venv .venv", ". .venv/bin/activate", "pip install -q torch==2.13.0",
                 'pip install -q -e ".[dev]"', "spades warmup", TESTS):
        assert step in ci, f".ci/run does not run {step!r}"


def test_quick_start_snippet_runs(capsys):
    quick_start = README.split("## Quick start", 1)[1]
    code = re.search(r"```python\n(.*?)```", quick_start, re.S).group(1)
    exec(compile(code, "README quick start", "exec"), {})
    assert "[" in capsys.readouterr().out  # it printed the final scores


def test_the_readme_is_a_front_page():
    assert len(README.splitlines()) <= 220, "reference material belongs in docs/ (see docs/README.md)"
    for page in ("environment", "rules", "agents", "tournaments", "training", "rl_libraries", "batched_engine",
                 "speed", "results", "README"):
        assert f"(docs/{page}.md)" in README, f"the README should link docs/{page}.md"


def test_headline_figures_are_given_in_full_in_the_docs():
    headline = README.split("## Headline figures", 1)[1].split("\n## ", 1)[0]
    docs = "".join(p.read_text() for p in sorted((ROOT / "docs").glob("*.md")))
    figures = set(re.findall(r"[+−]?\d[\d,]*\.\d+[Mx]?", headline))
    assert len(figures) >= 10
    missing = sorted(f for f in figures if f not in docs)
    assert not missing, f"README figures not found in docs/: {missing}"
