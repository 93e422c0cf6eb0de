"""The ``mazzo`` command: ``serve`` and ``bench``."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import sys
from collections.abc import Sequence

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 50051
DEFAULT_HTTP_PORT = 8080


def _port(text: str) -> int:
    value = int(text)
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError("port must be 0..65535")
    return value


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mazzo", description="Rules service for Italian card games"
    )
    sub = parser.add_subparsers(dest="command", required=True)

    serve = sub.add_parser("serve", help="serve GameService over gRPC")
    serve.add_argument(
        "--host",
        default=os.environ.get("MAZZO_HOST", DEFAULT_HOST),
        help="address to listen on (env MAZZO_HOST; default %(default)s)",
    )
    serve.add_argument(
        "--port",
        type=_port,
        default=_port(os.environ.get("MAZZO_PORT", str(DEFAULT_PORT))),
        help="port, 0 for any free one (env MAZZO_PORT; default %(default)s)",
    )
    serve.add_argument(
        "--http-port",
        type=_port,
        default=_port(os.environ.get("MAZZO_HTTP_PORT", str(DEFAULT_HTTP_PORT))),
        help="HTTP/JSON port, 0 for any free one (env MAZZO_HTTP_PORT; default %(default)s)",
    )
    serve.add_argument("--no-http", action="store_true", help="serve gRPC only")
    serve.add_argument("--access-log", action="store_true", help="log every RPC (code, time, id)")
    serve.add_argument(
        "--workers",
        type=int,
        default=int(os.environ.get("MAZZO_WORKERS", "1")),
        help="server processes sharing the ports (env MAZZO_WORKERS; default %(default)s)",
    )
    serve.add_argument(
        "--reuse-port",
        action="store_true",
        help="share the ports with other processes (set by --workers for its workers)",
    )
    serve.add_argument(
        "--log-format",
        choices=("json", "text"),
        default=os.environ.get("MAZZO_LOG_FORMAT", "json"),
        help="log lines as JSON objects or plain text (env MAZZO_LOG_FORMAT; default %(default)s)",
    )

    bench = sub.add_parser("bench", help="measure speed; prints JSON")
    bench.add_argument("--seconds", type=float, default=2.0, help="time per measurement")
    bench.add_argument(
        "--only", action="append", default=None, help="run only these measurements (repeatable)"
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "serve":
        from mazzo.service import logs
        from mazzo.service.server import PortInUseError, serve

        logs.configure(args.log_format)
        http_port = None if args.no_http else args.http_port
        if args.workers < 1:
            print("mazzo: --workers must be at least 1", file=sys.stderr)
            return 2
        if args.workers > 1:
            from mazzo.service.workers import run_workers

            extra = ["--log-format", args.log_format] + (
                ["--access-log"] if args.access_log else []
            )
            return run_workers(args.workers, args.host, args.port, http_port, extra)
        try:
            asyncio.run(serve(args.host, args.port, http_port, args.access_log, args.reuse_port))
        except PortInUseError as e:
            print(f"mazzo: {e}", file=sys.stderr)
            return 1
        return 0
    if args.command == "bench":
        from mazzo.bench import run_all

        report = run_all(args.seconds, args.only)
        print(json.dumps(report, indent=2))
        return 0
    return 2


if __name__ == "__main__":
    sys.exit(main())
