// Command example deals a match through mazzo.v1.GameService and plays it to
// the end with random safe legal moves, one ApplyMove per move, then scores it.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"time"

	"google.golang.org/protobuf/encoding/protojson"

	mazzov1 "mazzo/clients/go/gen/mazzo/v1"
	"mazzo/clients/go/internal/moves"
	"mazzo/clients/go/internal/service"
)

// maxMoves bounds the loop so a server that never finishes a match cannot
// hang the example; real matches need far fewer.
const maxMoves = 1_000_000

func main() {
	log.SetOutput(os.Stderr)
	log.SetPrefix("example: ")
	target := flag.String("target", "", "GameService address HOST:PORT (required)")
	game := flag.String("game", "maraffa", "game id: maraffa, burraco or ramino")
	players := flag.Uint("players", 0, "number of players (0: the game's default)")
	seed := flag.Uint64("seed", 1, "seed of the deal and of the move choice")
	optionsJSON := flag.String("options", "", `the game's options, GameOptions in proto3 JSON (e.g. {"ramino":{"matchHands":1}})`)
	flag.Parse()
	if *target == "" {
		flag.Usage()
		os.Exit(2)
	}
	var options *mazzov1.GameOptions
	if *optionsJSON != "" {
		options = &mazzov1.GameOptions{}
		if err := protojson.Unmarshal([]byte(*optionsJSON), options); err != nil {
			fmt.Fprintf(os.Stderr, "example: --options: %v\n", err)
			os.Exit(2)
		}
	}
	if err := run(*target, *game, uint32(*players), *seed, options); err != nil {
		log.Fatal(err)
	}
}

func run(target, game string, players uint32, seed uint64, options *mazzov1.GameOptions) error {
	conn, err := service.Dial(target)
	if err != nil {
		return fmt.Errorf("connect %s: %w", target, err)
	}
	defer conn.Close()
	client := mazzov1.NewGameServiceClient(conn)
	rng := rand.New(rand.NewPCG(seed, 0x6578616d706c65))

	call := func() (context.Context, context.CancelFunc) {
		return context.WithTimeout(context.Background(), 30*time.Second)
	}

	ctx, cancel := call()
	dealt, err := client.Deal(ctx, &mazzov1.DealRequest{Game: game, Options: options, Players: players, Seed: seed})
	cancel()
	if err != nil {
		return fmt.Errorf("Deal: %w", err)
	}
	state, seat, legal := dealt.GetState(), dealt.GetSeat(), dealt.GetLegalMoves()
	count := 0
	perSeat := map[uint32]int{} // moves decided by each seat (the 3-player dummy's too)
	for len(legal) > 0 {
		if count >= maxMoves {
			return fmt.Errorf("match not finished after %d moves", count)
		}
		safe := moves.Safe(legal)
		move := legal[safe[rng.IntN(len(safe))]]
		ctx, cancel := call()
		applied, err := client.ApplyMove(ctx, &mazzov1.ApplyMoveRequest{State: state, Move: move})
		cancel()
		if err != nil {
			return fmt.Errorf("ApplyMove #%d by seat %d: %w", count+1, seat, err)
		}
		count++
		perSeat[seat]++
		state, seat, legal = applied.GetState(), applied.GetSeat(), applied.GetLegalMoves()
	}

	ctx, cancel = call()
	score, err := client.Score(ctx, &mazzov1.ScoreRequest{State: state})
	cancel()
	if err != nil {
		return fmt.Errorf("Score: %w", err)
	}
	if !score.GetFinished() {
		return fmt.Errorf("no legal move left but Score says the match is not finished")
	}
	for _, side := range score.GetSides() {
		fmt.Printf("side %d seats=%v match_total=%d\n", side.GetSide(), side.GetSeats(), side.GetMatchTotal())
	}
	log.Printf("moves per seat: %v", perSeat)
	winners := make([]string, len(score.GetWinners()))
	for i, w := range score.GetWinners() {
		winners[i] = strconv.FormatUint(uint64(w), 10)
	}
	fmt.Printf("finished %s players=%d moves=%d winners=%s\n",
		state.GetGame(), state.GetPlayers(), count, strings.Join(winners, ","))
	return nil
}
