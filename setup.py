"""Build hook: generate the protobuf/gRPC modules (mazzo.v1), and compile the rules
engines, the shared card code and the codecs with mypyc when a C compiler is here.

All metadata lives in pyproject.toml. The generated code is never committed, so a
wheel built from a clean clone must generate it: into the build folder for a
regular build, into server/ for an editable install (which imports from there).

The compiled modules come from the same typed source (docs/compiled.md): mypyc turns
each listed module into a C extension that is imported instead of its ``.py``.
``MAZZO_PURE=1`` builds pure Python; without a C compiler, or when the compile fails,
the build says so in one line on stderr and installs pure Python, which behaves the
same, only slower.
"""

from __future__ import annotations

import functools
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent
SERVER = ROOT / "server"
#: The hot path of every request, all pure functions on immutable values: the rules,
#: the cards, the codecs. The service, referee and players spend their time in grpc,
#: asyncio and subprocesses, which compiling would not speed up.
COMPILED = ("mazzo/core", "mazzo/games", "mazzo/codec")
#: Modules of those packages left as Python: the spec's own loop is the slow
#: reference the fast closure finder is checked against; the facade's generic frozen
#: dataclass fails to build its class when compiled (AttributeError on ``__dict__``),
#: and is only read once per call anyway; ``games.roles`` serves the roles left as
#: Python (``PURE_ROLES``), whose classes subclass its own.
KEEP_PURE = (
    "mazzo/games/ramino/reference.py",
    "mazzo/core/facade.py",
    "mazzo/games/declaration.py",
    "mazzo/games/roles.py",
)
#: The roles of a game's package (docs/architecture.md) that serve the viewer, the
#: referee, the players, RL and the tooling rather than each request, like the layers
#: they serve: left as Python. The engine and its codec (``wire``, ``bounds``) are compiled.
PURE_ROLES = (
    "declaration",
    "texts",
    "table",
    "records",
    "heuristic",
    "encoding",
    "chance",
    "conformance",
)


def _compiled(path: Path) -> bool:
    relative = str(path.relative_to(SERVER))
    in_game = relative.startswith("mazzo/games/") and path.parent.name != "games"
    return relative not in KEEP_PURE and not (in_game and path.stem in PURE_ROLES)


#: One group: one shared library (the top-level module mazzo_native__mypyc; mypyc
#: cannot place it inside a package), so calls between compiled modules are native C
#: calls; multi-file mode gives one C file per module, which ``BuildExtParallel``
#: compiles on every core.
GROUP = "mazzo_native"
#: gcc's optimisation level (``MAZZO_OPT`` overrides it). Measured (docs/compiled.md):
#: -O1 halves the C compile against -O3 and runs 0-1.5 % more instructions, since the
#: generated code spends its time in CPython's own functions. No debug info (-g0): it
#: cost a fifth of the compile, and nobody steps through generated C.
OPT_LEVEL = "1"


def _say(message: str) -> None:
    print(f"mazzo build: {message}", file=sys.stderr, flush=True)


def _compiler() -> str | None:
    """The C compiler setuptools would run, if it is installed."""
    cc = os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc"
    return shutil.which(shlex.split(cc)[0])


def _sources() -> list[str]:
    return sorted(
        str(path.relative_to(ROOT))
        for package in COMPILED
        for path in (SERVER / package).rglob("*.py")
        if _compiled(path)
    )


def _generate_protos(out: Path) -> None:
    gen = ROOT / "scripts" / "gen_proto.py"
    subprocess.run([sys.executable, str(gen), "--out", str(out)], check=True)


def compile_wanted() -> bool:
    """Whether to compile: checked cheaply here, because pip runs this file once per
    build step; mypyc itself runs in ``build_ext``, which only the build proper runs."""
    if os.environ.get("MAZZO_PURE", "") not in ("", "0"):
        _say("pure Python (MAZZO_PURE is set)")
        return False
    if _compiler() is None:
        _say("pure Python: no C compiler found (install gcc or clang to compile)")
        return False
    try:
        import mypyc.build  # noqa: F401
    except ImportError:
        _say("pure Python: mypyc is not installed (pip install mypy)")
        return False
    return True


