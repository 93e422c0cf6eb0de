"""The arena's pages in a real headless Chromium: a small SQLite arena where builtin bots
play a few Briscola matches (``run_arena``, the workers of ``mazzo arena run``), then
the ladder page shows their standings, a bot's page its rating chart and its games
(filtered by opponent with the page's own form), and a game opens in the replay
viewer. No console error; each page fits a phone's width and a desktop's. Screenshots
go to ``$MAZZO_ARTIFACTS/viewer`` (``arena-*.png``)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
from selenium import webdriver
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from mazzo.arena.run import Settings, run_arena
from mazzo.arena.store import Store
from tests.arena.web import serve
from tests.viewer.chromium import shoot
from tests.viewer.test_browser import browser, errors

__all__ = ["browser"]  # the viewer tests' browser fixture, shared

MATCHES = 6
BOTS = {"ada-1": "builtin:heuristic", "bob-1": "builtin:random", "cy-1": "builtin:random"}


@pytest.fixture(scope="module")
def arena(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Store, str]]:
    """An arena that played ``MATCHES`` Briscola 2p matches (three bots, duplicate sets
    of two), and the URL its pages are served at."""
    folder = tmp_path_factory.mktemp("arena-pages")
    with Store(f"sqlite:///{folder / 'arena.db'}") as store:
        ladder = store.add_ladder("briscola", 2)
        for name, target in BOTS.items():
            store.add_owner(name.split("-")[0])
            store.add_bot(name.split("-")[0], name, ladder, "builtin", target)
        summary = asyncio.run(
            run_arena(store, Settings(workers=2, matches=MATCHES, seed=3), lambda line: None)
        )
        assert summary.finished == MATCHES, summary
        with serve(store) as url:
            yield store, url


def open_ladder(browser: webdriver.Chrome, url: str) -> None:
    """From the arena's index to the one ladder's page, by its link."""
    browser.get(url + "/arena/")
    browser.find_element(By.PARTIAL_LINK_TEXT, "briscola 2p").click()
    WebDriverWait(browser, 10).until(lambda d: "/arena/ladders/" in d.current_url)


def cells(driver: webdriver.Chrome, caption: str) -> list[list[str]]:
    """The text of each cell of the table whose caption starts with ``caption``."""
    found: list[list[str]] = driver.execute_script(
        """
        const table = [...document.querySelectorAll('table')]
          .find(t => t.caption && t.caption.textContent.startsWith(arguments[0]));
        return table ? [...table.tBodies[0].rows].map(r => [...r.cells].map(c => c.innerText))
                     : null;
        """,
        caption,
    )
    assert found is not None, f"no table {caption!r}"
    return found


def test_the_ladder_page_shows_the_standings_of_the_matches_played(
    arena: tuple[Store, str], browser: webdriver.Chrome
) -> None:
    store, url = arena
    open_ladder(browser, url)
    shown = cells(browser, "Standings")
    [ladder] = store.ladders()
    expected = store.standings(ladder.id)
    assert [row[1] for row in shown] == [s.bot for s in expected]
    assert [int(row[5]) for row in shown] == [s.games for s in expected]
    assert sum(s.games for s in expected) == 2 * MATCHES
    assert [row[3] for row in shown] == [f"{s.ordinal:.1f}" for s in expected]
    assert len(cells(browser, "Newest matches")) >= MATCHES
    shoot(browser, "arena-ladder")
    assert errors(browser) == []


def test_a_bots_page_charts_its_rating_and_filters_its_games(
    arena: tuple[Store, str], browser: webdriver.Chrome
) -> None:
    store, url = arena
    open_ladder(browser, url)
    browser.find_element(By.LINK_TEXT, "ada-1").click()
    WebDriverWait(browser, 10).until(lambda d: d.title == "Bot ada-1")
    chart = browser.find_element(By.CSS_SELECTOR, "svg.rating-chart")
    assert chart.size["width"] > 300 and chart.size["height"] > 100
    [ada] = [s for s in store.standings(store.ladders()[0].id) if s.bot == "ada-1"]
    points = chart.find_element(By.CSS_SELECTOR, "polyline.rating").get_attribute("points")
    assert points is not None and len(points.split()) == ada.games + 1
    every = cells(browser, "Games")  # with the matches still queued, if any
    assert len([row for row in every if " won" in row[3]]) == ada.games
    shoot(browser, "arena-bot")

    picker = Select(browser.find_element(By.NAME, "opponent"))
    opponent = picker.options[1].text  # the first bot ada-1 met (who: the draw's)
    picker.select_by_visible_text(opponent)
    browser.find_element(By.CSS_SELECTOR, "form.filter button").click()
    WebDriverWait(browser, 10).until(lambda d: f"opponent={opponent}" in d.current_url)
    against = cells(browser, f"Games against {opponent}")
    assert against and all(opponent in row[2] for row in against)
    assert len(against) == sum(opponent in row[2] for row in every)
    assert errors(browser) == []


def test_a_game_opens_in_the_replay_viewer(
    arena: tuple[Store, str], browser: webdriver.Chrome
) -> None:
    store, url = arena
    browser.get(f"{url}/arena/ladders/{store.ladders()[0].id}")
    link = browser.find_element(By.LINK_TEXT, "replay")
    wanted = link.get_attribute("href")
    assert wanted is not None and "match=" in wanted
    link.click()
    WebDriverWait(browser, 60).until(
        lambda d: d.find_elements(By.CSS_SELECTOR, "#board .board .seat")
    )
    chosen = Select(browser.find_element(By.ID, "match")).first_selected_option.text
    assert chosen.startswith(wanted.rsplit("match=", 1)[1])
    shoot(browser, "arena-replay")
    assert errors(browser) == []
