package mcpserver

import (
	"bytes"
	"context"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// serveHTTP serves the Streamable HTTP transport on host.HTTP: loopback
// without a token, any other address only with one (every request then
// carries "Authorization: Bearer <token>").
func (s *server) serveHTTP(ctx context.Context) error {
	addr := s.host.HTTP
	if err := checkHTTPAddr(addr, s.host.Token); err != nil {
		return err
	}
	// A session ends when its client deletes it or stays silent for
	// sessionIdle: the tabs it opened (and did not keep) close then.
	srv := s.newServer(func(session string) { s.tabs.closeSession(context.WithoutCancel(ctx), s, session) })
	h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{
		DisableLocalhostProtection: !isLoopbackAddr(addr), SessionTimeout: sessionIdle})
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return fmt.Errorf("mcp: listen on %s: %w", addr, err)
	}
	fmt.Fprintf(s.host.Stderr(), "cdp-skill mcp: serving Streamable HTTP on http://%s/mcp\n", ln.Addr())
	mux := http.NewServeMux()
	mux.Handle("/mcp", bearer(s.host.Token, s.ordered(h)))
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
		defer cancel()
		hs.Shutdown(sctx)
	}()
	err = hs.Serve(ln)
	for ss := range srv.Sessions() {
		s.tabs.closeSession(context.WithoutCancel(ctx), s, ss.ID())
	}
	if errors.Is(err, http.ErrServerClosed) {
		return nil
	}
	return err
}

// sessionIdle is how long an HTTP session may send nothing before it
// ends (a client that went away without deleting its session).
const sessionIdle = 30 * time.Minute

// checkHTTPAddr refuses a non-loopback address without a token.
func checkHTTPAddr(addr, token string) error {
	if _, _, err := net.SplitHostPort(addr); err != nil {
		return fmt.Errorf("mcp --http %q: want host:port, e.g. 127.0.0.1:8931: %v", addr, err)
	}
	if !isLoopbackAddr(addr) && token == "" {
		return fmt.Errorf("mcp --http %s listens beyond this machine: set CDP_SKILL_MCP_TOKEN to a secret that every request must send as \"Authorization: Bearer <token>\", or listen on 127.0.0.1", addr)
	}
	return nil
}

func isLoopbackAddr(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// bearer requires the token, when there is one.
func bearer(token string, next http.Handler) http.Handler {
	if token == "" {
		return next
	}
	want := []byte("Bearer " + token)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if subtle.ConstantTimeCompare([]byte(r.Header.Get("Authorization")), want) != 1 {
			w.Header().Set("WWW-Authenticate", `Bearer realm="cdp-skill"`)
			http.Error(w, "unauthorized: send Authorization: Bearer <CDP_SKILL_MCP_TOKEN>", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// ordered stamps each POSTed tools/call with its arrival ticket (see
// orderedConn), retired when its HTTP exchange ends.
func (s *server) ordered(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost || r.Body == nil {
			next.ServeHTTP(w, r)
			return
		}
		body, err := io.ReadAll(io.LimitReader(r.Body, mcp.DefaultMaxRequestBodyBytes+1))
		r.Body.Close()
		if err != nil {
			http.Error(w, "read the request: "+err.Error(), http.StatusBadRequest)
			return
		}
		var msg map[string]json.RawMessage
		session := r.Header.Get("Mcp-Session-Id")
		if json.Unmarshal(body, &msg) == nil && strings.Contains(string(msg["method"]), "notifications/cancelled") {
			var p struct {
				RequestID json.RawMessage `json:"requestId"`
			}
			if json.Unmarshal(msg["params"], &p) == nil && len(p.RequestID) > 0 {
				s.cancels.cancel(httpCallKey(session, p.RequestID))
			}
		}
		if json.Unmarshal(body, &msg) == nil && strings.Contains(string(msg["method"]), "tools/call") && len(msg["id"]) > 0 {
			key := httpCallKey(session, msg["id"])
			f := &cancelFilter{ResponseWriter: w, c: &s.cancels, key: key, id: msg["id"]}
			w = f
			defer s.cancels.forget(key)
			defer f.end()
			var params map[string]json.RawMessage
			if json.Unmarshal(msg["params"], &params) == nil && params != nil {
				seq := s.seq.arrive(tabKey(params["arguments"]))
				defer s.seq.done(seq)
				var meta map[string]json.RawMessage
				if json.Unmarshal(params["_meta"], &meta) != nil || meta == nil {
					meta = map[string]json.RawMessage{}
				}
				meta[metaSeq], _ = json.Marshal(seq)
				params["_meta"], _ = json.Marshal(meta)
				msg["params"], _ = json.Marshal(params)
				body, _ = json.Marshal(msg)
			}
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		r.ContentLength = int64(len(body))
		next.ServeHTTP(w, r)
	})
}
