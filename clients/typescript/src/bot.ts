/**
 * The starter bot: a gRPC server of mazzo.v1.Bot. The referee (Python grpcio)
 * calls Act once per decision; the bot answers with an index into legal_moves.
 *
 * Put a real strategy in `choose`: everything else is plumbing (serve.ts).
 *
 *   run-bot [--host H] [--port P] [--seed N]
 */
import type { ActRequest } from "../gen/mazzo/v1/bot_pb.js";
import { Rng, intFlag, parseFlags, safeMoveIndices, seedFlag } from "./common.js";
import { serveBot } from "./serve.js";

const USAGE = "usage: run-bot [--host H] [--port P] [--seed N]";

/**
 * Chooses the index of the move to play. The starter picks at random among the
 * safe moves (no Maraffa claim; no signal when a move without one exists).
 * `request.view` is everything this seat may know; `request.timeLeft` the clock.
 */
export function choose(request: ActRequest, rng: Rng): number {
  const candidates = safeMoveIndices(request.legalMoves);
  // Only claims are legal (never seen in practice): a claim is still a move.
  return candidates.length > 0 ? rng.pick(candidates) : 0;
}

function main(): void {
  const flags = parseFlags(process.argv.slice(2), ["host", "port", "seed"], USAGE);
  const rng = new Rng(seedFlag(flags)); // the bot keeps no state between calls but the Rng
  serveBot("run-bot", flags.get("host") ?? "127.0.0.1", intFlag(flags, "port", 50061), (request) =>
    choose(request, rng),
  );
}

main();
