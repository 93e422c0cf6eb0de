// Command bot is the Mazzo starter bot: a gRPC server of mazzo.v1.Bot that
// answers each Act with a random safe legal move. Put a real strategy in choose.
package main

import (
	"context"
	"flag"
	"log"
	"math/rand/v2"
	"os"
	"sync"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	mazzov1 "mazzo/clients/go/gen/mazzo/v1"
	"mazzo/clients/go/internal/botserver"
	"mazzo/clients/go/internal/moves"
)

// choose picks the index of the move to play from req.LegalMoves (never
// empty). This is the place for a real strategy: req.View is everything the
// seat may know. The starter picks at random among the safe moves.
func choose(req *mazzov1.ActRequest, rng *rand.Rand) int {
	safe := moves.Safe(req.GetLegalMoves())
	return safe[rng.IntN(len(safe))]
}

// botServer serves Act; the referee may call it concurrently (one match per
// seat), and *rand.Rand is not safe for concurrent use, hence the mutex.
type botServer struct {
	mazzov1.UnimplementedBotServer
	mu  sync.Mutex
	rng *rand.Rand
}

func (b *botServer) Act(_ context.Context, req *mazzov1.ActRequest) (*mazzov1.ActResponse, error) {
	if len(req.GetLegalMoves()) == 0 {
		return nil, status.Error(codes.InvalidArgument, "legal_moves is empty: nothing to choose")
	}
	b.mu.Lock()
	i := choose(req, b.rng)
	b.mu.Unlock()
	return &mazzov1.ActResponse{Choice: &mazzov1.ActResponse_Index{Index: uint32(i)}}, nil
}

func main() {
	log.SetOutput(os.Stderr)
	log.SetPrefix("bot: ")
	host := flag.String("host", "127.0.0.1", "address to listen on")
	port := flag.Int("port", 50061, "port to listen on (0 picks a free one)")
	seed := flag.Uint64("seed", 0, "random seed (0: from the clock)")
	flag.Parse()

	s := *seed
	if s == 0 {
		s = uint64(time.Now().UnixNano())
	}
	log.Printf("serving mazzo.v1.Bot, seed %d", s)
	if err := botserver.Serve(*host, *port, &botServer{rng: rand.New(rand.NewPCG(s, 0x6d617a7a6f))}); err != nil {
		log.Fatal(err)
	}
}
