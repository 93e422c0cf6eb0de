package mazzo.client;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import mazzo.v1.Game.GameState;
import org.bouncycastle.crypto.digests.Blake2bDigest;

/**
 * Checks a deal's commitment locally (docs/fair-deals.md in the Mazzo repository): the dealer
 * publishes deal_commitment before the first move and reveals the salt at the end; with the seed
 * and the dealt state (Deal's answer for that seed) anyone checks the match was dealt as
 * committed:
 *
 * <pre>
 * deal_hash  = BLAKE2b-256(the dealt GameState's wire bytes)
 * commitment = BLAKE2b-256("mazzo.v1 deal commitment" 0x00 || salt (32 bytes)
 *                          || seed (8 bytes, little-endian) || deal_hash)
 * </pre>
 *
 * BLAKE2b-256 is Bouncy Castle's: the JDK's MessageDigest has no BLAKE2b.
 */
public final class Fair {
  private static final byte[] COMMIT_TAG =
      "mazzo.v1 deal commitment\0".getBytes(StandardCharsets.US_ASCII);

  private Fair() {}

  /**
   * Whether salt, seed and the dealt state open commitment. The seed is the 64-bit unsigned
   * seed of the deal, as Java's long holds it (Long.parseUnsignedLong of its decimal text).
   */
  public static boolean verifyDealCommitment(
      byte[] commitment, byte[] salt, long seed, GameState dealt) {
    if (commitment.length != 32 || salt.length != 32) {
      return false;
    }
    byte[] dealHash = blake2b256(dealt.toByteArray());
    ByteBuffer data = ByteBuffer.allocate(COMMIT_TAG.length + 32 + 8 + 32);
    data.put(COMMIT_TAG).put(salt).order(ByteOrder.LITTLE_ENDIAN).putLong(seed).put(dealHash);
    return MessageDigest.isEqual(blake2b256(data.array()), commitment);
  }

  private static byte[] blake2b256(byte[] data) {
    Blake2bDigest digest = new Blake2bDigest(256);
    digest.update(data, 0, data.length);
    byte[] out = new byte[32];
    digest.doFinal(out, 0);
    return out;
  }
}
