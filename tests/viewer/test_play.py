"""A person's seat without a browser: the ``human`` specs, and what ``POST /play/draw``
makes of a decision (the seat's table from its view alone, each legal move in words,
the card of a move that is only a card) for every game and form."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path
from typing import Any

import pytest

from mazzo.games.registry import CODECS, rules_for
from mazzo.referee.bots import BotSpec, dial_in_names, human_names
from mazzo.referee.replay import replay
from mazzo.v1 import bot_pb2
from mazzo.viewer.play import draw, play_url

_CARD = re.compile(r"CARD_([0-9A-Z]{2})")


def test_a_human_seat_is_a_dial_in_seat_named_human_unless_named() -> None:
    assert BotSpec.parse("human") == BotSpec("human", "human", "human")
    assert BotSpec.parse("human:anna").target == "anna"
    with pytest.raises(ValueError, match="a bot name is"):
        BotSpec.parse("human:two words")
    specs = ["human", "connect:bot", "human:anna", "human", "builtin:random"]
    assert human_names(specs) == ["human", "anna"]
    assert dial_in_names(specs) == ["human", "bot", "anna"]
    assert dial_in_names(specs, ("connect",)) == ["bot"]


def test_the_token_travels_in_the_fragment_only() -> None:
    assert play_url("127.0.0.1", 8000, "T0k-en") == "http://127.0.0.1:8000/play/#token=T0k-en"
    assert play_url("::1", 1, "t", secure=True) == "https://[::1]:1/play/#token=t"


def _decisions(record: dict[str, Any], every: int) -> list[bot_pb2.ActRequest]:
    """The ActRequest of every ``every``-th move of ``record``, as the referee makes it."""
    game = record["game"]
    rules, codec = rules_for(game), CODECS[game]
    out: list[bot_pb2.ActRequest] = []

    def visit(ply: int, state: Any, move: Any, events: Any) -> None:
        if rules.finished(state) or ply % every:
            return
        seat = rules.to_act(state)
        request = bot_pb2.ActRequest(seat=seat)
        codec.view_to_wire(rules.view(state, seat), request.view)
        for legal in rules.legal_moves(state):
            codec.move_to_wire(legal, request.legal_moves.add())
        out.append(request)

    assert replay(record, visit).divergence is None
    return out


def test_a_decision_is_drawn_from_its_view_alone_for_every_form(
    records: list[dict[str, Any]],
) -> None:
    for record in records:
        for request in _decisions(record, 7):
            drawn = draw(request)
            assert drawn["seat"] == request.seat and drawn["game"] == record["game"]
            assert len(drawn["moves"]) == len(request.legal_moves)
            assert all(m["text"] for m in drawn["moves"]), drawn["moves"]
            # Nothing in the answer that the decision did not hold.
            asked = set(_CARD.findall(_json(request)))
            shown = json.dumps(drawn)
            for code in re.findall(r'"([2-9AJQKT][SHDC]|JK)"', shown):
                assert code in asked, (record["id"], code)
            # Only the own seat's hand is face up (or the dummy's, to its controller).
            faces = [s["seat"] for s in drawn["table"]["seats"] if s["hand"] is not None]
            assert len(faces) <= 2 and (not faces or request.seat in faces or len(faces) == 1)


def _json(request: bot_pb2.ActRequest) -> str:
    from google.protobuf import json_format

    return json_format.MessageToJson(request)


def test_a_move_that_is_only_a_card_is_drawn_as_that_card(records: list[dict[str, Any]]) -> None:
    maraffa = next(r for r in records if r["id"] == "maraffa-4")
    request = _decisions(maraffa, 1)[5]
    drawn = draw(request)
    plays = [m for m in drawn["moves"] if m["card"] is not None]
    assert plays and all(m["text"].startswith("plays the ") for m in plays)
    signalled = [m for m in drawn["moves"] if "signalling" in m["text"]]
    assert all(m["card"] is None for m in signalled)
    hand = next(s["hand"] for s in drawn["table"]["seats"] if s["seat"] == request.seat)
    assert {m["card"] for m in plays} <= set(hand)


def test_the_live_views_delay_would_show_a_person_every_hand(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from tests.test_cli_errors import one_line_error

    argv = ["match", "--game", "maraffa", "--bot", "human", "--bot", "builtin:random"]
    line = one_line_error(capsys, [*argv, "--ui", "0", "--ui-delay", "4"])
    assert "--ui-delay" in line and "human" in line


def test_a_person_and_a_bot_of_the_tokens_file_may_not_share_a_name(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    from mazzo.cli import main
    from tests.test_cli_errors import one_line_error

    tokens = tmp_path / "tokens.json"
    assert main(["token", "new", "anna", "--tokens", str(tokens)]) == 0
    capsys.readouterr()
    argv = ["match", "--game", "maraffa", "--bot", "human:anna", "--bot", "builtin:random"]
    line = one_line_error(capsys, [*argv, "--tokens", str(tokens)])
    assert "human:anna" in line and "another" in line
    assert json.loads(tokens.read_text())["tokens"].keys() == {"anna"}  # nothing written


def test_a_tournament_with_a_person_refuses_ray_and_the_live_views_delay(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A person's page plays in this process, and would see every hand with a delayed
    live view: both refused before anything starts (the person plays: see
    test_play_tournament.py)."""
    from tests.test_cli_errors import one_line_error

    config = tmp_path / "t.toml"
    config.write_text(
        'name = "t"\ngame = "maraffa"\ndeals = 1\n[[entrants]]\nname = "me"\nbot = "human"\n'
        '[[entrants]]\nname = "r"\nbot = "builtin:random"\n'
    )
    argv = ["tournament", str(config), "--records", str(tmp_path / "r.jsonl")]
    line = one_line_error(capsys, [*argv, "--backend", "ray"])
    assert "human seats" in line and "ray" in line
    line = one_line_error(capsys, [*argv, "--ui", "0", "--ui-delay", "4"])
    assert "--ui-delay" in line and "human" in line


