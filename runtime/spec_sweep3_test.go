package runtime

import (
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
)

// TestSpecTimeoutsClampAndDurations: §18.3 — a timeout above 5 minutes is
// clamped, with a warning, wherever it is written (top level, on a step,
// inside the action, in Starlark); a timeout may be a duration string in
// JSON as in Starlark.
func TestSpecTimeoutsClampAndDurations(t *testing.T) {
	base := pagesURL(t)
	open := runJSON(t, `{"steps":[{"openTab":"`+base+`spec.html"}]}`)
	mustOK(t, open)
	closeTabAfter(t, open)
	tab := `"tab":"` + open.Tab + `",`

	out := runJSON(t, `{`+tab+`"timeout":600000,"steps":[{"pageFunction":"6*7"}]}`)
	mustOK(t, out)
	if !strings.Contains(strings.Join(out.Warnings, "\n"), "timeout 600000 ms is above the maximum of 300000 ms") {
		t.Errorf("a top-level timeout of 10 minutes was not said to be clamped: %s", out.JSON())
	}
	if v := stepOutput(t, out, 0); jsonString(v) == "" {
		t.Errorf("no output: %s", out.JSON())
	}

	out = runJSON(t, `{`+tab+`"steps":[{"pageFunction":"6*7","timeout":"5s"},{"pageFunction":"1","timeout":900000},{"click":{"selector":"#go","timeout":"10m"}, "optional": true}]}`)
	mustOK(t, out)
	if w := strings.Join(out.Steps[0].Warning, " "); w != "" {
		t.Errorf("a 5s timeout warned: %s", w)
	}
	if w := strings.Join(out.Steps[1].Warning, " "); !strings.Contains(w, "timeout 900000 ms is above the maximum") {
		t.Errorf("a step timeout of 15 minutes was not said to be clamped: %s", out.JSON())
	}
	if w := strings.Join(out.Steps[2].Warning, " "); !strings.Contains(w, "timeout 600000 ms is above the maximum") {
		t.Errorf("click's own timeout of 10m was not said to be clamped: %s", out.JSON())
	}

	rec := runRecipe(t, Program{Tab: open.Tab, Source: []byte(`configure(timeout = "10m")
v = page_function("6*7", timeout = 600000)
result = v`)})
	mustOK(t, rec)
	all := strings.Join(rec.Warnings, " ")
	for _, s := range rec.Steps {
		all += " " + strings.Join(s.Warning, " ")
	}
	if !strings.Contains(all, "configure: timeout 10m is above the maximum") || !strings.Contains(all, "timeout 600000 ms is above the maximum") {
		t.Errorf("a recipe's long timeouts were not said to be clamped: %s", rec.JSON())
	}
}

// TestSpecFailedStepEchoesItsParams: §16.4 — a failed step's params echo
// what the agent wrote: {"click":{}} is {}, not true.
func TestSpecFailedStepEchoesItsParams(t *testing.T) {
	base := pagesURL(t)
	open := runJSON(t, `{"steps":[{"openTab":"`+base+`spec.html"}]}`)
	mustOK(t, open)
	closeTabAfter(t, open)
	out := runJSON(t, `{"tab":"`+open.Tab+`","steps":[{"click":{}}]}`)
	if out.OK() || len(out.Steps) == 0 {
		t.Fatalf("click {} did not fail: %s", out.JSON())
	}
	if got := jsonString(out.Steps[0].Params); got != "{}" {
		t.Errorf("params = %s, want {}: %s", got, out.JSON())
	}
	out = runJSON(t, `{"tab":"`+open.Tab+`","steps":[{"reload":true}]}`)
	mustOK(t, out)
}

