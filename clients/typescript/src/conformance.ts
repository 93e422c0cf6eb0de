/**
 * The conformance runner: plays every vector of clients/conformance/vectors
 * against a live GameService and checks the answer (see that folder's README).
 * Responses are compared as messages (proto equality) after parsing the
 * expected proto3 JSON; errors by gRPC code name and BadRequest field. A sealed
 * vector is a sequence of calls, each step's token taken from an earlier answer;
 * a verify_deal_commitment vector is checked locally, with no call.
 *
 *   run-conformance --target HOST:PORT --vectors DIR
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import {
  type DescMessage,
  type DescMethod,
  type DescMethodUnary,
  type JsonValue,
  type Message,
  create,
  equals,
  fromJson,
  toJson,
} from "@bufbuild/protobuf";
import { ConnectError, type Transport } from "@connectrpc/connect";
import { BadRequestSchema } from "../gen/google/rpc/error_details_pb.js";
import { GameStateSchema } from "../gen/mazzo/v1/game_pb.js";
import { GameService } from "../gen/mazzo/v1/game_service_pb.js";
import { CODE_NAMES, fail, parseFlags } from "./common.js";
import { verifyDealCommitment } from "./fair.js";
import { gameServiceTransport } from "./service.js";

const USAGE = "usage: run-conformance --target HOST:PORT --vectors DIR";

/** Per-call deadline: the largest vectors carry whole Ramino states. */
const TIMEOUT_MS = 30_000;

interface Call {
  rpc: string;
  request: JsonValue;
  /** The token to send: sealed_states[seat] of step `step`'s answer, one byte XORed with 1 at flip_byte (negative: from the end). */
  token?: { step: number; seat: number; flip_byte?: number };
  expect: {
    response?: JsonValue;
    error?: { code: string; field?: string };
    /** The answer's tokens: how many, at which move number. */
    sealed?: { tokens: number; move: number };
  };
}

interface Vector extends Call {
  name: string;
  /** A sealed exchange: calls in order, tokens taken from earlier answers. */
  steps?: Call[];
  /** A deal's commitment, checked locally by verifyDealCommitment. */
  verify_deal_commitment?: { commitment: string; salt: string; seed: string; dealt_state: JsonValue };
}

/** Random, or keyed by the server's key: cleared before comparing, their shape checked. */
const RANDOM_FIELDS = ["sealedStates", "matchId", "dealCommitment"];

type Sealed = Message & { sealedStates?: Uint8Array[]; matchId?: string; dealCommitment?: Uint8Array };

/** Every vector of every *.json file in dir, files in name order. */
function loadVectors(dir: string): Vector[] {
  const files = readdirSync(dir)
    .filter((f) => f.endsWith(".json"))
    .sort();
  const vectors: Vector[] = [];
  for (const file of files) {
    const parsed = JSON.parse(readFileSync(join(dir, file), "utf8")) as { vectors?: Vector[] };
    if (!Array.isArray(parsed.vectors)) {
      throw new Error(`${file}: no "vectors" array`);
    }
    vectors.push(...parsed.vectors);
  }
  return vectors;
}

/** The first path where two JSON values differ (undefined = field absent, its default). */
function firstDifference(
  actual: JsonValue | undefined,
  expected: JsonValue | undefined,
  path = "",
): string | undefined {
  if (JSON.stringify(actual) === JSON.stringify(expected)) {
    return undefined;
  }
  if (
    typeof actual === "object" &&
    actual !== null &&
    typeof expected === "object" &&
    expected !== null &&
    Array.isArray(actual) === Array.isArray(expected)
  ) {
    if (Array.isArray(actual) && Array.isArray(expected) && actual.length !== expected.length) {
      return `${path || "."}: ${actual.length} items, expected ${expected.length}`;
    }
    const a = actual as Record<string, JsonValue>;
    const e = expected as Record<string, JsonValue>;
    for (const key of new Set([...Object.keys(a), ...Object.keys(e)])) {
      const at = Array.isArray(actual) ? `${path}[${key}]` : `${path}.${key}`;
      const sub = firstDifference(a[key], e[key], at);
      if (sub !== undefined) {
        return sub;
      }
    }
  }
  const show = (v: JsonValue | undefined): string => {
    if (v === undefined) {
      return "(default)";
    }
    const text = JSON.stringify(v);
    return text.length > 120 ? `${text.slice(0, 117)}...` : text;
  };
  return `${path || "."}: got ${show(actual)}, expected ${show(expected)}`;
}

