// Command conformance runs the language-neutral conformance vectors
// (clients/conformance/README.md) against a live GameService: it proves this
// client builds requests, parses responses (proto3 JSON included) and reads
// rich error details the way the server means them. A sealed vector is a sequence
// of calls, each step's token taken from an earlier answer; a
// verify_deal_commitment vector is checked locally, with no call.
package main

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"mazzo/clients/go/fair"
	mazzov1 "mazzo/clients/go/gen/mazzo/v1"
	"mazzo/clients/go/internal/service"
)

// vectorFile is one vectors/*.json file; request and response stay raw JSON
// so that protojson, not encoding/json, reads them.
type vectorFile struct {
	Vectors []vector `json:"vectors"`
}

type vector struct {
	Name string `json:"name"`
	call
	// A sealed exchange: calls in order, tokens taken from earlier answers.
	Steps []call `json:"steps"`
	// A deal's commitment, checked locally by fair.VerifyDealCommitment.
	Commitment *struct {
		Commitment string          `json:"commitment"`
		Salt       string          `json:"salt"`
		Seed       string          `json:"seed"`
		DealtState json.RawMessage `json:"dealt_state"`
	} `json:"verify_deal_commitment"`
}

type call struct {
	RPC     string          `json:"rpc"`
	Request json.RawMessage `json:"request"`
	// The token this step sends: sealed_states[Seat] of step Step's answer,
	// one byte XORed with 1 when FlipByte is set (negative: from the end).
	Token *struct {
		Step     int  `json:"step"`
		Seat     int  `json:"seat"`
		FlipByte *int `json:"flip_byte"`
	} `json:"token"`
	Expect struct {
		Response json.RawMessage `json:"response"`
		Error    *struct {
			Code  string `json:"code"`
			Field string `json:"field"`
		} `json:"error"`
		// The answer's tokens: how many, at which move number.
		Sealed *struct {
			Tokens int    `json:"tokens"`
			Move   uint32 `json:"move"`
		} `json:"sealed"`
		Valid *bool `json:"valid"`
	} `json:"expect"`
}

// rpc is one GameService method, typed by its request and response messages.
type rpc struct {
	newReq  func() proto.Message
	newResp func() proto.Message
	call    func(context.Context, proto.Message) (proto.Message, error)
}

func method[Req, Resp proto.Message](newReq func() Req, newResp func() Resp,
	call func(context.Context, Req, ...grpc.CallOption) (Resp, error)) rpc {
	return rpc{
		newReq:  func() proto.Message { return newReq() },
		newResp: func() proto.Message { return newResp() },
		call: func(ctx context.Context, req proto.Message) (proto.Message, error) {
			return call(ctx, req.(Req))
		},
	}
}

func methods(c mazzov1.GameServiceClient) map[string]rpc {
	return map[string]rpc{
		"ListGames":   method(func() *mazzov1.ListGamesRequest { return &mazzov1.ListGamesRequest{} }, func() *mazzov1.ListGamesResponse { return &mazzov1.ListGamesResponse{} }, c.ListGames),
		"Deal":        method(func() *mazzov1.DealRequest { return &mazzov1.DealRequest{} }, func() *mazzov1.DealResponse { return &mazzov1.DealResponse{} }, c.Deal),
		"LegalMoves":  method(func() *mazzov1.LegalMovesRequest { return &mazzov1.LegalMovesRequest{} }, func() *mazzov1.LegalMovesResponse { return &mazzov1.LegalMovesResponse{} }, c.LegalMoves),
		"ApplyMove":   method(func() *mazzov1.ApplyMoveRequest { return &mazzov1.ApplyMoveRequest{} }, func() *mazzov1.ApplyMoveResponse { return &mazzov1.ApplyMoveResponse{} }, c.ApplyMove),
		"GetView":     method(func() *mazzov1.GetViewRequest { return &mazzov1.GetViewRequest{} }, func() *mazzov1.GetViewResponse { return &mazzov1.GetViewResponse{} }, c.GetView),
		"Score":       method(func() *mazzov1.ScoreRequest { return &mazzov1.ScoreRequest{} }, func() *mazzov1.ScoreResponse { return &mazzov1.ScoreResponse{} }, c.Score),
		"Determinize": method(func() *mazzov1.DeterminizeRequest { return &mazzov1.DeterminizeRequest{} }, func() *mazzov1.DeterminizeResponse { return &mazzov1.DeterminizeResponse{} }, c.Determinize),
		"ApplyMoves":  method(func() *mazzov1.ApplyMovesRequest { return &mazzov1.ApplyMovesRequest{} }, func() *mazzov1.ApplyMovesResponse { return &mazzov1.ApplyMovesResponse{} }, c.ApplyMoves),
		"Simulate":    method(func() *mazzov1.SimulateRequest { return &mazzov1.SimulateRequest{} }, func() *mazzov1.SimulateResponse { return &mazzov1.SimulateResponse{} }, c.Simulate),
	}
}

