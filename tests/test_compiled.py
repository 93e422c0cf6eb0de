"""The build report (docs/compiled.md): which build runs, said by ``mazzo --version``,
the server's first log line and ``mazzo bench``; ``MAZZO_PURE=1`` at run time imports
the pure sources. These pass on either build: ``make test`` runs them on pure Python,
``make compiled-test`` on the compiled one."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

from mazzo import __version__
from mazzo.buildinfo import Build, compiled_modules, current
from mazzo.freshness import SourcesFirst, stale_extensions, use_fresh_code

PROBES = ("mazzo.games.maraffa.rules", "mazzo.games.maraffa.wire", "mazzo.core.cards")


def run(code: str, pure: bool) -> str:
    env = {**os.environ, "MAZZO_PURE": "1" if pure else "0"}
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


def compiled_install() -> bool:
    """Whether the install runs compiled: this process may run pure (``make test``
    runs some tests again with MAZZO_PURE=1), so a child without it is asked."""
    return run("from mazzo.buildinfo import current; print(current().compiled)", False) == "True"


def test_version_names_the_build_that_runs() -> None:
    compiled = compiled_install()
    for pure in (False, True):
        done = subprocess.run(
            [sys.executable, "-m", "mazzo", "--version"],
            env={**os.environ, "MAZZO_PURE": "1" if pure else "0"},
            capture_output=True,
            text=True,
            check=True,
        )
        line = done.stdout.strip()
        assert line.startswith(f"mazzo {__version__} ("), line
        if pure or not compiled:
            assert "(pure Python" in line, line
        else:
            assert f"(compiled: mypyc, {current().modules} modules)" in line, line


def test_mazzo_pure_imports_the_sources_even_where_compiled_modules_are() -> None:
    code = f"import importlib; print([importlib.import_module(m).__file__ for m in {PROBES}])"
    pure = run(code, pure=True)
    assert pure.count(".py'") == len(PROBES), pure
    if compiled_install():
        assert run(code, pure=False).count(".so'") == len(PROBES)
    # Both builds deal the same match (the differential check compares far more).
    deal = (
        "from mazzo.games.maraffa import options, rules; "
        "print(rules.deal(options.Options(), 4, 7)[0])"
    )
    assert run(deal, pure=True) == run(deal, pure=False)


def test_compiled_modules_are_extensions_beside_their_sources(tmp_path: Path) -> None:
    suffix = EXTENSION_SUFFIXES[0]
    package = tmp_path / "mazzo"
    (package / "games").mkdir(parents=True)
    for name in ("rules.py", f"rules{suffix}", "cli.py", "games/__init__.py"):
        (package / name).touch()
    (package / f"games/__init__{suffix}").touch()
    (package / f"orphan{suffix}").touch()  # no source beside it: not one of ours
    assert compiled_modules(package) == ["mazzo.games", "mazzo.rules"]


def test_describe() -> None:
    assert Build(True, 73).describe() == "compiled: mypyc, 73 modules"
    assert Build(False, 0).describe() == "pure Python"
    assert Build(False, 73).describe() == "pure Python: MAZZO_PURE=1, 73 compiled modules not used"
    assert (Build(True, 73).label, Build(False, 73).label) == ("mypyc", "pure")


@pytest.mark.slow
def test_bench_reports_the_build_and_compares_builds_when_compiled() -> None:
    bench = [sys.executable, "-m", "mazzo", "bench", "--seconds", "0.2", "--closure-hands", "20"]
    done = subprocess.run(
        [*bench, "--only", "maraffa_state_codec", "--builds", "--builds-rounds", "1"],
        capture_output=True,
        text=True,
        check=True,
    )
    report = json.loads(done.stdout)
    assert report["build"] == current().describe()
    if not current().compiled:
        assert "make compiled" in report["builds"]["skipped"]
        return
    ratios = report["builds"]["ratios"]
    assert set(ratios) == {
        "maraffa_random_hands_4p",
        "burraco_random_hands_4p",
        "ramino_random_hands_4p",
        "ramino_closure_check",
    }
    assert all(r > 0 for r in ratios.values()), ratios
    assert all(len(r) == 1 for r in report["builds"]["round_ratios"].values())


def test_no_compiled_function_catches_two_exception_types_under_one_name() -> None:
    """Compiled, a local name has one type per function: ``except InvalidArgument as
    e`` then ``except InvalidState as e`` raised a TypeError inside the second handler
    (an INTERNAL answer to a fuzzed Determinize), where pure Python ran it."""
    server = Path(__file__).parents[1] / "server" / "mazzo"
    clashes = []
    for folder in ("core", "games", "codec"):
        for path in sorted((server / folder).rglob("*.py")):
            for fn in ast.walk(ast.parse(path.read_text(), str(path))):
                if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
                    continue
                caught: dict[str, set[str]] = {}
                for node in ast.walk(fn):
                    if isinstance(node, ast.ExceptHandler) and node.name and node.type:
                        caught.setdefault(node.name, set()).add(ast.unparse(node.type))
                clashes += [
                    f"{path.relative_to(server)}:{fn.lineno} {fn.name}: {name} {sorted(types)}"
                    for name, types in caught.items()
                    if len(types) > 1
                ]
    assert clashes == []


def test_a_source_edited_after_its_compile_is_found_in_a_source_tree_only(
    tmp_path: Path,
) -> None:
    """An extension older than its source would run the old code: ``import mazzo``
    then runs the sources (with a warning). Only in a source tree: a wheel's file
    times are its install's."""
    suffix = EXTENSION_SUFFIXES[0]
    package = tmp_path / "server" / "mazzo"
    (package / "games").mkdir(parents=True)
    for name in ("games/rules", "games/moves"):
        (package / f"{name}.py").touch()
        (package / f"{name}{suffix}").touch()
    os.utime(package / "games/rules.py", (2e9, 2e9))  # edited after the compile
    assert stale_extensions(str(package)) == []  # no pyproject.toml: not a source tree
    (tmp_path / "pyproject.toml").touch()
    assert stale_extensions(str(package)) == ["mazzo/games/rules.py"]


def test_a_stale_extension_runs_the_sources_and_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = tmp_path / "server" / "mazzo"
    (package / "core").mkdir(parents=True)
    (tmp_path / "pyproject.toml").touch()
    (package / f"core/cards{EXTENSION_SUFFIXES[0]}").touch()
    (package / "core/cards.py").touch()
    os.utime(package / "core/cards.py", (2e9, 2e9))
    monkeypatch.delenv("MAZZO_PURE", raising=False)
    monkeypatch.setattr(sys, "meta_path", list(sys.meta_path))  # restored after
    with pytest.warns(RuntimeWarning, match="mazzo/core/cards.py .* changed since"):
        use_fresh_code(str(package))
    assert isinstance(sys.meta_path[0], SourcesFirst)
