/**
 * Checks a deal's commitment locally (docs/fair-deals.md in the Mazzo repository):
 * the dealer publishes deal_commitment before the first move and reveals the salt
 * at the end; with the seed and the dealt state (Deal's answer for that seed)
 * anyone checks the match was dealt as committed:
 *
 *   deal_hash  = BLAKE2b-256(the dealt GameState's wire bytes)
 *   commitment = BLAKE2b-256("mazzo.v1 deal commitment" 0x00 ‖ salt (32 bytes)
 *                            ‖ seed (8 bytes, little-endian) ‖ deal_hash)
 *
 * BLAKE2b-256 is @noble/hashes' (node:crypto has BLAKE2b-512 only).
 */
import { toBinary } from "@bufbuild/protobuf";
import { blake2b } from "@noble/hashes/blake2.js";
import { type GameState, GameStateSchema } from "../gen/mazzo/v1/game_pb.js";

const COMMIT_TAG = new TextEncoder().encode("mazzo.v1 deal commitment\0");

function b2(data: Uint8Array): Uint8Array {
  return blake2b(data, { dkLen: 32 });
}

/** Whether salt, seed and the dealt state open commitment. */
export function verifyDealCommitment(
  commitment: Uint8Array,
  salt: Uint8Array,
  seed: bigint,
  dealt: GameState,
): boolean {
  if (commitment.length !== 32 || salt.length !== 32 || seed < 0n || seed >= 1n << 64n) {
    return false;
  }
  const dealHash = b2(toBinary(GameStateSchema, dealt));
  const data = new Uint8Array(COMMIT_TAG.length + 32 + 8 + 32);
  data.set(COMMIT_TAG, 0);
  data.set(salt, COMMIT_TAG.length);
  new DataView(data.buffer).setBigUint64(COMMIT_TAG.length + 32, seed, true);
  data.set(dealHash, COMMIT_TAG.length + 40);
  const found = b2(data);
  let diff = 0;
  for (let i = 0; i < 32; i++) {
    diff |= found[i] ^ commitment[i];
  }
  return diff === 0;
}
