// Package corpus drives widely used UI libraries, installed from npm at the
// versions pinned in testdata/widgets, through the JSON interface exactly as
// an agent would: open a tab, snapshot, pick refs from the answer, act by ref
// or text, and read the library's own state back with pageFunction (the
// editor's model, the slider's value, the list's order, the grid's sort).
//
// The libraries are installed once per lockfile into a cache
// ($CDP_SKILL_WIDGET_CACHE, else os.UserCacheDir()/cdp-skill/widgets) with
// `npm ci`; without npm the tests skip, or fail when CI=true.
package corpus

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/cdp-skill/cdp-skill/browser/browsertest"
	"github.com/cdp-skill/cdp-skill/runtime"
	"github.com/cdp-skill/cdp-skill/stdlib"
)

// TestMain runs the corpus against the test binary's Chromium. The tests
// run in parallel, each in its own tab.
func TestMain(m *testing.M) { browsertest.Main(m) }

// agent is one tab driven through runtime.RunJSON, one command at a time.
type agent struct {
	t    *testing.T
	tab  string
	site site
	// took is how long the last command ran.
	took time.Duration
}

// commandTimeout bounds one command; a step's own timeout is 30 s by
// default, so a command that needs this much has hung.
const commandTimeout = 90 * time.Second

// openPage opens page (a path under testdata/pages, on 127.0.0.1) in a new
// tab, waits for ready (a CSS selector the library renders) and closes the
// tab when the test ends.
func openPage(t *testing.T, page, ready string) *agent {
	t.Helper()
	s := serve(t)
	a := &agent{t: t, site: s}
	steps := []string{`{"openTab":` + jsonString(s.Top+page) + `}`}
	if ready != "" {
		steps = append(steps, `{"wait":`+jsonString(ready)+`}`)
	}
	out := a.runSteps(steps...)
	if out.Tab != "" {
		a.tab = out.Tab
		t.Cleanup(func() { a.runSteps(`{"closeTab":` + jsonString(a.tab) + `}`) })
	}
	mustOK(t, out)
	return a
}

// goTo loads page in the agent's tab and waits for ready.
func (a *agent) goTo(page, ready string) {
	a.t.Helper()
	steps := []string{`{"goto":` + jsonString(a.site.Top+page) + `}`}
	if ready != "" {
		steps = append(steps, `{"wait":`+jsonString(ready)+`}`)
	}
	mustOK(a.t, a.runSteps(steps...))
}

// run sends one command of raw JSON steps in the agent's tab.
func (a *agent) runSteps(steps ...string) *runtime.Output {
	a.t.Helper()
	input := `{"steps":[` + strings.Join(steps, ",") + `]}`
	if a.tab != "" {
		input = `{"tab":` + jsonString(a.tab) + `,"steps":[` + strings.Join(steps, ",") + `]}`
	}
	ctx, cancel := context.WithTimeout(context.Background(), commandTimeout)
	defer cancel()
	start := time.Now()
	_, out := runtime.RunJSON(ctx, []byte(input), options(a.t))
	a.took = time.Since(start)
	if a.took > 35*time.Second {
		a.t.Errorf("command took %v (> a step's 30 s timeout plus slack): %s", a.took.Round(time.Millisecond), input)
	}
	return out
}

// do runs steps and fails the test unless every step succeeded.
func (a *agent) do(steps ...string) *runtime.Output {
	a.t.Helper()
	out := a.runSteps(steps...)
	mustOK(a.t, out)
	return out
}

// try runs steps and reports a failure without stopping the test, for a
// sequence whose later commands must run whatever became of earlier ones.
func (a *agent) try(steps ...string) *runtime.Output {
	a.t.Helper()
	out := a.runSteps(steps...)
	if !out.OK() {
		a.t.Errorf("status %s: %s", out.Status, out.JSON())
	}
	return out
}

// snapshot takes the full ARIA snapshot, as an agent reads the page, and
// returns its YAML.
func (a *agent) snapshot(steps ...string) string {
	a.t.Helper()
	out := a.do(append(steps, `{"snapshot":{}}`)...)
	yaml, _ := stepOutput(a.t, out, len(steps))["yaml"].(string)
	if yaml == "" {
		a.t.Fatalf("snapshot without yaml: %s", out.JSON())
	}
	return yaml
}

// look runs steps and returns the answer's viewport snapshot (scoped to
// the main content and what changed), which an agent reads after acting:
// it shows the popups an action opened, wherever the page put them.
func (a *agent) look(steps ...string) string {
	a.t.Helper()
	out := a.do(steps...)
	if out.ViewportSnap == "" {
		a.t.Fatalf("the answer has no viewport snapshot: %s", out.JSON())
	}
	return out.ViewportSnap
}

// eval reads the page's state back with pageFunction (after prefix steps,
// e.g. a frame step) and returns the value decoded from JSON.
func (a *agent) eval(fn string, prefix ...string) any {
	a.t.Helper()
	out := a.do(append(prefix, `{"pageFunction":`+jsonString(fn)+`}`)...)
	return out.Steps[len(prefix)].Output
}

