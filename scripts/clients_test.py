#!/usr/bin/env python3
"""Build and check every client under clients/ against one live Mazzo server.

For each clients/<lang>/ with a Makefile and run-bot (the client contract):
``make build`` (timed), ``run-conformance`` on clients/conformance/vectors (the
server has a seal key made for the run, for the sealed vectors),
``run-example`` for every registered game (a whole short match each: the example form
its declaration gives, e.g. Maraffa to a target of 1), ``run-bot --port 0``, and
``run-search-bot --port 0 --service <the server>`` where the client has one. Then one
short Maraffa tournament through the referee in which every language's bots take a
seat (teams of two languages: one's random starter beside the next one's search
starter, against each other and a builtin bot), and ``mazzo replay`` on its records.
Last a short dial-in tournament (Briscola, 2 players): every language's starter
takes a ``connect:`` seat through the referee's gateway with ``run-bot --connect``,
binding no port of its own (checked: no listening socket in its processes), and
``mazzo verify`` checks its records. Prints a JSON summary; exits 1 on
any failure. Every process it starts is stopped at the end, also on failure or Ctrl-C.

    python scripts/clients_test.py [--only go,python] [--skip-build | --build-only]
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import IO, Any

ROOT = Path(__file__).resolve().parent.parent
CLIENTS = ROOT / "clients"
VECTORS = CLIENTS / "conformance" / "vectors"
MAZZO = [sys.executable, "-m", "mazzo"]
# Passed to every client's make build; a client reads what it knows. The Rust client's
# quick profile (no optimiser) halves its cold build: these bots show they play, the
# READMEs' strength figures come from release builds.
BUILD_VARIABLES = ["PROFILE=quick"]


def example_forms() -> list[tuple[str, int, str]]:
    """(game, players, --options): each a whole match through Deal, ApplyMove and
    Score, kept short (a random 4-player Ramino match to the default end takes ~14,000
    moves): each registered game's example form (its declaration's conformance part).
    Imported here, not at the top: ``--build-only`` runs before mazzo is installed."""
    from mazzo.games.registry import GAMES

    return [
        (id, form.players, json.dumps({id: form.options}))
        for id, game in GAMES.items()
        for form in [game.conformance().example_form()]
    ]


BUILD_TIMEOUT = 1800.0
RUN_TIMEOUT = 600.0
START_TIMEOUT = 120.0
#: Every vector must pass: a runner that skips some is a failure, not a pass.
VECTOR_COUNT = sum(len(json.loads(p.read_text())["vectors"]) for p in VECTORS.glob("*.json"))


class Processes:
    """Every process started here, each in its own process group, so that stopping
    one stops what it started (a wrapper script's children included)."""

    def __init__(self) -> None:
        self.running: list[subprocess.Popen[str]] = []

    def start(
        self, argv: Sequence[str], log: IO[str], cwd: Path = ROOT, stdout_pipe: bool = False
    ) -> subprocess.Popen[str]:
        proc = subprocess.Popen(
            list(argv),
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE if stdout_pipe else log,
            stderr=log,
            text=True,
            start_new_session=True,
        )
        self.running.append(proc)
        return proc

    def stop(self, proc: subprocess.Popen[str], grace: float = 5.0) -> None:
        if proc.poll() is None:
            self._signal(proc, signal.SIGTERM)
            try:
                proc.wait(grace)
            except subprocess.TimeoutExpired:
                self._signal(proc, signal.SIGKILL)
                proc.wait()
        else:  # the leader is gone; stragglers of its group are not left behind
            self._signal(proc, signal.SIGKILL)
        with contextlib.suppress(ValueError):  # another thread may have removed it
            self.running.remove(proc)

    @staticmethod
    def _signal(proc: subprocess.Popen[str], sig: int) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, sig)  # the group this script created for it

    def run(
        self, argv: Sequence[str], log_path: Path, timeout: float, cwd: Path = ROOT
    ) -> tuple[int, str, float]:
        """Run to the end: exit code (-1 on timeout), output, seconds."""
        start = time.monotonic()
        with log_path.open("w") as log:
            proc = self.start(argv, log, cwd)
            try:
                code = proc.wait(timeout)
            except subprocess.TimeoutExpired:
                code = -1
            self.stop(proc)
        return code, log_path.read_text(errors="replace"), time.monotonic() - start

    def stop_all(self) -> None:
        for proc in list(self.running):
            self.stop(proc, grace=3.0)


