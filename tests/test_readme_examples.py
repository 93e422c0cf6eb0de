"""Every shell example of the READMEs runs as written, so none goes stale.

Each README's ```sh blocks become one bash script, run in a temporary copy of the
README's folder (symbolic links to what is there, so files the examples write stay
out of the work tree), with the service on free ports: the ports the README names
(50051, 8080, 50061, 50062, and ``PORT``) are rewritten to free ones. A command that
starts a server that runs until stopped (``mazzo serve``, a ``run-bot``) runs in the
background, and the script waits for its port before going on, as a reader would;
everything is stopped at the end. A comment line right after a command names words
its output must contain: ``#> words`` (``<...>`` placeholders and ``...`` aside).
Commands that this test cannot or should not run are in
``SKIPPED`` with the reason, and the test checks each is still in a README.

Needs the clients built (``make clients-test`` does it), so ``make test`` runs this
file after them (marker ``readme``; the main pytest run leaves it out).
"""

from __future__ import annotations

import contextlib
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from tests.marks import README

ROOT = Path(__file__).resolve().parents[1]
#: Each README, and the folder its commands run from.
READMES = {
    "README.md": ".",
    "clients/conformance/README.md": ".",
    "clients/go/README.md": "clients/go",
    "clients/java/README.md": "clients/java",
    "clients/python/README.md": "clients/python",
    "clients/rust/README.md": "clients/rust",
    "clients/typescript/README.md": "clients/typescript",
}

#: Command prefixes not run (in the root README, or in any), with why. Each must
#: still occur in a README.
SKIPPED = {
    ("README.md", "make run"): "the test's own `mazzo serve` on free ports stands in for it",
    ("README.md", "make test"): "this test is part of it",
    ("clients/rust/README.md", "make test"): "the Rust client's unit tests compile for two "
    "CPU minutes, outside make test's 15; make -C clients/rust test runs them",
    ("README.md", "make clients-test"): "make test runs it just before this test",
    ("*", "make build"): "make clients-test has built every client",
    **dict.fromkeys(
        (
            ("clients/conformance/README.md", "for language in go java python rust typescript;"),
            ("clients/conformance/README.md", "clients/$language/run-conformance"),
            ("clients/conformance/README.md", "done"),
        ),
        "make clients-test runs this very command for each language just before (scripts/"
        "clients_test.py: run-conformance --target HOST:PORT --vectors clients/conformance/"
        "vectors, against a service with a seal key)",
    ),
    ("*", "make clean"): "would delete the builds the other examples use",
}

#: Commands that serve until stopped: run in the background, then wait for the port.
SERVERS = re.compile(r"(^|/|&& )(mazzo serve|run-bot|run-search-bot)\b")
SH_BLOCK = re.compile(r"^```(?:sh|bash|shell)\n(.*?)^```", re.M | re.S)
PORT_FLAG = re.compile(r"--port (\d+)")


@dataclass
class Command:
    text: str
    expect: list[str] = field(default_factory=list)  # words its output must contain


def commands(readme: Path) -> list[Command]:
    """The README's shell commands in order, continuation lines joined, each with the
    words its ``#>`` lines say the output shows."""
    out: list[Command] = []
    for block in SH_BLOCK.findall(readme.read_text(encoding="utf-8")):
        pending = ""
        for line in block.splitlines():
            stripped = line.strip()
            if pending:
                pending += " " + stripped
            elif stripped.startswith("#>"):
                words = stripped[2:].split()
                out[-1].expect += [w for w in words if re.search(r"\w", w) and "<" not in w]
                continue
            elif stripped.startswith("#"):
                continue
            else:
                pending = stripped
            if pending.endswith("\\"):
                pending = pending[:-1].rstrip()
                continue
            if pending and not pending.startswith("#"):
                out.append(Command(pending))
            pending = ""
    return out


def skip_reason(readme: str, command: str) -> str | None:
    bare = re.sub(r"^make -C \S+ ", "make ", command.split("#")[0].strip())
    for (where, prefix), why in SKIPPED.items():
        if where in ("*", readme) and (bare == prefix or bare.startswith(prefix + " ")):
            return why
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


#: Build outputs and installed packages inside a README's folder: linked whole.
LINKED_WHOLE = {"bin", "dist", "gen", "node_modules", "target", ".tools", ".venv"}


def mirror(folder: Path, into: Path) -> Path:
    """``into`` made to look like the repository, every entry a symbolic link but the
    folders on the way to ``folder`` and the source folders inside it, which are real
    (with copies of their files): what the examples write there lands in ``into``, not
    in the work tree, and tools that skip linked folders (``go test ./...``) still find
    every package. Returns the mirror of ``folder``."""
    src, dst = ROOT, into
    dst.mkdir()
    parts = folder.relative_to(ROOT).parts
    for depth in range(len(parts) + 1):
        keep = parts[depth] if depth < len(parts) else None
        for entry in src.iterdir():
            if entry.name not in (keep, ".git"):
                (dst / entry.name).symlink_to(entry)
        if keep is None:
            if parts:  # a client's folder: its source folders real, down to the files
                _deepen(dst)
            return dst
        src, dst = src / keep, dst / keep
        dst.mkdir()
    raise AssertionError("unreachable")


def _deepen(folder: Path) -> None:
    """Source folders (not build outputs) made real, their files copies: Go embeds no
    linked file. They are small: a client's sources."""
    for link in list(folder.iterdir()):
        target = link.resolve()
        if link.is_symlink() and target.is_dir() and link.name not in LINKED_WHOLE:
            link.unlink()
            link.mkdir()
            for entry in target.iterdir():
                if entry.is_dir():
                    (link / entry.name).symlink_to(entry)
                else:
                    shutil.copy2(entry, link / entry.name)
            _deepen(link)


