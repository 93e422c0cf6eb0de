// Package dialin joins a referee's gateway (mazzo.v1.Tables/Join) the way every
// starter bot here does with --connect: the bot binds no port, opens one outbound
// stream, says hello and answers each Decision with the same decide function that
// serves mazzo.v1.Bot/Act. Its behaviour follows the Python starter's dial_in.
package dialin

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"strings"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials"
	"google.golang.org/grpc/credentials/insecure"
	"google.golang.org/grpc/status"

	mazzov1 "mazzo/clients/go/gen/mazzo/v1"
)

// ProtocolVersion is the version of mazzo.v1.Tables this bot speaks.
const ProtocolVersion = 1

// RetryFor bounds how long a lost connection is dialed again, counted from the
// drop (or from the start, before the first Welcome).
const RetryFor = 30 * time.Second

// Refused is a refusal that trying again cannot mend: a wrong token, a name
// without a seat, a protocol version or game the gateway does not serve.
type Refused struct{ Status *status.Status }

func (r *Refused) Error() string {
	return fmt.Sprintf("%s: %s", codeName(r.Status.Code()), r.Status.Message())
}

// final reports the status codes that retrying cannot fix (as the Python starter).
func final(c codes.Code) bool {
	return c == codes.Unauthenticated || c == codes.FailedPrecondition || c == codes.InvalidArgument
}

// Options of a dial-in: where, as whom, and how to check a TLS gateway.
type Options struct {
	// Target is HOST:PORT (cleartext), or grpcs://HOST:PORT for TLS.
	Target string
	// Token is what `mazzo token new NAME` printed.
	Token string
	// Name of the seats to take; empty: the token's own name.
	Name string
	// CA is a PEM file to check a grpcs:// gateway against (empty: system roots).
	CA string
}

// Join answers every decision with decide until the gateway ends the stream
// (nil), ctx is cancelled (nil), retrying a lost connection for RetryFor, or a
// final refusal (*Refused). decide gets a request with at least one legal move.
func Join(ctx context.Context, opts Options, decide func(*mazzov1.ActRequest) int) error {
	creds, target, err := credentialsFor(opts)
	if err != nil {
		return err
	}
	giveUp := time.Now().Add(RetryFor)
	delay := 100 * time.Millisecond
	for {
		conn, err := grpc.NewClient(target, grpc.WithTransportCredentials(creds))
		if err != nil {
			return fmt.Errorf("dial %s: %w", target, err)
		}
		joined, err := play(ctx, mazzov1.NewTablesClient(conn), opts, decide)
		conn.Close()
		if err == nil || ctx.Err() != nil {
			return nil // the gateway ended the stream, or we were told to stop
		}
		st, _ := status.FromError(err)
		if final(st.Code()) {
			return &Refused{Status: st}
		}
		if joined { // it was playing: a new drop, a whole new wait
			giveUp, delay = time.Now().Add(RetryFor), 100*time.Millisecond
		}
		if time.Now().After(giveUp) {
			return fmt.Errorf("cannot reach the gateway at %s: %w", target, err)
		}
		log.Printf("connection lost (%s); dialing again", codeName(st.Code()))
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(delay):
		}
		delay = min(delay*2, 2*time.Second)
	}
}

// play runs one stream: the Hello, then an answer per decision. It reports
// whether the gateway welcomed the bot, and nil when the gateway ended the
// stream cleanly.
func play(ctx context.Context, client mazzov1.TablesClient, opts Options, decide func(*mazzov1.ActRequest) int) (bool, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	stream, err := client.Join(ctx)
	if err != nil {
		return false, err
	}
	hello := &mazzov1.Hello{Token: opts.Token, Name: opts.Name, ProtocolVersion: ProtocolVersion}
	if err := stream.Send(&mazzov1.BotMessage{Kind: &mazzov1.BotMessage_Hello{Hello: hello}}); err != nil {
		return false, recvError(stream, err)
	}
	joined := false
	for {
		msg, err := stream.Recv()
		if err == io.EOF {
			return joined, nil
		}
		if err != nil {
			return joined, err
		}
		switch kind := msg.GetKind().(type) {
		case *mazzov1.TableMessage_Welcome:
			joined = true
			// os.Stdout is unbuffered: the line is out at once.
			fmt.Printf("JOINED %s\n", kind.Welcome.GetName())
		case *mazzov1.TableMessage_Decision:
			d := kind.Decision
			index := 0 // no legal move to choose from: the referee judges the answer
			if len(d.GetRequest().GetLegalMoves()) > 0 {
				index = decide(d.GetRequest())
			}
			answer := &mazzov1.Answer{
				Sequence: d.GetSequence(),
				Response: &mazzov1.ActResponse{Choice: &mazzov1.ActResponse_Index{Index: uint32(index)}},
				MatchId:  d.GetMatchId(),
			}
			if err := stream.Send(&mazzov1.BotMessage{Kind: &mazzov1.BotMessage_Answer{Answer: answer}}); err != nil {
				return joined, recvError(stream, err)
			}
		case *mazzov1.TableMessage_Refusal:
			log.Printf("answer %d refused: %s", kind.Refusal.GetSequence(), kind.Refusal.GetReason())
		case *mazzov1.TableMessage_MatchStarted:
			log.Printf("match started: %s", kind.MatchStarted.GetMatchId())
		case *mazzov1.TableMessage_MatchEnded:
			log.Printf("match ended: %s (record %s)", kind.MatchEnded.GetMatchId(), kind.MatchEnded.GetRecordId())
		}
	}
}

// recvError turns a failed Send into the stream's status: gRPC reports io.EOF
// from Send when the stream is over, and the reason comes from Recv.
func recvError(stream grpc.BidiStreamingClient[mazzov1.BotMessage, mazzov1.TableMessage], err error) error {
	if !errors.Is(err, io.EOF) {
		return err
	}
	for {
		if _, err := stream.Recv(); err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
	}
}

// credentialsFor parses the target's scheme: grpcs:// is TLS (against CA, or
// the system's roots), grpc:// or none is cleartext.
func credentialsFor(opts Options) (credentials.TransportCredentials, string, error) {
	if rest, ok := strings.CutPrefix(opts.Target, "grpcs://"); ok {
		config := &tls.Config{MinVersion: tls.VersionTLS12}
		if opts.CA != "" {
			pem, err := os.ReadFile(opts.CA)
			if err != nil {
				return nil, "", fmt.Errorf("--ca: %w", err)
			}
			config.RootCAs = x509.NewCertPool()
			if !config.RootCAs.AppendCertsFromPEM(pem) {
				return nil, "", fmt.Errorf("--ca %s: no PEM certificate in it", opts.CA)
			}
		}
		return credentials.NewTLS(config), rest, nil
	}
	if opts.CA != "" {
		return nil, "", errors.New("--ca needs a grpcs:// target")
	}
	return insecure.NewCredentials(), strings.TrimPrefix(opts.Target, "grpc://"), nil
}

// codeName is a status code's gRPC name (UNAVAILABLE, not Unavailable).
func codeName(c codes.Code) string {
	var b strings.Builder
	lower := false
	for _, r := range c.String() {
		upper := r >= 'A' && r <= 'Z'
		if upper && lower {
			b.WriteByte('_')
		}
		lower = !upper
		b.WriteRune(r)
	}
	return strings.ToUpper(b.String())
}
