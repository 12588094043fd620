// Package benchcli holds what the benchmarks under bench/ share: building
// and running the cdp-skill binary against one Chrome, and a loopback
// server for their pages, set up together by Start.
package benchcli

import (
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
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

// Setup is what one benchmark run stands on: a temporary directory, the
// cdp-skill binary, its pages' server and a free port for Chrome.
type Setup struct {
	// Dir is the run's temporary directory, removed by Close.
	Dir string
	// Bin is the cdp-skill binary: the one given, or one built into Dir.
	Bin string
	// URL is what serve returned: the page's or the server's base URL.
	URL string
	// Port is a free port for the benchmark's Chrome.
	Port int
	stop func()
}

// Start makes the temporary directory (named from prefix), builds
// cdp-skill into it when bin is empty, starts serve and takes a free port.
func Start(prefix, bin string, serve func() (string, func(), error)) (*Setup, error) {
	dir, err := os.MkdirTemp("", prefix)
	if err != nil {
		return nil, err
	}
	s := &Setup{Dir: dir, Bin: bin, stop: func() {}}
	if err := s.start(serve); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

func (s *Setup) start(serve func() (string, func(), error)) error {
	var err error
	if s.Bin == "" {
		if s.Bin, err = Build(s.Dir); err != nil {
			return err
		}
	}
	url, stop, err := serve()
	if err != nil {
		return err
	}
	s.URL, s.stop = url, stop
	s.Port, err = browsertest.FreePort()
	return err
}

// Close stops the server and removes the temporary directory.
func (s *Setup) Close() {
	s.stop()
	os.RemoveAll(s.Dir)
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

// counterPage is the page the step and pool benchmarks click: a button
// that counts its clicks into #n.
const counterPage = `<!doctype html><html><head><title>Bench</title></head><body><main><h1>Bench</h1>
<button id="a" onclick="document.getElementById('n').textContent = ++window.c">Add</button>
<p>Count: <span id="n">0</span></p></main><script>window.c = 0</script></body></html>`

// ServeCounter serves the counter page on a loopback port and returns its
// URL and the function that stops the server.
func ServeCounter() (string, func(), error) {
	base, stop, err := Serve(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(counterPage))
	}))
	return base + "index.html", stop, err
}
