package service

import (
	"bytes"
	"context"
	"net"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/test/bufconn"

	mazzov1 "mazzo/clients/go/gen/mazzo/v1"
)

// The embedded copy is the repo's file (the Makefile copies it before building).
func TestConfigIsTheReposFile(t *testing.T) {
	want, err := os.ReadFile("../../../service-config.json")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal([]byte(Config), want) {
		t.Fatal("internal/service/service-config.json differs from clients/service-config.json: run make build")
	}
}

// flaky fails its first two ListGames calls with UNAVAILABLE.
type flaky struct {
	mazzov1.UnimplementedGameServiceServer
	calls atomic.Int32
}

func (f *flaky) ListGames(context.Context, *mazzov1.ListGamesRequest) (*mazzov1.ListGamesResponse, error) {
	if f.calls.Add(1) <= 2 {
		return nil, status.Error(codes.Unavailable, "starting")
	}
	return &mazzov1.ListGamesResponse{}, nil
}

// A channel from Dial retries UNAVAILABLE, as the service config says.
func TestDialRetriesUnavailable(t *testing.T) {
	lis := bufconn.Listen(1 << 16)
	srv := grpc.NewServer()
	f := &flaky{}
	mazzov1.RegisterGameServiceServer(srv, f)
	go func() { _ = srv.Serve(lis) }()
	defer srv.Stop()
	conn, err := Dial("passthrough:///fake",
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := mazzov1.NewGameServiceClient(conn).ListGames(ctx, &mazzov1.ListGamesRequest{}); err != nil {
		t.Fatalf("ListGames: %v", err)
	}
	if n := f.calls.Load(); n != 3 {
		t.Fatalf("want 3 attempts, got %d", n)
	}
}
