"""The replay page with ``spades analyze``'s marks, in headless Chromium: each costly card shows, as it is
played, how much it lost and the best cards. ``SPADES_DOCS_SCREENSHOTS=docs/images`` writes the screenshot
that docs/viewer.md shows."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from browser import start_chromium

from spades_env.agents.replay import main as replay_main
from spades_env.agents.tournament import main as tournament_main


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    driver = start_chromium(tmp_path_factory.mktemp("chromium-profile"))
    yield driver
    driver.quit()


def test_costly_cards_are_marked_as_they_are_played(browser, tmp_path):
    out = tmp_path / "t"
    assert tournament_main(["--agents", "heuristic", "random", "--games", "2", "--single-hand", "--seed", "4",
                            "--out", str(out), "--workers", "1", "--no-progress", "--no-plot"]) == 0
    page = tmp_path / "game.html"
    assert replay_main([str(out / "games.jsonl"), "--game", "2", "--html", str(page), "--analyze"],
                       write=lambda text: None) == 0
    data = json.loads(page.read_text().split('id="game-data">', 1)[1].split("</script>", 1)[0])
    costly = data["hands"][0]["costly"]
    assert costly, "random play in a whole hand makes some costly plays"
    play, cost = max(costly.items(), key=lambda item: item[1]["loss"])
    browser.get(page.as_uri())
    for _ in range(int(play) + 1):
        browser.find_element("id", "next-card").click()
    card = data["hands"][0]["plays"][int(play)][1]
    marked = browser.find_elements("css selector", "#trick .card.costly")
    assert [m.get_attribute("data-card") for m in marked] == [card]
    badge = browser.find_element("css selector", "#trick .loss").text
    assert badge == f"−{cost['loss']} (best {' '.join(cost['best'])})"
    assert browser.find_elements("css selector", "#analysis tr.current")  # the analysis row of that card
    browser.find_element("id", "prev-card").click()
    assert not browser.find_elements("css selector", "#trick .card.costly")  # not played yet
    browser.find_element("id", "next-card").click()
    folder = os.environ.get("SPADES_DOCS_SCREENSHOTS")
    if folder:
        assert browser.save_screenshot(str(Path(folder) / "replay_analysis.png"))