def read_line(proc: subprocess.Popen[str], pattern: str, timeout: float) -> re.Match[str] | None:
    """The first stdout line of ``proc`` matching ``pattern``; later output is drained
    in the background so the process never blocks on a full pipe."""
    assert proc.stdout is not None
    found: list[re.Match[str]] = []
    ready = threading.Event()

    def pump() -> None:
        assert proc.stdout is not None
        for line in proc.stdout:
            if not found:
                match = re.search(pattern, line)
                if match:
                    found.append(match)
                    ready.set()
        ready.set()

    threading.Thread(target=pump, daemon=True).start()
    ready.wait(timeout)
    return found[0] if found else None


def discover(only: set[str] | None) -> list[str]:
    langs = []
    for folder in sorted(p for p in CLIENTS.iterdir() if p.is_dir()):
        if (folder / "Makefile").is_file() and os.access(folder / "run-bot", os.X_OK):
            langs.append(folder.name)
    if only is not None:
        missing = only - set(langs)
        if missing:
            raise SystemExit(f"no client folder for: {', '.join(sorted(missing))}")
        langs = [lang for lang in langs if lang in only]
    return langs


def tail(text: str, lines: int = 15) -> str:
    return "\n".join(text.rstrip().splitlines()[-lines:])


#: Both tournaments' time control and fault policy: time enough for any starter, and a
#: fault played on (a random move) so that the run still finishes to be checked.
CLOCK_AND_FAULTS = (
    "",
    "[time]",
    "move = 5.0",
    "bank = 60.0",
    "",
    "[faults]",
    'on_fault = "random"',
    "disqualify_after = 0",
)


def tournament_toml(bots: dict[str, str], search_bots: dict[str, str], records: Path) -> str:
    """Teams of two languages (each plays with the next one: every bot sits beside
    another language's): a language's random starter and the next language's search
    starter (its random one when it has none), against each other and a builtin bot,
    round-robin, one deal a pairing."""
    langs = sorted(bots)
    lines = [
        'name = "clients-test"',
        'game = "maraffa"',
        "players = 4",
        "seed = 2026",
        'format = "round-robin"',
        "deals = 1",  # a search starter takes up to 1 s a move: the run stays short
        "duplicate = false",  # 15 matches: every bot takes a seat in five
        "concurrency = 4",  # the bots wait on their service calls: four tables keep 2 cores busy
        f"records = {json.dumps(str(records))}",
        "",
        "[options]",
        "target = 11",
        *CLOCK_AND_FAULTS,
    ]
    for i, lang in enumerate(langs):
        partner = langs[(i + 1) % len(langs)]
        name = lang if partner == lang else f"{lang}+{partner}"
        if partner in search_bots:
            name += "-search" if partner != lang else "+search"
        team = [f"grpc://{bots[lang]}", f"grpc://{search_bots.get(partner, bots[partner])}"]
        lines += ["", "[[entrants]]", f"name = {json.dumps(name)}", f"bots = {json.dumps(team)}"]
    lines += ["", "[[entrants]]", 'name = "builtin-heuristic"', 'bot = "builtin:heuristic"']
    return "\n".join(lines) + "\n"


def dial_in_toml(langs: Sequence[str], records: Path) -> str:
    """Each dial-in language's ``connect:`` seat and a builtin bot, round-robin in
    2-player Briscola: a few seconds, and every starter plays every other."""
    lines = [
        'name = "clients-test-dial-in"',
        'game = "briscola"',
        "players = 2",
        "seed = 2026",
        'format = "round-robin"',
        "deals = 1",
        "duplicate = false",
        "concurrency = 2",
        f"records = {json.dumps(str(records))}",
        *CLOCK_AND_FAULTS,
    ]
    for lang in langs:
        lines += ["", "[[entrants]]", f"name = {json.dumps(lang)}", f'bot = "connect:{lang}"']
    lines += ["", "[[entrants]]", 'name = "builtin-random"', 'bot = "builtin:random"']
    return "\n".join(lines) + "\n"


