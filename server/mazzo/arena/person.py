"""A person at an arena's table: ``mazzo match --bot human``'s page (``viewer.play``),
served on the arena's HTTP port with the gateway's HTTP door (``gateway.http``).

To the arena a person is a dial-in bot: its owner registers it (``add-bot`` without a
target, or ``RegisterBot``) and gets its token. The person opens ``/play/``, types the
token into the page (it is sent in request bodies and headers only, never in an
address), and the page dials in as any dial-in bot does (``POST /v1/tables:join``,
``/v1/tables:answer``, the arena's token book: ``seats.ArenaGateway``); the scheduler
seats it while it is connected, like any dial-in bot, and its decisions come to the
page. The page shows that seat's view only: each decision's own view, and the seat's
feed (``SeatFeed``: its table after every move, from its own ``GetView``).

A feed is made when a page asks for it (``PageFeeds``): a dial-in bot that is a
program has none, and nothing is drawn for it. At a match's end the feed shows the
seat's own table, not every hand (``PlayWatcher.reveal_end`` False): an unmarked
bot's other matches of its duplicate set deal the same cards (a marked one's hands are
on the replay as soon as its one-match set is over).

A bot marked as played by a person (``add-bot --person``, ``SetBotPerson``:
``Bot.person``) gets a person's table: the person's clock for its seats (``mazzo arena
serve --person-move-time --person-bank``, ``Worker.person_clock``) while the bots keep
theirs (``--move-time --bank``), at its table too, and an unpaired deal, a set of one match
(``Store.schedule_set``): a person would remember the cards when they came back with
the seats rotated. A person's page works for an unmarked dial-in bot too, on the bots'
clock and duplicate sets.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterator, Mapping

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import BaseRoute

from mazzo.arena.seats import ArenaGateway
from mazzo.gateway.http import ANSWER_PATH, JOIN_PATH, HttpDoor, HttpOptions, door_route
from mazzo.referee.watch import Watcher
from mazzo.viewer.play import PLAY_PATH, PlayWatcher, SeatFeed, play_routes


class PageFeeds(Mapping[str, SeatFeed]):
    """The feeds of the people's pages (a person's, an owner watching), by bot name:
    one is made when a page asks for it (``get``), for a name ``known`` says is a
    dial-in bot; ``in`` and iteration see only those made, so the referee's watch
    draws for no bot without a page. A feed no page wants any more
    (``SeatFeed.wanted``) is dropped, with what it kept, when ``in`` looks it up (at
    its bot's next move) or when a page asks for another: their number and memory are
    those of the bots that pages follow, not of every bot ever followed."""

    def __init__(
        self, known: Callable[[str], bool], clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.known, self.clock = known, clock
        self._feeds: dict[str, SeatFeed] = {}

    def __getitem__(self, name: str) -> SeatFeed:
        found = self._feeds.get(name)
        if found is None:
            if not self.known(name):
                raise KeyError(name)
            for stale in [n for n, feed in self._feeds.items() if not feed.wanted()]:
                del self._feeds[stale]
            found = self._feeds[name] = SeatFeed(self.clock)
        return found

    def __contains__(self, name: object) -> bool:
        if not isinstance(name, str) or name not in self._feeds:
            return False
        if not self._feeds[name].wanted():
            del self._feeds[name]  # its lines too: a page that comes later starts afresh
            return False
        return True

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._feeds))

    def __len__(self) -> int:
        return len(self._feeds)

    def close(self) -> None:
        """The arena stops: every page's feed ends."""
        for feed in self._feeds.values():
            feed.close()


class People:
    """The people's side of one arena: the door, the pages' feeds and their routes."""

    def __init__(self, gateway: ArenaGateway, options: HttpOptions | None = None) -> None:
        self.gateway = gateway
        self.door = HttpDoor(gateway, options or HttpOptions())
        self.feeds = PageFeeds(lambda name: name in gateway.form)

    def watcher(self, inner: Watcher | None) -> PlayWatcher:
        """The workers' watcher: each page's seat drawn for it, ``inner`` told all."""
        return PlayWatcher(self.feeds, inner, kinds=("connect",), reveal_end=False)

    async def join(self, request: Request) -> Response:
        """The door's join, after reading the tokens from the store (as the gRPC door
        does: a bot registered a moment ago is admitted), unless the address is over
        its rate (the door refuses it then, and the database is not asked)."""
        host = request.client.host if request.client else ""
        if not self.gateway.rate.waiting(host):
            await asyncio.to_thread(self.gateway.refresh)
        return await self.door.join(request)

    def routes(self) -> list[BaseRoute]:
        """The page at ``/play/`` (its files, drawing and feed: ``viewer.play``) and
        the door's join and answer, on the arena's HTTP port."""
        page = [r for r in play_routes(self.feeds, self.gateway.tokens.who) if _path(r) != "/"]
        cors = self.door.options.cors
        return [
            door_route(JOIN_PATH, self.join, cors),
            door_route(ANSWER_PATH, self.door.answer, cors),
            *page,
        ]

    async def stop(self) -> None:
        """Before the HTTP server stops: the pages' feeds and streams end."""
        self.feeds.close()
        await self.door.stop()


def _path(route: BaseRoute) -> str:
    return str(getattr(route, "path", ""))


__all__ = ["PLAY_PATH", "PageFeeds", "People"]
