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

from functools import cache

import grimp

#: Top to bottom: a module may import from its own layer and the layers below it. A
#: layer is a list of modules, each with its submodules (``mazzo``: the package's
#: ``__init__`` only). ``v1`` (generated protobuf)
#: sits under ``codec``, its one user among the engines' layers: the games and core
#: never see the wire.
LAYERS: list[list[str]] = [
    ["mazzo.cli", "mazzo.__main__"],
    ["mazzo.bench"],  # measures everything below, through the CLI's `mazzo bench`
    ["mazzo.ops"],  # a fleet of service replicas behind Envoy (the bench's, the tests')
    ["mazzo.viewer"],  # draws records and live matches; serves pages
    ["mazzo.referee"],  # matches and tournaments, seats bots (builtin:policy from rl)
    ["mazzo.rl"],  # environments on the engines; its remote one calls the service
    ["mazzo.service"],  # gRPC and REST over the engines; Simulate plays players' playouts
    ["mazzo.players"],  # builtin strategies: random, heuristic, pimc
    ["mazzo.codec"],  # engines' values <-> the wire
    ["mazzo.v1"],  # generated
    ["mazzo.games"],
    ["mazzo.core"],
    # Which build runs, read at every `import mazzo`: below everything it may load.
    ["mazzo", "mazzo.buildinfo", "mazzo.freshness"],
]


@cache
def graph() -> grimp.ImportGraph:
    """Every import of the package's modules."""
    return grimp.build_graph("mazzo", cache_dir=None)


def layer_of(module: str) -> int:
    """The index in ``LAYERS`` of the entry that is ``module`` or its package (``mazzo``
    itself stands for its ``__init__`` alone)."""
    for index, layer in enumerate(LAYERS):
        for entry in layer:
            if module == entry or (entry != "mazzo" and module.startswith(entry + ".")):
                return index
    return -1


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
