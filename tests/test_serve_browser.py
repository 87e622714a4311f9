"""``spades serve`` in a real browser (Debian's Chromium through Selenium, headless, as the replay page's
tests): single-hand games of both variants played through clicks only (a Blind Nil and its exchange, the
two-player replacements and the draw, an illegal card refused with its reason), the saved record replayed
through the engine, the analysis and the replay page at the end; a server restarted mid-hand and the game
resumed in the page; the table at a phone's width.

``SPADES_SERVE_SCREENSHOTS=DIR`` also saves the table, a hand's analysis and the end of a game there
(``docs/images/serve_*.png`` are made so).
"""

from __future__ import annotations

import os
import threading
import time
import urllib.request
from pathlib import Path

import pytest
from browser import start_chromium

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")

import uvicorn  # noqa: E402

from spades_env.agents.play.save import read_save, restore  # noqa: E402
from spades_env.agents.serve.app import create_app  # noqa: E402
from spades_env.records import replay_hand  # noqa: E402

SHOTS = os.environ.get("SPADES_SERVE_SCREENSHOTS")


class LiveServer:
    """The application served by uvicorn in a thread, on a free port of 127.0.0.1."""

    def __init__(self, folder: Path, agents: tuple[str, ...] = ("random", "heuristic"), nodes: int = 50_000) -> None:
        app = create_app(list(agents), folder, pace_ms=0, analysis_nodes=nodes)
        self.server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=0, log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> str:
        self.thread.start()
        deadline = time.monotonic() + 30
        while not self.server.started:
            assert time.monotonic() < deadline and self.thread.is_alive(), "the server did not start"
            time.sleep(0.02)
        port = self.server.servers[0].sockets[0].getsockname()[1]
        return f"http://127.0.0.1:{port}/"

    def __exit__(self, *exc) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=30)


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    driver = start_chromium(tmp_path_factory.mktemp("chromium-profile"))
    yield driver
    driver.quit()


def dataset(driver) -> dict:
    return driver.execute_script("return {...document.body.dataset}")


def wait_for(check, what: str, timeout: float = 30):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.03)
    raise AssertionError(f"timed out waiting for {what}")


def start_game(driver, url: str, num_players: int, seat: int, seed: int, partner: str = "random",
               opponents: str = "random", preset: str = "default") -> str:
    """Fill the lobby's form by clicks and start; returns the game's id."""
    from selenium.webdriver.support.ui import Select

    driver.get(url)
    wait_for(lambda: driver.find_elements("css selector", "#num-players option"), "the lobby")
    Select(driver.find_element("id", "num-players")).select_by_value(str(num_players))
    Select(driver.find_element("id", "seat")).select_by_value(str(seat))
    if num_players == 4:
        Select(driver.find_element("id", "partner")).select_by_value(partner)
        Select(driver.find_element("id", "opponent-2")).select_by_value(opponents)
    Select(driver.find_element("id", "opponent-1")).select_by_value(opponents)
    Select(driver.find_element("id", "mode")).select_by_value("hand")
    Select(driver.find_element("id", "preset")).select_by_value(preset)
    driver.find_element("id", "seed").send_keys(str(seed))
    driver.find_element("id", "start").click()
    wait_for(lambda: "game=" in driver.current_url, "the game to open")
    return driver.current_url.split("game=")[1]


class Player:
    """Plays the person's seat by clicking: Blind Nil or look, bid 3, the first legal card (once an illegal
    card first, whose refusal must show), keep, one replacement then done."""

    def __init__(self, driver, blind: bool) -> None:
        self.driver, self.blind = driver, blind
        self.refused = self.replaced = False
        self.clicks = 0

    def click(self, css: str) -> None:
        self.driver.find_element("css selector", css).click()
        self.clicks += 1

    def decide(self, phase: str) -> None:
        cards = self.driver.find_elements("css selector", "#my-hand .card.illegal")
        if phase == "blind":
            self.click("#blind-nil" if self.blind else "#look")
        elif phase == "bid":
            buttons = self.driver.find_elements("css selector", "#bid-3")
            self.click("#bid-3" if buttons else "#buttons button.action")
        elif phase == "draw":
            self.click("#keep")
        elif phase == "replace" and self.replaced:
            self.click("#done")
        elif phase == "play" and cards and not self.refused:
            self.refuse(cards[0])
        else:
            self.replaced = phase == "replace"
            self.click("#my-hand .card.legal")

    def refuse(self, card) -> None:
        """An illegal card is shown as such, and clicking it is refused with the reason; nothing moves."""
        seq = dataset(self.driver)["seq"]
        card.click()
        reason = wait_for(lambda: self.driver.find_element("id", "refusal").text, "the refusal")
        assert "must follow suit" in reason or "not broken" in reason, reason
        assert dataset(self.driver)["seq"] == seq
        self.refused = True

    def play(self, until_seq: int | None = None) -> None:
        """Click until the game is over (or the page shows move ``until_seq``)."""
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            shown = dataset(self.driver)
            if shown.get("over") == "1" or (until_seq is not None and int(shown.get("seq", 0)) >= until_seq):
                return
            if shown.get("yourTurn") == "1":
                self.decide(shown["phase"])
                seq = shown["seq"]
                wait_for(lambda: dataset(self.driver)["seq"] != seq  # noqa: B023 (called before the next loop)
                         or self.driver.find_element("id", "refusal").text, "the move to show")
            else:
                time.sleep(0.03)
        raise AssertionError("the game did not end")