// evalIn reads state back inside a frame: the command selects the frame,
// evaluates fn there and returns to the top document, as JSON.
func (a *agent) evalIn(frame, fn string) string {
	a.t.Helper()
	out := a.do(`{"frame":`+q(frame)+`}`, `{"pageFunction":`+q(fn)+`}`, `{"frame":"top"}`)
	return jsonString(out.Steps[1].Output)
}

// evalJSON is eval with the value re-encoded as compact JSON, for
// comparison with a literal.
func (a *agent) evalJSON(fn string, prefix ...string) string {
	a.t.Helper()
	return jsonString(a.eval(fn, prefix...))
}

// waitFor polls the page until fn is truthy (the library applies some
// changes after a frame or a timer).
func (a *agent) waitFor(fn string, prefix ...string) {
	a.t.Helper()
	out := a.do(append(prefix, `{"poll":{"fn":`+jsonString(fn)+`,"timeout":10000}}`)...)
	if res := stepOutput(a.t, out, len(prefix)); res["resolved"] != true {
		a.t.Fatalf("never true: %s (last %s)", fn, jsonString(res["lastValue"]))
	}
}

func options(t testing.TB) runtime.Options {
	c := browsertest.Require(t)
	return runtime.Options{Endpoint: c.Endpoint, Headless: true, Stdlib: stdlib.FS}
}

func mustOK(t *testing.T, out *runtime.Output) {
	t.Helper()
	if !out.OK() {
		t.Fatalf("status %s: %s", out.Status, out.JSON())
	}
}

// stepOutput is step i's output as a map.
func stepOutput(t *testing.T, out *runtime.Output, i int) map[string]any {
	t.Helper()
	if i >= len(out.Steps) {
		t.Fatalf("no step %d in %s", i, out.JSON())
	}
	var m map[string]any
	json.Unmarshal([]byte(jsonString(out.Steps[i].Output)), &m)
	return m
}

func jsonString(v any) string {
	data, _ := json.Marshal(v)
	return string(data)
}

var refPattern = regexp.MustCompile(`\[ref=(s[0-9]+e[0-9]+)\]`)

// refIn returns the ref on the first line of yaml that contains every
// needle, as an agent picks a ref from the snapshot it read.
func refIn(t *testing.T, yaml string, needles ...string) string {
	t.Helper()
	for _, line := range strings.Split(yaml, "\n") {
		if containsAll(line, needles) {
			if m := refPattern.FindStringSubmatch(line); m != nil {
				return m[1]
			}
		}
	}
	t.Fatalf("no ref on a line with %q in:\n%s", needles, yaml)
	return ""
}

func containsAll(s string, parts []string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}

// q quotes s as a JSON string, for building steps.
func q(s string) string { return jsonString(s) }

// box finds an element the snapshot shows without a ref (a list item a
// library makes draggable) with snapshotSearch, as an agent would, and
// returns its box in viewport CSS pixels.
func (a *agent) box(role, text string, prefix ...string) (x, y, w, h float64) {
	a.t.Helper()
	steps := append(prefix, `{"snapshotSearch":{"text":`+q(text)+`,"role":`+q(role)+`,"exact":true}}`)
	if len(prefix) > 0 {
		steps = append(steps, `{"frame":"top"}`) // leave the command in the top document
	}
	out := a.do(steps...)
	res := stepOutput(a.t, out, len(prefix))
	matches, _ := res["matches"].([]any)
	if len(matches) == 0 {
		a.t.Fatalf("snapshotSearch found no %s %q: %s", role, text, jsonString(res))
	}
	b, _ := matches[0].(map[string]any)["box"].(map[string]any)
	x, _ = b["x"].(float64)
	y, _ = b["y"].(float64)
	w, _ = b["width"].(float64)
	h, _ = b["height"].(float64)
	if w == 0 || h == 0 {
		a.t.Fatalf("no box for %s %q: %s", role, text, jsonString(matches[0]))
	}
	return x, y, w, h
}

// centre is a drag end at the centre of box(role, text): {"x":…,"y":…}.
func (a *agent) centre(role, text string, prefix ...string) string {
	a.t.Helper()
	x, y, w, h := a.box(role, text, prefix...)
	return point(x+w/2, y+h/2)
}

// point is a drag end at viewport coordinates.
func point(x, y float64) string { return fmt.Sprintf(`{"x":%.0f,"y":%.0f}`, x, y) }

// dragOK checks that a drag step's answer does not call a drag that
// worked a probable failure (the page's own state is checked by the test).
func dragOK(t *testing.T, out *runtime.Output, i int) {
	t.Helper()
	res := stepOutput(t, out, i)
	if res["landed"] == false || len(out.Steps[i].Warning) > 0 {
		t.Errorf("the drag worked but its answer doubts it: %s (warnings %q)", jsonString(res), out.Steps[i].Warning)
	}
}

// noWarning fails the test when a step of out carries a warning: an
// action that worked must not send the agent to act again.
func noWarning(t *testing.T, out *runtime.Output) {
	t.Helper()
	for i, s := range out.Steps {
		if len(s.Warning) > 0 {
			t.Errorf("step %d worked but its answer warns %q: %s", i, s.Warning, out.JSON())
		}
	}
}
