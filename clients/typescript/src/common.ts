/**
 * Helpers shared by the bot, the example and the conformance runner: command-line
 * flags, a seeded random source, and the move filters every client applies.
 */
import { Code } from "@connectrpc/connect";
import type { Move } from "../gen/mazzo/v1/game_pb.js";
import { MaraffaSignal } from "../gen/mazzo/v1/maraffa_pb.js";

/** Parsed `--name value` flags; a flag given twice keeps the last value. */
export type Flags = Map<string, string>;

/**
 * Parses `--name value` and `--name=value` flags, rejecting any name not in
 * `known` so a typo fails loudly instead of being ignored.
 */
export function parseFlags(argv: readonly string[], known: readonly string[], usage: string): Flags {
  const flags: Flags = new Map();
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? "";
    if (arg === "-h" || arg === "--help") {
      process.stdout.write(`${usage}\n`);
      process.exit(0);
    }
    if (!arg.startsWith("--")) {
      fail(`unexpected argument ${JSON.stringify(arg)}\n${usage}`);
    }
    const eq = arg.indexOf("=");
    const name = eq >= 0 ? arg.slice(2, eq) : arg.slice(2);
    if (!known.includes(name)) {
      fail(`unknown flag --${name}\n${usage}`);
    }
    let value: string | undefined;
    if (eq >= 0) {
      value = arg.slice(eq + 1);
    } else {
      value = argv[++i];
      if (value === undefined) {
        fail(`flag --${name} needs a value\n${usage}`);
      }
    }
    flags.set(name, value);
  }
  return flags;
}

/** Reads an unsigned integer flag, or `fallback` when absent. */
export function intFlag(flags: Flags, name: string, fallback: number): number {
  const raw = flags.get(name);
  if (raw === undefined) {
    return fallback;
  }
  if (!/^\d+$/.test(raw)) {
    fail(`--${name} must be a non-negative integer, got ${JSON.stringify(raw)}`);
  }
  return Number(raw);
}

/** Reads a uint64 seed flag; absent means a seed from the clock and process. */
export function seedFlag(flags: Flags): bigint {
  const raw = flags.get("seed");
  if (raw === undefined) {
    return BigInt(Date.now()) ^ BigInt(process.pid);
  }
  if (!/^\d+$/.test(raw) || BigInt(raw) >= 1n << 64n) {
    fail(`--seed must be an unsigned 64-bit integer, got ${JSON.stringify(raw)}`);
  }
  return BigInt(raw);
}

/** Prints a message to stderr and exits with status 2 (bad usage). */
export function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}

/**
 * A small seeded generator (SplitMix64), so a bot or example run with the same
 * seed makes the same choices; Math.random cannot be seeded.
 */
export class Rng {
  private state: bigint;

  constructor(seed: bigint) {
    this.state = BigInt.asUintN(64, seed);
  }

  private next64(): bigint {
    this.state = BigInt.asUintN(64, this.state + 0x9e3779b97f4a7c15n);
    let z = this.state;
    z = BigInt.asUintN(64, (z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n);
    z = BigInt.asUintN(64, (z ^ (z >> 27n)) * 0x94d049bb133111ebn);
    return z ^ (z >> 31n);
  }

  /** A uniform integer in [0, n); n must be positive. */
  below(n: number): number {
    return Number(this.next64() % BigInt(n));
  }

  /** A uniformly chosen element of a non-empty array. */
  pick<T>(items: readonly T[]): T {
    const item = items[this.below(items.length)];
    if (item === undefined) {
      throw new Error("pick from an empty list");
    }
    return item;
  }
}

/** A Maraffa claim ("chiamarsi fuori"): a false one loses the match at once. */
export function isClaim(move: Move): boolean {
  return move.move.case === "maraffa" && move.move.value.action.case === "claim";
}

/** A Maraffa card play that carries a signal (busso, striscio, volo, ...). */
export function hasSignal(move: Move): boolean {
  if (move.move.case !== "maraffa") {
    return false;
  }
  const action = move.move.value.action;
  return action.case === "playCard" && action.value.signal !== MaraffaSignal.UNSPECIFIED;
}

/**
 * The indices of the moves a random player may choose: never a claim, and only
 * moves without a signal when there are any (a signal may be checked and a wrong
 * one is illegal). Empty only if every legal move is a claim.
 */
export function safeMoveIndices(moves: readonly Move[]): number[] {
  const noClaim = moves.map((_, i) => i).filter((i) => !isClaim(moves[i] as Move));
  const plain = noClaim.filter((i) => !hasSignal(moves[i] as Move));
  return plain.length > 0 ? plain : noClaim;
}

/** gRPC status code names, by Connect's numeric Code (they share the numbers). */
export const CODE_NAMES: Record<Code, string> = {
  [Code.Canceled]: "CANCELLED",
  [Code.Unknown]: "UNKNOWN",
  [Code.InvalidArgument]: "INVALID_ARGUMENT",
  [Code.DeadlineExceeded]: "DEADLINE_EXCEEDED",
  [Code.NotFound]: "NOT_FOUND",
  [Code.AlreadyExists]: "ALREADY_EXISTS",
  [Code.PermissionDenied]: "PERMISSION_DENIED",
  [Code.ResourceExhausted]: "RESOURCE_EXHAUSTED",
  [Code.FailedPrecondition]: "FAILED_PRECONDITION",
  [Code.Aborted]: "ABORTED",
  [Code.OutOfRange]: "OUT_OF_RANGE",
  [Code.Unimplemented]: "UNIMPLEMENTED",
  [Code.Internal]: "INTERNAL",
  [Code.Unavailable]: "UNAVAILABLE",
  [Code.DataLoss]: "DATA_LOSS",
  [Code.Unauthenticated]: "UNAUTHENTICATED",
};