def check_record(folder: Path, game_id: str, seat: int) -> dict:
    """The save rebuilds the game and its hand record replays through the engine."""
    setup, moves = read_save(str(folder / f"{game_id}.jsonl"))
    game = restore(setup, moves)
    assert game.game_over and setup.seat == seat
    (record,) = game.hand_records
    assert replay_hand(record, setup.spades_config()) == record
    return record


@pytest.mark.parametrize(("num_players", "seat", "blind"), [(4, 0, True), (2, 0, True), (2, 1, False)])
def test_a_single_hand_through_clicks_only(browser, tmp_path, num_players, seat, blind):
    with LiveServer(tmp_path) as url:
        game_id = start_game(browser, url, num_players, seat, seed=3)
        info = browser.find_element("id", "info").text
        assert "random (random-v1)" in info and "default rules" in info  # the agents' names and versions
        player = Player(browser, blind)
        player.play()
        assert player.refused or num_players == 2
        record = check_record(tmp_path, game_id, seat)
        assert record["blind_nil"][seat] == blind
        if num_players == 4:  # the Blind Nil exchange: the partner passed three cards, the person three back
            assert [g for g, _, _ in record["passes"]].count(seat) == 3
        elif blind:
            assert [p for p, _, _ in record["replacements"]].count(seat) == 1  # one card put back, then done
        else:
            assert len(record["discards"][seat]) >= 13 - 1  # the person saw a discard at each draw

        assert browser.find_element("id", "prompt").text.startswith("Game over after 1 hand")
        analysis = wait_for(lambda: browser.find_elements("id", "par"), "the analysis")[0]
        assert "Par with every hand open" in analysis.text
        replay = browser.find_element("id", "replay-link").get_attribute("href")
        with urllib.request.urlopen(replay, timeout=10) as page:
            assert 'id="game-data"' in page.read().decode()


def test_a_restart_mid_hand_and_the_game_resumed_in_the_page(browser, tmp_path):
    with LiveServer(tmp_path) as url:
        game_id = start_game(browser, url, 4, 2, seed=9)
        player = Player(browser, blind=False)
        player.play(until_seq=20)
        before = read_save(str(tmp_path / f"{game_id}.jsonl"))[1]
    assert 20 <= len(before) < 52  # killed mid-hand: the server is gone
    with LiveServer(tmp_path) as url:  # another port: the page has no token there and takes the seat
        browser.get(f"{url}#game={game_id}")
        wait_for(lambda: dataset(browser).get("seq") == str(len(before)) or dataset(browser).get("yourTurn") == "1",
                 "the saved game")
        player.play()
    record = check_record(tmp_path, game_id, 2)
    after = read_save(str(tmp_path / f"{game_id}.jsonl"))[1]
    assert after[:len(before)] == before and [list(m) for m in after] == record["actions"]


def test_the_table_fits_a_phone(browser, tmp_path):
    with LiveServer(tmp_path) as url:
        start_game(browser, url, 4, 2, seed=4)
        wait_for(lambda: dataset(browser).get("yourTurn") == "1", "the person's turn")
        browser.set_window_size(390, 844)
        try:
            width = browser.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
            assert width[0] <= width[1], width
            assert all(b.is_displayed() for b in browser.find_elements("css selector", "#buttons button"))
        finally:
            browser.set_window_size(1500, 900)


@pytest.mark.skipif(not SHOTS, reason="set SPADES_SERVE_SCREENSHOTS=DIR to write the docs' screenshots")
def test_screenshots_for_the_docs(browser, tmp_path):
    """The table in the middle of a trick, a hand's analysis and the end of the game, with the heuristic, under
    the house rule (no Blind Nil at 0-0: the par of a hand without Blind Nil is solved in a second)."""
    folder = Path(SHOTS)
    with LiveServer(tmp_path, ("heuristic", "random"), nodes=200_000) as url:
        start_game(browser, url, 4, 2, seed=15, partner="heuristic", opponents="heuristic", preset="house")
        player = Player(browser, blind=False)
        player.refused = True
        while True:  # to the person's turn after three tricks with cards on the table
            player.play(until_seq=int(dataset(browser)["seq"]) + 1)
            shown = dataset(browser)
            if shown["phase"] == "play" and int(shown["seq"]) > 26 and shown["yourTurn"] == "1" \
                    and browser.find_elements("css selector", "#trick .card"):
                break
        browser.save_screenshot(str(folder / "serve_table.png"))
        player.play()
        wait_for(lambda: browser.find_elements("id", "par"), "the analysis")
        browser.set_window_size(1500, 1300)
        try:
            browser.find_element("id", "analysis").screenshot(str(folder / "serve_analysis.png"))
            browser.save_screenshot(str(folder / "serve_end.png"))
        finally:
            browser.set_window_size(1500, 900)
