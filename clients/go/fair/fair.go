// Package fair checks a deal's commitment locally (docs/fair-deals.md in the
// Mazzo repository): the dealer publishes deal_commitment before the first move
// and reveals the salt at the end; with the seed and the dealt state (Deal's
// answer for that seed) anyone checks the match was dealt as committed:
//
//	deal_hash  = BLAKE2b-256(the dealt GameState's deterministic wire bytes)
//	commitment = BLAKE2b-256("mazzo.v1 deal commitment" 0x00 || salt (32 bytes)
//	                         || seed (8 bytes, little-endian) || deal_hash)
package fair

import (
	"crypto/subtle"
	"encoding/binary"

	"golang.org/x/crypto/blake2b"
	"google.golang.org/protobuf/proto"

	mazzov1 "mazzo/clients/go/gen/mazzo/v1"
)

const commitTag = "mazzo.v1 deal commitment\x00"

// VerifyDealCommitment reports whether salt, seed and the dealt state open
// commitment.
func VerifyDealCommitment(commitment, salt []byte, seed uint64, dealt *mazzov1.GameState) (bool, error) {
	if len(commitment) != blake2b.Size256 || len(salt) != 32 {
		return false, nil
	}
	wire, err := proto.MarshalOptions{Deterministic: true}.Marshal(dealt)
	if err != nil {
		return false, err
	}
	dealHash := blake2b.Sum256(wire)
	data := make([]byte, 0, len(commitTag)+32+8+32)
	data = append(data, commitTag...)
	data = append(data, salt...)
	data = binary.LittleEndian.AppendUint64(data, seed)
	data = append(data, dealHash[:]...)
	found := blake2b.Sum256(data)
	return subtle.ConstantTimeCompare(found[:], commitment) == 1, nil
}
