#!/usr/bin/env python3
"""The live view's latency: a tournament of TABLES matches in parallel (builtin bots,
4-player Maraffa to 21 at --ui-pace PACE), its live page open in headless Chromium;
for every move the page received, the time from the referee applying it (``at`` in
the event) to the page receiving it (the page's clock; the same machine). Prints the
median, 95th percentile and largest delay as JSON (docs/viewer.md#live).

    .venv/bin/python scripts/live_latency.py --tables 8
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

CONFIG = """
name = "latency"
game = "maraffa"
players = 4
deals = {deals}
concurrency = {tables}
options = {{ target = 21 }}
[time]
move = 5.0
bank = 60.0
[[entrants]]
name = "heuristic"
bot = "builtin:heuristic"
[[entrants]]
name = "random"
bot = "builtin:random"
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=8)
    parser.add_argument("--pace", type=float, default=0.05, help="seconds after each move")
    args = parser.parse_args()
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    from selenium.webdriver.support.ui import WebDriverWait

    folder = Path(tempfile.mkdtemp(prefix="mazzo-latency-"))
    config = folder / "latency.toml"
    # duplicate deals: 2 matches a deal, so tables / 2 deals keep every table busy
    config.write_text(CONFIG.format(deals=max(1, args.tables // 2), tables=args.tables))
    command = [sys.executable, "-m", "mazzo.cli", "tournament", str(config)]
    command += ["--records", str(folder / "r.jsonl"), "--ui", "0", "--ui-pace", str(args.pace)]
    command += ["--ui-linger", "600", "--no-progress"]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    options = webdriver.ChromeOptions()
    options.binary_location = str(shutil.which("chromium"))
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={folder / 'chromium'}")
    driver = webdriver.Chrome(service=Service(str(shutil.which("chromedriver"))), options=options)
    try:
        assert process.stdout is not None
        url = process.stdout.readline().strip().removeprefix("live view: ")
        started = time.perf_counter()
        driver.get(url)
        WebDriverWait(driver, 900, 0.5).until(
            lambda d: "the event is over" in d.find_element("id", "progress-text").text
        )
        seconds = time.perf_counter() - started
        delays: list[float] = driver.execute_script("return window.mazzoLive.latencies")
        snapshots = driver.execute_script("return window.mazzoLive.snapshots")
    finally:
        driver.quit()
        process.terminate()
        process.wait(10)
        shutil.rmtree(folder, ignore_errors=True)
    delays.sort()
    print(
        json.dumps(
            {
                "tables": args.tables,
                "pace_s": args.pace,
                "moves": len(delays),
                "seconds": round(seconds, 1),
                "snapshots": snapshots,
                "median_ms": round(statistics.median(delays), 1),
                "p95_ms": round(delays[int(0.95 * (len(delays) - 1))], 1),
                "max_ms": round(delays[-1], 1),
            }
        )
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
