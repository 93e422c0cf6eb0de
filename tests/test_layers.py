"""The package's layers point one way (docs/architecture.md): no import cycle between
``mazzo``'s modules, and no import from a lower layer to a higher one.

Every import counts: at module level, inside a function (a lazy import still makes the
lower module need the higher one) and under ``TYPE_CHECKING`` (a type is a dependency
too; the package has none that names its own modules). The graph is grimp's (pinned in
the ``dev`` extra): it parses the sources without importing them, in well under a
second, and its import details give each offending line. import-linter's contracts
would say the same with a config file; the rules here are short enough to read as code,
and a failure names the file, line and chain to cut.
"""

from __future__ import annotations

from fnmatch import fnmatchcase
from functools import cache

import grimp

#: Top to bottom: a module may import from its own layer and the layers below it. A
#: layer is a list of entries, each a module with its submodules (``mazzo``: the
#: package's ``__init__`` only); ``*`` stands for any one name, so that a role of every
#: game's package (``mazzo.games.*.wire``) has its layer. A module belongs to the
#: entry that names it most closely (the most names), so ``mazzo.viewer.words`` sits
#: under the viewer's other modules.
#:
#: A game's package is a slice through the layers (docs/architecture.md): its engine
#: at the bottom (``mazzo.games``), its roles above the layers' bases that they build
#: on, its declaration above its roles, and the registry above the declarations; the
#: layers that look games up sit above the registry. ``v1`` (generated protobuf) sits
#: under everything that sees the wire: the engines and core never do.
GAME_ROLES = (
    "wire",
    "wire_forms",
    "bounds",
    "texts",
    "table",
    "page",
    "records",
    "heuristic",
    "encoding",
    "chance",
    "conformance",
)
LAYERS: list[list[str]] = [
    ["mazzo.cli", "mazzo.__main__"],
    ["mazzo.bench"],  # measures everything below, through the CLI's `mazzo bench`
    ["mazzo.arena"],  # the standing competition: its storage so far (docs/arena.md)
    ["mazzo.ops"],  # a fleet of service replicas behind Envoy (the bench's, the tests')
    ["mazzo.viewer"],  # draws records and live matches; serves pages
    ["mazzo.referee"],  # matches and tournaments, seats bots (builtin:policy from rl)
    ["mazzo.gateway"],  # the stream dial-in bots connect on, for the referee's seats
    ["mazzo.rl"],  # environments on the engines; its remote one calls the service
    ["mazzo.service"],  # gRPC and REST over the engines; Simulate plays players' playouts
    ["mazzo.players"],  # builtin strategies: random, heuristic (each game's), pimc
    ["mazzo.codec.bounds"],  # every game's list bounds, checked on every request
    ["mazzo.games.registry"],  # the games this build serves
    ["mazzo.games.*.declaration"],  # each game, declared once
    [f"mazzo.games.{slot}.{role}" for role in GAME_ROLES for slot in ("*", "*.*")],
    ["mazzo.games.roles"],  # what the learning and tooling roles share
    ["mazzo.games.declaration"],  # what a game declares
    # The bases the games' roles build on: the codecs' shape and helpers, the viewer's
    # words, RL's layouts and chance deals, the conformance vectors' generator.
    [
        "mazzo.codec",
        "mazzo.conformance",
        "mazzo.viewer.words",
        "mazzo.viewer.phrases",
        "mazzo.rl.layout",
        "mazzo.rl.chance_deals",
    ],
    ["mazzo.v1"],  # generated
    ["mazzo.games"],  # the engines
    ["mazzo.core"],
    # Which build runs, read at every `import mazzo`: below everything it may load.
    ["mazzo", "mazzo.buildinfo", "mazzo.freshness"],
]


@cache
def graph() -> grimp.ImportGraph:
    """Every import of the package's modules."""
    return grimp.build_graph("mazzo", cache_dir=None)


def _names(entry: str, module: str) -> bool:
    """Whether ``entry`` names ``module`` (itself or a package holding it)."""
    want, have = entry.split("."), module.split(".")
    if entry == "mazzo":
        return module == "mazzo"
    pairs = zip(have, want, strict=False)
    return len(have) >= len(want) and all(fnmatchcase(h, w) for h, w in pairs)


def layer_of(module: str) -> int:
    """The index in ``LAYERS`` of the entry that names ``module`` most closely."""
    best, closest = -1, -1
    for index, layer in enumerate(LAYERS):
        for entry in layer:
            names = entry.count(".") + 1
            if _names(entry, module) and names > closest:
                best, closest = index, names
    return best


def imports() -> list[tuple[str, str]]:
    g = graph()
    return sorted(
        (importer, imported)
        for importer in g.modules
        for imported in g.find_modules_directly_imported_by(importer)
    )


def where(importer: str, imported: str) -> str:
    lines = graph().get_import_details(importer=importer, imported=imported)
    return ", ".join(f"{importer}:{d['line_number']} {d['line_contents']}" for d in lines)


def test_every_module_has_a_layer() -> None:
    """A new top-level module or package is placed in ``LAYERS`` on purpose."""
    assert [m for m in sorted(graph().modules) if layer_of(m) < 0] == []


def test_no_import_cycles() -> None:
    g = graph()
    cycles = []
    for importer, imported in imports():
        back = g.find_shortest_chain(importer=imported, imported=importer)
        if back is not None:
            chain = " -> ".join((importer, *back))
            cycles.append(f"{chain}\n    {where(importer, imported)}")
    assert cycles == [], "import cycles:\n" + "\n".join(cycles)


def test_no_import_from_a_lower_layer_to_a_higher_one() -> None:
    upward = [
        f"{where(importer, imported)}  (layer {layer_of(importer)} -> {layer_of(imported)})"
        for importer, imported in imports()
        if layer_of(imported) < layer_of(importer)
    ]
    assert upward == [], "imports from a lower layer to a higher one:\n" + "\n".join(upward)
