"""Whole seeded games replayed against their golden transcripts (see spades_env/playthrough.py),
and the command line that checks or rewrites them."""

import shutil

import pytest

from spades_env.playthrough import CASES, folder, main, transcript


@pytest.mark.parametrize("name", sorted(CASES))
def test_playthrough_matches_golden_transcript(name):
    expected = (folder() / name).read_text()
    assert transcript(**CASES[name]) == expected, "regenerate with python -m spades_env.playthrough if intended"


def golden_files() -> dict[str, str]:
    return {name: (folder() / name).read_text() for name in CASES}


def test_help_prints_usage_and_writes_nothing(capsys):
    before = golden_files()
    with pytest.raises(SystemExit) as exit_info:
        main(["--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    assert "usage: python -m spades_env.playthrough" in out and "--check" in out and "--out" in out
    assert golden_files() == before


def test_out_writes_the_transcripts_elsewhere_and_check_accepts_them(tmp_path):
    assert main(["--out", str(tmp_path)]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(CASES)
    assert {p.name: p.read_text() for p in tmp_path.iterdir()} == golden_files()
    assert main(["--check", "--out", str(tmp_path)]) == 0


def test_check_reports_a_changed_or_missing_file_and_writes_nothing(tmp_path, capsys):
    shutil.copytree(folder(), tmp_path, dirs_exist_ok=True)
    changed, missing = sorted(CASES)[:2]
    (tmp_path / changed).write_text((tmp_path / changed).read_text().replace("player_0", "player_9", 1))
    (tmp_path / missing).unlink()
    assert main(["--check", "--out", str(tmp_path)]) == 1
    err = capsys.readouterr().err
    assert f"{changed}: differs" in err and "player_9" in err and f"{missing}: missing" in err
    assert not (tmp_path / missing).exists()  # --check wrote nothing
    assert "player_9" in (tmp_path / changed).read_text()
