"""The generated documentation matches the code."""

from pathlib import Path

from spades_env.docs import observations_markdown


def test_observation_docs_are_current():
    path = Path(__file__).parent.parent / "docs" / "observations.md"
    assert path.read_text() == observations_markdown(), "run: python -m spades_env.docs > docs/observations.md"
