package runtime

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cdp-skill/cdp-skill/browser/chrome"
)

// Tests of the spec's wire format (reference/cdp-skill-spec.md), each
// through the JSON interface on a real page.

// TestSpecTypeTakesSelectorTextDelay: §9.3 — type's options are selector,
// text (what to type) and delay; value is an alias and the string form
// types into the focused field.
func TestSpecTypeTakesSelectorTextDelay(t *testing.T) {
	base := pagesURL(t)
	out := runJSON(t, `{"steps":[
		{"openTab": "`+base+`spec.html"},
		{"type": {"selector": "#q", "text": "ab", "delay": 30}},
		{"type": {"text": "c"}},
		{"type": "d"},
		{"type": {"label": "City", "value": "Oslo"}},
		{"pageFunction": "[q.value, city.value, keys.q, keys.city, document.activeElement.id]"}
	]}`)
	mustOK(t, out)
	closeTabAfter(t, out)
	if got := jsonString(out.Steps[5].Output); got != `["abcd","Oslo",4,4,"city"]` {
		t.Fatalf("page state after typing = %s", got)
	}
	if got := stepOutput(t, out, 1)["typed"]; got != 2.0 {
		t.Errorf("typed = %v, want 2", got)
	}

	for _, tt := range []struct{ step, want string }{
		{`{"type": {"selector": "#q", "text": "a", "value": "b"}}`, "two texts"},
		{`{"type": {"selector": "#q"}}`, "type needs text"},
	} {
		bad := runJSON(t, `{"tab":"`+out.Tab+`","steps":[`+tt.step+`]}`)
		if bad.OK() || !strings.Contains(bad.Steps[0].Error, tt.want) {
			t.Errorf("%s: %s", tt.step, bad.JSON())
		}
	}
	again := runJSON(t, `{"tab":"`+out.Tab+`","steps":[{"pageFunction":"q.value + '|' + keys.q"}]}`)
	if got := jsonString(again.Steps[0].Output); got != `"abcd|4"` {
		t.Errorf("a refused type step typed anyway: %s", got)
	}
}

// TestSpecSnapshotSearchAnchoredPattern: §11.2 — a pattern is a
// case-insensitive regular expression on the name and value; anchors work
// and the searched text has no padding.
func TestSpecSnapshotSearchAnchoredPattern(t *testing.T) {
	base := pagesURL(t)
	out := runJSON(t, `{"steps":[
		{"openTab": "`+base+`spec.html"},
		{"snapshotSearch": {"pattern": "^Press Me$"}},
		{"snapshotSearch": {"pattern": "^press me", "role": "button"}},
		{"snapshotSearch": {"pattern": "Me\\s$"}},
		{"snapshotSearch": {"pattern": "^Search$", "role": "textbox"}}
	]}`)
	mustOK(t, out)
	closeTabAfter(t, out)
	for i, want := range []float64{1, 2, 0, 1} {
		if got := stepOutput(t, out, i+1)["matchCount"]; got != want {
			t.Errorf("step %d matchCount = %v, want %v: %s", i+2, got, want, jsonString(out.Steps[i+1].Output))
		}
	}
	m := stepOutput(t, out, 1)["matches"].([]any)[0].(map[string]any)
	if m["name"] != "Press Me" || m["ref"] == nil {
		t.Fatalf("anchored match = %v", m)
	}
	// The ref it returned acts on that very button, once.
	click := runJSON(t, `{"tab":"`+out.Tab+`","steps":[{"click":"`+m["ref"].(string)+`"},{"pageFunction":"window.pressed"}]}`)
	mustOK(t, click)
	if got := jsonString(click.Steps[1].Output); got != "1" {
		t.Errorf("pressed = %s after clicking the searched ref", got)
	}
}

