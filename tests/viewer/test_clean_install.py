"""The issue's "clean venv with no Node" check (issue 35 item 4): the package, built and
installed as a user would on a machine without Node, serves the working viewer.

How isolated it is, honestly:

- **The build** sees only what git would commit: the tracked files and new ones not
  ignored, copied to a folder of the test's own. No git-ignored file of this checkout
  reaches the wheel: not the generated protobuf code (the build generates its own), not
  a compiled extension, not a script some earlier build left in ``static/``. That copy
  is installed by ``pip install .`` (which builds the wheel by the same PEP 517 hook as
  ``python -m build``) with a ``PATH`` holding nothing (no ``node``, ``npm``, ``tsc``,
  nor a C compiler), ``MAZZO_PURE=1`` (pure Python: compiling would take a minute and is
  not what is tested), and ``--no-build-isolation --no-index``: the build requirements
  are the test venv's, at their pins, and the test needs no network.
- **The install** is into a folder of the test's own (``--no-deps --target``), not a
  fresh venv: the dependencies (grpcio, starlette, ...) are the test venv's,
  named on ``PYTHONPATH`` after that folder, because installing them from an index
  would need the network and test pip rather than the package. What keeps this
  checkout out is ``python -S``: site-packages' ``.pth`` files are not read, so the
  editable install of this checkout (a ``.pth`` naming ``server/``) is not on the path;
  the test checks that ``mazzo`` is imported from the install folder.
- **The run**: the installed ``mazzo`` script (``view``), with the same empty ``PATH``;
  headless Chromium opens the replay, the board of the deal shows every card the
  rules dealt face up, nothing is logged as an error, and the screenshot is saved in
  the test's folder (and ``$MAZZO_ARTIFACTS/viewer/clean-install.png``).
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
import sysconfig
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait

from mazzo.referee.match import MatchSpec, options_json, run_match
from mazzo.viewer.frames import frames_of

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = Path(os.environ.get("MAZZO_ARTIFACTS", ROOT / "build" / "artifacts")) / "viewer"
STATIC = ROOT / "server" / "mazzo" / "viewer" / "static"

#: Every card face on the board, and the frame shown.
BOARD = """
return {index: document.body.dataset.index,
        faces: [...document.querySelectorAll('#board [data-card]')].map(c => c.dataset.card)};
"""


def committed_copy(dest: Path) -> None:
    """The files git would commit (tracked, and new ones not ignored), as they are now."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.decode()
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file():  # a file deleted and not yet staged is not there
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dest / name)


def pip(*args: str, env: dict[str, str]) -> None:
    command = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q", *args]
    done = subprocess.run(command, env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]


@pytest.fixture
def chromium(tmp_path: Path) -> Iterator[webdriver.Chrome]:
    found = shutil.which("chromedriver"), shutil.which("chromium")
    assert all(found), "the viewer's tests need chromium and chromium-driver (apt-get)"
    options = webdriver.ChromeOptions()
    options.binary_location = str(found[1])
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(flag)
    options.add_argument(f"--user-data-dir={tmp_path / 'chromium'}")
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(str(found[0])), options=options)
    driver.set_window_size(1280, 900)
    try:
        yield driver
    finally:
        driver.quit()


def test_a_clean_install_without_node_serves_the_working_viewer(
    tmp_path: Path, chromium: webdriver.Chrome
) -> None:
    empty = tmp_path / "bin"  # the PATH: no node, npm, tsc or C compiler
    empty.mkdir()
    bare = {"HOME": str(tmp_path), "PATH": str(empty), "MAZZO_PURE": "1", "LANG": "C.UTF-8"}
    assert shutil.which("node", path=bare["PATH"]) is None
    source, site = tmp_path / "src", tmp_path / "site"
    committed_copy(source)
    assert not (source / "server" / "mazzo" / "v1").exists()  # generated: never committed
    # pip install . (it builds the wheel with the build hook python -m build calls)
    install = ["--no-deps", "--no-build-isolation", "--no-index", "--target", str(site)]
    pip("install", *install, str(source), env=bare)
    shipped = {p.name: p.read_bytes() for p in (site / "mazzo/viewer/static").glob("*.js")}
    assert shipped == {p.name: p.read_bytes() for p in STATIC.glob("*.js")}
    assert (site / "mazzo/v1/game_pb2.py").is_file()  # generated by the build itself

    paths = dict.fromkeys(
        [str(site), sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]]
    )
    run_env = {**bare, "PYTHONPATH": os.pathsep.join(paths)}
    where = subprocess.run(
        [sys.executable, "-S", "-c", "import mazzo.viewer.web as w; print(w.__file__)"],
        env=run_env,
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert Path(where).is_relative_to(site), where  # the wheel's mazzo, not this checkout's

    spec = MatchSpec("clean-install", "maraffa", 5, 4, options_json("maraffa", ["target=11"]))
    record: dict[str, Any] = asyncio.run(run_match(spec, ["builtin:random"] * 4))
    records = tmp_path / "records.jsonl"
    records.write_text(json.dumps(record) + "\n", encoding="utf-8")
    command = [
        sys.executable,
        "-S",
        str(site / "bin" / "mazzo"),
        "view",
        str(records),
        "--port",
        "0",
    ]
    server = subprocess.Popen(command, env=run_env, cwd=tmp_path, stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        url = server.stdout.readline().strip()
        assert url.startswith("http://127.0.0.1:"), url
        chromium.get(url)
        WebDriverWait(chromium, 30, 0.05).until(
            lambda d: d.execute_script(BOARD)["index"] == "0" and d.execute_script(BOARD)["faces"]
        )
        shown = chromium.execute_script(BOARD)
        chromium.save_screenshot(str(tmp_path / "clean-install.png"))
        logged = [e for e in chromium.get_log("browser") if e["level"] == "SEVERE"]
    finally:
        server.terminate()
        server.wait(10)
    table = frames_of(record)["frames"][0]["table"]
    dealt = [c for seat in table["seats"] for c in seat["hand"] or []]
    dealt += [c for area in table["areas"] for c in area["cards"]]
    assert len(dealt) == 40 and sorted(shown["faces"]) == sorted(dealt)
    assert not logged, logged
    assert (tmp_path / "clean-install.png").stat().st_size > 10_000
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    shutil.copy(tmp_path / "clean-install.png", ARTIFACTS / "clean-install.png")