/** Runs one vector; returns why it failed, or undefined when it passed. */
async function check(transport: Transport, vector: Vector): Promise<string | undefined> {
  if (vector.steps !== undefined) {
    return checkSealed(transport, vector.steps);
  }
  const given = vector.verify_deal_commitment;
  if (given !== undefined) {
    const valid = verifyDealCommitment(
      Buffer.from(given.commitment, "hex"),
      Buffer.from(given.salt, "hex"),
      BigInt(given.seed),
      fromJson(GameStateSchema, given.dealt_state),
    );
    const want = (vector.expect as { valid?: boolean }).valid;
    return valid === want ? undefined : `verifyDealCommitment gave ${valid}`;
  }
  return (await checkCall(transport, vector, []))[0];
}

/** A sealed exchange; every answer's tokens checked by their header (docs/sealing.md). */
async function checkSealed(transport: Transport, steps: Call[]): Promise<string | undefined> {
  const answers: (Sealed | undefined)[] = [];
  const matchIds = new Set<string>();
  for (const [i, step] of steps.entries()) {
    const [problem, answer] = await checkCall(transport, step, answers);
    if (problem !== undefined) {
      return `step ${i} (${step.rpc}): ${problem}`;
    }
    answers.push(answer);
    const want = step.expect.sealed;
    if (answer === undefined || want === undefined) {
      continue;
    }
    const tokens = answer.sealedStates ?? [];
    if (tokens.length !== want.tokens) {
      return `step ${i}: ${tokens.length} tokens, expected ${want.tokens}`;
    }
    for (const [seat, t] of tokens.entries()) {
      const n = 2 + (t[1] ?? 0);
      if (t.length < n + 22 + 12 + 16 || t[0] !== 1 || t[1] < 1 || t[1] > 32) {
        return `step ${i}: token ${seat} has no version 1 header`;
      }
      const move = new DataView(t.buffer, t.byteOffset).getUint32(n + 16);
      if (move !== want.move || t[n + 20] !== seat || t[n + 21] !== tokens.length) {
        return `step ${i}: token ${seat}: move ${move}, seat ${t[n + 20]} of ${t[n + 21]}`;
      }
      matchIds.add(Buffer.from(t.subarray(n, n + 16)).toString("hex"));
    }
    if (matchIds.size !== 1) {
      return `step ${i}: tokens of more than one match`;
    }
    if (step.rpc === "Deal" && (!matchIds.has(answer.matchId ?? "") || answer.dealCommitment?.length !== 32)) {
      return `step ${i}: match_id ${answer.matchId} or a deal_commitment not of 32 bytes`;
    }
  }
  return undefined;
}

