/**
 * The starter bot: a gRPC server of mazzo.v1.Bot. The referee (Python grpcio)
 * calls Act once per decision; the bot answers with an index into legal_moves.
 * With --connect it binds no port and dials in to a referee's gateway instead
 * (mazzo.v1.Tables/Join), answering each decision with the same `choose`.
 *
 * Put a real strategy in `choose`: everything else is plumbing (serve.ts, dial-in.ts).
 *
 *   run-bot [--host H] [--port P] [--seed N]
 *   run-bot --connect HOST:PORT --token T [--name NAME] [--ca PEM] [--seed N]
 */
import type { ActRequest } from "../gen/mazzo/v1/bot_pb.js";
import { Rng, fail, intFlag, parseFlags, safeMoveIndices, seedFlag } from "./common.js";
import { Refused, dialIn } from "./dial-in.js";
import { serveBot } from "./serve.js";

const USAGE =
  "usage: run-bot [--host H] [--port P] [--seed N]\n" +
  "       run-bot --connect HOST:PORT --token T [--name NAME] [--ca PEM] [--seed N]  (dial in; grpcs://HOST:PORT for TLS)";

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
  const flags = parseFlags(process.argv.slice(2), ["host", "port", "seed", "connect", "token", "name", "ca"], USAGE);
  const rng = new Rng(seedFlag(flags)); // the bot keeps no state between calls but the Rng
  const decide = (request: ActRequest): number => choose(request, rng);
  const target = flags.get("connect");
  if (target === undefined) {
    serveBot("run-bot", flags.get("host") ?? "127.0.0.1", intFlag(flags, "port", 50061), decide);
    return;
  }
  const token = flags.get("token");
  if (token === undefined || token === "") {
    fail(`--connect needs --token\n${USAGE}`);
  }
  // SIGTERM or Ctrl-C ends the stream and the program, cleanly.
  const stop = new AbortController();
  process.once("SIGTERM", () => stop.abort());
  process.once("SIGINT", () => stop.abort());
  const ca = flags.get("ca");
  const options = { target, token, name: flags.get("name") ?? "", ...(ca === undefined ? {} : { ca }) };
  dialIn("run-bot", options, decide, stop.signal).then(
    () => process.exit(0),
    (err: unknown) => {
      process.stderr.write(`run-bot: ${err instanceof Refused ? "refused: " : ""}${(err as Error).message}\n`);
      process.exit(err instanceof Refused ? 2 : 1);
    },
  );
}

main();