// TestSpecSnapshotSinceSeesScroll: §7.5 — the change hash covers the scroll
// position, so a 300 px scroll is a change; an unchanged page is
// unchanged.
func TestSpecSnapshotSinceSeesScroll(t *testing.T) {
	base := pagesURL(t)
	out := runJSON(t, `{"steps":[
		{"openTab": "`+base+`spec.html"},
		{"snapshot": true}
	]}`)
	mustOK(t, out)
	closeTabAfter(t, out)
	first := stepOutput(t, out, 1)["snapshotId"].(string)
	same := runJSON(t, `{"tab":"`+out.Tab+`","steps":[{"snapshot": {"since": "`+first+`"}}]}`)
	if got := stepOutput(t, same, 0); got["unchanged"] != true || got["snapshotId"] != first {
		t.Fatalf("same page since %s: %v", first, got)
	}
	scrolled := runJSON(t, `{"tab":"`+out.Tab+`","steps":[
		{"scroll": {"deltaY": 300}},
		{"pageFunction": "Math.round(scrollY)"},
		{"snapshot": {"since": "`+first+`"}}
	]}`)
	mustOK(t, scrolled)
	if got := jsonString(scrolled.Steps[1].Output); got != "300" {
		t.Fatalf("scrollY = %s", got)
	}
	snap := stepOutput(t, scrolled, 2)
	if snap["unchanged"] == true || snap["yaml"] == nil || snap["snapshotId"] == first {
		t.Fatalf("after a 300 px scroll since %s: %v", first, snap)
	}
	again := runJSON(t, `{"tab":"`+out.Tab+`","steps":[{"snapshot": {"since": "`+snap["snapshotId"].(string)+`"}}]}`)
	if got := stepOutput(t, again, 0); got["unchanged"] != true {
		t.Errorf("no change since the scrolled snapshot: %v", got)
	}
}

// TestSpecSnapshotSpillsToArtifacts: §7.6 — a snapshot above the inline
// limit is written to a file named in artifacts.snapshot (and file); above
// 1000 refs the refs map goes to artifacts.refs.
func TestSpecSnapshotSpillsToArtifacts(t *testing.T) {
	base := pagesURL(t)
	out := runJSON(t, `{"steps":[
		{"openTab": "`+base+`spec.html"},
		{"pageFunction": "() => { window.hits = {}; const m = document.querySelector('main'); for (let i = 0; i < 1100; i++) { const b = document.createElement('button'); b.textContent = 'Item ' + i; b.onclick = () => { hits[i] = (hits[i] || 0) + 1 }; m.append(b) } return m.querySelectorAll('button').length }"},
		{"snapshot": true}
	]}`)
	mustOK(t, out)
	closeTabAfter(t, out)
	snap := stepOutput(t, out, 2)
	arts, _ := snap["artifacts"].(map[string]any)
	path, _ := arts["snapshot"].(string)
	if path == "" || snap["file"] != path || snap["truncatedInline"] != true {
		t.Fatalf("spilled snapshot: %v", snap)
	}
	full, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(full), `button "Item 1099"`) || !strings.HasPrefix(string(full), snap["yaml"].(string)) {
		t.Fatalf("snapshot file %s (%v): %.200s", path, err, full)
	}
	refsPath, _ := arts["refs"].(string)
	data, err := os.ReadFile(refsPath)
	if err != nil {
		t.Fatalf("refs map %q: %v (snapshot %v refs)", refsPath, err, snap["refs"])
	}
	var refs map[string]struct{ Role, Name string }
	if err := json.Unmarshal(data, &refs); err != nil || len(refs) <= 1000 || float64(len(refs)) != snap["refs"] {
		t.Fatalf("refs map: %d entries (%v), snapshot says %v", len(refs), err, snap["refs"])
	}
	ref := ""
	for r, e := range refs {
		if e.Role == "button" && e.Name == "Item 777" {
			ref = r
		}
	}
	// A ref taken from the file acts on that element, once.
	click := runJSON(t, `{"tab":"`+out.Tab+`","steps":[{"click":"`+ref+`"},{"pageFunction":"JSON.stringify(hits)"}]}`)
	mustOK(t, click)
	if got := jsonString(click.Steps[1].Output); got != `"{\"777\":1}"` {
		t.Errorf("clicking %s from the refs map: hits %s", ref, got)
	}
}

