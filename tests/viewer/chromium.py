"""Debian's Chromium, headless, driven by its matching chromedriver: the one way the
viewer's tests open a browser (Playwright's own download fails on these machines)."""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path

from selenium import webdriver
from selenium.webdriver.chrome.service import Service

ROOT = Path(__file__).resolve().parents[2]
#: Where the screenshots go (CI keeps them).
ARTIFACTS = Path(os.environ.get("MAZZO_ARTIFACTS", ROOT / "build" / "artifacts")) / "viewer"
#: The issue's two screens: a desktop window and a phone's.
DESKTOP, PHONE = (1280, 900), (390, 844)


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


def shoot(driver: webdriver.Chrome, name: str) -> None:
    """Screenshots of the page on a phone and on a desktop (``ARTIFACTS/NAME-*.png``),
    checking at each that nothing is wider than the screen."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    for size, label in ((PHONE, "phone"), (DESKTOP, "desktop")):
        driver.set_window_size(*size)
        time.sleep(0.2)  # the page lays itself out again
        driver.save_screenshot(str(ARTIFACTS / f"{name}-{label}.png"))
        wide = driver.execute_script("return document.documentElement.scrollWidth")
        assert wide <= size[0] + 1, (label, wide)
