"""The README's quick start runs as written."""

import re
from pathlib import Path


def test_quick_start_snippet_runs(capsys):
    readme = (Path(__file__).resolve().parents[1] / "README.md").read_text()
    quick_start = readme.split("## Quick start", 1)[1]
    code = re.search(r"```python\n(.*?)```", quick_start, re.S).group(1)
    exec(compile(code, "README quick start", "exec"), {})
    assert "[" in capsys.readouterr().out  # it printed the final scores
