package cmd

import (
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
)

// TestResidentNetworkAndRoutesPerCommand runs commands through the
// resident process, which keeps the tab's session: a route still lasts
// only its command, and the network step lists only the command's own
// requests, as it does without the resident process.
func TestResidentNetworkAndRoutesPerCommand(t *testing.T) {
	env := residentTestEnv(t)
	var hits atomic.Int32
	mux := http.NewServeMux()
	mux.HandleFunc("/{$}", func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte(`<title>Shop</title><h1>Shop</h1>`)) })
	mux.HandleFunc("/api", func(w http.ResponseWriter, _ *http.Request) { hits.Add(1); w.Write([]byte("real")) })
	base := browsertest.ServeHandler(t, mux)
	r := runEnv(t, env, t.TempDir(), `{"steps":[{"openTab":"`+base+`"}]}`)
	tab, _ := r.field("tab").(string)
	if r.code != 0 || tab == "" {
		t.Fatalf("openTab: %s", r.stdout)
	}
	defer runEnv(t, env, t.TempDir(), `{"steps":[{"closeTab":"`+tab+`"}]}`)
	before := residentOf(t, env)
	const fetch = `{"pageFunction":"fetch('/api').then(r => r.text())"}`
	r = runEnv(t, env, t.TempDir(), `{"tab":"`+tab+`","capture":"none","steps":[{"route":{"url":"/api","fulfill":{"body":"mocked"}}},`+fetch+`]}`)
	if r.code != 0 || r.field("steps", "1", "output") != "mocked" || hits.Load() != 0 {
		t.Fatalf("routed fetch (server hits %d): %s", hits.Load(), r.stdout)
	}
	r = runEnv(t, env, t.TempDir(), `{"tab":"`+tab+`","capture":"none","steps":[`+fetch+`,{"network":{"url":"/api"}}]}`)
	if r.code != 0 || r.field("steps", "0", "output") != "real" || hits.Load() != 1 {
		t.Fatalf("the route outlived its command (server hits %d): %s", hits.Load(), r.stdout)
	}
	if n := r.field("steps", "1", "output", "count"); n != 1.0 {
		t.Errorf("the network step should list this command's request only, got %v: %s", n, r.stdout)
	}
	if after := residentOf(t, env); after.PID != before.PID || after.Commands < before.Commands+2 {
		t.Fatalf("the commands did not go through the resident process: before %+v, after %+v", before, after)
	}
}
