// Package botserver runs a mazzo.v1.Bot gRPC server the way every starter bot
// here does: listen, print "LISTENING host:port", serve until SIGTERM/SIGINT,
// finish the calls in flight (at most 5 s), return.
package botserver

import (
	"fmt"
	"log"
	"net"
	"os"
	"os/signal"
	"strconv"
	"syscall"
	"time"

	"google.golang.org/grpc"

	mazzov1 "mazzo/clients/go/gen/mazzo/v1"
)

// Serve listens on host:port (port 0 picks a free one), serves bot and returns
// nil after a clean stop on SIGTERM or SIGINT.
func Serve(host string, port int, bot mazzov1.BotServer) error {
	lis, err := net.Listen("tcp", net.JoinHostPort(host, strconv.Itoa(port)))
	if err != nil {
		return fmt.Errorf("listen: %w", err)
	}
	srv := grpc.NewServer()
	mazzov1.RegisterBotServer(srv, bot)

	// Serve returns as soon as stopping starts, so Serve waits for stopped.
	stop := make(chan os.Signal, 1)
	stopped := make(chan struct{})
	signal.Notify(stop, syscall.SIGTERM, syscall.SIGINT)
	go func() {
		defer close(stopped)
		sig := <-stop
		log.Printf("%v: stopping", sig)
		done := make(chan struct{})
		go func() { srv.GracefulStop(); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			srv.Stop()
		}
	}()

	// os.Stdout is unbuffered: the line is out before Serve blocks.
	fmt.Printf("LISTENING %s\n", net.JoinHostPort(host, strconv.Itoa(lis.Addr().(*net.TCPAddr).Port)))
	if err := srv.Serve(lis); err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	<-stopped
	log.Printf("stopped")
	return nil
}
