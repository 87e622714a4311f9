"""``spades replay FILE --html OUT.html`` and the tournament's pages: one self-contained file per game,
made from every kind of record file; in a real browser (Debian's ``chromium`` and ``chromium-driver``
through Selenium, headless) the keyboard steps through whole hands of both variants and the cards shown
are checked against the records at every step.

Without a browser the browser tests skip, saying why; where the environment variable ``CI`` is set they
fail instead (``.ci/run`` installs the browser). ``SPADES_VIEWER_SCREENSHOT=PATH`` also saves the
four-player screenshot there (``docs/images/viewer.png`` is made so).
"""

from __future__ import annotations

import json
import os
import re
import shutil
from collections import Counter
from pathlib import Path

import pytest
from browser import start_chromium

from spades_env.agents import make_agent
from spades_env.agents.match import play_game
from spades_env.agents.play.save import PLAY_SAVE_FORMAT
from spades_env.agents.replay import final_text, load_games, main, playing_hands
from spades_env.agents.replay_html import game_page, game_view
from spades_env.agents.tournament import TournamentSpec, run_tournament
from spades_env.cards import CARD_NAMES, RANKS, cards_of
from spades_env.game import SpadesConfig
from spades_env.records import game_record, write_games
from spades_env.render_rgb import display_order


def recorded_game(num_players: int, wanted: str) -> dict:
    """A game of random agents (several hands) whose first hand has ``wanted`` (passes / replacements)."""
    config = SpadesConfig(num_players=num_players, max_hands=3)
    for seed in range(300):
        game = play_game([make_agent("random") for _ in range(num_players)], seed=seed, config=config,
                         agent_seeds=list(range(num_players)))
        record = game_record(game, seed)
        if record["hands"][0][wanted] and len(record["hands"]) > 1:
            record["seats"] = ["random"] * num_players
            return record
    raise AssertionError(f"no {num_players}-player game with {wanted} in its first hand in 300 seeds")


@pytest.fixture(scope="module")
def records() -> dict[int, dict]:
    return {4: recorded_game(4, "passes"), 2: recorded_game(2, "replacements")}


def page_file(tmp_path: Path, record: dict, name: str = "game") -> Path:
    source = tmp_path / f"{name}.jsonl"
    write_games(source, [record])
    out = tmp_path / f"{name}.html"
    assert main([str(source), "--html", str(out)], write=lambda text: None) == 0
    return out


def data_of(page: str) -> dict:
    return json.loads(re.search(r'<script type="application/json" id="game-data">(.*?)</script>', page, re.S).group(1))


# ------------------------------------------------------------------ the file, no browser


def test_the_page_is_one_self_contained_file(records, tmp_path):
    page = page_file(tmp_path, records[4]).read_text()
    assert "<script src" not in page and "<link" not in page and "@import" not in page and "url(" not in page
    assert set(re.findall(r"https?://[^\s\"'<>]+", page)) == {"http://www.w3.org/2000/svg"}  # a namespace name only
    games = load_games(str(tmp_path / "game.jsonl"))
    assert data_of(page) == game_view(games[0])


def test_the_data_cannot_close_its_script_block(records):
    record = json.loads(json.dumps(records[4]))
    record["seats"][0] = "</script><script>alert(1)</script>"
    games_page = game_page(load_games_from(record))
    assert games_page.count("</script>") == 2  # the data block's and the viewer's, nothing from the data
    assert data_of(games_page)["hands"][0]["labels"][0].startswith("North (</script>")


def load_games_from(record: dict):
    from spades_env.agents.replay import RecordedGame

    return RecordedGame.of_record(record, 1)