// TestSpecPollLastValueKeepsFalsy: §12.2 — on timeout lastValue is the last
// evaluation's value, including the falsy 0, ” and false; the same holds
// for a hook that times out.
func TestSpecPollLastValueKeepsFalsy(t *testing.T) {
	base := pagesURL(t)
	out := runJSON(t, `{"steps":[
		{"openTab": "`+base+`spec.html"},
		{"pageFunction": "() => { window.n = 0; return 1 }"},
		{"poll": {"fn": "() => ++window.n && 0", "interval": 50}, "timeout": 1500},
		{"poll": {"fn": "() => ''", "interval": 50}, "timeout": 1500},
		{"poll": {"fn": "() => false", "interval": 50}, "timeout": 1500},
		{"poll": {"fn": "() => null", "interval": 50}, "timeout": 1500},
		{"pageFunction": "window.n > 1"}
	]}`)
	mustOK(t, out)
	closeTabAfter(t, out)
	for i, want := range []string{"0", `""`, "false", "null"} {
		got := stepOutput(t, out, i+2)
		lv, ok := got["lastValue"]
		if got["resolved"] != false || !ok || jsonString(lv) != want {
			t.Errorf("poll step %d: %s, want lastValue %s", i+3, jsonString(out.Steps[i+2].Output), want)
		}
	}
	if got := jsonString(out.Steps[6].Output); got != "true" {
		t.Errorf("the predicate ran %s more than once", got)
	}
	raw := string(out.JSON())
	if !strings.Contains(raw, `"lastValue":0`) || !strings.Contains(raw, `"lastValue":""`) || !strings.Contains(raw, `"lastValue":false`) {
		t.Errorf("answer drops falsy lastValue: %s", raw)
	}

	// A settledWhen hook that never holds warns with its last value.
	hook := runJSON(t, `{"tab":"`+out.Tab+`","steps":[
		{"click": {"selector": "#press", "settledWhen": "() => window.pressed - 1"}, "timeout": 2000}
	]}`)
	mustOK(t, hook)
	if w := strings.Join(hook.Steps[0].Warning, "; "); !strings.Contains(w, "last value: 0") {
		t.Errorf("settledWhen warning = %q", w)
	}
	// A readyWhen hook that never holds fails the step with its last value,
	// and the action does not run.
	ready := runJSON(t, `{"tab":"`+out.Tab+`","steps":[
		{"click": {"selector": "#press", "readyWhen": "() => ''"}, "timeout": 1500}
	]}`)
	if ready.OK() || ready.Steps[0].ErrorType != "TimeoutError" || !strings.Contains(ready.Steps[0].Error, `last value: ""`) {
		t.Errorf("readyWhen timeout: %s", ready.JSON())
	}
	after := runJSON(t, `{"tab":"`+out.Tab+`","steps":[{"pageFunction":"window.pressed"}]}`)
	if got := jsonString(after.Steps[0].Output); got != "1" {
		t.Errorf("pressed = %s: the click ran though readyWhen never held", got)
	}
}

// TestSpecConsoleStartsEmptyEachRun: §11.14 — the console step returns the
// messages of its own run; an earlier run's are not replayed.
func TestSpecConsoleStartsEmptyEachRun(t *testing.T) {
	base := pagesURL(t)
	first := runJSON(t, `{"steps":[
		{"openTab": "`+base+`spec.html"},
		{"pageFunction": "() => { console.error('first-run'); return 1 }"},
		{"console": true}
	]}`)
	mustOK(t, first)
	closeTabAfter(t, first)
	if got := stepOutput(t, first, 2); got["total"] != 1.0 || !strings.Contains(jsonString(got), "first-run") {
		t.Fatalf("first run console: %v", got)
	}
	second := runJSON(t, `{"tab":"`+first.Tab+`","steps":[
		{"pageFunction": "() => { console.warn('second-run'); return 1 }"},
		{"console": true}
	]}`)
	mustOK(t, second)
	got := stepOutput(t, second, 1)
	if got["total"] != 1.0 || strings.Contains(jsonString(got), "first-run") || !strings.Contains(jsonString(got), "second-run") {
		t.Errorf("second run console: %v", got)
	}
	third := runJSON(t, `{"tab":"`+first.Tab+`","steps":[{"console": {"level": "error"}}]}`)
	mustOK(t, third)
	if got := stepOutput(t, third, 0); got["total"] != 0.0 {
		t.Errorf("a run that logged nothing: %v", got)
	}
}

