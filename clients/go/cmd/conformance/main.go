// Command conformance runs the language-neutral conformance vectors
// (clients/conformance/README.md) against a live GameService: it proves this
// client builds requests, parses responses (proto3 JSON included) and reads
// rich error details the way the server means them.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	mazzov1 "mazzo/clients/go/gen/mazzo/v1"
	"mazzo/clients/go/internal/service"
)

// vectorFile is one vectors/*.json file; request and response stay raw JSON
// so that protojson, not encoding/json, reads them.
type vectorFile struct {
	Vectors []vector `json:"vectors"`
}

type vector struct {
	Name    string          `json:"name"`
	RPC     string          `json:"rpc"`
	Request json.RawMessage `json:"request"`
	Expect  struct {
		Response json.RawMessage `json:"response"`
		Error    *struct {
			Code  string `json:"code"`
			Field string `json:"field"`
		} `json:"error"`
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
	m, ok := rpcs[v.RPC]
	if !ok {
		return fmt.Sprintf("unknown rpc %q", v.RPC)
	}
	req := m.newReq()
	if err := protojson.Unmarshal(v.Request, req); err != nil {
		return fmt.Sprintf("cannot parse request as %s: %v", req.ProtoReflect().Descriptor().FullName(), err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	got, err := m.call(ctx, req)

	switch {
	case v.Expect.Error != nil:
		return checkError(err, v.Expect.Error.Code, v.Expect.Error.Field)
	case v.Expect.Response != nil:
		if err != nil {
			st := status.Convert(err)
			return fmt.Sprintf("expected a response, got %s: %s", codeName(st.Code()), st.Message())
		}
		want := m.newResp()
		if err := protojson.Unmarshal(v.Expect.Response, want); err != nil {
			return fmt.Sprintf("cannot parse expected response as %s: %v", want.ProtoReflect().Descriptor().FullName(), err)
		}
		if !proto.Equal(got, want) {
			return "response differs: " + firstDiff(want.ProtoReflect(), got.ProtoReflect(), "")
		}
		return ""
	default:
		return "vector expects neither a response nor an error"
	}
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
