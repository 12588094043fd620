//go:build unix

package cmd

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
	"github.com/cdp-skill/cdp-skill/browser/state"
	"github.com/cdp-skill/cdp-skill/internal/pooltest"
)

// The pool tests run agents (each its own state dir, as separate agents
// are) against a real browserless started from npm (internal/pooltest).

// poolAgent is one agent on a pool: its environment and everything its
// commands printed, to check that the token never shows.
type poolAgent struct {
	t        *testing.T
	env      []string
	dir      string
	mu       sync.Mutex
	printed  bytes.Buffer
	endpoint string
}

// newPoolAgent gives an agent its own state dir, with the endpoint (and
// its token) in the environment, as a user sets it.
func newPoolAgent(t *testing.T, endpoint string) *poolAgent {
	t.Helper()
	dir := looseTempDir(t, "cdp-pool-agent-")
	env := append(os.Environ(), EnvEndpoint+"="+endpoint, EnvHeadless+"=1", state.EnvDir+"="+dir, EnvResidentIdle+"=2m")
	a := &poolAgent{t: t, env: env, dir: dir, endpoint: endpoint}
	t.Cleanup(func() { a.run("chrome", "stop") })
	return a
}

// run runs one command of the agent.
func (a *poolAgent) run(args ...string) result {
	a.t.Helper()
	r := runEnv(a.t, a.env, a.t.TempDir(), args...)
	a.mu.Lock()
	a.printed.Write(r.stdout)
	a.printed.Write(r.stderr)
	a.mu.Unlock()
	return r
}

// ok runs a command and fails the test unless it succeeded.
func (a *poolAgent) ok(input string) result {
	a.t.Helper()
	r := a.run(input)
	if r.code != 0 || r.field("status") != "ok" {
		a.t.Fatalf("%s\n→ exit %d: %s %s", input, r.code, r.stdout, r.stderr)
	}
	return r
}

// noToken checks that the token appears in nothing the agent printed,
// no file of its state dir, and no process's command line.
func (a *poolAgent) noToken(token string) {
	a.t.Helper()
	a.mu.Lock()
	printed := a.printed.String()
	a.mu.Unlock()
	if strings.Contains(printed, token) {
		a.t.Errorf("the token was printed: %s", printed)
	}
	filepath.WalkDir(a.dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !d.Type().IsRegular() {
			return nil
		}
		if data, err := os.ReadFile(path); err == nil && bytes.Contains(data, []byte(token)) {
			a.t.Errorf("state file %s holds the token: %.300s", path, data)
		}
		if strings.Contains(path, token) {
			a.t.Errorf("a state file's name holds the token: %s", path)
		}
		return nil
	})
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		if data, err := os.ReadFile(p); err == nil && bytes.Contains(data, []byte(token)) {
			a.t.Errorf("a process has the token on its command line (%s): %q", p, bytes.ReplaceAll(data, []byte{0}, []byte{' '}))
		}
	}
}

// counterSite serves a page whose button counts its clicks.
func counterSite(t *testing.T) string {
	return browsertest.Serve(t, fstest.MapFS{"counter.html": {Data: []byte(residentCounterPage)}}) + "counter.html"
}

var poolRef = regexp.MustCompile(`button "Add" \[ref=(s[0-9]+e[0-9]+)\]`)

// TestPoolSessionOutlivesCommands: a 20-command agent session on a pool
// keeps its tab, alias and refs from the first command to the last (each
// click lands once, by the ref of the first snapshot), the token shows
// nowhere, and nothing starts for the local default port.
func TestPoolSessionOutlivesCommands(t *testing.T) {
	pool := pooltest.Start(t, pooltest.Options{})
	a := newPoolAgent(t, pool.URL())
	page := counterSite(t)
	r := a.ok(`{"steps":[{"openTab":"` + page + `"},{"snapshot":true}]}`)
	tab, _ := r.field("tab").(string)
	yaml, _ := r.field("steps", "1", "output", "yaml").(string)
	m := poolRef.FindStringSubmatch(yaml)
	if tab == "" || m == nil {
		t.Fatalf("no tab or no ref for Add: %s", r.stdout)
	}
	ref := m[1]
	for i := 1; i <= 17; i++ {
		a.ok(`{"tab":"` + tab + `","steps":[{"click":"` + ref + `"}]}`)
	}
	r = a.ok(`{"tab":"` + tab + `","steps":[{"pageFunction":"String(window.clicks)"}]}`)
	if got := r.field("steps", "0", "output"); got != "17" {
		t.Fatalf("17 clicks across commands ran the handler %v times: %s", got, r.stdout)
	}
	r = a.ok(`{"steps":[{"listTabs":true}]}`)
	if !strings.Contains(string(r.stdout), `"alias":"`+tab+`"`) && !strings.Contains(string(r.stdout), `"tab":"`+tab+`"`) {
		t.Fatalf("listTabs does not show %s: %s", tab, r.stdout)
	}
	st := a.run("chrome", "status")
	if st.field("session") == nil || !strings.HasPrefix(st.field("session").(string), "open") {
		t.Fatalf("chrome status does not report the open session: %s", st.stdout)
	}
	a.noToken(pool.Token)
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		data, _ := os.ReadFile(p)
		// (Other tests' keepers serve the test Chrome's port.)
		if bytes.Contains(data, []byte(binary(t))) && bytes.Contains(data, []byte("--port\x009222")) {
			t.Errorf("a process started for port 9222 under an agent that only used a pool: %q", bytes.ReplaceAll(data, []byte{0}, []byte{' '}))
		}
	}
	if _, err := os.Stat(filepath.Join(a.dir, "chrome-9222")); err == nil {
		t.Errorf("a local Chrome was started for an agent that only used a pool")
	}
	// Without the resident process the answer says the session ended.
	off := runEnv(t, append(a.env[:len(a.env):len(a.env)], EnvResident+"=0"), t.TempDir(), `{"steps":[{"listTabs":true}]}`)
	if !strings.Contains(string(off.stdout), "ends its session") || strings.Contains(string(off.stdout), pool.Token) {
		t.Fatalf("a command on a pool without the resident process: %s", off.stdout)
	}
	stop := a.run("chrome", "stop")
	if n, _ := stop.field("sessionsEnded").(float64); n != 1 {
		t.Fatalf("chrome stop did not end the session: %s", stop.stdout)
	}
	if !pool.Answers() {
		t.Fatalf("chrome stop stopped the pool")
	}
}