// TestSpecRecordsRefuseUnknownAttributes: every step's record refuses a
// name its output cannot have (s.snapshot_id is a typo: the field is
// snapshotId), naming the real ones, and reads a field the output left out
// as None — snapshot, snapshotSearch, inspect and poll as click already did.
func TestSpecRecordsRefuseUnknownAttributes(t *testing.T) {
	base := pagesURL(t)
	open := runJSON(t, `{"steps":[{"openTab":"`+base+`spec.html"}]}`)
	mustOK(t, open)
	closeTabAfter(t, open)
	for _, tc := range []struct{ src, err string }{
		{"s = snapshot()\nx = s.snapshot_id", `record has no attribute "snapshot_id"`},
		{"s = snapshot()\nx = s.nonsense_field", `record has no attribute "nonsense_field"`},
		{"s = snapshot_search(text = \"Search\")\nx = s.match_count", `record has no attribute "match_count"`},
		{"s = inspect()\nx = s.titel", `record has no attribute "titel"`},
		{"s = poll(\"() => true\")\nx = s.resolve", `record has no attribute "resolve"`},
	} {
		out := runRecipe(t, Program{Tab: open.Tab, Source: []byte(tc.src)})
		if out.OK() || len(out.Errors) == 0 || !strings.Contains(out.Errors[0].Error, tc.err) {
			t.Errorf("%q: want an error %q, got %s", tc.src, tc.err, out.JSON())
		}
	}
	out := runRecipe(t, Program{Tab: open.Tab, Source: []byte(`s = snapshot()
again = snapshot(since = s.snapshotId)
p = poll("() => 1")
result = [s.truncated, again.unchanged, s.snapshotId == again.snapshotId, p.lastValue, p.value]`)})
	mustOK(t, out)
	if got := jsonString(out.Result); got != `[null,true,true,null,1]` {
		t.Errorf("fields the output left out read %s, want [null,true,true,null,1]: %s", got, out.JSON())
	}
}

// TestSpecPollSerialize: §12.2 — poll takes serialize: true as pageFunction
// does, giving the spec's {type, value} around its value, resolved or
// not, in JSON and in recipes.
func TestSpecPollSerialize(t *testing.T) {
	base := pagesURL(t)
	out := runJSON(t, `{"steps":[
		{"openTab": "`+base+`spec.html"},
		{"poll": {"fn": "() => document.title", "serialize": true}},
		{"poll": {"fn": "() => 0", "serialize": true}, "timeout": 300},
		{"poll": "() => ({n: 2})"}
	]}`)
	mustOK(t, out)
	closeTabAfter(t, out)
	for _, w := range []struct {
		step int
		has  string
	}{
		{1, `"resolved":true,"value":{"type":"string","value":"Spec conformance"}}`},
		{2, `"lastValue":{"type":"number","value":0}`},
		{2, `"resolved":false`},
		{3, `"resolved":true,"value":{"n":2}}`},
	} {
		if got := jsonString(out.Steps[w.step].Output); !strings.Contains(got, w.has) {
			t.Errorf("step %d: %s does not contain %s", w.step+1, got, w.has)
		}
	}
	rec := runRecipe(t, Program{Tab: out.Tab, Source: []byte(`r = poll("() => 41 + 1", serialize = True)
result = r.value`)})
	mustOK(t, rec)
	if got := jsonString(rec.Result); got != `{"type":"number","value":42}` {
		t.Errorf("a recipe's poll with serialize = True gave %s", got)
	}
	bad := runRecipe(t, Program{Tab: out.Tab, Source: []byte(`poll(lambda: True, serialize = True)`)})
	if bad.OK() || len(bad.Errors) == 0 || !strings.Contains(bad.Errors[0].Error, "serialize applies to a JavaScript predicate") {
		t.Errorf("serialize with a Starlark predicate: %s", bad.JSON())
	}
}

