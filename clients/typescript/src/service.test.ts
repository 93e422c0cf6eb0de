/** Unit tests of the retry policy read from clients/service-config.json (node:test, no server). */
import { test } from "node:test";
import assert from "node:assert/strict";
import type { DescService } from "@bufbuild/protobuf";
import { Code, ConnectError, type UnaryRequest, type UnaryResponse } from "@connectrpc/connect";
import { GameService } from "../gen/mazzo/v1/game_service_pb.js";
import { Bot } from "../gen/mazzo/v1/bot_pb.js";
import { type RetryPolicy, retryInterceptor, sharedRetryPolicies } from "./service.js";

test("the shared config retries UNAVAILABLE on every GameService method", () => {
  const [policy, ...more] = sharedRetryPolicies();
  assert.equal(more.length, 0);
  assert.deepEqual(policy?.names, ["mazzo.v1.GameService"]);
  assert.deepEqual(policy?.retryableCodes, [Code.Unavailable]);
  assert.equal(policy?.maxAttempts, 5);
  assert.equal(policy?.initialBackoffMs, 50);
  assert.equal(policy?.maxBackoffMs, 1000);
  assert.equal(policy?.backoffMultiplier, 2);
});

const FAST: RetryPolicy = {
  names: ["mazzo.v1.GameService"],
  maxAttempts: 4,
  initialBackoffMs: 1,
  maxBackoffMs: 2,
  backoffMultiplier: 2,
  retryableCodes: [Code.Unavailable],
};

/** Calls through the interceptor a `next` that fails with `codes` in turn, then answers. */
async function attempts(codes: Code[], service: DescService = GameService, signal = new AbortController().signal): Promise<number> {
  let calls = 0;
  const next = async (): Promise<UnaryResponse> => {
    const code = codes[calls++];
    if (code !== undefined) {
      throw new ConnectError("failed", code);
    }
    return { stream: false } as UnaryResponse;
  };
  const method = service.methods[0];
  const req = { stream: false, service, method, signal } as unknown as UnaryRequest;
  try {
    await retryInterceptor([FAST])(next as never)(req);
  } catch (err: unknown) {
    return -ConnectError.from(err).code * 100 - calls; // failed: code and attempts
  }
  return calls;
}

test("UNAVAILABLE is retried until an answer, up to maxAttempts", async () => {
  assert.equal(await attempts([Code.Unavailable, Code.Unavailable]), 3);
  assert.equal(await attempts([Code.Unavailable, Code.Unavailable, Code.Unavailable, Code.Unavailable]), -1404);
});

test("other codes, other services and an ended deadline are not retried", async () => {
  assert.equal(await attempts([Code.InvalidArgument]), -301);
  assert.equal(await attempts([Code.Unavailable], Bot), -1401);
  const ended = new AbortController();
  ended.abort(new ConnectError("the operation timed out", Code.DeadlineExceeded));
  assert.equal(await attempts([Code.Unavailable], GameService, ended.signal), -1401);
});