func main() {
	target := flag.String("target", "", "GameService address HOST:PORT (required)")
	dir := flag.String("vectors", "", "folder of conformance vector *.json files (required)")
	flag.Parse()
	if *target == "" || *dir == "" {
		flag.Usage()
		os.Exit(2)
	}
	conn, err := service.Dial(*target)
	if err != nil {
		fmt.Fprintf(os.Stderr, "conformance: connect %s: %v\n", *target, err)
		os.Exit(2)
	}
	defer conn.Close()
	rpcs := methods(mazzov1.NewGameServiceClient(conn))

	files, err := filepath.Glob(filepath.Join(*dir, "*.json"))
	if err != nil {
		fmt.Fprintf(os.Stderr, "conformance: %v\n", err)
		os.Exit(2)
	}
	sort.Strings(files)
	passed, failed := 0, 0
	for _, path := range files {
		raw, err := os.ReadFile(path)
		var vf vectorFile
		if err == nil {
			err = json.Unmarshal(raw, &vf)
		}
		if err != nil {
			fmt.Printf("FAIL %s: unreadable vector file: %v\n", filepath.Base(path), err)
			failed++
			continue
		}
		for _, v := range vf.Vectors {
			if problem := check(rpcs, v); problem != "" {
				fmt.Printf("FAIL %s: %s\n", v.Name, problem)
				failed++
			} else {
				passed++
			}
		}
	}
	fmt.Printf("conformance go: passed=%d failed=%d\n", passed, failed)
	if failed > 0 || passed == 0 {
		os.Exit(1)
	}
}

// check runs one vector and returns what differed, or "" when it passed.
func check(rpcs map[string]rpc, v vector) string {
	switch {
	case v.Steps != nil:
		return checkSealed(rpcs, v.Steps)
	case v.Commitment != nil:
		return checkCommitment(v)
	}
	_, problem := checkCall(rpcs, v.call, nil)
	return problem
}

