/**
 * The transport to a Mazzo GameService that every program here uses (the example,
 * the conformance runner, the search bot): gRPC over cleartext HTTP/2, with the retry
 * policy of clients/service-config.json, read from that file at start.
 *
 * Connect has no gRPC service config, so `retryInterceptor` applies the file's
 * `retryPolicy` as gRPC does: up to `maxAttempts` attempts of a call whose method the
 * config names, again only on a `retryableStatusCodes` status, after a random backoff
 * in [0, min(initialBackoff * backoffMultiplier^(n-1), maxBackoff)), all within the
 * call's deadline. Safe because every GameService call is a pure function of its request.
 */
import { readFileSync } from "node:fs";
import { Code, ConnectError, type Interceptor, type Transport } from "@connectrpc/connect";
import { createGrpcTransport } from "@connectrpc/connect-node";
import { CODE_NAMES } from "./common.js";

/** clients/service-config.json, from dist/src/service.js (or src/service.ts). */
export const SERVICE_CONFIG = new URL("../../../service-config.json", import.meta.url);

/** One methodConfig entry's retryPolicy, in numbers. */
export interface RetryPolicy {
  /** "package.Service" (every method) or "package.Service/Method". */
  names: string[];
  maxAttempts: number;
  initialBackoffMs: number;
  maxBackoffMs: number;
  backoffMultiplier: number;
  retryableCodes: Code[];
}

interface MethodConfig {
  name?: { service?: string; method?: string }[];
  retryPolicy?: {
    maxAttempts: number;
    initialBackoff: string;
    maxBackoff: string;
    backoffMultiplier: number;
    retryableStatusCodes: string[];
  };
}

const CODES = new Map(Object.entries(CODE_NAMES).map(([code, name]) => [name, Number(code) as Code]));

/** "0.05s" (a protobuf Duration in JSON) in milliseconds. */
function durationMs(text: string): number {
  if (!/^\d+(\.\d+)?s$/.test(text)) {
    throw new Error(`service config: bad duration ${JSON.stringify(text)}`);
  }
  return Number(text.slice(0, -1)) * 1000;
}

/** The retry policies of a gRPC service config (parsed JSON). */
export function retryPolicies(config: { methodConfig?: MethodConfig[] }): RetryPolicy[] {
  return (config.methodConfig ?? []).flatMap((entry) => {
    const policy = entry.retryPolicy;
    if (policy === undefined) {
      return [];
    }
    const codes = policy.retryableStatusCodes.map((name) => {
      const code = CODES.get(name);
      if (code === undefined) {
        throw new Error(`service config: unknown status code ${name}`);
      }
      return code;
    });
    return [
      {
        names: (entry.name ?? []).map((n) => (n.method ? `${n.service}/${n.method}` : `${n.service ?? ""}`)),
        // gRPC caps attempts at 5 whatever the config says.
        maxAttempts: Math.min(policy.maxAttempts, 5),
        initialBackoffMs: durationMs(policy.initialBackoff),
        maxBackoffMs: durationMs(policy.maxBackoff),
        backoffMultiplier: policy.backoffMultiplier,
        retryableCodes: codes,
      },
    ];
  });
}

/** The policies of clients/service-config.json. */
export function sharedRetryPolicies(): RetryPolicy[] {
  return retryPolicies(JSON.parse(readFileSync(SERVICE_CONFIG, "utf8")) as { methodConfig?: MethodConfig[] });
}

/** Waits `ms`, or rejects with the signal's reason once it aborts (the deadline). */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const aborted = (): void => {
      clearTimeout(timer);
      reject(ConnectError.from(signal.reason));
    };
    const timer = setTimeout(() => {
      signal.removeEventListener("abort", aborted);
      resolve();
    }, ms);
    if (signal.aborted) {
      aborted();
    } else {
      signal.addEventListener("abort", aborted, { once: true });
    }
  });
}

/** Retries unary calls as `policies` say; `random` is the backoff's jitter in [0, 1). */
export function retryInterceptor(policies: RetryPolicy[], random: () => number = Math.random): Interceptor {
  return (next) => async (req) => {
    const policy = policies.find(
      (p) => p.names.includes(req.service.typeName) || p.names.includes(`${req.service.typeName}/${req.method.name}`),
    );
    if (policy === undefined || req.stream) {
      return await next(req);
    }
    for (let attempt = 1; ; attempt++) {
      try {
        return await next(req);
      } catch (err: unknown) {
        const error = ConnectError.from(err);
        if (attempt >= policy.maxAttempts || !policy.retryableCodes.includes(error.code) || req.signal.aborted) {
          throw error;
        }
        const cap = Math.min(policy.initialBackoffMs * policy.backoffMultiplier ** (attempt - 1), policy.maxBackoffMs);
        await sleep(random() * cap, req.signal);
      }
    }
  };
}

/** A GameService transport to HOST:PORT with the shared retry policy. */
export function gameServiceTransport(target: string): Transport {
  return createGrpcTransport({
    baseUrl: `http://${target}`,
    interceptors: [retryInterceptor(sharedRetryPolicies())],
  });
}
