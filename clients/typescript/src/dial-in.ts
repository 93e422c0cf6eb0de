/**
 * The dialing side every bot here may use instead of serving (`--connect`): one
 * outbound gRPC stream to a referee's gateway, mazzo.v1.Tables/Join, and no port of
 * its own. It says hello and answers each Decision with the same `choose` that
 * answers Bot.Act when serving; it behaves as the Python starter's dial_in does.
 */
import { readFileSync } from "node:fs";
import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { type ActRequest, ActResponseSchema } from "../gen/mazzo/v1/bot_pb.js";
import { AnswerSchema, type BotMessage, BotMessageSchema, HelloSchema, Tables } from "../gen/mazzo/v1/tables_pb.js";
import { CODE_NAMES } from "./common.js";

/** The version of mazzo.v1.Tables this bot speaks. */
export const PROTOCOL_VERSION = 1;
/** How long a lost connection is dialed again, from the drop (or the start). */
export const RETRY_FOR_MS = 30_000;
/** Refusals that trying again cannot mend: stop and say why. */
const FINAL = new Set([Code.Unauthenticated, Code.FailedPrecondition, Code.InvalidArgument]);

/** Where to dial in and as whom. */
export interface DialInOptions {
  /** HOST:PORT (cleartext), or grpcs://HOST:PORT for TLS. */
  target: string;
  /** The token `mazzo token new NAME` printed. */
  token: string;
  /** The seats' name; empty: the token's own. */
  name: string;
  /** A PEM file to check a grpcs:// gateway against (else the system's roots). */
  ca?: string;
}

/** A refusal retrying cannot fix (a wrong token, a game the gateway does not play). */
export class Refused extends Error {}

/**
 * The messages to send, as an async iterable the call reads: `push` queues one,
 * `close` ends the stream from our side.
 */
class Outbox implements AsyncIterable<BotMessage> {
  private readonly queued: BotMessage[] = [];
  private wake: (() => void) | undefined;
  private closed = false;

  push(message: BotMessage): void {
    this.queued.push(message);
    this.wake?.();
  }

  close(): void {
    this.closed = true;
    this.wake?.();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<BotMessage> {
    for (;;) {
      const next = this.queued.shift();
      if (next !== undefined) {
        yield next;
      } else if (this.closed) {
        return;
      } else {
        await new Promise<void>((resolve) => (this.wake = resolve));
        this.wake = undefined;
      }
    }
  }
}

/** Waits `ms`, or less when `signal` aborts; leaves no listener behind. */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      clearTimeout(timer);
      signal.removeEventListener("abort", done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal.addEventListener("abort", done);
  });
}

/**
 * Answers every decision with `choose` until the gateway ends the stream or
 * `signal` aborts (resolves), dialing a lost connection again for RETRY_FOR_MS;
 * rejects with Refused on a final refusal, or an Error when the gateway stays away.
 */
export async function dialIn(
  name: string,
  options: DialInOptions,
  choose: (request: ActRequest) => number | Promise<number>,
  signal: AbortSignal,
): Promise<void> {
  const tls = options.target.startsWith("grpcs://");
  const target = options.target.replace(/^grpcs?:\/\//, "");
  if (options.ca !== undefined && !tls) {
    throw new Refused("--ca needs a grpcs:// target");
  }
  const ca = options.ca === undefined ? undefined : readFileSync(options.ca);
  let giveUp = Date.now() + RETRY_FOR_MS;
  let delay = 100;
  for (;;) {
    // A new transport (and HTTP/2 session) each time: nothing of a dead one is reused.
    const transport = createGrpcTransport({
      baseUrl: `${tls ? "https" : "http"}://${target}`,
      ...(ca === undefined ? {} : { nodeOptions: { ca } }),
    });
    const state = { joined: false, log: (line: string) => process.stderr.write(`${name}: ${line}\n`) };
    // One signal per attempt, so no listener of a finished call stays on `signal`.
    const attempt = new AbortController();
    const abort = (): void => attempt.abort();
    signal.addEventListener("abort", abort);
    try {
      await play(createClient(Tables, transport), options, choose, attempt.signal, state);
      return; // the gateway ended the stream: the run is over
    } catch (err) {
      if (signal.aborted) {
        return;
      }
      const error = ConnectError.from(err);
      if (FINAL.has(error.code)) {
        throw new Refused(`${CODE_NAMES[error.code]}: ${error.rawMessage}`);
      }
      if (state.joined) {
        // It was playing: a new drop, a whole new wait.
        [giveUp, delay] = [Date.now() + RETRY_FOR_MS, 100];
      }
      if (Date.now() >= giveUp) {
        throw new Error(`cannot reach the gateway at ${target}: ${error.message}`);
      }
      state.log(`connection lost (${CODE_NAMES[error.code]}); dialing again`);
    } finally {
      signal.removeEventListener("abort", abort);
    }
    await sleep(delay, signal);
    if (signal.aborted) {
      return;
    }
    delay = Math.min(delay * 2, 2000);
  }
}

/** One stream: the Hello, then an answer per decision; `state.joined` once welcome. */
async function play(
  client: ReturnType<typeof createClient<typeof Tables>>,
  options: DialInOptions,
  choose: (request: ActRequest) => number | Promise<number>,
  signal: AbortSignal,
  state: { joined: boolean; log: (line: string) => void },
): Promise<void> {
  const outbox = new Outbox();
  const hello = create(HelloSchema, {
    token: options.token,
    name: options.name,
    protocolVersion: PROTOCOL_VERSION,
  });
  outbox.push(create(BotMessageSchema, { kind: { case: "hello", value: hello } }));
  try {
    for await (const message of client.join(outbox, { signal })) {
      const kind = message.kind;
      switch (kind.case) {
        case "decision": {
          const decision = kind.value;
          const request = decision.request;
          // No legal move to choose from (never sent): index 0, and the referee judges.
          const index = request !== undefined && request.legalMoves.length > 0 ? await choose(request) : 0;
          const answer = create(AnswerSchema, {
            sequence: decision.sequence,
            response: create(ActResponseSchema, { choice: { case: "index", value: index } }),
            matchId: decision.matchId,
          });
          outbox.push(create(BotMessageSchema, { kind: { case: "answer", value: answer } }));
          break;
        }
        case "welcome":
          state.joined = true;
          process.stdout.write(`JOINED ${kind.value.name}\n`);
          break;
        case "refusal":
          state.log(`answer ${kind.value.sequence} refused: ${kind.value.reason}`);
          break;
        case "matchStarted":
        case "matchEnded":
          state.log(`${kind.case}: ${kind.value.matchId}`);
          break;
      }
    }
  } finally {
    outbox.close();
  }
}