// TestPoolRestartAndExpiry: after the pool restarts, or the pool ends a
// session at its timeout, a command on the old tab is a CONNECTION error
// that says the session ended and to start again; the next openTab works
// on a new session.
func TestPoolRestartAndExpiry(t *testing.T) {
	pool := pooltest.Start(t, pooltest.Options{})
	page := counterSite(t)
	check := func(a *poolAgent, tab, why string) {
		t.Helper()
		r := a.run(`{"tab":"` + tab + `","steps":[{"click":"#add"}]}`)
		msg, _ := r.field("error", "message").(string)
		if r.code == 0 || r.field("error", "type") != "CONNECTION" || !strings.Contains(msg, "session") || !strings.Contains(msg, "openTab") {
			t.Fatalf("%s: a command on the lost tab answered: %s", why, r.stdout)
		}
		// Starting again (on a session without the short timeout, which
		// a loaded machine can spend opening the tab).
		r = a.run("--endpoint", pool.URL(), `{"steps":[{"openTab":"`+page+`"},{"click":"#add"},{"pageFunction":"String(window.clicks)"}]}`)
		if got := r.field("steps", "2", "output"); got != "1" {
			t.Fatalf("%s: a new tab on a new session: %s", why, r.stdout)
		}
		a.noToken(pool.Token)
	}

	a := newPoolAgent(t, pool.URL())
	tab, _ := a.ok(`{"steps":[{"openTab":"` + page + `"}]}`).field("tab").(string)
	pool.Restart()
	check(a, tab, "after a restart")

	// A session that lives 10 s (browserless's per-connection timeout).
	b := newPoolAgent(t, pool.URL()+"&timeout=10000")
	tab, _ = b.ok(`{"steps":[{"openTab":"` + page + `"}]}`).field("tab").(string)
	deadline := time.Now().Add(30 * time.Second)
	for {
		st := b.run("chrome", "status")
		if s, _ := st.field("session").(string); strings.HasPrefix(s, "none") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the session did not end at its timeout: %s", st.stdout)
		}
		time.Sleep(200 * time.Millisecond)
	}
	check(b, tab, "after the session expired")
}

// TestPoolFull: a pool whose sessions are all taken and whose queue is
// full answers 429; the agent gets a CONNECTION error that says to retry,
// not the raw handshake text, and no token.
func TestPoolFull(t *testing.T) {
	pool := pooltest.Start(t, pooltest.Options{Concurrent: 1, NoQueue: true})
	page := counterSite(t)
	a := newPoolAgent(t, pool.URL())
	a.ok(`{"steps":[{"openTab":"` + page + `"}]}`)
	b := newPoolAgent(t, pool.URL())
	r := b.run(`{"steps":[{"openTab":"` + page + `"}]}`)
	msg, _ := r.field("error", "message").(string)
	if r.code != 1 || r.field("error", "type") != "CONNECTION" || !strings.Contains(msg, "full") || !strings.Contains(msg, "retry") || strings.Contains(msg, "unexpected status") {
		t.Fatalf("a full pool answered: %s %s", r.stdout, r.stderr)
	}
	b.noToken(pool.Token)
	// When the first agent ends its session, the second gets one once
	// the pool has let the session go (retrying, as the answer says).
	a.run("chrome", "stop")
	deadline := time.Now().Add(60 * time.Second)
	for {
		r = b.run(`{"steps":[{"openTab":"` + page + `"}]}`)
		if r.field("status") == "ok" {
			break
		}
		if msg, _ := r.field("error", "message").(string); !strings.Contains(msg, "full") || time.Now().After(deadline) {
			t.Fatalf("after the first session ended: %s", r.stdout)
		}
		time.Sleep(500 * time.Millisecond)
	}
}
