/**
 * The starter bot: a gRPC server of mazzo.v1.Bot. The referee (Python grpcio)
 * calls Act once per decision; the bot answers with an index into legal_moves.
 *
 * Put a real strategy in `choose`: everything else is plumbing.
 *
 *   run-bot [--host H] [--port P] [--seed N]
 */
import * as http2 from "node:http2";
import type { AddressInfo } from "node:net";
import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, type ConnectRouter } from "@connectrpc/connect";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import { Bot, type ActRequest, type ActResponse, ActResponseSchema } from "../gen/mazzo/v1/bot_pb.js";
import { Rng, intFlag, parseFlags, safeMoveIndices, seedFlag } from "./common.js";

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

/** Registers Act on the router; the bot keeps no state between calls but the Rng. */
function routes(rng: Rng): (router: ConnectRouter) => void {
  return (router) => {
    router.service(Bot, {
      act(request: ActRequest): ActResponse {
        if (request.legalMoves.length === 0) {
          throw new ConnectError("no legal moves to choose from", Code.InvalidArgument);
        }
        const index = choose(request, rng);
        return create(ActResponseSchema, { choice: { case: "index", value: index } });
      },
    });
  };
}

function main(): void {
  const flags = parseFlags(process.argv.slice(2), ["host", "port", "seed"], USAGE);
  const host = flags.get("host") ?? "127.0.0.1";
  const port = intFlag(flags, "port", 50061);
  const rng = new Rng(seedFlag(flags));

  // connectNodeAdapter speaks gRPC (and Connect, gRPC-web); plain http2 gives h2c,
  // the cleartext HTTP/2 that grpcio's insecure channel expects.
  const server = http2.createServer(connectNodeAdapter({ routes: routes(rng) }));
  const sessions = new Set<http2.ServerHttp2Session>();
  server.on("session", (session: http2.ServerHttp2Session) => {
    sessions.add(session);
    session.on("close", () => sessions.delete(session));
  });
  server.on("error", (err: Error) => {
    process.stderr.write(`run-bot: ${err.message}\n`);
    process.exit(1);
  });
  server.listen(port, host, () => {
    const address = server.address() as AddressInfo;
    const shown = address.family === "IPv6" ? `[${address.address}]` : address.address;
    process.stdout.write(`LISTENING ${shown}:${address.port}\n`);
    process.stderr.write(`run-bot: serving mazzo.v1.Bot (gRPC, h2c) on ${shown}:${address.port}\n`);
  });

  // Clients (the referee) keep their HTTP/2 connection open: close them too, or
  // server.close() would wait for them.
  const stop = (signal: string): void => {
    process.stderr.write(`run-bot: ${signal}, stopping\n`);
    server.close(() => process.exit(0));
    for (const session of sessions) {
      session.close();
    }
    setTimeout(() => process.exit(0), 2000).unref();
  };
  process.once("SIGTERM", () => stop("SIGTERM"));
  process.once("SIGINT", () => stop("SIGINT"));
}

main();
