// Command bot is the Mazzo starter bot: a gRPC server of mazzo.v1.Bot that
// answers each Act with a random safe legal move or, with --connect, a bot that
// dials in to a referee's gateway (mazzo.v1.Tables/Join) and binds no port.
// Either way the same choose decides: put a real strategy there.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log"
	"math/rand/v2"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	mazzov1 "mazzo/clients/go/gen/mazzo/v1"
	"mazzo/clients/go/internal/botserver"
	"mazzo/clients/go/internal/dialin"
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

// decide is choose behind the mutex: served or dialing in, every move comes here.
func (b *botServer) decide(req *mazzov1.ActRequest) int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return choose(req, b.rng)
}

func (b *botServer) Act(_ context.Context, req *mazzov1.ActRequest) (*mazzov1.ActResponse, error) {
	if len(req.GetLegalMoves()) == 0 {
		return nil, status.Error(codes.InvalidArgument, "legal_moves is empty: nothing to choose")
	}
	i := b.decide(req)
	return &mazzov1.ActResponse{Choice: &mazzov1.ActResponse_Index{Index: uint32(i)}}, nil
}

func main() {
	log.SetOutput(os.Stderr)
	log.SetPrefix("bot: ")
	host := flag.String("host", "127.0.0.1", "address to listen on")
	port := flag.Int("port", 50061, "port to listen on (0 picks a free one)")
	seed := flag.Uint64("seed", 0, "random seed (0: from the clock)")
	connect := flag.String("connect", "", "dial in to a referee's gateway at `HOST:PORT` instead of serving (grpcs://HOST:PORT for TLS)")
	token := flag.String("token", "", "the token that mazzo token new NAME printed (with --connect)")
	name := flag.String("name", "", "the seats' name (with --connect; default: the token's)")
	ca := flag.String("ca", "", "check a grpcs:// gateway against this PEM CA (with --connect)")
	flag.Parse()

	s := *seed
	if s == 0 {
		s = uint64(time.Now().UnixNano())
	}
	bot := &botServer{rng: rand.New(rand.NewPCG(s, 0x6d617a7a6f))}
	if *connect == "" {
		log.Printf("serving mazzo.v1.Bot, seed %d", s)
		if err := botserver.Serve(*host, *port, bot); err != nil {
			log.Fatal(err)
		}
		return
	}
	if *token == "" {
		fmt.Fprintln(os.Stderr, "bot: --connect needs --token")
		os.Exit(2)
	}
	if *ca != "" && !strings.HasPrefix(*connect, "grpcs://") {
		fmt.Fprintln(os.Stderr, "bot: --ca needs a grpcs:// gateway")
		os.Exit(2)
	}
	// SIGTERM or Ctrl-C ends the stream and the program, cleanly.
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	log.Printf("dialing in to %s, seed %d", *connect, s)
	err := dialin.Join(ctx, dialin.Options{Target: *connect, Token: *token, Name: *name, CA: *ca}, bot.decide)
	var refused *dialin.Refused
	switch {
	case errors.As(err, &refused):
		fmt.Fprintf(os.Stderr, "bot: refused: %v\n", refused)
		os.Exit(2)
	case err != nil:
		log.Fatal(err)
	}
	log.Printf("the gateway ended the stream")
}
