"""TLS: the server over TLS and mutual TLS, and the referee's grpcs:// bots and service,
all checked against a certificate authority this test makes."""

from __future__ import annotations

import datetime
import ipaddress
import ssl
from pathlib import Path
from typing import NamedTuple

import grpc
import httpx
import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

from mazzo.games.registry import GAMES
from mazzo.referee import bots as bots_module
from mazzo.referee.match import MatchSpec, run_match
from mazzo.service.server import Tls, start_server, stop_server
from mazzo.v1 import bot_pb2, bot_pb2_grpc, game_service_pb2_grpc
from mazzo.v1 import game_service_pb2 as gs
from tests.referee.conftest import ScriptedBot


class Issued(NamedTuple):
    cert: Path
    key: Path


def _name(common: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, common)])


def _write(
    folder: Path, stem: str, cert: x509.Certificate, key: ec.EllipticCurvePrivateKey
) -> Issued:
    cert_path, key_path = folder / f"{stem}.pem", folder / f"{stem}.key"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return Issued(cert_path, key_path)


class Authority:
    """A throwaway CA that issues server certificates for 127.0.0.1 and client ones."""

    def __init__(self, folder: Path, name: str = "Mazzo test CA") -> None:
        self.folder = folder
        self.key = ec.generate_private_key(ec.SECP256R1())
        now = datetime.datetime.now(datetime.UTC)
        self.cert = (
            x509.CertificateBuilder()
            .subject_name(_name(name))
            .issuer_name(_name(name))
            .public_key(self.key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(minutes=5))
            .not_valid_after(now + datetime.timedelta(days=1))
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .sign(self.key, hashes.SHA256())
        )
        self.path = _write(folder, name.replace(" ", "-"), self.cert, self.key).cert

    def issue(self, stem: str, server: bool) -> Issued:
        key = ec.generate_private_key(ec.SECP256R1())
        now = datetime.datetime.now(datetime.UTC)
        builder = (
            x509.CertificateBuilder()
            .subject_name(_name(stem))
            .issuer_name(self.cert.subject)
            .public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - datetime.timedelta(minutes=5))
            .not_valid_after(now + datetime.timedelta(days=1))
        )
        if server:
            names = [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]
            builder = builder.add_extension(x509.SubjectAlternativeName(names), critical=False)
            usage = ExtendedKeyUsageOID.SERVER_AUTH
        else:
            usage = ExtendedKeyUsageOID.CLIENT_AUTH
        builder = builder.add_extension(x509.ExtendedKeyUsage([usage]), critical=False)
        return _write(self.folder, stem, builder.sign(self.key, hashes.SHA256()), key)


def credentials(ca: Path, client: Issued | None = None) -> grpc.ChannelCredentials:
    return grpc.ssl_channel_credentials(
        root_certificates=ca.read_bytes(),
        private_key=None if client is None else client.key.read_bytes(),
        certificate_chain=None if client is None else client.cert.read_bytes(),
    )


def trusting(ca: Path, client: Issued | None = None) -> ssl.SSLContext:
    """An HTTPS client's context: trusts ``ca``, presents ``client`` if given."""
    context = ssl.create_default_context(cafile=str(ca))
    if client is not None:
        context.load_cert_chain(str(client.cert), str(client.key))
    return context


async def test_the_service_over_tls_for_grpc_and_https(tmp_path: Path) -> None:
    ca = Authority(tmp_path)
    server = ca.issue("server", server=True)
    running, port = await start_server(
        "127.0.0.1", 0, http_port=0, tls=Tls(server.cert, server.key)
    )
    try:
        async with grpc.aio.secure_channel(f"127.0.0.1:{port}", credentials(ca.path)) as channel:
            stub = game_service_pb2_grpc.GameServiceStub(channel)
            games = await stub.ListGames(gs.ListGamesRequest())
            assert {g.id for g in games.games} == set(GAMES)
        # A client that does not trust this CA is refused.
        stranger = Authority(tmp_path, "Another CA")
        async with grpc.aio.secure_channel(
            f"127.0.0.1:{port}", credentials(stranger.path)
        ) as channel:
            with pytest.raises(grpc.aio.AioRpcError) as caught:
                await game_service_pb2_grpc.GameServiceStub(channel).ListGames(
                    gs.ListGamesRequest(), timeout=5
                )
            assert caught.value.code() == grpc.StatusCode.UNAVAILABLE
        url = f"https://127.0.0.1:{running.http_port}"
        async with httpx.AsyncClient(base_url=url, verify=trusting(ca.path)) as http:
            assert (await http.get("/v1/games")).status_code == 200
    finally:
        await stop_server(running, grace=0.5, quiet=0)


async def test_mutual_tls_needs_a_client_certificate_from_the_clients_ca(tmp_path: Path) -> None:
    ca = Authority(tmp_path)
    server = ca.issue("server", server=True)
    client = ca.issue("client", server=False)
    tls = Tls(server.cert, server.key, client_ca=ca.path)
    running, port = await start_server("127.0.0.1", 0, http_port=0, tls=tls)
    try:
        target = f"127.0.0.1:{port}"
        async with grpc.aio.secure_channel(target, credentials(ca.path, client)) as channel:
            stub = game_service_pb2_grpc.GameServiceStub(channel)
            assert (await stub.ListGames(gs.ListGamesRequest())).games
        async with grpc.aio.secure_channel(target, credentials(ca.path)) as channel:
            with pytest.raises(grpc.aio.AioRpcError):
                await game_service_pb2_grpc.GameServiceStub(channel).ListGames(
                    gs.ListGamesRequest(), timeout=5
                )
        url = f"https://127.0.0.1:{running.http_port}"
        async with httpx.AsyncClient(base_url=url, verify=trusting(ca.path, client)) as http:
            assert (await http.get("/v1/games")).status_code == 200
        async with httpx.AsyncClient(base_url=url, verify=trusting(ca.path)) as http:
            with pytest.raises(httpx.HTTPError):
                await http.get("/v1/games")
    finally:
        await stop_server(running, grace=0.5, quiet=0)


async def test_the_referee_plays_grpcs_bots_through_a_grpcs_service(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bots_module, "READY_SECONDS", 1.0)
    ca = Authority(tmp_path)
    issued = ca.issue("server", server=True)
    service, service_port = await start_server("127.0.0.1", 0, tls=Tls(issued.cert, issued.key))
    bot = grpc.aio.server()
    bot_pb2_grpc.add_BotServicer_to_server(ScriptedBot(lambda r: bot_pb2.ActResponse(index=0)), bot)
    creds = grpc.ssl_server_credentials([(issued.key.read_bytes(), issued.cert.read_bytes())])
    bot_port = bot.add_secure_port("127.0.0.1:0", creds)
    await bot.start()
    try:
        spec = MatchSpec("tls", "maraffa", 3, 4, {"maraffa": {"target": 1}})
        bots = [f"grpcs://127.0.0.1:{bot_port}", "builtin:random"]
        record = await run_match(spec, bots, f"grpcs://127.0.0.1:{service_port}", ca=ca.path)
        assert record["result"]["finished"] and not record["faults"]
        # Without the CA, the bot's certificate is not trusted: the match stops before
        # its first deal, saying so, within the referee's wait (not a hang).
        with pytest.raises(ValueError, match="check --ca"):
            await run_match(spec, bots, None)
    finally:
        await bot.stop(0)
        await stop_server(service, grace=0.5, quiet=0)
