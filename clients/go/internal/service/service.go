// Package service opens the GameService channel every program here uses: with
// the repo's gRPC service config (clients/service-config.json), which retries
// UNAVAILABLE on mazzo.v1.GameService calls. The Makefile copies that file next
// to this one before building, so the embedded copy is always the file itself.
package service

import (
	_ "embed"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

// Config is clients/service-config.json, embedded at build time.
//
//go:embed service-config.json
var Config string

// Dial returns a plaintext channel to a GameService at target (HOST:PORT) that
// uses Config; it connects lazily, so a server still starting is retried.
func Dial(target string, opts ...grpc.DialOption) (*grpc.ClientConn, error) {
	base := []grpc.DialOption{
		grpc.WithTransportCredentials(insecure.NewCredentials()),
		grpc.WithDefaultServiceConfig(Config),
	}
	return grpc.NewClient(target, append(base, opts...)...)
}
