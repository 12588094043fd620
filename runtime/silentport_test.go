package runtime

import (
	"bufio"
	"context"
	"crypto/sha1"
	"encoding/base64"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// Hostile ports (issue 31, Low): a port where something accepts the
// connection but never speaks Chrome's DevTools protocol. chromeStatus
// and listTabs answer a CONNECTION error within the command's timeout
// that says what is on the port and what to do.

// silentListener accepts TCP connections and never sends a byte. It
// returns the port.
func silentListener(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	conns := make(chan net.Conn, 64)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			select {
			case conns <- c:
			default:
				c.Close()
			}
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		close(conns)
		for c := range conns {
			c.Close()
		}
	})
	return ln.Addr().(*net.TCPAddr).Port
}

// silentHTTP is an HTTP server that reads requests and never replies.
func silentHTTP(t *testing.T) int {
	t.Helper()
	release := make(chan struct{})
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-release:
		case <-r.Context().Done():
		}
	})}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srv.Serve(ln)
	t.Cleanup(func() { close(release); srv.Close() })
	return ln.Addr().(*net.TCPAddr).Port
}

// silentWebSocket answers /json/version and /json/list like Chrome, with
// a WebSocket URL whose server completes the handshake and then never
// answers a CDP message.
func silentWebSocket(t *testing.T) int {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	release := make(chan struct{})
	mux := http.NewServeMux()
	mux.HandleFunc("/json/version", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprintf(w, `{"Browser":"Chrome/156","webSocketDebuggerUrl":"ws://127.0.0.1:%d/devtools/browser/x"}`, port)
	})
	mux.HandleFunc("/json/list", func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, `[]`)
	})
	mux.HandleFunc("/devtools/", func(w http.ResponseWriter, r *http.Request) {
		hj, ok := w.(http.Hijacker)
		if !ok {
			return
		}
		c, rw, err := hj.Hijack()
		if err != nil {
			return
		}
		defer c.Close()
		key := r.Header.Get("Sec-WebSocket-Key")
		fmt.Fprintf(rw, "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: %s\r\n\r\n", acceptKey(key))
		rw.Flush()
		go func() { bufio.NewReader(c).WriteTo(discard{}) }()
		<-release
	})
	srv := &http.Server{Handler: mux}
	go srv.Serve(ln)
	t.Cleanup(func() { close(release); srv.Close() })
	return port
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }

func TestSilentPortsAnswerConnectionErrorsInTime(t *testing.T) {
	for _, tc := range []struct {
		name, step string
		serve      func(*testing.T) int
		what       string
	}{
		{"tcp", "chromeStatus", silentListener, "did not answer GET /json/version"},
		{"tcp", "listTabs", silentListener, "did not answer GET /json/list"},
		{"http", "chromeStatus", silentHTTP, "did not answer GET /json/version"},
		{"http", "listTabs", silentHTTP, "did not answer GET /json/list"},
		{"websocket", "chromeStatus", silentWebSocket, "did not answer Browser.getVersion"},
	} {
		t.Run(tc.name+"/"+tc.step, func(t *testing.T) {
			port := tc.serve(t)
			for _, opts := range []string{"", `,"autoLaunch":false`} {
				if tc.step == "listTabs" && opts != "" {
					continue
				}
				ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
				defer cancel()
				start := time.Now()
				_, out := RunJSON(ctx, []byte(fmt.Sprintf(`{"timeout":3000,"steps":[{%q:{"port":%d%s}}]}`, tc.step, port, opts)), testOptions(t))
				// The command's timeout bounds it, plus a second.
				if took := time.Since(start); took > 4*time.Second {
					t.Errorf("%s%s answered after %s", tc.step, opts, took)
				}
				if out.OK() || out.Error == nil || out.Error.Type != "CONNECTION" {
					t.Fatalf("%s%s on a port that is not Chrome: %s", tc.step, opts, out.JSON())
				}
				// It says what is on the port and what to do.
				mustContain(t, out.Error.Message, fmt.Sprintf("127.0.0.1:%d is not Chrome's DevTools endpoint", port), tc.what, "End that program")
				if strings.Contains(out.Error.Message, "raise the step's timeout") {
					t.Errorf("the answer blames the timeout: %s", out.Error.Message)
				}
			}
		})
	}
}

// acceptKey is the Sec-WebSocket-Accept of a handshake key (RFC 6455).
func acceptKey(key string) string {
	h := sha1.Sum([]byte(key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"))
	return base64.StdEncoding.EncodeToString(h[:])
}

// TestPortOfAnotherServerIsAStatus: a port where a web server answers,
// not as Chrome, is a definite state (no Chrome there, none can be
// launched): chromeStatus answers running:false with an error saying
// what answered (spec §4), listTabs no tabs with a note, both at once.
func TestPortOfAnotherServerIsAStatus(t *testing.T) {
	busy := httptest.NewServer(http.NotFoundHandler())
	defer busy.Close()
	port := busy.Listener.Addr().(*net.TCPAddr).Port
	start := time.Now()
	out := runJSON(t, fmt.Sprintf(`{"timeout":20000,"steps":[{"chromeStatus":{"port":%d}},{"listTabs":{"port":%d}}]}`, port, port))
	mustOK(t, out)
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("answered after %s: it waited for a web server to become Chrome", took)
	}
	st := stepOutput(t, out, 0)
	if st["running"] != false {
		t.Errorf("chromeStatus: %s", jsonString(st))
	}
	e, _ := st["error"].(string)
	mustContain(t, e, "answered GET /json/version with HTTP 404", "End that program")
	tabs := stepOutput(t, out, 1)
	n, _ := tabs["note"].(string)
	mustContain(t, n, "answered GET /json/list with HTTP 404")
}