def mypyc_extensions() -> list[Extension]:
    """The mypyc extensions (C files written to build/mypyc), or none with the reason
    on stderr."""
    from mypyc.build import mypycify

    # mypyc type-checks the codecs against the generated protobuf stubs, which must
    # therefore exist in the source tree, even for a regular build.
    if not (SERVER / "mazzo" / "v1" / "game_pb2.pyi").exists():
        _generate_protos(SERVER)
    start = time.perf_counter()
    try:
        extensions: list[Extension] = mypycify(
            _sources(),
            multi_file=True,
            group_name=GROUP,
            target_dir="build/mypyc",
            opt_level=os.environ.get("MAZZO_OPT", OPT_LEVEL),
            debug_level="0",
        )
    except (Exception, SystemExit) as e:  # type errors end mypyc with SystemExit
        _say(f"pure Python: mypyc could not translate the modules ({e!r})")
        return []
    _say(f"mypyc translated {len(extensions) - 1} modules in {time.perf_counter() - start:.0f} s")
    return extensions


def _building() -> bool:
    """Whether this run of setup.py builds (a wheel, an editable wheel, an install),
    rather than only reading the metadata."""
    return not {"bdist_wheel", "editable_wheel", "build", "build_ext", "install"}.isdisjoint(
        sys.argv[1:]
    )


@functools.cache
def _mypyc_once() -> list[Extension]:
    return mypyc_extensions()


def _parallel_compile(compile_: Callable[..., list[str]], jobs: int) -> Callable[..., list[str]]:
    """``compile_`` spread over ``jobs`` threads, each running the compiler on a share of
    the sources: setuptools compiles one extension's sources one after another, and the
    shared library holds almost all of them."""

    def compile_all(sources: Sequence[str], *args: Any, **kwargs: Any) -> list[str]:
        if len(sources) < 2 or jobs < 2:
            return compile_(sources, *args, **kwargs)
        # Largest first, dealt round robin, so the shares take about the same time.
        ordered = sorted(sources, key=lambda s: -os.path.getsize(s))
        shares = [ordered[i::jobs] for i in range(jobs)]
        with ThreadPoolExecutor(jobs) as pool:
            done = pool.map(lambda share: compile_(share, *args, **kwargs), shares)
        objects: dict[str, str] = {}
        for share, objs in zip(shares, done, strict=True):
            objects.update(zip(share, objs, strict=True))
        return [objects[s] for s in sources]

    return compile_all


class BuildExtParallel(build_ext):
    """Compiles on every core, times the compile, and falls back to pure Python (the
    ``.py`` files are installed either way) when the C compile fails."""

    def finalize_options(self) -> None:
        # mypyc runs here rather than when this file is read, and only for a command
        # that builds: pip's requirements and metadata steps (egg_info, dist_info)
        # finalize build_ext too, and each ran a whole translation (about 10 s) for
        # nothing.
        if self.distribution.ext_modules == [PLACEHOLDER] and _building():
            self.distribution.ext_modules = _mypyc_once()
        super().finalize_options()
        if not self.parallel:
            self.parallel = os.cpu_count() or 1

    def build_extensions(self) -> None:
        jobs = int(self.parallel or 1)
        self.compiler.compile = _parallel_compile(self.compiler.compile, jobs)
        start = time.perf_counter()
        try:
            super().build_extensions()
        except Exception as e:  # CompileError, LinkError, a missing header...
            for output in self.get_outputs():
                Path(output).unlink(missing_ok=True)  # half a build must not be imported
            self.extensions = []
            _say(f"pure Python: the C compile failed ({e})")
            return
        seconds = time.perf_counter() - start
        _say(f"compiled {len(self.extensions)} extensions on {jobs} jobs in {seconds:.0f} s")


def remove_stale_extensions() -> None:
    """A pure editable install after a compiled one: the extension modules left in
    server/ would still be imported before the ``.py`` files, so they go."""
    for path in [*(SERVER / "mazzo").rglob("*"), *SERVER.glob(f"{GROUP}__mypyc.*")]:
        if path.suffix in (".so", ".pyd") and path.is_file():
            path.unlink()


class BuildPyWithProtos(build_py):
    def run(self) -> None:
        super().run()
        out = SERVER if self.editable_mode else Path(self.build_lib)
        if self.editable_mode and not COMPILE:
            remove_stale_extensions()
        _generate_protos(out)


COMPILE = compile_wanted()
#: Stands for the mypyc extensions until ``build_ext`` runs mypyc; also what marks the
#: wheel as one for this platform.
PLACEHOLDER = Extension(f"{GROUP}__mypyc", sources=[])
setup(
    cmdclass={"build_py": BuildPyWithProtos, "build_ext": BuildExtParallel},
    ext_modules=[PLACEHOLDER] if COMPILE else [],
)
