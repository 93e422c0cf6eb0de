/**
 * The conformance runner: plays every vector of clients/conformance/vectors
 * against a live GameService and checks the answer (see that folder's README).
 * Responses are compared as messages (proto equality) after parsing the
 * expected proto3 JSON; errors by gRPC code name and BadRequest field.
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
  equals,
  fromJson,
  toJson,
} from "@bufbuild/protobuf";
import { ConnectError, type Transport } from "@connectrpc/connect";
import { BadRequestSchema } from "../gen/google/rpc/error_details_pb.js";
import { GameService } from "../gen/mazzo/v1/game_service_pb.js";
import { CODE_NAMES, fail, parseFlags } from "./common.js";
import { gameServiceTransport } from "./service.js";

const USAGE = "usage: run-conformance --target HOST:PORT --vectors DIR";

/** Per-call deadline: the largest vectors carry whole Ramino states. */
const TIMEOUT_MS = 30_000;

interface Vector {
  name: string;
  rpc: string;
  request: JsonValue;
  expect: { response?: JsonValue; error?: { code: string; field?: string } };
}

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
  const method = GameService.methods.find((m): m is DescMethodUnary => m.name === vector.rpc && m.methodKind === "unary");
  if (method === undefined) {
    return `unknown rpc ${JSON.stringify(vector.rpc)}`;
  }
  const request = fromJson(method.input, vector.request);
  let response: Message;
  try {
    response = (await transport.unary(method, undefined, TIMEOUT_MS, undefined, request)).message;
  } catch (err: unknown) {
    const error = ConnectError.from(err);
    const code = CODE_NAMES[error.code] ?? `code ${error.code}`;
    const want = vector.expect.error;
    if (want === undefined) {
      return `expected a response, got ${code}: ${error.rawMessage}`;
    }
    if (code !== want.code) {
      return `expected ${want.code}, got ${code}: ${error.rawMessage}`;
    }
    if (want.field !== undefined) {
      const fields = error.findDetails(BadRequestSchema).flatMap((d) => d.fieldViolations.map((v) => v.field));
      if (!fields.includes(want.field)) {
        return `expected a BadRequest violation of field ${JSON.stringify(want.field)}, got [${fields.join(", ")}]`;
      }
    }
    return undefined;
  }
  if (vector.expect.error !== undefined) {
    return `expected ${vector.expect.error.code}, got a response`;
  }
  if (vector.expect.response === undefined) {
    return "vector expects neither a response nor an error";
  }
  return compareResponse(method, response, vector.expect.response);
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
