"""Whole seeded games replayed against their golden transcripts (see spades_env/playthrough.py)."""

import pytest

from spades_env.playthrough import CASES, folder, transcript


@pytest.mark.parametrize("name", sorted(CASES))
def test_playthrough_matches_golden_transcript(name):
    expected = (folder() / name).read_text()
    assert transcript(**CASES[name]) == expected, "regenerate with python -m spades_env.playthrough if intended"
