// Command searchbot is the search starter bot: a mazzo.v1.Bot server that plays,
// for each Act, the move best for its side by one Simulate call from its own view
// (perfect-information Monte Carlo); on any error or timeout, a random safe move.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"math"
	"math/rand/v2"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	mazzov1 "mazzo/clients/go/gen/mazzo/v1"
	"mazzo/clients/go/internal/botserver"
	"mazzo/clients/go/internal/moves"
	"mazzo/clients/go/internal/service"
)

type searchBot struct {
	mazzov1.UnimplementedBotServer
	client                     mazzov1.GameServiceClient
	determinizations, playouts uint32
}

func (b *searchBot) Act(ctx context.Context, req *mazzov1.ActRequest) (*mazzov1.ActResponse, error) {
	safe := moves.Safe(req.GetLegalMoves())
	if len(safe) == 0 {
		return nil, status.Error(codes.InvalidArgument, "legal_moves is empty: nothing to choose")
	}
	i, err := b.search(ctx, req)
	if err != nil || i < 0 {
		log.Printf("seat %d: a random move instead (%v)", req.GetSeat(), err)
		i = safe[rand.IntN(len(safe))]
	}
	return &mazzov1.ActResponse{Choice: &mazzov1.ActResponse_Index{Index: uint32(i)}}, nil
}

// search: the move (never a claim; -1 if none) with the best mean score change of its
// side minus the other sides' mean. Simulate gets half the time left, at most 1 s.
func (b *searchBot) search(ctx context.Context, req *mazzov1.ActRequest) (int, error) {
	budget := time.Second
	if t := req.GetTimeLeft(); t != nil && t.AsDuration()/2 < budget {
		budget = t.AsDuration() / 2
	}
	ctx, cancel := context.WithTimeout(ctx, budget)
	defer cancel()
	resp, err := b.client.Simulate(ctx, &mazzov1.SimulateRequest{
		Position: &mazzov1.SimulateRequest_View{View: req.GetView()},
		Playouts: b.playouts, Determinizations: b.determinizations, Seed: rand.Uint64(),
	})
	if err != nil {
		return 0, err
	}
	legal, outcomes, side := req.GetLegalMoves(), resp.GetOutcomes(), int(resp.GetSide())
	best, bestValue := -1, math.Inf(-1)
	for i, o := range outcomes {
		sides := o.GetSides()
		if len(outcomes) != len(legal) || !proto.Equal(o.GetMove(), legal[i]) || side >= len(sides) {
			return 0, fmt.Errorf("outcome %d of %d: not legal move %d, or no side %d", i, len(outcomes), i, side)
		} else if moves.IsClaim(legal[i]) { // its score change says nothing of the game it wins or loses
			continue
		}
		value := sides[side].GetMeanScoreChange()
		for j, s := range sides {
			if j != side {
				value -= s.GetMeanScoreChange() / float64(len(sides)-1)
			}
		}
		if value > bestValue {
			best, bestValue = i, value
		}
	}
	return best, nil
}

func main() {
	log.SetPrefix("searchbot: ")
	host := flag.String("host", "127.0.0.1", "address to listen on")
	port := flag.Int("port", 50062, "port to listen on (0 picks a free one)")
	target := flag.String("service", "127.0.0.1:50051", "the GameService that simulates, HOST:PORT")
	dets := flag.Uint("determinizations", 32, "hidden-card samples per decision")
	playouts := flag.Uint("playouts", 4, "playouts of each legal move per sample")
	flag.Parse()
	conn, err := service.Dial(*target)
	if err != nil {
		log.Fatalf("service %s: %v", *target, err)
	}
	defer conn.Close()
	log.Printf("serving mazzo.v1.Bot; Simulate on %s, %d determinizations x %d playouts", *target, *dets, *playouts)
	bot := &searchBot{client: mazzov1.NewGameServiceClient(conn), determinizations: uint32(*dets), playouts: uint32(*playouts)}
	if err := botserver.Serve(*host, *port, bot); err != nil {
		log.Fatal(err)
	}
}
