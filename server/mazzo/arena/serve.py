"""``mazzo arena serve``: the arena's API over gRPC and HTTP/JSON, and its matches.

The API is ``mazzo.v1.Arena`` (``api.ArenaApi``), served the way ``mazzo serve``
serves the rules: gRPC through ``service.errors.DomainErrorInterceptor`` (domain
errors to rich statuses, metrics), health and reflection; REST from the same proto's
``google.api.http`` annotations (``service.rest.build_app``), with the same handlers,
and the OpenAPI document generated from it at ``/openapi.json``.
Beside the API the arena plays (``run.run_arena``, as ``mazzo arena run --wait``)
unless told not to, and opens the dial-in gateway (``seats.ArenaGateway``, the
referee's ``mazzo.v1.Tables/Join`` with the arena's bot tokens) on its own port: a
dial-in bot is seated while it is connected.

Web pages are not this module's: ``Served.routes`` are served beside the API on the
HTTP port. ``page_routes`` looks for them in ``mazzo.arena.pages`` (a ``routes(store)``
function giving Starlette routes), when that module exists; with ``pages``, ``start``
mounts them itself, with the live tables of the matches it plays (``arena.live``).
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import importlib.util
import socket
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from importlib import resources

import grpc
import uvicorn
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection
from starlette.routing import BaseRoute

from mazzo.arena.api import DEFAULT_LIMITS, ArenaApi, Limits
from mazzo.arena.live import LiveTables
from mazzo.arena.person import People
from mazzo.arena.run import Settings, Summary, run_arena
from mazzo.arena.seats import LIMITS as GATEWAY_LIMITS
from mazzo.arena.seats import ArenaGateway
from mazzo.arena.store import Store
from mazzo.gateway.http import HttpOptions
from mazzo.gateway.server import Limits as GatewayLimits
from mazzo.service.errors import DomainErrorInterceptor
from mazzo.service.http_connections import HttpLimits, listening_socket, start_uvicorn
from mazzo.service.metrics import Metrics
from mazzo.service.rest import build_app
from mazzo.v1 import arena_pb2, arena_pb2_grpc

ARENA = arena_pb2.DESCRIPTOR.services_by_name["Arena"]
#: What the HTTP side holds: as ``mazzo serve``'s API.
HTTP_LIMITS = HttpLimits(head_seconds=10.0, connections=512, idle_seconds=65)
#: Where the web pages' routes come from, once they exist (module docstring).
PAGES_MODULE = "mazzo.arena.pages"


def openapi_document() -> bytes:
    """The API's OpenAPI 3 document, generated from the proto (scripts/gen_openapi.py)."""
    return resources.files("mazzo.arena").joinpath("openapi.json").read_bytes()


def page_routes(
    store: Store, live: LiveTables | None = None, seats: bool = False
) -> list[BaseRoute]:
    """The web pages' routes: ``mazzo.arena.pages.routes(store)`` (with ``live``, the
    live tables too; ``seats``: the person's page is served), or none while that module
    does not exist. The one place the pages are mounted."""
    if importlib.util.find_spec(PAGES_MODULE) is None:
        return []
    pages = importlib.import_module(PAGES_MODULE)
    found = pages.routes(store) if live is None else pages.routes(store, live, seats)
    routes: list[BaseRoute] = list(found)
    return routes


@dataclass
class Served:
    """A running arena API: its ports, and what stops it."""

    api: ArenaApi
    grpc_server: grpc.aio.Server
    port: int
    http: uvicorn.Server
    http_port: int
    http_task: asyncio.Task[None]
    health: health.aio.HealthServicer
    stopping: bool = False
    play: asyncio.Task[Summary] | None = None
    stop_play: asyncio.Event = field(default_factory=asyncio.Event)
    #: The dial-in gateway and its port, when one was opened.
    gateway: ArenaGateway | None = None
    gateway_port: int = 0
    #: The live tables of the matches this process plays, when it plays.
    live: LiveTables | None = None
    #: The people's page and its door, when the pages and the gateway are served.
    people: People | None = None


