"""Shared fixtures: an in-process gRPC server on port 0 and stubs to reach it."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator

import grpc
import pytest
import pytest_asyncio

from mazzo.service.server import start_server, stop_server
from mazzo.v1 import game_service_pb2_grpc

# The simulator's pool runs at niceness +10 in service; here the machine is busy with
# the test runner itself, which would starve it (servers started by tests inherit it).
os.environ.setdefault("MAZZO_POOL_NICENESS", "0")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Tests marked ``waits`` (minutes of wall time at little CPU: a paced tournament)
    go first, so their waits overlap the other workers' work instead of ending the run
    with one worker waiting. Every xdist worker sorts alike: the order stays one. (The
    long ones first too, ``slow`` and the READMEs', made a fresh clone's run slower, 492
    s against 383, and xdist's ``--dist worksteal`` broke the browser tests' servers.)"""
    items.sort(key=lambda item: item.get_closest_marker("waits") is None)


@pytest_asyncio.fixture
async def channel() -> AsyncIterator[grpc.aio.Channel]:
    """A channel to a fresh in-process server on a free port of 127.0.0.1."""
    server, port = await start_server("127.0.0.1", 0)
    async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as ch:
        yield ch
    await stop_server(server, grace=0.5, quiet=0)


@pytest_asyncio.fixture
async def stub(channel: grpc.aio.Channel) -> game_service_pb2_grpc.GameServiceStub:
    return game_service_pb2_grpc.GameServiceStub(channel)
