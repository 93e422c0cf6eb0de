/**
 * The server side every bot here shares: mazzo.v1.Bot over gRPC on cleartext
 * HTTP/2, `LISTENING host:port` on stdout once ready, exit 0 on SIGTERM or SIGINT.
 */
import * as http2 from "node:http2";
import type { AddressInfo } from "node:net";
import { create } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { connectNodeAdapter } from "@connectrpc/connect-node";
import { Bot, type ActRequest, type ActResponse, ActResponseSchema } from "../gen/mazzo/v1/bot_pb.js";

/** Serves Bot on host:port (0: a free port); `choose` answers each Act with a move index. */
export function serveBot(
  name: string,
  host: string,
  port: number,
  choose: (request: ActRequest) => number | Promise<number>,
): void {
  const routes = connectNodeAdapter({
    routes: (router) => {
      router.service(Bot, {
        async act(request: ActRequest): Promise<ActResponse> {
          if (request.legalMoves.length === 0) {
            throw new ConnectError("no legal moves to choose from", Code.InvalidArgument);
          }
          const index = await choose(request);
          return create(ActResponseSchema, { choice: { case: "index", value: index } });
        },
      });
    },
  });
  // connectNodeAdapter speaks gRPC (and Connect, gRPC-web); plain http2 gives h2c,
  // the cleartext HTTP/2 that grpcio's insecure channel expects.
  const server = http2.createServer(routes);
  const sessions = new Set<http2.ServerHttp2Session>();
  server.on("session", (session: http2.ServerHttp2Session) => {
    sessions.add(session);
    session.on("close", () => sessions.delete(session));
  });
  server.on("error", (err: Error) => {
    process.stderr.write(`${name}: ${err.message}\n`);
    process.exit(1);
  });
  server.listen(port, host, () => {
    const address = server.address() as AddressInfo;
    const shown = address.family === "IPv6" ? `[${address.address}]` : address.address;
    process.stdout.write(`LISTENING ${shown}:${address.port}\n`);
    process.stderr.write(`${name}: serving mazzo.v1.Bot (gRPC, h2c) on ${shown}:${address.port}\n`);
  });

  // Clients (the referee) keep their HTTP/2 connection open: close them too, or
  // server.close() would wait for them.
  const stop = (signal: string): void => {
    process.stderr.write(`${name}: ${signal}, stopping\n`);
    server.close(() => process.exit(0));
    for (const session of sessions) {
      session.close();
    }
    setTimeout(() => process.exit(0), 2000).unref();
  };
  process.once("SIGTERM", () => stop("SIGTERM"));
  process.once("SIGINT", () => stop("SIGINT"));
}
