package dialin

import (
	"context"
	"errors"
	"net"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	mazzov1 "mazzo/clients/go/gen/mazzo/v1"
)

// gateway is a fake Tables server: it checks the Hello, sends two decisions (the
// first one again on the second stream, as after a drop), then ends the stream.
type gateway struct {
	mazzov1.UnimplementedTablesServer
	streams int
	answers []*mazzov1.Answer
}

func (g *gateway) Join(stream grpc.BidiStreamingServer[mazzov1.BotMessage, mazzov1.TableMessage]) error {
	g.streams++
	first, err := stream.Recv()
	if err != nil {
		return err
	}
	hello := first.GetHello()
	if hello.GetToken() != "secret" || hello.GetProtocolVersion() != ProtocolVersion {
		return status.Error(codes.Unauthenticated, "unknown token for this name")
	}
	_ = stream.Send(&mazzov1.TableMessage{Kind: &mazzov1.TableMessage_Welcome{Welcome: &mazzov1.Welcome{Name: "me"}}})
	legal := []*mazzov1.Move{{}, {}, {}}
	for seq := uint64(1); seq <= 2; seq++ {
		request := &mazzov1.ActRequest{LegalMoves: legal}
		decision := &mazzov1.Decision{Sequence: seq, MatchId: "m-1", Request: request}
		if err := stream.Send(&mazzov1.TableMessage{Kind: &mazzov1.TableMessage_Decision{Decision: decision}}); err != nil {
			return err
		}
		msg, err := stream.Recv()
		if err != nil {
			return err
		}
		g.answers = append(g.answers, msg.GetAnswer())
		if g.streams == 1 { // a drop after the first answer: the bot must dial again
			return status.Error(codes.Unavailable, "dropped")
		}
	}
	return nil
}

func serve(t *testing.T, g *gateway) string {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := grpc.NewServer()
	mazzov1.RegisterTablesServer(srv, g)
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(srv.Stop)
	return lis.Addr().String()
}

func TestJoinAnswersEachDecisionAndRedialsAfterADrop(t *testing.T) {
	g := &gateway{}
	target := serve(t, g)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	err := Join(ctx, Options{Target: target, Token: "secret"}, func(*mazzov1.ActRequest) int { return 2 })
	if err != nil {
		t.Fatalf("Join: %v", err)
	}
	if g.streams != 2 {
		t.Fatalf("streams: got %d, want 2 (one drop, one redial)", g.streams)
	}
	if len(g.answers) != 3 {
		t.Fatalf("answers: got %d, want 3", len(g.answers))
	}
	for i, want := range []uint64{1, 1, 2} {
		a := g.answers[i]
		if a.GetSequence() != want || a.GetMatchId() != "m-1" || a.GetResponse().GetIndex() != 2 {
			t.Errorf("answer %d: %v, want sequence %d, match m-1, index 2", i, a, want)
		}
	}
}

func TestJoinStopsOnARefusal(t *testing.T) {
	target := serve(t, &gateway{})
	err := Join(context.Background(), Options{Target: target, Token: "wrong"}, func(*mazzov1.ActRequest) int { return 0 })
	var refused *Refused
	if !errors.As(err, &refused) || refused.Status.Code() != codes.Unauthenticated {
		t.Fatalf("Join: %v, want a Refused UNAUTHENTICATED", err)
	}
	if got := refused.Error(); got != "UNAUTHENTICATED: unknown token for this name" {
		t.Errorf("Error(): %q", got)
	}
}