def test_pages_from_a_tournament_a_play_save_and_hand_records(tmp_path, records):
    spec = TournamentSpec(agents=("random", "heuristic"), games=2, seed=5, single_hand=True)
    summary = run_tournament(spec, tmp_path / "t", workers=1, progress=False, plot=True, html_games=True)
    pages = sorted((tmp_path / "t" / "games").glob("game_*.html"))
    assert [p.name for p in pages] == ["game_00000.html", "game_00001.html"]
    tournament = [json.loads(line) for line in (tmp_path / "t" / "games.jsonl").read_text().splitlines()]
    for page, record in zip(pages, sorted(tournament, key=lambda r: r["index"])):
        view = data_of(page.read_text())
        assert view["hands"][0]["plays"] == record["hands"][0]["plays"]
        assert view["hands"][0]["labels"][0] == f"North ({record['seats'][0]})"
    index = (tmp_path / "t" / "games" / "index.html").read_text()
    assert all(f'href="{p.name}"' in index for p in pages)
    html_summary = (tmp_path / "t" / "summary.html").read_text()
    assert 'src="data:image/png;base64,' in html_summary and "<table>" in html_summary
    assert f"{summary['games_played']} of {summary['games_planned']} games played." in html_summary

    # A 'spades play' save: a header, then action and hand lines; the page shows the completed hands.
    record = records[2]
    save = tmp_path / "play.jsonl"
    lines = [{"type": "header", "format": PLAY_SAVE_FORMAT, "seat": 0, "agents": ["human", "random"], "seed": 1,
              "config": SpadesConfig(num_players=2).to_dict()}]
    lines += [{"type": "hand", "record": hand} for hand in record["hands"][:2]] + [{"type": "action"}]
    save.write_text("".join(json.dumps(line) + "\n" for line in lines))
    out = tmp_path / "play.html"
    assert main([str(save), "--html", str(out)], write=lambda text: None) == 0
    view = data_of(out.read_text())
    assert len(view["hands"]) == 2 and view["hands"][0]["labels"] == ["South (human)", "North (random)"]
    assert "the save stops in the middle of hand 3" in view["note"]

    out = tmp_path / "from_hand_2.html"  # --hand: the hand the page opens at
    assert main([str(save), "--hand", "2", "--html", str(out)], write=lambda text: None) == 0
    assert data_of(out.read_text())["start"] == 1

    # Bare hand records, one per line.
    hands = tmp_path / "hands.jsonl"
    hands.write_text("".join(json.dumps(h) + "\n" for h in records[4]["hands"]))
    assert main([str(hands), "--html", str(tmp_path / "hands.html")], write=lambda text: None) == 0
    assert len(data_of((tmp_path / "hands.html").read_text())["hands"]) == len(records[4]["hands"])


def test_a_page_that_cannot_be_written_is_an_error(records, tmp_path, capsys):
    source = tmp_path / "game.jsonl"
    write_games(source, [records[4]])
    (tmp_path / "taken").write_text("a file, not a folder")
    assert main([str(source), "--html", str(tmp_path / "taken" / "x.html")], write=lambda text: None) == 2
    assert "spades replay:" in capsys.readouterr().err


# ------------------------------------------------------------------------- browser


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    driver = start_chromium(tmp_path_factory.mktemp("chromium-profile"))
    yield driver
    driver.quit()


# One call per step reads what the page shows: the cards of each hand (card, rank and suit drawn, and
# whether it has a size on the screen), the trick, the labels and the breakdown.
SNAPSHOT = """
const card = (c) => { const r = c.getBoundingClientRect();
  return [c.dataset.card, c.querySelector('.rank').textContent, c.querySelector('use').getAttribute('href'),
          r.width > 0 && r.height > 0]; };
const seats = [...document.querySelectorAll('#table .seat')];
const text = (id) => (document.getElementById(id) || {}).textContent;
const breakdown = document.getElementById('breakdown');
return {hand: Number(document.body.dataset.hand), step: Number(document.body.dataset.step),
  hands: seats.map((s, p) => [...document.getElementById('hand-' + p).querySelectorAll('.card')].map(card)),
  trick: [...document.querySelectorAll('#trick .card')].map((c) => [Number(c.dataset.seat), ...card(c),
          c.classList.contains('winner')]),
  tricks: seats.map((s, p) => text('tricks-' + p)), bids: seats.map((s, p) => text('bid-' + p)),
  to_act: seats.findIndex((s) => s.classList.contains('to-act')),
  breakdown: breakdown ? [...breakdown.querySelectorAll('tr')].map((r) => [...r.cells].map((c) => c.textContent))
                       : null};
"""


def press(driver, key: str, times: int = 1) -> dict:
    from selenium.webdriver.common.action_chains import ActionChains

    for _ in range(times):
        ActionChains(driver).send_keys(key).perform()
    return driver.execute_script(SNAPSHOT)


def shown_card(card: str) -> list:
    return [card, "10" if card[0] == "T" else card[0], f"#suit-{card[1]}", True]


