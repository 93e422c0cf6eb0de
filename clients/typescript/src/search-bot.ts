/**
 * The search starter bot: a mazzo.v1.Bot that asks a Mazzo GameService to search
 * for it. For each Act it sends its own view to Simulate (the service samples the
 * hidden cards --determinizations times and plays every legal move out --playouts
 * times from each sample) and plays the move with the best mean score change for
 * its side minus the mean of the other sides'. On any error, or when the service
 * has not answered within half the time left (at most 1 s), it plays a random legal
 * move as the random starter does. It never claims in Maraffa either: a false claim
 * ends the match, lost, with no score change, which a score change cannot see.
 *
 *   run-search-bot [--service HOST:PORT] [--host H] [--port P]
 *                  [--determinizations 32] [--playouts 4] [--seed N]
 */
import { equals } from "@bufbuild/protobuf";
import { createClient } from "@connectrpc/connect";
import type { ActRequest } from "../gen/mazzo/v1/bot_pb.js";
import { type Move, MoveSchema } from "../gen/mazzo/v1/game_pb.js";
import { GameService, type SimulateResponse } from "../gen/mazzo/v1/game_service_pb.js";
import { Rng, intFlag, isClaim, parseFlags, safeMoveIndices, seedFlag } from "./common.js";
import { serveBot } from "./serve.js";
import { gameServiceTransport } from "./service.js";

const USAGE =
  "usage: run-search-bot [--service HOST:PORT] [--host H] [--port P] [--determinizations N] [--playouts N] [--seed N]";
const FLAGS = ["service", "host", "port", "determinizations", "playouts", "seed"];
/** The longest a decision waits for the service. */
const MAX_WAIT_MS = 1000;

/** The index of the move, not a claim, with the best own mean minus the others' mean. */
export function best(reply: SimulateResponse): number {
  let found = -1;
  let top = -Infinity;
  reply.outcomes.forEach((outcome, i) => {
    const means = outcome.sides.map((side) => side.meanScoreChange);
    const own = means.splice(reply.side, 1)[0] ?? 0;
    const margin = own - (means.length > 0 ? means.reduce((a, b) => a + b, 0) / means.length : 0);
    if (outcome.move !== undefined && !isClaim(outcome.move) && margin > top) {
      [found, top] = [i, margin];
    }
  });
  return found;
}

function main(): void {
  const flags = parseFlags(process.argv.slice(2), FLAGS, USAGE);
  const client = createClient(GameService, gameServiceTransport(flags.get("service") ?? "127.0.0.1:50051"));
  const [determinizations, playouts] = [intFlag(flags, "determinizations", 32), intFlag(flags, "playouts", 4)];
  const rng = new Rng(seedFlag(flags));

  const choose = async (request: ActRequest): Promise<number> => {
    const left = request.timeLeft;
    const leftMs = left === undefined ? 2 * MAX_WAIT_MS : Number(left.seconds) * 1000 + left.nanos / 1e6;
    const seed = BigInt(rng.below(2 ** 32)) * 2n ** 32n + BigInt(rng.below(2 ** 32));
    try {
      if (request.view === undefined) {
        throw new Error("the request has no view");
      }
      const reply = await client.simulate(
        { position: { case: "view", value: request.view }, determinizations, playouts, seed },
        { timeoutMs: Math.max(1, Math.min(leftMs / 2, MAX_WAIT_MS)) },
      );
      const index = best(reply);
      const same = (m: Move | undefined, i: number): boolean => {
        const legal = request.legalMoves[i];
        return m !== undefined && legal !== undefined && equals(MoveSchema, m, legal);
      };
      if (reply.outcomes.length !== request.legalMoves.length || !reply.outcomes.every((o, i) => same(o.move, i))) {
        throw new Error("the outcomes are not the legal moves");
      }
      if (index < 0) {
        throw new Error("every legal move is a claim");
      }
      return index;
    } catch (err: unknown) {
      process.stderr.write(`run-search-bot: seat ${request.seat}: search failed (${String(err)}); a random move\n`);
      const safe = safeMoveIndices(request.legalMoves);
      return safe.length > 0 ? rng.pick(safe) : 0;
    }
  };
  serveBot("run-search-bot", flags.get("host") ?? "127.0.0.1", intFlag(flags, "port", 50062), choose);
}

main();
