"""The guards against regrowth run in CI: ruff with the project's rules (complexity and function length
included, see pyproject.toml)."""

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.skipif(shutil.which("ruff") is None, reason="ruff is not installed (it comes with the dev extra)")
def test_ruff_is_clean():
    result = subprocess.run(["ruff", "check", "--no-cache", "."], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
