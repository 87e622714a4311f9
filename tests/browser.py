"""Debian's Chromium through Selenium, headless: the browser of the browser tests (the replay page,
``spades serve``'s table).

Without a browser those tests skip, saying why; where the environment variable ``CI`` is set they fail
instead (``.ci/run`` installs ``chromium`` and ``chromium-driver``).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

CHROMIUM, CHROMEDRIVER = "/usr/bin/chromium", "/usr/bin/chromedriver"
# Headless, and quiet on the network: without the background-networking flags Chromium's own
# connections are refused on the test machines and it stalls.
CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync",
                  "--window-size=1500,900")


def no_browser(reason: str):
    if os.environ.get("CI"):
        pytest.fail(f"CI must run the browser tests, but {reason}")
    pytest.skip(reason)


def start_chromium(profile: Path):
    """A headless Chromium driven by Debian's chromedriver, its profile in ``profile`` (skips without one)."""
    try:
        from selenium import webdriver
        from selenium.common.exceptions import WebDriverException
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        no_browser("selenium is not installed (pip install -e '.[dev]')")
    for path in (CHROMIUM, CHROMEDRIVER):
        if not shutil.which(path):
            no_browser(f"{path} is missing (apt-get install chromium chromium-driver)")
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (*CHROMIUM_FLAGS, f"--user-data-dir={profile}"):
        options.add_argument(flag)
    try:  # the driver's path given: Selenium Manager is not asked to find (or download) one
        return webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)
    except WebDriverException as exc:
        no_browser(f"chromium did not start: {exc.msg}")