async def start(
    store: Store,
    host: str = "127.0.0.1",
    port: int = 0,
    http_port: int = 0,
    admin_hash: str | None = None,
    limits: Limits = DEFAULT_LIMITS,
    routes: Sequence[BaseRoute] = (),
    play: Settings | None = None,
    report: Callable[[str], None] = lambda line: None,
    gateway_port: int | None = None,
    gateway_limits: GatewayLimits = GATEWAY_LIMITS,
    pages: bool = False,
    web_url: str | None = None,
    cors: Sequence[str] = (),
) -> Served:
    """Serve the API on ``host``: gRPC on ``port``, HTTP on ``http_port`` (0: free
    ones; ``Served`` has those bound), ``routes`` beside the HTTP API; with ``play``,
    the arena's scheduler and workers run too, reporting each line to ``report``, and
    their matches are live tables; with ``gateway_port`` (0: a free one), the dial-in
    gateway listens there; with ``pages``, the web pages are served (``page_routes``,
    with the live tables), and with the gateway too the person's page (``/play/``,
    ``arena.person``) and the gateway's HTTP door beside them. A process that plays
    and serves pages says where they are, ``web_url`` (default: ``own_web_url``), so
    that the pages of the other processes on its database show its live tables
    (``web_addresses``). ``cors``: the origins whose pages may call the gateway's HTTP
    door (``gateway.http.cors_origin``)."""
    live = LiveTables() if play is not None else None
    gateway = None
    bound_gateway = 0
    if gateway_port is not None:
        gateway = ArenaGateway(store, gateway_limits)
        await asyncio.to_thread(gateway.refresh)
        try:
            bound_gateway = await gateway.start(host, gateway_port)
        except RuntimeError as e:
            raise OSError(f"cannot listen on {host}:{gateway_port} (gateway): {e}") from e
    door = HttpOptions(cors=tuple(cors))
    people = People(gateway, door) if pages and gateway is not None else None
    if pages:
        routes = [*routes, *page_routes(store, live, people is not None)]
        if people is not None:
            routes += people.routes()
    api = ArenaApi(store, admin_hash, limits)
    metrics = Metrics()
    interceptor = DomainErrorInterceptor(metrics)
    server = grpc.aio.server(interceptors=[interceptor])
    arena_pb2_grpc.add_ArenaServicer_to_server(api, server)
    health_servicer = health.aio.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
    reflection.enable_server_reflection(
        (ARENA.full_name, health.SERVICE_NAME, reflection.SERVICE_NAME), server
    )
    address = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"
    try:
        bound = server.add_insecure_port(address)
    except RuntimeError as e:
        if gateway is not None:
            await gateway.stop(0)
        raise OSError(f"cannot listen on {address}: {e}") from e
    await server.start()
    for name in ("", ARENA.full_name):
        await health_servicer.set(name, health_pb2.HealthCheckResponse.SERVING)
    try:
        sock = listening_socket(host, http_port)
    except OSError as e:
        await server.stop(None)
        if gateway is not None:
            await gateway.stop(0)
        raise OSError(f"cannot listen on {host}:{http_port} (HTTP): {e}") from e
    served: Served | None = None
    app = build_app(
        ARENA,
        api,
        metrics,
        lambda: served is not None and not served.stopping,
        None,
        interceptor.admission,
        routes,
        document=openapi_document,
        context=True,
    )
    http = await start_uvicorn(app, sock, HTTP_LIMITS)
    task = asyncio.create_task(http.main_loop())
    served = Served(
        api,
        server,
        int(bound),
        http,
        int(sock.getsockname()[1]),
        task,
        health_servicer,
        gateway=gateway,
        gateway_port=bound_gateway,
        live=live,
        people=people,
    )
    if play is not None:
        watcher = None if people is None else people.watcher(live.watcher() if live else None)
        pages_at = (web_url or own_web_url(host, served.http_port)) if pages else None
        served.play = asyncio.create_task(
            run_arena(store, play, report, served.stop_play, gateway, live, watcher, pages_at)
        )
    return served


def own_web_url(host: str, port: int) -> str:
    """Where the other arena processes reach these pages: the address listened on, or,
    listening on every address, this host's own (a container's or a pod's IP, which
    its ``/etc/hosts`` gives for its name); ``--web-url`` says otherwise."""
    if host in ("", "0.0.0.0", "::"):
        try:
            host = socket.gethostbyname(socket.gethostname())
        except OSError:
            host = "127.0.0.1"
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


async def stop(served: Served, grace: float = 2.0) -> Summary | None:
    """Stop playing (the matches in play are voided, saying so), then serving (the
    dial-in bots' streams end cleanly: they see the arena's end); what the play did,
    if it ran."""
    served.stopping = True
    summary = None
    try:
        if served.play is not None:
            served.stop_play.set()
            summary = await served.play  # a play that failed raises, once served no more
    finally:
        await served.health.enter_graceful_shutdown()
        if served.people is not None:  # its streams would keep the HTTP side open
            await served.people.stop()
        served.http.should_exit = True
        with contextlib.suppress(asyncio.CancelledError):
            await served.http_task
        await served.http.shutdown()
        await served.grpc_server.stop(grace)
        if served.gateway is not None:
            await served.gateway.stop(grace)
    return summary
