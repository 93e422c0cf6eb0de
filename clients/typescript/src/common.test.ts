/** Unit tests of the move filters and the seeded generator (node:test, no server). */
import { test } from "node:test";
import assert from "node:assert/strict";
import { create } from "@bufbuild/protobuf";
import { type Move, MoveSchema } from "../gen/mazzo/v1/game_pb.js";
import { Card } from "../gen/mazzo/v1/cards_pb.js";
import { MaraffaSignal } from "../gen/mazzo/v1/maraffa_pb.js";
import { Rng, hasSignal, isClaim, safeMoveIndices } from "./common.js";

function claim(): Move {
  return create(MoveSchema, { move: { case: "maraffa", value: { action: { case: "claim", value: {} } } } });
}

function play(card: Card, signal = MaraffaSignal.UNSPECIFIED): Move {
  return create(MoveSchema, {
    move: { case: "maraffa", value: { action: { case: "playCard", value: { card, signal } } } },
  });
}

test("claims and signals are recognised", () => {
  assert.equal(isClaim(claim()), true);
  assert.equal(isClaim(play(Card.CARD_3S)), false);
  assert.equal(hasSignal(play(Card.CARD_3S, MaraffaSignal.BUSSO)), true);
  assert.equal(hasSignal(play(Card.CARD_3S)), false);
  assert.equal(hasSignal(create(MoveSchema, {})), false);
});

test("safe moves: no claim, and no signal while a plain move exists", () => {
  const moves = [claim(), play(Card.CARD_AS, MaraffaSignal.VOLO), play(Card.CARD_2S)];
  assert.deepEqual(safeMoveIndices(moves), [2]);
  assert.deepEqual(safeMoveIndices(moves.slice(0, 2)), [1]);
  assert.deepEqual(safeMoveIndices([claim()]), []);
});

test("the generator is deterministic per seed and stays in range", () => {
  const draw = (seed: bigint): number[] => {
    const rng = new Rng(seed);
    return Array.from({ length: 200 }, () => rng.below(7));
  };
  const a = draw(42n);
  assert.deepEqual(a, draw(42n));
  assert.notDeepEqual(a, draw(43n));
  assert.ok(a.every((x) => x >= 0 && x < 7));
  assert.equal(new Set(a).size, 7);
});