def check_step(shown: dict, record: dict, step: int) -> None:
    """What the page shows after ``step`` cards of the hand: each hand, the trick, tricks taken, bids."""
    n = record["num_players"]
    plays = record["plays"]
    gone = {card for _, card in plays[:step]}
    for p, mask in enumerate(playing_hands(record)):
        held = [CARD_NAMES[c] for c in display_order(cards_of(mask)) if CARD_NAMES[c] not in gone]
        assert shown["hands"][p] == [shown_card(c) for c in held], (step, p)
    trick = [] if step == 0 else plays[(step - 1) // n * n:step]
    winner = record["trick_winners"][step // n - 1] if step and step % n == 0 else None
    assert shown["trick"] == [[p, *shown_card(c), p == winner] for p, c in trick], step
    taken = Counter(record["trick_winners"][:step // n])
    assert shown["tricks"] == [f"tricks {taken[p]}" for p in range(n)]
    bids = ["Blind Nil" if blind else "Nil" if b == 0 else str(b) for b, blind in zip(record["bids"],
                                                                                    record["blind_nil"])]
    assert shown["bids"] == [f"bid {b}" for b in bids]
    assert shown["to_act"] == (plays[step][0] if step < len(plays) else -1)


@pytest.mark.parametrize("num_players", [4, 2])
def test_the_keyboard_steps_through_a_whole_hand_and_the_cards_match_the_record(
        browser, records, tmp_path, num_players):
    from selenium.webdriver.common.keys import Keys

    record = records[num_players]
    first, second = record["hands"][:2]
    browser.get(page_file(tmp_path, record).as_uri())
    shown = browser.execute_script(SNAPSHOT)
    assert (shown["hand"], shown["step"]) == (0, 0)
    check_step(shown, first, 0)
    assert shown["breakdown"] is None  # the score shows after the last trick
    for step in range(1, len(first["plays"]) + 1):
        shown = press(browser, Keys.ARROW_RIGHT)
        assert (shown["hand"], shown["step"]) == (0, step)
        check_step(shown, first, step)
        if step == 3 * num_players + 2 and num_players == 4:
            screenshot(browser, tmp_path)
    points = next(row for row in shown["breakdown"] if row[0] == "hand points")
    assert points[1:] == [f"{side['total']:+d}" for side in first["sides"]]
    assert next(row for row in shown["breakdown"] if row[0] == "score after")[1:] == [str(s) for s in first["scores"]]

    shown = press(browser, Keys.ARROW_RIGHT)  # on to the next hand's deal
    assert (shown["hand"], shown["step"]) == (1, 0)
    check_step(shown, second, 0)
    assert press(browser, Keys.ARROW_LEFT)["step"] == len(first["plays"])  # and back
    assert press(browser, Keys.PAGE_UP)["step"] == 0
    shown = press(browser, Keys.ARROW_DOWN, 2)  # two tricks on
    assert (shown["hand"], shown["step"]) == (0, 2 * num_players)
    check_step(shown, first, 2 * num_players)
    press(browser, Keys.ARROW_RIGHT)
    assert press(browser, Keys.ARROW_UP)["step"] == 2 * num_players  # back to the last complete trick
    assert press(browser, Keys.PAGE_DOWN)["hand"] == 1
    shown = press(browser, Keys.END)
    assert (shown["hand"], shown["step"]) == (len(record["hands"]) - 1, len(record["hands"][-1]["plays"]))
    assert browser.find_element("id", "final").text == final_text(record["hands"][-1]).strip()
    assert press(browser, Keys.HOME)["hand"] == 0


def screenshot(driver, tmp_path: Path) -> None:
    path = tmp_path / "viewer.png"
    assert driver.save_screenshot(str(path)) and path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    if os.environ.get("SPADES_VIEWER_SCREENSHOT"):
        shutil.copy(path, os.environ["SPADES_VIEWER_SCREENSHOT"])


def test_buttons_and_the_analysis_of_a_hand(browser, records, tmp_path):
    record = json.loads(json.dumps(records[4]))
    play = record["hands"][0]["plays"][5]
    record["hands"][0]["analysis"] = {"double-dummy tricks": [7, 6], "par": [71, -40],
                                      "costly plays": [{"play": 5, "seat": play[0], "card": play[1], "cost": 10}]}
    browser.get(page_file(tmp_path, record).as_uri())
    analysis = browser.find_element("id", "analysis")
    assert "Double-dummy analysis" in analysis.text and "par: 71, -40" in analysis.text
    for _ in range(6):
        browser.find_element("id", "next-card").click()
    marked = browser.find_elements("css selector", "#analysis tr.current")
    assert [row.text.split() for row in marked] == [["5", str(play[0]), play[1], "10"]]
    browser.find_element("id", "prev-card").click()
    assert not browser.find_elements("css selector", "#analysis tr.current")
    browser.find_element("id", "next-hand").click()
    assert browser.execute_script("return document.body.dataset.hand") == "1"
    assert browser.find_element("id", "analysis").text == ""  # the second hand has none
    assert browser.find_element("id", "prev-hand").is_enabled()


def test_the_summary_page_shows_its_embedded_plot(browser, tmp_path):
    spec = TournamentSpec(agents=("random", "heuristic"), games=2, seed=1, single_hand=True)
    run_tournament(spec, tmp_path, workers=1, progress=False, plot=True)
    browser.get((tmp_path / "summary.html").as_uri())
    assert browser.execute_script("return document.getElementById('pairwise').naturalWidth") > 100
    assert "Results" in browser.find_element("tag name", "body").text


def test_rank_letters_cover_every_rank():
    assert {shown_card(r + "S")[1] for r in RANKS} == {*"23456789", "10", *"JQKA"}