// checkCall makes one call (with the token of its step put in) and returns the
// answer and what differed, or "" when it held.
func checkCall(rpcs map[string]rpc, c call, answers []proto.Message) (proto.Message, string) {
	m, ok := rpcs[c.RPC]
	if !ok {
		return nil, fmt.Sprintf("unknown rpc %q", c.RPC)
	}
	req := m.newReq()
	if err := protojson.Unmarshal(c.Request, req); err != nil {
		return nil, fmt.Sprintf("cannot parse request as %s: %v", req.ProtoReflect().Descriptor().FullName(), err)
	}
	if c.Token != nil {
		if c.Token.Step >= len(answers) || answers[c.Token.Step] == nil {
			return nil, fmt.Sprintf("no answer at step %d", c.Token.Step)
		}
		tokens := sealedStates(answers[c.Token.Step])
		token := append([]byte(nil), tokens[c.Token.Seat]...)
		if c.Token.FlipByte != nil {
			i := *c.Token.FlipByte
			if i < 0 {
				i += len(token)
			}
			token[i] ^= 1
		}
		r := req.ProtoReflect()
		r.Set(r.Descriptor().Fields().ByName("sealed_state"), protoreflect.ValueOfBytes(token))
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	got, err := m.call(ctx, req)

	switch {
	case c.Expect.Error != nil:
		return nil, checkError(err, c.Expect.Error.Code, c.Expect.Error.Field)
	case c.Expect.Response != nil:
		if err != nil {
			st := status.Convert(err)
			return nil, fmt.Sprintf("expected a response, got %s: %s", codeName(st.Code()), st.Message())
		}
		want := m.newResp()
		if err := protojson.Unmarshal(c.Expect.Response, want); err != nil {
			return nil, fmt.Sprintf("cannot parse expected response as %s: %v", want.ProtoReflect().Descriptor().FullName(), err)
		}
		shown := got
		if c.Expect.Sealed != nil {
			// Random, or keyed by the server's key: their shape is checked instead.
			shown = proto.Clone(got)
			r := shown.ProtoReflect()
			for _, name := range []protoreflect.Name{"sealed_states", "match_id", "deal_commitment"} {
				if fd := r.Descriptor().Fields().ByName(name); fd != nil {
					r.Clear(fd)
				}
			}
		}
		if !proto.Equal(shown, want) {
			return nil, "response differs: " + firstDiff(want.ProtoReflect(), shown.ProtoReflect(), "")
		}
		return got, ""
	default:
		return nil, "vector expects neither a response nor an error"
	}
}

// sealedStates is an answer's sealed_states (nil for an answer without them).
func sealedStates(m proto.Message) [][]byte {
	switch r := m.(type) {
	case *mazzov1.DealResponse:
		return r.GetSealedStates()
	case *mazzov1.ApplyMoveResponse:
		return r.GetSealedStates()
	}
	return nil
}

// checkSealed runs a sealed exchange: each answer's tokens are checked by their
// header (docs/sealing.md: version 1, key id, match id, move, seat, seats).
func checkSealed(rpcs map[string]rpc, steps []call) string {
	var answers []proto.Message
	var matchID []byte
	for i, step := range steps {
		got, problem := checkCall(rpcs, step, answers)
		if problem != "" {
			return fmt.Sprintf("step %d (%s): %s", i, step.RPC, problem)
		}
		answers = append(answers, got)
		want := step.Expect.Sealed
		if got == nil || want == nil {
			continue
		}
		tokens := sealedStates(got)
		if len(tokens) != want.Tokens {
			return fmt.Sprintf("step %d: %d tokens, expected %d", i, len(tokens), want.Tokens)
		}
		for seat, t := range tokens {
			if len(t) < 2 || t[0] != 1 || t[1] < 1 || t[1] > 32 || len(t) < 2+int(t[1])+22+12+16 {
				return fmt.Sprintf("step %d: token %d has no version 1 header", i, seat)
			}
			n := 2 + int(t[1])
			id, move := t[n:n+16], binary.BigEndian.Uint32(t[n+16:n+20])
			if move != want.Move || int(t[n+20]) != seat || int(t[n+21]) != len(tokens) {
				return fmt.Sprintf("step %d: token %d: move %d, seat %d of %d", i, seat, move, t[n+20], t[n+21])
			}
			if matchID == nil {
				matchID = id
			} else if !bytes.Equal(id, matchID) {
				return fmt.Sprintf("step %d: token %d is of another match", i, seat)
			}
		}
		if d, ok := got.(*mazzov1.DealResponse); ok {
			if d.GetMatchId() != hex.EncodeToString(matchID) || len(d.GetDealCommitment()) != 32 {
				return fmt.Sprintf("step %d: match_id %q or a deal_commitment of %d bytes", i, d.GetMatchId(), len(d.GetDealCommitment()))
			}
		}
	}
	return ""
}

// checkCommitment opens a deal's commitment locally with fair.VerifyDealCommitment.
func checkCommitment(v vector) string {
	c := v.Commitment
	commitment, err1 := hex.DecodeString(c.Commitment)
	salt, err2 := hex.DecodeString(c.Salt)
	seed, err3 := strconv.ParseUint(c.Seed, 10, 64)
	dealt := &mazzov1.GameState{}
	err4 := protojson.Unmarshal(c.DealtState, dealt)
	for _, err := range []error{err1, err2, err3, err4} {
		if err != nil {
			return fmt.Sprintf("bad vector: %v", err)
		}
	}
	valid, err := fair.VerifyDealCommitment(commitment, salt, seed, dealt)
	if err != nil {
		return err.Error()
	}
	if v.Expect.Valid == nil || valid != *v.Expect.Valid {
		return fmt.Sprintf("VerifyDealCommitment gave %v", valid)
	}
	return ""
}

// checkError compares a call's error with the expected code name and, when
// field is set, a google.rpc.BadRequest field violation in the details.
func checkError(err error, wantCode, field string) string {
	var want codes.Code
	if e := want.UnmarshalJSON([]byte(`"` + wantCode + `"`)); e != nil {
		return fmt.Sprintf("unknown expected code %q", wantCode)
	}
	if err == nil {
		return fmt.Sprintf("expected %s, got a response", wantCode)
	}
	st, ok := status.FromError(err)
	if !ok {
		return fmt.Sprintf("expected %s, got a non-gRPC error: %v", wantCode, err)
	}
	if st.Code() != want {
		return fmt.Sprintf("expected %s, got %s: %s", wantCode, codeName(st.Code()), st.Message())
	}
	if field == "" {
		return ""
	}
	var seen []string
	for _, d := range st.Details() {
		if br, ok := d.(*errdetails.BadRequest); ok {
			for _, fv := range br.GetFieldViolations() {
				if fv.GetField() == field {
					return ""
				}
				seen = append(seen, fv.GetField())
			}
		} else if e, isErr := d.(error); isErr {
			return fmt.Sprintf("undecodable status detail: %v", e)
		}
	}
	return fmt.Sprintf("%s without a BadRequest field violation %q (got %q): %s", wantCode, field, seen, st.Message())
}

// codeName is the canonical upper-case name of a code, as the vectors spell it.
func codeName(c codes.Code) string {
	for _, name := range []string{"OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED",
		"NOT_FOUND", "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION",
		"ABORTED", "OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED"} {
		var k codes.Code
		if k.UnmarshalJSON([]byte(`"`+name+`"`)) == nil && k == c {
			return name
		}
	}
	return c.String()
}

// firstDiff names the first field path where two messages differ, so a failure
// line points at the difference instead of dumping two large states.
func firstDiff(want, got protoreflect.Message, path string) string {
	fields := want.Descriptor().Fields()
	for i := 0; i < fields.Len(); i++ {
		fd := fields.Get(i)
		p := strings.TrimPrefix(path+"."+string(fd.Name()), ".")
		hw, hg := want.Has(fd), got.Has(fd)
		if !hw && !hg {
			continue
		}
		if hw != hg {
			return fmt.Sprintf("%s: want %s, got %s", p, present(want, fd), present(got, fd))
		}
		vw, vg := want.Get(fd), got.Get(fd)
		switch {
		case fd.IsList():
			lw, lg := vw.List(), vg.List()
			if lw.Len() != lg.Len() {
				return fmt.Sprintf("%s: want %d elements, got %d", p, lw.Len(), lg.Len())
			}
			for j := 0; j < lw.Len(); j++ {
				ep := fmt.Sprintf("%s[%d]", p, j)
				if fd.Message() != nil {
					if d := firstDiff(lw.Get(j).Message(), lg.Get(j).Message(), ep); d != "" {
						return d
					}
				} else if !lw.Get(j).Equal(lg.Get(j)) {
					return fmt.Sprintf("%s: want %v, got %v", ep, lw.Get(j), lg.Get(j))
				}
			}
		case fd.IsMap():
			if !vw.Equal(vg) {
				return fmt.Sprintf("%s: maps differ", p)
			}
		case fd.Message() != nil:
			if d := firstDiff(vw.Message(), vg.Message(), p); d != "" {
				return d
			}
		default:
			if !vw.Equal(vg) {
				return fmt.Sprintf("%s: want %v, got %v", p, vw, vg)
			}
		}
	}
	if path == "" {
		return "messages differ (unknown fields)"
	}
	return ""
}

// present describes whether a field is set, for a diff line.
func present(m protoreflect.Message, fd protoreflect.FieldDescriptor) string {
	switch {
	case !m.Has(fd) && (fd.IsList() || fd.IsMap() || fd.Message() != nil):
		return "unset"
	case fd.IsList():
		return fmt.Sprintf("%d elements", m.Get(fd).List().Len())
	case fd.IsMap():
		return fmt.Sprintf("%d entries", m.Get(fd).Map().Len())
	case fd.Message() != nil:
		return "set"
	}
	return fmt.Sprintf("%v", m.Get(fd))
}