/** One call (with its step's token put in): why it failed or undefined, and the answer. */
async function checkCall(
  transport: Transport,
  vector: Call,
  answers: (Sealed | undefined)[],
): Promise<[string | undefined, Sealed | undefined]> {
  const method = GameService.methods.find((m): m is DescMethodUnary => m.name === vector.rpc && m.methodKind === "unary");
  if (method === undefined) {
    return [`unknown rpc ${JSON.stringify(vector.rpc)}`, undefined];
  }
  const request = fromJson(method.input, vector.request) as Message & { sealedState?: Uint8Array };
  if (vector.token !== undefined) {
    const from = answers[vector.token.step]?.sealedStates?.[vector.token.seat];
    if (from === undefined) {
      return [`no token at step ${vector.token.step}`, undefined];
    }
    const token = Uint8Array.from(from);
    const flip = vector.token.flip_byte;
    if (flip !== undefined) {
      token[flip < 0 ? token.length + flip : flip] ^= 1;
    }
    request.sealedState = token;
  }
  let response: Message;
  try {
    response = (await transport.unary(method, undefined, TIMEOUT_MS, undefined, request)).message;
  } catch (err: unknown) {
    const error = ConnectError.from(err);
    const code = CODE_NAMES[error.code] ?? `code ${error.code}`;
    const want = vector.expect.error;
    if (want === undefined) {
      return [`expected a response, got ${code}: ${error.rawMessage}`, undefined];
    }
    if (code !== want.code) {
      return [`expected ${want.code}, got ${code}: ${error.rawMessage}`, undefined];
    }
    if (want.field !== undefined) {
      const fields = error.findDetails(BadRequestSchema).flatMap((d) => d.fieldViolations.map((v) => v.field));
      if (!fields.includes(want.field)) {
        return [
          `expected a BadRequest violation of field ${JSON.stringify(want.field)}, got [${fields.join(", ")}]`,
          undefined,
        ];
      }
    }
    return [undefined, undefined];
  }
  if (vector.expect.error !== undefined) {
    return [`expected ${vector.expect.error.code}, got a response`, undefined];
  }
  if (vector.expect.response === undefined) {
    return ["vector expects neither a response nor an error", undefined];
  }
  let shown = response;
  if (vector.expect.sealed !== undefined) {
    shown = { ...response } as Message;
    const defaults = create(method.output) as Record<string, unknown>;
    for (const name of RANDOM_FIELDS) {
      if (name in shown) {
        (shown as Record<string, unknown>)[name] = defaults[name];
      }
    }
  }
  return [compareResponse(method, shown, vector.expect.response), response as Sealed];
}

/** Compares the actual response with the expected proto3 JSON, as messages. */
function compareResponse(method: DescMethod, actual: Message, expectedJson: JsonValue): string | undefined {
  const schema: DescMessage = method.output;
  const expected = fromJson(schema, expectedJson);
  if (equals(schema, actual, expected)) {
    return undefined;
  }
  // Not equal: name the first differing field from the canonical JSON of both.
  return (
    firstDifference(toJson(schema, actual), toJson(schema, expected)) ?? "messages differ (same JSON)"
  );
}

async function main(): Promise<number> {
  const flags = parseFlags(process.argv.slice(2), ["target", "vectors"], USAGE);
  const target = flags.get("target") ?? fail(`--target is required\n${USAGE}`);
  const dir = flags.get("vectors") ?? fail(`--vectors is required\n${USAGE}`);
  const vectors = loadVectors(dir);
  const transport = gameServiceTransport(target);

  let passed = 0;
  let failed = 0;
  for (const vector of vectors) {
    let problem: string | undefined;
    try {
      problem = await check(transport, vector);
    } catch (err: unknown) {
      problem = `runner error: ${err instanceof Error ? err.message : String(err)}`;
    }
    if (problem === undefined) {
      passed++;
    } else {
      failed++;
      process.stdout.write(`FAIL ${vector.name}: ${problem}\n`);
    }
  }
  process.stdout.write(`conformance typescript: passed=${passed} failed=${failed}\n`);
  return failed === 0 && passed > 0 ? 0 : 1;
}

// A reader that stops early (`| head`) is not an error of the runner.
process.stdout.on("error", (err: NodeJS.ErrnoException) => {
  process.exit(err.code === "EPIPE" ? 1 : 2);
});

main().then(
  (status) => process.exit(status),
  (err: unknown) => {
    process.stderr.write(`run-conformance: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  },
);
