//go:build unix

package cmd

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
	"github.com/cdp-skill/cdp-skill/browser/state"
)

// TestWarmPathFollowsOpenTabPort: a tab opened with openTab's port (no
// CDP_SKILL_PORT, no --port) gets the resident process of that port, so
// later commands on it are served warm, each click once; and nothing
// starts for the default port 9222, which the agent never named.
func TestWarmPathFollowsOpenTabPort(t *testing.T) {
	c := browsertest.Require(t)
	dir := looseTempDir(t, "cdp-route-")
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, EnvPort+"=") && !strings.HasPrefix(kv, EnvEndpoint+"=") {
			env = append(env, kv)
		}
	}
	env = append(env, EnvHeadless+"=1", state.EnvDir+"="+dir, EnvResidentIdle+"=2m")
	port := strconv.Itoa(c.Port)
	page := browsertest.Serve(t, fstest.MapFS{"counter.html": {Data: []byte(residentCounterPage)}}) + "counter.html"
	r := runEnv(t, env, t.TempDir(), `{"steps":[{"openTab":{"url":"`+page+`","port":`+port+`}}]}`)
	tab, _ := r.field("tab").(string)
	if r.code != 0 || tab == "" {
		t.Fatalf("openTab with a port: %s", r.stdout)
	}
	portEnv := append(env, EnvPort+"="+port) // only to ask chrome status about that port
	t.Cleanup(func() {
		runEnv(t, portEnv, t.TempDir(), `{"steps":[{"closeTab":"`+tab+`"}]}`)
		stopResidents(t, portEnv)
	})
	first := residentOf(t, portEnv)
	for i := 1; i <= 3; i++ {
		if r := runEnv(t, env, t.TempDir(), `{"tab":"`+tab+`","steps":[{"click":"#add"}]}`); r.code != 0 {
			t.Fatalf("click %d: %s", i, r.stdout)
		}
	}
	after := residentOf(t, portEnv)
	if after.PID != first.PID || after.Commands < first.Commands+3 {
		t.Fatalf("the commands on the tab were not served by the resident process of port %s: before %+v, after %+v", port, first, after)
	}
	if got := clicksOf(t, portEnv, tab); got != "3" {
		t.Fatalf("three clicks ran the handler %s times", got)
	}
	for _, p := range processesOf(t) {
		if strings.Contains(p, "--port 9222") || strings.Contains(p, "--port="+"9222") {
			t.Errorf("a process started for port 9222, which the agent never named: %s", p)
		}
	}
	var st struct {
		Resident []residentStatus `json:"resident"`
	}
	json.Unmarshal(runEnv(t, portEnv, t.TempDir(), "chrome", "status", "--no-launch").stdout, &st)
	for _, rs := range st.Resident {
		if strings.HasSuffix(rs.Endpoint, ":9222") {
			t.Errorf("a resident process serves port 9222: %+v", rs)
		}
	}
}

// processesOf lists the command lines of the processes running the test
// binary's cdp-skill.
func processesOf(t *testing.T) []string {
	t.Helper()
	var list []string
	procs, _ := filepath.Glob("/proc/[0-9]*/cmdline")
	for _, p := range procs {
		data, err := os.ReadFile(p)
		if err != nil || !bytes.HasPrefix(data, []byte(binary(t))) {
			continue
		}
		list = append(list, string(bytes.ReplaceAll(bytes.TrimRight(data, "\x00"), []byte{0}, []byte{' '})))
	}
	return list
}

// stopResidents ends the resident processes of env's state dir and waits
// until they are gone.
func stopResidents(t *testing.T, env []string) {
	t.Helper()
	runEnv(t, env, t.TempDir(), "chrome", "status", "--no-launch") // clean stale files
	deadline := time.Now().Add(10 * time.Second)
	for residentOfNow(t, env).PID != 0 && time.Now().Before(deadline) {
		st := residentOfNow(t, env)
		if p, err := os.FindProcess(st.PID); err == nil {
			p.Signal(os.Interrupt)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