async def test_the_pages_own_requests_need_a_persons_token(
    records: list[dict[str, Any]],
) -> None:
    import httpx
    from google.protobuf import json_format
    from starlette.applications import Starlette

    from mazzo.viewer.play import SeatFeed, play_routes

    feeds = {"anna": SeatFeed()}
    app = Starlette(routes=play_routes(feeds, {"T": "anna"}.get))
    decision = json_format.MessageToJson(_decisions(records[2], 5)[0])
    signed = {"authorization": "Bearer T", "content-type": "application/json"}
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://play") as client:
        for path in ("/play/draw", "/play/feed"):
            for headers in ({}, {"authorization": "Bearer wrong"}):
                refused = await client.post(path, content=decision, headers=headers)
                assert refused.status_code == 401 and refused.json()["code"] == 16
        drawn = await client.post("/play/draw", content=decision, headers=signed)
        assert drawn.status_code == 200 and drawn.json()["moves"]
        bad = await client.post("/play/draw", content=b'{"view": 3}', headers=signed)
        assert bad.status_code == 400 and "ActRequest" in bad.json()["message"]
        page = await client.get("/play/")
        assert page.status_code == 200 and "play.js" in page.text
        feeds["anna"].push({"type": "deal", "ply": 0})
        feeds["anna"].close()
        lines = (await client.post("/play/feed", headers=signed)).text.splitlines()
        assert [json.loads(x) for x in lines] == [{"type": "deal", "ply": 0}]


@pytest.mark.parametrize("reveal_end", [True, False])
async def test_the_end_shows_every_hand_only_where_the_record_is_public_then(
    reveal_end: bool,
) -> None:
    """``mazzo match``'s person sees every hand at the end (the record is public then);
    the arena's (``reveal_end`` False: its duplicate set deals the same cards again)
    sees its own. A Ramino match ends with cards in both hands."""
    from mazzo.referee.bots import Launch
    from mazzo.referee.engine import engine_for
    from mazzo.referee.match import Entrant, MatchSpec, Pools, play_match
    from mazzo.viewer.play import PlayWatcher, SeatFeed

    feeds = {"heuristic": SeatFeed()}  # the person's seat: builtin:heuristic's, here
    watcher = PlayWatcher(feeds, kinds=("builtin",), reveal_end=reveal_end)
    lineup = [Entrant("a", ("builtin:heuristic",)), Entrant("b", ("builtin:random",))]
    engine, pools = engine_for(None), Pools(Launch())
    try:
        spec = MatchSpec("m", "ramino", 3, 2, {})
        record = await play_match(spec, lineup, engine, pools, watcher=watcher)
    finally:
        await pools.close()
        await engine.close()
    end = feeds["heuristic"].kept[-1]
    assert end["type"] == "end" and record["result"]
    hands = [seat["hand"] for seat in end["table"]["seats"]]
    assert hands[0], hands  # its own hand, in both
    assert (hands[1] is not None) == reveal_end, hands


async def test_a_feed_no_page_reads_any_more_is_not_drawn_and_starts_afresh() -> None:
    """An owner who watched a bot once does not cost a drawing at every move after:
    a feed is drawn while a page reads it, before any page has (a person's page is
    coming), and for FEED_LINGER after its last page left (a reload); a page that
    comes back later gets no stale kept lines, only what is drawn from then on."""
    from mazzo.referee.bots import Launch
    from mazzo.referee.engine import engine_for
    from mazzo.referee.match import Entrant, MatchSpec, Pools, play_match
    from mazzo.viewer.play import FEED_LINGER, PlayWatcher, SeatFeed

    now = [0.0]
    feed = SeatFeed(clock=lambda: now[0])
    feeds = {"heuristic": feed}
    assert feed.wanted()  # no page yet
    page = feed.lines()
    feed.push({"type": "deal", "id": "old"})
    assert json.loads(await anext(page)) == {"type": "deal", "id": "old"}
    now[0] = 1000.0
    assert feed.wanted()  # read now
    await page.aclose()
    now[0] += FEED_LINGER - 1
    assert feed.wanted()  # a reload may come
    now[0] += 2
    assert not feed.wanted()

    async def play(seed: int) -> dict[str, Any]:
        watcher = PlayWatcher(feeds, kinds=("builtin",))
        lineup = [Entrant("a", ("builtin:heuristic",)), Entrant("b", ("builtin:random",))]
        engine, pools = engine_for(None), Pools(Launch())
        try:
            return await play_match(
                MatchSpec(f"m{seed}", "briscola", seed, 2, {}),
                lineup,
                engine,
                pools,
                watcher=watcher,
            )
        finally:
            await pools.close()
            await engine.close()

    await play(1)
    assert list(feed.kept) == [{"type": "deal", "id": "old"}]  # nothing drawn
    page = feed.lines()
    reading = asyncio.ensure_future(anext(page))
    await asyncio.sleep(0)  # the page is reading
    feed.push({"type": "ping"})
    assert json.loads(await reading) == {"type": "ping"}  # not the stale deal first
    await play(2)  # read: drawn
    await page.aclose()
    assert [m["id"] for m in list(feed.kept)[1:]] == ["m2"] * (len(feed.kept) - 1)
    assert [m["type"] for m in feed.kept][1] == "deal" and feed.kept[-1]["type"] == "end"
