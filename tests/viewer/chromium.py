"""Debian's Chromium, headless, driven by its matching chromedriver: the one way the
viewer's tests open a browser (Playwright's own download fails on these machines)."""

from __future__ import annotations

import shutil
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service


def start_chromium(profile: Path, size: tuple[int, int]) -> webdriver.Chrome:
    """A browser whose profile is ``profile`` (the test's own folder: the machine is
    shared), its window ``size``, keeping the page's console for the tests to read."""
    found = shutil.which("chromedriver"), shutil.which("chromium")
    assert all(found), "the viewer's tests need chromium and chromium-driver (apt-get)"
    options = webdriver.ChromeOptions()
    options.binary_location = str(found[1])
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={profile}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(str(found[0])), options=options)
    driver.set_window_size(*size)
    return driver