// TestSpecStopOnError: §16.4 — stopOnError (default true) stops at the first
// failed step; with false every step runs and each one's status is listed.
func TestSpecStopOnError(t *testing.T) {
	base := pagesURL(t)
	steps := `[
		{"openTab": "` + base + `spec.html"},
		{"click": "#missing", "timeout": 1500},
		{"click": "#press"},
		{"wait": "#never", "timeout": 300},
		{"pageFunction": "window.pressed"}
	]`
	keep := runJSON(t, `{"stopOnError": false, "steps": `+steps+`}`)
	closeTabAfter(t, keep)
	if keep.Status != StatusError || len(keep.Steps) != 5 {
		t.Fatalf("stopOnError false: %s", keep.JSON())
	}
	var statuses []string
	for _, s := range keep.Steps {
		statuses = append(statuses, s.Status)
	}
	if got := strings.Join(statuses, ","); got != "ok,error,ok,error,ok" {
		t.Errorf("statuses = %s", got)
	}
	if got := jsonString(keep.Steps[4].Output); got != "1" {
		t.Errorf("the click after the failure ran %s times", got)
	}
	if len(keep.Errors) != 2 || keep.Errors[0].Step != 2 || keep.Errors[1].Step != 4 || keep.Errors[0].Action != "click" || keep.Errors[1].Action != "wait" {
		t.Errorf("errors = %s", jsonString(keep.Errors))
	}

	stop := runJSON(t, `{"stopOnError": true, "steps": `+steps+`}`)
	closeTabAfter(t, stop)
	if stop.Status != StatusError || len(stop.Steps) != 2 || stop.Steps[1].Status != StatusError {
		t.Fatalf("stopOnError true: %s", stop.JSON())
	}
	if got := compileForTest(t, `{"stopOnError": false, "steps": [{"pageFunction": "1"}]}`); !strings.Contains(got, "configure(stop_on_error = False)") {
		t.Errorf("compiled: %s", got)
	}
	bad := runJSON(t, `{"stopOnError": "no", "steps": [{"pageFunction": "1"}]}`)
	if bad.Error == nil || bad.Error.Type != TypeValidation || !strings.Contains(bad.Error.Message, "stopOnError") {
		t.Errorf("stopOnError string: %s", bad.JSON())
	}
}

// TestSpecChromePathFallsBack: §4 — a CHROME_PATH that names no file falls
// back to the normal search, with a warning, instead of failing.
func TestSpecChromePathFallsBack(t *testing.T) {
	port, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	opts := testOptions(t)
	opts.Endpoint = chrome.Endpoint{Port: atoi(port)}
	t.Setenv(chrome.EnvChromePath, filepath.Join(t.TempDir(), "no-such-chrome"))
	t.Cleanup(func() { chrome.Stop(context.Background(), atoi(port)) })
	_, out := RunJSON(t.Context(), []byte(`{"steps":[{"openTab":"about:blank"},{"pageFunction":"navigator.userAgent"}]}`), opts)
	mustOK(t, out)
	if w := strings.Join(out.Steps[0].Warning, "; "); !strings.Contains(w, "CHROME_PATH=") || !strings.Contains(w, "does not exist") {
		t.Errorf("openTab warning = %q", w)
	}
	if ua, _ := out.Steps[1].Output.(string); !strings.Contains(ua, "Chrome/") {
		t.Errorf("the launched browser answered %v", out.Steps[1].Output)
	}
	if p, ok := chrome.Launched(atoi(port)); !ok || p.Executable == "" {
		t.Errorf("no Chrome recorded as launched on port %s", port)
	}
}

// TestSpecConnectTab: §5 — connecting to a tab is not navigating it; a
// selectors list reports which selector matched (§6.6).
func TestSpecConnectTab(t *testing.T) {
	base := pagesURL(t)
	open := runJSON(t, `{"steps":[{"openTab": "`+base+`spec.html"}]}`)
	mustOK(t, open)
	closeTabAfter(t, open)
	conn := runJSON(t, `{"steps":[{"connectTab": "`+open.Tab+`"}, {"snapshot": true}]}`)
	mustOK(t, conn)
	if conn.Navigated || conn.Tab != open.Tab {
		t.Errorf("connectTab alone: navigated %v tab %s", conn.Navigated, conn.Tab)
	}
	byURL := runJSON(t, `{"steps":[{"connectTab": {"url": "spec\\.html$"}}, {"goto": "`+base+`one.html"}]}`)
	mustOK(t, byURL)
	if !byURL.Navigated || byURL.Tab != open.Tab {
		t.Errorf("connectTab then goto: navigated %v tab %s", byURL.Navigated, byURL.Tab)
	}

	click := runJSON(t, `{"tab":"`+open.Tab+`","steps":[
		{"goto": "`+base+`spec.html"},
		{"click": {"selectors": ["#nope", ".missing button", "#press", "button"]}},
		{"pageFunction": "window.pressed"}
	]}`)
	mustOK(t, click)
	got := stepOutput(t, click, 1)
	if got["matchedSelector"] != "#press" || got["selectorIndex"] != 2.0 {
		t.Errorf("click with selectors: %v", got)
	}
	if n := jsonString(click.Steps[2].Output); n != "1" {
		t.Errorf("pressed %s times", n)
	}
}

