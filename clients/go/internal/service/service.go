// Package service opens the GameService channel every program here uses: with
// the repo's gRPC service config (clients/service-config.json), which retries
// UNAVAILABLE on mazzo.v1.GameService calls. The Makefile copies that file next
// to this one before building, so the embedded copy is always the file itself.
package service

import (
	_ "embed"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/backoff"
	"google.golang.org/grpc/credentials/insecure"
)

// Config is clients/service-config.json, embedded at build time.
//
//go:embed service-config.json
var Config string

// Reconnect waits 100 ms after a failed connection attempt instead of gRPC's 1 s,
// which is longer than the retries' backoff: a channel that met a server as it
// died would otherwise fail every call until its next attempt.
var Reconnect = grpc.ConnectParams{
	Backoff:           backoff.Config{BaseDelay: 100 * time.Millisecond, Multiplier: 1.6, Jitter: 0.2, MaxDelay: 120 * time.Second},
	MinConnectTimeout: 20 * time.Second,
}

// Dial returns a plaintext channel to a GameService at target (HOST:PORT) that
// uses Config; it connects lazily, so a server still starting is retried.
func Dial(target string, opts ...grpc.DialOption) (*grpc.ClientConn, error) {
	base := []grpc.DialOption{
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultServiceConfig(Config),
		grpc.WithConnectParams(Reconnect),
	}
	return grpc.NewClient(target, append(base, opts...)...)
}
