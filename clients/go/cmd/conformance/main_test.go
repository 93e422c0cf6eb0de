package main

import (
	"context"
	"encoding/json"
	"net"
	"strings"
	"testing"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"
	"google.golang.org/grpc/test/bufconn"

	mazzov1 "mazzo/clients/go/gen/mazzo/v1"
)

// fakeService answers Deal with a fixed response and ApplyMove with the
// server's rich INVALID_ARGUMENT, so check's verdicts can be tested offline.
type fakeService struct {
	mazzov1.UnimplementedGameServiceServer
}

func (fakeService) Deal(context.Context, *mazzov1.DealRequest) (*mazzov1.DealResponse, error) {
	return &mazzov1.DealResponse{Seat: 3, State: &mazzov1.GameState{Game: "maraffa", Players: 4, MatchScore: []int64{0, 12}}}, nil
}

func (fakeService) ApplyMove(context.Context, *mazzov1.ApplyMoveRequest) (*mazzov1.ApplyMoveResponse, error) {
	st, err := status.New(codes.InvalidArgument, "play 3S: the card is not in hand").WithDetails(&errdetails.BadRequest{
		FieldViolations: []*errdetails.BadRequest_FieldViolation{{Field: "move.maraffa.play_card.card"}}})
	if err != nil {
		return nil, err
	}
	return nil, st.Err()
}

func fakeRPCs(t *testing.T) map[string]rpc {
	t.Helper()
	lis := bufconn.Listen(1 << 20)
	srv := grpc.NewServer()
	mazzov1.RegisterGameServiceServer(srv, fakeService{})
	go func() { _ = srv.Serve(lis) }()
	t.Cleanup(srv.Stop)
	conn, err := grpc.NewClient("passthrough:///fake",
		grpc.WithContextDialer(func(ctx context.Context, _ string) (net.Conn, error) { return lis.DialContext(ctx) }),
		grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close() })
	return methods(mazzov1.NewGameServiceClient(conn))
}

func TestCheck(t *testing.T) {
	rpcs := fakeRPCs(t)
	dealResp := `{"seat": 3, "state": {"game": "maraffa", "players": 4, "matchScore": ["0", "12"]}}`
	cases := []struct {
		name, vector string
		wantFail     string // "" = the vector passes; else a part of the failure text
	}{
		{"equal response", `{"name":"a","rpc":"Deal","request":{"game":"maraffa"},"expect":{"response":` + dealResp + `}}`, ""},
		{"int64 as number parses too", `{"name":"a","rpc":"Deal","request":{},"expect":{"response":{"seat":3,"state":{"game":"maraffa","players":4,"matchScore":[0,12]}}}}`, ""},
		{"differing nested value", `{"name":"a","rpc":"Deal","request":{},"expect":{"response":{"seat":3,"state":{"game":"maraffa","players":4,"matchScore":["0","13"]}}}}`, "state.match_score[1]: want 13, got 12"},
		{"missing field", `{"name":"a","rpc":"Deal","request":{},"expect":{"response":{"state":{"game":"maraffa","players":4,"matchScore":["0","12"]}}}}`, "seat: want 0, got 3"},
		{"error expected, response got", `{"name":"a","rpc":"Deal","request":{},"expect":{"error":{"code":"INVALID_ARGUMENT"}}}`, "got a response"},
		{"error code and field", `{"name":"a","rpc":"ApplyMove","request":{},"expect":{"error":{"code":"INVALID_ARGUMENT","field":"move.maraffa.play_card.card"}}}`, ""},
		{"wrong field", `{"name":"a","rpc":"ApplyMove","request":{},"expect":{"error":{"code":"INVALID_ARGUMENT","field":"move"}}}`, `field violation "move"`},
		{"wrong code", `{"name":"a","rpc":"ApplyMove","request":{},"expect":{"error":{"code":"FAILED_PRECONDITION"}}}`, "got INVALID_ARGUMENT"},
		{"unimplemented rpc", `{"name":"a","rpc":"Score","request":{},"expect":{"response":{}}}`, "got UNIMPLEMENTED"},
		{"unknown rpc", `{"name":"a","rpc":"Shuffle","request":{},"expect":{"response":{}}}`, "unknown rpc"},
		{"unknown request field", `{"name":"a","rpc":"Deal","request":{"gmae":"x"},"expect":{"response":{}}}`, "unknown field"},
		{"no expectation", `{"name":"a","rpc":"Deal","request":{}}`, "neither"},
	}
	for _, c := range cases {
		var v vector
		if err := json.Unmarshal([]byte(c.vector), &v); err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		got := check(rpcs, v)
		switch {
		case c.wantFail == "" && got != "":
			t.Errorf("%s: want pass, got %q", c.name, got)
		case c.wantFail != "" && !strings.Contains(got, c.wantFail):
			t.Errorf("%s: want a failure containing %q, got %q", c.name, c.wantFail, got)
		}
	}
}