def script(name: str, ports: dict[str, int]) -> tuple[str, list[str]]:
    """The bash script of the README's examples, and what it skipped (with why)."""
    skipped = []
    lines = [
        "set -euo pipefail",
        # Each server in a process group of its own, stopped at the end (and a second
        # one on the same port stops the first, as a reader would have).
        "stop() { kill -- -$1 2>/dev/null || true; "
        "while kill -0 $1 2>/dev/null; do sleep 0.1; done; }",
        "trap 'for p in $(cat servers.pids 2>/dev/null); do stop $p; done' EXIT",
        "wait_port() { for _ in $(seq 600); do (exec 3<>/dev/tcp/127.0.0.1/$1) 2>/dev/null "
        '&& return 0; sleep 0.1; done; echo "port $1 never opened" >&2; return 1; }',
        'expect() { local out=$1; shift; for w in "$@"; do grep -qF -- "$w" <<<"$out" '
        '|| { echo "expected \\"$w\\" in the output of the last command" >&2; return 1; }; done; }',
    ]
    readme = ROOT / name
    cmds = commands(readme)
    serves = any("mazzo serve" in c.text for c in cmds)
    if not serves:  # the README assumes the service that `make run` starts
        port = ports["50051"]
        # With a seal key made now, as make clients-test's server has: the conformance
        # runners' sealed vectors need one (docs/sealing.md).
        lines.append('(umask 077; echo "readme $(head -c 32 /dev/urandom | base64)" >seal.keys)')
        lines.append(
            f"setsid mazzo serve --host 127.0.0.1 --port {port} --http-port {ports['8080']} "
            "--seal-key-file seal.keys "
            f">>servers.log 2>&1 & echo $! >>servers.pids; wait_port {port}"
        )
    for cmd in cmds:
        why = skip_reason(name, cmd.text)
        if why:
            skipped.append(f"{cmd.text.split('#')[0].strip()}: {why}")
            continue
        text = cmd.text
        for named, port in ports.items():
            text = re.sub(
                rf"(?<![\w.]){named}\b" if named == "PORT" else rf"\b{named}\b", str(port), text
            )
        text = text.replace("localhost:", "127.0.0.1:")
        if "mazzo serve" in text and "--http-port" not in text and "--no-http" not in text:
            text = text.replace("mazzo serve", f"mazzo serve --http-port {ports['8080']}", 1)
        body = text.split(" #")[0].rstrip()
        if SERVERS.search(body):
            port = PORT_FLAG.search(body)
            assert port, f"{readme}: a server without --port: {cmd.text}"
            number = port.group(1)
            lines.append(f'[ -z "${{srv_{number}:-}}" ] || stop $srv_{number}')
            lines.append(f"setsid {body.removesuffix('&').rstrip()} >>servers.log 2>&1 &")
            lines.append(f"srv_{number}=$!; echo $! >>servers.pids; wait_port {number}")
        elif cmd.expect:
            words = " ".join(shlex.quote(w) for w in cmd.expect if not w.startswith("<"))
            lines.append(f'out=$({body}); printf \'%s\\n\' "$out"; expect "$out" {words}')
        else:
            lines.append(body)
    return "\n".join(lines) + "\n", skipped


@README
@pytest.mark.parametrize("name", READMES)
def test_every_shell_example_of_the_readme_runs(name: str, tmp_path: Path) -> None:
    ports = {"50051": free_port(), "8080": free_port(), "50061": free_port(), "50062": free_port()}
    ports["PORT"] = ports["50051"]
    text, skipped = script(name, ports)
    cwd = mirror(ROOT / READMES[name], tmp_path / "repo")
    env = dict(
        os.environ, PATH=f"{ROOT / '.venv' / 'bin'}:{os.environ['PATH']}", TMPDIR=str(tmp_path)
    )
    (tmp_path / "examples.sh").write_text(text)
    proc = subprocess.Popen(
        ["bash", str(tmp_path / "examples.sh")],
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    try:
        output, _ = proc.communicate(timeout=600)
    finally:
        pids = cwd / "servers.pids"
        groups = [proc.pid] + [int(p) for p in pids.read_text().split()] if pids.exists() else []
        for group in groups or [proc.pid]:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(group, signal.SIGKILL)
    servers = (cwd / "servers.log").read_text() if (cwd / "servers.log").exists() else ""
    assert proc.returncode == 0, (
        f"{text}\n--- output\n{output[-6000:]}\n--- servers\n{servers[-3000:]}"
    )
    print("\n".join(f"skipped: {s}" for s in skipped))


def test_every_skipped_command_is_still_in_a_readme() -> None:
    seen = {skip_reason(name, c.text) for name in READMES for c in commands(ROOT / name)}
    assert set(SKIPPED.values()) <= seen


@pytest.mark.parametrize("name", READMES)
def test_a_skipped_command_is_not_in_the_script(name: str) -> None:
    """Every command SKIPPED names stays out of its README's script, wherever it comes
    (a skip once held only for the commands before the first port was rewritten)."""
    ports = {"50051": 1, "8080": 2, "50061": 3, "50062": 4, "PORT": 1}
    lines = script(name, ports)[0].splitlines()
    for command in commands(ROOT / name):
        if skip_reason(name, command.text):
            bare = command.text.split(" #")[0].rstrip()
            assert bare not in lines, f"{name}: {bare} would run"
