"""The arena's web pages (issue 34, item 6): ``routes(store)`` for ``mazzo arena serve``
to mount.

- ``GET /arena/``: the ladders.
- ``GET /arena/ladders/{id}``: a ladder's standings (the rating mu - 3 sigma the ladder
  ranks by, with its interval mu +- 3 sigma, games, fault rate, paused and why) and
  its newest matches.
- ``GET /arena/bots/{name}[?opponent=NAME][&after=MATCH][&faults_after=MATCH]``: a
  bot's games (those against one opponent; 100 a page, the next page's games older
  than ``after``; its faults 50 a page of whole matches', older than ``faults_after``), its
  rating over time (an SVG drawn here: ``arena.chart``) and its faults,
  with the referee's reason and the bot's own error output when the record kept any.
- ``GET /arena/replay/{set}/[?match=ID]``: the replay viewer (``viewer.web``'s own
  page and frames, not a copy) over the finished matches of one duplicate set, and
  ``GET /viewer/static/NAME``, the page's files.

The pages are HTML written on the server, no script: every text that comes from the
database (names, reasons, a bot's error output, a record's entrants) is escaped with
``html.escape``, and every name in a link is quoted. What is shown of a match follows
``arena.queries``: a record, and anything read from it past its result, only once its
whole duplicate set is over (the set shares one deal); of a match in play, only who
sits at it and since when, and its live table (below).

- ``GET /arena/live/{match}/``: a match in play, live (``arena.live``): the live view's
  own page and event stream (``viewer.live``) over that one table, public information
  only and no hand at all (a duplicate set shares its deal). The ladder's page and the
  bot's page list the tables in play, each with its link. A live table is held by the
  process whose worker plays it: with several arena processes, a page of another
  process relays its events from there (``arena.live_relay``; a process that serves no
  pages is listed without a link, and says so). ``GET /viewer/?match=ID`` (the live
  page's link to a finished match) opens the replay of its set.

Database reads are blocking: each runs in a thread (``run_in_threadpool``), never on
the event loop.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable, Iterable, Sequence
from datetime import datetime
from html import escape
from urllib.parse import quote, urlencode

from google.rpc import code_pb2, status_pb2
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response
from starlette.routing import Route

from mazzo.arena import queries, web_addresses
from mazzo.arena.chart import rating_chart
from mazzo.arena.live import LiveTables
from mazzo.arena.live_relay import HOP, LiveRelay
from mazzo.arena.models import FINISHED, MU, PLAYING, SCHEDULED, SIGMA, VOIDED, Json
from mazzo.arena.store import LadderInfo, Store
from mazzo.service.rest import read_body, status_response
from mazzo.viewer import web
from mazzo.viewer.live import EventStream, LiveHub

Endpoint = Callable[[Request], Awaitable[Response]]

_BODY = """<body class="arena">
<header><h1>{title}</h1><nav><a href="/arena/">All ladders</a></nav></header>
<main class="arena-main">
"""
_TAIL = "</main>\n</body>\n</html>\n"


# Links and texts ------------------------------------------------------------------------


def ladder_url(ladder_id: int) -> str:
    return f"/arena/ladders/{ladder_id}"


def bot_url(
    name: str,
    opponent: str | None = None,
    after: str | None = None,
    faults_after: str | None = None,
) -> str:
    """A bot's page (its games against ``opponent``, older than the match ``after``; its
    faults in matches older than ``faults_after``); every character of the name that
    means something in a URL is quoted (a name with ``/`` stays one path parameter:
    the route takes a path)."""
    pairs = (("opponent", opponent), ("after", after), ("faults_after", faults_after))
    params = {k: v for k, v in pairs if v is not None}
    query = f"?{urlencode(params)}" if params else ""
    return f"/arena/bots/{quote(name, safe='')}{query}"


def replay_url(set_id: str, match_id: str) -> str:
    return f"/arena/replay/{quote(set_id, safe='')}/?{urlencode({'match': match_id})}"


def live_url(match_id: str) -> str:
    return f"/arena/live/{quote(match_id, safe='')}/"


def _link(url: str, text: str) -> str:
    return f'<a href="{escape(url)}">{escape(text)}</a>'


def _bot_link(name: str) -> str:
    return _link(bot_url(name), name)


def _when(at: datetime | None) -> str:
    return at.strftime("%Y-%m-%d %H:%M UTC") if at is not None else ""


def ladder_title(ladder: LadderInfo) -> str:
    options = ", ".join(f"{k}={json.dumps(v)}" for k, v in sorted(ladder.options.items()))
    return f"{ladder.game} {ladder.players}p" + (f" ({options})" if options else "")


def _page(title: str, *sections: str) -> HTMLResponse:
    title = escape(title)
    head = web.head_html(title) + _BODY.format(title=title)
    return HTMLResponse(head + "".join(sections) + _TAIL)


def not_found(what: str) -> HTMLResponse:
    page = _page("Not found", f"<p>{escape(what)}</p>")
    page.status_code = 404
    return page


def _table(caption: str, head: Sequence[str], rows: Iterable[Sequence[str]], cls: str) -> str:
    """A table in a wrapper that scrolls sideways on a narrow screen. ``head`` and
    ``rows`` are HTML already (escaped by whoever made them)."""
    cells = "".join(f'<th scope="col">{h}</th>' for h in head)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    return (
        f'<div class="table-wrap"><table class="{cls}"><caption>{caption}</caption>'
        f"<thead><tr>{cells}</tr></thead><tbody>{body}</tbody></table></div>"
    )


# The pages ------------------------------------------------------------------------------


#: The index's line when the person's page is served (``arena.person``).
SEAT_NOTE = (
    '<p class="note"><a href="/play/">Take a seat yourself</a>: a dial-in bot of yours, '
    "played by you in the browser with its token; or watch its seat there while its "
    "program plays.</p>"
)


def index_page(store: Store, seats: bool = False) -> HTMLResponse:
    lines = queries.ladder_lines(store)
    rows = [
        (
            _link(ladder_url(line.ladder.id), f"{line.ladder.id}: {ladder_title(line.ladder)}"),
            str(line.bots),
            str(line.finished),
            str(line.playing),
        )
        for line in lines
    ]
    table = _table("Ladders", ("ladder", "bots", "finished", "in play"), rows, "ladders")
    empty = "" if lines else "<p>No ladder yet (<code>mazzo arena add-ladder</code>).</p>"
    return _page("Mazzo arena", table, empty, SEAT_NOTE if seats else "")


def _status(line: queries.MatchLine) -> str:
    if line.status == PLAYING:
        return f"in play since {_when(line.claimed_at)}"
    if line.status == SCHEDULED:
        return "scheduled"
    if line.status == VOIDED:
        return f"voided: {line.voided_reason or ''}"
    return line.result or "finished"


def _match_rows(lines: Sequence[queries.MatchLine], me: str | None = None) -> list[list[str]]:
    """A table's rows for matches: when, the set's match, seats, what became of it, and
    the replay link once the set is over (why not, before)."""
    rows = []
    for line in lines:
        seats = ", ".join(
            f"<strong>{escape(n)}</strong>" if n == me else _bot_link(n) for n in line.seats
        )
        if line.revealed:
            replay = _link(replay_url(line.set_id, line.id), "replay")
        elif line.status == FINISHED:
            replay = '<span class="muted">when its set is over</span>'
        else:
            replay = ""
        rows.append(
            [
                escape(_when(line.finished_at or line.claimed_at or line.created_at)),
                _set_cell(line),
                seats,
                escape(_status(line)),
                replay,
            ]
        )
    return rows


MATCH_HEAD = ("when", "set", "seats", "result", "replay")
#: What the standings say under a bot played by a person.
PERSON = "a person: unpaired deals, the cards' luck in its results"
#: What an unpaired match's set cell says (a person sat at it: ``Store.schedule_set``).
UNPAIRED = "unpaired: a person's table, one match, no rotated deal"


def _set_cell(line: queries.MatchLine) -> str:
    """The set and the match's place in it; an unpaired match says so: its deal's luck
    is not cancelled by the rotated deals of a duplicate set."""
    cell = f"{escape(line.set_id)}<br>match {line.set_index + 1}"
    return cell + (f'<br><span class="muted">{UNPAIRED}</span>' if line.unpaired else "")


#: What a page says of the live tables it can and cannot show.
LIVE_NOTE = (
    '<p class="note">A live table shows what every seat sees, no hand: the replay shows '
    "them once the whole duplicate set is over. With several arena processes on one "
    "database, a table another process plays is shown here too, relayed from that "
    "process's pages; one whose process serves no pages (<code>mazzo arena run</code>) "
    "is listed without its link.</p>"
)
#: A table in play whose process does not say where its pages are.
NOT_SHOWN = "played by an arena process without pages"


def _in_play(store: Store, lines: Sequence[queries.MatchLine], live: LiveTables | None) -> str:
    """The tables in play, each with its live link when this process plays it or the
    process that does says where its pages are (``web_addresses``)."""
    here = live.playing() if live is not None else set()
    elsewhere = [line for line in lines if line.id not in here]
    shown = set(store.web_addresses()) if elsewhere else set()
    rows = []
    for line in lines:
        if line.id in here or web_addresses.process_of(line.claimed_by) in shown:
            watch = _link(live_url(line.id), "watch live")
        else:
            watch = f'<span class="muted">{NOT_SHOWN}</span>'
        rows.append(
            [
                escape(_when(line.claimed_at)),
                _set_cell(line),
                ", ".join(_bot_link(n) for n in line.seats),
                watch,
            ]
        )
    if not rows:
        return "<section><h2>Tables in play</h2><p>No table in play now.</p></section>"
    head = ("since", "set", "seats", "live")
    table = _table(f"Tables in play ({len(rows)})", head, rows, "in-play")
    return f"<section><h2>Tables in play</h2>{table}{LIVE_NOTE}</section>"


def ladder_page(store: Store, ladder_id: int, live: LiveTables | None = None) -> HTMLResponse:
    try:
        ladder = store.ladder(ladder_id)
    except ValueError:
        return not_found(f"No ladder {ladder_id}.")
    standings = queries.standings(store, ladder_id)
    rows = []
    for rank, line in enumerate(standings, 1):
        row = line.standing
        low, high = row.mu - 3 * row.sigma, row.mu + 3 * row.sigma
        paused = f"paused: {row.paused_reason}" if row.paused_reason is not None else "playing"
        rows.append(
            [
                str(rank),
                _bot_link(row.bot)
                + (f'<br><span class="muted">{PERSON}</span>' if row.person else ""),
                escape(row.owner),
                f"{row.ordinal:.1f}",
                f"{low:.1f} to {high:.1f}",
                str(row.games),
                f"{line.fault_rate:.0%} ({line.faulty_games} of {row.games})",
                escape(paused),
            ]
        )
    head = (
        "#",
        "bot",
        "owner",
        "rating<br>&mu; &minus; 3&sigma;",
        "interval<br>&mu; &plusmn; 3&sigma;",
        "games",
        "fault rate",
        "status",
    )
    table = _table("Standings", head, rows, "standings arena-standings")
    note = (
        '<p class="note">Ranked by &mu; &minus; 3&sigma;: what a bot has surely shown, '
        "so a new bot starts low and rises as its games narrow its interval. The fault rate is the "
        "share of its games with a fault.</p>"
    )
    newest = queries.newest_matches(store, ladder_id)
    matches = _table(f"Newest matches ({len(newest)})", MATCH_HEAD, _match_rows(newest), "matches")
    playing = _in_play(store, queries.in_play(store, ladder_id=ladder_id), live)
    return _page(f"Ladder {ladder.id}: {ladder_title(ladder)}", table, note, playing, matches)


def _filter_form(name: str, choices: Sequence[str], chosen: str | None) -> str:
    options = ['<option value="">every opponent</option>'] + [
        f'<option value="{escape(c)}"{" selected" if c == chosen else ""}>{escape(c)}</option>'
        for c in choices
    ]
    return (
        f'<form class="filter" method="get" action="{escape(bot_url(name))}">'
        '<label>Games against <select name="opponent">'
        + "".join(options)
        + '</select></label> <button type="submit">Show</button></form>'
    )


def _fault_rows(faults: Sequence[queries.FaultLine]) -> list[list[str]]:
    rows = []
    for fault in faults:
        if fault.revealed:
            detail = escape(fault.detail or "")
            output = f"<pre>{escape(fault.output)}</pre>" if fault.output else ""
            where = _link(replay_url(fault.set_id, fault.match_id), fault.match_id)
        else:
            detail = '<span class="muted">shown when its set is over</span>'
            output, where = "", escape(fault.match_id)
        ply = "" if fault.ply is None else str(fault.ply)
        rows.append([where, ply, escape(fault.fault_class), detail + output])
    return rows


#: Who plays a bot, as its page says it.
PLAYED_BY = {
    False: "a program",
    True: "a person: it plays on the person's clock, and its tables are dealt unpaired "
    "(one match a set)",
}


def bot_page(
    store: Store,
    name: str,
    opponent: str | None,
    live: LiveTables | None = None,
    after: str | None = None,
    faults_after: str | None = None,
) -> HTMLResponse:
    line = queries.bot(store, name)
    if line is None:
        return not_found(f"No bot named {name!r}.")
    if opponent is not None and queries.bot(store, opponent) is None:
        return not_found(f"No bot named {opponent!r} to filter by.")
    paused = (
        f"paused since {_when(line.paused_at)}: {line.paused_reason}"
        if line.paused_reason is not None
        else "playing"
    )
    kind = line.kind + (f" ({line.target})" if line.kind == "builtin" else "")
    facts = (
        '<dl class="facts">'
        f"<dt>owner</dt><dd>{escape(line.owner)}</dd>"
        f"<dt>ladder</dt><dd>{_link(ladder_url(line.ladder.id), ladder_title(line.ladder))}</dd>"
        f"<dt>kind</dt><dd>{escape(kind)}</dd>"
        f"<dt>played by</dt><dd>{PLAYED_BY[line.person]}</dd>"
        f"<dt>rating</dt><dd>{line.mu - 3 * line.sigma:.1f} (&mu; {line.mu:.1f}, "
        f"&sigma; {line.sigma:.2f})</dd>"
        f"<dt>games</dt><dd>{line.games}</dd>"
        f"<dt>faults</dt><dd>{line.faults}</dd>"
        f'<dt>status</dt><dd class="status">{escape(paused)}</dd>'
        "</dl>"
    )
    history = queries.rating_history(store, name)
    chart = rating_chart(
        (MU, SIGMA), [(p.mu, p.sigma) for p in history], f"rating of {name} over its games"
    )
    legend = (
        '<p class="note">The line is the rating (&mu; &minus; 3&sigma;), the dashed line '
        "&mu;, the band &mu; &plusmn; 3&sigma;, after each finished game.</p>"
    )
    rating = f"<section><h2>Rating over {len(history)} games</h2>{chart}{legend}</section>"
    try:
        games = queries.bot_matches(store, line, opponent, queries.BOT_GAMES, after)
    except queries.NoSuchPage:
        return not_found(f"No game {after!r} of {name} to list older games from.")
    first, last = games.start + 1, games.start + len(games.lines)
    whole = games.start == 0 and not games.more
    shown = str(games.total) if whole else f"{first} to {last} of {games.total}"
    against = f" against {opponent}" if opponent is not None else ""
    form = _filter_form(name, queries.opponents(store, name), opponent)
    table = _table(
        escape(f"Games{against} ({shown}, newest first)"),
        MATCH_HEAD,
        _match_rows(games.lines, me=name),
        "matches",
    )
    pages = [_link(bot_url(name, opponent), "Newest games")] if games.start else []
    if games.more:
        older = bot_url(name, opponent, games.lines[-1].id)
        pages.append(f'<a href="{escape(older)}" rel="next">Older games</a>')
    if pages:
        table += '<p class="pages">' + " &middot; ".join(pages) + "</p>"
    try:
        faults = queries.bot_faults(store, name, queries.BOT_FAULTS, faults_after)
    except queries.NoSuchPage:
        return not_found(f"No faulty match {faults_after!r} of {name} to list older faults from.")
    fault_table = (
        _table(
            f"Faults ({len(faults.lines)}{' older' if faults_after else ''}, newest first)",
            ("match", "move", "fault", "reason and the bot's output"),
            _fault_rows(faults.lines),
            "faults-table",
        )
        if faults.lines
        else "<p>No faults.</p>"
    )
    fault_pages = [_link(bot_url(name, opponent, after), "Newest faults")] if faults_after else []
    if faults.more and faults.last is not None:
        older = bot_url(name, opponent, after, faults.last)
        fault_pages.append(f'<a href="{escape(older)}" rel="next">Older faults</a>')
    if fault_pages:
        fault_table += '<p class="pages">' + " &middot; ".join(fault_pages) + "</p>"
    return _page(
        f"Bot {name}",
        facts,
        _in_play(store, queries.in_play(store, bot=name), live),
        rating,
        f"<section><h2>Games</h2>{form}{table}</section>",
        f"<section><h2>Faults</h2>{fault_table}</section>",
    )


# The replay viewer over a duplicate set ---------------------------------------------------


def _refusal(code: int, message: str) -> Response:
    return status_response(status_pb2.Status(code=code, message=message))


def replay_routes(store: Store) -> list[Route]:
    """The replay viewer's own page (``viewer.web``) at ``/arena/replay/{set}/``: it
    asks for ``records`` (the set's finished matches, once the set is over: none
    before, with why as the list's name) and ``records/{index}`` (one match's frames,
    built in the viewer's pool); ``frames`` takes a record file opened in the page."""

    async def page(request: Request) -> Response:
        return web.page_response("index.html")

    async def redirect(request: Request) -> Response:
        return RedirectResponse(f"/arena/replay/{quote(request.path_params['set_id'], safe='')}/")

    async def load(request: Request) -> tuple[bool, list[Json]] | None:
        return await run_in_threadpool(queries.set_records, store, request.path_params["set_id"])

    async def records(request: Request) -> Response:
        set_id = str(request.path_params["set_id"])
        found = await load(request)
        if found is None:
            return _refusal(code_pb2.NOT_FOUND, f"no duplicate set {set_id[:40]!r}")
        over, listed = found
        name = f"set {set_id}" if over else f"set {set_id} (still being played: no replay yet)"
        body = {"file": name, "records": [web.summary(k, r) for k, r in enumerate(listed)]}
        return Response(json.dumps(body), media_type=web.JSON)

    async def one(request: Request) -> Response:
        found = await load(request)
        index = int(request.path_params["index"])
        if found is None or not found[0]:
            why = "no such set" if found is None else "its set is still being played"
            return _refusal(code_pb2.NOT_FOUND, f"no replay: {why}")
        listed = found[1]
        if not 0 <= index < len(listed):
            return _refusal(
                code_pb2.NOT_FOUND, f"the set has finished matches 0..{len(listed) - 1}"
            )
        return await web.frames_response(request, listed[index], web.refuse)

    async def frames(request: Request) -> Response:
        raw = await read_body(request)
        if isinstance(raw, Response):
            return raw
        return await web.frames_response(request, raw, web.refuse)

    async def static(request: Request) -> Response:
        return web.static_response(request, web.refuse)

    base = "/arena/replay/{set_id}"
    return [
        Route(base, redirect, methods=["GET"]),
        Route(base + "/", page, methods=["GET"]),
        Route(base + "/records", records, methods=["GET"]),
        Route(base + "/records/{index:int}", one, methods=["GET"]),
        Route(base + "/frames", frames, methods=["POST"]),
        Route("/viewer/static/{name}", static, methods=["GET"]),
    ]


# Live tables -------------------------------------------------------------------------------


def not_live_page(store: Store, match_id: str) -> HTMLResponse:
    """A live link to a match this process does not play (now)."""
    playing = {line.id: line for line in queries.in_play(store)}
    line = playing.get(match_id)
    if line is None:
        set_id = queries.set_of(store, match_id)
        if set_id is None:
            return not_found(f"No match {match_id!r}.")
        text = (
            f"Match {escape(match_id)} is not in play: its replay opens "
            f"{_link(replay_url(set_id, match_id), 'here')} once its whole set is over."
        )
    else:
        text = (
            f"Match {escape(match_id)} is played by an arena process that serves no pages "
            "(or has not said where they are): its live table cannot be shown here. "
            f"{_link(ladder_url(line.ladder_id), 'Back to its ladder')}."
        )
    page = _page("Not live here", f"<p>{text}</p>")
    page.status_code = 404
    return page


def live_routes(store: Store, live: LiveTables | None, relay: LiveRelay) -> list[Route]:
    """``/arena/live/{match}/``: the live view's page (``viewer.live``) over one table
    in play, its events under it: from this process's ``live`` tables, or relayed from
    the process that plays it (``arena.live_relay``); ``/viewer/?match=ID``, where the
    live page links a finished match: the replay of its set (shown once the set is
    over)."""

    def match_id(request: Request) -> str:
        return str(request.path_params["match_id"])

    def hub_of(request: Request) -> LiveHub | None:
        return None if live is None else live.hub(match_id(request))

    async def page(request: Request) -> Response:
        if hub_of(request) is None:
            address = await run_in_threadpool(store.live_address, match_id(request))
            if address is None:
                return await run_in_threadpool(not_live_page, store, match_id(request))
        return web.page_response("live.html")

    async def redirect(request: Request) -> Response:
        return RedirectResponse(live_url(match_id(request)))

    async def events(request: Request) -> Response:
        hub = hub_of(request)
        if hub is None:
            address = None
            if HOP not in request.headers:  # relayed once at most
                address = await run_in_threadpool(store.live_address, match_id(request))
            if address is None:
                return Response(b"not in play in this arena process", 404, media_type="text/plain")
            return relay.events(address, match_id(request))
        opened = hub.open_page(asyncio.get_running_loop())
        if opened is None:
            return Response(b"too many pages open", 503, media_type="text/plain")
        return EventStream(hub, opened)

    async def finished(request: Request) -> Response:
        wanted = request.query_params.get("match", "")
        set_id = await run_in_threadpool(queries.set_of, store, wanted)
        if set_id is None:
            return not_found(f"No match {wanted[:40]!r}.")
        return RedirectResponse(replay_url(set_id, wanted))

    return [
        Route("/arena/live/{match_id}", redirect, methods=["GET"]),
        Route("/arena/live/{match_id}/", page, methods=["GET"]),
        Route("/arena/live/{match_id}/events", events, methods=["GET"]),
        Route("/viewer/", finished, methods=["GET"]),
    ]


def routes(store: Store, live: LiveTables | None = None, seats: bool = False) -> list[Route]:
    """The arena's pages over ``store``, for the arena's HTTP server to mount, the live
    tables' among them: ``live``'s (the tables this process plays, if it plays) from
    here, the others relayed from the process that plays them; ``seats``: the
    index links the person's page (``arena.person``, served beside). They include
    ``/viewer/static/NAME`` (the replay page's files; the same as the rules service's,
    so mounting both is harmless)."""

    async def home(request: Request) -> Response:
        return RedirectResponse("/arena/")

    async def index(request: Request) -> Response:
        return await run_in_threadpool(index_page, store, seats)

    async def ladder(request: Request) -> Response:
        ladder_id = int(request.path_params["ladder_id"])
        return await run_in_threadpool(ladder_page, store, ladder_id, live)

    async def bot(request: Request) -> Response:
        name = str(request.path_params["name"])
        opponent = request.query_params.get("opponent") or None
        after = request.query_params.get("after") or None
        faults_after = request.query_params.get("faults_after") or None
        return await run_in_threadpool(bot_page, store, name, opponent, live, after, faults_after)

    return [
        Route("/arena", home, methods=["GET"]),
        Route("/arena/", index, methods=["GET"]),
        Route("/arena/ladders/{ladder_id:int}", ladder, methods=["GET"]),
        Route("/arena/bots/{name:path}", bot, methods=["GET"]),
        *replay_routes(store),
        *live_routes(store, live, LiveRelay()),
    ]