def process_group(leader: int) -> list[int]:
    """The live processes of the group ``leader`` leads (each process started here
    leads its own: a wrapper script's children are in it)."""
    members = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            with contextlib.suppress(OSError, IndexError, ValueError):
                # The fields after the command's closing parenthesis: state, ppid, pgrp.
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
                if int(fields[2]) == leader:
                    members.append(int(entry.name))
    return members


def listening_sockets(pids: Sequence[int]) -> list[str]:
    """The TCP sockets that ``pids`` hold open in the LISTEN state, as ``pid:port``:
    a bound server's socket (Linux /proc: the socket inodes of each process's file
    descriptors against /proc/net/tcp and tcp6, state 0A)."""
    listening: dict[str, int] = {}  # inode: port
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError):
            for row in Path(table).read_text().splitlines()[1:]:
                fields = row.split()
                if fields[3] == "0A":
                    listening[fields[9]] = int(fields[1].rsplit(":", 1)[1], 16)
    found = []
    for pid in pids:
        with contextlib.suppress(OSError):
            for fd in Path(f"/proc/{pid}/fd").iterdir():
                with contextlib.suppress(OSError):
                    link = os.readlink(fd)
                    inode = link.removeprefix("socket:[").removesuffix("]")
                    if link.startswith("socket:[") and inode in listening:
                        found.append(f"{pid}:{listening[inode]}")
    return found


def check_records(path: Path) -> tuple[int, int, list[str]]:
    """Matches, faults, and problems (an unfinished match, a fault) in the records."""
    matches = faults = 0
    problems = []
    for line in path.read_text().splitlines():
        record = json.loads(line)
        matches += 1
        faults += len(record.get("faults", []))
        for fault in record.get("faults", []):
            problems.append(f"{record['id']}: fault {fault.get('class')} by {fault.get('bot')}")
        if not record.get("result", {}).get("finished"):
            problems.append(f"{record['id']}: not finished")
    return matches, faults, problems


def seal_key_file(work: Path) -> Path:
    """A key file made now, for this run only (the sealed vectors need a server with a
    key, docs/sealing.md): never committed, gone with the temporary folder."""
    path = work / "seal.keys"
    path.write_text(f"clients-test {base64.b64encode(os.urandom(32)).decode()}\n")
    path.chmod(0o600)
    return path