// TestSpecPageFunctionSerialize: §12.1/§17.7 — by default JSON values come
// back as they are (a deliberate difference); serialize: true wraps every
// value as {type, value}, in function and expression form alike.
func TestSpecPageFunctionSerialize(t *testing.T) {
	base := pagesURL(t)
	out := runJSON(t, `{"steps":[
		{"openTab": "`+base+`spec.html"},
		{"pageFunction": "() => ({n: 3, s: 'x', list: [true, null], when: new Date(0)})"},
		{"pageFunction": {"fn": "() => ({n: 3, s: 'x', list: [true, null], when: new Date(0)})", "serialize": true}},
		{"pageFunction": {"expression": "document.title", "serialize": true}},
		{"pageFunction": {"expression": "41 + 1", "serialize": true}},
		{"pageFunction": {"expression": "[document.querySelector('#press'), NaN]", "serialize": true}},
		{"pageFunction": {"fn": "() => undefined", "serialize": true}},
		{"pageFunction": {"fn": "() => new Date(0)", "serialize": false}}
	]}`)
	mustOK(t, out)
	closeTabAfter(t, out)
	want := []string{
		`{"list":[true,null],"n":3,"s":"x","when":{"timestamp":0,"type":"Date","value":"1970-01-01T00:00:00.000Z"}}`,
		`{"type":"object","value":{"list":{"length":2,"type":"array","value":[{"type":"boolean","value":true},{"type":"null","value":null}]},"n":{"type":"number","value":3},"s":{"type":"string","value":"x"},"when":{"timestamp":0,"type":"Date","value":"1970-01-01T00:00:00.000Z"}}}`,
		`{"type":"string","value":"Spec conformance"}`,
		`{"type":"number","value":42}`,
		`{"length":2,"type":"array","value":[{"attributes":{"onclick":"window.pressed = (window.pressed || 0) + 1","type":"button"},"childCount":0,"id":"press","isConnected":true,"tag":"button","text":"Press Me","type":"Element"},{"type":"number","value":"NaN"}]}`,
		`{"type":"undefined"}`,
		`"1970-01-01T00:00:00.000Z"`,
	}
	for i, w := range want {
		if got := jsonString(out.Steps[i+1].Output); got != w {
			t.Errorf("step %d:\n got %s\nwant %s", i+2, got, w)
		}
	}
}

// TestSpecTabLifecycle: §4 chromeStatus and §5 — openTab/newTab,
// listTabs, connectTab/switchTab and closeTab, through the registry.
func TestSpecTabLifecycle(t *testing.T) {
	base := pagesURL(t)
	a := runJSON(t, `{"steps":[{"openTab": "`+base+`one.html"}]}`)
	mustOK(t, a)
	closeTabAfter(t, a)
	b := runJSON(t, `{"steps":[{"newTab": "`+base+`two.html"}, {"chromeStatus": true}, {"listTabs": true}]}`)
	mustOK(t, b)
	if b.Tab == a.Tab || b.Tab == "" {
		t.Fatalf("newTab gave tab %q (first %q)", b.Tab, a.Tab)
	}
	status := stepOutput(t, b, 1)
	if status["running"] != true || !strings.Contains(jsonString(status["tabs"]), "two.html") {
		t.Errorf("chromeStatus: %v", status)
	}
	listed := jsonString(b.Steps[2].Output)
	for _, want := range []string{`"` + a.Tab + `"`, `"` + b.Tab + `"`, "one.html", "two.html"} {
		if !strings.Contains(listed, want) {
			t.Errorf("listTabs lacks %s: %s", want, listed)
		}
	}
	sw := runJSON(t, `{"steps":[{"switchTab": "`+a.Tab+`"}, {"pageFunction": "location.pathname"}]}`)
	mustOK(t, sw)
	if got := jsonString(sw.Steps[1].Output); got != `"/one.html"` || sw.Tab != a.Tab {
		t.Errorf("switchTab %s: tab %s, page %s", a.Tab, sw.Tab, got)
	}
	closed := runJSON(t, `{"steps":[{"closeTab": "`+b.Tab+`"}, {"listTabs": true}]}`)
	mustOK(t, closed)
	if strings.Contains(jsonString(closed.Steps[1].Output), `"`+b.Tab+`"`) {
		t.Errorf("closed tab still listed: %s", jsonString(closed.Steps[1].Output))
	}
	gone := runJSON(t, `{"tab":"`+b.Tab+`","steps":[{"pageFunction": "1"}]}`)
	if gone.OK() || gone.Error == nil || gone.Error.Type != TypeConnection {
		t.Errorf("a closed tab: %s", gone.JSON())
	}
}

