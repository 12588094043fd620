// Package benchcli holds what the benchmarks under bench/ share: building
// and running the cdp-skill binary against one Chrome, and a loopback
// server for their pages (a free port comes from browsertest.FreePort).
package benchcli

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
)

// Build builds ./cmd/cdp-skill into dir (run from the repository root)
// as the Makefile does (static, CGO_ENABLED=0, stripped) and returns the
// binary's path.
func Build(dir string) (string, error) {
	bin := filepath.Join(dir, "cdp-skill")
	build := exec.Command("go", "build", "-ldflags=-s -w", "-o", bin, "./cmd/cdp-skill")
	build.Env = append(os.Environ(), "CGO_ENABLED=0")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		return "", fmt.Errorf("build cdp-skill (run from the repository root): %w", err)
	}
	return bin, nil
}

// Run runs bin with --port port and args in the environment env, and
// returns what it printed on standard output.
func Run(bin string, port int, env []string, args ...string) ([]byte, error) {
	cmd := exec.Command(bin, append([]string{"--port", strconv.Itoa(port)}, args...)...)
	cmd.Env = env
	return cmd.Output()
}

// Serve serves h on a loopback port and returns its base URL
// ("http://127.0.0.1:N/") and the function that stops it.
func Serve(h http.Handler) (string, func(), error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	srv := &http.Server{Handler: h}
	go srv.Serve(ln)
	return "http://" + ln.Addr().String() + "/", func() { srv.Close() }, nil
}