def run(args: argparse.Namespace, procs: Processes, work: Path) -> dict[str, Any]:
    only = set(args.only.split(",")) if args.only else None
    langs = discover(only)
    if not langs:
        raise SystemExit("no clients found under clients/")
    summary: dict[str, Any] = {"languages": {}, "ok": False}
    results: dict[str, dict[str, Any]] = summary["languages"]
    failures: list[str] = []

    def fail(lang: str, what: str, detail: str = "") -> None:
        failures.append(f"{lang}: {what}")
        print(f"clients-test: {lang}: {what}" + (f"\n{detail}" if detail else ""), file=sys.stderr)

    def build(lang: str) -> tuple[int, str, float]:
        print(f"clients-test: building {lang} ...", file=sys.stderr)
        return procs.run(
            ["make", "-C", str(CLIENTS / lang), "build", *BUILD_VARIABLES],
            work / f"{lang}-build.log",
            BUILD_TIMEOUT,
        )

    for lang in langs:
        results[lang] = {"build_seconds": None, "build_ok": None}
    if not args.skip_build:
        # All at once: the Rust build's long link and Maven's and npm's waits overlap
        # (the builds write only their own folders; the shared proto-deps and buf are
        # prerequisites of make clients-test).
        pool = ThreadPoolExecutor(max_workers=len(langs))
        try:
            builds = dict(zip(langs, pool.map(build, langs), strict=True))
        finally:  # when interrupted, stopping the builds ends the threads' waits
            procs.stop_all()
            pool.shutdown(cancel_futures=True)
            procs.stop_all()
        for lang, (code, out, seconds) in builds.items():
            results[lang]["build_seconds"] = round(seconds, 1)
            results[lang]["build_ok"] = code == 0
            if code != 0:
                fail(lang, f"build failed (exit {code})", tail(out))
    built = [lang for lang in langs if results[lang]["build_ok"] is not False]
    if args.build_only:
        summary["ok"] = not failures
        return summary

    server_log = (work / "server.log").open("w")
    keys = ["--seal-key-file", str(seal_key_file(work))]
    server = procs.start(
        [*MAZZO, "serve", "--host", "127.0.0.1", "--port", "0", "--no-http", *keys],
        server_log,
        stdout_pipe=True,
    )
    match = read_line(server, r"serving gRPC on (\S+:\d+)", START_TIMEOUT)
    if match is None:
        raise SystemExit("clients-test: the Mazzo server did not start; see " + server_log.name)
    target = match.group(1)
    summary["server"] = target

    bots: dict[str, str] = {}
    search_bots: dict[str, str] = {}

    def play(lang: str) -> None:
        """A language's conformance run and examples, then its bots started: each
        language's own processes, so the languages go side by side (a JVM's start-ups
        beside the others' runs)."""
        result = results[lang]
        folder = CLIENTS / lang
        code, out, seconds = procs.run(
            [str(folder / "run-conformance"), "--target", target, "--vectors", str(VECTORS)],
            work / f"{lang}-conformance.log",
            RUN_TIMEOUT,
        )
        found = re.findall(r"^conformance \S+: passed=(\d+) failed=(\d+)\s*$", out, re.M)
        passed, failed = (int(found[-1][0]), int(found[-1][1])) if found else (0, 0)
        result["conformance"] = {"passed": passed, "failed": failed, "seconds": round(seconds, 1)}
        if code != 0 or not found or failed or passed != VECTOR_COUNT:
            fail(
                lang,
                f"conformance: exit {code}, passed={passed} of {VECTOR_COUNT}, failed={failed}",
                tail(out),
            )

        examples: dict[str, Any] = {}
        for game, players, options in example_forms():
            argv = [str(folder / "run-example"), "--target", target, "--game", game]
            argv += ["--players", str(players), "--seed", "1", "--options", options]
            code, out, seconds = procs.run(argv, work / f"{lang}-example-{game}.log", RUN_TIMEOUT)
            last = out.strip().splitlines()[-1] if out.strip() else ""
            ok = code == 0 and last.startswith(f"finished {game} players={players} ")
            examples[game] = {"ok": ok, "seconds": round(seconds, 1), "line": last}
            if not ok:
                fail(lang, f"example {game}: exit {code}", tail(out))
        result["examples"] = examples
        result["example_ok"] = all(e["ok"] for e in examples.values())

        log = (work / f"{lang}-bot.log").open("w")
        bot = procs.start(
            [str(folder / "run-bot"), "--port", "0", "--seed", "1"], log, folder, True
        )
        listening = read_line(bot, r"^LISTENING (\S+:\d+)\s*$", START_TIMEOUT)
        if listening is None:
            fail(
                lang,
                "run-bot printed no LISTENING line",
                tail((work / f"{lang}-bot.log").read_text()),
            )
            procs.stop(bot)
        else:
            bots[lang] = listening.group(1)
            result["bot"] = bots[lang]

        if os.access(folder / "run-search-bot", os.X_OK):
            log = (work / f"{lang}-search-bot.log").open("w")
            # A light search: here each bot shows it plays; strength is the READMEs'.
            argv = [str(folder / "run-search-bot"), "--port", "0", "--service", target]
            argv += ["--determinizations", "8", "--playouts", "2"]
            bot = procs.start(argv, log, folder, True)
            listening = read_line(bot, r"^LISTENING (\S+:\d+)\s*$", START_TIMEOUT)
            if listening is None:
                fail(
                    lang,
                    "run-search-bot printed no LISTENING line",
                    tail((work / f"{lang}-search-bot.log").read_text()),
                )
                procs.stop(bot)
            else:
                search_bots[lang] = result["search_bot"] = listening.group(1)

    # One thread per language: the runs are other processes; each writes its own logs
    # and its own entries of results, bots and search_bots.
    with ThreadPoolExecutor(max_workers=max(1, len(built))) as languages:
        for done in [languages.submit(play, lang) for lang in built]:
            done.result()

    tournament: dict[str, Any] = {"matches": 0, "faults": 0, "replayed": False}
    summary["tournament"] = tournament
    if bots:
        records = work / "tournament.jsonl"
        config = work / "tournament.toml"
        config.write_text(tournament_toml(bots, search_bots, records))
        argv = [*MAZZO, "tournament", str(config), "--no-progress", "--service", target]
        code, out, seconds = procs.run(argv, work / "tournament.log", RUN_TIMEOUT)
        tournament["seconds"] = round(seconds, 1)
        tournament["entrants"] = sorted(
            set(re.findall(r'^name = "([^"]+)"', config.read_text(), re.M)) - {"clients-test"}
        )
        if code != 0 or not records.exists():
            fail("tournament", f"exit {code}", tail(out))
        else:
            matches, faults, problems = check_records(records)
            tournament.update(matches=matches, faults=faults)
            seated = {
                bot
                for line in records.read_text().splitlines()
                for bot in json.loads(line).get("seat_bots", [])
            }
            for address in [*bots.values(), *search_bots.values()]:
                if f"grpc://{address}" not in seated:
                    problems.append(f"grpc://{address} never took a seat")
            if not matches or problems:
                fail(
                    "tournament",
                    f"{matches} matches, {len(problems)} problems",
                    "\n".join(problems[:20]),
                )
            code, out, _ = procs.run(
                [*MAZZO, "replay", str(records)], work / "replay.log", RUN_TIMEOUT
            )
            tournament["replayed"] = code == 0
            if code != 0:
                fail("tournament", "mazzo replay found a divergence", tail(out))
    dialing = list(built)  # every starter dials in too: ``run-bot --connect``
    if dialing:
        started = time.monotonic()
        summary["dial_in"] = dial_in_tournament(dialing, procs, work, fail)
        # Everything it adds to the run: tokens, tournament, starters, mazzo verify.
        summary["dial_in"]["seconds"] = round(time.monotonic() - started, 1)
    summary["failures"] = failures
    summary["ok"] = not failures and bool(bots) and len(built) == len(langs)
    return summary