// TestSpecFrames: §13 — frame lists the frames, switching runs later steps
// inside the iframe (acting there once), and "top" comes back.
func TestSpecFrames(t *testing.T) {
	base := pagesURL(t)
	out := runJSON(t, `{"steps":[
		{"openTab": "`+base+`spec-frame.html"},
		{"wait": "iframe#pay"},
		{"frame": {"list": true}},
		{"frame": "iframe#pay"},
		{"fill": {"label": "Card number", "value": "4242"}},
		{"click": {"text": "Pay now"}},
		{"pageFunction": "[document.title, card.value, window.paid, done.textContent]"},
		{"frame": "top"},
		{"pageFunction": "[document.title, typeof window.paid]"}
	]}`)
	mustOK(t, out)
	closeTabAfter(t, out)
	list := jsonString(out.Steps[2].Output)
	if !strings.Contains(list, "spec-inner.html") || !strings.Contains(list, "mainFrameId") {
		t.Errorf("frame list: %s", list)
	}
	if got := jsonString(out.Steps[6].Output); got != `["Payment form","4242",1,"Paid"]` {
		t.Errorf("inside the frame: %s", got)
	}
	if got := jsonString(out.Steps[8].Output); got != `["Checkout","undefined"]` {
		t.Errorf("back on top: %s", got)
	}
}

// TestSpecPipelineAndPress: §12.3 pipeline runs micro-operations in one
// evaluation and names the one that failed (a failed step here, with the
// spec's completed/failedAt/results in its context); §9.4 press sends real
// keys.
func TestSpecPipelineAndPress(t *testing.T) {
	base := pagesURL(t)
	out := runJSON(t, `{"steps":[
		{"openTab": "`+base+`spec.html"},
		{"pipeline": [{"find": "#q", "fill": "abc"}, {"find": "#press", "click": true}, {"return": "() => [q.value, window.pressed]"}]},
		{"click": "#q"},
		{"press": "End"},
		{"press": {"key": "Backspace", "times": 2}},
		{"pageFunction": "[q.value, window.pressed, keys.q]"}
	]}`)
	mustOK(t, out)
	closeTabAfter(t, out)
	ok := stepOutput(t, out, 1)
	if ok["completed"] != true || !strings.Contains(jsonString(ok["results"]), `["abc",1]`) {
		t.Errorf("pipeline: %v", ok)
	}
	if got := jsonString(out.Steps[5].Output); got != `["a",1,3]` {
		t.Errorf("after press: %s (value, presses, keydowns)", got)
	}

	bad := runJSON(t, `{"tab":"`+out.Tab+`","steps":[
		{"pipeline": {"steps": [{"find": "#press", "click": true}, {"find": "#nope", "click": true}, {"find": "#press", "click": true}]}}
	]}`)
	s := bad.Steps[0]
	ctx := jsonString(s.Context)
	if bad.OK() || !strings.Contains(s.Error, "step 1") || !strings.Contains(s.Error, "#nope") || !strings.Contains(ctx, `"failedAt":1`) || !strings.Contains(ctx, `"completed":false`) {
		t.Errorf("failing pipeline: %s", bad.JSON())
	}
	after := runJSON(t, `{"tab":"`+out.Tab+`","steps":[{"pageFunction": "window.pressed"}]}`)
	if got := jsonString(after.Steps[0].Output); got != "2" {
		t.Errorf("pressed = %s: the operations after the failed one ran, or the one before did not", got)
	}
}

