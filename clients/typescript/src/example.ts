/**
 * The client example: deals a match through GameService and plays it to the end
 * with random legal moves (one ApplyMove per move, never a Maraffa claim), then
 * prints the score.
 *
 *   run-example --target HOST:PORT [--game maraffa] [--players 4] [--seed N] [--options JSON]
 *
 * --options is the deal's GameOptions in proto3 JSON, e.g. '{"ramino":{"matchHands":1}}'.
 */
import { fromJsonString } from "@bufbuild/protobuf";
import { createClient } from "@connectrpc/connect";
import { GameService } from "../gen/mazzo/v1/game_service_pb.js";
import { type GameOptions, GameOptionsSchema, type Move } from "../gen/mazzo/v1/game_pb.js";
import { Rng, fail, intFlag, parseFlags, safeMoveIndices, seedFlag } from "./common.js";
import { gameServiceTransport } from "./service.js";

const USAGE =
  "usage: run-example --target HOST:PORT [--game maraffa] [--players 4] [--seed N] [--options JSON]";

/** Moves per match beyond which the example assumes something is wrong. */
const MAX_MOVES = 200_000;

async function main(): Promise<void> {
  const flags = parseFlags(
    process.argv.slice(2),
    ["target", "game", "players", "seed", "options"],
    USAGE,
  );
  const target = flags.get("target") ?? fail(`--target is required\n${USAGE}`);
  const game = flags.get("game") ?? "maraffa";
  const players = intFlag(flags, "players", 0);
  const seed = seedFlag(flags);
  const options = optionsFlag(flags.get("options"));
  const rng = new Rng(seed);

  // The gRPC protocol over cleartext HTTP/2 (h2c), with the retry policy.
  const client = createClient(GameService, gameServiceTransport(target));

  const dealt = await client.deal({ game, options, players, seed });
  let state = dealt.state;
  let legal: Move[] = dealt.legalMoves;
  let moves = 0;
  while (legal.length > 0) {
    const candidates = safeMoveIndices(legal);
    if (candidates.length === 0) {
      throw new Error("every legal move is a claim; the example never claims");
    }
    const move = legal[rng.pick(candidates)];
    const applied = await client.applyMove({ state, move });
    state = applied.state;
    legal = applied.legalMoves;
    moves++;
    if (moves > MAX_MOVES) {
      throw new Error(`no end after ${MAX_MOVES} moves`);
    }
  }
  const score = await client.score({ state });
  if (!score.finished) {
    throw new Error("no legal moves left but Score says the match is not finished");
  }
  const shownPlayers = state?.players ?? players;
  process.stdout.write(
    `finished ${game} players=${shownPlayers} moves=${moves} winners=${score.winners.join(",")}\n`,
  );
}

/** The --options flag: GameOptions in proto3 JSON (unknown fields rejected). */
function optionsFlag(json: string | undefined): GameOptions | undefined {
  if (json === undefined) {
    return undefined;
  }
  try {
    return fromJsonString(GameOptionsSchema, json);
  } catch (err: unknown) {
    return fail(`run-example: --options: ${err instanceof Error ? err.message : String(err)}`);
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`run-example: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