def dial_in_tournament(
    langs: Sequence[str], procs: Processes, work: Path, fail: Callable[..., None]
) -> dict[str, Any]:
    """The dial-in tournament: a token per language, ``mazzo tournament --gateway 0``
    with a ``connect:LANG`` entrant each, each starter started with ``--connect``.
    Fails when a starter holds a listening socket, never joins, does not exit 0 when
    the run ends the stream, or when the records show a fault or do not verify."""
    result: dict[str, Any] = {"languages": list(langs), "matches": 0, "faults": 0}
    tokens_file = work / "dial-in-tokens.json"
    tokens = {}
    for lang in langs:
        made = subprocess.run(
            [*MAZZO, "token", "new", lang, "--tokens", str(tokens_file)],
            capture_output=True,
            text=True,
            timeout=RUN_TIMEOUT,
            check=False,
        )
        if made.returncode != 0 or not made.stdout.strip():
            fail("dial-in", f"mazzo token new {lang}: exit {made.returncode}", made.stderr)
            return result
        tokens[lang] = made.stdout.strip()
    records = work / "dial-in.jsonl"
    config = work / "dial-in.toml"
    config.write_text(dial_in_toml(langs, records))
    log_path = work / "dial-in-tournament.log"
    argv = [*MAZZO, "tournament", str(config), "--no-progress"]
    argv += ["--gateway", "0", "--tokens", str(tokens_file), "--dial-in-wait", str(START_TIMEOUT)]
    with log_path.open("w") as log:  # the child holds its own copy
        tournament = procs.start(argv, log, stdout_pipe=True)
    gateway = read_line(tournament, r"^gateway: grpc://(\S+:\d+)\s*$", START_TIMEOUT)
    if gateway is None:
        fail("dial-in", "the tournament printed no gateway line")
        procs.stop(tournament)
        return result
    result["gateway"] = gateway.group(1)
    starters = {}
    for lang in langs:
        folder = CLIENTS / lang
        argv = [str(folder / "run-bot"), "--connect", gateway.group(1), "--token", tokens[lang]]
        with (work / f"{lang}-dial-in.out").open("w") as sink:  # its stdout and stderr
            starters[lang] = procs.start([*argv, "--seed", "1"], sink, folder)
    # Every starter has joined once its JOINED line is out; sockets are read then,
    # while each is connected and playing (the tournament waits for all of them).
    joined: dict[str, bool] = {}
    sockets: dict[str, list[str]] = {}
    deadline = time.monotonic() + START_TIMEOUT
    while len(joined) < len(langs) and time.monotonic() < deadline:
        for lang, starter in starters.items():
            if lang not in joined:
                text = (work / f"{lang}-dial-in.out").read_text(errors="replace")
                if re.search(rf"^JOINED {re.escape(lang)}\s*$", text, re.M):
                    joined[lang] = True
                    sockets[lang] = listening_sockets(process_group(starter.pid))
                elif starter.poll() is not None:
                    joined[lang] = False
        time.sleep(0.05)
    try:
        code = tournament.wait(RUN_TIMEOUT)
    except subprocess.TimeoutExpired:
        code = -1
    procs.stop(tournament)
    starters_result: dict[str, Any] = {}
    result["starters"] = starters_result
    for lang, starter in starters.items():
        try:  # the gateway ended the stream: each starter exits 0 on its own
            exit_code: int | None = starter.wait(15.0)
        except subprocess.TimeoutExpired:
            exit_code = None
        procs.stop(starter)
        text = (work / f"{lang}-dial-in.out").read_text(errors="replace")
        listened = sockets.get(lang, []) + re.findall(r"^LISTENING (\S+)", text, re.M)
        starters_result[lang] = {
            "joined": joined.get(lang, False),
            "exit": exit_code,
            "listening": listened,
        }
        if not joined.get(lang):
            fail(lang, "dial-in: run-bot --connect never joined", tail(text))
        if listened:
            fail(lang, f"dial-in: the starter listened on {', '.join(listened)}")
        if exit_code != 0:
            fail(lang, f"dial-in: run-bot --connect exit {exit_code} after the run", tail(text))
    if code != 0 or not records.exists():
        fail("dial-in", f"tournament exit {code}", tail(log_path.read_text()))
        return result
    matches, faults, problems = check_records(records)
    result.update(matches=matches, faults=faults)
    seated = {
        bot for line in records.read_text().splitlines() for bot in json.loads(line)["seat_bots"]
    }
    problems += [
        f"connect:{lang} never took a seat" for lang in langs if f"connect:{lang}" not in seated
    ]
    if not matches or problems:
        fail("dial-in", f"{matches} matches, {len(problems)} problems", "\n".join(problems[:20]))
    code, out, _ = procs.run(
        [*MAZZO, "verify", str(records)], work / "dial-in-verify.log", RUN_TIMEOUT
    )
    result["verified"] = code == 0
    if code != 0:
        fail("dial-in", "mazzo verify failed", tail(out))
    return result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", help="comma-separated client folders (default: all)")
    parser.add_argument("--skip-build", action="store_true", help="use what is built")
    parser.add_argument(
        "--build-only",
        action="store_true",
        help="only build the clients (needs no venv: make test runs it beside its set-up)",
    )
    parser.add_argument("--keep", type=Path, help="keep logs and records in this folder")
    args = parser.parse_args(argv)

    def terminated(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, terminated)
    signal.signal(signal.SIGINT, terminated)  # also when started with SIGINT ignored
    procs = Processes()
    with tempfile.TemporaryDirectory(prefix="mazzo-clients-") as tmp:
        work = args.keep or Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        try:
            summary = run(args, procs, work)
        except KeyboardInterrupt:
            print("clients-test: interrupted", file=sys.stderr)
            return 130
        finally:
            procs.stop_all()
    print(json.dumps(summary, indent=2, sort_keys=True))
    return 0 if summary["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
