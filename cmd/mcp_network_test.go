package cmd

import (
	"net/http"
	"sync/atomic"
	"testing"
)

// TestMCPNetworkLogAndRoutesAcrossCalls drives the resident server: its tab
// keeps the network log across calls until a clear, while a route lasts
// only for the call that set it (the next call reaches the server).
func TestMCPNetworkLogAndRoutesAcrossCalls(t *testing.T) {
	cs := mcpSession(t)
	var hits atomic.Int32
	tab := openCounter(t, cs, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		w.Write([]byte("real"))
	}))
	steps := func(tool string, list ...any) toolAnswer {
		t.Helper()
		a := call(t, cs, tool, map[string]any{"tab": tab, "capture": "none", "steps": list})
		if a.isError || a.field("status") != "ok" {
			t.Fatalf("steps: %s", a.text)
		}
		return a
	}
	fetch := func(q string) map[string]any {
		return map[string]any{"pageFunction": "fetch('/x/api?" + q + "').then(r => r.text())"}
	}
	steps("evaluate", fetch("a"))
	a := steps("network_storage", map[string]any{"network": map[string]any{"url": "/x/api"}})
	if a.field("steps", "0", "output", "count") != 1.0 {
		t.Fatalf("the previous call's request should be listed: %s", a.text)
	}
	// A route and the page's fetch in one call: a recipe (network and
	// evaluation are separate tools).
	a = call(t, cs, "run_recipe", map[string]any{"tab": tab, "source": "route(url = \"/x/api\", fulfill = {\"body\": \"mocked\"})\nresult = page_function(\"fetch('/x/api?b').then(r => r.text())\")\n"})
	if got := a.field("result"); a.isError || got != "mocked" || hits.Load() != 1 {
		t.Fatalf("routed fetch: page got %v, server hits %d", got, hits.Load())
	}
	a = steps("evaluate", fetch("c"))
	if got := a.field("steps", "0", "output"); got != "real" || hits.Load() != 2 {
		t.Fatalf("the route outlived its call: page got %v, server hits %d", got, hits.Load())
	}
	a = steps("network_storage", map[string]any{"network": map[string]any{"url": "/x/api", "clear": true}})
	if a.field("steps", "0", "output", "count") != 3.0 {
		t.Fatalf("three requests since the server attached: %s", a.text)
	}
	a = steps("network_storage", map[string]any{"network": true})
	if a.field("steps", "0", "output", "count") != 0.0 {
		t.Fatalf("after clear: %s", a.text)
	}
}