// TestSpecExtractHeadersFromTheFirstRow: §11.6 — a table without <thead>
// takes its headers from the first row when that row is header cells, bold
// labels, or plain text above columns of numbers, prices or dates; a table
// whose first row is data keeps it as data.
func TestSpecExtractHeadersFromTheFirstRow(t *testing.T) {
	base := pagesURL(t)
	out := runJSON(t, `{"steps":[{"openTab":"`+base+`extract-nohead.html"},{"extract":"#th-first"},{"extract":"#td-first"},{"extract":"#td-plain"},{"extract":"#no-header"}]}`)
	mustOK(t, out)
	closeTabAfter(t, out)
	for i, want := range []string{
		`"headers":["Item","Price"],"rows":[["Lamp","$12.00"],["Clip","$3.50"]],"rowCount":2`,
		`"headers":["Item","Qty"],"rows":[["Lamp","2"],["Clip","5"]],"rowCount":2`,
		`"headers":["Month","Visits","Change"],"rows":[["May","1,204","+4%"],["June","1,530","+27%"]],"rowCount":2`,
		`"headers":[],"rows":[["Lamp","2"],["Clip","5"]],"rowCount":2`,
	} {
		if got := jsonString(out.Steps[i+1].Output); !strings.Contains(got, want) {
			t.Errorf("extract %d: %s, want %s", i+1, got, want)
		}
	}
}

// TestSpecNavigationAborted: §16.2 — a navigation Chrome aborts is a
// NavigationAbortedError that says what it can tell: a scheme Chrome does
// not show in a tab (ftp:) is named; a 204 says the server answered with
// no page and where the tab is.
func TestSpecNavigationAborted(t *testing.T) {
	base := browsertest.ServeHandler(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/nothing" {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(`<!doctype html><title>Start</title><main><h1>Start</h1></main>`))
	}))
	open := runJSON(t, `{"steps":[{"openTab":"`+base+`start"}]}`)
	mustOK(t, open)
	closeTabAfter(t, open)
	for _, tc := range []struct{ url, want string }{
		{"ftp://127.0.0.1/file.txt", "Chrome does not show ftp: URLs in a tab"},
		{base + "nothing", "the server answered with no page to show (such as 204 No Content)"},
	} {
		out := runJSON(t, `{"tab":"`+open.Tab+`","steps":[{"goto":"`+tc.url+`"}]}`)
		if out.OK() || len(out.Errors) == 0 {
			t.Fatalf("goto %s: %s", tc.url, out.JSON())
		}
		e := out.Errors[0]
		if e.ErrorType != "NavigationAbortedError" || !strings.Contains(e.Error, tc.want) {
			t.Errorf("goto %s: %s %q, want NavigationAbortedError %q", tc.url, e.ErrorType, e.Error, tc.want)
		}
		if !strings.HasSuffix(out.Context.URL, "/start") {
			t.Errorf("goto %s moved the tab to %s", tc.url, out.Context.URL)
		}
	}
}

// TestSpecChromeStatusAndConnectTabFailures: §4 — chromeStatus on a port
// where no Chrome can be reached or launched answers {running: false,
// error}; §5 — connectTab to a URL no tab has is a CONNECTION error.
func TestSpecChromeStatusAndConnectTabFailures(t *testing.T) {
	// A plain web server holds the port: no Chrome answers there, and
	// none can be launched on it.
	busy := httptest.NewServer(http.NotFoundHandler())
	defer busy.Close()
	port := busy.Listener.Addr().(*net.TCPAddr).Port
	out := runJSON(t, fmt.Sprintf(`{"steps":[{"chromeStatus":{"port":%d}}]}`, port))
	mustOK(t, out)
	st := stepOutput(t, out, 0)
	if st["running"] != false || st["error"] == nil || st["error"] == "" {
		t.Errorf("chromeStatus on a port no Chrome can use: %s", jsonString(st))
	}

	out = runJSON(t, `{"steps":[{"connectTab":{"url":"no-such-tab-[0-9]{9}"}}]}`)
	if out.OK() || len(out.Errors) == 0 {
		t.Fatalf("connectTab to no tab: %s", out.JSON())
	}
	if e := out.Errors[0]; e.Type != TypeConnection || !strings.Contains(e.Error, "no open tab's URL matches") || !strings.Contains(e.Error, "listTabs") {
		t.Errorf("connectTab to no tab: %s", jsonString(e))
	}
}