// TestSpecTargetingAndActionability: §6 targets (shadow DOM text, refs that
// re-resolve or go stale, coordinates), §8 a covered element is refused
// with what covers it, and §5 a link opening a tab reports newTabs.
func TestSpecTargetingAndActionability(t *testing.T) {
	base := pagesURL(t)
	out := runJSON(t, `{"steps":[
		{"openTab": "`+base+`spec-targets.html"},
		{"click": {"text": "Shadow action"}},
		{"snapshotSearch": {"text": "Save", "role": "button", "exact": true}},
		{"click": {"x": 430, "y": 320}},
		{"pageFunction": "[window.shadowClicks, JSON.stringify(window.padClicks)]"}
	]}`)
	mustOK(t, out)
	closeTabAfter(t, out)
	if got := jsonString(out.Steps[4].Output); got != `[1,"[[30,20]]"]` {
		t.Errorf("shadow click and point click: %s", got)
	}
	matches, _ := stepOutput(t, out, 2)["matches"].([]any)
	if len(matches) != 1 {
		t.Fatalf("Save button: %v", stepOutput(t, out, 2))
	}
	save := matches[0].(map[string]any)["ref"].(string)
	tab := `{"tab":"` + out.Tab + `","steps":`

	// Under the cookie banner: the answer names the banner and its Accept
	// button; the button is clicked at most once, and only when the answer
	// says it was (auto-forced).
	covered := runJSON(t, tab+`[{"click": "#covered", "timeout": 8000}]}`)
	step := jsonString(covered.Steps[0])
	if !strings.Contains(step, "cookie-banner") || !strings.Contains(step, `"name":"Accept"`) {
		t.Errorf("clicking under the cookie banner does not name it: %s", step)
	}
	count := func() string {
		r := runJSON(t, tab+`[{"pageFunction": "window.coveredClicks || 0"}]}`)
		return jsonString(r.Steps[0].Output)
	}
	wantBefore := "0"
	if covered.OK() {
		wantBefore = "1"
		if stepOutput(t, covered, 0)["autoForced"] != true {
			t.Errorf("clicked through the banner without saying so: %s", step)
		}
	}
	if got := count(); got != wantBefore {
		t.Errorf("covered button clicked %s times; the answer said status %s", got, covered.Status)
	}
	accept := runJSON(t, tab+`[{"click": {"text": "Accept"}}, {"click": "#covered"}]}`)
	mustOK(t, accept)
	if got, want := count(), map[string]string{"0": "1", "1": "2"}[wantBefore]; got != want {
		t.Errorf("after Accept: clicked %s times, want %s", got, want)
	}
	if stepOutput(t, accept, 1)["autoForced"] == true {
		t.Errorf("the uncovered click was auto-forced: %s", jsonString(accept.Steps[1]))
	}

	rerendered := runJSON(t, tab+`[{"pageFunction": "rerender('Save')"}, {"click": "`+save+`"}, {"pageFunction": "window.saves"}]}`)
	mustOK(t, rerendered)
	if got := stepOutput(t, rerendered, 1); got["reResolved"] != true {
		t.Errorf("click on a re-rendered ref: %v", got)
	}
	if got := jsonString(rerendered.Steps[2].Output); got != "1" {
		t.Errorf("saves = %s", got)
	}
	stale := runJSON(t, tab+`[{"pageFunction": "rerender('Discard')"}, {"click": "`+save+`"}]}`)
	if stale.OK() || stale.Steps[1].ErrorType != "StaleElementError" {
		t.Errorf("click on a ref whose element became another: %s", stale.JSON())
	}

	opened := runJSON(t, tab+`[{"click": {"text": "Open help"}}]}`)
	mustOK(t, opened)
	newTabs, _ := stepOutput(t, opened, 0)["newTabs"].([]any)
	if len(newTabs) != 1 || !strings.Contains(jsonString(newTabs), "one.html") {
		t.Fatalf("newTabs: %s", jsonString(opened.Steps[0].Output))
	}
	nt := newTabs[0].(map[string]any)
	id, _ := nt["tab"].(string)
	if id == "" {
		id, _ = nt["targetId"].(string)
	}
	runJSON(t, `{"steps":[{"closeTab": "`+id+`"}]}`)
}

// TestSpecNetworkIdle: §17.4 — waitUntil networkidle waits for the page's
// requests after load to end.
func TestSpecNetworkIdle(t *testing.T) {
	base := pagesURL(t)
	out := runJSON(t, `{"steps":[
		{"openTab": "about:blank"},
		{"goto": {"url": "`+base+`spec-fetch.html", "waitUntil": "networkidle"}},
		{"pageFunction": "[window.loaded === true, document.querySelectorAll('#orders li').length]"}
	]}`)
	mustOK(t, out)
	closeTabAfter(t, out)
	if got := jsonString(out.Steps[2].Output); got != "[true,3]" {
		t.Errorf("after networkidle: %s", got)
	}
}
